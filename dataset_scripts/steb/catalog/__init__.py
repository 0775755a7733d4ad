"""The catalogue of STEB's 96 datasets (paper App. C, Tables 10, 13 and 15), declared
once: the registry, ``stylebench list datasets`` and every dataset card read it.

Entries live in submodules by family (``order_alignment``, ``style_attributes``,
``authorship``), each defining ``DATASETS: tuple[StebDataset, ...]``.

Builders attach themselves with :func:`dataset_scripts.registry.builder` using the hub
id ``steb/<name>``, where ``<name>`` is the dataset's name in Table 15.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dataset_scripts.registry import DatasetSpec, register_catalogue
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
