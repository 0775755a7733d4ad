"""Register the bundled metric modules in ``evaluate``'s own module cache, so that the
literal ``evaluate.load("tpr_at_fpr")`` and ``evaluate.load("stylebench/tpr_at_fpr")``
resolve offline, from any working directory (``stylebench metrics install``).

How ``evaluate`` 0.4 resolves a name (``evaluate/loading.py``, ``evaluation_module_factory``):

1. ``<name>.py`` or ``<name>/<name>.py`` relative to the working directory (a local
   module there *shadows* everything below);
2. the Hub: a bare name is looked up as the Spaces ``evaluate-metric/<name>``, then
   ``evaluate-comparison/<name>`` and ``evaluate-measurement/<name>``; ``org/name`` as the
   Space ``org/name``;
3. when that fails (offline, or no such Space), the module cache:
   ``$HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--<name>/<sha256>/<name>.py``
   (``org--<name>`` for ``org/name``), the most recently modified copy winning.

:func:`install_metrics` writes step 3's entries with ``evaluate``'s own routine for
importable copies and marks them newest. Online, a Space of the same name under
``evaluate-metric`` (or ``-comparison``/``-measurement``; none exists today) would answer
first; so does our published ``stylebench/<name>`` Space for the namespaced id, which is the
same module. The cache honours ``HF_HOME`` / ``HF_MODULES_CACHE``.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from dataset_scripts.core.errors import UnknownNameError

from .paths import metrics_dir

# evaluate's fallback for a bare name tries evaluate-metric first; the published namespace
HUB_NAMESPACES = ("evaluate-metric", "stylebench")
MARKER = "stylebench_installed.json"


@dataclass(frozen=True)
class InstalledModule:
    """One cache entry written by :func:`install_metrics`."""

    load_name: str  # what ``evaluate.load`` is called with
    script: Path  # the importable copy in evaluate's module cache


def modules_root() -> Path:
    """``evaluate``'s dynamic-modules folder for metrics (created if missing)."""
    from evaluate.loading import init_dynamic_modules

    return Path(init_dynamic_modules()) / "metrics"


def install_metrics(names: list[str] | None = None) -> list[InstalledModule]:
    """Copy the bundled modules (all, or ``names``) into evaluate's module cache under
    every name in :data:`HUB_NAMESPACES`; idempotent, and each copy is made the newest
    so the cache fallback picks it."""
    from evaluate.loading import (
        _create_importable_file,
        _download_additional_modules,
        get_imports,
        init_dynamic_modules,
    )
    from evaluate.utils.file_utils import DownloadConfig

    from .metric_loading import list_metrics

    known = list_metrics()
    unknown = sorted(set(names or ()) - set(known))
    if unknown:
        raise UnknownNameError(f"unknown metric(s) {unknown}; bundled: {', '.join(known)}")
    dynamic = init_dynamic_modules()
    installed = []
    now = time.time()
    for name in names or known:
        script = metrics_dir() / name / f"{name}.py"
        local_imports = _download_additional_modules(
            name=name,
            base_path=str(script.parent),
            imports=get_imports(str(script)),
            download_config=DownloadConfig(),
        )
        for namespace in HUB_NAMESPACES:
            module_path, module_hash = _create_importable_file(
                local_path=str(script),
                local_imports=local_imports,
                additional_files=[],
                dynamic_modules_path=dynamic,
                module_namespace="metrics",
                name=f"{namespace}/{name}",
                download_mode=None,  # keeps other versions; ours is made newest below
            )
            copy = Path(dynamic) / "metrics" / f"{namespace}--{name}" / module_hash / f"{name}.py"
            (copy.parent / MARKER).write_text(
                json.dumps({"source": str(script), "module": module_path}, indent=2)
            )
            os.utime(copy, (now, now))
            installed.append(InstalledModule(f"{namespace}/{name}", copy))
    return installed


def installed_entry(load_name: str) -> Path | None:
    """The cache copy ``evaluate``'s fallback would use for ``load_name`` (bare or
    ``org/name``), or None; mirrors its "most recently modified" rule."""
    name = load_name if "/" in load_name else f"evaluate-metric/{load_name}"
    folder = modules_root() / name.replace("/", "--")
    script = name.split("/")[-1] + ".py"
    copies = [p / script for p in folder.glob("*") if len(p.name) == 64 and (p / script).is_file()]
    return max(copies, key=lambda p: p.stat().st_mtime) if copies else None


def is_ours(copy: Path) -> bool:
    """Whether a cache copy was written by :func:`install_metrics`."""
    return (copy.parent / MARKER).is_file()
