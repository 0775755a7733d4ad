"""A small PAN23 multi-author-analysis download written in the published layout
(``pan23-multi-author-analysis-dataset{1,2,3}/...-{train,validation}/problem-N.txt`` +
``truth-problem-N.json``), with sentences we wrote: dataset1/2/3 = easy/medium/hard."""

from __future__ import annotations

import json
from pathlib import Path

LEVELS = ("easy", "medium", "hard")
# per level: problems as (paragraph texts, change flags between consecutive paragraphs)
AUTHOR_A = (
    "I reckon the harbour was busier than usual that morning, gulls everywhere.",
    "I reckon the boats came in late, and the fish were small again.",
    "I reckon nobody minded much; the tea at the kiosk was hot.",
)
AUTHOR_B = (
    "Quarterly figures indicate a marked deviation from the projected baseline.",
    "Consequently, the committee recommends an immediate review of procurement.",
    "Further analysis is warranted prior to the allocation of additional funds.",
)


def _problems(level: int) -> list[tuple[list[str], list[int]]]:
    """Deterministic documents; each level mixes same-author and author-change
    boundaries (level n has n + 1 documents)."""
    out = []
    for doc in range(level + 1):
        a = [f"{t} (doc {doc})" for t in AUTHOR_A]
        b = [f"{t} (doc {doc})" for t in AUTHOR_B]
        if doc % 2 == 0:
            paragraphs, changes = [a[0], a[1], b[0], b[1]], [0, 1, 0]
        else:
            paragraphs, changes = [b[2], a[2], a[0]], [1, 0]
        out.append((paragraphs, changes))
    return out


def write_pan23(root: Path) -> dict[str, int]:
    """Write the download under ``root``; returns the expected pairs per level
    (validation split only: STEB uses it; a train document is written and not used)."""
    expected = {}
    for index, level in enumerate(LEVELS, 1):
        base = root / f"pan23-multi-author-analysis-dataset{index}"
        for split, problems in (
            ("validation", _problems(index)),
            ("train", _problems(0)),
        ):
            folder = base / f"pan23-multi-author-analysis-dataset{index}-{split}"
            folder.mkdir(parents=True, exist_ok=True)
            for number, (paragraphs, changes) in enumerate(problems, 1):
                (folder / f"problem-{number}.txt").write_text("\n".join(paragraphs) + "\n")
                authors = 1 + int(any(changes))
                (folder / f"truth-problem-{number}.json").write_text(
                    json.dumps({"authors": authors, "changes": changes})
                )
        expected[level] = sum(len(c) for _, c in _problems(index))
    return expected
