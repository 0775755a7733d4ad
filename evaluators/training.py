"""Style scores during training: :class:`StebEvaluator`, a sentence-transformers
evaluator (a ``BaseEvaluator``; ``SentenceEvaluator`` before sentence-transformers 6) that
runs stylebench's task evaluators on the model being trained.

```python
from sentence_transformers import SentenceTransformerTrainer, SentenceTransformerTrainingArguments
from evaluators.training import StebEvaluator

evaluator = StebEvaluator("nano", built_root="built")     # STEB-nano(v1), in memory
args = SentenceTransformerTrainingArguments(
    output_dir="out", eval_strategy="steps", eval_steps=100, save_steps=100,
    load_best_model_at_end=True, metric_for_best_model=evaluator.primary_metric,
)
trainer = SentenceTransformerTrainer(model, args, train_dataset=pairs, loss=loss,
                                     evaluator=evaluator)
```

``StebEvaluator(benchmark)`` takes a benchmark name (``nano`` derives STEB-nano's tables
from the full builds under ``built_root``, :mod:`evaluators.nano`; any other STEB
benchmark runs its datasets built there) or a list of built datasets (folders, Hub ids)
with ``tasks``. Every call embeds the model's current weights through the one run service
(:func:`evaluators.run.service.run_specs`, the Runner's task evaluators, no embedding
cache: the weights change between calls), one dataset at a time.

**Metric names** (each prefixed ``<name>_`` by sentence-transformers' rule, and ``eval_``
by the trainer), :func:`training_metrics`:

* ``<dataset>_<task>_<metric>``: one unit's main score, named by its dataset (the last
  part of its id: ``STEL_register``), task type and the task's main metric
  (``STEL_register_order_alignment_distractor_accuracy``, ``sms_spam_clustering_v_measure``,
  ``..._all_to_all_pairs_auc``, ``..._retrieval_mrr``, ``..._probing_accuracy``);
* ``<task>_mean_<metric>``: the mean over that task's datasets that ran;
* ``primary_mean_main_score``, the ``primary_metric`` (``greater_is_better``): the mean
  over task types of the mean main score over their units that ran. With every unit of
  the benchmark present it is :meth:`evaluators.benchmarks.Benchmark.aggregate`, the
  benchmark's score; when some are absent (datasets not built) it is the same mean over
  what ran, so training can still choose a checkpoint, while the benchmark's own score
  (leaderboards, ``stylebench steb``) stays undefined for such a row;
* ``coverage``: the share of the benchmark's units that ran (1.0: complete), with a
  warning at construction naming what is missing.

**Files.** As sentence-transformers' evaluators, ``write_csv=True`` appends one row per
call to ``<output_path>/stylebench_evaluation_<name>_results.csv`` (the trainer's
``<output_dir>/eval``): ``epoch,steps`` and the metrics above without the prefix. Result
records are written only when ``results_dir`` is given: each call writes what ``stylebench
run --out`` writes under ``<results_dir>/step-<n>`` (``final`` outside training), ready
for ``stylebench results add`` and ``stylebench push --kind model-results``.

**Progress.** ``show_progress_bar`` (default: on when this module's logger is at INFO or
DEBUG or stderr is a terminal, sentence-transformers' convention plus the terminal) shows
a bar over the datasets and writes one line per dataset to stderr, with its scores and
seconds; otherwise the same line is logged at INFO.

**Model card.** The metrics go into the model card data as sentence-transformers' own
evaluators' do (the card's metric table, the training log's primary metric); the card's
``model-index`` gets one result per unit with the Hub dataset id (``steb/STEL``), its
config (``register``) and split, and the STEB task type (``hub_type`` of
:mod:`evaluators.tasks.facts`); a STEB-nano unit names the dataset it samples,
with the sample in ``dataset.args``. (sentence-transformers' own ``model-index`` builder
names the dataset after the evaluator and has no config: the card data's
``format_eval_metrics`` is wrapped on the model's card to replace this evaluator's entries.)

The model is embedded as ``stylebench run --model st:<saved folder>`` embeds it (the
sentence-transformers pipeline, at most 512 tokens, batch 32, chunk-and-pool of long
texts as ``stylebench run`` does: ``chunk=True`` the default sentence splitter,
``"regex"`` the fast one, ``False`` truncation), so the numbers are those of that command
on the same data.
"""

from __future__ import annotations

import csv
import logging
import re
import sys
import time
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.sentence_transformer import SentenceTransformerEncoder
from evaluators.run.runner import TaskSpec

try:  # sentence-transformers >= 6: SentenceEvaluator is a deprecated alias of this
    from sentence_transformers.base.evaluation import BaseEvaluator
except ImportError:  # pragma: no cover - older sentence-transformers
    try:
        from sentence_transformers.sentence_transformer.evaluation import (
            SentenceEvaluator as BaseEvaluator,
        )
    except ImportError:  # < 5.2 keeps it here
        from sentence_transformers.evaluation import SentenceEvaluator as BaseEvaluator

__all__ = ["PRIMARY", "StebEvaluator", "TrainingModelEncoder", "training_metrics"]

logger = logging.getLogger(__name__)

MAX_LENGTH = 512  # as SentenceTransformerEncoder's default cap
PRIMARY = "primary_mean_main_score"  # the primary metric's key (before the name prefix)
COVERAGE = "coverage"


class TrainingModelEncoder(SentenceTransformerEncoder):
    """A ``SentenceTransformer`` in memory (being trained) as stylebench's
    sentence-transformers encoder: the same ``encode``, token counting and cap as
    ``st:<folder>`` of the saved model, without loading anything. The model's own
    ``max_seq_length`` is capped at ``max_length`` only while it encodes here."""

    def __init__(
        self, model: Any, *, name: str, batch_size: int = 32, max_length: int = MAX_LENGTH
    ) -> None:
        self.model = model
        self.name = name
        self.batch_size = int(batch_size)
        self.device = str(getattr(model, "device", "cpu"))
        self.tokenizer = model.tokenizer
        if not getattr(self.tokenizer, "is_fast", False):
            raise StylebenchError(f"{name}: the model has no fast tokenizer (token counting)")
        caps = [v for v in (model.max_seq_length, max_length) if v]
        self.max_tokens = min(caps) if caps else None
        self.commit_hash = None
        self.fingerprint = None

    def identity(self) -> dict[str, Any]:
        return {
            "kind": "sentence-transformers",
            "model": self.name,
            "path": None,
            "revision": None,
            "in_training": True,  # weights change between calls: never cached
            "pooling": "model",
            "max_tokens": self.max_tokens,
            "chunk": False,
        }

    def encode(self, texts: list[str]) -> np.ndarray:
        own = self.model.max_seq_length
        if self.max_tokens is not None and own != self.max_tokens:
            self.model.max_seq_length = self.max_tokens
        try:
            return super().encode(texts)
        finally:
            self.model.max_seq_length = own


def _key_part(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")


def unit_names(datasets: Sequence[str]) -> dict[str, str]:
    """Each dataset id's name in metric keys: the last part of its id (``steb/STEL_register``
    -> ``STEL_register``), or the whole id (``/`` as ``__``) where two would share one."""
    short = {d: _key_part(d.split("/")[-1]) for d in datasets}
    counts: dict[str, int] = {}
    for name in short.values():
        counts[name] = counts.get(name, 0) + 1
    return {d: (name if counts[name] == 1 else _key_part(d.replace("/", "__")))
            for d, name in short.items()}  # fmt: skip


def training_metrics(
    benchmark: Any, scores: Mapping[tuple[str, str], tuple[str, float]]
) -> dict[str, float]:
    """The metrics of one evaluation (module doc), without the name prefix: ``scores``
    maps (dataset id, task) to (main metric name, main score) of every unit that ran."""
    names = unit_names(sorted({d for d, _ in scores}))
    metrics: dict[str, float] = {}
    by_task: dict[str, list[tuple[str, float]]] = {}
    for (dataset, task), (metric, value) in sorted(scores.items()):
        metrics[f"{names[dataset]}_{task}_{metric}"] = float(value)
        by_task.setdefault(task, []).append((metric, float(value)))
    for task, pairs in by_task.items():
        metric = pairs[0][0] if len({m for m, _ in pairs}) == 1 else "main_score"
        metrics[f"{task}_mean_{metric}"] = sum(v for _, v in pairs) / len(pairs)
    units = set(benchmark.units)
    ran = {u: v for u, (_, v) in scores.items() if u in units}
    score = benchmark.aggregate(ran)
    if score.value is not None:  # complete: the benchmark's own score
        primary = score.value
    else:  # what ran, by the same view (mean over task types of their means)
        from evaluators.benchmarks import MAIN_SCORE
        from evaluators.views import OVERALL, by_task_type, evaluate_spec

        if not ran:
            raise StylebenchError(f"{benchmark.key}: none of its units ran")
        present = {(d, t, MAIN_SCORE): v for (d, t), v in sorted(ran.items())}
        primary = evaluate_spec(by_task_type(present), present)[OVERALL]
    metrics[PRIMARY] = primary
    metrics[COVERAGE] = score.covered / score.total if score.total else 0.0
    return metrics


def _show_progress() -> bool:
    level = logger.getEffectiveLevel()
    return level in (logging.INFO, logging.DEBUG) or bool(
        getattr(sys.stderr, "isatty", lambda: False)()
    )


class StebEvaluator(BaseEvaluator):
    """Evaluate a model on a stylebench benchmark or datasets while it trains (module doc)."""

    def __init__(
        self,
        datasets: str | Sequence[str] = "nano",
        tasks: Sequence[str] | None = None,
        *,
        built_root: str | Path = "built",
        name: str | None = None,
        seed: int = 42,
        chunk: bool | str = True,
        batch_size: int = 32,
        results_dir: str | Path | None = None,
        model_name: str | None = None,
        write_csv: bool = True,
        show_progress_bar: bool | None = None,
    ) -> None:
        super().__init__()
        from evaluators.benchmarks import Benchmark
        from evaluators.run.runner import check_sampling
        from evaluators.run.service import RunConfig

        self.config = RunConfig(seed=seed, tasks=tuple(tasks) if tasks else None, progress=False)
        self.chunk = chunk
        self.batch_size = batch_size
        self.results_dir = Path(results_dir) if results_dir else None
        self.model_name = model_name
        self.write_csv = write_csv
        self.show_progress_bar = (
            _show_progress() if show_progress_bar is None else bool(show_progress_bar)
        )
        if isinstance(datasets, str):
            self.benchmark = self._benchmark(datasets)
            self.specs, self.tables, self.units = self._benchmark_tables(
                self.benchmark, Path(built_root)
            )
            default_name = self.benchmark.name
        else:
            self.specs, self.tables, self.units = self._dataset_tables(list(datasets))
            ids = sorted({d for d, _ in self.units})
            self.benchmark = Benchmark(
                "datasets", "local", tuple(ids), tuple(dict.fromkeys(t for _, t in self.units)),
                dataset_tasks=tuple((d, tuple(t for dd, t in self.units if dd == d)) for d in ids),
            )  # fmt: skip
            default_name = "stylebench"
        check_sampling(self.config.sampling, self.specs)
        self.name = re.sub(r"[^A-Za-z0-9]+", "_", name or default_name).strip("_").lower()
        self.primary_metric = f"{self.name}_{PRIMARY}"  # what metric_for_best_model names
        self.greater_is_better = True
        self.csv_file = f"stylebench_evaluation_{self.name}_results.csv"
        self.last_records: list[Any] = []
        planned = set(self.units)
        absent = [u for u in self.benchmark.units if u not in planned]
        if absent:
            total = len(self.benchmark.units)
            datasets = sorted({d for d, _ in absent})
            logger.warning(
                "%s: %d of %d units will run (coverage %.3f); not built under %s: %s%s. %s is "
                "the mean over what ran, not the benchmark's score",
                self.benchmark.key, total - len(absent), total, 1 - len(absent) / total,
                built_root, ", ".join(datasets[:5]),
                f" and {len(datasets) - 5} more" if len(datasets) > 5 else "",
                self.primary_metric,
            )  # fmt: skip

    # ------------------------------------------------------------------ planning
    def _benchmark(self, name: str) -> Any:
        from evaluators.benchmarks import get_benchmark

        bench = get_benchmark(name)
        if bench.family != "steb":
            raise StylebenchError(
                f"StebEvaluator runs STEB benchmarks; {bench.key} is of the {bench.family} family"
            )
        if self.config.tasks:
            raise StylebenchError("a benchmark brings its tasks: give `tasks` with datasets only")
        return bench

    def _benchmark_tables(
        self, bench: Any, built_root: Path
    ) -> tuple[list[TaskSpec], dict, list[tuple[str, str]]]:
        """The benchmark's units that are built under ``built_root`` (at least one)."""
        from evaluators.benchmarks import NANO_PREFIX

        if all(d.startswith(NANO_PREFIX) for d in bench.datasets):
            from evaluators.nano import nano_tables

            by_id = nano_tables(built_root, missing_ok=True)
            units = [(d, t) for d, t in bench.units if d in by_id]
            specs = [TaskSpec(d, t, by_id[d].config, by_id[d].split) for d, t in units]
            tables = {(t.dataset, t.config, t.split): t for t in by_id.values()}
            return specs, tables, units
        from evaluators.benchmark_folders import resolve_benchmark

        refs, missing = resolve_benchmark(bench.key, built_root)
        built = [r for r in refs if r not in set(missing)]
        if not built:
            raise StylebenchError(
                f"{bench.key}: none of its {len(refs)} datasets is built under {built_root} "
                f"(e.g. {missing[0]}): build them with `stylebench build <id>`, or pass "
                "built datasets as a list"
            )
        specs, tables, units = self._dataset_tables(built)
        wanted = set(bench.units)
        keep = [i for i, unit in enumerate(units) if unit in wanted]  # the benchmark's tasks
        return [specs[i] for i in keep], tables, [units[i] for i in keep]

    def _dataset_tables(
        self, refs: list[str]
    ) -> tuple[list[TaskSpec], dict, list[tuple[str, str]]]:
        """Planned as ``stylebench run`` plans them; every table loaded once."""
        from evaluators.data import load_table
        from evaluators.run.service import plan

        specs = plan([str(r) for r in refs], self.config)
        tables: dict[tuple[str, str, str | None], Any] = {}
        units = []
        for spec in specs:
            key = (spec.dataset, spec.config, spec.split)
            if key not in tables:
                tables[key] = load_table(spec.dataset, spec.config, spec.split)
            units.append((tables[key].dataset_id or tables[key].name, spec.task_type))
        return specs, tables, units

    # ------------------------------------------------------------------ evaluation
    def encoder_for(self, model: Any) -> Any:
        """The stylebench encoder of ``model`` (as ``st:<saved folder>`` with this
        evaluator's chunking and batch size)."""
        name = self.model_name or self._model_name(model)
        encoder = TrainingModelEncoder(model, name=name, batch_size=self.batch_size)
        if self.chunk and encoder.max_tokens:  # as get_encoder(..., chunk=) wraps it
            from evaluators.encoders.chunking import ChunkAndPool

            return ChunkAndPool(
                encoder, **({"splitter": self.chunk} if isinstance(self.chunk, str) else {})
            )
        return encoder

    @staticmethod
    def _model_name(model: Any) -> str:
        card = getattr(model, "model_card_data", None)
        return str(getattr(card, "model_id", None) or getattr(card, "model_name", None) or "model")

    def _run(self, encoder: Any, name: str, config: Any) -> list[Any]:
        """Every unit, one dataset at a time, with a progress line per dataset."""
        from tqdm.auto import tqdm

        from evaluators.run.service import run_specs

        groups: dict[str, list[TaskSpec]] = {}
        for spec, (dataset, _) in zip(self.specs, self.units, strict=True):
            groups.setdefault(dataset, []).append(spec)
        names = unit_names(list(groups))
        bar = tqdm(
            total=len(groups),
            desc=f"{self.name}: datasets",
            unit="dataset",
            disable=not self.show_progress_bar,
            leave=False,
            file=sys.stderr,
        )
        records: list[Any] = []
        try:
            for i, (dataset, specs) in enumerate(groups.items(), 1):
                started = time.perf_counter()
                done = run_specs(encoder, name, specs, config, tables=self.tables, whole_run=False)
                seconds = time.perf_counter() - started
                records += done
                scores = ", ".join(f"{r.task} {r.main_score_name} {r.main_score:.4f}" for r in done)
                line = (
                    f"{self.name} [{i}/{len(groups)}] {names[dataset]}: {scores} ({seconds:.1f} s)"
                )
                if self.show_progress_bar:
                    bar.write(line, file=sys.stderr)
                    bar.update(1)
                else:
                    logger.info(line)
        finally:
            bar.close()
        return records

    def compute(self, model: Any, out_dir: Path | None = None) -> tuple[dict[str, float], list]:
        """``(metrics without the name prefix, run records)`` of ``model`` now."""
        from dataclasses import replace

        encoder = self.encoder_for(model)
        name = self.model_name or self._model_name(model)
        config = replace(self.config, out_dir=out_dir)
        was_training = bool(getattr(model, "training", False))
        try:
            records = self._run(encoder, name, config)
        finally:
            if was_training:
                model.train()
        scores = {(r.dataset.id, r.task): (r.main_score_name, float(r.main_score)) for r in records}
        return training_metrics(self.benchmark, scores), records

    def __call__(
        self, model: Any, output_path: str | None = None, epoch: int = -1, steps: int = -1
    ) -> dict[str, float]:
        out_dir = None
        if self.results_dir is not None:
            out_dir = self.results_dir / (f"step-{steps}" if steps >= 0 else "final")
        metrics, self.last_records = self.compute(model, out_dir)
        if output_path is not None and self.write_csv:
            self._append_csv(Path(output_path), metrics, epoch, steps)
        metrics = self.prefix_name_to_metrics(metrics, self.name)
        self.store_metrics_in_model_card_data(model, metrics, epoch, steps)
        return metrics

    def _append_csv(
        self, folder: Path, metrics: dict[str, float], epoch: float, steps: int
    ) -> None:
        """One row, as sentence-transformers' evaluators write theirs: ``epoch, steps``
        and the metrics (a file begun with other columns keeps its header)."""
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / self.csv_file
        header = ["epoch", "steps", *metrics]
        if path.is_file():
            with path.open(newline="", encoding="utf-8") as handle:
                first = next(csv.reader(handle), None)
            if first and first != header:
                logger.warning("%s was begun with other columns: rows keep its header", path)
                header = first
        row = {"epoch": epoch, "steps": steps, **metrics}
        new = not path.is_file()
        with path.open("a", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=header, extrasaction="ignore")
            if new:
                writer.writeheader()
            writer.writerow(row)

    # ------------------------------------------------------------------ model card
    def store_metrics_in_model_card_data(
        self, model: Any, metrics: dict[str, Any], epoch: int = 0, step: int = 0
    ) -> None:
        super().store_metrics_in_model_card_data(model, metrics, epoch, step)
        card = getattr(model, "model_card_data", None)
        if card is not None and "format_eval_metrics" not in vars(card):
            card.format_eval_metrics = types.MethodType(_format_eval_metrics, card)

    def model_index_results(self) -> list[dict[str, Any]]:
        """The card's ``model-index`` results of the last evaluation: one per unit, with
        the Hub dataset id, config and split, the STEB task type and the main metric."""
        from dataset_scripts.registry import all_datasets
        from evaluators.benchmarks import NANO_DATASETS, NANO_PREFIX, nano_id
        from evaluators.tasks.facts import hub_type

        specs = all_datasets()
        nano = {nano_id(source): (source, cap) for source, cap in NANO_DATASETS}
        results = []
        for r in self.last_records:
            ident = r.dataset.id
            dataset: dict[str, Any] = {}
            if ident.startswith(NANO_PREFIX) and ident in nano:
                source, cap = nano[ident]
                spec = specs[source]
                dataset = {"type": spec.repo, "name": f"STEB-nano(v1) sample of {spec.repo}"}
                config = spec.config or None
                dataset["args"] = {"benchmark": "STEB-nano(v1)", "cap": cap, "seed": r.seed}
            elif ident in specs:
                spec = specs[ident]
                dataset = {"type": spec.repo, "name": spec.repo}
                config = spec.config or None
            else:  # a dataset of the user's: its recorded Hub id or name, its config
                repo = r.dataset.repo or ident
                dataset = {"type": repo, "name": repo}
                config = r.dataset.config
            if config:
                dataset["config"] = config
                dataset["name"] += f" ({config})"
            dataset["split"] = r.dataset.split
            task = r.task
            results.append(
                {
                    "task": {
                        "type": hub_type(task),
                        "name": f"STEB {task.replace('_', ' ')}",
                    },
                    "dataset": dataset,
                    "metrics": [
                        {
                            "type": r.main_score_name,
                            "value": float(r.main_score),
                            "name": f"{task} {r.main_score_name} ({self.name})",
                        }
                    ],
                }
            )
        return results

    @property
    def description(self) -> str:
        return f"stylebench {self.benchmark.key}"

    def get_config_dict(self) -> dict[str, Any]:
        return {
            "benchmark": self.benchmark.key,
            "units": len(self.specs),
            "coverage": f"{len(self.specs)} of {len(self.benchmark.units)}",
            "seed": self.config.seed,
            "chunk": self.chunk,
        }


def _format_eval_metrics(card: Any) -> dict[str, Any]:
    """sentence-transformers' ``format_eval_metrics`` of ``card``, with each
    :class:`StebEvaluator`'s ``model-index`` entries (named after the evaluator, no
    dataset config) replaced by its per-unit results (:meth:`StebEvaluator.model_index_results`)."""
    out = type(card).format_eval_metrics(card)
    ours = [e for e in card.eval_results_dict or {} if isinstance(e, StebEvaluator)]
    if not ours:
        return out
    index = out.get("model-index") or [{"name": card.model_name, "results": []}]
    theirs = {(e.description.lower().replace(" ", "-"), e.name) for e in ours}
    results = [
        r
        for r in index[0].get("results", [])
        if (r.get("task", {}).get("type"), r.get("dataset", {}).get("type")) not in theirs
    ]
    for evaluator in ours:
        results += evaluator.model_index_results()
    index[0]["results"] = results
    out["model-index"] = index
    return out
