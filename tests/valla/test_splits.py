"""Valla's split rules on hand-made cases."""

from __future__ import annotations

from collections import Counter

import pytest

from dataset_scripts.core.errors import DataError
from dataset_scripts.valla.pan import held_out_authors, unseen_author_pairs
from dataset_scripts.valla.splits import (
    av_pairs,
    cross_topic_split,
    drop_exact_duplicates,
    iid_splits,
    stratified_split,
    unseen_author_split,
)


def rows(authors: dict[str, int]) -> list[dict]:
    return [
        {"id": f"{a}-{i:02d}", "text": f"text {a} {i}", "label": a}
        for a, n in authors.items()
        for i in range(n)
    ]


def test_stratified_split_is_seeded_and_stratified() -> None:
    data = rows({"a": 10, "b": 10, "c": 5})
    kept, held = stratified_split(data, 0.2, seed=0)
    assert Counter(r["label"] for r in held) == {"a": 2, "b": 2, "c": 1}
    assert stratified_split(list(reversed(data)), 0.2, seed=0) == (kept, held)  # order-free
    assert stratified_split(data, 0.2, seed=1) != (kept, held)
    assert {r["id"] for r in kept} | {r["id"] for r in held} == {r["id"] for r in data}


def test_iid_splits_60_20_20() -> None:
    parts = iid_splits(rows({"a": 10, "b": 10}), 0.2, 0.2)
    assert [len(parts[k]) for k in ("train", "validation", "test")] == [12, 4, 4]
    assert all(
        Counter(r["label"] for r in parts[k]) == {"a": n, "b": n}
        for k, n in (("train", 6), ("validation", 2), ("test", 2))
    )


def test_single_text_author_cannot_be_stratified() -> None:
    with pytest.raises(DataError, match="single text"):
        stratified_split(rows({"a": 4, "b": 1}), 0.5)


def test_cross_topic_rule() -> None:
    data = rows({"a": 6, "b": 6})
    # topics: i % 3 -> T0, T1 in domain; T2 held out; one row of an unlisted topic
    topic_of = {r["id"]: f"T{int(r['id'][-2:]) % 3}" for r in data}
    topic_of["a-05"] = "Other"
    dropped: dict[str, int] = {}
    inside, shifted = cross_topic_split(data, topic_of, ["T0", "T1"], ["T2"], dropped=dropped)
    held = shifted["cross_topic_validation"] + shifted["cross_topic_test"]
    assert {topic_of[r["id"]] for r in inside} == {"T0", "T1"}
    assert {topic_of[r["id"]] for r in held} == {"T2"}
    # author a has one T2 text (a-05 is "Other"): it cannot be split, so it is dropped
    assert sorted(r["id"] for r in held) == ["b-02", "b-05"]
    assert dropped == {
        "topic/genre 'Other' is in no split": 1,
        "cross_topic: author has a single text in the held-out topic/genre": 1,
    }
    assert "a-02" not in {r["id"] for r in inside}
    with pytest.raises(DataError, match="both in and out"):
        cross_topic_split(data, topic_of, ["T0", "T2"], ["T2"])


def test_cross_topic_counts_and_no_leak() -> None:
    data = rows({"a": 8, "b": 8})
    topic_of = {r["id"]: "X" if int(r["id"][-2:]) < 4 else "Y" for r in data}
    inside, shifted = cross_topic_split(data, topic_of, ["X"], ["Y"], name="cross_genre")
    assert len(inside) == 8
    assert len(shifted["cross_genre_validation"]) == len(shifted["cross_genre_test"]) == 4
    ids_in = {r["id"] for r in inside}
    assert not ids_in & {r["id"] for v in shifted.values() for r in v}


def test_unseen_author_rule() -> None:
    data = rows({a: 4 for a in "abcde"})
    inside, held = unseen_author_split(data, 0.2, seed=0)
    held_rows = held["unseen_author_validation"] + held["unseen_author_test"]
    held_authors = {r["label"] for r in held_rows}
    assert len(held_authors) == 1  # round(0.2 * 5)
    assert not held_authors & {r["label"] for r in inside}
    assert len(held["unseen_author_validation"]) == len(held["unseen_author_test"]) == 2
    assert unseen_author_split(data, 0.2, seed=0) == (inside, held)
    assert len(unseen_author_split(data, 0.5, seed=0)[0]) == 12  # 2 of 5 held out (round)


def test_pan_unseen_authors_drop_mixed_pairs() -> None:
    pairs = [
        {"id": "1", "authors": ["A", "A"]},
        {"id": "2", "authors": ["A", "B"]},
        {"id": "3", "authors": ["B", "C"]},
        {"id": "4", "authors": ["C", "C"]},
        {"id": "5", "authors": ["D", "E"]},
    ]
    dropped: dict[str, int] = {}
    held = held_out_authors(["A", "B", "C", "D", "E"], 0.4, 0)
    assert len(held) == 2 and held == held_out_authors(["E", "D", "C", "B", "A"], 0.4, 0)
    inside, outside = unseen_author_pairs(pairs, 0.4, 0, dropped)
    for p in pairs:
        flags = {a in held for a in p["authors"]}
        assert (p in inside) == (flags == {False}) and (p in outside) == (flags == {True})
    assert len(inside) + len(outside) + sum(dropped.values()) == 5
    assert not {a for p in inside for a in p["authors"]} & held


def test_av_pairs_balanced_correct_and_seeded() -> None:
    data = rows({"a": 3, "b": 2, "c": 1})
    dropped: dict[str, int] = {}
    pairs = av_pairs(data, "test", dropped=dropped)
    author = {r["text"]: r["label"] for r in data}
    assert len(pairs) == 10  # 5 texts with a same-author partner, 2 pairs each
    assert Counter(p["label"] for p in pairs) == {1: 5, 0: 5}
    for p in pairs:
        assert p["text1"] != p["text2"]
        assert (author[p["text1"]] == author[p["text2"]]) == (p["label"] == 1)
    assert dropped == {"AV test: text whose author has no other text in the split": 1}
    assert av_pairs(list(reversed(data)), "test") == pairs
    assert av_pairs(data, "validation") != pairs  # a different stream per split


def test_exact_duplicates_removed_and_counted() -> None:
    data = [
        *rows({"a": 2}),
        {"id": "z", "text": "text a 0", "label": "a"},
        {"id": "y", "text": "text a 0", "label": "b"},
    ]
    dropped: dict[str, int] = {}
    kept = drop_exact_duplicates(data, dropped)
    assert len(kept) == 3 and dropped == {"exact duplicate text of the same author": 1}


def test_topic_confusion_rule() -> None:
    from dataset_scripts.valla.splits import topic_confusion_split

    data = rows({a: 20 for a in "abcd"})
    topic_of = {r["id"]: ("T1", "T2", "T3")[int(r["id"][-2:]) % 3] for r in data}
    dropped: dict[str, int] = {}
    parts = topic_confusion_split(data, topic_of, ("T1", "T2"), dropped=dropped)
    seen = parts["train"] + parts["validation"]
    topic_in_training = {}
    for r in seen:
        topic_in_training.setdefault(r["label"], set()).add(topic_of[r["id"]])
    assert all(len(t) == 1 for t in topic_in_training.values())  # one topic per author
    assert {next(iter(t)) for t in topic_in_training.values()} == {"T1", "T2"}  # both used
    for r in parts["test"]:  # every author meets the other topic at test time
        assert topic_of[r["id"]] not in topic_in_training[r["label"]]
    assert dropped == {"topic confusion: topic 'T3' not used": 24}
    assert len(seen) + len(parts["test"]) == 56
