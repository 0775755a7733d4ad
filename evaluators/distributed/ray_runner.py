"""``stylebench run --ray <address|auto|local>``: one Ray task per (model, dataset).

Each task runs the ordinary embed-once :class:`~evaluators.run.runner.Runner` on one
dataset's tasks for one model, so it writes exactly the result JSONs a local run writes
and fills the same embedding cache. The driver only plans, ships, waits and reports.

* Storage: result JSONs are written by the tasks into ``--out``, which must be the same
  path on every node (a shared filesystem: NFS, Lustre, GPFS on a Slurm cluster); on one
  machine that is just a folder. Each task's files are written atomically (temporary
  file + rename). The driver checks that every reported file is visible to it and says
  so when ``--out`` is not shared. The embedding cache (``--cache-dir``) is SQLite: keep
  it on node-local disk (SQLite's WAL journal is not safe on network filesystems); each
  node then caches what it embedded, and results never depend on the cache.
* Relative paths (datasets, ``--out``, ``--cache-dir``) are resolved against the
  driver's working directory, which tasks enter when it exists on their node.
* Resources: ``num_cpus`` / ``num_gpus`` per task (``--ray-cpus``, ``--ray-gpus``);
  a GPU task sees only its GPU(s) (``CUDA_VISIBLE_DEVICES``). Worker processes are
  reused across tasks (``max_calls=0``) and keep the last model loaded, so a model is
  loaded once per worker, not once per dataset.
* Encoders that are fitted on the evaluated texts (TF-IDF) are fitted once by the
  driver on the same corpus as a local run, then shipped to the tasks; all others are
  built by each worker from their spec.
* Resume: tasks run with the runner's resume rule (a result of the same model identity,
  seed, data and stylebench version is read back), so rerunning a partial run only
  computes what is missing.
* Progress: one bar over jobs; failures of single jobs do not stop the others and are
  reported together at the end.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.url_credentials import redact
from evaluators.distributed.reachability import JOIN_SECONDS, check_reachable

if TYPE_CHECKING:  # workers import the heavy modules only after setting the environment
    from evaluators.records.record import ResultRecord
    from evaluators.run.config import RunConfig
    from evaluators.run.runner import TaskSpec

# environment the workers need to behave like the driver (offline hub, caches)
_FORWARDED_ENV = (
    "HF_HOME",
    "HF_HUB_OFFLINE",
    "HF_DATASETS_OFFLINE",
    "TRANSFORMERS_OFFLINE",
    "HF_DATASETS_CACHE",
    "HF_HUB_DISABLE_TELEMETRY",
    "TOKENIZERS_PARALLELISM",
    "STYLEBENCH_CACHE",
    "OPENAI_API_KEY",
)
_WORKER_ENCODER: dict[str, Any] = {}  # one loaded encoder per worker process


@dataclass(frozen=True)
class Job:
    """One Ray task: every requested task of one dataset for one model."""

    model: str
    dataset: str
    specs: tuple[TaskSpec, ...]


def plan_jobs(models: Sequence[str], specs: Sequence[TaskSpec]) -> list[Job]:
    """(model, dataset) jobs in model order, datasets in plan order; a task planned
    twice (the same dataset named twice) is one task, so one result."""
    by_dataset: dict[str, list[TaskSpec]] = defaultdict(list)
    for spec in dict.fromkeys(specs):
        by_dataset[spec.dataset].append(spec)
    return [Job(m, ref, tuple(group)) for m in models for ref, group in by_dataset.items()]


def job_cost(job: Job) -> int:
    """Estimated work of a job: the uncompressed bytes of its configs' Parquet files
    (read from the files' footers), 0 where the dataset is not a local folder. Jobs
    are submitted largest first, so the last job to finish is a small one."""
    folder = Path(job.dataset)
    if not folder.is_dir():
        return 0
    import pyarrow.parquet as pq

    total = 0
    for config in dict.fromkeys(spec.config for spec in job.specs):
        for path in sorted((folder / "data" / config).rglob("*.parquet")):
            meta = pq.ParquetFile(path).metadata
            total += sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    return total


def _job_fields(job: Job) -> tuple[str, str, list[tuple[str, str, str | None]]]:
    """A job as plain data: unpickling it in a worker imports nothing of stylebench,
    so the forwarded environment is in place before the first import."""
    return job.model, job.dataset, [(s.task_type, s.config, s.split) for s in job.specs]


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise StylebenchError(
            "--ray needs Ray: `pip install 'stylebench[ray]'` on the driver and every node"
        ) from None
    return ray


def connect(address: str) -> Any:
    """Join the cluster at ``address`` (``auto``: the one started on this node with
    ``ray start``; ``host:port`` or ``ray://host:10001``) or, for ``local``, start a
    private single-node cluster. An already initialised Ray session is reused. A
    ``host:port`` is checked first, by the clock (:func:`check_reachable`), before Ray
    is imported."""
    loaded = sys.modules.get("ray")
    if loaded is not None and loaded.is_initialized():
        return loaded
    check_reachable(address, JOIN_SECONDS)  # Ray itself retries an unreachable address forever
    ray = _import_ray()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    try:
        if address == "local":
            ray.init(**kwargs)
        else:
            ray.init(address=address, **kwargs)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise StylebenchError(join_failure_message(address, error)) from None
    return ray


def join_failure_message(address: str, error: BaseException) -> str:
    """Why ``ray.init`` could not join ``address``, and what to do. ``ray start``
    enables token authentication by default (Ray 2.59+ on one machine, 2.61+ on all
    clusters; 2.60 is locked here), and Ray sends the token only when told to:
    ``--ray auto`` on a cluster node finds it, an explicit address needs
    ``RAY_AUTH_MODE=token`` and the token, and Ray itself only says that it failed to
    connect (after about 20 s)."""
    causes = []
    cause: BaseException | None = error
    while cause is not None and len(causes) < 8:
        causes.append(str(cause))
        cause = cause.__cause__ or cause.__context__
    text = " ".join(causes)
    first = str(error).splitlines()[0] if str(error) else type(error).__name__
    token = (
        "RAY_AUTH_MODE=token and the cluster's token in RAY_AUTH_TOKEN (or in the "
        "file ~/.ray/auth_token, or named by RAY_AUTH_TOKEN_PATH)"
    )
    if "uthenticat" in text or "InvalidAuthToken" in text:
        return (
            f"cannot join the Ray cluster at {address!r}: it refused this driver's "
            f"authentication token ({first}); set {token}"
        )
    hint = "start one with `ray start --head`, or use --ray local"
    if address not in ("auto", "local") and os.environ.get("RAY_AUTH_MODE") != "token":
        hint = (
            f"is it running? {hint}; a cluster started by `ray start` uses token "
            f"authentication, which a driver joining by address needs: set {token}, or "
            "run with --ray auto on a node of the cluster"
        )
    return f"cannot join the Ray cluster at {address!r}: {first} ({hint})"


def _driver_encoder(model: str, specs: Sequence[TaskSpec], config: RunConfig) -> Any | None:
    """The fitted encoder to ship for a non-neural built-in that needs fitting; else
    ``None`` (workers build the encoder from its spec)."""
    from evaluators.encoders import BUILTIN_ENCODERS
    from evaluators.run.service import load_encoder, prepare_encoder

    entry = BUILTIN_ENCODERS.get(model)
    if entry is None or entry.kind != "non-neural":
        return None
    encoder, _ = load_encoder(model, config)
    return encoder if prepare_encoder(encoder, specs, config) else None


def _worker_encoder(model: str, settings: dict[str, Any]) -> Any:
    from evaluators.encoders import get_encoder

    key = json.dumps([model, settings], sort_keys=True, default=str)
    if key not in _WORKER_ENCODER:
        _WORKER_ENCODER.clear()  # free the previous model (GPU memory) first
        gc.collect()
        torch = sys.modules.get("torch")  # only when a previous model loaded it
        if torch is not None and torch.cuda.is_available():
            torch.cuda.empty_cache()
        _WORKER_ENCODER[key] = get_encoder(model, **settings)
    return _WORKER_ENCODER[key]


def job_config(config: RunConfig) -> dict[str, Any]:
    """What a Ray task receives of the run's config: every field
    (:meth:`RunConfig.as_plain`, plain data), with ``progress`` off (the driver draws
    the one bar over jobs)."""
    from dataclasses import replace

    return replace(config, progress=False).as_plain()


def run_job(
    job: Job | tuple[str, str, list[tuple[str, str, str | None]]],
    shipped: Any,
    config: RunConfig | Mapping[str, Any],
    cwd: str,
    env: Mapping[str, str] | None = None,
) -> list[ResultRecord]:
    """Body of one Ray task (also callable in-process). ``env`` (the driver's offline
    and cache settings) is applied before the first stylebench import of the worker:
    Ray sends ``job`` as plain data (:func:`_job_fields`), the run's config whole as
    plain data (:func:`job_config`; a :class:`RunConfig` in-process) and a shipped
    encoder as ``[ObjectRef]``, which is fetched only here. The encoder is built from
    the config's encoder settings (backend, precision, token budget, strictness
    included) unless one was shipped. The driver has checked the run's task names and
    episodes."""
    os.environ.update(env or {})
    from evaluators.run.config import RunConfig
    from evaluators.run.runner import TaskSpec
    from evaluators.run.service import model_name, runner_for

    if not isinstance(job, Job):
        model, dataset, tasks = job
        job = Job(model, dataset, tuple(TaskSpec(dataset, *task) for task in tasks))
    if not isinstance(config, RunConfig):
        config = RunConfig.from_plain(config)
    if config.out_dir is None:
        raise StylebenchError("a Ray job writes its results under --out: give out_dir")
    if isinstance(shipped, list):  # [ObjectRef]: Ray does not resolve refs nested in a list
        import ray

        shipped = ray.get(shipped[0])
    if Path(cwd).is_dir():
        os.chdir(cwd)
    encoder = (
        shipped if shipped is not None else _worker_encoder(job.model, config.encoder_settings())
    )
    runner = runner_for(encoder, model_name(job.model), config)
    try:
        records = runner.run(list(job.specs), whole_run=False)
    finally:
        if runner.cache is not None:
            runner.cache.close()
    node = _ray_node()
    for record in records:  # where each result was computed (not written to its JSON)
        record.node = node
    return records


def _ray_node() -> str | None:
    """The Ray node id of this process, None outside a Ray session."""
    ray = sys.modules.get("ray")
    if ray is None or not ray.is_initialized():
        return None
    return str(ray.get_runtime_context().get_node_id())


def results_per_node(by_model: Mapping[str, Sequence[ResultRecord]]) -> dict[str, int]:
    """``{node id: results}`` of a :func:`run_on_ray` run, most first."""
    counts: dict[str, int] = defaultdict(int)
    for records in by_model.values():
        for record in records:
            counts[str(record.node or "?")] += 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def run_on_ray(
    models: Sequence[str],
    datasets: Sequence[str] | Sequence[TaskSpec],
    config: RunConfig,
    *,
    address: str,
    num_cpus: float = 1.0,
    num_gpus: float = 0.0,
    encoders: Mapping[str, Any] | None = None,
) -> dict[str, list[ResultRecord]]:
    """Run every (model, dataset) job as a Ray task; records per model, in plan order.

    ``datasets`` are refs (planned with :func:`evaluators.run.service.plan`) or the
    specs it returned (checked there, not again). ``config`` is the run's
    :class:`~evaluators.run.config.RunConfig`; every task receives it whole
    (:func:`job_config`), so a worker builds each encoder with the run's chunking,
    batch size, device, backend, precision and token budget and runs the ordinary
    :class:`~evaluators.run.runner.Runner` with its seed, protocol, episodes, sub-metrics,
    cache, output folder (``config.out_dir``, required) and resume rule.
    ``config.progress`` draws the driver's bar over jobs.

    ``encoders`` maps model names to ready encoder objects to ship to the tasks as they
    are (e.g. a fitted TF-IDF with your settings); other models are built by the workers
    from their spec, except built-ins that need fitting, which the driver fits first
    (on ``config.fit_corpus`` or the evaluated texts, as a local run).

    Raises :class:`StylebenchError` listing the failed jobs (after all others finished
    and wrote their results, so a rerun resumes).
    """
    from tqdm.auto import tqdm

    from evaluators.run.runner import TaskSpec
    from evaluators.run.service import plan

    if config.out_dir is None:
        raise StylebenchError("a Ray run writes its results under --out: give out_dir")
    if config.devices:
        raise StylebenchError("--devices does not combine with --ray: use --ray-gpus")
    specs = (
        list(datasets)
        if datasets and isinstance(datasets[0], TaskSpec)
        else plan([str(d) for d in datasets], config)
    )
    ray = connect(address)
    jobs = plan_jobs(models, specs)
    shipped_config = job_config(config)
    cwd = os.getcwd()
    env = {key: os.environ[key] for key in _FORWARDED_ENV if key in os.environ}
    # env travels as an argument, not a runtime_env: a runtime_env makes Ray start a
    # separate set of workers (seconds each) for it
    task = ray.remote(max_calls=0)(run_job).options(num_cpus=num_cpus, num_gpus=num_gpus)
    shipped: dict[str, Any] = {}
    for model in models:
        encoder = (encoders or {}).get(model) or _driver_encoder(model, specs, config)
        shipped[model] = [ray.put(encoder)] if encoder is not None else None
    # per model (a worker keeps one model loaded), largest first: on few workers the
    # run then ends with small jobs, not with one big straggler
    costs: dict[str, int] = {}
    for job in jobs:  # every model runs the same tasks of a dataset
        if job.dataset not in costs:
            costs[job.dataset] = job_cost(job)
    rank = {model: i for i, model in enumerate(models)}
    order = sorted(jobs, key=lambda job: (rank[job.model], -costs.get(job.dataset, 0)))
    pending = {
        task.remote(_job_fields(job), shipped[job.model], shipped_config, cwd, env): job
        for job in order
    }
    finished: dict[Job, list[ResultRecord]] = {}
    failures: list[str] = []
    bar = tqdm(
        total=len(jobs), desc="ray jobs (model x dataset)", unit="job", disable=not config.progress
    )
    waiting = list(pending)
    while waiting:
        done, waiting = ray.wait(waiting, num_returns=1)
        job = pending[done[0]]
        try:
            finished[job] = ray.get(done[0])
        except Exception as error:  # RayTaskError wraps the job's own exception
            cause = getattr(error, "cause", None) or error
            failures.append(
                redact(f"{job.model} on {job.dataset}: {type(cause).__name__}: {cause}")
            )
        bar.set_postfix_str(redact(f"{job.model} / {Path(job.dataset).name}"), refresh=False)
        bar.update(1)
    bar.close()
    if failures:
        raise StylebenchError(
            f"{len(failures)} of {len(jobs)} Ray jobs failed (the others' results are "
            "written; rerun to resume): " + "; ".join(failures)
        )
    unseen = [
        str(record.path)
        for records in finished.values()
        for record in records
        if record.path is not None and not Path(record.path).is_file()
    ]
    if unseen:
        raise StylebenchError(
            f"{len(unseen)} result files written by Ray workers are not visible here "
            f"(e.g. {unseen[0]}): --out must be on storage shared by every node"
        )
    # keyed by the name the records carry (credentials of a URL shown as ***)
    by_model: dict[str, list[ResultRecord]] = {redact(model): [] for model in models}
    for job in jobs:
        by_model[redact(job.model)].extend(finished[job])
    return by_model
