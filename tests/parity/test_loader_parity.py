"""Dataset-loader parity with the STEB authors' code: the rows our builders write equal the
rows the authors' loaders hand to a task (after their per-class cap), text for text and in
order, on the real raw downloads in ../shared/corpora.

The reference below is written from reading the authors' ``bible_versions/loader.py``
(``rrivera1849/STEB``) and imports none of stylebench: verse lines are read only when they
are ``<integer> <non-empty text>``; references present in all eight translations are sorted
by (book folder, chapter, verse); a reference whose whitespace-collapsed, lower-cased text
repeats between two translations is dropped; the remaining references are shuffled by
``random.Random(42)``; records go reference by reference, translation by translation; the
task's per-class cap keeps the first n records of each label (n = smallest class clamped to
[25, 200]).
"""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path

import pytest

from tests.parity.test_steb_parity import _table

pytestmark = pytest.mark.corpora

TRANSLATIONS = ("ASV", "BBE", "DARBY", "DRA", "KJV", "LEB", "WEB", "YLT")


def _reference_bible_records(bibles: Path) -> list[tuple[str, str]]:
    per: dict[str, dict[tuple[str, int, int], str]] = {}
    for name in TRANSLATIONS:
        verses: dict[tuple[str, int, int], str] = {}
        root = bibles / name
        for book in sorted(p.name for p in root.iterdir() if p.is_dir()):
            for chapter_file in sorted((root / book).iterdir()):
                if chapter_file.suffix != ".txt":
                    continue
                chapter = int(chapter_file.stem[len(book) :])
                for line in chapter_file.read_text(encoding="utf-8", errors="replace").splitlines():
                    parts = line.strip().split(maxsplit=1)
                    if len(parts) != 2 or not parts[0].lstrip("-").isdigit():
                        continue
                    if parts[1].strip():
                        verses[(book, chapter, int(parts[0]))] = parts[1].strip()
        per[name] = verses
    common = set(per[TRANSLATIONS[0]])
    for name in TRANSLATIONS[1:]:
        common &= set(per[name])
    refs = [
        ref
        for ref in sorted(common)
        if len({" ".join(per[t][ref].lower().split()) for t in TRANSLATIONS}) == len(TRANSLATIONS)
    ]
    random.Random(42).shuffle(refs)
    return [(per[t][ref], t) for ref in refs for t in TRANSLATIONS]


def _first_per_class(records: list[tuple[str, str]]) -> list[tuple[str, str]]:
    sizes: dict[str, int] = defaultdict(int)
    for _, label in records:
        sizes[label] += 1
    n = max(25, min(200, min(sizes.values())))
    taken: dict[str, int] = defaultdict(int)
    kept = []
    for text, label in records:
        if taken[label] < n:
            taken[label] += 1
            kept.append((text, label))
    return kept


def test_bible_rows_equal_the_authors_loader(corpora: Path) -> None:
    table = _table("steb/bible_versions", corpora / "BibleVersions")
    expected = _first_per_class(
        _reference_bible_records(corpora / "BibleVersions" / "Data" / "Bibles")
    )
    ours = [(row["text"], row["label"]) for row in table.rows]
    assert len(ours) == len(expected) == 1600
    # the same verses per label, in the same order within each label
    by_label = defaultdict(list)
    for text, label in expected:
        by_label[label].append(text)
    ours_by_label = defaultdict(list)
    for text, label in ours:
        ours_by_label[label].append(text)
    assert ours_by_label == by_label
