"""stylebench Space: ``python spaces/stylebench/app.py`` (honours GRADIO_SERVER_NAME/PORT).

On Hugging Face Spaces this file is the ``app_file``; the logic lives in ``stylebench_space``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from stylebench_space.memory import limit_malloc_arenas  # noqa: E402

limit_malloc_arenas()  # first, before any thread (stylebench_space/memory.py)

from stylebench_space import health, warmup  # noqa: E402
from stylebench_space.embedding import space_home  # noqa: E402
from stylebench_space.ui import build_demo, import_plotting, warm_up  # noqa: E402

demo = build_demo()

if __name__ == "__main__":
    health.self_check()  # the leaderboard table loads and every view answers (GET /health)
    import_plotting()  # before serving (see its docstring)
    # GRADIO_SERVER_NAME / GRADIO_SERVER_PORT are read by launch() itself
    demo.launch(
        allowed_paths=[str(space_home())],
        show_error=False,
        app_kwargs={"routes": health.routes()},
        prevent_thread_lock=True,
    )
    # the leaderboard serves now; the other tabs' libraries load in the background (their
    # handlers wait for it; /health reports it as "warm_up")
    warmup.start(warm_up)
    demo.block_thread()
