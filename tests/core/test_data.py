"""Loading built folders: datasets 5.x caches local folders by name, our loader must not
serve stale or mismatched rows."""

from __future__ import annotations

from pathlib import Path

from dataset_scripts.core.hub_folder import write_hub_folder
from dataset_scripts.core.spec import DatasetSpec
from evaluators.data import load_table

SPEC = DatasetSpec("test/same-name", "t", "t", None, "mit", "none", "", "none", needs_raw=False)


def _write(folder: Path, labels: list[str]) -> Path:
    rows = [{"id": str(i), "text": f"text {i}", "label": lab} for i, lab in enumerate(labels)]
    return write_hub_folder(SPEC, {"labelled_texts": {"test": rows}}, folder)


def test_same_folder_name_different_content(tmp_path: Path) -> None:
    first = _write(tmp_path / "a" / "data", ["x", "y"])
    second = _write(tmp_path / "b" / "data", ["x", "y", "z"])
    assert len(load_table(str(first), "labelled_texts").rows) == 2
    assert len(load_table(str(second), "labelled_texts").rows) == 3


def test_rebuilt_folder_is_reread(tmp_path: Path) -> None:
    folder = _write(tmp_path / "data", ["x", "y"])
    before = load_table(str(folder), "labelled_texts")
    _write(tmp_path / "data", ["p", "q", "r"])
    after = load_table(str(folder), "labelled_texts")
    assert [r["label"] for r in after.rows] == ["p", "q", "r"]
    assert before.fingerprint != after.fingerprint
