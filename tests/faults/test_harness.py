"""The fault harness itself: each fault is real (the write fails with the errno a real
disk gives, the server misbehaves as named) and bounded; the concurrent-writer helper
releases its callers together (here: eight caches writing one SQLite file at once)."""

from __future__ import annotations

import errno
import time

import numpy as np
import pytest

from tests.faults.harness import (
    ServerBehaviour,
    concurrent_calls,
    enospc_writes,
    fill,
    full_filesystem,
    misbehaving_server,
    read_only_folder,
)


def test_enospc_hook_fails_python_writes_under_the_folder_only(tmp_path) -> None:
    inside, outside = tmp_path / "in", tmp_path / "out.txt"
    inside.mkdir()
    with enospc_writes(inside, after_bytes=3):
        with pytest.raises(OSError) as error:
            (inside / "f.txt").write_text("more than three bytes")
        assert error.value.errno == errno.ENOSPC
        outside.write_text("fine")  # elsewhere writes go through
    (inside / "f.txt").write_text("after the block")
    assert outside.read_text() == "fine"


def test_full_filesystem_is_really_full(tmp_path) -> None:
    with full_filesystem(tmp_path / "disk", size_kb=64) as disk:
        fill(disk)
        with pytest.raises(OSError) as error, (disk / "x").open("wb") as handle:
            handle.write(b"\0" * 65536)
            handle.flush()
        assert error.value.errno == errno.ENOSPC


def test_read_only_folder_refuses_writes_even_for_root(tmp_path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    with read_only_folder(folder), pytest.raises(OSError) as error:
        (folder / "x").write_text("no")
    assert error.value.errno in (errno.EROFS, errno.EACCES)
    (folder / "x").write_text("yes")  # writable again afterwards


def test_silent_server_is_bounded() -> None:
    import urllib.request

    with misbehaving_server(ServerBehaviour(mode="silent"), max_seconds=1.0) as server:
        start = time.monotonic()
        request = urllib.request.Request(server.url + "/embeddings", data=b"{}", method="POST")
        with pytest.raises(Exception):  # noqa: B017 (the handler gives up: no answer)
            urllib.request.urlopen(request, timeout=5).read()
        assert time.monotonic() - start < 4.0


def test_concurrent_cache_writers_share_one_file(tmp_path) -> None:
    from evaluators.cache import EmbeddingCache

    identity = {"kind": "test", "model": "concurrent"}
    texts = [f"text {i}" for i in range(50)]
    vectors = np.arange(50 * 8, dtype=np.float32).reshape(50, 8)

    def write(i: int) -> int:
        cache = EmbeddingCache(tmp_path, identity)
        cache.put_many(texts[i % 4 :: 4], vectors[i % 4 :: 4])  # two writers per slice
        cache.close()
        return i

    results = concurrent_calls(write, 8)
    assert results == list(range(8)), results
    cache = EmbeddingCache(tmp_path, identity)
    assert cache.verify() == (50, 0)
    found = cache.get_many(texts)
    assert all(np.array_equal(found[t], vectors[i]) for i, t in enumerate(texts))
