"""The STEB paper's reference results (Tables 2-9 and 14) as data with provenance.

``data/paper_tables.json`` holds every number of those tables as printed (x100), keyed by
table, row (model) and column, with the line of the row in the paper's text extraction.
Tables 2-5 are the main-text excerpts of the full appendix Tables 6-9 (same numbers).

Columns per table:

* 2, 6 (operational): clustering, all_to_all_pairs, predefined_pairs, order_alignment
  (distractor accuracy), retrieval, probing, steb_score (= mean of the six task columns).
* 3, 9 (definitional): genre, register, time, demographics, dialect, idiolect,
  object_of_study (= mean of those six), linguistic_features, content_independence,
  average (= mean of object_of_study, linguistic_features, content_independence).
* 4, 7 (application): atd, atd_adversarial, av_overall, av_easy, av_medium, av_hard, ar,
  average (= mean of atd, atd_adversarial, av_overall and ar; easy/medium/hard do not count).
* 5, 8 (multilingual): pair_classification, retrieval, average (= mean of the two).
* 14 (multilingual AV, chunk-and-pool vs truncation): chunk_and_pool_auc,
  chunk_and_pool_rank, truncate_auc, truncate_rank (no average).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from dataset_scripts.core.errors import UnknownNameError
from dataset_scripts.core.schemas import TASK_TYPES

DATA_PACKAGE = "evaluators.steb_scores.data"
PAPER_FILE = "steb_style_text_embedding_benchmark.txt"

OPERATIONAL_TASKS = TASK_TYPES  # the operational view: one column per task type
OBJECTS_OF_STUDY = ("genre", "register", "time", "demographics", "dialect", "idiolect")
DEFINITIONAL_CLUSTERS = (*OBJECTS_OF_STUDY, "linguistic_features", "content_independence")
APPLICATION_COLUMNS = (
    "atd",
    "atd_adversarial",
    "av_overall",
    "av_easy",
    "av_medium",
    "av_hard",
    "ar",
)
APPLICATION_AVERAGED = ("atd", "atd_adversarial", "av_overall", "ar")
MULTILINGUAL_COLUMNS = ("pair_classification", "retrieval")

# Which table holds which view, and how its average column is defined.
VIEW_TABLES = {"operational": "6", "definitional": "9", "application": "7", "multilingual": "8"}


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _definitional_average(v: dict[str, float]) -> dict[str, float]:
    oos = _mean([v[c] for c in OBJECTS_OF_STUDY])
    return {
        "object_of_study": oos,
        "average": _mean(
            [v["object_of_study"], v["linguistic_features"], v["content_independence"]]
        ),
    }


# table -> function(values) -> {average column: recomputed value}
AVERAGE_RULES: dict[str, Callable[[dict[str, float]], dict[str, float]]] = {
    "2": lambda v: {"steb_score": _mean([v[c] for c in OPERATIONAL_TASKS])},
    "6": lambda v: {"steb_score": _mean([v[c] for c in OPERATIONAL_TASKS])},
    "3": _definitional_average,
    "9": _definitional_average,
    "4": lambda v: {"average": _mean([v[c] for c in APPLICATION_AVERAGED])},
    "7": lambda v: {"average": _mean([v[c] for c in APPLICATION_AVERAGED])},
    "5": lambda v: {"average": _mean([v[c] for c in MULTILINGUAL_COLUMNS])},
    "8": lambda v: {"average": _mean([v[c] for c in MULTILINGUAL_COLUMNS])},
}


@dataclass(frozen=True)
class ReferenceRow:
    """One printed row: ``values`` are x100 as in the paper."""

    table: str
    model: str  # canonical name (Table 6 spelling)
    printed: str  # the name as this table prints it
    group: str | None
    line: int  # line of the model name in the paper's text extraction
    values: dict[str, float]

    def provenance(self, column: str) -> str:
        return f"STEB Table {self.table}, row {self.printed!r}, column {column!r} ({PAPER_FILE}:{self.line})"


@cache
def _raw() -> dict[str, Any]:
    text = resources.files(DATA_PACKAGE).joinpath("paper_tables.json").read_text(encoding="utf-8")
    return json.loads(text)


def tables() -> list[str]:
    """The transcribed table numbers, as strings."""
    return list(_raw()["tables"])


def table_info(table: str | int) -> dict[str, Any]:
    """Caption, columns and ``num_datasets`` (where printed) of one table."""
    key = str(table)
    if key not in _raw()["tables"]:
        raise UnknownNameError(
            f"STEB table {table!r} is not transcribed; known: {', '.join(tables())}"
        )
    info = dict(_raw()["tables"][key])
    info.pop("rows")
    return info


def reference_rows(table: str | int) -> list[ReferenceRow]:
    """Every row of one table, in printed order."""
    key = str(table)
    table_info(key)
    return [
        ReferenceRow(
            table=key,
            model=row["model"],
            printed=row.get("printed", row["model"]),
            group=row["group"],
            line=row["line"],
            values=dict(row["values"]),
        )
        for row in _raw()["tables"][key]["rows"]
    ]


def reference_value(table: str | int, model: str, column: str) -> float:
    """One printed number (x100), looked up by canonical or printed model name."""
    for row in reference_rows(table):
        if model in (row.model, row.printed):
            if column not in row.values:
                raise UnknownNameError(
                    f"STEB Table {table} has no column {column!r}; columns: {', '.join(row.values)}"
                )
            return row.values[column]
    raise UnknownNameError(f"STEB Table {table} has no row for model {model!r}")


def recompute_averages(row: ReferenceRow) -> dict[str, float]:
    """The row's average column(s) recomputed from its own per-column values (x100);
    empty for tables without an average (Table 14)."""
    rule = AVERAGE_RULES.get(row.table)
    return rule(row.values) if rule else {}


def paper_models() -> list[str]:
    """The 40 models of the paper, in Table 6 order."""
    return [row.model for row in reference_rows("6")]


def view_reference(view: str) -> dict[str, dict[str, float]]:
    """``{model: {column: value in [0, 1]}}`` of the full table for a view (operational,
    definitional, application, multilingual), scaled from the printed x100."""
    if view not in VIEW_TABLES:
        raise UnknownNameError(f"unknown view {view!r}; known: {', '.join(VIEW_TABLES)}")
    return {
        row.model: {c: v / 100.0 for c, v in row.values.items()}
        for row in reference_rows(VIEW_TABLES[view])
    }
