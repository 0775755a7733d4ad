"""The site's pictures, made from real runs by the project's own commands and functions
(``docs/images/*.png``, committed so the README shows them on GitHub too):

- ``steb_by_task.png``: the demo's models per task type, main score with its recorded
  95 % CI (:func:`evaluators.demo.run_demo`, the records' ``details.ci95``);
- ``leaderboard.png``: an excerpt of the STEB leaderboard (the paper's best models
  and, with ``../shared/corpora``, this build's partial baseline runs on real STEB
  datasets; :mod:`evaluators.leaderboard`);
- ``detector_roc.png``: ``stylebench detect run`` on a DetectRL sample, its ROC with the
  1 % FPR budget and the TPR there (with its bootstrap CI) marked;
- ``compare_forest.png``: ``stylebench compare`` (:func:`evaluators.api.compare`) of two
  baselines as a forest plot of the per-dataset differences with their CIs.

Making them takes minutes (the demo, a few small real datasets), so they are made only
when one is missing, when this file changed since they were made, or when asked
(``STYLEBENCH_DOCS_FIGURES=rebuild mkdocs build``; ``=skip`` never makes them, e.g. while
writing pages); ``docs/images/figures.json`` records
what each was made from (code hash, inputs, versions, date). The runs work in
``.cache/docs/`` (git-ignored; its embedding caches make a rebuild quicker).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

FIGURES = ("steb_by_task.png", "leaderboard.png", "detector_roc.png", "compare_forest.png")
STAMP = "figures.json"
#: the real STEB datasets the corpora runs use (small, five task types between them)
CORPORA_DATASETS = (
    "steb/PASTEL:age",
    "steb/PASTEL:gender",
    "steb/ASSET",
    "steb/enron_authorship_corpus",
    "steb/pan18_cross_domain_authorship_attribution:english",
)
#: the baselines run on them (fast on a CPU; the demo adds MiniLM where installed)
CORPORA_MODELS = ("tfidf-ngrams", "function-words", "stylometric")
COMPARED = ("stylometric", "tfidf-ngrams")
#: the detection sample: DetectRL's arXiv test set, as the README's detect example reads it
DETECTRL = "detectrl/Benchmark/Tasks/Task1/multi_domains_arxiv_test.json.gz"
DETECT_SAMPLE = 1200
FPR = 0.01
LEADERBOARD_VIEW = "operational"
LEADERBOARD_PAPER_ROWS = 12
DPI = 100

Log = Callable[[str], None]


def code_hash(path: Path | None = None) -> str:
    """SHA-256 (first 16 hex digits) of this file's code, docstrings, comments and layout
    left out: a changed recipe remakes the pictures, a reworded docstring does not."""
    import ast

    tree = ast.parse(Path(path or __file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]  # type: ignore[attr-defined]
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()[:16]


def read_stamp(images: Path) -> dict[str, Any]:
    path = images / STAMP
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def stale(images: Path) -> list[str]:
    """Why the pictures must be remade (empty when they are current)."""
    reasons = [f"{name} is missing" for name in FIGURES if not (images / name).is_file()]
    made_with = read_stamp(images).get("code")
    if made_with != code_hash():
        reasons.append(f"the recipe changed ({made_with} -> {code_hash()})")
    if os.environ.get("STYLEBENCH_DOCS_FIGURES") == "rebuild":
        reasons.append("STYLEBENCH_DOCS_FIGURES=rebuild")
    return reasons


def ensure(images: Path, work: Path, corpora: Path | None, log: Log = print) -> dict[str, Any]:
    """Make the pictures under ``images`` if :func:`stale` says so; returns the stamp."""
    reasons = stale(images)
    if not reasons:
        return read_stamp(images)
    if os.environ.get("STYLEBENCH_DOCS_FIGURES") == "skip":
        log(f"docs pictures not remade (STYLEBENCH_DOCS_FIGURES=skip): {'; '.join(reasons)}")
        return read_stamp(images)
    log(f"making the docs pictures ({'; '.join(reasons)}); this runs the demo and takes minutes")
    return make_all(images, work, corpora, log)


def make_all(images: Path, work: Path, corpora: Path | None, log: Log = print) -> dict[str, Any]:
    images.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    corpora = corpora if corpora is not None and corpora.is_dir() else None
    stamp: dict[str, Any] = {
        "code": code_hash(),
        "made": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
        "versions": _versions(),
        "figures": {},
    }
    started = time.perf_counter()
    demo = _demo(work, log)
    stamp["figures"]["steb_by_task.png"] = steb_by_task(demo, images / "steb_by_task.png")
    runs = _corpora_runs(work, corpora, log) if corpora else None
    roots = [demo.results_dir] + ([runs] if runs else [])
    stamp["figures"]["leaderboard.png"] = leaderboard(runs, images / "leaderboard.png")
    stamp["figures"]["compare_forest.png"] = compare_forest(roots, images / "compare_forest.png")
    roc = images / "detector_roc.png"
    if corpora is not None and (corpora / DETECTRL).is_file():
        stamp["figures"]["detector_roc.png"] = detector_roc(corpora / DETECTRL, work, roc, log)
    elif roc.is_file():
        kept = read_stamp(images).get("figures", {}).get("detector_roc.png")
        stamp["figures"]["detector_roc.png"] = kept or {"kept": "made earlier, no corpora here"}
        log(
            f"detector_roc.png kept: {corpora / DETECTRL if corpora else '../shared/corpora'} absent"
        )
    else:
        log("detector_roc.png not made: it needs DetectRL under ../shared/corpora")
    stamp["seconds"] = round(time.perf_counter() - started, 1)
    (images / STAMP).write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
    log(f"docs pictures made in {stamp['seconds']:.0f} s")
    return stamp


def _versions() -> dict[str, str]:
    from importlib import metadata

    out = {}
    for name in ("stylebench", "numpy", "scikit-learn", "matplotlib", "torch"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> dict[str, Any]:
    fig.savefig(path, dpi=DPI)
    _pyplot().close(fig)
    return {"bytes": path.stat().st_size}


# ---------------------------------------------------------------------------- the demo


def _demo(work: Path, log: Log) -> Any:
    from evaluators.demo import run_demo

    log("docs pictures: stylebench demo (its embedding cache is kept in .cache/docs/demo)")
    return run_demo(work / "demo", progress=False)


def steb_by_task(demo: Any, path: Path) -> dict[str, Any]:
    """Grouped bars: per task type, each demo model's main score with its 95 % CI, and
    the chance level (:func:`evaluators.report.chance_levels`) as a dashed tick."""
    from evaluators.report import chance_levels, readable

    plt = _pyplot()
    models = list(demo.records)
    tasks = list(dict.fromkeys(r.task for rs in demo.records.values() for r in rs))
    chance = chance_levels(demo.records)
    fig, ax = plt.subplots(figsize=(8.0, 3.6))
    width = 0.8 / max(len(models), 1)
    colors = plt.get_cmap("tab10").colors
    scores: dict[str, dict[str, float]] = {}
    for m, model in enumerate(models):
        by_task = {r.task: r for r in demo.records[model]}
        xs, values, errors = [], [], [[], []]
        for t, task in enumerate(tasks):
            result = by_task.get(task)
            if result is None:
                continue
            value = result.main_score
            low, high = (result.details.get("ci95") or {}).get(
                result.main_score_name, (value, value)
            )
            xs.append(t - 0.4 + width * (m + 0.5))
            values.append(value)
            errors[0].append(max(value - low, 0.0))
            errors[1].append(max(high - value, 0.0))
            scores.setdefault(model, {})[task] = round(value, 4)
        ax.bar(xs, values, width * 0.92, yerr=errors, capsize=2, label=model, color=colors[m % 10])
    names = {r.task: r.main_score_name for rs in demo.records.values() for r in rs}
    for t, task in enumerate(tasks):
        levels = {v for (_, k, metric), v in chance.items() if k == task and metric == names[task]}
        for level in levels:
            ax.hlines(level, t - 0.42, t + 0.42, colors="black", linestyles="dashed", linewidth=1)
    ax.set_xticks(range(len(tasks)), [f"{readable(t)}\n{readable(names[t])}" for t in tasks])
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("main score (95 % CI)")
    ax.set_title("stylebench demo: main score per task type (dashed: chance)", fontsize=10)
    ax.legend(fontsize=8, ncol=len(models), loc="upper left", frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return {"from": "evaluators.demo.run_demo (stylebench demo)", "scores": scores} | _save(
        fig, path
    )


# -------------------------------------------------------------------- real STEB datasets


def _corpora_runs(work: Path, corpora: Path, log: Log) -> Path | None:
    """The baselines on :data:`CORPORA_DATASETS`, built from ``corpora`` into
    ``.cache/docs/built`` (never registered in datasets' cache) and run with
    :func:`evaluators.api.run` into ``.cache/docs/runs``; None when none could be built."""
    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset
    from dataset_scripts.status import discover, raw_match
    from evaluators.api import run

    found = discover(corpora)
    folders = []
    for hub_id in CORPORA_DATASETS:
        spec = get_dataset(hub_id)
        match = raw_match(spec, corpora, found)
        if match is None:
            log(f"docs pictures: {hub_id} skipped (no raw download under {corpora})")
            continue
        folder = work / "built" / (f"{spec.slug}__{spec.config}" if spec.config else spec.slug)
        if not (folder / "README.md").is_file():
            build_dataset(spec, match.folder, folder)
        folders.append(str(folder))
    if not folders:
        return None
    out = work / "runs"
    for model in CORPORA_MODELS:
        log(f"docs pictures: {model} on {len(folders)} real STEB datasets")
        for folder in folders:
            run(model, folder, out=out, cache_dir=work / "cache")
    return out


def leaderboard(runs: Path | None, path: Path) -> dict[str, Any]:
    """The top :data:`LEADERBOARD_PAPER_ROWS` of the paper's leaderboard
    (:data:`LEADERBOARD_VIEW`) plus this build's runs (partial: hatched), drawn by
    :func:`evaluators.leaderboard.plot_leaderboard`."""
    from evaluators.leaderboard import Leaderboard, build_leaderboard, plot_leaderboard

    summary = None
    if runs is not None:
        from evaluators.steb_scores.results import load_results
        from evaluators.steb_scores.summary import summarize

        summary = summarize(load_results([runs]))
    board = build_leaderboard(LEADERBOARD_VIEW, summary)
    paper = [r for r in board.rows if r.source == "paper"][:LEADERBOARD_PAPER_ROWS]
    ours = [r for r in board.rows if r.source == "run" and r.values.get(board.overall) is not None]
    kept = [r for r in board.rows if r in paper or r in ours]
    excerpt = Leaderboard(board.view, board.columns, kept, board.rank_note)
    plot_leaderboard(excerpt, path)
    _shrink(path)
    return {
        "from": f"stylebench leaderboard --view {LEADERBOARD_VIEW}"
        + (f" --results {runs.name}" if runs else "")
        + f": the paper's top {len(paper)} rows and {len(ours)} run(s)",
        "runs": {
            r.model: {"coverage": r.coverage, board.overall: r.values[board.overall]} for r in ours
        },
        "bytes": path.stat().st_size,
    }


def _shrink(path: Path) -> None:
    """Re-save a PNG a project function wrote at another resolution as a palette PNG
    (the leaderboard's 120 dpi chart stays readable well under the 150 kB budget)."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=128)
    small.save(path, optimize=True)


# ------------------------------------------------------------------------------ detect


def detector_roc(data: Path, work: Path, path: Path, log: Log) -> dict[str, Any]:
    """``stylebench detect run --detector tfidf`` on a seeded sample of ``data``; its ROC
    from the held-out scores it wrote, with the TPR at 1 % FPR (and CI) it reported."""
    from evaluators.cli import main
    from evaluators.metric_math import roc_curve

    out = work / "detect"
    args = ["detect", "run", "--data", str(data), "--detector", "tfidf", "--sample",
            str(DETECT_SAMPLE), "--fpr", str(FPR), "--out", str(out), "--no-progress"]  # fmt: skip
    log("docs pictures: stylebench " + " ".join(args[:-4]))
    main(args)
    result = json.loads((out / "detection.json").read_text(encoding="utf-8"))
    record = next(r for r in result["results"] if r["detector"] == "tfidf")
    key = f"tpr@{FPR:g}fpr"
    import csv

    with (out / "scores.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    scores = np.array([float(r["score:tfidf"]) for r in rows])
    labels = np.array([int(r["label"]) for r in rows])
    fpr, tpr, _ = roc_curve(scores, labels)
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(8.4, 3.6))
    low, high = record[f"{key}_ci95"]
    for ax in axes:
        ax.step(
            fpr, tpr, where="post", color="#1f77b4", label=f"tfidf (AUROC {record['auroc']:.3f})"
        )
        ax.axvline(FPR, color="grey", linestyle=":", linewidth=1)
        ax.errorbar(
            [record[f"{key}_achieved_fpr"]],
            [record[key]],
            yerr=[[record[key] - low], [high - record[key]]],
            fmt="o",
            color="#d62728",
            capsize=3,
            label=f"TPR at {FPR:.0%} FPR: {record[key]:.3f} [{low:.3f}, {high:.3f}]",
        )
        ax.set_xlabel("false-positive rate (human texts flagged)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("true-positive rate (machine texts flagged)")
    axes[0].plot([0, 1], [0, 1], color="grey", linewidth=0.8)
    axes[0].set_title("ROC", fontsize=10)
    axes[1].set_xscale("log")
    axes[1].set_xlim(1e-3, 1)
    axes[1].set_title("log FPR: the low-FPR region", fontsize=10)
    axes[0].legend(fontsize=7, loc="lower right")
    n_h, n_m = int((labels == 0).sum()), int(labels.sum())
    fig.suptitle(f"DetectRL arXiv: {n_h} human vs {n_m} machine held-out texts", fontsize=10)
    fig.tight_layout()
    return {
        "from": "stylebench " + " ".join(a if "/" not in a else Path(a).name for a in args),
        "auroc": record["auroc"],
        key: record[key],
    } | _save(fig, path)


# ----------------------------------------------------------------------------- compare


def compare_forest(roots: list[Path], path: Path) -> dict[str, Any]:
    """:func:`evaluators.api.compare` of :data:`COMPARED` over ``roots``: one row per
    (dataset, task) with the difference and its 95 % CI, coloured by the Holm outcome,
    and the benchmark-level difference at the bottom."""
    from evaluators.api import compare

    a, b = COMPARED
    comparison = compare(roots, a, b)
    rows = sorted(comparison.datasets, key=lambda d: (d.task, d.dataset))
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8.0, 1.2 + 0.32 * (len(rows) + 1)))
    colors = {"win": "#2ca02c", "loss": "#d62728", "tie": "#7f7f7f"}
    labels = []
    for y, d in enumerate(rows):
        lo, hi = d.ci
        ax.errorbar(
            [100 * d.difference],
            [y],
            xerr=[[100 * (d.difference - lo)], [100 * (hi - d.difference)]],
            fmt="o",
            color=colors.get(d.outcome, "black"),
            capsize=3,
        )
        labels.append(f"{d.dataset.split('/')[-1]} · {d.task} ({d.metric})")
    line = comparison.benchmark
    if line:
        y = len(rows)
        lo, hi = line["ci95"]
        ax.errorbar(
            [100 * line["difference"]],
            [y],
            xerr=[[100 * (line["difference"] - lo)], [100 * (hi - line["difference"])]],
            fmt="D",
            color="black",
            capsize=4,
        )
        labels.append(f"benchmark ({line['n_datasets']} datasets)")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(f"{a} minus {b} (x100), paired 95 % CI")
    tally = comparison.tally
    ax.set_title(
        f"stylebench compare: {a} (A) vs {b} (B)\nHolm-corrected: A wins {tally['win']} "
        f"(green), ties {tally['tie']}, loses {tally['loss']} (red)",
        fontsize=9,
    )
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return {
        "from": f"stylebench compare --model {a} --model {b} over "
        + ", ".join(str(r.name) for r in roots),
        "tally": tally,
        "rows": len(rows),
    } | _save(fig, path)
