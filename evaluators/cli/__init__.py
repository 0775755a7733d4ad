"""The ``stylebench`` command line: ``stylebench <family> <verb>``.

Every benchmark family has the verbs ``build``, ``run``, ``report`` and ``list``, plus its
own (``steb scores``, ``arb generate``, ``styledisc reference``, ...). The STEB family's
commands are also at the top level (``stylebench run``, ``stylebench build``, ...): those
are the same command objects or the same functions (see :data:`SHORTCUTS`), never a second
implementation. Families are registered explicitly at the bottom of this module.
Heavy imports live inside the command functions: ``stylebench --help`` imports little.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from dataset_scripts.core.errors import StylebenchError
from evaluators.cli.datasets import (
    STEB_LISTS,
    FamilyGroup,
    alias,
    build_command,
    list_command,
    no_progress_option,
)
from evaluators.cli.datasets import console as _console
from evaluators.metric_math.resampling import DEFAULT_SEED

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


@click.group(name="steb", cls=FamilyGroup)
def steb() -> None:
    """STEB: style-embedding tasks, datasets, scores and the paper's leaderboard."""


@steb.command()
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("stylebench_results/demo"),
    show_default=True,
    help="Folder for the demo data, results, summary and chart.",
)
@click.option(
    "--model",
    "models",
    multiple=True,
    help="Encoders to run (default: tfidf-ngrams, function-words, stylometric, minilm when installed).",
)
@no_progress_option
def demo(out: Path, models: tuple[str, ...], no_progress: bool) -> None:
    """Run the embedded demo benchmark (no download) and write results + a chart."""
    from evaluators.demo import DEMO_ALSO, run_demo
    from evaluators.report import render_table, summary_rows

    console = _console()
    result = run_demo(out, list(models) or None, progress=not no_progress)
    for name, reason in result.skipped.items():
        console.print(f"[yellow]skipped {name}[/yellow]: {reason}")
    console.print(render_table(summary_rows(result.records, DEMO_ALSO), title="stylebench demo"))
    console.print(
        f"results: {result.results_dir}\nsummary: {result.csv_path}\nchart:   {result.chart_path}"
    )
    for name, t in result.timings.items():  # where the time goes (encoding dominates)
        console.print(
            f"time {name}: load {t['load']:.1f} s, encode {t['encode']:.1f} s, "
            f"evaluate {t['evaluate']:.1f} s"
        )


@steb.command()
@click.option(
    "--model",
    "models",
    required=True,
    multiple=True,
    help="Encoder: a built-in name (see `stylebench list encoders`), "
    "a sentence-transformers name or path, hf:<model>, causal:<model>, "
    "openai-embeddings:<model>@<url> (a served model); repeatable.",
)
@click.option(
    "--dataset",
    "datasets",
    multiple=True,
    help="A Hub-ready dataset folder (from `stylebench build`) or a Hub dataset id; repeatable.",
)
@click.option(
    "--benchmark",
    default=None,
    help="A named STEB subset (steb, operational, definitional, application, multilingual, "
    "lite): every dataset of it that is built under --built-root.",
)
@click.option(
    "--built-root", type=click.Path(path_type=Path), default=Path("built"), show_default=True
)
@click.option(
    "--resume/--no-resume",
    default=True,
    show_default=True,
    help="Reuse result files of this model, seed, data and stylebench version.",
)
@click.option(
    "--tasks",
    default=None,
    help="Comma-separated task types (default: every task the data serves).",
)
@click.option(
    "--out", type=click.Path(path_type=Path), default=Path("stylebench_results"), show_default=True
)
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Embedding cache (default: $STYLEBENCH_CACHE or ~/.cache/stylebench/embeddings).",
)
@click.option("--no-cache", is_flag=True, help="Do not read or write the embedding cache.")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True)
@click.option(
    "--protocol",
    type=click.Choice(["steb", "steb-strict"]),
    default="steb",
    show_default=True,
    help="steb: the STEB authors' rules where the paper is silent (solver tie-breaks); "
    "steb-strict: tied optima score their expected accuracy (docs/concepts/protocol.md).",
)
@click.option(
    "--chunk/--truncate",
    default=True,
    show_default=True,
    help="Chunk-and-pool long texts (STEB App. G) or truncate them to the model's length.",
)
@click.option(
    "--sentence-splitter",
    type=click.Choice(["spacy", "regex"]),
    default="spacy",
    show_default=True,
    help="Where chunk-and-pool cuts long texts: spaCy parser sentences (the STEB authors') "
    "or the fast regex splitter.",
)
@click.option(
    "--fit-corpus",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="Reference corpus for TF-IDF (a text file, one document per line); default: the evaluated texts.",
)
@click.option("--batch-size", type=int, default=32, show_default=True)
@click.option("--device", default=None, help="torch device for neural encoders (cpu, cuda, ...).")
@click.option(
    "--devices",
    default=None,
    help="Comma-separated devices, one worker process each (cuda:0,cuda:1 or cpu,cpu): "
    "every batch of unique texts is spread over them.",
)
@click.option(
    "--ray",
    "ray_address",
    default=None,
    help="Run each (model, dataset) as a Ray task on the cluster at this address "
    "(auto, host:port, ray://host:10001) or on a new one-node cluster (local); "
    "needs `pip install 'stylebench[ray]'`.",
)
@click.option(
    "--backend",
    type=click.Choice(["torch", "onnx", "openvino"]),
    default=None,
    help="Inference backend of st:/hf: encoders (default torch; onnx/openvino: exported "
    "once into the stylebench cache). Under --protocol steb a backend whose vectors drift "
    "from torch's beyond the tolerance is refused.",
)
@click.option(
    "--precision",
    type=click.Choice(["fp32", "fp16", "bf16", "int8"]),
    default=None,
    help="Precision of st:/hf: encoders (default fp32): fp16/bf16 autocast (torch, GPU) or "
    "OpenVINO's hint, int8 dynamic quantisation (onnx). Recorded in the encoder identity.",
)
@click.option("--ray-cpus", type=float, default=1.0, show_default=True, help="CPUs per Ray task.")
@click.option("--ray-gpus", type=float, default=0.0, show_default=True, help="GPUs per Ray task.")
@click.option(
    "--episode-size",
    type=int,
    default=None,
    help="STEB episodes: this many texts of a class mean-pooled into one sample (an "
    "episode-reading encoder such as LUAR reads them itself); -1: all of an author's "
    "texts (retrieval). Default: each row as built.",
)
@click.option(
    "--per-class",
    default=None,
    metavar="N|auto",
    help="Episodes kept per class: the first episode-size x N texts, smaller classes "
    "dropped; auto = clamp(smallest class // episode size, 25, 200) (the STEB authors' rule).",
)
@click.option(
    "--submetric",
    multiple=True,
    metavar="NAME=CLASS,...",
    help="Also score each task on these classes (labels, style groups, authors), stored "
    "in details.submetrics.NAME; repeatable.",
)
@no_progress_option
def run(
    models: tuple[str, ...],
    datasets: tuple[str, ...],
    benchmark: str | None,
    built_root: Path,
    resume: bool,
    tasks: str | None,
    out: Path,
    cache_dir: Path | None,
    no_cache: bool,
    seed: int,
    protocol: str,
    chunk: bool,
    sentence_splitter: str,
    fit_corpus: Path | None,
    batch_size: int,
    device: str | None,
    devices: str | None,
    backend: str | None,
    precision: str | None,
    ray_address: str | None,
    ray_cpus: float,
    ray_gpus: float,
    episode_size: int | None,
    per_class: str | None,
    submetric: tuple[str, ...],
    no_progress: bool,
) -> None:
    """Evaluate encoders on datasets; one JSON per (model, dataset, task)."""
    from evaluators.dataset_check import parse_submetrics

    sampling = _sampling(episode_size, per_class)
    submetrics = parse_submetrics(submetric)
    from evaluators.encoders import encoder_identity
    from evaluators.encoders.multi_device import parse_devices
    from evaluators.paths import embedding_cache_dir
    from evaluators.report import render_table, summary_rows
    from evaluators.run import service as run_service

    console = _console()
    task_types = tuple(t.strip() for t in tasks.split(",") if t.strip()) if tasks else None
    refs = list(datasets)
    if benchmark:
        from evaluators.benchmark_folders import resolve_benchmark

        wanted, missing = resolve_benchmark(benchmark, built_root)
        local = [r for r in wanted if r not in missing]
        console.print(
            f"benchmark {benchmark}: {len(local)} of {len(wanted)} datasets built under "
            f"{built_root} (build more with `stylebench build --all`)"
        )
        refs += local
    chunking: bool | str = (sentence_splitter if sentence_splitter != "spacy" else True) and chunk
    config = run_service.RunConfig(
        seed=seed,
        protocol=protocol,
        sampling=sampling,
        submetrics=submetrics,
        tasks=task_types,
        chunk=chunking,
        batch_size=batch_size,
        device=device,
        devices=tuple(parse_devices(devices)) if devices else None,
        backend=backend,
        precision=precision,
        fit_corpus=fit_corpus,
        cache_dir=None if no_cache else (cache_dir or embedding_cache_dir()),
        out_dir=out,
        resume=resume,
        progress=not no_progress,
    )
    specs = run_service.plan(refs, config)
    by_model: dict[str, list] = {}
    if ray_address:
        from evaluators.distributed import plan_jobs, run_on_ray

        if devices:
            raise StylebenchError("--devices does not combine with --ray: use --ray-gpus")
        n_data = len({s.dataset for s in specs})
        console.print(
            f"ray: {len(plan_jobs(models, specs))} Ray jobs ({len(models)} models x {n_data} "
            f"datasets), {ray_cpus:g} CPU and {ray_gpus:g} GPU each, cluster {ray_address}"
        )
        by_model = run_on_ray(
            models, specs, config, address=ray_address, num_cpus=ray_cpus, num_gpus=ray_gpus
        )
        from evaluators.distributed.ray_runner import results_per_node

        nodes = results_per_node(by_model)
        console.print(
            f"ray: {sum(nodes.values())} results from {len(nodes)} "
            f"{'node' if len(nodes) == 1 else 'nodes'} ("
            + ", ".join(f"{node[:12]}: {n}" for node, n in nodes.items())
            + ")"
        )
    else:

        def announce(model: str, encoder: object) -> None:
            identity = encoder_identity(encoder)
            if identity.get("routed_by"):  # a bare model path or hub id: how STEB routing read it
                console.print(f"[dim]{model}: {identity['routed_by']}[/dim]")
            if chunk and identity.get("pooling") == "server":
                console.print(
                    f"[dim]{model}: texts are sent whole; chunk-and-pool does not apply to a "
                    "served model (the server truncates long texts at its own limit; "
                    "--truncate says so and silences this)[/dim]"
                )

        by_model = run_service.run(list(models), specs, config, on_encoder=announce)
    console.print(render_table(summary_rows(by_model)))
    for record in (r for records in by_model.values() for r in records):
        how = (
            "reused (resume)"
            if record.extra.get("resumed")
            else f"encoded {record.embedding.n_encoded}/{record.embedding.n_unique} unique texts"
        )
        console.print(f"[dim]{record.path}[/dim]  {how}")
    for model in models if benchmark else ():
        _print_steb_scores(console, out, run_service.model_name(model))


def _print_steb_scores(console, out: Path, model: str) -> None:
    """STEB's views (with bootstrap CIs) for ``model`` from the result folder."""
    from rich.table import Table

    from evaluators.steb_scores.results import load_results
    from evaluators.steb_scores.summary import summarize

    summary = summarize(load_results([out]))
    mine = summary.models.get(model)
    if mine is None:
        return
    table = Table(
        title=f"STEB scores of {model} ({mine.coverage} datasets"
        f"{'' if mine.comparable else ', not comparable to the paper'})"
    )
    for column in ("view", "score", "95% CI", "task results"):
        table.add_column(column)
    for name, view in mine.views.items():
        if view.overall is None:
            continue
        low, high = view.ci.get(view.overall_name, (float("nan"), float("nan")))
        table.add_row(
            name,
            f"{100 * view.overall:.2f}",
            f"[{100 * low:.2f}, {100 * high:.2f}]",
            str(sum(view.n_datasets.values())),
        )
    console.print(table)
    console.print(
        f"leaderboard: stylebench leaderboard --results {out} --view all --out {out}/board"
    )


@steb.command(name="probing-build")
@click.option(
    "--texts",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
    help="Your corpus: .txt (one text per line), .csv/.tsv or .jsonl with a text column.",
)
@click.option("--text-column", default="text", show_default=True)
@click.option("--name", default=None, help="Dataset name (default: the file name).")
@click.option("--out", type=click.Path(path_type=Path), required=True)
def probing_build(texts: Path, text_column: str, name: str | None, out: Path) -> None:
    """Build a STEB probing dataset (46 LFTK features, 5 quantile bins, balanced splits,
    seed 42) from any text corpus; evaluate it with `stylebench run --tasks probing`."""
    from dataset_scripts.steb.probing import build_probing_folder

    folder, dropped = build_probing_folder(texts, out, name, text_column)
    console = _console()
    console.print(f"built probing dataset -> {folder}")
    for reason, n in sorted(dropped.items()):
        console.print(f"  {reason}: {n}")


_sampling_options = [
    click.option(
        "--episode-size",
        type=int,
        default=None,
        help="Check/show episodes of this many texts of a class (-1: all of a class).",
    ),
    click.option(
        "--per-class",
        default=None,
        help="Episodes kept per class: a number or 'auto' (the STEB authors' rule).",
    ),
]


def _sampling(episode_size: int | None, per_class: str | None):
    from evaluators.tasks.episodes import DEFAULT_SAMPLING, Sampling

    if episode_size is None and per_class is None:
        return DEFAULT_SAMPLING
    return Sampling(episode_size, per_class)


def _with(options: list):
    """One decorator applying several click options."""

    def apply(command):
        for decorate in reversed(options):
            command = decorate(command)
        return command

    return apply


@steb.command()
@click.argument("dataset")
@click.option("--rows", "n_rows", type=int, default=3, show_default=True, help="First rows shown.")
@_with(_sampling_options)
@click.option("--json", "as_json", is_flag=True, help="Print the preview as JSON.")
def preview(
    dataset: str, n_rows: int, episode_size: int | None, per_class: str | None, as_json: bool
) -> None:
    """Show what a dataset holds before running it: per config the schema, tasks,
    columns, rows per split, first rows, classes and what the per-class rule keeps."""
    import json

    from evaluators import dataset_check

    info = dataset_check.preview(
        dataset, n_rows=n_rows, sampling=_sampling(episode_size, per_class)
    )
    click.echo(
        json.dumps(info, indent=2, default=str) if as_json else dataset_check.format_preview(info)
    )


@steb.command()
@click.argument("datasets", nargs=-1, required=True)
@_with(_sampling_options)
def validate(datasets: tuple[str, ...], episode_size: int | None, per_class: str | None) -> None:
    """Check built folders or Hub datasets: card, data files, columns and types, every
    row and what the tasks need; every problem names its file, row and column. Exit
    status 2 when there is an error (warnings are what the evaluators drop and count)."""
    from evaluators.dataset_check import validate as validate_dataset

    sampling = _sampling(episode_size, per_class)
    n_errors = 0
    for dataset in datasets:
        report = validate_dataset(dataset, sampling=sampling)
        for problem in report.problems:
            click.echo(str(problem))
        n_errors += len(report.errors)
        verdict = "ok" if report.ok else f"{len(report.errors)} errors"
        click.echo(f"{dataset}: {verdict}, {len(report.warnings)} warnings")
    if n_errors:
        raise StylebenchError(f"{n_errors} errors in {len(datasets)} dataset(s) (listed above)")


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
@click.option(
    "--built-root", type=click.Path(path_type=Path), default=Path("built"), show_default=True
)
def push(
    target: str | None,
    repo_id: str | None,
    kind: str | None,
    model: str | None,
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

    plan = plan_push(target, repo_id=repo_id, kind=kind, model=model)
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
