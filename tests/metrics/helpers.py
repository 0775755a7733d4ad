"""Constants shared by the metric tests."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
# every folder metrics/<name>/<name>.py (no hand-kept list: a new module is picked up, and
# the tests that pair each name with its cases then require cases for it)
METRIC_NAMES = tuple(
    sorted(
        p.name
        for p in (REPO_ROOT / "metrics").iterdir()
        if p.is_dir() and (p / f"{p.name}.py").is_file()
    )
)
assert len(METRIC_NAMES) >= 7, METRIC_NAMES  # the seven modules of the first release
