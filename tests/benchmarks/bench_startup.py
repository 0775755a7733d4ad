"""Start-up cost of the CLI (issue 16; not collected by pytest).

    python tests/benchmarks/bench_startup.py [--repeat 5]

For ``stylebench --help``, ``stylebench list tasks`` and ``import evaluators.cli``, each
in a fresh interpreter: the wall time of the real command (best and median of the
repeats) and its import work as ``python -X importtime`` reports it (the sum of the
top-level imports' cumulative times, best run), next to ``python -c pass`` measured in
the same run (the interpreter's own start). Target: under 1 s of import work on an idle
core. The load average is printed: other jobs on the cores inflate every figure.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TARGET_IMPORT_S = 1.0
ENTRY = "from evaluators.cli import main; main()"  # what the console script runs
COMMANDS = {
    "python -c pass": ["-c", "pass"],
    "import evaluators.cli": ["-c", "import evaluators.cli"],
    "stylebench --help": ["-c", ENTRY, "--help"],
    "stylebench list tasks": ["-c", ENTRY, "list", "tasks"],
}
_TOP_LEVEL = re.compile(r"^import time:\s+\d+ \|\s+(\d+) \| (\S.*)$")


def _env() -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "HF_HUB_OFFLINE": "1"}


def wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *argv], env=_env(), cwd=REPO, check=True, capture_output=True)
    return time.perf_counter() - start


def import_work(argv: list[str]) -> float:
    """Seconds of import work: the top-level imports' cumulative times."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        env=_env(),
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    )
    return (
        sum(int(m.group(1)) for line in done.stderr.splitlines() if (m := _TOP_LEVEL.match(line)))
        / 1e6
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{sys.executable}; load average before: {load}")
    walls = {name: [] for name in COMMANDS}
    imports = {name: [] for name in COMMANDS}
    for _ in range(repeat):  # interleaved, so load from other jobs hits all alike
        for name, argv in COMMANDS.items():
            walls[name].append(wall(argv))
            imports[name].append(import_work(argv))
    base = statistics.median(walls["python -c pass"])
    ok = True
    for name in COMMANDS:
        best, median = min(walls[name]), statistics.median(walls[name])
        work = min(imports[name])
        ok &= work <= TARGET_IMPORT_S
        print(
            f"{name:22s} wall best {best:5.2f} s, median {median:5.2f} s "
            f"({median / base:5.1f}x python -c pass) | import work {work:5.2f} s"
        )
    print(f"target: import work <= {TARGET_IMPORT_S} s on an idle core")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average after: {load}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
