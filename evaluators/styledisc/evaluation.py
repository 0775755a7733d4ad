"""Evaluate metrics, LLM judges and ensembles on triplets: accuracy per setting and per
domain with percentile-bootstrap CIs, and the Table 3 composition search.

Triplets are split by a hash of their id into a *fit* part (30%: PWV weights and the
ensemble-composition search) and an *eval* part (70%: every accuracy of Table 3), so no
ensemble is scored on the triplets that chose it. Table 2 (single metrics) uses all
triplets.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.styledisc_schema import CONFIG, SETTINGS, validate_triplets
from evaluators.metric_math.resampling import (
    DEFAULT_SEED,
    generator,
    index_draws,
    percentile_interval,
)
from evaluators.styledisc.ensembles import (
    STRATEGIES,
    Composition,
    accuracy,
    ensemble_votes,
    pwv_weights,
    search_composition,
)

FIT_SHARE = 0.3
RANDOM_RUNS = 100
N_BOOT = 1000


def load_triplets(folder: str | Path) -> list[dict[str, Any]]:
    """Rows of a built ``styledisc/<domain>`` folder (or Hub id), validated."""
    from datasets import load_dataset

    from dataset_scripts.core.quiet import quiet_datasets

    local = Path(folder).is_dir()
    try:
        with quiet_datasets():
            data = load_dataset(
                str(folder),
                CONFIG,
                split="test",
                # datasets caches local folders by name: re-read them and do not check
                # split sizes against a cached folder of the same name
                download_mode="force_redownload" if local else None,
                verification_mode="no_checks" if local else None,
            )
    except Exception as error:
        raise StylebenchError(
            f"cannot load {folder} config {CONFIG!r}: {type(error).__name__}: "
            f"{str(error).splitlines()[0] if str(error) else ''}"
        ) from None
    rows = data.to_list()
    validate_triplets(rows, str(folder))
    return rows


def fit_mask(ids: Sequence[str], share: float = FIT_SHARE) -> np.ndarray:
    """True for triplets in the fit split (hash of the id, stable across runs)."""
    return np.array(
        [int(hashlib.sha256(i.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF < share for i in ids]
    )


def bootstrap_ci(
    correct: np.ndarray, *, n_boot: int = N_BOOT, seed: int = DEFAULT_SEED, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap CI of a mean of 0/1 outcomes (resampling triplets)."""
    correct = np.asarray(correct, dtype=np.float64)
    if correct.size == 0:
        return (float("nan"), float("nan"))
    means = correct[index_draws(correct.size, generator(seed), n_boot)].mean(axis=1)
    low, high = percentile_interval(means, level)
    return float(low), float(high)


@dataclass
class Score:
    accuracy: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict[str, float | int]:
        return {"accuracy": self.accuracy, "ci_low": self.low, "ci_high": self.high, "n": self.n}


def score(votes: np.ndarray, seed: int = DEFAULT_SEED) -> Score:
    correct = np.asarray(votes) == 1
    low, high = bootstrap_ci(correct, seed=seed)
    return Score(accuracy(votes), low, high, int(correct.size))


@dataclass
class Evaluation:
    """Votes of every metric/judge/ensemble on a set of triplets, and their scores."""

    rows: list[dict[str, Any]]
    votes: dict[str, np.ndarray]
    families: dict[str, str]  # metric -> ngram | embedding | llm
    open_source: dict[str, bool]
    fit: np.ndarray
    compositions: list[Composition] = field(default_factory=list)
    weights: dict[str, float] = field(default_factory=dict)
    judge_counts: dict[str, dict[str, int]] = field(default_factory=dict)
    random_runs: np.ndarray | None = None  # (runs, n) coin votes behind "Random"

    @property
    def settings(self) -> np.ndarray:
        return np.array([r["setting"] for r in self.rows])

    @property
    def domains(self) -> np.ndarray:
        return np.array([r["domain"] for r in self.rows])

    def table(
        self, names: Sequence[str], mask: np.ndarray | None = None, by: str = "setting"
    ) -> dict[str, dict[str, Score]]:
        """{name: {group: Score}} over rows in ``mask``, grouped by setting or domain,
        plus ``Mean`` (mean over the settings present, as the paper's column)."""
        mask = np.ones(len(self.rows), bool) if mask is None else mask
        keys = self.settings if by == "setting" else self.domains
        groups = [
            g
            for g in (SETTINGS if by == "setting" else sorted(set(keys)))
            if (keys[mask] == g).any()
        ]
        out: dict[str, dict[str, Score]] = {}
        for name in names:
            votes = self.votes[name]
            cells: dict[str, Score] = {}
            for g in groups:
                sel = mask & (keys == g) & (votes != MISSING)
                if not sel.any():
                    continue
                if name == "Random" and self.random_runs is not None:
                    runs = (self.random_runs[:, sel] == 1).mean(axis=1)
                    low, high = percentile_interval(runs)
                    cells[g] = Score(float(runs.mean()), float(low), float(high), int(sel.sum()))
                else:
                    cells[g] = score(votes[sel])
            if by == "setting" and cells:
                accs = [c.accuracy for c in cells.values()]
                cells["Mean"] = Score(
                    float(np.mean(accs)),
                    float("nan"),
                    float("nan"),
                    sum(c.n for c in cells.values()),
                )
            out[name] = cells
        return out


MISSING = -128  # a judge that did not see a triplet (sample only)


def evaluate(
    rows: list[dict[str, Any]],
    metric_votes: Mapping[str, np.ndarray],
    families: Mapping[str, str],
    open_source: Mapping[str, bool],
    *,
    judge_counts: Mapping[str, dict[str, int]] | None = None,
    seed: int = 100,
) -> Evaluation:
    """Add the random baseline and the ensembles (fitted on the fit split) to the votes."""
    votes = {name: np.asarray(v, dtype=np.int8) for name, v in metric_votes.items()}
    # the paper's "Random 100": 100 runs of a fair coin per triplet (seeded); the table
    # reports their mean accuracy and the 2.5-97.5 percentiles over the runs
    coins = np.random.default_rng(seed).integers(0, 2, size=(RANDOM_RUNS, len(rows)))
    random_runs = np.where(coins == 1, 1, -1).astype(np.int8)
    votes["Random"] = random_runs[0]
    ev = Evaluation(
        rows,
        votes,
        {**families, "Random": "baseline"},
        {**open_source, "Random": True},
        fit_mask([r["id"] for r in rows]),
        judge_counts=dict(judge_counts or {}),
        random_runs=random_runs,
    )
    settings = ev.settings
    candidates_by_family = _family_candidates(ev)
    for family, candidates in candidates_by_family.items():
        complete = (
            ev.fit & np.all([ev.votes[c] != MISSING for c in candidates], axis=0)
            if candidates
            else ev.fit
        )
        if not complete.any():
            continue
        fit_votes = {c: ev.votes[c][complete] for c in candidates}
        weights = pwv_weights(fit_votes)
        for strategy in STRATEGIES:
            best = search_composition(
                strategy, family, candidates, fit_votes, settings[complete], weights
            )
            if best is None:
                continue
            ev.compositions.append(best)
            covered = np.all([ev.votes[c] != MISSING for c in best.members], axis=0)
            name = f"{strategy}:{family}"
            all_votes = {c: np.where(covered, ev.votes[c], 0) for c in best.members}
            ensemble = ensemble_votes(strategy, best.members, all_votes, weights)
            ev.votes[name] = np.where(covered, ensemble, MISSING).astype(np.int8)
            ev.families[name] = "ensemble"
            if strategy == "PWV":
                ev.weights.update({f"{family}:{m}": weights[m] for m in best.members})
    return ev


def _family_candidates(ev: Evaluation) -> dict[str, list[str]]:
    metrics = [m for m, f in ev.families.items() if f in ("ngram", "embedding", "llm")]
    fam = ev.families
    return {
        "ngram": [m for m in metrics if fam[m] == "ngram"],
        "not_llm": [m for m in metrics if fam[m] != "llm"],
        "llm": [m for m in metrics if fam[m] == "llm"],
        "os": [m for m in metrics if ev.open_source[m]],
        "all": list(metrics),
    }
