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
