"""``stylebench steb``: the STEB family's own commands (``run``, ``demo``,
``probing-build``, ``preview``, ``validate``; the shared ``build``/``list`` and the
scores commands of :mod:`evaluators.cli.steb_scores` are added in :mod:`evaluators.cli`).
``run`` reads its options as groups (:mod:`evaluators.cli.options`) and builds one
:class:`~evaluators.run.config.RunConfig` from them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from dataset_scripts.core.errors import StylebenchError
from evaluators.cli.datasets import FamilyGroup
from evaluators.cli.datasets import console as _console
from evaluators.cli.options import (
    built_root_option,
    cache_options,
    group,
    no_progress_option,
    sampling_options,
    seed_option,
)

if TYPE_CHECKING:
    from evaluators.tasks.episodes import Sampling


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


#: ``run --episode-size`` / ``--per-class`` (``preview`` and ``validate`` describe them
#: as a check: :data:`CHECK_EPISODE_SIZE_HELP`)
RUN_EPISODE_SIZE_HELP = (
    "STEB episodes: this many texts of a class mean-pooled into one sample (an "
    "episode-reading encoder such as LUAR reads them itself); -1: all of an author's "
    "texts (retrieval). Default: each row as built."
)
RUN_PER_CLASS_HELP = (
    "Episodes kept per class: the first episode-size x N texts, smaller classes "
    "dropped; auto = clamp(smallest class // episode size, 25, 200) (the STEB authors' rule)."
)
CHECK_EPISODE_SIZE_HELP = "Check/show episodes of this many texts of a class (-1: all of a class)."
CHECK_PER_CLASS_HELP = "Episodes kept per class: a number or 'auto' (the STEB authors' rule)."


@dataclass(frozen=True)
class _Data:
    """What ``run`` evaluates: ``--dataset`` refs, plus a ``--benchmark``'s datasets built
    under ``--built-root``."""

    datasets: tuple[str, ...]
    benchmark: str | None
    built_root: Path

    def refs(self, console: Any) -> list[str]:
        """The dataset refs, saying how many of the benchmark's are built."""
        refs = list(self.datasets)
        if self.benchmark:
            from evaluators.benchmark_folders import resolve_benchmark

            wanted, missing = resolve_benchmark(self.benchmark, self.built_root)
            local = [r for r in wanted if r not in missing]
            console.print(
                f"benchmark {self.benchmark}: {len(local)} of {len(wanted)} datasets built "
                f"under {self.built_root} (build more with `stylebench build --all`)"
            )
            refs += local
        return refs


_data_options = group(
    "data",
    _Data,
    [
        click.option(
            "--dataset",
            "datasets",
            multiple=True,
            help="A Hub-ready dataset folder (from `stylebench build`) or a Hub dataset id; repeatable.",
        ),
        click.option(
            "--benchmark",
            default=None,
            help="A named STEB subset (steb, operational, definitional, application, multilingual, "
            "lite): every dataset of it that is built under --built-root.",
        ),
        built_root_option,
    ],
)


def _protocol(
    protocol: str, chunk: bool, sentence_splitter: str, fit_corpus: Path | None
) -> dict[str, Any]:
    """The RunConfig fields of ``--protocol``, ``--chunk/--truncate``,
    ``--sentence-splitter`` and ``--fit-corpus``."""
    # True: spaCy's sentences (RunConfig's spelling of the default); "regex": the fast splitter
    chunking: bool | str = (
        (sentence_splitter if sentence_splitter != "spacy" else True) if chunk else False
    )
    return {"protocol": protocol, "chunk": chunking, "fit_corpus": fit_corpus}


_protocol_options = group(
    "protocol",
    _protocol,
    [
        click.option(
            "--protocol",
            type=click.Choice(["steb", "steb-strict"]),
            default="steb",
            show_default=True,
            help="steb: the STEB authors' rules where the paper is silent (solver tie-breaks); "
            "steb-strict: tied optima score their expected accuracy (docs/concepts/protocol.md).",
        ),
        click.option(
            "--chunk/--truncate",
            default=True,
            show_default=True,
            help="Chunk-and-pool long texts (STEB App. G) or truncate them to the model's length.",
        ),
        click.option(
            "--sentence-splitter",
            type=click.Choice(["spacy", "regex"]),
            default="spacy",
            show_default=True,
            help="Where chunk-and-pool cuts long texts: spaCy parser sentences (the STEB authors') "
            "or the fast regex splitter.",
        ),
        click.option(
            "--fit-corpus",
            type=click.Path(exists=True, path_type=Path),
            default=None,
            help="Reference corpus for TF-IDF (a text file, one document per line); default: the evaluated texts.",
        ),
    ],
)


@dataclass(frozen=True)
class _Compute:
    """Where and how the encoders run: batch size, device(s), backend, precision, Ray."""

    batch_size: int
    device: str | None
    devices: str | None
    ray_address: str | None
    backend: str | None
    precision: str | None
    ray_cpus: float
    ray_gpus: float

    def config(self) -> dict[str, Any]:
        """The RunConfig fields (``--devices`` parsed here, its errors named)."""
        from evaluators.encoders.multi_device import parse_devices

        return {
            "batch_size": self.batch_size,
            "device": self.device,
            "devices": tuple(parse_devices(self.devices)) if self.devices else None,
            "backend": self.backend,
            "precision": self.precision,
        }


_compute_options = group(
    "compute",
    _Compute,
    [
        click.option("--batch-size", type=int, default=32, show_default=True),
        click.option(
            "--device", default=None, help="torch device for neural encoders (cpu, cuda, ...)."
        ),
        click.option(
            "--devices",
            default=None,
            help="Comma-separated devices, one worker process each (cuda:0,cuda:1 or cpu,cpu): "
            "every batch of unique texts is spread over them.",
        ),
        click.option(
            "--ray",
            "ray_address",
            default=None,
            help="Run each (model, dataset) as a Ray task on the cluster at this address "
            "(auto, host:port, ray://host:10001) or on a new one-node cluster (local); "
            "needs `pip install 'stylebench[ray]'`.",
        ),
        click.option(
            "--backend",
            type=click.Choice(["torch", "onnx", "openvino"]),
            default=None,
            help="Inference backend of st:/hf: encoders (default torch; onnx/openvino: exported "
            "once into the stylebench cache). Under --protocol steb a backend whose vectors drift "
            "from torch's beyond the tolerance is refused.",
        ),
        click.option(
            "--precision",
            type=click.Choice(["fp32", "fp16", "bf16", "int8"]),
            default=None,
            help="Precision of st:/hf: encoders (default fp32): fp16/bf16 autocast (torch, GPU) or "
            "OpenVINO's hint, int8 dynamic quantisation (onnx). Recorded in the encoder identity.",
        ),
        click.option(
            "--ray-cpus", type=float, default=1.0, show_default=True, help="CPUs per Ray task."
        ),
        click.option(
            "--ray-gpus", type=float, default=0.0, show_default=True, help="GPUs per Ray task."
        ),
    ],
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
@_data_options
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
@cache_options("Embedding cache (default: $STYLEBENCH_CACHE or ~/.cache/stylebench/embeddings).")
@seed_option
@_protocol_options
@_compute_options
@sampling_options(RUN_EPISODE_SIZE_HELP, RUN_PER_CLASS_HELP, "N|auto")
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
    data: _Data,
    resume: bool,
    tasks: str | None,
    out: Path,
    cache_dir: Path | None,
    seed: int,
    protocol: dict[str, Any],
    compute: _Compute,
    sampling: Sampling,
    submetric: tuple[str, ...],
    no_progress: bool,
) -> None:
    """Evaluate encoders on datasets; one JSON per (model, dataset, task)."""
    from evaluators.dataset_check import parse_submetrics
    from evaluators.report import render_table, summary_rows
    from evaluators.run import service as run_service

    submetrics = parse_submetrics(submetric)
    console = _console()
    config = run_service.RunConfig(
        seed=seed,
        sampling=sampling,
        submetrics=submetrics,
        tasks=tuple(t.strip() for t in tasks.split(",") if t.strip()) if tasks else None,
        cache_dir=cache_dir,
        out_dir=out,
        resume=resume,
        progress=not no_progress,
        **protocol,
        **compute.config(),
    )
    specs = run_service.plan(data.refs(console), config)
    if compute.ray_address:
        by_model = _run_on_ray(console, models, specs, config, compute)
    else:
        by_model = run_service.run(
            list(models), specs, config, on_encoder=_announcer(console, bool(config.chunk))
        )
    console.print(render_table(summary_rows(by_model)))
    for record in (r for records in by_model.values() for r in records):
        how = (
            "reused (resume)"
            if record.resumed
            else f"encoded {record.embedding['texts_encoded']}/"
            f"{record.embedding['unique_texts']} unique texts"
        )
        console.print(f"[dim]{record.path}[/dim]  {how}")
    for model in models if data.benchmark else ():
        _print_steb_scores(console, out, run_service.model_name(model))


def _announcer(console: Any, chunk: bool) -> Callable[[str, object], None]:
    """What ``run`` says of each encoder it loads: how STEB routing read a bare name, and
    that a served model is sent whole texts (chunk-and-pool does not apply)."""
    from evaluators.encoders import encoder_identity

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

    return announce


def _run_on_ray(
    console: Any, models: tuple[str, ...], specs: list[Any], config: Any, compute: _Compute
) -> dict[str, list[Any]]:
    """``run --ray``: one Ray task per (model, dataset), the results per node printed."""
    from evaluators.distributed import plan_jobs, run_on_ray
    from evaluators.distributed.ray_runner import results_per_node

    if compute.devices:
        raise StylebenchError("--devices does not combine with --ray: use --ray-gpus")
    n_data = len({s.dataset for s in specs})
    console.print(
        f"ray: {len(plan_jobs(models, specs))} Ray jobs ({len(models)} models x {n_data} "
        f"datasets), {compute.ray_cpus:g} CPU and {compute.ray_gpus:g} GPU each, cluster "
        f"{compute.ray_address}"
    )
    by_model = run_on_ray(
        models,
        specs,
        config,
        address=compute.ray_address,
        num_cpus=compute.ray_cpus,
        num_gpus=compute.ray_gpus,
    )
    nodes = results_per_node(by_model)
    console.print(
        f"ray: {sum(nodes.values())} results from {len(nodes)} "
        f"{'node' if len(nodes) == 1 else 'nodes'} ("
        + ", ".join(f"{node[:12]}: {n}" for node, n in nodes.items())
        + ")"
    )
    return by_model


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


#: ``preview`` and ``validate``: the episodes they check
_check_sampling = sampling_options(CHECK_EPISODE_SIZE_HELP, CHECK_PER_CLASS_HELP)


@steb.command()
@click.argument("dataset")
@click.option("--rows", "n_rows", type=int, default=3, show_default=True, help="First rows shown.")
@_check_sampling
@click.option("--json", "as_json", is_flag=True, help="Print the preview as JSON.")
def preview(dataset: str, n_rows: int, sampling: Sampling, as_json: bool) -> None:
    """Show what a dataset holds before running it: per config the schema, tasks,
    columns, rows per split, first rows, classes and what the per-class rule keeps."""
    import json

    from evaluators import dataset_check

    info = dataset_check.preview(dataset, n_rows=n_rows, sampling=sampling)
    click.echo(
        json.dumps(info, indent=2, default=str) if as_json else dataset_check.format_preview(info)
    )


@steb.command()
@click.argument("datasets", nargs=-1, required=True)
@_check_sampling
def validate(datasets: tuple[str, ...], sampling: Sampling) -> None:
    """Check built folders or Hub datasets: card, data files, columns and types, every
    row and what the tasks need; every problem names its file, row and column. Exit
    status 2 when there is an error (warnings are what the evaluators drop and count)."""
    from evaluators.dataset_check import validate as validate_dataset

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
