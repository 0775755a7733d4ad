"""`stylebench demo` end to end: scores for every demo model on the four task types,
result JSONs and the chart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from evaluators.cli import cli

DEMO_TASKS = {"clustering", "all_to_all_pairs", "order_alignment", "retrieval"}


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("demo")
    result = CliRunner().invoke(
        cli, ["demo", "--out", str(out), "--no-progress"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return out, result.output


def test_demo_prints_scores_for_tfidf_and_minilm(demo_run: tuple[Path, str]) -> None:
    _out, output = demo_run
    for model in ("tfidf-ngrams", "function-words", "stylometric", "minilm"):
        assert model in output
    assert "demo_scores.png" in output


def test_demo_writes_results_and_chart(demo_run: tuple[Path, str]) -> None:
    out, _ = demo_run
    for model in ("tfidf-ngrams", "minilm"):
        files = {p.stem for p in (out / "results" / model / "stylebench-demo").glob("*.json")}
        assert files == DEMO_TASKS
        for task in DEMO_TASKS:
            payload = json.loads(
                (out / "results" / model / "stylebench-demo" / f"{task}.json").read_text()
            )
            assert 0.0 <= payload["main_score"] <= 1.0
            assert payload["embedding"]["texts_encoded"] <= payload["embedding"]["unique_texts"]
    chart = out / "demo_scores.png"
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and chart.stat().st_size > 10_000
    lines = (out / "summary.csv").read_text().splitlines()
    assert lines[0] == "model,dataset,task,metric,score" and len(lines) == 1 + 4 * 5


# Golden main scores on the generated demo suite (seed 42), as measured when pinned.
# The suite is content-balanced (every style holds the same sentences), so encoders that
# group texts by content score ~0 V-measure and ~0 distractor accuracy; surface
# stylometric features do not.
GOLDEN = {
    "tfidf-ngrams": {
        "clustering": 0.00012794102416708718,
        "all_to_all_pairs": 0.5865849468377275,
        "order_alignment": 0.0,
        "retrieval": 0.615625,
    },
    "function-words": {
        "clustering": 9.019993905371139e-05,
        "all_to_all_pairs": 0.5046490946720025,
        "order_alignment": 0.0,
        "retrieval": 0.34655483405483406,
    },
    "stylometric": {
        "clustering": 0.16012798676843826,
        "all_to_all_pairs": 0.5267036490561384,
        "order_alignment": 0.07443574237467368,
        "retrieval": 0.5791666666666666,
    },
    "minilm": {
        "clustering": 0.000246277319606311,
        "all_to_all_pairs": 0.510811678184692,
        "order_alignment": 0.0,
        "retrieval": 0.3904761904761905,
    },
}


@pytest.mark.parametrize("model", sorted(GOLDEN))
def test_demo_golden_scores(demo_run: tuple[Path, str], model: str) -> None:
    out, _ = demo_run
    tolerance = 1e-3 if model == "minilm" else 1e-6  # neural inference: BLAS-level noise
    for task, expected in GOLDEN[model].items():
        path = out / "results" / model / "stylebench-demo" / f"{task}.json"
        assert json.loads(path.read_text())["main_score"] == pytest.approx(
            expected, abs=tolerance
        ), task
