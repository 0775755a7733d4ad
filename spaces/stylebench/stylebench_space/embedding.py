"""Tab 1, embedding models: run an encoder on style tasks and show the STEB leaderboard.

Datasets are the embedded demo suite (built on first use with
``dataset_scripts.build.build_dataset``), folders built by ``stylebench build`` under the
Space's dataset roots, and Hub dataset ids. Runs go through the run service
(:mod:`evaluators.run.service`: ``plan``, ``prepare_encoder``, ``runner_for``; a TF-IDF is
fitted on the evaluated texts, as ``stylebench run`` fits it) with an on-disk embedding
cache, one task at a time so the progress bar moves and a run stops at
:data:`~stylebench_space.safety.MAX_RUN_SECONDS`.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stylebench_space.backends import steb_backend
from stylebench_space.safety import (
    MAX_DATASETS,
    MAX_RUN_SECONDS,
    UserError,
    clean_message,
    resolve_dataset_id,
    resolve_encoder_spec,
    validate_dataset_id,
    validate_encoder_spec,
)

DEMO_KEY = "stylebench/demo (embedded demo suite)"
LOCAL_PREFIX = "built: "
DEFAULT_ENCODER = "function-words"
ALSO = {"order_alignment": ("accuracy",)}
ProgressFn = Callable[[float, str], None]

_lock = threading.Lock()
_encoders: OrderedDict[str, Any] = OrderedDict()
_encoder_locks: dict[str, threading.Lock] = {}
MAX_CACHED_ENCODERS = 3


def space_home() -> Path:
    """The Space's working folder: ``STYLEBENCH_SPACE_HOME`` or a folder in the temp dir."""
    home = Path(
        os.environ.get("STYLEBENCH_SPACE_HOME") or Path(tempfile.gettempdir()) / "stylebench-space"
    )
    home.mkdir(parents=True, exist_ok=True)
    return home


BUILT_ROOT = Path("built")  # where `stylebench build` writes, relative to where it runs


def dataset_roots() -> list[Path]:
    """Folders searched for built datasets: the Space's own (demo), ``built/`` of the
    folder the Space was started from (what ``stylebench build`` writes there, no setting
    needed) and ``STYLEBENCH_SPACE_DATASETS`` (``os.pathsep``-separated, other out dirs)."""
    roots = [space_home() / "datasets", BUILT_ROOT.resolve()]
    extra = os.environ.get("STYLEBENCH_SPACE_DATASETS", "")
    roots += [Path(p) for p in extra.split(os.pathsep) if p.strip()]
    return list(dict.fromkeys(roots))


def ensure_demo_dataset() -> Path:
    """The built demo suite folder (built once, atomically, on first use)."""
    from dataset_scripts.build import build_dataset
    from dataset_scripts.core.hub_folder import BUILD_INFO
    from dataset_scripts.demo.build import HUB_ID
    from dataset_scripts.registry import get_dataset

    spec = get_dataset(HUB_ID)
    folder = space_home() / "datasets" / spec.slug
    with _lock:
        if not (folder / BUILD_INFO).is_file():
            folder, _ = build_dataset(spec, None, folder)
    return folder


def built_datasets() -> dict[str, Path]:
    """``{display name: folder}`` of built dataset folders (``stylebench_build.json`` inside)."""
    from dataset_scripts.core.hub_folder import BUILD_INFO

    found: dict[str, Path] = {}
    for root in dataset_roots():
        if not root.is_dir():
            continue
        for folder in sorted(root.iterdir()):
            if (folder / BUILD_INFO).is_file() and folder.name not in found:
                found[folder.name] = folder
    return found


def dataset_choices() -> list[str]:
    """What the dataset picker offers: the demo suite, then built folders (by name only)."""
    names = [n for n in built_datasets() if n != "stylebench__demo"]
    return [DEMO_KEY, *(LOCAL_PREFIX + n for n in names)]


def encoder_choices() -> list[tuple[str, str]]:
    """``(label, spec)`` of the encoders that can run here (built-ins, minilm)."""
    from evaluators.encoders import list_encoders

    out = []
    for entry in list_encoders():
        name = entry["name"]
        if ":" in name or not entry.get("available", False):
            continue
        out.append((f"{name} ({entry['kind']})", name))
    return out


def builtin_encoder_names() -> list[str]:
    from evaluators.encoders import BUILTIN_ENCODERS

    return list(BUILTIN_ENCODERS)


def task_choices() -> list[str]:
    from evaluators.tasks import EVALUATORS

    return list(EVALUATORS)


def resolve_datasets(selected: Sequence[str], hub_ids: str) -> list[tuple[str, str]]:
    """``[(display name, ref for load_table)]`` of the chosen datasets; keys never carry paths."""
    chosen: list[tuple[str, str]] = []
    built = built_datasets()
    for key in selected or ():
        if key == DEMO_KEY:
            chosen.append(("stylebench/demo", str(ensure_demo_dataset())))
        elif isinstance(key, str) and key.startswith(LOCAL_PREFIX):
            name = key[len(LOCAL_PREFIX) :]
            if name not in built:
                raise UserError(f"dataset {name!r} is not built on this Space")
            chosen.append((name, str(built[name])))
        else:
            raise UserError(f"unknown dataset choice {str(key)[:80]!r}")
    for ref in (hub_ids or "").replace(",", "\n").splitlines():
        if ref.strip():
            ref = validate_dataset_id(ref)
            chosen.append((ref, ref))  # resolved to its Hub snapshot below, never via the cwd
    if not chosen:
        raise UserError("choose at least one dataset (the demo suite runs in seconds)")
    if len(chosen) > MAX_DATASETS:
        raise UserError(f"at most {MAX_DATASETS} datasets per run")
    return [
        (name, ref if name != ref else hub_dataset_ref(ref)) for name, ref in dict.fromkeys(chosen)
    ]


def hub_dataset_ref(ref: str) -> str:
    """What the Runner loads for a typed Hub id (``org/name``, ``org/name:config`` or a
    STEB per-dataset id): the id itself when ``datasets``' cache holds it (a local
    ``stylebench build`` registers it there, so it loads offline as ``load_dataset`` does),
    else the absolute snapshot folder of the Hub repo; never a folder relative to the
    Space's working directory."""
    from dataset_scripts.hub_cache import cached_configs
    from evaluators.data import resolve_ref

    ref = validate_dataset_id(ref)
    repo, config = resolve_ref(ref)
    shadowed = Path(repo).exists() or Path(ref).exists()  # load_dataset would read it
    registered = cached_configs(repo)
    if registered and not shadowed and (config is None or config in registered):
        return ref if config is None else f"{repo}:{config}"
    snapshot = resolve_dataset_id(repo)
    return str(snapshot) if config is None else f"{snapshot}:{config}"


def get_space_encoder(spec: str) -> tuple[Any, threading.Lock]:
    """A built encoder and the lock that serialises its use. One that is ready as built
    is kept for the next run; one that must be fitted (TF-IDF) is built afresh for each
    run and fitted there on the run's evaluated texts, as ``stylebench run`` fits it
    (:func:`evaluators.run.service.prepare_encoder`)."""
    from evaluators.run.service import RunConfig, load_encoder

    with _lock:
        if spec in _encoders:
            _encoders.move_to_end(spec)
            return _encoders[spec], _encoder_locks[spec]
    try:
        encoder, _ = load_encoder(spec, RunConfig())
    except Exception as error:
        raise UserError(f"cannot load encoder {spec!r}: {clean_message(error)}") from None
    if hasattr(encoder, "fit"):  # fitted on each run's own texts: never shared
        return encoder, threading.Lock()
    with _lock:
        _encoders[spec] = encoder
        _encoder_locks.setdefault(spec, threading.Lock())
        while len(_encoders) > MAX_CACHED_ENCODERS:
            old, _ = _encoders.popitem(last=False)
            _encoder_locks.pop(old, None)
        return encoder, _encoder_locks[spec]


@dataclass
class EmbeddingRun:
    """What a run produced: one row per (dataset, task, metric) and what did not run."""

    encoder: str
    rows: list[list[Any]] = field(default_factory=list)  # dataset, task, metric, score, n
    skipped: list[str] = field(default_factory=list)
    seconds: float = 0.0
    stopped_early: bool = False
    chart: Path | None = None
    records: list[Any] = field(default_factory=list)  # the ResultRecord of each task

    columns = ("dataset", "task", "metric", "score", "evaluated on")

    def summary(self) -> str:
        done = len({(r[0], r[1]) for r in self.rows})
        text = f"**{self.encoder}**: {done} task(s) in {self.seconds:.1f} s."
        if self.stopped_early:
            text += f" Stopped at the {MAX_RUN_SECONDS:.0f} s limit; the rest did not run."
        if self.skipped:
            text += " Not run: " + "; ".join(self.skipped) + "."
        return text


def _count_note(counts: dict[str, Any]) -> str:
    keys = ("n_texts", "n_pairs", "n_sequences", "n_queries", "n_labels", "n_groups")
    return ", ".join(f"{k[2:]}={counts[k]}" for k in keys if k in counts)


def run_embedding(
    encoder_choice: str,
    datasets: Sequence[str],
    hub_ids: str = "",
    tasks: Sequence[str] | None = None,
    progress: ProgressFn | None = None,
    max_seconds: float = MAX_RUN_SECONDS,
) -> EmbeddingRun:
    """Evaluate ``encoder_choice`` on the chosen datasets' tasks (all when ``tasks`` is empty)."""
    from dataset_scripts.core.schemas import SCHEMAS
    from evaluators.report import plot_scores
    from evaluators.run.service import RunConfig, plan, prepare_encoder, runner_for

    started = time.perf_counter()
    report = progress or (lambda fraction, desc: None)
    spec = validate_encoder_spec(encoder_choice, builtin_encoder_names())
    config = RunConfig(
        tasks=tuple(tasks) if tasks else None,
        cache_dir=space_home() / "embedding-cache",
        progress=False,
    )
    chosen = resolve_datasets(datasets, hub_ids)
    run = EmbeddingRun(encoder_choice)
    names: dict[str, list[str]] = {}
    for name, ref in chosen:
        names.setdefault(ref, []).append(name)

    def skip(ref: str, why: str) -> None:  # a dataset the plan leaves out, and why
        run.skipped.extend(f"{name}: {clean_message(why)}" for name in names[ref])

    try:  # the run's one plan: task names and episodes checked once
        specs = plan(list(names), config, skip=skip)
    except KeyError as error:  # an unknown task (UnknownNameError)
        raise UserError(str(error)) from None
    plans = []
    for ref, labels in names.items():
        mine = [s for s in specs if s.dataset == ref]
        # a release repo (steb/pan23_style_change) runs each of its configs (not
        # schema-named ones such as the demo's): name them apart
        several = len({s.config for s in mine if s.config not in SCHEMAS}) > 1
        plans += [(f"{name} [{s.config}]" if several else name, s) for name in labels for s in mine]
    report(0.02, f"loading encoder {encoder_choice}")
    spec = resolve_encoder_spec(spec, builtin_encoder_names())
    encoder, encoder_lock = get_space_encoder(spec)
    with encoder_lock:  # a TF-IDF is fitted on this run's texts (its identity holds them)
        try:
            prepare_encoder(encoder, specs, config)
        except Exception as error:
            raise UserError(f"cannot fit {encoder_choice}: {clean_message(error)}") from None
    runner = runner_for(encoder, spec, config)
    try:
        _run_plans(run, runner, plans, encoder_lock, report, started, max_seconds)
    finally:
        if runner.cache is not None:  # one SQLite connection per request: released now
            runner.cache.close()
    run.seconds = time.perf_counter() - started
    if run.rows:
        report(0.97, "drawing the chart")
        charts = space_home() / "charts"
        charts.mkdir(exist_ok=True)
        run.chart = plot_scores(
            [(encoder_choice, r[0], r[1], r[2], r[3]) for r in run.rows],
            charts / f"scores-{uuid.uuid4().hex[:12]}.png",
            title=f"{encoder_choice} on stylebench tasks",
        )
        prune_charts(charts, MAX_CHARTS)
    elif not run.skipped:
        raise UserError("nothing ran: no chosen dataset offers the chosen tasks")
    report(1.0, "done")
    return run


MAX_CHARTS = 64  # newest chart files kept in the charts folder (Gradio copies what it shows)


def prune_charts(folder: Path, keep: int = MAX_CHARTS) -> None:
    """Delete all but the ``keep`` newest ``*.png`` files of ``folder``, so that the
    folder stays bounded however many runs the Space serves (a chart is shown from
    Gradio's own copy, made when the answer is sent)."""
    entries = []
    for path in folder.glob("*.png"):
        try:
            entries.append((path.stat().st_mtime, path))
        except OSError:  # removed meanwhile by another request
            continue
    entries.sort(reverse=True)
    for _, path in entries[keep:]:
        path.unlink(missing_ok=True)


def _run_plans(
    run: EmbeddingRun,
    runner: Any,
    plans: list[tuple[str, Any]],
    encoder_lock: threading.Lock,
    report: ProgressFn,
    started: float,
    max_seconds: float,
) -> None:
    """Run each planned task in turn (until ``max_seconds``), adding rows to ``run``."""
    for index, (name, task_spec) in enumerate(plans):
        if time.perf_counter() - started > max_seconds:
            run.stopped_early = True
            run.skipped += [f"{n}: {s.task_type}" for n, s in plans[index:]]
            break
        report(0.05 + 0.9 * index / max(len(plans), 1), f"{name}: {task_spec.task_type}")
        try:
            with encoder_lock:
                (record,) = runner.run([task_spec], whole_run=False)  # plan checked it
        except Exception as error:
            run.skipped.append(f"{name} {task_spec.task_type}: {clean_message(error)}")
            continue
        run.records.append(record)
        metric_names = [record.main_score_name, *ALSO.get(record.task, ())]
        for metric in dict.fromkeys(metric_names):
            run.rows.append(
                [
                    name,
                    record.task,
                    metric,
                    round(float(record.metrics[metric]), 4),
                    _count_note(record.counts),
                ]
            )


def leaderboard_views() -> list[str]:
    backend = steb_backend()
    if not backend.available:
        return []
    return list(backend.module.VIEW_TABLES)  # type: ignore[union-attr]


def leaderboard(view: str = "operational", top: int = 40) -> tuple[list[str], list[list[Any]], str]:
    """The paper's STEB table for ``view``: header, rows (best first, x100) and a caption.

    Raises :class:`UserError` when the STEB back end has not landed.
    """
    backend = steb_backend()
    if not backend.available:
        raise UserError(
            "the STEB leaderboard is not part of this build (evaluators.steb_scores is missing)"
        )
    module = backend.module
    if view not in module.VIEW_TABLES:  # type: ignore[union-attr]
        raise UserError(f"unknown view {view!r}; known: {', '.join(module.VIEW_TABLES)}")  # type: ignore[union-attr]
    table = backend.functions["view_reference"](view)
    columns = list(dict.fromkeys(c for values in table.values() for c in values))
    rank_by = next((c for c in ("steb_score", "average") if c in columns), columns[-1])
    ordered = sorted(table.items(), key=lambda item: -item[1].get(rank_by, float("-inf")))
    columns = [rank_by, *(c for c in columns if c != rank_by)]
    rows = [
        [i + 1, model, *[round(100 * v[c], 2) if c in v else None for c in columns]]
        for i, (model, v) in enumerate(ordered[:top])
    ]
    caption = (
        f"STEB paper, Table {module.VIEW_TABLES[view]} ({view} view), x100, ranked by {rank_by}. "  # type: ignore[union-attr]
        "These are the paper's numbers on its 96 datasets; the demo suite is a different, "
        "small benchmark, so compare orderings, not values."
    )
    return ["rank", "model", *columns], rows, caption
