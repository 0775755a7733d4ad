"""Readers on hand-written fixtures in the published raw formats, and golden numbers of
the builds from the real corpora (../shared/corpora)."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from dataset_scripts.core.errors import DataError
from dataset_scripts.styledisc.readers import (
    normalise_reuters_author,
    read_ccat50,
    read_enron_drndr,
    read_m4,
    read_reuters21578,
)

SGML = """<!DOCTYPE lewis SYSTEM "lewis.dtd">
<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="1" NEWID="7">
<DATE> 1-MAR-1987 10:00:00.00</DATE>
<TEXT>&#2;
<TITLE>TEST TITLE</TITLE>
<AUTHOR>    By Jane Q. Writer, Reuters</AUTHOR>
<DATELINE>    LONDON, March 1 - </DATELINE><BODY>First line of the story
continues here &lt;ABC&gt; corp.
    Second paragraph starts.
 Reuter
&#3;</BODY></TEXT>
</REUTERS>
<REUTERS TOPICS="NO" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="2" NEWID="8">
<TEXT>&#2;
<TITLE>NO BYLINE</TITLE>
<BODY>Unsigned text.
 Reuter
&#3;</BODY></TEXT>
</REUTERS>
"""


def test_reuters_sgml_fixture(tmp_path: Path) -> None:
    with gzip.open(tmp_path / "reut2-000.sgm.gz", "wt") as handle:
        handle.write(SGML)
    docs, dropped = read_reuters21578(tmp_path)
    assert [(d.doc_id, d.author) for d in docs] == [("reuters-7", "jane q. writer")]
    assert (
        docs[0].text
        == "First line of the story continues here <ABC> corp.\nSecond paragraph starts."
    )
    assert dropped == Counter({"reuters: no <AUTHOR> byline": 1})
    assert normalise_reuters_author("by JULIE VORMAN") == normalise_reuters_author(
        "  By Julie Vorman, Reuters"
    )


def test_reuters_unclosed_element_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "reut2-001.sgm").write_text(SGML + '<REUTERS NEWID="9">\n<BODY>x</BODY>\n')
    with pytest.raises(DataError, match=r"reut2-001.sgm line 20: <REUTERS> element without"):
        read_reuters21578(tmp_path)


def test_ccat50_enron_m4_fixtures(tmp_path: Path) -> None:
    for split, author, name, text in (
        ("C50train", "AnnA", "1newsML.txt", "One."),
        ("C50test", "AnnA", "2newsML.txt", "Two."),
    ):
        (tmp_path / "data" / split / author).mkdir(parents=True)
        (tmp_path / "data" / split / author / name).write_text(text)
    docs, _ = read_ccat50(tmp_path)
    assert [(d.author, d.text) for d in docs] == [("AnnA", "One."), ("AnnA", "Two.")]
    (tmp_path / "test_data.json").write_text(
        json.dumps(
            [{"cleaned_text": "Hi all", "folder": "x"}, {"cleaned_text": " ", "folder": "y"}]
        )
    )
    docs, dropped = read_enron_drndr(tmp_path)
    assert [d.author for d in docs] == [None] and dropped["enron: empty email"] == 1
    (tmp_path / "data" / "reddit_llama2.jsonl").write_text(
        '{"human_text": "ok", "source_ID": "a"}\n{"human_text": "ok", "source_ID": "a"}\nnot json\n'
    )
    with pytest.raises(DataError, match=r"reddit_llama2.jsonl line 3: invalid JSON"):
        read_m4(tmp_path, "reddit")


@pytest.mark.corpora
def test_real_reuters_and_ccat50(corpora: Path) -> None:
    docs, dropped = read_reuters21578(corpora / "reuters21578")
    authors = Counter(d.author for d in docs)
    assert len(docs) == 875 and dropped["reuters: no <AUTHOR> byline"] == 20703
    assert authors["chaitanya kalbag"] == 23
    docs, _ = read_ccat50(corpora / "ccat50")
    assert len(docs) == 5000 and len({d.author for d in docs}) == 50


@pytest.mark.corpora
def test_real_builds_golden_counts(corpora: Path) -> None:
    from dataset_scripts.styledisc.build import build_domain

    counts = {}
    for domain in ("reuters", "ccat50", "enron", "arxiv", "short_stories", "reddit"):
        rows, dropped = build_domain(corpora, domain)
        counts[domain] = dict(Counter(r["setting"] for r in rows))
        if domain == "reuters":
            assert dropped["reuters: author beyond the 50-instance cap"] == 19
            first = rows[0]
            assert first["setting"] == "DD" and first["negative_domain"] != "ccat50"
            # T_ref = the author's bag (<= 500 tokens), T+ / T- = target texts (200-700)
            assert first["reference_tokens"] <= 500
            assert 200 <= first["positive_tokens"] <= 700 and 0 <= first["negative_tokens"] <= 2000
    assert counts == {
        "reuters": {"DD": 50, "AA": 50},
        "ccat50": {"DD": 50, "AA": 50},
        "enron": {"DD": 100},
        "arxiv": {"DD": 100},
        "short_stories": {"DD": 50},
        "reddit": {"DD": 10},
    }
