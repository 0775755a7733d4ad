"""STEL (Wegmann & Nguyen 2021) as STEB order-alignment data: ``steb/STEL_feature``
(contraction, emotives, number substitution) and ``steb/STEL_register`` (formality,
simplicity).

Raw format: the tab-separated quadruple files of the STEL repository,
``Data/STEL/{characteristics,dimensions}/*.tsv`` with the columns ``Anchor 1``,
``Anchor 2``, ``Alternative 1.1``, ``Alternative 1.2``, ``Correct Alternative``, ``ID``
and ``style type``. Each quadruple holds two parallel pairs; the ``ID``
(``QQ_<anchor ids>_<alternative ids>--n``) says which sentence of each pair carries
the style (e.g. ``f-`` formal, ``ction-`` contracted). STEB turns every pair into a
sequence ``[more style, less style]``, de-duplicates pairs per style type, and pairs
every sequence with every other of its style type (it does not reuse STEL's own
quadruples).
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.raw_io import open_text
from dataset_scripts.steb.catalog import ORDER, SampleCount, steb_dataset
from dataset_scripts.steb.sampling import cap_per_class

# style type -> (id prefix of the sentence with MORE of the style, of the one with LESS)
STYLE_MARKERS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, str]]] = {
    "formality": (("f-",), ("i-",), ("formal", "informal")),
    "simplicity": (("s-",), ("c-", "x-"), ("simple", "complex")),
    "contraction": (("ction",), ("wiki",), ("contracted", "full form")),
    "emotives": (("emote",), ("emoji",), ("emoticon", "emoji")),
    "nbr_substitution": (("leet",), ("norm",), ("number substitution", "standard spelling")),
}
FEATURE_TYPES = ("contraction", "emotives", "nbr_substitution")
REGISTER_TYPES = ("formality", "simplicity")
COLUMNS = ("Anchor 1", "Anchor 2", "Alternative 1.1", "Alternative 1.2", "ID", "style type")


def _stel_files(raw: Path) -> list[Path]:
    for base in (raw / "Data" / "STEL", raw):
        folders = [base / "characteristics", base / "dimensions"]
        if any(f.is_dir() for f in folders):
            return sorted(p for f in folders if f.is_dir() for p in f.glob("*.tsv"))
    raise FileNotFoundError(
        f"{raw}: no STEL 'characteristics/' or 'dimensions/' folder (expected the STEL repository)"
    )


def _more_first(id_part: str, style: str, where: str) -> bool:
    more, less, _ = STYLE_MARKERS[style]
    if id_part.startswith(more):
        return True
    if id_part.startswith(less):
        return False
    raise DataError(f"{where}: ID part {id_part!r} starts with none of {more + less}")


def iter_stel_rows(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """``(line, row)`` of one STEL TSV file, read strictly.

    A quoted field may span lines (the em-subj-pronoun file has such texts). Errors name the
    file and line: a missing header or data rows, a row with fewer or more fields than the
    header (truncated, short or over-long), a field holding a tab (an unbalanced ``"``
    that swallowed the following rows), bad quoting, and bytes that are not UTF-8.
    """
    with open_text(path) as handle:
        reader = csv.reader(handle, delimiter="\t", strict=True)
        line = 1
        try:
            header = next(reader, None)
            if header is None:
                raise DataError(f"{path}: empty file (no header row)")
            header = [h.strip() for h in header]
            missing = [c for c in COLUMNS if c not in header]
            if missing:
                raise DataError(f"{path}: missing column(s) {', '.join(map(repr, missing))}")
            n_rows = 0
            line = reader.line_num + 1
            for values in reader:
                where = f"{path} line {line}"
                if values:
                    for index, value in enumerate(values):
                        if "\t" in value:
                            column = header[index] if index < len(header) else index + 1
                            raise DataError(
                                f"{where}: column {column!r} holds a tab: an unbalanced "
                                "double quote merged this row with the following ones"
                            )
                    if len(values) != len(header):
                        raise DataError(
                            f"{where}: {len(values)} tab-separated fields, the header has "
                            f"{len(header)} (a truncated, short or over-long row)"
                        )
                    n_rows += 1
                    yield line, dict(zip(header, values, strict=True))
                line = reader.line_num + 1
        except csv.Error as error:
            raise DataError(f"{path} line {line}: malformed TSV ({error})") from None
    if not n_rows:
        raise DataError(f"{path}: a header but no data rows")


def read_stel_pairs(raw: Path) -> tuple[dict[str, list[tuple[str, str]]], Counter[str]]:
    """All (more, less) sentence pairs per style type, in file order, de-duplicated.

    Rows of a style type STEB does not use (the em-subj-pronoun file) are counted and
    dropped; every other malformed row is an error naming file and line.
    """
    pairs: dict[str, list[tuple[str, str]]] = {}
    seen: dict[str, set[tuple[str, str]]] = {}
    dropped: Counter[str] = Counter()
    csv.field_size_limit(1 << 30)
    for path in _stel_files(raw):
        for line_no, row in iter_stel_rows(path):
            where = f"{path} line {line_no}"
            style = (row["style type"] or "").strip().lower()
            if not style:
                raise DataError(f"{where}: column 'style type' is empty")
            if style not in STYLE_MARKERS:
                dropped[f"style type {style!r} is not used by STEB"] += 1
                continue
            parts = row["ID"].split("_")
            if len(parts) < 3 or parts[0] != "QQ":
                raise DataError(f"{where}: column 'ID' value {row['ID']!r} is not QQ_<a>_<b>--n")
            orders = [
                _more_first(parts[1], style, where),
                _more_first(parts[2].split("--")[0], style, where),
            ]
            correct = (row.get("Correct Alternative") or "").strip()
            if correct in ("1", "2") and (correct == "1") != (orders[0] == orders[1]):
                raise DataError(
                    f"{where}: column 'Correct Alternative' is {correct} but the ID "
                    f"{row['ID']!r} implies {'1' if orders[0] == orders[1] else '2'}"
                )
            for (first, second), more_first in (
                (("Anchor 1", "Anchor 2"), orders[0]),
                (("Alternative 1.1", "Alternative 1.2"), orders[1]),
            ):
                a, b = (row[first] or "").strip(), (row[second] or "").strip()
                if not a or not b:
                    raise DataError(f"{where}: empty text in column {first!r} or {second!r}")
                pair = (a, b) if more_first else (b, a)
                if pair in seen.setdefault(style, set()):
                    dropped[f"duplicate {style} pair"] += 1
                    continue
                seen[style].add(pair)
                pairs.setdefault(style, []).append(pair)
    return pairs, dropped


def _build(raw: Path | None, styles: tuple[str, ...]) -> BuildResult:
    assert raw is not None
    pairs, dropped = read_stel_pairs(raw)
    absent = [style for style in styles if not pairs.get(style)]
    if absent:
        raise DataError(
            f"{raw}: no {', '.join(absent)} pairs in the STEL files "
            f"({', '.join(p.name for p in _stel_files(raw))}); is a file missing?"
        )
    rows = []
    for style in styles:
        labels = list(STYLE_MARKERS[style][2])
        for index, (more, less) in enumerate(pairs.get(style, [])):
            rows.append(
                {"id": f"{style}-{index}", "group": style, "texts": [more, less], "styles": labels}
            )
    rows = cap_per_class(rows, key=lambda row: row["group"], dropped=dropped, what="style group")
    other = {s for s in pairs if s not in styles}
    for style in sorted(other):  # a set: sorted for a byte-identical card
        dropped[f"{style} pairs (belong to the other STEL config)"] += len(pairs[style])
    return BuildResult({"style_sequences": {"test": rows}}, dict(dropped))


_PROTOCOL = (
    "Every quadruple of the STEL TSV files gives two parallel pairs; the `ID` column tells "
    "which sentence carries more of the style, and each pair becomes a sequence "
    "`[more, less]` (`styles` names the positions). Pairs are de-duplicated per style type. "
    "Order alignment pairs every sequence with every other sequence of its style type "
    "(STEB App. C.1), in both the plain and the distractor variant. As in STEB, every style "
    "group keeps its first n sequences in file order, n = min(group size) clamped to "
    "[25, 200] (Table 15: 3 x 100 sequences for STEL_feature, 2 x 196 for STEL_register). "
    "The em-subj-pronoun "
    "file is not used by STEB and is dropped (counted below)."
)


def build_feature(raw: Path | None) -> BuildResult:
    """STEL contraction, emotives and number-substitution pairs."""
    return _build(raw, FEATURE_TYPES)


def build_register(raw: Path | None) -> BuildResult:
    """STEL formality and simplicity pairs."""
    return _build(raw, REGISTER_TYPES)


STEL_CITATION = """@inproceedings{wegmann-nguyen-2021-capture,
  title     = {Does It Capture {STEL}? A Modular, Similarity-based Linguistic Style Evaluation Framework},
  author    = {Wegmann, Anna and Nguyen, Dong},
  booktitle = {Proceedings of EMNLP 2021},
  year      = {2021},
  pages     = {7109--7130}
}"""


DATASETS = (
    steb_dataset(
        name="STEL_feature",
        summary="STEL parallel sentence pairs for linguistic features (contraction, emotives, "
        "number substitution), as STEB order-alignment data.",
        bucket="feature",
        definitional=("linguistic_features", "content_independence"),
        counts={ORDER: SampleCount(3, 200, 600)},
        source_url="https://github.com/nlpsoc/STEL",
        license="MIT",
        raw_format="STEL quadruple TSV files (Data/STEL/characteristics|dimensions/*.tsv)",
        citation=STEL_CITATION,
        builder=build_feature,
        protocol=_PROTOCOL,
        raw_hint="STEL",
    ),
    steb_dataset(
        name="STEL_register",
        summary="STEL parallel sentence pairs for registers (formality, simplicity), as STEB "
        "order-alignment data.",
        bucket="register",
        definitional=("register", "content_independence"),
        counts={ORDER: SampleCount(2, 392, 784)},
        source_url="https://github.com/nlpsoc/STEL",
        license="MIT; the formality sample derives from GYAFC (Yahoo Answers) under the Yahoo "
        "Webscope terms (research use)",
        raw_format="STEL quadruple TSV files (Data/STEL/characteristics|dimensions/*.tsv)",
        citation=STEL_CITATION,
        builder=build_register,
        protocol=_PROTOCOL,
        raw_hint="STEL",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "STEL",
        (
            github(
                "nlpsoc/STEL",
                "e52f0521df53bd57c9ecafda16e7f2d6966a9993",
                (
                    "Data/STEL/",
                    "Data/Experiment-Results/",
                    ("LICENSE", ""),
                ),
            ),
        ),
        license="MIT; the formal sample also under the Yahoo Webscope terms (GYAFC-derived)",
        terms="The formal/informal STEL sample derives from GYAFC (Yahoo Answers): research use under the Yahoo Webscope terms.",
    ),
)
