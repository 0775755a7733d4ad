"""Benchmark: chunk-and-pool on texts that fit in one chunk must cost <= 1.10x plain encode.

Run ``python tests/benchmarks/bench_chunking.py`` (not collected by pytest). Uses the
offline all-MiniLM-L6-v2 package on CPU; times plain ``encode`` and
``ChunkAndPool(encoder).encode`` on the same texts (all shorter than the model's
limit), best of 3 each (interleaved), prints both and the ratio, and exits with
status 1 when the ratio is above the limit (2 when the model is not installed).
"""

from __future__ import annotations

import os
import random
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

LIMIT = 1.10
N_TEXTS = 384
REPEATS = 3

WORDS = (
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
    "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
    "an", "they", "you", "were", "her", "she", "there", "been", "one", "all", "we", "their",
    "has", "would", "when", "if", "so", "no", "what", "up", "out", "more", "can", "who",
    "said", "about", "them", "some", "could", "into", "time", "only", "style", "writing",
    "author", "text", "sentence", "model", "embedding", "corpus", "benchmark", "evaluation",
)  # fmt: skip


def make_texts(n: int, seed: int = 0) -> list[str]:
    """Texts of 2-8 sentences of 5-20 words: all well under 256 tokens."""
    rng = random.Random(seed)
    texts = []
    for _ in range(n):
        sentences = []
        for _ in range(rng.randint(2, 8)):
            words = [rng.choice(WORDS) for _ in range(rng.randint(5, 20))]
            sentences.append(" ".join(words).capitalize() + rng.choice([".", "!", "?"]))
        texts.append(" ".join(sentences))
    return texts


def main() -> int:
    try:
        from evaluators.encoders import ChunkAndPool, get_encoder

        encoder = get_encoder("minilm", device="cpu", batch_size=32)
    except Exception as error:  # the model extra or the offline package is missing
        print(f"cannot run the benchmark: {error}")
        return 2
    chunked = ChunkAndPool(encoder)
    texts = make_texts(N_TEXTS)
    counts = encoder.count_tokens(texts)
    assert max(counts) <= chunked.budget, "benchmark texts must fit in one chunk"
    encoder.encode(texts[:64])  # warm-up
    plain_times, chunk_times = [], []
    for _ in range(REPEATS):
        start = time.perf_counter()
        plain = encoder.encode(texts)
        plain_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        pooled = chunked.encode(texts)
        chunk_times.append(time.perf_counter() - start)
    if not (plain == pooled).all():
        print("FAIL: chunk-and-pool changed vectors of texts that fit in one chunk")
        return 1
    best_plain, best_chunk = min(plain_times), min(chunk_times)
    ratio = best_chunk / best_plain
    print(
        f"texts: {len(texts)}, tokens/text: max {max(counts)}, mean {sum(counts) / len(counts):.0f}"
    )
    print(f"plain encode:          {best_plain:.3f} s (best of {REPEATS})")
    print(f"chunk-and-pool encode: {best_chunk:.3f} s (best of {REPEATS})")
    print(f"ratio: {ratio:.3f} (limit {LIMIT:.2f})")
    if ratio > LIMIT:
        print("FAIL: chunk-and-pool overhead above the limit")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
