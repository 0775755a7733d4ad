"""The checksum registry shipped with the code (``checksums.tsv`` beside this module, as
TensorFlow Datasets ships its ``checksums.tsv``): the SHA-256 and size of every file a
builder reads, per source, and of a downloaded archive where it is stable.

One line per entry, tab-separated: ``source``, ``path``, ``files``, ``size``, ``sha256``.

* ``path`` a file of the source's raw folder: its size and SHA-256;
* ``path`` ending in ``/``: a folder of many files (a PAN release of 1,800 problem
  files), recorded as one *tree digest*: the SHA-256 of its manifest, the lines
  ``<sha256>  <size>  <path under the folder>`` in byte order of the path, with the
  number of files and their total size (:func:`tree_digest`);
* ``path`` starting with ``@``: a downloaded file itself (``@<site path>``), checked
  before anything is extracted.

A source without lines is *unverified*: built from whatever its host serves, with a
warning, until ``stylebench sources record`` writes the lines for a maintainer to commit.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from dataset_scripts.core.errors import DataError

REGISTRY = Path(__file__).with_name("checksums.tsv")
HEADER = "# source\tpath\tfiles\tsize\tsha256"
#: a raw folder of at most this many files is recorded file by file; above it, folders
#: of at most TREE_FILES files become one tree entry each
FILE_BY_FILE = 200
TREE_FILES = 20_000
CHUNK = 1 << 20


@dataclass(frozen=True)
class Entry:
    source: str
    path: str  # a file, a folder ("x/"), or a download ("@<site path>")
    files: int
    size: int
    sha256: str

    def line(self) -> str:
        return f"{self.source}\t{self.path}\t{self.files}\t{self.size}\t{self.sha256}"

    @property
    def is_tree(self) -> bool:
        return self.path.endswith("/")

    @property
    def is_download(self) -> bool:
        return self.path.startswith("@")


class ChecksumError(DataError):
    """Bytes that differ from the registry: names the file, both hashes and what to do."""


def file_digest(path: Path) -> tuple[int, str]:
    """(size, SHA-256 hex) of one file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def _files(folder: Path) -> list[str]:
    """Relative posix paths of the regular files under ``folder`` (links not followed)."""
    out: list[str] = []
    for current, dirs, names in os.walk(folder):
        dirs.sort()
        rel = Path(current).relative_to(folder).as_posix()
        prefix = "" if rel == "." else rel + "/"
        out += [prefix + n for n in names if (Path(current) / n).is_file()]
    return sorted(out, key=lambda p: p.encode("utf-8"))


def tree_digest(folder: Path) -> tuple[int, int, str]:
    """(files, total size, SHA-256 of the manifest) of every file under ``folder``."""
    manifest = hashlib.sha256()
    total = 0
    paths = _files(folder)
    for rel in paths:
        size, sha = file_digest(folder / rel)
        total += size
        manifest.update(f"{sha}  {size}  {rel}\n".encode())
    return len(paths), total, manifest.hexdigest()


def gunzipped_digest(path: Path) -> tuple[int, str]:
    """(size, SHA-256) of a gzip file's content: the original file's, for a copy that was
    gzip'ed (gzip is lossless)."""
    import gzip

    digest = hashlib.sha256()
    size = 0
    with gzip.open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def entries_for_folder(
    source: str,
    folder: Path,
    skip: Iterable[str] = ("SOURCE.txt",),
    wanted: Callable[[str], bool] | None = None,
    gunzip: bool = False,
) -> list[Entry]:
    """The registry lines of a raw folder: file by file when it holds at most
    :data:`FILE_BY_FILE` files; else its big subfolders as tree entries (see the module
    docstring; a subfolder holding a file not ``wanted`` is recorded file by file), the
    files beside them one by one. ``wanted`` keeps only the paths a source's downloads
    produce; ``gunzip`` records ``x.gz`` as ``x`` with its content's hash (a copy that
    gzip'ed its files: the hashes are then the original files')."""
    skipped = set(skip)
    every = [p for p in _files(folder) if p not in skipped]
    if gunzip:
        out = []
        for p in every:
            name, digest = (p[:-3], gunzipped_digest) if p.endswith(".gz") else (p, file_digest)
            if wanted is None or wanted(name):
                out.append(Entry(source, name, 1, *digest(folder / p)))
        return out
    every = [p for p in every if wanted is None or wanted(p)]
    if len(every) <= FILE_BY_FILE:
        return [Entry(source, p, 1, *file_digest(folder / p)) for p in every]
    return list(_split(source, folder, "", every))


def _split(source: str, root: Path, prefix: str, paths: list[str]) -> Iterable[Entry]:
    by_child: dict[str, list[str]] = {}
    for rel in paths:
        head, sep, _ = rel[len(prefix) :].partition("/")
        if sep:
            by_child.setdefault(head, []).append(rel)
        else:
            yield Entry(source, rel, 1, *file_digest(root / rel))
    for child, inside in sorted(by_child.items()):
        sub = f"{prefix}{child}/"
        if len(inside) <= TREE_FILES:
            files, size, sha = tree_digest(root / sub)
            if files != len(inside):  # a skipped file inside: record file by file
                yield from (Entry(source, p, 1, *file_digest(root / p)) for p in inside)
            else:
                yield Entry(source, sub, files, size, sha)
        else:
            yield from _split(source, root, sub, inside)


def read_registry(path: Path = REGISTRY) -> dict[str, list[Entry]]:
    """Every entry by source (an absent file is an empty registry)."""
    out: dict[str, list[Entry]] = {}
    if not path.is_file():
        return out
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 5:
            raise DataError(f"{path}:{number}: {len(fields)} fields, expected 5 ({HEADER[2:]})")
        source, rel, files, size, sha = fields
        if len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
            raise DataError(f"{path}:{number}: {sha!r} is not a SHA-256 hex digest")
        out.setdefault(source, []).append(Entry(source, rel, int(files), int(size), sha))
    return out


def write_registry(entries: dict[str, list[Entry]], path: Path = REGISTRY) -> None:
    """Write the registry, sources and paths sorted (atomically: a temp file renamed)."""
    lines = [HEADER]
    for source in sorted(entries):
        lines += [e.line() for e in sorted(entries[source], key=lambda e: e.path.encode())]
    tmp = path.with_suffix(".tsv.tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def check_file(entry: Entry, actual_path: Path, shown: str) -> None:
    """ChecksumError unless the file at ``actual_path`` has ``entry``'s size and hash."""
    size, sha = file_digest(actual_path)
    if sha != entry.sha256 or size != entry.size:
        raise ChecksumError(
            f"{shown}: SHA-256 {sha} ({size} bytes) differs from the recorded "
            f"{entry.sha256} ({entry.size} bytes); the download is refused. Delete nothing by "
            "hand: run again to fetch it anew, or report a changed upstream file"
        )


def verify_folder(entries: list[Entry], folder: Path) -> int:
    """Check every file and tree entry against ``folder`` (download entries are checked
    elsewhere); returns the number of files checked. ChecksumError names the first
    file or folder that differs, with both hashes."""
    checked = 0
    for entry in entries:
        if entry.is_download:
            continue
        target = folder / entry.path
        if entry.is_tree:
            if not target.is_dir():
                raise ChecksumError(f"{target}: folder missing (expected {entry.files} files)")
            files, size, sha = tree_digest(target)
            if sha != entry.sha256:
                raise ChecksumError(
                    f"{target}: tree SHA-256 {sha} ({files} files, {size} bytes) differs "
                    f"from the recorded {entry.sha256} ({entry.files} files, {entry.size} "
                    "bytes); the download is refused"
                )
            checked += files
            continue
        if not target.is_file():
            raise ChecksumError(
                f"{target}: file missing from the download (expected sha256 {entry.sha256})"
            )
        check_file(entry, target, str(target))
        checked += 1
    return checked
