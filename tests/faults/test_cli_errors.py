"""Issue 26, item 14: faults of the machine (a read-only folder, a full disk, a path below
a file) and absurd inputs (JSON 100,000 levels deep) end in one ``error:`` line and exit
status 2, never in a traceback."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.faults.harness import fill, full_filesystem, read_only_folder


def _main(argv: list[str], capsys) -> tuple[int, str]:
    from evaluators.cli import main

    try:
        main(argv)
    except SystemExit as done:
        code = int(done.code or 0)
    else:
        code = 0
    captured = capsys.readouterr()
    return code, captured.err


def _one_error_line(code: int, err: str) -> None:
    assert code == 2, err[-2000:]
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, err[-2000:]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A small labelled_texts dataset built from a CSV (function words vary per row)."""
    from dataset_scripts.custom.build import build_from_source

    root = tmp_path_factory.mktemp("built")
    source = root / "d.csv"
    words = ["the", "of", "and", "a", "to", "in", "is", "it", "that", "was", "for", "on"]
    with source.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["text", "label"])
        for i in range(40):
            picked = " ".join(words[(i * k) % len(words)] for k in range(1, 2 + i % 5))
            writer.writerow([f"row {i} {picked} end", "ab"[i % 2]])
    return build_from_source(source, root / "X").folder


def test_deeply_nested_json(tmp_path, capsys) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    code, err = _main(["build", "--from", str(path), "--out", str(tmp_path / "Y")], capsys)
    _one_error_line(code, err)
    assert "nested too deeply" in err


def test_run_with_a_read_only_out(tmp_path, built, capsys) -> None:
    out = tmp_path / "ro"
    out.mkdir()
    with read_only_folder(out):
        code, err = _main(
            [
                "run",
                "--model",
                "function-words",
                "--dataset",
                str(built),
                "--no-cache",
                "--out",
                str(out / "results"),
            ],
            capsys,
        )
    _one_error_line(code, err)
    assert "read-only" in err or "permission denied" in err


def test_run_with_a_read_only_cache(tmp_path, built, capsys) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    with read_only_folder(cache):
        code, err = _main(
            [
                "run",
                "--model",
                "function-words",
                "--dataset",
                str(built),
                "--cache-dir",
                str(cache),
                "--out",
                str(tmp_path / "res"),
            ],
            capsys,
        )
    _one_error_line(code, err)
    assert "read-only" in err and "move it aside" not in err


def test_run_on_a_full_disk(tmp_path, built, capsys) -> None:
    with full_filesystem(tmp_path / "disk", size_kb=128) as disk:
        fill(disk)
        code, err = _main(
            [
                "run",
                "--model",
                "function-words",
                "--dataset",
                str(built),
                "--no-cache",
                "--out",
                str(disk / "results"),
            ],
            capsys,
        )
    _one_error_line(code, err)
    assert "disk full" in err


def test_metrics_install_with_a_read_only_hf_home(tmp_path, monkeypatch, capsys) -> None:
    import evaluate.config

    home = tmp_path / "hf"
    home.mkdir()
    # what HF_HOME / HF_MODULES_CACHE set at evaluate's import would give
    monkeypatch.setattr(evaluate.config, "HF_MODULES_CACHE", home / "modules")
    with read_only_folder(home):
        code, err = _main(["metrics", "install", "v_measure"], capsys)
    _one_error_line(code, err)
    assert "read-only" in err or "permission denied" in err
