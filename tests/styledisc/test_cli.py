"""`stylebench styledisc build/run/report/reference` end to end on a real domain."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from evaluators.cli import cli


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
