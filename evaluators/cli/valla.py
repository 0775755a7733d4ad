"""``stylebench valla``: run Valla's methods on Valla datasets and report beside the paper."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from dataset_scripts.core.errors import StylebenchError
from evaluators.cli.datasets import (
    FamilyGroup,
    ListFilters,
    Listing,
    build_command,
    list_command,
    list_datasets,
)
from evaluators.cli.options import built_root_option, no_progress_option, packed

if TYPE_CHECKING:
    from evaluators.valla.evaluate import RunRequest

DEFAULT_OUT = Path("stylebench_results/valla")


def _parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``key=value`` pairs; values parsed as JSON where possible (numbers, lists, bools)."""
    import json

    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise StylebenchError(f"--option {pair!r}: expected key=value")
        key, value = pair.split("=", 1)
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            parsed = value
        options[key.strip().replace("-", "_")] = (
            tuple(parsed) if isinstance(parsed, list) else parsed
        )
    return options


@click.group("valla", cls=FamilyGroup)
def COMMAND() -> None:
    """Valla: authorship attribution/verification methods, datasets and the paper's tables."""


COMMAND.add_command(
    build_command(
        "valla",
        help="Build valla/<name> folders (Parquet + card) from their raw downloads "
        "(`valla run` builds a missing one the same way); `stylebench build valla/<name>` "
        "is the same build.",
    )
)


def list_methods(_: ListFilters) -> Listing:
    """The methods ``valla run --method`` takes."""
    from evaluators.valla.evaluate import METHODS

    what = {
        "ngram": "character/word n-gram TF-IDF + logistic regression (Ngram_A, Ngram_V)",
        "ppm": "prediction by partial matching compression (PPM_A, PPM_V)",
        "bert": "fine-tuned BERT classifier over authors (BERT_A; a GPU for a full run)",
        "siamese": "siamese BERT over text pairs (Siamese BERT_V; a GPU for a full run)",
    }
    return Listing(["method", "what"], [[m, what.get(m, "")] for m in METHODS])


COMMAND.add_command(
    list_command(
        "valla",
        {"datasets": list_datasets, "methods": list_methods},
        help="List Valla datasets or methods.",
    )
)


@COMMAND.command("run")
@click.option("--method", type=click.Choice(["ngram", "ppm", "bert", "siamese"]), required=True)
@click.option("--dataset", required=True, help="valla/<name> (built on demand) or a built folder.")
@click.option("--formulation", type=click.Choice(["aa", "av"]), default="aa", show_default=True)
@click.option("--split", default="test", show_default=True, help="e.g. test, cross_topic_test.")
@click.option(
    "--option",
    "options",
    multiple=True,
    help="Method setting key=value (repeatable), "
    "e.g. families='[\"char\"]', max_steps=100, loss=triplet, workers=2.",
)
@click.option("--limit", type=int, default=None, help="Evaluate every k-th row, at most this many.")
@click.option(
    "--train-limit", type=int, default=None, help="Train on every k-th row, at most this many."
)
@built_root_option
@click.option("--out", type=click.Path(path_type=Path), default=DEFAULT_OUT, show_default=True)
@no_progress_option
@packed(
    "request",
    lambda **values: _request(**values),
    "method",
    "dataset",
    "formulation",
    "split",
    "options",
    "limit",
    "train_limit",
    "no_progress",
)
def run_command(request: RunRequest, built_root: Path, out: Path) -> None:
    """Train and evaluate one method; writes a result JSON under --out."""
    from evaluators.valla.evaluate import run
    from evaluators.valla.reference import cells_for, reference_value

    record = run(request, built_root, out)
    formulation, split = request.formulation, request.split
    unit = 100 if record["metric"] == "macro_accuracy" else 1
    line = (
        f"{record['model']} on {record['dataset']} [{record['split']}, "
        f"{formulation.upper()}]: {record['metric']} = {record['score'] * unit:.4g}"
        f" (n={record['n_eval']}, {record['runtime_s']} s wall, {record['cpu_s']} s CPU)"
    )
    for table, column in cells_for(record["table_name"], split, formulation, record["model"]):
        paper = reference_value(table, record["model"], column)
        if paper is not None:
            line += f"; paper Table {table} {column}: {paper}"
    click.echo(line)
    click.echo(f"result: {record['path']}")


def _request(
    method: str,
    dataset: str,
    formulation: str,
    split: str,
    options: tuple[str, ...],
    limit: int | None,
    train_limit: int | None,
    no_progress: bool,
) -> RunRequest:
    """``valla run``'s options as the run's request (``--option`` pairs parsed)."""
    from evaluators.valla.evaluate import RunRequest

    return RunRequest(
        method,
        dataset,
        formulation,
        split,
        _parse_options(options),
        limit,
        train_limit,
        progress=not no_progress,
    )


@COMMAND.command("report")
@click.option("--results", type=click.Path(path_type=Path), default=DEFAULT_OUT, show_default=True)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder for valla_report.md/.csv (default: --results).",
)
def report_command(results: Path, out: Path | None) -> None:
    """Print the paper's Tables 3-8 beside your runs; write Markdown and CSV."""
    from evaluators.console import cli_console
    from evaluators.valla.evaluate import load_results
    from evaluators.valla.report import rich_tables, write_report

    records = load_results(results)
    console = cli_console()
    for table in rich_tables(records):
        console.print(table)
    markdown, table_csv = write_report(records, out or results)
    console.print(f"{len(records)} runs; report: {markdown} and {table_csv}")
