"""Episodes and the per-class count: how the STEB authors turn texts into samples.

In the authors' code (GitHub ``rrivera1849/STEB``, ``steb/dataset_loader.py`` and
``steb/core.py``; facts only) a *sample* is an **episode**: ``episode_size`` texts of one
class (label, style group, author side) whose vectors the model mean-pools into one
(``embed_multiple``: the plain mean of the per-text vectors). Per class they keep the
first ``N = episode_size x n_episodes_per_class`` records in loader order, drop classes
with fewer, and cut the kept records into consecutive episodes. ``n_episodes_per_class``
is a number or ``"auto"``: ``clamp(smallest class size // episode_size, 25, 200)``, the
rule the builders already apply with episode size 1
(:func:`dataset_scripts.steb.sampling.per_class_cap`). Episode size ``-1`` (retrieval
only, the authors' retrieval default) pools *every* text of a class into one episode,
with no cap. In order alignment an episode pools ``episode_size`` sequences of a group
position by position. The authors' selection is by order, not random: the seed does
not enter it (it is recorded with the result all the same).

Here this is a :class:`Sampling` given to a task evaluator. The default (``episode_size``
and ``per_class`` both ``None``) leaves every table as it is, so existing results do not
change. Pooling happens on the vectors of the runner's embed-once step: every unique text
is embedded once, whatever the episodes. Episodes keep the authors' sample order: classes
in order of first appearance, each class's episodes in row order.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError
from dataset_scripts.steb.sampling import MAX_PER_CLASS, MIN_PER_CLASS, per_class_cap

ALL = -1  # episode size: every text of a class in one episode (retrieval)
AUTO = "auto"
AUTO_NOTE = (
    "resolved from this table's rows; a built STEB folder is already capped per class "
    "(the builders apply 'auto' with episode size 1), while the authors resolve 'auto' "
    "from the raw data, so with episode size > 1 this keeps fewer episodes than theirs "
    "(Bible versions, episodes of 4: 50 per class here, 200 theirs); their count cannot "
    "be formed from a built folder"
)

PerClass = int | str | None


def parse_per_class(value: Any) -> PerClass:
    """``None``, a positive int or ``"auto"`` (also from CLI text: ``"25"``, ``"auto"``)."""
    if value is None or value == AUTO:
        return value
    if isinstance(value, bool):
        raise DataError(f"per-class count must be a positive integer or 'auto', got {value!r}")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise DataError(
            f"per-class count must be a positive integer or 'auto', got {value!r}"
        ) from None
    if number != value and str(number) != str(value).strip():
        raise DataError(f"per-class count must be a positive integer or 'auto', got {value!r}")
    if number < 1:
        raise DataError(f"per-class count must be >= 1 (or 'auto'), got {number}")
    return number


@dataclass(frozen=True)
class Sampling:
    """How a task forms its samples. ``episode_size``: ``None`` (each row/text is one
    sample, as built), ``k >= 1`` (mean of ``k`` texts of a class) or ``-1`` (all of a
    class's texts; retrieval). ``per_class``: episodes kept per class, a number, ``"auto"``
    or ``None`` (every complete episode)."""

    episode_size: int | None = None
    per_class: PerClass = None

    def __post_init__(self) -> None:
        size = self.episode_size
        if size is not None and (isinstance(size, bool) or not isinstance(size, int)):
            raise DataError(f"episode size must be an integer >= 1 or -1, got {size!r}")
        if size is not None and size != ALL and size < 1:
            raise DataError(f"episode size must be >= 1 or -1 (all texts of a class), got {size}")
        object.__setattr__(self, "per_class", parse_per_class(self.per_class))
        if size == ALL and self.per_class not in (None, 1):
            raise DataError(
                "episode size -1 pools every text of a class into one episode; "
                f"a per-class count ({self.per_class!r}) does not apply"
            )

    @property
    def is_default(self) -> bool:
        return self.episode_size in (None, 1) and self.per_class is None

    def requested(self) -> dict[str, Any]:
        return {"episode_size": self.episode_size, "per_class": self.per_class}


DEFAULT_SAMPLING = Sampling()


@dataclass(frozen=True)
class Episodes:
    """Samples formed from units (texts or sequences) of labelled classes: episode ``i``
    has class ``labels[i]`` and pools the units ``members[i]`` (indices into the input)."""

    labels: list[Hashable]
    members: list[np.ndarray]
    record: dict[str, Any]

    @property
    def used(self) -> np.ndarray:
        """Every unit index some episode uses, in episode order."""
        if not self.members:
            return np.zeros(0, dtype=np.intp)
        return np.concatenate(self.members)

    def __len__(self) -> int:
        return len(self.labels)


def resolve_per_class(counts: Sequence[int], episode_size: int, per_class: PerClass) -> int | None:
    """Episodes kept per class: ``per_class`` itself, or for ``"auto"`` the authors'
    ``clamp(min(counts) // episode_size, 25, 200)``; ``None`` stays ``None``."""
    if per_class != AUTO:
        return per_class  # type: ignore[return-value]
    if episode_size == ALL:
        return 1
    return per_class_cap([c // episode_size for c in counts], MIN_PER_CLASS, MAX_PER_CLASS)


def form_episodes(labels: Sequence[Hashable], sampling: Sampling, what: str = "class") -> Episodes:
    """Episodes over units with these ``labels`` (one per unit, in row order), by the
    authors' rule (module doc). ``record`` says what was asked, what it resolved to and
    which classes and units were left out (and why), for ``details["sampling"]``."""
    size = sampling.episode_size or 1
    order: dict[Hashable, list[int]] = {}
    for index, label in enumerate(labels):
        order.setdefault(label, []).append(index)
    counts = {label: len(idx) for label, idx in order.items()}
    if not counts:
        raise DataError(f"no {what} to form episodes from")
    n_per_class = resolve_per_class(list(counts.values()), size, sampling.per_class)
    need = 1 if size == ALL else (size * n_per_class if n_per_class is not None else size)
    out_labels: list[Hashable] = []
    members: list[np.ndarray] = []
    dropped: dict[str, int] = {}
    n_unused = 0
    for label, idx in order.items():
        if len(idx) < need:
            dropped[str(label)] = len(idx)
            continue
        if size == ALL:
            chunks = [idx]
        else:
            n_chunks = n_per_class if n_per_class is not None else len(idx) // size
            chunks = [idx[i * size : (i + 1) * size] for i in range(n_chunks)]
            n_unused += len(idx) - n_chunks * size
        for chunk in chunks:
            out_labels.append(label)
            members.append(np.asarray(chunk, dtype=np.intp))
    if not out_labels:
        smallest = min(counts.values())
        raise DataError(
            f"no {what} has the {need} units the episodes need (episode size "
            f"{sampling.episode_size}, per-class {sampling.per_class!r}; the smallest {what} "
            f"has {smallest})"
        )
    record = {
        **sampling.requested(),
        "episodes_per_class": n_per_class,
        "units_per_class": None if size == ALL or n_per_class is None else need,
        "n_classes": len(counts),
        "n_classes_kept": len(counts) - len(dropped),
        "dropped_classes": dropped,
        "n_units": len(labels),
        "n_units_unused": n_unused + sum(dropped.values()),
        "n_episodes": len(out_labels),
        "rule": (
            "STEB authors' DatasetLoader: per class the first episode_size x per_class "
            "units in row order, classes with fewer dropped, consecutive units form one "
            "episode (embedded as 'pooling' says); 'auto' = clamp(smallest class // "
            "episode_size, 25, 200); episode size -1 = every unit of a class in one episode"
        ),
        "pooling": MEAN_POOLING,
    }
    if sampling.per_class == AUTO and size != ALL:
        record["per_class_auto"] = AUTO_NOTE
    return Episodes(out_labels, members, record)


#: ``details.sampling.pooling``: how an episode became one vector (the authors'
#: ``embed_multiple``: the mean for neural models, the joined text for count-based ones)
MEAN_POOLING = "the mean of its texts' vectors"
ENCODER_POOLING = (
    "read by the encoder as one input: count-based encoders (function words, TF-IDF, "
    "stylometric) encode its texts joined by one space; episode models (LUAR, "
    "Neurobiber) its texts together"
)


def pool_mean(vectors: np.ndarray, members: Sequence[np.ndarray], dtype: Any = None) -> np.ndarray:
    """One vector per episode: the mean of its members' rows (the authors'
    ``embed_multiple`` pooling), in ``dtype`` (default: the vectors' own float type, as
    their numpy mean of float32 vectors). Equal-sized episodes are pooled in one call."""
    vectors = np.asarray(vectors)
    if dtype is None:
        dtype = vectors.dtype if vectors.dtype.kind == "f" else np.float64
    data = vectors.astype(dtype, copy=False)
    sizes = {len(m) for m in members}
    if len(sizes) == 1:
        index = np.stack(list(members))
        return data[index].mean(axis=1)
    return np.stack([data[m].mean(axis=0) for m in members])
