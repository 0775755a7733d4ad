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

The client retries 429 and 5xx answers, connection errors and timeouts with
exponential backoff (honouring ``Retry-After``), and fails with one line naming the URL,
the status and the server's message. The API key comes from ``api_key=`` or
``$OPENAI_API_KEY``; it is sent only as a bearer header and never logged.
"""

from __future__ import annotations

import base64
import os
import re
import threading
import time
import warnings
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from dataset_scripts.core.errors import StylebenchError

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
_CANONICAL = re.compile(r"^(?P<model>\S+?)@(?P<url>https?://\S+)$")


class OpenAIError(StylebenchError):
    """An OpenAI-compatible server failed (after retries) or answered nonsense."""


@dataclass(frozen=True)
class ServedModel:
    """A model on an OpenAI-compatible server."""

    model: str
    base_url: str

    def spec(self, prefix: str) -> str:
        return f"{prefix}:{self.model}@{self.base_url}"


def normalize_base_url(url: str) -> str:
    """Strip trailing slashes; a URL without a path gets ``/v1`` (the OpenAI API root),
    one whose path is ``/`` keeps it (the server's root). Idempotent."""
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise StylebenchError(f"{url!r} is not an http(s) URL of an OpenAI-compatible server")
    if not parts.path:
        return url + "/v1"
    if not parts.path.strip("/"):
        return url.rstrip("/") + "/"
    return url.rstrip("/")


def endpoint(base_url: str, path: str) -> str:
    """The URL of ``path`` under a normalised ``base_url``."""
    return f"{base_url.rstrip('/')}/{path.lstrip('/')}"


def parse_served_spec(spec: str, prefix: str = "openai") -> ServedModel:
    """Parse ``<prefix>:<model>@<base_url>`` (``<prefix>:`` optional).

    The deprecated ``<prefix>:<base_url>::<model>`` form is accepted with a
    ``FutureWarning``. Raises :class:`StylebenchError` naming the expected form.
    """
    rest = spec.strip()
    if rest.startswith(prefix + ":"):
        rest = rest[len(prefix) + 1 :]
    if re.match(r"^https?://", rest) and "::" in rest:
        url, _, model = rest.rpartition("::")
        if model and url:
            warnings.warn(
                f"{spec!r}: the form {prefix}:<url>::<model> is deprecated; "
                f"write {prefix}:{model}@{url}",
                FutureWarning,
                stacklevel=2,
            )
            return ServedModel(model, normalize_base_url(url))
    match = _CANONICAL.match(rest)
    if match is None:
        raise StylebenchError(
            f"{spec!r}: expected {prefix}:<model>@<base_url> "
            f"(e.g. {prefix}:my-model@http://127.0.0.1:8000/v1)"
        )
    return ServedModel(match["model"], normalize_base_url(match["url"]))


def _retry_after(response: Any) -> float | None:
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


class OpenAIClient:
    """A small thread-safe client for one OpenAI-compatible server (``httpx``).

    ``max_retries`` retries (so ``max_retries + 1`` attempts) on 429/5xx, connection
    errors and timeouts, waiting ``backoff * 2**attempt`` seconds (at most
    ``max_backoff``, or the server's ``Retry-After``). ``max_connections`` bounds the
    connection pool (callers bound their own concurrency to the same number).
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

        self.base_url = normalize_base_url(base_url)
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        key = api_key or os.environ.get("OPENAI_API_KEY")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._http = httpx.Client(
            timeout=timeout,
            headers=headers,
            limits=httpx.Limits(max_connections=max_connections),
        )
        self._lock = threading.Lock()
        self.retries_done = 0  # how many retries this client has made (for reports)

    def request(self, method: str, path: str, payload: dict[str, Any] | None = None) -> Any:
        """``method`` ``base_url + path`` with retries; the decoded JSON answer."""
        import httpx

        url = endpoint(self.base_url, path)
        last = ""
        for attempt in range(self.max_retries + 1):
            response = None
            try:
                response = self._http.request(method, url, json=payload)
            except (httpx.TransportError, httpx.TimeoutException) as error:
                last = f"{type(error).__name__}: {error}"
            else:
                if response.status_code == 200:
                    try:
                        return response.json()
                    except ValueError:
                        raise OpenAIError(
                            f"{url}: answer is not JSON: {response.text[:200]!r}"
                        ) from None
                last = f"HTTP {response.status_code}: {response.text[:300]}"
                if response.status_code not in RETRY_STATUS:
                    raise OpenAIError(f"{url} answered {last}{self._not_found_hint(response)}")
            if attempt == self.max_retries:
                break
            wait = _retry_after(response)
            if wait is None:
                wait = self.backoff * 2**attempt
            with self._lock:
                self.retries_done += 1
            time.sleep(min(wait, self.max_backoff))
        raise OpenAIError(f"{url} failed after {self.max_retries + 1} attempts; last: {last}")

    def _not_found_hint(self, response: Any) -> str:
        """For a 404 under ``/v1``: how to name a server whose API is elsewhere."""
        if response.status_code != 404 or not self.base_url.endswith("/v1"):
            return ""
        root = self.base_url[: -len("/v1")]
        return (
            f" (a URL without a path means {self.base_url}; for a server whose API is at "
            f"its root, end the URL with a slash: {root}/, or give its API path)"
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
