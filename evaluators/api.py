"""The public Python API for your own data: build a dataset in memory and evaluate an
encoder on it, with nothing written to disk.

```python
import pandas as pd
from evaluators.api import Dataset, evaluate

df = pd.read_csv("passages.csv")                        # columns: text, author
ds = Dataset.from_pandas(df, label_column="author")     # labelled_texts
results = evaluate("tfidf-ngrams", ds, tasks=["clustering", "all_to_all_pairs"])
print([(r.task_type, r.main_score_name, round(r.main_score, 3)) for r in results])

ds = Dataset.from_texts(texts, labels, documents=doc_ids, schema="retrieval",
                        chunk_words=100, texts_per_query=8)
ds.save("built/mine")                                   # a Hub-ready folder, if wanted
```

:class:`Dataset` forms its rows with the same code as ``stylebench build --from``
(:mod:`dataset_scripts.custom`: column mapping, chunking, the retrieval split by document,
counted drops) and validates them with the shared schemas; :func:`evaluate` embeds every
unique text once (through :class:`evaluators.run.runner.Runner`, optionally with the on-disk
cache) and runs the STEB task evaluators (:func:`evaluators.tasks.get_evaluator`) on those
vectors. It returns :class:`evaluators.records.record.ResultRecord` records (``.to_dict()``
for JSON), the type ``stylebench run`` writes and every reader loads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.schemas import SCHEMAS, validate_rows
from dataset_scripts.custom.build import BuildOptions, form_tables
from dataset_scripts.custom.readers import Source, read_source
from evaluators.data import DEFAULT_SPLIT, Table, available_configs, load_table, rows_fingerprint
from evaluators.records.record import ResultRecord
from evaluators.run.runner import TaskSpec, check_sampling
from evaluators.run.service import (
    RunConfig,
    load_encoder,
    plan,
    run_specs,
)
from evaluators.tasks import DEFAULT_SEED, EVALUATORS, Sampling, check_tasks

__all__ = ["Dataset", "evaluate"]


@dataclass
class Dataset:
    """Rows per schema config (``{"labelled_texts": [...]}``), validated on creation.

    ``dropped`` counts the rows the formation left out and why (empty texts, authors
    with one document, ...), as a built folder's card does.
    """

    tables: dict[str, list[dict[str, Any]]]
    name: str = "dataset"
    dropped: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for config, rows in self.tables.items():
            validate_rows(config, rows, f"{self.name} [{config}]")

    # ------------------------------------------------------------------ constructors
    @classmethod
    def _from_source(cls, source: Source, name: str, options: dict[str, Any]) -> Dataset:
        opts = BuildOptions(**options)
        dropped: Counter[str] = Counter()
        tables = form_tables(source, opts, dropped)
        return cls(tables, name, dict(dropped))

    @classmethod
    def from_records(
        cls,
        records: Iterable[dict[str, Any]],
        schema: str = "labelled_texts",
        *,
        name: str = "records",
        **options: Any,
    ) -> Dataset:
        """From dicts (one per text, pair or sequence item); ``options`` are those of
        ``stylebench build --from`` (``text_column``, ``label_column``, ``doc_column``,
        ``chunk_words``, ``chunks_per_doc``, ``texts_per_query``, ``seed``, ...)."""
        rows = [(f"{name} record {i}", dict(r)) for i, r in enumerate(records)]
        if not rows:
            raise DataError(f"{name}: no records")
        return cls._from_source(Source(name, "records", rows), name, {"schema": schema, **options})

    @classmethod
    def from_pandas(
        cls, frame: Any, schema: str = "labelled_texts", *, name: str = "dataframe", **options: Any
    ) -> Dataset:
        """From a pandas DataFrame (see :meth:`from_records` for ``options``)."""
        return cls.from_records(frame.to_dict("records"), schema, name=name, **options)

    @classmethod
    def from_texts(
        cls,
        texts: Sequence[str],
        labels: Sequence[Any] | None = None,
        *,
        documents: Sequence[Any] | None = None,
        schema: str = "labelled_texts",
        name: str = "texts",
        **options: Any,
    ) -> Dataset:
        """From parallel lists: texts, their labels (authors, styles) and optionally the
        document each text belongs to (for chunking and the retrieval split)."""
        if labels is not None and len(labels) != len(texts):
            raise DataError(f"{len(texts)} texts but {len(labels)} labels")
        if documents is not None and len(documents) != len(texts):
            raise DataError(f"{len(texts)} texts but {len(documents)} documents")
        records = []
        for i, text in enumerate(texts):
            record: dict[str, Any] = {"text": text}
            if labels is not None:
                record["label"] = labels[i]
            if documents is not None:
                record["document"] = documents[i]
            records.append(record)
        if documents is not None:
            options.setdefault("doc_column", "document")
        return cls.from_records(records, schema, name=name, **options)

    @classmethod
    def from_files(
        cls, source: str | Path, schema: str = "labelled_texts", **options: Any
    ) -> Dataset:
        """From a file, a folder of text files or a Hugging Face dataset, exactly as
        ``stylebench build --from`` reads it, but in memory."""
        opts = {"schema": schema, **options}
        dropped: Counter[str] = Counter()
        src = read_source(
            source,
            label_from="none" if schema == "probing" else opts.get("label_from", "folder"),
            file_pattern=opts.get("file_pattern"),
            split=opts.get("split"),
            config=opts.get("hf_config"),
            dropped=dropped,
        )
        name = opts.pop("name", None) or Path(str(source)).name.split(".")[0]
        ds = cls._from_source(src, name, opts)
        ds.dropped = dict(Counter(ds.dropped) + dropped)
        return ds

    @classmethod
    def load(cls, ref: str | Path) -> Dataset:
        """A built folder or Hub dataset id (every stylebench config it has)."""
        ref = str(ref)
        tables = {c: load_table(ref, c).rows for c in available_configs(ref)}
        return cls(tables, Path(ref).name or ref)

    # ------------------------------------------------------------------ use
    def as_tables(self) -> list[Table]:
        """The rows as :class:`evaluators.data.Table` objects (one per config)."""
        return [
            Table(self.name, self.name, config, DEFAULT_SPLIT, rows, rows_fingerprint(rows))
            for config, rows in self.tables.items()
        ]

    def save(self, out: str | Path, *, license: str | None = None) -> Path:
        """Write a Hub-ready folder (Parquet + card) with the shared writer; push it with
        ``stylebench push <folder> --repo-id <org/name>``."""
        from dataset_scripts.core.hub_folder import write_hub_folder
        from dataset_scripts.core.spec import DatasetSpec

        spec = DatasetSpec(
            hub_id=f"local/{self.name}",
            pretty_name=self.name,
            summary=f"Built in Python with `evaluators.api.Dataset` ({', '.join(self.tables)}).",
            builder=None,
            license=license or "unknown (the licence of the source data)",
            source_url="(in-memory data)",
            citation="(cite the source of the data)",
            raw_format="Python records",
            protocol="Rows formed by `evaluators.api.Dataset` (the `stylebench build --from` code).",
            run_command=f"stylebench run --model <encoder> --dataset {out}",
        )
        splits = {config: {DEFAULT_SPLIT: rows} for config, rows in self.tables.items()}
        return Path(write_hub_folder(spec, splits, Path(out), self.dropped))

    def task_types(self) -> list[str]:
        return [t for c in self.tables for t in SCHEMAS[c].task_types if t in EVALUATORS]


def evaluate(
    encoder: Any,
    dataset: Dataset | str | Path,
    tasks: Sequence[str] | None = None,
    *,
    seed: int = DEFAULT_SEED,
    cache_dir: str | Path | None = None,
    progress: bool = False,
    episode_size: int | None = None,
    per_class: int | str | None = None,
    submetrics: dict[str, list[str]] | None = None,
) -> list[ResultRecord]:
    """Evaluate ``encoder`` (a built-in or model name, or any object with ``encode``) on
    ``dataset`` (a :class:`Dataset`, a built folder or a Hub id) for ``tasks`` (default:
    every task its schemas serve). Returns one result record per task
    (:class:`evaluators.records.record.ResultRecord`: ``main_score``, ``metrics``, ``task``,
    ``dataset``, ...; ``.to_json()`` gives what ``stylebench run`` writes); writes no
    file (unless ``cache_dir`` is given: then vectors are cached there).

    ``episode_size`` (``k`` texts of a class mean-pooled into one sample; ``-1`` = all of
    an author's texts, retrieval) and ``per_class`` (episodes kept per class, a number or
    ``"auto"``) follow the STEB authors' loader (:mod:`evaluators.tasks.episodes`) on the
    tasks that support them; ``submetrics`` (``{name: [classes]}``) re-scores each task on
    those classes. Each unique text is still embedded once.

    An encoder that must be fitted (TF-IDF) and is not yet is fitted on the evaluated
    texts, as ``stylebench run`` does without ``--fit-corpus``.
    """
    config = _config(tasks, seed, cache_dir, progress, episode_size, per_class, submetrics)
    return _run(encoder, dataset, config)


def run(
    encoder: Any,
    dataset: Dataset | str | Path,
    tasks: Sequence[str] | None = None,
    *,
    out: str | Path | None = None,
    seed: int = DEFAULT_SEED,
    cache_dir: str | Path | None = None,
    progress: bool = False,
    episode_size: int | None = None,
    per_class: int | str | None = None,
    submetrics: dict[str, list[str]] | None = None,
) -> list[ResultRecord]:
    """As :func:`evaluate`, and the records are also written under ``out`` when given
    (``<out>/<model>/<dataset>/<task>.json``, what ``stylebench run`` writes; each
    record's ``path`` says where): the same records as the CLI for the same run."""
    config = _config(tasks, seed, cache_dir, progress, episode_size, per_class, submetrics, out)
    return _run(encoder, dataset, config)


def _config(
    tasks: Sequence[str] | None,
    seed: int,
    cache_dir: str | Path | None,
    progress: bool,
    episode_size: int | None,
    per_class: int | str | None,
    submetrics: dict[str, list[str]] | None,
    out: str | Path | None = None,
) -> RunConfig:
    """The run service's configuration of an API call (:func:`evaluate`, :func:`run`)."""
    return RunConfig(
        seed=seed,
        sampling=Sampling(episode_size, per_class),
        submetrics=dict(submetrics or {}),
        tasks=tuple(tasks) if tasks is not None else None,
        cache_dir=Path(cache_dir) if cache_dir else None,
        out_dir=Path(out) if out else None,
        progress=progress,
    )


def _plan(
    dataset: Dataset | str | Path, config: RunConfig
) -> tuple[list[TaskSpec], dict[tuple[str, str, str | None], Table] | None]:
    """The specs of an API run, its task names and episodes checked once: a folder or
    Hub id is planned as ``stylebench run`` plans it (:func:`evaluators.run.service.plan`);
    a :class:`Dataset` in memory runs each task on the first of its tables that serves
    it, with the same checks."""
    if not isinstance(dataset, Dataset):
        return plan([str(dataset)], config), None
    check_tasks(config.tasks)
    wanted = list(config.tasks) if config.tasks is not None else dataset.task_types()
    tables = {t.config: t for t in dataset.as_tables()}
    specs, by_key = [], {}
    for task in wanted:
        config_name = next((c for c in tables if task in SCHEMAS[c].task_types), None)
        if config_name is None:
            needs = "/".join(s.name for s in SCHEMAS.values() if task in s.task_types)
            raise DataError(
                f"{dataset.name}: task {task!r} needs a {needs} table; the dataset has "
                f"{', '.join(tables)}"
            )
        table = tables[config_name]
        specs.append(TaskSpec(table.dataset, task, config_name, table.split))
        by_key[(table.dataset, config_name, table.split)] = table
    check_sampling(config.sampling, specs)
    return specs, by_key


def _run(encoder: Any, dataset: Dataset | str | Path, config: RunConfig) -> list[ResultRecord]:
    model, name = load_encoder(encoder, config)
    specs, tables = _plan(dataset, config)
    return run_specs(model, name, specs, config, tables=tables)


def compare(
    results: str | Path | Sequence[str | Path],
    model_a: str,
    model_b: str,
    *,
    benchmark: str | None = None,
    n_boot: int = 1000,
    seed: int = DEFAULT_SEED,
    alpha: float = 0.05,
) -> Any:
    """Model A against model B from stored result records (a ``stylebench run --out``
    folder or a results repository; nothing is embedded): paired tests per dataset and
    task, Holm-corrected wins/ties/losses and the benchmark-level difference with a
    two-level bootstrap CI, as ``stylebench compare``. Returns an
    :class:`evaluators.compare.benchmark.Comparison` (``.to_dict()`` for JSON); rank
    intervals of several models: :func:`evaluators.compare.api.rank_results`."""
    from evaluators.compare.api import compare_results

    return compare_results(
        results, model_a, model_b, benchmark=benchmark, n_boot=n_boot, seed=seed, alpha=alpha
    )
