"""Leak checks of a human/machine set: exact duplicates, conflicting labels, near-duplicates.

* **Exact duplicates**: two rows whose texts are equal after :func:`normalise_text`
  (Unicode NFKC, every run of whitespace one space, ends stripped; case is kept). By
  default (``duplicates="drop"``) the first row is kept and the others are dropped and
  counted; ``duplicates="together"`` keeps them all and puts every copy on one side of
  every split (:mod:`.split` groups rows by their normalised text).
* **Conflicting labels**: a normalised text that occurs as human *and* as machine. Every
  row of it is excluded by default (``conflicts="exclude"``) and counted; ``"keep"`` keeps
  them (with their copies on one side of every split).
* **Near-duplicates** (reported, never dropped): two texts that are not exact duplicates
  but share a sequence of :data:`NGRAM` = 13 consecutive words (lower-cased, after
  :func:`normalise_text`), the contamination test of GPT-3 (Brown et al. 2020, App. C) and
  of later LLM evaluations. Texts shorter than 13 words have no 13-gram and are never
  near-duplicates. Above 5 million words in all, a fixed sixteenth of the 13-grams (by
  CRC-32) is compared, to bound memory; the report says so. Near-duplicate rows form
  clusters (connected components of the "share a 13-gram" relation);
  :func:`near_duplicate_report` counts them and the held-out rows whose cluster reaches
  the training side.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

NGRAM = 13
EXACT_WORDS = 5_000_000  # above this many words in all, a fixed 1/16 of the 13-grams is used
SAMPLE_ONE_IN = 16
DUPLICATE_POLICIES = ("drop", "together")
CONFLICT_POLICIES = ("exclude", "keep")
_SPACE = re.compile(r"\s+")


def normalise_text(text: str) -> str:
    """NFKC, whitespace runs collapsed to one space, ends stripped (case kept)."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip()


@dataclass(frozen=True)
class DuplicateScan:
    """Which rows to keep, and what the scan found (counts in rows unless named texts)."""

    keep: list[int]
    keys: list[str]  # normalised text of every row (the split groups copies by it)
    duplicate_rows: int  # rows that repeat an earlier row's normalised text and label
    conflict_texts: int  # normalised texts under both labels
    conflict_rows: int  # rows carrying those texts
    dropped: dict[str, int]


def scan_duplicates(
    texts: Sequence[str],
    labels: Sequence[int],
    *,
    duplicates: str = "drop",
    conflicts: str = "exclude",
) -> DuplicateScan:
    """Find exact duplicates and conflicting labels (see the module docstring)."""
    if duplicates not in DUPLICATE_POLICIES:
        raise ValueError(f"duplicates must be one of {DUPLICATE_POLICIES}, got {duplicates!r}")
    if conflicts not in CONFLICT_POLICIES:
        raise ValueError(f"conflicts must be one of {CONFLICT_POLICIES}, got {conflicts!r}")
    keys = [normalise_text(t) for t in texts]
    labels_of: dict[str, set[int]] = defaultdict(set)
    for key, y in zip(keys, labels, strict=True):
        labels_of[key].add(int(y))
    conflicting = {k for k, ys in labels_of.items() if len(ys) > 1}
    conflict_rows = sum(1 for k in keys if k in conflicting)
    seen: set[tuple[str, int]] = set()
    keep: list[int] = []
    duplicate_rows = 0
    dropped: Counter[str] = Counter()
    for i, (key, y) in enumerate(zip(keys, labels, strict=True)):
        if key in conflicting and conflicts == "exclude":
            dropped["rows whose text occurs under both labels (conflicting labels)"] += 1
            continue
        if (key, int(y)) in seen:
            duplicate_rows += 1
            if duplicates == "drop":
                dropped[
                    "exact duplicates (same text after whitespace/Unicode normalisation "
                    "and same label; first kept)"
                ] += 1
                continue
        seen.add((key, int(y)))
        keep.append(i)
    return DuplicateScan(keep, keys, duplicate_rows, len(conflicting), conflict_rows, dict(dropped))


def _ngrams(text: str, n: int, keep_one_in: int = 1) -> set[int]:
    """Hashes of the word ``n``-grams (hashes, not strings, keep memory at one int each);
    with ``keep_one_in = k > 1`` only the n-grams whose CRC-32 is divisible by ``k`` (a
    fixed, run-independent choice)."""
    words = normalise_text(text).lower().split()
    grams = (tuple(words[i : i + n]) for i in range(len(words) - n + 1))
    if keep_one_in > 1:
        grams = (g for g in grams if zlib.crc32(" ".join(g).encode()) % keep_one_in == 0)
    return {hash(g) for g in grams}


def sampling_rate(texts: Sequence[str]) -> int:
    """1 (every n-gram) up to :data:`EXACT_WORDS` words in all, else :data:`SAMPLE_ONE_IN`:
    two texts sharing ``s`` 13-grams are then still linked with probability
    ``1 - (1 - 1/16) ** s`` (0.96 for 50, the overlap of one shared 62-word passage)."""
    words = sum(t.count(" ") + 1 for t in texts)
    return 1 if words <= EXACT_WORDS else SAMPLE_ONE_IN


def connected_rows(keys_per_row: Iterable[Iterable[Hashable]]) -> list[int]:
    """Component id per row (its smallest row index): rows sharing any key, directly or
    through other rows, are one component (union-find)."""
    parent: list[int] = []

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_with: dict[Hashable, int] = {}
    for i, keys in enumerate(keys_per_row):
        parent.append(i)
        for key in keys:
            j = first_with.setdefault(key, i)
            ri, rj = find(i), find(j)
            if ri != rj:
                parent[max(ri, rj)] = min(ri, rj)
    return [find(i) for i in range(len(parent))]


def near_duplicate_clusters(texts: Sequence[str], n: int = NGRAM) -> list[int]:
    """Cluster id per text: texts sharing an ``n``-word sequence (transitively) share an
    id; a text with no such neighbour is its own cluster. Exact duplicates (after
    :func:`normalise_text`) share a cluster too."""
    rate = sampling_rate(texts)
    return connected_rows(_ngrams(text, n, rate) for text in texts)


def near_duplicate_report(
    texts: Sequence[str],
    train: Sequence[int] | None = None,
    test: Sequence[int] | None = None,
    n: int = NGRAM,
) -> dict[str, int]:
    """``near_duplicate_rows`` (rows in a cluster of two or more distinct texts),
    ``near_duplicate_clusters`` and, given a split, ``held_out_near_duplicates_of_training``
    (held-out rows whose cluster holds a training row)."""
    clusters = near_duplicate_clusters(texts, n)
    distinct: dict[int, set[str]] = defaultdict(set)
    for c, text in zip(clusters, texts, strict=True):
        distinct[c].add(normalise_text(text))
    shared = {c for c, members in distinct.items() if len(members) > 1}
    report = {
        "near_duplicate_rows": sum(1 for c in clusters if c in shared),
        "near_duplicate_clusters": len(shared),
        "near_duplicate_ngram": n,
        "near_duplicate_ngrams_kept_one_in": sampling_rate(texts),
    }
    if train is not None and test is not None:
        trained = {clusters[i] for i in train}
        report["held_out_near_duplicates_of_training"] = sum(
            1 for i in test if clusters[i] in trained
        )
    return report
