"""RunConfig is the one currency of a run (issue 43, item 1): a Ray task receives every
field of it (a new field that does not travel fails here), each run checks its task
names and episodes once whichever route it takes, the Space fits TF-IDF on the
evaluated texts as every other route does, and a record's ``execution.batch_size`` is
the encoder's batch size, not the cache's commit size."""

from __future__ import annotations

import pickle
import sys
from collections.abc import Callable
from dataclasses import MISSING, fields, replace
from pathlib import Path
from typing import Any

import pytest

from evaluators.run.config import COMMIT_EVERY, RunConfig
from evaluators.tasks.episodes import Sampling
from tests.call_counts import counted

SPACE_DIR = Path(__file__).resolve().parents[2] / "spaces" / "stylebench"

#: a value other than the default for every RunConfig field; a field added to RunConfig
#: must be added here, and then reach the worker, or the first test fails
OTHER_VALUES: dict[str, Any] = {
    "seed": 7,
    "protocol": "steb-strict",
    "sampling": Sampling(4, 10),
    "submetrics": {"young": ["age_0", "age_1"]},
    "tasks": ("clustering", "order_alignment"),
    "chunk": "regex",
    "batch_size": 8,
    "device": "cpu",
    "devices": ("cpu", "cpu"),
    "fit_corpus": Path("corpus.txt"),
    "cache_dir": Path("cache"),
    "out_dir": Path("out"),
    "resume": True,
    "progress": False,
    "commit_every": 64,
    "backend": "onnx",
    "precision": "int8",
    "token_budget": 4096,
}


def _default(field: Any) -> Any:
    return field.default_factory() if field.default is MISSING else field.default


def test_every_field_reaches_the_ray_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``run_on_ray`` ships (:func:`job_config`, pickled as Ray sends it) becomes,
    in the task's body, the run's config field for field (progress aside: the driver
    draws the bar), and the encoder is built with all of its encoder settings."""
    from evaluators.distributed import ray_runner
    from evaluators.run import service as run_service

    names = [f.name for f in fields(RunConfig)]
    assert sorted(OTHER_VALUES) == sorted(names), "give a new RunConfig field a value here"
    for field in fields(RunConfig):
        assert OTHER_VALUES[field.name] != _default(field), field.name
    config = RunConfig(**OTHER_VALUES)
    seen: dict[str, Any] = {}

    class Reached(Exception):
        pass

    def worker_encoder(model: str, settings: dict[str, Any]) -> object:
        seen["settings"] = settings
        return object()

    def runner_for(encoder: Any, name: str, worker_config: RunConfig) -> Any:
        seen["config"] = worker_config
        raise Reached

    monkeypatch.setattr(ray_runner, "_worker_encoder", worker_encoder)
    monkeypatch.setattr(run_service, "runner_for", runner_for)
    shipped = pickle.loads(pickle.dumps(ray_runner.job_config(config)))
    with pytest.raises(Reached):
        ray_runner.run_job(("m", "d", [("clustering", "labelled_texts", None)]), None, shipped, ".")
    assert seen["config"] == replace(config, progress=False)
    for name in names:  # each field itself (a field compare=False would escape ==)
        assert getattr(seen["config"], name) == getattr(config, name) or name == "progress"
    assert seen["settings"] == config.encoder_settings()
    assert {"backend", "precision", "token_budget", "batch_size", "devices"} <= set(
        seen["settings"]
    )
    with pytest.raises(ValueError, match=r"missing \['token_budget'\]"):
        RunConfig.from_plain({k: v for k, v in shipped.items() if k != "token_budget"})


def test_the_default_config_travels_too() -> None:
    from evaluators.distributed.ray_runner import job_config

    plain = pickle.loads(pickle.dumps(job_config(RunConfig())))
    assert RunConfig.from_plain(plain) == RunConfig(progress=False)
    assert RunConfig().commit_every == COMMIT_EVERY


# ------------------------------------------------------------------- checks, once


TEXTS = [
    f"{opening} {subject} {verb} the {thing} {ending}"
    for opening in ("well,", "so", "honestly", "look:")
    for subject, verb in (("she", "painted"), ("we", "sold"), ("they", "fixed"))
    for thing, ending in (("fence", "today."), ("boat", "!!"), ("roof", "again?"))
]  # 36 texts, 4 styles of opening


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from evaluators.api import Dataset

    labels = [text.split()[0] for text in TEXTS]
    out = tmp_path_factory.mktemp("rc") / "openings"
    return Dataset.from_texts(TEXTS, labels, name="openings").save(out)


def _checks() -> tuple[Callable[..., Any], Callable[..., Any]]:
    from evaluators.run.runner import check_sampling
    from evaluators.tasks import check_tasks

    return check_tasks, check_sampling


def test_cli_run_checks_once(folder: Path, tmp_path: Path) -> None:
    from evaluators.cli import main

    argv = ["run", "--no-progress", "--model", "function-words", "--dataset", str(folder),
            "--out", str(tmp_path / "out"), "--no-cache", "--tasks", "clustering,all_to_all_pairs",
            "--episode-size", "2"]  # fmt: skip
    with counted(*_checks()) as calls:
        try:
            main(argv)
        except SystemExit as stop:
            raise AssertionError(f"stylebench run exited with {stop.code}") from None
    assert calls == {"check_tasks": 1, "check_sampling": 1}
    assert len(list((tmp_path / "out").rglob("*.json"))) == 2


def test_api_routes_check_once(folder: Path) -> None:
    from evaluators import api

    memory = api.Dataset.from_texts(TEXTS, [t.split()[0] for t in TEXTS], name="mem")
    for call in (
        lambda: api.evaluate("function-words", folder, ["clustering"], episode_size=2),
        lambda: api.evaluate("function-words", memory, ["clustering"], episode_size=2),
        lambda: api.run("function-words", folder, ["clustering", "all_to_all_pairs"]),
    ):
        with counted(*_checks()) as calls:
            assert call()
        assert calls == {"check_tasks": 1, "check_sampling": 1}


@pytest.fixture()
def space(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(SPACE_DIR))
    monkeypatch.setenv("STYLEBENCH_SPACE_HOME", str(tmp_path / "space"))
    from stylebench_space import embedding

    monkeypatch.setattr(embedding, "ensure_demo_dataset", lambda: folder)
    yield embedding
    sys.modules.pop("stylebench_space.embedding", None)


def test_space_run_checks_once(space: Any) -> None:
    with counted(*_checks()) as calls:
        run = space.run_embedding("function-words", [space.DEMO_KEY])
    assert len(run.records) == 2 and not run.skipped  # clustering, all-to-all pairs
    assert calls == {"check_tasks": 1, "check_sampling": 1}
    with pytest.raises(space.UserError, match="unknown task 'clusterin'"):
        space.run_embedding("function-words", [space.DEMO_KEY], tasks=["clusterin"])


@pytest.mark.slow
def test_space_fits_tfidf_on_the_evaluated_texts(space: Any, folder: Path) -> None:
    """The Space's TF-IDF records are the API's (the same fit on the same texts), not a
    fit on the demo's sentences."""
    from evaluators import api

    expected = {r.task: r.stable_json() for r in api.run("tfidf-ngrams", folder)}
    run = space.run_embedding("tfidf-ngrams", [space.DEMO_KEY])
    assert {r.task: r.stable_json() for r in run.records} == expected
    vocabulary = run.records[0].model.identity
    assert vocabulary == api.run("tfidf-ngrams", folder)[0].model.identity


# ------------------------------------------------------------ the record's batch size


class _Batched:
    """A toy encoder with its own batch size that counts how many texts each call gets."""

    batch_size = 5

    def __init__(self) -> None:
        self.calls: list[int] = []

    def identity(self) -> dict[str, Any]:
        return {"name": "batched-toy"}

    def encode(self, texts: list[str]) -> Any:
        import numpy as np

        self.calls.append(len(texts))
        return np.array([[len(t), t.count(" ") + 1.0, t.count("!")] for t in texts], np.float32)


def test_records_store_the_encode_batch_size_not_the_commit_size(
    folder: Path, tmp_path: Path
) -> None:
    from evaluators.records.record import load_record
    from evaluators.run import service as run_service

    encoder = _Batched()
    config = RunConfig(out_dir=tmp_path / "out", progress=False, commit_every=16)
    run_service.run([encoder], [str(folder)], config)
    assert max(encoder.calls) == 16  # the Runner hands over commit_every texts at a time
    records = [load_record(p) for p in sorted((tmp_path / "out").rglob("*.json"))]
    assert records and {r.execution["batch_size"] for r in records} == {5}
    plain = run_service.runner_for(object(), "x", RunConfig(batch_size=12))
    assert plain.encode_batch_size == 12 and plain.commit_every == COMMIT_EVERY
    assert run_service.runner_for(object(), "x", RunConfig()).encode_batch_size is None
