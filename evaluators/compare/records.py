"""Stored result records for comparisons: one reader for a run-output folder
(``<dir>/<model>/<dataset>/<task>.json``, ``stylebench run --out``) and a results
repository (``<dir>/<org>__<model>/<revision>/<dataset>/<task>.json``)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from dataset_scripts.core.errors import StylebenchError, UnknownNameError
from evaluators.records.record import ResultRecord, load_record

Key = tuple[str, str]  # (dataset id, task)
Entry = tuple[Path, ResultRecord]


@dataclass
class Results:
    """Records by model name and (dataset id, task); ``aliases`` name a model by the
    folder its records lie in (``<org>__<model>`` in a repository)."""

    by_model: dict[str, dict[Key, Entry]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)

    @property
    def models(self) -> list[str]:
        return sorted(self.by_model)

    def of(self, name: str) -> dict[Key, Entry]:
        """The records of model ``name`` (its recorded name, or its folder's name)."""
        if name in self.by_model:
            return self.by_model[name]
        if name in self.aliases:
            return self.by_model[self.aliases[name]]
        raise UnknownNameError(
            f"no results of model {name!r}; the results hold: {', '.join(self.models)}"
        )


def _is_record(path: Path) -> bool:
    """Whether a JSON file is meant as a result record (other JSON files, such as a
    repository's own metadata, are skipped; a broken record is not)."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return True  # load_record names the problem
    return isinstance(payload, dict) and "task" in payload and "main_score_name" in payload


def _meta_alias(path: Path, out: Results) -> None:
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return
    if (
        isinstance(meta, dict)
        and isinstance(meta.get("name"), str)
        and isinstance(meta.get("run_name"), str)
        and meta["name"] != meta["run_name"]
    ):
        out.aliases.setdefault(meta["name"], meta["run_name"])


def read_records(roots: Iterable[Path]) -> Results:
    """Every result record under ``roots`` (both layouts); StylebenchError for a missing
    folder, no record at all, or two records of the same model, dataset and task (e.g.
    two revisions: pass the revision's folder)."""
    roots = [Path(r) for r in roots]
    out = Results()
    folders: dict[str, set[str]] = {}
    for root in roots:
        if not root.is_dir():
            raise StylebenchError(f"results folder {root} does not exist")
        if (root / "results").is_dir() and not any(root.glob("*/*/*.json")):
            root = root / "results"  # a results repository's work tree
        paths = sorted(set(root.glob("*/*/*.json")) | set(root.glob("*/*/*/*.json")))
        for path in paths:
            if path.name == "model_meta.json":  # a repository's: its public model name
                _meta_alias(path, out)
                continue
            if path.name.startswith(".") or not _is_record(path):
                continue
            record = load_record(path)
            model = record.model.name
            key = (record.dataset_id, record.task)
            earlier = out.by_model.setdefault(model, {}).get(key)
            if earlier is not None and earlier[0] != path:
                raise StylebenchError(
                    f"model {model!r} has two results for {key[0]} / {key[1]}: {earlier[0]} "
                    f"and {path}; give --results the folder of one run (or revision)"
                )
            out.by_model[model][key] = (path, record)
            folders.setdefault(path.relative_to(root).parts[0], set()).add(model)
    if not out.by_model:
        raise StylebenchError(
            f"no result records under {', '.join(map(str, roots))} (expected "
            "<model>/<dataset>/<task>.json or <org>__<model>/<revision>/<dataset>/<task>.json)"
        )
    for folder, names in folders.items():
        if len(names) == 1 and folder not in out.by_model:
            out.aliases[folder] = next(iter(names))
    return out
