"""Locations of the bundled folders (metric modules, Space) and of the shared corpora.

In a checkout the folders sit at the repository root; a non-editable install carries
them inside ``evaluators/_bundled/`` (see ``[tool.hatch.build...force-include]``).
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def _bundled(name: str) -> Path:
    for candidate in (_PACKAGE_DIR / "_bundled" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"bundled folder {name!r} not found next to {_PACKAGE_DIR} (broken install?)"
    )


def metrics_dir() -> Path:
    """Folder holding one evaluate module per metric (``<name>/<name>.py``)."""
    return _bundled("metrics")


def spaces_dir() -> Path:
    """Folder holding the Gradio Space(s)."""
    return _bundled("spaces")


def corpora_dir() -> Path | None:
    """The shared research corpora: ``$STYLEBENCH_CORPORA`` or ``../shared/corpora``."""
    env = os.environ.get("STYLEBENCH_CORPORA")
    candidates = [Path(env)] if env else []
    candidates.append(_PACKAGE_DIR.parent.parent / "shared" / "corpora")
    candidates.append(Path.cwd().parent / "shared" / "corpora")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None


def cache_root() -> Path:
    """stylebench's own cache folder: ``$STYLEBENCH_CACHE``, else
    ``$XDG_CACHE_HOME/stylebench`` (``~/.cache/stylebench``)."""
    base = os.environ.get("STYLEBENCH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "stylebench"
    )  # an empty variable counts as unset, as the XDG spec says
    return Path(base)


def embedding_cache_dir() -> Path:
    """The default embedding cache of every family (``stylebench run``, the style
    discrimination embedding metrics, ARB's semantic similarity): one vector per text
    and model, whoever embedded it first."""
    return cache_root() / "embeddings"
