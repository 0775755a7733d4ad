"""The Gradio Blocks of the Space: six tabs, each event a named API endpoint.

========================  ==========================================================
``api_name``              inputs -> outputs
========================  ==========================================================
``/run_embedding``        encoder, datasets, hub ids, tasks -> results, chart, summary
``/leaderboard``          view -> STEB table, caption
``/evaluate_detector``    detector, ARB-style CSV, built set -> per-regime table, heatmap,
                          threshold
``/score_text``           detector, text, threshold -> score, verdict
``/compute_metric``       metric, predictions, references, options, CSV -> result JSON
``/metric_info``          metric -> description (Markdown), cleared options
``/list_datasets``        filter -> registry table
``/dataset_details``      hub id -> card, first rows
``/leaderboard_*``        the Leaderboard tab (:mod:`stylebench_space.leaderboard_tab`)
``/validate_submission``  zip or git/Hub reference -> verdict, findings
                          (:mod:`stylebench_space.submissions_tab`)
========================  ==========================================================

Every handler turns :class:`~stylebench_space.safety.UserError` into a ``gr.Error`` with its
one-line message; any other exception is logged on the server and shown as a one-line message
without traceback or paths.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable
from typing import Any

import gradio as gr
import pandas as pd

from stylebench_space import (
    browser,
    detectors,
    embedding,
    leaderboard_tab,
    metrics_tab,
    submissions_tab,
    warmup,
)
from stylebench_space.backends import arb_backend, detector_names, steb_backend
from stylebench_space.safety import (
    MAX_RUN_SECONDS,
    MAX_TEXT_CHARS,
    MAX_TEXTS,
    MAX_UPLOAD_BYTES,
    UserError,
    clean_message,
)

log = logging.getLogger("stylebench_space")
CONCURRENCY = 4  # events served at once (the heavy ones share one slot, see HEAVY)
HEAVY = "heavy"
QUEUE_SIZE = 64
# Gradio copies every file an answer returns (charts, CSVs, plots) into its cache folder and
# remembers the copy in a per-Blocks set; without delete_cache both grow with every request
# for as long as the Space runs. Every CACHE_SWEEP_SECONDS, copies older than
# CACHE_MAX_AGE_SECONDS are deleted and forgotten (a page left open longer than that loses
# its download links; rerunning the request makes them again). STYLEBENCH_SPACE_CACHE_SECONDS
# sets the age (the sweep runs at a sixth of it, at least every second).
CACHE_MAX_AGE_SECONDS = max(1, int(os.environ.get("STYLEBENCH_SPACE_CACHE_SECONDS") or 1800))
CACHE_SWEEP_SECONDS = max(1, CACHE_MAX_AGE_SECONDS // 6)

INTRO = """# stylebench: evaluate writing style
Try a **style embedding** on style tasks beside the STEB paper's leaderboard, an **AI-text
detector** on an ARB-style set, any **metric module**, and browse the **datasets**.
Everything here also runs from the command line. stylebench is not on PyPI yet: in a clone of
its repository, `pip install -c requirements.lock -e ".[models]"`, then `stylebench demo`.
"""


def guarded(function: Callable[..., Any], *, warm: bool = True) -> Callable[..., Any]:
    """Show a visitor a one-line message (``gr.Error``), never a traceback or a server path.
    ``warm``: wait for the background warm-up first (:mod:`stylebench_space.warmup`; the
    handler may import the libraries it loads); the leaderboard's handlers do not."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            if warm:
                warmup.wait()
            return function(*args, **kwargs)
        except gr.Error:
            raise
        except UserError as error:
            raise gr.Error(str(error), print_exception=False) from None
        except Exception as error:
            log.exception("unexpected error in %s", function.__name__)
            raise gr.Error(
                f"something went wrong: {clean_message(error)}", print_exception=False
            ) from None

    return wrapper


def guarded_now(function: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`guarded` without waiting for the warm-up (the leaderboard's in-memory views)."""
    return guarded(function, warm=False)


# ----------------------------------------------------------------------------- handlers


@guarded
def run_embedding(
    encoder: str,
    datasets: list[str],
    hub_ids: str,
    tasks: list[str],
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
) -> tuple[pd.DataFrame, str | None, str]:
    """Evaluate an encoder on the chosen datasets; results table, chart path and summary."""
    run = embedding.run_embedding(
        encoder,
        datasets or [],
        hub_ids or "",
        tasks or [],
        progress=lambda fraction, desc: progress(fraction, desc=desc),
    )
    table = pd.DataFrame(run.rows, columns=list(run.columns))
    return table, str(run.chart) if run.chart else None, run.summary()


@guarded
def leaderboard(view: str) -> tuple[pd.DataFrame, str]:
    """The STEB paper's table for a view."""
    header, rows, caption = embedding.leaderboard(view or "operational")
    return pd.DataFrame(rows, columns=header), caption


@guarded
def evaluate_detector(
    detector: str,
    upload: str | None,
    built: str | None = None,
    human_label: str | None = None,
    machine_label: str | None = None,
) -> tuple[pd.DataFrame, str | None, str]:
    """Per-regime TPR@1%FPR and AUROC of a detector on an ARB-style CSV (or a built ARB set);
    the threshold at 1% FPR on the Human scores comes back as text naming the detector
    (``inf`` when nothing can be flagged). ``human_label``/``machine_label``: the two label
    values of any other convention."""
    report = detectors.evaluate_detector(
        detector,
        upload,
        embedding.space_home() / "charts",
        built or None,
        human_label,
        machine_label,
    )
    table = pd.DataFrame(report.rows, columns=list(report.columns))
    return table, str(report.heatmap) if report.heatmap else None, report.threshold_text()


@guarded
def score_text(detector: str, text: str, threshold: str | float | None) -> tuple[float, str]:
    """Score one pasted text against a threshold (text or number; empty = none; one
    calibrated for another detector = none)."""
    return detectors.score_pasted(detector, text, detectors.parse_threshold(threshold, detector))


@guarded
def compute_metric(
    metric: str, predictions: str, references: str, options: str, upload: str | None
) -> dict[str, Any]:
    """Compute a bundled metric module on pasted values or a CSV."""
    return metrics_tab.compute_metric(metric, predictions, references, options, upload)


@guarded
def metric_info(metric: str) -> tuple[str, str]:
    """A metric's description; clears the options (they differ between metrics)."""
    return metrics_tab.metric_info(metric), ""


@guarded
def list_datasets(query: str) -> pd.DataFrame:
    """The dataset registry with each dataset's status on this Space."""
    return pd.DataFrame(browser.dataset_table(query), columns=list(browser.COLUMNS))


@guarded
def dataset_details(hub_id: str) -> tuple[str, str]:
    """Card and first rows of one dataset."""
    return browser.dataset_details(hub_id)


# ----------------------------------------------------------------------------- layout


def _embedding_tab() -> None:
    steb = steb_backend()
    with gr.Row():
        with gr.Column(scale=3):
            gr.Markdown(
                "Embed each text once, then score the tasks. **function-words** runs the demo "
                f"suite in seconds; neural models take longer. Runs stop after "
                f"{MAX_RUN_SECONDS:.0f} s."
            )
            encoder = gr.Dropdown(
                choices=embedding.encoder_choices(),
                value=embedding.DEFAULT_ENCODER,
                allow_custom_value=True,
                label="Encoder (a built-in, or a sentence-transformers Hub id such as "
                "sentence-transformers/all-MiniLM-L6-v2 when the Hub is reachable)",
                elem_id="encoder",
            )
            datasets = gr.CheckboxGroup(
                choices=embedding.dataset_choices(),
                value=[embedding.DEMO_KEY],
                label="Datasets",
                elem_id="datasets",
            )
            hub_ids = gr.Textbox(
                label="Hub dataset ids (optional, one per line, e.g. steb/stel)",
                lines=1,
                max_lines=5,
            )
            tasks = gr.CheckboxGroup(
                choices=embedding.task_choices(),
                label="Tasks (none ticked = every task the datasets offer)",
            )
            run = gr.Button("Run evaluation", variant="primary", elem_id="run-embedding")
            summary = gr.Markdown(elem_id="embedding-summary")
            gr.Markdown(
                "<small>Higher is better for every score. The floor on the demo suite "
                "(the `random` encoder): V-measure 0.03, AUC 0.50, order-alignment accuracies "
                "0.50, MRR 0.30.</small>"
            )
            results = gr.Dataframe(
                label="Scores", interactive=False, elem_id="embedding-results", wrap=True
            )
            chart = gr.Image(label="Chart", type="filepath", interactive=False)
        with gr.Column(scale=2):
            gr.Markdown("### STEB leaderboard (paper)")
            if steb.available:
                views = embedding.leaderboard_views()
                view = gr.Dropdown(views, value=views[0], label="View", elem_id="steb-view")
                header, rows, caption = embedding.leaderboard(views[0])
                caption_md = gr.Markdown(caption)
                board = gr.Dataframe(
                    value=pd.DataFrame(rows, columns=header),
                    interactive=False,
                    max_height=600,
                    elem_id="steb-leaderboard",
                )
                view.change(
                    leaderboard, inputs=view, outputs=[board, caption_md], api_name="leaderboard"
                )
            else:
                gr.Markdown(f"_The STEB leaderboard is not part of this build ({steb.reason})._")
                view = gr.Textbox(visible=False, value="operational")
                board = gr.Dataframe(visible=False)
                caption_md = gr.Markdown(visible=False)
                view.change(
                    leaderboard, inputs=view, outputs=[board, caption_md], api_name="leaderboard"
                )
    run.click(
        run_embedding,
        inputs=[encoder, datasets, hub_ids, tasks],
        outputs=[results, chart, summary],
        api_name="run_embedding",
        concurrency_id=HEAVY,
        concurrency_limit=1,
    )


def _detector_intro(available: bool) -> None:
    """What the tab takes (the CSV format, the 1% FPR threshold, the first LM load), or why
    the detectors are missing."""
    if not available:
        gr.Markdown(detectors.missing_message(), elem_id="detector-missing")
        return
    gr.Markdown(
        "Upload a CSV with columns `text` and `label` (`human`/`machine`, optional "
        "`generator`: the format of `stylebench detect run`, see the sample below) or an "
        "ARB-style `regime` (`Human`, `Free-LLM`, "
        f"`H2L`, `LLM2L`; at most {detectors.MAX_SET_TEXTS} rows). Human is the negative "
        "class of every comparison and the threshold is set at 1% FPR on the Human scores. "
        "The zero-shot detectors run a small language model (SmolLM2-135M): the first "
        "request loads it, which can take a minute."
    )


def _detector_set_column() -> dict[str, Any]:
    """The left column: the set (an upload, the sample to download, or a built ARB set),
    the label values, the estimate, the button and the per-regime results."""
    upload = gr.File(label="Detector set (CSV)", file_types=[".csv"], type="filepath")
    gr.File(
        value=str(detectors.write_sample_csv(embedding.space_home() / "sample_detector_set.csv")),
        label="Sample CSV (download, fill in, upload)",
        interactive=False,
    )
    estimate = gr.Markdown("", elem_id="detector-estimate")
    built_sets = list(detectors.built_arb_sets())
    built = gr.Dropdown(
        built_sets,
        value=None,
        label="or a built ARB set (first rows of each regime)",
        allow_custom_value=True,
        visible=bool(built_sets),
    )
    with gr.Row():
        human_label = gr.Textbox(label="Human label value (optional, e.g. 1)")
        machine_label = gr.Textbox(label="Machine label value (optional, e.g. 0)")
    evaluate = gr.Button("Evaluate detector", variant="primary")
    table = gr.Dataframe(
        headers=list(detectors.DetectorReport.columns),
        label="Per regime (Human vs each regime)",
        interactive=False,
    )
    heatmap = gr.Image(label="Heatmap", type="filepath", interactive=False)
    return dict(
        upload=upload,
        estimate=estimate,
        built=built,
        human_label=human_label,
        machine_label=machine_label,
        evaluate=evaluate,
        table=table,
        heatmap=heatmap,
    )


def _detector_text_column() -> dict[str, Any]:
    """The right column: the calibrated threshold, a text and its score."""
    threshold = gr.Textbox(
        label="Calibrated threshold (set by 'Evaluate detector'; or type one)",
        placeholder="none yet",
    )
    text = gr.Textbox(label=f"Text to score (at most {MAX_TEXT_CHARS:,} characters)", lines=6)
    score_button = gr.Button("Score text")
    score = gr.Textbox(
        label="Score (higher = more machine-like)", interactive=False, placeholder="-"
    )
    return dict(threshold=threshold, text=text, score_button=score_button, score=score)


def _detector_events(parts: dict[str, Any]) -> None:
    """The estimate follows the detector, set and labels; a threshold belongs to the
    detector it was calibrated for; the two buttons (one heavy job at a time)."""
    detector, upload, threshold = parts["detector"], parts["upload"], parts["threshold"]
    labels = [parts["human_label"], parts["machine_label"]]
    for trigger in (upload.change, detector.change, labels[0].change, labels[1].change):
        trigger(
            detectors.estimate_message,
            inputs=[detector, upload, *labels],
            outputs=parts["estimate"],
            api_name=False,
        )
    detector.change(lambda: "", outputs=threshold, api_name=False)
    parts["evaluate"].click(
        evaluate_detector,
        inputs=[detector, upload, parts["built"], *labels],
        outputs=[parts["table"], parts["heatmap"], threshold],
        api_name="evaluate_detector",
        concurrency_id=HEAVY,
        concurrency_limit=1,
    )
    parts["score_button"].click(
        score_text,
        inputs=[detector, parts["text"], threshold],
        outputs=[parts["score"], parts["verdict"]],
        api_name="score_text",
        concurrency_id="detector",
        concurrency_limit=1,
    )


def _detector_tab() -> None:
    backend = arb_backend()
    names = detector_names(backend)
    _detector_intro(backend.available)
    with gr.Column(visible=backend.available):
        detector = gr.Dropdown(
            choices=[(f"{n} ({note})" if note else n, n) for n, note in names],
            value=names[0][0] if names else None,
            label="Detector",
            allow_custom_value=True,  # validated by detectors.get_detector, with a clear message
        )
        with gr.Row():
            with gr.Column():
                parts = _detector_set_column()
            with gr.Column():
                parts |= _detector_text_column()
    verdict = gr.Markdown(detectors.REWRITE_CAVEAT, elem_id="detector-caveat")
    _detector_events(parts | {"detector": detector, "verdict": verdict})


def _metrics_tab() -> None:
    gr.Markdown(
        "Paste values (separated by commas, spaces or newlines; for list inputs one row per "
        "line) or upload a CSV with `predictions` and `references` columns "
        f"(at most {MAX_UPLOAD_BYTES // 1_000_000} MB). Options are a JSON object, "
        'e.g. `{"fpr": 0.01}` for tpr_at_fpr.'
    )
    choices = metrics_tab.metric_choices()
    metric = gr.Dropdown(
        choices, value="tpr_at_fpr" if "tpr_at_fpr" in choices else None, label="Metric"
    )
    with gr.Row():
        predictions = gr.Textbox(
            label="predictions", lines=5, value="0.1, 0.4, 0.35, 0.8, 0.2, 0.9"
        )
        references = gr.Textbox(label="references", lines=5, value="0, 0, 1, 1, 0, 1")
    with gr.Row():
        options = gr.Textbox(label="options (JSON)", value='{"fpr": 0.34}')
        upload = gr.File(label="or a CSV", file_types=[".csv"], type="filepath")
    button = gr.Button("Compute", variant="primary", elem_id="compute-metric")
    output = gr.JSON(label="Result", elem_id="metric-result")
    with gr.Accordion("About this metric", open=False):
        info = gr.Markdown()
    metric.change(metric_info, inputs=metric, outputs=[info, options], api_name="metric_info")
    button.click(
        compute_metric,
        inputs=[metric, predictions, references, options, upload],
        outputs=output,
        api_name="compute_metric",
    )


def _datasets_tab() -> None:
    gr.Markdown(
        "Every dataset stylebench knows, with its status on this Space. Pick one to read its "
        "card and, when it is built here, its first rows."
    )
    query = gr.Textbox(label="Filter (hub id or name)")
    table = gr.Dataframe(
        value=list_datasets(""),
        interactive=False,
        max_height=400,
        wrap=True,
        column_widths=["20%", "24%", "18%", "18%", "14%", "6%"],
        elem_id="dataset-table",
    )
    from dataset_scripts.registry import all_datasets

    hub_ids = sorted(all_datasets())
    chosen = gr.Dropdown(
        hub_ids,
        value="stylebench/demo" if "stylebench/demo" in hub_ids else None,
        label="Dataset",
        allow_custom_value=False,
    )
    show = gr.Button("Show card and rows", elem_id="show-dataset")
    with gr.Row():
        card = gr.Markdown(elem_id="dataset-card")
        rows = gr.Markdown(elem_id="dataset-rows")
    query.submit(list_datasets, inputs=query, outputs=table, api_name="list_datasets")
    show.click(dataset_details, inputs=chosen, outputs=[card, rows], api_name="dataset_details")


def import_plotting() -> None:
    """Import matplotlib's pyplot once, in the main thread, before serving: Gradio enters
    ``matplotlib.use("agg")`` around every event, and the first events, in many worker
    threads at once, raced on importing it ("partially initialized module
    'matplotlib.pyplot'")."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot


def warm_up() -> None:
    """Import the heavy libraries (evaluate, datasets, transformers), so the first metric or
    dataset request does not wait for them. ``app.py`` runs this in the background thread of
    :mod:`stylebench_space.warmup` once the server listens; every handler but the
    leaderboard's waits for it (importing them in two threads at once raced in
    transformers' lazy module: ``AttributeError: ... PreTrainedTokenizerBase``)."""
    metrics_tab.get_metric("tpr_at_fpr")
    import transformers

    _ = transformers.PreTrainedTokenizerBase  # resolve the lazy module once, here


def build_demo() -> gr.Blocks:
    """The whole Space (queue configured)."""
    embedding.ensure_demo_dataset()
    with gr.Blocks(
        title="stylebench", delete_cache=(CACHE_SWEEP_SECONDS, CACHE_MAX_AGE_SECONDS)
    ) as demo:
        gr.Markdown(INTRO)
        with gr.Tabs():
            with gr.Tab("Embedding models", id="embedding"):
                _embedding_tab()
            with gr.Tab("Leaderboard", id="leaderboard"):
                lb_load, lb_inputs, lb_outputs = leaderboard_tab.build(guarded_now)
            with gr.Tab("Submissions", id="submissions"):
                submissions_tab.build(guarded)
            with gr.Tab("Detectors", id="detectors"):
                _detector_tab()
            with gr.Tab("Metrics playground", id="metrics"):
                _metrics_tab()
            with gr.Tab("Dataset browser", id="datasets"):
                _datasets_tab()
        gr.Markdown(
            f"<small>Limits: {MAX_TEXT_CHARS:,} characters per text, {MAX_TEXTS:,} rows per "
            f"upload, {MAX_UPLOAD_BYTES // 1_000_000} MB per file, {MAX_RUN_SECONDS:.0f} s per "
            "run. Models never run their own code (no trust_remote_code).</small>"
        )
        demo.load(lb_load, inputs=lb_inputs, outputs=lb_outputs, api_name=False)
    demo.queue(default_concurrency_limit=CONCURRENCY, max_size=QUEUE_SIZE)
    return demo
