"""Which dataset a result belongs to, resolved once: when the run writes its record
(``dataset.id``), and for a version-1 file when it is migrated. Reports never guess.

The id grammar itself (``repo``, ``repo:config``, folders) is parsed in
:mod:`dataset_scripts.core.dataset_ids`.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from dataset_scripts.core.dataset_ids import is_hub_repo_id
from dataset_scripts.core.hub_folder import read_build_info
from dataset_scripts.core.spec import hub_id_of_folder

STEB_PREFIX = "steb/"


def slug(name: str) -> str:
    """The folder name of a model, dataset or revision id: every run of characters outside
    ``[A-Za-z0-9._-]`` becomes ``__`` (run folders, the results repository)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "__", name).strip("_") or "model"


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
