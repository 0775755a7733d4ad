"""`stylebench styledisc build/run/report/reference` end to end on a real domain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from evaluators.cli import cli


@pytest.mark.slow
@pytest.mark.corpora
def test_build_run_report(corpora: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        cli,
        [
            "styledisc",
            "build",
            "--corpora",
            str(corpora),
            "--domain",
            "ccat50",
            "--out",
            str(tmp_path / "built"),
        ],
    )
    assert result.exit_code == 0, result.output
    folder = tmp_path / "built" / "styledisc__ccat50"
    card = (folder / "README.md").read_text()
    assert "config_name: style_triplets" in card and "Reuter_50_50" in card
    assert (folder / "data" / "style_triplets" / "test-00000-of-00001.parquet").is_file()
    out = tmp_path / "results"
    result = runner.invoke(
        cli,
        [
            "styledisc",
            "run",
            "--dataset",
            str(folder),
            "--metrics",
            "BLEU,ROUGE2",
            "--encoder",
            "random",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert list((tmp_path / "cache").rglob("*.sqlite"))  # the encoder embedded via the Runner
    data = json.loads((out / "results.json").read_text())
    table2 = {row["metric"]: row for row in data["table2"]}
    assert set(table2) == {"Random", "BLEU", "ROUGE2", "random"}
    assert table2["BLEU"]["paper"] == [0.869, 0.7, 0.631, 0.733]
    assert table2["BLEU"]["DD"]["n"] == 50 and table2["BLEU"]["AA"]["n"] == 50
    # golden: BLEU on the real CCAT50 triplets (seeded build)
    assert table2["BLEU"]["DD"]["accuracy"] == 0.96
    assert table2["BLEU"]["AA"]["accuracy"] == 0.78
    assert table2["BLEU"]["AA"]["ci_low"] < 0.78 < table2["BLEU"]["AA"]["ci_high"]
    assert any(r["ensemble"] == "rho^PWV_ngram" for r in data["table3"])
    assert (out / "domains.png").stat().st_size > 0
    assert "0.869" in (out / "report.md").read_text()
    # `styledisc report`: the run's Tables 2-3 again, from results.json
    shown = runner.invoke(cli, ["styledisc", "report", "--results", str(out)], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    bleu = next(line for line in shown.output.splitlines() if "BLEU" in line and "ngram" in line)
    assert "0.960" in bleu and "0.780" in bleu and "0.869" in bleu


def test_reference_command() -> None:
    result = CliRunner().invoke(cli, ["styledisc", "reference"])
    assert result.exit_code == 0
    assert "gpt-4.1" in result.output and "0.967" in result.output


@pytest.mark.corpora
@pytest.mark.slow
def test_core_build_command_and_registry(corpora: Path, tmp_path: Path) -> None:
    from dataset_scripts.registry import all_datasets

    specs = all_datasets()
    assert {f"styledisc/{d}" for d in ("reuters", "ccat50", "enron", "arxiv")} <= set(specs)
    assert "no author ids" in specs["styledisc/enron"].protocol
    out = tmp_path / "reddit"
    result = CliRunner().invoke(
        cli, ["build", "styledisc/reddit", "--raw", str(corpora / "m4_llama2"), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    from evaluators.styledisc.evaluation import load_triplets

    rows = load_triplets(out)
    assert len(rows) == 10 and {r["setting"] for r in rows} == {"DD"}
    assert all(r["author"] is None and not r["author_known"] for r in rows)


class _Fixed:
    """A generator that answers every prompt with the same text."""

    name = "fixed-test-generator"

    def generate(self, prompt: str, max_new_tokens: int) -> str:
        return "Explain why the sky looks blue on a clear day, in plain words."


@pytest.mark.slow
@pytest.mark.corpora
def test_llm_setting_build_equals_rows_written_in_one_go(
    corpora: Path, tmp_path: Path, monkeypatch
) -> None:
    """`styledisc build --llm-generator` adds the LLM rows after the shared build: the
    folder equals writing DD/AA + LLM rows and the prompts section in one go."""
    from dataclasses import replace

    from dataset_scripts.core.hub_folder import write_hub_folder
    from dataset_scripts.core.styledisc_schema import CONFIG
    from dataset_scripts.registry import get_dataset
    from dataset_scripts.styledisc.build import TOKEN_COUNTER
    from dataset_scripts.styledisc.tokens import get_token_counter
    from evaluators.cli import styledisc as styledisc_cli
    from evaluators.styledisc import generators
    from evaluators.styledisc.llm_setting import llm_triplets

    monkeypatch.setattr(generators, "get_generator", lambda spec: _Fixed())
    raw = corpora / "m4_llama2"
    out = tmp_path / "cli"
    argv = ["styledisc", "build", "styledisc/reddit", "--raw", str(raw), "--out", str(out)]
    result = CliRunner().invoke(
        cli, [*argv, "--llm-generator", "x", "--llm-n", "1", "--llm-tokens", "8", "--no-register"]
    )
    assert result.exit_code == 0, result.output
    assert "added 1 LLM-setting rows" in result.output

    spec = get_dataset("styledisc/reddit")
    tables, dropped = spec.builder(raw)
    rows = tables[CONFIG]["test"]
    llm_rows, llm_dropped = llm_triplets(
        rows, _Fixed(), get_token_counter(TOKEN_COUNTER), n=1, answer_tokens=8
    )
    dropped.update(llm_dropped)
    section = styledisc_cli._prompt_section(_Fixed.name, 1)
    one_go = write_hub_folder(
        replace(spec, protocol=spec.protocol + section),
        {CONFIG: {"test": rows + llm_rows}},
        tmp_path / "one_go",
        dropped,
    )
    files = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert len(files) == 3
    for name in files:
        assert (out / name).read_bytes() == (one_go / name).read_bytes(), name
    card = (out / "README.md").read_text()
    assert "### LLM setting (fixed-test-generator, first 1 DD references per domain)" in card
