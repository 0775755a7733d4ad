"""A benchmark run on Ray: a local 2-CPU cluster started by the test (loopback, private
temp dir, shut down at the end) runs (model, dataset) tasks through
``stylebench run --ray auto``; the result JSONs equal a serial run's except timings,
a partial run resumes, and the run shows progress."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.scaling.results import result_payloads
from tests.scaling.small_datasets import build_small

pytestmark = [pytest.mark.corpora, pytest.mark.slow]

ray = pytest.importorskip("ray")

MODELS = ("function-words", "random")  # cheap encoders built by the workers from the spec


@pytest.fixture(scope="module")
def cluster():
    temp = tempfile.mkdtemp(prefix="sbray")  # short: Ray's socket paths must stay < 108 bytes
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _temp_dir=temp,
        _node_ip_address="127.0.0.1",
    )
    yield
    ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture(scope="module")
def datasets(corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return build_small(tmp_path_factory.mktemp("built"), corpora, n=3)[
        ::2
    ]  # clustering+pairs, order alignment


def _run(argv: list[str]) -> None:
    from evaluators.cli import main

    try:
        main(["run", "--no-progress", *argv])
    except SystemExit as stop:  # main() exits only on errors
        raise AssertionError(f"stylebench run exited with {stop.code}") from None


@pytest.mark.slow
def test_ray_run_equals_serial_and_resumes(
    cluster, datasets: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = [arg for ref in datasets for arg in ("--dataset", ref)]
    for model in MODELS:  # the serial reference: one ordinary local run per model
        _run(
            [
                "--model",
                model,
                *common,
                "--out",
                str(tmp_path / "serial"),
                "--cache-dir",
                str(tmp_path / "cache_serial"),
            ]
        )
    models = [arg for m in MODELS for arg in ("--model", m)]
    _run(
        [
            *models,
            *common,
            "--out",
            str(tmp_path / "ray"),
            "--cache-dir",
            str(tmp_path / "cache_ray"),
            "--ray",
            "auto",
        ]
    )
    serial, distributed = result_payloads(tmp_path / "serial"), result_payloads(tmp_path / "ray")
    assert len(serial) == 2 * 3 and serial.keys() == distributed.keys()
    for name, payload in serial.items():
        assert distributed[name] == payload, name
    # resume: drop two results; a rerun recomputes exactly those, the rest is read back
    victims = sorted((tmp_path / "ray").rglob("*.json"))[:2]
    for victim in victims:
        victim.unlink()
    capsys.readouterr()
    _run(
        [
            *models,
            *common,
            "--out",
            str(tmp_path / "ray"),
            "--cache-dir",
            str(tmp_path / "cache_ray"),
            "--ray",
            "auto",
        ]
    )
    printed = capsys.readouterr().out
    assert printed.count("reused (resume)") == 4 and printed.count("encoded 0/") == 2
    assert result_payloads(tmp_path / "ray").keys() == serial.keys()
    assert "4 Ray jobs" in printed  # 2 models x 2 datasets


def test_ray_progress_and_failure_report(
    cluster, datasets: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dataset_scripts.core.errors import StylebenchError
    from evaluators.distributed import run_on_ray
    from evaluators.run.runner import plan_tasks
    from evaluators.run.service import RunConfig

    specs = plan_tasks(datasets[:1])
    records = run_on_ray(["random"], specs, RunConfig(out_dir=tmp_path / "out"), address="auto")
    assert len(records["random"]) == len(specs)
    assert "ray jobs (model x dataset): 100%" in capsys.readouterr().err
    with pytest.raises(StylebenchError, match=r"1 of 1 Ray jobs failed.*no-such-encoder"):
        run_on_ray(
            ["no-such-encoder"],
            specs,
            RunConfig(out_dir=tmp_path / "bad", progress=False),
            address="auto",
        )


@pytest.mark.slow
def test_fitted_encoder_is_fitted_once_and_shipped(
    cluster, datasets: list[str], tmp_path: Path
) -> None:
    """A TF-IDF fitted in the driver (char n-grams: no spaCy, fast) travels to the tasks
    as it is: same identity, same results as the serial run with that encoder."""
    from evaluators.distributed import run_on_ray
    from evaluators.encoders import get_encoder
    from evaluators.run.fit_corpus import fit_if_needed
    from evaluators.run.runner import Runner, plan_tasks
    from evaluators.run.service import RunConfig

    specs = plan_tasks(datasets)
    encoder = get_encoder("tfidf-ngrams", components=("char",))
    assert fit_if_needed(encoder, specs) and not fit_if_needed(encoder, specs)
    Runner(encoder, "tfidf-char", out_dir=tmp_path / "serial", progress=False).run(specs)
    run_on_ray(
        ["tfidf-char"],
        specs,
        RunConfig(out_dir=tmp_path / "ray", progress=False),
        address="auto",
        encoders={"tfidf-char": encoder},
    )
    serial, distributed = result_payloads(tmp_path / "serial"), result_payloads(tmp_path / "ray")
    assert len(serial) == 3 and serial == distributed
    assert next(iter(serial.values()))["model"]["identity"] == encoder.identity()


def test_jobs_once_per_dataset_with_a_cost(datasets: list[str]) -> None:
    """A dataset named twice is one job per model, each task once; jobs carry a size
    estimate (the largest is submitted first), 0 for what is not a local folder."""
    from evaluators.distributed.ray_runner import Job, _job_fields, job_cost, plan_jobs
    from evaluators.run.runner import plan_tasks

    specs = plan_tasks([*datasets, *datasets])
    jobs = plan_jobs(["random", "function-words"], specs)
    assert [(j.model, j.dataset) for j in jobs] == [
        (m, d) for m in ("random", "function-words") for d in datasets
    ]
    assert sum(len(j.specs) for j in jobs) == len(specs)  # 2 models x each task once
    costs = [job_cost(j) for j in jobs[: len(datasets)]]
    assert all(cost > 1000 for cost in costs)
    assert job_cost(Job("random", "steb/not-a-folder", jobs[0].specs)) == 0
    model, dataset, tasks = _job_fields(jobs[0])
    assert (model, dataset) == ("random", datasets[0])
    assert tasks == [(s.task_type, s.config, s.split) for s in jobs[0].specs]


def test_worker_job_imports_only_what_its_encoder_needs(
    datasets: list[str], tmp_path: Path
) -> None:
    """The body of a Ray task, run in a fresh interpreter as a cold worker runs it: its
    arguments unpickle without importing stylebench (the run's config travels as plain
    data), and a function-words job loads no torch / transformers /
    sentence-transformers / ray."""
    import os
    import pickle
    import subprocess
    import sys

    from evaluators.distributed.ray_runner import job_config
    from evaluators.run.service import RunConfig

    shipped = pickle.dumps(job_config(RunConfig(chunk=True, batch_size=32, out_dir=tmp_path)))
    code = f"""
import json, pickle, sys
config = pickle.loads({shipped!r})  # as a Ray worker receives it
assert not [m for m in sys.modules if m.split(".")[0] in ("evaluators", "dataset_scripts")]
from evaluators.distributed.ray_runner import run_job
assert "evaluators.run.runner" not in sys.modules  # nothing heavy before the env is set
records = run_job(("function-words", {datasets[-1]!r}, [("order_alignment", "style_sequences", None)]),
                  None, config, ".")
heavy = ("torch", "transformers", "sentence_transformers", "ray", "spacy")
print(json.dumps([len(records), sorted(m for m in heavy if m in sys.modules)]))
"""
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [1, []]


def test_episodes_and_submetrics_reach_the_ray_tasks(
    cluster, datasets: list[str], tmp_path: Path
) -> None:
    """``--episode-size/--per-class/--submetric`` with ``--ray``: the result JSONs equal
    a serial run's (PASTEL's clustering and ASSET's order alignment pool episodes and
    carry the sub-metric); episodes that apply to none of the planned
    tasks stop the run before any job, but a job whose own tasks all refuse them runs
    them as built, as those tasks do in a local run with others that take them."""
    from dataset_scripts.core.errors import DataError
    from evaluators.distributed import run_on_ray
    from evaluators.distributed.ray_runner import _job_fields, job_config, plan_jobs, run_job
    from evaluators.run.runner import plan_tasks
    from evaluators.run.service import RunConfig
    from evaluators.tasks.episodes import Sampling

    common = [arg for ref in datasets for arg in ("--dataset", ref)]
    episodes = ["--episode-size", "4", "--per-class", "10", "--submetric", "young=age_0,age_1"]
    args = ["--model", "random", *common, "--tasks", "clustering,order_alignment", *episodes]
    # each run its own empty embedding cache: a result records how many texts it encoded
    # and how many it read from the cache, so a shared cache (the user's default one,
    # warm or cold) would make the two runs differ in ``embedding`` only by run order
    for name in ("serial", "ray"):
        where = ["--out", str(tmp_path / name), "--cache-dir", str(tmp_path / f"cache_{name}")]
        _run([*args, *where, *(["--ray", "auto"] if name == "ray" else [])])
    serial, distributed = result_payloads(tmp_path / "serial"), result_payloads(tmp_path / "ray")
    assert len(serial) == 2 and serial == distributed  # PASTEL (age) + ASSET
    for payload in serial.values():  # both runs encoded every text themselves
        assert payload["embedding"]["texts_from_cache"] == 0, payload["embedding"]
    details = {name.split("/")[-1]: payload["details"] for name, payload in serial.items()}
    for task in ("clustering.json", "order_alignment.json"):
        assert details[task]["sampling"]["episodes_per_class"] == 10, task
    assert "young" in details["clustering.json"]["submetrics"]
    tasks = ("clustering", "order_alignment")
    specs = plan_tasks(datasets, list(tasks))
    with pytest.raises(DataError, match="apply to none of the tasks"):
        run_on_ray(  # the datasets planned (and checked) by the run service
            ["random"],
            datasets,
            RunConfig(tasks=tasks, sampling=Sampling(-1), out_dir=tmp_path / "none"),
            address="auto",
        )
    assert not (tmp_path / "none").exists()
    (asset,) = [job for job in plan_jobs(["random"], specs) if "ASSET" in job.dataset]
    shipped = job_config(
        RunConfig(chunk=True, batch_size=32, sampling=Sampling(-1), out_dir=tmp_path / "job")
    )
    (record,) = run_job(_job_fields(asset), None, shipped, ".")
    assert "retrieval" in record.details["sampling"]["not_applied"]
