"""The ``--from`` options of ``stylebench build``: a user's own files -> a dataset folder.

:func:`from_options` adds the options to the ``build`` command of the top level and of
``stylebench steb`` (one decorator, so the command's own code stays small); :func:`build_from` runs
:func:`dataset_scripts.custom.build_from_source` with them and prints the report.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from evaluators.metric_math.resampling import DEFAULT_SEED

_OPTIONS: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    (
        ("--from", "from_source"),
        {
            "default": None,
            "help": "Your data: a .csv/.tsv/.jsonl/.json/.parquet file, a folder of .txt files "
            "(label = sub-folder or --file-pattern), a Hugging Face dataset folder or id.",
        },
    ),
    (
        ("--schema",),
        {
            "type": click.Choice(
                ["labelled_texts", "text_pairs", "style_sequences", "retrieval", "probing"]
            ),
            "default": "labelled_texts",
            "show_default": True,
            "help": "With --from: the schema to build (sets the tasks it serves).",
        },
    ),
    (("--text-column",), {"default": "text", "show_default": True}),
    (
        ("--label-column",),
        {
            "default": "label",
            "show_default": True,
            "help": "Label / author / style / pair label column.",
        },
    ),
    (
        ("--doc-column",),
        {
            "default": None,
            "help": "Document id column (chunking, retrieval split; default: one document per row, or the file).",
        },
    ),
    (("--id-column",), {"default": None, "help": "Row id column (default: the row number)."}),
    (
        ("--text1-column",),
        {"default": "text1", "show_default": True, "help": "text_pairs: first text."},
    ),
    (
        ("--text2-column",),
        {"default": "text2", "show_default": True, "help": "text_pairs: second text."},
    ),
    (
        ("--sequence-column",),
        {"default": "sequence", "show_default": True, "help": "style_sequences: sequence id."},
    ),
    (
        ("--style-column",),
        {"default": "style", "show_default": True, "help": "style_sequences: style of each text."},
    ),
    (
        ("--group-column",),
        {"default": None, "help": "style_sequences: group of comparable sequences."},
    ),
    (
        ("--order-column",),
        {
            "default": None,
            "help": "style_sequences: position (ascending = most of the style first).",
        },
    ),
    (
        ("--label-from",),
        {
            "type": click.Choice(["folder", "pattern", "none"]),
            "default": "folder",
            "show_default": True,
            "help": "Folder of .txt files: label from the sub-folder, or from --file-pattern.",
        },
    ),
    (
        ("--file-pattern",),
        {
            "default": None,
            "help": "Regex on the file's relative path with a (?P<label>...) group (optional (?P<document>...)).",
        },
    ),
    (
        ("--chunk-words",),
        {"type": int, "default": None, "help": "Cut documents into passages of N words."},
    ),
    (
        ("--chunks-per-doc",),
        {"type": int, "default": None, "help": "Keep K passages per document (seeded)."},
    ),
    (
        ("--texts-per-query",),
        {
            "type": int,
            "default": None,
            "help": "retrieval: passages per query and per target (STEB episode length; default all).",
        },
    ),
    (
        ("--queries-per-author",),
        {
            "type": int,
            "default": 1,
            "show_default": True,
            "help": "retrieval: queries (and targets) per author.",
        },
    ),
    (
        ("--normalise-labels",),
        {
            "is_flag": True,
            "default": False,
            "help": "Merge labels that differ only in case or whitespace ('Barclay', 'barclay') "
            "into the most frequent spelling; without it they are reported and kept apart.",
        },
    ),
    (("--seed",), {"type": int, "default": DEFAULT_SEED, "show_default": True}),
    (("--split",), {"default": None, "help": "Hugging Face input: the split to read."}),
    (("--hf-config",), {"default": None, "help": "Hugging Face input: the config to read."}),
    (("--name",), {"default": None, "help": "Dataset name (default: the input's name)."}),
    (("--license",), {"default": None, "help": "Licence of your data, for the card."}),
]
OPTION_NAMES = tuple(
    (names[1] if len(names) > 1 else names[0].lstrip("-").replace("-", "_"))
    for names, _ in _OPTIONS
)


def from_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator adding the ``--from`` options (passed to ``command`` as keywords)."""
    for names, kwargs in reversed(_OPTIONS):
        command = click.option(*names, **kwargs)(command)
    return command


def build_from(out: Path | None, built_root: Path, values: dict[str, Any]) -> Path:
    """Build ``values['from_source']`` (the ``--from`` options), print what was built and
    return its folder."""
    from rich.console import Console

    from dataset_scripts.custom.build import BuildOptions, build_from_source

    source = values.pop("from_source")
    options = BuildOptions(**values)
    if out is None:
        out = built_root / (options.name or Path(str(source)).name.split(".")[0] or "dataset")
    report = build_from_source(source, out, options)
    console = Console()
    counts = ", ".join(f"{n:,} {cfg} rows" for cfg, n in report.counts.items())
    console.print(f"built {source} ({report.source_kind}) -> {report.folder}: {counts}")
    for reason, n in sorted(report.dropped.items()):
        console.print(f"  dropped {n:,}: {reason}")
    console.print(f"evaluate it: stylebench run --model <encoder> --dataset {report.folder}")
    return Path(report.folder)
