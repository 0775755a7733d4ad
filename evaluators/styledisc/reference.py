"""The paper's reference results (Jangra et al.), as data.

Provenance: ``../shared/papers/style_personalized_generation_evaluation.txt`` (plain-text
extraction of the paper), Table 1 (benchmark statistics), Table 2 (accuracy of every
metric per setting) and Table 3 (best ensemble per family and strategy). Values are
copied as printed; "Mean" is the paper's mean over the three settings.
"""

from __future__ import annotations

SOURCE = "Jangra et al., Evaluating Style-Personalized Text Generation (papers/ text)"

# Table 1: domain -> (#authors, {setting: (words of T_ref, T+, T-)}) as printed. In DD/AA
# T_ref is the author's bag (<= 500 tokens) and T+/T- are target texts (200-700 tokens).
TABLE1: dict[str, tuple[int, dict[str, tuple[int, int, int]]]] = {
    "amazon_food": (
        100,
        {"DD": (157, 267, 388), "AA": (161, 267, 263), "LLM": (267, 272, 300)},
    ),
    "arxiv": (100, {"DD": (144, 224, 447), "AA": (144, 224, 229), "LLM": (224, 406, 505)}),
    "blogs": (95, {"DD": (173, 329, 373), "AA": (164, 329, 349), "LLM": (329, 369, 396)}),
    "enron": (100, {"DD": (123, 328, 520), "AA": (119, 328, 334), "LLM": (328, 193, 219)}),
    "lyrics": (95, {"DD": (210, 278, 495), "AA": (211, 278, 288), "LLM": (278, 308, 315)}),
    "reddit": (56, {"DD": (87, 38, 410), "AA": (93, 38, 38), "LLM": (38, 222, 261)}),
    "reuters": (49, {"DD": (363, 506, 461), "AA": (366, 506, 507), "LLM": (506, 416, 456)}),
    "short_stories": (
        41,
        {"DD": (903, 1289, 267), "AA": (911, 1289, 1364), "LLM": (1289, 543, 515)},
    ),
}

# Table 2: metric -> (DD, AA, LLM, Mean)
TABLE2: dict[str, tuple[float, float, float, float]] = {
    "Random 100": (0.502, 0.498, 0.498, 0.499),
    "BLEU": (0.869, 0.700, 0.631, 0.733),
    "ROUGE1": (0.858, 0.695, 0.613, 0.722),
    "ROUGE2": (0.803, 0.643, 0.634, 0.693),
    "ROUGEL": (0.854, 0.673, 0.631, 0.719),
    "METEOR": (0.783, 0.654, 0.547, 0.661),
    "Wegmann": (0.910, 0.670, 0.558, 0.713),
    "StyleDistance": (0.926, 0.665, 0.575, 0.722),
    "Ministral-3B": (0.285, 0.272, 0.417, 0.324),
    "Llama-3.1-8B": (0.157, 0.263, 0.418, 0.279),
    "Mistral-24B": (0.478, 0.453, 0.470, 0.467),
    "Qwen3-32B": (0.689, 0.608, 0.525, 0.607),
    "DeepSeek-V3": (0.693, 0.679, 0.601, 0.658),
    "o4-mini": (0.917, 0.750, 0.597, 0.755),
    "gpt-4.1": (0.961, 0.807, 0.678, 0.815),
}

# Table 3: (strategy, family) -> (composition, (DD, AA, LLM, Mean))
TABLE3: dict[tuple[str, str], tuple[tuple[str, ...], tuple[float, float, float, float]]] = {
    ("MV", "ngram"): (("BLEU", "ROUGE2", "ROUGEL"), (0.866, 0.704, 0.654, 0.742)),
    ("PWV", "ngram"): (("BLEU", "ROUGE1", "ROUGE2", "ROUGEL"), (0.862, 0.714, 0.654, 0.743)),
    ("MV", "not_llm"): (
        ("BLEU", "ROUGE2", "ROUGEL", "Wegmann", "StyleDistance"),
        (0.914, 0.725, 0.682, 0.774),
    ),
    ("PWV", "not_llm"): (
        ("BLEU", "ROUGE2", "Wegmann", "StyleDistance"),
        (0.948, 0.722, 0.670, 0.780),
    ),
    ("MV", "llm"): (("Qwen3-32B", "o4-mini", "gpt-4.1"), (0.937, 0.781, 0.640, 0.786)),
    ("PWV", "llm"): (
        ("Qwen3-32B", "DeepSeek-V3", "o4-mini", "gpt-4.1"),
        (0.945, 0.772, 0.662, 0.793),
    ),
    ("MV", "os"): (
        ("BLEU", "ROUGEL", "Wegmann", "StyleDistance", "DeepSeek-V3"),
        (0.925, 0.750, 0.684, 0.786),
    ),
    ("PWV", "os"): (
        ("BLEU", "ROUGEL", "Wegmann", "StyleDistance", "Qwen3-32B", "DeepSeek-V3"),
        (0.937, 0.750, 0.682, 0.790),
    ),
    ("MV", "all"): (
        ("BLEU", "ROUGEL", "Wegmann", "StyleDistance", "gpt-4.1"),
        (0.962, 0.786, 0.697, 0.815),
    ),
    ("PWV", "all"): (("BLEU", "ROUGE1", "StyleDistance", "gpt-4.1"), (0.967, 0.802, 0.693, 0.821)),
}


def reference_row(metric: str) -> tuple[float, float, float, float] | None:
    """Table 2 values for a metric name as used here (case-insensitive), if the paper
    has that metric."""
    lookup = {k.lower(): v for k, v in TABLE2.items()}
    key = {"random": "random 100"}.get(metric.lower(), metric.lower())
    return lookup.get(key)
