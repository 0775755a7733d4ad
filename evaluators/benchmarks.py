"""Benchmark versions as objects (as MTEB's ``Benchmark``): each benchmark stylebench
knows is declared once here, with its datasets, tasks, reference models and the version
that supersedes it, and looked up by name (:func:`get_benchmark`).

| key | aliases | datasets | tasks |
|---|---|---|---|
| ``STEB(v1)`` | ``steb`` | every STEB dataset: the catalogue's 96, the STEB repository's application and multilingual lists | the six STEB task types |
| ``STEB-operational(v1)`` | ``operational`` | the English ones (the main STEB scores) | the six |
| ``STEB-definitional(v1)`` | ``definitional`` | those assigned to a Table 13 cluster | the six |
| ``STEB-application(v1)`` | ``application`` | the application clusters (Table 4) | the six |
| ``STEB-multilingual(v1)`` | ``multilingual`` | the 17 non-English sets (Table 5) | predefined pairs, retrieval |
| ``STEB-lite(v1)`` | ``lite`` | per task type, the two smallest English datasets of at most 2,000 texts (Table 15 counts) | the six |
| ``STEB-nano(v1)`` | ``nano`` | eight STEB datasets covering five task types (no probing), each a seeded sub-sample (``NANO_DATASETS``, ids ``steb-nano/<name>``; :mod:`evaluators.nano`) | the six but probing |
| ``ARB(v1)`` | ``arb`` | ``arb/quartets`` | detection under rewriting |
| ``Valla(v1)`` | ``valla`` | the Valla datasets | attribution (aa), verification (av) |
| ``StyleDisc(v1)`` | ``styledisc``, ``style-discrimination`` | the style-discrimination domains | style discrimination |

A benchmark's **units** are its (dataset, task) pairs: each dataset with the tasks of the
benchmark it serves (its declaration's ``task_types``; every task of the benchmark for a
family whose declarations list none). The **aggregate** (:meth:`Benchmark.aggregate`) is
the mean over the benchmark's task types of the mean main score over that task's units,
computed only for a complete row: when a unit is missing the score is ``None`` and the
coverage (``k of n``) says how far the row got. (STEB's paper views in
:mod:`evaluators.steb_scores.scores` average the units present and flag the view
``complete`` / the summary ``comparable_to_paper``; they are the paper's own formulas,
this is the leaderboard's rule: no average over missing tasks.)

The dataset lists are computed from the declarations on first use (the registry imports
every builder module), so ``import evaluators.benchmarks`` stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from dataset_scripts.core.errors import UnknownNameError
from dataset_scripts.core.schemas import PROBING, TASK_TYPES

LITE_PER_TASK = 2
LITE_MAX_TEXTS = 2000

#: STEB-nano(v1), a benchmark small enough to run every few hundred training steps: each
#: (STEB dataset, cap) becomes ``steb-nano/<name>``, the built dataset sub-sampled with
#: seed ``NANO_SEED`` (:mod:`evaluators.nano`): at most ``cap`` rows per class (label, or
#: group of sequences), ``cap`` authors (retrieval, all their rows) or ``cap`` rows (probing)
NANO_PREFIX = "steb-nano/"
NANO_SEED = 42
#: the metric name of a unit in the benchmark views: each (dataset, task) counts by its main score
MAIN_SCORE = "main_score"
NANO_DATASETS: tuple[tuple[str, int], ...] = (
    ("steb/pastel_gender", 60),  # clustering, all-to-all pairs
    ("steb/stackexchange_politeness", 40),
    ("steb/sms_spam", 60),
    ("steb/pan23_style_change_hard", 60),  # predefined pairs
    ("steb/pan14_authorship_verification_corpus1_english_essays_test", 4),
    ("steb/STEL_feature", 30),  # order alignment
    ("steb/parallel_shakespeare", 60),
    ("steb/pan18_cross_domain_authorship_attribution_english", 6),  # retrieval
)  # no probing set: none builds cheaply from ../shared/corpora (see evaluators/nano.py)


def nano_id(source: str) -> str:
    """The STEB-nano id of a STEB dataset: ``steb/sms_spam`` -> ``steb-nano/sms_spam``."""
    return NANO_PREFIX + source.split("/", 1)[-1]


@dataclass(frozen=True)
class Benchmark:
    """One version of a benchmark: what a complete row of it must cover."""

    name: str
    version: str
    datasets: tuple[str, ...]  # dataset ids (``steb/pastel_age``), sorted
    tasks: tuple[str, ...]
    reference_models: tuple[str, ...] = ()
    superseded_by: str | None = None  # the key of the version that replaces this one
    description: str = ""
    family: str = "steb"
    aliases: tuple[str, ...] = ()
    # dataset -> the tasks it serves (from the declarations); empty: every task
    dataset_tasks: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def key(self) -> str:
        """``NAME(version)``, e.g. ``STEB(v1)``: how results and tables name it."""
        return f"{self.name}({self.version})"

    @property
    def units(self) -> tuple[tuple[str, str], ...]:
        """Every (dataset, task) a complete row holds, sorted."""
        served = dict(self.dataset_tasks)
        out = set()
        for dataset in self.datasets:
            tasks = served.get(dataset) or self.tasks
            out.update((dataset, t) for t in tasks if t in self.tasks)
        return tuple(sorted(out))

    def contains(self, dataset: str, task: str) -> bool:
        return (dataset, task) in _unit_set(self)

    def aggregate(self, values: Mapping[tuple[str, str], float]) -> BenchmarkScore:
        """The score of one row: ``values`` maps (dataset, task) to its main score (other
        keys are ignored). The benchmark's by-task-type view (:func:`evaluators.views.by_task_type`:
        the mean over task types of the mean over that task's units), only when every unit
        is present; ``None`` otherwise, with the coverage."""
        from evaluators.views import OVERALL, by_task_type, evaluate_spec

        units = self.units
        present = [u for u in units if u in values]
        missing = tuple(u for u in units if u not in values)
        value = None
        if units and not missing:
            scores = {(d, t, MAIN_SCORE): float(values[(d, t)]) for d, t in units}
            value = evaluate_spec(by_task_type(scores), scores)[OVERALL]
        return BenchmarkScore(self.key, value, len(present), len(units), missing)


@dataclass(frozen=True)
class BenchmarkScore:
    benchmark: str
    value: float | None  # None unless the row is complete
    covered: int
    total: int
    missing: tuple[tuple[str, str], ...]

    @property
    def complete(self) -> bool:
        return self.covered == self.total and self.total > 0

    @property
    def coverage(self) -> str:
        return f"{self.covered} of {self.total}"


@cache
def _unit_set(benchmark: Benchmark) -> frozenset[tuple[str, str]]:
    return frozenset(benchmark.units)


# ----------------------------------------------------------------------------- declarations


def _specs() -> dict:
    from dataset_scripts.registry import all_datasets

    return all_datasets()


def _served(ids: Iterable[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    specs = _specs()
    sources = {nano_id(source): source for source, _ in NANO_DATASETS}  # nano: its source's
    served = {i: specs.get(i) or specs.get(sources.get(i, "")) for i in ids}
    return tuple((i, tuple(s.task_types) if s else ()) for i, s in sorted(served.items()))


def _steb_sets() -> dict[str, set[str]]:
    """The STEB subsets, by the rules of the STEB paper and repository."""
    from evaluators.steb_scores.results import STEB_PREFIX, catalogue
    from evaluators.steb_scores.scores import multilingual_datasets, repo_clusters

    entries = list(catalogue().values())
    catalogued = {e.hub_id for e in entries}
    foreign = multilingual_datasets()
    application = {
        STEB_PREFIX + n for names in repo_clusters()["application"].values() for n in names
    }
    lite: set[str] = set()
    by_task: dict[str, list[tuple[int, str]]] = {}
    for e in entries:
        if e.hub_id in foreign:
            continue
        for task, count in (e.steb.table15 if e.steb else {}).items():
            if count.total <= LITE_MAX_TEXTS:
                by_task.setdefault(task, []).append((count.total, e.hub_id))
    for items in by_task.values():
        lite.update(h for _, h in sorted(items)[:LITE_PER_TASK])
    return {
        "steb": catalogued | application | foreign,
        "operational": (catalogued | application) - foreign,
        "definitional": {e.hub_id for e in entries if e.steb and e.steb.definitional},
        "application": application,
        "multilingual": foreign,
        "lite": lite,
    }


def _steb_models() -> tuple[str, ...]:
    from evaluators.steb_scores.reference import paper_models

    return tuple(paper_models())


def _family_ids(prefix: str) -> set[str]:
    return {h for h in _specs() if h.startswith(prefix)}


def _valla_models() -> tuple[str, ...]:
    from evaluators.valla.reference import TABLES

    return tuple(sorted({m for table in TABLES.values() for m in table.rows}))


def _arb_models() -> tuple[str, ...]:
    from evaluators.arb.reference import DETECTORS

    return DETECTORS


def _styledisc_models() -> tuple[str, ...]:
    from evaluators.styledisc.reference import TABLE2

    return tuple(TABLE2)


@dataclass(frozen=True)
class _Declaration:
    """How a benchmark is built on first use (its dataset list reads the declarations)."""

    name: str
    version: str
    aliases: tuple[str, ...]
    tasks: tuple[str, ...]
    datasets: Callable[[], set[str]]
    reference_models: Callable[[], tuple[str, ...]]
    description: str
    family: str = "steb"
    superseded_by: str | None = None


def _steb(view: str) -> Callable[[], set[str]]:
    return lambda: _steb_sets()[view]


DECLARATIONS: tuple[_Declaration, ...] = (
    _Declaration(
        "STEB",
        "v1",
        ("steb",),
        TASK_TYPES,
        _steb("steb"),
        _steb_models,
        "Style Text Embedding Benchmark: every STEB dataset (96 catalogued, plus the "
        "application and multilingual lists of the STEB repository), six task types.",
    ),
    _Declaration(
        "STEB-operational",
        "v1",
        ("operational",),
        TASK_TYPES,
        _steb("operational"),
        _steb_models,
        "The English STEB datasets: the operational STEB score (paper Table 2/6).",
    ),
    _Declaration(
        "STEB-definitional",
        "v1",
        ("definitional",),
        TASK_TYPES,
        _steb("definitional"),
        _steb_models,
        "STEB datasets assigned to a Table 13 cluster (paper Table 3/9).",
    ),
    _Declaration(
        "STEB-application",
        "v1",
        ("application",),
        TASK_TYPES,
        _steb("application"),
        _steb_models,
        "The datasets of STEB's application clusters (paper Table 4/7).",
    ),
    _Declaration(
        "STEB-multilingual",
        "v1",
        ("multilingual",),
        ("predefined_pairs", "retrieval"),
        _steb("multilingual"),
        _steb_models,
        "The 17 non-English STEB datasets (paper Table 5/8).",
    ),
    _Declaration(
        "STEB-lite",
        "v1",
        ("lite",),
        TASK_TYPES,
        _steb("lite"),
        _steb_models,
        f"A fast preset: per task type, the {LITE_PER_TASK} smallest English STEB datasets "
        f"of at most {LITE_MAX_TEXTS:,} texts (Table 15 counts).",
    ),
    _Declaration(
        "STEB-nano",
        "v1",
        ("nano",),
        tuple(t for t in TASK_TYPES if t != PROBING),
        lambda: {nano_id(source) for source, _ in NANO_DATASETS},
        _steb_models,
        f"A nano preset for checks during training: {len(NANO_DATASETS)} STEB datasets "
        "covering five of the six task types (no probing), each sub-sampled with seed 42 "
        "(evaluators.nano); MiniLM about 48 s on two idle CPU cores (97 s of CPU). Rank "
        "agreement with STEB over its 61 datasets built here: Spearman 0.40 over 4 baselines "
        "(evaluators.nano.AGREEMENT).",
    ),
    _Declaration(
        "ARB",
        "v1",
        ("arb",),
        ("detection",),
        lambda: _family_ids("arb/"),
        _arb_models,
        "Authorship Rewriting Benchmark: AI-text detectors under rewriting (Perrone 2026).",
        family="arb",
    ),
    _Declaration(
        "Valla",
        "v1",
        ("valla",),
        ("aa", "av"),
        lambda: _family_ids("valla/"),
        _valla_models,
        "Valla: authorship attribution and verification (Tyo, Dhingra & Lipton 2022).",
        family="valla",
    ),
    _Declaration(
        "StyleDisc",
        "v1",
        ("styledisc", "style-discrimination"),
        ("style_discrimination",),
        lambda: _family_ids("styledisc/"),
        _styledisc_models,
        "Style discrimination of personalized generation (Jangra et al.).",
        family="styledisc",
    ),
)


_BUILT: list[tuple[object, dict[str, Benchmark]]] = []


def benchmarks() -> dict[str, Benchmark]:
    """Every benchmark version by key (``STEB(v1)``), built on first call and again
    whenever the registry's declarations change (a test adding a builder module)."""
    from dataset_scripts.registry import declared_datasets

    declared = declared_datasets()
    if not _BUILT or _BUILT[0][0] is not declared:
        _BUILT[:] = [(declared, _build())]
    return _BUILT[0][1]


def _build() -> dict[str, Benchmark]:
    out: dict[str, Benchmark] = {}
    for d in DECLARATIONS:
        ids = d.datasets()
        bench = Benchmark(
            name=d.name,
            version=d.version,
            datasets=tuple(sorted(ids)),
            tasks=d.tasks,
            reference_models=d.reference_models(),
            superseded_by=d.superseded_by,
            description=d.description,
            family=d.family,
            aliases=d.aliases,
            dataset_tasks=_served(ids),
        )
        if bench.key in out:
            raise ValueError(f"benchmark {bench.key} is declared twice")
        out[bench.key] = bench
    return out


def benchmark_names() -> tuple[str, ...]:
    """The short names ``stylebench run --benchmark`` takes (no registry import)."""
    return tuple(d.aliases[0] for d in DECLARATIONS)


def current(name: str) -> Benchmark:
    """The version of benchmark ``name`` that no other version supersedes."""
    found = [b for b in benchmarks().values() if b.name == name and b.superseded_by is None]
    if not found:
        raise UnknownNameError(f"no current version of benchmark {name!r}")
    return found[0]


def get_benchmark(name: str, version: str | None = None) -> Benchmark:
    """A benchmark by key (``STEB(v1)``), by name and version, by name (its current
    version) or by alias (``steb``, ``lite``, ...); UnknownNameError listing the known
    ones otherwise."""
    table = benchmarks()
    if version is not None:
        key = f"{name}({version})"
        if key in table:
            return table[key]
        for b in table.values():
            if name in b.aliases and b.version == version:
                return b
        raise UnknownNameError(
            f"unknown benchmark version {key!r}; known versions: {', '.join(table)}"
        )
    if name in table:
        return table[name]
    for b in table.values():
        if name in b.aliases and b.superseded_by is None:
            return b
    if any(b.name == name for b in table.values()):
        return current(name)
    raise UnknownNameError(
        f"unknown benchmark {name!r}; known benchmarks: {', '.join(table)} "
        f"(aliases: {', '.join(benchmark_names())})"
    )


def benchmarks_of(dataset: str, task: str) -> list[Benchmark]:
    """Every benchmark version whose units include (dataset, task)."""
    return [b for b in benchmarks().values() if b.contains(dataset, task)]
