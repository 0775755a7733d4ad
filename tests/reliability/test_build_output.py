"""Issue 15, item 2: ``stylebench build --out`` never deletes a folder that is not a
previous build, never touches the raw download, and leaves no half-written folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dataset_scripts.build import build_dataset
from dataset_scripts.core.hub_folder import BUILD_INFO, OutputFolderError
from dataset_scripts.registry import get_dataset
from evaluators.cli import main
from tests.reliability.stel_fixture import write_stel

DEMO = "stylebench/demo"


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        main(argv)
    except SystemExit as done:
        code = int(done.code or 0)
    else:
        code = 0
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.endswith((".partial", ".old")))


def test_existing_foreign_folder_is_refused_and_kept(tmp_path, capsys) -> None:
    out = tmp_path / "my_documents"
    out.mkdir()
    (out / "thesis.txt").write_text("years of work")
    code, text = _cli(["build", DEMO, "--out", str(out)], capsys)
    assert code == 2
    assert "does not hold a stylebench build" in text and "Traceback" not in text
    assert (out / "thesis.txt").read_text() == "years of work"
    assert _leftovers(tmp_path) == []


def test_out_equal_to_raw_is_refused_and_corpus_kept(tmp_path, capsys) -> None:
    raw = write_stel(tmp_path / "STEL")
    before = _tree(raw)
    code, text = _cli(["build", "steb/STEL_feature", "--raw", str(raw), "--out", str(raw)], capsys)
    assert code == 2 and "is the raw download" in text
    assert _tree(raw) == before


def test_out_inside_raw_is_refused(tmp_path, capsys) -> None:
    raw = write_stel(tmp_path / "STEL")
    before = _tree(raw)
    out = raw / "Data" / "built"
    code, text = _cli(["build", "steb/STEL_feature", "--raw", str(raw), "--out", str(out)], capsys)
    assert code == 2 and "lies inside the raw download" in text
    assert _tree(raw) == before and not out.exists()


def test_out_containing_raw_is_refused_even_when_it_holds_a_build(tmp_path) -> None:
    out = tmp_path / "previous_build"
    build_dataset(get_dataset(DEMO), None, out)
    raw = write_stel(out / "raw_STEL")  # a raw download someone put inside a build folder
    before = _tree(raw)
    with pytest.raises(OutputFolderError, match="contains the raw download"):
        build_dataset(get_dataset("steb/STEL_feature"), raw, out)
    assert _tree(raw) == before


def test_existing_file_as_out_is_a_clear_error_without_partial(tmp_path, capsys) -> None:
    out = tmp_path / "notes.txt"
    out.write_text("keep me")
    code, text = _cli(["build", DEMO, "--out", str(out)], capsys)
    assert code == 2 and "exists and is not a folder" in text and "Traceback" not in text
    assert out.read_text() == "keep me"
    assert _leftovers(tmp_path) == []


def test_previous_build_is_replaced_byte_identically(tmp_path, capsys) -> None:
    out = tmp_path / "demo"
    assert _cli(["build", DEMO, "--out", str(out)], capsys)[0] == 0
    first = _tree(out)
    assert json.loads((out / BUILD_INFO).read_text())["hub_id"] == DEMO
    (out / "notes.txt").write_text("the user's own file")
    assert _cli(["build", DEMO, "--out", str(out)], capsys)[0] == 0
    # the build's files are replaced byte for byte; the user's file is kept (issue 26, 2)
    assert _tree(out) == {**first, "notes.txt": b"the user's own file"}
    assert _leftovers(tmp_path) == []


def test_empty_folder_is_used(tmp_path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    build_dataset(get_dataset(DEMO), None, out)
    assert (out / BUILD_INFO).is_file()


def test_fake_marker_is_not_a_build(tmp_path) -> None:
    out = tmp_path / "fake"
    out.mkdir()
    (out / BUILD_INFO).write_text("not json")
    (out / "data.csv").write_text("a,b\n")
    with pytest.raises(OutputFolderError, match="does not hold a stylebench build"):
        build_dataset(get_dataset(DEMO), None, out)
    assert (out / "data.csv").is_file()


def test_failed_write_keeps_previous_build_and_leaves_no_staging(tmp_path, monkeypatch) -> None:
    import dataset_scripts.core.hub_folder as hub_folder

    out = tmp_path / "demo"
    build_dataset(get_dataset(DEMO), None, out)
    before = _tree(out)

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(hub_folder, "render_card", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        build_dataset(get_dataset(DEMO), None, out)
    assert _tree(out) == before
    assert _leftovers(tmp_path) == []
