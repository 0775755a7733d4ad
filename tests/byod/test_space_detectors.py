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
