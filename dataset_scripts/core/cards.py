"""The one dataset-card template: YAML front matter (configs, features, licence, tags)
plus a Markdown body rendered from a :class:`~dataset_scripts.core.spec.DatasetSpec`.

Two layouts share it. A dataset that is its own repo names its configs for their
schemas (``labelled_texts``, ...). A source release that STEB splits into several datasets
(``steb/pan23_style_change``) has one config per STEB dataset (``easy``, ``medium``,
``hard``), each with its ``test`` split, plus the default config :data:`ALL_CONFIG` whose
splits are those configs (``load_dataset(repo)`` returns every level, one split each).
The front matter carries ``dataset_info`` features per config, so the schema of a config is
known from the card (or ``datasets``' cache) without reading its data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import yaml

from dataset_scripts.core.schemas import SCHEMAS

if TYPE_CHECKING:
    from datasets import Features

    from dataset_scripts.core.spec import DatasetSpec

ALL_CONFIG = "all"  # the default config of a multi-dataset release: every config as a split
STYLEBENCH_KEY = "stylebench"  # card metadata: repo id, and each config's schema and dataset

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


def all_config_splits(counts: Mapping[str, Mapping[str, int]]) -> dict[str, tuple[str, str]]:
    """Split name in :data:`ALL_CONFIG` -> (config, split): the config's name where it has
    one split, else ``<config>_<split>``."""
    out = {}
    for config, splits in counts.items():
        for split in splits:
            out[config if len(splits) == 1 else f"{config}_{split}"] = (config, split)
    return out


def has_all_config(schemas: Mapping[str, str], members: Mapping[str, object] | None) -> bool:
    """A release of several datasets of one schema gets the :data:`ALL_CONFIG` view."""
    return bool(members) and len(schemas) > 1 and len(set(schemas.values())) == 1


def _data_files(config: str, split: str) -> str:
    return f"data/{config}/{split}-*.parquet"


def front_matter(
    spec: DatasetSpec,
    counts: Mapping[str, Mapping[str, int]],
    schemas: Mapping[str, str] | None = None,
    features: Mapping[str, Features] | None = None,
    members: Mapping[str, DatasetSpec] | None = None,
) -> dict[str, object]:
    """The card's YAML metadata (``huggingface_hub.DatasetCardData`` fields)."""
    from datasets import DatasetInfo
    from datasets.info import DatasetInfosDict
    from huggingface_hub import DatasetCardData

    schemas = dict(schemas or {c: c for c in counts})
    licenses = {m.license.lower() for m in (members or {}).values()} or {spec.license.lower()}
    license_id = licenses.pop() if len(licenses) == 1 else "other"
    languages = sorted({lang for m in (members or {"": spec}).values() for lang in m.language})
    configs: list[dict[str, object]] = [
        {
            "config_name": config,
            "data_files": [
                {"split": split, "path": _data_files(config, split)} for split in splits
            ],
        }
        for config, splits in counts.items()
    ]
    infos = dict(features or {})
    if has_all_config(schemas, members):
        view = all_config_splits(counts)
        configs.insert(
            0,
            {
                "config_name": ALL_CONFIG,
                "data_files": [
                    {"split": name, "path": _data_files(c, s)} for name, (c, s) in view.items()
                ],
                "default": True,
            },
        )
        if infos:
            infos = {ALL_CONFIG: next(iter(infos.values())), **infos}
    card = DatasetCardData(
        pretty_name=spec.pretty_name,
        language=languages,
        license=license_id if license_id in _SPDX else "other",
        tags=[
            "stylebench",
            "style",
            *sorted({t for s in schemas.values() for t in SCHEMAS[s].task_types}),
        ],
        configs=configs,
    )
    if license_id not in _SPDX:
        if members and len({m.license for m in members.values()}) > 1:
            card.license_name = "; ".join(f"{c}: {m.license}" for c, m in members.items())
        else:
            card.license_name = next(iter(members.values())).license if members else spec.license
    if infos:
        DatasetInfosDict(
            {c: DatasetInfo(features=f, config_name=c) for c, f in infos.items()}
        ).to_dataset_card_data(card)
    meta = card.to_dict()
    # what each config is, for readers of a downloaded repo (no build info travels with it)
    meta[STYLEBENCH_KEY] = {
        "repo": spec.hub_id,
        "configs": {
            c: {"schema": schemas[c], "dataset": (members[c].hub_id if members else spec.hub_id)}
            for c in counts
        },
    }
    return meta


def stylebench_metadata(readme_text: str) -> dict[str, object]:
    """The card's :data:`STYLEBENCH_KEY` block (``{"repo", "configs"}``), or ``{}``."""
    if not readme_text.startswith("---"):
        return {}
    try:
        meta = yaml.safe_load(readme_text.split("\n---", 1)[0].removeprefix("---"))
    except yaml.YAMLError:
        return {}
    block = meta.get(STYLEBENCH_KEY) if isinstance(meta, dict) else None
    return block if isinstance(block, dict) else {}


def _front_matter_text(meta: Mapping[str, object]) -> str:
    return "---\n" + yaml.safe_dump(dict(meta), sort_keys=False, allow_unicode=True) + "---\n"


def _table15_rows(spec: DatasetSpec, built: Mapping[str, int], label: str = "") -> list[str]:
    rows = []
    for task, row in (spec.steb.table15 if spec.steb else {}).items():
        rows.append(
            f"| {label}{task} | {row.classes:,} | {row.per_class:,} | {row.total:,} | "
            f"{built.get(task, 0):,} |"
        )
    return rows


def _steb_section(
    spec: DatasetSpec,
    texts: Mapping[str, int],
    schemas: Mapping[str, str],
    members: Mapping[str, DatasetSpec] | None,
) -> list[str]:
    """STEB metadata: task types, Table 10 bucket, Table 13 clusters, Table 15 counts
    (one block per config of a release)."""
    parts = members or {"": spec}
    if not any(m.steb is not None for m in parts.values()):
        return []
    lines = ["## In STEB", ""]
    if members:
        lines += [
            "Each config is one STEB dataset; runs, scores and the leaderboard count each "
            "(repo, config) as one of STEB's 96 datasets.",
            "",
            "| config | STEB dataset | task types | attribute (Table 10) | definitional clusters (Table 13) |",
            "|---|---|---|---|---|",
        ]
        for config, member in parts.items():
            steb = member.steb
            in_96 = "" if steb is None or steb.in_steb_96 else " (not in the 96)"
            lines.append(
                f"| `{config}` | {member.hub_id.split('/')[-1]}{in_96} | "
                f"{', '.join(member.task_types) or '-'} | {steb.bucket if steb else '-'} | "
                f"{', '.join(steb.definitional if steb else ()) or 'none'} |"
            )
        lines.append("")
    else:
        steb = spec.steb
        lines += [
            f"- Task types: {', '.join(spec.task_types) or '-'}",
            f"- Attribute (paper Table 10): {steb.bucket if steb else '-'}",
            f"- Definitional score clusters (Table 13): "
            f"{', '.join(steb.definitional if steb else ()) or 'none'}",
            "",
        ]
    head = "config / task type" if members else "task type"
    lines += [
        f"| {head} | paper: classes | paper: samples/class | paper: texts | this build: texts |",
        "|---|---|---|---|---|",
    ]
    for config, member in parts.items():
        built = {
            t: n
            for c, n in texts.items()
            if c == config or not members
            for t in SCHEMAS[schemas.get(c, c)].task_types
        }
        lines += _table15_rows(member, built, f"`{config}` " if members else "")
    lines.append("")
    if any(m.steb and m.steb.table15 for m in parts.values()):
        lines += [
            "Episodes: `stylebench run --episode-size k --per-class auto` resolves `auto` "
            "from this build's rows, which are already capped per class (samples/class "
            "above). The STEB authors resolve `auto` from the raw data, so with an episode "
            "size above 1 it keeps fewer episodes here than theirs (Bible versions, "
            "episodes of 4: 50 per class here, 200 theirs); their count cannot be formed "
            "from this folder. Results record both in `details.sampling`.",
            "",
        ]
    return lines


def _citations(sources: object) -> str:
    """The BibTeX entries of every source, each once."""
    import re

    entries = [
        e.strip()
        for m in sources  # type: ignore[attr-defined]
        for e in re.split(r"\n(?=@)", m.citation.strip())
        if e.strip()
    ]
    return "\n".join(dict.fromkeys(entries))


def render_card(
    spec: DatasetSpec,
    counts: Mapping[str, Mapping[str, int]],
    dropped: Mapping[str, int],
    texts: Mapping[str, int] | None = None,
    *,
    schemas: Mapping[str, str] | None = None,
    features: Mapping[str, Features] | None = None,
    members: Mapping[str, DatasetSpec] | None = None,
) -> str:
    """Render README.md for a built dataset folder. ``counts`` are rows per config and
    split; ``texts`` the number of texts per config (what an encoder embeds);
    ``schemas`` the schema of each config (default: its name); ``members`` the dataset of
    each config of a multi-dataset release."""
    schemas = dict(schemas or {c: c for c in counts})
    meta = front_matter(spec, counts, schemas, features, members)
    lines = [_front_matter_text(meta), f"# {spec.pretty_name}", "", spec.summary, ""]
    lines += ["## Use it", "", "```python", "from datasets import load_dataset", ""]
    if has_all_config(schemas, members):
        splits = ", ".join(all_config_splits(counts))
        lines.append(
            f'ds = load_dataset("{spec.hub_id}")  # every config, one split each: {splits}'
        )
    for config in counts:
        lines.append(f'ds = load_dataset("{spec.hub_id}", "{config}")')
    lines += [
        "```",
        "",
        "```bash",
        spec.run_command or f"stylebench run --model <encoder> --dataset {spec.hub_id}",
        "```",
        "",
        "## Configs, schema and tasks",
        "",
        "| config | split | rows | schema | columns | task types |",
        "|---|---|---|---|---|---|",
    ]
    for config, splits in counts.items():
        schema = SCHEMAS[schemas[config]]
        columns = ", ".join(schema.columns) + (
            ", label_<feature>, split_<feature>" if schema.name == "probing" else ""
        )
        for split, n in splits.items():
            lines.append(
                f"| `{config}` | {split} | {n:,} | {schema.name} | {columns} | "
                f"{', '.join(schema.task_types)} |"
            )
    lines.append("")
    for name in dict.fromkeys(schemas.values()):
        lines.append(f"- `{name}`: {SCHEMAS[name].description}.")
    if members:
        lines += ["", "Configs:", ""]
        lines += [f"- `{c}`: {m.summary}" for c, m in members.items()]
    sources = members.values() if members else [spec]
    lines += ["", "## Source and licence", ""]
    for source in dict.fromkeys((m.source_url, m.raw_format, m.license) for m in sources):
        lines += [
            f"- Source: {source[0]}",
            f"- Raw format parsed by the build script: {source[1]}",
            f"- Licence of the source: **{source[2]}**. The built dataset inherits it.",
        ]
    lines.append("")
    lines += _steb_section(spec, texts or {}, schemas, members)
    lines += ["## Build protocol", ""]
    protocols = [m.protocol for m in sources if m.protocol] or [spec.protocol]
    for protocol in dict.fromkeys(protocols):
        lines += [protocol or "Rows are taken as published.", ""]
    if dropped:
        lines += ["Rows dropped by the build (reason: count):", ""]
        lines += [f"- {reason}: {n:,}" for reason, n in sorted(dropped.items())]
    else:
        lines.append("No source rows were dropped by the build.")
    lines += [
        "",
        "Built with `" + (spec.build_command or f"stylebench build {spec.hub_id}") + "`.",
        "",
        "## Citation",
        "",
        "```bibtex",
        _citations(sources),
        "```",
        "",
    ]
    return "\n".join(lines)
