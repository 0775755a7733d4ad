"""Overhead of the Ray path vs a serial run (not collected by pytest).

    python tests/benchmarks/bench_ray.py [--model minilm] [--model function-words] [--repeat 3]

8 small STEB datasets (5 repo folders, 12 task results per model) built from
../shared/corpora, no embedding cache (every run encodes everything). One 2-CPU Ray
cluster runs throughout, as a cluster normally does (``tests/scaling/ray_head.py``:
loopback, token authentication; its start is printed, not counted). For each model,
interleaved over the repeats:

1. **As a user runs them** (the target): ``stylebench run`` in a fresh interpreter vs
   ``stylebench run --ray <address>`` in a fresh interpreter. Each pays its imports and
   model loads: the serial run once, the Ray run once in its driver and once in each
   worker (a new driver is a new Ray job, so its workers start cold).
2. **One driver, warm** (the target): in this process, after the encoder's libraries
   are imported, a serial run vs a Ray run whose workers already ran one: Ray's own
   cost per run (planning, shipping, scheduling, results) with nothing imported again.
3. **One driver, cold workers** (no target): the first Ray run after this driver
   (re)joins the cluster vs the serial run of 2. The workers import the encoder's
   libraries and load the model during the run while this driver had done so before
   the clock started; the line prints that start-up (a job's first run minus its
   second in a fresh interpreter with one thread), most of the difference on a short
   run; starting the worker processes comes on top.

Target: lines 1 and 2 <= 1.2x on 2 cores (median ratio and best/best over the
repeats). The load average before and after is printed: other jobs on the cores make
every figure noisy.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
TARGET = 1.2
RUN = ["run", "--no-progress", "--no-cache", "--no-resume"]


def timed_run(argv: list[str]) -> float:
    """Seconds of ``stylebench run`` in this process."""
    from evaluators.cli import main

    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        main([*RUN, *argv])
    return time.perf_counter() - start


def fresh(argv: list[str], env: dict[str, str] | None = None) -> float:
    """Seconds of a command in a fresh interpreter (pays all of its imports)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, cwd=REPO, env=env
    )
    if done.returncode:
        sys.exit(f"failed: {' '.join(argv[:6])} ...\n{done.stderr[-2000:]}")
    return time.perf_counter() - start


def worker_start(model: str, folder: str, out: Path) -> float:
    """What a cold worker pays on its first job and not on later ones: the first run
    of one job's body (``run_job``) minus a second run of it, in a fresh interpreter
    with one thread (stylebench's runner, ``datasets``, scikit-learn, the encoder's
    libraries, the model). Starting the worker process itself is not included."""
    import pickle

    from evaluators.distributed.ray_runner import _job_fields, job_config, plan_jobs
    from evaluators.run.runner import plan_tasks
    from evaluators.run.service import RunConfig

    fields = _job_fields(plan_jobs([model], plan_tasks([folder]))[0])
    configs = [  # what run_on_ray ships, pickled as Ray sends it
        pickle.dumps(job_config(RunConfig(chunk=True, batch_size=32, out_dir=Path(f"{out}{i}"))))
        for i in range(2)
    ]
    code = (
        "import pickle, time\n"
        "from evaluators.distributed.ray_runner import run_job\n"
        "times = []\n"
        f"for i, shipped in enumerate({configs!r}):\n"
        "    t = time.perf_counter()\n"
        f"    run_job({fields!r}, None, pickle.loads(shipped), '.')\n"
        "    times.append(time.perf_counter() - t)\n"
        "print(times[0] - times[1])\n"
    )
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env
    )
    if done.returncode:
        sys.exit(f"worker start-up probe failed:\n{done.stderr[-2000:]}")
    return float(done.stdout.strip().splitlines()[-1])


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def ratio_line(name: str, serial: list[float], ray: list[float]) -> tuple[str, bool]:
    median = statistics.median(ray) / statistics.median(serial)
    best = min(ray) / min(serial)  # the quiet-machine estimate
    text = f"serial {_spread(serial)} | ray {_spread(ray)} -> {median:.2f}x (best {best:.2f}x)"
    return f"  {name:34s} {text}", max(median, best) <= TARGET


def main() -> int:
    from evaluators.paths import corpora_dir
    from tests.scaling.ray_head import RayHead
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
    ok = True
    try:
        folders = build_small(work / "built", corpora)
        data = [arg for folder in folders for arg in ("--dataset", folder)]
        with RayHead(num_cpus=2) as head:
            os.environ.update(head.env)  # before ray is imported (loopback switch)
            import ray

            # untimed: imports the CLI, runner and tasks once (random vectors)
            timed_run(["--model", "random", *data, "--out", str(work / "warmup")])
            user_env = {**os.environ, **head.env, "HF_HUB_OFFLINE": "1"}
            print(
                f"{len(folders)} dataset folders (8 datasets, 12 results per model); Ray "
                f"cluster of 2 CPUs started in {head.seconds_to_start:.1f} s (not counted); "
                f"load average before: {load()}"
            )
            for model in models:
                rows: dict[str, list[float]] = {
                    k: [] for k in ("fresh", "fresh_ray", "serial", "cold", "warm")
                }
                for i in range(args.repeat):
                    argv = ["--model", model, *data, "--out"]
                    rows["fresh"].append(
                        fresh(["-m", "evaluators.cli", *RUN, *argv, str(work / f"f{i}")], user_env)
                    )
                    rows["fresh_ray"].append(
                        fresh(
                            [
                                "-m",
                                "evaluators.cli",
                                *RUN,
                                *argv,
                                str(work / f"fr{i}"),
                                "--ray",
                                head.address,
                            ],
                            user_env,
                        )
                    )
                    rows["serial"].append(timed_run([*argv, str(work / f"s{i}")]))
                    ray.init(address=head.address, include_dashboard=False, log_to_driver=False)
                    try:  # a new job: its workers start cold
                        ray_argv = [*argv[:-1], "--ray", "auto", "--out"]
                        rows["cold"].append(timed_run([*ray_argv, str(work / f"c{i}")]))
                        rows["warm"].append(timed_run([*ray_argv, str(work / f"w{i}")]))
                    finally:
                        ray.shutdown()
                started = worker_start(model, folders[0], work / "probe")
                print(f"{model}:")
                line, good = ratio_line(
                    "1. as a user runs them (fresh)", rows["fresh"], rows["fresh_ray"]
                )
                ok &= good
                print(line + f"  (target <= {TARGET}x)")
                line, good = ratio_line("2. one driver, warm workers", rows["serial"], rows["warm"])
                ok &= good
                print(line + f"  (target <= {TARGET}x)")
                line, _ = ratio_line("3. one driver, cold workers", rows["serial"], rows["cold"])
                print(
                    line + f"  (no target: a worker's first job costs {started:.2f} s more than "
                    "the next (imports, model load; 1 thread, fresh interpreter), plus "
                    "starting the worker process)"
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
