"""StylePTB (Lyu et al. 2021) as STEB order-alignment data: ``steb/StylePTB``.

Raw format: one folder per three-letter transfer code holding ``train.jsonl``,
``valid.jsonl`` and ``test.jsonl``; every line is a JSON object
``{"src": <sentence>, "trg": <sentence after the transfer>}``. The text is Penn
Treebank-tokenised with rare words replaced by ``unk`` (this is the layout of
``datasets/<CODE>/`` in github.com/lvyiwei1/DiffuSeq_StylePTB, which packages the
output of StylePTB's ``single_transform_checkout.py``).

STEB (App. C.1) keeps 15 of the 21 single transfers: it removes the three antonym
replacements (they change meaning) and the three plain synonym replacements (WordNet
synonyms without a consistent style change). Train, valid and test are combined and the
text is not detokenised. Each pair becomes the sequence ``[trg, src]``: position 0
carries the transfer's target style (e.g. future tense, passive voice), position 1 the
source sentence.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.steb.catalog import ORDER, SampleCount, steb_dataset
from dataset_scripts.steb.sampling import cap_per_class

DOWNLOAD_URL = "https://github.com/lvyiwei1/StylePTB"
LAYOUT_URL = "https://github.com/lvyiwei1/DiffuSeq_StylePTB/tree/main/datasets"
SPLITS = ("train", "valid", "test")

# code -> (group name, label of position 0 = target style, label of position 1 = source)
KEPT_TRANSFERS: dict[str, tuple[str, str, str]] = {
    "TFU": ("to_future", "future tense", "source tense"),
    "TPA": ("to_past", "past tense", "source tense"),
    "TPR": ("to_present", "present tense", "source tense"),
    "ATP": ("active_to_passive", "passive voice", "active voice"),
    "PTA": ("passive_to_active", "active voice", "passive voice"),
    "PFB": ("pp_front_to_back", "PP at the back", "PP at the front"),
    "PBF": ("pp_back_to_front", "PP at the front", "PP at the back"),
    "IAD": ("information_addition", "information added", "original"),
    "ARR": ("adj_adv_removal", "adjectives/adverbs removed", "original"),
    "SBR": ("substatement_removal", "substatement removed", "original"),
    "PPR": ("pp_removal", "PP removed", "original"),
    "AEM": ("adj_emphasis", "adjective emphasised", "original"),
    "VEM": ("verb_emphasis", "verb emphasised", "original"),
    "LFS": ("least_frequent_synonym", "least frequent synonyms", "original"),
    "MFS": ("most_frequent_synonym", "most frequent synonyms", "original"),
}
# Removed by STEB: antonym replacements change meaning; synonym replacements have no
# consistent style change (e.g. "market" -> "marketplace", "years" -> "twelvemonths").
REMOVED_TRANSFERS: dict[str, str] = {
    "NAR": "noun antonym replacement changes meaning",
    "AAR": "adjective antonym replacement changes meaning",
    "VAR": "verb antonym replacement changes meaning",
    "NSR": "noun synonym replacement has no consistent style change",
    "ASR": "adjective synonym replacement has no consistent style change",
    "VSR": "verb synonym replacement has no consistent style change",
}
# STEB's per-group budget (Table 15: 14 groups x 50 texts = 25 pairs). STEB's "auto" cap
# came out at 25 because its smallest kept group (pp_back_to_front) had 7 pairs.
PAIRS_PER_GROUP = 25


def _root(raw: Path) -> Path:
    for base in (raw / "datasets", raw):
        if base.is_dir() and any((base / code).is_dir() for code in KEPT_TRANSFERS):
            return base
    raise FileNotFoundError(
        f"{raw}: no StylePTB transfer folder (expected e.g. {raw / 'datasets' / 'TFU' / 'train.jsonl'}"
        f"); download StylePTB from {DOWNLOAD_URL} (layout as in {LAYOUT_URL})"
    )


def read_pairs(path: Path) -> list[tuple[int, str, str]]:
    """(line number, src, trg) of one JSON Lines file; a malformed line raises
    :class:`DataError` naming the file and line."""
    pairs: list[tuple[int, str, str]] = []
    with path.open(encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path} line {line_no}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise DataError(f"{where}: not valid JSON ({error.msg})") from None
            if not isinstance(record, dict):
                raise DataError(f"{where}: expected a JSON object, got {type(record).__name__}")
            for key in ("src", "trg"):
                if not isinstance(record.get(key), str):
                    raise DataError(f"{where}: field {key!r} is missing or not a string")
            pairs.append((line_no, record["src"].strip(), record["trg"].strip()))
    return pairs


def build_rows(raw: Path) -> tuple[list[dict[str, Any]], Counter[str]]:
    """All sequences of the kept transfers (before the cap), and the drop counts."""
    root = _root(raw)
    dropped: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    for code in sorted(p.name for p in root.iterdir() if p.is_dir()):
        if code in REMOVED_TRANSFERS:
            files = [root / code / f"{split}.jsonl" for split in SPLITS]
            total = sum(len(read_pairs(path)) for path in files if path.is_file())
            dropped[f"{code} pairs: {REMOVED_TRANSFERS[code]} (removed by STEB)"] += total
            continue
        if code not in KEPT_TRANSFERS:
            continue
        group, target_label, source_label = KEPT_TRANSFERS[code]
        for split in SPLITS:
            path = root / code / f"{split}.jsonl"
            if not path.is_file():
                raise FileNotFoundError(
                    f"missing StylePTB file {path}; download the {code} transfer from "
                    f"{DOWNLOAD_URL} (layout as in {LAYOUT_URL})"
                )
            for line_no, src, trg in read_pairs(path):
                if not src or not trg:
                    dropped[f"{code} pair with an empty sentence"] += 1
                    continue
                if src == trg:
                    dropped[f"{code} pair whose transfer left the sentence unchanged"] += 1
                    continue
                rows.append(
                    {
                        "id": f"{code}-{split}-{line_no}",
                        "group": group,
                        "texts": [trg, src],
                        "styles": [target_label, source_label],
                    }
                )
    return rows, dropped


_PROTOCOL = (
    "STEB (App. C.1) keeps 15 of StylePTB's 21 single transfers and removes six: the noun, "
    "adjective and verb antonym replacements (NAR, AAR, VAR: they change meaning) and the "
    "noun, adjective and verb synonym replacements (NSR, ASR, VSR: WordNet synonyms with no "
    "consistent style change). Train, valid and test are concatenated in that order; the "
    "tokenised text is kept as is (not detokenised). Every pair becomes the sequence "
    "`[after transfer, before transfer]` (`styles` names both positions) and the group is "
    "the transfer. Pairs whose two sentences are identical (a tense transfer of a sentence "
    "already in that tense) or empty are dropped. Every group keeps its first 25 pairs in "
    "source order: STEB's per-group budget (Table 15: 14 groups x 50 texts), which its "
    "rule clamp(smallest group, 25, 200) produced because its copy of pp_back_to_front had "
    "only 7 pairs and was dropped. **Difference from Table 15:** the raw layout read here "
    "(github.com/lvyiwei1/DiffuSeq_StylePTB) ships 13 of the 15 kept transfers (no LFS/MFS "
    "least/most-frequent-synonym folders) and its pp_back_to_front has 460 pairs, so this "
    "build has 13 groups x 50 texts = 650 texts instead of 14 x 50 = 700; with all 15 "
    "transfer folders present it has 15 groups."
)


def build(raw: Path | None) -> BuildResult:
    """StylePTB single transfers as order-alignment sequences."""
    if raw is None:
        raise FileNotFoundError(f"steb/StylePTB needs the StylePTB download ({DOWNLOAD_URL})")
    rows, dropped = build_rows(raw)
    rows = cap_per_class(
        rows,
        key=lambda row: row["group"],
        dropped=dropped,
        what="transfer",
        low=PAIRS_PER_GROUP,
        high=PAIRS_PER_GROUP,
    )
    return BuildResult({"style_sequences": {"test": rows}}, dict(dropped))


STYLEPTB_CITATION = """@inproceedings{lyu-etal-2021-styleptb,
  title     = {{StylePTB}: A Compositional Benchmark for Fine-grained Controllable Text Style
               Transfer},
  author    = {Lyu, Yiwei and Liang, Paul Pu and Pham, Hai and Hovy, Eduard and
               P{\\'o}czos, Barnab{\\'a}s and Salakhutdinov, Ruslan and Morency, Louis-Philippe},
  booktitle = {Proceedings of NAACL 2021},
  year      = {2021}
}"""


DATASETS = (
    steb_dataset(
        name="StylePTB",
        summary="StylePTB single-transfer pairs (Penn Treebank sentences before/after one "
        "syntactic or lexical transfer), 15 of its 21 transfers, as STEB order-alignment data.",
        bucket="feature",
        definitional=("linguistic_features", "content_independence"),
        counts={ORDER: SampleCount(14, 50, 700)},
        source_url="https://github.com/lvyiwei1/StylePTB",
        license="CC-BY-4.0",
        raw_format="one folder per 3-letter transfer code with train/valid/test JSON Lines "
        '({"src": ..., "trg": ...}; tokenised, rare words as unk), as in '
        "github.com/lvyiwei1/DiffuSeq_StylePTB datasets/<CODE>/{train,valid,test}.jsonl",
        citation=STYLEPTB_CITATION,
        builder=build,
        protocol=_PROTOCOL,
        raw_hint="StylePTB",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "StylePTB",
        (
            github(
                "lvyiwei1/DiffuSeq_StylePTB",
                "1ed5b48c25e56eb3540783ee83e989d12c56229a",
                ("datasets/",),
            ),
            github(
                "lvyiwei1/StylePTB",
                "0c24befeb80098307d7bdff6c5adaf04529fa36f",
                (
                    ("LICENSE", ""),
                    ("README.md", ""),
                    (
                        "Amazon Mechanical Turk Webpages and Results/",
                        "Amazon Mechanical Turk Webpages and Results/",
                    ),
                    "Compositional Datasets/",
                ),
            ),
        ),
        license="CC BY 4.0",
        homepage="https://github.com/lvyiwei1/StylePTB",
    ),
)
