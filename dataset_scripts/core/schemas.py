"""One schema per kind of STEB data, enforced when a dataset is built and when it is
loaded for evaluation.

A schema is the name of a dataset *config* in a Hub-ready folder. The task types
that a config serves follow from its schema:

============================  ==============================================  =====================================
schema (config name)          columns                                         task types
============================  ==============================================  =====================================
``labelled_texts``            id, text, label                                 clustering, all_to_all_pairs
``text_pairs``                id, text1, text2, label (1 same / 0 different)  predefined_pairs
``style_sequences``           id, group, texts (ordered), styles              order_alignment
``retrieval``                 id, author, role ("query"/"target"), texts      retrieval
``probing``                   id, text, label_<feat>, split_<feat> ...        probing
============================  ==============================================  =====================================

In ``style_sequences`` every row is one parallel sequence: ``texts[0]`` carries the
*most* of the style and the last position the least (STEB's convention); all rows of a
``group`` have the same number of positions and are paired with each other. In
``retrieval`` a row with several ``texts`` is one query (or target) made of several
documents by one author. In ``probing`` each feature has an integer bin label (0-4)
and a split ("train"/"validation"/"test"), both null where the balanced sample left
the text out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datasets import Features

from dataset_scripts.core.arb_schema import ARB_SCHEMA
from dataset_scripts.core.errors import DataError
from dataset_scripts.core.schema import Schema, to_features
from dataset_scripts.core.styledisc_schema import TRIPLET_SCHEMA

STEB_SCHEMAS: tuple[Schema, ...] = (
    Schema(
        "labelled_texts",
        {"id": "string", "text": "string", "label": "string"},
        ("clustering", "all_to_all_pairs"),
        "one text per row with its style label",
        ("text",),
    ),
    Schema(
        "text_pairs",
        {
            "id": "string",
            "text1": "string",
            "text2": "string",
            "label": "int8",
        },
        ("predefined_pairs",),
        "a predefined pair of texts; label 1 = same style/author, 0 = different",
        ("text1", "text2"),
    ),
    Schema(
        "style_sequences",
        {
            "id": "string",
            "group": "string",
            "texts": "list<string>",
            "styles": "list<string>",
        },
        ("order_alignment",),
        "a parallel sequence of texts ordered from most to least of the group's style",
        ("texts",),
    ),
    Schema(
        "retrieval",
        {
            "id": "string",
            "author": "string",
            "role": "string",
            "texts": "list<string>",
        },
        ("retrieval",),
        "a query or target: one or more documents by one author",
        ("texts",),
    ),
    Schema(
        "probing",
        {"id": "string", "text": "string"},  # + label_/split_ pairs
        ("probing",),
        "a text with, per linguistic feature, a quantile-bin label and a split",
        ("text",),
    ),
)

# Every schema, listed here explicitly: STEB's, ARB's quartets, style-discrimination triplets.
SCHEMAS: dict[str, Schema] = {s.name: s for s in (*STEB_SCHEMAS, ARB_SCHEMA, TRIPLET_SCHEMA)}

# The task types (STEB's six), named once: datasets declare them, evaluators serve them.
CLUSTERING = "clustering"
ALL_TO_ALL = "all_to_all_pairs"
PREDEFINED = "predefined_pairs"
ORDER = "order_alignment"
RETRIEVAL = "retrieval"
PROBING = "probing"
TASK_TYPES: tuple[str, ...] = (CLUSTERING, ALL_TO_ALL, PREDEFINED, ORDER, RETRIEVAL, PROBING)


def schema_for_task(task_type: str) -> Schema:
    for schema in SCHEMAS.values():
        if task_type in schema.task_types:
            return schema
    raise DataError(f"unknown task type {task_type!r}; known: {', '.join(TASK_TYPES)}")


def probing_features(column_names: Sequence[str]) -> list[str]:
    """Feature names of a probing table (columns ``label_<f>`` with a ``split_<f>``)."""
    names = [c[len("label_") :] for c in column_names if c.startswith("label_")]
    missing = [n for n in names if f"split_{n}" not in column_names]
    if missing:
        raise DataError(f"probing table has label_{missing[0]} but no split_{missing[0]} column")
    return names


def probing_features_spec(features: Sequence[str]) -> Features:
    spec = dict(SCHEMAS["probing"].columns)
    for name in features:
        spec[f"label_{name}"] = "int8"
        spec[f"split_{name}"] = "string"
    return to_features(spec)


def _where(source: str, index: int) -> str:
    return f"{source} row {index}"


def validate_rows(schema_name: str, rows: Sequence[Mapping[str, Any]], source: str) -> None:
    """Check rows against a schema; raise :class:`DataError` naming the first bad row,
    column and value. ``source`` names the file or dataset for the message."""
    if schema_name not in SCHEMAS:
        raise DataError(f"{source}: unknown schema {schema_name!r}; known: {', '.join(SCHEMAS)}")
    schema = SCHEMAS[schema_name]
    if len(rows) == 0:
        raise DataError(f"{source}: dataset is empty (schema {schema_name})")
    required = list(schema.columns)
    seen_ids: set[str] = set()
    for index, row in enumerate(rows):
        for column in required:
            if column not in row:
                raise DataError(f"{_where(source, index)}: missing column {column!r}")
        row_id = row["id"]
        if row_id in seen_ids:
            raise DataError(f"{_where(source, index)}: duplicate id {row_id!r}")
        seen_ids.add(row_id)
        for column in schema.text_columns:
            value = row[column]
            values = value if isinstance(value, list | tuple) else [value]
            if isinstance(value, list | tuple) and len(value) == 0:
                raise DataError(f"{_where(source, index)}: column {column!r} is an empty list")
            for item in values:
                if item is None:
                    raise DataError(
                        f"{_where(source, index)}: column {column!r} is empty (null), "
                        "expected a text"
                    )
                if not isinstance(item, str):
                    raise DataError(
                        f"{_where(source, index)}: column {column!r} holds "
                        f"{type(item).__name__} {item!r:.60}, expected a string"
                    )
                if not item.strip():
                    raise DataError(
                        f"{_where(source, index)}: column {column!r} holds an empty text"
                    )
        if schema_name == "text_pairs" and row["label"] not in (0, 1):
            raise DataError(f"{_where(source, index)}: label {row['label']!r} is not 0 or 1")
        if schema_name == "retrieval" and row["role"] not in ("query", "target"):
            raise DataError(
                f"{_where(source, index)}: role {row['role']!r} is not 'query' or 'target'"
            )
        if schema_name == "style_sequences" and len(row["styles"]) != len(row["texts"]):
            raise DataError(
                f"{_where(source, index)}: {len(row['texts'])} texts but {len(row['styles'])} styles"
            )
    _validate_table(schema_name, rows, source)


def _validate_table(schema_name: str, rows: Sequence[Mapping[str, Any]], source: str) -> None:
    validator = SCHEMAS[schema_name].validator
    if validator is not None:
        validator(rows, source)
    if schema_name == "labelled_texts":
        labels = {row["label"] for row in rows}
        if len(labels) < 2:
            raise DataError(
                f"{source}: label column has one class ({next(iter(labels))!r}); "
                "clustering and pair tasks need at least two"
            )
    elif schema_name == "text_pairs":
        labels = {row["label"] for row in rows}
        if labels != {0, 1}:
            raise DataError(
                f"{source}: pair labels are all {next(iter(labels))}; need both 0 and 1"
            )
    elif schema_name == "style_sequences":
        lengths: dict[str, int] = {}
        for index, row in enumerate(rows):
            expected = lengths.setdefault(row["group"], len(row["texts"]))
            if len(row["texts"]) != expected:
                raise DataError(
                    f"{_where(source, index)}: group {row['group']!r} mixes sequences of "
                    f"{expected} and {len(row['texts'])} texts"
                )
            if expected < 2:
                raise DataError(f"{_where(source, index)}: a style sequence needs >= 2 texts")
    elif schema_name == "retrieval":
        queries = {row["author"] for row in rows if row["role"] == "query"}
        targets = {row["author"] for row in rows if row["role"] == "target"}
        if not queries or not targets:
            raise DataError(f"{source}: retrieval data needs both query and target rows")
        if not queries & targets:
            raise DataError(f"{source}: no author has both a query and a target")
