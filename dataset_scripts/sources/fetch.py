"""Fetch, verify and extract a source's raw download: the one place that downloads.

Layout of the download cache (``$STYLEBENCH_CACHE/downloads``, shared by every dataset
of a release; the CLI passes it in)::

    downloads/<host>/<path>              each downloaded file, at its URL's host and path
                                         (github.com/<owner>/<repo>/archive/<commit>.tar.gz,
                                         zenodo.org/records/<id>/files/<name>,
                                         huggingface.co/datasets/<repo>/resolve/<rev>/<file>,
                                         <host>/<path> of a plain HTTPS file)
    downloads/manual/<source>/           where a gated source's files are put by hand
    downloads/extracted/<source>/        the raw folder a builder reads, verified (the
                                         download's files and nothing else)
    downloads/extracted/.<source>.json   what it was made from (written last: without
                                         it the folder is made again)

A mirror (``--mirror URL`` / ``STYLEBENCH_MIRROR``) serves the same layout as
``downloads/<host>/<path>``: ``<mirror>/<host>/<path>``. So a filled download cache,
served by any static web server, *is* a mirror for an offline cluster.

:func:`prepare` returns the verified raw folder of a source, fetching what is missing;
builders never see anything else (they stay pure functions of a folder).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.source import HOSTS, Download, Source
from dataset_scripts.sources.checksums import (
    ChecksumError,
    Entry,
    check_file,
    read_registry,
    verify_folder,
)
from dataset_scripts.sources.extract import extract, place_file
from dataset_scripts.sources.http import DownloadError, Limits, disk_error
from dataset_scripts.sources.http import fetch as http_fetch

EXTRACTED, MANUAL = "extracted", "manual"
CACHED, VERIFIED, UNVERIFIED, GATED, MISSING = (
    "cached",
    "verified",
    "unverified",
    "gated",
    "not downloaded",
)


class ManualStepNeeded(StylebenchError):
    """A gated source whose files are not in the manual folder yet: the message says
    where to get them, their exact names and the folder to put them in."""

    def __init__(self, source: Source, folder: Path, missing: list[str]) -> None:
        self.source, self.folder, self.missing = source, folder, missing
        super().__init__(manual_instructions(source, folder, missing))


def manual_instructions(source: Source, folder: Path, missing: list[str]) -> str:
    where = "; ".join(sorted({d.location for d in source.downloads if d.kind == "manual"}))
    return (
        f"{source.name}: needs a manual step. {source.instructions} "
        f"Get it from {where or source.homepage}; put {', '.join(missing)} into {folder} "
        "and run the same command again (it verifies and builds them)."
    )


@dataclass
class Options:
    """How :func:`prepare` fetches: the cache root, the manual folder's root, a mirror,
    a progress bar factory (None: silent), and the checksum registry to verify against."""

    root: Path  # $STYLEBENCH_CACHE/downloads
    manual_root: Path | None = None
    mirror: str = ""
    progress: bool = False
    registry: dict[str, list[Entry]] | None = None
    limits: Limits | None = None

    @property
    def manual(self) -> Path:
        return self.manual_root or self.root / MANUAL

    def entries(self, name: str) -> list[Entry]:
        if self.registry is None:
            self.registry = read_registry()
        return self.registry.get(name, [])


@dataclass
class Prepared:
    """A verified raw folder, with what it cost (seconds per step, bytes fetched)."""

    source: Source
    folder: Path
    verified: bool  # False: the registry has no hashes for this source (unverified)
    fetched_bytes: int = 0
    seconds: dict[str, float] = field(
        default_factory=lambda: dict.fromkeys(("fetch", "verify", "extract"), 0.0)
    )
    cached: bool = False


def mirror_url(mirror: str, download: Download, path: str = "") -> str:
    """The file's URL under a mirror: ``<mirror>/<host>/<path>``."""
    site = download.site_path() + (f"/{path}" if path else "")
    return f"{mirror.rstrip('/')}/{site}"


def _endpoint(kind: str) -> str:
    _default, variable = HOSTS.get(kind, ("", ""))
    return os.environ.get(variable, "") if variable else ""


def extracted_folder(root: Path, source: Source) -> Path:
    return root / EXTRACTED / source.name


def marker_file(root: Path, source: Source) -> Path:
    """Beside the raw folder, not in it: a builder reading every ``*.json`` of its folder
    sees the download's files only."""
    return root / EXTRACTED / f".{source.name}.json"


def fingerprint(source: Source, entries: list[Entry]) -> str:
    """What a raw folder was made from: the downloads and the hashes it was checked with."""
    import hashlib

    text = repr(source.downloads) + "".join(e.line() for e in entries)
    return hashlib.sha256(text.encode()).hexdigest()


def status(source: Source, options: Options) -> str:
    """Where ``source`` stands here: verified (its raw folder checked against recorded
    hashes), cached (downloaded, no hashes recorded: unverified), gated (files to put in
    the manual folder), unverified (not downloaded, no hashes) or not downloaded."""
    entries = options.entries(source.name)
    marker = marker_file(options.root, source)
    if marker.is_file() and extracted_folder(options.root, source).is_dir():
        try:
            info = json.loads(marker.read_text())
        except (OSError, ValueError):
            info = {}
        if info.get("fingerprint") == fingerprint(source, entries):
            return VERIFIED if entries else CACHED
    if source.gated:
        return GATED
    return UNVERIFIED if not entries else MISSING


def prepare(
    source: Source, options: Options, log: Callable[[str], None] = lambda _: None
) -> Prepared:
    """The verified raw folder of ``source`` (``downloads/extracted/<name>``), fetching,
    verifying and extracting what is missing. Nothing half-made is left behind: the
    folder is assembled beside its place and renamed in once verified."""
    entries = options.entries(source.name)
    final = extracted_folder(options.root, source)
    stamp = fingerprint(source, entries)
    if status(source, options) in (VERIFIED, CACHED):
        return Prepared(source, final, bool(entries), cached=True)
    result = Prepared(source, final, bool(entries))
    downloaded = _get_downloads(source, options, result, log)
    staging = final.with_name(f".{source.name}.partial-{os.getpid()}")
    try:
        _remove_tree(staging)
        t0 = time.perf_counter()
        for download, path, _ in downloaded:
            _unpack(download, path, staging)
        result.seconds["extract"] += time.perf_counter() - t0
        t0 = time.perf_counter()
        if entries:
            try:
                verify_folder(entries, staging)
            except ChecksumError:
                for _, path, fetched in downloaded:  # refused bytes are not kept
                    if fetched:
                        _remove_tree(path)
                raise
        else:
            log(
                f"[yellow]unverified[/yellow] {source.name}: no recorded SHA-256 (built from what "
                "the host served; a maintainer pins it with `stylebench sources record`)"
            )
        result.seconds["verify"] += time.perf_counter() - t0
        marker = marker_file(options.root, source)
        marker.unlink(missing_ok=True)  # no stale "verified" while the folder changes
        if final.exists():
            _remove_tree(final)
        os.replace(staging, final)
        written = marker.with_name(marker.name + f".{os.getpid()}")
        try:
            written.write_text(
                json.dumps({"source": source.name, "fingerprint": stamp, "verified": bool(entries)})
            )
            os.replace(written, marker)
        finally:
            written.unlink(missing_ok=True)
    except OSError as error:
        raise disk_error(error, final.parent) from None
    finally:
        _remove_tree(staging)
    return result


def _get_downloads(
    source: Source, options: Options, result: Prepared, log: Callable[[str], None]
) -> list[tuple[Download, Path, bool]]:
    """(download, local file or folder, fetched now) of every download of ``source``,
    fetched in parallel where there are several, each checked against its recorded hash."""
    entries = {e.path: e for e in options.entries(source.name) if e.is_download}
    folder = options.manual / source.name
    missing = [
        d.name
        for d in source.downloads
        if d.kind == "manual"
        and not (
            (folder / d.filename).is_file()
            if d.filename
            else folder.is_dir() and any(p.is_file() for p in folder.rglob("*"))
        )
    ]
    if missing:
        raise ManualStepNeeded(source, options.manual / source.name, missing)

    def one(download: Download) -> tuple[Download, Path, bool]:
        t0 = time.perf_counter()
        path, fetched, size = _get(download, source, options)
        result.seconds["fetch"] += time.perf_counter() - t0
        result.fetched_bytes += size
        entry = entries.get("@" + download.site_path())
        if entry is not None and path.is_file():
            t0 = time.perf_counter()
            try:
                check_file(entry, path, f"{download.describe()} ({path.name})")
            except ChecksumError:
                if fetched:
                    path.unlink(missing_ok=True)
                raise
            result.seconds["verify"] += time.perf_counter() - t0
        return download, path, fetched

    if len(source.downloads) == 1:
        return [one(source.downloads[0])]
    with ThreadPoolExecutor(max_workers=min(4, len(source.downloads))) as pool:
        return list(pool.map(one, source.downloads))


def _get(download: Download, source: Source, options: Options) -> tuple[Path, bool, int]:
    """(local path, fetched now, bytes fetched) of one download."""
    if download.kind == "manual":
        folder = options.manual / source.name
        return (folder / download.filename if download.filename else folder), False, 0
    local = options.root / download.site_path()
    if download.kind == "hub":
        return _get_hub(download, local, options)
    if local.is_file():
        return local, False, 0
    if options.mirror:
        url = mirror_url(options.mirror, download)
    else:
        url = download.url(_endpoint(download.kind))
    size = http_fetch(url, local, limits=options.limits, progress=_bar(download, options))
    return local, True, size


def _hub_files(download: Download) -> list[str]:
    return [download.filename] if download.archive else [src for src, _ in download.members]


def _get_hub(download: Download, local: Path, options: Options) -> tuple[Path, bool, int]:
    """Hub files through huggingface_hub's snapshot_download (HF_ENDPOINT, HF_TOKEN
    honoured) into ``local``; under a mirror, each file through the HTTP client."""
    files = _hub_files(download)
    if all(f and not f.endswith("/") and (local / f).is_file() for f in files):
        return local, False, 0
    if options.mirror:
        if any(not f or f.endswith("/") for f in files):
            raise DownloadError(
                f"{download.describe()}: its files are not listed in the declaration, so a "
                "mirror cannot serve them; download without --mirror (huggingface_hub)"
            )
        size = 0
        for name in files:
            url = mirror_url(options.mirror, download, name)
            size += http_fetch(
                url, local / name, limits=options.limits, progress=_bar(download, options)
            )
        return local, True, size
    from huggingface_hub import snapshot_download
    from huggingface_hub.utils import disable_progress_bars, enable_progress_bars

    patterns = [f + "*" if f.endswith("/") or not f else f for f in files]
    (disable_progress_bars if not options.progress else enable_progress_bars)()
    try:
        local.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise disk_error(error, local.parent) from None
    try:
        snapshot_download(
            download.location,
            repo_type="dataset",
            revision=download.revision or None,
            allow_patterns=patterns,
            local_dir=local,
            token=os.environ.get("HF_TOKEN") or None,
            endpoint=os.environ.get("HF_ENDPOINT") or None,
        )
    except OSError as error:
        if error.errno is not None:
            raise disk_error(error, local) from None
        raise DownloadError(_hub_message(download, error)) from None
    except Exception as error:  # huggingface_hub's HTTP and repository errors
        raise DownloadError(_hub_message(download, error)) from None
    size = sum(
        p.stat().st_size for p in local.rglob("*") if p.is_file() and ".cache" not in p.parts
    )
    return local, True, size


def _hub_message(download: Download, error: BaseException) -> str:
    endpoint = os.environ.get("HF_ENDPOINT") or "https://huggingface.co"
    first = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return (
        f"{endpoint}/datasets/{download.location} (revision {download.revision or 'main'}): "
        f"{type(error).__name__}: {first}; check HF_TOKEN for a gated repo, HF_ENDPOINT, "
        "HF_HUB_OFFLINE, or use --mirror"
    )


def _unpack(download: Download, path: Path, into: Path) -> None:
    """Put one download's members into the staging folder ``into``."""
    if download.archive:
        archive = path / download.filename if path.is_dir() else path
        extract(
            archive, download.archive, download.members, into, strip_top=download.kind == "github"
        )
        return
    if download.kind == "hub" or (download.kind == "manual" and not download.filename):
        for src, dst in download.members:
            origin = path / src
            if src.endswith("/") or src == "":
                for file in sorted(p for p in origin.rglob("*") if p.is_file()):
                    rel = file.relative_to(origin)
                    if ".cache" not in rel.parts:  # huggingface_hub's bookkeeping
                        place_file(file, into / dst / rel)
            else:
                place_file(origin, into / (dst or src))
        return
    ((_, dst),) = download.members
    place_file(path, into / (dst or download.name))


def _bar(download: Download, options: Options) -> Callable[[int, int | None], None] | None:
    if not options.progress:
        return None
    from tqdm import tqdm

    state: dict[str, Any] = {}

    def update(done: int, total: int | None) -> None:
        bar = state.get("bar")
        if bar is None:
            bar = state["bar"] = tqdm(
                total=total, unit="B", unit_scale=True, desc=download.name[:40], leave=False
            )
        bar.update(done - bar.n)
        if total is not None and done >= total:
            bar.close()

    return update


def _remove_tree(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    elif path.exists() or path.is_symlink():
        path.unlink(missing_ok=True)


def record(source: Source, options: Options) -> list[Entry]:
    """Fetch ``source`` unverified and return the registry lines of what arrived: every
    file the builder reads (:func:`entries_for_folder`) and each stable download's own
    hash (Zenodo, HTTPS, Hub files; a GitHub archive is regenerated by GitHub, so only
    its files are recorded). For ``stylebench sources record``."""
    from dataset_scripts.sources.checksums import entries_for_folder, file_digest

    registry = dict(options.registry or read_registry())
    registry[source.name] = []
    scratch = Options(
        options.root,
        options.manual_root,
        options.mirror,
        options.progress,
        registry,
        options.limits,
    )
    prepared = prepare(source, scratch)
    lines = entries_for_folder(source.name, prepared.folder)
    for download in source.downloads:
        local = (
            options.root / download.site_path()
            if download.kind != "manual"
            else (scratch.manual / source.name / download.filename)
        )
        if download.kind in ("zenodo", "https", "manual") and local.is_file():
            size, sha = file_digest(local)
            lines.append(Entry(source.name, "@" + download.site_path(), 1, size, sha))
    return lines
