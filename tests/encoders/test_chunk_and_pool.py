"""Chunk-and-pool (STEB Appendix G) and the regex sentence splitter."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders import ChunkAndPool, get_encoder, split_sentences

from .conftest import needs_minilm

# every sentence is exactly 7 WordPiece tokens for MiniLM (6 words + ".")
SEVEN_TOKEN_SENTENCES = [
    "The cat sat on the mat.",
    "A dog ran in the park.",
    "My aunt read a long book.",
    "Our team won the last game.",
    "Her son ate a red apple.",
    "His car is very old now.",
    "Tom likes green tea a lot.",
]


def test_split_sentences_boundaries_and_paragraphs():
    text = (
        'Dr. Smith arrived at 3 p.m. today. He said "Hi!" Then left... e.g. this stays.'
        "\n\nA paragraph without a full stop\nstill one sentence? Yes!"
    )
    sentences = [text[s:e] for s, e in split_sentences(text)]
    assert sentences == [
        "Dr. Smith arrived at 3 p.m. today.",
        'He said "Hi!"',
        "Then left...",
        "e.g. this stays.",
        "A paragraph without a full stop\nstill one sentence?",
        "Yes!",
    ]
    assert split_sentences("") == [] and split_sentences(" \n ") == []
    assert split_sentences("no end") == [(0, 6)]


class WordEncoder:
    """A transparent fake: tokens are whitespace words; vector = (#words, #chars)."""

    def __init__(self, max_tokens: int, special: int = 0) -> None:
        self.max_tokens = max_tokens
        self.num_special_tokens = special
        self.calls: list[list[str]] = []

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return [len(t.split()) for t in texts]

    def encode(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.array([[len(t.split()), len(t)] for t in texts], dtype=np.float32)


def test_chunking_with_a_fake_encoder_is_exact():
    inner = WordEncoder(max_tokens=7, special=1)  # budget 6 words
    wrapper = ChunkAndPool(inner, splitter="regex")  # the regex splitter's rules
    long = "One two three. Four five six. Seven eight nine ten eleven twelve thirteen fourteen."
    chunks = wrapper.chunk_texts([long])[0]
    # sentences of 3, 3 and 8 words: the first two pack together, the third is windowed
    assert chunks == [
        "One two three. Four five six.",
        "Seven eight nine ten eleven twelve",
        "thirteen fourteen.",
    ]
    vectors = wrapper.encode(["short text", long])
    assert len(inner.calls[-1]) == 4  # all chunks + the short text in ONE call
    expected = np.array([[len(c.split()), len(c)] for c in chunks], dtype=np.float32).mean(0)
    np.testing.assert_allclose(vectors[1], expected)
    np.testing.assert_allclose(vectors[0], [2, 10])


def test_chunk_and_pool_rejects_unlimited_encoders():
    with pytest.raises(StylebenchError):
        ChunkAndPool(get_encoder("function-words"))
    # the registry returns non-neural encoders unchanged with chunk=True
    assert not isinstance(get_encoder("random", chunk=True), ChunkAndPool)


@pytest.fixture(scope="module")
def small_minilm(minilm_dir):
    """MiniLM capped at 16 tokens (budget 14) so long texts are cheap to build."""
    return get_encoder(f"st:{minilm_dir}", device="cpu", max_length=16)


@needs_minilm
@pytest.mark.models
def test_three_times_max_tokens_is_the_mean_of_its_chunks(small_minilm):
    chunked = ChunkAndPool(small_minilm, splitter="regex")
    assert chunked.max_tokens == 16 and chunked.budget == 14
    assert small_minilm.count_tokens(SEVEN_TOKEN_SENTENCES) == [7] * 7
    text = " ".join(SEVEN_TOKEN_SENTENCES)  # 49 tokens, about 3x the 16-token limit
    expected_chunks = [
        " ".join(SEVEN_TOKEN_SENTENCES[0:2]),
        " ".join(SEVEN_TOKEN_SENTENCES[2:4]),
        " ".join(SEVEN_TOKEN_SENTENCES[4:6]),
        SEVEN_TOKEN_SENTENCES[6],
    ]
    assert chunked.chunk_texts([text]) == [expected_chunks]
    by_hand = small_minilm.encode(expected_chunks).mean(axis=0)
    pooled = chunked.encode([text])
    assert pooled.shape == (1, 384) and pooled.dtype == np.float32
    np.testing.assert_allclose(pooled[0], by_hand, atol=1e-5)
    # truncation would have given a different vector
    assert not np.allclose(small_minilm.encode([text])[0], pooled[0], atol=1e-3)


@needs_minilm
@pytest.mark.models
def test_overlong_sentence_is_split_within_the_limit(small_minilm):
    chunked = ChunkAndPool(small_minilm, splitter="regex")
    words = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu " * 4).split()
    sentence = " ".join(words)  # one sentence, no punctuation, ~48 words
    text = f"Short start. {sentence}. Short end."
    chunks = chunked.chunk_texts([text])[0]
    counts = small_minilm.count_tokens(chunks)
    assert max(counts) <= chunked.budget
    # nothing lost, nothing duplicated, order kept
    assert " ".join(chunks).split() == text.split()
    # chunks never straddle a sentence end: every chunk ending in "." is a whole sentence
    assert chunks[0] == "Short start." and chunks[-1].endswith("Short end.")


@needs_minilm
@pytest.mark.models
def test_short_texts_are_identical_to_plain_encode(small_minilm, minilm):
    texts = ["A short one.", "Another short text, still under the limit."]
    for encoder in (small_minilm, minilm):
        plain = encoder.encode(texts)
        np.testing.assert_array_equal(ChunkAndPool(encoder).encode(texts), plain)
    # in a mixed batch the short text keeps (up to float noise) its own vector
    mixed = ChunkAndPool(small_minilm).encode([texts[0], " ".join(SEVEN_TOKEN_SENTENCES)])
    np.testing.assert_allclose(mixed[0], small_minilm.encode(texts[:1])[0], atol=1e-5)


@needs_minilm
@pytest.mark.models
def test_chunked_identity_differs(minilm):
    from evaluators.encoders import identity_key

    wrapped = get_encoder("minilm", chunk=True)
    assert isinstance(wrapped, ChunkAndPool)
    assert wrapped.identity()["chunk"] is True and minilm.identity()["chunk"] is False
    assert identity_key(wrapped.identity()) != identity_key(minilm.identity())
