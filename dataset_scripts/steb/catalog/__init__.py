"""The catalogue of STEB's 96 datasets (paper App. C, Tables 10, 13 and 15), declared
once: the registry, ``stylebench list datasets`` and every dataset card read it.

Entries live in submodules by family (``order_alignment``, ``style_attributes``,
``authorship``), each defining ``DATASETS: tuple[StebDataset, ...]``.

Builders attach themselves with :func:`dataset_scripts.registry.builder` using the
dataset id ``steb/<name>``, where ``<name>`` is the dataset's name in Table 15.

Hub repos follow the source releases (:data:`RELEASES`): where STEB splits one release
into several datasets, they are the configs of one repo (``pan23_style_change_easy`` is
config ``easy`` of ``steb/pan23_style_change``); a dataset that is a release of its own is
its own repo, its one config named for its schema. The mapping is declared here once, by
name pattern, so builders keep registering by their dataset id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dataset_scripts.core.spec import DatasetSpec
from dataset_scripts.registry import register_catalogue, register_releases
from dataset_scripts.steb import STEB_CITATION

# STEB task types, as named by stylebench's evaluators
CLUSTERING = "clustering"
ALL_TO_ALL = "all_to_all_pairs"
PREDEFINED = "predefined_pairs"
ORDER = "order_alignment"
RETRIEVAL = "retrieval"
PROBING = "probing"


@dataclass(frozen=True)
class SampleCount:
    """One row of Table 15: classes (or trials, groups, authors, features), samples per
    class and total texts, for one task type."""

    classes: int
    per_class: int
    total: int


# (pattern over the Table 15 name, repo name or None to use the ``repo`` group): the
# ``config`` group names the dataset within its release.
RELEASES: tuple[tuple[re.Pattern[str], str | None], ...] = tuple(
    (re.compile(pattern), repo)
    for pattern, repo in (
        (
            r"(?P<repo>pan2[2-6]_style_change)_(?P<config>basic|advanced|sentence|easy|medium|hard)",
            None,
        ),
        (r"(?P<repo>pan1[35]_authorship_verification)_(?P<config>[a-z]+)_test", None),
        (
            r"(?P<repo>pan14_authorship_verification)_(?P<config>corpus[12]_[a-z]+_[a-z]+)_test",
            None,
        ),
        (r"(?P<repo>pan18_cross_domain_authorship_attribution)_(?P<config>[a-z]+)", None),
        (r"machine_text_detection_(?P<repo>DetectRL|M4|MAGE)_(?P<config>\w+)", None),
        (
            r"machine_text_detection_PAN25_26_(?P<config>essays|fiction|news)",
            "pan25_26_generative_ai_detection",
        ),
        (r"(?P<repo>STEL|SynthSTEL)_(?P<config>feature|register)", None),
        (r"pastel_(?P<config>age|education|ethnic|gender|politics|tod)", "PASTEL"),
        (r"(?P<config>wikipedia|stackexchange)_politeness", "stanford_politeness"),
        (r"blog_(?P<config>age|gender)", "blog_authorship_corpus"),
    )
)
STEB_ORG = "steb/"


def release_of(name: str) -> tuple[str, str] | None:
    """``(repo id, config)`` of a STEB dataset that is one of several of its source
    release (``pan23_style_change_hard`` -> ``("steb/pan23_style_change", "hard")``), or
    None for a dataset that is its own repo. ``name`` may carry the ``steb/`` prefix."""
    bare = name.removeprefix(STEB_ORG)
    if bare == name and "/" in name:
        return None  # another family
    for pattern, repo in RELEASES:
        match = pattern.fullmatch(bare)
        if match:
            return STEB_ORG + (repo or match.group("repo")), match.group("config")
    return None


register_releases(release_of)


@dataclass(frozen=True)
class StebDataset:
    name: str  # Table 15 name; hub id is steb/<name>
    summary: str
    bucket: (
        str  # Table 10 attribute: feature, dialect, register, genre, time, demographics, authorship
    )
    definitional: tuple[str, ...]  # Table 13 clusters the dataset counts towards
    counts: dict[str, SampleCount]  # task type -> Table 15 row
    source_url: str
    license: str
    raw_format: str
    citation: str = ""  # BibTeX of the original corpus (STEB's is added to every card)
    language: tuple[str, ...] = ("en",)
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def hub_id(self) -> str:
        return f"steb/{self.name}"

    @property
    def task_types(self) -> tuple[str, ...]:
        return tuple(self.counts)

    @property
    def repo_id(self) -> str:
        """The Hub repo holding this dataset (see :data:`RELEASES`)."""
        found = release_of(self.name)
        return found[0] if found else self.hub_id

    @property
    def config_name(self) -> str:
        """Its config in :attr:`repo_id` ("" when the repo's configs are named by schema)."""
        found = release_of(self.name)
        return found[1] if found else ""

    def spec(self) -> DatasetSpec:
        return DatasetSpec(
            hub_id=self.hub_id,
            pretty_name=f"STEB {self.name}",
            summary=self.summary,
            builder=None,
            license=self.license,
            source_url=self.source_url,
            citation=(self.citation.strip() + "\n" + STEB_CITATION).strip(),
            raw_format=self.raw_format,
            language=self.language,
            extra={
                "family": "steb",
                "task_types": self.task_types,
                "bucket": self.bucket,
                "definitional": self.definitional,
                "table15": {task: vars(c) for task, c in self.counts.items()},
                **self.extra,
            },
        )


CATALOGUE_MODULES = ("order_alignment", "style_attributes", "authorship")


def all_entries() -> list[StebDataset]:
    """Every catalogued STEB dataset (each submodule defines ``DATASETS``)."""
    import importlib

    entries: list[StebDataset] = []
    for name in CATALOGUE_MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"{__name__}.{name}":
                continue
            raise
        entries.extend(module.DATASETS)
    return entries


def _specs() -> list[DatasetSpec]:
    entries = all_entries()
    names = [d.name for d in entries]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"STEB catalogue lists {sorted(duplicates)} twice")
    return [d.spec() for d in entries]


register_catalogue(_specs)
