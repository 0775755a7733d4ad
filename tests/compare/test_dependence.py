"""The variance of each task's comparison over its independent units (issue 41),
cross-checked against independent implementations: brute-force double sums, brute-force
bootstraps over the same units (sequences, texts, authors), finite differences; and the
refusals (records without the unit arrays, a stored score its items do not re-derive)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_scripts.core.errors import DataError
from evaluators.compare.units import ScoreMismatchError, paired_test, units_of
from evaluators.metric_math import roc_auc
from evaluators.metric_math.paired import (
    cluster_covariance,
    dyadic_covariance,
    node_jackknife_aucs,
    node_jackknife_means,
)
from evaluators.records.items import make_items
from evaluators.records.record import load_record
from tests.compare import helpers as h

# ------------------------------------------------------------------ the formulas


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 7).flatmap(
        lambda g: st.lists(
            st.tuples(st.integers(0, g - 1), st.integers(0, g - 1), st.floats(-3, 3)),
            min_size=1,
            max_size=25,
        )
    )
)
def test_dyadic_covariance_is_the_double_sum_over_units_sharing_a_node(units) -> None:
    a = np.array([u[0] for u in units])
    b = np.array([u[1] for u in units])
    c = np.array([u[2] for u in units])
    c2 = np.cos(np.arange(c.size)) * c  # a second row for the cross term
    if np.unique(np.r_[a, b]).size < 2:
        with pytest.raises(ValueError):
            dyadic_covariance(c, a, b)
        return
    cov, g = dyadic_covariance(np.stack([c, c2]), a, b)
    brute = np.zeros((2, 2))
    for p, q in itertools.product(range(c.size), repeat=2):
        if {a[p], b[p]} & {a[q], b[q]}:
            brute += np.outer([c[p], c2[p]], [c[q], c2[q]])
    assert g == np.unique(np.r_[a, b]).size
    np.testing.assert_allclose(cov, brute * g / (g - 1), rtol=1e-9, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.floats(-3, 3)), min_size=2, max_size=30))
def test_cluster_covariance_is_the_sum_of_squared_cluster_sums(units) -> None:
    groups = np.array([u[0] for u in units])
    c = np.array([u[1] for u in units])
    g = np.unique(groups).size
    if g < 2:
        with pytest.raises(ValueError):
            cluster_covariance(c, groups)
        return
    brute = sum(c[groups == k].sum() ** 2 for k in np.unique(groups)) * g / (g - 1)
    assert cluster_covariance(c, groups)[0, 0] == pytest.approx(brute, rel=1e-9, abs=1e-12)


N_REPLICATIONS = 300


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100_000), st.integers(4, 12), st.integers(6, 40))
def test_node_jackknife_is_the_score_without_the_node(seed: int, g: int, n: int) -> None:
    """Each delete-one-node value equals the AUROC (scikit-learn's rule, ties 1/2) and the
    mean recomputed on the pairs that touch neither side of the node (self-pairs and
    repeated pairs included)."""
    rng = np.random.default_rng(seed)
    first, second = rng.integers(0, g, n), rng.integers(0, g, n)
    labels = rng.integers(0, 2, n)
    scores = rng.integers(0, 4, (2, n)).astype(float)  # many ties
    nodes = np.unique(np.r_[first, second])
    keeps = [(first != t) & (second != t) for t in nodes]
    if any(np.unique(labels[k]).size < 2 for k in keeps):
        return  # a deletion leaves one class (or no pair) only: the AUROC is undefined
    jk = node_jackknife_aucs(scores, labels, first, second)
    means, ids = node_jackknife_means(scores, first, second)
    assert list(ids) == list(nodes)
    for i, keep in enumerate(keeps):
        for k in range(2):
            assert jk[k, i] == pytest.approx(roc_auc(scores[k, keep], labels[keep]), abs=1e-12)
            assert means[k, i] == pytest.approx(scores[k, keep].mean(), abs=1e-12)


def test_dyadic_jackknife_on_independent_pairs_is_the_independent_variance() -> None:
    """Every node in one pair only (no dependence): the node jackknife less the edge
    jackknife is the independent-pairs variance, times N / (N - 1) for a mean, and
    DeLong's for an AUROC within 2 %: the pair-level variance is counted once, not twice
    (the plain node jackknife gave twice it, rejecting 0.2 % of true nulls at 5 %)."""
    from evaluators.metric_math.paired import (
        delong_covariance,
        dyadic_jackknife_covariance,
        edge_codes,
        edge_jackknife_means,
    )

    rng = np.random.default_rng(5)
    n = 300
    first, second = 2 * np.arange(n), 2 * np.arange(n) + 1
    values = rng.normal(size=(2, n)) + rng.normal(size=n)
    edge, loop = edge_codes(first, second)
    assert edge.max() + 1 == n and not loop.any()
    by_node, _ = node_jackknife_means(values, first, second)
    cov = dyadic_jackknife_covariance(by_node, edge_jackknife_means(values, edge), loop)
    np.testing.assert_allclose(cov, np.cov(values) / (n - 1), rtol=1e-9)
    labels = rng.integers(0, 2, n)
    scores = values + labels
    by_node = node_jackknife_aucs(scores, labels, first, second)
    by_edge = node_jackknife_aucs(scores, labels, edge, edge)
    cov = dyadic_jackknife_covariance(by_node, by_edge, loop)
    _, delong = delong_covariance(scores, labels)
    np.testing.assert_allclose(cov, delong, rtol=0.02)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 100_000), st.integers(40, 120))
def test_dyadic_jackknife_is_the_dyadic_double_sum_to_first_order(seed: int, g: int) -> None:
    """Random designs with repeated pairs and self-pairs, node and pair effects: the
    delete-one-node less delete-one-edge jackknife covariance of means over pairs is
    the dyadic-robust double sum (units sharing a node, each unit once; Aronow et al.
    2015) times the jackknife's small-sample factor, about ``(N / (N - n_g))^2 (G - 1)
    / G`` (each node in about 2N/G pairs): never below it, at most 7/G above; the plain
    node jackknife lies further above, by the pair-level term it counts twice."""
    from evaluators.metric_math.paired import (
        dyadic_jackknife_covariance,
        edge_codes,
        edge_jackknife_means,
        jackknife_covariance,
    )

    rng = np.random.default_rng(seed)
    n = 20 * g
    first, second = rng.integers(0, g, n), rng.integers(0, g, n)
    second[: n // 10] = first[: n // 10]  # self-pairs
    second[n // 10 : n // 5] = second[n // 5 : 3 * n // 10]  # repeated pairs
    first[n // 10 : n // 5] = first[n // 5 : 3 * n // 10]
    node = rng.normal(size=(2, g))
    values = node[:, first] + node[:, second] + rng.normal(scale=6.0, size=(2, n))
    edge, loop = edge_codes(first, second)
    by_node, _ = node_jackknife_means(values, first, second)
    cov = dyadic_jackknife_covariance(by_node, edge_jackknife_means(values, edge), loop)
    terms = (values - values.mean(axis=1, keepdims=True)) / n
    dyadic, nodes = dyadic_covariance(terms, first, second)
    dyadic *= (nodes - 1) / nodes  # the double sum itself, without its G / (G - 1)
    var = lambda c: c[0, 0] + c[1, 1] - 2 * c[0, 1]  # noqa: E731
    for ratio in (var(cov) / var(dyadic), cov[0, 0] / dyadic[0, 0]):
        assert 1.0 <= ratio <= 1.0 + 7.0 / g  # 300 designs: 1 + 3.4/G to 1 + 5.5/G
    # the plain node jackknife counts the pair-level term twice (300 designs: >= 1 + 11/G)
    assert var(jackknife_covariance(by_node)) > (1.0 + 9.0 / g) * var(dyadic)


def _monte_carlo(draw, replications: int = N_REPLICATIONS) -> tuple[float, float, float, float]:
    """The sampling distribution by brute force: the whole data-generating process drawn
    afresh ``replications`` times (new sequences or texts, new per-unit noise, the same
    design of which units share which). Returns the true SD of the difference, the root
    mean of the reported variances, the rejection rate at 5 % (no true difference), and
    the root mean variances of the method that treats the stored units as independent
    and of the dyadic-robust estimator (Aronow et al. 2015), an independent cross-check
    of the jackknife."""
    diffs, variances, rejected, naive, dyadic = [], [], 0, [], []
    for r in range(replications):
        test, naive_var, dyadic_var = draw(np.random.default_rng([11, r]))
        diffs.append(test["difference"])
        variances.append(test["se"] ** 2)
        rejected += test["p_value"] < 0.05
        naive.append(naive_var)
        dyadic.append(dyadic_var)
    return (
        float(np.std(diffs, ddof=1)),
        float(np.sqrt(np.mean(variances))),
        rejected / replications,
        float(np.sqrt(np.mean(naive))),
        float(np.sqrt(np.mean(dyadic))),
    )


def _dyadic_var(terms: np.ndarray, first: np.ndarray, second: np.ndarray) -> float:
    """The dyadic-robust variance of the difference of two sums of per-pair terms."""
    cov, _ = dyadic_covariance(terms - terms.mean(axis=1, keepdims=True), first, second)
    return float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])


def test_order_alignment_se_matches_the_true_sampling_sd() -> None:
    """Pairs i < j of 60 sequences: each sequence's difficulty (shared by both models)
    and its own per-model effect make every pair through it dependent. Over 300 fresh
    draws of the sequences, the jackknife SE (and the dyadic one) match the true SD of
    the difference within 10 % and reject the true null at most 7 % of the time, where
    the pair-level t-test's SE is less than half the truth."""
    n = 60
    first, second = np.triu_indices(n, k=1)

    def draw(rng: np.random.Generator):
        ease = rng.normal(size=n)
        out = []
        for _ in ("A", "B"):
            effect = rng.normal(scale=0.5, size=n)
            z = ease[first] + ease[second] + effect[first] + effect[second]
            out.append((rng.random(first.size) < 1 / (1 + np.exp(-z))).astype(float))
        a = h.units(h.mean_units("A", "d", "order_alignment", out[0], nodes=(first, second)))
        b = h.units(h.mean_units("B", "d", "order_alignment", out[1], nodes=(first, second)))
        naive = np.var(out[0] - out[1], ddof=1) / first.size
        return paired_test(a, b), naive, _dyadic_var(np.stack(out) / first.size, first, second)

    true_sd, se, rate, naive, dyadic = _monte_carlo(draw)
    assert se == pytest.approx(true_sd, rel=0.10)
    assert dyadic == pytest.approx(true_sd, rel=0.10)
    assert rate <= 0.07
    assert naive < 0.5 * true_sd


def test_predefined_pairs_se_matches_the_true_sampling_sd() -> None:
    """400 pairs over 60 texts (each text in about 13 pairs, as PAN15 English test's 500
    over 82), text effects per model, much pair-level noise: over 300 fresh draws of the
    texts the dyadic-robust SE of the DeLong terms and the reported SE (delete-one-text
    less delete-one-pair jackknife) both match the true SD of the AUROC difference within
    10 %; plain DeLong (pairs independent) lies below it."""
    from evaluators.metric_math.paired import paired_delong

    design = np.random.default_rng(3)
    n_texts, n_pairs = 60, 400
    first = design.integers(0, n_texts, n_pairs)
    second = (first + design.integers(1, n_texts, n_pairs)) % n_texts
    labels = (design.random(n_pairs) < 0.5).astype(int)

    def draw(rng: np.random.Generator):
        scores = []
        for _ in ("A", "B"):
            text = rng.normal(size=n_texts)
            noise = rng.normal(scale=0.5, size=n_pairs)
            scores.append(labels * 1.0 + text[first] + text[second] + noise)
        a = h.units(h.predefined("A", "d", scores[0], labels, texts=(first, second)))
        b = h.units(h.predefined("B", "d", scores[1], labels, texts=(first, second)))
        naive = paired_delong(scores[0], scores[1], labels)["se"] ** 2
        from evaluators.compare.units import _linear_terms

        terms = np.stack([_linear_terms(a), _linear_terms(b)])
        return paired_test(a, b), naive, _dyadic_var(terms, first, second)

    true_sd, se, rate, naive, dyadic = _monte_carlo(draw)
    assert dyadic == pytest.approx(true_sd, rel=0.10)
    # measured: se / true sd 1.04, 3.7 % rejected (the plain delete-one-text jackknife,
    # the pair-level term counted twice, gave up to 1.4 and rejected far below 5 %)
    assert se == pytest.approx(true_sd, rel=0.10)
    assert rate <= 0.07
    assert naive < 0.9 * true_sd


def _retrieval_case(seed: int, g: int, per_author: int, ties: str):
    """Distances (with ties) of queries and targets of g authors, ``per_author``
    targets each, one or two queries each; relevance = same author."""
    rng = np.random.default_rng(seed)
    q_author = np.repeat(np.arange(g), rng.integers(1, 3, g))
    t_author = np.repeat(np.arange(g), per_author)
    d = rng.integers(0, 6, (q_author.size, t_author.size)).astype(float) / 6
    rel = q_author[:, None] == t_author[None, :]
    return d, rel, q_author, t_author


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 100_000),
    st.integers(3, 7),
    st.integers(1, 3),
    st.sampled_from(["sort", "pessimistic"]),
)
def test_delete_one_author_mrr_is_the_mrr_recomputed_without_the_author(
    seed: int, g: int, per_author: int, ties: str
) -> None:
    """The stored per-row ranks give each query's reciprocal rank as
    ``all_match_scores`` does, and the leave-one-author-out MRRs equal ``all_match_scores``
    run again on the queries and targets of the other authors."""
    from evaluators.metric_math.retrieval import all_match_scores
    from evaluators.metric_math.retrieval_jackknife import (
        author_rank_table,
        delete_one_author_mrr,
    )

    d, rel, q_author, t_author = _retrieval_case(seed, g, per_author, ties)
    mq, rank, ahead = author_rank_table(d, rel, t_author, g, ties)
    full = all_match_scores(d, rel, ks=(1,), ties=ties)["mrr"]
    per_query = np.bincount(mq, 1 / rank) / np.bincount(mq)
    np.testing.assert_allclose(per_query, full, atol=1e-12)
    left_out = delete_one_author_mrr(mq, rank, ahead, q_author)
    for a in range(g):
        keep_q, keep_t = q_author != a, t_author != a
        sub = all_match_scores(d[keep_q][:, keep_t], rel[keep_q][:, keep_t], ks=(1,), ties=ties)
        assert left_out[a] == pytest.approx(sub["mrr"].mean(), abs=1e-12)


def test_retrieval_variance_is_the_delete_one_author_jackknife() -> None:
    """The paired test of two retrieval results: se^2 is (G-1)/G sum_a (d_(a) - mean)^2
    over the leave-one-author-out MRR differences (floored at the independent-queries
    variance), with G - 1 degrees of freedom."""
    from evaluators.metric_math.retrieval import all_match_scores
    from evaluators.metric_math.retrieval_jackknife import (
        author_rank_table,
        delete_one_author_mrr,
    )

    g = 40
    out = []
    for seed in (1, 2):
        d, rel, q_author, t_author = _retrieval_case(1, g, 1, "sort")  # one design
        d = d + np.random.default_rng(seed).random(d.shape)  # each model's distances
        table = author_rank_table(d, rel, t_author, g)
        mrr = all_match_scores(d, rel, ks=(1,))["mrr"]
        rec = h.mean_units(
            "AB"[seed - 1], "d", "retrieval", mrr, nodes=(q_author, t_author), rank_table=table
        )
        out.append((h.units(rec), delete_one_author_mrr(*table, q_author), mrr))
    (a, jk_a, ra), (b, jk_b, rb) = out
    test = paired_test(a, b)
    diff = jk_a - jk_b
    jack = (g - 1) / g * np.sum((diff - diff.mean()) ** 2)
    floor = np.var(ra - rb, ddof=1) / ra.size
    assert test["se"] ** 2 == pytest.approx(max(jack, floor), rel=1e-9)
    assert test["df"] == g - 1 and "authors" in test["independent_units"]


def test_authors_sharing_a_text_are_one_group() -> None:
    from evaluators.metric_math.retrieval_jackknife import author_groups

    groups = author_groups(
        ["a", "b", "c", "d", "a", "e"],
        [["x"], ["y", "z"], ["z"], ["w"], ["v"], ["x", "w"]],
    )
    # a-e share x, e-d share w, b-c share z: {a, d, e}, {b, c}
    assert groups["a"] == groups["d"] == groups["e"] != groups["b"] == groups["c"]
    assert sorted(set(groups.values())) == [0, 1]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 100_000), st.integers(4, 8))
def test_retrieval_jackknife_leaves_a_whole_author_group_out(seed: int, g: int) -> None:
    """Authors grouped (one person under several labels): the paired test's variance is
    the jackknife over the groups, each value the MRR recomputed by all_match_scores
    without every query and target of the group; df = groups - 1."""
    from evaluators.metric_math.retrieval import all_match_scores
    from evaluators.metric_math.retrieval_jackknife import author_rank_table

    rng = np.random.default_rng(seed)
    q_author = np.repeat(np.arange(g), rng.integers(1, 3, g))
    t_author = np.arange(g)
    group = rng.integers(0, max(3, g // 2), g)
    group = np.unique(group, return_inverse=True)[1]  # codes 0..G-1
    n_groups = int(group.max()) + 1
    if n_groups < 3:
        return
    rel = q_author[:, None] == t_author[None, :]
    out = []
    for name in ("A", "B"):
        d = rng.random((q_author.size, g))
        table = author_rank_table(d, rel, t_author, g)
        mrr = all_match_scores(d, rel, ks=(1,))["mrr"]
        rec = h.mean_units(
            name, "d", "retrieval", mrr, nodes=(q_author, t_author), rank_table=table
        )
        rec.items["arrays"]["author_group"] = make_items(
            "mean", "queries", {"author_group": (group, "i4")}
        )["arrays"]["author_group"]
        leave = []
        for k in range(n_groups):
            keep_q, keep_t = group[q_author] != k, group[t_author] != k
            sub = all_match_scores(d[keep_q][:, keep_t], rel[keep_q][:, keep_t], ks=(1,))
            leave.append(sub["mrr"].mean())
        out.append((h.units(rec), np.array(leave), mrr))
    (a, jk_a, ra), (b, jk_b, rb) = out
    test = paired_test(a, b)
    diff = jk_a - jk_b
    jack = (n_groups - 1) / n_groups * np.sum((diff - diff.mean()) ** 2)
    floor = np.var(ra - rb, ddof=1) / ra.size
    assert test["se"] ** 2 == pytest.approx(max(jack, floor), rel=1e-9)
    assert test["df"] == n_groups - 1 and test["n_independent"] == n_groups
    assert ("sharing a text" in test["independent_units"]) == (n_groups < g)


# ------------------------------------------------------------------ clustering seeds


def test_clustering_counts_the_kmeans_seed() -> None:
    """Two models whose seed-42 assignments are equal but whose other seeds land in
    different optima: the test compares the seed means and its SE includes the seed
    spread; a model against itself is p = 1; a difference smaller than one seed's
    spread is flagged not decidable."""
    rng = np.random.default_rng(4)
    labels = np.repeat([0, 1], 100)
    good = labels.copy()
    bad = rng.integers(0, 2, labels.size)
    flip = np.where(rng.random(labels.size) < 0.1, 1 - labels, labels)
    a = h.units(h.clustering("A", "d", good, labels, extra=[good, bad, flip, good]))
    b = h.units(h.clustering("B", "d", good, labels, extra=[bad, good, good, flip]))
    test = paired_test(a, b, n_boot=300)
    no_seeds = paired_test(
        h.units(h.clustering("A", "d", good, labels)),
        h.units(h.clustering("B", "d", flip, labels)),
        n_boot=300,
    )
    assert test["difference"] == pytest.approx(a.point - b.point)
    assert test["seed_sd"] > 0.3 and not test["decidable"]
    assert test["p_value"] > 0.2
    assert no_seeds["seed_sd"] == 0.0 and no_seeds["decidable"]
    same = paired_test(a, a, n_boot=100)
    assert same["difference"] == 0.0 and same["p_value"] == 1.0


# ------------------------------------------------------------------ refusals


def _strip(path: Path, names: tuple[str, ...]) -> None:
    payload = json.loads(path.read_text())
    for name in names:
        payload["items"]["arrays"].pop(name)
    path.write_text(json.dumps(payload))


@pytest.mark.parametrize(
    ("make", "names"),
    [
        (
            lambda: h.mean_units("A", "d", "order_alignment", np.r_[0.0, 1.0, 0.5]),
            ("sequence_i", "sequence_j"),
        ),
        (
            lambda: h.predefined("A", "d", np.r_[0.1, 0.9, 0.4], np.r_[0, 1, 1]),
            ("text_1", "text_2"),
        ),
        (
            lambda: h.clustering("A", "d", np.r_[0, 0, 1, 1], np.r_[0, 1, 0, 1]),
            ("seeds", "clusters_seeds"),
        ),
        (
            lambda: h.mean_units("A", "d", "retrieval", np.r_[1.0, 0.5, 0.25]),
            ("match_rank", "ahead_by_author"),
        ),
    ],
)
def test_records_without_the_unit_arrays_are_refused(tmp_path: Path, make, names) -> None:
    path = h.write(tmp_path, make())
    _strip(path, names)
    with pytest.raises(DataError) as error:
        units_of(load_record(path), path)
    message = str(error.value)
    assert str(path) in message and all(n in message for n in names)
    assert "re-run" in message


def test_a_retrieval_record_over_the_size_budget_says_why_it_cannot_be_compared(
    tmp_path: Path,
) -> None:
    """A record written by this version whose per-author ranks were left out for size
    names that reason (not "written before"), so re-running would not help."""
    path = h.write(tmp_path, h.mean_units("A", "d", "retrieval", np.r_[1.0, 0.5, 0.25]))
    _strip(path, ("match_query", "match_rank", "ahead_by_author"))
    payload = json.loads(path.read_text())
    reason = "4000 relevant (query, target) rows x 300 authors exceed the budget of 1000000"
    payload["details"]["items_units_omitted"] = reason
    path.write_text(json.dumps(payload))
    with pytest.raises(DataError) as error:
        units_of(load_record(path), path)
    message = str(error.value)
    assert str(path) in message and reason in message and "re-run" not in message


def test_an_edited_main_score_is_refused_naming_both_values(tmp_path: Path) -> None:
    from evaluators.compare.api import compare_results

    rng = np.random.default_rng(0)
    labels = np.repeat([0, 1], 50)
    for model in ("A", "B"):
        h.write(tmp_path, h.predefined(model, "d", rng.normal(size=100) + labels, labels))
    path = tmp_path / "A" / "d" / "predefined_pairs.json"
    payload = json.loads(path.read_text())
    true = payload["main_score"]
    payload["main_score"] = payload["metrics"]["auc"] = 0.99
    path.write_text(json.dumps(payload))
    with pytest.raises(ScoreMismatchError) as error:
        compare_results(tmp_path, "A", "B", n_boot=50)
    message = str(error.value)
    assert str(path) in message and "0.99" in message and repr(true) in message
