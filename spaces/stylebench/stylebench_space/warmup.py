"""The Space's warm-up: the heavy libraries (evaluate, datasets, transformers) imported once,
in one background thread started after the server listens, so the leaderboard answers
within seconds of the start while the other tabs' libraries load.

Importing transformers in two threads at once raced in its lazy module (``AttributeError:
... PreTrainedTokenizerBase``), so every handler that may import those libraries calls
:func:`wait` first: it returns at once when no warm-up was started (tests, scripts) or when
it has finished, and otherwise waits for it (at most :data:`WAIT_SECONDS`). ``GET /health``
reports :func:`state` beside the table's self-check.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("stylebench_space")
WAIT_SECONDS = 300.0  # a request waits at most this long for the warm-up

_lock = threading.Lock()
_done = threading.Event()
_thread: threading.Thread | None = None
_state: dict[str, Any] = {"status": "not started"}


def start(work: Callable[[], None]) -> threading.Thread:
    """Run ``work`` once in a daemon thread (a second call returns the first thread)."""
    global _thread
    with _lock:
        if _thread is not None:
            return _thread
        _done.clear()
        _state.clear()
        _state.update(status="running", started_at=time.strftime("%H:%M:%SZ", time.gmtime()))
        _thread = threading.Thread(target=_run, args=(work,), name="space-warm-up", daemon=True)
        _thread.start()
        return _thread


def _run(work: Callable[[], None]) -> None:
    started = time.perf_counter()
    status, error = "done", None
    try:
        work()
    except Exception as exc:  # a warm-up must never take the Space down
        log.exception("warm-up failed")
        status, error = "failed", f"{type(exc).__name__}: {exc}"
    with _lock:
        _state.update(status=status, seconds=round(time.perf_counter() - started, 3))
        if error:
            _state["error"] = error
    _done.set()


def wait(timeout: float = WAIT_SECONDS) -> None:
    """Return once the warm-up has finished (at once when none was started)."""
    with _lock:
        running = _thread is not None
    if running:
        _done.wait(timeout)


def state() -> dict[str, Any]:
    """``{"status": "not started" | "running" | "done" | "failed", "seconds": ...}``."""
    with _lock:
        return dict(_state)


def reset() -> None:
    """Forget a finished warm-up (tests)."""
    global _thread
    with _lock:
        _thread = None
        _state.clear()
        _state["status"] = "not started"
    _done.clear()
