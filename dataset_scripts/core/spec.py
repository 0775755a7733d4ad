"""The typed declaration of one dataset (:class:`DatasetSpec`, with the STEB part
:class:`StebInfo`), the builder signature and its one result type (:class:`BuildResult`),
and the one rule from a Hub id to a local folder name (:func:`folder_name`): the
vocabulary that the registry, the Hub-folder writer, the card renderer and the scores
share."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

# {config: {split: rows}}
Tables = dict[str, dict[str, list[dict[str, Any]]]]


class BuildResult(NamedTuple):
    """What a builder returns: ``tables`` (``{config: {split: rows}}``) and ``dropped``,
    the build report ``{reason: count}`` of rows dropped (never silently)."""

    tables: Tables
    dropped: dict[str, int]


# A builder reads the raw download at ``raw`` (None for one that needs none).
Builder = Callable[[Path | None], BuildResult]


def folder_name(hub_id: str) -> str:
    """The local folder of a Hub repo id: ``steb/STEL`` -> ``steb__STEL`` (``built/<it>``)."""
    return hub_id.replace("/", "__")


def hub_id_of_folder(name: str) -> str:
    """The inverse of :func:`folder_name` (``steb__STEL`` -> ``steb/STEL``)."""
    owner, sep, rest = name.partition("__")
    return f"{owner}/{rest}" if sep else name


@dataclass(frozen=True)
class SampleCount:
    """One row of STEB's Table 15: classes (or trials, groups, authors, features), samples
    per class and total texts, for one task type."""

    classes: int
    per_class: int
    total: int


@dataclass(frozen=True)
class StebInfo:
    """What STEB says about one of its datasets (paper App. C, Tables 10, 13 and 15).

    ``table15`` is empty for a dataset outside the 96 (the multilingual PAN sets), whose
    counts the paper does not give; ``application`` is the Table 4 application column
    (``AV``, ``AR``, ``ATD``, ``ATD (Adv.)``) where there is one.
    """

    bucket: str  # Table 10: feature, dialect, register, genre, time, demographics, authorship
    definitional: tuple[str, ...] = ()  # Table 13 clusters the dataset counts towards
    table15: Mapping[str, SampleCount] = field(default_factory=dict)  # task type -> row
    in_steb_96: bool = True
    application: str = ""
    difficulty: str = ""  # PAN style change: easy / medium / hard, or n/a
    unit: str = ""  # PAN style change: paragraph or sentence
    problem_prefixes: tuple[str, ...] | None = None  # PAN13-15 AV: problems of one language
    note: str = ""  # how a field was read off the paper (bucket, probing features)


@dataclass(frozen=True)
class DatasetSpec:
    """Everything known about one dataset: card metadata and its builder.

    ``builder`` is ``None`` only for a spec that is not built by a registered script (a
    release repo's card, ``stylebench build --from`` data). ``task_types`` are the tasks it
    serves (listed and filtered by ``stylebench list datasets``); ``steb`` holds the STEB
    paper's metadata of a STEB dataset, ``table_name`` the name a paper's tables give it
    (Valla), ``run_command`` / ``build_command`` the card's commands when they are not the
    default ``stylebench run`` / ``stylebench build``.
    """

    hub_id: str
    pretty_name: str
    summary: str
    builder: Builder | None
    license: str
    source_url: str
    citation: str
    raw_format: str
    protocol: str = ""
    language: tuple[str, ...] = ("en",)
    needs_raw: bool = True
    raw_hint: str = ""  # folder name under ../shared/corpora, when available there
    task_types: tuple[str, ...] = ()
    steb: StebInfo | None = None
    table_name: str = ""
    run_command: str = ""
    build_command: str = ""
    # The Hub repo holding this dataset and its config there. Empty: the dataset is its own
    # repo (``hub_id``) whose configs are named for their schemas (``labelled_texts``, ...).
    # Set for a STEB dataset that is one of several of a source release
    # (:func:`dataset_scripts.steb.catalog.release_of`): ``steb/pan23_style_change_easy``
    # is config ``easy`` of the repo ``steb/pan23_style_change``.
    repo_id: str = ""
    config: str = ""
    # For a protocol that reports its own build (ARB: this build's composition and quality
    # flags): the card's protocol text and extra build-info keys, computed from the tables
    # written ({config: {split: rows}}) by whichever command writes them; None: ``protocol``.
    describe_build: Callable[[Tables], tuple[str, dict[str, Any]]] | None = None

    @property
    def repo(self) -> str:
        """The Hub repo (and local build folder) this dataset lives in."""
        return self.repo_id or self.hub_id

    @property
    def slug(self) -> str:
        """Folder name of the repo's local build (``built/<org>__<name>``)."""
        return folder_name(self.repo)

    @property
    def load_call(self) -> str:
        """The ``load_dataset`` call that reads this dataset."""
        if self.config:
            return f'load_dataset("{self.repo}", "{self.config}")'
        return f'load_dataset("{self.repo}")'
