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
both variants. Exact ties in cost are scored as the expected accuracy under a random
choice among the optimal assignments (see :func:`evaluators.metric_math.alignment_accuracy`):
a degenerate encoder scores chance instead of the 100% that a fixed tie-break would give.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from evaluators.data import Table
from evaluators.metric_math import item_accuracies
from evaluators.tasks.base import EmbeddingLookup, TaskEvaluator, unit_histogram, unit_normalise


def alignment_costs(sequences: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Cost matrices of every pair i < j of one group.

    ``sequences`` has shape (n, P, d). Returns, per variant ("plain", "last", "first"),
    an array of costs (n_pairs, rows, cols) and the expected column of each row.
    """
    n, positions, dim = sequences.shape
    # float64: exact ties (e.g. identical count vectors) must stay ties after the sums
    flat = unit_normalise(sequences.reshape(n * positions, dim).astype(np.float64))
    cost_all = 1.0 - np.maximum(flat @ flat.T, 0.0)  # (nP, nP)
    first, second = np.triu_indices(n, k=1)
    pos = np.arange(positions)
    ref_rows = first[:, None] * positions + pos[None, :]  # (pairs, P) flat index of i's items
    tgt_cols = second[:, None] * positions + pos[None, :]  # (pairs, P) flat index of j's items
    plain = cost_all[ref_rows[:, :, None], tgt_cols[:, None, :]]
    out = {"plain": (plain, pos)}
    if positions >= 2:
        last_cols = np.concatenate([tgt_cols[:, :-1], ref_rows[:, -1:]], axis=1)
        out["last"] = (cost_all[ref_rows[:, :-1, None], last_cols[:, None, :]], pos[:-1])
        first_cols = np.concatenate([ref_rows[:, :1], tgt_cols[:, 1:]], axis=1)
        out["first"] = (cost_all[ref_rows[:, 1:, None], first_cols[:, None, :]], pos[1:])
    return out


class OrderAlignmentEvaluator(TaskEvaluator):
    task_type = "order_alignment"
    schema = "style_sequences"
    main_score_name = "distractor_accuracy"
    description = "Hungarian alignment of every same-group pair of sequences; accuracy and distractor accuracy"

    def texts(self, table: Table) -> list[str]:
        return [t for row in table.rows for t in row["texts"]]

    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        groups: dict[str, list[list[str]]] = defaultdict(list)
        for row in table.rows:
            groups[row["group"]].append(row["texts"])
        per_group: dict[str, dict[str, float]] = {}
        totals: dict[str, float] = defaultdict(float)
        unit_plain: list[np.ndarray] = []  # per-pair scores, for bootstrap CIs (units)
        unit_distractor: list[np.ndarray] = []
        n_pairs = 0
        for group, sequences in groups.items():
            if len(sequences) < 2:
                continue
            positions = len(sequences[0])
            vectors = embed(t for seq in sequences for t in seq)
            variants = alignment_costs(vectors.reshape(len(sequences), positions, -1))
            items = {
                name: _item_accuracies(costs, expected)
                for name, (costs, expected) in variants.items()
            }
            scores = {name: float(values.mean()) for name, values in items.items()}
            unit_plain.append(items["plain"])
            unit_distractor.append((items["last"] + items["first"]) / 2)
            pairs = len(variants["plain"][0])
            n_pairs += pairs
            for name, value in scores.items():
                totals[name] += value * pairs
            per_group[group] = {
                "accuracy": scores["plain"],
                "distractor_accuracy": (scores["last"] + scores["first"]) / 2,
                "n_pairs": pairs,
            }
        if not per_group:
            raise ValueError(f"{table.source}: no group has two sequences to align")
        # micro-average over all pairs of all groups (STEB's acc_mean); both distractor
        # variants have one item per pair, so their pooled mean is the mean of the two.
        last, first = totals["last"] / n_pairs, totals["first"] / n_pairs
        metrics = {
            "accuracy": totals["plain"] / n_pairs,
            "distractor_accuracy": (last + first) / 2,
            "distractor_last_accuracy": last,
            "distractor_first_accuracy": first,
        }
        counts = {"n_sequences": len(table.rows), "n_groups": len(per_group), "n_pairs": n_pairs}
        units = {
            "accuracy": unit_histogram(np.concatenate(unit_plain)),
            "distractor_accuracy": unit_histogram(np.concatenate(unit_distractor)),
        }
        return metrics, counts, {"per_group": per_group, "units": units}


def _item_accuracies(costs: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Per-item tie-aware accuracies of a batch of equal-shaped alignment problems (the
    values :func:`evaluators.metric_math.order_alignment_accuracy` averages)."""
    return item_accuracies(costs, np.broadcast_to(expected, costs.shape[:2]))
