"""The evaluate modules: offline load + compute, load_metric, combine, both input paths."""

from __future__ import annotations

import importlib
import math
import os
from pathlib import Path

import numpy as np
import pytest
import yaml

import evaluators.metric_math as mm
from dataset_scripts.core.errors import UnknownNameError
from evaluators.metric_loading import list_metrics, load_metric
from evaluators.metric_math.text_inputs import json_safe, parse_blocks
from tests.metrics.helpers import METRIC_NAMES, REPO_ROOT

BINARY = {"predictions": [0.1, 0.4, 0.35, 0.8, 0.5, 0.5], "references": [0, 0, 1, 1, 0, 1]}

# name -> (inputs, kwargs, expected result straight from evaluators.metric_math)
CASES = {
    "tpr_at_fpr": (BINARY, {"fpr": 0.34}, lambda: mm.tpr_at_fpr(*BINARY.values(), fpr=0.34)),
    "auroc": (BINARY, {"max_fpr": 0.3}, lambda: mm.roc_summary(*BINARY.values(), max_fpr=0.3)),
    "pan_verification": (
        {"predictions": [0.9, 0.2, 0.5, 0.7], "references": [1, 0, 1, 0]},
        {},
        lambda: mm.pan_verification([0.9, 0.2, 0.5, 0.7], [1, 0, 1, 0]),
    ),
    "v_measure": (
        {"predictions": [0, 0, 1, 1, 2], "references": ["a", "a", "a", "b", "b"]},
        {"beta": 2.0},
        lambda: mm.v_measure([0, 0, 1, 1, 2], ["a", "a", "a", "b", "b"], beta=2.0),
    ),
    "macro_accuracy": (
        {"predictions": [0, 1, 1, 2], "references": [0, 1, 2, 2]},
        {},
        lambda: mm.macro_accuracy([0, 1, 1, 2], [0, 1, 2, 2]),
    ),
    "retrieval": (
        {"predictions": [[0.9, 0.1, 0.5], [0.2, 0.3, 0.4]], "references": [[1, 0, 0], [1, 0, 1]]},
        {"ks": [1, 2]},
        lambda: mm.retrieval_scores(
            [[0.9, 0.1, 0.5], [0.2, 0.3, 0.4]], [[1, 0, 0], [1, 0, 1]], ks=[1, 2]
        ),
    ),
    "order_alignment_accuracy": (
        {
            "predictions": [[[0.1, 0.9], [0.8, 0.2]], [[0.5, 0.5], [0.5, 0.5]]],
            "references": [[0, 1], [1, 0]],
        },
        {"distractor_predictions": [[[0.2, 0.2, 0.9]]], "distractor_references": [[0]]},
        lambda: mm.order_alignment_accuracy(
            [[[0.1, 0.9], [0.8, 0.2]], [[0.5, 0.5], [0.5, 0.5]]],
            [[0, 1], [1, 0]],
            [[[0.2, 0.2, 0.9]]],
            [[0]],
        ),
    ),
}


def test_every_bundled_metric_has_a_case_and_the_folder_files():
    assert list_metrics() == sorted(METRIC_NAMES) == sorted(CASES)
    for name in METRIC_NAMES:
        folder = REPO_ROOT / "metrics" / name
        for file in (f"{name}.py", "README.md", "app.py", "requirements.txt"):
            assert (folder / file).is_file(), f"{name}/{file} missing"
        requirements = (folder / "requirements.txt").read_text()
        assert "stylebench" in requirements and "evaluate" in requirements
        assert "gradio" in requirements


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_card_front_matter_is_a_space_card(name):
    text = (REPO_ROOT / "metrics" / name / "README.md").read_text()
    assert text.startswith("---\n")
    meta = yaml.safe_load(text.split("---\n")[1])
    assert meta["sdk"] == "gradio" and meta["app_file"] == "app.py" and meta["pinned"] is False
    assert {"evaluate", "metric"} <= set(meta["tags"])
    for key in ("title", "emoji", "colorFrom", "colorTo", "sdk_version", "description"):
        assert meta[key], key
    for section in ("## How to use", "## Limitations", "## Citation", "@"):
        assert section in text, f"{name} card lacks {section!r}"


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_offline_load_and_compute_from_repo_path(name, load_module):
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    module = load_module(name)
    assert module.name == name
    inputs, kwargs, expected = CASES[name]
    assert module.compute(**inputs, **kwargs) == expected()
    # the module was copied into the temp HF cache, not ~/.cache
    import evaluate.config

    assert not str(evaluate.config.HF_MODULES_CACHE).startswith(str(Path.home() / ".cache"))


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_arrow_path_gives_the_same_numbers(name, load_module):
    """add_batch goes through evaluate's Arrow round trip; compute() on arrays skips it."""
    module = load_module(name)
    inputs, kwargs, expected = CASES[name]
    half = len(inputs["predictions"]) // 2
    module.add_batch(**{k: v[:half] for k, v in inputs.items()})
    module.add_batch(**{k: v[half:] for k, v in inputs.items()})
    assert module.compute(**kwargs) == expected()


def test_fast_path_keeps_float32_and_matches_arrow_path(load_module):
    tpr = load_module("tpr_at_fpr")
    rng = np.random.default_rng(0)
    scores = rng.normal(size=5000).astype(np.float32)
    labels = rng.integers(0, 2, 5000)
    fast = tpr.compute(predictions=scores, references=labels, fpr=0.05)
    assert fast == mm.tpr_at_fpr(scores, labels, fpr=0.05)
    for s, y in zip(scores.tolist(), labels.tolist(), strict=True):
        tpr.add(prediction=s, reference=y)
    assert tpr.compute(fpr=0.05) == fast  # float32 -> float64 in Arrow is exact


def test_fast_path_rejects_non_integer_labels_with_a_value_error(load_module):
    auroc = load_module("auroc")
    with pytest.raises(ValueError, match=r"references must hold integers; got 0\.5"):
        auroc.compute(predictions=[0.1, 0.2], references=[0.5, 1.0])
    assert auroc.compute(predictions=[0.1, 0.2], references=[0.0, 1.0])["auroc"] == 1.0


@pytest.mark.parametrize(
    ("name", "inputs", "match"),
    [
        ("tpr_at_fpr", {"predictions": [0.1, 0.2], "references": [1, 1]}, "single class"),
        ("tpr_at_fpr", {"predictions": [0.1, float("nan")], "references": [0, 1]}, "NaN"),
        ("auroc", {"predictions": [0.1, 0.2], "references": [0, 2]}, r"must be 0 or 1"),
        ("auroc", {"predictions": [], "references": []}, "empty"),
        ("pan_verification", {"predictions": [0.1, 1.5], "references": [0, 1]}, r"\[0, 1\]"),
        ("v_measure", {"predictions": [0, 1], "references": [0, 1, 1]}, "differ in length"),
        ("macro_accuracy", {"predictions": [0, 1, 1], "references": [0, 1]}, "differ in length"),
        ("retrieval", {"predictions": [[0.1, 0.2]], "references": [[0, 0]]}, "query 0"),
        (
            "order_alignment_accuracy",
            {"predictions": [[[0.1, 0.2], [0.3, 0.4]]], "references": [[0, 0]]},
            "repeats a column",
        ),
    ],
)
def test_modules_raise_value_errors(name, inputs, match, load_module):
    with pytest.raises(ValueError, match=match):
        load_module(name).compute(**inputs)


def test_tpr_at_fpr_rejects_bad_fpr(load_module):
    with pytest.raises(ValueError, match=r"fpr must be in the open interval \(0, 1\)"):
        load_module("tpr_at_fpr").compute(**BINARY, fpr=1.0)


def test_load_metric_resolves_bundled_names():
    tpr = load_metric("tpr_at_fpr")
    assert tpr.name == "tpr_at_fpr"
    assert tpr.compute(**BINARY, fpr=0.34) == CASES["tpr_at_fpr"][2]()
    by_path = load_metric(str(REPO_ROOT / "metrics" / "auroc"))
    assert by_path.compute(**BINARY) == mm.roc_summary(*BINARY.values())


def test_load_metric_unknown_name_lists_the_bundled_ones():
    with pytest.raises(UnknownNameError) as info:
        load_metric("accuracy")
    message = str(info.value)
    assert "\n" not in message
    assert "unknown metric 'accuracy'" in message and "tpr_at_fpr" in message
    assert isinstance(info.value, KeyError)


def test_combine_binary_modules(load_module):
    import evaluate

    combined = evaluate.combine([load_module("tpr_at_fpr"), load_module("auroc")])
    out = combined.compute(**BINARY)
    assert out == {**mm.tpr_at_fpr(*BINARY.values()), **mm.roc_summary(*BINARY.values())}
    combined = evaluate.combine(
        [load_module("tpr_at_fpr"), load_module("auroc"), load_module("pan_verification")]
    )
    out = combined.compute(predictions=[0.9, 0.2, 0.5, 0.7], references=[1, 0, 1, 0])
    assert {"tpr", "eer", "c_at_1", "overall"} <= set(out)
    # both modules report an AUROC under different keys; no clash
    assert out["auroc"] == out["auc"]


def test_module_scripts_import_only_the_math_package():
    """The modules are thin: every number comes from evaluators.metric_math."""
    for name in METRIC_NAMES:
        source = (REPO_ROOT / "metrics" / name / f"{name}.py").read_text()
        assert "from evaluators.metric_math import" in source
        imports = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
        assert not [line for line in imports if "sklearn" in line or "scipy" in line]


def test_metric_math_imports_without_evaluate_or_sklearn():
    import subprocess
    import sys

    code = (
        "import sys, evaluators.metric_math as m; "
        "bad = [k for k in sys.modules if k.split('.')[0] in "
        "('evaluate', 'sklearn', 'datasets', 'pandas', 'torch')]; "
        "assert not bad, bad; print(len(m.__all__))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr


def test_app_helpers():
    assert json_safe({"t": math.inf, "x": [1.0, -math.inf]}) == {"t": "inf", "x": [1.0, "-inf"]}
    assert parse_blocks("0.1 0.9\n0.8 0.2\n\n0.5, 0.5\n0.5, 0.5", "costs") == [
        [[0.1, 0.9], [0.8, 0.2]],
        [[0.5, 0.5], [0.5, 0.5]],
    ]
    with pytest.raises(ValueError, match="costs block 1 line 2: 'x' is not a number"):
        parse_blocks("0.1 0.9\n0.8 x", "costs")


def test_module_importable_by_pytest_doctest_collection():
    """metrics/<name>/<name>.py must import as a plain module (its doctests run from it)."""
    import sys

    sys.path.insert(0, str(REPO_ROOT / "metrics" / "tpr_at_fpr"))
    try:
        module = importlib.import_module("tpr_at_fpr")
        assert ">>> tpr = evaluate.load" in module.TprAtFpr.__doc__
    finally:
        sys.path.pop(0)


def test_load_metric_from_a_bundled_folder_outside_the_checkout(tmp_path, monkeypatch):
    """A non-editable install carries the modules in evaluators/_bundled/metrics."""
    import shutil

    import evaluators.metric_loading as loading

    bundled = tmp_path / "_bundled" / "metrics"
    shutil.copytree(REPO_ROOT / "metrics" / "tpr_at_fpr", bundled / "tpr_at_fpr")
    monkeypatch.setattr(loading, "metrics_dir", lambda: bundled)
    assert loading.list_metrics() == ["tpr_at_fpr"]
    module = loading.load_metric("tpr_at_fpr", experiment_id="bundled")
    assert module.compute(**BINARY, fpr=0.34) == CASES["tpr_at_fpr"][2]()
    with pytest.raises(UnknownNameError, match="bundled metrics: tpr_at_fpr"):
        loading.load_metric("auroc")
