"""``stylebench compare``: model A against model B from stored results (no encoding)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from evaluators.cli.options import packed, seed_option

if TYPE_CHECKING:
    from evaluators.compare.benchmark import ComparisonSettings


def _console():
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=200)


def _fmt(value: float, digits: int = 2) -> str:
    return f"{100 * value:+.{digits}f}"


def _p(value: float | None) -> str:
    if value is None:
        return "-"
    return "<1e-4" if value < 1e-4 else f"{value:.4f}"


@click.command("compare")
@click.option(
    "--results",
    "results",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A folder of `stylebench run --out` (<model>/<dataset>/<task>.json) or a results "
    "repository (<org>__<model>/<revision>/<dataset>/<task>.json); repeatable.",
)
@click.option(
    "--detections",
    "detections",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    help="Instead of --results: a `stylebench detect run` folder (scores.csv) holding both "
    "detectors, or two (A's, then B's, paired by text id).",
)
@click.option(
    "--model",
    "models",
    multiple=True,
    required=True,
    help="Model A, then model B (their recorded names or folder names; detectors with "
    "--detections).",
)
@click.option(
    "--benchmark",
    default=None,
    help="Only the (dataset, task) units of this benchmark version (a key such as "
    "STEB(v1), a name or an alias: steb, operational, lite, ...).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the comparison as JSON here.",
)
@click.option("--n-boot", type=int, default=1000, show_default=True)
@seed_option
@click.option("--alpha", type=float, default=0.05, show_default=True, help="Holm's level.")
@click.option(
    "--fpr",
    "fprs",
    type=float,
    multiple=True,
    help="Detector comparisons: TPR at this FPR (default 0.01); repeatable.",
)
@packed("settings", lambda **values: _settings(**values), "n_boot", "seed", "alpha")
def compare(
    results: tuple[Path, ...],
    detections: tuple[Path, ...],
    models: tuple[str, ...],
    benchmark: str | None,
    out: Path | None,
    settings: ComparisonSettings,
    fprs: tuple[float, ...],
) -> None:
    """Is model A better than model B? Paired tests per dataset and task (difference,
    95% CI, p-value), Holm-corrected wins/ties/losses, and the benchmark-level difference
    with a two-level bootstrap CI, from stored result records."""
    from dataset_scripts.core.errors import StylebenchError

    if len(models) != 2:
        raise StylebenchError(f"give --model twice (A, then B); got {len(models)}")
    if bool(results) == bool(detections):
        raise StylebenchError("give --results (stored runs) or --detections (detector runs)")
    if settings.n_boot < 10:
        raise StylebenchError(f"--n-boot must be at least 10, got {settings.n_boot}")
    console = _console()
    if detections:
        payload = _detectors(
            detections, models, fprs or (0.01,), settings.n_boot, settings.seed, console
        )
    else:
        from evaluators.compare.api import compare_results

        comparison = compare_results(
            results,
            models[0],
            models[1],
            benchmark=benchmark,
            n_boot=settings.n_boot,
            seed=settings.seed,
            alpha=settings.alpha,
        )
        _print(comparison, console)
        payload = comparison.to_dict()
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(payload, indent=2), encoding="utf-8")
        console.print(f"[dim]{out}[/dim]")


def _settings(n_boot: int, seed: int, alpha: float) -> ComparisonSettings:
    """--n-boot, --seed and --alpha as the comparison's settings."""
    from evaluators.compare.benchmark import ComparisonSettings

    return ComparisonSettings(n_boot=n_boot, seed=seed, alpha=alpha)


def _print(comparison: Any, console: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    a, b = comparison.model_a, comparison.model_b
    table = Table(title=f"{a} (A) vs {b} (B): A - B, x100, paired 95% CI")
    for name in ("dataset", "task", "metric", "A", "B", "A - B", "95% CI", "p", "p (Holm)", ""):
        table.add_column(name, justify="left" if name in ("dataset", "task", "metric") else "right")
    styles = {"win": "green", "loss": "red", "tie": "dim"}
    for d in comparison.datasets:
        table.add_row(
            escape(d.dataset),
            d.task,
            d.metric,
            f"{100 * d.score_a:.2f}",
            f"{100 * d.score_b:.2f}",
            _fmt(d.difference),
            f"[{_fmt(d.ci[0])}, {_fmt(d.ci[1])}]",
            _p(d.p_value),
            _p(d.p_holm),
            f"[{styles[d.outcome]}]{d.outcome}[/{styles[d.outcome]}]",
        )
    console.print(table)
    for d in comparison.datasets:
        seeds = (
            "; A and B are the mean V-measure over the recorded k-means seeds (the "
            "record's main score is seed 42's alone)"
            if "k-means" in d.independent_units
            else ""
        )
        console.print(
            f"[dim]{escape(d.dataset)} / {d.task}: variance over {d.n_independent} "
            f"{escape(d.independent_units)}{seeds}[/dim]"
        )
        if not d.decidable:
            console.print(
                f"[yellow]not decidable[/yellow] {escape(d.dataset)} / {d.task}: the "
                "difference is smaller than the spread of one k-means seed (the test "
                "includes the seed variance; a single run could have ranked them either way)"
            )
    tally = comparison.tally
    console.print(
        f"Holm-corrected at alpha {comparison.settings['alpha']:g}: A wins {tally['win']}, "
        f"ties {tally['tie']}, loses {tally['loss']} of {len(comparison.datasets)}"
    )
    line = comparison.benchmark
    if line:
        console.print(
            f"benchmark ({escape(line['name'])}, {line['n_datasets']} datasets, "
            f"{line['score_name']}): A {100 * line['score_a']:.2f}, B {100 * line['score_b']:.2f}, "
            f"A - B {_fmt(line['difference'])} [{_fmt(line['ci95'][0])}, {_fmt(line['ci95'][1])}], "
            f"p {_p(line['p_value']) if line['p_value'] > 0 else '< ' + format(1 / comparison.settings['n_boot'], 'g')}"
        )
        console.print(f"[dim]{escape(line['aggregate'])}; {escape(line['method'])}[/dim]")
    for s in comparison.skipped:
        console.print(
            f"[yellow]skipped[/yellow] {escape(s['dataset'])} / {s['task']}: {escape(s['reason'])}"
        )


def _detectors(
    runs: tuple[Path, ...],
    models: tuple[str, ...],
    fprs: tuple[float, ...],
    n_boot: int,
    seed: int,
    console: Any,
) -> dict[str, Any]:
    from rich.table import Table

    from evaluators.compare.detectors import compare_detectors, paired_detector_scores

    a, b, labels = paired_detector_scores(list(runs), models[0], models[1])
    rows = compare_detectors(a, b, labels, fprs, n_boot, seed)
    table = Table(title=f"{models[0]} (A) vs {models[1]} (B) on {len(labels)} held-out texts, x100")
    for name in ("metric", "A", "B", "A - B", "95% CI", "p"):
        table.add_column(name, justify="left" if name == "metric" else "right")
    for r in rows:
        table.add_row(
            r["metric"],
            f"{100 * r['score_a']:.2f}",
            f"{100 * r['score_b']:.2f}",
            _fmt(r["difference"]),
            f"[{_fmt(r['ci95'][0])}, {_fmt(r['ci95'][1])}]",
            _p(r["p_value"]),
        )
    console.print(table)
    console.print(f"[dim]{rows[0]['method']}[/dim]")
    return {
        "detector_a": models[0],
        "detector_b": models[1],
        "runs": [str(r) for r in runs],
        "metrics": rows,
    }
