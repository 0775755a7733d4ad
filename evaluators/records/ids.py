"""Which dataset a result belongs to, resolved once: when the run writes its record
(``dataset.id``), and for a version-1 file when it is migrated. Reports never guess.

And the one rule for a name that becomes a path segment (:func:`path_segment`): every
model, revision, dataset and task folder or file name of a results repository goes
through it, so that no record can name a place outside the repository.

The id grammar itself (``repo``, ``repo:config``, folders) is parsed in
:mod:`dataset_scripts.core.dataset_ids`.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from dataset_scripts.core.dataset_ids import is_hub_repo_id
from dataset_scripts.core.errors import DataError
from dataset_scripts.core.hub_folder import read_build_info
from dataset_scripts.core.spec import hub_id_of_folder

STEB_PREFIX = "steb/"
#: the longest path segment, in UTF-8 bytes (file systems allow 255; ``.items.zlib`` and a
#: temporary file's prefix and suffix must still fit)
MAX_SEGMENT_BYTES = 200


def slug(name: str) -> str:
    """The folder name of a model, dataset or revision id: every run of characters outside
    ``[A-Za-z0-9._-]`` becomes ``__`` (run folders, the results repository)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "__", name).strip("_") or "model"


def segment_problem(name: object) -> str | None:
    """Why ``name`` cannot be one path segment (a folder or file name) of a results
    repository, or None: it must be a non-empty string, not ``.`` or ``..``, without a
    leading dot, a path separator (``/``, ``\\``), NUL or another control character, and at
    most :data:`MAX_SEGMENT_BYTES` bytes in UTF-8."""
    if not isinstance(name, str):
        return f"is a {type(name).__name__}, not a string"
    if not name:
        return "is empty"
    if "/" in name or "\\" in name:
        return "holds a path separator"
    if name in (".", ".."):
        return "is a relative folder reference"
    if name.startswith("."):
        return "starts with a dot (a hidden or relative name)"
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
        return "holds a NUL or control character"
    if len(name.encode("utf-8", "surrogatepass")) > MAX_SEGMENT_BYTES:
        return f"is longer than {MAX_SEGMENT_BYTES} bytes"
    return None


def path_segment(name: object, what: str) -> str:
    """``name`` when it is a safe path segment (:func:`segment_problem`); DataError naming
    ``what`` (``task``, ``model folder``, ...) and the value otherwise."""
    problem = segment_problem(name)
    if problem is not None:
        shown = repr(name) if len(repr(name)) <= 120 else repr(name)[:117] + "..."
        raise DataError(
            f"{what} {shown} {problem}: not a folder or file name of a results repository"
        )
    return str(name)


@cache
def _steb_ids() -> frozenset[str]:
    from dataset_scripts.steb.catalog import steb_datasets

    return frozenset(spec.hub_id for spec in steb_datasets())


def result_dataset_id(recorded: str, name: str, ref: str | None) -> str:
    """The id of a result's dataset: the one the loaded table recorded (a release
    config's STEB dataset id), else :func:`legacy_dataset_id`."""
    return recorded or legacy_dataset_id(name, ref)


def legacy_dataset_id(name: str, ref: str | None = None) -> str:
    """The rule results used before they recorded their dataset id: the hub id in the
    built folder's ``stylebench_build.json`` when ``ref`` is a local folder, else ``ref``
    itself when it is a Hub id (``steb/NAME``), else the folder name with ``__`` read as
    ``/`` (the convention of ``stylebench build`` output folders), else ``steb/<name>``
    for a catalogued STEB name, else the name."""
    if ref:
        folder = Path(ref)
        hub_id = read_build_info(folder).get("hub_id")
        if hub_id:
            return str(hub_id)
        if is_hub_repo_id(ref) and not folder.exists():
            return ref
    if "/" in name:
        return name
    if "__" in name:
        return hub_id_of_folder(name)
    if f"{STEB_PREFIX}{name}" in _steb_ids():
        return f"{STEB_PREFIX}{name}"
    return name
