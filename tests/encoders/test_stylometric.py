"""Stylometric surface + POS features and the shared spaCy tagging."""

from __future__ import annotations

import numpy as np
import pytest

from evaluators.encoders import get_encoder
from evaluators.encoders.spacy_tagging import load_spacy, tag_texts
from evaluators.encoders.stylometric import StylometricEncoder, count_syllables

from .conftest import needs_spacy


@pytest.mark.parametrize(
    ("word", "syllables"),
    [("cat", 1), ("make", 1), ("table", 2), ("agree", 2), ("beautiful", 3), ("rhythm", 1),
     ("Syllable", 3), ("42", 0), ("I", 1)],
)  # fmt: skip
def test_vowel_group_syllables(word, syllables):
    assert count_syllables(word) == syllables


@needs_spacy
def test_spacy_pipeline_is_shared_and_lean():
    nlp = load_spacy()
    assert load_spacy() is nlp
    assert {"tagger", "attribute_ruler", "sentencizer"} <= set(nlp.pipe_names)
    assert not {"parser", "ner", "lemmatizer"} & set(nlp.pipe_names)
    (doc,) = tag_texts(["The cat sat on the mat. It purred."])
    assert doc.n_sentences == 2 and doc.tokens[:3] == ("The", "cat", "sat")


@needs_spacy
def test_pos_and_surface_counts_on_a_hand_made_sentence():
    encoder = StylometricEncoder(normalize=None)
    table = encoder.feature_table(["The cat sat on the mat."])
    # DET NOUN VERB ADP DET NOUN PUNCT
    expected = {
        "n_det": 2, "n_unique_det": 1, "n_noun": 2, "n_unique_noun": 2, "n_verb": 1,
        "n_adp": 1, "n_punct": 1, "n_unique_punct": 1, "n_adj": 0, "n_unique_adj": 0,
        "n_words": 6, "n_sentences": 1, "n_chars": 17, "n_syllables": 6,
        "n_unique_words": 5, "n_stop_words": 3,  # the, on, the
        "words_per_sentence": 6, "ttr_simple": 5 / 6, "det_per_word": 2 / 6,
    }  # fmt: skip
    for name, value in expected.items():
        assert table[name][0] == pytest.approx(value), name
    raw = encoder.encode(["The cat sat on the mat."])[0]
    assert raw[encoder.feature_names.index("n_det")] == 2
    assert len(encoder.feature_names) == encoder.dim == 16 + 5 + 34 + 17 + 6


@needs_spacy
def test_default_is_l2_normalised_with_zero_vectors_for_tiny_texts():
    encoder = get_encoder("stylometric")
    texts = ["Hi", "", "A longer text. It has two sentences, and some punctuation!"]
    vectors = encoder.encode(texts)
    assert vectors.shape == (3, encoder.dim) and vectors.dtype == np.float32
    assert not vectors[0].any() and not vectors[1].any()
    assert np.linalg.norm(vectors[2]) == pytest.approx(1.0, abs=1e-5)
    np.testing.assert_array_equal(vectors, encoder.encode(texts))
    pos_only = get_encoder("stylometric", groups=("pos",))
    assert pos_only.dim == 34 and pos_only.identity() != encoder.identity()


def test_long_texts_are_cut_at_whitespace_for_spacy():
    from evaluators.encoders.spacy_tagging import _split_long

    text = ("word " * 30_000).strip()  # ~150k characters
    pieces = _split_long(text, limit=100_000)
    assert len(pieces) == 2 and all(len(p) <= 100_000 for p in pieces)
    assert "".join(pieces) == text and pieces[0].endswith(" ")
    assert _split_long("x" * 250, limit=100) == ["x" * 100, "x" * 100, "x" * 50]
