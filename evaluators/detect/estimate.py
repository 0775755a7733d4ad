"""How long a detector run will take, estimated from the texts before it starts.

Rates were measured on this project's 2-core CPU machine (other jobs running), float32,
batch 8, texts truncated at 512 tokens: one SmolLM2-135M forward pass costs about 0.6 s per
100 words of text (24 DetectRL texts of 170 words took 23 s), and loading the GGUF model
about 20 s. Every zero-shot detector on one model shares that pass. An HF classifier of
BERT size is taken as the same per-word rate as the causal LM (a conservative guess, not a
measurement).

The TF-IDF baseline's cost is linear in the characters it reads: it fits on the training
share and scores the held-out share, so every text of the set is read once. Measured on
the same machine (2 cores, other jobs running) on DetectRL's Task 1 texts, fit plus
scoring: 2,000 texts (2.5 M characters) 6.8 s, 8,000 texts (10.2 M characters) 20.9 s;
idle, 2,007 arXiv abstracts (2.2 M characters) 3.5 s. So about 2 s of set-up (the
function-word features, the vectorisers) and 1.8 s per million characters under load.
"""

from __future__ import annotations

from collections.abc import Sequence

from evaluators.arb.detectors import ZERO_SHOT

LM_SECONDS_PER_100_WORDS = 0.6
LM_LOAD_SECONDS = 20.0
LM_MAX_WORDS = 400  # 512 tokens: longer texts are truncated
TFIDF_SETUP_SECONDS = 2.0
TFIDF_SECONDS_PER_MILLION_CHARS = 1.8


def estimate_seconds(
    detectors: Sequence[str], texts: Sequence[str], fit_texts: Sequence[str] = ()
) -> float:
    """Estimated wall time to score ``texts`` with ``detectors`` (zero-shot detectors on
    one model counted once); ``fit_texts``: the training share a supervised detector
    (``tfidf``) reads before it scores."""
    words = sum(min(len(t.split()), LM_MAX_WORDS) for t in texts)
    lm_pass = LM_LOAD_SECONDS + LM_SECONDS_PER_100_WORDS * words / 100
    total = 0.0
    if any(d in ZERO_SHOT for d in detectors):
        total += lm_pass
    for d in detectors:
        if d == "tfidf":
            chars = sum(map(len, texts)) + sum(map(len, fit_texts))
            total += TFIDF_SETUP_SECONDS + TFIDF_SECONDS_PER_MILLION_CHARS * chars / 1e6
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


def describe_seconds(seconds: float) -> str:
    """``about 40 s`` under two minutes, ``about 3.5 min`` above (never ``0.0 min``).

    >>> describe_seconds(3.4), describe_seconds(95), describe_seconds(210)
    ('about 3 s', 'about 95 s', 'about 3.5 min')
    """
    if seconds < 120:
        return f"about {max(1, round(seconds))} s"
    return f"about {seconds / 60:.1f} min"
