"""Commands whose options are packed into one value (#50 item 7: no function over 8
parameters): every option still reaches what the command calls. ``valla run`` hands its
options over as one :class:`evaluators.valla.evaluate.RunRequest`, ``push`` its naming
options (--repo-id, --kind, --model) to ``plan_push``. (``detect run`` and ``run``:
tests/core/test_cli_options.py; ``compare``: tests/compare/test_steps.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evaluators.cli import cli


class _Stop(Exception):
    pass


def test_valla_run_hands_over_one_request(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import evaluators.valla.evaluate as evaluate
    from evaluators.valla.evaluate import RunRequest

    seen: dict[str, Any] = {}

    def run(request: RunRequest, built_root: Path, out: Path) -> dict:
        seen.update(request=request, built_root=built_root, out=out)
        raise _Stop

    monkeypatch.setattr(evaluate, "run", run)
    argv = ["valla", "run", "--method", "ppm", "--dataset", "valla/ccat50", "--formulation",
            "av", "--split", "cross_topic_test", "--option", "order=3", "--option",
            'families=["char"]', "--limit", "40", "--train-limit", "80", "--built-root",
            str(tmp_path / "b"), "--out", str(tmp_path / "o"), "--no-progress"]  # fmt: skip
    result = CliRunner().invoke(cli, argv)
    assert isinstance(result.exception, _Stop), result.output
    assert seen["request"] == RunRequest(
        "ppm",
        "valla/ccat50",
        "av",
        "cross_topic_test",
        {"order": 3, "families": ("char",)},
        40,
        80,
        progress=False,
    )
    assert (seen["built_root"], seen["out"]) == (tmp_path / "b", tmp_path / "o")
    CliRunner().invoke(cli, ["valla", "run", "--method", "ngram", "--dataset", "d"])
    assert seen["request"] == RunRequest("ngram", "d", progress=True)  # the defaults


def test_push_hands_its_naming_options_to_the_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    import evaluators.publish as publish

    seen: dict[str, Any] = {}

    def plan_push(target: str | None, **naming: Any) -> None:
        seen.update(naming, target=target)
        raise _Stop

    monkeypatch.setattr(publish, "plan_push", plan_push)
    argv = ["push", "results-repo", "--repo-id", "org/x", "--kind", "model-results",
            "--model", "org/m", "--dry-run"]  # fmt: skip
    result = CliRunner().invoke(cli, argv)
    assert isinstance(result.exception, _Stop), result.output
    assert seen == {
        "target": "results-repo",
        "repo_id": "org/x",
        "kind": "model-results",
        "model": "org/m",
    }
    CliRunner().invoke(cli, ["push", "built/steb/x"])
    assert seen == {"target": "built/steb/x", "repo_id": None, "kind": None, "model": None}
