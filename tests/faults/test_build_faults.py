"""Issue 26, items 1, 2, 12, 14 and 16 (build part): a build never destroys its input or the
user's files, a full disk or a SIGKILL leaves nothing behind that lives on, and bad output
paths are one-line errors."""

from __future__ import annotations

import csv
import json
import signal
from pathlib import Path

import pytest

from dataset_scripts.core.hub_folder import BUILD_INFO
from tests.faults.harness import full_filesystem, read_only_folder, run_cli, run_killed_at

SHARD = "data/labelled_texts/test-00000-of-00001.parquet"


def write_csv(path: Path, n: int = 60, words: int = 6) -> Path:
    import random

    rng = random.Random(n)  # words that do not compress (a full disk must really fill)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["text", "label"])
        for i in range(n):
            text = " ".join(f"w{rng.randrange(10**9)}" for _ in range(words))
            writer.writerow([f"row {i}: {text}", "ab"[i % 2]])
    return path


def build(source: Path, out: Path, *extra: str, cwd: Path | None = None):
    from evaluators.cli import main

    argv = ["build", "--from", str(source), "--out", str(out), *extra]
    if cwd is not None:
        return run_cli(argv, cwd=cwd)
    try:
        main(argv)
    except SystemExit as done:
        return int(done.code or 0)
    return 0


def n_rows(folder: Path) -> int:
    import pyarrow.parquet as pq

    return pq.read_table(folder / SHARD).num_rows


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.endswith((".partial", ".old")))


# item 1 ------------------------------------------------------------------------------------


def test_from_a_parquet_inside_the_out_folder_is_refused(tmp_path, capsys) -> None:
    out = tmp_path / "X"
    assert build(write_csv(tmp_path / "d.csv"), out) == 0
    before = tree(out)
    assert build(out / SHARD, out) == 2
    err = capsys.readouterr().err
    assert "contains the --from input" in err and "Traceback" not in err
    assert tree(out) == before and n_rows(out) == 60


def test_from_the_out_folder_itself_is_refused(tmp_path, capsys) -> None:
    out = tmp_path / "X"
    assert build(write_csv(tmp_path / "d.csv"), out) == 0
    before = tree(out)
    assert build(out, out) == 2
    assert "is the --from input" in capsys.readouterr().err
    assert tree(out) == before


# item 2 ------------------------------------------------------------------------------------


def test_rebuild_keeps_the_users_files(tmp_path) -> None:
    source = write_csv(tmp_path / "d.csv")
    out = tmp_path / "X"
    assert build(source, out) == 0
    first = tree(out)
    (out / "NOTES.md").write_text("my notes")
    (out / "results").mkdir()
    (out / "results" / "run.json").write_text('{"auroc": 0.9}')
    write_csv(source, n=80)  # the data changed: the build's own files change
    assert build(source, out) == 0
    assert (out / "NOTES.md").read_text() == "my notes"
    assert (out / "results" / "run.json").read_text() == '{"auroc": 0.9}'
    assert n_rows(out) == 80 and tree(out)[SHARD] != first[SHARD]
    assert leftovers(tmp_path) == []


# item 12 -----------------------------------------------------------------------------------


def test_full_disk_is_one_line_and_leaves_no_staging(tmp_path) -> None:
    source = write_csv(tmp_path / "big.csv", n=3000, words=40)
    with full_filesystem(tmp_path / "disk", size_kb=200) as disk:
        done = build(source, disk / "X", cwd=tmp_path)
        assert done.returncode == 2, done.stderr[-2000:]  # not 134 (pyarrow abort)
        assert "disk full" in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert sorted(p.name for p in disk.iterdir()) == []  # no .partial filling the disk


def test_full_disk_keeps_the_previous_build(tmp_path) -> None:
    with full_filesystem(tmp_path / "disk", size_kb=400) as disk:
        assert build(write_csv(tmp_path / "small.csv"), disk / "X") == 0
        before = tree(disk / "X")
        done = build(write_csv(tmp_path / "big.csv", n=4000, words=40), disk / "X", cwd=tmp_path)
        assert done.returncode == 2 and "disk full" in done.stderr
        assert tree(disk / "X") == before and leftovers(disk) == []


def test_partial_left_by_sigkill_is_cleaned_by_the_next_build(tmp_path) -> None:
    source = write_csv(tmp_path / "d.csv")
    out = tmp_path / "X"
    killed = run_killed_at(
        "dataset_scripts.core.hub_folder._move_into_place",
        ["build", "--from", str(source), "--out", str(out)],
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    assert len(leftovers(tmp_path)) == 1 and not out.exists()  # the killed build's staging
    assert build(source, out) == 0
    assert leftovers(tmp_path) == [] and n_rows(out) == 60


def test_sigkill_while_replacing_restores_the_previous_build(tmp_path) -> None:
    source = write_csv(tmp_path / "d.csv")
    out = tmp_path / "X"
    assert build(source, out) == 0
    before = tree(out)
    killed = run_killed_at(
        "dataset_scripts.core.hub_folder._carry_user_files",  # after moving the old one aside
        ["build", "--from", str(source), "--out", str(out)],
    )
    assert killed.returncode == -signal.SIGKILL
    assert not out.exists()
    from dataset_scripts.core.hub_folder import clean_leftovers

    clean_leftovers(out)
    assert tree(out) == before and leftovers(tmp_path) == []


# item 14 (build) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make_out",
    [
        lambda tmp: (tmp / "a_file").write_text("x") and tmp / "a_file" / "X",  # parent is a file
        lambda tmp: tmp / "ro" / "X",  # read-only parent
    ],
    ids=["parent-is-a-file", "read-only-parent"],
)
def test_unwritable_out_is_one_line(tmp_path, make_out) -> None:
    source = write_csv(tmp_path / "d.csv")
    (tmp_path / "ro").mkdir()
    out = make_out(tmp_path)
    with read_only_folder(tmp_path / "ro"):
        done = build(source, out, cwd=tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert str(out) in done.stderr or "a_file" in done.stderr


def test_out_dot_inside_a_build_is_refused(tmp_path) -> None:
    source = write_csv(tmp_path / "d.csv")
    out = tmp_path / "X"
    assert build(source, out) == 0
    before = tree(out)
    done = build(source, Path("."), cwd=out)
    assert done.returncode == 2 and "current folder" in done.stderr
    assert "Traceback" not in done.stderr and tree(out) == before


# item 16 (build) ---------------------------------------------------------------------------


def test_name_with_dots_cannot_leave_the_built_root(tmp_path, capsys) -> None:
    from evaluators.cli import main

    source = write_csv(tmp_path / "d.csv")
    root = tmp_path / "root" / "built"
    root.mkdir(parents=True)
    with pytest.raises(SystemExit) as done:
        main(["build", "--from", str(source), "--name", "../../x", "--built-root", str(root)])
    assert done.value.code == 2
    assert "--name '../../x'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists() and not (tmp_path / "root" / "x").exists()


def test_marker_of_a_rebuilt_folder_is_the_new_one(tmp_path) -> None:
    source = write_csv(tmp_path / "d.csv")
    out = tmp_path / "X"
    assert build(source, out) == 0
    write_csv(source, n=70)
    assert build(source, out) == 0
    assert json.loads((out / BUILD_INFO).read_text())["counts"]["labelled_texts"]["test"] == 70
