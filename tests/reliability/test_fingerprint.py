"""Issue 15, item 7: the data fingerprint covers every file ``datasets`` reads for the
config, whatever its format, so changed data is never reported as "reused"."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from evaluators.cli import main
from evaluators.data import load_table

EMPTY_SHA256_16 = hashlib.sha256(b"").hexdigest()[:16]  # e3b0c44298fc1c14: "no content"


def _csv_folder(folder: Path, n_rows: int) -> Path:
    """A dataset folder whose labelled_texts data is a CSV wired in by the card's YAML."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["id,text,label"]
    for i in range(n_rows):
        style = ("plain", "LOUD", "tiny")[i % 3]
        text = f"sentence number {i} written in a {style} way"
        text = text.upper() if style == "LOUD" else text
        lines.append(f"r{i},{text},{style}")
    (folder / "texts.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "README.md").write_text(
        "---\nconfigs:\n- config_name: labelled_texts\n  data_files:\n  - split: test\n"
        "    path: texts.csv\n---\n# csv dataset\n",
        encoding="utf-8",
    )
    return folder


def test_csv_data_gets_a_content_fingerprint(tmp_path: Path) -> None:
    folder = _csv_folder(tmp_path / "ds", 1980)
    first = load_table(str(folder), "labelled_texts")
    assert len(first.rows) == 1980
    assert first.fingerprint != EMPTY_SHA256_16
    _csv_folder(folder, 300)
    second = load_table(str(folder), "labelled_texts")
    assert len(second.rows) == 300
    assert second.fingerprint != first.fingerprint
    # one changed byte changes it too; the same bytes elsewhere give the same fingerprint
    original = (folder / "texts.csv").read_text()
    text = original.replace("number 6 ", "number 9 ", 1)
    assert text != original
    (folder / "texts.csv").write_text(text)
    assert load_table(str(folder), "labelled_texts").fingerprint != second.fingerprint
    moved = _csv_folder(tmp_path / "elsewhere", 300)
    assert load_table(str(moved), "labelled_texts").fingerprint == second.fingerprint


@pytest.mark.slow
def test_changed_csv_data_is_not_reused_on_resume(tmp_path: Path, capsys) -> None:
    folder = _csv_folder(tmp_path / "ds", 1980)
    out = tmp_path / "results"
    argv = [
        "run",
        "--model",
        "function-words",
        "--dataset",
        str(folder),
        "--tasks",
        "clustering",
        "--out",
        str(out),
        "--cache-dir",
        str(tmp_path / "cache"),
        "--no-progress",
    ]
    main(argv)
    capsys.readouterr()
    (result,) = out.rglob("clustering.json")
    assert json.loads(result.read_text())["counts"]["n_texts"] == 1980
    _csv_folder(folder, 300)
    main(argv)  # --resume is the default
    printed = capsys.readouterr().out
    assert "reused" not in printed
    assert json.loads(result.read_text())["counts"]["n_texts"] == 300
    main(argv)  # unchanged now: reused
    assert "reused" in capsys.readouterr().out


def test_parquet_layout_still_fingerprinted(tmp_path: Path) -> None:
    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset

    folder, _ = build_dataset(get_dataset("stylebench/demo"), None, tmp_path / "demo")
    a = load_table(str(folder), "labelled_texts").fingerprint
    b = load_table(str(folder), "style_sequences").fingerprint
    assert a != b and EMPTY_SHA256_16 not in (a, b)


@pytest.mark.parametrize("n_rows", [30])
def test_fingerprint_changes_with_card_yaml(tmp_path: Path, n_rows: int) -> None:
    folder = _csv_folder(tmp_path / "ds", n_rows)
    before = load_table(str(folder), "labelled_texts").fingerprint
    (folder / "other.csv").write_text((folder / "texts.csv").read_text())
    card = (folder / "README.md").read_text().replace("path: texts.csv", "path: other.csv")
    (folder / "README.md").write_text(card)
    # same bytes under another name, wired by another card: a different source of data
    assert load_table(str(folder), "labelled_texts").fingerprint != before
