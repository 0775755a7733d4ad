"""Optional back ends, found at run time.

The Space uses only public entry points and degrades to a message when one is missing:

* STEB leaderboard: ``evaluators.steb_scores.reference.view_reference(view)`` and
  ``VIEW_TABLES`` (the paper's Tables 6-9), optionally ``table_info(table)`` for captions.
* ARB detectors: ``get_detector(name)`` in ``evaluators.arb`` or, failing that,
  ``evaluators.arb.detectors``; the names offered come from ``list_detectors()`` when the
  module has it (names, or dicts with ``name`` and optionally ``available``/``description``),
  else from ``ZERO_SHOT`` (the detectors that need no training split). A detector has
  ``score(list[str]) -> array (n,)``, higher = more machine-like.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from stylebench_space.safety import clean_message


@dataclass
class Backend:
    """A back end that was looked for: the module found (or None) and why not."""

    name: str
    module: ModuleType | None
    reason: str = ""
    functions: dict[str, Callable[..., Any]] = field(default_factory=dict)

    @property
    def available(self) -> bool:
        return self.module is not None


def _find(name: str, candidates: tuple[str, ...], needed: tuple[str, ...]) -> Backend:
    reasons = []
    for module_name in candidates:
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            reasons.append(f"{module_name} is not installed ({clean_message(error)})")
            continue
        except Exception as error:  # a half-landed module must not take the Space down
            reasons.append(f"{module_name} failed to import ({clean_message(error)})")
            continue
        functions = {n: getattr(module, n) for n in needed if callable(getattr(module, n, None))}
        if len(functions) == len(needed):
            return Backend(name, module, "", functions)
        missing = [n for n in needed if n not in functions]
        reasons.append(f"{module_name} has no {', '.join(missing)}")
    return Backend(name, None, "; ".join(reasons))


def steb_backend() -> Backend:
    """The STEB reference tables (``view_reference``)."""
    backend = _find("STEB leaderboard", ("evaluators.steb_scores.reference",), ("view_reference",))
    if backend.module is not None and not isinstance(
        getattr(backend.module, "VIEW_TABLES", None), dict
    ):
        return Backend(backend.name, None, "evaluators.steb_scores.reference has no VIEW_TABLES")
    return backend


def arb_backend() -> Backend:
    """The ARB detectors (``get_detector``, and ``list_detectors`` or ``ZERO_SHOT``)."""
    backend = _find(
        "ARB detectors", ("evaluators.arb", "evaluators.arb.detectors"), ("get_detector",)
    )
    if backend.module is None:
        return backend
    if "list_detectors" not in backend.functions and not getattr(backend.module, "ZERO_SHOT", None):
        return Backend(
            backend.name, None, f"{backend.module.__name__} has no list_detectors or ZERO_SHOT"
        )
    listing = getattr(backend.module, "list_detectors", None)
    if callable(listing):
        backend.functions["list_detectors"] = listing
    return backend


def detector_names(backend: Backend) -> list[tuple[str, str]]:
    """``[(name, note)]`` of the detectors a back end offers (empty when it is missing)."""
    if not backend.available:
        return []
    if "list_detectors" in backend.functions:
        try:
            listed = backend.functions["list_detectors"]()
        except Exception:
            return []
    else:
        listed = list(getattr(backend.module, "ZERO_SHOT", ()))
    out = []
    for item in listed or ():
        if isinstance(item, str):
            out.append((item, ""))
        elif isinstance(item, dict) and isinstance(item.get("name"), str):
            if item.get("available", True) is False:
                continue
            out.append((item["name"], str(item.get("description", ""))))
    return out
