"""The download client (``dataset_scripts.sources.http.fetch``) against a local server
(``tests/download/hosts.py``) on synthetic bytes: what it sends (User-Agent, identity
encoding, never ``HF_TOKEN``), redirects (``Range`` kept, other schemes and loops
refused), proxies from the environment (``no_proxy`` honoured), ``Range`` resume of a
``.part`` (206 appended, 200 restarted, 416 refetched), chunked bodies cut and resumed,
a refused connection, and the progress callback. The corpora-backed cases (cut, 404,
timeout, trickle, full disk) are in ``test_download.py``."""

from __future__ import annotations

import hashlib
import random
import socket
from pathlib import Path

import pytest

from dataset_scripts.sources.http import DownloadError, Limits, fetch
from tests.download.hosts import Hosts, serve

FAST = Limits(timeout=1.0, retries=1, backoff=0.05, min_rate=1000.0, rate_window=1.0)
BODY = random.Random(40).randbytes(300_000)
PATH = "/mirror/example.org/data.bin"
PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")


@pytest.fixture(scope="module")
def hosts():
    yield from serve(Hosts(files={PATH: BODY}))


@pytest.fixture(autouse=True)
def _clean(hosts: Hosts, monkeypatch: pytest.MonkeyPatch):
    for name in PROXY_VARS:  # the machine's own proxies would change what is tested
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    yield
    hosts.faults.clear()
    hosts.redirects.clear()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _fetch(url: str, dest: Path, **kwargs: object) -> int:
    return fetch(url, dest, limits=FAST, sleep=lambda _: None, **kwargs)  # type: ignore[arg-type]


def _ranges(hosts: Hosts, before: int) -> list[str]:
    return [r for _, _, r in hosts.log[before:]]


def test_what_is_sent_and_never_the_token(
    hosts: Hosts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_TOKEN", "hf_not_for_other_hosts_40")
    before = len(hosts.headers)
    seen: list[tuple[int, int | None]] = []
    size = _fetch(
        f"{hosts.url}{PATH}", tmp_path / "a.bin", progress=lambda d, t: seen.append((d, t))
    )
    assert size == len(BODY) and _sha((tmp_path / "a.bin").read_bytes()) == _sha(BODY)
    assert not (tmp_path / "a.bin.part").exists()
    (headers,) = hosts.headers[before:]
    lower = {k.lower(): v for k, v in headers.items()}
    assert lower["user-agent"] == "stylebench-download"
    assert lower["accept-encoding"] == "identity"
    assert "authorization" not in lower and "range" not in lower
    assert not any("hf_not_for_other_hosts_40" in v for v in headers.values())
    # progress: as bytes arrive, increasing, ending at the whole file of a known size
    done = [d for d, _ in seen]
    assert done == sorted(set(done)) and seen[-1] == (len(BODY), len(BODY))


def test_a_part_file_resumes_with_range_or_restarts_when_the_server_ignores_it(
    hosts: Hosts, tmp_path: Path
) -> None:
    dest = tmp_path / "b.bin"
    (tmp_path / "b.bin.part").write_bytes(BODY[:123_456])
    before = len(hosts.log)
    assert _fetch(f"{hosts.url}{PATH}", dest) == len(BODY)
    assert _ranges(hosts, before) == ["bytes=123456-"]
    assert _sha(dest.read_bytes()) == _sha(BODY)

    dest.unlink()
    (tmp_path / "b.bin.part").write_bytes(BODY[:123_456])
    hosts.faults[PATH] = ("no-range", 0)  # 200 and the whole file: written from 0
    before = len(hosts.log)
    assert _fetch(f"{hosts.url}{PATH}", dest) == len(BODY)
    assert _ranges(hosts, before) == ["bytes=123456-"]
    assert _sha(dest.read_bytes()) == _sha(BODY)


@pytest.mark.parametrize("have", [len(BODY), len(BODY) + 10])
def test_a_complete_or_longer_part_file_gets_416_and_is_fetched_again(
    hosts: Hosts, tmp_path: Path, have: int
) -> None:
    dest = tmp_path / "c.bin"
    (tmp_path / "c.bin.part").write_bytes((BODY + b"x" * 10)[:have])
    before = len(hosts.log)
    assert _fetch(f"{hosts.url}{PATH}", dest) == len(BODY)
    assert _ranges(hosts, before) == [f"bytes={have}-", ""]
    assert _sha(dest.read_bytes()) == _sha(BODY)


def test_redirects_are_followed_keeping_range(hosts: Hosts, tmp_path: Path) -> None:
    hosts.redirects["/a"] = (301, "/b")
    hosts.redirects["/b"] = (307, f"{hosts.url}/c")
    hosts.redirects["/c"] = (308, PATH)
    dest = tmp_path / "d.bin"
    (tmp_path / "d.bin.part").write_bytes(BODY[:1000])
    before = len(hosts.log)
    assert _fetch(f"{hosts.url}/a", dest) == len(BODY)
    assert [(p, r) for _, p, r in hosts.log[before:]] == [
        (p, "bytes=1000-") for p in ("/a", "/b", "/c", PATH)
    ]
    assert _sha(dest.read_bytes()) == _sha(BODY)


@pytest.mark.parametrize(
    ("redirects", "says"),
    [
        ({"/e": (302, "file:///etc/passwd")}, "'file:///etc/passwd' is not allowed"),
        ({"/e": (302, "ftp://127.0.0.1/x")}, "redirect to ftp://127.0.0.1/x refused"),
        ({"/e": (302, "/f"), "/f": (302, "/e")}, "infinite loop"),
    ],
)
def test_a_redirect_to_another_scheme_or_a_loop_is_one_line(
    hosts: Hosts, tmp_path: Path, redirects: dict[str, tuple[int, str]], says: str
) -> None:
    hosts.redirects.update(redirects)
    with pytest.raises(DownloadError) as caught:
        _fetch(f"{hosts.url}/e", tmp_path / "e.bin")
    message = str(caught.value)
    assert "\n" not in message and "HTTP 302, not followed" in message and says in message
    assert f"{hosts.url}/e" in message and "--mirror" in message
    assert list(tmp_path.iterdir()) == []


def test_a_url_that_is_not_http_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DownloadError, match="file:///etc/passwd: not an http"):
        _fetch("file:///etc/passwd", tmp_path / "f.bin")
    assert list(tmp_path.iterdir()) == []


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("variable", ["http_proxy", "HTTP_PROXY", "all_proxy"])
def test_the_proxy_of_the_environment_is_used(
    hosts: Hosts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.setenv(variable, hosts.url)
    url = f"http://stylebench-40.invalid{PATH}"  # resolvable only by the proxy
    before = len(hosts.requested)
    assert _fetch(url, tmp_path / "g.bin") == len(BODY)
    assert hosts.requested[before:] == [url]  # the absolute URL: a proxy request
    assert _sha((tmp_path / "g.bin").read_bytes()) == _sha(BODY)


def test_no_proxy_is_honoured(
    hosts: Hosts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("http_proxy", f"http://127.0.0.1:{_closed_port()}")  # would refuse
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    before = len(hosts.requested)
    assert _fetch(f"{hosts.url}{PATH}", tmp_path / "h.bin") == len(BODY)
    assert hosts.requested[before:] == [PATH]


def test_a_refused_connection_is_retried_then_one_line(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/x.bin"
    waits: list[float] = []
    with pytest.raises(DownloadError) as caught:
        fetch(url, tmp_path / "i.bin", limits=FAST, sleep=waits.append)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"{url}: connection refused")
    assert "2 attempts" in message and "--mirror" in message
    assert waits == [0.05]
    assert list(tmp_path.iterdir()) == []


def test_a_chunked_body_is_read_and_a_cut_one_resumed(hosts: Hosts, tmp_path: Path) -> None:
    hosts.faults[PATH] = ("chunked", 0)
    seen: list[tuple[int, int | None]] = []
    assert _fetch(
        f"{hosts.url}{PATH}", tmp_path / "j.bin", progress=lambda d, t: seen.append((d, t))
    ) == len(BODY)
    assert _sha((tmp_path / "j.bin").read_bytes()) == _sha(BODY)
    assert seen[-1] == (len(BODY), None)  # no Content-Length: no total

    hosts.faults[PATH] = ("chunked", 100_000)  # cut after 100,000 bytes, once
    before = len(hosts.log)
    assert _fetch(f"{hosts.url}{PATH}", tmp_path / "k.bin") == len(BODY)
    assert _ranges(hosts, before) == ["", "bytes=100000-"]
    assert _sha((tmp_path / "k.bin").read_bytes()) == _sha(BODY)
