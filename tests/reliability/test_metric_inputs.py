"""Issue 15, items 4 and 8: every bundled metric module checks its inputs the same way on
every path (``compute``, ``add``, ``add_batch``), never casts a value, and a failed call
leaves no state for the next one."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from evaluators.metric_loading import list_metrics, load_metric
from evaluators.metric_math import order_alignment_accuracy, partial_auc, roc_summary

warnings.filterwarnings("ignore", category=FutureWarning)

SCORES = [0.1, 0.9, 0.35, 0.8, 0.2, 0.7]
LABELS = [0, 1, 0, 1, 0, 1]
FLOAT_LABELS = [0.9, 0.1, 0.9, 0.2, 0.9, 0.1]  # int() would give all zeros... or 1.0 accuracy


@pytest.fixture(scope="module")
def modules():
    return {name: load_metric(name) for name in list_metrics()}


def _paths(module, predictions, references, **kwargs):
    """The three ways of feeding a module; each is a callable that computes."""

    def one_shot():
        return module.compute(predictions=predictions, references=references, **kwargs)

    def batched():
        module.add_batch(predictions=predictions, references=references)
        return module.compute(**kwargs)

    def one_by_one():
        for p, r in zip(predictions, references, strict=True):
            module.add(prediction=p, reference=r)
        return module.compute(**kwargs)

    return {"compute": one_shot, "add_batch": batched, "add": one_by_one}


@pytest.mark.parametrize("path", ["compute", "add_batch", "add"])
@pytest.mark.parametrize("name", ["tpr_at_fpr", "auroc", "pan_verification"])
def test_float_labels_refused_on_every_path(modules, name: str, path: str) -> None:
    module = modules[name]
    with pytest.raises(ValueError, match=r"references.* must hold integers; got 0\.9"):
        _paths(module, SCORES, FLOAT_LABELS)[path]()
    assert module.writer is None  # nothing left behind


@pytest.mark.parametrize("path", ["compute", "add_batch", "add"])
def test_macro_accuracy_float_and_mixed_labels_refused(modules, path: str) -> None:
    module = modules["macro_accuracy"]
    with pytest.raises(ValueError, match=r"must hold integers; got 0\.9"):
        _paths(module, [0.9, 1.0, 0.0], [1, 1, 0])[path]()
    with pytest.raises(ValueError, match="fit none of the accepted input types"):
        _paths(module, ["0", "1"], [0, 1])[path]()
    assert module.writer is None


@pytest.mark.parametrize("path", ["compute", "add_batch", "add"])
def test_auroc_refuses_text_scores(modules, path: str) -> None:
    with pytest.raises(ValueError, match=r"predictions.* must hold numbers; got '0\.1'"):
        _paths(modules["auroc"], ["0.1", "0.9", "0.2", "0.8"], [0, 1, 0, 1])[path]()


@pytest.mark.parametrize("path", ["compute", "add_batch"])
def test_integral_floats_still_accepted_and_equal(modules, path: str) -> None:
    """1.0 is an integer: accepted on every path with the same result as 1."""
    module = modules["auroc"]
    as_float = _paths(module, SCORES, [float(v) for v in LABELS])[path]()
    assert as_float["auroc"] == pytest.approx(roc_auc_score(LABELS, SCORES))


def test_failed_compute_leaves_no_state(modules) -> None:
    """One visitor's failed request must not leak into the next (issue 15 item 4)."""
    module = modules["tpr_at_fpr"]
    module.add_batch(predictions=[0.5, 0.6], references=[1, 1])
    with pytest.raises(ValueError, match="fpr must be a number"):
        module.compute(fpr="0.01")
    assert module.writer is None
    # the next request sees only its own inputs
    result = module.compute(predictions=SCORES, references=LABELS, fpr=0.34)
    assert (result["n_pos"], result["n_neg"]) == (3, 3)
    # and a later invalid input takes the same strict path, not a cast
    module.add_batch(predictions=[0.5], references=[1])
    with pytest.raises(ValueError, match="must hold integers"):
        module.compute(predictions=SCORES, references=FLOAT_LABELS)
    assert module.writer is None
    with pytest.raises(ValueError):  # nothing pending: compute() alone has no data
        module.compute()


def test_order_alignment_empty_and_ragged(modules) -> None:
    module = modules["order_alignment_accuracy"]
    with pytest.raises(ValueError, match="is empty"):
        module.compute(predictions=[], references=[])
    with pytest.raises(ValueError, match="is empty"):
        order_alignment_accuracy([], [])
    costs = [[[0.1, 0.9], [0.8, 0.2]], [[0.1, 0.9, 0.3], [0.8, 0.2, 0.1], [0.5, 0.4, 0.0]]]
    expected = [[0, 1], [0, 1, 2]]
    # ragged items take evaluate's Arrow path; same answer as the math layer
    assert module.compute(predictions=costs, references=expected)["accuracy"] == pytest.approx(
        order_alignment_accuracy(costs, expected)["accuracy"]
    )
    with pytest.raises(ValueError, match=r"must hold numbers; got 'x'"):
        module.compute(predictions=[[[0.1, "x"], [0.8, 0.2]], costs[1]], references=expected)
    with pytest.raises(ValueError, match=r"must hold integers; got 0\.5"):
        module.compute(predictions=costs, references=[[0, 1], [0, 1, 0.5]])


def test_fpr_given_as_text_refused(modules) -> None:
    with pytest.raises(ValueError, match=r"fpr must be a number in \(0, 1\); got '0\.01'"):
        modules["tpr_at_fpr"].compute(predictions=SCORES, references=LABELS, fpr="0.01")
    with pytest.raises(ValueError, match="max_fpr must be a number"):
        modules["auroc"].compute(predictions=SCORES, references=LABELS, max_fpr="0.5")
    with pytest.raises(ValueError, match="fpr must be a number"):
        modules["tpr_at_fpr"].compute(predictions=SCORES, references=LABELS, fpr=True)


def test_max_fpr_one_is_the_full_auc_as_in_sklearn(modules) -> None:
    rng = np.random.default_rng(15)
    scores = rng.normal(size=300)
    labels = (rng.random(300) < 0.4).astype(int)
    full = roc_auc_score(labels, scores)
    assert roc_auc_score(labels, scores, max_fpr=1.0) == pytest.approx(full)
    assert partial_auc(scores, labels, max_fpr=1.0) == pytest.approx(full, abs=1e-12)
    assert roc_summary(scores, labels, max_fpr=1.0)["partial_auc"] == pytest.approx(full)
    result = modules["auroc"].compute(predictions=scores, references=labels, max_fpr=1.0)
    assert result["partial_auc"] == pytest.approx(full, abs=1e-12)
    both = roc_summary(scores, labels, max_fpr=[0.1, 1.0])
    assert both["partial_auc@1"] == pytest.approx(full)
    assert both["partial_auc@0.1"] == pytest.approx(
        roc_auc_score(labels, scores, max_fpr=0.1), abs=1e-12
    )


@pytest.mark.parametrize("name", sorted(list_metrics()))
def test_every_module_refuses_empty_and_mismatched_input(modules, name: str) -> None:
    module = modules[name]
    with pytest.raises(ValueError, match=r"is empty|is missing"):
        module.compute(predictions=[], references=[])
    with pytest.raises(ValueError):
        module.add_batch(predictions=[1], references=None)
    assert module.writer is None
