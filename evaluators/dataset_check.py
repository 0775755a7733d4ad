"""Look at a dataset before running it: :func:`preview` and :func:`validate`.

The STEB authors' CLI has ``steb validate`` (every dataset ``config.json`` checked for
its required fields, type, tasks and processors, one error line each) and a preview
(``steb.core.preview`` / ``DatasetLoader.preview``: per dataset, task and episode size
the classes found, the resolved ``n_episodes_per_class``, the smallest class and the
classes that would be dropped). Here a dataset is a Hub-ready folder or a Hub id, so:

* :func:`preview` shows each config's schema, columns, task types, rows per split, the
  first rows, the classes (labels, style groups, author sides) with their sizes, and
  what the per-class rule would keep: the authors' ``"auto"`` count by default, or the
  episodes asked for.
* :func:`validate` checks a folder's card and data files, each file's columns and types
  against its schema, each row (missing or empty texts, duplicate ids, bad labels or
  roles, ...) and what the tasks need (two classes, groups with two sequences, authors
  on both sides, enough texts for the episodes), and returns every problem with the
  file, row and column it is in. Warnings are things the evaluators handle by dropping
  (counted in the results), errors are things they refuse.

``stylebench steb preview|validate`` (and the top-level ``preview``/``validate``) print
these; :func:`parse_submetrics` reads ``stylebench run --submetric``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dataset_scripts.core.errors import DataError, StylebenchError

if TYPE_CHECKING:  # the module imports little, so the CLI can register its commands cheaply
    from evaluators.tasks.episodes import Sampling

__all__ = [
    "CheckReport",
    "Problem",
    "class_key",
    "format_preview",
    "parse_submetrics",
    "preview",
    "validate",
]

PREVIEW_CHARS = 80  # characters of a text shown in a preview


def class_key(schema: str, row: Mapping[str, Any]) -> str | None:
    """The class a row belongs to for the per-class rule and sub-metrics (label, style
    group, ``role:author``), None for schemas without classes."""
    if schema == "labelled_texts":
        return str(row["label"])
    if schema == "style_sequences":
        return str(row["group"])
    if schema == "retrieval":
        return f"{row['role']}:{row['author']}"
    return None


def _unit_keys(schema: str, rows: Sequence[Mapping[str, Any]]) -> list[str | None]:
    """The class of every unit the episodes are formed from: a row, or for retrieval
    each document of a row (as :class:`evaluators.tasks.retrieval.RetrievalEvaluator`)."""
    if schema == "retrieval":
        return [class_key(schema, row) for row in rows for _ in row["texts"]]
    return [class_key(schema, row) for row in rows]


def _short(value: Any) -> Any:
    if isinstance(value, str):
        return value if len(value) <= PREVIEW_CHARS else value[: PREVIEW_CHARS - 3] + "..."
    if isinstance(value, list):
        return [_short(v) for v in value[:4]] + (["..."] if len(value) > 4 else [])
    return value


def _splits(ref: str, config: str) -> list[str]:
    from datasets import get_dataset_split_names

    from dataset_scripts.core.quiet import quiet_datasets

    with quiet_datasets():
        return list(get_dataset_split_names(ref, config))


def _class_summary(
    schema: str, rows: Sequence[Mapping[str, Any]], sampling: Sampling
) -> dict[str, Any] | None:
    from evaluators.tasks.episodes import Sampling, form_episodes

    keys = _unit_keys(schema, rows)
    if not rows or keys[0] is None:
        return None
    counts = Counter(keys)
    summary: dict[str, Any] = {
        "n_classes": len(counts),
        "smallest": min(counts.values()),
        "largest": max(counts.values()),
        "unit": "document" if schema == "retrieval" else "row",
        "sizes": dict(counts.most_common()),
    }
    rule = sampling if not sampling.is_default else Sampling(1, "auto")
    if schema == "retrieval" and sampling.is_default:
        rule = Sampling(-1)  # the authors' retrieval default
    try:
        record = form_episodes(keys, rule, "class").record
        summary["per_class_rule"] = {
            k: record[k]
            for k in ("episode_size", "per_class", "episodes_per_class", "units_per_class")
        } | {"n_classes_kept": record["n_classes_kept"], "dropped": record["dropped_classes"]}
    except DataError as error:
        summary["per_class_rule"] = {**rule.requested(), "error": str(error)}
    return summary


def preview(
    ref: str | Path, *, n_rows: int = 3, sampling: Sampling | None = None
) -> dict[str, Any]:
    """What a dataset holds, per config: schema, task types, columns, rows per split, the
    first ``n_rows`` rows (texts shortened), its classes and what the per-class rule
    keeps (``sampling``, or by default the authors' ``"auto"`` count with episode size 1,
    and for retrieval episode size -1). Reads the data; builds nothing."""
    from dataset_scripts.core.schemas import SCHEMAS, probing_features
    from evaluators.data import config_schemas, load_table
    from evaluators.tasks.episodes import DEFAULT_SAMPLING

    sampling = sampling or DEFAULT_SAMPLING
    ref = str(ref)
    out: dict[str, Any] = {"dataset": ref, "configs": []}
    for config, schema in config_schemas(ref).items():
        spec = SCHEMAS[schema]
        splits = _splits(ref, config)
        tables = {split: load_table(ref, config, split) for split in splits}
        first = next(iter(tables.values()))
        entry: dict[str, Any] = {
            "config": config,
            "schema": schema,
            "description": spec.description,
            "task_types": list(spec.task_types),
            "columns": list(first.rows[0]) if first.rows else list(spec.features),
            "rows": {split: len(t.rows) for split, t in tables.items()},
            "first_rows": [{k: _short(v) for k, v in row.items()} for row in first.rows[:n_rows]],
        }
        if first.dataset_id:
            entry["dataset_id"] = first.dataset_id
        classes = _class_summary(schema, first.rows, sampling)
        if classes is not None:
            entry["classes"] = classes
        if schema == "probing":
            entry["features"] = probing_features(entry["columns"])
        out["configs"].append(entry)
    return out


def format_preview(info: Mapping[str, Any], max_classes: int = 12) -> str:
    """:func:`preview`'s answer as text for a terminal."""
    lines = [f"dataset {info['dataset']}"]
    for entry in info["configs"]:
        rows = ", ".join(f"{split} {n:,}" for split, n in entry["rows"].items())
        lines += [
            "",
            f"config {entry['config']}  (schema {entry['schema']}: {entry['description']})",
            f"  tasks    {', '.join(entry['task_types'])}",
            f"  columns  {', '.join(entry['columns'])}",
            f"  rows     {rows}",
        ]
        classes = entry.get("classes")
        if classes:
            sizes = list(classes["sizes"].items())
            shown = ", ".join(f"{k} {v}" for k, v in sizes[:max_classes])
            more = f", ... {len(sizes) - max_classes} more" if len(sizes) > max_classes else ""
            lines.append(
                f"  classes  {classes['n_classes']} ({classes['unit']}s per class "
                f"{classes['smallest']}-{classes['largest']}): {shown}{more}"
            )
            rule = classes["per_class_rule"]
            if "error" in rule:
                lines.append(
                    f"  per-class rule {rule['episode_size']}/{rule['per_class']}: {rule['error']}"
                )
            else:
                dropped = rule["dropped"]
                per = (
                    "every unit of a class in one episode"
                    if rule["episode_size"] == -1
                    else f"{rule['episodes_per_class']} episodes ({rule['units_per_class']} units) per class"
                )
                lines.append(
                    f"  per-class rule (episode size {rule['episode_size']}, per class "
                    f"{rule['per_class']}): {per}, "
                    f"keeps {rule['n_classes_kept']} of {classes['n_classes']} classes"
                    + (
                        f"; drops {', '.join(f'{k} ({v})' for k, v in dropped.items())}"
                        if dropped
                        else ""
                    )
                )
        if entry.get("features"):
            lines.append(f"  features {', '.join(entry['features'])}")
        for i, row in enumerate(entry["first_rows"]):
            lines.append(f"  row {i}: {row}")
    return "\n".join(lines)


# ------------------------------------------------------------------ validate


@dataclass(frozen=True)
class Problem:
    level: str  # "error" or "warning"
    where: str  # file (or dataset [config/split]) and row/column where known
    message: str

    def __str__(self) -> str:
        return f"{self.level}: {self.where}: {self.message}"


@dataclass
class CheckReport:
    dataset: str
    problems: list[Problem] = field(default_factory=list)
    checked: dict[str, Any] = field(default_factory=dict)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.level == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.level == "warning"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def add(self, level: str, where: str, message: str) -> None:
        self.problems.append(Problem(level, where, message))


def _arrow_type_problem(column: str, expected: Any, actual: Any) -> str | None:
    """Whether a Parquet column's Arrow type can hold the schema's feature."""
    import pyarrow as pa

    dtype = getattr(expected, "dtype", None)
    if dtype == "string":
        ok = pa.types.is_string(actual) or pa.types.is_large_string(actual)
    elif dtype in ("int8", "int16", "int32", "int64"):
        ok = pa.types.is_integer(actual)
    elif hasattr(expected, "feature"):  # a sequence of strings
        ok = (pa.types.is_list(actual) or pa.types.is_large_list(actual)) and (
            pa.types.is_string(actual.value_type) or pa.types.is_large_string(actual.value_type)
        )
    else:
        return None
    if ok:
        return None
    return f"column {column!r} has Arrow type {actual}, expected {expected}"


def _check_file(report: CheckReport, path: Path, schema: str) -> list[dict[str, Any]]:
    """Columns, types and rows of one Parquet file; its rows (empty when unreadable)."""
    import pyarrow.parquet as pq

    from dataset_scripts.core.schemas import SCHEMAS, validate_rows

    try:
        data = pq.read_table(path)
    except Exception as error:  # a truncated or foreign file
        report.add(
            "error", str(path), f"not a readable Parquet file ({type(error).__name__}: {error})"
        )
        return []
    features = SCHEMAS[schema].features
    names = set(data.schema.names)
    for column in features:
        if column not in names:
            report.add("error", str(path), f"missing column {column!r} (schema {schema})")
    extra = sorted(names - set(features))
    if schema == "probing":
        extra = [c for c in extra if not c.startswith(("label_", "split_"))]
    if extra:
        report.add("error", str(path), f"columns {extra} are not in schema {schema}")
    for column in features:
        if column in names:
            problem = _arrow_type_problem(column, features[column], data.schema.field(column).type)
            if problem:
                report.add("error", str(path), problem)
    rows = data.to_pylist()
    try:
        validate_rows(schema, rows, str(path))
    except DataError as error:
        where, _, message = str(error).partition(": ")
        report.add("error", where, message)
    return rows


def _task_checks(
    report: CheckReport,
    where: str,
    schema: str,
    rows: Sequence[Mapping[str, Any]],
    sampling: Sampling,
) -> None:
    """What the evaluators need beyond the schema (warnings: rows they drop and count)."""
    from dataset_scripts.core.schemas import probing_features
    from evaluators.tasks.episodes import form_episodes

    if not rows:
        return
    if schema == "labelled_texts":
        counts = Counter(row["label"] for row in rows)
        single = sorted(k for k, n in counts.items() if n < 2)
        if single:
            report.add(
                "warning", where,
                f"{len(single)} label(s) with one text (no same-label pair; left out of "
                f"all-to-all per-label scores): {', '.join(map(repr, single[:5]))}",
            )  # fmt: skip
    elif schema == "style_sequences":
        counts = Counter(row["group"] for row in rows)
        lonely = sorted(k for k, n in counts.items() if n < 2)
        if len(lonely) == len(counts):
            report.add("error", where, "no group has two sequences: order alignment has no pair")
        elif lonely:
            report.add(
                "warning", where,
                f"{len(lonely)} group(s) with one sequence are skipped by order alignment: "
                + ", ".join(map(repr, lonely[:5])),
            )  # fmt: skip
    elif schema == "retrieval":
        queries = {r["author"] for r in rows if r["role"] == "query"}
        targets = {r["author"] for r in rows if r["role"] == "target"}
        for side, only in (("query", queries - targets), ("target", targets - queries)):
            if only:
                report.add(
                    "warning", where,
                    f"{len(only)} author(s) have a {side} but no "
                    f"{'target' if side == 'query' else 'query'} (dropped by the steb "
                    f"protocol): {', '.join(map(repr, sorted(only)[:5]))}",
                )  # fmt: skip
    elif schema == "probing":
        for feature in probing_features(list(rows[0])):
            splits = Counter(
                r[f"split_{feature}"] for r in rows if r[f"label_{feature}"] is not None
            )
            for needed in ("train", "test"):
                if not splits.get(needed):
                    report.add("error", where, f"feature {feature!r} has no {needed} texts")
    if not sampling.is_default:
        keys = _unit_keys(schema, rows)
        if keys[0] is None:
            report.add("error", where, f"episodes and per-class counts do not apply to {schema}")
        else:
            try:
                form_episodes(keys, sampling, "class")
            except DataError as error:
                report.add("error", where, str(error))


def _local_files(folder: Path, config: str) -> dict[str, list[Path]]:
    from datasets import load_dataset_builder

    from dataset_scripts.core.quiet import quiet_datasets

    with quiet_datasets():
        builder = load_dataset_builder(str(folder), config)
    files = builder.config.data_files or {}
    out = {}
    for split, names in files.items():
        out[str(split)] = [Path(n) if Path(n).is_absolute() else folder / n for n in names]
    return out


def validate(ref: str | Path, *, sampling: Sampling | None = None) -> CheckReport:
    """Every problem of a built folder or Hub dataset (module doc). A folder's files
    are read one by one (errors name the file, row and column); a Hub id is read through
    ``datasets`` (errors name the dataset, config, split and row). ``sampling`` also checks
    that the episodes asked for can be formed."""
    from evaluators.data import config_schemas, load_table
    from evaluators.tasks.episodes import DEFAULT_SAMPLING

    sampling = sampling or DEFAULT_SAMPLING
    ref = str(ref)
    report = CheckReport(ref)
    folder = Path(ref)
    if folder.is_dir() and not (folder / "README.md").is_file():
        report.add("error", str(folder / "README.md"), "no dataset card (README.md with configs:)")
        return report
    try:
        schemas = config_schemas(ref)
    except StylebenchError as error:
        report.add("error", ref, str(error))
        return report
    report.checked = {"configs": dict(schemas), "files": 0, "rows": 0}
    for config, schema in schemas.items():
        if folder.is_dir():
            try:
                files = _local_files(folder, config)
            except Exception as error:
                report.add("error", f"{ref} [{config}]", f"data files not found ({error})")
                continue
            if not files:
                report.add("error", f"{ref} [{config}]", "the card lists no data files")
            for split, paths in files.items():
                rows: list[dict[str, Any]] = []
                for path in paths:
                    if not path.is_file():
                        report.add("error", str(path), "listed by the card but missing")
                        continue
                    rows += _check_file(report, path, schema) if path.suffix == ".parquet" else []
                    report.checked["files"] += 1
                if len(paths) > 1:  # ids must be unique across the shards of a split
                    dupes = [
                        i for i, n in Counter(r["id"] for r in rows if "id" in r).items() if n > 1
                    ]
                    if dupes:
                        report.add(
                            "error", f"{ref} [{config}/{split}]",
                            f"{len(dupes)} id(s) repeated across files, e.g. {dupes[0]!r}",
                        )  # fmt: skip
                report.checked["rows"] += len(rows)
                _task_checks(report, f"{ref} [{config}/{split}]", schema, rows, sampling)
        else:
            for split in _splits(ref, config):
                where = f"{ref} [{config}/{split}]"
                try:
                    table = load_table(ref, config, split)
                except (DataError, StylebenchError) as error:
                    location, _, message = str(error).partition(": ")
                    report.add("error", location or where, message or str(error))
                    continue
                report.checked["rows"] += len(table.rows)
                _task_checks(report, where, schema, table.rows, sampling)
    return report


# ------------------------------------------------------------------ commands


def parse_submetrics(values: Sequence[str]) -> dict[str, list[str]]:
    """``["formal=formal,informal", ...]`` -> ``{"formal": ["formal", "informal"]}``."""
    out: dict[str, list[str]] = {}
    for value in values:
        name, sep, classes = value.partition("=")
        members = [c.strip() for c in classes.split(",") if c.strip()]
        if not sep or not name.strip() or not members:
            raise DataError(f"--submetric {value!r}: expected NAME=CLASS[,CLASS...]")
        if name.strip() in out:
            raise DataError(f"--submetric {name.strip()!r} is given twice")
        out[name.strip()] = members
    return out
