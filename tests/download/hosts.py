"""A local stand-in for every host a source is downloaded from, serving archives built
at test time from ``../shared/corpora`` in each host's real layout:

* GitHub: ``/<owner>/<repo>/archive/<commit>.tar.gz``, a tarball whose files sit under
  ``<repo>-<commit>/`` at their repository paths;
* Zenodo: ``/records/<id>/files/<name>?download=1``, the record's zip;
* the Hub: the endpoints ``huggingface_hub.snapshot_download`` calls
  (``/api/datasets/<repo>/revision/<rev>``, ``/api/datasets/<repo>/tree/<commit>``, and
  HEAD/GET ``/datasets/<repo>/resolve/<commit>/<path>`` with ``X-Repo-Commit`` and
  ``ETag``), answering at the environment's ``HF_ENDPOINT``;
* a mirror: ``/mirror/<host>/<path>`` for every file (plain HTTPS files included).

Every GET honours ``Range`` (206; 416 from past the end). Faults per path: ``cut``
(close the connection after N bytes, once), ``trickle`` (one byte per 0.2 s), ``hang``
(never answer), ``status`` (answer that HTTP status), ``no-range`` (ignore ``Range``:
200 and the whole file), ``chunked`` (HTTP/1.1 chunked encoding, no Content-Length; cut
after N bytes once when N > 0). ``redirects`` answer a path with a status and a
``Location``. A proxy's requests (an absolute URL) are served as their path.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import tarfile
import threading
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from dataset_scripts.core.source import Download, Source

HUB_COMMIT = "0123456789abcdef0123456789abcdef01234567"


def copy_files(source: Source, download: Download, copy: Path) -> dict[str, bytes]:
    """{path in the download: bytes} of ``download``, read back from the raw copy
    ``copy`` through the inverse of its ``members`` map. A copy that gzip'ed its files
    (any ``*.gz`` in it, as the checksum registry's test reads it) gives the originals:
    ``x`` with the content of ``x.gz``."""
    found = sorted(p for p in copy.rglob("*") if p.is_file() and p.name != "SOURCE.txt")
    gunzip = any(p.suffix == ".gz" for p in found)
    originals: dict[str, Path] = {}
    for path in found:
        rel = path.relative_to(copy).as_posix()
        originals[rel[:-3] if gunzip and rel.endswith(".gz") else rel] = path

    def read(rel: str) -> bytes:
        path = originals[rel]
        data = path.read_bytes()
        return gzip.decompress(data) if gunzip and path.suffix == ".gz" else data

    out: dict[str, bytes] = {}
    for src, dst in download.members:
        target = dst or src
        for rel in originals:
            if target == "" or (target.endswith("/") and rel.startswith(target)):
                out[src + rel[len(target) :]] = read(rel)
            elif rel == target:
                out[src] = read(rel)
    return out


def tarball(prefix: str, files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as tar:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(f"{prefix}{name}")
            info.size, info.mtime = len(data), 1_600_000_000
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as handle:
        for name, data in sorted(files.items()):
            handle.writestr(name, data)
    return buffer.getvalue()


@dataclass
class Hosts:
    """What the server serves: raw bytes by path, Hub repos, faults, and a request log."""

    files: dict[str, bytes] = field(default_factory=dict)
    hub: dict[str, dict[str, bytes]] = field(default_factory=dict)  # repo -> {path: bytes}
    faults: dict[str, tuple[str, int]] = field(default_factory=dict)  # path -> (kind, arg)
    log: list[tuple[str, str, str]] = field(default_factory=list)  # (method, path, range)
    headers: list[dict[str, str]] = field(default_factory=list)  # of each request, in order
    requested: list[str] = field(default_factory=list)  # request targets as sent
    redirects: dict[str, tuple[int, str]] = field(default_factory=dict)  # path -> (status, to)
    members: dict[str, dict[str, bytes]] = field(default_factory=dict)  # site path -> files
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def add_source(self, source: Source, copy: Path) -> None:
        """Serve every download of ``source`` at its host's path and under /mirror. Sources
        that take different members of one download (one Zenodo zip, one repository
        archive) are served one archive holding the files of all of them."""
        for download in source.downloads:
            files = {
                **self.members.get(download.site_path(), {}),
                **copy_files(source, download, copy),
            }
            self.members[download.site_path()] = files
            if download.kind == "github":
                repo = download.location.split("/")[1]
                body = tarball(f"{repo}-{download.revision}/", files)
                self.files[f"/{download.location}/archive/{download.revision}.tar.gz"] = body
            elif download.kind == "zenodo":
                body = zipped(files)
                self.files[f"/records/{download.location}/files/{download.filename}"] = body
            elif download.kind == "hub":
                repo_files = {download.filename: zipped(files)} if download.archive else files
                self.hub.setdefault(download.location, {}).update(repo_files)
                for name, data in repo_files.items():
                    self.files[f"/mirror/{download.site_path()}/{name}"] = data
                continue
            elif download.archive:  # https: an archive of the mapped files
                body = zipped({k.lstrip("/"): v for k, v in files.items()})
            else:  # https: the one file
                ((_, body),) = files.items()
            self.files[f"/mirror/{download.site_path()}"] = body

    def mirror_path(self, download: Download) -> str:
        return f"/mirror/{download.site_path()}"


class _Handler(BaseHTTPRequestHandler):
    hosts: Hosts

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def do_GET(self) -> None:
        self._answer(head=False)

    def _answer(self, head: bool) -> None:
        path = unquote(urlsplit(self.path).path)
        self.hosts.log.append((self.command, path, self.headers.get("Range", "")))
        self.hosts.headers.append(dict(self.headers.items()))
        self.hosts.requested.append(self.path)
        if path in self.hosts.redirects:
            status, location = self.hosts.redirects[path]
            self._send(status, b"", {"Location": location})
            return
        fault, arg = self.hosts.faults.get(path, ("", 0))
        if fault == "hang":
            time.sleep(arg)
            return
        if fault == "status":
            self._send(arg, b"error\n")
            return
        body, extra = self._resolve(path)
        if body is None:
            self._send(404, b"not found\n")
            return
        start = 0
        match = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range", ""))
        status = 200
        if match and fault != "no-range":
            if int(match.group(1)) >= len(body):
                self._send(416, b"", {"Content-Range": f"bytes */{len(body)}"})
                return
            start, status = int(match.group(1)), 206
        part = body[start:]
        if fault == "chunked" and not head:
            self._chunked(path, status, start, body, arg)
            return
        self.send_response(status)
        self.send_header("Content-Length", str(len(part)))
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        for key, value in extra.items():
            self.send_header(key, value)
        self.end_headers()
        if head:
            return
        if fault == "cut":
            self.hosts.faults.pop(path)  # once
            self.wfile.write(part[:arg])
            self.wfile.flush()
            self.connection.shutdown(2)
            return
        if fault == "trickle":
            deadline = time.monotonic() + arg
            for i in range(len(part)):
                if time.monotonic() > deadline:
                    break
                try:
                    self.wfile.write(part[i : i + 1])
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.2)
            return
        self.wfile.write(part)

    def _chunked(self, path: str, status: int, start: int, body: bytes, cut: int) -> None:
        """``body[start:]`` in 64 KiB chunks of HTTP/1.1 chunked encoding; the connection
        closed after ``cut`` bytes of it (once) when ``cut`` > 0."""
        self.protocol_version = "HTTP/1.1"
        self.send_response(status)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        self.end_headers()
        part = body[start:]
        if cut:
            self.hosts.faults[path] = ("chunked", 0)  # once
            part = part[:cut]
        for i in range(0, len(part), 65536):
            piece = part[i : i + 65536]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        if cut:
            self.wfile.flush()
            self.connection.shutdown(2)
            return
        self.wfile.write(b"0\r\n\r\n")
        self.close_connection = True

    def _send(self, status: int, body: bytes, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _resolve(self, path: str) -> tuple[bytes | None, dict[str, str]]:
        if path in self.hosts.files:
            return self.hosts.files[path], {}
        hub = re.fullmatch(r"/api/datasets/(.+?)/(revision|tree)/([^/]+)(/.*)?", path)
        if hub and hub.group(1) in self.hosts.hub:
            repo, what = hub.group(1), hub.group(2)
            if what == "revision":
                info = {"id": repo, "sha": HUB_COMMIT, "siblings": []}
                return json.dumps(info).encode(), {"Content-Type": "application/json"}
            tree = [
                {
                    "type": "file",
                    "path": name,
                    "size": len(data),
                    "oid": hashlib.sha1(data).hexdigest(),
                }
                for name, data in sorted(self.hosts.hub[repo].items())
            ]
            return json.dumps(tree).encode(), {"Content-Type": "application/json"}
        resolve = re.fullmatch(r"/datasets/(.+?)/resolve/([^/]+)/(.+)", path)
        if resolve and resolve.group(1) in self.hosts.hub:
            data = self.hosts.hub[resolve.group(1)].get(resolve.group(3))
            if data is None:
                return None, {}
            etag = hashlib.sha1(data).hexdigest()
            return data, {"X-Repo-Commit": HUB_COMMIT, "ETag": f'"{etag}"'}
        return None, {}


def serve(hosts: Hosts) -> Iterator[Hosts]:
    """Run the server on 127.0.0.1 for the duration (a generator for a fixture)."""
    handler = type("Handler", (_Handler,), {"hosts": hosts})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    hosts.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hosts
    finally:
        server.shutdown()
        server.server_close()
