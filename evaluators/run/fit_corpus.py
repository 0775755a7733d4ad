"""The reference corpus an encoder that must be fitted (TF-IDF) is fitted on in a run.

One home for the rule shared by a local ``stylebench run`` and a Ray run (which fits
once in the driver and ships the fitted encoder): ``--fit-corpus`` (a text file, one
document per line) when given, else every unique evaluated text of the planned tasks,
in plan order (as the STEB authors' code does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluators.data import load_table
from evaluators.run.runner import TaskSpec
from evaluators.tasks import get_evaluator


def fit_corpus_texts(
    specs: Sequence[TaskSpec], fit_corpus: Path | None = None, tables: Mapping | None = None
) -> list[str]:
    """The texts to fit on (see the module docstring); ``tables``: rows already in
    memory by (dataset, config, split), read instead of loading the spec's dataset."""
    if fit_corpus is not None:
        return [
            line.strip()
            for line in Path(fit_corpus).read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
    return list(
        dict.fromkeys(
            text
            for spec in specs
            for text in get_evaluator(spec.task_type).texts(
                (tables or {}).get((spec.dataset, spec.config, spec.split))
                or load_table(spec.dataset, spec.config, spec.split)
            )
        )
    )


def fit_if_needed(
    encoder: Any,
    specs: Sequence[TaskSpec],
    fit_corpus: Path | None = None,
    tables: Mapping | None = None,
) -> bool:
    """Fit ``encoder`` when it has ``fit`` and is not fitted yet; True when it fitted."""
    if not hasattr(encoder, "fit") or getattr(encoder, "is_fitted", False):
        return False
    encoder.fit(fit_corpus_texts(specs, fit_corpus, tables))
    return True
