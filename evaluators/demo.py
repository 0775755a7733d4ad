"""``stylebench demo``: build the embedded demo suite, run it with the TF-IDF,
function-word and stylometric baselines and (when installed) all-MiniLM-L6-v2, print a table and write
result JSONs, a CSV summary and a PNG chart."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from dataset_scripts.build import build_dataset
from dataset_scripts.demo.build import HUB_ID
from dataset_scripts.demo.source_text import SENTENCES
from dataset_scripts.registry import get_dataset
from evaluators.encoders import get_encoder, list_encoders
from evaluators.records.record import ResultRecord
from evaluators.report import chance_levels, plot_scores, summary_rows, write_csv
from evaluators.run.service import RunConfig, plan, run_specs

DEMO_MODELS = ("tfidf-ngrams", "function-words", "stylometric", "minilm")
# the demo table also shows plain order-alignment accuracy beside the distractor score
DEMO_ALSO = {"order_alignment": ("accuracy",)}


@dataclass
class DemoOutput:
    records: dict[str, list[ResultRecord]]
    dataset_dir: Path
    results_dir: Path
    csv_path: Path
    chart_path: Path
    skipped: dict[str, str]
    #: seconds per model: "load" (load or fit the encoder), "encode", "evaluate"
    timings: dict[str, dict[str, float]] = field(default_factory=dict)


def available_demo_models() -> tuple[list[str], dict[str, str]]:
    """Demo models that can run here, and the reason each other one cannot."""
    status = {entry["name"]: entry for entry in list_encoders()}
    usable, skipped = [], {}
    for name in DEMO_MODELS:
        entry = status.get(name)
        if entry and entry.get("available", False):
            usable.append(name)
        else:
            skipped[name] = (entry or {}).get("reason", "not registered")
    return usable, skipped


def make_encoder(name: str):
    encoder = get_encoder(name)
    if hasattr(encoder, "fit"):
        # The TF-IDF reference corpus of the demo: the plain sentences it is built from.
        encoder.fit(list(SENTENCES))
    return encoder


def run_demo(out: Path, models: list[str] | None = None, progress: bool = True) -> DemoOutput:
    out = Path(out)
    dataset_dir, _ = build_dataset(get_dataset(HUB_ID), None, out / "data" / "stylebench-demo")
    if models is None:
        models, skipped = available_demo_models()
    else:
        skipped = {}
    config = RunConfig(cache_dir=out / "cache", out_dir=out / "results", progress=progress)
    specs = plan([str(dataset_dir)], config)
    records: dict[str, list[ResultRecord]] = {}
    timings: dict[str, dict[str, float]] = {}
    for name in models:
        started = time.perf_counter()
        encoder = make_encoder(name)
        loaded = time.perf_counter() - started
        records[name] = run_specs(encoder, name, specs, config)
        # a dataset is embedded once for all its tasks: each of its records carries
        # that step's seconds
        encode = {r.dataset.name: r.timings["encode_seconds"] for r in records[name]}
        timings[name] = {
            "load": loaded,
            "encode": sum(encode.values()),
            "evaluate": sum(r.timings["evaluation_seconds"] for r in records[name]),
        }
    rows = summary_rows(records, DEMO_ALSO)
    csv_path = write_csv(rows, out / "summary.csv")
    chart_path = plot_scores(
        rows,
        out / "demo_scores.png",
        title="stylebench demo suite",
        chance=chance_levels(records),
        note="a pipeline smoke test on generated data, not a STEB result",
    )
    return DemoOutput(records, dataset_dir, out / "results", csv_path, chart_path, skipped, timings)
