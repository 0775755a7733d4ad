"""The one HTTP client that fetches raw downloads (every host but the Hub, which goes
through ``huggingface_hub``): httpx with timeouts, retries with exponential backoff,
HTTP Range resume of a partial file, a low-speed limit (a server that trickles bytes is
dropped, as curl's ``--speed-limit``/``--speed-time`` do), and a progress bar per file.

A file is written to ``<name>.part`` beside its destination and renamed once complete,
so the destination is never half-written; a ``.part`` left by a cut connection is
resumed with a ``Range`` request, and removed when the download finally fails.

Every failure is one :class:`DownloadError` line naming the URL or folder and what to
do. Deadlines (all overridable by environment, for tests and slow links):

* ``STYLEBENCH_DOWNLOAD_TIMEOUT`` (default 30 s): connect and read timeout;
* ``STYLEBENCH_DOWNLOAD_RETRIES`` (default 4): retries after a cut or a 5xx/429,
  waiting 1, 2, 4, 8 s (``STYLEBENCH_DOWNLOAD_BACKOFF`` scales the 1 s);
* ``STYLEBENCH_DOWNLOAD_MIN_RATE`` (default 1024 bytes/s) over
  ``STYLEBENCH_DOWNLOAD_RATE_WINDOW`` (default 60 s).

So a dead host fails within ``(retries + 1) * timeout`` plus the backoff, and a
trickling one within ``(retries + 1) * window``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import StylebenchError


class DownloadError(StylebenchError):
    """A download that could not be completed: one line, what failed and what to do."""


@dataclass(frozen=True)
class Limits:
    timeout: float = 30.0
    retries: int = 4
    backoff: float = 1.0
    min_rate: float = 1024.0
    rate_window: float = 60.0

    @classmethod
    def from_env(cls) -> Limits:
        """The defaults, each overridden by ``STYLEBENCH_DOWNLOAD_<FIELD>`` when set."""
        values = {}
        for item in fields(cls):
            given = os.environ.get(f"STYLEBENCH_DOWNLOAD_{item.name.upper()}")
            if given:
                values[item.name] = int(given) if item.name == "retries" else float(given)
        return cls(**values)


class _Retry(Exception):
    """A transient failure: retried (resuming from the .part file)."""


class _TooSlow(Exception):
    pass


def disk_error(error: OSError, folder: Path) -> DownloadError:
    """The one line for a write that failed in ``folder`` (full, read-only, denied)."""
    if error.errno == errno.ENOSPC:
        what = "no space left on the device"
        todo = "free space there, or point STYLEBENCH_CACHE at a larger disk"
    elif error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        what = "not writable (read-only or permission denied)"
        todo = "point STYLEBENCH_CACHE at a writable folder"
    else:
        what = error.strerror or str(error)
        todo = "check the folder, or point STYLEBENCH_CACHE elsewhere"
    return DownloadError(f"cannot write to {folder}: {what}; {todo}")


def client(limits: Limits | None = None) -> Any:
    """The httpx client every download uses (redirects followed, HF_TOKEN not sent)."""
    import httpx

    limits = limits or Limits.from_env()
    timeout = httpx.Timeout(limits.timeout, connect=limits.timeout)
    return httpx.Client(
        timeout=timeout,
        follow_redirects=True,
        headers={"User-Agent": "stylebench-download", "Accept-Encoding": "identity"},
    )


_SHARED: dict[Limits, Any] = {}
_SHARED_LOCK = threading.Lock()


def shared_client(limits: Limits) -> Any:
    """One client per set of limits for the whole process (httpx clients are
    thread-safe; making one per file costs an SSL context and a new connection each)."""
    with _SHARED_LOCK:
        if limits not in _SHARED:
            _SHARED[limits] = client(limits)
        return _SHARED[limits]


def fetch(
    url: str,
    dest: Path,
    *,
    session: Any = None,
    limits: Limits | None = None,
    progress: Callable[[int, int | None], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Download ``url`` to ``dest`` (via ``dest.part``); returns the bytes written.

    ``progress(done, total)`` is called as bytes arrive. Retries resume with ``Range``;
    a server that ignores it (200 instead of 206) restarts the file."""
    import httpx

    limits = limits or Limits.from_env()
    session = session or shared_client(limits)
    part = dest.with_name(dest.name + ".part")
    try:
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise disk_error(error, dest.parent) from None
        attempt = 0
        while True:
            try:
                _fetch_once(session, url, part, limits, progress)
                break
            except (_Retry, httpx.TransportError) as error:
                attempt += 1
                if attempt > limits.retries:
                    raise DownloadError(_give_up(url, error, limits)) from None
                sleep(limits.backoff * 2 ** (attempt - 1))
            except _TooSlow as error:
                attempt += 1
                if attempt > limits.retries:
                    raise DownloadError(str(error)) from None
        try:
            os.replace(part, dest)
        except OSError as error:
            raise disk_error(error, dest.parent) from None
        return dest.stat().st_size
    except BaseException:
        _remove(part)  # nothing half-written stays behind
        raise


def _give_up(url: str, error: BaseException, limits: Limits) -> str:
    import httpx

    if isinstance(error, httpx.TimeoutException):
        why = f"no answer within {limits.timeout:g} s"
    elif isinstance(error, httpx.ConnectError):
        why = "connection refused or host unreachable"
    else:
        why = str(error) or type(error).__name__
    return (
        f"{url}: {why}, {limits.retries + 1} attempts; check the connection or the host, "
        "or use --mirror / STYLEBENCH_MIRROR"
    )


def _fetch_once(
    session: Any,
    url: str,
    part: Path,
    limits: Limits,
    progress: Callable[[int, int | None], None] | None,
) -> None:
    have = part.stat().st_size if part.exists() else 0
    headers = {"Range": f"bytes={have}-"} if have else {}
    with session.stream("GET", url, headers=headers) as response:
        status = response.status_code
        if status == 416 and have:  # the .part is already complete (or bigger): refetch
            _remove(part)
            raise _Retry(f"HTTP 416 at {url}")
        if status in (429, 500, 502, 503, 504):
            raise _Retry(f"HTTP {status}")
        if status in (401, 403):
            raise DownloadError(
                f"{url}: HTTP {status} (access denied); this source may need a login or a "
                "request: see `stylebench sources list` and put the file in the manual folder"
            )
        if status == 404:
            raise DownloadError(
                f"{url}: HTTP 404 (not found); the host moved or removed it: use --mirror or "
                "STYLEBENCH_MIRROR, or report it"
            )
        if status >= 400:
            raise DownloadError(f"{url}: HTTP {status}; try again later or use --mirror")
        mode = "ab" if status == 206 and have else "wb"
        done = have if mode == "ab" else 0
        length = response.headers.get("Content-Length")
        total = done + int(length) if length and length.isdigit() else None
        window_start, window_bytes = time.monotonic(), 0
        try:
            with open(part, mode) as handle:
                for chunk in response.iter_raw():  # as received: a trickle is seen
                    handle.write(chunk)
                    done += len(chunk)
                    window_bytes += len(chunk)
                    if progress is not None:
                        progress(done, total)
                    elapsed = time.monotonic() - window_start
                    if elapsed >= limits.rate_window:
                        if window_bytes / elapsed < limits.min_rate:
                            raise _TooSlow(
                                f"{url}: under {limits.min_rate:g} bytes/s for "
                                f"{limits.rate_window:g} s (server trickling); try later or "
                                "use --mirror"
                            )
                        window_start, window_bytes = time.monotonic(), 0
        except OSError as error:
            raise disk_error(error, part.parent) from None
    if total is not None and done < total:
        raise _Retry(f"connection cut at {done} of {total} bytes")


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()
