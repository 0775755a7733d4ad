"""Task evaluators against independent computations (scikit-learn, brute force)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import linear_sum_assignment
from sklearn.metrics import roc_auc_score, v_measure_score

from dataset_scripts.core.probing_columns import make_probing_columns, quantile_bins
from evaluators.metric_math.kmeans import minibatch_kmeans_171
from evaluators.tasks import get_evaluator
from evaluators.tasks.order_alignment import alignment_costs

from .helpers import lookup, random_lookup, table


def _labelled(n_per_class: int = 20, n_classes: int = 4, seed: int = 0):
    rng = np.random.default_rng(seed)
    rows, vectors = [], {}
    centres = rng.normal(scale=3.0, size=(n_classes, 6))
    for c in range(n_classes):
        for i in range(n_per_class):
            text = f"class {c} text {i}"
            rows.append({"id": text, "text": text, "label": f"c{c}"})
            vectors[text] = centres[c] + rng.normal(size=6)
    return table("labelled_texts", rows), lookup(vectors)


def test_clustering_matches_sklearn_and_is_reproducible() -> None:
    data, embed = _labelled()
    evaluator = get_evaluator("clustering", seed=42)
    first = evaluator.evaluate(data, embed)
    second = get_evaluator("clustering", seed=42).evaluate(data, embed)
    assert first.metrics == second.metrics
    vectors = embed([row["text"] for row in data.rows])
    expected = minibatch_kmeans_171(vectors, 4).labels  # scikit-learn 1.7.1's (STEB's)
    gold = [row["label"] for row in data.rows]
    assert first.main_score == pytest.approx(v_measure_score(gold, expected), abs=1e-12)
    assert first.main_score > 0.8  # well separated clusters


def test_all_to_all_auc_equals_straightforward_sklearn_path() -> None:
    data, embed = _labelled(n_per_class=15, seed=3)
    result = get_evaluator("all_to_all_pairs").evaluate(data, embed)
    vectors = embed([row["text"] for row in data.rows]).astype(np.float64)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    similarity = unit @ unit.T
    labels = np.array([row["label"] for row in data.rows])
    i, j = np.triu_indices(len(labels), k=1)
    assert result.metrics["auc"] == pytest.approx(
        roc_auc_score(labels[i] == labels[j], similarity[i, j]), abs=1e-6
    )
    assert result.counts["n_pairs"] == len(i)
    assert 0 <= result.metrics["eer"] <= 0.5


def test_predefined_pairs_auc() -> None:
    rng = np.random.default_rng(1)
    rows, vectors = [], {}
    for k in range(30):
        a, b = f"a{k}", f"b{k}"
        base = rng.normal(size=5)
        same = k % 2
        vectors[a] = base
        vectors[b] = base + rng.normal(scale=0.3 if same else 3.0, size=5)
        rows.append({"id": str(k), "text1": a, "text2": b, "label": same})
    result = get_evaluator("predefined_pairs").evaluate(table("text_pairs", rows), lookup(vectors))
    cos = [
        np.dot(vectors[r["text1"]], vectors[r["text2"]])
        / np.linalg.norm(vectors[r["text1"]])
        / np.linalg.norm(vectors[r["text2"]])
        for r in rows
    ]
    assert result.main_score == pytest.approx(
        roc_auc_score([r["label"] for r in rows], cos), abs=1e-6
    )


def _brute_force_accuracy(cost: np.ndarray, expected: np.ndarray) -> float:
    """Optimal injection of rows into columns by enumeration (no ties in these tests)."""
    rows, cols = cost.shape
    best = min(
        itertools.permutations(range(cols), rows),
        key=lambda p: cost[np.arange(rows), list(p)].sum(),
    )
    return float(np.mean(np.array(best) == expected))


@pytest.mark.parametrize("positions", [2, 3, 4])
def test_order_alignment_equals_brute_force(positions: int) -> None:
    np.random.default_rng(positions)
    rows = []
    for group in ("g1", "g2"):
        for k in range(6):
            rows.append(
                {
                    "id": f"{group}-{k}",
                    "group": group,
                    "texts": [f"{group} {k} pos {p}" for p in range(positions)],
                    "styles": [f"s{p}" for p in range(positions)],
                }
            )
    data = table("style_sequences", rows)
    # positive coordinates keep every cosine > 0, so no cost is clipped and no tie occurs
    raw = random_lookup([t for r in rows for t in r["texts"]], dim=5, seed=positions)
    embed = lookup({t: np.abs(raw([t])[0]) + 0.05 for t in raw.index})
    result = get_evaluator("order_alignment").evaluate(data, embed)
    plain, distract = [], []
    for group in ("g1", "g2"):
        seqs = [
            np.asarray(embed(r["texts"]), dtype=np.float64) for r in rows if r["group"] == group
        ]
        seqs = [s / np.linalg.norm(s, axis=1, keepdims=True) for s in seqs]
        for i, j in itertools.combinations(range(len(seqs)), 2):
            ref, tgt = seqs[i], seqs[j]
            cost = lambda a, b: 1 - np.maximum(a @ b.T, 0)  # noqa: E731
            plain.append(_brute_force_accuracy(cost(ref, tgt), np.arange(positions)))
            last_c = np.vstack([tgt[:-1], ref[-1:]])
            distract.append(_brute_force_accuracy(cost(ref[:-1], last_c), np.arange(positions - 1)))
            first_c = np.vstack([ref[:1], tgt[1:]])
            distract.append(_brute_force_accuracy(cost(ref[1:], first_c), np.arange(1, positions)))
    assert result.metrics["accuracy"] == pytest.approx(np.mean(plain), abs=1e-9)
    assert result.metrics["distractor_accuracy"] == pytest.approx(np.mean(distract), abs=1e-9)
    assert result.counts["n_pairs"] == 2 * 15


def test_order_alignment_hungarian_matches_scipy_on_costs() -> None:
    rng = np.random.default_rng(7)
    seqs = rng.normal(size=(5, 4, 6))
    costs, _expected = alignment_costs(seqs)["plain"]
    for cost in costs:
        r, c = linear_sum_assignment(cost)
        assert (
            cost[r, c].sum()
            <= min(cost[np.arange(4), list(p)].sum() for p in itertools.permutations(range(4)))
            + 1e-12
        )


def test_stel_or_content_semantics() -> None:
    """P=2 by hand: a style-only encoder is right in both variants; a content-only
    encoder is right without distractor but fooled by it."""
    rows = [
        {"id": "a", "group": "g", "texts": ["A+", "A-"], "styles": ["+", "-"]},
        {"id": "b", "group": "g", "texts": ["B+", "B-"], "styles": ["+", "-"]},
    ]
    data = table("style_sequences", rows)
    style_only = lookup({"A+": [1, 0.1], "A-": [0.1, 1], "B+": [1, 0.12], "B-": [0.12, 1]})
    res = get_evaluator("order_alignment").evaluate(data, style_only)
    assert res.metrics["accuracy"] == 1.0 and res.metrics["distractor_accuracy"] == 1.0
    # content dominates, style is a small signal: aligns B+ with A+, but prefers A's own text
    content = lookup({"A+": [1, 0, 0.2], "A-": [1, 0, -0.2], "B+": [0, 1, 0.2], "B-": [0, 1, -0.2]})
    res = get_evaluator("order_alignment").evaluate(data, content)
    assert res.metrics["accuracy"] == 1.0
    assert res.metrics["distractor_accuracy"] == 0.0


def test_order_alignment_constant_encoder_scores_chance() -> None:
    rows = [
        {"id": str(k), "group": "g", "texts": [f"{k}+", f"{k}-"], "styles": ["+", "-"]}
        for k in range(4)
    ]
    constant = lookup({t: [1.0, 1.0] for r in rows for t in r["texts"]})
    res = get_evaluator("order_alignment").evaluate(table("style_sequences", rows), constant)
    # steb protocol: the solver's identity choice among tied optima (as STEB's code)
    assert res.metrics["accuracy"] == pytest.approx(1.0)
    assert res.metrics["accuracy_tie_aware"] == pytest.approx(0.5)
    assert res.metrics["tied_share"] == 1.0
    strict = get_evaluator("order_alignment", protocol="steb-strict")
    assert strict.evaluate(table("style_sequences", rows), constant).metrics["accuracy"] == 0.5


def test_retrieval_by_hand() -> None:
    rows = [
        {"id": "qa", "author": "a", "role": "query", "texts": ["qa1", "qa2"]},
        {"id": "qb", "author": "b", "role": "query", "texts": ["qb1"]},
        {"id": "ta", "author": "a", "role": "target", "texts": ["ta1"]},
        {"id": "tb", "author": "b", "role": "target", "texts": ["tb1"]},
        {"id": "tc", "author": "c", "role": "target", "texts": ["tc1"]},
    ]
    vectors = {
        "qa1": [1, 0, 0],
        "qa2": [1, 0.2, 0],
        "qb1": [1, 0, 0.1],  # qb looks like a and c
        "ta1": [1, 0.1, 0],
        "tb1": [0, 0, 1],
        "tc1": [1, 0, 0.05],
    }
    res = get_evaluator("retrieval").evaluate(table("retrieval", rows), lookup(vectors))
    # tc's author has no query: dropped (STEB's target filter). query a: ta ranks 1.
    # query b: ta (0.99), tb (0.0995) -> rank 2
    assert res.metrics["mrr"] == pytest.approx((1 + 1 / 2) / 2)
    assert res.metrics["recall@1"] == pytest.approx(0.5)
    assert res.counts["n_queries"] == 2
    assert res.counts["n_targets_without_query"] == 1


def test_quantile_bins_match_pandas_qcut() -> None:
    rng = np.random.default_rng(0)
    for values in (
        rng.normal(size=500),
        rng.integers(0, 4, size=500).astype(float),
        rng.exponential(size=200),
    ):
        expected = pd.qcut(values, q=5, labels=False, duplicates="drop")
        np.testing.assert_array_equal(quantile_bins(values), expected)


def test_probing_balanced_splits_and_probe() -> None:
    rng = np.random.default_rng(0)
    n = 600
    vectors = rng.normal(size=(n, 8))
    signal = vectors[:, 0] * 3 + rng.normal(scale=0.1, size=n)  # linearly decodable
    noise = rng.normal(size=n)  # unrelated to the vectors
    rows = [{"id": str(i), "text": f"t{i}"} for i in range(n)]
    for name, values in (("signal", signal), ("noise", noise)):
        labels, splits = make_probing_columns(values, seed=42)
        kept = [label for label in labels if label is not None]
        assert len(set(np.bincount(kept))) == 1  # balanced bins
        for row, label, split in zip(rows, labels, splits, strict=True):
            row[f"label_{name}"], row[f"split_{name}"] = label, split
    embed = lookup({f"t{i}": vectors[i] for i in range(n)})
    # steb-strict: scikit-learn's logistic regression at its optimum
    res = get_evaluator("probing", protocol="steb-strict").evaluate(table("probing", rows), embed)
    assert res.details["probe"]["name"].startswith("scikit-learn")
    assert res.metrics["accuracy_signal"] > 0.6
    assert res.metrics["accuracy_noise"] < 0.4  # chance is 0.2
    assert res.metrics["accuracy"] == pytest.approx(
        (res.metrics["accuracy_signal"] + res.metrics["accuracy_noise"]) / 2
    )
    # steb: the authors' torch probe; one 480-text batch per epoch, so early stopping
    # (6 epochs without a better validation score) leaves it barely trained on this set
    steb = get_evaluator("probing").evaluate(table("probing", rows), embed)
    assert steb.details["probe"]["name"].startswith("torch")
    assert all(6 <= e <= 200 for e in steb.details["probe"]["epochs"].values())
    assert steb.metrics["accuracy_signal"] > steb.metrics["accuracy_noise"]
    again = get_evaluator("probing").evaluate(table("probing", rows), embed)
    assert again.metrics == steb.metrics  # seeded, deterministic
    strict = get_evaluator("probing", protocol="steb-strict")
    assert strict.evaluate(table("probing", rows), embed).metrics == res.metrics
