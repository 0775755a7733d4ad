"""stylebench compare / evaluators.compare on constructed records: both result layouts,
the benchmark arithmetic, Holm, refusals (different rows, no per-unit data, unknown
model), rank intervals and the leaderboard's rank column."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from dataset_scripts.core.errors import DataError, StylebenchError, UnknownNameError
from evaluators.cli import cli
from evaluators.compare.api import compare_results, rank_results
from tests.compare import helpers as h

PAIRS = "steb/pan13_authorship_verification_english_test"
OA = "steb/STEL_feature"
OA2 = "steb/ASSET"
CLUSTER = "steb/blog_gender"


def _models(rng: np.random.Generator, quality: dict[str, float]) -> dict[str, list]:
    """Per model, records on 4 datasets of 3 task types; higher quality = less noise."""
    labels = np.repeat([0, 1], 150)
    latent = rng.normal(size=300) + labels
    p = rng.uniform(0.2, 0.8, 400)
    p2 = rng.uniform(0.3, 0.9, 200)
    classes = np.repeat(np.arange(4), 50)
    out = {}
    for model, q in quality.items():
        keep = rng.random(classes.size) < q
        out[model] = [
            h.predefined(model, PAIRS, latent + rng.normal(scale=3.0 - 3 * q, size=300), labels),
            h.mean_units(model, OA, "order_alignment", (rng.random(400) < p * q).astype(float)),
            h.mean_units(model, OA2, "order_alignment", (rng.random(200) < p2 * q).astype(float)),
            h.clustering(model, CLUSTER, np.where(keep, classes, rng.integers(0, 4, 200)), classes),
        ]
    return out


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import dataclasses

    root = tmp_path_factory.mktemp("runs")
    models = _models(np.random.default_rng(5), {"good": 0.9, "bad": 0.5, "near": 0.88})
    # twin: good's very units under another name (ties in every replicate)
    models["twin"] = [
        dataclasses.replace(r, model=dataclasses.replace(r.model, name="twin"))
        for r in models["good"]
    ]
    for records in models.values():
        for rec in records:
            h.write(root, rec)
    return root


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output + (str(result.exception) if result.exception else "")


def test_compare_command_table_json_and_benchmark(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "cmp.json"
    code, text = _invoke(
        "compare",
        "--results",
        str(run_dir),
        "--model",
        "good",
        "--model",
        "bad",
        "--n-boot",
        "300",
        "--out",
        str(out),
    )
    assert code == 0, text
    assert "Holm-corrected" in text and "benchmark (shared datasets, 4 datasets" in text
    payload = json.loads(out.read_text())
    rows = payload["datasets"]
    assert [(r["dataset"], r["task"]) for r in rows] == sorted(
        [
            (PAIRS, "predefined_pairs"),
            (OA, "order_alignment"),
            (OA2, "order_alignment"),
            (CLUSTER, "clustering"),
        ]
    )
    for r in rows:
        assert r["difference"] == pytest.approx(r["score_a"] - r["score_b"])
        assert r["ci95"][0] <= r["difference"] <= r["ci95"][1]
        assert (r["p_value"] < 0.05) == (r["ci95"][0] > 0 or r["ci95"][1] < 0)
        assert r["outcome"] == "win"  # good is much better everywhere
    assert payload["holm"]["win"] == 4
    bench = payload["benchmark"]
    by_task: dict[str, list[float]] = {}
    for r in rows:
        by_task.setdefault(r["task"], []).append(r["difference"])
    expected = np.mean([np.mean(v) for v in by_task.values()])  # mean over task types
    assert bench["difference"] == pytest.approx(expected)
    assert bench["ci95"][0] > 0 and bench["n_datasets"] == 4


def test_twins_tie_and_ranks(run_dir: Path) -> None:
    comparison = compare_results(run_dir, "good", "twin", n_boot=200)
    assert comparison.tally == {"win": 0, "tie": 4, "loss": 0}
    assert all(d.difference == 0.0 and d.p_value == 1.0 for d in comparison.datasets)
    assert comparison.benchmark["ci95"] == [0.0, 0.0]
    ranks, info = rank_results(run_dir, ["good", "twin", "bad"], n_boot=300)
    by = {r.model: r for r in ranks}
    assert (by["good"].rank, by["good"].low, by["good"].high) == (1, 1, 1)
    assert (by["twin"].rank, by["twin"].low, by["twin"].high) == (1, 1, 1)
    assert (by["bad"].rank, by["bad"].low, by["bad"].high) == (3, 3, 3)
    assert by["twin"].tied_with_leader and not by["bad"].tied_with_leader
    assert info["n_datasets"] == 4
    # near (slightly noisier than good) is not separated from good, and bad is last
    ranks, _ = rank_results(run_dir, ["good", "near", "bad"], n_boot=300)
    by = {r.model: r for r in ranks}
    assert by["near"].tied_with_leader and by["good"].tied_with_leader
    assert by["bad"].low == 3


def test_repository_layout_and_folder_names(tmp_path: Path) -> None:
    repo = tmp_path / "results"
    records = _models(np.random.default_rng(1), {"org/a": 0.9, "org/b": 0.6})
    for model, recs in records.items():
        for rec in recs:
            folder = repo / model.replace("/", "__") / "rev1" / rec.dataset.id.replace("/", "__")
            h.write_record_at(folder / f"{rec.task}.json", rec)
    meta = {"name": "Org/A-public", "run_name": "org/a", "revision": "rev1"}
    (repo / "org__a" / "rev1" / "model_meta.json").write_text(json.dumps(meta))
    (repo / "org__a" / "rev1" / "run_settings.json").write_text(json.dumps({"seed": 42}))
    by_name = compare_results(repo, "org/a", "org/b", n_boot=100)
    by_folder = compare_results(repo, "org__a", "org__b", n_boot=100)
    by_public = compare_results(repo.parent, "Org/A-public", "org/b", n_boot=100)  # work tree
    assert [d.difference for d in by_name.datasets] == [d.difference for d in by_folder.datasets]
    assert [d.difference for d in by_name.datasets] == [d.difference for d in by_public.datasets]
    assert len(by_name.datasets) == 4
    with pytest.raises(UnknownNameError, match="the results hold: org/a, org/b"):
        compare_results(repo, "org/a", "org/c")


def test_different_rows_are_refused(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    a = h.mean_units("a", OA, "order_alignment", rng.random(50))
    b = h.mean_units("b", OA, "order_alignment", rng.random(50), fingerprint="rows-2")
    for rec in (a, b):
        h.write(tmp_path, rec)
    with pytest.raises(DataError, match=r"computed on different rows.*rows-1.*rows-2"):
        compare_results(tmp_path, "a", "b")
    code, text = _invoke("compare", "--results", str(tmp_path), "--model", "a", "--model", "b")
    assert code != 0 and "different rows" in text


def test_results_without_units_are_skipped(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    for model in ("a", "b"):
        h.write(tmp_path, h.mean_units(model, OA, "order_alignment", rng.random(60)))
        old = tmp_path / model / "old__set" / "clustering.json"
        old.parent.mkdir(parents=True)
        old.write_text(
            json.dumps(
                {  # a version-1 record: no per-unit data
                    "model": {"name": model},
                    "dataset": {"name": "old/set", "ref": "old/set"},
                    "task": "clustering",
                    "main_score_name": "v_measure",
                    "main_score": 0.3,
                    "metrics": {"v_measure": 0.3},
                    "seed": 42,
                    "details": {},
                }
            )
        )
    comparison = compare_results(tmp_path, "a", "b", n_boot=100)
    assert [d.dataset for d in comparison.datasets] == [OA]
    assert comparison.skipped[0]["dataset"] == "old/set"
    assert "schema version 1" in comparison.skipped[0]["reason"]


def test_benchmark_units_and_its_aggregate(run_dir: Path) -> None:
    from evaluators.benchmarks import Benchmark, get_benchmark

    comparison = compare_results(run_dir, "good", "bad", benchmark="operational", n_boot=200)
    assert comparison.benchmark["name"] == get_benchmark("operational").key
    keys = [(d.dataset, d.task) for d in comparison.datasets]
    assert all(get_benchmark("operational").contains(*k) for k in keys) and len(keys) == 4
    # the aggregate is Benchmark.aggregate's rule (mean over task types of the mean over
    # units), here on a benchmark of exactly these units
    mine = Benchmark(
        "T",
        "v1",
        tuple(sorted({d for d, _ in keys})),
        ("predefined_pairs", "order_alignment", "clustering"),
        dataset_tasks=tuple((d, (t,)) for d, t in sorted(keys)),
    )
    for side in ("a", "b"):
        values = {(d.dataset, d.task): getattr(d, f"score_{side}") for d in comparison.datasets}
        assert comparison.benchmark[f"score_{side}"] == pytest.approx(mine.aggregate(values).value)
    with pytest.raises(StylebenchError, match="share no"):
        compare_results(run_dir, "good", "bad", benchmark="multilingual")


def test_leaderboard_rank_column(run_dir: Path, tmp_path: Path) -> None:
    code, text = _invoke(
        "leaderboard",
        "--results",
        str(run_dir),
        "--no-paper",
        "--view",
        "operational",
        "--n-boot",
        "200",
        "--out",
        str(tmp_path / "board"),
    )
    assert code == 0, text
    assert "rank (95%)" in text
    md = (tmp_path / "board" / "steb_operational_leaderboard.md").read_text()
    assert "Rank (95%)" in md and "tied" in md
    import csv

    rows = {
        r["model"]: r
        for r in csv.DictReader((tmp_path / "board" / "steb_operational_leaderboard.csv").open())
    }
    assert rows["bad"]["rank"] == "4" and rows["bad"]["rank_tied"] == "False"
    assert {rows["good"]["rank_tied"], rows["twin"]["rank_tied"]} == {"True"}


def test_python_api(run_dir: Path) -> None:
    from evaluators.api import compare

    comparison = compare(run_dir, "good", "bad", n_boot=100)
    assert comparison.to_dict()["holm"]["win"] == 4
