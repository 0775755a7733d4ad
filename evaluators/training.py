"""Style scores during training: :class:`StebEvaluator`, a sentence-transformers
``SentenceEvaluator`` that runs stylebench's task evaluators on the model being trained.

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
from the full builds under ``built_root``, :mod:`evaluators.nano`; any other benchmark
runs its datasets built there) or a list of built datasets (folders, Hub ids) with
``tasks``. Every call embeds the model's current weights through the one run service
(:func:`evaluators.run_service.run_specs`, the Runner's task evaluators, no embedding
cache: the weights change between calls) and returns ``{<name>_<task>_<dataset>: main
score, <name>_<task>: mean over the task's datasets, <name>_score: the aggregate}``.
``primary_metric`` is ``<name>_score`` (the benchmark's aggregate,
:meth:`evaluators.benchmarks.Benchmark.aggregate`), ``greater_is_better`` is True.

The model is embedded as ``stylebench run --model st:<saved folder>`` embeds it (the
sentence-transformers pipeline, at most 512 tokens, batch 32, chunk-and-pool of long
texts as ``stylebench run`` does: ``chunk=True`` the default sentence splitter,
``"regex"`` the fast one, ``False`` truncation), so the numbers are those of that command on the same data.
The metrics go into the model card data (as sentence-transformers' own evaluators do);
nothing is written unless ``results_dir`` is given: then each call writes the result
records (what ``stylebench run --out`` writes) under ``<results_dir>/step-<n>``, ready
for ``stylebench results add`` and ``stylebench push --kind model-results``.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.sentence_transformer import SentenceTransformerEncoder
from evaluators.runner import TaskSpec

try:  # the class sentence-transformers' trainer expects of an evaluator
    from sentence_transformers.sentence_transformer.evaluation import SentenceEvaluator
except ImportError:  # pragma: no cover - sentence-transformers < 5.2 keeps it here
    from sentence_transformers.evaluation import SentenceEvaluator

__all__ = ["StebEvaluator", "TrainingModelEncoder"]

MAX_LENGTH = 512  # as SentenceTransformerEncoder's default cap


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


def _short(dataset_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", dataset_id.split("/")[-1])


class StebEvaluator(SentenceEvaluator):
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
        write_csv: bool = False,
    ) -> None:
        super().__init__()
        from evaluators.benchmarks import Benchmark
        from evaluators.run_service import RunConfig

        self.config = RunConfig(seed=seed, tasks=tuple(tasks) if tasks else None, progress=False)
        self.chunk = chunk
        self.batch_size = batch_size
        self.results_dir = Path(results_dir) if results_dir else None
        self.model_name = model_name
        self.write_csv = write_csv
        if isinstance(datasets, str):
            self.benchmark = self._benchmark(datasets)
            self.specs, self.tables = self._benchmark_tables(self.benchmark, Path(built_root))
            default_name = self.benchmark.name
        else:
            self.specs, self.tables, units = self._dataset_tables(list(datasets))
            tasks_run = tuple(dict.fromkeys(t for _, t in units))
            self.benchmark = Benchmark(
                "datasets", "local", tuple(sorted({d for d, _ in units})), tasks_run,
                dataset_tasks=tuple(
                    (d, tuple(t for dd, t in units if dd == d)) for d in sorted({d for d, _ in units})
                ),
            )  # fmt: skip
            default_name = "stylebench"
        self.name = re.sub(r"[^A-Za-z0-9]+", "_", name or default_name).strip("_").lower()
        self.primary_metric = f"{self.name}_score"  # what metric_for_best_model names
        self.greater_is_better = True
        self.csv_file = f"{self.name}_evaluation_results.csv"
        self.last_records: list[Any] = []

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

    def _benchmark_tables(self, bench: Any, built_root: Path) -> tuple[list[TaskSpec], dict]:
        from evaluators.benchmarks import NANO_PREFIX

        if all(d.startswith(NANO_PREFIX) for d in bench.datasets):
            from evaluators.nano import nano_tables

            by_id = nano_tables(built_root)
            specs = [
                TaskSpec(d, t, by_id[d].config, by_id[d].split)
                for d, t in bench.units
                if d in by_id
            ]
            tables = {(t.dataset, t.config, t.split): t for t in by_id.values()}
            return specs, tables
        from evaluators.steb_scores.benchmarks import resolve_benchmark

        refs, missing = resolve_benchmark(bench.key, built_root)
        if missing:
            raise StylebenchError(
                f"{bench.key}: {len(missing)} of {len(refs)} datasets are not built under "
                f"{built_root} (e.g. {missing[0]}); its aggregate needs every one: build "
                "them, or pass the built datasets as a list"
            )
        specs, tables, _ = self._dataset_tables(refs)
        return specs, tables

    def _dataset_tables(
        self, refs: list[str]
    ) -> tuple[list[TaskSpec], dict, list[tuple[str, str]]]:
        """Planned as ``stylebench run`` plans them; every table loaded once."""
        from evaluators.data import load_table
        from evaluators.run_service import plan

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

    def compute(self, model: Any, out_dir: Path | None = None) -> tuple[dict[str, float], list]:
        """``(metrics without the name prefix, run records)`` of ``model`` now."""
        from dataclasses import replace

        from evaluators.run_service import run_specs

        encoder = self.encoder_for(model)
        name = self.model_name or self._model_name(model)
        config = replace(self.config, out_dir=out_dir)
        was_training = bool(getattr(model, "training", False))
        try:
            records = run_specs(encoder, name, self.specs, config, tables=self.tables)
        finally:
            if was_training:
                model.train()
        values = {
            (r.extra.get("id") or r.result.dataset, r.result.task_type): float(r.result.main_score)
            for r in records
        }
        metrics: dict[str, float] = {}
        by_task: dict[str, list[float]] = {}
        for (dataset, task), value in sorted(values.items()):
            metrics[f"{task}_{_short(dataset)}"] = value
            by_task.setdefault(task, []).append(value)
        for task, scores in by_task.items():
            metrics[task] = sum(scores) / len(scores)
        score = self.benchmark.aggregate(values)
        metrics["score"] = score.value if score.value is not None else math.nan
        return metrics, records

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
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / self.csv_file
        new = not path.is_file()
        with path.open("a", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            if new:
                writer.writerow(["epoch", "steps", *metrics])
            writer.writerow([epoch, steps, *metrics.values()])

    @property
    def description(self) -> str:
        return f"stylebench {self.benchmark.key}"

    def get_config_dict(self) -> dict[str, Any]:
        return {
            "benchmark": self.benchmark.key,
            "units": len(self.specs),
            "seed": self.config.seed,
            "chunk": self.chunk,
        }
