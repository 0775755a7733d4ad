"""``stylebench detect run``: AUROC and TPR@FPR of AI-text detectors on your own data."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from rich.console import Console

    from evaluators.detect.data import DetectionSet
    from evaluators.detect.run import DetectionRun

from evaluators.cli.options import no_progress_option, packed, scoring_lm_options, seed_option


@click.group("detect")
def COMMAND() -> None:
    """Evaluate AI-text detectors on any labelled human/machine set."""


@COMMAND.command("run")
@click.option(
    "--data",
    required=True,
    help="CSV/TSV/JSONL/JSON/Parquet file or Hugging Face dataset with a text column and a "
    "label (human/machine, 0/1) or regime (Human = human) column.",
)
@click.option(
    "--detector",
    "detectors",
    multiple=True,
    required=True,
    help="loglik, logrank, entropy, fastdetectgpt, binoculars, tfidf (supervised), hf:<model>; "
    "repeatable.",
)
@click.option("--text-column", default="text", show_default=True)
@click.option("--label-column", default=None, help="Default: 'regime' if present, else 'label'.")
@click.option(
    "--group-column",
    "group_columns",
    multiple=True,
    help="Report per value of this column too (generator, domain, attack); repeatable.",
)
@click.option("--id-column", default=None, help="Row id column for scores.csv.")
@click.option(
    "--split-column",
    default=None,
    help="Column with train/test per row (replaces the seeded split for supervised detectors).",
)
@click.option(
    "--split-by",
    default=None,
    help="Supervised detectors: keep rows sharing this column's value (e.g. pair_id) on one "
    "side of the seeded split.",
)
@click.option("--split", "hf_split", default=None, help="Hugging Face input: the split to read.")
@click.option(
    "--sample", type=int, default=None, help="Evaluate a seeded stratified sample of N rows."
)
@click.option(
    "--fpr",
    "fprs",
    type=float,
    multiple=True,
    default=(),
    help="FPR budget(s) for TPR@FPR; repeatable. Default: 0.01 (--protocol raid: 0.05 and 0.01).",
)
@click.option("--resamples", type=int, default=1000, show_default=True, help="Bootstrap resamples.")
@seed_option
@click.option(
    "--train-fraction",
    type=float,
    default=0.5,
    show_default=True,
    help="Supervised detectors: share of each class used for training (seeded); the rest "
    "is evaluated, for every detector.",
)
@scoring_lm_options(
    "Scoring causal LM of the zero-shot detectors (folder, <dir>::<file.gguf>, smollm2).",
    "Fast-DetectGPT sampling / Binoculars observer model.",
)
@click.option(
    "--machine-label",
    default=None,
    help="The label value that means machine (any convention, e.g. 0); give --human-label too. "
    "Any other value in the label column is then an error listing them.",
)
@click.option("--human-label", default=None, help="The label value that means human (e.g. 1).")
@click.option(
    "--hf-machine-class",
    default=None,
    help="hf:<model>: the classifier's machine class (name or index).",
)
@click.option(
    "--duplicates",
    type=click.Choice(["drop", "together"]),
    default="drop",
    show_default=True,
    help="Exact duplicates (after whitespace/Unicode normalisation): drop all but the first, or "
    "keep them on one side of every split. Counted either way.",
)
@click.option(
    "--conflicts",
    type=click.Choice(["exclude", "keep"]),
    default="exclude",
    show_default=True,
    help="Texts that occur under both labels: exclude every copy, or keep them. Counted.",
)
@click.option(
    "--protocol",
    type=click.Choice(["default", "raid"]),
    default="default",
    show_default=True,
    help="raid: RAID's protocol (per-domain thresholds on human texts, TPR for every "
    "combination of the group columns plus 'all', null where a domain cannot reach the FPR).",
)
@click.option(
    "--domain-column",
    default=None,
    help="--protocol raid: the column whose values get their own threshold (default: "
    "'domain' if it is a --group-column; without one the set is one domain).",
)
@click.option("--max-tokens", type=int, default=512, show_default=True)
@click.option("--batch-size", type=int, default=8, show_default=True, help="LM batch size.")
@click.option("--device", default="cpu", show_default=True)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Output folder (default: stylebench_results/detect/<data name>); rerun with the same "
    "folder to resume.",
)
@no_progress_option
@packed(
    "reading",
    lambda hf_split, **columns: dict(columns, split=hf_split),
    "text_column",
    "label_column",
    "group_columns",
    "id_column",
    "split_column",
    "split_by",
    "hf_split",
    "sample",
    "machine_label",
    "human_label",
    "duplicates",
    "conflicts",
)
@packed(
    "detector_options",
    lambda hf_machine_class, **lm: dict(lm, machine_label=hf_machine_class),
    "model",
    "reference",
    "max_tokens",
    "batch_size",
    "device",
    "hf_machine_class",
)
@packed(
    "evaluation",
    lambda **values: Evaluation(**values),
    "fprs",
    "resamples",
    "seed",
    "train_fraction",
    "protocol",
    "domain_column",
)
def run_cmd(
    data: str,
    detectors: tuple[str, ...],
    reading: dict[str, Any],
    evaluation: Evaluation,
    detector_options: dict[str, Any],
    out: Path | None,
    no_progress: bool,
) -> None:
    """Score a human/machine set with detectors: AUROC and TPR@FPR with bootstrap CIs,
    overall and per group, a ROC plot, scores per text; resumable."""
    from evaluators.console import cli_console
    from evaluators.detect.data import load_detection_set
    from evaluators.detect.run import run_detection

    console = cli_console()
    evaluation, reading = settle_protocol(evaluation, reading)
    check_label_options(reading, detectors)
    dataset = load_detection_set(data, seed=evaluation.seed, **reading)
    out = out or Path("stylebench_results") / "detect" / (Path(data).name.split(".")[0] or "data")
    announce(
        console, dataset, detectors, evaluation, named_labels=reading["human_label"] is not None
    )
    run = run_detection(
        dataset,
        list(detectors),
        out,
        fprs=evaluation.fprs,
        n_resamples=evaluation.resamples,
        seed=evaluation.seed,
        train_fraction=evaluation.train_fraction,
        # one LM batch per progress step and per resume checkpoint
        batch_size=detector_options["batch_size"],
        progress=not no_progress,
        detector_options=detector_options,
        log=console.print,
        protocol=evaluation.protocol,
        domain_column=evaluation.domain_column,
    )
    if evaluation.protocol == "raid":
        _print_raid(console, run, dataset, evaluation.fprs)
    else:
        print_bootstrap(console, run, dataset, evaluation)
    for kind, path in run.files.items():
        console.print(f"{kind + ':':8} {path}")


@dataclass(frozen=True)
class Evaluation:
    """``detect run``'s evaluation options: the FPR budgets (empty: the protocol's
    default), the bootstrap, the supervised split and the protocol."""

    fprs: tuple[float, ...]
    resamples: int
    seed: int
    train_fraction: float
    protocol: str
    domain_column: str | None


def settle_protocol(
    evaluation: Evaluation, reading: dict[str, Any]
) -> tuple[Evaluation, dict[str, Any]]:
    """The protocol's defaults: the FPR budgets (0.01; RAID's 0.05 and 0.01); with
    ``--protocol raid`` the domain column is ``domain`` when that is a group column, and a
    domain column that is not one is read first among the groups; ``--domain-column``
    without it is a usage error."""
    raid = evaluation.protocol == "raid"
    fprs = evaluation.fprs or ((0.05, 0.01) if raid else (0.01,))
    domain_column = evaluation.domain_column
    group_columns = reading["group_columns"]
    if not raid:
        if domain_column is not None:
            raise click.UsageError("--domain-column applies to --protocol raid")
        return dataclasses.replace(evaluation, fprs=fprs), reading
    if domain_column is None and "domain" in group_columns:
        domain_column = "domain"
    if domain_column is not None and domain_column not in group_columns:
        reading = dict(reading, group_columns=(domain_column, *group_columns))
    return dataclasses.replace(evaluation, fprs=fprs, domain_column=domain_column), reading


def check_label_options(reading: dict[str, Any], detectors: tuple[str, ...]) -> None:
    """``--machine-label`` alone beside an ``hf:`` detector is taken for the classifier's
    machine class (that is ``--hf-machine-class``): a usage error saying so."""
    if (
        reading["machine_label"] is not None
        and reading["human_label"] is None
        and any(d.startswith("hf:") for d in detectors)
    ):
        raise click.UsageError(
            "--machine-label names the data's machine label (with --human-label); the "
            "classifier's machine class of an hf: detector is --hf-machine-class"
        )


def announce(
    console: Console,
    dataset: DetectionSet,
    detectors: tuple[str, ...],
    evaluation: Evaluation,
    *,
    named_labels: bool,
) -> None:
    """The run's first lines: the set (texts per label, groups), the estimated scoring
    time, how the labels were read and what was dropped."""
    from rich.markup import escape

    from evaluators.detect.data import label_reading
    from evaluators.detect.estimate import describe_seconds, estimate_seconds

    n_h = dataset.labels.count(0)
    # with a supervised detector only the held-out share is scored (by every detector)
    # (a split column: every row counted as evaluated, an upper bound)
    evaluated, fit_texts = dataset.texts, []
    if "tfidf" in detectors and dataset.splits is None:
        cut = round(len(dataset) * (1 - evaluation.train_fraction))
        evaluated, fit_texts = dataset.texts[:cut], dataset.texts[cut:]
    console.print(
        f"{dataset.name}: {n_h:,} human and {len(dataset) - n_h:,} machine texts"
        + (f", groups: {', '.join(dataset.groups)}" if dataset.groups else "")
        + "; estimated scoring time on 2 CPU cores: "
        + describe_seconds(estimate_seconds(detectors, evaluated, fit_texts))
    )
    console.print(
        f"  labels read as {escape(label_reading(dataset))}"
        + ("" if named_labels else " (--human-label/--machine-label to change)")
    )
    for reason, n in sorted(dataset.dropped.items()):
        console.print(f"  dropped {n:,}: {reason}")


def print_bootstrap(
    console: Console, run: DetectionRun, dataset: DetectionSet, evaluation: Evaluation
) -> None:
    """The bootstrap records as a table: detector, group, counts, AUROC and each TPR@FPR
    with its 95 % interval."""
    from rich.table import Table

    from evaluators.detect.report import fpr_key, fpr_label

    split = run.meta["split"]
    title = (
        f"{dataset.name}: detectors, {evaluation.resamples:,} bootstrap resamples "
        f"(seed {evaluation.seed})"
    )
    if split["supervised"]:
        title += f"; held-out {split['n_test']:,} of {len(dataset):,} rows"
    table = Table(title=title)
    for column in ("detector", "group", "human", "machine", "AUROC [95% CI]"):
        table.add_column(column)
    for f in evaluation.fprs:
        table.add_column(f"{fpr_label(f)} [95% CI]")
    for r in run.records:
        group = r["group"] if not r["group_column"] else f"{r['group_column']}={r['group']}"
        cells = [
            r["detector"],
            group,
            f"{r['n_human']:,}",
            f"{r['n_machine']:,}",
            f"{r['auroc']:.3f} [{r['auroc_ci95'][0]:.3f}, {r['auroc_ci95'][1]:.3f}]",
        ]
        for f in evaluation.fprs:
            low, high = r[f"{fpr_key(f)}_ci95"]
            cells.append(f"{r[fpr_key(f)]:.3f} [{low:.3f}, {high:.3f}]")
        table.add_row(*cells)
    console.print(table)


def _print_raid(
    console: Console, run: DetectionRun, dataset: DetectionSet, fprs: tuple[float, ...]
) -> None:
    """The RAID records as a table (``-`` where the TPR is null) and the domains whose
    human texts cannot reach a target."""
    from rich.table import Table

    from evaluators.detect.raid import tpr_key
    from evaluators.detect.report import fpr_label

    groups = list(dataset.groups)
    split = run.meta["split"]
    title = f"{dataset.name}: RAID protocol (per-domain thresholds on human texts)"
    if split["supervised"]:
        title += f"; held-out {split['n_test']:,} of {len(dataset):,} rows"
    table = Table(title=title)
    for column in ("detector", *groups, "human", "machine", "AUROC"):
        table.add_column(column)
    for f in fprs:
        table.add_column(fpr_label(f))
    for r in run.records:
        cells = [r["detector"], *(r[g] for g in groups), f"{r['n_human']:,}", f"{r['n_machine']:,}"]
        cells.append("-" if r["auroc"] is None else f"{r['auroc']:.3f}")
        cells += ["-" if r[tpr_key(f)] is None else f"{r[tpr_key(f)]:.3f}" for f in fprs]
        table.add_row(*cells)
    console.print(table)
    for name, per_fpr in run.meta["raid"]["thresholds"].items():
        for key, per_domain in per_fpr.items():
            missed = [d for d, c in per_domain.items() if not c["reachable"]]
            if missed:
                console.print(
                    f"{name} {key}: null (the target cannot be met on the human texts) for "
                    f"domain(s) {', '.join(missed)}"
                )
