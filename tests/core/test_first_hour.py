"""What a new user sees in the first hour (issue 20): listings that survive a pipe, a
leaderboard with nothing run yet, progress bars that say what they embed, a demo chart
with chance marked."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from click.testing import CliRunner

from evaluators.cli import cli
from evaluators.tabular import plural, render


def test_list_datasets_piped_is_tsv_with_whole_ids_and_urls() -> None:
    result = CliRunner().invoke(cli, ["list", "datasets"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = lines[0].split("\t")
    assert header[0] == "Hub repo[:config]" and {"dataset", "tasks", "status"} <= set(header)
    rows = [line.split("\t") for line in lines[1:] if not line.startswith("#")]
    assert len(rows) >= 96 and all(len(r) == len(header) for r in rows)
    status = header.index("status")
    ids = {r[0] for r in rows}
    assert "steb/STEL_feature" in ids or any(i.startswith("steb/STEL") for i in ids)
    urls = [w for r in rows for w in r[status].split() if w.startswith("http")]
    assert urls and all(" " not in u and "\n" not in u for u in urls)
    assert lines[-1].startswith("# ") and "datasets:" in lines[-1]


@pytest.mark.parametrize("fmt", ["json", "csv", "md"])
def test_list_formats_parse(fmt: str) -> None:
    result = CliRunner().invoke(cli, ["list", "tasks", "--format", fmt], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    if fmt == "json":
        tasks = {row["task"] for row in json.loads(result.output)}
    elif fmt == "csv":
        tasks = {row["task"] for row in csv.DictReader(io.StringIO(result.output))}
    else:
        body = result.output.splitlines()[2:]
        tasks = {line.split("|")[1].strip() for line in body if line.startswith("|")}
    assert {"clustering", "retrieval", "order_alignment"} <= tasks


def test_render_md_escapes_pipes_and_tsv_keeps_cells_on_one_line() -> None:
    assert render(["a"], [["x|y"]], "md").splitlines()[-1] == "| x\\|y |"
    assert render(["a", "b"], [["two\nlines", "c"]], "tsv").splitlines()[1] == "two lines\tc"
    with pytest.raises(ValueError, match="tsv, csv, md or json"):
        render(["a"], [["b"]], "table")


def test_plural() -> None:
    assert [plural(n, "row") for n in (0, 1, 2, 1500)] == [
        "0 rows",
        "1 row",
        "2 rows",
        "1,500 rows",
    ]


def test_leaderboard_without_results_shows_the_papers_models() -> None:
    result = CliRunner().invoke(cli, ["leaderboard"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    for model in ("LUAR-CRUD", "StyleDistance", "RoBERTa-large"):
        assert model in result.output
    refused = CliRunner().invoke(cli, ["leaderboard", "--no-paper"])
    assert refused.exit_code != 0 and "nothing to show" in str(refused.exception)


class _Count:
    name = "toy-counts"

    def encode(self, texts):
        return np.asarray([[len(t), t.count(" ") + 1.0] for t in texts], dtype=np.float32)

    def identity(self):
        return {"kind": "toy-counts"}


def test_progress_bar_names_model_and_dataset(capsys: pytest.CaptureFixture[str]) -> None:
    from evaluators.run.runner import Runner

    runner = Runner(_Count(), "toy-counts", progress=True)
    runner.embed(["a b", "c d e"], label="steb/some_dataset")
    err = capsys.readouterr().err
    assert "toy-counts: embed steb/some_dataset" in err


def test_chance_levels_from_counts() -> None:
    from types import SimpleNamespace

    from evaluators.report import chance_levels

    def record(task, counts):
        return SimpleNamespace(dataset=SimpleNamespace(name="d"), task=task, counts=counts)

    levels = chance_levels(
        {
            "m": [
                record("all_to_all_pairs", {}),
                record("order_alignment", {"n_positions": 4}),
                record("retrieval", {"n_queries": 2, "n_targets": 2}),
                record("retrieval", {"n_queries": 3, "n_targets": 5}),
            ]
        }
    )
    assert levels == {
        ("d", "all_to_all_pairs", "auc"): 0.5,
        ("d", "order_alignment", "accuracy"): 0.25,
        ("d", "retrieval", "mrr"): 0.75,  # (1 + 1/2) / 2
    }
