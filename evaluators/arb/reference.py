"""The paper's Tables 7-10 as data (ARB, Perrone 2026), printed beside a user's numbers.

Provenance: transcribed from the plain-text extraction
``../shared/papers/arb_authorship_rewriting_benchmark.txt`` (Sec. 6.1-6.6: Table 7 lines
"Detector Comparison TPR@1%FPR AUROC", Table 8 "Regime deltas relative to Free-LLM", Table 9
"Paired operational gap", Table 10 "Textual change induced by the two rewriting paths").
Values are macro averages over the 12 dataset x generator blocks with block-bootstrap
95% CIs (5,000 resamples, seed 42). Each value is ``(estimate, ci_low, ci_high)``.
"""

from __future__ import annotations

Value = tuple[float, float, float]

SOURCE = "ARB (Perrone 2026), Tables 7-10; ../shared/papers/arb_authorship_rewriting_benchmark.txt"
DETECTORS: tuple[str, ...] = (
    "BERT-Defense",
    "RoBERTa-Defense",
    "FastDetectGPT",
    "Binoculars-falcon-7b",
    "RADAR",
)

# Table 7: detector -> comparison -> (TPR@1%FPR, AUROC)
TABLE7: dict[str, dict[str, tuple[Value, Value]]] = {
    "BERT-Defense": {
        "Free-LLM": ((0.001, 0.000, 0.003), (0.210, 0.203, 0.217)),
        "H2L": ((0.012, 0.008, 0.015), (0.453, 0.444, 0.463)),
        "LLM2L": ((0.002, 0.001, 0.004), (0.233, 0.226, 0.240)),
    },
    "RoBERTa-Defense": {
        "Free-LLM": ((0.019, 0.011, 0.030), (0.569, 0.560, 0.578)),
        "H2L": ((0.025, 0.016, 0.038), (0.586, 0.577, 0.595)),
        "LLM2L": ((0.016, 0.009, 0.025), (0.538, 0.528, 0.547)),
    },
    "FastDetectGPT": {
        "Free-LLM": ((0.912, 0.892, 0.929), (0.990, 0.989, 0.992)),
        "H2L": ((0.308, 0.264, 0.347), (0.874, 0.868, 0.879)),
        "LLM2L": ((0.783, 0.754, 0.808), (0.971, 0.968, 0.973)),
    },
    "Binoculars-falcon-7b": {
        "Free-LLM": ((0.935, 0.924, 0.942), (0.983, 0.980, 0.985)),
        "H2L": ((0.151, 0.135, 0.166), (0.666, 0.658, 0.674)),
        "LLM2L": ((0.830, 0.816, 0.842), (0.952, 0.948, 0.955)),
    },
    "RADAR": {
        "Free-LLM": ((0.668, 0.636, 0.694), (0.913, 0.909, 0.918)),
        "H2L": ((0.122, 0.101, 0.141), (0.596, 0.588, 0.604)),
        "LLM2L": ((0.646, 0.617, 0.670), (0.903, 0.899, 0.908)),
    },
}

# Table 8: detector -> (dTPR H2L, dAUROC H2L, dTPR LLM2L, dAUROC LLM2L)
TABLE8: dict[str, tuple[Value, Value, Value, Value]] = {
    "BERT-Defense": (
        (0.010, 0.007, 0.014),
        (0.243, 0.235, 0.251),
        (0.001, -0.001, 0.002),
        (0.023, 0.020, 0.025),
    ),
    "RoBERTa-Defense": (
        (0.006, -0.002, 0.014),
        (0.017, 0.008, 0.025),
        (-0.003, -0.008, 0.001),
        (-0.032, -0.036, -0.027),
    ),
    "FastDetectGPT": (
        (-0.605, -0.645, -0.569),
        (-0.117, -0.122, -0.111),
        (-0.130, -0.146, -0.115),
        (-0.020, -0.021, -0.018),
    ),
    "Binoculars-falcon-7b": (
        (-0.784, -0.802, -0.767),
        (-0.316, -0.325, -0.308),
        (-0.104, -0.114, -0.096),
        (-0.031, -0.034, -0.028),
    ),
    "RADAR": (
        (-0.546, -0.575, -0.514),
        (-0.318, -0.326, -0.310),
        (-0.023, -0.030, -0.015),
        (-0.010, -0.012, -0.008),
    ),
}

# Table 9: detector -> (TPR gap, AUROC gap), LLM2L minus H2L
TABLE9: dict[str, tuple[Value, Value]] = {
    "BERT-Defense": ((-0.010, -0.013, -0.007), (-0.220, -0.228, -0.213)),
    "RoBERTa-Defense": ((-0.009, -0.017, -0.002), (-0.048, -0.057, -0.040)),
    "FastDetectGPT": ((0.475, 0.444, 0.511), (0.097, 0.092, 0.102)),
    "Binoculars-falcon-7b": ((0.680, 0.661, 0.698), (0.285, 0.277, 0.294)),
    "RADAR": ((0.524, 0.493, 0.551), (0.308, 0.300, 0.315)),
}

# Table 10: aspect -> (Human->H2L, Free-LLM->LLM2L, interpretation)
TABLE10: dict[str, tuple[Value, Value, str]] = {
    "word_ratio": ((0.798, 0.746, 0.845), (0.887, 0.857, 0.916), "More compression in H2L"),
    "token_ned": ((0.602, 0.575, 0.628), (0.348, 0.301, 0.395), "Greater surface change in H2L"),
    "jaccard": ((0.463, 0.436, 0.489), (0.587, 0.534, 0.648), "Less vocabulary overlap in H2L"),
    "semantic_similarity": (
        (0.886, 0.866, 0.904),
        (0.949, 0.939, 0.958),
        "LLM2L is more conservative",
    ),
}
