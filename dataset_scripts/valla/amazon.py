"""Amazon reviews (He & McAuley 2016) as Valla's AmazonAV: users with exactly 10 reviews.

Raw format: the release's JSON-lines review files (``*.json`` or ``*.json.gz``, one
review per line with ``reviewerID``, ``asin`` and ``reviewText``; the 2014 "loose JSON"
files, Python dict literals, are read too). Reviews without text are dropped (counted);
only users with exactly 10 (distinct) reviews are kept (others counted), split 6/2/2 per
user (stratified 60/20/20, ``random_state=0``); AV pairs are derived per split.
"""

from __future__ import annotations

import ast
import gzip
import json
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, manual
from dataset_scripts.core.spec import BuildResult, DatasetSpec
from dataset_scripts.valla.common import VALLA_CITATION
from dataset_scripts.valla.splits import SEED, Row, iid_splits, with_av

REVIEWS_PER_USER = 10


def _records(path: Path):
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError:
                try:
                    yield number, ast.literal_eval(line)
                except (ValueError, SyntaxError):
                    raise DataError(f"{path}:{number}: neither JSON nor a dict literal") from None


def read_amazon(raw: Path, dropped: dict[str, int]) -> dict[str, list[Row]]:
    files = [raw] if raw.is_file() else sorted([*raw.glob("*.json"), *raw.glob("*.json.gz")])
    if not files:
        raise FileNotFoundError(f"{raw}: no *.json or *.json.gz review files")
    per_user: dict[str, list[Row]] = {}
    seen: set[tuple[str, str]] = set()
    for path in files:
        for number, record in _records(path):
            if not isinstance(record, dict) or "reviewerID" not in record:
                raise DataError(f"{path}:{number}: a review needs 'reviewerID'")
            user, text = str(record["reviewerID"]), str(record.get("reviewText") or "").strip()
            if not text:
                dropped["review without text"] = dropped.get("review without text", 0) + 1
                continue
            if (user, text) in seen:
                dropped["exact duplicate review of a user"] = (
                    dropped.get("exact duplicate review of a user", 0) + 1
                )
                continue
            seen.add((user, text))
            per_user.setdefault(user, []).append(
                {
                    "id": f"{user}/{record.get('asin', '')}/{path.name}:{number}",
                    "text": text,
                    "label": user,
                }
            )
    return per_user


def build(raw: Path | None) -> BuildResult:
    if raw is None:
        raise FileNotFoundError("AmazonAV is built from the review JSON files; pass --raw")
    dropped: dict[str, int] = {}
    per_user = read_amazon(raw, dropped)
    rows = [
        r for u in sorted(per_user) if len(per_user[u]) == REVIEWS_PER_USER for r in per_user[u]
    ]
    other = sum(len(v) for v in per_user.values()) - len(rows)
    if other:
        dropped[f"user without exactly {REVIEWS_PER_USER} reviews"] = other
    if not rows:
        raise DataError(f"{raw}: no user with exactly {REVIEWS_PER_USER} reviews")
    return BuildResult(with_av(iid_splits(rows, 0.2, 0.2, SEED), SEED, dropped), dropped)


DATASETS = (
    DatasetSpec(
        hub_id="valla/amazon",
        pretty_name="Valla AmazonAV",
        summary="Amazon product reviews (He & McAuley 2016) of users with exactly 10 reviews, "
        "as authorship verification pairs.",
        builder=build,
        license="research use (Amazon review data terms)",
        source_url="https://cseweb.ucsd.edu/~jmcauley/datasets/amazon/links.html",
        citation=VALLA_CITATION,
        raw_format="JSON-lines reviews (*.json / *.json.gz) with reviewerID, asin, reviewText",
        protocol="Users with exactly 10 distinct non-empty reviews; 60/20/20 split stratified by "
        "user (`random_state=0`); AV pairs per split with a fixed seed (1:1).",
        raw_hint="amazon",
        table_name="Amazon",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "amazon",
        (manual("https://cseweb.ucsd.edu/~jmcauley/datasets/amazon/links.html"),),
        license="research use (McAuley lab terms)",
        instructions="The Amazon review data are given out on request from the page; put the review .json(.gz) files here.",
    ),
)
