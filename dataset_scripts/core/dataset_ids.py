"""The one grammar of dataset ids, parsed here and nowhere else.

* ``<org>/<name>``: a Hub dataset repo (every config of a release: ``steb/pan23_style_change``);
* ``<org>/<name>:<config>``: one config of it (``steb/pan23_style_change:hard``);
* ``<folder>`` / ``<folder>:<config>``: a built folder, and one config of it;
* a dataset's own pre-release id (``steb/pan23_style_change_hard``): still read, as its
  repo and config, with a deprecation note (``dataset_scripts.registry.resolve``).

A config name never holds ``/`` or ``:``, so the config is what follows the last ``:``
when that part has neither.
"""

from __future__ import annotations

import re

_CONFIG = re.compile(r"[A-Za-z0-9_.\-]+")


def split_config(ref: str) -> tuple[str, str | None]:
    """``(repo or folder, config or None)`` of a dataset id."""
    base, sep, config = str(ref).rpartition(":")
    if sep and base and _CONFIG.fullmatch(config):
        return base, config
    return str(ref), None


def is_hub_repo_id(ref: str) -> bool:
    """Whether ``ref`` (without a config) has the shape of a Hub repo id ``org/name``."""
    return ref.count("/") == 1 and "__" not in ref and not ref.startswith((".", "/", "~"))
