"""The results repository every test of this package reads: three models (two real runs
on a built STEB release, one migrated from the version-1 JSON layout). The run folders
are made once per package (``runs``), the repository once per test (``repo``)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from evaluators.cli import cli
from evaluators.results.repository import add_run
from tests.hub.pan23_fixture import write_pan23


def git(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout


REPO = "steb/pan23_style_change"


class CharStats:
    """The third model: a deterministic character-statistics encoder, whose results we
    write in the version-1 layout (the runner's files before the typed record)."""

    def identity(self) -> dict:
        return {"name": "char-stats-v1-test", "version": 1}

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.array(
            [[len(t), t.count(","), sum(c.isupper() for c in t), t.count(" ") + 1] for t in texts],
            dtype=np.float32,
        )


def _v1_payload(v2: dict[str, Any]) -> dict[str, Any]:
    """A record as ``Runner._write`` wrote it before schema version 2 (git show
    ecc3368:evaluators/run/runner.py): no schema_version, run, items, execution, hardware;
    the model block only name and identity."""
    keys = ("name", "ref", "id", "repo", "config", "schema", "split", "fingerprint")
    return {
        "model": {"name": v2["model"]["name"], "identity": v2["model"]["identity"]},
        "dataset": {k: v2["dataset"][k] for k in keys},
        "task": v2["task"],
        "main_score_name": v2["main_score_name"],
        "main_score": v2["main_score"],
        "metrics": v2["metrics"],
        "counts": v2["counts"],
        "embedding": v2["embedding"],
        "timings": v2["timings"],
        "seed": v2["seed"],
        "versions": v2["versions"],
        "created_at": v2["created_at"],
        "details": v2["details"],
    }


@pytest.fixture(scope="package")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Run folders: function-words and stylometric (``stylebench run``), and the
    character-statistics model's results rewritten in the version-1 layout."""
    from evaluators.run.runner import Runner, plan_tasks

    root = tmp_path_factory.mktemp("runs")
    write_pan23(root / "raw")
    built = CliRunner().invoke(
        cli, ["build", REPO, "--raw", str(root / "raw"), "--out", str(root / "built")]
    )
    assert built.exit_code == 0, built.output
    folder = root / "built"
    run = CliRunner().invoke(
        cli,
        [
            "run",
            "--model",
            "function-words",
            "--model",
            "stylometric",
            "--dataset",
            str(folder),
            "--out",
            str(root / "real"),
            "--cache-dir",
            str(root / "cache"),
            "--no-progress",
        ],
    )
    assert run.exit_code == 0, run.output
    Runner(CharStats(), "char-stats", out_dir=root / "v2", progress=False).run(
        plan_tasks([str(folder)])
    )
    for path in sorted((root / "v2").rglob("*.json")):
        target = root / "v1" / path.relative_to(root / "v2")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(_v1_payload(json.loads(path.read_text())), indent=2))
    return {"real": root / "real", "v1": root / "v1", "built": folder}


@pytest.fixture()
def repo(runs: dict[str, Path], tmp_path: Path) -> Path:
    """A git work tree whose history (HEAD) already holds the migrated version-1 records
    (the only way such a record, whose main score cannot be re-derived, is accepted), with
    the two real runs added on top, uncommitted."""
    root = tmp_path / "repo"
    add_run(runs["v1"], root)
    git("init", "--quiet", cwd=root)
    git("add", "results", cwd=root)
    git(
        "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "--quiet", "-m", "v1",
        cwd=root,
    )  # fmt: skip
    meta = tmp_path / "meta.json"
    meta.write_text(json.dumps({"run_name": "stylometric", "license": "mit", "open_weights": True}))
    add_run(runs["real"], root, meta)  # only stylometric: the model its metadata names
    add_run(runs["real"], root, model="function-words")
    return root
