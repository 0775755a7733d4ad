"""The pictures' recipes (docs/hooks/sbdocs/figures.py) run against the project's current
API on small real runs: the demo with two baselines, ``stylebench compare`` of them, the
leaderboard excerpt and ``stylebench detect run`` on a labelled set; what each picture
shows is what the run recorded."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

from sbdocs import figures  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory):
    from evaluators.demo import run_demo

    return run_demo(tmp_path_factory.mktemp("demo"), list(figures.COMPARED), False)


def test_steb_by_task_draws_the_recorded_scores(demo, tmp_path: Path) -> None:
    made = figures.steb_by_task(demo, tmp_path / "by_task.png")
    assert 10_000 < made["bytes"] < 150_000
    for model, records in demo.records.items():
        for r in records:
            assert made["scores"][model][r.task] == round(r.main_score, 4)
    assert set(made["scores"]) == set(figures.COMPARED)
    assert len(made["scores"]["stylometric"]) == 4  # the demo's four task types


def test_compare_forest_draws_stylebench_compare(demo, tmp_path: Path) -> None:
    from evaluators.api import compare

    a, b = figures.COMPARED
    made = figures.compare_forest([demo.results_dir], tmp_path / "forest.png")
    expected = compare([demo.results_dir], a, b)
    assert made["tally"] == expected.tally and made["rows"] == len(expected.datasets) == 4
    assert sum(made["tally"].values()) == 4 and made["bytes"] < 150_000


def test_leaderboard_excerpt_without_runs_is_the_papers_top_rows(tmp_path: Path) -> None:
    made = figures.leaderboard(None, tmp_path / "board.png")
    assert made["runs"] == {}
    assert f"top {figures.LEADERBOARD_PAPER_ROWS} rows" in made["from"]
    assert made["bytes"] < 150_000


def test_detector_roc_marks_the_tpr_detect_reported(tmp_path: Path) -> None:
    """On a labelled set where machine texts repeat a marker word more often, the plotted
    point is ``detect run``'s TPR at 1 % FPR, and the ROC drawn from its scores reaches
    that TPR at the threshold it reported (a second, independent reading of the scores)."""
    rng = np.random.default_rng(0)
    words = [
        "the",
        "a",
        "of",
        "and",
        "to",
        "in",
        "is",
        "was",
        "it",
        "that",
        "for",
        "on",
        "with",
        "as",
        "his",
        "her",
        "they",
        "we",
    ]
    data = tmp_path / "set.csv"
    with data.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["text", "label"])
        for i in range(400):
            machine = i % 2
            text = rng.choice(words, 30).tolist()
            text += ["delve"] * int(rng.poisson(3 if machine else 0.3))
            writer.writerow([" ".join(rng.permutation(text)), "machine" if machine else "human"])
    work = tmp_path / "work"
    made = figures.detector_roc(data, work, tmp_path / "roc.png", lambda _: None)
    result = json.loads((work / "detect" / "detection.json").read_text(encoding="utf-8"))
    record = next(r for r in result["results"] if r["detector"] == "tfidf")
    key = f"tpr@{figures.FPR:g}fpr"
    assert made[key] == record[key] and made["auroc"] == record["auroc"]
    with (work / "detect" / "scores.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    scores = np.array([float(r["score:tfidf"]) for r in rows])
    labels = np.array([int(r["label"]) for r in rows])
    flagged = scores >= record[f"{key}_threshold"]
    assert flagged[labels == 1].mean() == pytest.approx(record[key])
    assert flagged[labels == 0].mean() == pytest.approx(record[f"{key}_achieved_fpr"])
    assert flagged[labels == 0].mean() <= figures.FPR
    assert made["bytes"] < 150_000
