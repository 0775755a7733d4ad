"""Each metric Space page is built from its module's ``PAGE`` declaration by one builder
(:func:`evaluators.metric_math.page.metric_page`): every ``app.py`` is the same few lines,
every declared field is an argument the module takes, and pasted text is read by kind
with errors that name the box."""

from __future__ import annotations

import inspect
import re

import pytest

from evaluators.metric_loading import list_metrics, load_metric
from evaluators.metric_math.page import Field, MetricPage
from tests.metrics.helpers import REPO_ROOT


@pytest.mark.parametrize("name", list_metrics())
def test_every_app_is_the_builder_call(name: str) -> None:
    code = (REPO_ROOT / "metrics" / name / "app.py").read_text()
    body = re.sub(r'^""".*?"""\n', "", code, flags=re.S).strip().splitlines()
    assert body == [
        "from pathlib import Path",
        "",
        "from evaluators.metric_math.page import metric_page",
        "",
        "demo, compute = metric_page(Path(__file__).parent)  # the page the module declares (PAGE)",
        "",
        'if __name__ == "__main__":',
        "    demo.launch()",
    ]


@pytest.mark.parametrize("name", list_metrics())
def test_declared_fields_are_arguments_of_the_module(name: str) -> None:
    module = load_metric(name, experiment_id=f"page-{name}")
    page = type(module).PAGE
    assert isinstance(page, MetricPage)
    features = set(module._feature_names())
    options = set(inspect.signature(module._compute).parameters) - features
    names = [f.name for f in page.fields]
    assert len(names) == len(set(names))
    assert features <= set(names), f"{name}: a feature has no box"
    assert set(names) - features <= options, f"{name}: a box the module does not take"
    # the examples the page shows compute (what a visitor sees first works)
    result = module.fresh().compute(**page.arguments(*(f.example for f in page.fields)))
    assert result


def test_fields_read_by_kind_and_name_the_box() -> None:
    page = MetricPage(
        "t",
        "i",
        (
            Field("predictions", "floats", "p", ""),
            Field("references", "int_rows", "r", ""),
            Field("ks", "ints", "k", "", optional=True, lines=0),
            Field("max_fpr", "number", "m", 0.0, zero_is_none=True),
        ),
    )
    assert page.arguments("0.5, 1e-3\n2", "1 0\n0 1", "", 0) == {
        "predictions": [0.5, 0.001, 2.0],
        "references": [[1, 0], [0, 1]],
    }
    assert page.arguments("1", "1", "1, 5", 0.2)["ks"] == [1, 5]
    assert page.arguments("1", "1", "", 0.2)["max_fpr"] == 0.2
    with pytest.raises(ValueError, match=r"predictions: 'x' is not a number"):
        page.arguments("0.1 x", "1", "", 0)
    with pytest.raises(ValueError, match=r"references line 2: 0.5 is not an integer"):
        page.arguments("0.1", "1\n0.5", "", 0)
    with pytest.raises(ValueError, match="4 inputs expected, got 2"):
        page.arguments("1", "2")
    with pytest.raises(ValueError, match="kind 'matrix' is not one of"):
        Field("x", "matrix", "x", "")


def test_labels_of_mixed_types_compare_as_text_when_asked() -> None:
    fields = (Field("predictions", "labels", "p", ""), Field("references", "labels", "r", ""))
    assert MetricPage("t", "i", fields, same_label_type=True).arguments("1 a", "1 1") == {
        "predictions": ["1", "a"],
        "references": ["1", "1"],
    }
    assert MetricPage("t", "i", fields).arguments("1 2", "a b") == {
        "predictions": [1, 2],
        "references": ["a", "b"],
    }
