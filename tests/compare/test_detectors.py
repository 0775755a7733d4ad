"""Two detectors on the same held-out texts: the vectorised paired bootstrap equals a
plain loop over the same resamples (same seed), and scores.csv files pair by text id."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from sklearn.metrics import roc_auc_score

from dataset_scripts.core.errors import DataError
from evaluators.compare.detectors import compare_detectors, paired_detector_scores
from evaluators.metric_math import tpr_at_fpr
from evaluators.metric_math.resampling import block_indices, percentile_interval


def _data(seed: int = 0, n_neg: int = 300, n_pos: int = 200):
    rng = np.random.default_rng(seed)
    labels = np.r_[np.zeros(n_neg, int), np.ones(n_pos, int)]
    latent = rng.normal(size=labels.size) + 1.5 * labels
    a = np.round(latent + rng.normal(scale=0.5, size=labels.size), 2)  # ties too
    b = latent + rng.normal(scale=1.0, size=labels.size)
    return a, b, labels


def test_paired_bootstrap_equals_the_plain_loop() -> None:
    a, b, labels = _data()
    y = labels.astype(bool)
    rows = compare_detectors(a, b, labels, fprs=(0.01, 0.05), n_boot=300, seed=11)
    drawn = block_indices({"0-human": int((~y).sum()), "1-machine": int(y.sum())}, 300, 11)
    neg_a, pos_a, neg_b, pos_b = a[~y], a[y], b[~y], b[y]
    yy = np.r_[np.zeros((~y).sum(), int), np.ones(y.sum(), int)]
    diffs = {"auroc": [], "tpr@0.01fpr": [], "tpr@0.05fpr": []}
    for k in range(300):
        i, j = drawn["0-human"][k], drawn["1-machine"][k]
        sa, sb = np.r_[neg_a[i], pos_a[j]], np.r_[neg_b[i], pos_b[j]]
        diffs["auroc"].append(roc_auc_score(yy, sa) - roc_auc_score(yy, sb))
        for f in (0.01, 0.05):
            diffs[f"tpr@{f:g}fpr"].append(
                tpr_at_fpr(sa, yy, f)["tpr"] - tpr_at_fpr(sb, yy, f)["tpr"]
            )
    for row in rows:
        expected = np.asarray(diffs[row["metric"]])
        low, high = percentile_interval(expected)
        assert row["ci95"] == pytest.approx([low, high], abs=1e-12), row["metric"]
        share_below = (np.count_nonzero(expected < 0) + np.count_nonzero(expected == 0) / 2) / 300
        share_above = (np.count_nonzero(expected > 0) + np.count_nonzero(expected == 0) / 2) / 300
        assert row["p_value"] == pytest.approx(min(1.0, 2 * min(share_below, share_above)))
    auc_row = rows[0]
    assert auc_row["difference"] == pytest.approx(
        roc_auc_score(labels, a) - roc_auc_score(labels, b)
    )
    assert auc_row["difference"] > 0 and auc_row["ci95"][0] > 0  # A is the less noisy one


def _write_scores(path: Path, ids, labels, **scores) -> Path:
    import pandas as pd

    path.mkdir(parents=True, exist_ok=True)
    frame = pd.DataFrame(
        {"id": ids, "label": labels, **{f"score:{k}": v for k, v in scores.items()}}
    )
    frame.to_csv(path / "scores.csv", index=False)
    return path


def test_two_runs_pair_by_text_id(tmp_path: Path) -> None:
    a, b, labels = _data(1, 80, 60)
    ids = [f"t{i}" for i in range(labels.size)]
    one = _write_scores(tmp_path / "one", ids, labels, det_a=a, det_b=b)
    order = np.random.default_rng(0).permutation(labels.size)
    two = _write_scores(tmp_path / "two", [ids[i] for i in order], labels[order], det_b=b[order])
    sa, sb, y = paired_detector_scores([one], "det_a", "det_b")
    sa2, sb2, y2 = paired_detector_scores([one, two], "det_a", "det_b")
    np.testing.assert_array_equal(sa, sa2)
    np.testing.assert_array_equal(sb, sb2)
    np.testing.assert_array_equal(y, y2)
    with pytest.raises(Exception, match="no scores of detector 'nope'"):
        paired_detector_scores([one], "det_a", "nope")
    bad = _write_scores(tmp_path / "bad", ids[:-1], labels[:-1], det_b=b[:-1])
    with pytest.raises(DataError, match="different held-out texts"):
        paired_detector_scores([one, bad], "det_a", "det_b")


def test_compare_command_on_detections(tmp_path: Path) -> None:
    import json

    from evaluators.cli import cli

    a, b, labels = _data(2, 150, 100)
    run = _write_scores(tmp_path / "run", [f"t{i}" for i in range(labels.size)], labels, x=a, y=b)
    out = tmp_path / "cmp.json"
    result = CliRunner().invoke(
        cli,
        [
            "compare",
            "--detections",
            str(run),
            "--model",
            "x",
            "--model",
            "y",
            "--n-boot",
            "200",
            "--out",
            str(out),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "TPR@" in result.output or "tpr@0.01fpr" in result.output
    payload = json.loads(out.read_text())
    assert [m["metric"] for m in payload["metrics"]] == ["auroc", "tpr@0.01fpr"]
