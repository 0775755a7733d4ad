"""STEB-nano: the datasets of ``STEB-nano(v1)`` (:data:`evaluators.benchmarks.NANO_DATASETS`)
derived from the full STEB builds by a seeded sub-sample, so that a model can be checked
against every STEB task type every few hundred training steps
(:class:`evaluators.training.StebEvaluator`).

**The rule.** For each (STEB dataset, cap) of the declaration, the built table (its test
split, as ``stylebench run`` reads it) keeps, with ``random.Random(NANO_SEED)`` drawn once
per class in sorted class order:

* ``labelled_texts``, ``text_pairs``: at most ``cap`` rows of each label;
* ``style_sequences``: at most ``cap`` sequences of each group;
* ``retrieval``: ``cap`` authors that have both a query and a target, with all their rows;
* ``probing``: ``cap`` rows (each keeps its per-feature bins and splits).

Kept rows stay in the built order, so the nano table is a function of the full build
only. It is ``steb-nano/<name>`` (its own results, never mixed with the full dataset's),
evaluated in memory by the training evaluator or written as Hub folders
(:func:`write_nano`: ``<built root>/steb-nano__<name>``), which is what
``stylebench run --benchmark nano --built-root <root>`` then runs, with the same numbers.

**How it relates to STEB** (measured here): :data:`AGREEMENT`. **Time**
(``tests/benchmarks/bench_nano.py``): MiniLM, encoding included, 96.7 s of CPU with 2 torch
threads, about 48 s on two idle cores (181 s wall while other jobs held the load at 6).

**Probing** is left out: none of STEB's four probing sets builds cheaply from
``../shared/corpora`` (``steb/probing_blog`` from the blog corpus runs LFTK and spaCy over
every post: more than 20 minutes here).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError, StylebenchError
from evaluators.benchmarks import NANO_DATASETS, NANO_SEED, nano_id
from evaluators.data import DEFAULT_SPLIT, Table

#: what was measured of STEB-nano against the STEB datasets built from ../shared/corpora
AGREEMENT = (
    "Measured 2026-12-01 (tests/benchmarks/bench_nano.py --agreement): over the 76 STEB "
    "units built from ../shared/corpora (61 datasets), STEB vs STEB-nano aggregate of "
    "tfidf-char (TF-IDF char 3-5) 0.3531 / 0.3730, tfidf-word (word 1-2, regex tokens) "
    "0.3261 / 0.3508, function-words 0.3115 / 0.3273, random 0.3112 / 0.3540: Spearman "
    "rho 0.40, Kendall tau 0.33 over these 4 models. Weak: four baselines within 0.04 of "
    "each other, and random ranks second on STEB-nano (not looked into further). MiniLM "
    "(0.3904) and tfidf-ngrams (0.3964) ran on STEB-nano "
    "only: their full runs (spaCy or the model over 88k texts) did not fit on this machine."
)

_CLASS_COLUMN = {"labelled_texts": "label", "text_pairs": "label", "style_sequences": "group"}


def sample_rows(
    rows: Sequence[Mapping[str, Any]], schema: str, cap: int, seed: int = NANO_SEED
) -> list[dict[str, Any]]:
    """The nano rows of one table (the rule of the module doc), in the table's order."""
    if cap < 1:
        raise DataError(f"a nano cap must be at least 1, got {cap}")
    rng = random.Random(seed)
    if schema == "probing":
        keep = set(rng.sample(range(len(rows)), min(cap, len(rows))))
    elif schema == "retrieval":
        roles: dict[str, set[str]] = {}
        for row in rows:
            roles.setdefault(str(row["author"]), set()).add(str(row["role"]))
        complete = sorted(a for a, r in roles.items() if {"query", "target"} <= r)
        authors = set(rng.sample(complete, min(cap, len(complete))))
        keep = {i for i, row in enumerate(rows) if str(row["author"]) in authors}
    elif schema in _CLASS_COLUMN:
        column = _CLASS_COLUMN[schema]
        by_class: dict[str, list[int]] = {}
        for i, row in enumerate(rows):
            by_class.setdefault(str(row[column]), []).append(i)
        keep = set()
        for label in sorted(by_class):
            members = by_class[label]
            keep.update(rng.sample(members, min(cap, len(members))))
    else:
        raise DataError(f"no nano rule for schema {schema!r}")
    return [dict(row) for i, row in enumerate(rows) if i in keep]


def source_refs(built_root: Path, *, missing_ok: bool = False) -> dict[str, str]:
    """STEB dataset id -> the ref ``stylebench run`` loads it from under ``built_root``
    (a built folder or ``<folder>:<config>``); StylebenchError naming the ones not built
    (with ``missing_ok``, only when none is: the built ones are returned)."""
    from evaluators.benchmark_folders import resolve_benchmark

    wanted = {source for source, _ in NANO_DATASETS}
    from evaluators.benchmarks import get_benchmark

    steb = get_benchmark("steb")
    refs, missing = resolve_benchmark("steb", Path(built_root))
    by_id = dict(zip(steb.datasets, refs, strict=True))
    absent = sorted(s for s in wanted if by_id.get(s) in missing or s not in by_id)
    if absent and not (missing_ok and len(absent) < len(wanted)):
        raise StylebenchError(
            f"STEB-nano needs {len(absent)} STEB datasets not built under {built_root}: "
            + ", ".join(absent)
            + " (build them with `stylebench build <id>`; each reads ../shared/corpora)"
        )
    return {s: by_id[s] for s in sorted(wanted) if s not in absent}


def nano_tables(built_root: str | Path, *, missing_ok: bool = False) -> dict[str, Table]:
    """Every STEB-nano table, by ``steb-nano/<name>``, derived in memory from the full
    builds under ``built_root`` (nothing is written); ``missing_ok``: those whose source
    is built (:func:`source_refs`)."""
    from dataset_scripts.core.spec import folder_name
    from evaluators.data import (
        config_schemas,
        load_table,
        rows_fingerprint,  # the fingerprint of rows held in memory
    )

    refs = source_refs(Path(built_root), missing_ok=missing_ok)
    out: dict[str, Table] = {}
    for source, cap in NANO_DATASETS:
        if source not in refs:
            continue
        ref = refs[source]
        ((config, schema),) = config_schemas(ref).items()
        full = load_table(ref, config)
        rows = sample_rows(full.rows, schema, cap)
        ident = nano_id(source)
        out[ident] = Table(
            ident, folder_name(ident), schema, DEFAULT_SPLIT, rows, rows_fingerprint(rows),
            schema, ident, ident,
        )  # fmt: skip
    return out


def write_nano(built_root: str | Path, out_root: str | Path | None = None) -> list[Path]:
    """Write each STEB-nano table as a Hub folder ``<out_root>/steb-nano__<name>`` (default
    ``out_root``: ``built_root``), with a card naming its source and the rule; the folders
    ``stylebench run --benchmark nano --built-root <out_root>`` runs."""
    from dataset_scripts.core.hub_folder import write_hub_folder
    from dataset_scripts.core.spec import DatasetSpec, folder_name
    from dataset_scripts.registry import all_datasets

    specs = all_datasets()
    caps = dict(NANO_DATASETS)
    root = Path(out_root or built_root)
    written = []
    for ident, table in nano_tables(built_root).items():
        source = next(s for s in caps if nano_id(s) == ident)
        parent = specs[source]
        spec = DatasetSpec(
            hub_id=ident,
            pretty_name=f"{parent.pretty_name} (STEB-nano)",
            summary=(
                f"STEB-nano(v1) sub-sample of `{source}`: {len(table.rows)} rows "
                f"(cap {caps[source]}, seed {NANO_SEED}; rule in evaluators/nano.py)."
            ),
            builder=None,
            license=parent.license,
            source_url=parent.source_url,
            citation=parent.citation,
            raw_format=f"the built `{source}` ({table.kind})",
            protocol=(
                f"Rows of the full `{source}` build kept by the STEB-nano rule "
                f"(evaluators.nano.sample_rows, cap {caps[source]}, seed {NANO_SEED})."
            ),
            language=parent.language,
            task_types=parent.task_types,
            run_command=f"stylebench run --benchmark nano --built-root {root}",
        )
        out = root / folder_name(ident)
        write_hub_folder(spec, {table.kind: {DEFAULT_SPLIT: table.rows}}, out, {})
        written.append(out)
    return written
