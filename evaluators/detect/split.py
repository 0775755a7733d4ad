"""The held-out split for supervised detectors (the TF-IDF + logistic-regression baseline).

Default: a label-stratified random split with ``numpy.random.default_rng(seed)``: in each
class, ``round(train_fraction * n_class)`` rows (at least one, and at least one left for
testing) go to training; the rest are the evaluation set. A ``--split-column`` with values
``train``/``test`` replaces it; ``--split-by <column>`` keeps the rows sharing a value
(an ARB ``pair_id``: a human text and its rewrites) on one side, drawing
``round(train_fraction * n_values)`` values for training with the same generator. When a
run includes a supervised detector, *every*
detector is evaluated on the same held-out rows, so their numbers are comparable.
"""

from __future__ import annotations

import numpy as np

from dataset_scripts.core.errors import DataError
from evaluators.detect.data import DetectionSet

DEFAULT_TRAIN_FRACTION = 0.5


def train_test_index(
    data: DetectionSet, train_fraction: float = DEFAULT_TRAIN_FRACTION, seed: int = 42
) -> tuple[list[int], list[int]]:
    """(train rows, test rows), each in source order."""
    if data.splits is not None:
        train = [i for i, s in enumerate(data.splits) if s == "train"]
        test = [i for i, s in enumerate(data.splits) if s == "test"]
    elif data.split_keys is not None:
        if not 0.0 < train_fraction < 1.0:
            raise DataError(f"--train-fraction must be in (0, 1), got {train_fraction}")
        keys = sorted(set(data.split_keys))
        order = np.random.default_rng(seed).permutation(len(keys))
        k = min(max(1, round(train_fraction * len(keys))), len(keys) - 1)
        chosen = {keys[j] for j in order[:k]}
        train = [i for i, key in enumerate(data.split_keys) if key in chosen]
        test = [i for i, key in enumerate(data.split_keys) if key not in chosen]
    else:
        if not 0.0 < train_fraction < 1.0:
            raise DataError(f"--train-fraction must be in (0, 1), got {train_fraction}")
        rng = np.random.default_rng(seed)
        labels = np.asarray(data.labels)
        train_mask = np.zeros(len(labels), dtype=bool)
        for y in (0, 1):
            members = np.flatnonzero(labels == y)
            k = min(max(1, round(train_fraction * members.size)), members.size - 1)
            train_mask[rng.permutation(members)[:k]] = True
        train = np.flatnonzero(train_mask).tolist()
        test = np.flatnonzero(~train_mask).tolist()
    y_train = {data.labels[i] for i in train}
    if y_train != {0, 1}:
        raise DataError(
            "the training split needs human and machine texts for a supervised detector"
        )
    if sum(1 for i in test if data.labels[i] == 0) < 2 or not any(data.labels[i] for i in test):
        raise DataError("the held-out split needs at least 2 human and 1 machine text")
    return train, test
