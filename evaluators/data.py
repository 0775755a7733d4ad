"""Load evaluation data from a Hub-ready folder or a Hub dataset id, through
``datasets.load_dataset`` (the same code path for a local build and a pushed one)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dataset_scripts.schemas import SCHEMAS, validate_rows
from evaluators.errors import DataError, StylebenchError

DEFAULT_SPLIT = "test"


@dataclass(frozen=True)
class Table:
    """One config/split of a dataset, as plain Python rows."""

    dataset: str  # folder path or Hub id as given
    name: str  # short display name
    config: str
    split: str
    rows: list[dict[str, Any]]
    fingerprint: str

    @property
    def source(self) -> str:
        return f"{self.name} [{self.config}/{self.split}]"


def dataset_name(ref: str) -> str:
    path = Path(ref)
    return path.name if path.exists() else ref


def available_configs(ref: str) -> list[str]:
    """Schema configs a dataset offers (``labelled_texts``, ``style_sequences``, ...)."""
    from datasets import get_dataset_config_names

    try:
        names = get_dataset_config_names(ref)
    except FileNotFoundError as error:
        raise StylebenchError(f"dataset {ref!r} not found: {error}".splitlines()[0]) from None
    except Exception as error:  # network / auth errors from the Hub client
        raise StylebenchError(
            f"cannot read dataset {ref!r} ({type(error).__name__}: {str(error).splitlines()[0]}); "
            "offline? build it locally with `stylebench build` and pass the folder"
        ) from None
    known = [n for n in names if n in SCHEMAS]
    if not known:
        raise DataError(
            f"dataset {ref!r} has configs {names}, none of which is a stylebench schema "
            f"({', '.join(SCHEMAS)})"
        )
    return known


def load_table(ref: str, config: str, split: str | None = None) -> Table:
    """Load and validate one config of a dataset."""
    from datasets import load_dataset

    try:
        dataset_dict = load_dataset(ref, config)
    except Exception as error:
        raise StylebenchError(
            f"cannot load {ref!r} config {config!r}: {type(error).__name__}: "
            f"{str(error).splitlines()[0] if str(error) else ''}"
        ) from None
    splits = list(dataset_dict)
    chosen = split or (DEFAULT_SPLIT if DEFAULT_SPLIT in splits else splits[0])
    if chosen not in dataset_dict:
        raise DataError(f"{ref!r} config {config!r} has no split {chosen!r} (has {splits})")
    data = dataset_dict[chosen]
    rows = data.to_list()
    table = Table(ref, dataset_name(ref), config, chosen, rows, data._fingerprint)
    validate_rows(config, rows, table.source)
    return table
