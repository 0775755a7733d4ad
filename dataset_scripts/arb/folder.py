"""Write ARB quartets as a Hub-ready folder through the shared writer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dataset_scripts.core.arb_schema import CONFIG
from dataset_scripts.core.hub_folder import write_hub_folder
from dataset_scripts.core.spec import DatasetSpec


def write_arb_folder(
    spec: DatasetSpec,
    rows: Sequence[Mapping[str, Any]],
    out_dir: Path,
    dropped: Mapping[str, int] | None = None,
    build_info: Mapping[str, Any] | None = None,
    split: str = "train",
) -> Path:
    """Write the quartets as a Hub-ready folder through the shared writer
    (``data/quartets/<split>-00000-of-00001.parquet``, README.md, build info)."""
    return write_hub_folder(spec, {CONFIG: {split: list(rows)}}, Path(out_dir), dropped, build_info)
