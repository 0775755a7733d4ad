"""One run service, one result record: ``stylebench run``, ``evaluators.api.run``, the
demo, a Ray worker's job body and the Space's run give byte-identical stable result
records for the same run (timings, timestamps, cache hits, execution and hardware
aside: :meth:`ResultRecord.stable_json`), and every record re-derives its main score from
its per-item data."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from evaluators.records.record import SCHEMA_VERSION, ResultRecord, load_record
from evaluators.run.service import RunConfig, plan

pytestmark = pytest.mark.slow  # the demo run behind every test here takes ~25 s

SPACE_DIR = Path(__file__).resolve().parents[2] / "spaces" / "stylebench"
MODEL = "function-words"  # deterministic, no fit: every route builds the same encoder


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The demo run (its own route) and the folder it built, which every route reads."""
    from evaluators.demo import run_demo

    out = tmp_path_factory.mktemp("demo")
    output = run_demo(out, models=[MODEL], progress=False)
    records = {
        path.stem: load_record(path).stable_json()
        for path in sorted((out / "results").rglob("*.json"))
    }
    return output.dataset_dir, records


def _stable(folder: Path) -> dict[str, str]:
    return {p.stem: load_record(p).stable_json() for p in sorted(folder.rglob("*.json"))}


@pytest.mark.slow
def test_every_route_writes_the_same_record(
    demo: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, from_demo = demo
    assert len(from_demo) == 4  # clustering, all-to-all pairs, order alignment, retrieval

    from evaluators.cli import main

    try:
        main(["run", "--no-progress", "--model", MODEL, "--dataset", str(folder),
              "--out", str(tmp_path / "cli"), "--cache-dir", str(tmp_path / "cache")])  # fmt: skip
    except SystemExit as stop:
        raise AssertionError(f"stylebench run exited with {stop.code}") from None
    assert _stable(tmp_path / "cli") == from_demo

    from evaluators import api

    records = api.run(MODEL, folder)
    assert {r.task: r.stable_json() for r in records} == from_demo

    from evaluators.distributed.ray_runner import Job, job_config, run_job

    specs = plan([str(folder)], RunConfig())
    shipped = job_config(RunConfig(out_dir=tmp_path / "ray"))  # as run_on_ray ships it
    run_job(Job(MODEL, str(folder), tuple(specs)), None, shipped, str(Path.cwd()))
    assert _stable(tmp_path / "ray") == from_demo

    monkeypatch.syspath_prepend(str(SPACE_DIR))
    monkeypatch.setenv("STYLEBENCH_SPACE_HOME", str(tmp_path / "space"))
    from stylebench_space import embedding

    monkeypatch.setattr(embedding, "ensure_demo_dataset", lambda: folder)
    run = embedding.run_embedding(MODEL, [embedding.DEMO_KEY])
    assert {r.task: r.stable_json() for r in run.records} == from_demo
    sys.modules.pop("stylebench_space.embedding", None)


def test_record_round_trip_and_rederivation(demo: tuple[Path, dict[str, str]]) -> None:
    """Each task's record survives to_json/from_json unchanged and its main score equals
    the one re-derived from the stored units (to 1e-12)."""
    _, from_demo = demo
    for task, text in from_demo.items():
        record = ResultRecord.from_json(text)
        assert record.schema_version == SCHEMA_VERSION
        assert record.items is not None, task
        assert record.rederived_main_score() == pytest.approx(record.main_score, abs=1e-12)
        assert ResultRecord.from_json(record.stable_json()).stable_json() == text
        assert record.model.embedding_dim and record.run["seed"] == 42


def test_tampered_items_do_not_rederive(demo: tuple[Path, dict[str, str]]) -> None:
    import json

    from evaluators.records.items import decode_array, encode_array

    _, from_demo = demo
    payload = json.loads(from_demo["retrieval"])
    block = payload["items"]["arrays"]["mrr"]
    values = decode_array(block)
    values[0] = 1.0 - values[0] if values[0] != 0.5 else 0.0
    payload["items"]["arrays"]["mrr"] = encode_array(values)
    record = ResultRecord.from_dict(payload)
    assert abs(record.rederived_main_score() - record.main_score) > 1e-6


def test_version_one_file_is_migrated(tmp_path: Path) -> None:
    """A result as the runner wrote it before the record (no schema_version) reads as
    version 2: run settings from its details, its dataset id by the old rule, and its
    mean scores re-derived from the histograms it kept."""
    import json

    old = {
        "model": {"name": "m", "identity": {"kind": "x"}},
        "dataset": {"name": "steb__STEL_feature", "ref": "/gone/steb__STEL_feature",
                    "config": "order_alignment", "split": "test", "fingerprint": "f"},
        "task": "order_alignment",
        "main_score_name": "distractor_accuracy",
        "main_score": 0.75,
        "metrics": {"distractor_accuracy": 0.75, "accuracy": 0.5},
        "counts": {"n_pairs": 4},
        "embedding": {"texts": 8, "unique_texts": 8, "texts_encoded": 8, "texts_from_cache": 0},
        "timings": {"encode_seconds": 0.1, "evaluation_seconds": 0.1},
        "seed": 42,
        "versions": {"stylebench": "0.1.0"},
        "created_at": "2026-11-01T00:00:00+00:00",
        "details": {"protocol": {"name": "steb", "version": 1}, "sampling": {},
                    "units": {"distractor_accuracy": {"values": [0.5, 1.0], "counts": [2, 2]}}},
    }  # fmt: skip
    path = tmp_path / "m" / "steb__STEL_feature" / "order_alignment.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(old))
    record = load_record(path)
    assert record.migrated_from == 1 and record.schema_version == SCHEMA_VERSION
    assert record.dataset_id == "steb/STEL_feature"
    assert record.run["protocol"] == {"name": "steb", "version": 1} and record.run["seed"] == 42
    assert record.rederived_main_score() == 0.75


def test_unknown_schema_version_is_refused() -> None:
    from dataset_scripts.core.errors import DataError

    with pytest.raises(DataError, match="schema_version 99"):
        ResultRecord.from_dict({"schema_version": 99}, "x.json")
