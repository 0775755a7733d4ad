"""The held-out split for supervised detectors (the TF-IDF + logistic-regression baseline).

Default: a label-stratified random split with ``numpy.random.default_rng(seed)``: in each
class, ``round(train_fraction * n_class)`` rows (at least one, and at least one left for
testing) go to training; the rest are the evaluation set. A ``--split-column`` with values
``train``/``test`` replaces it; ``--split-by <column>`` keeps the rows sharing a value
(an ARB ``pair_id``: a human text and its rewrites) on one side, drawing
``round(train_fraction * n_values)`` values for training with the same generator. When a
run includes a supervised detector, *every*
detector is evaluated on the same held-out rows, so their numbers are comparable.

Copies of one text (kept with ``duplicates="together"`` or ``conflicts="keep"``, see
:mod:`.leaks`) stay on one side: the stratified draw is over the first row of each text and
its copies follow it, and with ``--split-by`` rows sharing a text join one group
(without copies both splits are what they were); with a ``--split-column``, held-out rows
whose normalised text is also a training row are dropped from the evaluation set
(:func:`held_out_copies` counts them).
"""

from __future__ import annotations

import numpy as np

from dataset_scripts.core.errors import DataError
from evaluators.detect.data import DetectionSet
from evaluators.detect.leaks import connected_rows, normalise_text

DEFAULT_TRAIN_FRACTION = 0.5


def train_test_index(
    data: DetectionSet, train_fraction: float = DEFAULT_TRAIN_FRACTION, seed: int = 42
) -> tuple[list[int], list[int]]:
    """(train rows, test rows), each in source order."""
    if data.splits is not None:
        train = [i for i, s in enumerate(data.splits) if s == "train"]
        trained = {normalise_text(data.texts[i]) for i in train}
        test = [
            i
            for i, s in enumerate(data.splits)
            if s == "test" and normalise_text(data.texts[i]) not in trained
        ]
    elif data.split_keys is not None:
        if not 0.0 < train_fraction < 1.0:
            raise DataError(f"--train-fraction must be in (0, 1), got {train_fraction}")
        text_keys = [normalise_text(t) for t in data.texts]
        split_keys = data.split_keys
        if len(set(text_keys)) < len(text_keys):  # kept copies join their rows' groups
            split_keys = _joined_keys(text_keys, split_keys)
        keys = sorted(set(split_keys))
        order = np.random.default_rng(seed).permutation(len(keys))
        k = min(max(1, round(train_fraction * len(keys))), len(keys) - 1)
        chosen = {keys[j] for j in order[:k]}
        train = [i for i, key in enumerate(split_keys) if key in chosen]
        test = [i for i, key in enumerate(split_keys) if key not in chosen]
    else:
        if not 0.0 < train_fraction < 1.0:
            raise DataError(f"--train-fraction must be in (0, 1), got {train_fraction}")
        # the stratified draw is over the first row of each text; its copies follow it
        text_keys = [normalise_text(t) for t in data.texts]
        first: dict[tuple[str, int], int] = {}
        owner = [
            first.setdefault((key, y), i)
            for i, (key, y) in enumerate(zip(text_keys, data.labels, strict=True))
        ]
        firsts = np.asarray(sorted(set(owner)))
        rng = np.random.default_rng(seed)
        labels = np.asarray(data.labels)
        train_mask = np.zeros(len(labels), dtype=bool)
        for y in (0, 1):
            members = firsts[labels[firsts] == y]
            k = min(max(1, round(train_fraction * members.size)), members.size - 1)
            train_mask[rng.permutation(members)[:k]] = True
        train_mask = train_mask[np.asarray(owner, dtype=int)]
        if len({*text_keys}) < len(text_keys):  # a text under both labels (kept): one side
            side: dict[str, bool] = {}
            for i, key in enumerate(text_keys):
                train_mask[i] = side.setdefault(key, bool(train_mask[i]))
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


def _joined_keys(text_keys: list[str], split_keys: list[str] | None) -> list[str]:
    """One key per row such that rows sharing a text or a ``--split-by`` value (directly or
    through other rows) share it."""
    others = split_keys if split_keys is not None else [None] * len(text_keys)
    rows = [
        (("text", t),) if s is None else (("text", t), ("split", s))
        for t, s in zip(text_keys, others, strict=True)
    ]
    return [f"g{c}" for c in connected_rows(rows)]


def held_out_copies(data: DetectionSet) -> int:
    """Rows of a ``--split-column`` test side whose text is also on its training side."""
    if data.splits is None:
        return 0
    trained = {
        normalise_text(t) for t, s in zip(data.texts, data.splits, strict=True) if s == "train"
    }
    return sum(
        1
        for t, s in zip(data.texts, data.splits, strict=True)
        if s == "test" and normalise_text(t) in trained
    )
