"""SynthSTEL (Patel et al. 2025) as STEB order-alignment data: ``steb/SynthSTEL_feature``
(32 linguistic features) and ``steb/SynthSTEL_register`` (8 register features).

Raw format: a snapshot of the Hub dataset ``StyleDistance/synthstel`` (e.g.
``huggingface-cli download StyleDistance/synthstel --repo-type dataset --local-dir
<raw>``): ``data/train-00000-of-00001.parquet`` (3,600 rows) and
``data/test-00000-of-00001.parquet`` (400 rows) with the string columns ``positive``
(a GPT-4 sentence showing the style feature), ``negative`` (its near-exact paraphrase
without it), ``feature`` (the generation prompt's feature description) and
``feature_clean`` (the feature's name); 40 features x 100 pairs.

STEB (App. C.1/C.3) combines train and test (100 pairs per feature), splits the 40
features into 8 registers and 32 linguistic features, and pairs every sequence
``[positive, negative]`` with every other of its feature (it does not use SynthSTEL's
own STEL-style pairings).

The register list below follows STEB's description ("formal tone, offensive language,
sarcasm", "positive sentiment expression"); the builder checks every name against the
release and fails, listing the release's feature names, if one is missing.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, hub
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.steb.catalog import ORDER, SampleCount, steb_dataset
from dataset_scripts.steb.sampling import cap_per_class

DOWNLOAD_URL = "https://huggingface.co/datasets/StyleDistance/synthstel"
SPLIT_FILES = (
    ("train", Path("data") / "train-00000-of-00001.parquet"),
    ("test", Path("data") / "test-00000-of-00001.parquet"),
)
COLUMNS = ("positive", "negative", "feature", "feature_clean")
N_FEATURES, N_REGISTERS = 40, 8
REGISTER_FEATURES: tuple[str, ...] = (
    "Formal Tone",
    "Informal Tone",
    "Offensive Language",
    "Sarcasm",
    "Humor",
    "Positive Sentiment",
    "Negative Sentiment",
    "Polite Tone",
)


def feature_key(name: str) -> str:
    """Case- and punctuation-insensitive key of a feature name."""
    return re.sub(r"[^a-z0-9]+", " ", name.casefold()).strip()


def _split_path(raw: Path, relative: Path) -> Path:
    for base in (raw, raw / "default"):
        if (base / relative).is_file():
            return base / relative
    # the Hub's parquet-converter layout: default/<split>/0000.parquet
    split = relative.name.split("-")[0]
    converted = raw / "default" / split / "0000.parquet"
    if converted.is_file():
        return converted
    raise FileNotFoundError(
        f"missing SynthSTEL file {raw / relative}; download the dataset snapshot from "
        f"{DOWNLOAD_URL}"
    )


def read_release(raw: Path) -> list[dict[str, Any]]:
    """Every row of train then test, with its file and row number; a row with a missing
    or empty value raises :class:`DataError` naming file, row and column."""
    import pyarrow.parquet as pq

    rows: list[dict[str, Any]] = []
    for split, relative in SPLIT_FILES:
        path = _split_path(raw, relative)
        table = pq.read_table(path)
        missing = [c for c in COLUMNS if c not in table.column_names]
        if missing:
            raise DataError(
                f"{path}: missing column(s) {', '.join(map(repr, missing))} "
                f"(has {table.column_names})"
            )
        columns = {c: table.column(c).to_pylist() for c in COLUMNS}
        for index in range(table.num_rows):
            row = {c: columns[c][index] for c in COLUMNS}
            for column in ("positive", "negative", "feature_clean"):
                value = row[column]
                if not isinstance(value, str) or not value.strip():
                    raise DataError(
                        f"{path} row {index}: column {column!r} is {value!r:.60}, "
                        "expected a non-empty string"
                    )
            rows.append({**row, "split": split, "index": index})
    return rows


def split_features(rows: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """(register feature names, linguistic feature names) as spelt in the release."""
    names = list(dict.fromkeys(row["feature_clean"].strip() for row in rows))
    by_key = {feature_key(n): n for n in names}
    missing = [n for n in REGISTER_FEATURES if feature_key(n) not in by_key]
    if missing:
        raise DataError(
            f"SynthSTEL release has no feature named {', '.join(map(repr, missing))} "
            f"(STEB's register features); its {len(names)} features are: {', '.join(names)}"
        )
    registers = [by_key[feature_key(n)] for n in REGISTER_FEATURES]
    return registers, [n for n in names if n not in registers]


def build_rows(raw: Path, register: bool) -> tuple[list[dict[str, Any]], Counter[str]]:
    """Sequences of the register (or the linguistic) features, before the cap."""
    release = read_release(raw)
    registers, features = split_features(release)
    wanted = set(registers if register else features)
    other = "linguistic-feature" if register else "register"
    dropped: Counter[str] = Counter()
    out: list[dict[str, Any]] = []
    for row in release:
        name = row["feature_clean"].strip()
        if name not in wanted:
            dropped[f"{other} pairs (belong to the other SynthSTEL config)"] += 1
            continue
        positive, negative = row["positive"].strip(), row["negative"].strip()
        if positive == negative:
            dropped["positive and negative identical (no style difference)"] += 1
            continue
        out.append(
            {
                "id": f"{row['split']}-{row['index']}",
                "group": name,
                "texts": [positive, negative],
                "styles": [name, f"without {name}"],
            }
        )
    return out, dropped


def _protocol(register: bool) -> str:
    part = (
        f"the {N_REGISTERS} register features ({', '.join(REGISTER_FEATURES)})"
        if register
        else f"the {N_FEATURES - N_REGISTERS} linguistic features (all but the {N_REGISTERS} "
        f"register features {', '.join(REGISTER_FEATURES)})"
    )
    groups, texts = (N_REGISTERS, "1,600") if register else (N_FEATURES - N_REGISTERS, "6,400")
    return (
        "Train and test of the SynthSTEL release are combined (train first; STEB App. C.1 / "
        f"C.3), giving 100 pairs per feature; this config keeps {part}. Every row becomes "
        "the sequence `[positive, negative]` (with, without the feature), grouped by "
        "`feature_clean`; order alignment pairs every sequence with every other of its "
        "feature (SynthSTEL's own pairings are not used). Pairs with identical sides are "
        "dropped. As in STEB, every group keeps its first n sequences in source order, n = "
        f"clamp(smallest group, 25, 200) = 100 (Table 15: {groups} groups x 200 texts = "
        f"{texts}). The register feature names follow STEB's description and are checked "
        "against the release (a missing name fails the build with the release's names)."
    )


def _build(raw: Path | None, register: bool) -> BuildResult:
    if raw is None:
        raise FileNotFoundError(f"SynthSTEL needs its dataset snapshot ({DOWNLOAD_URL})")
    rows, dropped = build_rows(raw, register)
    rows = cap_per_class(rows, key=lambda row: row["group"], dropped=dropped, what="feature")
    return BuildResult({"style_sequences": {"test": rows}}, dict(dropped))


def build_feature(raw: Path | None) -> BuildResult:
    """SynthSTEL's 32 linguistic features."""
    return _build(raw, register=False)


def build_register(raw: Path | None) -> BuildResult:
    """SynthSTEL's 8 register features."""
    return _build(raw, register=True)


SYNTHSTEL_CITATION = """@inproceedings{patel-etal-2025-styledistance,
  title     = {{StyleDistance}: Stronger Content-Independent Style Embeddings with Synthetic
               Parallel Examples},
  author    = {Patel, Ajay and Zhu, Jiacheng and Qiu, Justin and Horvitz, Zachary and
               Apidianaki, Marianna and McKeown, Kathleen and Callison-Burch, Chris},
  booktitle = {Proceedings of NAACL 2025},
  year      = {2025}
}"""


_SOURCE = {  # both SynthSTEL datasets come from one Hub snapshot
    "source_url": "https://huggingface.co/datasets/StyleDistance/synthstel",
    "license": "MIT",
    "raw_format": "Hub dataset snapshot: data/train-00000-of-00001.parquet and "
    "data/test-00000-of-00001.parquet with columns positive, negative, feature, "
    "feature_clean",
    "citation": SYNTHSTEL_CITATION,
}

DATASETS = (
    steb_dataset(
        name="SynthSTEL_feature",
        summary="SynthSTEL (GPT-4 near-exact paraphrases differing in one style feature), its "
        "32 linguistic features, as STEB order-alignment data.",
        bucket="feature",
        definitional=("linguistic_features", "content_independence"),
        counts={ORDER: SampleCount(32, 200, 6_400)},
        **_SOURCE,
        builder=build_feature,
        protocol=_protocol(register=False),
    ),
    steb_dataset(
        name="SynthSTEL_register",
        summary="SynthSTEL (GPT-4 near-exact paraphrases differing in one style feature), its "
        "8 register features (e.g. formal tone, offensive language, sarcasm), as STEB "
        "order-alignment data.",
        bucket="register",
        definitional=("register", "content_independence"),
        counts={ORDER: SampleCount(8, 200, 1_600)},
        **_SOURCE,
        builder=build_register,
        protocol=_protocol(register=True),
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "synthstel",
        (
            hub(
                "StyleDistance/synthstel",
                "",
                (
                    ("data/train-00000-of-00001.parquet", ""),
                    ("data/test-00000-of-00001.parquet", ""),
                ),
            ),
        ),
        license="see the StyleDistance/synthstel dataset card",
        datasets=("steb/SynthSTEL_feature", "steb/SynthSTEL_register"),
        note="revision not pinned here (no Hub access), unverified",
    ),
)
