"""tests/golden.py: a golden mismatch says which value and which pinned input differ."""

from __future__ import annotations

import pytest

from tests.golden import assert_golden, installed


def test_mismatch_names_value_and_the_input_that_moved() -> None:
    here = installed("numpy")
    with pytest.raises(AssertionError) as failure:
        assert_golden("m", {"auc": 0.5}, {"auc": 0.6, "mrr": 0.1}, 1e-9, {"numpy": "0.0.1"})
    message = str(failure.value)
    assert "auc 0.5 != golden 0.6" in message and "mrr None != golden 0.1" in message
    assert f"numpy {here} (pinned with 0.0.1)" in message


def test_same_inputs_say_the_code_or_machine_changed() -> None:
    with pytest.raises(AssertionError, match="the code or the machine changed"):
        assert_golden("m", 0.5, 0.6, 1e-9, {"numpy": installed("numpy")})
    assert_golden("m", 0.5, 0.5 + 1e-12, 1e-9, {"numpy": installed("numpy")})
