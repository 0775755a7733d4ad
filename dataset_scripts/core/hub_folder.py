"""Write Hub-ready dataset folders: Parquet shards per config/split plus a README.md card
whose YAML front matter lists the configs (``datasets`` >= 4 reads such a folder, locally
or as a Hub repo, without any loading script). Publishing is ``evaluators.publish``
(``stylebench push``); registering a build for ``load_dataset(<hub id>)`` offline is
:mod:`dataset_scripts.hub_cache`."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dataset_scripts.core.cards import render_card
from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.quiet import quiet_datasets
from dataset_scripts.core.schemas import (
    SCHEMAS,
    probing_features,
    probing_features_spec,
    validate_rows,
)
from dataset_scripts.core.spec import DatasetSpec

BUILD_INFO = "stylebench_build.json"


def _features_for(config: str, rows: Sequence[Mapping[str, Any]]):
    if config == "probing":
        return probing_features_spec(probing_features(list(rows[0])))
    return SCHEMAS[config].features


def count_texts(config: str, rows: Sequence[Mapping[str, Any]]) -> int:
    """Number of texts in a table (a pair holds two, a sequence or retrieval unit many)."""
    total = 0
    for column in SCHEMAS[config].text_columns:
        for row in rows:
            value = row[column]
            total += len(value) if isinstance(value, list | tuple) else 1
    return total


def write_hub_folder(
    spec: DatasetSpec,
    tables: Mapping[str, Mapping[str, list[dict[str, Any]]]],
    out_dir: Path,
    dropped: Mapping[str, int] | None = None,
    build_info: Mapping[str, Any] | None = None,
    *,
    schemas: Mapping[str, str] | None = None,
    members: Mapping[str, DatasetSpec] | None = None,
) -> Path:
    """Validate ``tables`` ({config: {split: rows}}) and write them under ``out_dir``.

    ``schemas`` gives each config's schema (default: the config's own name); ``members``
    the dataset of each config of a multi-dataset release (see :func:`build_release`).

    The folder is written into a fresh hidden sibling (``.<name>.<random>.partial``) and
    renamed into place at the end, so an interrupted or failed build never leaves a
    half-written dataset behind (the sibling is removed on failure; one a killed build left
    is removed by the next build of the folder). An existing ``out_dir`` is replaced only
    when it holds a previous stylebench build (see :func:`check_out_dir`); anything else is
    an :class:`OutputFolderError`. Files the user added to a previous build (results,
    notes) are moved into the new one. A full disk or a read-only folder is an
    :class:`OutputFolderError` saying so.
    """
    out_dir = Path(out_dir)
    check_out_dir(out_dir)
    if spec.describe_build is not None:  # a protocol that reports its own build (ARB)
        from dataclasses import replace

        protocol, more_info = spec.describe_build(tables)
        spec = replace(spec, protocol=protocol)
        build_info = {**more_info, **(build_info or {})}
    try:
        staging = _staging_dir(out_dir)
    except OSError as error:
        raise _storage_error(out_dir, error) from None
    try:
        _write_staging(spec, tables, staging, dropped, build_info, schemas, members)
        _move_into_place(staging, out_dir)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise _storage_error(out_dir, error) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out_dir


def _storage_error(out_dir: Path, error: OSError) -> OutputFolderError:
    """One line for a write that failed: disk full, read-only, no permission."""
    import errno

    where = f"--out {out_dir}"
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return OutputFolderError(
            f"{where}: disk full while writing the build (no space left on "
            f"{out_dir.parent}); nothing was written and any previous build is unchanged: "
            "free space and rerun"
        )
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        kind = "read-only" if error.errno == errno.EROFS else "not writable (permission denied)"
        return OutputFolderError(
            f"{where}: the folder {out_dir.parent} is {kind}; choose a writable folder"
        )
    return OutputFolderError(f"{where}: cannot write the build: {error.strerror or error}")


class OutputFolderError(StylebenchError):
    """An output folder that a build must not write into or replace."""


def read_build_info(folder: Path) -> dict[str, Any]:
    """The build marker of ``folder`` (:data:`BUILD_INFO`, written by every build), or
    ``{}`` when the folder has none or it is not a JSON object."""
    try:
        info = json.loads((Path(folder) / BUILD_INFO).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return info if isinstance(info, dict) else {}


def is_previous_build(folder: Path) -> bool:
    """True when ``folder`` holds a stylebench build marker (:data:`BUILD_INFO` with a
    ``hub_id``), i.e. it is a folder a previous build wrote and may replace."""
    return isinstance(read_build_info(folder).get("hub_id"), str)


def check_out_dir(out_dir: Path, raw: Path | None = None, what: str = "the raw download") -> None:
    """Refuse an output folder a build must not touch (:class:`OutputFolderError`).

    Allowed: a path that does not exist yet, an empty folder, or a folder holding a previous
    stylebench build (its marker file). Refused: an existing file, a path below a file, any
    other folder, and, whatever it holds, a folder that is, contains or lies inside the
    build's input ``raw`` (``what`` names it: the raw download, or the ``--from`` input).
    """
    out_dir = Path(out_dir)
    if raw is not None:
        out_abs, raw_abs = out_dir.resolve(), Path(raw).resolve()
        if out_abs == raw_abs or raw_abs in out_abs.parents or out_abs in raw_abs.parents:
            relation = (
                "is"
                if out_abs == raw_abs
                else "lies inside"
                if raw_abs in out_abs.parents
                else "contains"
            )
            raise OutputFolderError(
                f"--out {out_dir} {relation} {what} {raw}; choose an output folder "
                "outside it (a build never overwrites its own input)"
            )
    blocking = next((p for p in out_dir.absolute().parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise OutputFolderError(
            f"--out {out_dir}: {blocking} is a file, not a folder; choose another path"
        )
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise OutputFolderError(
            f"--out {out_dir} exists and is not a folder; remove it or choose another path"
        )
    if out_dir.resolve() == Path.cwd().resolve() or out_dir.resolve() in Path.cwd().parents:
        raise OutputFolderError(
            f"--out {out_dir} is the current folder (or holds it); a build replaces its "
            "folder as a whole: choose a folder by name, e.g. --out built/<name>"
        )
    if out_dir.is_dir() and any(out_dir.iterdir()) and not is_previous_build(out_dir):
        raise OutputFolderError(
            f"--out {out_dir} is a folder that does not hold a stylebench build (no valid "
            f"{BUILD_INFO}); it is left alone: choose a new or empty folder"
        )


_OWNER = ".stylebench_owner.json"  # who writes a staging folder (host, pid)


def _owner_alive(folder: Path) -> bool:
    """False when ``folder`` (a staging or moved-aside folder) was left by a process of
    this host that no longer runs (killed, crashed); True when it may still be in use."""
    import socket

    try:
        owner = json.loads((folder / _OWNER).read_text(encoding="utf-8"))
        host, pid = str(owner["host"]), int(owner["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        # no marker: an older build's leftover, or one being created this instant
        try:
            return time.time() - folder.stat().st_mtime < 24 * 3600
        except OSError:
            return True
    if host != socket.gethostname():
        return True  # another machine's build on a shared file system: not ours to judge
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_leftovers(out_dir: Path) -> list[Path]:
    """Remove the ``.<name>.*.partial`` staging folders (and ``.old`` folders) next to
    ``out_dir`` that a killed build left behind; a moved-aside previous build whose
    replacement never arrived is put back. Returns what was removed."""
    out_dir = Path(out_dir)
    parent = out_dir.parent
    if not parent.is_dir():
        return []
    removed = []
    for leftover in sorted(parent.glob(f".{glob_escape(out_dir.name)}.*")):
        if not leftover.is_dir() or not leftover.name.endswith((".partial", ".old")):
            continue
        if _owner_alive(leftover):
            continue
        if leftover.name.endswith(".old") and not out_dir.exists():
            os.rename(leftover, out_dir)  # the previous build, moved aside, comes back
            _unmark(out_dir)
            continue
        shutil.rmtree(leftover, ignore_errors=True)
        removed.append(leftover)
    return removed


def glob_escape(name: str) -> str:
    import glob

    return glob.escape(name)


def _mark_owner(folder: Path) -> None:
    import socket

    (folder / _OWNER).write_text(json.dumps({"host": socket.gethostname(), "pid": os.getpid()}))


def _staging_dir(out_dir: Path) -> Path:
    """A fresh hidden sibling of ``out_dir`` (same file system, so the final move is a
    rename); unique, so two builds of one folder never share it. It records its owner
    process, so that a later build removes it if this one is killed."""
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    clean_leftovers(out_dir)
    staging = Path(
        tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".partial", dir=out_dir.parent)
    )
    _mark_owner(staging)
    return staging


def build_owned_files(folder: Path) -> set[str]:
    """Relative paths (POSIX) of the files a build wrote in ``folder``: the card, the build
    marker and the Parquet shards its marker lists."""
    info = read_build_info(folder)
    owned = {"README.md", BUILD_INFO, _OWNER}
    for config, splits in (info.get("counts") or {}).items():
        for split in splits if isinstance(splits, dict) else ():
            owned.add(f"data/{config}/{split}-00000-of-00001.parquet")
    return owned


def user_files(folder: Path) -> list[str]:
    """Files inside a previous build that the build did not write (the user's results,
    notes, ...), as relative POSIX paths."""
    owned = build_owned_files(folder)
    return sorted(
        rel
        for p in Path(folder).rglob("*")
        if (p.is_file() or p.is_symlink())
        and (rel := p.relative_to(folder).as_posix()) not in owned
    )


def _carry_user_files(old: Path, staging: Path) -> list[str]:
    """Move the user's own files of the previous build ``old`` into the new ``staging``
    folder (a rebuild keeps them); returns the relative paths moved."""
    moved = []
    for rel in user_files(old):
        target = staging / rel
        if target.exists():  # checked before the move; a file written since stays put
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(old / rel, target)
        moved.append(rel)
    return moved


def _move_into_place(staging: Path, out_dir: Path) -> None:
    """Rename ``staging`` to ``out_dir``; a previous build there (checked again here) is
    moved aside first, the files the user added to it are moved into the new folder, and
    it is deleted only once the new folder is in place."""
    if not out_dir.exists():
        os.rename(staging, out_dir)
        _unmark(out_dir)
        return
    check_out_dir(out_dir)  # it may have changed while the build ran
    if not any(out_dir.iterdir()):
        out_dir.rmdir()
        os.rename(staging, out_dir)
        _unmark(out_dir)
        return
    clash = [rel for rel in user_files(out_dir) if (staging / rel).exists()]
    if clash:
        raise OutputFolderError(
            f"--out {out_dir}: the rebuild would overwrite your file(s) {', '.join(clash[:5])}; "
            "move them out of the folder and rerun"
        )
    old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".old", dir=out_dir.parent))
    old.rmdir()
    os.rename(out_dir, old)
    _mark_owner(old)
    moved: list[str] = []
    try:
        moved = _carry_user_files(old, staging)
        os.rename(staging, out_dir)
    except BaseException:
        for rel in moved:  # the user's files go back where they were
            os.rename(staging / rel, old / rel)
        _unmark(old)
        os.rename(old, out_dir)  # put the previous build back
        raise
    _unmark(out_dir)
    shutil.rmtree(old, ignore_errors=True)


def _unmark(folder: Path) -> None:
    with contextlib.suppress(OSError):
        (folder / _OWNER).unlink()


def _write_staging(
    spec: DatasetSpec,
    tables: Mapping[str, Mapping[str, list[dict[str, Any]]]],
    staging: Path,
    dropped: Mapping[str, int] | None,
    build_info: Mapping[str, Any] | None,
    schemas: Mapping[str, str] | None = None,
    members: Mapping[str, DatasetSpec] | None = None,
) -> None:
    from datasets import Dataset

    counts: dict[str, dict[str, int]] = {}
    texts: dict[str, int] = {}
    chosen = {c: (schemas or {}).get(c, c) for c in tables}
    features: dict[str, Any] = {}
    for config, splits in tables.items():
        schema = chosen[config]
        if schema not in SCHEMAS:
            raise ValueError(f"{spec.hub_id}: config {config!r} has no known schema ({schema!r})")
        for split, rows in splits.items():
            validate_rows(schema, rows, f"{spec.hub_id} [{config}/{split}]")
            features[config] = _features_for(schema, rows)
            dataset = Dataset.from_list(list(rows), features=features[config])
            target = staging / "data" / config / f"{split}-00000-of-00001.parquet"
            target.parent.mkdir(parents=True, exist_ok=True)
            # encoded in memory, then written by Python: a failed write (a full disk)
            # raises OSError, where a write error inside pyarrow's column writer aborts
            # the whole process (a failed CHECK, exit 134). Same bytes as to_parquet(path).
            import pyarrow as pa

            sink = pa.BufferOutputStream()
            with quiet_datasets():
                dataset.to_parquet(sink)
            with open(target, "wb") as handle:
                handle.write(memoryview(sink.getvalue()))
            counts.setdefault(config, {})[split] = len(rows)
            texts[config] = texts.get(config, 0) + count_texts(schema, rows)
    card = render_card(
        spec, counts, dict(dropped or {}), texts, schemas=chosen, features=features, members=members
    )
    (staging / "README.md").write_text(card)
    info: dict[str, Any] = {"hub_id": spec.hub_id, "counts": counts, "dropped": dict(dropped or {})}
    # config -> schema and the dataset it is (a STEB dataset id for a release's config)
    info["configs"] = {
        c: {"schema": chosen[c], "dataset": members[c].hub_id if members else spec.hub_id}
        for c in tables
    }
    info.update(build_info or {})
    (staging / BUILD_INFO).write_text(json.dumps(info, indent=2, default=str))


def built_configs(folder: Path) -> dict[str, dict[str, str]]:
    """``{config: {"schema", "dataset"}}`` of a built folder (its :data:`BUILD_INFO`); a
    folder built before configs were recorded maps each schema-named config to itself."""
    info = read_build_info(folder)
    if not info:
        return _card_configs(Path(folder))
    if isinstance(info.get("configs"), dict):
        return info["configs"]
    return {c: {"schema": c, "dataset": info.get("hub_id", "")} for c in info.get("counts", {})}


def _card_configs(folder: Path) -> dict[str, dict[str, str]]:
    """The same map from the card of a folder without build info (a downloaded repo)."""
    from dataset_scripts.core.cards import stylebench_metadata

    try:
        block = stylebench_metadata((folder / "README.md").read_text(encoding="utf-8"))
    except OSError:
        return {}
    configs = block.get("configs")
    return dict(configs) if isinstance(configs, dict) else {}
