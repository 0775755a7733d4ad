"""The STEB model-family adapters on tiny random-weight models built here (nothing is
downloaded): LUAR (episode input, remote code), LISA (EncT5 + linear embedder),
Neurobiber (max over word chunks), the random floor's episodes, and episode pooling.
Every pooling rule is recomputed independently in numpy from the model's own outputs."""

from __future__ import annotations

import numpy as np
import pytest

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders import embed_episodes, get_encoder
from tests.tiny_models import write_tiny_lisa, write_tiny_luar, write_tiny_neurobiber

from .conftest import HAS_TORCH, TINY_WORDS, needs_torch

TEXTS = [
    "the cat sat on the mat .",
    "we ran in the park with a dog and it was very long here",
    "you ?",
    "this small model tests padding left and right",
]


def _np(tensor) -> np.ndarray:
    return tensor.detach().cpu().double().numpy()


# -- LUAR --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def luar(tmp_path_factory):
    if not HAS_TORCH:
        pytest.skip("needs torch + transformers")
    folder = write_tiny_luar(tmp_path_factory.mktemp("tiny-luar"), TINY_WORDS)
    return get_encoder(f"luar:{folder}", device="cpu", batch_size=2)


def _luar_reference(encoder, episode: list[str]) -> np.ndarray:
    """The tiny LUAR's math in numpy from its weights: masked token mean per text,
    softmax attention over the episode's texts, linear layer."""
    weights = {k: _np(v) for k, v in encoder.model.state_dict().items()}
    pooled = []
    for text in episode:
        ids = encoder.tokenizer(text, truncation=True, max_length=512)["input_ids"]
        x = weights["embed.weight"][ids] + weights["position.weight"][: len(ids)]
        h = np.tanh(x @ weights["mix.weight"].T + weights["mix.bias"])
        pooled.append(h.mean(axis=0))
    pooled = np.stack(pooled)
    scores = pooled @ weights["score.weight"][0] + weights["score.bias"][0]
    attention = np.exp(scores - scores.max())
    attention /= attention.sum()
    return (attention[:, None] * pooled).sum(0) @ weights["out.weight"].T + weights["out.bias"]


@needs_torch
def test_luar_episode_input_matches_numpy(luar):
    episodes = [TEXTS[:3], TEXTS[1:4], [TEXTS[0]], TEXTS[:2], [TEXTS[3], TEXTS[0], TEXTS[2]]]
    vectors = embed_episodes(luar, episodes)
    assert vectors.shape == (5, 8) and vectors.dtype == np.float32
    for row, episode in enumerate(episodes):
        np.testing.assert_allclose(vectors[row], _luar_reference(luar, episode), atol=1e-5)
    # the episode is read by the model, not averaged: differs from the mean of its texts
    singles = luar.encode(TEXTS[:3])
    assert not np.allclose(vectors[0], singles.mean(axis=0), atol=1e-3)
    # a text alone is an episode of one; deterministic
    np.testing.assert_allclose(singles[0], vectors[2], atol=1e-6)
    np.testing.assert_array_equal(embed_episodes(luar, episodes), vectors)
    assert luar.encode([]).shape == (0, 8)
    with pytest.raises(StylebenchError, match="at least one text"):
        luar.encode_episodes([[]])


@needs_torch
def test_luar_identity_truncation_and_padding(luar, tmp_path):
    identity = luar.identity()
    assert identity["kind"] == "luar" and identity["trust_remote_code"] is True
    assert identity["truncation"] == 512 and identity["padding"] == "max_length"
    assert luar.max_tokens is None  # no chunk-and-pool: the authors truncate at 512
    assert type(get_encoder(f"luar:{identity['path']}", chunk=True)).__name__ == "LUAREncoder"
    longest = get_encoder(f"luar:{identity['path']}", device="cpu", padding="longest")
    assert longest.identity() != identity
    np.testing.assert_allclose(longest.encode(TEXTS), luar.encode(TEXTS), atol=1e-5)
    with pytest.raises(StylebenchError, match="padding"):
        get_encoder(f"luar:{identity['path']}", padding="left")
    with pytest.raises(StylebenchError, match="huggingface-cli download nobody-here/") as info:
        get_encoder("luar:nobody-here/LUAR-none")
    assert "\n" not in str(info.value)


# -- LISA --------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=[False, True], ids=["matrix", "vector"])
def lisa(request, tmp_path_factory):
    if not HAS_TORCH:
        pytest.skip("needs torch + transformers")
    root = tmp_path_factory.mktemp("tiny-lisa")
    model, tokenizer = write_tiny_lisa(
        root / "model", root / "tokenizer", TINY_WORDS, vector_embedder=request.param
    )
    return get_encoder(f"lisa:{model}", device="cpu", tokenizer=tokenizer, batch_size=3)


@needs_torch
def test_lisa_bos_head_clamp_and_embedder_match_numpy(lisa):
    import torch

    vectors = lisa.encode(TEXTS)
    width = 12 if lisa.embedder.ndim == 2 else 768
    assert vectors.shape == (4, width) and vectors.dtype == np.float32
    head_w, head_b = _np(lisa.head.weight), _np(lisa.head.bias)
    embedder = _np(lisa.embedder)
    for row, text in enumerate(TEXTS):
        ids = [32100, *lisa.tokenizer(text)["input_ids"]]  # BOS first, no padding
        with torch.inference_mode():
            hidden = lisa.encoder(input_ids=torch.tensor([ids])).last_hidden_state[0, 0]
        scores = np.clip(head_w @ _np(hidden) + head_b, 0.0, 1.0)
        expected = scores @ embedder if embedder.ndim == 2 else scores * embedder
        np.testing.assert_allclose(vectors[row], expected, atol=1e-5)
    scores = lisa.scores(TEXTS)
    assert scores.shape == (4, 768) and scores.min() >= 0.0 and scores.max() <= 1.0
    assert (scores == 1.0).sum() > 0 and (scores == 0.0).sum() > 0  # the clamp acts
    np.testing.assert_array_equal(lisa.encode(TEXTS), vectors)
    assert lisa.max_tokens == 512 and lisa.num_special_tokens == 1  # the BOS we add
    identity = lisa.identity()
    assert identity["kind"] == "lisa" and identity["bos_token_id"] == 32100
    assert identity["max_tokens"] == 512 and identity["fingerprint"]


@needs_torch
def test_lisa_truncates_to_512_with_bos_and_chunks_longer_texts(lisa):
    import torch

    long_text = " ".join([*TINY_WORDS[:40], "."]) + " " + " ".join(["the cat sat ."] * 200)
    ids = lisa.tokenizer(long_text)["input_ids"]
    assert len(ids) > 512
    # unchunked: BOS + the first 511 tokens, 512 in all (the authors' truncation)
    with torch.inference_mode():
        hidden = lisa.encoder(input_ids=torch.tensor([[32100, *ids[:511]]])).last_hidden_state
        expected = lisa.head(hidden[:, 0]).clamp(0.0, 1.0)
    np.testing.assert_allclose(lisa.scores([long_text])[0], _np(expected[0]), atol=1e-5)
    wrapped = get_encoder(
        f"lisa:{lisa.identity()['path']}", chunk=True, device="cpu",
        tokenizer=lisa.tokenizer_resolved.load_target,
    )  # fmt: skip
    assert type(wrapped).__name__ == "ChunkAndPool" and wrapped.budget == 511
    chunks = wrapped.chunk_texts([long_text])[0]
    assert len(chunks) > 1 and max(lisa.count_tokens(chunks)) <= 511
    np.testing.assert_allclose(
        wrapped.encode([long_text])[0], lisa.encode(chunks).mean(axis=0), atol=1e-5
    )


@needs_torch
def test_lisa_bad_folders_are_one_line_errors(tmp_path):
    with pytest.raises(StylebenchError, match="not a LISA folder"):
        get_encoder(f"lisa:{tmp_path}")
    root = tmp_path / "x"
    model, tokenizer = write_tiny_lisa(root / "m", root / "t", TINY_WORDS)
    with pytest.raises(StylebenchError, match="huggingface-cli download t5-base") as info:
        get_encoder(f"lisa:{model}")  # the default tokenizer is not in this machine's cache
    assert "\n" not in str(info.value)
    import torch

    torch.save({"state_dict": {"other": torch.zeros(2)}}, root / "m" / "linear_embedder.ckpt")
    with pytest.raises(StylebenchError, match="neither 'embedder'"):
        get_encoder(f"lisa:{model}", tokenizer=tokenizer)


# -- Neurobiber --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def neurobiber(tmp_path_factory):
    if not HAS_TORCH:
        pytest.skip("needs torch + transformers")
    folder = write_tiny_neurobiber(tmp_path_factory.mktemp("tiny-neurobiber"), TINY_WORDS)
    return get_encoder(f"neurobiber:{folder}", device="cpu", chunk_words=4, max_length=6)


@needs_torch
def test_neurobiber_max_over_word_chunks_of_sigmoids(neurobiber):
    import torch

    texts = [*TEXTS, "", "   "]
    vectors = neurobiber.encode(texts)
    assert vectors.shape == (6, 6) and vectors.dtype == np.float32
    for row, text in enumerate(texts):
        words = text.split()
        chunks = [" ".join(words[i : i + 4]) for i in range(0, len(words), 4)]
        if not chunks:
            np.testing.assert_array_equal(vectors[row], 0.0)  # empty text: zeros
            continue
        probabilities = []
        for chunk in chunks:  # each chunk alone, truncated at 6 tokens
            encoded = neurobiber.tokenizer(
                chunk, truncation=True, max_length=6, return_tensors="pt"
            )
            with torch.inference_mode():
                logits = _np(neurobiber.model(**encoded).logits[0])
            probabilities.append(1.0 / (1.0 + np.exp(-logits)))
        np.testing.assert_allclose(vectors[row], np.max(probabilities, axis=0), atol=1e-5)
    # an episode is its texts joined by one space
    np.testing.assert_allclose(
        embed_episodes(neurobiber, [TEXTS[:2]])[0],
        neurobiber.encode([TEXTS[0] + " " + TEXTS[1]])[0],
        atol=1e-6,
    )
    np.testing.assert_array_equal(neurobiber.encode(texts), vectors)
    identity = neurobiber.identity()
    assert identity["kind"] == "neurobiber" and identity["chunk_words"] == 4
    assert identity["truncation"] == 6 and identity["autocast"] is False
    assert neurobiber.max_tokens is None  # chunks by words itself


@needs_torch
def test_neurobiber_defaults_are_the_authors(tmp_path):
    folder = write_tiny_neurobiber(tmp_path / "nb", TINY_WORDS)
    encoder = get_encoder(f"neurobiber:{folder}", device="cpu")
    assert (encoder.chunk_words, encoder.max_length) == (512, 512)
    with pytest.raises(StylebenchError, match="huggingface-cli download Blablablab/neurobiber"):
        get_encoder("neurobiber")  # not in this machine's Hugging Face cache


# -- random floor and episode pooling ---------------------------------------------------


def test_random_episodes_one_vector_each_and_singletons_equal_texts():
    encoder = get_encoder("random")
    assert encoder.dim == 384  # STEB's RandomModel.embedding_dim
    episodes = [["a", "b"], ["a"], ["b", "a"], ["a", "b"]]
    vectors = embed_episodes(encoder, episodes)
    assert vectors.shape == (4, 384) and vectors.dtype == np.float32
    np.testing.assert_array_equal(vectors[1], encoder.encode(["a"])[0])
    np.testing.assert_array_equal(vectors[0], vectors[3])
    assert not np.allclose(vectors[0], vectors[2])  # order is part of the episode
    # one standard-normal draw per episode (not a mean of draws, whose variance is 1/2)
    many = embed_episodes(encoder, [[str(i), str(i + 1)] for i in range(400)])
    assert abs(many.std() - 1.0) < 0.02 and abs(many.mean()) < 0.02


def test_default_episode_pooling_is_the_mean_of_text_vectors():
    from evaluators.encoders.base import mean_of_texts

    encoder = get_encoder("function-words")
    texts = ["The cat and the dog.", "Of all the things, this one.", "And yet it moves."]
    episodes = [texts, texts[:1], texts[1:]]
    vectors = mean_of_texts(encoder, episodes)  # the default for a neural encoder
    singles = encoder.encode(texts).astype(np.float64)
    for row, episode in enumerate(episodes):
        expected = singles[[texts.index(t) for t in episode]].mean(axis=0)
        np.testing.assert_allclose(vectors[row], expected, atol=1e-6)
    with pytest.raises(ValueError, match="at least one text"):
        mean_of_texts(encoder, [[]])
    # function words (as the authors' count-based models) count the joined texts instead
    joined = embed_episodes(encoder, episodes)
    np.testing.assert_array_equal(joined, encoder.encode([" ".join(e) for e in episodes]))
    assert not np.allclose(joined[0], vectors[0], atol=1e-3)


@pytest.mark.slow
def test_episode_rule_survives_several_devices():
    """With --devices, an episode-reading encoder still reads episodes (in its workers)."""
    single = get_encoder("random")
    episodes = [["a", "b"], ["c"], ["d", "e", "f"]]
    with get_encoder("random", devices=["cpu", "cpu"]) as multi:
        assert multi.episode_pooling == "model"
        np.testing.assert_array_equal(
            embed_episodes(multi, episodes), embed_episodes(single, episodes)
        )
        np.testing.assert_array_equal(multi.encode(["a", "c"]), single.encode(["a", "c"]))
