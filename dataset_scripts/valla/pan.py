"""PAN 2020/2021 authorship verification (Kestemont et al. 2021) as Valla AV data.

Raw format (PAN's release): ``*.jsonl`` with one pair per line, ``{"id", "fandoms":
[f1, f2], "pair": [text1, text2]}``, and a truth file ``*truth*.jsonl`` with
``{"id", "same": bool, "authors": [a1, a2]}``.

Unseen-author split (Table 1's x_a): a seeded 20% of the authors is held out. Pairs whose
authors are all held out form ``unseen_author_validation``/``unseen_author_test`` (50/50,
seeded); pairs whose authors are all kept are split 80/10/10 (seeded) into ``train``,
``validation`` and ``test`` (iid); pairs mixing kept and held-out authors are dropped
(counted), so no held-out author's text is ever seen in training.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, manual
from dataset_scripts.core.spec import BuildResult, DatasetSpec
from dataset_scripts.valla.common import VALLA_CITATION
from dataset_scripts.valla.splits import SEED, Row

HELD_OUT_AUTHORS = 0.2


def _jsonl(path: Path) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise DataError(f"{path}:{number}: not JSON ({error.msg})") from None
    return rows


def read_pan(raw: Path) -> list[dict]:
    """Pairs joined with their truth: dicts with id, text1, text2, label, authors."""
    files = sorted(raw.glob("*.jsonl")) if raw.is_dir() else []
    truth_files = [p for p in files if "truth" in p.name]
    pair_files = [p for p in files if "truth" not in p.name]
    if len(truth_files) != 1 or len(pair_files) != 1:
        raise FileNotFoundError(f"{raw}: expected one pairs *.jsonl and one *truth*.jsonl file")
    truth = {}
    for number, row in enumerate(_jsonl(truth_files[0]), 1):
        try:
            truth[row["id"]] = (bool(row["same"]), [str(a) for a in row["authors"]])
        except (KeyError, TypeError):
            raise DataError(f"{truth_files[0]}:{number}: needs 'id', 'same', 'authors'") from None
    pairs = []
    for number, row in enumerate(_jsonl(pair_files[0]), 1):
        where = f"{pair_files[0]}:{number}"
        if "pair" not in row or len(row["pair"]) != 2 or "id" not in row:
            raise DataError(f"{where}: needs 'id' and a two-text 'pair'")
        if row["id"] not in truth:
            raise DataError(f"{where}: id {row['id']!r} has no truth entry")
        same, authors = truth[row["id"]]
        pairs.append(
            {
                "id": str(row["id"]),
                "text1": row["pair"][0],
                "text2": row["pair"][1],
                "label": int(same),
                "authors": authors,
            }
        )
    return pairs


def held_out_authors(authors: list[str], fraction: float, seed: int) -> set[str]:
    """A seeded sample of ``round(fraction * n)`` authors (at least 1, at most n - 1) of
    the sorted author list."""
    ordered = sorted(set(authors))
    if len(ordered) < 2:
        raise DataError("an unseen-author split needs at least two authors")
    n_out = min(len(ordered) - 1, max(1, round(fraction * len(ordered))))
    return set(random.Random(seed).sample(ordered, n_out))


def unseen_author_pairs(
    pairs: list[dict], fraction: float, seed: int, dropped: dict[str, int]
) -> tuple[list[dict], list[dict]]:
    """(in-domain pairs, held-out-author pairs) by the rule in the module notes."""
    held = held_out_authors([a for p in pairs for a in p["authors"]], fraction, seed)
    inside, outside = [], []
    for pair in sorted(pairs, key=lambda p: p["id"]):
        flags = {a in held for a in pair["authors"]}
        if flags == {False}:
            inside.append(pair)
        elif flags == {True}:
            outside.append(pair)
        else:
            reason = "pair mixing a held-out (unseen) author with a training author"
            dropped[reason] = dropped.get(reason, 0) + 1
    return inside, outside


def _strip(pairs: list[dict]) -> list[Row]:
    return [{k: p[k] for k in ("id", "text1", "text2", "label")} for p in pairs]


def build(raw: Path | None) -> BuildResult:
    if raw is None:
        raise FileNotFoundError("PAN AV is built from its jsonl release; pass --raw")
    dropped: dict[str, int] = {}
    inside, outside = unseen_author_pairs(read_pan(raw), HELD_OUT_AUTHORS, SEED, dropped)
    rng = random.Random(f"{SEED}:pan")
    rng.shuffle(inside)
    rng.shuffle(outside)
    n_val = n_test = len(inside) // 10
    half = len(outside) // 2
    splits = {
        "train": inside[n_val + n_test :],
        "validation": inside[:n_val],
        "test": inside[n_val : n_val + n_test],
        "unseen_author_validation": outside[:half],
        "unseen_author_test": outside[half:],
    }
    return BuildResult(
        {"text_pairs": {k: _strip(sorted(v, key=lambda p: p["id"])) for k, v in splits.items()}},
        dropped,
    )


DATASETS = tuple(
    DatasetSpec(
        hub_id=f"valla/pan{year}",
        pretty_name=f"Valla PAN{year} authorship verification",
        summary=f"PAN 20{year} fanfiction pairs (same/different author) with an iid split "
        "and an unseen-author test set.",
        builder=build,
        license="CC BY 4.0 where stated by PAN; fanfiction texts, research use",
        source_url=url,
        citation=VALLA_CITATION,
        raw_format="pairs *.jsonl {id, fandoms, pair} + *truth*.jsonl {id, same, authors}",
        protocol="A seeded 20% of the authors is held out: their pairs form the unseen-author "
        "validation/test sets (50/50); pairs of kept authors are split 80/10/10 into "
        "train/validation/test; pairs mixing the two are dropped (counted).",
        raw_hint=f"pan{year}_av",
        table_name=f"PAN{year}",
    )
    for year, url in (
        ("20", "https://pan.webis.de/clef20/pan20-web/author-identification.html"),
        ("21", "https://pan.webis.de/clef21/pan21-web/author-identification.html"),
    )
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    *(
        Source(
            f"pan{year}_av",
            (manual(f"https://pan.webis.de/clef{year}/pan{year}-web/author-identification.html"),),
            license="CC BY 4.0 (PAN shared-task data, research use)",
            homepage=f"https://pan.webis.de/clef{year}/pan{year}-web/author-identification.html",
            instructions="PAN releases its authorship verification data on Zenodo on request: request access, download, unpack here.",
            terms="PAN shared-task data: research use; do not redistribute.",
        )
        for year in (20, 21)
    ),
)
