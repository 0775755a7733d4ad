"""TF-IDF n-grams: fit, encode, save/load, identity."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dataset_scripts.core.errors import DataError, StylebenchError
from evaluators.encoders import get_encoder, identity_key
from evaluators.encoders.tfidf import TfidfNgramEncoder

from .conftest import needs_spacy

CORPUS = [
    "The quick brown fox jumps over the lazy dog.",
    "I can't believe it's already Friday!!! lol",
    "Pursuant to the aforementioned agreement, the parties shall convene.",
    "omg that movie was sooo good, we should go again tmrw",
    "In 1850, the railway reached the small town; trade flourished thereafter.",
    "Could you please send me the report by Monday? Thanks.",
    "She sells sea shells by the sea shore, or so they say.",
    "Data were collected from 120 participants and analysed with mixed models.",
]


def test_unfitted_encoder_raises_a_clear_error():
    encoder = TfidfNgramEncoder()
    with pytest.raises(StylebenchError, match="not fitted"):
        encoder.encode(["hello"])
    with pytest.raises(StylebenchError, match="not fitted"):
        encoder.identity()
    with pytest.raises(StylebenchError):
        TfidfNgramEncoder(components=("char", "bogus"))
    with pytest.raises(DataError):
        TfidfNgramEncoder(components=("char",)).fit([])


def test_char_and_regex_words_without_spacy():
    encoder = TfidfNgramEncoder(components=("char", "word"), word_tokens="regex", max_features=50)
    assert not encoder.needs_spacy
    vectors = encoder.fit(CORPUS).encode(CORPUS[:3])
    assert vectors.dtype == np.float32
    assert encoder.block_dims == {"char": 50, "word": 50}
    np.testing.assert_allclose(np.linalg.norm(vectors[:, :50], axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(vectors[:, 50:], axis=1), 1.0, atol=1e-5)


@pytest.fixture(scope="module")
def fitted():
    return get_encoder("tfidf-ngrams").fit(CORPUS)


@needs_spacy
def test_fit_encode_shape_blocks_and_determinism(fitted):
    dims = fitted.block_dims
    assert list(dims) == ["char", "word", "pos"]
    assert all(0 < width <= 2000 for width in dims.values())
    capped = TfidfNgramEncoder(max_features={"char": 100, "word": 20, "pos": 10}).fit(CORPUS)
    assert capped.block_dims == {"char": 100, "word": 20, "pos": 10}
    texts = ["The lazy dog sat by the sea shore.", "the the the"]
    vectors = fitted.encode(texts)
    assert vectors.shape == (2, fitted.dim) and vectors.dtype == np.float32
    start = 0
    for width in dims.values():  # each block is L2-normalised on its own
        norms = np.linalg.norm(vectors[:, start : start + width], axis=1)
        np.testing.assert_allclose(norms[0], 1.0, atol=1e-5)
        assert np.isclose(norms[1], 1.0, atol=1e-5) or norms[1] == 0  # no known n-gram: 0
        start += width
    unseen = fitted.encode(["Zzzz qqqq."])[0]
    assert unseen[dims["char"] : dims["char"] + dims["word"]].sum() == 0
    np.testing.assert_array_equal(vectors, fitted.encode(texts))
    pos_names = set(fitted.vectorizers["pos"].get_feature_names_out())
    assert {"det", "noun", "punct", "det noun"} <= pos_names


@needs_spacy
def test_save_load_round_trip_and_identity(fitted, tmp_path):
    texts = ["Round trips must give identical vectors.", "Yes!!"]
    folder = fitted.save(tmp_path / "tfidf")
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["content_hash"] == fitted.content_hash
    assert manifest["settings"]["word_ngrams"] == [1, 2]
    loaded = get_encoder("tfidf-ngrams", path=folder)
    np.testing.assert_array_equal(loaded.encode(texts), fitted.encode(texts))
    assert loaded.identity() == fitted.identity()
    # a different fitting corpus or different settings give a different identity
    refit = TfidfNgramEncoder().fit(CORPUS[:5])
    assert identity_key(refit.identity()) != identity_key(fitted.identity())
    other = TfidfNgramEncoder(word_ngrams=(1, 3)).fit(CORPUS)
    assert other.identity() != fitted.identity()
    # tampering is detected
    manifest["content_hash"] = "0" * 20
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError):
        TfidfNgramEncoder.load(folder)
    with pytest.raises(StylebenchError):
        TfidfNgramEncoder.load(tmp_path / "nothing-here")


# -- the vocabulary cut is deterministic (issue 20) ------------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from evaluators.encoders.tfidf import top_terms  # noqa: E402


@given(
    st.dictionaries(st.text(min_size=1, max_size=4), st.integers(1, 4), min_size=1, max_size=40),
    st.integers(1, 45),
    st.randoms(),
)
@pytest.mark.slow
def test_top_terms_breaks_ties_by_term_whatever_the_input_order(counts, cap, rnd) -> None:
    items = list(counts.items())
    rnd.shuffle(items)
    expected = sorted(sorted(counts, key=lambda t: (-counts[t], t))[:cap])
    assert top_terms([t for t, _ in items], [c for _, c in items], cap) == expected


def test_vocabulary_cut_keeps_the_alphabetically_first_of_tied_terms() -> None:
    # every word occurs once: scikit-learn's own cut would keep an arbitrary three
    encoder = TfidfNgramEncoder(
        components=("word",), word_ngrams=(1, 1), word_tokens="regex", max_features=3
    )
    encoder.fit(["delta alpha echo", "charlie bravo foxtrot"])
    assert sorted(encoder.vectorizers["word"].vocabulary_) == ["alpha", "bravo", "charlie"]
