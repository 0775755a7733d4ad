"""What is known of each STEB task type, in one place: a frozen :class:`TaskFacts` per
task, carried by its evaluator (``TaskEvaluator.facts``) and looked up by name
(:func:`task_facts`). Reports, the leaderboard, the model card and the result table read
their labels and main scores here.

| task | schema | main score | label | column | Hub task type | independent units |
|---|---|---|---|---|---|---|
| ``clustering`` | ``labelled_texts`` | ``v_measure`` | clustering | Clustering | Clustering | texts and the k-means seed |
| ``all_to_all_pairs`` | ``labelled_texts`` | ``auc`` | all-to-all pairs | All-to-All | PairClassification | texts |
| ``predefined_pairs`` | ``text_pairs`` | ``auc`` | predefined pairs | Predefined | PairClassification | texts, shared across pairs |
| ``order_alignment`` | ``style_sequences`` | ``distractor_accuracy`` | order alignment | Order Align. | OrderAlignment | sequences, each in many pairs |
| ``retrieval`` | ``retrieval`` | ``mrr`` | retrieval | Retrieval | Retrieval | authors, merged where they share a text (their queries and targets) |
| ``probing`` | ``probing`` | ``accuracy`` | probing | Probing | Probing | test texts (fixed probes) |

The task names are declared once in :mod:`dataset_scripts.core.schemas` (``TASK_TYPES``,
the bottom layer: datasets declare them too), and so is the schema each task reads
(``Schema.task_types``): a fact's ``schema`` is read from there, not written twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from dataset_scripts.core.errors import UnknownNameError
from dataset_scripts.core.schemas import (
    ALL_TO_ALL,
    CLUSTERING,
    ORDER,
    PREDEFINED,
    PROBING,
    RETRIEVAL,
    schema_for_task,
)


@dataclass(frozen=True)
class TaskFacts:
    """One task type: its name, the schema it reads, its main score, how people write
    it (``label``: tables and charts; ``column``: the leaderboard's column header), its
    task type in a Hub model card's ``model-index`` (``hub_type``) and the unit of
    independence its intervals and paired tests are computed over (``unit``)."""

    name: str
    main_score: str
    label: str
    column: str
    hub_type: str
    unit: str
    schema: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", schema_for_task(self.name).name)


_FACTS = (
    TaskFacts(
        CLUSTERING,
        main_score="v_measure",
        label="clustering",
        column="Clustering",
        hub_type="Clustering",
        unit="texts and the k-means seed",
    ),
    TaskFacts(
        ALL_TO_ALL,
        main_score="auc",
        label="all-to-all pairs",
        column="All-to-All",
        hub_type="PairClassification",
        unit="texts",
    ),
    TaskFacts(
        PREDEFINED,
        main_score="auc",
        label="predefined pairs",
        column="Predefined",
        hub_type="PairClassification",
        unit="texts, shared across pairs",
    ),
    TaskFacts(
        ORDER,
        main_score="distractor_accuracy",
        label="order alignment",
        column="Order Align.",
        hub_type="OrderAlignment",
        unit="sequences, each in many pairs",
    ),
    TaskFacts(
        RETRIEVAL,
        main_score="mrr",
        label="retrieval",
        column="Retrieval",
        hub_type="Retrieval",
        unit="authors, merged where they share a text (their queries and targets)",
    ),
    TaskFacts(
        PROBING,
        main_score="accuracy",
        label="probing",
        column="Probing",
        hub_type="Probing",
        unit="test texts (fixed probes)",
    ),
)

#: every task type's facts, in the order of ``dataset_scripts.core.schemas.TASK_TYPES``
TASK_FACTS: Mapping[str, TaskFacts] = MappingProxyType({f.name: f for f in _FACTS})


def task_facts(name: str) -> TaskFacts:
    """The facts of task type ``name``; an unknown name is an error naming the known ones."""
    if name not in TASK_FACTS:
        raise UnknownNameError(f"unknown task {name!r}; known tasks: {', '.join(TASK_FACTS)}")
    return TASK_FACTS[name]


def hub_type(task: str) -> str:
    """The Hub ``model-index`` task type of ``task`` (``PairClassification`` for both pair
    tasks); a name that is not a STEB task type (ARB's ``detection``, ...) as it is."""
    facts = TASK_FACTS.get(task)
    return facts.hub_type if facts else task
