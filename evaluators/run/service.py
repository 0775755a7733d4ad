"""The one run service: every route that evaluates an encoder — ``stylebench run``, the
Python API (:mod:`evaluators.api`), the demo, a Ray worker and the Space — plans its
tasks, prepares its encoder and runs it through the functions here, so that they check
the same things, fit the same way and write the same result records
(:mod:`evaluators.records.record`).

* :class:`RunConfig` (:mod:`evaluators.run.config`): every setting of a run (seed,
  protocol, episodes, sub-metrics, chunking, batch size, devices, backend, precision,
  token budget, fit corpus, cache, output, resume, progress); the one value a route
  passes on, to the Runner and whole to a Ray task.
* :func:`plan`: the (dataset, task) pairs to run; unknown tasks, tasks that apply to none
  of the datasets and episodes that apply to none of the tasks are refused here.
* :func:`load_encoder` / :func:`prepare_encoder`: a built-in or model name as an encoder
  with the run's chunking and devices; an encoder that must be fitted (TF-IDF) is fitted
  before anything asks its identity (the fit rule: :mod:`evaluators.run.fit_corpus`).
* :func:`runner_for` / :func:`run_specs` / :func:`run`: the embed-once
  :class:`~evaluators.run.runner.Runner` with the config's settings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.url_credentials import redact
from evaluators.data import Table
from evaluators.records.record import ResultRecord
from evaluators.run.config import RunConfig
from evaluators.run.runner import (
    Runner,
    TaskSpec,
    UnitsFailed,
    check_sampling,
    dataset_tasks,
)
from evaluators.tasks import check_tasks

__all__ = [
    "RunConfig",
    "load_encoder",
    "model_name",
    "plan",
    "prepare_encoder",
    "run",
    "run_specs",
    "runner_for",
]

TableKey = tuple[str, str, str | None]  # (dataset ref, config, split)


def plan(
    datasets: Sequence[str],
    config: RunConfig,
    *,
    skip: Callable[[str, str], None] | None = None,
) -> list[TaskSpec]:
    """Every (dataset, task) of the run; refuses what cannot run (see the module doc).
    The run's one check of task names and of episodes: the routes after it (the
    :class:`~evaluators.run.runner.Runner`, a Ray task) do not repeat them.

    ``skip(dataset, reason)``: a dataset that cannot be read, or that none of the tasks
    applies to, is reported there and left out instead of stopping the run (the Space
    runs the others); the plan may then be empty."""
    check_tasks(config.tasks)
    if not datasets:
        raise StylebenchError(
            "nothing to evaluate: give a dataset or a benchmark with built datasets"
        )
    wanted = list(config.tasks) if config.tasks else None
    specs: list[TaskSpec] = []
    for ref in datasets:
        try:
            found = dataset_tasks([ref], wanted)
        except Exception as error:  # reported per dataset, with its cause
            if skip is None:
                raise
            skip(ref, str(error).strip() or type(error).__name__)
            continue
        if not found and skip is not None:
            skip(ref, "none of the chosen tasks applies")
        specs += found
    if not specs and skip is None:
        raise StylebenchError(
            f"none of the tasks {list(config.tasks or [])} applies to {', '.join(map(str, datasets))}"
        )
    check_sampling(config.sampling, specs)
    return specs


def model_name(spec: str) -> str:
    """The name a model spec is shown and stored under (result folders, records, the
    progress bar, messages): the spec with every credential of a URL in it shown as
    ``***`` (``openai-embeddings:m@http://***@host/v1``), so a key written into the
    URL is sent to the server and nowhere else."""
    return redact(spec)


def load_encoder(model: Any, config: RunConfig) -> tuple[Any, str]:
    """``(encoder, name)`` of a built-in or model name (with the config's chunking,
    device(s) and batch size), or of an object with ``encode`` (used as it is). The
    name is :func:`model_name` of the spec."""
    if isinstance(model, str):
        from evaluators.encoders import get_encoder

        return get_encoder(model, **config.encoder_settings()), model_name(model)
    if not hasattr(model, "encode"):
        raise TypeError(f"an encoder needs an encode(list[str]) method; got {type(model).__name__}")
    return model, getattr(model, "name", type(model).__name__)


def prepare_encoder(
    encoder: Any,
    specs: Sequence[TaskSpec],
    config: RunConfig,
    tables: Mapping[TableKey, Table] | None = None,
) -> bool:
    """Fit ``encoder`` when it must be fitted and is not (the fit rule of
    :mod:`evaluators.run.fit_corpus`); True when it fitted. Call it before anything asks the
    encoder's identity (a TF-IDF identity holds its vocabulary)."""
    from evaluators.run.fit_corpus import fit_if_needed

    return fit_if_needed(encoder, specs, config.fit_corpus, tables)


def runner_for(encoder: Any, name: str, config: RunConfig) -> Runner:
    """The embed-once runner of one (prepared) encoder with the config's settings."""
    return Runner(encoder, name, config)


def run_specs(
    encoder: Any,
    name: str,
    specs: Sequence[TaskSpec],
    config: RunConfig,
    *,
    tables: Mapping[TableKey, Table] | None = None,
    whole_run: bool = False,
) -> list[ResultRecord]:
    """Prepare ``encoder`` and run ``specs`` (``tables``: rows already in memory, keyed by
    (dataset, config, split), for data that is not a folder or Hub id). ``specs`` come
    from :func:`plan` (or a route's own plan of rows in memory), which checked them;
    ``whole_run=True`` checks episodes against ``specs`` once more, for specs planned
    otherwise."""
    prepare_encoder(encoder, specs, config, tables)
    return runner_for(encoder, name, config).run(specs, whole_run=whole_run, tables=tables)


def run(
    models: Sequence[Any],
    datasets: Sequence[str] | Sequence[TaskSpec],
    config: RunConfig,
    *,
    on_encoder: Callable[[str, Any], None] | None = None,
) -> dict[str, list[ResultRecord]]:
    """Run every model on every planned (dataset, task): ``datasets`` are refs (planned
    with :func:`plan`) or specs :func:`plan` returned (checked there, not again).
    ``on_encoder(name, encoder)`` is called once each encoder is prepared (the CLI
    prints how a model was routed)."""
    specs = (
        list(datasets)
        if datasets and isinstance(datasets[0], TaskSpec)
        else plan([str(d) for d in datasets], config)
    )
    out: dict[str, list[ResultRecord]] = {}
    failures: list[str] = []
    total = 0
    for model in models:
        encoder, name = load_encoder(model, config)
        try:
            prepare_encoder(encoder, specs, config)
            if on_encoder is not None:
                on_encoder(name, encoder)
            try:
                out[name] = runner_for(encoder, name, config).run(specs, whole_run=False)
            except UnitsFailed as failed:  # the other units (and models) go on
                out[name] = failed.records
                failures += [f"{name}: {line}" for line in failed.failures]
                total += failed.total
            else:
                total += len(out[name])
        finally:
            if isinstance(model, str) and hasattr(encoder, "close"):
                encoder.close()  # worker processes of --devices, served-model connections
    if failures:
        raise UnitsFailed(failures, [r for records in out.values() for r in records], total)
    return out
