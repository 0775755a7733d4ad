"""Several devices on one node (``--devices cuda:0,cuda:1`` or ``cpu,cpu``).

:class:`MultiDeviceEncoder` starts one worker process per device (``spawn``), each
building the same encoder from its spec on its device. ``encode(texts)`` cuts the texts
into one contiguous slice per worker, encodes the slices at the same time and
concatenates them in order, so the runner's embed-once cache, batching and resume work
unchanged. Its identity is the wrapped encoder's (checked equal on every worker): vectors
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
        conn.send(("ready", (encoder_identity(encoder), pooling)))
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
            if isinstance(message, tuple):  # ("episodes", [[text, ...], ...])
                vectors = embed_episodes(encoder, message[1])
            else:
                vectors = as_embedding_matrix(encoder.encode(message), len(message), spec)
            conn.send(("ok", vectors))
        except BaseException:
            conn.send(("error", traceback.format_exc(limit=3).strip().splitlines()[-1]))


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
        for device, conn in zip(self.devices, self._conns, strict=True):
            if not conn.poll(START_TIMEOUT):
                self.close()
                raise StylebenchError(f"{spec} on {device}: no answer in {START_TIMEOUT:.0f} s")
            _kind, (identity, pooling) = self._receive(conn, device)
            identities.append(identity)
            self.episode_pooling = pooling  # an episode-reading model (LUAR) stays one
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
        return self._spread(list(texts), episodes=False)

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
