"""Served encoder (``openai-embeddings:<model>@<base_url>``): any OpenAI-compatible
``/v1/embeddings`` endpoint (vLLM, Text Embeddings Inference, Infinity, llama.cpp's
server, LitServe, OpenAI) does the encoding; stylebench keeps its embed-once cache,
evaluators and scores.

* Vectors travel as base64 float32 where the server supports it (``encoding_format``
  "auto": tried at start-up, falling back to JSON floats), which halves the transfer
  and parse time; both give the same float32 numbers.
* Batching and bounded concurrency: ``encode`` splits texts into requests of
  ``batch_size`` inputs and keeps at most ``max_concurrency`` in flight; rows come back
  in input order.
* Retries with backoff on 408/425/429/5xx and connection errors, none on other client
  errors; each request has an overall deadline of ``timeout`` seconds (120 by default)
  covering the whole answer and its retries, so a server that never answers or
  trickles its answer fails then with an error saying so (:class:`OpenAIClient`).
* 0-dimensional vectors are refused; constant vectors are warned about
  (:func:`~evaluators.encoders.base.as_embedding_matrix`, for every encoder).
* Identity (the cache key): the requested model, the model id the server reports (its
  ``/v1/models`` entry, or the ``model`` field of the answer), the weights root where the
  server names one (vLLM), the dimension and ``dimensions=``. The URL is not part of it:
  the same model behind another host shares the cache.
* Keys: ``$OPENAI_API_KEY`` (or ``api_key=``) is sent as a bearer header. A credential
  written into the URL (``http://user:key@host/v1``, ``?api_key=...``) is sent as given
  but never shown or stored: the run's model name, its result folders and records, the
  progress bar and every message show it as ``***``
  (:mod:`dataset_scripts.core.url_credentials`).
* A server that starts answering with another dimension or another model id mid-run
  stops the run with an error naming both, instead of mixing vectors.

Texts are sent as they are: a text longer than the served model's context is truncated
or rejected by the server according to its own settings (TEI ``--auto-truncate``, vLLM
``truncate_prompt_tokens``); chunk-and-pool does not apply to served models.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.openai_client import OpenAIClient, OpenAIError, parse_served_spec
from evaluators.encoders.base import BaseEncoder

PREFIX = "openai-embeddings"
_PROBE = "stylebench probe"


class ServedEmbeddingEncoder(BaseEncoder):
    """Embeddings from an OpenAI-compatible server; ``target`` is ``<model>@<base_url>``."""

    def __init__(
        self,
        target: str,
        *,
        batch_size: int = 32,
        max_concurrency: int = 4,
        api_key: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 4,
        backoff: float = 0.25,
        dimensions: int | None = None,
        encoding_format: str = "auto",
    ) -> None:
        served = parse_served_spec(target, PREFIX)
        if batch_size < 1 or max_concurrency < 1:
            raise StylebenchError(
                f"{PREFIX}: batch_size and max_concurrency must be >= 1 "
                f"(got {batch_size}, {max_concurrency})"
            )
        if encoding_format not in ("auto", "float", "base64"):
            raise StylebenchError(
                f"{PREFIX}: encoding_format is 'auto', 'float' or 'base64', not {encoding_format!r}"
            )
        self.model = served.model
        self.name = self.model
        self.batch_size = int(batch_size)
        self.max_concurrency = int(max_concurrency)
        self.dimensions = dimensions
        self.encoding_format = encoding_format
        self.client = OpenAIClient(
            served.base_url,
            api_key=api_key,
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            max_connections=self.max_concurrency,
        )
        self.base_url = self.client.base_url  # credentials of the URL shown as ***
        self.requests_sent = 0
        entry = self._model_entry()
        if encoding_format == "auto":  # base64 is ~2x cheaper to send and parse than JSON floats
            self.encoding_format = "base64"
            try:
                vectors, reported = self._call([_PROBE])
            except OpenAIError as error:
                if " answered HTTP 4" not in str(error):
                    raise StylebenchError(f"{PREFIX}: {error}") from None
                self.encoding_format = "float"  # a server without base64 support
                vectors, reported = self._call([_PROBE])
        else:
            vectors, reported = self._call([_PROBE])
        self.dim = int(vectors.shape[1])
        self.reported_model = str(entry.get("id") or reported or self.model)
        self._answer_model = reported
        self.weights = entry.get("root") if isinstance(entry.get("root"), str) else None

    def _model_entry(self) -> dict[str, Any]:
        try:
            entries = self.client.models()
        except OpenAIError as error:
            raise StylebenchError(f"{PREFIX}: cannot reach {self.base_url}: {error}") from None
        if not entries:
            return {}
        for entry in entries:
            if entry.get("id") == self.model:
                return entry
        names = ", ".join(str(e.get("id")) for e in entries[:10])
        raise StylebenchError(
            f"{PREFIX}: {self.base_url} does not serve {self.model!r}; it serves: {names}"
        )

    def _call(self, batch: list[str]) -> tuple[np.ndarray, str | None]:
        self.requests_sent += 1
        return self.client.embeddings(
            self.model, batch, encoding_format=self.encoding_format, dimensions=self.dimensions
        )

    def identity(self) -> dict[str, Any]:
        return {
            "kind": PREFIX,
            "model": self.model,
            "served_model": self.reported_model,
            "weights": self.weights,
            "dim": self.dim,
            "dimensions": self.dimensions,
            "pooling": "server",
            "chunk": False,
        }

    def _checked(self, batch: list[str]) -> np.ndarray:
        vectors, reported = self._call(batch)
        if vectors.shape[1] != self.dim:
            raise StylebenchError(
                f"{PREFIX}: {self.base_url} now returns {vectors.shape[1]}-dimensional vectors "
                f"for {self.model!r}, not {self.dim} as when the run started: the served model "
                "changed. Restart the run (vectors already cached stay under the old identity)."
            )
        if reported and self._answer_model and reported != self._answer_model:
            raise StylebenchError(
                f"{PREFIX}: {self.base_url} now answers as model {reported!r}, "
                f"not {self._answer_model!r}: the served model changed; restart the run"
            )
        return vectors

    def encode(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        batches = [texts[i : i + self.batch_size] for i in range(0, len(texts), self.batch_size)]
        if len(batches) == 1 or self.max_concurrency == 1:
            parts = [self._checked(batch) for batch in batches]
        else:
            with ThreadPoolExecutor(min(self.max_concurrency, len(batches))) as pool:
                parts = list(pool.map(self._checked, batches))
        return np.concatenate(parts).astype(np.float32, copy=False)

    def close(self) -> None:
        self.client.close()
