"""Issue 26, item 9 (the bounded parts, fast): the Space's charts folder stays bounded
however many runs it serves, the chart a run returns is still there, and a run releases
its embedding-cache connection. The memory measurement over 2,000 mixed requests is
``tests/benchmarks/bench_space_memory.py``."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest

from tests.space.server import SPACE_DIR

if str(SPACE_DIR) not in sys.path:
    sys.path.insert(0, str(SPACE_DIR))


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("STYLEBENCH_SPACE_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_charts_folder_stays_bounded(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from stylebench_space import embedding

    monkeypatch.setattr(embedding, "MAX_CHARTS", 2)
    charts = []
    for _ in range(4):
        run = embedding.run_embedding("function-words", [embedding.DEMO_KEY], "", ["clustering"])
        assert run.chart is not None and run.chart.is_file()  # the one just returned is kept
        charts.append(run.chart)
    assert len(list((home / "charts").glob("*.png"))) == 2
    assert charts[-1].is_file() and not charts[0].exists()


def test_a_run_releases_its_cache_connection(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from stylebench_space import embedding

    from evaluators import cache

    opened: list[cache.EmbeddingCache] = []
    real_init = cache.EmbeddingCache.__init__

    def remember(self, *args, **kwargs) -> None:
        real_init(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(cache.EmbeddingCache, "__init__", remember)
    embedding.run_embedding("function-words", [embedding.DEMO_KEY], "", ["clustering"])
    assert opened
    for entry in opened:
        with pytest.raises(sqlite3.ProgrammingError, match="closed"):
            entry._db.execute("SELECT 1")


def test_gradio_file_cache_is_swept(home: Path) -> None:
    """Every file an answer returns is copied into Gradio's cache and remembered in a set:
    the Space configures Gradio's sweep so both stay bounded over a long run."""
    from stylebench_space import ui

    demo = ui.build_demo()
    assert demo.delete_cache == (ui.CACHE_SWEEP_SECONDS, ui.CACHE_MAX_AGE_SECONDS)
    assert 0 < ui.CACHE_SWEEP_SECONDS <= ui.CACHE_MAX_AGE_SECONDS <= 24 * 3600


ARENA_PROBE = """
import ctypes, sys, threading
sys.path.insert(0, {space!r})
from stylebench_space.memory import limit_malloc_arenas
print(limit_malloc_arenas({env!r}), flush=True)
libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
start = threading.Barrier(8)
def work():
    start.wait()
    blocks = [libc.malloc(64) for _ in range(20000)]
    for b in blocks:
        libc.free(b)
threads = [threading.Thread(target=work) for _ in range(8)]
[t.start() for t in threads]
[t.join() for t in threads]
libc.malloc_stats()  # one "Arena N:" block per arena, on stderr
"""


def _arenas(env: dict[str, str]) -> tuple[str, int]:
    import subprocess

    code = ARENA_PROBE.format(space=str(SPACE_DIR), env=env)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout.strip(), done.stderr.count("Arena ")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_the_space_caps_malloc_arenas_so_threads_share_them() -> None:
    """Eight threads allocating at once: two arenas under the Space's cap, more without it
    (glibc gives contending threads arenas of their own, which hold fragmented pages: the
    Space's memory grew with its worker threads)."""
    capped, n_capped = _arenas({})
    assert capped == "2" and n_capped <= 2
    off, n_off = _arenas({"STYLEBENCH_SPACE_MALLOC_ARENAS": "0"})
    assert off == "None" and n_off > 2


def test_the_arena_cap_honours_the_operator() -> None:
    from stylebench_space.memory import limit_malloc_arenas

    assert limit_malloc_arenas({"MALLOC_ARENA_MAX": "4"}) is None  # glibc read it itself
    with pytest.raises(ValueError, match="whole number of arenas, got 'two'"):
        limit_malloc_arenas({"STYLEBENCH_SPACE_MALLOC_ARENAS": "two"})


def test_app_caps_arenas_before_it_imports_the_space() -> None:
    source = (SPACE_DIR / "app.py").read_text(encoding="utf-8")
    assert source.index("limit_malloc_arenas()") < source.index("from stylebench_space import")
