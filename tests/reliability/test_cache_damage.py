"""Issue 15, item 6: the embedding cache verifies what it returns. Zeroed vectors are
detected (checksum), named with the file and re-encoded, so scores do not change;
a truncated or garbage file is an error naming the file and the recovery."""

from __future__ import annotations

import sqlite3
import warnings
from pathlib import Path

import numpy as np
import pytest

from dataset_scripts.build import build_dataset
from dataset_scripts.registry import get_dataset
from evaluators.cache import CacheDamagedError, CacheDamageWarning, EmbeddingCache
from evaluators.cli import main
from evaluators.demo import make_encoder
from evaluators.run.runner import Runner, plan_tasks

IDENTITY = {"encoder": "test", "version": 1}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder, _ = build_dataset(
        get_dataset("stylebench/demo"), None, tmp_path_factory.mktemp("d") / "demo"
    )
    return folder


def _zero_vectors_in_place(path: Path, limit: int) -> int:
    """Overwrite up to ``limit`` stored vectors with zero bytes directly in the file."""
    with sqlite3.connect(path) as db:
        blobs = [row[0] for row in db.execute("SELECT vector FROM vectors LIMIT ?", (limit,))]
    db.close()
    data = bytearray(path.read_bytes())
    zeroed = 0
    for blob in blobs:
        at = data.find(blob)
        if at >= 0:
            data[at : at + len(blob)] = bytes(len(blob))
            zeroed += 1
    path.write_bytes(bytes(data))
    return zeroed


def _run(demo: Path, cache_dir: Path) -> tuple[float, int]:
    runner = Runner(
        make_encoder("function-words"), "function-words", cache_dir=cache_dir, progress=False
    )
    (record,) = runner.run(plan_tasks([str(demo)], ["all_to_all_pairs"]))
    runner.cache.close()
    return record.metrics["auc"], record.embedding["texts_encoded"]


@pytest.mark.slow
def test_zeroed_vectors_are_detected_and_reencoded(demo: Path, tmp_path: Path) -> None:
    auc, encoded = _run(demo, tmp_path)
    assert encoded > 400
    (db_file,) = tmp_path.rglob("embeddings.sqlite")
    assert _zero_vectors_in_place(db_file, 400) == 400
    with pytest.warns(CacheDamageWarning, match=rf"{db_file}: 400 cached vector\(s\) failed"):
        auc_again, reencoded = _run(demo, tmp_path)
    assert reencoded == 400
    assert auc_again == auc  # not 0.522 -> 0.507 as before: damaged vectors never used
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheDamageWarning)  # the rows were replaced
        assert _run(demo, tmp_path) == (auc, 0)


def test_verify_counts_damage(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path, IDENTITY)
    vectors = np.random.default_rng(0).normal(size=(50, 8)).astype(np.float32)
    cache.put_many([f"t{i}" for i in range(50)], vectors)
    cache.close()
    _zero_vectors_in_place(cache.path, 7)
    reopened = EmbeddingCache(tmp_path, IDENTITY)
    assert reopened.verify() == (50, 7)
    with pytest.warns(CacheDamageWarning):
        found = reopened.get_many([f"t{i}" for i in range(50)])
    assert len(found) == 43
    for i, vector in enumerate(vectors):
        if f"t{i}" in found:
            assert np.array_equal(found[f"t{i}"], vector)


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_damaged_file_names_file_and_recovery(tmp_path: Path, damage: str) -> None:
    cache = EmbeddingCache(tmp_path, IDENTITY)
    cache.put_many([f"t{i}" for i in range(400)], np.ones((400, 64), np.float32))
    cache.close()
    data = cache.path.read_bytes()
    cache.path.write_bytes(data[: len(data) // 3] if damage == "truncated" else b"\xde\xad" * 9000)
    with pytest.raises(CacheDamagedError) as info:
        EmbeddingCache(tmp_path, IDENTITY).get_many([f"t{i}" for i in range(400)])
    message = str(info.value)
    assert str(cache.path) in message and f"mv {cache.path} {cache.path}.damaged" in message
    # the documented recovery works: move it aside, a fresh cache is created
    cache.path.rename(cache.path.with_name(cache.path.name + ".damaged"))
    assert EmbeddingCache(tmp_path, IDENTITY).get_many(["t1"]) == {}


def test_cli_reports_damaged_cache_in_one_line(demo: Path, tmp_path: Path, capsys) -> None:
    cache_dir = tmp_path / "cache"
    _run(demo, cache_dir)
    (db_file,) = cache_dir.rglob("embeddings.sqlite")
    db_file.write_bytes(b"garbage" * 3000)
    for extra in db_file.parent.glob("embeddings.sqlite-*"):
        extra.unlink()
    with pytest.raises(SystemExit) as done:
        main(
            [
                "run",
                "--model",
                "function-words",
                "--dataset",
                str(demo),
                "--tasks",
                "all_to_all_pairs",
                "--cache-dir",
                str(cache_dir),
                "--out",
                str(tmp_path / "r"),
                "--no-progress",
            ]
        )
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and str(db_file) in err and "damaged" in err


def test_old_cache_without_checksums_is_upgraded(tmp_path: Path) -> None:
    """A cache written before checksums: its vectors are not trusted, they are re-encoded."""
    cache = EmbeddingCache(tmp_path, IDENTITY)
    path = cache.path
    cache.close()
    path.unlink()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE vectors (key TEXT PRIMARY KEY, dim INTEGER, vector BLOB)")
        from evaluators.cache import text_key

        db.execute("INSERT INTO vectors VALUES (?, ?, ?)", (text_key("a"), 2, bytes(8)))
    db.close()
    upgraded = EmbeddingCache(tmp_path, IDENTITY)
    assert upgraded.get_many(["a"]) == {}
    upgraded.put_many(["a"], np.array([[1.0, 2.0]], np.float32))
    assert upgraded.get_many(["a"])["a"].tolist() == [1.0, 2.0]
