"""The ``stylebench`` command line: ``stylebench <family> <verb>``.

Every benchmark family has the verbs ``build``, ``run``, ``report`` and ``list``, plus its
own (``steb scores``, ``arb generate``, ``styledisc reference``, ...). The STEB family's
commands are also at the top level (``stylebench run``, ``stylebench build``, ...): those
are the same command objects or the same functions (see :data:`SHORTCUTS`), never a second
implementation. Families are registered explicitly at the bottom of this module.
Heavy imports live inside the command functions: ``stylebench --help`` imports little.

The package is the only place that imports click; the domain packages below it know
nothing of the command line. Its modules: :mod:`.options` (the option groups shared by
the commands: seed, cache, sampling, downloads), :mod:`.datasets` (the ``build`` and
``list`` verbs every family shares), :mod:`.build_from` (``build --from``),
:mod:`.steb` and :mod:`.steb_scores` (the STEB family), :mod:`.arb`, :mod:`.valla`,
:mod:`.styledisc`, :mod:`.detect` (one per family), :mod:`.results`, :mod:`.compare`
and :mod:`.sources` (the commands outside the families).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from dataset_scripts.core.errors import StylebenchError
from evaluators.cli.datasets import STEB_LISTS, alias, build_command, list_command
from evaluators.cli.datasets import console as _console
from evaluators.cli.options import built_root_option, packed

#: the benchmark families, in the order ``stylebench --help`` lists them
FAMILIES = {
    "steb": "style embeddings (STEB)",
    "arb": "AI-text detectors under rewriting (ARB)",
    "valla": "authorship attribution and verification (Valla)",
    "styledisc": "style discrimination (Jangra et al.)",
}


class _RootGroup(click.Group):
    """The root: its help lists the families, then the shortcuts, then the rest."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        order = [*FAMILIES, *SHORTCUTS]
        return [n for n in order if n in self.commands] + sorted(
            n for n in self.commands if n not in order
        )

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        families, shortcuts, others = [], [], []
        for name in self.list_commands(ctx):
            command = self.commands[name]
            if command.hidden:
                continue
            if name in FAMILIES:
                verbs = ", ".join(getattr(command, "verbs", lambda: [])())
                families.append((name, f"{FAMILIES[name]}: {verbs}"))
            elif name in SHORTCUTS:
                shortcuts.append((name, SHORTCUTS[name]))
            else:
                # the whole first sentence (write_dl wraps it), never cut with "..."
                others.append((name, command.get_short_help_str(limit=500)))
        for title, rows in (
            ("Benchmark families (stylebench <family> <verb>)", families),
            ("Shortcuts (each is the family command named)", shortcuts),
            ("Other commands", others),
        ):  # fmt: skip
            with formatter.section(title):
                formatter.write_dl(rows)


@click.group(cls=_RootGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="stylebench")
def cli() -> None:
    """Evaluate writing style: STEB (style embeddings), ARB (AI-text detectors under
    rewriting), Valla (authorship attribution/verification) and style discrimination;
    datasets as Hub folders, metrics as evaluate modules."""


@cli.command()
@click.argument("target", required=False)
@click.option("--repo-id", default=None, help="Target repo (default: the folder's hub id).")
@click.option(
    "--kind",
    type=click.Choice(["dataset", "metric", "space", "model-results"]),
    default=None,
    help="What TARGET is (default: guessed: a built folder, a bundled metric name, 'space'); "
    "model-results: TARGET is a results repository, --model the model.",
)
@click.option("--model", default=None, help="--kind model-results: the model (its repo id).")
@click.option("--private", is_flag=True)
@click.option(
    "--dry-run", is_flag=True, help="Print repo id, type and every file; validate the card."
)
@click.option(
    "--all", "push_all", is_flag=True, help="Every release repo built under --built-root."
)
@click.option("--org", default=None, help="--all: push under this organisation.")
@built_root_option
@packed("naming", lambda **values: values, "repo_id", "kind", "model")
def push(
    target: str | None,
    naming: dict[str, str | None],
    private: bool,
    dry_run: bool,
    push_all: bool,
    org: str | None,
    built_root: Path,
) -> None:
    """Upload to the Hugging Face Hub: a built dataset folder (dataset repo, with its
    eval.yaml), a bundled metric (a Space under stylebench/<name>), the stylebench Space,
    or a model's .eval_results from a results repository (a pull request); --all: every
    release repo built under --built-root."""
    from evaluators.publish import plan_push, print_push_all, run_push

    if push_all:
        print_push_all(_console(), built_root, org=org, dry_run=dry_run, private=private)
        return

    plan = plan_push(target, **naming)  # --repo-id, --kind, --model
    console = _console()
    console.print(
        f"repo id:   {plan.repo_id}\nrepo type: {plan.repo_type}\nfrom:      {plan.folder}"
    )
    console.print(f"card:      {plan.card_summary}")
    for file in plan.files:
        console.print(f"  {file}")
        if plan.kind == "model-results":  # generated files: show exactly what is sent
            click.echo((plan.folder / file).read_text(encoding="utf-8"))
    console.print(f"{len(plan.files)} files")
    if dry_run:
        console.print("dry run: nothing uploaded")
        return
    console.print(run_push(plan, private=private))


@cli.group()
def metrics() -> None:
    """The bundled evaluate modules: register them for evaluate.load(<bare name>)."""


@metrics.command(name="install")
@click.argument("names", nargs=-1)
def metrics_install(names: tuple[str, ...]) -> None:
    """Register the bundled modules in evaluate's module cache so that the literal
    evaluate.load("tpr_at_fpr") and evaluate.load("stylebench/tpr_at_fpr") work offline
    from any folder (see the README for what would shadow them)."""
    from evaluators.metric_cache import install_metrics

    installed = install_metrics(list(names) or None)
    console = _console()
    for entry in installed:
        console.print(
            f'evaluate.load("{entry.load_name.removeprefix("evaluate-metric/")}")  -> {entry.script}'
        )
    console.print(f"{len(installed)} cache entries written")


def _register() -> None:
    """Every family's group and the top-level shortcuts, listed here (no discovery)."""
    from evaluators.cli import steb_scores as scores
    from evaluators.cli.arb import COMMAND as arb
    from evaluators.cli.detect import COMMAND as detect
    from evaluators.cli.steb import steb
    from evaluators.cli.styledisc import COMMAND as styledisc
    from evaluators.cli.valla import COMMAND as valla

    steb.add_command(
        build_command(
            "steb",
            help="Build STEB dataset folders (Parquet + card) from their raw downloads, or "
            "a dataset from your own files with --from.",
        )
    )
    steb.add_command(
        list_command("steb", STEB_LISTS, help="List STEB tasks, encoders, datasets or metrics.")
    )
    for command in scores.COMMANDS:  # report (the leaderboard), scores, protocol, ...
        steb.add_command(command)
    steb.add_command(alias(scores.report, "leaderboard", "= stylebench steb report"))
    for group in (steb, arb, valla, styledisc, detect):
        cli.add_command(group)
    from evaluators.cli.results import COMMAND as results

    cli.add_command(results)  # the results repository (stylebench results ...)
    from evaluators.cli.sources import COMMAND as sources

    cli.add_command(sources)  # the raw-data sources (stylebench sources list/record)
    # the shortcuts: the STEB commands themselves, and build/list over every family
    cli.add_command(
        build_command(
            None,
            help="Build a Hub-ready dataset folder (Parquet + card) of any family from its "
            "raw download, or from your own files with --from.",
        )
    )
    cli.add_command(
        list_command(
            None,
            STEB_LISTS,
            help="List tasks, encoders, datasets (of every family) or metrics.",
        )
    )
    for name in ("run", "demo", "probing-build", "preview", "validate"):
        cli.add_command(steb.commands[name])
    cli.add_command(alias(scores.report, "leaderboard", "= stylebench steb report"))
    from evaluators.cli.compare import compare  # model A vs B from stored results

    cli.add_command(compare)


#: top-level name -> the family command it is (``build`` and ``list`` cover every family)
SHORTCUTS = {
    "build": "stylebench <family> build, for a dataset of any family",
    "list": "stylebench steb list, with the datasets of every family",
    "run": "stylebench steb run",
    "demo": "stylebench steb demo",
    "probing-build": "stylebench steb probing-build",
    "preview": "stylebench steb preview",
    "validate": "stylebench steb validate",
    "leaderboard": "stylebench steb report",
}
_register()


def main(argv: list[str] | None = None) -> None:
    """Entry point: stylebench errors become one line on stderr and exit status 2; its
    warnings one line each (:func:`evaluators.console.one_line_warnings`)."""
    from evaluators.console import one_line_warnings

    one_line_warnings()
    try:
        cli.main(args=argv, prog_name="stylebench", standalone_mode=False)
    except click.exceptions.Abort:
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except (StylebenchError, FileNotFoundError, ValueError) as error:
        if os.environ.get("STYLEBENCH_DEBUG"):
            raise
        from dataset_scripts.core.url_credentials import redact

        click.echo(f"error: {redact(str(error))}", err=True)  # no credential of a URL
        sys.exit(2)
    except (OSError, RecursionError, MemoryError) as error:
        # the disk, the file system or the input's shape, not a bug: one line, no traceback
        if os.environ.get("STYLEBENCH_DEBUG"):
            raise
        click.echo(f"error: {_system_error_line(error)}", err=True)
        sys.exit(2)


def _one_line(text: str) -> str:
    """An error message on one line (a message quoting a value may hold newlines)."""
    return " ".join(part.strip() for part in text.splitlines() if part.strip()) or text


def _system_error_line(error: BaseException) -> str:
    """One line for an error of the machine rather than of stylebench: a full disk, a
    read-only or unwritable path, a path below a file, input nested too deeply."""
    import errno

    if isinstance(error, RecursionError):
        return "the input is nested too deeply to read (e.g. JSON thousands of levels deep)"
    if isinstance(error, MemoryError):
        return "out of memory; use a smaller input or a machine with more memory"
    assert isinstance(error, OSError)
    where = error.filename or ""
    if error.filename2:
        where = f"{where} -> {error.filename2}"
    named = f": {where}" if where else ""
    code = error.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        return f"disk full{named}; free space (or write elsewhere) and rerun"
    if code == errno.EROFS:
        return f"read-only file system{named}; choose a writable folder"
    if code in (errno.EACCES, errno.EPERM):
        return f"permission denied{named}; choose a folder you can write to"
    if code == errno.ENOTDIR:
        return f"a part of the path is a file, not a folder{named}"
    if code == errno.EISDIR:
        return f"a folder where a file was expected{named}"
    reason = error.strerror or _one_line(str(error)) or type(error).__name__
    return f"{reason}{named}"
