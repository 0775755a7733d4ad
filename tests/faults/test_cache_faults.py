"""Issue 26, item 13: a full disk or a read-only cache is named as such, never as "damaged;
move it aside" (that advice throws a healthy cache away), and the cache is kept intact."""

from __future__ import annotations

import numpy as np
import pytest

from dataset_scripts.core.errors import StylebenchError
from evaluators.cache import CacheDamagedError, EmbeddingCache
from tests.faults.harness import fill, full_filesystem, read_only_folder

IDENTITY = {"kind": "test", "model": "faults"}


def _texts(n: int, start: int = 0) -> list[str]:
    return [f"text number {i} " + "x" * 200 for i in range(start, start + n)]


def _vectors(n: int, dim: int = 256) -> np.ndarray:
    return np.random.default_rng(n).standard_normal((n, dim)).astype(np.float32)


def test_full_disk_is_disk_full_and_the_cache_is_kept(tmp_path) -> None:
    with full_filesystem(tmp_path / "disk", size_kb=512) as disk:
        cache = EmbeddingCache(disk, IDENTITY)
        cache.put_many(_texts(20), _vectors(20))
        fill(disk)
        with pytest.raises(StylebenchError) as error:
            for round_ in range(50):  # until SQLite needs a new page
                cache.put_many(_texts(200, 1000 * (round_ + 1)), _vectors(200))
        message = str(error.value)
        assert type(error.value).__name__ == "CacheStorageError"
        assert "disk full" in message and "not damaged" in message
        assert "move it aside" not in message and "\n" not in message
        (disk / ".filler").unlink()
        again = EmbeddingCache(disk, IDENTITY)  # healthy: every committed vector verifies
        total, damaged = again.verify()
        assert damaged == 0 and total >= 20
        assert len(again.get_many(_texts(20))) == 20


def test_read_only_cache_is_named_read_only(tmp_path) -> None:
    root = tmp_path / "cache"
    cache = EmbeddingCache(root, IDENTITY)
    cache.put_many(_texts(5), _vectors(5))
    cache.close()
    with read_only_folder(root):
        with pytest.raises(StylebenchError) as error:
            ro = EmbeddingCache(root, IDENTITY)
            ro.put_many(_texts(5, 100), _vectors(5))
        message = str(error.value)
        assert "read-only" in message and "move it aside" not in message
        assert "--no-cache" in message
    assert EmbeddingCache(root, IDENTITY).verify() == (5, 0)


def test_read_only_root_for_a_new_identity(tmp_path) -> None:
    root = tmp_path / "cache"
    root.mkdir()
    with read_only_folder(root), pytest.raises(StylebenchError, match="read-only"):
        EmbeddingCache(root, {"kind": "test", "model": "new"})


def test_a_really_damaged_file_is_still_damaged(tmp_path) -> None:
    cache = EmbeddingCache(tmp_path, IDENTITY)
    path = cache.path
    cache.close()
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(CacheDamagedError, match="move it aside"):
        EmbeddingCache(tmp_path, IDENTITY).get_many(["a"])


def test_fresh_cache_opened_by_eight_writers_at_once_never_reports_locked(tmp_path) -> None:
    """CI failure of stop 37: eight writers opening one new cache file together got
    "database is locked" from the WAL switch (SQLite's busy timeout does not cover it;
    about 1 race in 40 on 2 cores). Sixty fresh races: every writer opens and writes."""
    from tests.faults.harness import concurrent_calls

    texts = [f"text {i}" for i in range(16)]
    vectors = np.arange(16 * 4, dtype=np.float32).reshape(16, 4)
    for race in range(60):
        root = tmp_path / f"race{race}"

        def write(i: int, root=root) -> int:
            cache = EmbeddingCache(root, IDENTITY)
            cache.put_many(texts[i % 4 :: 4], vectors[i % 4 :: 4])
            cache.close()
            return i

        assert concurrent_calls(write, 8) == list(range(8)), f"race {race}"
    assert EmbeddingCache(tmp_path / "race59", IDENTITY).verify() == (16, 0)


def test_a_lock_held_past_the_deadline_is_raised_as_it_came(monkeypatch, tmp_path) -> None:
    """The retry is bounded: a lock that never clears ends in SQLite's own error after
    LOCK_DEADLINE_S, and a lock that clears after two tries is waited out."""
    import sqlite3

    import evaluators.cache as cache_module

    calls: list[int] = []

    def locked_twice() -> str:
        calls.append(1)
        if len(calls) <= 2:
            raise sqlite3.OperationalError("database is locked")
        return "done"

    assert EmbeddingCache._retry_locked(locked_twice) == "done" and len(calls) == 3

    monkeypatch.setattr(cache_module, "LOCK_DEADLINE_S", 0.05)

    def always_locked() -> None:
        raise sqlite3.OperationalError("database is locked")

    with pytest.raises(sqlite3.OperationalError, match="locked"):
        EmbeddingCache._retry_locked(always_locked)

    def damaged() -> None:
        raise sqlite3.OperationalError("no such table: vectors")

    calls.clear()
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        EmbeddingCache._retry_locked(lambda: calls.append(1) or damaged())
    assert len(calls) == 1  # only a lock is retried
