"""The leaderboard Space at the field's scale (issue 29; not collected by pytest).

    python tests/benchmarks/bench_leaderboard.py [--models 500] [--switches 20]

A synthetic results table (``tests/space/synthetic_table.py``: every model on the 138
(dataset, task) units of ``STEB(v1)``, 113 datasets and 5 task types, repeated for every
benchmark version holding a unit, as ``stylebench results table`` writes it) is written
as Parquet, then, on at most 2 cores (``taskset -c 0,1`` where the machine has more):

* **start**: the real ``spaces/stylebench/app.py`` in a fresh process, from ``Popen`` to
  ``GET /health`` answering 200 (table loaded, every view precomputed and self-checked,
  the page built, the server listening; the other tabs' warm-up then runs in the
  background and its end is timed too), beside the same Space without a table (the
  paper's rows only) measured in the same run; and the table's own share, load +
  precompute in a fresh interpreter. Target: under 10 s. ``uptime``'s load is printed
  with each figure.
* **switch**: ``/leaderboard_table`` through ``gradio_client`` (what a change of view or
  filter calls; the CSV and the plots follow in a chained event, timed separately), 20 different
  switches over views, benchmarks and filters, once the warm-up has finished: median and
  max. Target: median under 0.5 s.

The load average is printed: other jobs on the cores inflate every figure.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SPACE = REPO / "spaces" / "stylebench"
TARGET_START_S = 10.0
TARGET_SWITCH_S = 0.5
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
if str(SPACE) not in sys.path:
    sys.path.insert(0, str(SPACE))


def _cores() -> list[str]:
    if shutil.which("taskset") and (os.cpu_count() or 1) > 2:
        return ["taskset", "-c", "0,1"]
    return []


def _env(port: int, home: Path, table: Path | None) -> dict[str, str]:
    env = {
        **os.environ,
        "GRADIO_SERVER_NAME": "127.0.0.1",
        "GRADIO_SERVER_PORT": str(port),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
        "STYLEBENCH_SPACE_HOME": str(home),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    }
    env.pop("STYLEBENCH_LEADERBOARD_TABLE", None)
    if table is not None:
        env["STYLEBENCH_LEADERBOARD_TABLE"] = str(table)
    return env


def start_space(
    home: Path, table: Path | None, log: Path
) -> tuple[subprocess.Popen, str, float, float]:
    """The process, its URL, seconds to ``/health`` 200 and seconds to the warm-up's end."""
    from tests.space.server import free_port

    port = free_port()
    started = time.perf_counter()
    with log.open("w") as handle:
        process = subprocess.Popen(
            [*_cores(), sys.executable, str(SPACE / "app.py")],
            cwd=REPO,
            env=_env(port, home, table),
            stdout=handle,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/"
    while True:
        if process.poll() is not None:
            raise SystemExit(f"the Space exited:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "health", timeout=2) as response:
                if response.status == 200:
                    ready = time.perf_counter() - started
                    return process, url, ready, wait_warm(url, started)
        except OSError:
            pass
        if time.perf_counter() - started > 300:
            process.kill()
            raise SystemExit("the Space did not answer /health in 300 s")
        time.sleep(0.1)


def wait_warm(url: str, started: float, limit: float = 300.0) -> float:
    """Seconds from the start until ``/health`` reports the background warm-up done."""
    import json

    while time.perf_counter() - started < limit:
        with urllib.request.urlopen(url + "health", timeout=5) as response:
            warm = json.loads(response.read()).get("warm_up", {})
        if warm.get("status") in ("done", "failed"):
            if warm["status"] == "failed":
                print(f"warm-up failed: {warm.get('error')}")
            return time.perf_counter() - started
        time.sleep(0.2)
    raise SystemExit(f"the warm-up did not finish in {limit:.0f} s")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def table_share(table: Path) -> float:
    """Load + precompute of the table alone, in a fresh interpreter on the same cores."""
    code = (
        "import time; t = time.perf_counter()\n"
        "from stylebench_space.leaderboard_data import get_leaderboard\n"
        f"board = get_leaderboard({str(table)!r})\n"
        "assert board.error is None, board.error\n"
        "print(time.perf_counter() - t)\n"
    )
    done = subprocess.run(
        [*_cores(), sys.executable, "-c", code],
        cwd=SPACE,
        env=_env(0, Path(tempfile.gettempdir()), None),
        check=True,
        capture_output=True,
        text=True,
    )
    return float(done.stdout.strip().splitlines()[-1])


def switches(n: int) -> list[tuple]:
    """``n`` different (benchmark, view, open weights only, size, task types) switches."""
    from stylebench_space.leaderboard_data import SIZES

    steb = [
        "all_to_all_pairs",
        "clustering",
        "order_alignment",
        "predefined_pairs",
        "probing",
        "retrieval",
    ]
    views = [
        "operational",
        "definitional",
        "application",
        "multilingual",
        "by task type",
        "per dataset",
    ]
    sizes = list(SIZES)
    out: list[tuple] = []
    i = 0
    while len(out) < n:
        view = views[i % len(views)]
        open_only = bool((i // len(views)) % 2)
        size = sizes[(i // 2) % len(sizes)]
        types = steb if i % 3 else ["clustering", "retrieval", "order_alignment"]
        case = ("STEB(v1)", view, open_only, size, types)
        if i % 5 == 4:
            case = ("Valla(v1)", "by task type", open_only, size, ["aa", "av"])
        if i % 7 == 6:
            case = (
                "STEB-lite(v1)",
                "per dataset",
                open_only,
                size,
                [t for t in steb if t != "probing"],
            )
        if case not in out:
            out.append(case)
        i += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=500)
    parser.add_argument("--switches", type=int, default=20)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from gradio_client import Client

    from tests.space.synthetic_table import synthetic_table

    with tempfile.TemporaryDirectory(prefix="bench-leaderboard-") as tmp:
        root = Path(tmp)
        frame = synthetic_table(n_models=args.models)
        table = root / "table.parquet"
        frame.to_parquet(table, index=False)
        steb = frame[frame["benchmark"] == "STEB"]
        print(
            f"table: {len(frame):,} rows, {frame['model'].nunique()} models, STEB(v1): "
            f"{steb['dataset'].nunique()} datasets, {steb['task_type'].nunique()} task types, "
            f"{frame.groupby(['benchmark', 'benchmark_version']).ngroups} benchmark versions; "
            f"{table.stat().st_size / 1e6:.1f} MB Parquet"
        )
        print(
            f"cores: {' '.join(_cores()) or f'all {os.cpu_count()} (no taskset needed)'}; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        share = table_share(table)
        base_process, _, base_start, base_warm = start_space(
            root / "home0", None, root / "base.log"
        )
        stop(base_process)
        process, url, start, warm = start_space(root / "home", table, root / "space.log")
        try:
            client = Client(url, verbose=False)
            cases = switches(args.switches)
            times, sizes = [], []
            for case in cases:
                t = time.perf_counter()
                result, _caption = client.predict(*case, api_name="/leaderboard_table")
                times.append(time.perf_counter() - t)
                sizes.append(len(result["data"]) * len(result["headers"]))
            again = []
            for case in cases[:5]:
                t = time.perf_counter()
                client.predict(*case, api_name="/leaderboard_table")
                again.append(time.perf_counter() - t)
            plots = []
            for case in cases[:5]:
                t = time.perf_counter()
                client.predict(*case, api_name="/leaderboard_files")
                plots.append(time.perf_counter() - t)
        finally:
            stop(process)
    print(
        f"start to /health 200: {start:.2f} s with the table, {base_start:.2f} s without "
        f"(paper rows only); the table's own load + precompute: {share:.2f} s "
        f"(target < {TARGET_START_S:.0f} s: {'met' if start < TARGET_START_S else 'NOT met'})"
    )
    print(
        f"background warm-up of the other tabs (evaluate, transformers) done {warm:.2f} s "
        f"after the start ({base_warm:.2f} s without the table); the switches below ran after it"
    )
    median = statistics.median(times)
    print(
        f"switch (/leaderboard_table, {len(times)} different views/filters): median "
        f"{median:.3f} s, max {max(times):.3f} s, largest answer {max(sizes):,} cells "
        f"(target median < {TARGET_SWITCH_S} s: {'met' if median < TARGET_SWITCH_S else 'NOT met'})"
    )
    print(
        f"repeated switch (remembered): median {statistics.median(again):.3f} s; "
        f"CSV + plots of a switch (/leaderboard_files, chained): median "
        f"{statistics.median(plots):.3f} s"
    )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
