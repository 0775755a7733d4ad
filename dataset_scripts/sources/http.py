"""The one HTTP client that fetches raw downloads (every host but the Hub, which goes
through ``huggingface_hub``): the standard library's ``urllib.request`` with timeouts,
redirects, proxies from the environment, retries with exponential backoff, HTTP Range
resume of a partial file, a low-speed limit (a server that trickles bytes is dropped, as
curl's ``--speed-limit``/``--speed-time`` do), and a progress bar per file.

The body is copied as it arrives, up to 1 MiB per ``recv`` (``read1``), straight to the
file, with no per-chunk parsing in Python: ``tests/benchmarks/bench_download.py``
measured 0.11 s of CPU for 147 MB where ``curl`` takes 0.15 s (httpx, whose h11 parses
64 KiB events, took 0.41 s). Each file opens its own connection (``Connection:
close``), which a download of a few large files does not notice.

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
import functools
import http.client
import os
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
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


#: the most bytes one read returns (one ``recv``: as many as have arrived, so a trickle
#: is seen as it arrives)
CHUNK = 1 << 20
_HEADERS = {"User-Agent": "stylebench-download", "Accept-Encoding": "identity"}


@functools.cache
def _tls() -> ssl.SSLContext:
    """One TLS context for the process (loading the CAs costs ~20 ms): certifi's CAs,
    or ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` when set (as httpx and requests do)."""
    if os.environ.get("SSL_CERT_FILE"):
        return ssl.create_default_context(cafile=os.environ["SSL_CERT_FILE"])
    if os.environ.get("SSL_CERT_DIR"):
        return ssl.create_default_context(capath=os.environ["SSL_CERT_DIR"])
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Redirects (at most 10) to http(s) only: never to ftp: or file:."""

    def redirect_request(
        self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str
    ) -> Any:
        if urllib.parse.urlsplit(newurl).scheme not in ("http", "https"):
            raise urllib.error.HTTPError(
                req.full_url, code, f"redirect to {newurl} refused", headers, fp
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class _HTTPS(urllib.request.HTTPSHandler):
    """TLS with :func:`_tls`'s context, made on the first https request only."""

    def https_open(self, req: Any) -> Any:
        return self.do_open(http.client.HTTPSConnection, req, context=_tls())


def _opener() -> urllib.request.OpenerDirector:
    """http(s) only, proxies from the environment (``http_proxy``, ``https_proxy``,
    ``all_proxy``, ``no_proxy``, as httpx reads them), redirects followed, no cookies,
    no credentials (``HF_TOKEN`` is never sent: the Hub goes through huggingface_hub)."""
    proxies = urllib.request.getproxies()
    return _opener_for(
        tuple(
            (s, proxies[s] if s in proxies else proxies.get("all", "")) for s in ("http", "https")
        )
    )


@functools.cache
def _opener_for(proxies: tuple[tuple[str, str], ...]) -> urllib.request.OpenerDirector:
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler({scheme: url for scheme, url in proxies if url}),
        urllib.request.UnknownHandler(),
        urllib.request.HTTPHandler(),
        _HTTPS(),
        urllib.request.HTTPDefaultErrorHandler(),
        _Redirects(),
        urllib.request.HTTPErrorProcessor(),
    ):
        opener.add_handler(handler)
    return opener


def fetch(
    url: str,
    dest: Path,
    *,
    limits: Limits | None = None,
    progress: Callable[[int, int | None], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Download ``url`` to ``dest`` (via ``dest.part``); returns the bytes written.

    ``progress(done, total)`` is called as bytes arrive. Retries resume with ``Range``;
    a server that ignores it (200 instead of 206) restarts the file."""
    limits = limits or Limits.from_env()
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise DownloadError(f"{url}: not an http(s) URL; check --mirror / STYLEBENCH_MIRROR")
    part = dest.with_name(dest.name + ".part")
    try:
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise disk_error(error, dest.parent) from None
        attempt = 0
        while True:
            try:
                _fetch_once(url, part, limits, progress)
                break
            except _Retry as error:
                attempt += 1
                if attempt > limits.retries:
                    raise DownloadError(
                        f"{url}: {error}, {limits.retries + 1} attempts; check the connection "
                        "or the host, or use --mirror / STYLEBENCH_MIRROR"
                    ) from None
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


#: what the network raises (a timeout, a refused or reset connection, a TLS failure,
#: a bad or cut HTTP answer): retried, resuming from the .part file
_TRANSPORT = (OSError, http.client.HTTPException)


def _why(error: BaseException, limits: Limits) -> str:
    """The cause of a transport failure, in a few words."""
    reason = error.reason if isinstance(error, urllib.error.URLError) else error
    if isinstance(reason, TimeoutError):
        return f"no answer within {limits.timeout:g} s"
    if isinstance(reason, ssl.SSLError):
        return f"TLS failed ({reason})"
    if isinstance(error, urllib.error.URLError):  # while connecting or sending
        return f"connection refused or host unreachable ({reason})"
    return str(error) or type(error).__name__


def _fetch_once(
    url: str,
    part: Path,
    limits: Limits,
    progress: Callable[[int, int | None], None] | None,
) -> None:
    try:
        have = part.stat().st_size if part.exists() else 0
    except OSError as error:
        raise disk_error(error, part.parent) from None
    request = urllib.request.Request(url, headers=_HEADERS)
    if have:
        request.add_header("Range", f"bytes={have}-")
    try:
        response = _opener().open(request, timeout=limits.timeout)
    except urllib.error.HTTPError as error:
        error.close()
        raise _refusal(url, error.code, have, part, error.reason) from None
    except _TRANSPORT as error:
        raise _Retry(_why(error, limits)) from None
    with response:
        status = response.status
        mode = "ab" if status == 206 and have else "wb"
        done = have if mode == "ab" else 0
        length = response.headers.get("Content-Length")
        total = done + int(length) if length and length.isdigit() else None
        window_start, window_bytes = time.monotonic(), 0
        try:  # every OSError here is the disk's: the network's are caught at the read
            with open(part, mode) as handle:
                while True:
                    try:  # one recv at most: a trickle is seen as it arrives
                        chunk = response.read1(CHUNK)
                    except _TRANSPORT as error:
                        raise _Retry(_why(error, limits)) from None
                    if not chunk:
                        break
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


def _refusal(url: str, status: int, have: int, part: Path, reason: object) -> Exception:
    """What an HTTP error status means: a retry, or a one-line DownloadError."""
    if status == 416 and have:  # the .part is already complete (or bigger): refetch
        _remove(part)
        return _Retry(f"HTTP 416 at {url}")
    if status in (429, 500, 502, 503, 504):
        return _Retry(f"HTTP {status}")
    if status in (401, 403):
        return DownloadError(
            f"{url}: HTTP {status} (access denied); this source may need a login or a "
            "request: see `stylebench sources list` and put the file in the manual folder"
        )
    if status == 404:
        return DownloadError(
            f"{url}: HTTP 404 (not found); the host moved or removed it: use --mirror or "
            "STYLEBENCH_MIRROR, or report it"
        )
    if 300 <= status < 400:  # a redirect loop, or one to another scheme
        why = " ".join(str(reason).split())  # urllib's loop message spans lines
        return DownloadError(f"{url}: HTTP {status}, not followed ({why}); use --mirror")
    return DownloadError(f"{url}: HTTP {status}; try again later or use --mirror")


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()
