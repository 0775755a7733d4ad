"""`stylebench list datasets`, `build`, `build --all` and the dataset card."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dataset_scripts.registry import all_datasets, get_dataset
from dataset_scripts.status import BUILDABLE, BUILT, NEEDS_DOWNLOAD, dataset_status, select
from evaluators.cli import cli, main


def test_status_kinds(tmp_path: Path) -> None:
    spec = get_dataset("steb/STEL_feature")
    assert dataset_status(spec, tmp_path, tmp_path).kind == NEEDS_DOWNLOAD
    (tmp_path / "STEL").mkdir()
    status = dataset_status(spec, tmp_path, None)
    assert status.kind == BUILDABLE and status.raw == tmp_path / "STEL"
    assert dataset_status(get_dataset("stylebench/demo"), None, None).kind == BUILDABLE


def test_select_filters() -> None:
    specs = all_datasets().values()
    assert {s.hub_id for s in select(specs, task="order_alignment")} >= {"steb/STEL_feature"}
    steb = select(specs, family="steb")
    assert len(steb) >= 96  # the paper's 96 (plus any extra STEB-family sets)
    assert all(s.hub_id.startswith("steb/") for s in steb)
    assert [s.hub_id for s in select(specs, family="arb")] == ["arb/quartets"]
    assert select(specs, language="xx") == []


@pytest.mark.corpora
@pytest.mark.slow
def test_build_all_and_list(corpora: Path, tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "250"})  # wide table: names are not wrapped
    built = tmp_path / "built"
    result = runner.invoke(
        cli,
        [
            "build",
            "--all",
            "--family",
            "steb",
            "--raw-root",
            str(corpora),
            "--built-root",
            str(built),
        ],
    )
    assert result.exit_code == 0, result.output
    # STEL is one release: its two STEB datasets are configs of steb/STEL
    assert (built / "steb__STEL" / "README.md").is_file()
    assert dataset_status(get_dataset("steb/STEL_feature"), corpora, built).kind == BUILT
    listing = runner.invoke(
        cli, ["list", "datasets", "--task", "order_alignment", "--built-root", str(built)]
    )
    assert listing.exit_code == 0 and "STEL_feature" in listing.output and "built" in listing.output
    card = (built / "steb__STEL" / "README.md").read_text()
    assert "| `feature` order_alignment | 3 | 200 | 600 | 600 |" in card  # Table 15 vs build
    assert "- config_name: feature" in card and "- config_name: register" in card
    # the two configs' licences differ in wording (GYAFC terms for register): "other", named
    assert "capped at 100 rows" in card and "license: other" in card and "feature: MIT" in card


@pytest.mark.parametrize(
    "argv, message",
    [
        (["build"], "give either a dataset id or --all"),
        (["build", "steb/STEL", "--all"], "give either a dataset id or --all"),
        (["build", "--all", "--register"], "--register applies to one dataset id"),
        (["build", "steb/STEL", "--from", "x.csv"], "give a dataset id, --all or --from"),
        (["build", "steb/STEL", "steb/bible_versions", "--out", "x"], "--out names one folder"),
        (["build", "--all", "--out", "x"], "--out x names one dataset's folder"),
    ],
)
def test_build_refuses_ambiguous_requests(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2  # a one-line stylebench error, not a crash
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {message}") and "Traceback" not in err
