"""The Space's detector tab reads the `stylebench detect run` format (text + label,
optional generator), offers a sample CSV in that format, and refuses a set whose
estimated run time exceeds the limit before it starts anything."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.byod.conftest import detection_rows

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "spaces" / "stylebench"))

from stylebench_space import detectors
from stylebench_space.safety import UserError


def test_label_format_and_sample(tmp_path: Path) -> None:
    sample = detectors.write_sample_csv(tmp_path / "sample.csv")
    texts, regimes = detectors.load_arb_set(sample)
    assert regimes == ["Human", "Human", "gen-a", "gen-b"] and len(texts) == 4
    path = tmp_path / "set.csv"
    pd.DataFrame(detection_rows(10, 6)).to_csv(path, index=False)
    texts, regimes = detectors.load_arb_set(path)
    assert regimes.count("Human") == 10 and set(regimes) == {"Human", "gen-a", "gen-b"}
    path.write_text("text,label\na b,human\nc d,robot\n")
    with pytest.raises(UserError, match="row 3: label 'robot' is neither human"):
        detectors.load_arb_set(path)
    path.write_text("text,kind\na b,human\n")
    with pytest.raises(UserError, match="needs a 'regime' or a 'label'"):
        detectors.load_arb_set(path)


def test_refuses_before_starting_when_over_the_limit(tmp_path: Path, monkeypatch) -> None:
    from evaluators.detect.estimate import estimate_seconds

    rows = [
        {"text": " ".join(["word"] * 170), "label": "human" if i % 2 else "machine"}
        for i in range(300)
    ]
    path = tmp_path / "big.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    texts, _ = detectors.load_arb_set(path)
    # 300 texts of 170 words with the log-likelihood detector: the case that hit 240 s
    assert estimate_seconds(["loglik"], texts) > 240
    called = []
    monkeypatch.setattr(detectors, "get_detector", lambda name: called.append(name))
    with pytest.raises(UserError, match=r"about \d+ of these texts fit.*stylebench detect run"):
        detectors.evaluate_detector("loglik", str(path), tmp_path / "charts")
    assert called == []  # nothing was loaded or scored
    message = detectors.estimate_message("loglik", str(path))
    assert f"over this Space's {detectors.MAX_RUN_SECONDS:.0f} s limit" in message
    small = tmp_path / "small.csv"
    pd.DataFrame(rows[:20]).to_csv(small, index=False)
    assert detectors.estimate_message("loglik", str(small)).startswith(
        "20 texts; loglik should take"
    )


class _Slow:
    """0.02 s per text after a slow first call (the model load)."""

    def __init__(self) -> None:
        self.calls = 0

    def score(self, texts):
        import time

        self.calls += 1
        time.sleep(0.3 if self.calls == 1 else 0.02 * len(texts))
        return [0.0] * len(texts)


def test_scoring_stops_early_when_the_measured_rate_overruns() -> None:
    texts = [f"text {i}" for i in range(16 * 20)]  # 20 batches: about 6.4 s at that rate
    slow = _Slow()
    with pytest.raises(UserError, match=r"stopped early: at the measured 0\.0\d s per text"):
        detectors.score_texts(slow, texts, max_seconds=2.0)
    assert slow.calls == 2  # the load is not extrapolated; the first real batch is
    fast = _Slow()
    assert len(detectors.score_texts(fast, texts[:48], max_seconds=5.0)) == 48


class _Constant:
    """A detector scoring every text with one value (its own scale)."""

    def __init__(self, value: float) -> None:
        self.value = value

    def score(self, texts):
        from tests.byod.conftest import MACHINE_WORDS

        share = [sum(w in MACHINE_WORDS for w in t.split()) / len(t.split()) for t in texts]
        return [self.value + s for s in share]


def test_a_threshold_does_not_follow_the_visitor_to_another_detector(
    tmp_path: Path, monkeypatch
) -> None:
    """Issue #26 item 6: evaluate detector A, switch to B, score a text: B's score must not
    be read against A's threshold (human texts read "flagged as machine-like")."""
    import threading

    from stylebench_space import ui

    monkeypatch.setenv("STYLEBENCH_SPACE_HOME", str(tmp_path / "home"))
    fakes = {"a": _Constant(-5.0), "b": _Constant(3.0)}  # b's scores all above a's threshold
    monkeypatch.setattr(detectors, "get_detector", lambda name: (fakes[name], threading.Lock()))
    monkeypatch.setattr(detectors, "check_time", lambda name, texts: 0.0)
    path = tmp_path / "set.csv"
    pd.DataFrame(detection_rows(150, 40)).to_csv(path, index=False)
    _, _, threshold = ui.evaluate_detector("a", str(path))
    score, verdict = ui.score_text("b", "honestly the bus was late", threshold)
    assert score > float(threshold.split()[0])  # read against a's threshold it is "flagged"
    assert "flagged as machine-like" not in verdict
    assert "No calibrated threshold yet" in verdict
    assert threshold.endswith("(calibrated for a)") and float(threshold.split()[0]) < 0
    _, verdict = ui.score_text("a", "honestly the bus was late", threshold)
    assert "against the 1%-FPR threshold" in verdict  # its own detector still uses it
    _, verdict = ui.score_text("b", "honestly the bus was late", "2.5")  # typed: used as is
    assert "flagged as machine-like" in verdict


def test_heatmap_draws_dollar_names_literally_and_stays_bounded(tmp_path: Path) -> None:
    """Issue #26 item 11: a `$` in a regime name broke mathtext; 399 generators drew a
    70,000-pixel-wide image."""
    from PIL import Image

    rows = [[r"gen$\frac{1}{$", 10, 5, 0.5, 0.01, 0.7], ["cost $5 vs $10", 10, 5, 0.2, 0.0, 0.6]]
    small = detectors.draw_heatmap(rows, "a $ title", tmp_path / "dollar.png")
    assert Image.open(small).size[0] < 1000
    many = [[f"gen-{i:03d}$", 10, 5, (i % 10) / 10, 0.01, 0.5] for i in range(399)]
    path = detectors.draw_heatmap(many, "many", tmp_path / "many.png")
    width, height = Image.open(path).size
    assert width <= detectors.MAX_HEATMAP_INCHES * 110 + 1 and height < 1000
