"""STEB's result commands (``stylebench steb report|scores|protocol|clusters|benchmarks``):
scores, the leaderboard, Table 14, clusters and named subsets. The ``steb`` group itself,
with ``build``, ``run`` and ``list``, is assembled in :mod:`evaluators.cli`."""

from __future__ import annotations

import re
from pathlib import Path

import click

from evaluators.cli.options import seed_option
from evaluators.steb_scores.bootstrap import N_BOOT
from evaluators.steb_scores.clusters import THRESHOLD
from evaluators.steb_scores.scores import VIEWS

_results_option = click.option(
    "--results",
    "results",
    multiple=True,
    required=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A results folder written by `stylebench run` (<model>/<dataset>/<task>.json); repeatable.",
)
_clusters_option = click.option(
    "--clusters",
    "clusters_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Operational clusters as JSON ({task: [[hub id, ...], ...]}); "
    "default: discovered from the results (3+ models needed, else one cluster per dataset).",
)


def _console():
    from evaluators.console import cli_console

    return cli_console()


def _summary(results: tuple[Path, ...], clusters_file: Path | None, n_boot: int, seed: int):
    from dataset_scripts.core.errors import StylebenchError
    from evaluators.steb_scores.clusters import load_clusters
    from evaluators.steb_scores.results import load_results
    from evaluators.steb_scores.summary import summarize

    scores = load_results(results)
    if not scores:
        raise StylebenchError(f"no result JSON files under {', '.join(map(str, results))}")
    clusters = load_clusters(clusters_file) if clusters_file else None
    return scores, summarize(scores, clusters, n_boot=n_boot, seed=seed)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "__", name).strip("_") or "model"


@click.command()
@_results_option
@_clusters_option
@click.option("--n-boot", type=int, default=N_BOOT, show_default=True)
@seed_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write steb_scores.json and model-card metadata (model_cards/<model>.yaml) here.",
)
def scores(
    results: tuple[Path, ...],
    clusters_file: Path | None,
    n_boot: int,
    seed: int,
    out: Path | None,
) -> None:
    """Compute every STEB score with 95% bootstrap CIs from result files."""
    from rich.table import Table

    from evaluators.steb_scores.model_card import model_index, write_model_card_metadata
    from evaluators.steb_scores.results import by_model

    all_scores, summary = _summary(results, clusters_file, n_boot, seed)
    table = Table(title="STEB scores (x100, 95% bootstrap CI)")
    for name in ("model", "coverage", *VIEWS):
        table.add_column(name, justify="left" if name == "model" else "right")
    for model, ms in summary.models.items():
        cells = []
        for view in VIEWS:
            vs = ms.views[view]
            if vs.overall is None:
                cells.append("-")
                continue
            lo, hi = vs.ci.get(vs.overall_name, (vs.overall, vs.overall))
            partial = "" if vs.complete else "*"
            cells.append(f"{100 * vs.overall:.2f}{partial} [{100 * lo:.2f}, {100 * hi:.2f}]")
        cover = ms.coverage + ("" if ms.comparable else " (not comparable)")
        table.add_row(model, cover, *cells)
    console = _console()
    console.print(table)
    console.print("[dim]* computed on a partial dataset set: not comparable to the paper.[/dim]")
    console.print(f"[dim]clusters: {summary.cluster_source}[/dim]")
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        path = summary.write_json(out / "steb_scores.json")
        console.print(f"[dim]{path}[/dim]")
        cards = out / "model_cards"
        cards.mkdir(exist_ok=True)
        grouped = by_model(all_scores)
        for model, ms in summary.models.items():
            meta = model_index(model, grouped[model], ms)
            card = write_model_card_metadata(meta, cards / f"{_safe(model)}.yaml")
            console.print(f"[dim]{card}[/dim]")


@click.command("report")
@click.option(
    "--results",
    "results",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A results folder written by `stylebench run`; repeatable (default: none, the "
    "paper's models only).",
)
@_clusters_option
@click.option(
    "--view",
    type=click.Choice([*VIEWS, "all"]),
    default="operational",
    show_default=True,
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Export Markdown, CSV and a PNG chart per view into this folder.",
)
@click.option("--no-paper", is_flag=True, help="Leave the paper's 40 models out.")
@click.option("--n-boot", type=int, default=N_BOOT, show_default=True)
@seed_option
def report(
    results: tuple[Path, ...],
    clusters_file: Path | None,
    view: str,
    out: Path | None,
    no_paper: bool,
    n_boot: int,
    seed: int,
) -> None:
    """The leaderboard: your runs beside the paper's 40 models (Tables 6-9), best/second
    marked; without --results, the paper's models alone."""
    from dataset_scripts.core.errors import StylebenchError
    from evaluators.leaderboard import build_leaderboard, export, render_rich

    if not results and no_paper:
        raise StylebenchError("nothing to show: give --results, or leave out --no-paper")
    summary = _summary(results, clusters_file, n_boot, seed)[1] if results else None
    console = _console()
    if summary is None:
        console.print(
            "[dim]the paper's 40 models (STEB Tables 6-9); add your runs with "
            "--results <folder of `stylebench run`>[/dim]"
        )
    for name in VIEWS if view == "all" else (view,):
        board = build_leaderboard(name, summary, include_paper=not no_paper, results=results)
        console.print(render_rich(board))
        if out is not None:
            for kind, path in export(board, out).items():
                console.print(f"[dim]{kind}: {path}[/dim]")


@click.command()
@click.option(
    "--chunk",
    "chunk_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Results of `stylebench run --chunk` on the multilingual AV sets.",
)
@click.option(
    "--truncate",
    "truncate_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Results of `stylebench run --truncate` on the same sets (another --out folder).",
)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None)
@click.option("--n-boot", type=int, default=N_BOOT, show_default=True)
@seed_option
def protocol(
    chunk_dir: Path | None, truncate_dir: Path | None, out: Path | None, n_boot: int, seed: int
) -> None:
    """Chunk-and-pool vs. truncation on the multilingual AV sets, beside Table 14."""
    from evaluators.leaderboard import export, protocol_board, render_rich

    chunk = _summary((chunk_dir,), None, n_boot, seed)[1] if chunk_dir else None
    truncate = _summary((truncate_dir,), None, n_boot, seed)[1] if truncate_dir else None
    board = protocol_board(chunk, truncate)
    console = _console()
    console.print(render_rich(board))
    if out is not None:
        for kind, path in export(board, out, "steb_protocol_table14").items():
            console.print(f"[dim]{kind}: {path}[/dim]")


@click.command()
@_results_option
@click.option("--threshold", type=float, default=THRESHOLD, show_default=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the clusters (JSON, reusable with --clusters) here.",
)
def clusters(results: tuple[Path, ...], threshold: float, out: Path | None) -> None:
    """Discover operational redundancy clusters (Spearman + Ward) from result files."""
    from evaluators.steb_scores.clusters import discover_clusters, save_clusters
    from evaluators.steb_scores.results import load_results
    from evaluators.steb_scores.scores import multilingual_datasets

    found = discover_clusters(load_results(results), threshold, exclude=multilingual_datasets())
    console = _console()
    for task, tc in found.items():
        console.print(f"[bold]{task}[/bold] ({tc.method}; {len(tc.models)} models)")
        for i, group in enumerate(tc.clusters, 1):
            console.print(f"  cluster {i}: {', '.join(group)}")
    if out is not None:
        console.print(f"[dim]{save_clusters(found, out)}[/dim]")


@click.command()
@click.argument("name", required=False)
@click.option(
    "--built-root",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of `stylebench build` outputs (<owner>__<name>/).",
)
def benchmarks(name: str | None, built_root: Path | None) -> None:
    """List the named STEB subsets, or the datasets of one (and which are built)."""
    from evaluators.benchmark_folders import BENCHMARKS, benchmark_datasets, resolve_benchmark

    console = _console()
    if name is None:
        for bench in BENCHMARKS:
            console.print(f"{bench}: {len(benchmark_datasets(bench))} datasets")
        return
    refs, missing = resolve_benchmark(name, built_root)
    for ref in refs:
        console.print(("  (not built) " if ref in missing else "  ") + ref)
    console.print(f"{len(refs) - len(missing)} of {len(refs)} built locally")


#: the commands of ``stylebench steb`` defined here
COMMANDS = (report, scores, protocol, clusters, benchmarks)
