"""The STEB task evaluators, registered by task type."""

from __future__ import annotations

from collections.abc import Iterable

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


def unknown_task(task: str) -> UnknownNameError:
    """The error of a task name that is not a task type."""
    return UnknownNameError(f"unknown task {task!r}; known tasks: {', '.join(EVALUATORS)}")


def check_tasks(tasks: Iterable[str] | None) -> None:
    """The one check of a run's task names: :func:`evaluators.run.service.plan` calls it
    once per run (every route plans there); :func:`evaluators.run.runner.plan_tasks` when
    called on its own."""
    for task in tasks or ():
        if task not in EVALUATORS:
            raise unknown_task(task)


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
        raise unknown_task(task_type)
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
    "check_tasks",
    "get_evaluator",
]
