"""STEB's datasets (paper App. C, Tables 10, 13 and 15): how one is declared, and the
catalogue of all of them.

Each STEB builder module declares its datasets next to its build functions, in the
module's ``DATASETS`` tuple (the registry's one idiom), with :func:`steb_dataset`::

    DATASETS = (
        steb_dataset(
            name="STEL_feature",  # the Table 15 name; hub id steb/STEL_feature
            summary="...", bucket="feature", definitional=("linguistic_features",),
            counts={ORDER: SampleCount(3, 200, 600)},
            source_url="...", license="MIT", raw_format="...", citation=STEL_CITATION,
            builder=build_feature, protocol=PROTOCOL, raw_hint="STEL",
        ),
    )

:func:`steb_datasets` collects them (the 96 of Table 15; with ``multilingual=True`` also
the 17 non-English PAN sets of Sec. 5.3): the registry, ``stylebench list datasets``,
every dataset card and the STEB scores read this one declaration.

Hub repos follow the source releases (:data:`RELEASES`): where STEB splits one release
into several datasets, they are the configs of one repo (``pan23_style_change_easy`` is
config ``easy`` of ``steb/pan23_style_change``); a dataset that is a release of its own is
its own repo, its one config named for its schema. The mapping is declared here once, by
name pattern.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from dataset_scripts.core.schemas import (  # noqa: F401 - task-type names, re-exported
    ALL_TO_ALL,
    CLUSTERING,
    ORDER,
    PREDEFINED,
    PROBING,
    RETRIEVAL,
)
from dataset_scripts.core.spec import Builder, DatasetSpec, SampleCount, StebInfo
from dataset_scripts.steb import STEB_CITATION

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


NOT_STATED = "not stated by STEB or the source page; check the source before redistribution"


def clustering_counts(classes: int, per_class: int) -> dict[str, SampleCount]:
    """Table 15 rows shared by clustering and all-to-all pair classification."""
    count = SampleCount(classes, per_class, classes * per_class)
    return {CLUSTERING: count, ALL_TO_ALL: count}


def predefined_counts(trials: int) -> dict[str, SampleCount]:
    """The Table 15 row of a predefined-pairs set: ``trials`` pairs of two texts."""
    return {PREDEFINED: SampleCount(trials, 2, 2 * trials)}


def probing_counts(records: int) -> dict[str, SampleCount]:
    """The Table 15 row of a probing set: 46 features over ``records`` texts."""
    return {PROBING: SampleCount(46, records, records)}


def steb_dataset(
    *,
    name: str,
    summary: str,
    bucket: str,
    definitional: tuple[str, ...],
    counts: Mapping[str, SampleCount],
    source_url: str,
    license: str,
    raw_format: str,
    builder: Builder,
    protocol: str,
    citation: str = "",
    raw_hint: str = "",
    needs_raw: bool = True,
    language: tuple[str, ...] = ("en",),
    task_types: tuple[str, ...] = (),
    in_steb_96: bool = True,
    application: str = "",
    difficulty: str = "",
    unit: str = "",
    problem_prefixes: tuple[str, ...] | None = None,
    note: str = "",
) -> DatasetSpec:
    """The declaration of one STEB dataset ``steb/<name>``.

    ``name`` is its name in Table 15, ``bucket`` its Table 10 attribute (feature, dialect,
    register, genre, time, demographics, authorship), ``definitional`` the Table 13
    clusters it counts towards, ``counts`` its Table 15 row per task type (empty for a set
    outside the 96, whose ``task_types`` are then given); ``citation`` is the source
    corpus's BibTeX (STEB's is added). The release repo and config come from
    :data:`RELEASES`.
    """
    found = release_of(name)
    return DatasetSpec(
        hub_id=STEB_ORG + name,
        pretty_name=f"STEB {name}",
        summary=summary,
        builder=builder,
        license=license,
        source_url=source_url,
        citation=(citation.strip() + "\n" + STEB_CITATION).strip(),
        raw_format=raw_format,
        protocol=protocol,
        language=language,
        needs_raw=needs_raw,
        raw_hint=raw_hint,
        task_types=task_types or tuple(counts),
        steb=StebInfo(
            bucket=bucket,
            definitional=definitional,
            table15=dict(counts),
            in_steb_96=in_steb_96,
            application=application,
            difficulty=difficulty,
            unit=unit,
            problem_prefixes=problem_prefixes,
            note=note,
        ),
        repo_id=found[0] if found else "",
        config=found[1] if found else "",
    )


def steb_datasets(*, multilingual: bool = False) -> list[DatasetSpec]:
    """Every declared STEB dataset of the 96 (with ``multilingual``, also the non-English
    sets outside them), in declaration order."""
    from dataset_scripts.registry import all_datasets

    return [
        s
        for s in all_datasets().values()
        if s.steb is not None and (multilingual or s.steb.in_steb_96)
    ]
