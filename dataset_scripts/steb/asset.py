"""ASSET (Alva-Manchego et al. 2020) as STEB order-alignment data: ``steb/ASSET``.

Raw format: the ``facebookresearch/asset`` repository, ``dataset/asset.<split>.orig``
(one English Wikipedia sentence per line) and ``dataset/asset.<split>.simp.<k>``
(k = 0..9, the k-th crowdsourced simplification of the same line), for the splits
``valid`` (2,000 sentences) and ``test`` (359); all eleven files of a split are
line-aligned.

STEB (App. C.3) forms one length-two sequence per source sentence: one of its ten
simplifications, drawn uniformly at random, as the simpler element and the original
sentence as the more complex one; validation and test are combined.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.steb.catalog import ORDER, SampleCount, steb_dataset
from dataset_scripts.steb.sampling import cap_per_class
from dataset_scripts.steb.shakespeare import read_lines

DOWNLOAD_URL = "https://github.com/facebookresearch/asset"
SPLITS = ("valid", "test")  # STEB combines validation and test, in this order
N_SIMPLIFICATIONS = 10
SEED = 42  # STEB's seed; one draw per source sentence, in source order
GROUP = "simplicity"
STYLES = ["simplified", "original (complex)"]


def _folder(raw: Path) -> Path:
    for base in (raw / "dataset", raw):
        if (base / f"asset.{SPLITS[0]}.orig").is_file():
            return base
    raise FileNotFoundError(
        f"missing file {raw / 'dataset' / f'asset.{SPLITS[0]}.orig'}; download {DOWNLOAD_URL}"
    )


def read_split(folder: Path, split: str) -> tuple[list[str], list[list[str]]]:
    """Original sentences and, per line, its ten simplifications."""
    paths = [folder / f"asset.{split}.orig"] + [
        folder / f"asset.{split}.simp.{k}" for k in range(N_SIMPLIFICATIONS)
    ]
    for path in paths:
        if not path.is_file():
            raise FileNotFoundError(f"missing ASSET file {path}; download {DOWNLOAD_URL}")
    originals = read_lines(paths[0])
    columns = [read_lines(p) for p in paths[1:]]
    for path, column in zip(paths[1:], columns, strict=True):
        if len(column) != len(originals):
            raise DataError(
                f"{path} has {len(column)} lines but {paths[0]} has {len(originals)}; "
                "ASSET files must be line-aligned"
            )
    return originals, [list(simps) for simps in zip(*columns, strict=True)]


def build_rows(raw: Path) -> tuple[list[dict[str, Any]], Counter[str]]:
    """One (simplification, original) sequence per source sentence, before the cap."""
    folder = _folder(raw)
    rng = random.Random(SEED)
    dropped: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    for split in SPLITS:
        originals, simplifications = read_split(folder, split)
        for line_no, (original, simps) in enumerate(
            zip(originals, simplifications, strict=True), start=1
        ):
            choice = rng.randrange(N_SIMPLIFICATIONS)  # drawn for every line: stable stream
            original, simple = original.strip(), simps[choice].strip()
            if not original:
                raise DataError(f"{folder / f'asset.{split}.orig'} line {line_no}: empty sentence")
            if not simple:
                dropped["drawn simplification is empty"] += 1
                continue
            if simple == original:
                dropped["drawn simplification identical to the original"] += 1
                continue
            rows.append(
                {
                    "id": f"{split}-{line_no}-simp{choice}",
                    "group": GROUP,
                    "texts": [simple, original],
                    "styles": list(STYLES),
                }
            )
    return rows, dropped


_PROTOCOL = (
    "Validation (2,000) and test (359) source sentences are combined in that order (STEB "
    "App. C.3). For every source sentence one of its ten simplifications is drawn uniformly "
    "at random (`random.Random(42)`, one draw per line in source order) and the sequence is "
    "`[simplification, original]` (most to least simple), one style group. Pairs whose "
    "drawn simplification is empty or identical to the original are dropped. As in STEB, "
    "the group keeps its first n sequences in source order, n = clamp(group size, 25, 200) "
    "= 200 (Table 15: 1 group x 400 texts); they all come from the validation split. The "
    "raw files are those of the facebookresearch/asset repository (same sentences as the "
    "Hugging Face facebook/asset release STEB names)."
)


def build(raw: Path | None) -> BuildResult:
    """ASSET original/simplification pairs as order-alignment sequences."""
    if raw is None:
        raise FileNotFoundError(f"steb/ASSET needs {DOWNLOAD_URL}")
    rows, dropped = build_rows(raw)
    rows = cap_per_class(rows, key=lambda row: row["group"], dropped=dropped, what="group")
    return BuildResult({"style_sequences": {"test": rows}}, dict(dropped))


ASSET_CITATION = """@inproceedings{alva-manchego-etal-2020-asset,
  title     = {{ASSET}: A Dataset for Tuning and Evaluation of Sentence Simplification Models
               with Multiple Rewriting Transformations},
  author    = {Alva-Manchego, Fernando and Martin, Louis and Bordes, Antoine and Scarton,
               Carolina and Sagot, Beno{\\^i}t and Specia, Lucia},
  booktitle = {Proceedings of ACL 2020},
  year      = {2020}
}"""


DATASETS = (
    steb_dataset(
        name="ASSET",
        summary="ASSET Wikipedia sentences paired with one of their ten crowdsourced "
        "simplifications (simple > complex), as STEB order-alignment data.",
        bucket="register",
        definitional=("register", "content_independence"),
        counts={ORDER: SampleCount(1, 400, 400)},
        source_url="https://github.com/facebookresearch/asset",
        license="CC BY-NC 4.0 per the facebookresearch/asset repository LICENSE (the raw files "
        "read here); the Hugging Face card (facebook/asset), which STEB cites, shows CC BY-SA "
        "4.0. Non-commercial use is the safe reading",
        raw_format="dataset/asset.{valid,test}.orig and asset.{valid,test}.simp.{0..9}: "
        "line-aligned plain text, one sentence per line",
        citation=ASSET_CITATION,
        builder=build,
        protocol=_PROTOCOL,
        raw_hint="ASSET",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "ASSET",
        (
            github(
                "facebookresearch/asset",
                "9d659040d0d8942dbc4cd65cf357563b43fd9ab4",
                (
                    "dataset/",
                    "human_ratings/",
                    ("README.md", ""),
                    ("LICENSE", ""),
                ),
            ),
        ),
        license="CC BY-NC 4.0",
    ),
)
