"""One detection run: split, fit supervised detectors, score (resumable), metrics, files.

:func:`run_detection` is what ``stylebench detect run`` calls. Scores are oriented so that
higher = more machine-like (:meth:`evaluators.arb.detectors.Detector.score`'s convention:
``orientation * raw``); AUROC and TPR@FPR are computed on them (any increasing transform,
such as ARB's standardisation, leaves both unchanged).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
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

DEFAULT_FPRS = (0.01,)
PROTOCOLS = ("default", "raid")


@dataclass
class DetectionRun:
    records: list[dict[str, Any]]
    scores: dict[str, np.ndarray]  # detector -> oriented scores of the evaluation rows
    evaluation: DetectionSet
    files: dict[str, Path] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)


def _is_supervised(detector: Any) -> bool:
    return callable(getattr(detector, "fit", None))


def _train_key(data: DetectionSet, train: Sequence[int]) -> str:
    digest = hashlib.sha256()
    for i in train:
        digest.update(f"{data.labels[i]}\t{data.texts[i]}\n".encode())
    return digest.hexdigest()[:16]


def run_detection(
    data: DetectionSet,
    detectors: Sequence[str] | dict[str, Any],
    out: Path | None,
    *,
    fprs: Sequence[float] = DEFAULT_FPRS,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 42,
    train_fraction: float = DEFAULT_TRAIN_FRACTION,
    batch_size: int = DEFAULT_BATCH,
    progress: bool = True,
    detector_options: dict[str, Any] | None = None,
    log: Any = print,
    protocol: str = "default",
    domain_column: str | None = None,
) -> DetectionRun:
    """Evaluate ``detectors`` (names for :func:`evaluators.arb.detectors.get_detector`, or
    ready detector objects by name) on ``data``; write files under ``out`` (if given).
    ``protocol="raid"`` replaces the bootstrap records by RAID's (:mod:`.raid`: per-domain
    thresholds on human texts, every combination of the group columns, null where a
    domain cannot reach the FPR target); ``domain_column`` names the domain group."""
    if protocol not in PROTOCOLS:
        raise StylebenchError(f"--protocol must be one of {', '.join(PROTOCOLS)}, got {protocol!r}")
    from evaluators.arb.detectors import get_detector, share_model_passes

    if isinstance(detectors, dict):
        built = dict(detectors)
    else:
        built = {name: get_detector(name, **(detector_options or {})) for name in detectors}
    share_model_passes(list(built.values()))
    supervised = [n for n, d in built.items() if _is_supervised(d)]
    split_meta: dict[str, Any] = {"supervised": supervised}
    leaks = dict(data.leaks)
    if supervised:
        train, test = train_test_index(data, train_fraction, seed)
        leaks |= near_duplicate_report(data.texts, train, test)
        leaks["held_out_copies_of_training_dropped"] = held_out_copies(data)
        split_meta |= {
            "rule": "split column"
            if data.splits is not None
            else "random split by group (--split-by)"
            if data.split_keys is not None
            else "label-stratified random split",
            "train_fraction": None if data.splits is not None else train_fraction,
            "seed": seed,
            "n_train": len(train),
            "n_test": len(test),
            "note": "every detector is evaluated on the held-out rows",
        }
        evaluation = data.subset(test)
        training = data.subset(train)
    else:
        evaluation, training = data, None
        split_meta["rule"] = "no supervised detector: every row is evaluated"
        leaks |= near_duplicate_report(data.texts)
    log(leak_summary(leaks))
    scores: dict[str, np.ndarray] = {}
    configs: dict[str, Any] = {}
    store_dir = None if out is None else Path(out) / "scores"
    for name, det in built.items():
        started = time.perf_counter()
        config = det.config()
        if name in supervised:
            assert training is not None
            det.fit(training.texts, training.labels)
            config = det.config() | {"training_rows": _train_key(data, train)}
        store = ScoreStore(store_dir, name, config)
        raw, reused = score_resumable(
            det, evaluation.texts, store, name=name, batch_size=batch_size, progress=progress
        )
        scores[name] = det.orientation * raw
        seconds = time.perf_counter() - started
        configs[name] = config | {"seconds": round(seconds, 2), "texts_reused": reused}
        log(
            f"{name}: {len(evaluation)} texts in {seconds:.1f} s"
            + (f" ({reused} read back from {store.path})" if reused else "")
        )
    labels = np.asarray(evaluation.labels)
    raid_meta: dict[str, Any] = {}
    if protocol == "raid":
        from evaluators.detect.raid import calibration_summary, raid_records

        records = []
        for name, s in scores.items():
            rows, calibration = raid_records(s, labels, evaluation.groups, domain_column, fprs)
            records += [{"detector": name, **r} for r in rows]
            raid_meta[name] = calibration_summary(calibration)
    else:
        records = [
            r
            for name, s in scores.items()
            for r in records_for(name, s, labels, evaluation.groups, fprs, n_resamples, seed)
        ]
    meta = {
        "data": {
            "name": data.name,
            "n_rows": len(data),
            "n_evaluated": len(evaluation),
            "label_column": data.label_column,
            "group_columns": list(data.groups),
            "dropped": data.dropped,
            "leaks": leaks,
        },
        "split": split_meta,
        "detectors": configs,
        "fprs": list(fprs),
        "protocol": protocol,
    }
    if protocol == "raid":
        meta["raid"] = {
            "domain_column": domain_column,
            "rule": "per-domain threshold on human texts only (largest FPR <= target); TPR of "
            "machine texts at their domain's threshold; null where a domain's human texts "
            "cannot reach the target; AUROC against the domain's human texts",
            "thresholds": raid_meta,
        }
    else:
        meta["bootstrap"] = {
            "n_resamples": n_resamples,
            "seed": seed,
            "method": "stratified percentile bootstrap (human and machine texts resampled separately)",
        }
    run = DetectionRun(records, scores, evaluation, meta=meta)
    if out is not None:
        out = Path(out)
        if protocol == "raid":
            from evaluators.detect.raid import write_raid_outputs

            run.files = write_raid_outputs(out, records, meta, fprs)
        else:
            run.files = write_outputs(out, records, meta, fprs)
        run.files["scores"] = _write_scores(out / "scores.csv", evaluation, scores)
        curves = {}
        for name, s in scores.items():
            fpr, tpr, _ = roc_curve(s, labels)
            auc = next(
                r["auroc"]
                for r in records
                if r["detector"] == name
                and (r.get("group") == OVERALL or all(r.get(g) == "all" for g in data.groups))
            )
            curves[name] = (fpr, tpr, auc)
        run.files["roc"] = plot_roc(
            curves,
            fprs,
            f"{data.name}: {int((labels == 0).sum())} human vs {int(labels.sum())} machine texts",
            out / "roc.png",
        )
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
