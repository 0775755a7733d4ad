"""Fast start-up (issue 16): the CLI's help and listings import none of the heavy
libraries. Each command runs in a fresh interpreter, which then reports which of them
ended up in ``sys.modules`` (behaviour, not timing: the timings are in
``tests/benchmarks/bench_startup.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# each costs 0.3-13 s to import on an idle core; none is needed to answer these
HEAVY = (
    "torch",
    "transformers",
    "sentence_transformers",
    "evaluate",
    "datasets",
    "pandas",
    "pyarrow",
    "sklearn",
    "scipy",
    "spacy",
    "ray",
    "gradio",
)
# the real command, in-process in a fresh interpreter: its output is discarded, what it
# imported is printed as JSON on the last line
PROBE = """
import contextlib, io, json, sys
argv = json.loads(sys.argv[1])
if argv is not None:
    from evaluators.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main(argv)
        except SystemExit as stop:
            if stop.code not in (0, None):
                raise
else:
    import evaluators.cli
print(json.dumps(sorted(name for name in json.loads(sys.argv[2]) if name in sys.modules)))
"""


def _heavy_after(argv: list[str] | None) -> list[str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argv), json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "argv",
    [None, ["--help"], ["list", "tasks"], ["list", "metrics"], ["list", "encoders"]],
    ids=["import evaluators.cli", "--help", "list tasks", "list metrics", "list encoders"],
)
def test_cli_start_imports_no_heavy_library(argv: list[str] | None) -> None:
    assert _heavy_after(argv) == []


def _heavy_after_code(code: str) -> list[str]:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"{code}\nimport json, sys\n"
            "print(json.dumps(sorted(n for n in json.loads(sys.argv[1]) if n in sys.modules)))",
            json.dumps(HEAVY),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(REPO)},
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_metric_helpers_do_not_import_evaluate_until_a_module_is_loaded() -> None:
    """The metric glue (listing, the direct-compute mixin, the cache installer) is
    importable without ``evaluate``; loading a bundled module imports it (so the probe
    would see it)."""
    helpers = (
        "from evaluators.metric_loading import list_metrics\n"
        "from evaluators.metric_math.evaluate_glue import DirectComputeMixin\n"
        "from evaluators.metric_math.text_inputs import json_safe, parse_floats\n"
        "import evaluators.metric_cache\n"
        "assert 'tpr_at_fpr' in list_metrics()"
    )
    assert _heavy_after_code(helpers) == []
    loaded = _heavy_after_code(
        f"{helpers}\nfrom evaluators.metric_loading import load_metric\nload_metric('tpr_at_fpr')"
    )
    assert "evaluate" in loaded
