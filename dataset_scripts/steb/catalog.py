"""The catalogue of STEB's 96 datasets (paper App. C, Tables 10, 13 and 15), declared
once: the registry, ``stylebench list datasets`` and every dataset card read it.

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


STEL_CITATION = """@inproceedings{wegmann-nguyen-2021-capture,
  title     = {Does It Capture {STEL}? A Modular, Similarity-based Linguistic Style Evaluation Framework},
  author    = {Wegmann, Anna and Nguyen, Dong},
  booktitle = {Proceedings of EMNLP 2021},
  year      = {2021},
  pages     = {7109--7130}
}"""

STEB_DATASETS: tuple[StebDataset, ...] = (
    StebDataset(
        name="STEL_feature",
        summary="STEL parallel sentence pairs for linguistic features (contraction, emotives, "
        "number substitution), as STEB order-alignment data.",
        bucket="feature",
        definitional=("linguistic_features", "content_independence"),
        counts={ORDER: SampleCount(3, 200, 600)},
        source_url="https://github.com/nlpsoc/STEL",
        license="MIT",
        raw_format="STEL quadruple TSV files (Data/STEL/characteristics|dimensions/*.tsv)",
        citation=STEL_CITATION,
    ),
    StebDataset(
        name="STEL_register",
        summary="STEL parallel sentence pairs for registers (formality, simplicity), as STEB "
        "order-alignment data.",
        bucket="register",
        definitional=("register", "content_independence"),
        counts={ORDER: SampleCount(2, 392, 784)},
        source_url="https://github.com/nlpsoc/STEL",
        license="MIT; the formality sample derives from GYAFC (Yahoo Answers) under the Yahoo "
        "Webscope terms (research use)",
        raw_format="STEL quadruple TSV files (Data/STEL/characteristics|dimensions/*.tsv)",
        citation=STEL_CITATION,
    ),
)


def _specs() -> list[DatasetSpec]:
    names = [d.name for d in STEB_DATASETS]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"STEB catalogue lists {sorted(duplicates)} twice")
    return [d.spec() for d in STEB_DATASETS]


register_catalogue(_specs)
