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
    result = CliRunner().invoke(cli, ["demo", "--out", str(out), "--no-progress"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out, result.output


def test_demo_prints_scores_for_tfidf_and_minilm(demo_run: tuple[Path, str]) -> None:
    out, output = demo_run
    for model in ("tfidf-ngrams", "function-words", "stylometric", "minilm"):
        assert model in output
    assert "demo_scores.png" in output


def test_demo_writes_results_and_chart(demo_run: tuple[Path, str]) -> None:
    out, _ = demo_run
    for model in ("tfidf-ngrams", "minilm"):
        files = {p.stem for p in (out / "results" / model / "stylebench-demo").glob("*.json")}
        assert files == DEMO_TASKS
        for task in DEMO_TASKS:
            payload = json.loads((out / "results" / model / "stylebench-demo" / f"{task}.json").read_text())
            assert 0.0 <= payload["main_score"] <= 1.0
            assert payload["embedding"]["texts_encoded"] <= payload["embedding"]["unique_texts"]
    chart = out / "demo_scores.png"
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and chart.stat().st_size > 10_000
    lines = (out / "summary.csv").read_text().splitlines()
    assert lines[0] == "model,dataset,task,metric,score" and len(lines) == 1 + 4 * 5


def test_demo_numbers_are_stable(demo_run: tuple[Path, str]) -> None:
    """Golden values of the deterministic baselines on the generated demo suite."""
    out, _ = demo_run
    score = lambda m, t: json.loads((out / "results" / m / "stylebench-demo" / f"{t}.json").read_text())  # noqa: E731
    stylometric = score("stylometric", "order_alignment")["metrics"]
    assert stylometric["accuracy"] > 0.8  # casing/punctuation/emoji are surface features
    assert score("tfidf-ngrams", "retrieval")["main_score"] > score("function-words", "retrieval")["main_score"]
