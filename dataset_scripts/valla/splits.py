"""Valla's split rules, shared by every Valla builder.

Followed from the Valla authors' dataset scripts (``JacobTyo/Valla``, ``valla/dsets`` and
``valla/utils/dataset_utils.py``), re-implemented here:

- **iid**: a split stratified by author with scikit-learn's ``train_test_split``
  (``shuffle=True``, ``random_state=seed``), applied to rows sorted by id so that the
  result does not depend on the order a file system lists files in.
- **cross-topic / cross-genre**: every text of the held-out topics (genres) goes to the
  shifted sets, split 50/50 (stratified by author) into validation and test; no text of a
  held-out topic (genre) is ever in ``train``.
- **unseen authors**: a seeded sample of authors is held out entirely; their texts form
  the unseen-author validation/test sets and none of their texts is in ``train``.
- **AV pairs from AA data**: for every text of a split (in id order), one same-author
  pair (a different text of the same author, drawn with the seeded generator) and one
  different-author pair (a text of another author); authors with a single text in the
  split get no pairs (counted). The result is exactly balanced, 1:1.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dataset_scripts.core.errors import DataError

Row = dict[str, Any]
SEED = 0  # Valla's default seed in every dataset script


def sorted_rows(rows: Iterable[Row]) -> list[Row]:
    """Rows in id order; ids must be unique."""
    ordered = sorted(rows, key=lambda r: r["id"])
    for a, b in itertools.pairwise(ordered):
        if a["id"] == b["id"]:
            raise DataError(f"duplicate row id {a['id']!r}")
    return ordered


def stratified_split(
    rows: Sequence[Row], test_fraction: float, seed: int = SEED
) -> tuple[list[Row], list[Row]]:
    """Split ``rows`` in two, stratified by ``label`` (the author), reproducibly.

    Returns ``(kept, held_out)``, each in id order. Every author needs at least two rows.
    """
    from sklearn.model_selection import train_test_split

    ordered = sorted_rows(rows)
    if not ordered:
        return [], []
    counts = Counter(r["label"] for r in ordered)
    small = sorted(a for a, n in counts.items() if n < 2)
    if small:
        raise DataError(f"cannot stratify: authors with a single text: {small[:5]}")
    kept, held = train_test_split(
        ordered,
        test_size=test_fraction,
        shuffle=True,
        random_state=seed,
        stratify=[r["label"] for r in ordered],
    )
    return sorted_rows(kept), sorted_rows(held)


def iid_splits(
    rows: Sequence[Row], validation: float = 0.2, test: float = 0.2, seed: int = SEED
) -> dict[str, list[Row]]:
    """train/validation/test stratified by author: first ``validation + test`` is held
    out, then the held-out part is divided (Valla's two-step ``train_test_split``)."""
    train, rest = stratified_split(rows, validation + test, seed)
    val, tst = stratified_split(rest, test / (validation + test), seed)
    return {"train": train, "validation": val, "test": tst}


def shifted_splits(
    rows: Sequence[Row], name: str, seed: int = SEED, dropped: dict[str, int] | None = None
) -> dict[str, list[Row]]:
    """The held-out topic/genre rows split 50/50 into ``<name>_validation`` and
    ``<name>_test`` (stratified by author; authors with one text there are dropped and
    counted)."""
    counts = Counter(r["label"] for r in rows)
    usable = [r for r in rows if counts[r["label"]] >= 2]
    if dropped is not None and len(usable) < len(rows):
        reason = f"{name}: author has a single text in the held-out topic/genre"
        dropped[reason] = dropped.get(reason, 0) + len(rows) - len(usable)
    val, test = stratified_split(usable, 0.5, seed)
    return {f"{name}_validation": val, f"{name}_test": test}


def cross_topic_split(
    rows: Sequence[Row],
    topic_of: Mapping[str, str],
    train_topics: Iterable[str],
    test_topics: Iterable[str],
    name: str = "cross_topic",
    seed: int = SEED,
    dropped: dict[str, int] | None = None,
) -> tuple[list[Row], dict[str, list[Row]]]:
    """Partition rows by topic (or genre): rows of ``train_topics`` stay in-domain,
    rows of ``test_topics`` become the shifted validation/test sets, others are dropped
    (counted). ``topic_of`` maps a row id to its topic.

    Returns ``(in_domain_rows, {name_validation: rows, name_test: rows})``.
    """
    train_set, test_set = set(train_topics), set(test_topics)
    if train_set & test_set:
        raise DataError(f"topics both in and out of domain: {sorted(train_set & test_set)}")
    inside, outside = [], []
    for row in rows:
        topic = topic_of[row["id"]]
        if topic in train_set:
            inside.append(row)
        elif topic in test_set:
            outside.append(row)
        elif dropped is not None:
            reason = f"topic/genre {topic!r} is in no split"
            dropped[reason] = dropped.get(reason, 0) + 1
    return inside, shifted_splits(outside, name, seed, dropped)


def unseen_author_split(
    rows: Sequence[Row], fraction: float, seed: int = SEED
) -> tuple[list[Row], dict[str, list[Row]]]:
    """Hold out ``round(fraction * n_authors)`` authors (at least one, seeded sample of the
    sorted author list): their texts, split 50/50 by a seeded shuffle, form
    ``unseen_author_validation``/``unseen_author_test``; the rest stays in-domain."""
    authors = sorted({r["label"] for r in rows})
    if len(authors) < 2:
        raise DataError("an unseen-author split needs at least two authors")
    n_out = min(len(authors) - 1, max(1, round(fraction * len(authors))))
    held = set(random.Random(seed).sample(authors, n_out))
    inside = [r for r in sorted_rows(rows) if r["label"] not in held]
    outside = [r for r in sorted_rows(rows) if r["label"] in held]
    random.Random(seed).shuffle(outside)
    half = len(outside) // 2
    return inside, {
        "unseen_author_validation": sorted_rows(outside[:half]),
        "unseen_author_test": sorted_rows(outside[half:]),
    }


def drop_exact_duplicates(rows: Sequence[Row], dropped: dict[str, int]) -> list[Row]:
    """Keep the first row (id order) of every (author, text) pair; count the others."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for row in sorted_rows(rows):
        key = (row["label"], row["text"])
        if key in seen:
            dropped["exact duplicate text of the same author"] = (
                dropped.get("exact duplicate text of the same author", 0) + 1
            )
            continue
        seen.add(key)
        kept.append(row)
    return kept


def av_pairs(
    rows: Sequence[Row], split: str, seed: int = SEED, dropped: dict[str, int] | None = None
) -> list[Row]:
    """Valla's AV sampling: per text, one same-author and one different-author pair.

    Deterministic: rows are taken in id order and every draw comes from
    ``random.Random(f"{seed}:{split}")``. A text whose author has no other text in the
    split yields no pair (counted under ``dropped``); so does a split with one author.
    """
    ordered = sorted_rows(rows)
    by_author: dict[str, list[Row]] = defaultdict(list)
    for row in ordered:
        by_author[row["label"]].append(row)
    authors = sorted(by_author)
    rng = random.Random(f"{seed}:{split}")
    pairs: list[Row] = []
    for row in ordered:
        own = by_author[row["label"]]
        if len(own) < 2 or len(authors) < 2:
            if dropped is not None:
                reason = f"AV {split}: text whose author has no other text in the split"
                dropped[reason] = dropped.get(reason, 0) + 1
            continue
        same = row
        while same is row:
            same = own[rng.randrange(len(own))]
        other_author = row["label"]
        while other_author == row["label"]:
            other_author = authors[rng.randrange(len(authors))]
        others = by_author[other_author]
        diff = others[rng.randrange(len(others))]
        pairs.append(
            {"id": f"{row['id']}|same", "text1": row["text"], "text2": same["text"], "label": 1}
        )
        pairs.append(
            {"id": f"{row['id']}|diff", "text1": row["text"], "text2": diff["text"], "label": 0}
        )
    return pairs


def with_av(
    aa: Mapping[str, list[Row]], seed: int = SEED, dropped: dict[str, int] | None = None
) -> dict[str, dict[str, list[Row]]]:
    """The two configs of a Valla dataset: AA splits and the AV pairs derived from each."""
    return {
        "labelled_texts": {name: list(rows) for name, rows in aa.items()},
        "text_pairs": {name: av_pairs(rows, name, seed, dropped) for name, rows in aa.items()},
    }


def topic_confusion_split(
    rows: Sequence[Row],
    topic_of: Mapping[str, str],
    topics: tuple[str, str],
    seed: int = SEED,
    dropped: dict[str, int] | None = None,
) -> dict[str, list[Row]]:
    """Altakrori et al.'s (2021) topic-confusion setting: the authors are split (seeded
    shuffle of the sorted list) into two halves; in ``train``/``validation`` (80/20,
    stratified) the first half writes on ``topics[0]`` and the second on ``topics[1]``;
    in ``test`` the topics are swapped. Rows of other topics are dropped (counted)."""
    first, second = topics
    authors = sorted({r["label"] for r in rows})
    if len(authors) < 2:
        raise DataError("topic confusion needs at least two authors")
    random.Random(seed).shuffle(authors)
    group_a = set(authors[: len(authors) // 2])
    seen_side, swapped = [], []
    for row in sorted_rows(rows):
        topic = topic_of[row["id"]]
        if topic not in topics:
            if dropped is not None:
                reason = f"topic confusion: topic {topic!r} not used"
                dropped[reason] = dropped.get(reason, 0) + 1
            continue
        in_a = row["label"] in group_a
        if (in_a and topic == first) or (not in_a and topic == second):
            seen_side.append(row)
        else:
            swapped.append(row)
    train, validation = stratified_split(seen_side, 0.2, seed)
    return {"train": train, "validation": validation, "test": sorted_rows(swapped)}
