"""``steb/pastel_{age,education,gender,politics}``: PASTEL sentences (Kang et al. 2019)
labelled by a persona attribute of their writer (STEB App. C.6).

Raw format: the sentence-level persona classification files of the PASTEL code
(``code/StyleClassify/tsv_bert_files/combined_<attribute>.tsv`` and
``combined_<attribute>_test.tsv``), one ``label<TAB>sentence`` per line, no header. These
files are binary: they keep two values per attribute (``filter_dic`` of
``feature_extract.py``: Female vs Male, 18-24 vs 35-44, Bachelor vs NoDegree, LeftWing vs
RightWing); which value is 0 and which 1 is not documented, so the labels are written as
``<attribute>_0`` / ``<attribute>_1``.

STEB built its PASTEL sets from the story files of the full release (``data_v2``): one JSON
object per story (``stories/{train,valid,test}/**/*.json``, read in sorted path order) with
``output.sentences`` (the five sentences, joined with a space into one text) and
``persona`` (lowercase keys ``age``, ``gender``, ``country``, ``ethnic``, ``education``,
``politics``, ``tod``); stories whose attribute is missing, empty or ``"Empty"`` are dropped.
Given such a folder, every ``pastel_*`` builder reads it (all values of the attribute, as in
Table 15); ``pastel_ethnic`` and ``pastel_tod`` need it. Otherwise the four binary
attributes fall back to the ``tsv_bert_files`` format above.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, https
from dataset_scripts.core.spec import Builder, BuildResult
from dataset_scripts.steb.catalog import clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import CAP_PROTOCOL, labelled_table

URL = "https://github.com/dykang/PASTEL"
PAIRS = {
    "age": ("18-24", "35-44"),
    "education": ("Bachelor", "NoDegree"),
    "gender": ("Female", "Male"),
    "politics": ("LeftWing", "RightWing"),
}


def _folder(raw: Path, attribute: str) -> Path:
    name = f"combined_{attribute}.tsv"
    for base in (raw / "tsv_bert_files", raw / "code" / "StyleClassify" / "tsv_bert_files", raw):
        if (base / name).is_file():
            return base
    raise DataError(
        f"missing PASTEL file: expected {raw / 'tsv_bert_files' / name} (download: {URL}, "
        "code/StyleClassify/tsv_bert_files.zip)"
    )


def read_records(raw: Path, attribute: str) -> Iterator[tuple[str, str, str]]:
    base = _folder(raw, attribute)
    for suffix in ("", "_test"):
        path = base / f"combined_{attribute}{suffix}.tsv"
        if not path.is_file():
            raise DataError(f"missing PASTEL file: expected {path} (download: {URL})")
        split = "test" if suffix else "train"
        with path.open(encoding="utf-8") as handle:
            for line_no, line in enumerate(handle, start=1):
                line = line.rstrip("\n")
                label, tab, text = line.partition("\t")
                if not tab or label not in ("0", "1"):
                    raise DataError(
                        f"{path} line {line_no}: expected 'label<TAB>sentence' with label 0 or "
                        f"1, got {line[:60]!r}"
                    )
                yield f"{split}-{line_no}", text, f"{attribute}_{label}"


def story_files(raw: Path) -> list[Path]:
    """PASTEL story JSON files under ``raw`` (sorted by path), or ``[]``."""
    return sorted(raw.rglob("*.json")) if raw.is_dir() else []


def read_stories(
    files: list[Path], attribute: str, dropped: Counter[str]
) -> Iterator[tuple[str, str, str]]:
    """``(id, text, label)`` of every story with a value for ``attribute``."""
    root = files[0].parent if len(files) == 1 else Path(*_common_parts(files))
    for path in files:
        try:
            story = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise DataError(f"{path} line {error.lineno}: invalid JSON ({error.msg})") from None
        sentences = story.get("output.sentences") if isinstance(story, dict) else None
        persona = story.get("persona") if isinstance(story, dict) else None
        if not isinstance(sentences, list) or not isinstance(persona, dict):
            raise DataError(f"{path}: story lacks 'output.sentences' (list) or 'persona' (object)")
        text = " ".join(s.strip() for s in sentences if isinstance(s, str) and s.strip())
        label = persona.get(attribute)
        if not label or label == "Empty":
            dropped[f"story without a {attribute} value"] += 1
            continue
        yield str(path.relative_to(root).with_suffix("")), text, str(label)


def _common_parts(files: list[Path]) -> tuple[str, ...]:
    parts = files[0].parent.parts
    for path in files[1:]:
        other = path.parent.parts
        n = 0
        while n < min(len(parts), len(other)) and parts[n] == other[n]:
            n += 1
        parts = parts[:n]
    return parts


STORIES_PROTOCOL = (
    "With the story release (data_v2 JSON files, sorted by path): each story's five "
    "`output.sentences` joined with a space is one text, labelled with the writer's persona "
    "value; stories without a value (or `Empty`) are dropped (counted). "
    + CAP_PROTOCOL
    + " This reproduces Table 15's classes for the attribute."
)


def _protocol(attribute: str) -> str:
    if attribute not in PAIRS:
        return STORIES_PROTOCOL
    first, second = PAIRS[attribute]
    return (
        STORIES_PROTOCOL
        + " Fallback, binary release: "
        + (
            f"Built from the binary sentence-level file `combined_{attribute}.tsv` followed by "
            f"`combined_{attribute}_test.tsv` of the PASTEL code release: two values, {first} and "
            f"{second}; the file does not say which is 0, so labels are `{attribute}_0` / "
            f"`{attribute}_1`. " + CAP_PROTOCOL + " This gives 2 x 200 = 400 texts. STEB used the "
            "full persona metadata of PASTEL data_v2 (all values of the attribute; see Table 15 "
            "for its counts), which this release format does not carry, so classes and counts "
            "differ from the paper."
        )
    )


def _make(attribute: str) -> Builder:
    def build(raw: Path | None) -> BuildResult:
        if raw is None:
            raise DataError(f"steb/pastel_{attribute} needs --raw <PASTEL stories folder>")
        dropped: Counter[str] = Counter()
        stories = story_files(Path(raw))
        if stories:
            return labelled_table(read_stories(stories, attribute, dropped), dropped)
        if attribute not in PAIRS:
            raise DataError(
                f"missing PASTEL story files: expected {Path(raw)}/<split>/**/*.json with "
                f"'persona' (download: {URL}, data/data_v2.zip)"
            )
        return labelled_table(read_records(Path(raw), attribute), dropped)

    build.__doc__ = f"PASTEL sentences labelled by {attribute} (binary release)."
    build.__name__ = f"build_{attribute}"
    return build


_PASTEL_CITATION = """@inproceedings{kang-etal-2019-male,
  title     = {(Male, Bachelor) and (Female, Ph.D) have different connotations: Parallelly
               Annotated Stylistic Language Dataset with Multiple Personas},
  author    = {Kang, Dongyeop and Balakrishnan, Varun and Hovy, Eduard},
  booktitle = {Proceedings of EMNLP-IJCNLP 2019},
  year      = {2019}
}"""
_PASTEL_URL = "https://github.com/dykang/PASTEL"
_PASTEL_LICENSE = (
    "no licence file in the PASTEL repository; released as a research benchmark "
    "(STEB assumes research use)"
)
_PASTEL_FORMAT = (
    "PASTEL sentence-level persona classification TSVs (tsv_bert_files/combined_<attr>[_test].tsv,"
    " 'label<TAB>sentence', no header)"
)

DATASETS = tuple(
    steb_dataset(
        name=f"pastel_{attribute}",
        summary=f"PASTEL sentences labelled by the writer's {description}.",
        bucket="demographics",
        definitional=("demographics",),
        counts=clustering_counts(classes, per_class),
        source_url=_PASTEL_URL,
        license=_PASTEL_LICENSE,
        raw_format=_PASTEL_FORMAT,
        citation=_PASTEL_CITATION,
        builder=_make(attribute),
        protocol=_protocol(attribute),
        raw_hint="PASTEL",
    )
    for attribute, description, classes, per_class in (
        ("age", "age group", 6, 25),
        ("education", "education level", 8, 25),
        ("ethnic", "ethnicity", 9, 25),
        ("gender", "gender", 3, 55),
        ("politics", "political orientation", 3, 200),
        ("tod", "time of day of the story", 5, 200),
    )
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "PASTEL",
        (
            https(
                "https://raw.githubusercontent.com/bajajahsaas/PASTEL/2d85478d32f2600c0091c368880e8e1b95bddb57/code/StyleClassify/tsv_bert_files.zip",
                "",
                archive="zip",
            ),
        ),
        license="no licence file (dykang/PASTEL)",
        homepage="https://github.com/dykang/PASTEL",
        note="a student fork's zip of PASTEL's sentence-level sets; the original data.zip is not reachable",
    ),
)
