"""Safe extraction of a downloaded archive into a source's raw folder.

Archives come from strangers: every member name is checked before anything is written
(no absolute path, no ``..``, nothing resolving outside the folder), links and device
files are never created (skipped, and counted), and the bytes written are bounded
(:data:`MAX_RATIO` times the archive's size plus :data:`SLACK`, and at most
``STYLEBENCH_MAX_EXTRACT`` bytes, default 64 GiB): a zip bomb stops with an error instead
of filling the disk. Only the members a :class:`~dataset_scripts.core.source.Download`
maps are extracted, each to its mapped path.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from dataset_scripts.core.errors import DataError

MAX_RATIO = 200
SLACK = 64 << 20
CHUNK = 1 << 20


class UnsafeArchive(DataError):
    """An archive member that would escape the folder, or an archive that inflates past
    the limit."""


def map_member(name: str, members: tuple[tuple[str, str], ...]) -> str | None:
    """The raw-folder path of archive member ``name`` under ``members`` (None: not
    wanted). A source ending in ``/`` (or ``""``) maps a folder, anything else one file;
    an empty destination keeps the path."""
    for src, dst in members:
        if src == "" or (src.endswith("/") and name.startswith(src)):
            rest = name[len(src) :]
            return (dst.rstrip("/") + "/" + rest) if dst and rest else (dst or rest)
        if name == src:
            return dst or src
    return None


def safe_relative(name: str, archive: Path) -> str:
    """``name`` as a relative posix path that stays inside the folder (else UnsafeArchive)."""
    clean = name.replace("\\", "/")
    parts = [p for p in clean.split("/") if p not in ("", ".")]
    if clean.startswith("/") or (parts and ":" in parts[0]) or ".." in parts:
        raise UnsafeArchive(f"{archive}: member {name!r} points outside the folder; refused")
    return "/".join(parts)


class _Budget:
    def __init__(self, archive: Path) -> None:
        cap = int(os.environ.get("STYLEBENCH_MAX_EXTRACT") or 64 << 30)
        self.left = min(cap, archive.stat().st_size * MAX_RATIO + SLACK)
        self.archive = archive

    def spend(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            raise UnsafeArchive(
                f"{self.archive}: inflates past {MAX_RATIO}x its size (a zip bomb?); refused"
            )


def _write(source: IO[bytes], target: Path, budget: _Budget, made: set[Path]) -> None:
    # the path was checked by safe_relative (no "..", not absolute), and nothing here
    # creates a link, so it cannot resolve outside the fresh folder it is written into
    if target.parent not in made:
        target.parent.mkdir(parents=True, exist_ok=True)
        made.add(target.parent)
    with contextlib.suppress(FileNotFoundError):  # never write through a hard link
        os.unlink(target)
    with open(target, "wb") as out:
        while chunk := source.read(CHUNK):
            budget.spend(len(chunk))
            out.write(chunk)


def extract(
    archive: Path,
    kind: str,
    members: tuple[tuple[str, str], ...],
    into: Path,
    *,
    strip_top: bool = False,
) -> tuple[int, int]:
    """Extract the mapped members of ``archive`` (``tar.gz`` or ``zip``) into ``into``;
    ``strip_top`` drops the first path component (a GitHub archive's
    ``<repo>-<commit>/``). Returns (files written, links or special files skipped)."""
    into.mkdir(parents=True, exist_ok=True)
    budget = _Budget(archive)
    made: set[Path] = set()
    written = skipped = 0
    for name, is_file, opener in _members(archive, kind):
        rel = safe_relative(name, archive)
        if strip_top:
            rel = rel.partition("/")[2]
        if not rel:
            continue
        target_rel = map_member(rel, members)
        if target_rel is None:
            continue
        if not is_file:
            skipped += 1
            continue
        target = into / safe_relative(target_rel, archive)
        with opener() as handle:
            _write(handle, target, budget, made)
        written += 1
    return written, skipped


def _members(archive: Path, kind: str) -> Iterator[tuple[str, bool, object]]:
    """(name, is a regular file, opener) of every member, in archive order."""
    if kind == "zip":
        import zipfile

        try:
            with zipfile.ZipFile(archive) as handle:
                for info in handle.infolist():
                    if info.is_dir():
                        continue
                    mode = (info.external_attr >> 16) & 0o170000
                    regular = mode in (0, 0o100000)  # no unix mode, or a regular file
                    yield info.filename, regular, (lambda i=info: handle.open(i))
        except zipfile.BadZipFile as error:
            raise DataError(
                f"{archive}: not a readable zip ({error}); delete it and run again"
            ) from None
        return
    if kind == "tar.gz":
        import tarfile

        try:
            with tarfile.open(archive, "r|gz") as handle:  # one pass, in order
                for info in handle:
                    if info.isdir():
                        continue
                    opener = (lambda i=info: handle.extractfile(i)) if info.isfile() else None
                    yield info.name, info.isfile(), opener
        except (tarfile.TarError, EOFError, OSError) as error:
            if isinstance(error, OSError) and error.errno is not None:
                raise
            raise DataError(
                f"{archive}: not a readable tar.gz ({error}); delete it and run again"
            ) from None
        return
    raise DataError(f"{archive}: unknown archive format {kind!r}")


def place_file(download: Path, target: Path) -> None:
    """A plain (not archived) download copied into the raw folder (hard link when the
    file system allows: the cache keeps one copy)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):  # a file of another download: replaced
        os.unlink(target)
    try:
        os.link(download, target)
    except OSError:
        shutil.copyfile(download, target)
