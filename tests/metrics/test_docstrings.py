"""The examples in the metric_math docstrings run (evaluators/ is not a pytest testpath)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "evaluators.metric_math.alignment",
    "evaluators.metric_math.binary",
    "evaluators.metric_math.classification",
    "evaluators.metric_math.clustering",
    "evaluators.metric_math.pan",
    "evaluators.metric_math.retrieval",
    "evaluators.metric_loading",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name != "evaluators.metric_loading":
        assert result.attempted > 0
