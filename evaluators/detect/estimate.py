"""How long a detector run will take, estimated from the texts before it starts.

Rates were measured on this project's 2-core CPU machine (other jobs running), float32,
batch 8, texts truncated at 512 tokens: one SmolLM2-135M forward pass costs about 0.6 s per
100 words of text (24 DetectRL texts of 170 words took 23 s), and loading the GGUF model
about 20 s. Every zero-shot detector on one model shares that pass. The TF-IDF baseline
trains and scores thousands of texts per second. An HF classifier of BERT size is taken
as the same per-word rate as the causal LM (a conservative guess, not a measurement).
"""

from __future__ import annotations

from collections.abc import Sequence

from evaluators.arb.detectors import ZERO_SHOT

LM_SECONDS_PER_100_WORDS = 0.6
LM_LOAD_SECONDS = 20.0
LM_MAX_WORDS = 400  # 512 tokens: longer texts are truncated
TFIDF_SECONDS_PER_TEXT = 0.002


def estimate_seconds(detectors: Sequence[str], texts: Sequence[str]) -> float:
    """Estimated wall time to score ``texts`` with ``detectors`` (zero-shot detectors on
    one model counted once)."""
    words = sum(min(len(t.split()), LM_MAX_WORDS) for t in texts)
    lm_pass = LM_LOAD_SECONDS + LM_SECONDS_PER_100_WORDS * words / 100
    total = 0.0
    if any(d in ZERO_SHOT for d in detectors):
        total += lm_pass
    for d in detectors:
        if d == "tfidf":
            total += TFIDF_SECONDS_PER_TEXT * len(texts)
        elif d.startswith("hf:"):
            total += lm_pass
    return total


def max_texts_within(detectors: Sequence[str], texts: Sequence[str], seconds: float) -> int:
    """The largest prefix of ``texts`` (in the given order) estimated to fit ``seconds``."""
    lo, hi = 0, len(texts)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if estimate_seconds(detectors, texts[:mid]) <= seconds:
            lo = mid
        else:
            hi = mid - 1
    return lo
