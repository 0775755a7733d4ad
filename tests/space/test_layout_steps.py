"""The named steps of the Space's layout (#50 item 7), without a server: the Leaderboard
tab (:class:`stylebench_space.leaderboard_tab.Choices`, ``benchmark_choices`` and
``build``'s parts and events) and the Detectors tab (``ui._detector_tab``'s columns and
events). The pages themselves are driven in tests/space/test_browser.py and
tests/space/test_leaderboard_browser.py."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from tests.space.synthetic_table import synthetic_table


@pytest.fixture
def board(monkeypatch) -> Any:
    from stylebench_space import leaderboard_data
    from stylebench_space.leaderboard_data import Leaderboard, check_table

    table = synthetic_table(n_models=12, seed=5, missing_every=5, other_every=3)
    lb = Leaderboard(check_table(table, "synthetic"), "synthetic")
    monkeypatch.setattr(leaderboard_data, "_board", lb)
    return lb


def test_choices_start_with_the_first_benchmark_and_accept_every_one(board):
    from stylebench_space.leaderboard_tab import Choices

    choices = Choices.of(board)
    names = board.benchmark_names()
    assert choices.names == names and choices.first == names[0]
    assert choices.views == board.views(names[0]) and choices.models == board.models(names[0])
    assert choices.types == board.task_types(names[0])
    assert set(choices.every_view) == {v for b in names for v in board.views(b)}
    assert choices.every_view[: len(choices.views)] == choices.views  # first benchmark's first
    assert choices.every_model == sorted({m for b in names for m in board.models(b)})
    assert choices.every_type == sorted({t for b in names for t in board.task_types(b)})
    assert (choices.model(0), choices.model(1)) == tuple(choices.models[:2])
    assert choices.model(len(choices.models)) is None


def test_choices_of_an_empty_board_are_empty():
    from stylebench_space.leaderboard_tab import Choices

    class _Empty:
        def benchmark_names(self) -> list[str]:
            return []

    choices = Choices.of(_Empty())  # type: ignore[arg-type]
    assert (choices.first, choices.views, choices.models, choices.model(0)) == ("", [], [], None)


@pytest.mark.slow  # gradio's import (about 3 s), plots
def test_benchmark_choices_narrow_the_selectors(board):
    from stylebench_space.leaderboard_tab import benchmark_choices

    name = board.benchmark_names()[-1]
    view, types, model, model_a, model_b = benchmark_choices(name)
    models = board.models(name)
    assert view["choices"] == board.views(name) and view["value"] == board.views(name)[0]
    assert types["choices"] == types["value"] == board.task_types(name)
    assert model["value"] == model_a["value"] == models[0] and model_b["value"] == models[1]
    assert model["choices"] == model_a["choices"] == model_b["choices"] == models


def _endpoints(demo: Any) -> dict[str, Any]:
    return {d.api_name: d for d in demo.fns.values() if d.api_visibility == "public"}


@pytest.mark.slow  # gradio's import (about 3 s), plots
def test_the_leaderboard_tab_wires_its_endpoints(board, tmp_path, monkeypatch):
    import gradio as gr
    from stylebench_space import leaderboard_tab

    monkeypatch.setenv("STYLEBENCH_SPACE_HOME", str(tmp_path))
    with gr.Blocks() as demo:
        on_load, controls, outputs = leaderboard_tab.build(lambda f: f)
    ids = lambda blocks: [getattr(b, "elem_id", None) for b in blocks]  # noqa: E731
    assert ids(controls) == ["lb-benchmark", "lb-view", "lb-open", "lb-size", "lb-tasks"]
    assert ids(outputs) == ["lb-view", "lb-tasks", "lb-model", "lb-a", "lb-b", "lb-csv",
                            "lb-plot-size", "lb-plot-columns"]  # fmt: skip
    found = _endpoints(demo)
    expected = {
        "leaderboard_models": (["lb-benchmark"], ["lb-view", "lb-tasks", "lb-model", "lb-a", "lb-b"]),
        "leaderboard_table": (ids(controls), ["lb-table", "lb-caption"]),
        "leaderboard_files": (ids(controls), ["lb-csv", "lb-plot-size", "lb-plot-columns"]),
        "leaderboard_drilldown": (["lb-benchmark", "lb-model"], ["lb-detail", "lb-detail-csv"]),
        "leaderboard_pair": (["lb-benchmark", "lb-a", "lb-b"],
                             ["lb-pair-plot", "lb-pair-table", "lb-pair-note"]),
        "leaderboard_ranks": ([*ids(controls), None], ["lb-ranks-table", "lb-ranks-note"]),
    }  # fmt: skip
    assert set(found) == set(expected)
    for name, (inputs, outs) in expected.items():
        assert (ids(found[name].inputs), ids(found[name].outputs)) == (inputs, outs), name
    # the four other switches run the table too (without an endpoint), then its files
    table_events = [d for d in demo.fns.values() if ids(d.outputs) == ["lb-table", "lb-caption"]]
    assert len(table_events) == 5  # the benchmark's chain and view, open, size, task types
    loaded = on_load(*[c.value for c in controls])
    assert len(loaded) == len(outputs)
    assert loaded[0]["value"] == controls[1].value and isinstance(loaded[5], str)
    shown = pd.read_csv(loaded[5])
    assert len(shown) > 0


@pytest.mark.slow  # gradio's import (about 3 s), plots
def test_the_detector_tab_wires_its_endpoints(tmp_path, monkeypatch):
    import gradio as gr
    from stylebench_space import ui

    monkeypatch.setenv("STYLEBENCH_SPACE_HOME", str(tmp_path))
    with gr.Blocks() as demo:
        ui._detector_tab()
    found = _endpoints(demo)
    labels = lambda blocks: [getattr(b, "label", None) for b in blocks]  # noqa: E731
    evaluate, score = found["evaluate_detector"], found["score_text"]
    assert labels(evaluate.inputs) == ["Detector", "Detector set (CSV)",
        "or a built ARB set (first rows of each regime)", "Human label value (optional, e.g. 1)",
        "Machine label value (optional, e.g. 0)"]  # fmt: skip
    assert labels(evaluate.outputs) == [
        "Per regime (Human vs each regime)",
        "Heatmap",
        "Calibrated threshold (set by 'Evaluate detector'; or type one)",
    ]
    assert labels(score.inputs)[0] == "Detector" and labels(score.inputs)[2].startswith("Calib")
    assert [getattr(b, "elem_id", None) for b in score.outputs][1] == "detector-caveat"
    estimates = [d for d in demo.fns.values() if d.fn is ui.detectors.estimate_message]
    assert len(estimates) == 4  # the set, the detector and the two label values
    assert (tmp_path / "sample_detector_set.csv").is_file()
