"""Fault injection for the test suite, reusable by any feature's tests.

* :func:`full_filesystem`: a tiny real file system (tmpfs of a few hundred KiB) that fills
  up, so every writer (Python, pyarrow's C++, SQLite) meets a real ``ENOSPC``.
* :func:`read_only_folder`: a folder whose writes fail with a real ``EROFS`` / ``EACCES``
  (a read-only bind mount as root, where ``chmod`` would not stop a write; ``chmod`` else).
* :func:`enospc_writes`: an in-process hook making Python-level file writes under a folder
  raise ``ENOSPC`` (for code paths that write only through Python, where no mount is
  possible).
* :func:`run_killed_at`: run a ``stylebench`` command in a fresh interpreter that kills
  itself with ``SIGKILL`` the moment it enters a chosen function.
* :func:`misbehaving_server`: an OpenAI-compatible HTTP server on 127.0.0.1 that trickles
  its answer, never answers, loops redirects, answers with vectors of a chosen dimension
  (zero included) or constant vectors, or answers with an HTTP error. Every handler stops by
  itself after ``max_seconds``; the server serves at most ``max_requests`` requests.
* :func:`tcp_server`: a raw TCP server on 127.0.0.1 that accepts and never speaks
  (``"silent"``), closes at once (``"close"``), or answers the HTTP/2 preface with a
  SETTINGS frame as a gRPC server (a Ray head's GCS port) does (``"h2"``).
* :func:`concurrent_calls`: call a function from many threads released at one barrier.

Everything is bounded in time and count and cleans up after itself (unmounts, stops the
server, kills the child).
"""

from __future__ import annotations

import base64
import contextlib
import errno
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


# --- file system -------------------------------------------------------------------------


def _mount(*args: str) -> bool:
    result = subprocess.run(["mount", *args], capture_output=True, text=True, timeout=30)
    return result.returncode == 0


def _umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True, timeout=30)


def can_mount() -> bool:
    """True where this process may mount a tmpfs (root with CAP_SYS_ADMIN)."""
    if os.geteuid() != 0:
        return False
    probe = Path(tempfile.mkdtemp(prefix="stylebench-mount-probe-"))
    try:
        if not _mount("-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)):
            return False
        _umount(probe)
        return True
    finally:
        probe.rmdir()


@contextlib.contextmanager
def full_filesystem(path: Path, size_kb: int = 256) -> Iterator[Path]:
    """Mount a ``size_kb`` KiB tmpfs at ``path`` (created) for the duration; writes past
    its size fail with ``ENOSPC``. Skips the test where mounting is not allowed."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    if not can_mount() or not _mount("-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(path)):
        pytest.skip("needs to mount a tmpfs (root with CAP_SYS_ADMIN) to make a full disk")
    try:
        yield path
    finally:
        _umount(path)


def fill(path: Path, leave_bytes: int = 0) -> None:
    """Fill the file system holding ``path`` until at most ``leave_bytes`` are free."""
    stat = os.statvfs(path)
    free = stat.f_bavail * stat.f_frsize - leave_bytes
    filler = Path(path) / ".filler"
    with filler.open("ab") as handle:
        chunk = b"\0" * 4096
        while free > 0:
            try:
                handle.write(chunk[: min(4096, free)])
                handle.flush()
            except OSError:
                break
            free -= 4096


@contextlib.contextmanager
def read_only_folder(path: Path) -> Iterator[Path]:
    """Make the existing folder ``path`` read-only for the duration: a read-only bind
    mount where this process may mount (root ignores permission bits), ``chmod -w`` on
    the folder and everything below it otherwise."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    if can_mount():
        if not _mount("--bind", str(path), str(path)):
            pytest.skip("cannot bind-mount a folder read-only")
        try:
            if not _mount("-o", "remount,ro,bind", str(path)):
                pytest.skip("cannot remount a folder read-only")
            yield path
        finally:
            _umount(path)
        return
    if os.geteuid() == 0:
        pytest.skip("root without CAP_SYS_ADMIN: no way to make a folder read-only")
    modes = {p: p.stat().st_mode for p in [path, *path.rglob("*")]}
    try:
        for p, mode in modes.items():
            p.chmod(mode & ~0o222)
        yield path
    finally:
        for p, mode in modes.items():
            p.chmod(mode)


@contextlib.contextmanager
def enospc_writes(folder: Path, after_bytes: int = 0) -> Iterator[None]:
    """Python-level file writes under ``folder`` raise ``OSError(ENOSPC)`` once more than
    ``after_bytes`` were written there (``open()`` and ``Path.write_*`` go through it;
    C libraries writing by themselves do not: use :func:`full_filesystem` for those)."""
    import builtins
    import io

    folder = Path(folder).resolve()
    real_open = builtins.open
    written = [0]

    class _Full(io.RawIOBase):
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

        def write(self, data: Any) -> int:
            written[0] += len(data)
            if written[0] > after_bytes:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return self.inner.write(data)

        def __enter__(self) -> Any:
            return self

        def __exit__(self, *exc: Any) -> None:
            self.inner.close()

    def fake_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = real_open(file, mode, *args, **kwargs)
        try:
            inside = isinstance(file, str | os.PathLike) and folder in (
                Path(file).resolve().parents
            )
        except (OSError, ValueError):
            inside = False
        if inside and any(c in mode for c in "wax+"):
            return _Full(handle)
        return handle

    builtins.open = fake_open
    io.open = fake_open  # Path.write_text / write_bytes use io.open
    try:
        yield
    finally:
        builtins.open = real_open
        io.open = real_open


# --- processes ---------------------------------------------------------------------------

_KILL_CHILD = """
import os, signal, sys, importlib
module_name, _, attr = sys.argv[1].rpartition(".")
module = importlib.import_module(module_name)
real = getattr(module, attr)
def _die(*args, **kwargs):
    sys.stdout.flush(); sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)
setattr(module, attr, _die)
from evaluators.cli import main
main(sys.argv[2:])
"""


def run_killed_at(
    target: str, argv: Sequence[str], *, cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``stylebench <argv>`` in a fresh interpreter that SIGKILLs itself on entering
    ``target`` (``"package.module.function"``, looked up as a module attribute, so code
    that calls it through the module is caught). The returncode is -9 when it got there."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run(
        [sys.executable, "-c", _KILL_CHILD, target, *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_cli(
    argv: Sequence[str],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """``stylebench <argv>`` in a fresh interpreter (the real entry point, its exit code
    and its stderr), killed after ``timeout`` seconds."""
    full_env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, "-c", "from evaluators.cli import main; main()", *argv],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# --- network -----------------------------------------------------------------------------


@dataclass
class ServerBehaviour:
    """What :func:`misbehaving_server` does for ``/embeddings`` (``/models`` answers
    ``models`` as a normal server would, unless ``mode`` applies to every route).

    mode: ``"ok"`` (vectors of ``dim`` dimensions, ``constant`` makes every vector the
    same), ``"trickle"`` (a valid status line, then one byte every ``trickle_every``
    seconds), ``"silent"`` (reads the request and never answers), ``"redirect"`` (302 to
    itself), ``"status"`` (answers ``status`` with ``body``).
    """

    mode: str = "ok"
    dim: int = 4
    constant: bool = False
    status: int = 400
    body: str = '{"error": {"message": "bad request"}}'
    trickle_every: float = 0.2
    every_route: bool = False
    models: list[str] = field(default_factory=lambda: ["m"])


@dataclass
class FaultyServer:
    url: str
    behaviour: ServerBehaviour
    requests: list[tuple[str, str, dict[str, str]]]  # (method, path, headers)


def _vectors(texts: list[str], dim: int, constant: bool) -> list[list[float]]:
    out = []
    for i, text in enumerate(texts):
        if constant:
            out.append([0.0] * dim)
        else:
            seed = sum(map(ord, text)) + i
            out.append([float((seed * (k + 3)) % 17 - 8) for k in range(dim)])
    return out


@contextlib.contextmanager
def misbehaving_server(
    behaviour: ServerBehaviour, *, max_seconds: float = 30.0, max_requests: int = 200
) -> Iterator[FaultyServer]:
    """Serve ``behaviour`` on ``http://127.0.0.1:<free port>/v1``; every handler gives up
    after ``max_seconds`` and requests past ``max_requests`` get a 503; the server stops
    (and its sleeping handlers return) when the block ends."""
    stop = threading.Event()
    log: list[tuple[str, str, dict[str, str]]] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def _reply(self, status: int, payload: Any, headers: dict[str, str] | None = None):
            data = json.dumps(payload).encode() if not isinstance(payload, bytes) else payload
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def _handle(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}") if length else {}
            log.append((method, self.path, dict(self.headers)))
            if len(log) > max_requests:
                self._reply(503, {"error": "request limit of the test server"})
                return
            b = behaviour
            is_models = self.path.rstrip("/").endswith("/models")
            if is_models and not b.every_route:
                self._reply(200, {"data": [{"id": m, "object": "model"} for m in b.models]})
                return
            if b.mode == "silent":
                stop.wait(max_seconds)
                return
            if b.mode == "redirect":
                self._reply(302, b"", {"Location": self.path})
                return
            if b.mode == "status":
                self._reply(b.status, b.body.encode())
                return
            texts = body.get("input") or []
            texts = [texts] if isinstance(texts, str) else list(texts)
            vectors = _vectors(texts, b.dim, b.constant)
            if body.get("encoding_format") == "base64":
                import numpy as np

                encoded: list[Any] = [
                    base64.b64encode(np.asarray(v, "<f4").tobytes()).decode() for v in vectors
                ]
            else:
                encoded = vectors
            payload = {
                "object": "list",
                "model": body.get("model"),
                "data": [
                    {"object": "embedding", "index": i, "embedding": v}
                    for i, v in enumerate(encoded)
                ],
            }
            data = json.dumps(payload).encode()
            if b.mode == "trickle":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                deadline = time.monotonic() + max_seconds
                for i in range(len(data)):
                    if stop.wait(b.trickle_every) or time.monotonic() > deadline:
                        return
                    try:
                        self.wfile.write(data[i : i + 1])
                        self.wfile.flush()
                    except OSError:
                        return
                return
            self._reply(200, data)

        def do_GET(self) -> None:
            self._handle("GET")

        def do_POST(self) -> None:
            self._handle("POST")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield FaultyServer(f"http://127.0.0.1:{server.server_port}/v1", behaviour, log)
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


# an HTTP/2 SETTINGS frame with no settings (RFC 9113 6.5), which a gRPC server sends first
H2_SETTINGS_FRAME = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


@contextlib.contextmanager
def tcp_server(mode: str, *, max_seconds: float = 30.0, port: int = 0) -> Iterator[int]:
    """Listen on ``127.0.0.1:port`` (0: a free port, yielded) and treat every connection
    as ``mode`` says: ``"silent"`` holds it open and never sends a byte, ``"close"``
    closes it at once, ``"h2"`` reads the client's first bytes and answers with an HTTP/2
    SETTINGS frame. Connections are closed after ``max_seconds`` or when the block ends."""
    if mode not in ("silent", "close", "h2"):
        raise ValueError(f"unknown tcp_server mode {mode!r}")
    stop = threading.Event()
    server = socket.create_server(("127.0.0.1", port))
    server.settimeout(0.1)
    held: list[socket.socket] = []

    def handle(conn: socket.socket) -> None:
        with conn:
            if mode == "h2":
                conn.settimeout(max_seconds)
                with contextlib.suppress(OSError):
                    conn.recv(64)
                    conn.sendall(H2_SETTINGS_FRAME)
            if mode != "close":
                stop.wait(max_seconds)

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(conn)
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        server.close()
        for conn in held:
            with contextlib.suppress(OSError):
                conn.close()


# --- concurrency -------------------------------------------------------------------------


def concurrent_calls(
    function: Callable[[int], Any], n: int = 8, *, timeout: float = 60.0
) -> list[BaseException | Any]:
    """Call ``function(i)`` for i in range(n) from n threads released together at one
    barrier; returns each call's result or the exception it raised (in order of i)."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def worker(i: int) -> None:
        try:
            barrier.wait(timeout)
            results[i] = function(i)
        except BaseException as error:  # collected for the test to judge
            results[i] = error

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    return results


def kill_after(process: subprocess.Popen[Any], seconds: float) -> threading.Timer:
    """A started timer that SIGKILLs ``process`` after ``seconds`` (cancel it when done)."""
    timer = threading.Timer(
        seconds, lambda: process.poll() is None and process.send_signal(signal.SIGKILL)
    )
    timer.daemon = True
    timer.start()
    return timer
