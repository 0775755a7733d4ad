"""Parallel Shakespeare (Xu et al. 2012) as STEB order-alignment data:
``steb/parallel_shakespeare``.

Raw format: the ``cocoxu/Shakespeare`` repository, ``data/align/plays/merged/`` with one
pair of line-aligned UTF-8 files per play, ``<play>_original.snt.aligned`` (Shakespeare's
line) and ``<play>_modern.snt.aligned`` (its modern paraphrase); line *i* of one file is
aligned with line *i* of the other. ``plays/`` holds the 17 plays scraped from
SparkNotes No Fear Shakespeare (the ~20k pairs of 17 plays STEB describes, App. C.5);
``plays2/`` holds eNotes alignments, which STEB does not use.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.steb.catalog import ORDER, SampleCount, steb_dataset
from dataset_scripts.steb.sampling import cap_per_class

DOWNLOAD_URL = "https://github.com/cocoxu/Shakespeare"
PLAYS = Path("data") / "align" / "plays" / "merged"
ENOTES = Path("data") / "align" / "plays2" / "merged"
ORIGINAL, MODERN = "_original.snt.aligned", "_modern.snt.aligned"
GROUP = "shakespearean"
STYLES = ["Shakespearean original", "modern paraphrase"]


def read_lines(path: Path) -> list[str]:
    """Lines of a line-aligned text file (a final newline does not add a line); a byte
    sequence that is not UTF-8 raises :class:`DataError` naming the file and line."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out: list[str] = []
    for line_no, line in enumerate(lines, start=1):
        try:
            out.append(line.decode("utf-8").rstrip("\r"))
        except UnicodeDecodeError as error:
            raise DataError(f"{path} line {line_no}: not UTF-8 ({error.reason})") from None
    return out


def play_files(raw: Path) -> list[tuple[str, Path, Path]]:
    """(play, original file, modern file) of the SparkNotes plays, sorted by play."""
    folder = raw / PLAYS
    if not folder.is_dir():
        raise FileNotFoundError(
            f"missing folder {folder} (expected <play>{ORIGINAL} / <play>{MODERN} files); "
            f"download {DOWNLOAD_URL}"
        )
    plays = sorted(p.name[: -len(ORIGINAL)] for p in folder.glob(f"*{ORIGINAL}"))
    if not plays:
        raise FileNotFoundError(f"no *{ORIGINAL} file in {folder}; download {DOWNLOAD_URL}")
    out = []
    for play in plays:
        modern = folder / f"{play}{MODERN}"
        if not modern.is_file():
            raise FileNotFoundError(
                f"missing file {modern} (pairs with {play}{ORIGINAL}); download {DOWNLOAD_URL}"
            )
        out.append((play, folder / f"{play}{ORIGINAL}", modern))
    return out


def build_rows(raw: Path) -> tuple[list[dict[str, Any]], Counter[str]]:
    """All (original, modern) sequences in play order, before the cap."""
    dropped: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    for play, original_path, modern_path in play_files(raw):
        originals, moderns = read_lines(original_path), read_lines(modern_path)
        if len(originals) != len(moderns):
            raise DataError(
                f"{original_path} has {len(originals)} lines but {modern_path} has "
                f"{len(moderns)}; the files must be line-aligned"
            )
        for line_no, (original, modern) in enumerate(zip(originals, moderns, strict=True), start=1):
            original, modern = original.strip(), modern.strip()
            if not original or not modern:
                dropped["aligned line with an empty side"] += 1
                continue
            if original == modern:
                dropped["original and modern line identical (no style difference)"] += 1
                continue
            rows.append(
                {
                    "id": f"{play}-{line_no}",
                    "group": GROUP,
                    "texts": [original, modern],
                    "styles": list(STYLES),
                }
            )
    enotes = raw / ENOTES
    if enotes.is_dir():
        count = sum(len(read_lines(p)) for p in sorted(enotes.glob(f"*{ORIGINAL}")))
        if count:
            dropped["eNotes alignments (plays2/): STEB uses the 17 SparkNotes plays only"] += count
    return rows, dropped


_PROTOCOL = (
    "The 17 SparkNotes plays of `data/align/plays/merged/` (STEB App. C.5: ~20k line-aligned "
    "pairs of 17 plays) are read in alphabetical order of the play; line i of "
    "`<play>_original.snt.aligned` and of `<play>_modern.snt.aligned` form the sequence "
    "`[Shakespearean original, modern paraphrase]`, one style group. The eNotes alignments "
    "of `plays2/` are not used (counted below). Pairs with an empty side or two identical "
    "lines are dropped. As in STEB, the group keeps its first n sequences in source order, "
    "n = clamp(group size, 25, 200) = 200 (Table 15: 1 group x 400 texts)."
)


def build(raw: Path | None) -> BuildResult:
    """Shakespeare original/modern line pairs as order-alignment sequences."""
    if raw is None:
        raise FileNotFoundError(f"steb/parallel_shakespeare needs {DOWNLOAD_URL}")
    rows, dropped = build_rows(raw)
    rows = cap_per_class(rows, key=lambda row: row["group"], dropped=dropped, what="group")
    return BuildResult({"style_sequences": {"test": rows}}, dict(dropped))


SHAKESPEARE_CITATION = """@inproceedings{xu-etal-2012-paraphrasing,
  title     = {Paraphrasing for Style},
  author    = {Xu, Wei and Ritter, Alan and Dolan, Bill and Grishman, Ralph and Cherry, Colin},
  booktitle = {Proceedings of COLING 2012},
  pages     = {2899--2914},
  year      = {2012}
}"""


DATASETS = (
    steb_dataset(
        name="parallel_shakespeare",
        summary="Shakespeare plays line-aligned with modern English paraphrases (SparkNotes No "
        "Fear Shakespeare, 17 plays), as STEB order-alignment data.",
        bucket="time",
        definitional=("time", "content_independence"),
        counts={ORDER: SampleCount(1, 400, 400)},
        source_url="https://github.com/cocoxu/Shakespeare",
        license="no explicit licence: README_LICENSE only asks to cite Xu et al. (2012); text "
        "scraped from SparkNotes No Fear Shakespeare; research use",
        raw_format="data/align/plays/merged/<play>_{original,modern}.snt.aligned: "
        "line-aligned plain text, one sentence per line",
        citation=SHAKESPEARE_CITATION,
        builder=build,
        protocol=_PROTOCOL,
        raw_hint="Shakespeare",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "Shakespeare",
        (
            github(
                "cocoxu/Shakespeare",
                "ced63d473620e0f301ff87fbe14bdd99d5d9b2c4",
                (
                    "data/align/plays/merged/",
                    ("README", ""),
                    ("README_DATA", ""),
                    ("README_LICENSE", ""),
                ),
            ),
        ),
        license="no licence (cite Xu et al. COLING 2012); texts from SparkNotes and eNotes",
    ),
)
