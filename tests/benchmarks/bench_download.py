"""``stylebench build --all --download`` from a local server (issue 40; not collected by
pytest).

    python tests/benchmarks/bench_download.py [--repeat 3]

Serves, from 127.0.0.1, every source whose raw copy is in ``../shared/corpora`` in its
host's layout under a mirror (``tests/download/hosts.py``, which serves a gzip'ed copy
as the original files), then:

1. **Client throughput**: the same files fetched one after another by our HTTP client
   (``dataset_scripts.sources.http.fetch``, in a process of its own, its loop timed) and
   by one ``curl`` process given them all (its connection reused, as ours is), paired in
   the same run ``--repeat`` times: the median of ours/curl bytes per second (target: at
   least 0.8x), the range, and each client's CPU seconds (what decides on busy cores).
2. **The whole command**: ``stylebench build --all --download --mirror ...`` in a fresh
   interpreter with an empty cache, and the split it prints: fetch / verify / extract /
   build seconds (fetch, verify and extract are summed over the sources, which run four
   at a time, so their sum may exceed the wall time), the bytes fetched, and the table's
   built / manual / failed counts.

The load average is printed: other jobs on the cores change every figure.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
TARGET_RATIO = 0.8


def _hosts(corpora: Path):
    from dataset_scripts.registry import all_sources
    from tests.download.hosts import Hosts

    hosts = Hosts()
    served = []
    for name, source in sorted(all_sources().items()):
        folder = corpora / name
        if not folder.is_dir() or source.gated:
            continue
        hosts.add_source(source, folder)
        served.append(name)
    return hosts, served


_OURS = """
import resource, sys, time
from pathlib import Path
from dataset_scripts.sources.http import fetch
work, urls = Path(sys.argv[1]), sys.argv[2:]
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
t0, c0 = time.perf_counter(), cpu()
for i, url in enumerate(urls):
    fetch(url, work / f"{i}.bin")
print(time.perf_counter() - t0, cpu() - c0)
"""


def _children_cpu() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _throughput(hosts, repeat: int, work: Path) -> dict[str, list[float]]:
    """Per run: the wall seconds and CPU seconds of each client on the same files."""
    paths = sorted(p for p in hosts.files if p.startswith("/mirror/"))
    got: dict[str, list[float]] = {"ours": [], "curl": [], "ours_cpu": [], "curl_cpu": []}
    for _ in range(repeat):
        for tool in ("ours", "curl"):
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True)
            if tool == "ours":  # in a process of its own, as curl (the server holds
                # this one's GIL); the loop alone is timed, not the interpreter's start
                urls = [f"{hosts.url}{p}" for p in paths]
                done = subprocess.run(
                    [sys.executable, "-c", _OURS, str(work), *urls],
                    env={**os.environ, "PYTHONPATH": str(REPO)},
                    capture_output=True, text=True, check=True,
                )  # fmt: skip
                wall, cpu = map(float, done.stdout.split())
            else:  # one curl for all files: one process, its connection kept alive
                argv = ["curl", "-sS", "--fail"]
                for i, path in enumerate(paths):
                    argv += ["-o", str(work / f"{i}.bin"), f"{hosts.url}{path}"]
                t0, c0 = time.perf_counter(), _children_cpu()
                subprocess.run(argv, check=True)
                wall, cpu = time.perf_counter() - t0, _children_cpu() - c0
            got[tool].append(wall)
            got[f"{tool}_cpu"].append(cpu)
    return got


def _report_failures(out: str, served: set[str]) -> None:
    """The table's failed rows: those of a source not served here (no copy in
    ../shared/corpora: the mirror answers 404) counted, every other one printed."""
    from dataset_scripts.registry import all_datasets, source_of

    sources = {
        hub_id: (source.name if (source := source_of(spec)) else "")
        for hub_id, spec in all_datasets().items()
    }
    unserved, real = 0, []
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) < 4 or cells[2] != "failed":
            continue
        if sources.get(cells[1], "") not in served:
            unserved += 1
        else:
            real.append(f"{cells[1]}: {cells[3][:300]}")
    print(f"  failed: {unserved} whose source has no copy here (not served), {len(real)} other")
    for line in real:
        print(f"    {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--client-only", action="store_true", help="skip the build")
    args = parser.parse_args()
    from evaluators.paths import corpora_dir
    from tests.download.hosts import serve

    corpora = corpora_dir()
    if corpora is None:
        sys.exit("../shared/corpora is not here")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    hosts, served = _hosts(corpora)
    server = serve(hosts)
    next(server)
    work = Path(tempfile.mkdtemp(prefix="bench-download-"))
    try:
        got = _throughput(hosts, args.repeat, work / "throughput")
        paths = [p for p in hosts.files if p.startswith("/mirror/")]
        total = sum(len(hosts.files[p]) for p in paths)
        ratios = sorted(c / o for o, c in zip(got["ours"], got["curl"], strict=True))
        median = ratios[len(ratios) // 2]
        print(
            f"client: {len(paths)} files, {total / 1e6:.1f} MB, one after another, "
            f"{args.repeat} paired runs: ours {total / min(got['ours']) / 1e6:.0f} MB/s, curl "
            f"{total / min(got['curl']) / 1e6:.0f} MB/s at best; ours/curl bytes per second "
            f"median {median:.2f}x (range {ratios[0]:.2f}-{ratios[-1]:.2f}; target >= "
            f"{TARGET_RATIO}x); CPU seconds ours {min(got['ours_cpu']):.2f}, curl "
            f"{min(got['curl_cpu']):.2f}"
        )
        if args.client_only:
            return
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),
            "STYLEBENCH_CACHE": str(work / "cache"),
            "HF_HUB_OFFLINE": "1",
            "TOKENIZERS_PARALLELISM": "false",
            "COLUMNS": "1000",  # whole rows in the table
        }
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", "from evaluators.cli import main; main()", "build", "--all",
             "--download", "--mirror", f"{hosts.url}/mirror", "--built-root", str(work / "built"),
             "--no-progress", "--accept-terms"],
            env=env, capture_output=True, text=True, cwd=work,
        )  # fmt: skip
        wall = time.perf_counter() - t0
        out = done.stdout
        split = re.search(r"time: fetch .*", out)
        counts = re.search(r"(\d+) built, (\d+) need a manual step, (\d+) failed", out)
        print(
            f"build --all --download: {len(served)} sources served, exit {done.returncode}, {wall:.1f} s wall"
        )
        print(f"  {counts.group(0) if counts else 'no table'}")
        print(f"  {split.group(0) if split else 'no time split'}")
        _report_failures(out, set(served))
        if done.returncode not in (0, 2):
            print(done.stderr[-2000:])
    finally:
        next(server, None)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
