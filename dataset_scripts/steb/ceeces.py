"""``steb/ceeces``: paragraphs of 18th-century English letters from the Corpus of Early
English Correspondence Extension Sampler (CEECES, parts 1 and 2, Nevalainen et al. 2021,
2022), labelled by 20-year period 1680-1800 (STEB App. C.5).

Raw format (COCOA-style plain text, as in the CEEC family of corpora): the ``*.txt``
files of both Zenodo records (any folder depth under ``--raw``). A letter starts at a
``<Q ...>`` parameter line whose fields carry the letter's year (e.g.
``<Q C 1712 ARMSTRONG>``); further parameter lines such as ``<B ...>``, ``<A ...>``,
``<L ...>``, ``<P ...>`` or ``<D 1712>`` (a ``<D>`` year overrides the ``<Q>`` one) are
metadata. The letter text follows; blank lines separate paragraphs. Editorial comments in
braces (``{ED: ...}``) are removed and whitespace inside a paragraph is collapsed.

Uncertain: the sampler was not available when this builder was written, so the exact
parameter codes of the Zenodo text files are taken from the CEEC/CEECS manuals' conventions
(``<Q>`` letter header with the year, blank-line paragraphs); a ``<Q>`` line without a
year is reported as malformed with file and line, so a format mismatch fails loudly.
Years are binned into six periods 1680-1699, ..., 1760-1779 and 1780-1800 (1800 joins the
last period); letters dated outside 1680-1800 are dropped and counted.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.raw_io import open_text
from dataset_scripts.steb.catalog import clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import CAP_PROTOCOL, labelled_builder

URL = "https://zenodo.org/records/6411789 and https://zenodo.org/records/5887101"
FIRST_YEAR = 1680
LAST_YEAR = 1800
PERIOD_YEARS = 20
PARAMETER = re.compile(r"^<([A-Z])(?:\s+([^>]*))?>\s*$")
YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d)(?!\d)")
EDITORIAL = re.compile(r"\{[^{}]*\}")


def period(year: int) -> str:
    """The 20-year period label of ``year`` (``"1680-1699"`` ... ``"1780-1800"``)."""
    start = FIRST_YEAR + (min(year, LAST_YEAR - 1) - FIRST_YEAR) // PERIOD_YEARS * PERIOD_YEARS
    end = LAST_YEAR if start + PERIOD_YEARS >= LAST_YEAR else start + PERIOD_YEARS - 1
    return f"{start}-{end}"


def ceeces_files(raw: Path) -> list[Path]:
    """Every ``*.txt`` file under ``raw`` (or ``raw`` itself), sorted by path."""
    if raw.is_file():
        return [raw]
    files = sorted(p for p in raw.rglob("*.txt") if p.is_file())
    if not files:
        raise DataError(f"missing CEECES letter files: expected {raw}/**/*.txt (download: {URL})")
    return files


def _year(value: str, path: Path, line_no: int, code: str) -> int:
    match = YEAR.search(value)
    if match is None:
        raise DataError(f"{path} line {line_no}: <{code}> parameter without a year: {value!r}")
    return int(match.group(1))


def read_letters(path: Path) -> Iterator[tuple[str, int, list[str], int]]:
    """Yield ``(letter id, year, paragraphs, lines of text outside any letter)`` per letter
    of one file (the last item is only non-zero on the first letter)."""
    letter: tuple[str, int] | None = None
    paragraphs: list[str] = []
    current: list[str] = []
    orphan = 0

    def close() -> None:
        if current:
            paragraphs.append(" ".join(" ".join(current).split()))
            current.clear()

    try:
        with open_text(path) as handle:
            for line_no, line in enumerate(handle, start=1):
                stripped = line.strip()
                parameter = PARAMETER.match(stripped)
                if parameter:
                    code, value = parameter.group(1), parameter.group(2) or ""
                    if code == "Q":
                        close()
                        if letter is not None:
                            yield letter[0], letter[1], paragraphs, orphan
                            orphan = 0
                        paragraphs = []
                        letter_id = f"{path.stem}-{line_no}"
                        letter = (letter_id, _year(value, path, line_no, "Q"))
                    elif code == "D" and letter is not None:
                        letter = (letter[0], _year(value, path, line_no, "D"))
                    continue
                if not stripped:
                    close()
                    continue
                if letter is None:
                    orphan += 1
                    continue
                current.append(EDITORIAL.sub(" ", stripped))
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: not UTF-8 at byte {error.start} of a line") from None
    close()
    if letter is not None:
        yield letter[0], letter[1], paragraphs, orphan
    elif orphan:
        yield "", 0, [], orphan


def read_records(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    for path in ceeces_files(raw):
        for letter_id, year, paragraphs, orphan in read_letters(path):
            if orphan:
                dropped["text line outside a <Q> letter"] += orphan
            if not letter_id:
                continue
            if not FIRST_YEAR <= year <= LAST_YEAR:
                dropped[f"paragraph of a letter dated outside {FIRST_YEAR}-{LAST_YEAR}"] += len(
                    paragraphs
                )
                continue
            for number, paragraph in enumerate(paragraphs, start=1):
                yield f"{letter_id}-p{number}", paragraph, period(year)


build_ceeces = labelled_builder(read_records)


DATASETS = (
    steb_dataset(
        name="ceeces",
        summary="Paragraphs of historical English letters (CEECES) labelled by 20-year period "
        "1680-1800.",
        bucket="time",
        definitional=("time",),
        counts=clustering_counts(6, 200),
        source_url="https://zenodo.org/records/6411789",
        license="CC BY-NC 4.0 (part 1) and CC BY-NC-ND 4.0 (part 2): non-commercial",
        raw_format="CEECES Zenodo records 6411789 and 5887101 (letter files with period metadata)",
        builder=build_ceeces,
        protocol="Every paragraph of every CEECES letter (parts 1 and 2) is one text, labelled "
        "with the 20-year period of the letter's date (1680-1699 ... 1780-1800). "
        + CAP_PROTOCOL
        + " With both parts (about 15k paragraphs) STEB reports 6 x 200 = 1,200 (Table 15).",
    ),
)
