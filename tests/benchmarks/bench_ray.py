"""Overhead of the Ray path vs a serial run (not collected by pytest).

    python tests/benchmarks/bench_ray.py [--model minilm] [--model function-words]

8 small STEB datasets built from ../shared/corpora (5,943 unique texts, 12 task
results per model). For each model: ``stylebench run`` serially, then the same command
with ``--ray`` on a local 2-CPU cluster started by this script (loopback), first with
cold workers (they start and import stylebench during the run) and again with warm
ones (cold only for the first model: later models find the workers started, and pay
one model load per worker); all in this process, after the serial run has imported
everything, so the ratios charge the Ray path with all of its own costs. The cluster's start-up is
printed separately (a cluster normally runs already: ``--ray auto``). No embedding
cache, so every run encodes everything. Target: Ray (warm) / serial <= 1.2 on 2 cores.
"""

from __future__ import annotations

import argparse
import shutil
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
    main(["run", "--no-progress", "--no-cache", "--no-resume", *argv])
    return time.perf_counter() - start


def main() -> int:
    import contextlib
    import io

    import ray

    from evaluators.paths import corpora_dir
    from tests.scaling.small_datasets import build_small

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", action="append", default=None)
    models = parser.parse_args().model or ["function-words", "minilm"]
    corpora = corpora_dir()
    if corpora is None:
        sys.exit("needs ../shared/corpora")
    work = Path(tempfile.mkdtemp(prefix="sbbench"))
    folders = build_small(work / "built", corpora)
    data = [arg for folder in folders for arg in ("--dataset", folder)]
    start = time.perf_counter()
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _temp_dir=str(work / "ray"),
        _node_ip_address="127.0.0.1",
    )
    t_cluster = time.perf_counter() - start
    rows = []
    quiet = io.StringIO()
    try:
        for i, model in enumerate(models):
            with contextlib.redirect_stdout(quiet):
                t_serial = timed_run(["--model", model, *data, "--out", str(work / "serial")])
                ray_args = ["--model", model, *data, "--ray", "auto", "--out"]
                # cold workers only for the first model; later models find them started
                t_cold = timed_run([*ray_args, str(work / "ray1")]) if i == 0 else None
                t_warm = timed_run([*ray_args, str(work / "ray2")])
            rows.append((model, t_serial, t_cold, t_warm))
    finally:
        ray.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(folders)} datasets; local Ray cluster (2 CPUs) started in {t_cluster:.1f} s")
    ok = True
    for model, t_serial, t_cold, t_warm in rows:
        cold = f"ray cold {t_cold:6.1f} s ({t_cold / t_serial:.2f}x) | " if t_cold else ""
        print(
            f"{model:15s} serial {t_serial:6.1f} s | {cold}ray warm {t_warm:6.1f} s "
            f"({t_warm / t_serial:.2f}x, target <= {TARGET}x)"
        )
        ok &= t_warm / t_serial <= TARGET
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
