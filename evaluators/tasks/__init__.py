"""The STEB task evaluators, registered by task type."""

from __future__ import annotations

from dataset_scripts.core.errors import UnknownNameError
from evaluators.tasks.base import DEFAULT_SEED, EmbeddingLookup, TaskEvaluator, TaskResult
from evaluators.tasks.clustering import ClusteringEvaluator
from evaluators.tasks.episodes import Sampling
from evaluators.tasks.order_alignment import OrderAlignmentEvaluator
from evaluators.tasks.pairs import AllToAllPairsEvaluator, PredefinedPairsEvaluator
from evaluators.tasks.probing import ProbingEvaluator
from evaluators.tasks.protocol import DEFAULT_PROTOCOL, PROTOCOL_VERSION, PROTOCOLS
from evaluators.tasks.retrieval import RetrievalEvaluator

EVALUATORS: dict[str, type[TaskEvaluator]] = {
    cls.task_type: cls
    for cls in (
        ClusteringEvaluator,
        AllToAllPairsEvaluator,
        PredefinedPairsEvaluator,
        OrderAlignmentEvaluator,
        RetrievalEvaluator,
        ProbingEvaluator,
    )
}


def get_evaluator(
    task_type: str,
    seed: int = DEFAULT_SEED,
    protocol: str = DEFAULT_PROTOCOL,
    sampling: Sampling | None = None,
    submetrics: dict[str, list[str]] | None = None,
) -> TaskEvaluator:
    """The evaluator of ``task_type``; ``sampling`` (episodes, per-class count) and
    ``submetrics`` (named class subsets) as in :class:`TaskEvaluator`."""
    if task_type not in EVALUATORS:
        raise UnknownNameError(f"unknown task {task_type!r}; known tasks: {', '.join(EVALUATORS)}")
    return EVALUATORS[task_type](
        seed=seed, protocol=protocol, sampling=sampling, submetrics=submetrics
    )


__all__ = [
    "DEFAULT_PROTOCOL",
    "DEFAULT_SEED",
    "EVALUATORS",
    "PROTOCOLS",
    "PROTOCOL_VERSION",
    "EmbeddingLookup",
    "Sampling",
    "TaskEvaluator",
    "TaskResult",
    "get_evaluator",
]
