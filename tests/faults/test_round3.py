"""Issue 26, round three: the parts of items 3, 7 and 16 left open last session.

* Item 16: a CCAT50 article whose text is filed under two authors is counted in the build
  report and the card (kept under each author, as Valla keeps every file), not kept
  silently.
* Item 3: the style-discrimination CSV readers (Amazon ``Reviews.csv``, the lyrics CSV)
  and the unquoted CORE TSV read through the one strict reader: an unbalanced quote or a
  wrong field count is an error naming the file and the line.
* Item 7: ``--ray host:port`` where the port is open but is not a Ray head (a server
  that accepts and never speaks, or one that speaks HTTP/1) stops with one line within
  the join deadline instead of hanging in ``ray.init``.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from dataset_scripts.core.errors import DataError

# ---------------------------------------------------------------- item 16: CCAT50 ---


def _ccat50(root: Path, shared_text: str | None) -> Path:
    """A tiny Reuter_50_50 layout: 2 authors x (10 train + 3 test) distinct articles; with
    ``shared_text`` one test article of each author holds that same text."""
    for part, n in (("C50train", 10), ("C50test", 3)):
        for author in ("AaronPressman", "AlanCrosby"):
            folder = root / part / author
            folder.mkdir(parents=True)
            for k in range(n):
                text = f"{part} article {k} by {author}.\r\nSecond line {k}.\r\n"
                (folder / f"{k}newsML.txt").write_bytes(text.encode())
    if shared_text is not None:
        for author in ("AaronPressman", "AlanCrosby"):
            (root / "C50test" / author / "0newsML.txt").write_bytes(shared_text.encode())
    return root


def test_ccat50_article_under_two_authors_is_counted_in_report_and_card(tmp_path) -> None:
    from dataset_scripts.core.hub_folder import write_hub_folder
    from dataset_scripts.registry import get_dataset

    spec = get_dataset("valla/ccat50")
    raw = _ccat50(tmp_path / "raw", "One wire story filed under two bylines.\r\n")
    tables, dropped = spec.builder(raw)
    reasons = [r for r in dropped if "another author" in r]
    assert len(reasons) == 1, dropped
    assert dropped[reasons[0]] == 2  # both copies, one per author
    assert "kept" in reasons[0] and "not dropped" in reasons[0]
    # kept: every file is still a row, under its own author
    assert sum(len(rows) for rows in tables["labelled_texts"].values()) == 26
    card = (write_hub_folder(spec, tables, tmp_path / "out", dropped) / "README.md").read_text()
    assert reasons[0] in card and "identical to one filed under another author" in card


def test_ccat50_without_shared_articles_reports_nothing(tmp_path) -> None:
    from dataset_scripts.registry import get_dataset

    _, dropped = get_dataset("valla/ccat50").builder(_ccat50(tmp_path / "raw", None))
    assert dropped == {}


def test_shared_articles_lists_only_cross_author_groups() -> None:
    from dataset_scripts.valla.ccat50 import shared_articles

    rows = [
        {"id": "a1", "text": "x", "label": "A"},
        {"id": "a2", "text": "x", "label": "A"},  # same author only: not listed
        {"id": "b1", "text": "y", "label": "B"},
        {"id": "a3", "text": "y", "label": "A"},
        {"id": "c1", "text": "y", "label": "C"},
    ]
    assert shared_articles(rows) == [["b1", "a3", "c1"]]


@pytest.mark.corpora
def test_the_uci_release_has_no_article_under_two_authors(corpora: Path) -> None:
    """The real corpus: 5,000 files, 5,000 distinct texts, so nothing is counted and the
    goldens built on it are unchanged."""
    from dataset_scripts.valla.ccat50 import read_ccat50, shared_articles

    raw = corpora / "ccat50"
    if not raw.is_dir():
        pytest.skip("ccat50 is not in the shared corpora")
    parts = read_ccat50(raw)
    rows = parts["C50train"] + parts["C50test"]
    assert len(rows) == 5000 and len({r["text"] for r in rows}) == 5000
    assert shared_articles(rows) == []


# --------------------------------------- item 3: the last readers on the strict reader ---

# one unbalanced quote on line 2: Python's lenient csv reader merges lines 2-4 into one
# text (the review of U1 swallows U2's and U3's rows); the strict reader names line 2
_UNBALANCED_REVIEWS = 'Id,UserId,Text\n1,U1,"he said hi\n2,U2,good\n3,U3,"ok"\n4,U4,yes\n'


def test_amazon_reviews_csv_with_an_unbalanced_quote_names_file_and_line(tmp_path) -> None:
    from dataset_scripts.styledisc.reviews_blogs_lyrics import read_amazon_csv

    path = tmp_path / "Reviews.csv"
    path.write_text(_UNBALANCED_REVIEWS)
    with pytest.raises(DataError, match=rf"{path} line 2: malformed CSV: .*unbalanced quote"):
        read_amazon_csv(path)
    # a newline inside a properly quoted review is part of it
    path.write_text('Id,UserId,Text\n1,U1,"two\nlines"\n2,U2,"say ""hi"""\n')
    docs, _ = read_amazon_csv(path)
    assert [(d.author, d.text) for d in docs] == [("U1", "two\nlines"), ("U2", 'say "hi"')]


def test_amazon_reviews_csv_gz_with_a_wrong_field_count_names_file_and_line(tmp_path) -> None:
    import gzip

    from dataset_scripts.styledisc.reviews_blogs_lyrics import read_amazon_food

    path = tmp_path / "Reviews.csv.gz"
    path.write_bytes(gzip.compress(b"Id,UserId,Text\n1,U1,fine\n2,U2,a,b\n"))
    with pytest.raises(DataError, match=rf"{path} line 3: expected 3 fields .*got 4"):
        read_amazon_food(tmp_path)


def test_lyrics_csv_with_an_unbalanced_quote_names_file_and_line(tmp_path) -> None:
    from dataset_scripts.styledisc.reviews_blogs_lyrics import read_lyrics

    path = tmp_path / "labeled_lyrics_cleaned.csv"
    path.write_text(',artist,seq,song\n0,A,"la la,t1\n1,B,do re,t2\n2,C,"mi" fa,t3\n3,D,so,t4\n')
    with pytest.raises(DataError, match=rf"{path} line 2: malformed CSV"):
        read_lyrics(tmp_path)


def _core_file(tmp_path: Path, body: bytes) -> Path:
    raw = tmp_path / "core"
    raw.mkdir()
    (raw / "train.tsv").write_bytes(body)
    return raw


def test_core_tsv_quotes_are_literal_and_a_wrong_field_count_names_file_and_line(
    tmp_path,
) -> None:
    """CORE's TSV is unquoted: a ``"`` is text (rows are not merged), and a line with a
    tab inside its text is an error naming the file and line."""
    from collections import Counter

    from dataset_scripts.steb.core import read_records

    raw = _core_file(tmp_path, b'NA NE\td1\tHe said "hi\nIN\td2\tx\nNA DT\td3\tok" then\n')
    rows = list(read_records(raw, Counter()))
    assert rows == [("d1-NE", 'He said "hi', "NE"), ("d3-DT", 'ok" then', "DT")]
    (raw / "train.tsv").write_bytes(b"NA NE\td1\tfine\nNA NE\td2\ta\tb\n")
    with pytest.raises(DataError, match=r"train.tsv line 2: expected 3 tab-separated fields"):
        list(read_records(raw, Counter()))


# ------------------------------------------------- item 7: an open port that is not Ray ---


def _join_in_thread(address: str, wait: float) -> tuple[list[BaseException | None], float]:
    """``ray_runner.connect(address)`` in a daemon thread (Ray's own retry loop never
    ends), waited for ``wait`` seconds: (outcome, seconds taken)."""
    import threading
    import time

    from evaluators.distributed import ray_runner

    outcome: list[BaseException | None] = []

    def join() -> None:
        try:
            ray_runner.connect(address)
            outcome.append(None)
        except BaseException as error:  # judged by the test
            outcome.append(error)

    start = time.monotonic()
    thread = threading.Thread(target=join, daemon=True)
    thread.start()
    thread.join(wait)
    return outcome, time.monotonic() - start


@pytest.mark.parametrize("mode", ["silent", "http", "close"])
def test_ray_address_open_but_not_ray_fails_in_one_line_within_the_deadline(
    monkeypatch, mode: str
) -> None:
    """A port that accepts and never speaks, an HTTP/1 server, and a port that closes at
    once: ``ray.init`` would hang on each (over 90 s measured: it rewrites the address and
    retries); connect stops within the (here 2 s) join deadline with one line naming the
    address."""
    pytest.importorskip("ray")
    from dataset_scripts.core.errors import StylebenchError
    from evaluators.distributed import ray_runner
    from tests.faults.harness import ServerBehaviour, misbehaving_server, tcp_server

    monkeypatch.setattr(ray_runner, "JOIN_SECONDS", 2.0)
    if mode == "http":
        server = misbehaving_server(ServerBehaviour(), max_seconds=10)
    else:
        server = tcp_server(mode, max_seconds=10)
    with server as handle:
        port = handle if isinstance(handle, int) else urlsplit(handle.url).port
        address = f"127.0.0.1:{port}"
        outcome, seconds = _join_in_thread(address, 10.0)
    assert outcome, f"connect({address!r}) still waiting after 10 s (2 s deadline)"
    error = outcome[0]
    assert isinstance(error, StylebenchError), repr(error)
    message = str(error)
    assert address in message and "not a Ray head" in message and "\n" not in message
    assert seconds < 2.0 + 3.0, seconds  # the deadline, plus slack for a loaded machine
    expected = {
        "silent": "answered nothing",
        "http": "which is not HTTP/2",
        "close": "closed the connection",
    }
    assert expected[mode] in message, message


def test_a_port_answering_http2_settings_passes_the_probe() -> None:
    """The probe accepts what a gRPC server (a Ray head's GCS port) sends first."""
    from evaluators.distributed.reachability import check_reachable
    from tests.faults.harness import tcp_server

    with tcp_server("h2", max_seconds=10) as port:
        check_reachable(f"127.0.0.1:{port}", seconds=5)  # returns: no error


def test_the_probe_is_skipped_under_ray_tls(monkeypatch) -> None:
    """Under ``RAY_USE_TLS`` the GCS port speaks TLS first, so only the TCP accept is
    checked (the probe would misread a TLS server)."""
    from evaluators.distributed.reachability import check_reachable
    from tests.faults.harness import tcp_server

    monkeypatch.setenv("RAY_USE_TLS", "1")
    with tcp_server("silent", max_seconds=10) as port:
        check_reachable(f"127.0.0.1:{port}", seconds=2)


@pytest.mark.slow
def test_a_real_ray_head_passes_the_probe() -> None:
    """A real GCS port (a private local cluster on loopback) answers the probe."""
    import shutil
    import tempfile

    ray = pytest.importorskip("ray")
    from evaluators.distributed.reachability import check_reachable

    if ray.is_initialized():
        pytest.skip("a Ray session is already open in this process")
    temp = tempfile.mkdtemp(prefix="sbray")  # short: Ray's socket paths stay < 108 bytes
    ray.init(
        num_cpus=1,
        include_dashboard=False,
        log_to_driver=False,
        _temp_dir=temp,
        _node_ip_address="127.0.0.1",
    )
    try:
        check_reachable(ray.get_runtime_context().gcs_address, seconds=10)
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)


def test_run_on_ray_chunk_is_typed_as_the_values_it_receives() -> None:
    """``stylebench run`` passes True, False or a splitter name ("regex") as ``chunk``:
    it reaches ``run_on_ray`` inside the run's RunConfig (issue 43), typed for them."""
    import inspect

    from evaluators.distributed import ray_runner
    from evaluators.encoders.chunking import SPLITTERS
    from evaluators.run.service import RunConfig

    parameters = inspect.signature(ray_runner.run_on_ray).parameters
    # postponed annotations: the text
    assert parameters["config"].annotation == "RunConfig" and "chunk" not in parameters
    assert RunConfig.__annotations__["chunk"] == "bool | str" and "regex" in SPLITTERS
