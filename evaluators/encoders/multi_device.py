"""Several devices on one node (``--devices cuda:0,cuda:1`` or ``cpu,cpu``).

:class:`MultiDeviceEncoder` starts one worker process per device (``spawn``), each
building the same encoder from its spec on its device. ``encode(texts)`` cuts the texts
into work for each worker and puts the vectors together in order, so the runner's
embed-once cache, batching and resume work unchanged. Where the model declares its
batches (``forward_groups``: sentence-transformers and transformers encoders), every
worker plans the batches one device would run for the texts (after chunk-and-pool's
chunking), runs every n-th of them, and chunks are pooled in the parent: the vectors are
one device's bit for bit. Other encoders get one contiguous slice of the texts per
worker. Its identity is the wrapped encoder's (checked equal on every worker): vectors
are the same model's, shared with single-device runs in the cache.

CPU workers split the machine's cores between them (``torch.set_num_threads``); GPU
workers keep torch's default. A worker that fails stops the run with its error; workers
exit when the parent closes the pipe or dies. Encoders that must be fitted first
(TF-IDF) are refused unless loaded from a saved model (``path=``).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import traceback
import weakref
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.base import BaseEncoder

START_TIMEOUT = 600.0  # seconds for a worker to load its model


def parse_devices(value: str | Sequence[str] | None) -> list[str]:
    """``"cuda:0,cuda:1"`` -> ``["cuda:0", "cuda:1"]``; rejects empty names."""
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else list(value)
    devices = [item.strip() for item in items]
    if not devices or any(not d for d in devices):
        raise StylebenchError(f"--devices {value!r}: give comma-separated device names")
    return devices


def _worker(
    conn: Connection,
    factory: Callable[..., Any],
    spec: str,
    device: str,
    threads: int | None,
    settings: dict[str, Any],
) -> None:
    try:
        if threads is not None:
            import torch

            torch.set_num_threads(threads)
        from evaluators.encoders.base import as_embedding_matrix, embed_episodes, encoder_identity

        encoder = factory(spec, device=device, **settings)
        if hasattr(encoder, "fit") and not getattr(encoder, "is_fitted", True):
            raise StylebenchError(
                f"{spec} must be fitted before encoding; with --devices load a saved "
                "model (path=...) or run it on one device"
            )
        pooling = getattr(encoder, "episode_pooling", "mean")
        from evaluators.encoders.chunking import model_items

        model = model_items(encoder, [])[0]
        declares_batches = callable(getattr(model, "forward_groups", None))
        conn.send(("ready", (encoder_identity(encoder), pooling, declares_batches)))
    except BaseException as error:  # report any start-up failure to the parent
        conn.send(("error", f"{type(error).__name__}: {error}"))
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the parent went away
            return
        if message is None:
            return
        try:
            if isinstance(message, tuple) and message[0] == "share":
                conn.send(("ok", _encode_share(encoder, spec, *message[1:])))
                continue
            if isinstance(message, tuple):  # ("episodes", [[text, ...], ...])
                vectors = embed_episodes(encoder, message[1])
            else:
                vectors = as_embedding_matrix(encoder.encode(message), len(message), spec)
            conn.send(("ok", vectors))
        except BaseException:
            conn.send(("error", traceback.format_exc(limit=3).strip().splitlines()[-1]))


def _encode_share(
    encoder: Any, spec: str, texts: list[str], index: int, n: int
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None, int]:
    """Worker ``index`` of ``n``: of the model batches that ``encoder.encode(texts)``
    would run (chunks included), every ``n``-th, each run alone; ``(item indices,
    their vectors, the items' owners, number of items)``. Every worker plans the same
    batches (planning is deterministic), so the parent can put the items together and
    pool them as one device does."""
    from evaluators.encoders.base import as_embedding_matrix
    from evaluators.encoders.chunking import model_items

    model, items, owners = model_items(encoder, texts)
    mine = model.forward_groups(items)[index::n]
    rows = [as_embedding_matrix(model.encode([items[i] for i in g]), len(g), spec) for g in mine]
    indices = np.asarray([i for group in mine for i in group], dtype=np.int64)
    return indices, (np.concatenate(rows) if rows else None), owners, len(items)


def _stop(processes: list[Any], conns: list[Connection]) -> None:
    for conn in conns:
        try:
            conn.send(None)
            conn.close()
        except (OSError, BrokenPipeError):
            pass
    for process in processes:
        process.join(timeout=10)
        if process.is_alive():
            process.terminate()
            process.join(timeout=5)


class MultiDeviceEncoder(BaseEncoder):
    """The encoder named by ``spec`` on each of ``devices``, one process per device;
    each worker builds it with ``factory(spec, device=..., **settings)`` (the routing's
    ``get_encoder``, passed in by reference so that this module does not import it)."""

    def __init__(
        self, spec: str, devices: Sequence[str], factory: Callable[..., Any], **settings: Any
    ) -> None:
        self.devices = parse_devices(devices)
        self.spec = spec
        self.name = spec
        context = mp.get_context("spawn")
        n_cpu = sum(d.split(":")[0] == "cpu" for d in self.devices)
        threads = max(1, (os.cpu_count() or 1) // n_cpu) if n_cpu else None
        self._conns: list[Connection] = []
        self._processes: list[Any] = []
        for device in self.devices:
            parent, child = context.Pipe()
            process = context.Process(
                target=_worker,
                args=(
                    child,
                    factory,
                    spec,
                    device,
                    threads if device.startswith("cpu") else None,
                    settings,
                ),
                daemon=True,
                name=f"stylebench-encoder-{device}",
            )
            process.start()
            child.close()
            self._conns.append(parent)
            self._processes.append(process)
        self._finalizer = weakref.finalize(self, _stop, self._processes, self._conns)
        identities = []
        self._by_batches = False
        for device, conn in zip(self.devices, self._conns, strict=True):
            if not conn.poll(START_TIMEOUT):
                self.close()
                raise StylebenchError(f"{spec} on {device}: no answer in {START_TIMEOUT:.0f} s")
            _kind, (identity, pooling, declares_batches) = self._receive(conn, device)
            identities.append(identity)
            self.episode_pooling = pooling  # an episode-reading model (LUAR) stays one
            self._by_batches = declares_batches  # spread the model's own batches
        if any(identity != identities[0] for identity in identities):
            self.close()
            raise StylebenchError(f"{spec}: the devices {self.devices} load different models")
        self._identity = identities[0]

    def _receive(self, conn: Connection, device: str) -> tuple[str, Any]:
        try:
            kind, payload = conn.recv()
        except (EOFError, OSError):
            self.close()
            raise StylebenchError(f"{self.spec} on {device}: the worker process died") from None
        if kind == "error":
            self.close()
            raise StylebenchError(f"{self.spec} on {device}: {payload}")
        return kind, payload

    def identity(self) -> dict[str, Any]:
        return dict(self._identity)

    def encode(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if self._by_batches and texts:
            return self._spread_batches(texts)
        return self._spread(texts, episodes=False)

    def _spread_batches(self, texts: list[str]) -> np.ndarray:
        """Every worker gets all texts and runs its share of the model batches one
        device would run (:func:`_encode_share`); the items' vectors are put together
        and chunks pooled here, so the result is one device's, bit for bit."""
        from evaluators.encoders.chunking import mean_pool

        n = len(self._conns)
        for i, conn in enumerate(self._conns):
            conn.send(("share", texts, i, n))
        shares = [self._receive(c, d)[1] for c, d in zip(self._conns, self.devices, strict=True)]
        filled = [(idx, rows) for idx, rows, _, _ in shares if rows is not None]
        owners, n_items = shares[0][2], shares[0][3]
        matrix = np.zeros((n_items, filled[0][1].shape[1]), dtype=np.float32)
        for indices, rows in filled:
            matrix[indices] = rows
        return matrix if owners is None else mean_pool(matrix, owners, len(texts))

    def encode_episodes(self, episodes: Sequence[Sequence[str]]) -> np.ndarray:
        """Episodes spread over the workers like texts; each worker embeds its share
        with the encoder's own episode rule."""
        return self._spread([list(e) for e in episodes], episodes=True)

    def _spread(self, items: list[Any], *, episodes: bool) -> np.ndarray:
        n = len(self._conns)
        bounds = np.linspace(0, len(items), n + 1).round().astype(int)
        used = []
        for i, conn in enumerate(self._conns):
            part = items[bounds[i] : bounds[i + 1]]
            if part:
                conn.send(("episodes", part) if episodes else part)
                used.append(i)
        parts = [self._receive(self._conns[i], self.devices[i])[1] for i in used]
        if not parts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.concatenate(parts)

    def close(self) -> None:
        self._finalizer()

    def __enter__(self) -> MultiDeviceEncoder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
