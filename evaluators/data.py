"""Load evaluation data from a Hub-ready folder or a Hub dataset id, through
``datasets.load_dataset`` (the same code path for a local build and a pushed one)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def quiet_datasets() -> Iterator[None]:
    """Silence ``datasets``' per-split progress bars (noise for small local tables)."""
    import datasets

    was_enabled = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if was_enabled:
            datasets.enable_progress_bars()


def dataset_name(ref: str) -> str:
    path = Path(ref)
    return path.name if path.exists() else ref


def available_configs(ref: str) -> list[str]:
    """Schema configs a dataset offers (``labelled_texts``, ``style_sequences``, ...)."""
    from datasets import get_dataset_config_names

    from dataset_scripts.custom.suggest import not_a_dataset_message

    problem = not_a_dataset_message(ref)  # a CSV, a folder of .txt files, ...
    if problem is not None:
        raise DataError(problem)
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


def _content_hash(folder: Path, config: str) -> str:
    """Fingerprint of what ``datasets`` reads for ``config`` of a local folder.

    The files are the ones ``datasets`` itself resolves for the config (the card's YAML
    ``configs:`` or its default layout), whatever their format (Parquet, CSV, JSON
    lines, ...): per split, each file's path relative to the folder and its bytes, plus
    the card's YAML front matter (which says how the files are read). Changed data
    therefore always changes the fingerprint, and a folder that is moved keeps it.
    """
    from datasets import load_dataset_builder

    folder = Path(folder).resolve()
    with quiet_datasets():
        builder = load_dataset_builder(str(folder), config)
    data_files = builder.config.data_files or {}
    digest = hashlib.sha256()
    card = folder / "README.md"
    if card.is_file():
        text = card.read_text(encoding="utf-8", errors="replace")
        if text.startswith("---"):
            digest.update(b"card:" + text.split("\n---", 1)[0].encode("utf-8"))
    n_files = 0
    for split in sorted(data_files):
        for name in sorted(str(f) for f in data_files[split]):
            path = Path(name) if Path(name).is_absolute() else folder / name
            try:
                shown = path.resolve().relative_to(folder).as_posix()
            except ValueError:  # a data file outside the folder: its absolute path
                shown = str(path.resolve())
            digest.update(f"\0{split}\0{shown}\0".encode())
            with path.open("rb") as handle:
                while chunk := handle.read(1 << 20):
                    digest.update(chunk)
            n_files += 1
    if not n_files:
        raise DataError(f"{folder}: datasets finds no data files for config {config!r}")
    return digest.hexdigest()[:16]


def load_table(ref: str, config: str, split: str | None = None) -> Table:
    """Load and validate one config of a dataset."""
    from datasets import load_dataset

    local = Path(ref).is_dir()
    try:
        with quiet_datasets():
            # datasets 5.x keys the cache of a local folder by its name, not its content:
            # a rebuilt folder (or another folder of the same name) would load stale rows.
            # Local folders are therefore always re-read (cheap: Parquet).
            dataset_dict = load_dataset(
                ref,
                config,
                download_mode="force_redownload" if local else None,
                # ... and it keeps split sizes by folder name too: another folder of the
                # same name would fail a size check that re-reading the Parquet makes moot.
                verification_mode="no_checks" if local else None,
            )
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
    fingerprint = _content_hash(Path(ref), config) if local else data._fingerprint
    table = Table(ref, dataset_name(ref), config, chosen, rows, fingerprint)
    validate_rows(config, rows, table.source)
    return table
