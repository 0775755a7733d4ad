"""One detection run: split, fit supervised detectors, score (resumable), metrics, files.

:func:`run_detection` is what ``stylebench detect run`` calls. Scores are oriented so that
higher = more machine-like (:meth:`evaluators.arb.detectors.Detector.score`'s convention:
``orientation * raw``); AUROC and TPR@FPR are computed on them (any increasing transform,
such as ARB's standardisation, leaves both unchanged).
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.detect.bootstrap import DEFAULT_RESAMPLES
from evaluators.detect.data import DetectionSet
from evaluators.detect.leaks import near_duplicate_report
from evaluators.detect.report import OVERALL, plot_roc, records_for, write_outputs
from evaluators.detect.scoring import DEFAULT_BATCH, ScoreStore, score_resumable
from evaluators.detect.split import DEFAULT_TRAIN_FRACTION, held_out_copies, train_test_index
from evaluators.metric_math import roc_curve
from evaluators.metric_math.resampling import DEFAULT_SEED

DEFAULT_FPRS = (0.01,)
PROTOCOLS = ("default", "raid")


@dataclass
class DetectionRun:
    records: list[dict[str, Any]]
    scores: dict[str, np.ndarray]  # detector -> oriented scores of the evaluation rows
    evaluation: DetectionSet
    files: dict[str, Path] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DetectionSettings:
    """How :func:`run_detection` evaluates: the FPR budgets, the bootstrap (``n_resamples``,
    ``seed``), the supervised detectors' split (``train_fraction``, ``seed``), the scoring
    batches (one LM batch per progress step and resume checkpoint), the detectors' own
    options, where messages go (``log``), and the ``protocol``: ``"default"`` (bootstrap
    records) or ``"raid"`` (:mod:`.raid`: per-domain thresholds on human texts, the
    domain group named by ``domain_column``)."""

    fprs: Sequence[float] = DEFAULT_FPRS
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED
    train_fraction: float = DEFAULT_TRAIN_FRACTION
    batch_size: int = DEFAULT_BATCH
    progress: bool = True
    detector_options: dict[str, Any] | None = None
    log: Callable[[str], Any] = print
    protocol: str = "default"
    domain_column: str | None = None

    def __post_init__(self) -> None:
        if self.protocol not in PROTOCOLS:
            raise StylebenchError(
                f"--protocol must be one of {', '.join(PROTOCOLS)}, got {self.protocol!r}"
            )


@dataclass
class DetectionSplit:
    """The rows the detectors are evaluated on (and the supervised ones trained on)."""

    evaluation: DetectionSet
    training: DetectionSet | None
    train: list[int]
    meta: dict[str, Any]
    leaks: dict[str, Any]


def _is_supervised(detector: Any) -> bool:
    return callable(getattr(detector, "fit", None))


def _train_key(data: DetectionSet, train: Sequence[int]) -> str:
    digest = hashlib.sha256()
    for i in train:
        digest.update(f"{data.labels[i]}\t{data.texts[i]}\n".encode())
    return digest.hexdigest()[:16]


def _build_detectors(
    detectors: Sequence[str] | dict[str, Any], options: dict[str, Any] | None
) -> dict[str, Any]:
    """Detectors by name (names built by :func:`evaluators.arb.detectors.get_detector`
    with ``options``; ready objects kept), sharing their language-model passes."""
    from evaluators.arb.detectors import get_detector, share_model_passes

    if isinstance(detectors, dict):
        built = dict(detectors)
    else:
        built = {name: get_detector(name, **(options or {})) for name in detectors}
    share_model_passes(list(built.values()))
    return built


def split_rows(
    data: DetectionSet, supervised: list[str], settings: DetectionSettings
) -> DetectionSplit:
    """With a supervised detector, the training and held-out rows (the split column, else
    a seeded split by group or by label) and the leak checks across them (near-duplicates
    of training rows, held-out copies dropped); without one, every row is evaluated."""
    meta: dict[str, Any] = {"supervised": supervised}
    leaks = dict(data.leaks)
    if not supervised:
        meta["rule"] = "no supervised detector: every row is evaluated"
        leaks |= near_duplicate_report(data.texts)
        return DetectionSplit(data, None, [], meta, leaks)
    train, test = train_test_index(data, settings.train_fraction, settings.seed)
    leaks |= near_duplicate_report(data.texts, train, test)
    leaks["held_out_copies_of_training_dropped"] = held_out_copies(data)
    meta |= {
        "rule": "split column"
        if data.splits is not None
        else "random split by group (--split-by)"
        if data.split_keys is not None
        else "label-stratified random split",
        "train_fraction": None if data.splits is not None else settings.train_fraction,
        "seed": settings.seed,
        "n_train": len(train),
        "n_test": len(test),
        "note": "every detector is evaluated on the held-out rows",
    }
    return DetectionSplit(data.subset(test), data.subset(train), list(train), meta, leaks)


def score_detectors(
    data: DetectionSet,
    built: dict[str, Any],
    split: DetectionSplit,
    out: Path | None,
    settings: DetectionSettings,
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Fit the supervised detectors on the training rows, score the evaluation rows with
    each detector (resumable: scores stored under ``out/scores``); the oriented scores
    and each detector's configuration (with its seconds and the texts read back)."""
    scores: dict[str, np.ndarray] = {}
    configs: dict[str, Any] = {}
    store_dir = None if out is None else Path(out) / "scores"
    evaluation = split.evaluation
    for name, det in built.items():
        started = time.perf_counter()
        config = det.config()
        if name in split.meta["supervised"]:
            assert split.training is not None
            det.fit(split.training.texts, split.training.labels)
            config = det.config() | {"training_rows": _train_key(data, split.train)}
        store = ScoreStore(store_dir, name, config)
        raw, reused = score_resumable(
            det,
            evaluation.texts,
            store,
            name=name,
            batch_size=settings.batch_size,
            progress=settings.progress,
        )
        scores[name] = det.orientation * raw
        seconds = time.perf_counter() - started
        configs[name] = config | {"seconds": round(seconds, 2), "texts_reused": reused}
        settings.log(
            f"{name}: {len(evaluation)} texts in {seconds:.1f} s"
            + (f" ({reused} read back from {store.path})" if reused else "")
        )
    return scores, configs


def detection_records(
    scores: dict[str, np.ndarray], evaluation: DetectionSet, settings: DetectionSettings
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The records of every detector (bootstrap CIs, or RAID's with the per-domain
    thresholds, the second value) overall and per group."""
    labels = np.asarray(evaluation.labels)
    fprs, seed = settings.fprs, settings.seed
    if settings.protocol != "raid":
        records = [
            r
            for name, s in scores.items()
            for r in records_for(
                name, s, labels, evaluation.groups, fprs, settings.n_resamples, seed
            )
        ]
        return records, {}
    from evaluators.detect.raid import calibration_summary, raid_records

    records, thresholds = [], {}
    for name, s in scores.items():
        rows, calibration = raid_records(s, labels, evaluation.groups, settings.domain_column, fprs)
        records += [{"detector": name, **r} for r in rows]
        thresholds[name] = calibration_summary(calibration)
    return records, thresholds


def detection_meta(
    data: DetectionSet,
    split: DetectionSplit,
    configs: dict[str, Any],
    thresholds: dict[str, Any],
    settings: DetectionSettings,
) -> dict[str, Any]:
    """What ``detection.json`` says besides the records: the data and its leaks, the split,
    the detectors, the FPRs and the protocol's rule (bootstrap or RAID thresholds)."""
    meta: dict[str, Any] = {
        "data": {
            "name": data.name,
            "n_rows": len(data),
            "n_evaluated": len(split.evaluation),
            "label_column": data.label_column,
            "group_columns": list(data.groups),
            "dropped": data.dropped,
            "leaks": split.leaks,
        },
        "split": split.meta,
        "detectors": configs,
        "fprs": list(settings.fprs),
        "protocol": settings.protocol,
    }
    if settings.protocol == "raid":
        meta["raid"] = {
            "domain_column": settings.domain_column,
            "rule": "per-domain threshold on human texts only (largest FPR <= target); TPR of "
            "machine texts at their domain's threshold; null where a domain's human texts "
            "cannot reach the target; AUROC against the domain's human texts",
            "thresholds": thresholds,
        }
    else:
        meta["bootstrap"] = {
            "n_resamples": settings.n_resamples,
            "seed": settings.seed,
            "method": "stratified percentile bootstrap (human and machine texts resampled separately)",
        }
    return meta


def write_detection_files(
    out: Path, run: DetectionRun, data: DetectionSet, settings: DetectionSettings
) -> dict[str, Path]:
    """``detection.json`` and ``detection.csv`` (the protocol's), ``scores.csv`` and
    ``roc.png`` (each detector's ROC curve over the evaluation rows, with its overall
    AUROC) under ``out``."""
    fprs = settings.fprs
    if settings.protocol == "raid":
        from evaluators.detect.raid import write_raid_outputs

        files = write_raid_outputs(out, run.records, run.meta, fprs)
    else:
        files = write_outputs(out, run.records, run.meta, fprs)
    files["scores"] = _write_scores(out / "scores.csv", run.evaluation, run.scores)
    labels = np.asarray(run.evaluation.labels)
    curves = {}
    for name, s in run.scores.items():
        fpr, tpr, _ = roc_curve(s, labels)
        auc = next(
            r["auroc"]
            for r in run.records
            if r["detector"] == name
            and (r.get("group") == OVERALL or all(r.get(g) == "all" for g in data.groups))
        )
        curves[name] = (fpr, tpr, auc)
    files["roc"] = plot_roc(
        curves,
        fprs,
        f"{data.name}: {int((labels == 0).sum())} human vs {int(labels.sum())} machine texts",
        out / "roc.png",
    )
    return files


def run_detection(
    data: DetectionSet,
    detectors: Sequence[str] | dict[str, Any],
    out: Path | None,
    settings: DetectionSettings | None = None,
    **options: Any,
) -> DetectionRun:
    """Evaluate ``detectors`` (names for :func:`evaluators.arb.detectors.get_detector`, or
    ready detector objects by name) on ``data``; write files under ``out`` (if given).
    ``settings`` (:class:`DetectionSettings`; its fields may also be given as keywords,
    ``options``, which override it): ``protocol="raid"`` replaces the bootstrap records by
    RAID's (:mod:`.raid`: per-domain thresholds on human texts, every combination of the
    group columns, null where a domain cannot reach the FPR target); ``domain_column``
    names the domain group. The steps: :func:`split_rows`, :func:`score_detectors`,
    :func:`detection_records`, :func:`detection_meta`, :func:`write_detection_files`."""
    settings = dataclasses.replace(settings or DetectionSettings(), **options)
    built = _build_detectors(detectors, settings.detector_options)
    supervised = [n for n, d in built.items() if _is_supervised(d)]
    split = split_rows(data, supervised, settings)
    settings.log(leak_summary(split.leaks))
    scores, configs = score_detectors(data, built, split, out, settings)
    records, thresholds = detection_records(scores, split.evaluation, settings)
    meta = detection_meta(data, split, configs, thresholds, settings)
    run = DetectionRun(records, scores, split.evaluation, meta=meta)
    if out is not None:
        run.files = write_detection_files(Path(out), run, data, settings)
    return run


def leak_summary(leaks: dict[str, int]) -> str:
    """One line saying what the duplicate and near-duplicate checks found."""
    parts = [
        f"{leaks.get('exact_duplicate_rows', 0):,} exact duplicate rows",
        f"{leaks.get('conflicting_label_texts', 0):,} texts under both labels "
        f"({leaks.get('conflicting_label_rows', 0):,} rows)",
        f"{leaks.get('near_duplicate_rows', 0):,} rows in "
        f"{leaks.get('near_duplicate_clusters', 0):,} near-duplicate clusters (shared "
        f"{leaks.get('near_duplicate_ngram', 13)}-word sequence"
        + (
            f", one in {leaks['near_duplicate_ngrams_kept_one_in']} sequences compared"
            if leaks.get("near_duplicate_ngrams_kept_one_in", 1) > 1
            else ""
        )
        + ")",
    ]
    if "held_out_near_duplicates_of_training" in leaks:
        parts.append(
            f"{leaks['held_out_near_duplicates_of_training']:,} held-out rows near-duplicate "
            "to a training row"
        )
    if leaks.get("held_out_copies_of_training_dropped"):
        parts.append(
            f"{leaks['held_out_copies_of_training_dropped']:,} held-out copies of training "
            "texts dropped"
        )
    return "leak check: " + "; ".join(parts)


def _write_scores(path: Path, data: DetectionSet, scores: dict[str, np.ndarray]) -> Path:
    import pandas as pd

    frame = pd.DataFrame({"id": data.ids, "label": data.labels, **data.groups})
    for name, s in scores.items():
        frame[f"score:{name}"] = s
    frame.to_csv(path, index=False)
    return path
