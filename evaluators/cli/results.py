"""``stylebench results add|validate|submit|table|export``: the results repository
(:mod:`evaluators.results.repository`)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from dataset_scripts.core.errors import StylebenchError
from evaluators.cli.datasets import console as _console

_REPO_HELP = (
    "The results repository: a local folder, a git remote (URL, git@..., or a path ending "
    ".git) or, with --hub, a Hub dataset repo id (org/name)."
)
_HUB = click.option(
    "--hub",
    is_flag=True,
    help="--repo is a Hub dataset repo id (org/name); without it a path-like --repo that "
    "does not exist is an error.",
)
_WORKDIR = click.option(
    "--workdir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Working copy of a git remote / staging folder of a Hub repo "
    "(default: under the stylebench cache).",
)


@click.group(name="results")
def COMMAND() -> None:
    """The results repository: add a run's results, validate, submit, build the table."""


@COMMAND.command(name="add")
@click.argument("run_folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--repo", "repo", required=True, help=_REPO_HELP)
@click.option(
    "--model-meta",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="JSON/YAML: name, revision, license, n_parameters, embed_dim, max_tokens, "
    "open_weights, training_datasets, release_date, languages, framework, "
    "similarity_fn_name, reference (MTEB's names; embedding_dim, training_data still read).",
)
@click.option(
    "--model",
    "model",
    default=None,
    help="Add only this model of RUN_FOLDER (its name in the records); --model-meta "
    "describes it. Required with --model-meta when RUN_FOLDER holds several models.",
)
@click.option(
    "--benchmark",
    default=None,
    help="The benchmark (alias, name or NAME(version)) the run was made for (default: the "
    "one the records' run settings name, else the one whose units hold them all, else "
    "STEB(v1)).",
)
@_HUB
@_WORKDIR
def add(
    run_folder: Path,
    repo: str,
    model_meta: Path | None,
    model: str | None,
    benchmark: str | None,
    hub: bool,
    workdir: Path | None,
) -> None:
    """Lay the results of RUN_FOLDER (a `stylebench run --out` folder) out as
    results/<org>__<model>/<revision>/<dataset>/<task>.json with model_meta.json and
    run_settings.json; version-1 files are migrated. All or nothing."""
    from evaluators.results.repository import add_run, open_repo

    target = open_repo(repo, workdir, hub)
    report = add_run(run_folder, target.root, model_meta, benchmark, model)
    console = _console()
    for rel in report.written:
        console.print(f"  added    {escape(rel)}")
    for rel in report.replaced:
        console.print(f"  replaced {escape(rel)}")
    console.print(
        f"{len(report.written)} added, {len(report.replaced)} replaced "
        f"({report.migrated} migrated from version 1) for "
        f"{escape(', '.join(report.models))} ({escape(report.benchmark)}) "
        f"in {escape(str(target.root))}"
    )


@COMMAND.command(name="validate")
@click.option("--repo", "repo", required=True, help=_REPO_HELP)
@click.option(
    "--base",
    default=None,
    help="What removals are checked against: a folder (the repository before), or a git "
    "ref (default for a git work tree: origin/HEAD, else HEAD).",
)
@_HUB
@_WORKDIR
def validate(repo: str, base: str | None, hub: bool, workdir: Path | None) -> None:
    """Check a results repository; every refusal names its file and reason (exit status
    2 when anything is refused)."""
    from evaluators.results.repository import open_repo
    from evaluators.results.validate import format_report, validate_repository

    target = open_repo(repo, workdir, hub)
    report = validate_repository(target.root, base)
    console = _console()
    for line in format_report(report):
        console.print(line, markup=False, highlight=False)
    if not report.ok:
        raise StylebenchError(f"{len(report.refusals)} refused in {escape(str(target.root))}")


@COMMAND.command(name="submit")
@click.option("--repo", "repo", required=True, help=_REPO_HELP)
@click.option("--branch", default=None, help="git: the branch (default: submission/<model>).")
@click.option("--message", default=None, help="The commit message.")
@click.option("--dry-run", is_flag=True, help="Print the files it would send; send nothing.")
@_HUB
@_WORKDIR
def submit(
    repo: str,
    branch: str | None,
    message: str | None,
    dry_run: bool,
    hub: bool,
    workdir: Path | None,
) -> None:
    """Send what `results add` laid out: a branch and commit pushed to a git remote, or a
    pull request on a Hub dataset repo (validated first). Compared with the remote, not
    the working copy; never forced."""
    from evaluators.results.repository import resolve_repo
    from evaluators.results.submit import plan_submission, submit_git, submit_hub

    plan = plan_submission(resolve_repo(repo, workdir, hub), branch=branch, message=message)
    console = _console()
    where = f"branch {plan.branch} of" if plan.branch else "a pull request on"
    console.print(
        f"{where} {plan.target.spec} ({plan.target.kind}), from {plan.target.root}",
        markup=False,
        highlight=False,
    )
    if plan.compared_with:
        console.print(f"compared with {plan.compared_with}", markup=False, highlight=False)
    for commit in plan.commits:
        console.print(f"  unpushed commit {commit}", markup=False, highlight=False)
    for file in plan.files:
        console.print(f"  {file}", markup=False, highlight=False)
    console.print(f"{len(plan.files)} files")
    if dry_run:
        console.print("dry run: nothing sent")
        return
    if plan.target.kind == "git":
        console.print(f"pushed commit {submit_git(plan)}", markup=False, highlight=False)
    else:
        console.print(f"opened {submit_hub(plan)}", markup=False, highlight=False)


@COMMAND.command(name="table")
@click.option("--repo", "repo", required=True, help=_REPO_HELP)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.option(
    "--scores",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the benchmark scores (complete rows only, with coverage) as Parquet.",
)
@_HUB
@_WORKDIR
def table(repo: str, out: Path, scores: Path | None, hub: bool, workdir: Path | None) -> None:
    """Write the long-format table the leaderboard reads (one row per result, metric and
    benchmark) as Parquet."""
    from evaluators.results.repository import open_repo
    from evaluators.results.table import benchmark_scores, results_table

    target = open_repo(repo, workdir, hub)
    frame = results_table(target.root)
    out.parent.mkdir(parents=True, exist_ok=True)
    frame.to_parquet(out, index=False)
    console = _console()
    console.print(
        f"{len(frame)} rows ({frame['model'].nunique()} models) -> {out}",
        markup=False,
        highlight=False,
    )
    if scores is not None:
        summary = benchmark_scores(frame)
        summary.to_parquet(scores, index=False)
        for row in summary.itertuples():
            value = (
                "incomplete" if row.score is None or row.score != row.score else f"{row.score:.4f}"
            )
            console.print(
                f"  {row.model} {row.benchmark}({row.benchmark_version}): {value} "
                f"({row.covered} of {row.total})",
                markup=False,
                highlight=False,
            )


@COMMAND.command(name="export")
@click.argument("repo")
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["mteb"]),
    required=True,
    help="mteb: MTEB's results layout, read by mteb.ResultCache(OUT).load_results().",
)
@_HUB
@_WORKDIR
def export(repo: str, out: Path, fmt: str, hub: bool, workdir: Path | None) -> None:
    """Write the results repository REPO in another tool's layout under OUT
    (docs/guides/share-results.md: the mapping of datasets and tasks to MTEB tasks)."""
    from evaluators.results.mteb_export import export_mteb
    from evaluators.results.repository import open_repo

    target = open_repo(repo, workdir, hub)
    report = export_mteb(target.root, out)
    _console().print(
        f"{report.results} results of {report.models} model revisions -> {out} ({fmt})",
        markup=False,
        highlight=False,
    )
    for line in report.notes():
        _console().print(line, markup=False, highlight=False)
