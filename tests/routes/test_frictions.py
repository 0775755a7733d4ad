"""What a newcomer tripped over (issue 25, item 6), each checked where it is seen."""

from __future__ import annotations

import json
import os
import warnings

from click.testing import CliRunner

from evaluators.cli import cli


def test_help_shows_every_command_line_whole() -> None:
    result = CliRunner().invoke(cli, ["--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    body = result.output.split("\n", 1)[1]  # after "Usage: stylebench [OPTIONS] COMMAND [ARGS]..."
    assert "..." not in body, body
    assert "detect   Evaluate AI-text detectors on any labelled human/machine set." in result.output


def test_list_datasets_names_the_hub_repo_first_and_explains_the_counts() -> None:
    from dataset_scripts.registry import all_datasets
    from dataset_scripts.steb.catalog import steb_datasets

    piped = CliRunner().invoke(cli, ["list", "datasets", "--family", "steb"])
    assert piped.exit_code == 0, piped.output
    lines = piped.output.splitlines()
    assert lines[0].split("\t")[0] == "Hub repo[:config]"
    first_column = {line.split("\t")[0] for line in lines[1:-1]}
    assert "steb/pan23_style_change:hard" in first_column
    assert "steb/pan23_style_change_hard" not in first_column  # the deprecated id, not first
    n_steb, n_96 = len(steb_datasets(multilingual=True)), len(steb_datasets())
    repos = len({s.repo for s in steb_datasets(multilingual=True)})
    assert (n_steb, n_96) == (113, 96)
    assert lines[-1].startswith(f"# {n_steb} datasets: ") and lines[-1].endswith(
        f"; {repos} Hub repos ({n_steb} steb = the paper's 96 (Table 15) + "
        f"{n_steb - n_96} non-English PAN sets (Sec. 5.3))"
    )
    every = CliRunner().invoke(cli, ["list", "datasets"]).output.splitlines()[-1]
    assert every.startswith(f"# {len(all_datasets())} datasets: ") and "113 steb = " in every
    rows = json.loads(CliRunner().invoke(cli, ["list", "datasets", "--format", "json"]).output)
    assert sorted(r["dataset"] for r in rows) == sorted(all_datasets())  # the old ids, kept


def test_tpr_at_fpr_card_says_the_bare_name_is_ours_after_install(repo_root) -> None:
    card = (repo_root / "metrics" / "tpr_at_fpr" / "README.md").read_text()
    assert 'evaluate.load("tpr_at_fpr")' in card
    assert "stylebench metrics install" in card
    assert "not ours" not in card.lower() and "is not this" not in card.lower()


def test_no_progress_switches_bars_off_for_the_command_only(monkeypatch, tmp_path) -> None:
    """Inside the command every Hugging Face bar is off (and the environment says so to
    worker processes); afterwards the process is as before."""
    import click
    import datasets
    from huggingface_hub.utils import are_progress_bars_disabled
    from transformers.utils import logging as transformers_logging

    from evaluators.cli.options import no_progress_option

    monkeypatch.delenv("HF_HUB_DISABLE_PROGRESS_BARS", raising=False)
    seen = {}

    @click.command()
    @no_progress_option
    def probe(no_progress: bool) -> None:
        seen.update(
            hub=are_progress_bars_disabled(),
            transformers=not transformers_logging.is_progress_bar_enabled(),
            datasets=not datasets.is_progress_bar_enabled(),
            env=os.environ.get("HF_HUB_DISABLE_PROGRESS_BARS"),
        )

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. datasets' "Cannot enable progress bars"
        probe.main(["--no-progress"], standalone_mode=False)
    assert seen == {"hub": True, "transformers": True, "datasets": True, "env": "1"}
    assert not are_progress_bars_disabled() and transformers_logging.is_progress_bar_enabled()
    assert datasets.is_progress_bar_enabled() and "HF_HUB_DISABLE_PROGRESS_BARS" not in os.environ
    probe.main([], standalone_mode=False)
    assert seen["hub"] is False and seen["env"] is None
