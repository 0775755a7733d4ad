"""Load the bundled ``evaluate`` metric modules by bare name.

A bare ``evaluate.load("tpr_at_fpr")`` asks the Hub's ``evaluate-metric`` organisation
first and then evaluate's module cache; ``stylebench metrics install``
(:mod:`evaluators.metric_cache`) registers our modules there. :func:`load_metric` needs no
install step: it resolves a bare bundled name to the module folder shipped with stylebench
(``metrics/<name>/`` in a checkout, ``evaluators/_bundled/metrics/<name>/`` in a wheel)::

    >>> from evaluators.metric_loading import load_metric
    >>> tpr = load_metric("tpr_at_fpr")                      # doctest: +SKIP
    >>> tpr = evaluate.load("metrics/tpr_at_fpr")            # the same, by path  # doctest: +SKIP
    >>> tpr = load_metric("stylebench/tpr_at_fpr")           # a Hub Space id    # doctest: +SKIP

The modules themselves need nothing of stylebench but :mod:`evaluators.metric_math`: the
formulas, the glue they mix in (:mod:`evaluators.metric_math.evaluate_glue`), and their
Space pages (:mod:`evaluators.metric_math.page`, parsing with
:mod:`evaluators.metric_math.text_inputs`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dataset_scripts.core.errors import UnknownNameError

from .paths import metrics_dir

if TYPE_CHECKING:  # pragma: no cover
    import evaluate

__all__ = ["list_metrics", "load_metric"]


def list_metrics() -> list[str]:
    """Names of the bundled metric modules (folders ``<name>/<name>.py``), sorted."""
    root = metrics_dir()
    return sorted(p.name for p in root.iterdir() if p.is_dir() and (p / f"{p.name}.py").is_file())


def load_metric(name: str, **kwargs: Any) -> evaluate.EvaluationModule:
    """Load a metric module: a bundled name, a local folder or a Hub Space id.

    Parameters
    ----------
    name : str
        A bundled name such as ``"tpr_at_fpr"`` (see :func:`list_metrics`), a path to a
        module folder or script, or a Hub id with a namespace (``"org/name"``), which
        is passed to ``evaluate.load`` unchanged.
    **kwargs
        Passed to ``evaluate.load`` (e.g. ``experiment_id``, ``keep_in_memory``).

    Raises
    ------
    UnknownNameError
        (a ``KeyError``) for a bare name that is not bundled; the message lists the
        bundled names.
    """
    import evaluate

    known = list_metrics()
    if name in known:
        return evaluate.load(str(metrics_dir() / name), **kwargs)
    if "/" in name or os.sep in name or Path(name).exists():
        return evaluate.load(name, **kwargs)
    raise UnknownNameError(
        f"unknown metric {name!r}; bundled metrics: {', '.join(known)} "
        "(or pass a folder path or a Hub id 'org/name')"
    )
