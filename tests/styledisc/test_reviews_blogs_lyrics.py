"""Readers and builds of the styledisc review, blog and lyrics corpora (Amazon Fine Food
Reviews, Blog Authorship Corpus, Edenbd lyrics), on hand-written fixtures in their
published raw formats (tests/styledisc/fixtures/); the one domain table."""

from __future__ import annotations

import csv
import gzip
import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.styledisc_schema import CONFIG
from dataset_scripts.registry import get_dataset
from dataset_scripts.styledisc import build as styledisc_build
from dataset_scripts.styledisc.domains import DOMAINS
from dataset_scripts.styledisc.readers import Document
from dataset_scripts.styledisc.reviews_blogs_lyrics import (
    clean_review_text,
    iter_blog_posts,
    read_amazon_csv,
    read_amazon_food,
    read_amazon_snap,
    read_blogs,
    read_lyrics,
)

FIXTURES = Path(__file__).parent / "fixtures"


# --- Amazon Fine Food Reviews -------------------------------------------------------------


def test_amazon_snap_fixture() -> None:
    docs, dropped = read_amazon_snap(FIXTURES / "amazon_food" / "finefoods.txt")
    assert [d.author for d in docs] == ["A3SGXH7AUHU8GW", "A1D87F6ZCVE5NK", "A1D87F6ZCVE5NK"]
    assert docs[0] == Document(
        "amazon_food-0",
        'My dog loves these.\nShe eats them every day "without fail".',
        "amazon_food",
        "A3SGXH7AUHU8GW",
    )
    assert "café quality" in docs[1].text  # Latin-1 byte 0xE9
    assert docs[2].doc_id == "amazon_food-4"  # record index in the file
    assert dropped == Counter(
        {"amazon_food: review without a user id": 1, "amazon_food: empty review text": 1}
    )


def test_amazon_csv_fixture_and_folder_preference(tmp_path: Path) -> None:
    docs, dropped = read_amazon_csv(FIXTURES / "amazon_food" / "Reviews.csv")
    assert [(d.doc_id, d.author) for d in docs] == [
        ("amazon_food-1", "A3SGXH7AUHU8GW"),
        ("amazon_food-2", "A1D87F6ZCVE5NK"),
    ]
    assert docs[0].text == 'My dog loves these.\nShe eats them every day "without fail".'
    assert dropped == Counter(
        {"amazon_food: review without a user id": 1, "amazon_food: empty review text": 1}
    )
    # both present -> SNAP is read; only the gzipped CSV -> CSV is read
    assert len(read_amazon_food(FIXTURES / "amazon_food")[0]) == 3
    with gzip.open(tmp_path / "Reviews.csv.gz", "wb") as handle:
        handle.write((FIXTURES / "amazon_food" / "Reviews.csv").read_bytes())
    assert [d.doc_id for d in read_amazon_food(tmp_path)[0]] == ["amazon_food-1", "amazon_food-2"]
    with pytest.raises(FileNotFoundError, match=r"finefoods\.txt"):
        read_amazon_food(tmp_path / "nowhere")


def test_amazon_errors_name_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "finefoods.txt"
    bad.write_text(
        "product/productId: B1\nreview/userId: U1\nreview/text: fine\n\n"
        "product/productId: B2\nreview/userId: U2\nthis line has no key\n"
    )
    with pytest.raises(DataError, match=r"finefoods.txt line 7: expected '<key>: <value>'"):
        read_amazon_snap(bad)
    bad.write_text("product/productId: B1\nreview/userId: U1\nproduct/productId: B2\n")
    with pytest.raises(DataError, match=r"line 3: product/productId repeated .* line 1"):
        read_amazon_snap(bad)
    bad.write_text("product/productId: B1\nreview/text: x\n\n\nproduct/productId: B2\n")
    with pytest.raises(DataError, match=r"record 1 \(line 1\): missing review/userId"):
        read_amazon_snap(bad)
    csv_bad = tmp_path / "Reviews.csv"
    csv_bad.write_text("Id,UserId,Summary\n1,U1,x\n")
    with pytest.raises(DataError, match=r"Reviews.csv line 1: missing column 'Text'"):
        read_amazon_csv(csv_bad)
    csv_bad.write_text("Id,UserId,Text\n1,U1,fine\n2,U2\n")
    with pytest.raises(DataError, match=r"Reviews.csv line 3: expected 3 fields"):
        read_amazon_csv(csv_bad)


def test_clean_review_text() -> None:
    assert clean_review_text("a<br /><br />b &amp; <a href='x'>c</a>  ") == "a\nb & c"


# --- Blog Authorship Corpus ---------------------------------------------------------------


def test_blogs_fixture() -> None:
    docs, dropped = read_blogs(FIXTURES / "blogs")
    assert [(d.doc_id, d.author) for d in docs] == [
        ("blogs-1000331-4", "1000331"),
        ("blogs-1000331-20", "1000331"),
        ("blogs-1000866-4", "1000866"),
    ]
    assert docs[0].text == (
        "Today I went to the market &amp; bought apples.\nIt was sunny, naïve me forgot a hat."
    )
    assert docs[1].text == "Short post on one line."
    assert docs[2].text.endswith("August already...\nlol")
    assert {d.domain for d in docs} == {"blogs"}
    assert dropped == Counter({"blogs: empty post": 1})


def test_blogs_errors(tmp_path: Path) -> None:
    (tmp_path / "blogs").mkdir()
    good = tmp_path / "blogs" / "5.male.23.Arts.Aries.xml"
    good.write_text("<Blog>\n<post>\nopen\n<date>1,May,2004</date>\n<post>\nx\n</post>\n</Blog>\n")
    with pytest.raises(DataError, match=r"Aries.xml line 5: <post> inside the post of line 2"):
        list(iter_blog_posts(good))
    good.write_text("<Blog>\n<post>\nnever closed\n")
    with pytest.raises(DataError, match=r"Aries.xml line 2: <post> without </post>"):
        read_blogs(tmp_path)
    good.write_text("<Blog>\n<date>1,May,2004</date>\n</Blog>\n")
    assert read_blogs(tmp_path) == ([], Counter({"blogs: blogger file without a <post>": 1}))
    (tmp_path / "blogs" / "6.robot.x.Arts.Aries.xml").write_text("<Blog></Blog>")
    with pytest.raises(DataError, match=r"6.robot.x.Arts.Aries.xml: file name is not"):
        read_blogs(tmp_path)
    with pytest.raises(FileNotFoundError, match="Blog Authorship Corpus"):
        read_blogs(tmp_path / "empty")


# --- Lyrics -------------------------------------------------------------------------------


def test_lyrics_fixture() -> None:
    docs, dropped = read_lyrics(FIXTURES / "lyrics")
    assert [(d.doc_id, d.author) for d in docs] == [
        ("lyrics-0", "elijah blake"),
        ("lyrics-1", "elijah blake"),
        ("lyrics-4", "jane doe"),
    ]
    assert docs[0].text == (
        "No, no\nI ain't ever trapped out the bando\nBut oh Lord, don't get me wrong"
    )
    assert dropped == Counter({"lyrics: song without an artist": 1, "lyrics: empty lyrics": 1})


def test_lyrics_other_columns_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "songs.csv"
    path.write_text("Artist,Title,Lyrics\nA,t,la la\nB,u,\n")
    docs, dropped = read_lyrics(tmp_path)
    assert [(d.author, d.text) for d in docs] == [("a", "la la")]
    assert dropped == Counter({"lyrics: empty lyrics": 1})
    path.write_text("artist,song\nA,t\n")
    with pytest.raises(DataError, match=r"songs.csv line 1: no lyrics \(seq/lyrics/text\) column"):
        read_lyrics(path)
    path.write_text('artist,seq,song\nA,"la\nla",t\nB,x\n')
    with pytest.raises(DataError, match=r"songs.csv line 4: expected 3 fields"):
        read_lyrics(path)
    (tmp_path / "more.csv").write_text("artist,seq\n")
    with pytest.raises(FileNotFoundError, match="exactly one"):
        read_lyrics(tmp_path)


# --- registration and DD/AA triplets -------------------------------------------------------

_WORDS = {
    "amazon_food": "taste price snack bag flavor order coffee sweet salty box",
    "blogs": "today lol went friend school night really feel class mom",
    "lyrics": "baby love heart night oh yeah dance fire soul tonight",
}


def _text(rng: random.Random, domain: str, n_words: int) -> str:
    words = _WORDS[domain].split()
    return " ".join(rng.choice(words) for _ in range(n_words)) + "."


def _write_corpora(root: Path) -> None:
    """Three authors per domain, each with one ~300-token text (a target) and two
    ~120-token texts (the bag), written in the three raw formats."""
    rng = random.Random(0)
    texts = {
        domain: {
            f"{domain[:2]}{a}": [_text(rng, domain, n) for n in (300, 120, 120)] for a in range(3)
        }
        for domain in _WORDS
    }
    (root / "amazon_fine_food").mkdir()
    with (root / "amazon_fine_food" / "finefoods.txt").open("w", encoding="latin-1") as out:
        for user, own in texts["amazon_food"].items():
            for k, text in enumerate(own):
                out.write(f"product/productId: B{k}\nreview/userId: {user}\n")
                out.write(f"review/summary: s\nreview/text: {text}\n\n")
    (root / "blog_authorship_corpus" / "blogs").mkdir(parents=True)
    for number, own in enumerate(texts["blogs"].values()):
        name = f"{number + 100}.female.23.Arts.Aries.xml"
        posts = "".join(f"<date>1,May,2004</date>\n<post>\n   {t}\n</post>\n\n" for t in own)
        (root / "blog_authorship_corpus" / "blogs" / name).write_text(
            f"<Blog>\n\n{posts}</Blog>\n", encoding="latin-1"
        )
    (root / "lyrics_edenbd").mkdir()
    with (root / "lyrics_edenbd" / "labeled_lyrics_cleaned.csv").open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["", "artist", "seq", "song", "label"])
        index = 0
        for artist, own in texts["lyrics"].items():
            for text in own:
                writer.writerow([index, artist, text.replace(" oh ", "\noh "), f"s{index}", 0.5])
                index += 1


def test_one_domain_table_registers_every_domain() -> None:
    # one table, in the order DD negatives are drawn (the seeded triplets depend on it)
    assert list(DOMAINS) == [
        "reuters",
        "ccat50",
        "enron",
        "arxiv",
        "short_stories",
        "reddit",
        "amazon_food",
        "blogs",
        "lyrics",
    ]
    assert styledisc_build.DOMAINS is DOMAINS and list(styledisc_build.GENRES) == list(DOMAINS)
    for name, domain in DOMAINS.items():
        spec = get_dataset(f"styledisc/{name}")
        # the domain's genre and authors live in DOMAINS (one home); the spec names it
        assert spec.hub_id == f"styledisc/{name}" and spec.steb is None
        assert spec.run_command == f"stylebench styledisc run --dataset built/styledisc__{name}"
        assert spec.raw_hint == domain.raw_hint and spec.license == domain.license


def test_registration() -> None:
    names = ["amazon_food", "blogs", "lyrics"]
    for name in names:
        spec = get_dataset(f"styledisc/{name}")
        assert DOMAINS[name].has_authors
        assert spec.hub_id == f"styledisc/{name}" and spec.raw_hint == DOMAINS[name].raw_hint
        # no Appendix A exception: default windows 200-700 / bag 500 / 100 units
        assert "200-700 tokens" in spec.protocol and "500 tokens" in spec.protocol
        assert "at most 100 units" in spec.protocol


def test_dd_and_aa_triplets_from_the_three_formats(tmp_path: Path) -> None:
    _write_corpora(tmp_path)
    for domain in ("amazon_food", "blogs", "lyrics"):
        rows, dropped = styledisc_build.build_domain(tmp_path, domain)
        assert dropped == {}
        dd = [r for r in rows if r["setting"] == "DD"]
        aa = [r for r in rows if r["setting"] == "AA"]
        assert len(dd) == len(aa) == 3
        authors = sorted(r["author"] for r in aa)
        # authors: reviewer userId / blogger id (file name) / artist
        assert authors == (
            ["100", "101", "102"] if domain == "blogs" else [f"{domain[:2]}{a}" for a in range(3)]
        )
        for row in aa:
            assert row["negative_domain"] == domain and row["negative_author"] != row["author"]
            assert row["author_known"] is True
            assert 200 <= row["positive_tokens"] <= 700 and row["reference_tokens"] <= 500
            assert row["reference"].count("\n\n") == 1  # bag of the author's two short texts
        for row in dd:
            assert row["negative_domain"] in set(_WORDS) - {domain}
    # the registered builder reads the domain's own folder and finds the siblings
    spec = get_dataset("styledisc/lyrics")
    tables, dropped = spec.builder(tmp_path / "lyrics_edenbd")
    assert len(tables[CONFIG]["test"]) == 6 and dropped == {}


def test_dropped_counts_reach_the_build(tmp_path: Path) -> None:
    _write_corpora(tmp_path)
    finefoods = tmp_path / "amazon_fine_food" / "finefoods.txt"
    with finefoods.open("a", encoding="latin-1") as out:
        out.write("product/productId: B9\nreview/userId: unknown\nreview/text: anonymous\n\n")
        out.write("product/productId: B9\nreview/userId: lonely\nreview/text: only one\n")
    shutil.rmtree(tmp_path / "lyrics_edenbd")
    rows, dropped = styledisc_build.build_domain(tmp_path, "amazon_food")
    assert dropped == {
        "amazon_food: review without a user id": 1,
        "amazon_food: author with a single text": 1,
    }
    assert {r["negative_domain"] for r in rows if r["setting"] == "DD"} == {"blogs"}
