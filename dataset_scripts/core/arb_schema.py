"""The ARB quartet schema (config ``quartets``), in the style of
:mod:`dataset_scripts.core.schemas`, and the writer of an ARB Hub-ready folder.

One row is one text. The first twelve columns are exactly the fields of the ARB release
(paper Sec. Data Availability): ``id, text, label, label_id, regime, source_dataset,
source_dataset_short, generator_model, source_index, pair_id, text_sha256, word_count``.
``label`` / ``label_id`` are the regime class (Human 0, Free-LLM 1, H2L 2, LLM2L 3); the
Human row of a source item is stored once and shared by every generator block, so its
``generator_model`` is null. The remaining columns are the content-origin and surface
labels of Table 2, the human source's length stratum, the Free-LLM generator where it
differs from the block's generator, and the four quality flags of Sec. 4.6 (kept, never
dropped).

The shared :func:`dataset_scripts.core.hub_folder.write_hub_folder` validates STEB schemas only,
so :func:`write_arb_folder` writes the Parquet with ``datasets``' ``to_parquet`` and the card
with :func:`dataset_scripts.core.cards.render_card` (the schema is made known to the card
template only for the duration of the call).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.schema import Schema

CONFIG = "quartets"
REGIMES: tuple[str, ...] = ("Human", "Free-LLM", "H2L", "LLM2L")
CONTENT_ORIGIN = {"Human": "human", "Free-LLM": "llm", "H2L": "human", "LLM2L": "llm"}
SURFACE = {
    "Human": "human-written",
    "Free-LLM": "llm-generated",
    "H2L": "llm-mediated-rewrite",
    "LLM2L": "llm-mediated-rewrite",
}
FLAGS: tuple[str, ...] = ("flag_short", "flag_refusal", "flag_non_english", "flag_duplicate")

RELEASE_FIELDS: tuple[str, ...] = (
    "id",
    "text",
    "label",
    "label_id",
    "regime",
    "source_dataset",
    "source_dataset_short",
    "generator_model",
    "source_index",
    "pair_id",
    "text_sha256",
    "word_count",
)

ARB_COLUMNS: dict[str, str] = {
    "id": "string",
    "text": "string",
    "label": "string",
    "label_id": "int8",
    "regime": "string",
    "source_dataset": "string",
    "source_dataset_short": "string",
    "generator_model": "string",
    "source_index": "int64",
    "pair_id": "string",
    "text_sha256": "string",
    "word_count": "int32",
    "content_origin": "string",
    "surface": "string",
    "length_stratum": "string",
    "free_llm_model": "string",
    "flag_short": "bool",
    "flag_refusal": "bool",
    "flag_non_english": "bool",
    "flag_duplicate": "bool",
}


def validate_quartet_rows(rows: Sequence[Mapping[str, Any]], source: str) -> None:
    """Raise :class:`DataError` naming the source, row, column and value of the first
    violation (missing/extra column, wrong type, unknown regime, inconsistent labels)."""
    expected = list(ARB_COLUMNS)
    for i, row in enumerate(rows):
        if list(row) != expected:
            missing = [c for c in expected if c not in row]
            extra = [c for c in row if c not in ARB_COLUMNS]
            raise DataError(
                f"{source}: row {i}: columns differ from the ARB schema "
                f"(missing {missing}, extra {extra})"
            )
        regime = row["regime"]
        if regime not in REGIMES:
            raise DataError(f"{source}: row {i}: column 'regime': unknown value {regime!r}")
        if row["label"] != regime or row["label_id"] != REGIMES.index(regime):
            raise DataError(
                f"{source}: row {i}: column 'label_id': {row['label_id']!r} does not match "
                f"regime {regime!r}"
            )
        if (regime == "Human") != (row["generator_model"] is None):
            raise DataError(
                f"{source}: row {i}: column 'generator_model': {row['generator_model']!r} "
                f"(null exactly for Human rows)"
            )
        if not isinstance(row["text"], str):
            raise DataError(f"{source}: row {i}: column 'text': not a string")


ARB_SCHEMA = Schema(
    CONFIG,
    ARB_COLUMNS,
    ("arb_detection",),
    "one text of a matched four-regime quartet (Human, Free-LLM, H2L, LLM2L)",
    ("text",),
    validator=validate_quartet_rows,
)
