"""The ``stylebench`` command line."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from evaluators.build_from_cli import build_from, from_options
from evaluators.errors import StylebenchError
from evaluators.tabular import plural


def _default_cache() -> Path:
    base = os.environ.get("STYLEBENCH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "stylebench"
    )
    return Path(base) / "embeddings"


def _console():
    from rich.console import Console

    # soft wrap: messages are printed whole (a terminal wraps them itself; a pipe or a log
    # gets one line per message, never a phrase cut at column 80); tables keep their width
    return Console(soft_wrap=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="stylebench")
def cli() -> None:
    """Evaluate writing style: STEB tasks for style embeddings, metrics and datasets."""


@cli.command()
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
@click.option("--no-progress", is_flag=True, help="Hide progress bars.")
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


def _corpora_root() -> Path | None:
    from evaluators.paths import corpora_dir

    return corpora_dir()


@cli.command(name="list")
@click.argument(
    "what", type=click.Choice(["tasks", "encoders", "datasets", "metrics"]), default="tasks"
)
@click.option("--language", default=None, help="datasets: only this language code (e.g. en, es).")
@click.option("--task", default=None, help="datasets: only those serving this task type.")
@click.option("--family", default=None, help="datasets: only this family (steb, arb, valla, ...).")
@click.option(
    "--raw-root",
    type=click.Path(path_type=Path),
    default=None,
    help="datasets: folder holding raw downloads (default: ../shared/corpora when present).",
)
@click.option(
    "--built-root",
    type=click.Path(path_type=Path),
    default=Path("built"),
    show_default=True,
    help="datasets: folder of built datasets.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "table", "tsv", "md", "csv", "json"]),
    default="auto",
    show_default=True,
    help="auto: a table in a terminal wide enough for whole ids and URLs, TSV otherwise.",
)
def list_(
    what: str,
    language: str | None,
    task: str | None,
    family: str | None,
    raw_root: Path | None,
    built_root: Path,
    fmt: str,
) -> None:
    """List tasks, encoders, datasets or metrics known to stylebench."""
    from evaluators.tabular import print_rows

    columns: list[str] = []
    rows: list[list[str]] = []
    caption = None
    if what == "tasks":
        from dataset_scripts.schemas import schema_for_task
        from evaluators.tasks import EVALUATORS

        columns = ["task", "schema", "main score", "protocol"]
        for name, cls in EVALUATORS.items():
            rows.append([name, schema_for_task(name).name, cls.main_score_name, cls.description])
    elif what == "encoders":
        from evaluators.encoders import list_encoders

        columns = ["encoder", "kind", "available", "description"]
        for entry in list_encoders():
            ok = "yes" if entry.get("available") else f"no: {entry.get('reason', '')}"
            rows.append([entry["name"], entry.get("kind", ""), ok, entry.get("description", "")])
    elif what == "datasets":
        from collections import Counter

        from dataset_scripts.registry import all_datasets
        from dataset_scripts.status import dataset_status, discover, select, task_types

        specs = select(all_datasets().values(), language=language, task=task, family=family)
        root = raw_root or _corpora_root()
        found = discover(root)
        statuses = [dataset_status(s, root, built_root, found) for s in specs]
        columns = ["dataset", "Hub repo[:config]", "tasks", "lang", "status", "licence"]
        for status in sorted(statuses, key=lambda st: st.spec.hub_id.lower()):
            spec = status.spec
            rows.append(
                [
                    spec.hub_id,
                    f"{spec.repo}:{spec.config}" if spec.config else spec.repo,
                    ", ".join(task_types(spec)),
                    ",".join(spec.language),
                    status.line(),
                    spec.license.split(";")[0],
                ]
            )
        tally = Counter(st.kind for st in statuses)
        caption = f"{len(statuses)} datasets: " + ", ".join(
            f"{n} {k}" for k, n in sorted(tally.items())
        )
    else:
        from evaluators.metric_loading import list_metrics

        columns = ["metric", "load with (after `stylebench metrics install`)", "or, no install"]
        for name in list_metrics():
            rows.append([name, f'evaluate.load("{name}")', f'load_metric("{name}")'])
    print_rows(_console(), columns, rows, fmt, caption)


@cli.command()
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
@click.option("--seed", type=int, default=42, show_default=True)
@click.option(
    "--protocol",
    type=click.Choice(["steb", "steb-strict"]),
    default="steb",
    show_default=True,
    help="steb: the STEB authors' rules where the paper is silent (solver tie-breaks); "
    "steb-strict: tied optima score their expected accuracy (evaluators/tasks/PROTOCOL.md).",
)
@click.option(
    "--chunk/--truncate",
    default=True,
    show_default=True,
    help="Chunk-and-pool long texts (STEB App. G) or truncate them to the model's length.",
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
@click.option("--ray-cpus", type=float, default=1.0, show_default=True, help="CPUs per Ray task.")
@click.option("--ray-gpus", type=float, default=0.0, show_default=True, help="GPUs per Ray task.")
@click.option("--no-progress", is_flag=True)
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
    fit_corpus: Path | None,
    batch_size: int,
    device: str | None,
    devices: str | None,
    ray_address: str | None,
    ray_cpus: float,
    ray_gpus: float,
    no_progress: bool,
) -> None:
    """Evaluate encoders on datasets; one JSON per (model, dataset, task)."""
    from evaluators.encoders import get_encoder
    from evaluators.report import render_table, summary_rows
    from evaluators.runner import Runner, plan_tasks

    console = _console()
    task_types = [t.strip() for t in tasks.split(",") if t.strip()] if tasks else None
    refs = list(datasets)
    if benchmark:
        from evaluators.steb_scores.benchmarks import resolve_benchmark

        wanted, missing = resolve_benchmark(benchmark, built_root)
        local = [r for r in wanted if r not in missing]
        console.print(
            f"benchmark {benchmark}: {len(local)} of {len(wanted)} datasets built under "
            f"{built_root} (build more with `stylebench build --all`)"
        )
        refs += local
    if not refs:
        raise StylebenchError(
            "nothing to evaluate: give --dataset or a --benchmark with built datasets"
        )
    specs = plan_tasks(refs, task_types)
    if not specs:
        raise StylebenchError(f"none of the tasks {task_types} applies to {', '.join(datasets)}")
    from evaluators.encoders.multi_device import parse_devices
    from evaluators.fit_corpus import fit_if_needed

    cache = None if no_cache else (cache_dir or _default_cache())
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
            models, specs, address=ray_address, out_dir=out, cache_dir=cache, seed=seed,
            protocol=protocol, resume=resume, chunk=chunk, batch_size=batch_size,
            device=device, fit_corpus=fit_corpus, num_cpus=ray_cpus, num_gpus=ray_gpus,
            progress=not no_progress,
        )  # fmt: skip
    for model in models if not ray_address else ():
        encoder = get_encoder(
            model,
            chunk=chunk,
            device=device,
            batch_size=batch_size,
            devices=parse_devices(devices) if devices else None,
        )
        fit_if_needed(encoder, specs, fit_corpus)
        runner = Runner(
            encoder,
            model,
            cache_dir=cache,
            out_dir=out,
            seed=seed,
            progress=not no_progress,
            protocol=protocol,
        )
        try:
            by_model[model] = runner.run(specs, resume=resume)
        finally:
            if hasattr(encoder, "close"):
                encoder.close()  # worker processes of --devices, served-model connections
    console.print(render_table(summary_rows(by_model)))
    for record in (r for records in by_model.values() for r in records):
        how = (
            "reused (resume)"
            if record.extra.get("resumed")
            else f"encoded {record.embedding.n_encoded}/{record.embedding.n_unique} unique texts"
        )
        console.print(f"[dim]{record.path}[/dim]  {how}")
    for model in models if benchmark else ():
        _print_steb_scores(console, out, model)


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


@cli.command()
@click.argument("hub_id", required=False)
@click.option(
    "--raw", type=click.Path(path_type=Path), default=None, help="The raw download (folder)."
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Output folder (default: <built-root>/<org>__<name>).",
)
@click.option(
    "--all",
    "build_all",
    is_flag=True,
    help="Build every dataset whose raw download is under --raw-root.",
)
@click.option(
    "--raw-root",
    type=click.Path(path_type=Path),
    default=None,
    help="With --all: folder holding raw downloads (default: ../shared/corpora when present).",
)
@click.option(
    "--built-root", type=click.Path(path_type=Path), default=Path("built"), show_default=True
)
@click.option(
    "--family", default=None, help="With --all: only this family (steb, arb, valla, ...)."
)
@click.option(
    "--register/--no-register",
    default=None,
    help="Register the build in datasets' cache so that load_dataset(<hub id>) finds it "
    "offline from any folder (default: on for one dataset id; --all builds are not registered).",
)
@from_options  # --from <your file or folder> --schema ... (evaluators/build_from_cli.py)
def build(
    hub_id: str | None,
    raw: Path | None,
    out: Path | None,
    build_all: bool,
    raw_root: Path | None,
    built_root: Path,
    family: str | None,
    register: bool | None,
    **from_values: Any,
) -> None:
    """Build a Hub-ready dataset folder (Parquet + card) from its raw download, or from
    your own files with --from (see `stylebench build --help`)."""
    import time

    if from_values["from_source"] is not None:
        if hub_id or build_all:
            raise StylebenchError("give a dataset id, --all or --from, not several")
        build_from(out, built_root, from_values)
        return

    from dataset_scripts.hub_folder import build_dataset
    from dataset_scripts.registry import all_datasets
    from dataset_scripts.status import BUILDABLE, BUILT, dataset_status, discover, select

    console = _console()
    if build_all == bool(hub_id):
        raise StylebenchError("give either a dataset id or --all")
    if hub_id:
        _build_one(console, hub_id, raw, out, built_root, register is not False)
        return
    if register:
        raise StylebenchError(
            "--register applies to one dataset id; register --all builds with "
            "`stylebench build <repo id>` for those you load by id"
        )
    root = raw_root or _corpora_root()
    started = time.perf_counter()
    specs = sorted(select(all_datasets().values(), family=family), key=lambda s: s.hub_id)
    found = discover(root)
    _print_matches(console, root, found, specs)
    built, skipped, absent, failed = 0, 0, [], []
    for spec in specs:
        status = dataset_status(spec, root, None, found)
        if status.kind not in (BUILDABLE, BUILT):
            skipped += 1
            continue
        t0 = time.perf_counter()
        try:
            folder, dropped = build_dataset(spec, status.raw, built_root / spec.slug)
        except Exception as error:  # one source's failure must not stop the others
            if os.environ.get("STYLEBENCH_DEBUG"):
                raise
            if _raw_files_absent(error):  # e.g. a sample release lacking this dataset's files
                absent.append(spec.hub_id)
                console.print(f"[yellow]not in this download[/yellow] {spec.hub_id}: {error}")
            else:
                failed.append(spec.hub_id)
                console.print(
                    f"[red]failed[/red] {spec.hub_id} (from {status.raw}): "
                    f"{type(error).__name__}: {error}"
                )
            continue
        built += 1
        console.print(
            f"built {spec.hub_id} -> {folder} ({time.perf_counter() - t0:.1f} s, "
            f"{plural(sum(dropped.values()), 'row')} dropped: see its card)"
        )
    console.print(
        f"{built} datasets built, {len(failed)} failed, {len(absent)} lack their files in the "
        f"download found, {skipped} need a download or a builder (`stylebench list datasets`), "
        f"{time.perf_counter() - started:.0f} s"
    )
    if failed:
        raise StylebenchError(
            f"{len(failed)} datasets whose raw download is present could not be built "
            f"(reasons above): {', '.join(failed)}"
        )


def _raw_files_absent(error: Exception) -> bool:
    """A build error that says the download lacks this dataset's files (not that they
    are unreadable): such a dataset needs another download and is not a failure."""
    from evaluators.errors import DataError

    if isinstance(error, FileNotFoundError):
        return True
    return isinstance(error, DataError) and str(error).startswith("missing ")


def _print_matches(console, root: Path | None, found: dict, specs: list) -> None:
    """One line per raw download found under ``root``: where, why, and what it feeds."""
    users: dict[str, list[str]] = {}
    for spec in specs:
        if spec.raw_hint and spec.builder is not None:
            users.setdefault(spec.raw_hint, []).append(spec.hub_id)
    console.print(f"raw downloads found under {root}:")
    for source in sorted(found):
        if source not in users:
            continue
        match = found[source][0]
        console.print(f"  {source}: {match.line()} -> {len(users[source])} datasets")


@cli.command(name="probing-build")
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


def _build_one(
    console, hub_id: str, raw: Path | None, out: Path | None, built_root: Path, register: bool
) -> None:
    """``stylebench build <id>``: a release repo (every config it holds), ``repo:config``,
    or an old STEB id (with its deprecation note); then registered in datasets' cache."""
    from dataset_scripts.hub_cache import register_build
    from dataset_scripts.hub_folder import build_dataset, build_release
    from dataset_scripts.registry import resolve
    from dataset_scripts.status import dataset_status

    specs, note = resolve(hub_id)
    if note:
        console.print(f"[yellow]{note}[/yellow]")
    if raw is None and any(s.needs_raw for s in specs):
        raw = next((r for s in specs if (r := dataset_status(s, _corpora_root(), None).raw)), None)
    folder = out or built_root / specs[0].slug
    try:
        if specs[0].config:
            folder, dropped, failed = build_release(specs, raw, folder)
        else:
            folder, single = build_dataset(specs[0], raw, folder)
            dropped, failed = {"": single}, {}
    except FileNotFoundError as error:
        raise StylebenchError(str(error)) from None
    repo = specs[0].repo
    rebuilt = [s.config for s in specs if s.config and s.config not in failed]
    shown = f"{repo} \\[{', '.join(rebuilt)}]" if rebuilt else repo
    kept = [c for c in dropped if c and c not in rebuilt]
    console.print(f"built {shown} -> {folder}" + (f" (kept: {', '.join(kept)})" if kept else ""))
    for config, reasons in dropped.items():
        if config in kept:
            continue
        for reason, n in sorted(reasons.items()):
            where = f"\\[{config}] " if config else ""
            console.print(f"  {where}dropped {plural(n, 'row')}: {reason}")
    if register:
        entries = register_build(folder, repo)
        names = ", ".join(e.config for e in entries)
        console.print(
            f'registered in datasets\' cache ({names}): load_dataset("{repo}"...) now works '
            "offline from any folder"
        )
    if failed:
        for config, error in failed.items():
            console.print(f"[red]not built[/red] {repo} \\[{config}]: {error}")
        raise StylebenchError(
            f"{len(failed)} of {len(specs)} configs of {repo} could not be built from {raw}"
        )


@cli.command()
@click.argument("target", required=False)
@click.option("--repo-id", default=None, help="Target repo (default: the folder's hub id).")
@click.option(
    "--kind",
    type=click.Choice(["dataset", "metric", "space"]),
    default=None,
    help="What TARGET is (default: guessed: a built folder, a bundled metric name, 'space').",
)
@click.option("--private", is_flag=True)
@click.option(
    "--dry-run", is_flag=True, help="Print repo id, type and every file; validate the card."
)
def push(
    target: str | None, repo_id: str | None, kind: str | None, private: bool, dry_run: bool
) -> None:
    """Upload to the Hugging Face Hub: a built dataset folder (dataset repo), a bundled
    metric (a Space under stylebench/<name>) or the stylebench Space."""
    from evaluators.publish import plan_push, run_push

    plan = plan_push(target, repo_id=repo_id, kind=kind)
    console = _console()
    console.print(
        f"repo id:   {plan.repo_id}\nrepo type: {plan.repo_type}\nfrom:      {plan.folder}"
    )
    console.print(f"card:      {plan.card_summary}")
    for file in plan.files:
        console.print(f"  {file}")
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


# Benchmark families add their own command groups (``stylebench valla ...``): a module
# listed here that exists must define ``COMMAND`` (a click command or group).
PLUGIN_MODULES = (
    "evaluators.steb_scores.cli",
    "evaluators.arb.cli",
    "evaluators.valla.cli",
    "evaluators.styledisc.cli",
    "evaluators.detect.cli",
)


def _add_plugins() -> None:
    import importlib
    import importlib.util

    for name in PLUGIN_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:  # the parent package does not exist (yet)
            found = False
        if found:
            cli.add_command(importlib.import_module(name).COMMAND)


_add_plugins()
if "steb" in cli.commands:  # `stylebench leaderboard` = `stylebench steb leaderboard`
    cli.add_command(cli.commands["steb"].commands["leaderboard"], name="leaderboard")


def main(argv: list[str] | None = None) -> None:
    """Entry point: stylebench errors become one line on stderr and exit status 2."""
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
        click.echo(f"error: {error}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
