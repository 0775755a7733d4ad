"""The Space's memory and charts folder under many ``/run_embedding`` requests (issue 26,
item 9; not collected by pytest).

    python tests/benchmarks/bench_space_memory.py [--requests 2000] [--workers 4]

Starts the real Space (``spaces/stylebench/app.py``) on 127.0.0.1 in a temporary home,
sends ``--requests`` mixed requests (three encoders, single tasks and all tasks of the
demo suite, some invalid ones) from ``--workers`` visitors, and prints the server's
resident memory (its process tree, psutil) after the first 100 requests and after all of
them, the difference, the largest figure seen, and the number of files in the Space's
charts folder and in Gradio's file cache. Must hold (issue 26): memory after all requests
within 200 MB of memory after the first 100; the charts folder bounded
(``embedding.MAX_CHARTS``). The load average is printed: other jobs on the cores slow the
requests, not the memory figures.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

DEMO = "stylebench/demo (embedded demo suite)"
LIMIT_MB = 200.0
MIX = [
    ("function-words", [DEMO], "", ["clustering"]),
    ("function-words", [DEMO], "", []),
    ("stylometric", [DEMO], "", ["retrieval"]),
    ("tfidf-ngrams", [DEMO], "", ["all_to_all_pairs"]),
    ("function-words", [], "", ["clustering"]),  # invalid: no dataset
    ("stylometric", [DEMO], "", ["order_alignment", "probing"]),
]


def rss_mb(pid: int) -> float:
    import psutil

    process = psutil.Process(pid)
    total = process.memory_info().rss
    for child in process.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            total += child.memory_info().rss
    return total / 2**20


def count_files(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0


def main() -> None:
    from gradio_client import Client

    from tests.space.server import running_space

    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--cache-seconds", type=int, default=60)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-space-memory-"))
    home, gradio_tmp = work / "home", work / "gradio"
    env = {
        "STYLEBENCH_SPACE_HOME": str(home),
        "GRADIO_TEMP_DIR": str(gradio_tmp),
        # Gradio's cache sweep at a bench's time scale (the Space's default age is 30 min)
        "STYLEBENCH_SPACE_CACHE_SECONDS": str(args.cache_seconds),
    }
    with running_space(work, work / "space.log", **env) as (url, process):
        clients: dict[int, Client] = {}

        def call(i: int) -> str:
            import threading

            key = threading.get_ident()
            if key not in clients:
                clients[key] = Client(url, verbose=False)
            encoder, datasets, hub_ids, tasks = MIX[i % len(MIX)]
            try:
                clients[key].predict(encoder, datasets, hub_ids, tasks, api_name="/run_embedding")
                return "answer"
            except Exception as error:  # an invalid request's message counts as served
                return "message" if "AppError" in type(error).__name__ else f"failure: {error}"

        started = time.monotonic()
        first = min(100, args.requests)
        peak = 0.0
        with ThreadPoolExecutor(args.workers) as pool:
            outcomes = list(pool.map(call, range(first)))
            after_first = rss_mb(process.pid)
            rest = range(first, args.requests)
            for start in range(0, len(rest), 100):
                outcomes += pool.map(call, rest[start : start + 100])
                peak = max(peak, rss_mb(process.pid))
                print(
                    f"  {first + start + min(100, len(rest) - start):5d} requests: "
                    f"{rss_mb(process.pid):7.1f} MB, Gradio cache {count_files(gradio_tmp)} files",
                    flush=True,
                )
        after_all = rss_mb(process.pid)
        cached = count_files(gradio_tmp)  # while serving: Gradio empties it when it stops
        seconds = time.monotonic() - started
    charts = len(list((home / "charts").glob("*.png")))
    failures = [o for o in outcomes if o.startswith("failure")]
    print(f"load average {os.getloadavg()[0]:.1f}; {args.requests} requests in {seconds:.0f} s")
    print(f"Gradio cache files older than {args.cache_seconds} s swept")
    print(f"answers {outcomes.count('answer')}, messages {outcomes.count('message')}, ", end="")
    print(f"failures {len(failures)} {failures[:2]}")
    print(f"memory after {first}: {after_first:.1f} MB; after {args.requests}: {after_all:.1f} MB")
    growth = after_all - after_first
    verdict = "ok" if growth <= LIMIT_MB else "OVER"
    print(
        f"growth {growth:+.1f} MB (must stay within {LIMIT_MB:.0f} MB: {verdict}); peak {peak:.1f} MB"
    )
    print(f"charts folder: {charts} files; Gradio file cache: {cached} files")


if __name__ == "__main__":
    main()
