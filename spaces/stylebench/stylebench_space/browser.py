"""Tab 4, dataset browser: every registered dataset with its status here, its card, and the
first rows of each config of the built ones.

Uses ``dataset_scripts.registry.all_datasets`` and ``dataset_scripts.status.dataset_status``;
the Space's built roots are those of :func:`stylebench_space.embedding.dataset_roots`. Paths on
the server are never shown: a built dataset is just "built".
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from stylebench_space.embedding import built_datasets, dataset_roots
from stylebench_space.safety import UserError

PREVIEW_ROWS = 5
CELL_CHARS = 160
COLUMNS = ("hub id", "name", "status", "tasks", "license", "language")


def _status(spec: Any) -> str:
    from dataset_scripts.status import BUILT, NEEDS_DOWNLOAD, dataset_status

    kind = ""
    for root in dataset_roots():
        status = dataset_status(spec, None, root)
        kind = status.kind
        if kind == BUILT:
            return "built here"
    if kind == NEEDS_DOWNLOAD:
        return "needs the raw download (see the card)"
    return kind


def _tasks(spec: Any, folder: Path | None) -> str:
    """Task types: those the spec declares, else those its built configs serve."""
    from dataset_scripts.core.schemas import SCHEMAS

    tasks = list(spec.task_types)
    if not tasks and folder is not None:
        for config in sorted(p.name for p in (folder / "data").iterdir() if p.is_dir()):
            if config in SCHEMAS:
                tasks += SCHEMAS[config].task_types
    return ", ".join(dict.fromkeys(str(t) for t in tasks))


def dataset_table(query: str = "") -> list[list[str]]:
    """One row per registered dataset matching ``query`` (hub id or name, case-insensitive)."""
    from dataset_scripts.registry import all_datasets

    query = (query or "").strip().lower()[:100]
    rows = []
    built = built_datasets()
    for hub_id, spec in sorted(all_datasets().items()):
        if query and query not in hub_id.lower() and query not in spec.pretty_name.lower():
            continue
        rows.append(
            [
                hub_id,
                spec.pretty_name,
                _status(spec),
                _tasks(spec, built.get(spec.slug)),
                _short(spec.license),
                ", ".join(spec.language),
            ]
        )
    return rows


def _strip_front_matter(text: str) -> str:
    return re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S).strip()


def _cell(value: Any) -> str:
    if isinstance(value, list | tuple | dict):
        value = json.dumps(value, ensure_ascii=False, default=str)
    elif hasattr(value, "tolist"):
        value = json.dumps(value.tolist(), ensure_ascii=False, default=str)
    text = str(value).replace("\n", " ").replace("|", "\\|")
    return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…"


def preview(folder: Path, n: int = PREVIEW_ROWS) -> str:
    """Markdown tables with the first ``n`` rows of every config/split Parquet shard."""
    import pyarrow.parquet as pq

    parts = []
    for shard in sorted((folder / "data").glob("*/*.parquet"))[:12]:
        config, split = shard.parent.name, shard.name.split("-")[0]
        file = pq.ParquetFile(shard)
        batch = next(file.iter_batches(batch_size=n), None)
        if batch is None:
            continue
        rows = batch.to_pylist()[:n]
        header = list(rows[0]) if rows else []
        lines = [
            f"**{config} / {split}** ({file.metadata.num_rows:,} rows)",
            "",
            "| " + " | ".join(header) + " |",
            "|" + "---|" * len(header),
            *("| " + " | ".join(_cell(r[c]) for c in header) + " |" for r in rows),
        ]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) or "_no Parquet shards found_"


def dataset_details(hub_id: str) -> tuple[str, str]:
    """The card (Markdown) and a preview of the first rows (empty when not built here)."""
    from dataset_scripts.registry import all_datasets

    specs = all_datasets()
    if hub_id not in specs:
        raise UserError(f"unknown dataset {str(hub_id)[:80]!r}")
    spec = specs[hub_id]
    folder = built_datasets().get(spec.slug)
    if folder is not None and (folder / "README.md").is_file():
        card = _strip_front_matter((folder / "README.md").read_text(encoding="utf-8"))
        return card[:20_000], preview(folder)
    card = "\n\n".join(
        part
        for part in (
            f"# {spec.pretty_name}",
            f"`{spec.hub_id}`: {spec.summary}",
            f"**Source**: {spec.source_url}  \n**Licence**: {spec.license}  \n"
            f"**Raw format**: {spec.raw_format}",
            f"**Protocol**: {spec.protocol}" if spec.protocol else "",
            "Not built on this Space: build it with "
            f"`stylebench build {spec.hub_id} --raw <download>` to see its rows.",
        )
        if part
    )
    return card, ""


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
