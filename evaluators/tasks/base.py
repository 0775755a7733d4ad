"""What every task evaluator shares: the embedding lookup it reads vectors from and
the result it returns."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

import numpy as np

from evaluators.data import Table
from evaluators.tasks.protocol import DEFAULT_PROTOCOL, check_protocol, protocol_record

DEFAULT_SEED = 42  # STEB's seed (k-means, probe splits); every stochastic step takes it


class EmbeddingLookup:
    """Vectors of a set of unique texts; rows are fetched by text."""

    def __init__(self, texts: list[str], matrix: np.ndarray) -> None:
        if len(texts) != matrix.shape[0]:
            raise ValueError(f"{len(texts)} texts but {matrix.shape[0]} vectors")
        self.index = {text: i for i, text in enumerate(texts)}
        self.matrix = matrix

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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class TaskEvaluator(ABC):
    """One STEB task type. Subclasses declare the schema they read and implement
    :meth:`texts` (every text they need embedded) and :meth:`evaluate`."""

    task_type: ClassVar[str]
    schema: ClassVar[str]
    main_score_name: ClassVar[str]
    description: ClassVar[str]

    def __init__(self, seed: int = DEFAULT_SEED, protocol: str = DEFAULT_PROTOCOL) -> None:
        self.seed = seed
        self.protocol = check_protocol(protocol)

    @abstractmethod
    def texts(self, table: Table) -> list[str]:
        """Every text the evaluation embeds (duplicates allowed)."""

    @abstractmethod
    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        """Return (metrics, counts, details); metrics include ``main_score_name``."""

    def evaluate(self, table: Table, embed: EmbeddingLookup) -> TaskResult:
        metrics, counts, details = self.compute(table, embed)
        details = {"protocol": protocol_record(self.protocol), **details}
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
        )


def unit_normalise(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm, in float64; zero rows stay zero (cosine 0 with
    everything). Callers take cosines of these in float64 and round them to float32 once
    (``.astype(np.float32)``), so scores do not depend on the processor's summation
    order: ties stay ties on every CPU (issue 20)."""
    matrix = np.asarray(matrix, dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


def unit_histogram(values: np.ndarray) -> dict[str, list[float] | list[int]]:
    """Per-unit scores (one per pair, query, ...) as a compact histogram
    ``{"values": [...], "counts": [...]}``, stored in ``details["units"][metric]`` when the
    metric is the mean over those units: enough to bootstrap it (evaluators.steb_scores)
    without one number per unit in the result JSON."""
    distinct, counts = np.unique(np.round(np.asarray(values, dtype=float), 12), return_counts=True)
    return {"values": distinct.tolist(), "counts": counts.tolist()}


CI_N_BOOT = 1000  # resamples of every evaluation-time dataset CI
CI_ALPHA = 0.05  # 95 % percentile intervals


def bootstrap_weights(n: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` bootstrap resamples of ``n`` units as multiplicity counts (``size x n``):
    drawing n units with replacement is one multinomial draw over the units."""
    return rng.multinomial(n, np.full(n, 1.0 / n), size=size)


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
        low, high = np.quantile(finite, [alpha / 2, 1 - alpha / 2])
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
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(values.size, counts / values.size, size=n_boot)
    replicates = draws @ distinct / values.size
    method = f"percentile bootstrap over {unit} (mean of per-{unit[:-1]} values)"
    return ci_record(metric, replicates, unit, int(values.size), method, seed)
