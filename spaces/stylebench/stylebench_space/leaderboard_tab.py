"""The Leaderboard tab: views, filters, plots, drill-down and downloads over the
precomputed views of :mod:`stylebench_space.leaderboard_data`.

Every handler here is plain Python over the in-memory board (no computation over the long
table on a switch); :func:`build` lays the tab out and names its API endpoints:

========================  ==========================================================
``api_name``              inputs -> outputs
========================  ==========================================================
``/leaderboard_table``    benchmark, view, open weights only, size, task types ->
                          table, caption
``/leaderboard_files``    the same -> the table as CSV, score-vs-parameters PNG,
                          per-column PNG (chained after each switch)
``/leaderboard_models``   benchmark -> view, task-type and model choices
``/leaderboard_drilldown`` benchmark, model -> per-dataset table, CSV file
``/leaderboard_pair``     benchmark, model A, model B -> paired scatter PNG, table, note
``/leaderboard_ranks``    the switch, top -> rank intervals, note (results-repository
                          source only)
========================  ==========================================================

The model-vs-model panel runs ``stylebench compare`` (:mod:`evaluators.compare`: paired
tests per dataset, Holm-adjusted, and the benchmark-level difference with its bootstrap
interval) when the table was built from a results-repository folder, whose records carry
the per-item data; from a Parquet table it shows a paired scatter of the two models'
per-dataset main scores, labelled as such.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from dataset_scripts.core.errors import StylebenchError
from stylebench_space import leaderboard_data as data
from stylebench_space.safety import UserError

_plot_lock = threading.Lock()  # pyplot (used by evaluators.report.plot_scores) is not thread-safe
TOP_BARS = 8  # models in the per-column bar chart
TOP_RANKED = 10  # models whose rank intervals the tab computes by default
MAX_RANKED = 25
MAX_ANSWERS = 512  # switches remembered (table, caption, CSV path): a repeated one is a lookup
_answers: dict[tuple[Any, ...], tuple[pd.DataFrame, str, str]] = {}
_answers_lock = threading.Lock()
INTRO = (
    "The leaderboard reads a precomputed results table (`stylebench results table`); the STEB "
    "paper's 40 models are reference rows in the STEB views. Scores are x100, higher is "
    "better. A model missing a dataset gets no average in that view: its coverage says how "
    "many datasets it has. Intervals: 95%, normal approximation from the per-dataset "
    "intervals (datasets independent)."
)


def board() -> data.Leaderboard:
    return data.get_leaderboard()


def _home() -> Path:
    from stylebench_space.embedding import space_home

    folder = space_home() / "leaderboard"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _filters(open_only: bool, size: str | None, task_types: Sequence[str] | None) -> data.Filters:
    chosen = tuple(task_types) if task_types is not None else None
    return data.Filters(bool(open_only), size or "any size", chosen)


def _user(function: Callable[..., Any]) -> Callable[..., Any]:
    """The board's own errors (unknown benchmark, view, model) become visitor messages."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except StylebenchError as error:
            raise UserError(str(error)) from None

    wrapper.__name__ = function.__name__
    wrapper.__doc__ = function.__doc__
    return wrapper


def _answer(
    benchmark: str,
    view: str,
    open_only: bool,
    size: str | None,
    task_types: Sequence[str] | None,
) -> tuple[pd.DataFrame, str, tuple[Any, ...]]:
    """The displayed frame, caption and memo key of a switch (remembered)."""
    lb = board()
    if task_types is not None and not list(task_types) and lb.task_types(benchmark):
        raise UserError("choose at least one task type")
    chosen = task_types if task_types is None or list(task_types) else None
    filters = _filters(open_only, size, chosen)
    key = (
        benchmark,
        view,
        filters.open_only,
        filters.size,
        tuple(sorted(filters.task_types or ())),
    )
    with _answers_lock:
        if key in _answers:
            return (*_answers[key], key)
    frame, caption = lb.table(benchmark, view, filters)
    frame = display_frame(frame)
    with _answers_lock:
        if len(_answers) >= MAX_ANSWERS:
            _answers.pop(next(iter(_answers)))
        _answers[key] = (frame, caption)
    return frame, caption, key


@_user
def leaderboard_table(
    benchmark: str,
    view: str,
    open_only: bool = False,
    size: str = "any size",
    task_types: Sequence[str] | None = None,
) -> tuple[pd.DataFrame, str]:
    """One view of one benchmark, filtered: the table and its caption."""
    frame, caption, _ = _answer(benchmark, view, open_only, size, task_types)
    return frame, caption


def display_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Parameters as whole numbers (blank when unknown), open weights as yes/no/blank."""
    out = frame.copy()
    if "n_parameters" in out:
        out["n_parameters"] = [
            None if pd.isna(v) else int(v) for v in pd.to_numeric(out["n_parameters"])
        ]
    if "open_weights" in out:
        out["open_weights"] = out["open_weights"].map(
            lambda v: "yes" if v is True else "no" if v is False else None
        )
    return out


@_user
def leaderboard_files(
    benchmark: str,
    view: str,
    open_only: bool = False,
    size: str = "any size",
    task_types: Sequence[str] | None = None,
) -> tuple[str, str | None, str | None]:
    """The table of a switch as CSV, and its plots as PNGs: score against parameters, and
    the view's columns for the best models (written once per distinct switch)."""
    frame, _, key = _answer(benchmark, view, open_only, size, task_types)
    vt = board().view_table(benchmark, view, key[4] or None)
    digest = hashlib.sha1(repr(key).encode()).hexdigest()[:16]
    folder = _home() / "switches" / digest
    folder.mkdir(parents=True, exist_ok=True)
    csv = data.csv_file(frame, _home() / "csv", f"leaderboard-{benchmark}-{view}")
    size_png = folder / "score_vs_parameters.png"
    columns_png = folder / "score_per_column.png"
    with _plot_lock:
        if not size_png.is_file():
            plot_size(frame, vt.overall, size_png, f"{benchmark}, {view}")
        if not columns_png.is_file():
            plot_columns(frame, vt.overall, vt.columns, columns_png, f"{benchmark}, {view}")
    return (
        str(csv),
        str(size_png) if size_png.is_file() else None,
        str(columns_png) if columns_png.is_file() else None,
    )


def plot_size(frame: pd.DataFrame, overall: str, path: Path, title: str) -> Path | None:
    """Scatter of the overall score against the parameter count (log scale); the five best
    labelled. None when no row has both."""
    from matplotlib.figure import Figure

    if overall not in frame:
        return None
    rows = frame.loc[pd.notna(frame[overall]) & pd.notna(pd.to_numeric(frame["n_parameters"]))]
    fig = Figure(figsize=(6.4, 4.2))
    ax = fig.subplots()
    if rows.empty:
        ax.text(0.5, 0.5, "no model here has both a score and a parameter count", ha="center")
        ax.set_axis_off()
    else:
        x = pd.to_numeric(rows["n_parameters"]).to_numpy(dtype=float)
        y = rows[overall].to_numpy(dtype=float)
        ax.scatter(x, y, s=12, alpha=0.7)
        for _, row in rows.nlargest(5, overall).iterrows():
            ax.annotate(
                str(row["model"]), (float(row["n_parameters"]), float(row[overall])), fontsize=7
            )
        ax.set_xscale("log")
        ax.set_xlabel("parameters")
        ax.set_ylabel(f"{overall} (x100)")
        ax.grid(alpha=0.3)
    ax.set_title(f"{title}: score vs parameters ({len(rows)} models)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path


def plot_columns(
    frame: pd.DataFrame, overall: str, columns: Sequence[str], path: Path, title: str
) -> Path | None:
    """The view's columns (task types, clusters or datasets) for the best complete models,
    as grouped bars (``evaluators.report.plot_scores``); at most 12 columns."""
    from evaluators.report import plot_scores

    shown = [c for c in columns if c in frame][:12]
    ranked = frame.loc[pd.notna(frame[overall])] if overall in frame else frame
    best = ranked.head(TOP_BARS)
    rows = [
        (str(r["model"]), title, c, "", float(r[c]) / data.SCALE)
        for _, r in best.iterrows()
        for c in shown
        if pd.notna(r[c])
    ]
    if not rows:
        return None
    note = f"the {len(best)} best models" + (
        f"; first 12 of {len(columns)} columns" if len(columns) > 12 else ""
    )
    return plot_scores(rows, path, title=f"{title}: score per column", note=note)


@_user
def leaderboard_models(benchmark: str) -> tuple[list[str], list[str], list[str]]:
    """The views, task types and models of a benchmark (for the controls)."""
    lb = board()
    return lb.views(benchmark), lb.task_types(benchmark), lb.models(benchmark)


@_user
def leaderboard_drilldown(benchmark: str, model: str) -> tuple[pd.DataFrame, str]:
    """One model's every dataset, task and metric in a benchmark (x100, with CIs)."""
    if not model:
        raise UserError("choose a model")
    frame = board().drilldown(benchmark, model)
    csv = data.csv_file(frame, _home() / "csv", f"{model}-{benchmark}")
    return frame, str(csv)


@_user
def leaderboard_pair(benchmark: str, first: str, second: str) -> tuple[str, pd.DataFrame, str]:
    """Paired per-dataset scores of two models: scatter PNG, table, one-line summary."""
    if not first or not second:
        raise UserError("choose two models")
    if first == second:
        raise UserError("choose two different models")
    lb = board()
    if lb.repository is not None:
        return _compare(lb, benchmark, first, second)
    frame = lb.paired(benchmark, first, second)
    a, b = frame[first].to_numpy(dtype=float), frame[second].to_numpy(dtype=float)
    wins, losses = int((a > b).sum()), int((a < b).sum())
    note = (
        f"{first} scores higher on {wins}, {second} on {losses}, equal on "
        f"{len(frame) - wins - losses} of {len(frame)} shared (dataset, task) results. "
        "Per-dataset point scores only: not a significance test (`stylebench compare` on "
        "the result records gives paired tests and intervals)."
    )
    key = hashlib.sha1(f"{benchmark}\0{first}\0{second}".encode()).hexdigest()[:16]
    path = _home() / "plots" / f"pair-{key}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    with _plot_lock:
        if not path.is_file():
            plot_pair(frame, first, second, path)
    return str(path), frame, note


def _compare(
    lb: data.Leaderboard, benchmark: str, first: str, second: str
) -> tuple[str, pd.DataFrame, str]:
    """``stylebench compare`` on the records of the results repository the table came
    from: per-dataset paired tests (Holm-adjusted) and the benchmark-level difference."""
    from evaluators.compare.benchmark import compare_records

    _, records = _repository_records(lb)
    bench = data.declared(benchmark)
    units = bench.units if bench is not None else None
    comparison = compare_records(
        records(first), records(second), first, second, units=units, benchmark=benchmark
    )
    frame = pd.DataFrame(
        [
            {
                "dataset": d.dataset,
                "task": d.task,
                "metric": d.metric,
                first: round(data.SCALE * d.score_a, data.DIGITS),
                second: round(data.SCALE * d.score_b, data.DIGITS),
                "difference": round(data.SCALE * d.difference, data.DIGITS),
                "ci_low": round(data.SCALE * d.ci[0], data.DIGITS),
                "ci_high": round(data.SCALE * d.ci[1], data.DIGITS),
                "p_holm": d.p_holm,
                "outcome": d.outcome,
            }
            for d in comparison.datasets
        ]
    )
    tally = comparison.tally
    summary = comparison.benchmark or {}
    note = (
        f"`stylebench compare`: {first} wins {tally['win']}, ties {tally['tie']}, loses "
        f"{tally['loss']} of {len(frame)} (Holm-adjusted paired tests, alpha 0.05)."
    )
    if any("k-means" in d.independent_units for d in comparison.datasets):
        note += (
            " Clustering rows show the mean V-measure over the recorded k-means seeds (the "
            "board's main score is seed 42's alone): the test counts the seed as noise."
        )
    if summary:
        note += (
            f" Across {summary.get('n_datasets')} dataset(s): difference "
            f"{data.SCALE * summary['difference']:.2f} (95% CI "
            f"{data.SCALE * summary['ci95'][0]:.2f} to {data.SCALE * summary['ci95'][1]:.2f})."
        )
    key = hashlib.sha1(f"compare\0{benchmark}\0{first}\0{second}".encode()).hexdigest()[:16]
    path = _home() / "plots" / f"pair-{key}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    with _plot_lock:
        if not path.is_file():
            plot_pair(frame, first, second, path)
    return str(path), frame, note


def _repository_records(lb: data.Leaderboard) -> tuple[Any, Callable[[str], Any]]:
    """The records of the board's results repository, and a lookup by display name."""
    from evaluators.compare.records import read_records
    from evaluators.results.repository import slug

    results = read_records([lb.repository])  # type: ignore[list-item]

    def records(name: str) -> Any:
        model = name.split("@", 1)[0]
        for candidate in (model, slug(model)):
            try:
                return results.of(candidate)
            except StylebenchError:
                continue
        raise UserError(f"model {name!r} has no result records in the results repository")

    return results, records


@_user
def leaderboard_ranks(
    benchmark: str,
    view: str,
    open_only: bool = False,
    size: str = "any size",
    task_types: Sequence[str] | None = None,
    top: float = TOP_RANKED,
) -> tuple[pd.DataFrame, str]:
    """95% rank intervals and the group tied with the leader (``stylebench compare``'s
    joint bootstrap) of the ``top`` ranked models of a switch; needs the records of the
    results repository the table came from."""
    lb = board()
    if lb.repository is None:
        raise UserError(
            "rank intervals need the result records (their per-item data): this Space reads "
            "a table without them; run `stylebench compare --ranks` on the results repository"
        )
    from evaluators.compare.benchmark import rank_models

    count = int(top or TOP_RANKED)
    if not 2 <= count <= MAX_RANKED:
        raise UserError(f"rank between 2 and {MAX_RANKED} models")
    frame, _, key = _answer(benchmark, view, open_only, size, task_types)
    overall = board().view_table(benchmark, view, key[4] or None).overall
    ranked = frame.loc[frame["source"].eq("table") & pd.notna(frame.get(overall))]
    names = list(ranked["model"].head(count))
    if len(names) < 2:
        raise UserError("fewer than two ranked models in this view")
    _, records = _repository_records(lb)
    bench = data.declared(benchmark)
    intervals, info = rank_models(
        {n: records(n) for n in names}, units=bench.units if bench is not None else None
    )
    out = pd.DataFrame(
        [
            {
                "model": r.model,
                "score": round(data.SCALE * r.score, data.DIGITS),
                "rank": r.rank,
                "rank_low": r.low,
                "rank_high": r.high,
                "tied_with_leader": r.tied_with_leader,
            }
            for r in intervals
        ]
    ).sort_values(["rank", "model"])
    note = (
        f"`stylebench compare`: 95% rank intervals of the {len(names)} best models of this "
        f"view on the {info.get('n_datasets')} dataset(s) they share ({info.get('method', '')})."
    )
    return out.reset_index(drop=True), note


def plot_pair(frame: pd.DataFrame, first: str, second: str, path: Path) -> Path:
    """Scatter of model A's against model B's per-dataset scores, one colour per task,
    with the diagonal."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.2, 5.0))
    ax = fig.subplots()
    for task, rows in frame.groupby("task"):
        ax.scatter(rows[first], rows[second], s=14, alpha=0.75, label=str(task))
    low = float(min(frame[first].min(), frame[second].min(), 0)) if len(frame) else 0.0
    ax.plot([low, 100], [low, 100], color="black", linewidth=0.8, linestyle="dashed")
    ax.set_xlabel(f"{first} (x100)")
    ax.set_ylabel(f"{second} (x100)")
    ax.set_title("paired per-dataset scores (not a significance test)", fontsize=10)
    if len(frame):
        ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path


# ----------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Choices:
    """What the tab's selectors start with: the benchmarks and the first one's views, task
    types and models (what the page shows first), and the union of each over the
    benchmarks (what the selectors accept before the page's load event narrows them to
    the chosen benchmark's: what an API call may pass)."""

    names: list[str]
    first: str
    views: list[str]
    types: list[str]
    models: list[str]
    every_view: list[str]
    every_type: list[str]
    every_model: list[str]

    @classmethod
    def of(cls, lb: data.Leaderboard) -> Choices:
        names = lb.benchmark_names()
        first = names[0] if names else ""
        return cls(
            names,
            first,
            lb.views(first) if first else [],
            lb.task_types(first) if first else [],
            lb.models(first) if first else [],
            list(dict.fromkeys(v for b in names for v in lb.views(b))),
            sorted({t for b in names for t in lb.task_types(b)}),
            sorted({m for b in names for m in lb.models(b)}),
        )

    def model(self, index: int) -> str | None:
        """The ``index``-th model of the first benchmark (None when it has fewer)."""
        return self.models[index] if len(self.models) > index else None


def _switch(choices: Choices) -> list[Any]:
    """The switch: benchmark and view, then the filters (open weights, size, task types);
    the controls every table event reads, in this order."""
    import gradio as gr

    with gr.Row():
        # typed values are checked by the board (a one-line message naming the known ones)
        benchmark = gr.Dropdown(
            choices.names,
            value=choices.first,
            label="Benchmark",
            elem_id="lb-benchmark",
            allow_custom_value=True,
        )
        view = gr.Radio(
            choices.every_view,
            value=choices.views[0] if choices.views else None,
            label="View",
            elem_id="lb-view",
        )
    with gr.Row():
        open_only = gr.Checkbox(label="open weights only", value=False, elem_id="lb-open")
        size = gr.Dropdown(
            list(data.SIZES),
            value="any size",
            label="Size",
            elem_id="lb-size",
            scale=1,
            allow_custom_value=True,
        )
        task_types = gr.CheckboxGroup(
            choices.every_type, value=choices.types, label="Task types", elem_id="lb-tasks", scale=3
        )
    return [benchmark, view, open_only, size, task_types]


def _image(label: str, elem_id: str) -> Any:
    import gradio as gr

    return gr.Image(
        type="filepath", label=label, interactive=False, buttons=["download"], elem_id=elem_id
    )


def _board(choices: Choices) -> dict[str, Any]:
    """The table of the first benchmark's first view with its caption, its CSV and the
    two plots."""
    import gradio as gr

    views = choices.views
    table0, caption0 = (
        leaderboard_table(choices.first, views[0], False, "any size", None) if views else (None, "")
    )
    caption = gr.Markdown(caption0, elem_id="lb-caption")
    table = gr.Dataframe(
        value=table0, interactive=False, max_height=520, wrap=False, elem_id="lb-table"
    )
    csv = gr.File(label="This table as CSV", interactive=False, elem_id="lb-csv")
    with gr.Row():
        size_plot = _image("Score vs parameters", "lb-plot-size")
        column_plot = _image("Score per task type / column", "lb-plot-columns")
    return dict(caption=caption, table=table, csv=csv, size_plot=size_plot, column_plot=column_plot)


def _drilldown(choices: Choices) -> dict[str, Any]:
    """One model on every dataset: the model, its button, the table and its CSV."""
    import gradio as gr

    with gr.Accordion("Drill-down: one model on every dataset", open=True):
        with gr.Row():
            model = gr.Dropdown(
                choices.every_model,
                value=choices.model(0),
                label="Model",
                elem_id="lb-model",
                scale=3,
                allow_custom_value=True,
            )
            drill = gr.Button("Show its datasets", elem_id="lb-drill", scale=1)
        detail = gr.Dataframe(interactive=False, max_height=400, elem_id="lb-detail")
        detail_csv = gr.File(label="Drill-down as CSV", interactive=False, elem_id="lb-detail-csv")
    return dict(model=model, drill=drill, detail=detail, detail_csv=detail_csv)


def _pair(choices: Choices) -> dict[str, Any]:
    """Model A against model B: the two models, the button, the note, the scatter and the
    table."""
    import gradio as gr

    with gr.Accordion("Model vs model (paired per-dataset scores)", open=False):
        with gr.Row():
            model_a = gr.Dropdown(
                choices.every_model,
                value=choices.model(0),
                label="Model A",
                elem_id="lb-a",
                allow_custom_value=True,
            )
            model_b = gr.Dropdown(
                choices.every_model,
                value=choices.model(1),
                label="Model B",
                elem_id="lb-b",
                allow_custom_value=True,
            )
            pair_button = gr.Button("Compare", elem_id="lb-pair")
        pair_note = gr.Markdown(elem_id="lb-pair-note")
        pair_plot = _image("Paired per-dataset scores", "lb-pair-plot")
        pair_table = gr.Dataframe(interactive=False, max_height=300, elem_id="lb-pair-table")
    return dict(
        model_a=model_a,
        model_b=model_b,
        pair_button=pair_button,
        pair_note=pair_note,
        pair_plot=pair_plot,
        pair_table=pair_table,
    )


def _ranks(lb: data.Leaderboard) -> dict[str, Any]:
    """Rank intervals of the best models: how many, the button, the note and the table
    (computed from the records of a results repository only)."""
    import gradio as gr

    with gr.Accordion("Rank intervals of the best models (stylebench compare)", open=False):
        gr.Markdown(
            "Computed on request from the result records of the results repository (their "
            "per-item data), for the best models of the view and filters above."
            + (
                ""
                if lb.repository is not None
                else " This Space reads a table without records, so it cannot compute them."
            )
        )
        with gr.Row():
            top = gr.Number(
                value=TOP_RANKED, precision=0, minimum=2, maximum=MAX_RANKED, label="Models"
            )
            rank_button = gr.Button("Rank intervals", elem_id="lb-ranks")
        rank_note = gr.Markdown(elem_id="lb-ranks-note")
        rank_table = gr.Dataframe(interactive=False, max_height=300, elem_id="lb-ranks-table")
    return dict(top=top, rank_button=rank_button, rank_note=rank_note, rank_table=rank_table)


def benchmark_choices(name: str) -> tuple[Any, ...]:
    """A benchmark's choices as selector updates: its views (the first chosen), its task
    types (all chosen), its models for the drill-down and for A and B (the first two)."""
    import gradio as gr

    v, t, m = leaderboard_models(name)
    return (
        gr.update(choices=v, value=v[0] if v else None),
        gr.update(choices=t, value=t),
        gr.update(choices=m, value=m[0] if m else None),
        gr.update(choices=m, value=m[0] if m else None),
        gr.update(choices=m, value=m[1] if len(m) > 1 else None),
    )


def _wire_switch(guard: Callable[..., Any], controls: list[Any], parts: dict[str, Any]) -> Any:
    """The switch's events: a benchmark renews the choices, then the table, then its
    files; every other control the table, then its files (the first names the API
    endpoints). Returns the page-load handler."""
    table_fn, files_fn = guard(leaderboard_table), guard(leaderboard_files)
    table_out = [parts["table"], parts["caption"]]
    files_out = [parts["csv"], parts["size_plot"], parts["column_plot"]]
    choice_out = [controls[1], controls[4], parts["model"], parts["model_a"], parts["model_b"]]
    on_benchmark = guard(benchmark_choices)

    @guard
    def on_load(*values: Any) -> tuple[Any, ...]:
        """The chosen benchmark's choices, and the plots of the table shown."""
        return (*on_benchmark(values[0]), *leaderboard_files(*values))

    controls[0].input(
        on_benchmark, inputs=controls[0], outputs=choice_out, api_name="leaderboard_models"
    ).then(table_fn, inputs=controls, outputs=table_out, api_name=False).then(
        files_fn, inputs=controls, outputs=files_out, api_name=False
    )
    for i, control in enumerate(controls[1:]):
        event = control.input(
            table_fn,
            inputs=controls,
            outputs=table_out,
            api_name="leaderboard_table" if i == 0 else False,
        )
        event.then(
            files_fn,
            inputs=controls,
            outputs=files_out,
            api_name="leaderboard_files" if i == 0 else False,
        )
    return on_load


def _wire_tools(guard: Callable[..., Any], controls: list[Any], parts: dict[str, Any]) -> None:
    """The drill-down, model-vs-model and rank-interval buttons."""
    parts["drill"].click(
        guard(leaderboard_drilldown),
        inputs=[controls[0], parts["model"]],
        outputs=[parts["detail"], parts["detail_csv"]],
        api_name="leaderboard_drilldown",
    )
    parts["pair_button"].click(
        guard(leaderboard_pair),
        inputs=[controls[0], parts["model_a"], parts["model_b"]],
        outputs=[parts["pair_plot"], parts["pair_table"], parts["pair_note"]],
        api_name="leaderboard_pair",
    )
    parts["rank_button"].click(
        guard(leaderboard_ranks),
        inputs=[*controls, parts["top"]],
        outputs=[parts["rank_table"], parts["rank_note"]],
        api_name="leaderboard_ranks",
        concurrency_id="ranks",
        concurrency_limit=1,
    )


def build(
    guard: Callable[[Callable[..., Any]], Callable[..., Any]],
) -> tuple[Callable[..., Any], list[Any], list[Any]]:
    """The tab's components and events (inside a ``gr.Tab``); ``guard`` is the Space's
    error wrapper (one-line messages). Returns the page-load handler, its inputs and its
    outputs (the benchmark's choices, the CSV and the plots). The steps: :class:`Choices`,
    the switch, the board, the drill-down, the pair and the rank panels, their events."""
    import gradio as gr

    lb = board()
    choices = Choices.of(lb)
    gr.Markdown(INTRO)
    if lb.error:
        gr.Markdown(
            f"_The configured results table did not load ({lb.error}); showing the "
            "paper's models._",
            elem_id="lb-error",
        )
    controls = _switch(choices)
    parts = _board(choices) | _drilldown(choices) | _pair(choices) | _ranks(lb)
    on_load = _wire_switch(guard, controls, parts)
    _wire_tools(guard, controls, parts)
    load_outputs = [controls[1], controls[4]]
    load_outputs += [parts[k] for k in ("model", "model_a", "model_b", "csv")]
    load_outputs += [parts["size_plot"], parts["column_plot"]]
    return on_load, controls, load_outputs
