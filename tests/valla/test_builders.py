"""Valla builders on self-written fixtures in the published raw formats."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.hub_folder import write_hub_folder
from dataset_scripts.registry import get_dataset
from tests.valla import fixtures


def _ids(rows: list[dict]) -> set[str]:
    return {r["id"] for r in rows}


def test_guardian_cross_topic_and_genre(tmp_path: Path) -> None:
    raw = fixtures.write_guardian(tmp_path / "guardian")
    tables, dropped = get_dataset("valla/guardian").builder(raw)
    aa = tables["labelled_texts"]
    assert dropped == {"exact duplicate text of the same author": 1}
    assert set(aa) == {
        "train",
        "validation",
        "test",
        "cross_topic_validation",
        "cross_topic_test",
        "cross_genre_validation",
        "cross_genre_test",
    }
    iid = aa["train"] + aa["validation"] + aa["test"]
    assert len(iid) == 3 * 3 * 4  # 3 categories x 3 authors x 4, duplicate removed
    assert {i.split("/")[0] for i in _ids(iid)} == {"Politics", "Society", "World"}
    assert {
        i.split("/")[0] for i in _ids(aa["cross_topic_validation"] + aa["cross_topic_test"])
    } == {"UK"}
    assert {
        i.split("/")[0] for i in _ids(aa["cross_genre_validation"] + aa["cross_genre_test"])
    } == {"Books"}
    assert Counter(r["label"] for r in aa["cross_topic_test"]) == {"ann": 2, "bob": 2, "cat": 2}
    assert "é" in aa["train"][0]["text"]  # decoded from Windows-1252
    pairs = tables["text_pairs"]["test"]
    assert len(pairs) == 2 * len(aa["test"]) and sum(p["label"] for p in pairs) == len(aa["test"])


def test_cmcc_genres_topics_and_typo(tmp_path: Path) -> None:
    raw = fixtures.write_cmcc(tmp_path / "cmcc")
    tables, _ = get_dataset("valla/cmcc").builder(raw)
    aa = tables["labelled_texts"]
    iid = _ids(aa["train"] + aa["validation"] + aa["test"])
    assert {i.split("/")[0] for i in iid} == {"Blogs", "Chat", "Emails"}
    topic = _ids(aa["cross_topic_validation"] + aa["cross_topic_test"])
    assert {i.split("/")[0] for i in topic} == {"Essays"}
    genre = _ids(aa["cross_genre_validation"] + aa["cross_genre_test"])
    assert {i.split("/")[0] for i in genre} == {"Discussion", "Interviews"}
    assert "Discussion/S1D1I3.txt" in genre  # the typo file, under its corrected name
    assert {r["label"] for r in aa["train"]} == {"S1", "S2", "S3"}


def test_cmcc_bad_file_name(tmp_path: Path) -> None:
    raw = fixtures.write_cmcc(tmp_path / "cmcc")
    (raw / "Blogs" / "Correlated" / "notes.txt").write_text("x")
    with pytest.raises(DataError, match=r"notes\.txt"):
        get_dataset("valla/cmcc").builder(raw)


def test_imdb62_per_author_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataset_scripts.valla import imdb62

    monkeypatch.setattr(imdb62, "TRAIN_PER_AUTHOR", 6)
    monkeypatch.setattr(imdb62, "VALIDATION_PER_AUTHOR", 2)
    path = fixtures.write_imdb62(tmp_path / "imdb62.txt")
    tables, dropped = imdb62.build(tmp_path)
    aa = tables["labelled_texts"]
    assert dropped == {"exact duplicate text of the same author": 1}
    assert [len(aa[s]) for s in ("train", "validation", "test")] == [18, 6, 12]
    assert [r["id"].split("/")[1] for r in aa["validation"] if r["label"] == "u0"] == ["r06", "r07"]
    path.write_text(path.read_text() + "broken line\n")
    with pytest.raises(DataError, match=r"imdb62\.txt:38: expected 6"):
        imdb62.build(tmp_path)


def test_pan_unseen_author_build(tmp_path: Path) -> None:
    raw = fixtures.write_pan(tmp_path / "pan")
    tables, dropped = get_dataset("valla/pan20").builder(raw)
    pairs = tables["text_pairs"]
    n = sum(len(v) for v in pairs.values())
    assert n + sum(dropped.values()) == 20
    assert pairs["unseen_author_test"] and pairs["train"]
    (raw / "pairs.jsonl").write_text('{"id": "p001", "pair": ["a"]}\n')
    with pytest.raises(DataError, match=r"pairs\.jsonl:1"):
        get_dataset("valla/pan20").builder(raw)


def test_rebuild_is_byte_identical(tmp_path: Path) -> None:
    raw = fixtures.write_guardian(tmp_path / "guardian")
    spec = get_dataset("valla/guardian")
    folders = []
    for name in ("one", "two"):
        tables, dropped = spec.builder(raw)
        folders.append(write_hub_folder(spec, tables, tmp_path / name, dropped))
    files = sorted(p.relative_to(folders[0]) for p in folders[0].rglob("*") if p.is_file())
    assert any(str(f).endswith(".parquet") for f in files)
    for rel in files:
        assert (folders[0] / rel).read_bytes() == (folders[1] / rel).read_bytes(), rel


def test_blogs_dedup_top_authors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataset_scripts.valla import blogs

    raw = fixtures.write_blogs(tmp_path / "blogs")
    monkeypatch.setattr(blogs, "TOP_AUTHORS", 2)
    tables, dropped = blogs.build_blogs50(raw)
    aa = tables["labelled_texts"]
    assert {r["label"] for r in aa["train"]} == {"100", "101"}  # 6 and 5 posts
    assert {k: v for k, v in dropped.items() if not k.startswith("AV ")} == {
        "post shorter than 100 characters": 4,
        "exact duplicate post": 1,
        "author not among the top 2": 4 + 3,
    }
    # author 101 has 5 posts: one in validation and one in test, which then has no AV partner
    assert dropped["AV test: text whose author has no other text in the split"] == 1
    assert sum(len(v) for v in aa.values()) == 11
    assert all(r["text"].endswith(f"second line {r['id'][-1]}") for r in aa["train"])
    tables, dropped = blogs.build_blogsall(raw)
    assert dropped["author with < 5 posts"] == 7


def test_amazon_exactly_ten_reviews(tmp_path: Path) -> None:
    import gzip
    import json

    from dataset_scripts.valla import amazon

    lines = []
    for user, n in (("U1", 10), ("U2", 10), ("U3", 11), ("U4", 3)):
        for i in range(n):
            lines.append(
                json.dumps({"reviewerID": user, "asin": f"B{i}", "reviewText": f"{user} says {i}"})
            )
    lines.append(repr({"reviewerID": "U4", "asin": "X", "reviewText": ""}))  # loose JSON, empty
    with gzip.open(tmp_path / "reviews.json.gz", "wt") as handle:
        handle.write("\n".join(lines) + "\n")
    tables, dropped = amazon.build(tmp_path)
    aa = tables["labelled_texts"]
    assert {r["label"] for s in aa.values() for r in s} == {"U1", "U2"}
    assert [len(aa[s]) for s in ("train", "validation", "test")] == [12, 4, 4]
    assert dropped["user without exactly 10 reviews"] == 14
    assert dropped["review without text"] == 1
    (tmp_path / "bad.json").write_text("{not json\n")
    with pytest.raises(DataError, match=r"bad\.json:1"):
        amazon.build(tmp_path)


def test_gutenberg_unseen_authors(tmp_path: Path) -> None:
    from dataset_scripts.valla import gutenberg

    long = " ".join(["word"] * 120)
    layout = {"train": ["A", "B", "C"], "val": ["D", "E"], "test": ["F", "G"]}
    for folder, authors in layout.items():
        for author in authors:
            (tmp_path / folder / author).mkdir(parents=True)
            for n in range(5):
                (tmp_path / folder / author / f"{n}.txt").write_text(f"{author} {n}\n{long}\n")
            (tmp_path / folder / author / "short.txt").write_text("too short")
    tables, dropped = gutenberg.build(tmp_path)
    aa = tables["labelled_texts"]
    seen = {r["label"] for s in ("train", "validation", "test") for r in aa[s]}
    assert seen == {"A", "B", "C"}
    assert {r["label"] for r in aa["unseen_author_test"]} == {"F", "G"}
    assert {r["label"] for r in aa["unseen_author_validation"]} == {"D", "E"}
    assert dropped["train: text of at most 100 words"] == 3
    (tmp_path / "test" / "A").mkdir()
    for n in range(2):
        (tmp_path / "test" / "A" / f"{n}.txt").write_text(f"A again {n}\n{long}\n")
    with pytest.raises(DataError, match="more than one"):
        gutenberg.build(tmp_path)
