"""What a new user of ``stylebench detect run`` is told before and after the run: the
label values read as machine and as human, a time estimate that counts what the TF-IDF
baseline really reads, and tables that come out whole when printed to a pipe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd

from evaluators.console import PIPE_WIDTH, cli_console
from evaluators.detect.data import label_reading, load_detection_set
from evaluators.detect.estimate import describe_seconds, estimate_seconds
from tests.byod.conftest import detection_rows
from tests.conftest import REPO_ROOT


def test_zero_one_labels_say_which_value_is_machine(tmp_path: Path) -> None:
    rows = detection_rows(5, 7)
    path = tmp_path / "01.csv"
    pd.DataFrame([{**r, "label": 0 if r["label"] == "human" else 1} for r in rows]).to_csv(
        path, index=False
    )
    data = load_detection_set(path)
    assert label_reading(data) == "label: '1' = machine, '0' = human"
    named = load_detection_set(path, human_label="1", machine_label="0")
    assert label_reading(named) == "label: '0' = machine, '1' = human"
    # the reading survives the sample and the split (subset)
    assert label_reading(named.subset([0, 1])) == label_reading(named)


def test_tfidf_estimate_counts_the_training_share() -> None:
    texts = ["word " * 200] * 1000  # 1 M characters
    alone = estimate_seconds(["tfidf"], texts)
    with_fit = estimate_seconds(["tfidf"], texts, fit_texts=texts)
    assert alone > 3.0  # set-up + 1.8 s per million characters, never "0.0 min"
    assert abs((with_fit - alone) - 1.8) < 1e-9  # the training share is read too
    assert describe_seconds(alone) == "about 4 s"
    assert estimate_seconds(["loglik"], texts, fit_texts=texts) == estimate_seconds(
        ["loglik"], texts
    )  # zero-shot detectors read no training share


def test_piped_console_never_cuts_a_cell(tmp_path: Path) -> None:
    console = cli_console(file=(tmp_path / "out.txt").open("w"))
    assert not console.is_terminal and console.width == PIPE_WIDTH
    from rich.table import Table

    table = Table()
    for name in ("detector", "TPR@5%FPR [95% CI]", "AUROC [95% CI]"):
        table.add_column(name)
    table.add_row("fastdetectgpt-with-a-long-name", "0.123 [0.100, 0.200]", "0.9 [0.8, 1.0]")
    console.print(table)
    console.file.close()
    text = (tmp_path / "out.txt").read_text()
    assert "fastdetectgpt-with-a-long-name" in text and "TPR@5%FPR [95% CI]" in text
    assert "…" not in text and max(map(len, text.splitlines())) < 120  # no padding


def test_detect_run_through_a_pipe_prints_whole_lines(tmp_path: Path) -> None:
    rows = detection_rows(30, 30)
    path = tmp_path / "a_rather_long_file_name_for_a_detection_set.csv"
    pd.DataFrame([{**r, "label": 0 if r["label"] == "human" else 1} for r in rows]).to_csv(
        path, index=False
    )
    printed = subprocess.run(
        [sys.executable, "-m", "evaluators.cli", "detect", "run", "--data", str(path),
         "--detector", "tfidf", "--group-column", "generator", "--resamples", "50",
         "--fpr", "0.05", "--out", str(tmp_path / "out"), "--no-progress"],
        capture_output=True, text=True, cwd=REPO_ROOT, check=True, timeout=300,
    ).stdout  # fmt: skip
    assert "…" not in printed
    assert "labels read as label: '1' = machine, '0' = human" in printed
    header = next(line for line in printed.splitlines() if "┃ detector" in line)
    assert "TPR@5%FPR [95% CI]" in header and "AUROC [95% CI]" in header
    assert "estimated scoring time on 2 CPU cores: about " in printed
    assert "0.0 min" not in printed
