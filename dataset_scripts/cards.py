"""The one dataset-card template: YAML front matter (configs, licence, tags) plus a
Markdown body rendered from a :class:`~dataset_scripts.registry.DatasetSpec`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import yaml

from dataset_scripts.schemas import SCHEMAS

if TYPE_CHECKING:
    from dataset_scripts.registry import DatasetSpec

_SPDX = {
    "mit",
    "apache-2.0",
    "cc-by-4.0",
    "cc-by-sa-4.0",
    "cc-by-nc-4.0",
    "cc-by-nc-sa-4.0",
    "cc0-1.0",
    "gpl-3.0",
    "bsd-3-clause",
    "odc-by",
}


def _front_matter(spec: DatasetSpec, counts: Mapping[str, Mapping[str, int]]) -> str:
    license_id = spec.license.lower()
    meta: dict[str, object] = {
        "pretty_name": spec.pretty_name,
        "language": list(spec.language),
        "license": license_id if license_id in _SPDX else "other",
        "tags": [
            "stylebench",
            "style",
            *sorted({t for c in counts for t in SCHEMAS[c].task_types}),
        ],
        "configs": [
            {
                "config_name": config,
                "data_files": [
                    {"split": split, "path": f"data/{config}/{split}-*.parquet"} for split in splits
                ],
            }
            for config, splits in counts.items()
        ],
    }
    if license_id not in _SPDX:
        meta["license_name"] = spec.license
    return "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True) + "---\n"


def _steb_section(spec: DatasetSpec, texts: Mapping[str, int]) -> list[str]:
    """STEB metadata: task types, Table 10 bucket, Table 13 clusters, Table 15 counts."""
    extra = spec.extra
    if extra.get("family") != "steb":
        return []
    lines = [
        "## In STEB",
        "",
        f"- Task types: {', '.join(extra.get('task_types', ())) or '-'}",
        f"- Attribute (paper Table 10): {extra.get('bucket', '-')}",
        f"- Definitional score clusters (Table 13): {', '.join(extra.get('definitional', ())) or 'none'}",
        "",
        "| task type | paper: classes | paper: samples/class | paper: texts | this build: texts |",
        "|---|---|---|---|---|",
    ]
    built = {t: n for c, n in texts.items() for t in SCHEMAS[c].task_types}
    for task, row in extra.get("table15", {}).items():
        lines.append(
            f"| {task} | {row['classes']:,} | {row['per_class']:,} | {row['total']:,} | "
            f"{built.get(task, 0):,} |"
        )
    lines.append("")
    return lines


def render_card(
    spec: DatasetSpec,
    counts: Mapping[str, Mapping[str, int]],
    dropped: Mapping[str, int],
    texts: Mapping[str, int] | None = None,
) -> str:
    """Render README.md for a built dataset folder. ``counts`` are rows per config and
    split; ``texts`` the number of texts per config (what an encoder embeds)."""
    lines = [_front_matter(spec, counts), f"# {spec.pretty_name}", "", spec.summary, ""]
    lines += ["## Use it", "", "```python", "from datasets import load_dataset", ""]
    for config in counts:
        lines.append(f'ds = load_dataset("{spec.hub_id}", "{config}")')
    lines += [
        "```",
        "",
        "```bash",
        spec.extra.get("run_command", f"stylebench run --model <encoder> --dataset {spec.hub_id}"),
        "```",
        "",
        "## Configs, schema and tasks",
        "",
        "| config | split | rows | columns | task types |",
        "|---|---|---|---|---|",
    ]
    for config, splits in counts.items():
        schema = SCHEMAS[config]
        columns = ", ".join(schema.features) + (
            ", label_<feature>, split_<feature>" if config == "probing" else ""
        )
        for split, n in splits.items():
            lines.append(
                f"| `{config}` | {split} | {n:,} | {columns} | {', '.join(schema.task_types)} |"
            )
    lines.append("")
    for config in counts:
        lines.append(f"- `{config}`: {SCHEMAS[config].description}.")
    lines += [
        "",
        "## Source and licence",
        "",
        f"- Source: {spec.source_url}",
        f"- Raw format parsed by the build script: {spec.raw_format}",
        f"- Licence of the source: **{spec.license}**. The built dataset inherits it.",
        "",
    ]
    lines += _steb_section(spec, texts or {})
    lines += ["## Build protocol", "", spec.protocol or "Rows are taken as published.", ""]
    if dropped:
        lines += ["Rows dropped by the build (reason: count):", ""]
        lines += [f"- {reason}: {n:,}" for reason, n in sorted(dropped.items())]
    else:
        lines.append("No source rows were dropped by the build.")
    lines += [
        "",
        "Built with `stylebench build " + spec.hub_id + "`.",
        "",
        "## Citation",
        "",
        "```bibtex",
        spec.citation.strip(),
        "```",
        "",
    ]
    return "\n".join(lines)
