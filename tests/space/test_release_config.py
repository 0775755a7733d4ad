"""A model (TF-IDF and MiniLM) on a built ``steb/pan23_style_change`` through the running
Space's ``/run_embedding`` endpoint with ``gradio_client``: the release is built with
``stylebench build`` from a PAN-layout fixture into the Space's dataset root and picked as
"built: steb__pan23_style_change" (the Space resolves typed Hub ids only through the Hub
cache, never a local path). Each config is scored, equal to the Runner's numbers."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.hub.pan23_fixture import write_pan23

pytestmark = pytest.mark.slow

REPO = "steb/pan23_style_change"


@pytest.fixture(scope="module")
def registered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """``stylebench build steb/pan23_style_change`` into a dataset root (and datasets'
    cache, which the Runner reference reads by Hub id)."""
    from evaluators.cli import cli

    root = tmp_path_factory.mktemp("space-release")
    expected = write_pan23(root / "raw")
    out = root / "datasets" / "steb__pan23_style_change"
    result = CliRunner().invoke(cli, ["build", REPO, "--raw", str(root / "raw"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return root / "datasets", expected


@pytest.fixture(scope="module")
def release_client(registered: tuple[Path, dict[str, int]], tmp_path_factory):
    """The Space (spaces/stylebench/app.py) on 127.0.0.1 with that dataset root in
    ``STYLEBENCH_SPACE_DATASETS``; stopped at the end of the module."""
    from gradio_client import Client

    from tests.space.server import STARTUP_SECONDS, running_space

    home = tmp_path_factory.mktemp("space-home")
    with running_space(
        home,
        home / "server.log",
        STARTUP_SECONDS,
        STYLEBENCH_SPACE_HOME=str(home),
        STYLEBENCH_SPACE_DATASETS=str(registered[0]),
    ) as (url, _process):
        yield Client(url, verbose=False)


def _reference(encoder_name: str) -> dict[str, float]:
    """AUROC per config from the Runner with the encoder the Space builds."""
    from evaluators.demo import make_encoder
    from evaluators.run.runner import Runner, plan_tasks

    runner = Runner(make_encoder(encoder_name), encoder_name, progress=False)
    records = runner.run(plan_tasks([REPO], ["predefined_pairs"]))
    return {r.dataset.config: r.main_score for r in records}


@pytest.mark.parametrize("encoder", ["tfidf-ngrams", "minilm"])
def test_model_on_release_configs_through_the_space(
    release_client, registered: tuple[Path, dict[str, int]], encoder: str
) -> None:
    if encoder == "minilm":
        from evaluators.encoders import list_encoders

        entry = next(e for e in list_encoders() if e["name"] == "minilm")
        if not entry.get("available"):
            pytest.skip(f"minilm is not installed here: {entry.get('reason')}")
    choice = "built: steb__pan23_style_change"
    table, _chart, summary = release_client.predict(
        encoder, [choice], "", ["predefined_pairs"], api_name="/run_embedding"
    )
    rows = {row[0].replace("steb__pan23_style_change", REPO): row for row in table["data"]}
    assert set(rows) == {f"{REPO} [{c}]" for c in ("easy", "medium", "hard")}, summary
    reference = _reference(encoder)
    for config, n_pairs in registered[1].items():
        row = rows[f"{REPO} [{config}]"]
        assert row[1:3] == ["predefined_pairs", "auc"]
        assert row[3] == pytest.approx(reference[config], abs=1e-4)
        assert f"pairs={n_pairs}" in row[4]
    assert "3 task(s)" in summary
