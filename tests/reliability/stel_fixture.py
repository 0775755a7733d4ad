"""A small STEL-format raw folder written from scratch (no corpus text): the header and
ID conventions of the STEL repository's quadruple TSV files, with generated sentences."""

from __future__ import annotations

from pathlib import Path

HEADER = (
    "\tAnchor 1\tAnchor 2\tAlternative 1.1\tAlternative 1.2\tCorrect Alternative\tID"
    "\t# Votes out of 5 for Correct Alternative\tstyle type"
)
# file name -> (style type, marker of the sentence with more style, marker with less)
FILES = {
    "quad_questions_char_contraction.tsv": ("contraction", "ction", "wiki"),
    "quad_questions_char_emotives.tsv": ("emotives", "emote", "emoji"),
    "quad_questions_char_substitution.tsv": ("nbr_substitution", "leet", "norm"),
}


def stel_row(index: int, style: str, more: str, less: str) -> str:
    """One quadruple: the anchor pair has the styled sentence first, the alternative pair
    second, so the correct alternative is 2."""
    anchor = (f"{style} anchor {index} with more style", f"{style} anchor {index} plain")
    alternative = (f"{style} other {index} plain", f"{style} other {index} with more style")
    ident = f"QQ_{more}-{index}-{less}-{index}_{less}-{index + 500}-{more}-{index + 500}--1"
    return "\t".join([str(index), *anchor, *alternative, "2", ident, "", style])


def write_stel(root: Path, rows_per_file: int = 30) -> Path:
    """``root/Data/STEL/characteristics/*.tsv`` with ``rows_per_file`` quadruples each."""
    folder = root / "Data" / "STEL" / "characteristics"
    folder.mkdir(parents=True, exist_ok=True)
    for name, (style, more, less) in FILES.items():
        lines = [HEADER] + [stel_row(i, style, more, less) for i in range(rows_per_file)]
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def stel_file(root: Path, style: str) -> Path:
    name = next(n for n, (s, _, _) in FILES.items() if s == style)
    return root / "Data" / "STEL" / "characteristics" / name
