"""The three calls a user writes, literally, in a fresh venv with the built wheel:

``stylebench build steb/pan23_style_change --raw <PAN layout>`` and ``stylebench metrics
install``, then from another working directory with ``HF_HUB_OFFLINE=1``:
``load_dataset("steb/pan23_style_change")``, ``load_dataset("steb/pan23_style_change",
"hard")`` and ``evaluate.load("tpr_at_fpr")``.

Bounded: the wheel is built once (``--no-deps``), installed with ``--no-deps`` into a venv
that sees the main venv's packages through a plain path entry (not its site dir, so the
editable install's hook is not loaded and ``evaluators`` must come from the wheel), with
its own temporary ``HF_HOME``. Nothing is downloaded.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from tests.hub.pan23_fixture import write_pan23

pytestmark = pytest.mark.slow

USER_CODE = r"""
import json, sys
from datasets import load_dataset
import evaluate

ds = load_dataset("steb/pan23_style_change")
hard = load_dataset("steb/pan23_style_change", "hard")
tpr = evaluate.load("tpr_at_fpr")

rows = hard["test"].to_list()
def overlap(a, b):
    x, y = set(a.lower().split()), set(b.lower().split())
    return len(x & y) / len(x | y)
scores = [overlap(r["text1"], r["text2"]) for r in rows]
labels = [r["label"] for r in rows]
result = tpr.compute(predictions=scores, references=labels, fpr=0.34)
import evaluators
print(json.dumps({
    "splits": {k: v.num_rows for k, v in ds.items()},
    "hard_splits": {k: v.num_rows for k, v in hard.items()},
    "hard_first": rows[0],
    "scores": scores, "labels": labels, "tpr": result,
    "evaluators": evaluators.__file__, "module": type(tpr).__module__,
}))
"""


def _tpr_at_fpr(scores: np.ndarray, labels: np.ndarray, budget: float) -> float:
    """Brute force: the best TPR over thresholds (distinct scores and +inf) whose FPR
    stays within the budget (flag = score >= threshold)."""
    best = 0.0
    for threshold in [*np.unique(scores), np.inf]:
        flagged = scores >= threshold
        if flagged[labels == 0].mean() <= budget:
            best = max(best, flagged[labels == 1].mean())
    return float(best)


@pytest.fixture(scope="module")
def fresh_venv(stylebench_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv holding only the stylebench wheel; dependencies come from the main venv."""
    root = tmp_path_factory.mktemp("fresh")
    wheel = stylebench_wheel
    venv = root / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    main_site = [p for p in site.getsitepackages() if Path(p).is_dir()] or [
        sysconfig.get_paths()["purelib"]
    ]
    # a plain path entry: the main venv's .pth files (the editable hook) are not run
    (Path(purelib) / "_main_venv_packages.pth").write_text("\n".join(main_site) + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            str(wheel),
        ],
        check=True,
        timeout=300,
    )
    return venv


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "PYTHON"))}
    env.update(HF_HOME=str(home), HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    return env


def test_literal_user_calls_in_a_fresh_venv(fresh_venv: Path, tmp_path: Path) -> None:
    expected = write_pan23(tmp_path / "pan23-download")
    env = _env(tmp_path / "hf-home")
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    work.mkdir()
    elsewhere.mkdir()
    stylebench = str(fresh_venv / "bin" / "stylebench")
    build = subprocess.run(
        [stylebench, "build", "steb/pan23_style_change", "--raw", str(tmp_path / "pan23-download")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    assert "registered in datasets' cache" in build.stdout
    install = subprocess.run(
        [stylebench, "metrics", "install"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    done = subprocess.run(
        [str(fresh_venv / "bin" / "python"), "-c", USER_CODE],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    # the wheel's code, not the checkout's (the editable install is not visible here)
    assert out["evaluators"].startswith(str(fresh_venv)), out["evaluators"]
    assert "evaluate-metric--tpr_at_fpr" in out["module"]
    # no config: every level, one split each (the card's default "all" view)
    assert out["splits"] == {
        "easy": expected["easy"],
        "medium": expected["medium"],
        "hard": expected["hard"],
    }
    assert out["hard_splits"] == {"test": expected["hard"]}
    assert out["hard_first"]["id"] == "problem-1-0" and out["hard_first"]["label"] == 1
    assert out["hard_first"]["text1"].startswith("I reckon the harbour")
    scores, labels = np.array(out["scores"]), np.array(out["labels"])
    assert sorted(set(labels.tolist())) == [0, 1]
    assert out["tpr"]["tpr"] == pytest.approx(_tpr_at_fpr(scores, labels, 0.34), abs=1e-12)
    assert out["tpr"]["n_pos"] == int(labels.sum()) and out["tpr"]["n_neg"] == int(
        (1 - labels).sum()
    )
    assert out["tpr"]["achieved_fpr"] <= 0.34
