"""Function-word frequencies."""

from __future__ import annotations

import numpy as np
import pytest

from dataset_scripts.core.errors import DataError
from evaluators.encoders import get_encoder
from evaluators.encoders.function_words import (
    RESOURCE,
    FunctionWordEncoder,
    read_vocabulary,
    tokenize,
)

SENTENCE = "Instead of THE cat, the dog sat in front of the door."  # 12 tokens


def test_hand_made_sentence_with_custom_vocabulary():
    encoder = FunctionWordEncoder(vocabulary=["of", "The", "of the", "in front of", "cat's"])
    assert encoder.feature_names == ["of", "the", "of the", "in front of", "cat s"]
    vector = encoder.encode([SENTENCE])[0]
    assert len(tokenize(SENTENCE)) == 12
    # of: 2, the: 3 (case-insensitive), "of the": 2, "in front of": 1, "cat s": 0
    np.testing.assert_allclose(vector, np.array([2, 3, 2, 1, 0]) / 12, rtol=1e-6)
    assert vector.dtype == np.float32


def test_bundled_vocabulary_counts_words_phrases_and_contractions():
    assert get_encoder("function-words").dim == 458  # default: STEB's list (459 entries)
    encoder = FunctionWordEncoder(RESOURCE)  # stylebench's own list
    names = encoder.feature_names
    words = [n for n in names if " " not in n]
    phrases = [n for n in names if " " in n]
    assert len(words) >= 300 and len(phrases) >= 50
    assert len(set(names)) == len(names)
    text = "I don't know, but instead of waiting we left as soon as possible."
    vector = encoder.encode([text])[0]
    n = len(tokenize(text))  # 15: "don't" is two tokens

    def freq(name):
        return vector[names.index(name)] * n

    assert freq("don t") == pytest.approx(1)
    assert freq("instead of") == pytest.approx(1)
    assert freq("instead") == pytest.approx(1)  # overlapping counts, as n-grams
    assert freq("as soon as") == pytest.approx(1)
    assert freq("as") == pytest.approx(2)
    assert freq("i") == pytest.approx(1)
    assert freq("possible" if "possible" in names else "we") == pytest.approx(1)


def test_empty_text_deterministic_and_identity():
    encoder = FunctionWordEncoder()
    out = encoder.encode(["", "the the"])
    assert out.shape == (2, encoder.dim)
    assert not out[0].any()
    assert out[1][encoder.feature_names.index("the")] == pytest.approx(1.0)
    np.testing.assert_array_equal(out, encoder.encode(["", "the the"]))
    assert FunctionWordEncoder(["of"]).identity() != encoder.identity()
    assert encoder.identity() == FunctionWordEncoder().identity()
    with pytest.raises(DataError):
        FunctionWordEncoder(["", "   "])
    assert read_vocabulary()[0] == "a"
