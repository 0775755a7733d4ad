"""Overhead of the Ray path vs a serial run (not collected by pytest).

    python tests/benchmarks/bench_ray.py [--model minilm] [--model function-words] [--repeat 3]

8 small STEB datasets (5 repo folders, 12 task results per model) built from
../shared/corpora. For each model and repeat: ``stylebench run`` serially, then a fresh
local 2-CPU Ray cluster (loopback; its start is printed apart, a cluster normally runs
already: ``--ray auto``), on which the same command with ``--ray auto`` runs first with
cold workers (they import stylebench and load the model during the run) and again
with warm ones. Everything runs in this process after one untimed warm-up run has
imported stylebench's own modules, so both timed paths start from the same driver
(the serial run still imports the encoder's libraries and loads the model itself the
first time; each cold Ray worker does the same). No embedding cache, so every run
encodes everything. Target: Ray cold and warm / serial <= 1.2 on 2 cores (the median
ratio and best / best over the repeats). A last line per model compares the commands as
a user runs them: ``stylebench run`` in a fresh interpreter (its imports and model load
included) vs the cold Ray run plus its driver's imports (stylebench, ray; joining a
running cluster is not included). The load average before and after is printed: other
jobs on the cores make every figure noisy.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
TARGET = 1.2


def timed_run(argv: list[str]) -> float:
    from evaluators.cli import main

    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        main(["run", "--no-progress", "--no-cache", "--no-resume", *argv])
    return time.perf_counter() - start


def fresh(argv: list[str]) -> float:
    """Seconds of a command in a fresh interpreter (pays all of its imports)."""
    import subprocess

    start = time.perf_counter()
    subprocess.run([sys.executable, *argv], check=True, capture_output=True, cwd=REPO)
    return time.perf_counter() - start


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    import ray

    from evaluators.paths import corpora_dir
    from tests.scaling.small_datasets import build_small

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", action="append", default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    models = args.model or ["function-words", "minilm"]
    corpora = corpora_dir()
    if corpora is None:
        sys.exit("needs ../shared/corpora")
    work = Path(tempfile.mkdtemp(prefix="sbbench"))
    folders = build_small(work / "built", corpora)
    data = [arg for folder in folders for arg in ("--dataset", folder)]
    # untimed: imports the CLI, runner and tasks once (random vectors: no model library)
    timed_run(["--model", "random", *data, "--out", str(work / "warmup")])
    print(f"{len(folders)} dataset folders (8 datasets); load average before: {load()}")
    ok = True
    try:
        for model in models:
            rows: dict[str, list[float]] = {
                k: [] for k in ("serial", "cold", "warm", "cluster", "fresh", "driver")
            }
            for i in range(args.repeat):
                run = ["-m", "evaluators.cli", "run", "--no-progress", "--no-cache", "--no-resume"]
                rows["fresh"].append(
                    fresh([*run, "--model", model, *data, "--out", str(work / f"fresh{i}")])
                )
                rows["driver"].append(
                    fresh(["-c", "import evaluators.cli, evaluators.runner, ray"])
                )
                rows["serial"].append(
                    timed_run(["--model", model, *data, "--out", str(work / f"serial{i}")])
                )
                start = time.perf_counter()
                ray.init(
                    num_cpus=2,
                    include_dashboard=False,
                    log_to_driver=False,
                    _temp_dir=str(work / "ray"),
                    _node_ip_address="127.0.0.1",
                )
                rows["cluster"].append(time.perf_counter() - start)
                try:
                    ray_args = ["--model", model, *data, "--ray", "auto", "--out"]
                    rows["cold"].append(timed_run([*ray_args, str(work / f"cold{i}")]))
                    rows["warm"].append(timed_run([*ray_args, str(work / f"warm{i}")]))
                finally:
                    ray.shutdown()
                    shutil.rmtree(work / "ray", ignore_errors=True)
            serial = statistics.median(rows["serial"])
            line = [f"{model:15s} serial {_spread(rows['serial'])}"]
            for kind in ("cold", "warm"):
                ratio = statistics.median(rows[kind]) / serial
                best = min(rows[kind]) / min(rows["serial"])  # the quiet-machine estimate
                ok &= max(ratio, best) <= TARGET
                line.append(f"ray {kind} {_spread(rows[kind])} -> {ratio:.2f}x (best {best:.2f}x)")
            print(" | ".join(line) + f" (median ratio, best/best; target <= {TARGET}x)")
            print(f"{'':15s} cluster start (not counted) {_spread(rows['cluster'])}")
            # as a user runs them: `stylebench run` in a fresh interpreter (its imports and
            # model load included) vs the cold Ray run plus what its driver imports first
            # (stylebench, ray); joining a running cluster is not included
            fresh_s = statistics.median(rows["fresh"])
            user = [c + d for c, d in zip(rows["cold"], rows["driver"], strict=True)]
            print(
                f"{'':15s} fresh processes: serial {_spread(rows['fresh'])} | ray cold + "
                f"driver imports {_spread(user)} -> {statistics.median(user) / fresh_s:.2f}x"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"load average after: {load()}")
    return 0 if ok else 1


def _spread(times: list[float]) -> str:
    """``median s (min-max)`` of the repeats."""
    return f"{statistics.median(times):5.2f} s ({min(times):.2f}-{max(times):.2f})"


if __name__ == "__main__":
    sys.exit(main())
