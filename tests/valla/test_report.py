"""The paper's tables as data, the report beside runs, and the CLI."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dataset_scripts.core.errors import UnknownNameError
from evaluators.valla.evaluate import load_results, model_key, save
from evaluators.valla.reference import TABLES, cells_for, reference_value
from evaluators.valla.report import long_rows, render_markdown, write_report
from tests.valla import fixtures


def test_table3_average_column_matches_its_caption() -> None:
    """Caption: the average over the seven datasets, "—" counted as 0 (a transcription check)."""
    table = TABLES[3]
    for model, values in table.rows.items():
        *datasets, average = values
        assert sum(v or 0 for v in datasets) / 7 == pytest.approx(average, abs=0.006), model


def test_tables_are_rectangular_and_cross_consistent() -> None:
    for ref in TABLES.values():
        assert all(len(v) == len(ref.columns) for v in ref.rows.values())
    # BERT_A appears in Tables 3/6 and 4/7 with the same numbers
    for column in ("CCAT50", "CMCC", "Guardian", "IMDb62", "Blogs50"):
        assert reference_value(3, "BERT_A", column) == reference_value(6, "BERT_A", column)
    for column in TABLES[4].columns:
        assert reference_value(4, "BERT_A", column) == reference_value(7, "BERT_A", column)
    assert reference_value(3, "Ngram_A", "CCAT50") == 76.68
    assert reference_value(3, "PPM_A", "PAN20") is None


def test_cells_and_model_keys() -> None:
    assert model_key("siamese", "aa", {"loss": "triplet"}) == "BERT_V w/HNM"
    assert model_key("ngram", "av", {}) == "Ngram_V"
    assert cells_for("CCAT50", "test", "aa", "BERT_A") == [(3, "CCAT50"), (6, "CCAT50")]
    assert cells_for("Guardian", "cross_genre_test", "aa", "Ngram_A") == [(4, "Guard ×g")]
    assert cells_for("Blogs50", "test", "aa", "BERT_V w/HNM") == [(8, "Mac-Acc (AA)")]
    assert cells_for("CCAT50", "test", "av", "Ngram_V") == []


def record(model: str, score: float, formulation: str = "aa", created: str = "2026") -> dict:
    return {
        "kind": "valla_result",
        "dataset": "valla/ccat50",
        "table_name": "CCAT50",
        "method": "ngram",
        "model": model,
        "formulation": formulation,
        "split": "test",
        "metric": "macro_accuracy" if formulation == "aa" else "auc",
        "score": score,
        "n_eval": 2500,
        "runtime_s": 1.0,
        "created": created,
    }


def test_report_places_runs(tmp_path: Path) -> None:
    runs = [
        record("Ngram_A", 0.70, created="1"),
        record("Ngram_A", 0.7572, created="2"),
        record("Ngram_V", 0.8123, "av"),
    ]
    rows = long_rows(runs)
    cell = next(
        r for r in rows if r["table"] == 3 and r["model"] == "Ngram_A" and r["column"] == "CCAT50"
    )
    assert cell["ours"] == pytest.approx(75.72) and cell["difference"] == pytest.approx(-0.96)
    markdown = render_markdown(runs)
    assert "| 76.68 / **75.72** |" in markdown  # the latest run wins
    assert "| Ngram_V | CCAT50 test (AV) | auc | 0.8123 |" in markdown
    for number in range(3, 9):
        assert f"## Table {number}:" in markdown
    md, table = write_report(runs, tmp_path)
    with table.open() as handle:
        written = list(csv.DictReader(handle))
    assert len(written) == sum(len(t.rows) * len(t.columns) for t in TABLES.values()) + 1
    assert md.read_text() == markdown


def test_results_round_trip(tmp_path: Path) -> None:
    path = save(record("PPM_A", 0.7), tmp_path)
    (tmp_path / "other.json").write_text(json.dumps({"kind": "something else"}))
    loaded = load_results(tmp_path)
    assert [r["model"] for r in loaded] == ["PPM_A"] and loaded[0]["path"] == str(path)


def test_cli_run_and_report(tmp_path: Path) -> None:
    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset
    from evaluators.cli import cli

    raw = fixtures.write_guardian(tmp_path / "raw", per_category=6)
    folder, _ = build_dataset(
        get_dataset("valla/guardian"), raw, tmp_path / "built" / "valla__guardian"
    )
    runner = CliRunner()
    out = tmp_path / "results"
    result = runner.invoke(
        cli,
        [
            "valla",
            "run",
            "--method",
            "ngram",
            "--dataset",
            str(folder),
            "--split",
            "cross_topic_test",
            "--option",
            "min_df=1",
            "--option",
            'families=["char"]',
            "--out",
            str(out),
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Ngram_A on valla/guardian [cross_topic_test, AA]" in result.output
    assert "paper Table 4 Guard ×t: 86.92" in result.output
    saved = load_results(out)
    assert saved[0]["config"]["families"] == ["char"] and saved[0]["n_eval"] == 9
    result = runner.invoke(cli, ["valla", "report", "--results", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "valla_report.md").exists() and "Table 8" in result.output
    bad = runner.invoke(cli, ["valla", "run", "--method", "ngram", "--dataset", "valla/nope"])
    assert bad.exit_code != 0 and isinstance(bad.exception, UnknownNameError)
    assert "unknown Valla dataset 'valla/nope'" in str(bad.exception)
