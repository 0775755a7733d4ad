"""The embed-once runner: for one encoder and a set of (dataset, task) pairs, every
unique text of a dataset is embedded once (through the on-disk cache), then each task
evaluates on those vectors. One JSON result is written per (model, dataset, task)."""

from __future__ import annotations

import json
import platform
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from dataset_scripts.core.errors import DataError, StylebenchError
from dataset_scripts.core.schemas import SCHEMAS
from evaluators.cache import EmbeddingCache
from evaluators.data import Table, config_schemas, load_table
from evaluators.encoders.base import (
    Encoder,
    as_embedding_matrix,
    embed_episodes,
    encoder_identity,
)
from evaluators.records.paths import run_relpath
from evaluators.records.record import ResultRecord
from evaluators.run.config import RunConfig
from evaluators.tasks import (
    EVALUATORS,
    EmbeddingLookup,
    TaskEvaluator,
    TaskResult,
    check_tasks,
    get_evaluator,
)
from evaluators.tasks.episodes import DEFAULT_SAMPLING, Sampling
from evaluators.tasks.protocol import check_protocol, protocol_record

EPISODE_KEY = "\x1eepisode\x1e"  # cache key of a whole episode (model-pooled encoders)
EPISODE_SEP = "\x1f"  # between an episode's texts in its cache key
_VERSIONED = (
    "stylebench",
    "numpy",
    "scipy",
    "scikit-learn",
    "datasets",
    "evaluate",
    "torch",
    "transformers",
    "sentence-transformers",
    "spacy",
)


@dataclass(frozen=True)
class TaskSpec:
    dataset: str
    task_type: str
    config: str
    split: str | None = None


@dataclass
class EmbeddingStats:
    n_texts: int = 0
    n_unique: int = 0
    n_encoded: int = 0
    n_from_cache: int = 0
    seconds: float = 0.0


class UnitsFailed(StylebenchError):
    """Some (dataset, task) units of a run could not be scored (each named with its
    cause in the message, one line); every other unit ran and wrote its result, so a
    rerun resumes them. ``records``: the finished units' records; ``failures``: one
    line per failed unit."""

    def __init__(
        self, failures: Sequence[str], records: Sequence[ResultRecord], total: int
    ) -> None:
        self.failures = list(failures)
        self.records = list(records)
        self.total = total
        done = total - len(self.failures)
        super().__init__(
            f"{len(self.failures)} of {total} (dataset, task) units could not be scored "
            f"({done} others ran and their results are written; a rerun resumes them): "
            + "; ".join(self.failures)
        )


def unit_failure(table: Table, task_type: str, error: BaseException) -> str:
    """One line naming the dataset, config/split and task of a unit that failed, and why."""
    cause = " ".join(str(error).split()) or type(error).__name__
    return f"{table.source}, task {task_type}: {cause}"


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in _VERSIONED:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def plan_tasks(datasets: Sequence[str], task_types: Sequence[str] | None = None) -> list[TaskSpec]:
    """Every requested task type that each dataset's configs can serve. The names are
    checked here only when called on its own: :func:`evaluators.run.service.plan`
    checks them once for the run and plans through :func:`dataset_tasks`."""
    check_tasks(task_types)
    return dataset_tasks(datasets, task_types)


def dataset_tasks(
    datasets: Sequence[str], task_types: Sequence[str] | None = None
) -> list[TaskSpec]:
    """:func:`plan_tasks` without the check of the names (an unknown one matches no
    config): for a planner that checked them."""
    specs = []
    for ref in datasets:
        for config, schema in config_schemas(ref).items():
            for task in SCHEMAS[schema].task_types:
                if task not in EVALUATORS:  # another family's schema (e.g. style triplets)
                    continue
                if task_types is None or task in task_types:
                    specs.append(TaskSpec(ref, task, config))
    return specs


def check_sampling(sampling: Sampling, specs: Sequence[TaskSpec]) -> None:
    """Refuse episodes / a per-class count that apply to none of the planned tasks
    (each task they do not apply to runs as built and says so in its details)."""
    if sampling.is_default:
        return
    reasons = {s.task_type: EVALUATORS[s.task_type].sampling_problem(sampling) for s in specs}
    if reasons and all(reasons.values()):
        raise DataError(
            f"episodes {sampling.requested()} apply to none of the tasks: "
            + "; ".join(f"{t}: {why}" for t, why in reasons.items())
        )


class Runner:
    """Run tasks for one encoder with an embed-once cache."""

    def __init__(
        self,
        encoder: Encoder,
        model_name: str,
        config: RunConfig | None = None,
        **settings: Any,
    ) -> None:
        """``config``: the run's settings (:class:`~evaluators.run.config.RunConfig`);
        ``settings``: fields of it to set, a shorthand for ``dataclasses.replace``
        (``Runner(encoder, name, out_dir="results", progress=False)``). Its ``sampling``
        (episodes, per-class count; :mod:`evaluators.tasks.episodes`) goes to every task
        that supports it (the others run as built and say so in
        ``details["sampling"]["not_applied"]``); its ``submetrics`` (``{name: [classes]}``)
        to every task whose rows have classes. The encoder is used as it is (built and
        prepared by :mod:`evaluators.run.service`); the config's encoder settings are
        what it was built with."""
        self.config = replace(config or RunConfig(), **settings)
        config = self.config
        self.sampling = config.sampling or DEFAULT_SAMPLING
        self.submetrics = {name: list(c) for name, c in config.submetrics.items()}
        self.encoder = encoder
        self.model_name = model_name
        self.identity = encoder_identity(encoder)
        self.cache = (
            EmbeddingCache(Path(config.cache_dir), self.identity) if config.cache_dir else None
        )
        self.out_dir = Path(config.out_dir) if config.out_dir else None
        self.seed = config.seed
        self.protocol = check_protocol(config.protocol)
        self.commit_every = config.commit_every
        self.progress = config.progress
        self._dim: int | None = None  # the embedding dimension, once vectors exist

    @property
    def encode_batch_size(self) -> int | None:
        """Texts per forward pass of the encoder: its own ``batch_size`` (looked up
        through wrappers such as chunk-and-pool), else the config's, else None (an
        encoder without batches). Recorded as the result's ``execution.batch_size``;
        :attr:`commit_every` is another thing (texts per cache transaction)."""
        seen: Any = self.encoder
        for _ in range(4):  # a wrapper (chunk-and-pool, several devices) holds the model
            size = getattr(seen, "batch_size", None)
            if isinstance(size, int) and not isinstance(size, bool):
                return size
            seen = getattr(seen, "encoder", None)
            if seen is None:
                break
        return self.config.batch_size

    def embed(
        self, texts: Sequence[str], label: str = "", encode: Any = None
    ) -> tuple[EmbeddingLookup, EmbeddingStats]:
        """Vectors for ``texts``: each unique text is looked up in the cache and only the
        missing ones are encoded (by ``encode``, default the encoder's), in committed
        batches."""
        own = encode is None
        encode = encode or self.encoder.encode
        started = time.perf_counter()
        unique = list(dict.fromkeys(texts))
        stats = EmbeddingStats(n_texts=len(texts), n_unique=len(unique))
        found = self.cache.get_many(unique) if self.cache is not None else {}
        stats.n_from_cache = len(found)
        missing = [t for t in unique if t not in found]
        bar = tqdm(
            total=len(missing),
            desc=f"{self.model_name}: embed {label}".strip().rstrip(":"),
            unit="text",
            disable=not self.progress or not missing,
            leave=False,
        )
        for start in range(0, len(missing), self.commit_every):
            batch = missing[start : start + self.commit_every]
            vectors = as_embedding_matrix(encode(batch), len(batch), self.model_name)
            if self.cache is not None:
                self.cache.put_many(batch, vectors)
            found.update(zip(batch, vectors, strict=True))
            stats.n_encoded += len(batch)
            bar.update(len(batch))
        bar.close()
        dims = {v.shape[0] for v in found.values()}
        if len(dims) > 1:
            raise ValueError(
                f"{self.model_name}: cached vectors have mixed dimensions {sorted(dims)}"
            )
        matrix = np.stack([found[t] for t in unique]) if unique else np.zeros((0, 0), np.float32)
        if unique and own:
            self._dim = int(matrix.shape[1])
        stats.seconds = time.perf_counter() - started
        return EmbeddingLookup(unique, matrix), stats

    @property
    def model_pools_episodes(self) -> bool:
        """Whether the encoder reads an episode itself (LUAR) instead of having its
        texts' vectors averaged (``episode_pooling = "model"``)."""
        return getattr(self.encoder, "episode_pooling", "mean") == "model"

    def lookup_for(
        self, pairs: Sequence[tuple[TaskEvaluator, Table]], label: str = ""
    ) -> tuple[EmbeddingLookup, EmbeddingStats]:
        """The vectors every ``(evaluator, table)`` needs: each unique text embedded
        once; with episodes and an encoder that reads episodes itself, each unique
        episode embedded once instead (both through the cache)."""
        groups: list[tuple[str, ...]] = []
        texts: list[str] = []
        for evaluator, table in pairs:
            own = evaluator.episode_groups(table) if self.model_pools_episodes else []
            if own:
                groups += own
            else:
                texts += evaluator.texts(table)
        lookup, stats = self.embed(texts, label=label)
        if groups:
            by_key = {EPISODE_KEY + EPISODE_SEP.join(g): g for g in dict.fromkeys(groups)}
            keyed, more = self.embed(
                list(by_key),
                label=f"{label} episodes".strip(),
                encode=lambda batch: embed_episodes(self.encoder, [by_key[k] for k in batch]),
            )
            unique = [by_key[k] for k in keyed.index]
            lookup.add_episodes(unique, keyed.matrix)
            for name in ("n_texts", "n_unique", "n_encoded", "n_from_cache"):
                setattr(stats, name, getattr(stats, name) + getattr(more, name))
            stats.seconds += more.seconds
        return lookup, stats

    def evaluator(self, task_type: str) -> TaskEvaluator:
        """The evaluator of ``task_type`` with this runner's seed, protocol, sampling
        (where the task supports it) and sub-metrics (where its rows have classes)."""
        cls = EVALUATORS[task_type]
        applies = cls.sampling_problem(self.sampling) is None
        evaluator = get_evaluator(
            task_type,
            self.seed,
            self.protocol,
            self.sampling if applies else None,
            self.submetrics if cls.class_column else None,
        )
        evaluator.not_applied = None if applies else cls.sampling_problem(self.sampling)
        return evaluator

    def run(
        self,
        specs: Sequence[TaskSpec],
        *,
        resume: bool | None = None,
        whole_run: bool = True,
        tables: Any = None,
    ) -> list[ResultRecord]:
        """Evaluate every spec into its result record (written under the output folder
        when there is one; :attr:`ResultRecord.path` says where); with ``resume`` (default: the config's), a task whose result file already holds
        this model identity, seed and dataset fingerprint is read back, not recomputed
        (and a dataset whose tasks are all done is not embedded at all). ``whole_run``:
        ``specs`` are the whole run, so episodes that apply to none of them are an error
        (:func:`check_sampling`); ``False`` for specs checked as a whole elsewhere
        (:func:`evaluators.run.service.plan`: a run checks once; a Ray job is one part of
        a run checked by its driver). ``tables``: rows already in memory, keyed by (dataset,
        config, split) (:func:`evaluators.run.service.run_specs`).

        A unit whose data its task cannot score (a set with no positive pair, say) does
        not stop the run: the others are evaluated and written, then :class:`UnitsFailed`
        names each failed unit (dataset, task, cause)."""
        preloaded = tables
        resume = self.config.resume if resume is None else resume
        if whole_run:
            check_sampling(self.sampling, specs)
        by_dataset: dict[str, list[TaskSpec]] = defaultdict(list)
        for spec in specs:
            by_dataset[spec.dataset].append(spec)
        records = []
        failures: list[str] = []  # units that could not be scored (UnitsFailed at the end)
        for ref, dataset_specs in by_dataset.items():
            tables: dict[tuple[str, str | None], Table] = {}
            for spec in dataset_specs:
                key = (spec.config, spec.split)
                if key not in tables:
                    given = (preloaded or {}).get((ref, spec.config, spec.split))
                    tables[key] = given or load_table(ref, spec.config, spec.split)
            todo = []
            for spec in dataset_specs:
                table = tables[(spec.config, spec.split)]
                done = self._finished(spec.task_type, table) if resume else None
                if done is not None:
                    records.append(done)
                else:
                    todo.append((spec, self.evaluator(spec.task_type)))
            if not todo:
                continue
            lookup, stats = self.lookup_for(
                [(ev, tables[(spec.config, spec.split)]) for spec, ev in todo],
                label=tables[next(iter(tables))].name,
            )
            for spec, evaluator in todo:
                table = tables[(spec.config, spec.split)]
                started = time.perf_counter()
                try:
                    result = evaluator.evaluate(table, lookup)
                except (DataError, ValueError) as error:  # this unit only: the others go on
                    failures.append(unit_failure(table, spec.task_type, error))
                    continue
                seconds = time.perf_counter() - started
                record = self._record(
                    result,
                    stats,
                    seconds,
                    {
                        "fingerprint": table.fingerprint,
                        "ref": ref,
                        # (repo, config) and the STEB dataset the config is, for scores
                        "id": table.dataset_id,
                        "repo": table.repo,
                        "schema": table.kind,
                    },
                )
                self._write(record)
                records.append(record)
        if failures:
            raise UnitsFailed(failures, records, len(records) + len(failures))
        return records

    def result_path(self, dataset: str, task_type: str) -> Path | None:
        if self.out_dir is None:
            return None
        return self.out_dir / run_relpath(self.model_name, dataset, task_type)

    def _finished(self, task_type: str, table: Table) -> ResultRecord | None:
        """The stored record of this task when it matches model, seed and data (read back
        as it is, marked ``resumed``)."""
        from evaluators.records.record import load_record

        path = self.result_path(table.name, task_type)
        if path is None or not path.is_file():
            return None
        try:
            stored = load_record(path)
        except DataError:
            return None  # a torn or foreign file is recomputed
        details = stored.details
        if (
            stored.model.identity != json.loads(json.dumps(self.identity, default=str))
            or stored.seed != self.seed
            or details.get("protocol") != protocol_record(self.protocol)
            or not self._same_sampling(task_type, details)
            or stored.dataset.fingerprint != table.fingerprint
            or stored.dataset.config != table.config
            or stored.versions.get("stylebench") != package_versions().get("stylebench")
        ):
            return None
        stored.path, stored.resumed = path, True
        return stored

    def _same_sampling(self, task_type: str, details: dict[str, Any]) -> bool:
        """Whether a stored result used the sampling and sub-metrics this run asks for
        (a result from before episodes existed used the default)."""
        evaluator = self.evaluator(task_type)
        stored = details.get("sampling", DEFAULT_SAMPLING.requested())
        asked = evaluator.sampling.requested()
        if {k: stored.get(k) for k in asked} != asked:
            return False
        wanted = {name: sorted(set(c)) for name, c in evaluator.submetrics.items()}
        have = {name: v.get("classes") for name, v in details.get("submetrics", {}).items()}
        return wanted == have

    def _record(
        self,
        result: TaskResult,
        embedding: EmbeddingStats,
        evaluation_seconds: float,
        extra: dict[str, Any],
    ) -> ResultRecord:
        """The result record of one evaluated task (:mod:`evaluators.records.record`):
        the task's scores with the model, the dataset (``extra``: its ref, id, repo,
        schema and fingerprint), the run's settings, embedding counts and timings."""
        from evaluators.records.ids import result_dataset_id
        from evaluators.records.record import DatasetInfo, ModelInfo, hardware, run_settings

        ref = str(extra.get("ref", ""))
        details = result.details
        return ResultRecord(
            task=result.task_type,
            dataset=DatasetInfo(
                name=result.dataset,
                ref=ref,
                id=result_dataset_id(str(extra.get("id", "")), result.dataset, ref),
                repo=str(extra.get("repo", "")),
                config=result.config,
                schema=str(extra.get("schema", result.config)),
                split=result.split,
                fingerprint=str(extra.get("fingerprint", "")),
                revision=extra.get("revision"),
            ),
            model=ModelInfo(name=self.model_name, identity=self.identity, **self.model_meta),
            main_score_name=result.main_score_name,
            main_score=result.main_score,
            metrics=result.metrics,
            seed=result.seed,
            run=run_settings(
                details.get("protocol"),
                result.seed,
                details.get("sampling"),
                {n: v.get("classes") for n, v in (details.get("submetrics") or {}).items()},
            ),
            counts=result.counts,
            embedding={
                "texts": embedding.n_texts,
                "unique_texts": embedding.n_unique,
                "texts_encoded": embedding.n_encoded,
                "texts_from_cache": embedding.n_from_cache,
            },
            timings={
                "encode_seconds": round(embedding.seconds, 4),
                "evaluation_seconds": round(evaluation_seconds, 4),
            },
            execution={"batch_size": self.encode_batch_size},
            versions=package_versions(),
            hardware=hardware(),
            created_at=datetime.now(UTC).isoformat(timespec="seconds"),
            details=details,
            items=result.items,
        )

    @property
    def model_meta(self) -> dict[str, Any]:
        """What the encoder says of itself for the record's ``model`` block (revision,
        parameters, maximum tokens), where it says it; the embedding dimension is the
        vectors' own, set by :meth:`embed`."""
        meta: dict[str, Any] = {"embedding_dim": self._dim}
        identity = self.identity
        meta["revision"] = identity.get("revision") or identity.get("content_hash")
        for key, attributes in (
            ("n_parameters", ("n_parameters", "num_parameters")),
            ("max_tokens", ("max_tokens", "max_seq_length")),
        ):
            value = next(
                (
                    getattr(self.encoder, a)
                    for a in attributes
                    if isinstance(getattr(self.encoder, a, None), int)
                ),
                identity.get(key),
            )
            meta[key] = value if isinstance(value, int) else None
        return meta

    def _write(self, record: ResultRecord) -> None:
        """Write ``record`` under the output folder (when there is one) and note where."""
        if self.out_dir is None:
            return
        from evaluators.records.record import write_record

        path = self.result_path(record.dataset.name, record.task)
        assert path is not None
        record.path = write_record(record, path)
