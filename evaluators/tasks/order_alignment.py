"""Order alignment (STEB Sec. 3.1 and App. C.1; generalises STEL / STEL-or-Content).

Each row of a ``style_sequences`` table is a parallel sequence ordered from most to
least of its group's style. Following the STEB authors' implementation, every unordered
pair of sequences (i < j) of the same group is evaluated: sequence *i* is the ordered
reference, *j* the set to align; the cost of aligning reference position p with
candidate q is ``1 - max(cos, 0)``; the Hungarian assignment is scored by the fraction
of positions placed correctly; ``accuracy`` is the mean over all pairs of all groups.

Distractor variant (content independence): the candidate set receives an item of the
reference's own sequence (same content, different style) in place of one of its items:

* *last*: reference ``i[:-1]``, candidates ``j[:-1] + [i[-1]]``; expected columns 0..P-2;
* *first*: reference ``i[1:]``, candidates ``[i[0]] + j[1:]``; expected columns 1..P-1.

``distractor_accuracy`` (the main score, as on the STEB leaderboard) is the mean over
both variants.

Ties (see :mod:`evaluators.tasks.protocol`): under the default ``steb`` protocol the
accuracy is that of the Hungarian solver's own assignment on the costs ``1 - max(cos,
0)`` of the authors' code, in their float64 arithmetic made CPU-independent: the
cosine of two float64 unit vectors (their ``x / ||x||``, the norm correctly rounded) is
their dot product correctly rounded (:func:`~evaluators.metric_math.grid.exact_row_dots`;
issue 33: the ``2^-26`` grid alone merged cosines 1e-9 apart, which every float64
arithmetic keeps apart). The exact dots are needed only where an item's two best
assignments lie within the grid's error bound (:func:`solver_accuracies`); elsewhere
the gridded costs (:mod:`evaluators.metric_math.grid`) give the same assignment. An item
whose optima still tie exactly is scored by scipy's deterministic choice, the same on
every CPU. ``steb-strict`` scores tied items by the expected accuracy over their optimal
assignments on the gridded costs (:func:`evaluators.metric_math.alignment_accuracy`). Both are always
reported (``accuracy_solver``/``accuracy_tie_aware``, and the distractor pair) with
the share of tied items (``tied_share``, ``distractor_tied_share``).

``details["ci95"]`` holds percentile-bootstrap CIs (1,000 resamples of the pairs, the
evaluator's seed) of the main score and of ``accuracy``: the score is a mean over pairs,
so a resample is a multinomial draw over the distinct per-pair values.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from dataset_scripts.core.schemas import ORDER
from evaluators.data import Table
from evaluators.metric_math.alignment import MAX_EXACT_ASSIGNMENTS, tie_aware_item_accuracies
from evaluators.metric_math.grid import (
    GRID_BITS,
    exact_row_dots,
    fixed_mean,
    fixed_sum,
    grid_cosines,
    unit_vectors,
)
from evaluators.records.items import make_items
from evaluators.tasks.base import (
    EmbeddingLookup,
    TaskEvaluator,
    mean_ci,
    unit_histogram,
)
from evaluators.tasks.episodes import Episodes, form_episodes
from evaluators.tasks.facts import TASK_FACTS

VARIANTS = ("plain", "last", "first")


def _pair_index(n: int, positions: int) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per variant, the flat vector index of every pair's reference rows (pairs, rows) and
    candidate columns (pairs, cols), and the expected column of each row."""
    first, second = np.triu_indices(n, k=1)  # itertools.combinations order, as STEB
    pos = np.arange(positions)
    ref_rows = first[:, None] * positions + pos[None, :]  # (pairs, P) flat index of i's items
    tgt_cols = second[:, None] * positions + pos[None, :]  # (pairs, P) flat index of j's items
    out = {"plain": (ref_rows, tgt_cols, pos)}
    if positions >= 2:
        last_cols = np.concatenate([tgt_cols[:, :-1], ref_rows[:, -1:]], axis=1)
        out["last"] = (ref_rows[:, :-1], last_cols, pos[:-1])
        first_cols = np.concatenate([ref_rows[:, :1], tgt_cols[:, 1:]], axis=1)
        out["first"] = (ref_rows[:, 1:], first_cols, pos[1:])
    return out


def _gather(
    cost_all: np.ndarray, n: int, positions: int
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    return {
        name: (cost_all[rows[:, :, None], cols[:, None, :]], expected)
        for name, (rows, cols, expected) in _pair_index(n, positions).items()
    }


def alignment_costs(sequences: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Cost matrices of every pair i < j of one group, in float64, from the gridded
    cosines (:func:`grid_cosines`, exact on the ``2^-52`` grid: the same bits on every
    CPU, exact ties of identical vectors kept). These are the numbers the STEB authors'
    code computes (``1 - max(cos, 0)`` of L2-normalised float64 vectors, a zero vector
    staying zero) to within the grid's error bound (:func:`grid_error_bound`); the
    ``steb`` solver's choice is taken on their float64 values where that bound matters
    (:func:`solver_accuracies`). One Gram matrix serves every pair.

    ``sequences`` has shape (n, P, d). Returns, per variant ("plain", "last", "first"),
    an array of costs (n_pairs, rows, cols) and the expected column of each row.
    """
    n, positions, dim = sequences.shape
    cosines = grid_cosines(sequences.reshape(n * positions, dim))
    return _gather(1.0 - np.maximum(cosines, 0.0), n, positions)


def grid_error_bound(dim: int) -> float:
    """Bound on ``|gridded cost - float64 cost|`` of one entry: a gridded component is
    within ``2^-27`` of the float64 unit vector's, so a gridded cosine is within
    ``2 sqrt(d) 2^-27 + d 2^-54`` of the exact dot of the unit vectors, and the float64
    cost rounds that twice (the dot, then ``1 - cos``); doubled for safety."""
    step = 2.0 ** -(GRID_BITS + 1)
    return 2.0 * (2.0 * math.sqrt(dim) * step + dim * step * step + 2.0**-51)


def exact_costs(units: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Float64 costs ``1 - max(cos, 0)`` of items (B, k, m), the cosines the correctly
    rounded dot products of the float64 unit vectors ``units[rows]``, ``units[cols]``."""
    b, k = rows.shape
    m = cols.shape[1]
    left = np.repeat(rows, m, axis=1).ravel()
    right = np.tile(cols, (1, k)).ravel()
    # each unordered pair of vectors once (the exact dot is symmetric)
    keys, where = np.unique(
        np.minimum(left, right) * len(units) + np.maximum(left, right), return_inverse=True
    )
    first, second = np.divmod(keys, len(units))
    # a cosine clearly below 0 costs 1 in any arithmetic: the exact dot only for the rest
    # (BLAS-free einsum as a filter; its last bits cannot move a value across -1e-6 and 0)
    unique = np.zeros(len(keys))
    needed = np.einsum("ij,ij->i", units[first], units[second]) > -1e-6
    unique[needed] = exact_row_dots(units[first[needed]], units[second[needed]])
    cosines = unique[where.ravel()].reshape(b, k, m)
    return 1.0 - np.maximum(cosines, 0.0)


def _near_tied(costs: np.ndarray, bound: float) -> np.ndarray:
    """Items (B, k, m) whose best two assignments' gridded totals lie within ``2 k bound``
    (plus the totals' own rounding): only there can the float64 costs choose otherwise.
    Items too large to enumerate count as near-tied."""
    b, k, m = costs.shape
    if math.perm(m, k) > MAX_EXACT_ASSIGNMENTS:
        return np.ones(b, dtype=bool)
    inj = np.array(list(itertools.permutations(range(m), k)), dtype=np.intp)
    totals = fixed_sum(costs[:, np.arange(k), inj], axis=-1)  # (B, n_inj)
    if totals.shape[1] < 2:
        return np.zeros(b, dtype=bool)
    best_two = np.partition(totals, 1, axis=1)[:, :2]
    return best_two[:, 1] - best_two[:, 0] <= 2 * k * (bound + k * 2.0**-50)


def solver_accuracies(
    costs: np.ndarray,
    expected: np.ndarray,
    units: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
) -> tuple[np.ndarray, int]:
    """Per-item accuracy of scipy's assignment on the float64 costs of the authors'
    arithmetic (the ``steb`` rule), and how many items needed the exact dots.

    ``costs`` are the gridded costs (B, k, m) of items whose reference rows and candidate
    columns are the vectors ``units[rows]`` (B, k) and ``units[cols]`` (B, m) (float64
    unit vectors, :func:`~evaluators.metric_math.grid.unit_vectors`). Where an item's two
    best assignments are further apart than twice the grid's error bound, its optimum
    is unique under both arithmetics and the gridded costs are solved; the other items
    are solved on :func:`exact_costs`.
    """
    from scipy.optimize import linear_sum_assignment  # not at import: keeps the CLI start light

    near = _near_tied(costs, grid_error_bound(units.shape[1]))
    chosen = np.array(costs, dtype=np.float64, copy=True)
    if near.any():
        chosen[near] = exact_costs(units, rows[near], cols[near])
    out = np.empty(len(chosen), dtype=np.float64)
    for i, (c, e) in enumerate(
        zip(chosen, np.broadcast_to(expected, costs.shape[:2]), strict=True)
    ):
        r, col = linear_sum_assignment(c)
        out[i] = np.mean(col[np.argsort(r)] == e)
    return out, int(near.sum())


class OrderAlignmentEvaluator(TaskEvaluator):
    facts = TASK_FACTS[ORDER]
    description = "Hungarian alignment of every same-group pair of sequences; accuracy and distractor accuracy"

    episodes = "k"
    class_column = "group"

    def _episodes(self, table: Table) -> Episodes | None:
        if self.sampling.is_default:
            return None
        return form_episodes([row["group"] for row in table.rows], self.sampling, "group")

    def texts(self, table: Table) -> list[str]:
        episodes = self._episodes(table)
        rows = table.rows if episodes is None else [table.rows[i] for i in episodes.used]
        return [t for row in rows for t in row["texts"]]

    @staticmethod
    def _position_groups(table: Table, members: np.ndarray) -> list[tuple[str, ...]]:
        """An episode's texts per position: position p pools the p-th text of each of
        its sequences (the authors' ``[[seq[p] for seq in chunk] for p in ...]``)."""
        sequences = [table.rows[int(i)]["texts"] for i in members]
        return [tuple(seq[p] for seq in sequences) for p in range(len(sequences[0]))]

    def episode_groups(self, table: Table) -> list[tuple[str, ...]]:
        episodes = self._episodes(table)
        if episodes is None:
            return []
        return [g for m in episodes.members for g in self._position_groups(table, m)]

    def _cubes(
        self, table: Table, embed: EmbeddingLookup, episodes: Episodes | None
    ) -> dict[str, np.ndarray]:
        """Per group, its samples' vectors (n, positions, dim): one per sequence, or per
        episode the position-wise mean of its sequences (the authors' episodes)."""
        if episodes is None:
            members = {}
            for index, row in enumerate(table.rows):
                members.setdefault(row["group"], []).append(index)
            return {
                group: embed(t for i in idx for t in table.rows[i]["texts"]).reshape(
                    len(idx), len(table.rows[idx[0]]["texts"]), -1
                )
                for group, idx in members.items()
            }
        by_group: dict[str, list[int]] = {}
        for k, label in enumerate(episodes.labels):
            by_group.setdefault(str(label), []).append(k)
        out = {}
        for group, ks in by_group.items():
            positions = len(table.rows[int(episodes.members[ks[0]][0])]["texts"])
            groups = [g for k in ks for g in self._position_groups(table, episodes.members[k])]
            out[group] = embed.pool(groups).reshape(len(ks), positions, -1)
        return out

    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        episodes = self._episodes(table)
        cubes = self._cubes(table, embed, episodes) if table.rows else {}
        per_group: dict[str, dict[str, float]] = {}
        # per rule ("solver", "tie_aware") and variant: per-pair accuracies of all groups
        items: dict[str, dict[str, list[np.ndarray]]] = {
            rule: {v: [] for v in VARIANTS} for rule in ("solver", "tie_aware")
        }
        tied: dict[str, list[np.ndarray]] = {v: [] for v in VARIANTS}
        exact_items = dict.fromkeys(VARIANTS, 0)  # items solved on the exact float64 dots
        main_rule = "solver" if self.protocol == "steb" else "tie_aware"
        # per pair, the ids of its two samples (sequences or episodes, numbered over all
        # groups): the independent units a comparison resamples (evaluators.compare)
        pair_ids: list[np.ndarray] = []
        n_samples = 0
        for group, cube in cubes.items():
            if len(cube) >= 2:
                pair_ids.append(np.stack(np.triu_indices(len(cube), k=1)) + n_samples)
            n_samples += len(cube)
            if len(cube) < 2:
                continue
            positions = cube.shape[1]
            if positions < 2:
                raise ValueError(
                    f"{table.source}: group {group!r} has sequences of {positions} text; "
                    "order alignment needs at least 2 positions"
                )
            exact = alignment_costs(cube)
            index = _pair_index(len(cube), positions)
            units = unit_vectors(cube.reshape(len(cube) * positions, -1))
            scores: dict[str, float] = {}
            for name in VARIANTS:
                costs, expected = exact[name]
                expected_rows = np.broadcast_to(expected, costs.shape[:2])
                aware, is_tied = tie_aware_item_accuracies(costs, expected_rows)
                rows, cols, _ = index[name]
                solver, n_exact = solver_accuracies(costs, expected_rows, units, rows, cols)
                exact_items[name] += n_exact
                items["tie_aware"][name].append(aware)
                items["solver"][name].append(solver)
                tied[name].append(is_tied)
                chosen = solver if main_rule == "solver" else aware
                scores[name] = fixed_mean(chosen)
            per_group[group] = {
                "accuracy": scores["plain"],
                "distractor_accuracy": (scores["last"] + scores["first"]) / 2,
                "n_pairs": len(exact["plain"][0]),
            }
        if not per_group:
            raise ValueError(f"{table.source}: no group has two sequences to align")
        # micro-average over all pairs of all groups (STEB's acc_mean); both distractor
        # variants have one item per pair, so their pooled mean (STEB's
        # distractor_acc_mean) is the mean of the two.
        pooled = {r: {v: np.concatenate(items[r][v]) for v in VARIANTS} for r in items}
        tied_all = {v: np.concatenate(tied[v]) for v in VARIANTS}
        metrics: dict[str, float] = {}
        for rule in ("solver", "tie_aware"):
            per = pooled[rule]
            metrics[f"accuracy_{rule}"] = fixed_mean(per["plain"])
            metrics[f"distractor_accuracy_{rule}"] = (
                fixed_mean(per["last"]) + fixed_mean(per["first"])
            ) / 2
        main = pooled[main_rule]
        metrics |= {
            "accuracy": metrics[f"accuracy_{main_rule}"],
            "distractor_accuracy": metrics[f"distractor_accuracy_{main_rule}"],
            "distractor_last_accuracy": fixed_mean(main["last"]),
            "distractor_first_accuracy": fixed_mean(main["first"]),
            "tied_share": fixed_mean(tied_all["plain"]),
            "distractor_tied_share": (fixed_mean(tied_all["last"]) + fixed_mean(tied_all["first"]))
            / 2,
        }
        n_pairs = int(main["plain"].size)
        n_sequences = len(table.rows) if episodes is None else int(episodes.used.size)
        counts = {"n_sequences": n_sequences, "n_groups": len(per_group), "n_pairs": n_pairs}
        if episodes is not None:
            counts["n_episodes"] = len(episodes)
        lengths = {cube.shape[1] for cube in cubes.values() if len(cube) >= 2}
        if len(lengths) == 1:  # one sequence length k: a random alignment scores 1/k
            counts["n_positions"] = lengths.pop()
        unit_plain = main["plain"]
        unit_distractor = (main["last"] + main["first"]) / 2
        units = {
            "accuracy": unit_histogram(unit_plain),
            "distractor_accuracy": unit_histogram(unit_distractor),
        }
        ci = mean_ci("distractor_accuracy", unit_distractor, "pairs", self.seed)
        ci["accuracy"] = mean_ci("accuracy", unit_plain, "pairs", self.seed)["accuracy"]
        details: dict[str, Any] = {"per_group": per_group, "units": units, "ci95": ci}
        details["exact_cost_items"] = exact_items  # solved on the exact float64 dots
        details["items"] = make_items(
            "mean",
            "pairs",
            {
                "accuracy": (unit_plain, "f8"),
                "distractor_accuracy": (unit_distractor, "f8"),
                "sequence_i": (np.concatenate([p[0] for p in pair_ids]), "i4"),
                "sequence_j": (np.concatenate([p[1] for p in pair_ids]), "i4"),
            },
        )
        if episodes is not None:
            details["sampling"] = episodes.record
        return metrics, counts, details
