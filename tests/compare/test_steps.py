"""The named steps of :func:`evaluators.compare.benchmark.compare_records` (#50 item 7):
:class:`ComparisonSettings`, :func:`paired_rows`, :func:`holm_outcomes`; and the
``compare`` command's packed settings (--n-boot, --seed, --alpha). The whole comparison
is checked in tests/compare/test_compare.py."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from evaluators.cli import cli
from evaluators.compare.benchmark import (
    ComparisonSettings,
    DatasetComparison,
    compare_records,
    holm_outcomes,
    paired_rows,
)
from evaluators.compare.records import read_records
from evaluators.compare.units import paired_test, units_of
from tests.compare import helpers as h
from tests.compare.test_compare import CLUSTER, OA, OA2, PAIRS, _models


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("steps")
    models = _models(np.random.default_rng(8), {"a": 0.9, "b": 0.6})
    # b's clustering record without its items: no per-unit data to compare
    models["b"][3] = dataclasses.replace(models["b"][3], items={})
    for rows in models.values():
        for rec in rows:
            h.write(root, rec)
    found = read_records([root])
    return found.of("a"), found.of("b")


def test_paired_rows_test_each_shared_unit_and_skip_those_without_units(records):
    a, b = records
    settings = ComparisonSettings(n_boot=60, seed=4)
    keys = sorted(k for k in a if k in b)
    rows, paired, skipped = paired_rows(keys, a, b, settings)
    assert [(s["dataset"], s["task"]) for s in skipped] == [(CLUSTER, "clustering")]
    assert "keeps no per-unit data" in skipped[0]["reason"]
    assert sorted(paired) == sorted(k for k in keys if k[0] != CLUSTER)
    assert {r.dataset for r in rows} == {PAIRS, OA, OA2}
    for row in rows:
        key = (row.dataset, row.task)
        (path_a, rec_a), (path_b, rec_b) = a[key], b[key]
        test = paired_test(units_of(rec_a, path_a), units_of(rec_b, path_b), 60, 4)
        assert (row.score_a, row.score_b, row.difference) == (
            test["score_a"],
            test["score_b"],
            test["difference"],
        )
        assert row.ci == (float(test["ci"][0]), float(test["ci"][1]))
        assert row.p_value == test["p_value"] and row.n_units == test["n_units"]
        assert (row.p_holm, row.outcome) == (None, "")  # Holm is the next step


def _row(p: float, difference: float) -> DatasetComparison:
    return DatasetComparison("d", "t", "m", 0.0, 0.0, difference, (0.0, 0.0), p, "", "", 1, 0.0)


def test_holm_outcomes_adjust_and_decide():
    # p = 0.01, 0.04, 0.03 -> Holm: 0.03, 0.06, 0.06 (0.03 * 2 raised by the running max)
    rows = [_row(0.01, 0.2), _row(0.04, -0.1), _row(0.03, -0.3)]
    holm_outcomes(rows, 0.05)
    assert [r.p_holm for r in rows] == pytest.approx([0.03, 0.06, 0.06])
    assert [r.outcome for r in rows] == ["win", "tie", "tie"]
    holm_outcomes(rows, 0.1)
    assert [r.outcome for r in rows] == ["win", "loss", "loss"]


def test_settings_and_their_keywords_compare_the_same(records):
    a, b = records
    settings = ComparisonSettings(n_boot=50, seed=3, alpha=0.2)
    packed = compare_records(a, b, "a", "b", settings=settings).to_dict()
    spelled = compare_records(a, b, "a", "b", n_boot=50, seed=3, alpha=0.2).to_dict()
    assert packed == spelled
    assert packed["settings"] == {
        "n_boot": 50,
        "seed": 3,
        "alpha": 0.2,
        "benchmark": None,
        "resample_datasets": True,
    }
    other = compare_records(a, b, "a", "b", settings=settings, seed=4).to_dict()
    assert other["settings"]["seed"] == 4 and other["benchmark"] != packed["benchmark"]
    with pytest.raises(TypeError, match="nboot"):
        compare_records(a, b, "a", "b", nboot=3)


def test_the_command_hands_its_settings_over(monkeypatch, tmp_path: Path):
    import evaluators.compare.api as api

    seen: dict[str, Any] = {}

    class _Stop(Exception):
        pass

    def compare_results(results, model_a, model_b, **kwargs):
        seen.update(kwargs, models=(model_a, model_b))
        raise _Stop

    monkeypatch.setattr(api, "compare_results", compare_results)
    args = ["compare", "--results", str(tmp_path), "--model", "x", "--model", "y"]
    extra = ["--n-boot", "77", "--seed", "9", "--alpha", "0.1", "--benchmark", "steb"]
    result = CliRunner().invoke(cli, args + extra)
    assert isinstance(result.exception, _Stop)
    assert seen == {
        "benchmark": "steb",
        "n_boot": 77,
        "seed": 9,
        "alpha": 0.1,
        "models": ("x", "y"),
    }
    result = CliRunner().invoke(cli, [*args, "--n-boot", "5"])
    assert str(result.exception) == "--n-boot must be at least 10, got 5"
