"""``/health`` and the start-up self-check of the Space.

:func:`self_check` runs once before the Space serves: the leaderboard table loads (or the
reason it did not), and every view of every benchmark answers. ``GET /health`` returns
that result as JSON: status 200 with ``"status": "ok"`` when the configured table loaded
and every view answered, 503 with the reason otherwise (the Space still serves the paper's
rows then); ``warm_up`` says whether the other tabs' libraries have loaded
(:mod:`stylebench_space.warmup`). :func:`routes` gives the route for ``demo.launch(app_kwargs={"routes": ...})``,
so it sits on Gradio's own FastAPI app, before Gradio's routes.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

log = logging.getLogger("stylebench_space")
_state: dict[str, Any] = {}
_lock = threading.Lock()


def self_check() -> dict[str, Any]:
    """Load the leaderboard and answer every view once; the result is kept for /health."""
    from stylebench_space.leaderboard_data import get_leaderboard

    started = time.perf_counter()
    problems: list[str] = []
    views = 0
    try:
        board = get_leaderboard()
        info = board.health()
        if board.error:
            problems.append(f"leaderboard table: {board.error}")
        for benchmark in board.benchmark_names():
            for view in board.views(benchmark):
                frame, _ = board.table(benchmark, view)
                views += 1
                if frame.empty and benchmark in board.benchmarks:
                    problems.append(f"{benchmark} / {view}: no rows")
    except Exception as error:  # the check reports, it never takes the Space down
        log.exception("start-up self-check failed")
        info = {}
        problems.append(f"{type(error).__name__}: {error}")
    state = {
        **info,
        "status": "ok" if not problems else "degraded",
        "problems": problems,
        "views_checked": views,
        "self_check_seconds": round(time.perf_counter() - started, 3),
        "checked_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    with _lock:
        _state.clear()
        _state.update(state)
    if problems:
        log.error("start-up self-check: %s", "; ".join(problems))
    else:
        log.info("start-up self-check passed: %d views", views)
    return state


def health_state() -> dict[str, Any]:
    """The self-check's result, and the background warm-up's state under ``warm_up`` (the
    status code follows the table alone: the leaderboard is served while the other tabs'
    libraries load, and their requests wait for them)."""
    from stylebench_space import warmup

    with _lock:
        state = dict(_state)
    if not state:
        state = self_check()
    return {**state, "warm_up": warmup.state()}


def routes() -> list[Any]:
    """``GET /health`` as a FastAPI route."""
    from fastapi.responses import JSONResponse
    from fastapi.routing import APIRoute

    def health() -> JSONResponse:
        state = health_state()
        return JSONResponse(state, status_code=200 if state["status"] == "ok" else 503)

    return [APIRoute("/health", health, methods=["GET"], include_in_schema=False)]
