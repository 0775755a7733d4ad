"""Run one Valla method on one Valla dataset split and write a result JSON.

Training data for a test split is train + validation (Valla's Ngram and PPM scripts fold
the validation set into training for the final test run); for ``validation`` it is train.
AA is scored with macro-accuracy, AV with ROC AUC (plus PAN's c@1, F0.5u, F1 and Brier
where the scores are probabilities), all from :mod:`evaluators.metric_math`.
"""

from __future__ import annotations

import contextlib
import json
import platform
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import StylebenchError, UnknownNameError
from dataset_scripts.core.hub_folder import BUILD_INFO, read_build_info
from dataset_scripts.core.spec import folder_name

METHODS = ("ngram", "ppm", "bert", "siamese")
FORMULATIONS = ("aa", "av")


@dataclass
class RunRequest:
    """What to run; ``options`` go to the method's config dataclass."""

    method: str
    dataset: str
    formulation: str = "aa"
    split: str = "test"
    options: dict[str, Any] = field(default_factory=dict)
    limit: int | None = None  # evaluate every k-th row so that at most ``limit`` remain
    train_limit: int | None = None
    progress: bool = False


def model_key(method: str, formulation: str, options: Mapping[str, Any]) -> str:
    """The paper's row name for a run (``Ngram_A``, ``BERT_V w/HNM``, ...)."""
    if method == "siamese":
        return "BERT_V w/HNM" if options.get("loss") == "triplet" else "BERT_V"
    base = {"ngram": "Ngram", "ppm": "PPM", "bert": "BERT"}[method]
    return f"{base}_{'A' if formulation == 'aa' else 'V'}"


def resolve_dataset(ref: str, built_root: Path) -> tuple[Path, str, str]:
    """A built folder for ``ref`` (a folder, or a registered id built on demand from its
    raw download under the shared corpora); returns (folder, hub id, paper table name)."""
    from dataset_scripts.registry import all_datasets

    path = Path(ref)
    if path.is_dir():
        info = _build_info(path)
        hub_id = info.get("hub_id", path.name)
        spec = all_datasets().get(hub_id)
        return path, hub_id, ((spec.table_name or hub_id) if spec else hub_id)
    datasets = all_datasets()
    if ref not in datasets or not ref.startswith("valla/"):
        valla = sorted(k for k in datasets if k.startswith("valla/"))
        raise UnknownNameError(f"unknown Valla dataset {ref!r}; known: {', '.join(valla)}")
    spec = datasets[ref]
    folder = built_root / spec.slug
    if not (folder / BUILD_INFO).exists():
        from dataset_scripts.build import build_dataset
        from evaluators.paths import corpora_dir

        corpora = corpora_dir()
        raw = corpora / spec.raw_hint if corpora and spec.raw_hint else None
        if raw is None or not raw.exists():
            raise StylebenchError(
                f"{ref} is not built under {built_root} and its raw download is not in the "
                f"shared corpora: run `stylebench build {ref} --raw <download>` first"
            )
        build_dataset(spec, raw, folder)
    return folder, ref, spec.table_name or ref


def _build_info(folder: Path) -> dict[str, Any]:
    return read_build_info(folder)


def _rows(folder: Path, config: str, split: str) -> list[dict[str, Any]]:
    from evaluators.data import load_table

    return load_table(str(folder), config, split).rows


def _thin(rows: list[dict[str, Any]], limit: int | None) -> list[dict[str, Any]]:
    """Every k-th row (deterministic, spreads over authors in id order)."""
    if not limit or len(rows) <= limit:
        return rows
    step = -(-len(rows) // limit)
    return rows[::step]


def _training(folder: Path, config: str, split: str) -> list[dict[str, Any]]:
    rows = _rows(folder, config, "train")
    if split != "validation":
        # Valla folds the validation set into training for the final test runs; a
        # dataset without a validation split trains on train alone
        with contextlib.suppress(StylebenchError):
            rows = rows + _rows(folder, config, "validation")
    return rows


def _config(method: str, options: Mapping[str, Any]) -> Any:
    if method == "ngram":
        from evaluators.valla.ngram import NgramConfig as Config
    elif method == "ppm":
        from evaluators.valla.ppm import PPMConfig as Config
    else:
        from evaluators.valla.bert import BertConfig as Config
    known = set(Config.__dataclass_fields__)
    unknown = sorted(set(options) - known)
    if unknown:
        raise StylebenchError(f"{method}: unknown option(s) {unknown}; known: {sorted(known)}")
    return Config(**options)


def run_aa(
    method: str, config: Any, train: list[dict], test: list[dict], progress: bool
) -> list[str]:
    """Fit ``method`` on AA training rows and predict the author of each test row."""
    texts, authors = [r["text"] for r in train], [r["label"] for r in train]
    unknown = [r["text"] for r in test]
    if method == "ngram":
        from evaluators.valla.ngram import NgramAA

        return NgramAA(config).fit(texts, authors).predict(unknown)
    if method == "ppm":
        from evaluators.valla.ppm import PPMAA

        return PPMAA(config).fit(texts, authors).predict(unknown, progress)
    if method == "bert":
        from evaluators.valla.bert import BertAA

        return BertAA(config).fit(texts, authors, progress).predict(unknown, progress)
    from evaluators.valla.bert import SiameseBert

    model = SiameseBert(config)
    if config.loss == "triplet":
        model.fit_authors(texts, authors, progress)
    else:
        from dataset_scripts.valla.splits import av_pairs

        pairs = av_pairs(train, "train", config.seed)
        model.fit_pairs(
            [p["text1"] for p in pairs],
            [p["text2"] for p in pairs],
            [p["label"] for p in pairs],
            progress,
        )
    model.fit_profiles(texts, authors, progress)
    return model.predict(unknown, progress)


def run_av(
    method: str,
    config: Any,
    train: list[dict],
    test: list[dict],
    progress: bool,
    train_aa: list[dict],
) -> Any:
    """Fit ``method`` on AV training pairs and score each test pair (higher = same)."""
    t1, t2, y = (
        [r["text1"] for r in train],
        [r["text2"] for r in train],
        [r["label"] for r in train],
    )
    u1, u2 = [r["text1"] for r in test], [r["text2"] for r in test]
    if method == "ngram":
        from evaluators.valla.ngram import NgramAV

        return NgramAV(config).fit(t1, t2, y).score(u1, u2)
    if method == "ppm":
        from evaluators.valla.ppm import PPMAV

        return PPMAV(config).fit(t1, t2, y).score(u1, u2)
    if method == "bert":
        raise StylebenchError("the paper's AV BERT is the Siamese model: use --method siamese")
    from evaluators.valla.bert import SiameseBert

    model = SiameseBert(config)
    if config.loss == "triplet":
        model.fit_authors([r["text"] for r in train_aa], [r["label"] for r in train_aa], progress)
    else:
        model.fit_pairs(t1, t2, y, progress)
    return model.score(u1, u2, progress)


def run(request: RunRequest, built_root: Path, out_dir: Path | None = None) -> dict[str, Any]:
    """Run, score and (with ``out_dir``) save one result; returns the result record."""
    from evaluators.metric_math import macro_accuracy, pan_verification, roc_auc

    if request.method not in METHODS:
        raise UnknownNameError(f"unknown method {request.method!r}; known: {', '.join(METHODS)}")
    if request.formulation not in FORMULATIONS:
        raise UnknownNameError(f"formulation must be aa or av, not {request.formulation!r}")
    folder, hub_id, table_name = resolve_dataset(request.dataset, built_root)
    config = _config(request.method, request.options)
    key = model_key(request.method, request.formulation, request.options)
    started = time.perf_counter()
    cpu_started = _cpu_seconds()
    if request.formulation == "aa":
        train = _thin(_training(folder, "labelled_texts", request.split), request.train_limit)
        test = _thin(_rows(folder, "labelled_texts", request.split), request.limit)
        predictions = run_aa(request.method, config, train, test, request.progress)
        scores = macro_accuracy(predictions, [r["label"] for r in test])
        metric, value = "macro_accuracy", scores["macro_accuracy"]
        scores = {"macro_accuracy": value, "accuracy": scores["accuracy"]}
    else:
        train = _thin(_training(folder, "text_pairs", request.split), request.train_limit)
        test = _thin(_rows(folder, "text_pairs", request.split), request.limit)
        train_aa = (
            _training(folder, "labelled_texts", request.split)
            if request.method == "siamese" and request.options.get("loss") == "triplet"
            else []
        )
        raw_scores = run_av(request.method, config, train, test, request.progress, train_aa)
        labels = [r["label"] for r in test]
        metric, value = "auc", roc_auc(raw_scores, labels)
        scores = {"auc": value}
        probabilities = request.method == "ngram" or (
            request.method == "ppm" and config.coder == "teahan"
        )
        if probabilities:  # P(same author): PAN's threshold metrics apply
            scores.update({f"pan_{k}": v for k, v in pan_verification(raw_scores, labels).items()})
    runtime = time.perf_counter() - started
    cpu = _cpu_seconds() - cpu_started
    record = {
        "kind": "valla_result",
        "dataset": hub_id,
        "table_name": table_name,
        "folder": str(folder),
        "method": request.method,
        "model": key,
        "formulation": request.formulation,
        "split": request.split,
        "metric": metric,
        "score": float(value),
        "scores": {k: float(v) for k, v in scores.items()},
        "n_train": len(train),
        "n_eval": len(test),
        "limit": request.limit,
        "train_limit": request.train_limit,
        "runtime_s": round(runtime, 1),
        "cpu_s": round(cpu, 1),
        "config": config.as_dict(),
        "host": {"python": platform.python_version(), "machine": platform.machine()},
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    if out_dir is not None:
        record["path"] = str(save(record, out_dir))
    return record


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (PPM's workers), in seconds:
    on a shared machine it says more about a method's cost than wall time."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def result_name(record: Mapping[str, Any]) -> str:
    safe = record["model"].replace(" ", "_").replace("/", "-")
    return f"{folder_name(record['dataset'])}__{safe}__{record['split']}.json"


def save(record: Mapping[str, Any], out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / result_name(record)
    path.write_text(json.dumps(dict(record), indent=2, sort_keys=True, default=str))
    return path


def load_results(out_dir: Path) -> list[dict[str, Any]]:
    """Every Valla result JSON under ``out_dir`` (others are ignored)."""
    records = []
    for path in sorted(Path(out_dir).glob("*.json")) if Path(out_dir).is_dir() else []:
        try:
            data = json.loads(path.read_text())
        except json.JSONDecodeError as error:
            raise StylebenchError(f"{path}: not JSON ({error})") from None
        if isinstance(data, dict) and data.get("kind") == "valla_result":
            data["path"] = str(path)
            records.append(data)
    return records
