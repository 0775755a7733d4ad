"""Null comparisons on real corpora: two encoders with no true difference.

Shared by the calibration benchmark (``tests/benchmarks/bench_compare_calibration.py``)
and its fast subset in the suite (``tests/compare/test_calibration_real.py``).

A *null pair* is one base encoder's vectors of a real dataset's texts plus two
independent Gaussian perturbations of equal size (``level`` times each dimension's
standard deviation over the texts, one fresh draw per text and model). The noise is
drawn per text, so over the population of texts the two encoders score the same in
expectation: every difference is sampling noise (of the texts, of the dependence between
units that share them, of k-means' seed) that an honest test must absorb. Both encoders
are scored by the task evaluators themselves (the per-unit data they record), then
compared by :func:`evaluators.compare.units.paired_test` exactly as ``stylebench
compare`` does from stored records.

Base encoders: ``function-words`` (the STEB function-word frequencies) and ``char-tfidf``
(character 2-4-gram TF-IDF reduced to 64 dimensions by a truncated SVD fitted on the
dataset's own texts): cheap, non-neural, different geometry. The *weaker* encoder of the
power runs is ``function-words`` restricted to a random tenth of its 458 dimensions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from evaluators.compare.units import Units, paired_test, units_of

PAN15 = "pan15_authorship_verification_english_test"
PAN18 = "pan18_cross_domain_authorship_attribution"
# task type -> [(dataset hub id, raw folder under the corpora)]
DATASETS: dict[str, list[tuple[str, str]]] = {
    "order_alignment": [
        ("steb/STEL_feature", "STEL"),
        ("steb/STEL_register", "STEL"),
    ],
    "predefined_pairs": [
        ("steb/pan15_authorship_verification_english_test", PAN15),
        ("steb/pan23_style_change_hard", "pan23_multi_author_analysis"),
    ],
    "clustering": [
        ("steb/sms_spam", "sms_spam_collection"),
        ("steb/bible_versions", "BibleVersions"),
    ],
    "all_to_all_pairs": [
        ("steb/sms_spam", "sms_spam_collection"),
        ("steb/bible_versions", "BibleVersions"),
    ],
    "retrieval": [
        ("steb/pan18_cross_domain_authorship_attribution_english", PAN18),
    ],
}
LEVELS = (0.25, 0.5, 1.0)  # noise sd / each dimension's sd
BASES = ("function-words", "char-tfidf")


@cache
def table(corpora: Path, hub_id: str, raw: str) -> Any:
    """The test split of a real dataset, built in memory by its registry builder."""
    from dataset_scripts.registry import get_dataset
    from evaluators.data import Table

    configs, _ = get_dataset(hub_id).builder(Path(corpora) / raw)
    (config, splits), *_ = configs.items()
    return Table(hub_id, hub_id.split("/")[-1], config, "test", splits["test"], "null-pairs")


def texts_of(tab: Any) -> list[str]:
    out: list[str] = []
    for row in tab.rows:
        for key in ("text", "text1", "text2"):
            if key in row:
                out.append(row[key])
        out.extend(row.get("texts", []))
    return list(dict.fromkeys(out))


@cache
def base_vectors(corpora: Path, hub_id: str, raw: str, base: str) -> tuple[list[str], np.ndarray]:
    """The unique texts of a dataset and one base encoder's float64 vectors of them."""
    texts = texts_of(table(corpora, hub_id, raw))
    if base == "function-words":
        from evaluators.encoders import get_encoder

        vectors = np.asarray(get_encoder("function-words").encode(texts), dtype=np.float64)
    elif base == "char-tfidf":
        from sklearn.decomposition import TruncatedSVD
        from sklearn.feature_extraction.text import TfidfVectorizer

        sparse = TfidfVectorizer(
            analyzer="char_wb", ngram_range=(2, 4), max_features=5000, sublinear_tf=True
        ).fit_transform(texts)
        vectors = TruncatedSVD(64, random_state=0).fit_transform(sparse)
    else:
        raise ValueError(f"unknown base encoder {base!r}")
    return texts, vectors


def task_evaluator(task: str) -> Any:
    from evaluators.tasks.clustering import ClusteringEvaluator
    from evaluators.tasks.order_alignment import OrderAlignmentEvaluator
    from evaluators.tasks.pairs import AllToAllPairsEvaluator, PredefinedPairsEvaluator
    from evaluators.tasks.retrieval import RetrievalEvaluator

    return {
        "order_alignment": OrderAlignmentEvaluator,
        "predefined_pairs": PredefinedPairsEvaluator,
        "clustering": ClusteringEvaluator,
        "all_to_all_pairs": AllToAllPairsEvaluator,
        "retrieval": RetrievalEvaluator,
    }[task]()


def score(task: str, tab: Any, texts: list[str], vectors: np.ndarray, name: str) -> Units:
    """Run the task evaluator on ``vectors`` and wrap its output as a stored record's
    units (the same per-unit data a `stylebench run` record keeps)."""
    from evaluators.tasks.base import EmbeddingLookup
    from tests.compare.helpers import record

    evaluator = task_evaluator(task)
    lookup = EmbeddingLookup(texts, vectors.astype(np.float32))
    metrics, _counts, details = evaluator.compute(tab, lookup)
    main = evaluator.main_score_name
    rec = record(
        name,
        tab.name,
        task,
        metrics[main],
        details["items"],
        ci95=details.get("ci95"),
        metrics=metrics,
    )
    return units_of(rec, f"<{name}>")


def perturbed(vectors: np.ndarray, level: float, rng: np.random.Generator) -> np.ndarray:
    scale = vectors.std(axis=0)
    scale = np.where(scale > 0, scale, 1e-12)
    return vectors + level * scale[None, :] * rng.standard_normal(vectors.shape)


@dataclass
class Outcome:
    task: str
    dataset: str
    base: str
    level: float
    difference: float
    se: float
    p_value: float
    p_independent: float  # the same difference tested as if the stored units were independent
    ci: tuple[float, float]
    decidable: bool = True


def independent_p(a: Units, b: Units, test: dict[str, Any], n_boot: int, seed: int) -> float:
    """The p-value the pre-#41 method gave: stored units (pairs, queries) independent,
    clustering on the seed-42 assignments alone."""
    from evaluators.compare.units import _independent_variance
    from evaluators.metric_math.paired import wald

    if a.kind in ("mean", "auc"):
        df = a.n - 1 if a.kind == "mean" else None
        return wald(test["difference"], _independent_variance(a, b) ** 0.5, df=df)["p_value"]
    if a.kind == "assignment":
        from evaluators.metric_math.resampling import multinomial_counts
        from evaluators.tasks.clustering import weighted_v_measures

        rng = np.random.default_rng(seed)
        w = multinomial_counts(a.n, n_boot, rng)
        labels = a.arrays["labels"]
        d = weighted_v_measures(a.arrays["clusters"], labels, w) - weighted_v_measures(
            b.arrays["clusters"], labels, w
        )
        point = float(a.record.main_score - b.record.main_score)
        return wald(point, float(np.std(d, ddof=1)))["p_value"]
    return test["p_value"]


def compare_pair(
    task: str,
    tab: Any,
    texts: list[str],
    va: np.ndarray,
    vb: np.ndarray,
    n_boot: int,
    seed: int,
    meta: dict[str, Any],
) -> Outcome:
    a = score(task, tab, texts, va, "A")
    b = score(task, tab, texts, vb, "B")
    test = paired_test(a, b, n_boot=n_boot, seed=seed)
    return Outcome(
        task,
        tab.name,
        meta["base"],
        meta["level"],
        test["difference"],
        test["se"],
        test["p_value"],
        independent_p(a, b, test, n_boot, seed),
        (float(test["ci"][0]), float(test["ci"][1])),
        bool(test.get("decidable", True)),
    )


def null_comparisons(
    corpora: Path,
    task: str,
    hub_id: str,
    raw: str,
    count: int,
    seed: int,
    n_boot: int = 1000,
    progress: Callable[[int], None] | None = None,
) -> list[Outcome]:
    """``count`` independent null comparisons on one dataset: comparison ``c`` uses base
    ``BASES[c % 2]`` at noise level ``LEVELS[(c // 2) % 3]`` and two fresh perturbations
    (seeded by ``(seed, c)``)."""
    tab = table(corpora, hub_id, raw)
    out = []
    for c in range(count):
        base = BASES[c % len(BASES)]
        level = LEVELS[(c // len(BASES)) % len(LEVELS)]
        texts, vectors = base_vectors(corpora, hub_id, raw, base)
        rng = np.random.default_rng([seed, c])
        va, vb = perturbed(vectors, level, rng), perturbed(vectors, level, rng)
        meta = {"base": base, "level": level}
        out.append(compare_pair(task, tab, texts, va, vb, n_boot, seed + c, meta))
        if progress is not None:
            progress(c)
    return out


def power_comparisons(
    corpora: Path, task: str, hub_id: str, raw: str, count: int, seed: int, n_boot: int = 1000
) -> list[Outcome]:
    """``function-words`` against itself restricted to a random tenth of its dimensions
    (a different tenth per comparison): a real difference."""
    tab = table(corpora, hub_id, raw)
    texts, vectors = base_vectors(corpora, hub_id, raw, "function-words")
    out = []
    for c in range(count):
        rng = np.random.default_rng([seed, 10_000 + c])
        keep = rng.choice(vectors.shape[1], vectors.shape[1] // 10, replace=False)
        weak = np.zeros_like(vectors)
        weak[:, keep] = vectors[:, keep]
        meta = {"base": "function-words vs a tenth", "level": 0.0}
        out.append(compare_pair(task, tab, texts, vectors, weak, n_boot, seed + c, meta))
    return out


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Exact binomial interval of a proportion ``k / n``."""
    from scipy.stats import beta

    tail = (1.0 - level) / 2.0
    low = 0.0 if k == 0 else float(beta.ppf(tail, k, n - k + 1))
    high = 1.0 if k == n else float(beta.ppf(1.0 - tail, k + 1, n - k))
    return low, high
