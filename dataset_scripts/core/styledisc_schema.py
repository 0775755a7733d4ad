"""The ``style_triplets`` schema: one (reference, positive, negative) triplet per row.

Columns (Hugging Face ``Features`` in :data:`TRIPLET_COLUMNS`):

=====================  ===========================================================
``id``                 unique triplet id (``<setting>-<domain>-<n>``)
``setting``            ``DD`` (domain discrimination), ``AA`` (authorship
                       attribution) or ``LLM`` (personalised vs non-personalised)
``domain``             writing domain of the reference and the positive
``negative_domain``    domain of the negative (= ``domain`` in AA and LLM)
``reference``          T_ref: in DD/AA the author's bag of texts (style sample); in
                       LLM the author's target text
``positive``           T+: in DD/AA the author's target text; in LLM the generation
                       grounded in the author's bag
``negative``           T-: in DD/AA another author's target text; in LLM the
                       generation without grounding
``author``             author id of the reference, null where the corpus has none
``negative_author``    author id of the negative, null where unknown
``author_known``       False when the corpus has no author ids (the positive is then
                       only *same domain*, not *same author*)
``query``              the reconstructed user query (LLM setting; "" otherwise)
``generator``          the model that reconstructed the query and generated T+/T- ("")
``reference_tokens``,  lengths in tokens of the build's token counter
``positive_tokens``,
``negative_tokens``
=====================  ===========================================================

Folders are written by the shared :func:`dataset_scripts.core.hub_folder.write_hub_folder`;
:func:`validate_triplets` checks rows the way :func:`dataset_scripts.core.schemas.validate_rows`
checks STEB's schemas (one :class:`DataError` naming source, row, column and value).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.schema import Schema

CONFIG = "style_triplets"
SETTINGS: tuple[str, ...] = ("DD", "AA", "LLM")
TASK_TYPE = "style_discrimination"

TRIPLET_COLUMNS: dict[str, str] = {
    "id": "string",
    "setting": "string",
    "domain": "string",
    "negative_domain": "string",
    "reference": "string",
    "positive": "string",
    "negative": "string",
    "author": "string",
    "negative_author": "string",
    "author_known": "bool",
    "query": "string",
    "generator": "string",
    "reference_tokens": "int32",
    "positive_tokens": "int32",
    "negative_tokens": "int32",
}


def _where(source: str, index: int) -> str:
    return f"{source} row {index}"


def validate_triplets(rows: Sequence[Mapping[str, Any]], source: str) -> None:
    """Check triplet rows; raise :class:`DataError` naming the first bad row, column and
    value."""
    if len(rows) == 0:
        raise DataError(f"{source}: dataset is empty (schema {CONFIG})")
    seen: set[str] = set()
    for index, row in enumerate(rows):
        where = _where(source, index)
        for column in TRIPLET_COLUMNS:
            if column not in row:
                raise DataError(f"{where}: missing column {column!r}")
        if row["id"] in seen:
            raise DataError(f"{where}: duplicate id {row['id']!r}")
        seen.add(row["id"])
        if row["setting"] not in SETTINGS:
            raise DataError(f"{where}: setting {row['setting']!r} is not one of {SETTINGS}")
        for column in TRIPLET_SCHEMA.text_columns:
            value = row[column]
            if not isinstance(value, str):
                raise DataError(
                    f"{where}: column {column!r} holds {type(value).__name__} {value!r:.60}, "
                    "expected a string"
                )
            if not value.strip():
                raise DataError(f"{where}: column {column!r} holds an empty text")
        for column in ("reference_tokens", "positive_tokens", "negative_tokens"):
            value = row[column]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise DataError(f"{where}: column {column!r} value {value!r} is not a count")
        known = row["author_known"]
        if not isinstance(known, bool):
            raise DataError(f"{where}: column 'author_known' value {known!r} is not a bool")
        if known and not row["author"]:
            raise DataError(f"{where}: author_known is True but column 'author' is empty")
        setting = row["setting"]
        if setting == "DD" and row["negative_domain"] == row["domain"]:
            raise DataError(
                f"{where}: DD negative comes from the reference's domain {row['domain']!r}"
            )
        if setting in ("AA", "LLM") and row["negative_domain"] != row["domain"]:
            raise DataError(
                f"{where}: {setting} negative domain {row['negative_domain']!r} differs from "
                f"{row['domain']!r}"
            )
        if setting == "AA":
            if not known or not row["negative_author"]:
                raise DataError(f"{where}: an AA triplet needs author ids (corpus has none)")
            if row["negative_author"] == row["author"]:
                raise DataError(f"{where}: AA negative is by the same author {row['author']!r}")
        if setting == "LLM" and not (row["query"] or "").strip():
            raise DataError(f"{where}: an LLM triplet needs its reconstructed 'query'")
        if row["reference"] == row["positive"] or row["reference"] == row["negative"]:
            raise DataError(f"{where}: a candidate repeats the reference text")


TRIPLET_SCHEMA = Schema(
    CONFIG,
    TRIPLET_COLUMNS,
    (TASK_TYPE,),
    "a reference text with a stylistically closer positive and a farther negative candidate",
    ("reference", "positive", "negative"),
    validator=validate_triplets,
)
