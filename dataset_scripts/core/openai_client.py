"""One home for OpenAI-compatible servers: the spec syntax and the HTTP client.

Used by the served embedding encoder (``openai-embeddings:<model>@<url>``), ARB's
generation backend and the style-discrimination LLM setting / judge
(``openai:<model>@<url>``). Any server speaking the OpenAI REST API works: vLLM, SGLang,
TGI / Text Embeddings Inference, Infinity, llama.cpp's server, LitServe, OpenAI itself.

Spec syntax (one for all three)::

    <prefix>:<model>@<base_url>      e.g. openai:google/gemma-2-9b-it@http://node7:8000/v1

``base_url`` is the API root; a URL with no path gets ``/v1`` appended, and a URL
whose path is ``/`` names a server whose API is at its root (Infinity without
``--url-prefix``: ``...@http://127.0.0.1:7997/``). The older
style-discrimination form ``openai:<base_url>::<model>`` still parses, with a
``FutureWarning``.

The client retries 408, 425, 429 and 5xx answers, connection errors and timeouts with
exponential backoff (honouring ``Retry-After``); other 4xx answers (client errors) and
errors of the request itself (a malformed header, a redirect loop) fail at once. Each
request has an overall deadline, ``timeout`` seconds (120 by default) for the whole
answer and its retries: a server that never answers, or trickles its answer byte by
byte, fails when it passes, with an error saying so. Errors are one line naming the URL,
the status and the server's message. The API key comes from ``api_key=`` or
``$OPENAI_API_KEY``; it is sent only as a bearer header and never shown: a key holding a
newline or another control character is refused without printing it, and no error
message carries it. A credential in the URL itself (``http://user:key@host/v1``, or a
query parameter such as ``?api_key=``) is sent as given (userinfo as basic auth, the
query as it is, with each path joined before it) and shown nowhere: ``base_url`` and
every message show it as ``***`` (the rule: :mod:`~dataset_scripts.core.url_credentials`).
The environment variable is the better place for a key: a command line is visible to
every user of the machine.
"""

from __future__ import annotations

import base64
import contextlib
import os
import re
import threading
import time
import warnings
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.url_credentials import redact, redact_url, scrub, split_credentials

RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})
_CANONICAL = re.compile(r"^(?P<model>\S+?)@(?P<url>https?://\S+)$")


class OpenAIError(StylebenchError):
    """An OpenAI-compatible server failed (after retries) or answered nonsense."""


@dataclass(frozen=True)
class ServedModel:
    """A model on an OpenAI-compatible server."""

    model: str
    base_url: str  # as given (credentials included): for OpenAIClient, never for display

    def spec(self, prefix: str) -> str:
        return f"{prefix}:{self.model}@{self.base_url}"

    def __repr__(self) -> str:  # never shows a credential of the URL
        return f"ServedModel(model={self.model!r}, base_url={redact_url(self.base_url)!r})"


def normalize_base_url(url: str) -> str:
    """Strip trailing slashes of the path; a URL without a path gets ``/v1`` (the
    OpenAI API root), one whose path is ``/`` keeps it (the server's root). The query
    (``?api-version=...``) and the userinfo stay as given; a fragment is dropped (it is
    never sent). Idempotent. A bad URL is refused, shown with its credentials hidden."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise StylebenchError(
            f"{redact(url)!r} is not an http(s) URL of an OpenAI-compatible server"
        )
    path = parts.path
    if not path:
        path = "/v1"
    elif not path.strip("/"):
        path = "/"
    else:
        path = path.rstrip("/")
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def endpoint(base_url: str, path: str) -> str:
    """The URL of ``path`` under a normalised ``base_url``: joined to the URL's path,
    before its query (``http://h/v1?api-version=2`` + ``models`` is
    ``http://h/v1/models?api-version=2``)."""
    parts = urlsplit(base_url)
    joined = f"{parts.path.rstrip('/')}/{path.lstrip('/')}"
    return urlunsplit((parts.scheme, parts.netloc, joined, parts.query, parts.fragment))


def parse_served_spec(spec: str, prefix: str = "openai") -> ServedModel:
    """Parse ``<prefix>:<model>@<base_url>`` (``<prefix>:`` optional).

    The deprecated ``<prefix>:<base_url>::<model>`` form is accepted with a
    ``FutureWarning``. Raises :class:`StylebenchError` naming the expected form. The
    URL may carry credentials (userinfo, ``?api_key=``); no message shows them
    (:mod:`~dataset_scripts.core.url_credentials`).
    """
    rest = spec.strip()
    if rest.startswith(prefix + ":"):
        rest = rest[len(prefix) + 1 :]
    if re.match(r"^https?://", rest) and "::" in rest:
        url, _, model = rest.rpartition("::")
        if model and url:
            warnings.warn(
                f"{redact(spec)!r}: the form {prefix}:<url>::<model> is deprecated; "
                f"write {prefix}:{model}@{redact(url)}",
                FutureWarning,
                stacklevel=2,
            )
            return ServedModel(model, normalize_base_url(url))
    match = _CANONICAL.match(rest)
    if match is None:
        raise StylebenchError(
            f"{redact(spec)!r}: expected {prefix}:<model>@<base_url> "
            f"(e.g. {prefix}:my-model@http://127.0.0.1:8000/v1)"
        )
    return ServedModel(match["model"], normalize_base_url(match["url"]))


class _DeadlinePassed(Exception):
    """A request's overall deadline passed (internal)."""


class _Watchdog:
    """Shuts the socket of ``response`` down at ``deadline``, which wakes a read blocked
    on a server that stopped sending (or sends too slowly)."""

    def __init__(self, response: Any, deadline: float) -> None:
        self.fired = False
        stream = response.extensions.get("network_stream")
        self._socket = stream.get_extra_info("socket") if stream is not None else None
        self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        import socket

        self.fired = True
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self._timer.cancel()


def _retry_after(headers: Any) -> float | None:
    value = headers.get("retry-after") if headers is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


class OpenAIClient:
    """A small thread-safe client for one OpenAI-compatible server (``httpx``).

    ``max_retries`` retries (so ``max_retries + 1`` attempts) on 408/425/429/5xx,
    connection errors and timeouts, waiting ``backoff * 2**attempt`` seconds (at most
    ``max_backoff``, or the server's ``Retry-After``), all within the request's overall
    deadline of ``timeout`` seconds. ``max_connections`` bounds the connection pool
    (callers bound their own concurrency to the same number).
    """

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 4,
        backoff: float = 0.25,
        max_backoff: float = 8.0,
        max_connections: int = 8,
    ) -> None:
        import httpx

        full = normalize_base_url(base_url)
        # requests go to the URL as given, its userinfo moved to basic auth; every
        # message and every caller sees it with its credentials shown as ***
        self._send_base, self._credentials = split_credentials(full)
        self.base_url = redact_url(full)
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.timeout = float(timeout)
        if not self.timeout > 0:
            raise StylebenchError(f"timeout must be a positive number of seconds; got {timeout!r}")
        key = api_key or os.environ.get("OPENAI_API_KEY")
        if key and (not key.isprintable() or not key.isascii() or key != key.strip()):
            where = "api_key" if api_key else "$OPENAI_API_KEY"
            raise OpenAIError(
                f"the API key ({where}) holds a newline, a space at its ends or another "
                "character a bearer header cannot carry; it was not sent (and is not shown): "
                "set it again without them"
            )
        self._secret = key or None
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        creds = self._credentials
        self._http = httpx.Client(
            timeout=self.timeout,
            headers=headers,
            # userinfo in the URL wins over a bearer key, as a browser or curl does
            auth=httpx.BasicAuth(creds.username, creds.password or "")
            if creds.username is not None
            else None,
            limits=httpx.Limits(max_connections=max_connections),
        )
        self._lock = threading.Lock()
        self.retries_done = 0  # how many retries this client has made (for reports)

    def _redact(self, text: str) -> str:
        """``text`` without the API key or a credential of the URL (an error message
        never carries them)."""
        return scrub(text, self._credentials, self._secret)

    def _attempt(
        self, method: str, url: str, payload: dict[str, Any] | None, deadline: float
    ) -> tuple[int, Any, bytes]:
        """One HTTP exchange: ``(status, headers, body)``, given up at ``deadline``
        (a monotonic time): waiting for the answer is bounded by the read timeout set to
        the time left, reading the body by a watchdog that shuts the socket at the
        deadline (a server that trickles its answer resets a per-read timeout forever)."""
        import httpx

        left = deadline - time.monotonic()
        if left <= 0:
            raise _DeadlinePassed
        stream = self._http.stream(
            method, url, json=payload, timeout=httpx.Timeout(left), follow_redirects=False
        )
        with stream as response:
            watchdog = _Watchdog(response, deadline)
            try:
                body = b"".join(response.iter_bytes())
            except (httpx.TransportError, httpx.TimeoutException):
                if watchdog.fired or time.monotonic() >= deadline:
                    raise _DeadlinePassed from None
                raise
            finally:
                watchdog.cancel()
            if watchdog.fired:
                raise _DeadlinePassed
            return response.status_code, response.headers, body

    def request(self, method: str, path: str, payload: dict[str, Any] | None = None) -> Any:
        """``method`` ``base_url + path`` with retries, within the overall deadline of
        ``timeout`` seconds; the decoded JSON answer."""
        import json

        import httpx

        url = endpoint(self.base_url, path)  # shown in messages
        send = endpoint(self._send_base, path)  # requested
        deadline = time.monotonic() + self.timeout
        last = ""
        attempts = 0
        for attempt in range(self.max_retries + 1):
            attempts = attempt + 1
            headers: Any = None
            try:
                try:
                    status, headers, body = self._attempt(method, send, payload, deadline)
                except httpx.TimeoutException:
                    if deadline - time.monotonic() < 0.1:  # the wait was cut at the deadline
                        raise _DeadlinePassed from None
                    raise
            except _DeadlinePassed:
                raise OpenAIError(
                    f"{url}: no complete answer within the request deadline of "
                    f"{self.timeout:g} s ({attempts} attempt(s){'; last: ' + last if last else ''}); "
                    "the server is not answering or answers too slowly (raise the timeout if "
                    "it is just slow)"
                ) from None
            except (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError) as error:
                last = self._redact(f"{type(error).__name__}: {error}")
            except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError) as error:
                # the request itself is wrong (a malformed header, a bad URL): no retry
                raise OpenAIError(
                    self._redact(f"{url}: the request failed: {type(error).__name__}: {error}")
                ) from None
            else:
                text = body.decode("utf-8", errors="replace")
                if status == 200:
                    try:
                        return json.loads(text)
                    except ValueError:
                        raise OpenAIError(
                            self._redact(f"{url}: answer is not JSON: {text[:200]!r}")
                        ) from None
                last = self._redact(f"HTTP {status}: {text[:300]}")
                if 300 <= status < 400:
                    where = headers.get("location", "?")
                    raise OpenAIError(
                        self._redact(
                            f"{url} answered HTTP {status}, a redirect to {where}; give the "
                            "server's final API URL (redirects are not followed)"
                        )
                    )
                if status not in RETRY_STATUS:
                    raise OpenAIError(f"{url} answered {last}{self._not_found_hint(status)}")
            if attempt == self.max_retries:
                break
            wait = _retry_after(headers)
            if wait is None:
                wait = self.backoff * 2**attempt
            wait = min(wait, self.max_backoff)
            if time.monotonic() + wait >= deadline:
                break  # no time left for another attempt
            with self._lock:
                self.retries_done += 1
            time.sleep(wait)
        plural = "s" if attempts != 1 else ""
        raise OpenAIError(
            f"{url} failed after {attempts} attempt{plural}; last: {last} (the request "
            f"deadline is {self.timeout:g} s)"
        )

    def _not_found_hint(self, status: int) -> str:
        """For a 404 under ``/v1``: how to name a server whose API is elsewhere."""
        parts = urlsplit(self.base_url)
        if status != 404 or parts.path != "/v1":
            return ""
        root = urlunsplit((parts.scheme, parts.netloc, "/", parts.query, ""))
        return (
            f" (a URL without a path means {self.base_url}; for a server whose API is at "
            f"its root, end the URL with a slash: {root}, or give its API path)"
        )

    def models(self) -> list[dict[str, Any]]:
        """The server's ``GET /models`` entries (``[]`` when the server has no such route)."""
        try:
            answer = self.request("GET", "models")
        except OpenAIError as error:
            if "HTTP 404" in str(error) or "HTTP 405" in str(error):
                return []
            raise
        data = answer.get("data") if isinstance(answer, dict) else None
        return [entry for entry in data or [] if isinstance(entry, dict)]

    def chat(self, model: str, messages: list[dict[str, str]], **params: Any) -> str:
        """The first choice's message content of a ``/chat/completions`` call."""
        answer = self.request(
            "POST", "chat/completions", {"model": model, "messages": messages, **params}
        )
        try:
            return str(answer["choices"][0]["message"]["content"] or "").strip()
        except (KeyError, IndexError, TypeError):
            raise OpenAIError(
                f"{endpoint(self.base_url, 'chat/completions')}: unexpected answer "
                f"{str(answer)[:200]!r}"
            ) from None

    def embeddings(
        self,
        model: str,
        texts: list[str],
        *,
        encoding_format: str = "float",
        dimensions: int | None = None,
    ) -> tuple[np.ndarray, str | None]:
        """``(len(texts), d)`` float32 vectors from ``/embeddings`` and the model id the
        answer names. Rows are put back in input order by their ``index``."""
        payload: dict[str, Any] = {"model": model, "input": list(texts)}
        if encoding_format != "float":
            payload["encoding_format"] = encoding_format
        if dimensions is not None:
            payload["dimensions"] = int(dimensions)
        answer = self.request("POST", "embeddings", payload)
        where = endpoint(self.base_url, "embeddings")
        try:
            data = sorted(answer["data"], key=lambda item: int(item["index"]))
            rows = [_vector(item["embedding"]) for item in data]
        except (KeyError, TypeError, ValueError) as error:
            raise OpenAIError(
                f"{where}: unexpected answer ({error}): {str(answer)[:200]!r}"
            ) from None
        if len(rows) != len(texts) or [int(item["index"]) for item in data] != list(
            range(len(texts))
        ):
            raise OpenAIError(f"{where}: {len(rows)} embeddings for {len(texts)} inputs")
        dims = {row.shape[0] for row in rows}
        if len(dims) > 1:
            raise OpenAIError(f"{where}: one answer mixes dimensions {sorted(dims)}")
        if dims == {0}:
            raise OpenAIError(
                f"{where}: the server returned 0-dimensional vectors for model {model!r}; "
                "nothing can be scored from them (check the served model)"
            )
        matrix = np.stack(rows) if rows else np.zeros((0, 0), np.float32)
        reported = answer.get("model") if isinstance(answer, dict) else None
        return matrix, str(reported) if reported else None

    def close(self) -> None:
        self._http.close()


def _vector(value: Any) -> np.ndarray:
    if isinstance(value, str):  # encoding_format="base64": little-endian float32
        return np.frombuffer(base64.b64decode(value), dtype="<f4").astype(np.float32)
    array = np.asarray(value, dtype=np.float32)
    if array.ndim != 1:
        raise ValueError(f"embedding of shape {array.shape}")
    return array
