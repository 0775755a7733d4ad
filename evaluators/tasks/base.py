"""What every task evaluator shares: the embedding lookup it reads vectors from and
the result it returns."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, ClassVar

import numpy as np

from dataset_scripts.core.errors import DataError
from evaluators.data import Table
from evaluators.metric_math.resampling import (
    DEFAULT_SEED,
    generator,
    percentile_interval,
    resampled_means,
)
from evaluators.tasks.episodes import (
    ALL,
    DEFAULT_SAMPLING,
    ENCODER_POOLING,
    Episodes,
    Sampling,
    form_episodes,
    pool_mean,
)
from evaluators.tasks.facts import TaskFacts
from evaluators.tasks.protocol import DEFAULT_PROTOCOL, check_protocol, protocol_record


class EmbeddingLookup:
    """Vectors of a set of unique texts; rows are fetched by text. Episodes (groups of
    texts pooled into one sample) come from :meth:`pool`: the mean of their texts'
    vectors, or, for an encoder that reads an episode itself (``episode_pooling =
    "model"``, e.g. LUAR), the vectors the runner stored with :meth:`add_episodes`."""

    def __init__(self, texts: list[str], matrix: np.ndarray) -> None:
        if len(texts) != matrix.shape[0]:
            raise ValueError(f"{len(texts)} texts but {matrix.shape[0]} vectors")
        self.index = {text: i for i, text in enumerate(texts)}
        self.matrix = matrix
        self.episode_index: dict[tuple[str, ...], int] = {}
        self.episode_matrix: np.ndarray | None = None

    def add_episodes(self, groups: list[tuple[str, ...]], matrix: np.ndarray) -> None:
        """Vectors the encoder made for whole episodes (one row per group of texts)."""
        if len(groups) != matrix.shape[0]:
            raise ValueError(f"{len(groups)} episodes but {matrix.shape[0]} vectors")
        self.episode_index = {tuple(g): i for i, g in enumerate(groups)}
        self.episode_matrix = matrix

    def pool(self, groups: Sequence[Sequence[str]], dtype: Any = None) -> np.ndarray:
        """One vector per group of texts: the encoder's own episode vector where the
        runner stored one, else the mean of the texts' vectors (:func:`pool_mean`, the
        STEB authors' ``embed_multiple``), in ``dtype`` (default: the vectors' own)."""
        if self.episode_matrix is not None:
            try:
                rows = [self.episode_index[tuple(g)] for g in groups]
            except KeyError as error:
                raise KeyError(f"episode was not embedded: {str(error)[:80]}") from None
            vectors = self.episode_matrix[rows]
            return vectors if dtype is None else vectors.astype(dtype)
        members, start = [], 0
        for group in groups:
            members.append(np.arange(start, start + len(group)))
            start += len(group)
        return pool_mean(self(t for g in groups for t in g), members, dtype)

    def __call__(self, texts: Iterable[str]) -> np.ndarray:
        try:
            rows = [self.index[t] for t in texts]
        except KeyError as error:
            raise KeyError(f"text was not embedded: {str(error)[:80]}") from None
        return self.matrix[rows]

    @classmethod
    def from_encoder(cls, encoder: Any, texts: Iterable[str]) -> EmbeddingLookup:
        """Embed the unique texts with ``encoder`` directly (no cache); for library use."""
        from evaluators.encoders.base import as_embedding_matrix

        unique = list(dict.fromkeys(texts))
        return cls(unique, as_embedding_matrix(encoder.encode(unique), len(unique), repr(encoder)))


def labelled_groups(table: Table, sampling: Sampling) -> tuple[Episodes, list[tuple[str, ...]]]:
    """The episodes of a ``labelled_texts`` table and the texts each pools."""
    episodes = form_episodes([row["label"] for row in table.rows], sampling, "label")
    return episodes, [tuple(table.rows[i]["text"] for i in m) for m in episodes.members]


def labelled_episode_groups(table: Table, sampling: Sampling) -> list[tuple[str, ...]]:
    """:meth:`TaskEvaluator.episode_groups` of a ``labelled_texts`` task."""
    return [] if sampling.is_default else labelled_groups(table, sampling)[1]


def labelled_texts(table: Table, sampling: Sampling) -> list[str]:
    """The texts a ``labelled_texts`` task embeds: every row's, or those its episodes use."""
    if sampling.is_default:
        return [row["text"] for row in table.rows]
    return [t for group in labelled_groups(table, sampling)[1] for t in group]


def labelled_samples(
    table: Table, embed: EmbeddingLookup, sampling: Sampling
) -> tuple[list[Any], np.ndarray, dict[str, int], dict[str, Any]]:
    """``(labels, vectors, counts, details)`` of the samples of a ``labelled_texts``
    table: one per row by default, else one mean-pooled vector per episode."""
    labels = [row["label"] for row in table.rows]
    if sampling.is_default:
        return labels, embed(row["text"] for row in table.rows), {"n_texts": len(labels)}, {}
    episodes, groups = labelled_groups(table, sampling)
    pooled = embed.pool(groups)
    counts = {"n_texts": int(episodes.used.size), "n_episodes": len(episodes)}
    return list(episodes.labels), pooled, counts, {"sampling": episodes.record}


@dataclass
class TaskResult:
    task_type: str
    dataset: str
    config: str
    split: str
    main_score_name: str
    main_score: float
    metrics: dict[str, float]
    counts: dict[str, int]
    seed: int
    details: dict[str, Any] = field(default_factory=dict)
    # per-unit data for the result record (evaluators.records.items); None: not kept
    items: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class TaskEvaluator(ABC):
    """One STEB task type. Subclasses declare the schema they read and implement
    :meth:`texts` (every text they need embedded) and :meth:`evaluate`.

    ``sampling`` (:class:`evaluators.tasks.episodes.Sampling`) forms episodes and caps
    the samples per class where the task supports it (``episodes``: ``"none"``, ``"k"``
    for sizes >= 1, ``"k_or_all"`` also for -1); ``submetrics`` (``{name: [classes]}``,
    the authors' label-subset sub-metrics) re-scores the task on the rows of those
    classes (``class_column``) into ``details["submetrics"][name]``."""

    facts: ClassVar[TaskFacts]  # name, schema, main score, labels, unit: one place
    task_type: ClassVar[str]  # = facts.name
    schema: ClassVar[str]  # = facts.schema
    main_score_name: ClassVar[str]  # = facts.main_score
    description: ClassVar[str]
    episodes: ClassVar[str] = "none"
    class_column: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        facts = cls.__dict__.get("facts")
        if facts is not None:  # the names the evaluators read, from the task's facts
            cls.task_type, cls.schema = facts.name, facts.schema
            cls.main_score_name = facts.main_score

    def __init__(
        self,
        seed: int = DEFAULT_SEED,
        protocol: str = DEFAULT_PROTOCOL,
        sampling: Sampling | None = None,
        submetrics: dict[str, list[str]] | None = None,
    ) -> None:
        self.seed = seed
        self.protocol = check_protocol(protocol)
        self.sampling = sampling or DEFAULT_SAMPLING
        self.not_applied: str | None = None  # set by the runner when it withheld sampling
        why = self.sampling_problem(self.sampling)
        if why:
            raise DataError(f"{self.task_type}: {why}")
        self.submetrics = dict(submetrics or {})
        if self.submetrics and self.class_column is None:
            raise DataError(f"{self.task_type}: rows have no class column for sub-metrics")
        for name, classes in self.submetrics.items():
            if isinstance(classes, str) or not all(isinstance(c, str) for c in classes):
                raise DataError(f"sub-metric {name!r}: expected a list of class names")

    @classmethod
    def sampling_problem(cls, sampling: Sampling) -> str | None:
        """Why this task cannot take ``sampling`` (None when it can)."""
        if sampling.is_default:
            return None
        if cls.episodes == "none":
            return "episodes and per-class counts do not apply to this task"
        if sampling.episode_size == ALL and cls.episodes != "k_or_all":
            return "episode size -1 is only supported for retrieval (as in the STEB code)"
        return None

    @abstractmethod
    def texts(self, table: Table) -> list[str]:
        """Every text the evaluation embeds (duplicates allowed)."""

    def episode_groups(self, table: Table) -> list[tuple[str, ...]]:
        """The groups of texts the evaluation pools into episodes (none by default); an
        encoder that reads episodes itself embeds these instead of :meth:`texts`."""
        return []

    @abstractmethod
    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        """Return (metrics, counts, details); metrics include ``main_score_name``."""

    def evaluate(self, table: Table, embed: EmbeddingLookup) -> TaskResult:
        metrics, counts, details = self.compute(table, embed)
        items = details.pop("items", None)
        if items is not None and "omitted" in items:
            details["items_omitted"], items = items["omitted"], None
        details = {
            "protocol": protocol_record(self.protocol),
            "sampling": self.sampling.requested(),
            **details,
        }
        if self.not_applied:
            details["sampling"] = {**details["sampling"], "not_applied": self.not_applied}
        if embed.episode_matrix is not None and "pooling" in details["sampling"]:
            details["sampling"] = {**details["sampling"], "pooling": ENCODER_POOLING}
        if self.submetrics:
            details["submetrics"] = self.subset_metrics(table, embed)
        return TaskResult(
            task_type=self.task_type,
            dataset=table.name,
            config=table.config,
            split=table.split,
            main_score_name=self.main_score_name,
            main_score=float(metrics[self.main_score_name]),
            metrics={k: float(v) for k, v in metrics.items()},
            counts=counts,
            seed=self.seed,
            details=details,
            items=items,
        )

    def subset_metrics(self, table: Table, embed: EmbeddingLookup) -> dict[str, Any]:
        """The authors' label-subset sub-metrics: the task re-run on the rows whose class
        is in each named subset; a subset the task cannot score records its error."""
        out: dict[str, Any] = {}
        for name, classes in self.submetrics.items():
            wanted = set(classes)
            rows = [r for r in table.rows if r[self.class_column] in wanted]
            missing = sorted(wanted - {r[self.class_column] for r in rows})
            sub = replace(table, rows=rows)
            try:
                metrics, counts, _ = self.compute(sub, embed)
            except (DataError, ValueError) as error:
                out[name] = {"classes": sorted(wanted), "error": str(error)}
                continue
            out[name] = {"classes": sorted(wanted), "metrics": metrics, "counts": counts}
            if missing:
                out[name]["missing_classes"] = missing
        return out


def unit_histogram(values: np.ndarray) -> dict[str, list[float] | list[int]]:
    """Per-unit scores (one per pair, query, ...) as a compact histogram
    ``{"values": [...], "counts": [...]}``, stored in ``details["units"][metric]`` when the
    metric is the mean over those units: enough to bootstrap it (evaluators.steb_scores)
    without one number per unit in the result JSON."""
    distinct, counts = np.unique(np.round(np.asarray(values, dtype=float), 12), return_counts=True)
    return {"values": distinct.tolist(), "counts": counts.tolist()}


CI_N_BOOT = 1000  # resamples of every evaluation-time dataset CI
CI_ALPHA = 0.05  # 95 % percentile intervals


def ci_record(
    metric: str,
    replicates: np.ndarray,
    unit: str,
    n_units: int,
    method: str,
    seed: int,
    alpha: float = CI_ALPHA,
) -> dict[str, Any]:
    """``details["ci95"]`` of a result: the percentile interval of the finite bootstrap
    ``replicates`` of ``metric`` (replicates where the metric is undefined, e.g. a resample
    with one class, are NaN and skipped; their number is recorded)."""
    finite = np.asarray(replicates, dtype=float)
    finite = finite[np.isfinite(finite)]
    interval = None
    if finite.size:
        low, high = percentile_interval(finite, 1.0 - alpha)
        interval = [float(low), float(high)]
    return {
        metric: interval,
        "n_boot": int(np.asarray(replicates).size),
        "n_skipped": int(np.asarray(replicates).size - finite.size),
        "seed": int(seed),
        "unit": unit,
        "n_units": int(n_units),
        "method": method,
    }


def mean_ci(
    metric: str,
    values: np.ndarray,
    unit: str,
    seed: int,
    n_boot: int = CI_N_BOOT,
) -> dict[str, Any]:
    """``details["ci95"]`` of a score that is the mean of independent per-unit values
    (pairs, queries): percentile bootstrap over the units. Resampling n units with
    replacement and averaging equals one multinomial draw over the *distinct* values
    with their frequencies, so a replicate costs O(#distinct values), not O(n)."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        raise ValueError(f"{metric}: no units to bootstrap")
    distinct, counts = np.unique(values, return_counts=True)
    replicates = resampled_means(distinct, counts, n_boot, generator(seed))
    method = f"percentile bootstrap over {unit} (mean of per-{unit[:-1]} values)"
    return ci_record(metric, replicates, unit, int(values.size), method, seed)
