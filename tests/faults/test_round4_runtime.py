"""Issue 42, the runtime items (5, 14-19), tried as an adversary would:

* Item 5: a credential written into a served model's URL (userinfo, ``?api_key=``) is
  sent to the server and nowhere else: not in the output, the messages, the result
  folders, the records or the cache; the URL is rebuilt with each path before its query.
* Item 14: a damaged cached ONNX export is found by its checksum and rebuilt, with a
  warning naming it.
* Item 15: two local dataset folders with the same name and other columns run one after
  the other (``datasets`` cached the first one's schema under the folder name).
* Item 16: a set with no positive pair is an error naming the dataset, the task and the
  cause, recorded for that unit while the other datasets run.
* Item 17: ``add``/``add_batch`` calls that mix label kinds (``v_measure``,
  ``macro_accuracy``, ``order_alignment_accuracy``) are refused naming the first value
  and the first one of another kind with their indices, nothing cast.
* Item 18: a warm embedding cache on a read-only file system is read.
* Item 19: ``--ray`` at a dead or silent address gives up by the clock: a name lookup
  that never answers and a name with several dead addresses end at the deadline, and
  the error says the seconds measured.
"""

from __future__ import annotations

import base64
import contextlib
import re
import socket
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from dataset_scripts.core.errors import StylebenchError
from tests.faults.harness import ServerBehaviour, misbehaving_server, run_cli

# ---------------------------------------------------------- item 5: secrets in URLs ---

USER_SECRET = "sk-USERINFO-7f3a9c"
QUERY_SECRET = "sk-QUERY-b41d0e"


def _demo(tmp_path: Path) -> Path:
    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset

    return build_dataset(get_dataset("stylebench/demo"), None, tmp_path / "demo")[0]


def _leaks(root: Path, secrets: tuple[str, ...]) -> list[str]:
    """Every file or folder under ``root`` whose name or bytes hold one of ``secrets``."""
    found = []
    for path in [root, *root.rglob("*")]:
        if any(s in path.name for s in secrets):
            found.append(f"name: {path}")
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if any(s.encode() in data for s in secrets):
                found.append(f"content: {path}")
    return found


def test_credentials_in_a_served_url_are_sent_and_never_written(tmp_path) -> None:
    demo = _demo(tmp_path)
    run_root = tmp_path / "run"  # every file the run writes lands under it
    run_root.mkdir()
    env = {
        "HF_HOME": str(run_root / "hf"),
        "HF_DATASETS_CACHE": str(run_root / "hf" / "datasets"),
        "STYLEBENCH_CACHE": str(run_root / "stylebench-cache"),
        "HOME": str(run_root / "home"),
        "HF_HUB_OFFLINE": "1",
    }
    with misbehaving_server(ServerBehaviour()) as server:
        host = urlsplit(server.url).netloc
        url = f"http://user:{USER_SECRET}@{host}/v1?api_key={QUERY_SECRET}&api-version=3"
        argv = ["run", "--model", f"openai-embeddings:m@{url}", "--dataset", str(demo)]
        argv += ["--out", str(run_root / "out"), "--cache-dir", str(run_root / "cache")]
        argv += ["--tasks", "clustering,retrieval"]
        done = run_cli(argv, env=env, timeout=300)
        requests = list(server.requests)
    assert done.returncode == 0, done.stderr[-2000:]
    # sent: basic auth from the userinfo, the query as given, each path before the query
    assert requests and {path.split("?")[0] for _, path, _ in requests} == {
        "/v1/models",
        "/v1/embeddings",
    }
    for _, path, headers in requests:
        assert parse_qs(urlsplit(path).query) == {"api_key": [QUERY_SECRET], "api-version": ["3"]}
        assert (
            headers["Authorization"]
            == "Basic " + base64.b64encode(f"user:{USER_SECRET}".encode()).decode()
        )
    # written or printed: nowhere
    secrets = (USER_SECRET, QUERY_SECRET)
    output = done.stdout + done.stderr
    assert not [s for s in secrets if s in output], output[-2000:]
    assert "http://***@" in output and "api_key=***" in output
    assert not _leaks(run_root, secrets)
    records = list((run_root / "out").rglob("*.json"))
    assert len(records) == 2
    from evaluators.records.record import load_record

    name = load_record(records[0]).model.name
    assert name == f"openai-embeddings:m@http://***@{host}/v1?api_key=***&api-version=3"


def test_credentials_in_a_served_url_stay_out_of_errors(tmp_path) -> None:
    demo = _demo(tmp_path)
    closed = "127.0.0.1:1"  # nothing listens on port 1
    specs = [
        f"openai-embeddings:m@http://user:{USER_SECRET}@{closed}/v1?token={QUERY_SECRET}",
        f"openai-embedings:m@http://user:{USER_SECRET}@{closed}/v1",  # unknown prefix
        f"openai-embeddings:m http://{USER_SECRET}@{closed}/v1",  # malformed spec
        f"openai-embeddings:m@http://user:{USER_SECRET}@host:port/v1",  # bad port
        f"openai-embeddings:m@http://user:{USER_SECRET}@[::1/v1",  # bad IPv6 host
    ]
    for spec in specs:
        argv = ["run", "--model", spec, "--dataset", str(demo), "--no-cache"]
        argv += ["--out", str(tmp_path / "out")]
        done = run_cli(argv, timeout=120, env={"HF_HUB_OFFLINE": "1"})
        text = done.stdout + done.stderr
        assert done.returncode == 2, text[-1000:]
        assert USER_SECRET not in text and QUERY_SECRET not in text, text
        assert "***" in text and "Traceback" not in text, text
    assert not (tmp_path / "out").exists() or not _leaks(tmp_path / "out", (USER_SECRET,))


def test_a_server_echoing_a_url_credential_is_scrubbed() -> None:
    from dataset_scripts.core.openai_client import OpenAIClient, OpenAIError

    body = f'{{"error": {{"message": "bad key {QUERY_SECRET} for user:{USER_SECRET}"}}}}'
    with misbehaving_server(ServerBehaviour(mode="status", status=401, body=body)) as server:
        host = urlsplit(server.url).netloc
        url = f"http://u:{USER_SECRET}@{host}/v1?key={QUERY_SECRET}"
        client = OpenAIClient(url, backoff=0.01)
        with pytest.raises(OpenAIError, match="HTTP 401") as error:
            client.embeddings("m", ["x"])
        assert repr(client.base_url) and USER_SECRET not in client.base_url
    message = str(error.value)
    assert USER_SECRET not in message and QUERY_SECRET not in message, message
    assert f"http://***@{host}/v1/embeddings?key=***" in message


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://u:p4ss@h:1/v1", "http://***@h:1/v1"),
        ("https://tok3n@h/v1", "https://***@h/v1"),
        ("http://h/v1?api_key=K1&api-version=2", "http://h/v1?api_key=***&api-version=2"),
        ("http://h/v1?access_token=a&sig=b&X-Amz-Signature=c&client_secret=d&password=e",
         "http://h/v1?access_token=***&sig=***&X-Amz-Signature=***&client_secret=***"
         "&password=***"),
        ("http://h/v1?Auth=a&code=b&q=c", "http://h/v1?Auth=***&code=***&q=c"),
        ("http://h:8000/v1?model=m", "http://h:8000/v1?model=m"),  # nothing to hide
    ],
)  # fmt: skip
def test_the_one_redaction_rule(url: str, shown: str) -> None:
    from dataset_scripts.core.url_credentials import redact, redact_url

    assert redact_url(url) == shown
    assert redact_url(shown) == shown  # idempotent
    assert redact(f"error: cannot reach {url}: refused") == f"error: cannot reach {shown}: refused"
    assert redact(f"m@{url}") == f"m@{shown}"


def test_served_urls_join_paths_before_the_query() -> None:
    from dataset_scripts.core.openai_client import endpoint, normalize_base_url

    base = normalize_base_url("http://h:1?api-version=2")
    assert base == "http://h:1/v1?api-version=2"
    assert endpoint(base, "models") == "http://h:1/v1/models?api-version=2"
    assert normalize_base_url("http://h:1/") == "http://h:1/"
    assert endpoint(normalize_base_url("http://h:1/"), "embeddings") == "http://h:1/embeddings"
    assert normalize_base_url("http://h:1/api/v1//?a=b#frag") == "http://h:1/api/v1?a=b"
    assert normalize_base_url(normalize_base_url("http://h:1/api/")) == "http://h:1/api"


def test_the_model_name_of_every_route_hides_url_credentials() -> None:
    from evaluators.run.service import model_name

    spec = f"openai-embeddings:m@http://user:{USER_SECRET}@h/v1?api_key={QUERY_SECRET}"
    assert model_name(spec) == "openai-embeddings:m@http://***@h/v1?api_key=***"
    assert model_name("minilm") == "minilm"
    assert model_name("sentence-transformers/all-MiniLM-L6-v2") == (
        "sentence-transformers/all-MiniLM-L6-v2"
    )


def test_environment_key_is_still_a_bearer_header(monkeypatch) -> None:
    from dataset_scripts.core.openai_client import OpenAIClient

    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-123")
    with misbehaving_server(ServerBehaviour()) as server:
        OpenAIClient(server.url + "?api-version=1").models()
        ((_, path, headers),) = server.requests
    assert headers["Authorization"] == "Bearer sk-env-123"
    assert path == "/v1/models?api-version=1"


# ------------------------------------------- item 15: two folders of the same name ---

_CARD = """---
configs:
- config_name: labelled_texts
  data_files:
  - split: test
    path: data/labelled_texts/*.parquet
---
# ds
"""


def _folder(root: Path, labels: list, name: str = "ds") -> Path:
    """A dataset folder ``root/<name>`` (a card with configs, no declared features, as a
    Hub snapshot has) of one labelled_texts config whose labels are ``labels``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = root / name
    shards = folder / "data" / "labelled_texts"
    shards.mkdir(parents=True)
    texts = [f"text number {i} of {root.name} with some words" for i in range(len(labels))]
    table = pa.table({"id": [f"r{i}" for i in range(len(labels))], "text": texts, "label": labels})
    pq.write_table(table, shards / "test-00000-of-00001.parquet")
    (folder / "README.md").write_text(_CARD, encoding="utf-8")
    return folder


def test_two_folders_of_one_name_load_their_own_columns(tmp_path) -> None:
    from evaluators.data import load_table

    a = _folder(tmp_path / "a", [0, 1, 2, 3] * 3)  # int labels
    b = _folder(tmp_path / "b", ["x", "y", "z", "w"] * 3)  # text labels
    table_a = load_table(str(a), "labelled_texts")
    table_b = load_table(str(b), "labelled_texts")  # DatasetGenerationError on main
    assert [r["label"] for r in table_a.rows[:4]] == [0, 1, 2, 3]
    assert [r["label"] for r in table_b.rows[:4]] == ["x", "y", "z", "w"]
    assert table_a.rows[0]["text"].endswith("of a with some words")
    assert table_b.rows[0]["text"].endswith("of b with some words")
    assert table_a.fingerprint != table_b.fingerprint
    # and the first folder again, after the second: its own rows, not b's
    assert load_table(str(a), "labelled_texts").rows == table_a.rows


def test_a_rebuilt_folder_loads_its_new_rows(tmp_path) -> None:
    import shutil

    from evaluators.data import load_table

    folder = _folder(tmp_path / "a", [0, 1] * 4)
    first = load_table(str(folder), "labelled_texts")
    shutil.rmtree(folder)
    folder = _folder(tmp_path / "a", ["p", "q"] * 5)
    second = load_table(str(folder), "labelled_texts")
    assert len(first.rows) == 8 and len(second.rows) == 10
    assert {r["label"] for r in second.rows} == {"p", "q"}
    assert first.fingerprint != second.fingerprint


def test_steb_evaluator_loads_two_folders_of_one_name(tmp_path) -> None:
    pytest.importorskip("sentence_transformers")
    from evaluators.training import StebEvaluator

    a = _folder(tmp_path / "a", [0, 1, 2, 3] * 3)
    b = _folder(tmp_path / "b", ["x", "y", "z", "w"] * 3)
    evaluator = StebEvaluator([str(a), str(b)], tasks=["clustering"])
    labels = {key[0]: [r["label"] for r in t.rows] for key, t in evaluator.tables.items()}
    assert labels == {str(a): [0, 1, 2, 3] * 3, str(b): ["x", "y", "z", "w"] * 3}


# ------------------------------------- item 16: a unit that cannot be scored is named ---


def test_a_set_without_positive_pairs_is_named_and_the_others_run(tmp_path) -> None:
    tiny = _folder(tmp_path, ["a", "b"], "tiny")  # 2 rows, 2 classes: one negative pair
    other = _folder(tmp_path, ["x", "y", "z", "w"] * 3, "other")
    out = tmp_path / "out"
    argv = ["run", "--model", "random", "--dataset", str(tiny), "--dataset", str(other)]
    argv += ["--no-cache", "--out", str(out), "--no-progress"]
    done = run_cli(argv, timeout=300, env={"HF_HUB_OFFLINE": "1"})
    assert done.returncode == 2, done.stdout + done.stderr
    message = done.stderr.strip().splitlines()[-1]
    assert "Traceback" not in done.stderr and "single class" not in message
    assert "1 of 4 (dataset, task) units could not be scored" in message
    assert "tiny [labelled_texts/test], task all_to_all_pairs" in message
    assert "no positive pair among 1 pair: no two of its 2 texts share a label" in message
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.json"))
    assert len(written) == 3, written  # tiny's clustering and both tasks of the other set
    assert written == [
        "random/other/all_to_all_pairs.json",
        "random/other/clustering.json",
        "random/tiny/clustering.json",
    ]


def test_unit_failures_reach_the_caller_with_the_finished_records(tmp_path) -> None:
    from evaluators.run import service as run_service
    from evaluators.run.runner import UnitsFailed

    tiny = _folder(tmp_path, ["a", "b", "c"], "tiny")  # 3 classes of one text each
    other = _folder(tmp_path, ["x", "y", "z", "w"] * 3, "other")
    config = run_service.RunConfig(tasks=("all_to_all_pairs",), progress=False)
    specs = run_service.plan([str(tiny), str(other)], config)
    with pytest.raises(UnitsFailed) as failed:
        run_service.run(["random", "function-words"], specs, config)
    error = failed.value
    assert error.total == 4 and len(error.records) == 2 and len(error.failures) == 2
    assert all("no two of its 3 texts share a label" in line for line in error.failures)
    assert {line.split(":")[0] for line in error.failures} == {"random", "function-words"}
    assert {r.dataset.name for r in error.records} == {"other"}
    # a local folder is recorded by its name, never the absolute path
    assert all(r.dataset.ref == other.name for r in error.records)


def test_predefined_pairs_of_one_label_name_the_cause() -> None:
    import numpy as np

    from dataset_scripts.core.errors import DataError
    from evaluators.data import Table
    from evaluators.tasks import get_evaluator

    rows = [{"id": str(i), "text1": f"a {i}", "text2": f"b {i}", "label": 0} for i in range(3)]
    table = Table("pairs", "pairs", "text_pairs", "test", rows, "f")
    evaluator = get_evaluator("predefined_pairs")

    def embed(texts):
        return np.asarray([[1.0, float(len(t))] for t in texts])

    with pytest.raises(DataError, match="no positive pair among 3 pairs: every pair is labelled 0"):
        evaluator.evaluate(table, embed)


# ------------------------------ item 17: add/add_batch calls that mix label kinds ---


def _metric(name: str):
    from evaluators.metric_loading import load_metric

    return load_metric(name, keep_in_memory=True)


def _feed(module, path: str, predictions: list, references: list) -> None:
    if path == "add_batch":
        module.add_batch(predictions=predictions, references=references)
    else:
        for p, r in zip(predictions, references, strict=True):
            module.add(prediction=p, reference=r)


@pytest.mark.parametrize("path", ["add_batch", "add"])
@pytest.mark.parametrize(
    ("first", "then", "kind", "shown"),
    [([0, 1, 1], ["a", "b"], "integers", "0 at index 0 (integers), 'a' at index 3"),
     (["a", "b", "b"], [0, 1], "text", "'a' at index 0 (text), 0 at index 3")],
)  # fmt: skip
@pytest.mark.parametrize("name", ["v_measure", "macro_accuracy"])
def test_mixed_label_kinds_over_calls_name_both_values(
    name: str, first: list, then: list, kind: str, shown: str, path: str
) -> None:
    module = _metric(name)
    _feed(module, path, first, first)
    with pytest.raises(ValueError) as refused:
        _feed(module, path, then, then)
    message = str(refused.value)
    assert "invalid literal" not in message and "expected format" not in message
    assert message.startswith("predictions mixes kinds over the add/add_batch calls")
    assert shown in message and f"give every predictions value as {kind}" in message
    # the refused call added nothing; what came before is still there, uncast
    result = module.compute()
    assert result[name] == pytest.approx(1.0)
    if name == "macro_accuracy":
        assert set(result["per_class_recall"]) == set(first)


def test_the_input_that_changed_kind_is_named_with_its_index_over_every_call() -> None:
    module = _metric("v_measure")
    module.add_batch(predictions=["x", "y"], references=[0, 1])
    module.add(prediction="z", reference=2)
    with pytest.raises(
        ValueError, match=r"^references .*: 0 at index 0 \(integers\), 'q' at index 3;"
    ):
        module.add_batch(predictions=["x", "x"], references=["q", "r"])
    module.add_batch(predictions=["x", "x"], references=[3, 3])  # the same kinds go on
    assert module.compute()["completeness"] == pytest.approx(1.0)  # classes 0, 1, 2, 3+3


def test_text_digits_are_not_read_as_integers_by_a_first_batch() -> None:
    # evaluate alone picks the first input type its first value fits: "1" became 1 and
    # integers added later were counted as the same class
    module = _metric("macro_accuracy")
    module.add_batch(predictions=["1", "0"], references=["1", "0"])
    with pytest.raises(ValueError, match=r"'1' at index 0 \(text\), 1 at index 2"):
        module.add_batch(predictions=[1, 0], references=[1, 1])
    assert set(module.compute()["per_class_recall"]) == {"0", "1"}


def test_order_alignment_columns_then_cost_matrices_are_named() -> None:
    module = _metric("order_alignment_accuracy")
    module.add_batch(predictions=[[0, 1]], references=[[0, 1]])
    with pytest.raises(ValueError, match=r"\[0, 1\] at index 0 \(lists of integers\), "
                       r"\[\[0\.1, 0\.9\], \[0\.8, 0\.2\]\] at index 1"):  # fmt: skip
        module.add_batch(predictions=[[[0.1, 0.9], [0.8, 0.2]]], references=[[1, 0]])


@pytest.mark.parametrize("as_text", [False, True])
def test_v_measure_over_batches_equals_sklearn(as_text: bool) -> None:
    import numpy as np
    from sklearn.metrics import homogeneity_completeness_v_measure, v_measure_score

    rng = np.random.default_rng(17)
    predictions = rng.integers(0, 5, 300).tolist()
    references = rng.integers(0, 4, 300).tolist()
    if as_text:
        predictions = [f"c{p}" for p in predictions]
    module = _metric("v_measure")
    for start in range(0, 300, 70):  # five uneven batches, then a few single adds
        stop = min(start + 70, 290)
        module.add_batch(predictions=predictions[start:stop], references=references[start:stop])
    for p, r in zip(predictions[290:], references[290:], strict=True):
        module.add(prediction=p, reference=r)
    result = module.compute()
    h, c, v = homogeneity_completeness_v_measure(references, predictions)
    assert 0.0 < v < 0.2  # random labels: far from a degenerate 0 or 1
    assert result["v_measure"] == pytest.approx(v_measure_score(references, predictions), abs=1e-12)
    assert result["homogeneity"] == pytest.approx(h, abs=1e-12)
    assert result["completeness"] == pytest.approx(c, abs=1e-12)
    assert module.compute(predictions=predictions, references=references) == result


# ----------------------------------------- item 18: a warm cache on a read-only disk ---

CACHE_IDENTITY = {"kind": "test", "model": "round4"}


def test_a_warm_cache_on_a_read_only_folder_is_read(tmp_path) -> None:
    import numpy as np

    from dataset_scripts.core.errors import StylebenchError
    from evaluators.cache import EmbeddingCache
    from tests.faults.harness import read_only_folder

    texts = [f"cached text {i}" for i in range(6)]
    vectors = np.random.default_rng(4).standard_normal((6, 16)).astype(np.float32)
    root = tmp_path / "cache"
    warm = EmbeddingCache(root, CACHE_IDENTITY)
    warm.put_many(texts, vectors)
    warm.close()
    before = {p.name: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    with read_only_folder(root):
        cache = EmbeddingCache(root, CACHE_IDENTITY)  # refused on main
        assert cache.read_only
        got = cache.get_many(texts)
        assert [t for t in texts if t in got] == texts
        assert all(np.array_equal(got[t], v) for t, v in zip(texts, vectors, strict=True))
        assert cache.verify() == (6, 0) and len(cache) == 6
        cache.put_many([], vectors[:0])  # nothing to add: fine
        with pytest.raises(StylebenchError, match="read-only") as error:
            cache.put_many(["a text it lacks"], vectors[:1])
        assert "1 text(s) are not in this read-only cache" in str(error.value)
        assert "move it aside" not in str(error.value)
        cache.close()
    after = {p.name: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert after == before  # nothing written, nothing damaged


def test_a_run_reads_its_warm_cache_from_a_read_only_folder(tmp_path) -> None:
    import json

    from tests.faults.harness import read_only_folder

    data = _folder(tmp_path, ["x", "y", "z", "w"] * 3, "other")
    cache = tmp_path / "cache"

    def run(out: Path) -> dict:
        argv = ["run", "--model", "random", "--dataset", str(data), "--tasks", "clustering"]
        argv += ["--cache-dir", str(cache), "--out", str(out), "--no-progress"]
        done = run_cli(argv, timeout=300, env={"HF_HUB_OFFLINE": "1"})
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads((out / "random" / "other" / "clustering.json").read_text())

    first = run(tmp_path / "out1")  # a separate process: its cache is closed on exit
    assert first["embedding"]["texts_encoded"] == 12
    with read_only_folder(cache):
        again = run(tmp_path / "out2")  # refused on main: "the folder is read-only"
    assert again["embedding"]["texts_encoded"] == 0
    assert again["embedding"]["texts_from_cache"] == 12
    assert again["metrics"] == first["metrics"]


# -------------------------------------- item 19: --ray gives up by the clock, any load ---


def _blackhole() -> tuple[socket.socket, list[socket.socket]]:
    """A listening port whose accept queue is full: the kernel drops every further SYN,
    so a connection attempt waits for its timeout, as one to a dead host does."""
    hole = socket.create_server(("127.0.0.1", 0), backlog=0)
    fill = []
    for _ in range(3):
        sock = socket.socket()
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            sock.connect(hole.getsockname())
        fill.append(sock)
    time.sleep(0.2)
    return hole, fill


def _check_in_thread(
    address: str, seconds: float, wait: float
) -> tuple[BaseException | None, float]:
    """``check_reachable(address, seconds)`` in a daemon thread (the old code could block
    far longer), waited for ``wait`` s: (the error, or None if still running, and the
    seconds the call took as measured around it)."""
    from evaluators.distributed.reachability import check_reachable

    outcome: list[BaseException | None] = []
    took: list[float] = []

    def run() -> None:
        start = time.monotonic()
        try:
            check_reachable(address, seconds)
            outcome.append(None)
        except BaseException as error:  # judged by the test
            outcome.append(error)
        took.append(time.monotonic() - start)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(wait)
    assert outcome, f"check_reachable({address!r}, {seconds}) still waiting after {wait} s"
    return outcome[0], took[0]


def _waited(message: str) -> float:
    found = re.search(r"in (\d+\.\d) s of trying", message)
    assert found, message
    return float(found.group(1))


def test_a_name_lookup_that_never_answers_is_cut_at_the_deadline(monkeypatch) -> None:
    # getaddrinfo has no timeout: a resolver that does not answer held the old check
    # for the resolver's own timeouts (28 s per lookup measured, 'within 20 s' said)
    release = threading.Event()
    real = socket.getaddrinfo

    def stuck(host, *args, **kwargs):
        if host == "head-node.example" and not kwargs.get("flags", 0) & socket.AI_NUMERICHOST:
            release.wait(15)
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", stuck)
    try:
        error, took = _check_in_thread("head-node.example:6379", 1.5, wait=8.0)
    finally:
        release.set()
    assert isinstance(error, StylebenchError), repr(error)
    message = str(error)
    assert "'head-node.example:6379'" in message and "did not answer" in message
    assert 1.4 <= took <= 1.5 + 0.5, took  # the deadline, not the resolver's
    assert abs(_waited(message) - took) <= 0.1, (message, took)


def test_every_address_of_a_name_shares_one_deadline(monkeypatch) -> None:
    # a name with four addresses that all drop SYNs: the old check gave each address the
    # whole remaining wait (4 x 2 s for a 2 s deadline)
    hole, fill = _blackhole()
    where = hole.getsockname()
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", where)] * 4,
    )
    try:
        error, took = _check_in_thread("head-node.example:6379", 2.0, wait=12.0)
    finally:
        for sock in (hole, *fill):
            sock.close()
    assert isinstance(error, StylebenchError), repr(error)
    assert "nothing accepted a connection" in str(error) and "timed out" in str(error)
    assert 1.9 <= took <= 2.0 + 0.5, took
    assert abs(_waited(str(error)) - took) <= 0.1, (str(error), took)


def test_the_message_says_the_seconds_waited_not_the_deadline() -> None:
    error, took = _check_in_thread("127.0.0.1:1", 2.5, wait=10.0)  # refused at once, retried
    assert isinstance(error, StylebenchError), repr(error)
    assert "Connection refused" in str(error) and "within 2" not in str(error)
    assert 1.4 <= took <= 2.5 + 0.5, took  # tries each second while another try fits
    assert abs(_waited(str(error)) - took) <= 0.1, (str(error), took)


# ----------------------------------------------- item 14: a damaged cached ONNX export ---


@pytest.fixture
def tiny_bert_onnx(tmp_path, monkeypatch) -> tuple[str, Path]:
    """A tiny random BERT and a fresh stylebench cache (its exports go there)."""
    for module in ("onnxruntime", "onnx", "transformers", "torch"):
        pytest.importorskip(module)
    from tests.encoders.conftest import TINY_WORDS
    from tests.tiny_models import write_tiny_bert

    monkeypatch.setenv("STYLEBENCH_CACHE", str(tmp_path / "cache"))
    return write_tiny_bert(tmp_path / "bert", TINY_WORDS), tmp_path / "cache"


ONNX_TEXTS = ["the cat sat on the mat .", "we ran !", "they sat with the dog", "i"]


@pytest.mark.parametrize("damage", ["truncate", "flip", "no-checksum"])
def test_a_damaged_onnx_export_is_rebuilt_with_a_warning(tiny_bert_onnx, damage: str) -> None:
    import numpy as np

    from evaluators.encoders import get_encoder
    from evaluators.encoders.backends import CHECKSUM_SUFFIX, ExportDamageWarning

    model, cache = tiny_bert_onnx
    first = get_encoder(f"hf:{model}", backend="onnx").encode(ONNX_TEXTS)
    (fused,) = cache.glob("exports/*/model.fused.onnx")
    sidecar = fused.with_name(fused.name + CHECKSUM_SUFFIX)
    assert sidecar.is_file() and fused.with_name("model.eager.onnx" + CHECKSUM_SUFFIX).is_file()
    data = fused.read_bytes()
    if damage == "truncate":  # what a full disk or a killed copy leaves
        fused.write_bytes(data[: len(data) // 3])
    elif damage == "flip":  # same size, other bytes
        fused.write_bytes(data[:100] + bytes([data[100] ^ 0xFF]) + data[101:])
    else:  # an export made before checksums were kept: truncated, and nothing says so
        fused.write_bytes(data[: len(data) // 3])
        sidecar.unlink()
    with pytest.warns(ExportDamageWarning, match=r"model\.fused\.onnx .*it is rebuilt") as seen:
        again = get_encoder(f"hf:{model}", backend="onnx").encode(
            ONNX_TEXTS
        )  # InvalidProtobuf on main
    assert any(str(fused) in str(w.message) for w in seen)
    np.testing.assert_array_equal(first, again)
    assert fused.read_bytes() == data or len(fused.read_bytes()) > len(data) // 3
    from evaluators.encoders.backends import export_intact

    assert export_intact(fused)  # rebuilt with its checksum: no warning the next time
    assert not list(fused.parent.glob("*.partial*"))
