"""The one view rule (evaluators.views): evaluate_spec against exact rational arithmetic and
against its matrix form (weights), the generic views against an independent pandas
computation and Benchmark.aggregate, and the STEB views' weights against evaluate_spec."""

from __future__ import annotations

import zlib
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.views import (
    OVERALL,
    ViewSpec,
    by_task_type,
    column_datasets,
    evaluate_spec,
    mean_of,
    normal_se,
    per_dataset,
    pruned,
    weights,
)

TASKS = ("clustering", "retrieval", "probing", "order_alignment")


def _unit(i: int, task: str = "t") -> tuple[str, str, str]:
    return (f"d{i}", task, "m")


@st.composite
def views(draw: st.DrawFn) -> ViewSpec:
    """A random view: 1-4 columns of 1-4 groups of 1-4 units (units may repeat across
    groups and columns), overall = the mean of the columns."""
    pool = [_unit(i) for i in range(draw(st.integers(1, 12)))]
    columns = {}
    for c in range(draw(st.integers(1, 4))):
        groups = {}
        for g in range(draw(st.integers(1, 4))):
            members = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4, unique=True))
            groups[f"g{g}"] = members
        columns[f"c{c}"] = groups
    return ViewSpec("random", columns, mean_of(list(columns), OVERALL))


def _exact_weights(spec: ViewSpec) -> dict[str, dict[tuple[str, str, str], Fraction]]:
    """Each column's weight per unit as exact fractions: 1 / (groups * units in the group)
    summed over the unit's groups; the overall the mean of the columns' weights."""
    out: dict[str, dict] = {}
    for column, groups in spec.columns.items():
        w: dict = {}
        for units in groups.values():
            for u in units:
                w[u] = w.get(u, Fraction(0)) + Fraction(1, len(groups) * len(units))
        out[column] = w
    overall: dict = {}
    for w in out.values():
        for u, x in w.items():
            overall[u] = overall.get(u, Fraction(0)) + x / len(out)
    out[OVERALL] = overall
    return out


@settings(max_examples=150, deadline=None)
@given(spec=views(), seed=st.integers(0, 2**32 - 1))
def test_a_view_is_the_weights_dot_product_of_its_units(spec: ViewSpec, seed: int) -> None:
    rng = np.random.default_rng(seed)
    units = spec.units
    floats = {u: float(rng.random()) for u in units}
    exact = {u: Fraction(x) for u, x in floats.items()}
    # the rule on exact rationals equals the exact weights' dot product, column by column
    got_exact = evaluate_spec(spec, exact)
    want = _exact_weights(spec)
    assert set(got_exact) == set(want)
    for name, w in want.items():
        assert got_exact[name] == sum(w[u] * exact[u] for u in w)
    # the float rule and its matrix form agree with the exact value up to rounding
    index = {u: i for i, u in enumerate(units)}
    names, matrix = weights(spec, index)
    assert names == [*spec.columns, OVERALL]
    x = np.array([floats[u] for u in units])
    got = evaluate_spec(spec, floats)
    for j, name in enumerate(names):
        exact_value = float(got_exact[name])
        assert got[name] == pytest.approx(exact_value, rel=1e-12, abs=1e-15)
        assert float(x @ matrix[:, j]) == pytest.approx(exact_value, rel=1e-12, abs=1e-15)
        for u, i in index.items():
            assert matrix[i, j] == pytest.approx(float(want[name].get(u, 0)), rel=1e-12)


def test_by_hand_and_missing_units_are_skipped() -> None:
    a, b, c, d = (_unit(i) for i in range(4))
    spec = ViewSpec(
        "v",
        {"x": {"g1": [a, b], "g2": [c]}, "y": {"g1": [d]}, "z": {"g1": [(*a[:2], "other")]}},
        mean_of(["x", "y", "z"], OVERALL),
    )
    values = {a: 0.2, b: 0.6, c: 1.0, d: 0.5}
    got = evaluate_spec(spec, values)
    # x = mean(mean(0.2, 0.6), 1.0) = 0.7; z has no unit with a value: no column, not averaged
    assert got == pytest.approx({"x": 0.7, "y": 0.5, OVERALL: 0.6})
    assert "z" not in got
    # a missing unit drops out of its group; a group left empty out of its column
    del values[c]
    assert evaluate_spec(spec, values)["x"] == pytest.approx(0.4)
    assert column_datasets(spec, values) == {"x": 2, "y": 1, "z": 0}
    # values may be arrays over models (compare scores K models at once)
    arrays = {u: np.array([v, 1 - v]) for u, v in {a: 0.2, b: 0.6, c: 1.0, d: 0.5}.items()}
    np.testing.assert_allclose(evaluate_spec(spec, arrays)[OVERALL], [0.6, 0.4])


def test_pruned_drops_empty_groups_and_columns() -> None:
    spec = ViewSpec("v", {"x": {"g": [_unit(0)], "e": []}, "y": {"e": []}}, mean_of(["x"], "s"))
    out = pruned(spec)
    assert out.columns == {"x": {"g": [_unit(0)]}} and spec.columns["y"] == {"e": []}
    assert out.combine is spec.combine and out.name == "v"


def _random_units(rng: np.random.Generator, n: int) -> list[tuple[str, str, str]]:
    """Datasets named so that their sorted order mixes the task types."""
    return sorted(
        {(f"d{int(rng.integers(0, 40)):02d}", str(rng.choice(TASKS)), "m") for _ in range(n)}
    )


def test_by_task_type_against_pandas_and_its_column_orders() -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        units = _random_units(rng, 30)
        values = {u: float(rng.random()) for u in units}
        frame = pd.DataFrame([(d, t, values[(d, t, m)]) for d, t, m in units], columns=list("dtv"))
        by_task = frame.groupby("t")["v"].mean()
        for sort_columns in (False, True):
            spec = by_task_type(units, sort_columns=sort_columns)
            got = evaluate_spec(spec, values)
            for task, value in by_task.items():
                assert got[task] == pytest.approx(value, rel=1e-13)
            assert got[OVERALL] == pytest.approx(by_task.mean(), rel=1e-13)
        # columns: in the order a task first appears, or sorted by task name
        first_seen = list(dict.fromkeys(t for _, t, _ in units))
        assert list(by_task_type(units).columns) == first_seen
        assert list(by_task_type(units, sort_columns=True).columns) == sorted(first_seen)


def test_per_dataset_columns_and_score() -> None:
    units = [("b", "retrieval", "mrr"), ("a", "probing", "accuracy"), ("a", "clustering", "v")]
    spec = per_dataset(units)
    assert list(spec.columns) == ["a / clustering", "a / probing", "b / retrieval"]
    values = dict(zip(units, (0.1, 0.5, 0.9), strict=True))
    got = evaluate_spec(spec, values)
    assert got["b / retrieval"] == 0.1 and got[OVERALL] == pytest.approx(0.5)


def test_by_task_view_is_benchmark_aggregate() -> None:
    """Every declared benchmark: Benchmark.aggregate is the by-task view of its units
    (bit for bit) and the pandas mean over task types of the mean over datasets."""
    from evaluators.benchmarks import benchmarks

    checked = 0
    for key, bench in sorted(benchmarks().items()):
        if not bench.units:
            continue
        rng = np.random.default_rng(zlib.crc32(key.encode()))
        values = {u: float(rng.random()) for u in bench.units}
        units = [(d, t, "main") for d, t in bench.units]
        got = evaluate_spec(
            by_task_type(units), {(d, t, "main"): v for (d, t), v in values.items()}
        )
        score = bench.aggregate(values)
        assert score.value == got[OVERALL] and score.complete, key
        # the formula Benchmark.aggregate had before it evaluated the view: the same bits
        by_task: dict[str, list[float]] = {}
        for d, t in bench.units:
            by_task.setdefault(t, []).append(values[(d, t)])
        assert score.value == sum(sum(v) / len(v) for v in by_task.values()) / len(by_task)
        frame = pd.DataFrame([(d, t, v) for (d, t), v in values.items()], columns=list("dtv"))
        assert score.value == pytest.approx(frame.groupby("t")["v"].mean().mean(), rel=1e-13)
        checked += 1
    assert checked >= 8


def test_steb_views_weights_equal_evaluate_spec() -> None:
    """The STEB views (their own combine functions) in both forms of the rule."""
    from evaluators.benchmarks import benchmarks
    from evaluators.steb_scores import scores

    available: dict[str, set[str]] = {}
    for d, t in benchmarks()["STEB(v1)"].units:
        available.setdefault(d, set()).add(t)
    rng = np.random.default_rng(3)
    for view in scores.VIEWS:
        spec = pruned(scores.view_spec(view, available))
        assert spec.overall == scores.OVERALL[view] and spec.columns, view
        units = spec.units
        values = {u: float(rng.random()) for u in units}
        names, matrix = weights(spec, {u: i for i, u in enumerate(units)})
        got = evaluate_spec(spec, values)
        assert set(names) == set(got) and spec.overall in got
        x = np.array([values[u] for u in units])
        np.testing.assert_allclose(x @ matrix, [got[n] for n in names], rtol=1e-12)
        np.testing.assert_allclose(matrix.sum(axis=0), 1.0, rtol=1e-12)  # means: weights sum to 1


def test_normal_se_is_the_spread_of_the_view_under_unit_noise() -> None:
    """The interval rule: each unit's value moves by independent normal noise of its
    standard error; the view's columns (evaluated by the rule, on arrays of draws) spread
    by normal_se, and that equals sqrt(w' diag(se^2) w) for every column."""
    from evaluators.benchmarks import benchmarks
    from evaluators.steb_scores import scores

    available: dict[str, set[str]] = {}
    for d, t in benchmarks()["STEB(v1)"].units:
        available.setdefault(d, set()).add(t)
    spec = pruned(scores.view_spec("definitional", available))
    units = spec.units
    rng = np.random.default_rng(11)
    se = rng.uniform(0.005, 0.05, len(units))
    names, matrix = weights(spec, {u: i for i, u in enumerate(units)})
    got = normal_se(se[None, :], matrix)[0]
    want = [np.sqrt(matrix[:, j] @ np.diag(se**2) @ matrix[:, j]) for j in range(len(names))]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    draws = {u: 0.5 + se[i] * rng.standard_normal(20_000) for i, u in enumerate(units)}
    spread = evaluate_spec(spec, draws)
    for j, name in enumerate(names):
        assert np.std(spread[name]) == pytest.approx(got[j], rel=0.03), name
    # a NaN standard error counts as 0 (the caller masks those cells)
    missing = se.copy()
    missing[0] = np.nan
    zero = se.copy()
    zero[0] = 0.0
    np.testing.assert_array_equal(normal_se(missing[None], matrix), normal_se(zero[None], matrix))
