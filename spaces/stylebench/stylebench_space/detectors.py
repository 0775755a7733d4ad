"""Tab 2, detectors: evaluate an AI-text detector on an ARB-style set and score a pasted text.

A set has a ``text`` and a ``regime`` per row (or a ``label``, human/machine, with an optional
``generator``: the format of ``stylebench detect run``; machine rows then count as the
regime named by their generator), with ARB's regimes ``Human``,
``Free-LLM`` (direct generation), ``H2L`` (human text rewritten by an LLM) and ``LLM2L`` (LLM
text rewritten by the same LLM); any other regime name is evaluated the same way. Human is the
negative class of every comparison (ARB Sec. 5.3): per regime, TPR@1%FPR (threshold set on the
Human scores) and AUROC come from ``evaluators.metric_math``. The calibrated threshold offered
for pasted texts is the 1%-FPR threshold on the Human scores of the last evaluated set.

Detectors come from the ARB back end (see :mod:`stylebench_space.backends`).
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from stylebench_space.backends import arb_backend
from stylebench_space.safety import (
    MAX_RUN_SECONDS,
    UserError,
    check_text,
    clean_message,
    read_csv_upload,
)

HUMAN = "Human"
MAX_SET_TEXTS = 400  # a detector runs a language model per text: keep sets small here
SCORE_BATCH = 16
MAX_CACHED_DETECTORS = 2
_lock = threading.Lock()
_detectors: OrderedDict[str, tuple[Any, threading.Lock]] = OrderedDict()
ARB_ORDER = ("Free-LLM", "H2L", "LLM2L")
TARGET_FPR = 0.01
REWRITE_CAVEAT = (
    "**Read this before trusting a verdict.** The ARB benchmark found that detectors which catch "
    "91-94% of directly generated text at 1% FPR catch only 15-31% of *human* text that an LLM "
    "has rewritten (H2L), while LLM text rewritten by the same LLM stays at 78-83%. A 'human' "
    "verdict therefore does not show that no AI was involved, and a score says nothing about who "
    "had the ideas. The threshold keeps false alarms on the calibration set's human texts at or "
    "below 1%; on other kinds of text the false-alarm rate can be very different. Never use one "
    "score as evidence against a person."
)


def missing_message() -> str:
    """What the tab says when the ARB back end has not landed."""
    backend = arb_backend()
    return (
        "**ARB detectors are not part of this build.** The Detectors tab needs "
        "`get_detector(name)` (with `list_detectors()` or `ZERO_SHOT`) in `evaluators.arb` or "
        "`evaluators.arb.detectors`"
        f" ({backend.reason or 'not found'}). The Metrics playground computes TPR@FPR and AUROC "
        "on your own detector scores."
    )


def get_detector(name: str) -> tuple[Any, threading.Lock]:
    """A detector from the ARB back end, by one of the names it offers (kept for the next
    request), and the lock that serialises its use."""
    from stylebench_space.backends import detector_names

    backend = arb_backend()
    if not backend.available:
        raise UserError(
            "ARB detectors are not part of this build (evaluators.arb is missing); nothing to run"
        )
    names = [n for n, _ in detector_names(backend)]
    if name not in names:
        raise UserError(f"unknown detector {str(name)[:80]!r}; available: {', '.join(names)}")
    with _lock:
        if name in _detectors:
            _detectors.move_to_end(name)
            return _detectors[name]
    try:
        detector = backend.functions["get_detector"](name)
    except Exception as error:
        raise UserError(f"cannot load detector {name!r}: {clean_message(error)}") from None
    with _lock:
        _detectors[name] = (detector, threading.Lock())
        while len(_detectors) > MAX_CACHED_DETECTORS:
            _detectors.popitem(last=False)
        return _detectors[name]


def score_texts(
    detector: Any, texts: Sequence[str], max_seconds: float = MAX_RUN_SECONDS
) -> np.ndarray:
    """``detector.score`` in batches as finite floats of shape (n,), or :class:`UserError`
    (also when scoring passes ``max_seconds``, or as soon as the rate measured after the
    first batch, which includes loading the model, projects past it)."""
    started = time.perf_counter()
    after_first = None
    parts = []
    for start in range(0, len(texts), SCORE_BATCH):
        now = time.perf_counter()
        if now - started > max_seconds:
            raise UserError(
                f"scoring stopped at the {max_seconds:.0f} s limit after {start} of {len(texts)} "
                "texts; use a smaller set here or `stylebench detect run` on your machine"
            )
        if after_first is not None and start > SCORE_BATCH:
            rate = (now - after_first) / (start - SCORE_BATCH)
            projected = now - started + rate * (len(texts) - start)
            if projected > max_seconds:
                raise UserError(
                    f"stopped early: at the measured {rate:.2f} s per text, {len(texts)} texts "
                    f"would take about {projected:.0f} s, over the {max_seconds:.0f} s limit "
                    f"(this Space is busy); use fewer texts or `stylebench detect run` on your "
                    "machine"
                )
        batch = list(texts[start : start + SCORE_BATCH])
        try:
            part = np.asarray(detector.score(batch), dtype=np.float64).reshape(-1)
        except Exception as error:
            raise UserError(f"the detector failed: {clean_message(error)}") from None
        if part.shape != (len(batch),):
            raise UserError(f"the detector returned {part.size} scores for {len(batch)} texts")
        parts.append(part)
        if after_first is None:
            after_first = time.perf_counter()
    scores = np.concatenate(parts) if parts else np.zeros(0)
    if not np.all(np.isfinite(scores)):
        raise UserError("the detector returned NaN or infinite scores")
    return scores


SAMPLE_ROWS = (  # written for this sample; the format of `stylebench detect run` too
    ("honestly the bus was late again so i just walked, got soaked, whatever", "human", ""),
    (
        "My grandmother kept every receipt in a biscuit tin. We found forty years of them.",
        "human",
        "",
    ),
    (
        "Overall, effective time management is crucial to ensure a robust work-life balance.",
        "machine",
        "gen-a",
    ),
    (
        "In today's fast-paced landscape, it is essential to delve into the key factors.",
        "machine",
        "gen-b",
    ),
)


def write_sample_csv(path: Path) -> Path:
    """A small CSV in the accepted format (``text``, ``label`` human/machine, optional
    ``generator``) for visitors to download and fill in."""
    import csv

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["text", "label", "generator"])
        writer.writerows(SAMPLE_ROWS)
    return path


def _regime_of(row: dict[str, str], line: int, mapping: dict[str, int] | None = None) -> str:
    """``regime`` as given, or from ``label`` (human/machine, 0/1, or the two values named
    by ``mapping``; the machine rows take their ``generator`` value when there is one, so
    each generator is its own row)."""
    if "regime" in row and mapping is None:
        return row["regime"].strip()
    from dataset_scripts.core.errors import DataError
    from evaluators.detect.data import parse_label

    column = "label" if "label" in row else "regime"
    try:
        machine = parse_label(row[column], f"detector set: row {line}", column, mapping)
    except DataError as error:
        raise UserError(str(error)[:300]) from None
    return (row.get("generator", "").strip() or "machine") if machine else HUMAN


def _mapping(human_label: str | None, machine_label: str | None) -> dict[str, int] | None:
    """The label names typed in the tab (both or neither; empty = the default vocabulary)."""
    from dataset_scripts.core.errors import DataError
    from evaluators.detect.data import label_mapping

    human = (human_label or "").strip() or None
    machine = (machine_label or "").strip() or None
    try:
        return label_mapping(machine, human)
    except DataError as error:
        raise UserError(str(error)) from None


def load_arb_set(
    path: str | Path | None, human_label: str | None = None, machine_label: str | None = None
) -> tuple[list[str], list[str]]:
    """Texts and regimes of an uploaded CSV: columns ``text`` and either ``regime``
    (ARB: ``Human``, ``Free-LLM``, ...) or ``label`` (human/machine, as
    ``stylebench detect run`` reads; optional ``generator``). ``human_label`` /
    ``machine_label`` name the two label values of any other convention (as
    ``--human-label`` / ``--machine-label``)."""
    mapping = _mapping(human_label, machine_label)
    rows = read_csv_upload(path, required=("text",), max_rows=MAX_SET_TEXTS, what="detector set")
    if "regime" not in rows[0] and "label" not in rows[0]:
        raise UserError(
            "detector set: needs a 'regime' or a 'label' (human/machine) column besides 'text'; "
            f"found {', '.join(rows[0])}"
        )
    texts, regimes = [], []
    for line, row in enumerate(rows, start=2):
        if not (row.get("regime") or row.get("label") or "").strip():
            raise UserError(f"ARB set: row {line} has an empty regime")
        text, regime = row["text"].strip(), _regime_of(row, line, mapping)
        if not text:
            raise UserError(f"ARB set: row {line} has an empty text")
        if not regime:
            raise UserError(f"ARB set: row {line} has an empty regime")
        texts.append(text)
        regimes.append(regime)
    check_regimes(regimes)
    return texts, regimes


def built_arb_sets() -> dict[str, Path]:
    """``{name: folder}`` of built dataset folders whose Parquet shards have ``text`` and
    ``regime`` columns (e.g. ``arb/quartets`` built with ``stylebench build``)."""
    import pyarrow.parquet as pq

    from stylebench_space.embedding import built_datasets

    found = {}
    for name, folder in built_datasets().items():
        for shard in sorted((folder / "data").glob("*/*.parquet")):
            names = set(pq.read_schema(shard).names)
            if {"text", "regime"} <= names:
                found[name] = folder
                break
    return found


def load_built_set(name: str, per_regime: int | None = None) -> tuple[list[str], list[str]]:
    """Texts and regimes of a built ARB-style folder: the first ``per_regime`` rows of each
    regime in file order (default: an equal share of :data:`MAX_SET_TEXTS`)."""
    import pyarrow.parquet as pq

    sets = built_arb_sets()
    if name not in sets:
        raise UserError(f"no built ARB-style set named {str(name)[:80]!r} on this Space")
    texts: list[str] = []
    regimes: list[str] = []
    taken: dict[str, int] = {}
    for shard in sorted((sets[name] / "data").glob("*/*.parquet")):
        if not {"text", "regime"} <= set(pq.read_schema(shard).names):
            continue
        table = pq.read_table(shard, columns=["text", "regime"]).to_pylist()
        present = {row["regime"] for row in table}
        limit = per_regime or max(MAX_SET_TEXTS // max(len(present), 1), 2)
        for row in table:
            regime = str(row["regime"])
            if taken.get(regime, 0) < limit and row["text"]:
                texts.append(str(row["text"]))
                regimes.append(regime)
                taken[regime] = taken.get(regime, 0) + 1
        break  # one config is the set
    check_regimes(regimes)
    return texts, regimes


def check_regimes(regimes: Sequence[str]) -> list[str]:
    """The target regimes (ARB order first); Human and at least one other must occur."""
    present = list(dict.fromkeys(regimes))
    if HUMAN not in present:
        raise UserError(f"ARB set: no {HUMAN!r} rows; found regimes {', '.join(present[:10])}")
    targets = [r for r in ARB_ORDER if r in present] + sorted(
        r for r in present if r not in ARB_ORDER and r != HUMAN
    )
    if not targets:
        raise UserError("ARB set: only Human rows; add Free-LLM, H2L or LLM2L rows")
    if regimes.count(HUMAN) < 2:
        raise UserError("ARB set: at least 2 Human rows are needed to set a threshold")
    return targets


@dataclass
class DetectorReport:
    """Per-regime results and the calibrated threshold."""

    detector: str
    rows: list[list[Any]]  # regime, n_human, n_target, tpr, achieved_fpr, auroc
    threshold: float
    heatmap: Path | None = None

    columns = ("regime", "human texts", "regime texts", "TPR@1%FPR", "achieved FPR", "AUROC")

    def threshold_text(self) -> str:
        """The threshold as the tab shows it, naming the detector it was calibrated for
        (:func:`parse_threshold` refuses it for another detector)."""
        return f"{self.threshold!r} (calibrated for {self.detector})"


def regime_metrics(
    scores: np.ndarray, regimes: Sequence[str], fpr: float = TARGET_FPR
) -> tuple[list[list[Any]], float]:
    """Per target regime: Human vs regime TPR@``fpr`` and AUROC, and the threshold at ``fpr``
    on the Human scores (computed against all non-Human rows)."""
    from evaluators.metric_math import roc_auc, tpr_at_fpr

    targets = check_regimes(regimes)
    regimes_arr = np.asarray(regimes)
    human = scores[regimes_arr == HUMAN]
    rows = []
    for regime in targets:
        target = scores[regimes_arr == regime]
        both = np.concatenate([human, target])
        labels = np.concatenate([np.zeros(len(human), int), np.ones(len(target), int)])
        tpr = tpr_at_fpr(both, labels, fpr=fpr)
        rows.append(
            [
                regime,
                len(human),
                len(target),
                round(float(tpr["tpr"]), 4),
                round(float(tpr["achieved_fpr"]), 4),
                round(float(roc_auc(both, labels)), 4),
            ]
        )
    labels = (regimes_arr != HUMAN).astype(int)
    threshold = float(tpr_at_fpr(scores, labels, fpr=fpr)["threshold"])
    return rows, threshold


MAX_HEATMAP_REGIMES = 30  # columns drawn; the table lists every regime
MAX_HEATMAP_INCHES = 16.0  # at 110 dpi: at most 1,760 pixels wide


def plain_label(text: str, limit: int = 40) -> str:
    """A name as matplotlib draws it literally: ``$`` escaped (no mathtext), shortened."""
    text = str(text)
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return text.replace("$", r"\$")


def draw_heatmap(report_rows: list[list[Any]], title: str, path: Path) -> Path:
    """Regimes x (TPR@1%FPR, AUROC) heatmap with the values written in the cells; at most
    :data:`MAX_HEATMAP_REGIMES` columns (the first, in the table's order; the title says
    so) and :data:`MAX_HEATMAP_INCHES` wide. Names are drawn literally (a ``$`` is not
    mathtext)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = report_rows[:MAX_HEATMAP_REGIMES]
    if len(report_rows) > len(shown):
        title = f"{title} (first {len(shown)} of {len(report_rows)} regimes; the table lists all)"
    regimes = [plain_label(r[0]) for r in shown]
    values = np.array([[r[3], r[5]] for r in shown], dtype=float).T
    width = min(1.6 * len(regimes) + 2.5, MAX_HEATMAP_INCHES)
    fig, ax = plt.subplots(figsize=(width, 2.8 + (1.2 if len(regimes) > 8 else 0.0)))
    image = ax.imshow(values, vmin=0, vmax=1, cmap="viridis", aspect="auto")
    many = len(regimes) > 8
    ax.set_xticks(
        range(len(regimes)), regimes, rotation=60 if many else 0, ha="right" if many else "center"
    )
    ax.set_yticks([0, 1], ["TPR@1%FPR", "AUROC"])
    for (i, j), value in np.ndenumerate(values):
        ax.text(
            j,
            i,
            f"{value:.2f}",
            ha="center",
            va="center",
            color="white" if value < 0.6 else "black",
            fontsize=10 if not many else 7,
        )
    ax.set_title(plain_label(title, limit=160), fontsize=10)
    fig.colorbar(image, ax=ax, fraction=0.04)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def evaluate_detector(
    name: str,
    upload: str | Path | None,
    charts_dir: Path,
    built: str | None = None,
    human_label: str | None = None,
    machine_label: str | None = None,
) -> DetectorReport:
    """Score an ARB-style set (an uploaded CSV, else the built set ``built``) with detector
    ``name``: per-regime metrics and a heatmap."""
    if upload:
        texts, regimes = load_arb_set(upload, human_label, machine_label)
    elif built:
        texts, regimes = load_built_set(built)
    else:
        raise UserError("upload an ARB-style CSV or choose a built ARB set")
    check_time(name, texts)
    detector, lock = get_detector(name)
    with lock:
        scores = score_texts(detector, texts)
    rows, threshold = regime_metrics(scores, regimes)
    charts_dir.mkdir(parents=True, exist_ok=True)
    heatmap = draw_heatmap(
        rows, f"{name}: Human vs each regime", charts_dir / f"detector-{uuid.uuid4().hex[:12]}.png"
    )
    return DetectorReport(name, rows, threshold, heatmap)


def check_time(name: str, texts: Sequence[str], limit: float = MAX_RUN_SECONDS) -> float:
    """The estimated run time (:mod:`evaluators.detect.estimate`); a :class:`UserError`
    before anything starts when it exceeds ``limit``."""
    from evaluators.detect.estimate import estimate_seconds, max_texts_within

    seconds = estimate_seconds([name], texts)
    if seconds > limit:
        fits = max_texts_within([name], texts, limit)
        raise UserError(
            f"{name} on {len(texts)} texts would take about {seconds:.0f} s here, over this "
            f"Space's {limit:.0f} s limit (about {fits} of these texts fit). Upload fewer texts, "
            f"or run it on your machine: stylebench detect run --data your_set.csv --detector {name}"
        )
    return seconds


def estimate_message(
    name: str,
    upload: str | Path | None,
    human_label: str | None = None,
    machine_label: str | None = None,
) -> str:
    """What the tab shows once a set is uploaded: text count and estimated time."""
    if not upload or not name:
        return ""
    try:
        texts, _ = load_arb_set(upload, human_label, machine_label)
        seconds = check_time(name, texts)
    except UserError as error:
        return f"**{error}**"
    return (
        f"{len(texts)} texts; {name} should take about {seconds:.0f} s here "
        f"(limit {MAX_RUN_SECONDS:.0f} s)."
    )


def verdict(score: float, threshold: float | None) -> str:
    """A one-paragraph reading of one score against the calibrated threshold."""
    if threshold is None or not np.isfinite(threshold):
        return (
            f"Score {score:.4f} (higher = more machine-like). No calibrated threshold yet: "
            "evaluate the detector on an ARB-style set first, or type a threshold."
        )
    flagged = score >= threshold
    return f"Score {score:.4f} against the 1%-FPR threshold {threshold:.4f}: " + (
        "**flagged as machine-like**." if flagged else "**not flagged**."
    )


_CALIBRATED = re.compile(r"^\s*(?P<value>\S+)\s+\(calibrated for (?P<name>.+)\)\s*$")


def parse_threshold(value: str | float | None, detector: str | None = None) -> float | None:
    """A threshold typed or set by an evaluation: empty = none, else a number. One set by
    an evaluation names its detector (:meth:`DetectorReport.threshold_text`); for any other
    ``detector`` it is no threshold (None), since scores of two detectors are not on one
    scale."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str) and (match := _CALIBRATED.match(value)):
        if detector is not None and match["name"].strip() != detector:
            return None
        value = match["value"]
    try:
        return float(value)
    except (TypeError, ValueError):
        raise UserError(f"the threshold {str(value)[:40]!r} is not a number") from None


def score_pasted(name: str, text: str, threshold: float | None) -> tuple[float, str]:
    """Score one pasted text; returns the score and the verdict with the rewriting caveat."""
    text = check_text(text, "the text to score")
    detector, lock = get_detector(name)
    with lock:
        score = float(score_texts(detector, [text])[0])
    return score, verdict(score, threshold) + "\n\n" + REWRITE_CAVEAT
