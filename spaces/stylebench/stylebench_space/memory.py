"""The server process's allocator: few malloc arenas, so memory stays flat under threads.

Gradio runs each request's handler on one of many worker threads. glibc gives threads
their own malloc arenas (up to eight per core), and each arena keeps the pages its
requests fragmented: measured with the Space's request mix called on 40 threads in turn,
the process held about 1,200 MB against about 600 MB on one thread; with two arenas, about
660 MB. :func:`limit_malloc_arenas` sets that limit at start-up, before the server's
threads exist (``mallopt(M_ARENA_MAX)``, the same setting as ``MALLOC_ARENA_MAX``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

#: glibc's ``mallopt`` parameter number of ``M_ARENA_MAX`` (malloc.h)
M_ARENA_MAX = -8
#: arenas by default; ``STYLEBENCH_SPACE_MALLOC_ARENAS`` changes it (0 = glibc's default)
DEFAULT_ARENAS = 2


def limit_malloc_arenas(environ: dict[str, str] | None = None) -> int | None:
    """Cap glibc's malloc arenas; returns the cap set, or None where nothing was set: the
    operator's own ``MALLOC_ARENA_MAX`` is honoured (glibc read it at start), ``0`` turns
    the cap off, and a C library without ``mallopt`` (not glibc) is left as it is."""
    env = os.environ if environ is None else environ
    if env.get("MALLOC_ARENA_MAX"):
        return None
    raw = env.get("STYLEBENCH_SPACE_MALLOC_ARENAS", str(DEFAULT_ARENAS)).strip()
    if not raw.isdigit():
        raise ValueError(
            f"STYLEBENCH_SPACE_MALLOC_ARENAS must be a whole number of arenas, got {raw!r}"
        )
    arenas = int(raw)
    if arenas == 0:
        return None
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
        mallopt = getattr(libc, "mallopt", None)
    except OSError:
        mallopt = None
    if mallopt is None or not mallopt(M_ARENA_MAX, arenas):
        return None
    return arenas
