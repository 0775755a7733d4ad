"""End to end on real data: STEL (both STEB configs) built from ../shared/corpora, run with
the function-word encoder through the embed-once runner, scored and placed on the board."""

from __future__ import annotations

from pathlib import Path

import pytest

from dataset_scripts.build import build_dataset
from dataset_scripts.registry import get_dataset
from evaluators.encoders import get_encoder
from evaluators.leaderboard import build_leaderboard, export
from evaluators.run.runner import Runner, plan_tasks
from evaluators.steb_scores.results import load_results
from evaluators.steb_scores.summary import summarize

pytestmark = [pytest.mark.corpora, pytest.mark.slow]


def test_stel_function_words_end_to_end(corpora: Path, tmp_path: Path) -> None:
    folders = []
    for hub_id in ("steb/STEL_feature", "steb/STEL_register"):
        folder, _ = build_dataset(
            get_dataset(hub_id), corpora / "STEL", tmp_path / hub_id.replace("/", "__")
        )
        folders.append(str(folder))
    specs = plan_tasks(folders)
    assert [s.task_type for s in specs] == ["order_alignment", "order_alignment"]
    out, cache = tmp_path / "results", tmp_path / "cache"
    runner = Runner(
        get_encoder("function-words"), "fw", cache_dir=cache, out_dir=out, progress=False
    )
    records = runner.run(specs)
    # a second run with a warm cache encodes nothing
    again = Runner(
        get_encoder("function-words"), "fw", cache_dir=cache, out_dir=out, progress=False
    )
    warm = again.run(specs)
    assert len(warm) == len(specs) and all(r.embedding["texts_encoded"] == 0 for r in warm)

    for record in records:  # the evaluator's per-pair units average to its metrics
        for metric, hist in record.details["units"].items():
            mean = sum(v * c for v, c in zip(hist["values"], hist["counts"], strict=True))
            assert mean / sum(hist["counts"]) == pytest.approx(record.metrics[metric])
            assert sum(hist["counts"]) == record.counts["n_pairs"]

    scores = load_results([out])
    assert {s.dataset for s in scores} == {"steb/STEL_feature", "steb/STEL_register"}
    by_ds = {r.dataset.name.replace("__", "/"): r.metrics for r in records}
    summary = summarize(scores, n_boot=200, seed=42)
    ms = summary.models["fw"]
    assert ms.coverage == "2 of 96" and not ms.comparable
    feature, register = by_ds["steb/STEL_feature"], by_ds["steb/STEL_register"]
    oa = (feature["distractor_accuracy"] + register["distractor_accuracy"]) / 2
    op = ms.views["operational"]
    assert op.columns["order_alignment"] == pytest.approx(oa)
    assert op.overall == pytest.approx(oa) and not op.complete
    de = ms.views["definitional"].columns
    assert de["register"] == pytest.approx(register["accuracy"])
    assert de["linguistic_features"] == pytest.approx(feature["accuracy"])
    assert de["content_independence"] == pytest.approx(oa)
    assert de["average"] == pytest.approx((register["accuracy"] + feature["accuracy"] + oa) / 3)
    lo, hi = ms.views["definitional"].ci["content_independence"]
    assert lo <= oa <= hi and hi > lo  # pairs resampled within each dataset
    for d in ms.datasets:  # per-dataset CIs from the evaluator's per-pair units
        assert d.n_units == {"steb/STEL_feature": 14850, "steb/STEL_register": 38220}[d.dataset]
        assert d.ci is not None and d.ci[0] <= d.value <= d.ci[1]
    paths = export(build_leaderboard("definitional", summary), tmp_path / "board")
    assert paths and all(p.stat().st_size > 0 for p in paths.values())
