"""Issue 29, start-up: the warm-up of the other tabs runs in the background after the
server listens, the handlers that may import its libraries wait for it, the leaderboard's
do not, and ``/health`` reports it beside the table's self-check."""

from __future__ import annotations

import sys
import threading

import pytest

from tests.space.server import SPACE_DIR

if str(SPACE_DIR) not in sys.path:
    sys.path.insert(0, str(SPACE_DIR))


@pytest.fixture
def gate():
    from stylebench_space import warmup

    warmup.reset()
    release = threading.Event()
    warmup.start(lambda: release.wait(30))
    yield warmup, release
    release.set()
    warmup.wait(30)
    warmup.reset()


def test_guarded_handlers_wait_for_the_warm_up(gate) -> None:
    from stylebench_space import ui

    warmup, release = gate
    calls: list[str] = []
    waiting = threading.Thread(target=ui.guarded(lambda: calls.append("warm")))
    waiting.start()
    ui.guarded_now(lambda: calls.append("now"))()
    waiting.join(0.5)
    assert calls == ["now"] and waiting.is_alive()  # the leaderboard answers during it
    assert warmup.state()["status"] == "running"
    release.set()
    waiting.join(30)
    assert calls == ["now", "warm"]
    assert warmup.state()["status"] == "done"


def test_health_reports_the_warm_up(gate) -> None:
    from stylebench_space import health

    warmup, release = gate
    assert health.health_state()["warm_up"]["status"] == "running"
    release.set()
    warmup.wait(30)
    state = health.health_state()
    assert state["warm_up"]["status"] == "done" and "seconds" in state["warm_up"]


def test_a_failed_warm_up_is_reported_not_raised() -> None:
    from stylebench_space import warmup

    warmup.reset()

    def boom() -> None:
        raise RuntimeError("no transformers here")

    warmup.start(boom)
    warmup.wait(30)
    state = warmup.state()
    warmup.reset()
    assert state["status"] == "failed" and "no transformers here" in state["error"]


def test_the_leaderboard_tab_does_not_wait() -> None:
    source = (SPACE_DIR / "stylebench_space" / "ui.py").read_text()
    assert "leaderboard_tab.build(guarded_now)" in source
    app = (SPACE_DIR / "app.py").read_text()
    assert app.index("prevent_thread_lock=True") < app.index("warmup.start(warm_up)")
