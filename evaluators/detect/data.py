"""A human/machine set: texts, 0/1 labels (1 = machine) and optional group columns.

Labels come from ``label_column`` (default: ``regime`` if present, else ``label``; an ARB
quartet folder has both, and its ``label`` holds the regime name):

* a ``label``-style column: ``human``/``machine`` and the synonyms in
  :data:`HUMAN_VALUES` / :data:`MACHINE_VALUES` (case-insensitive), or ``0``/``1``;
* a ``regime`` column (ARB): ``Human`` is negative, every other regime (``Free-LLM``,
  ``H2L``, ``LLM2L``, ...) positive; the regime is then also a group column.

Any other convention is named with ``machine_label`` / ``human_label`` (CLI
``--machine-label`` / ``--human-label``, given together): the column's values are compared
as text after stripping (``1.0`` reads as ``1``), and a column holding any value besides the
two named ones is an error listing every such value and the first row of each.

Rows with an empty text or label are dropped and counted; an unknown label value is an
error naming the row and the value. Exact duplicates are dropped (first kept) and texts
under both labels excluded, by default, and counted (:mod:`.leaks`).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.custom.readers import Source, read_source
from evaluators.detect.leaks import scan_duplicates
from evaluators.metric_math.resampling import DEFAULT_SEED

HUMAN_VALUES = frozenset({"human", "0", "0.0", "false", "real", "human-written", "human_written"})
MACHINE_VALUES = frozenset(
    {
        "machine",
        "1",
        "1.0",
        "true",
        "ai",
        "llm",
        "generated",
        "machine-generated",
        "machine_generated",
        "fake",
        "model",
    }
)
HUMAN_REGIME = "Human"


@dataclass
class DetectionSet:
    """Texts with labels (1 = machine) and group values, in source order."""

    name: str
    texts: list[str]
    labels: list[int]
    ids: list[str]
    groups: dict[str, list[str]] = field(default_factory=dict)
    splits: list[str] | None = None  # "train"/"test" from --split-column, when given
    dropped: dict[str, int] = field(default_factory=dict)
    label_column: str = "label"
    split_keys: list[str] | None = None  # --split-by: rows sharing a value stay together
    leaks: dict[str, int] = field(default_factory=dict)  # what leaks.scan_duplicates found
    # how each raw label value was read: value as text -> 0 (human) / 1 (machine)
    label_values: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.texts)

    def subset(self, index: Sequence[int]) -> DetectionSet:
        return DetectionSet(
            self.name,
            [self.texts[i] for i in index],
            [self.labels[i] for i in index],
            [self.ids[i] for i in index],
            {g: [v[i] for i in index] for g, v in self.groups.items()},
            None if self.splits is None else [self.splits[i] for i in index],
            dict(self.dropped),
            self.label_column,
            None if self.split_keys is None else [self.split_keys[i] for i in index],
            dict(self.leaks),
            dict(self.label_values),
        )


def label_text(value: object) -> str:
    """A label value as text: stripped, an integer-valued float without its ``.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value).strip()
    try:
        number = float(text)
    except ValueError:
        return text
    return str(int(number)) if number.is_integer() and "." in text else text


def label_mapping(
    machine_label: object | None, human_label: object | None
) -> dict[str, int] | None:
    """``{human value: 0, machine value: 1}`` from ``--human-label``/``--machine-label``
    (both or neither), or None for the default vocabulary."""
    if machine_label is None and human_label is None:
        return None
    if machine_label is None or human_label is None:
        given, missing = (
            ("--machine-label", "--human-label")
            if human_label is None
            else ("--human-label", "--machine-label")
        )
        raise DataError(f"{given} needs {missing} too (name both label values)")
    machine, human = label_text(machine_label), label_text(human_label)
    if machine == human:
        raise DataError(f"--machine-label and --human-label are both {machine!r}")
    return {human: 0, machine: 1}


def parse_label(
    value: object, where: str, column: str, mapping: dict[str, int] | None = None
) -> int:
    if mapping is not None:
        found = mapping.get(label_text(value))
        if found is None:
            raise DataError(
                f"{where}: {column} {label_text(value)!r:.60} is neither of "
                f"{', '.join(repr(k) for k in mapping)}"
            )
        return found
    text = str(value).strip()
    if column == "regime":
        return 0 if text == HUMAN_REGIME else 1
    low = text.lower()
    if low in HUMAN_VALUES:
        return 0
    if low in MACHINE_VALUES:
        return 1
    raise DataError(
        f"{where}: {column} {text!r:.60} is neither human ({', '.join(sorted(HUMAN_VALUES))}) "
        f"nor machine ({', '.join(sorted(MACHINE_VALUES))}); or use a 'regime' column "
        f"(Human = human, anything else = machine)"
    )


def label_reading(data: DetectionSet, limit: int = 6) -> str:
    """How the labels were read, for the run's first lines: ``label: '1' = machine, '0' =
    human`` (at most ``limit`` values per side, then a count).

    >>> d = DetectionSet("x", [], [], [], label_values={"0": 0, "1": 1})
    >>> label_reading(d)
    "label: '1' = machine, '0' = human"
    """
    sides = []
    for side, name in ((1, "machine"), (0, "human")):
        values = [v for v, y in data.label_values.items() if y == side]
        shown = ", ".join(repr(v) for v in values[:limit])
        more = f" and {len(values) - limit} more" if len(values) > limit else ""
        sides.append(f"{shown}{more} = {name}" if values else f"no value = {name}")
    return f"{data.label_column}: " + ", ".join(sides)


def _present(value: object) -> bool:
    if value is None or (isinstance(value, float) and value != value):
        return False
    return bool(str(value).strip())


@dataclass(frozen=True)
class DetectionReading:
    """How :func:`load_detection_set` reads a source: the text, label, group, id and split
    columns (``label_column`` None: ``regime`` if present, else ``label``), ``split_by``
    (rows sharing its value stay on one side of a split), a seeded, label-stratified
    ``sample`` of that many rows, the Hugging Face ``split``, the two label values of
    another convention (``machine_label``/``human_label``, given together), and what
    happens to exact ``duplicates`` and to texts under both labels (``conflicts``)."""

    text_column: str = "text"
    label_column: str | None = None
    group_columns: Sequence[str] = ()
    id_column: str | None = None
    split_column: str | None = None
    split_by: str | None = None
    sample: int | None = None
    seed: int = DEFAULT_SEED
    split: str | None = None
    machine_label: object | None = None
    human_label: object | None = None
    duplicates: str = "drop"
    conflicts: str = "exclude"


def _columns_text(columns: Sequence[object]) -> str:
    return ", ".join(map(str, columns))


def resolve_label_column(source: object, columns: Sequence[str], reading: DetectionReading) -> str:
    """The label column: the one named, else ``regime`` if present, else ``label``."""
    if reading.label_column is not None:
        return reading.label_column
    found = next((c for c in ("regime", "label") if c in columns), None)
    if found is None:
        raise DataError(
            f"{source}: no 'label' or 'regime' column (columns: {_columns_text(columns)}); "
            "name it with --label-column"
        )
    return found


def check_columns(
    source: object, columns: Sequence[str], label_column: str, reading: DetectionReading
) -> None:
    """Every column the reading names is in the source (else an error listing them)."""
    wanted = [reading.text_column, label_column, *reading.group_columns]
    wanted += [c for c in (reading.id_column, reading.split_column, reading.split_by) if c]
    for column in wanted:
        if column not in columns:
            raise DataError(
                f"{source}: no column {column!r}; columns found: {_columns_text(columns)}"
            )


@dataclass
class _Rows:
    """The rows read so far, in the shape of a :class:`DetectionSet`, with what was
    dropped and the label values outside ``--human-label``/``--machine-label``."""

    reading: DetectionReading
    label_column: str
    groups: list[str]
    mapping: dict[str, int] | None
    texts: list[str] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    splits: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    group_values: dict[str, list[str]] = field(default_factory=dict)
    dropped: Counter[str] = field(default_factory=Counter)
    unknown: dict[str, str] = field(default_factory=dict)  # label value -> its first row
    read_as: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.group_values = {g: [] for g in self.groups}

    def add(self, index: int, where: str, row: dict) -> None:
        """Take one source row: dropped (and counted) without a text or label, an error for
        a non-text text or a bad split value, noted when its label is outside the two
        named values."""
        reading, label_column = self.reading, self.label_column
        text, label = row.get(reading.text_column), row.get(label_column)
        if not _present(text):
            self.dropped[f"rows with an empty or missing {reading.text_column!r}"] += 1
            return
        if not _present(label):
            self.dropped[f"rows with an empty or missing {label_column!r}"] += 1
            return
        if not isinstance(text, str):
            raise DataError(
                f"{where}: {reading.text_column!r} holds {type(text).__name__}, expected text"
            )
        if self.mapping is not None and label_text(label) not in self.mapping:
            self.unknown.setdefault(label_text(label), where)
            return
        self.labels.append(parse_label(label, where, label_column, self.mapping))
        self.read_as.setdefault(label_text(label), self.labels[-1])
        self.texts.append(text.strip())
        self.ids.append(str(row[reading.id_column]) if reading.id_column else str(index))
        for g in self.groups:
            value = row.get(g)
            self.group_values[g].append(str(value).strip() if _present(value) else "")
        if reading.split_by:
            self.keys.append(str(row.get(reading.split_by, "")))
        if reading.split_column:
            value = str(row.get(reading.split_column, "")).strip().lower()
            if value not in ("train", "test"):
                raise DataError(
                    f"{where}: {reading.split_column} {value!r} is not 'train' or 'test'"
                )
            self.splits.append(value)

    def refuse_unknown_labels(self, source: object) -> None:
        """An error listing the label values besides the two named ones (first row of each)."""
        if not self.unknown:
            return
        assert self.mapping is not None
        listed = "; ".join(f"{v!r:.40} (first at {w})" for v, w in list(self.unknown.items())[:10])
        more = f" and {len(self.unknown) - 10} more" if len(self.unknown) > 10 else ""
        raise DataError(
            f"{source}: {self.label_column} holds {len(self.unknown)} value(s) besides the "
            f"human label and the machine label ({', '.join(repr(k) for k in self.mapping)}): "
            f"{listed}{more}"
        )

    def detection_set(self, name: str) -> DetectionSet:
        return DetectionSet(
            name,
            self.texts,
            self.labels,
            self.ids,
            self.group_values,
            self.splits if self.reading.split_column else None,
            dict(self.dropped),
            self.label_column,
            self.keys if self.reading.split_by else None,
            label_values=self.read_as,
        )


def read_rows(
    source: str | Path, src: Source, reading: DetectionReading, mapping: dict[str, int] | None
) -> DetectionSet:
    """The source's rows as a detection set, in source order (before duplicates are
    handled and a sample drawn); a ``regime`` label column is also the first group."""
    columns = src.columns
    label_column = resolve_label_column(source, columns, reading)
    check_columns(source, columns, label_column, reading)
    groups = list(dict.fromkeys(reading.group_columns))
    if label_column == "regime" and "regime" not in groups:
        groups.insert(0, "regime")
    found = _Rows(reading, label_column, groups, mapping)
    for index, (where, row) in enumerate(src.rows):
        found.add(index, where, row)
    found.refuse_unknown_labels(source)
    return found.detection_set(Path(str(source)).name)


def load_detection_set(
    source: str | Path, reading: DetectionReading | None = None, **options: Any
) -> DetectionSet:
    """Read a human/machine set (see the module docstring) as ``reading`` says
    (:class:`DetectionReading`; its fields may also be given as keywords, ``options``,
    which override it). ``sample`` keeps a seeded, label-stratified sample of that many
    rows (``random.Random(seed)``, source order kept), for a quick run on a large set; it
    is drawn after duplicates are handled (``duplicates``/``conflicts``:
    :func:`evaluators.detect.leaks.scan_duplicates`)."""
    reading = dataclasses.replace(reading or DetectionReading(), **options)
    mapping = label_mapping(reading.machine_label, reading.human_label)
    src = read_source(source, label_from="folder", split=reading.split)
    data = read_rows(source, src, reading, mapping)
    data = _handle_duplicates(data, reading.duplicates, reading.conflicts)
    if reading.sample is not None and reading.sample < len(data):
        data = _stratified_sample(data, reading.sample, reading.seed)
    counts = Counter(data.labels)
    if counts[0] < 2 or counts[1] < 1:
        raise DataError(
            f"{source}: {counts[0]} human and {counts[1]} machine texts; need at least 2 human "
            "and 1 machine text"
        )
    return data


def _handle_duplicates(data: DetectionSet, duplicates: str, conflicts: str) -> DetectionSet:
    """Drop exact duplicates and exclude conflicting texts, or keep them (:mod:`.leaks`);
    kept copies stay on one side of the split (:mod:`.split`)."""
    from dataset_scripts.core.errors import StylebenchError

    try:
        scan = scan_duplicates(data.texts, data.labels, duplicates=duplicates, conflicts=conflicts)
    except ValueError as error:
        raise StylebenchError(str(error)) from None
    kept = data.subset(scan.keep)
    kept.dropped.update(scan.dropped)
    kept.leaks = {
        "exact_duplicate_rows": scan.duplicate_rows,
        "conflicting_label_texts": scan.conflict_texts,
        "conflicting_label_rows": scan.conflict_rows,
    }
    return kept


def _stratified_sample(data: DetectionSet, n: int, seed: int) -> DetectionSet:
    rng = random.Random(seed)
    by_label: dict[int, list[int]] = {0: [], 1: []}
    for i, y in enumerate(data.labels):
        by_label[y].append(i)
    total = len(data)
    chosen: list[int] = []
    for y, members in by_label.items():
        k = max(2 if y == 0 else 1, round(n * len(members) / total))
        chosen += rng.sample(members, min(k, len(members)))
    sampled = data.subset(sorted(chosen))
    sampled.dropped[f"rows outside the seeded {n}-row sample (--sample, seed {seed})"] = (
        total - len(chosen)
    )
    return sampled
