"""Issue 26, items 4, 8 and 15: a served model (an OpenAI-compatible server on 127.0.0.1,
from the fault harness) that returns 0-dimensional or constant vectors, trickles its
answer, never answers, loops redirects or refuses the request, and an API key holding a
newline. No hang past the request deadline, no normal-looking score from vectors that
carry nothing, no credential in any message, no retry of a client error."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest

from dataset_scripts.core.openai_client import OpenAIClient, OpenAIError
from evaluators.encoders.base import as_embedding_matrix
from tests.faults.harness import ServerBehaviour, misbehaving_server

SECRET = "sk-test-abc\ndef"


def _encoder(url: str, **kwargs):
    from evaluators.encoders.served import ServedEmbeddingEncoder

    return ServedEmbeddingEncoder(f"m@{url}", backoff=0.01, **kwargs)


# item 4 ------------------------------------------------------------------------------------


def test_zero_dimensional_vectors_are_refused() -> None:
    with (
        misbehaving_server(ServerBehaviour(dim=0)) as server,
        pytest.raises(Exception, match="0-dimensional vectors") as error,
    ):
        _encoder(server.url)
    assert "\n" not in str(error.value)


def test_constant_vectors_are_warned_about_for_any_encoder() -> None:
    with pytest.warns(UserWarning, match="all-zero vectors for all 3 texts"):
        as_embedding_matrix(np.zeros((3, 4)), 3, "enc")
    with pytest.warns(UserWarning, match="identical vectors"):
        as_embedding_matrix(np.ones((2, 4)), 2, "enc")
    with pytest.raises(ValueError, match="0-dimensional"):
        as_embedding_matrix(np.zeros((3, 0)), 3, "enc")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        as_embedding_matrix(np.eye(3), 3, "enc")  # distinct vectors: no warning
        as_embedding_matrix(np.zeros((1, 3)), 1, "enc")  # one text cannot be "constant"


def test_served_all_zero_vectors_warn_in_a_run(tmp_path) -> None:
    from evaluators.run.runner import Runner

    with misbehaving_server(ServerBehaviour(dim=4, constant=True)) as server:
        encoder = _encoder(server.url)
        with pytest.warns(UserWarning, match="chance level"):
            Runner(encoder, "m", cache_dir=tmp_path / "cache", progress=False).embed(
                ["a b", "c d", "e f"]
            )


# item 8 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["trickle", "silent"])
def test_request_deadline_holds(mode: str) -> None:
    behaviour = ServerBehaviour(mode=mode, trickle_every=0.05)
    with misbehaving_server(behaviour, max_seconds=20) as server:
        client = OpenAIClient(server.url, timeout=2.0, backoff=0.01)
        start = time.monotonic()
        with pytest.raises(OpenAIError, match="deadline of 2 s") as error:
            client.embeddings("m", ["a text"] * 50)
        took = time.monotonic() - start
    assert took < 4.0, f"{mode}: {took:.1f} s past a 2 s deadline"
    assert "\n" not in str(error.value)


def test_redirect_loop_is_one_line_and_not_followed() -> None:
    with misbehaving_server(ServerBehaviour(mode="redirect")) as server:
        client = OpenAIClient(server.url, timeout=5.0, backoff=0.01)
        with pytest.raises(OpenAIError, match="redirect"):
            client.embeddings("m", ["x"])
        assert len(server.requests) == 1


# item 15 -----------------------------------------------------------------------------------


def test_key_with_a_newline_is_refused_without_showing_it(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    with misbehaving_server(ServerBehaviour()) as server:
        with pytest.raises(OpenAIError) as error:
            OpenAIClient(server.url).embeddings("m", ["x"])
        assert server.requests == []  # nothing was sent, nothing retried
    message = str(error.value)
    for part in SECRET.split("\n"):
        assert part not in message
    assert "OPENAI_API_KEY" in message and "newline" in message


def test_client_error_is_not_retried_and_hides_the_key() -> None:
    key = "sk-secret-0123456789"
    body = '{"error": {"message": "invalid key sk-secret-0123456789"}}'  # echoed by the server
    with misbehaving_server(ServerBehaviour(mode="status", status=401, body=body)) as server:
        client = OpenAIClient(server.url, api_key=key, backoff=0.01, max_retries=4)
        with pytest.raises(OpenAIError, match="HTTP 401") as error:
            client.embeddings("m", ["x"])
        assert len(server.requests) == 1 and client.retries_done == 0
        assert server.requests[0][2].get("Authorization") == f"Bearer {key}"
    assert key not in str(error.value) and "***" in str(error.value)


def test_cli_never_prints_the_key(tmp_path, monkeypatch, capsys) -> None:
    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset
    from evaluators.cli import main

    demo = build_dataset(get_dataset("stylebench/demo"), None, tmp_path / "demo")[0]
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    with misbehaving_server(ServerBehaviour()) as server:
        argv = ["run", "--model", f"openai-embeddings:m@{server.url}"]
        argv += ["--dataset", str(demo), "--no-cache", "--out", str(tmp_path / "out")]
        with pytest.raises(SystemExit) as done:
            main(argv)
    assert done.value.code == 2
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "OPENAI_API_KEY" in text and "Traceback" not in text
    assert "sk-test-abc" not in text and "\ndef" not in text and "def'" not in text
