"""Appendix A sampling rules pinned on a small hand-made corpus (token = word)."""

from __future__ import annotations

from collections import Counter

import pytest

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.styledisc_schema import validate_triplets
from dataset_scripts.styledisc.readers import Document
from dataset_scripts.styledisc.sampling import (
    DOMAIN_RULES,
    LengthRules,
    make_units,
    rules_for,
    triplets,
)


def words(text: str) -> int:
    return len(text.split())


def text(tag: str, n: int) -> str:
    return " ".join(f"{tag}{i}" for i in range(n))


RULES = LengthRules(min_target=4, max_target=6, bag_limit=7, max_units=10)


def news_corpus() -> list[Document]:
    docs = []
    # alice: one text of target length (5 words) and three others of 3, 2, 9 words
    for i, n in enumerate((5, 3, 2, 9)):
        docs.append(Document(f"a{i}", text(f"alice{i}_", n), "news", "alice"))
    # bob: two target-length texts, one short
    for i, n in enumerate((6, 4, 2)):
        docs.append(Document(f"b{i}", text(f"bob{i}_", n), "news", "bob"))
    docs.append(Document("c0", text("carol", 5), "news", "carol"))  # a single text
    for i, n in enumerate((9, 10)):  # no text of target length
        docs.append(Document(f"d{i}", text(f"dave{i}_", n), "news", "dave"))
    for i, n in enumerate((5, 8)):  # other text exceeds the bag limit
        docs.append(Document(f"e{i}", text(f"erin{i}_", n), "news", "erin"))
    return docs


def mail_corpus() -> list[Document]:
    return [
        Document(f"m{i}", text(f"mail{i}_", n), "mail", None)
        for i, n in enumerate((5, 3, 3, 2, 6, 4, 1, 12))
    ]


def test_paper_length_rules() -> None:
    assert rules_for("arxiv") == LengthRules(200, 700, 500, 100)
    assert DOMAIN_RULES["reddit"].min_target == 0  # Reddit: no minimum target length
    stories = rules_for("short_stories")
    assert (stories.bag_limit, stories.max_target) == (1500, 2000)


def test_author_units_follow_the_rules_and_count_every_drop() -> None:
    dropped: Counter[str] = Counter()
    units = make_units(news_corpus(), "news", words, seed=1, dropped=dropped, rules=RULES)
    by_author = {u.author: u for u in units}
    assert sorted(by_author) == ["alice", "bob"]
    assert dropped == {
        "news: author with a single text": 1,
        "news: author without a text of target length": 1,
        "news: author whose other texts all exceed the bag limit": 1,
    }
    alice = by_author["alice"]
    assert alice.target.doc_id == "a0"  # the only text of 4-6 words
    # bag: alice's other texts in random order, kept while the total stays <= 7 words:
    # 3 + 2 = 5 fit, the 9-word text never fits
    assert sorted(d.doc_id for d in alice.bag) == ["a1", "a2"]
    assert alice.bag_tokens == 5
    for unit in units:
        assert RULES.min_target <= unit.target_tokens <= RULES.max_target
        assert unit.bag_tokens <= RULES.bag_limit
        assert unit.target.doc_id not in {d.doc_id for d in unit.bag}
        assert all(d.author == unit.author for d in unit.bag)
    # deterministic per seed
    again = make_units(news_corpus(), "news", words, seed=1, dropped=Counter(), rules=RULES)
    assert [(u.target.doc_id, [d.doc_id for d in u.bag]) for u in again] == [
        (u.target.doc_id, [d.doc_id for d in u.bag]) for u in units
    ]


def test_pseudo_units_for_a_corpus_without_authors() -> None:
    dropped: Counter[str] = Counter()
    units = make_units(mail_corpus(), "mail", words, seed=3, dropped=dropped, rules=RULES)
    assert units and all(u.author is None for u in units)
    used = [d.doc_id for u in units for d in (u.target, *u.bag)]
    assert len(used) == len(set(used))  # disjoint groups
    for unit in units:
        assert RULES.min_target <= unit.target_tokens <= RULES.max_target
        assert 0 < unit.bag_tokens <= RULES.bag_limit
    assert sum(dropped.values()) == 8 - len(used)


def test_cap_keeps_max_units() -> None:
    docs = [
        Document(f"x{a}-{i}", text(f"x{a}_{i}_", 5 if i == 0 else 2), "big", f"au{a}")
        for a in range(6)
        for i in range(2)
    ]
    dropped: Counter[str] = Counter()
    units = make_units(docs, "big", words, 0, dropped, LengthRules(4, 6, 7, max_units=4))
    assert len(units) == 4 and dropped["big: author beyond the 4-instance cap"] == 2


def test_triplets_dd_and_aa() -> None:
    dropped: Counter[str] = Counter()
    units = {
        "news": make_units(news_corpus(), "news", words, 1, dropped, RULES),
        "wire": make_units(
            [
                Document("w0", text("w", 5), "wire", "zed"),
                Document("w1", text("v", 3), "wire", "zed"),
            ],
            "wire",
            words,
            1,
            dropped,
            RULES,
        ),
        "mail": make_units(mail_corpus(), "mail", words, 1, dropped, RULES),
    }
    genres = {"news": "newswire", "wire": "newswire", "mail": "email"}
    rows = triplets("news", units, words, 1, dropped, genres)
    validate_triplets(rows, "news")
    dd = [r for r in rows if r["setting"] == "DD"]
    aa = [r for r in rows if r["setting"] == "AA"]
    assert len(dd) == len(aa) == 2
    for row in dd:  # never the same-genre "wire" domain
        assert row["negative_domain"] == "mail" and row["negative_author"] is None
    for row in aa:
        assert row["negative_domain"] == "news" and row["negative_author"] != row["author"]
    alice = next(r for r in aa if r["author"] == "alice")
    alice_unit = next(u for u in units["news"] if u.author == "alice")
    # T_ref = alice's bag, T+ = alice's target text, T- = bob's target text
    assert alice["reference"] == alice_unit.bag_text and alice["reference_tokens"] == 5
    assert alice["positive"] == text("alice0_", 5) and alice["positive_tokens"] == 5
    assert alice["negative"] == next(u for u in units["news"] if u.author == "bob").target.text
    # a domain without authors: DD only, AA counted
    mail_rows = triplets("mail", units, words, 1, dropped, genres)
    assert {r["setting"] for r in mail_rows} == {"DD"}
    assert all(r["author_known"] is False for r in mail_rows)
    assert dropped["mail: no AA triplet (corpus has no author ids)"] == len(mail_rows)


def test_validation_names_row_and_column() -> None:
    dropped: Counter[str] = Counter()
    units = {
        "news": make_units(news_corpus(), "news", words, 1, dropped, RULES),
        "mail": make_units(mail_corpus(), "mail", words, 1, dropped, RULES),
    }
    rows = triplets("news", units, words, 1, dropped)
    rows[1] = {**rows[1], "negative_author": rows[1]["author"]}
    with pytest.raises(DataError, match=r"src row 1: AA negative is by the same author"):
        validate_triplets(rows, "src")
    with pytest.raises(DataError, match=r"src row 0: column 'positive' holds an empty text"):
        validate_triplets([{**rows[0], "positive": " "}], "src")
