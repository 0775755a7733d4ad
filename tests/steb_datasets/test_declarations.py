"""One declaration per dataset, read from its builder module: every builder has one,
every declaration is what the registry, the listing, the cards and the STEB scores read,
and adding a STEB dataset is one new module (written here into a temporary folder)."""

from __future__ import annotations

import importlib
import inspect
import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import dataset_scripts.steb
from dataset_scripts import registry
from dataset_scripts.build import build_dataset
from dataset_scripts.core.spec import BuildResult, DatasetSpec
from dataset_scripts.registry import all_datasets, declaring_modules
from dataset_scripts.steb.catalog import steb_datasets
from evaluators.benchmark_folders import benchmark_datasets
from evaluators.cli import cli
from evaluators.steb_scores import results as steb_results


def _builders(module: object) -> set[str]:
    """Top-level functions of a module that return a BuildResult (its build scripts)."""
    return {
        name
        for name, value in vars(module).items()
        if inspect.isfunction(value)
        and value.__module__ == module.__name__  # type: ignore[attr-defined]
        and name.startswith("build")
        and inspect.signature(value).return_annotation in ("BuildResult", BuildResult)
    }


def test_every_build_function_is_declared_and_every_declaration_is_registered() -> None:
    datasets = all_datasets()
    declared: list[DatasetSpec] = []
    for name in declaring_modules():
        module = importlib.import_module(name)
        specs = list(getattr(module, "DATASETS", ()))
        declared += specs
        named = {s.builder.__name__ for s in specs if s.builder is not None}
        # a module's build function (taking only the raw path) that no declaration names
        # is a dataset someone forgot to declare
        lonely = {
            f
            for f in _builders(module) - named
            if list(inspect.signature(getattr(module, f)).parameters) == ["raw"]
        }
        assert not lonely, f"{name}: build functions without a declaration: {sorted(lonely)}"
    assert [s.hub_id for s in declared] == list(datasets)  # each declaration, once
    for spec in declared:
        assert datasets[spec.hub_id] is spec
        assert spec.builder is not None and spec.protocol, spec.hub_id
        annotation = inspect.signature(spec.builder).return_annotation
        assert annotation in ("BuildResult", BuildResult), (spec.hub_id, annotation)


def test_steb_declarations_are_the_96_and_17_multilingual_sets() -> None:
    everything = steb_datasets(multilingual=True)
    the_96 = steb_datasets()
    assert len(the_96) == 96 and len(everything) == 96 + 17
    assert Counter(t for s in the_96 for t in s.task_types) == {
        "clustering": 53,  # 24 style-attribute sets + 29 AI-text detection
        "all_to_all_pairs": 24,
        "predefined_pairs": 25,
        "order_alignment": 11,
        "retrieval": 4,
        "probing": 4,
    }
    for spec in everything:
        assert spec.hub_id.startswith("steb/") and spec.steb is not None
        assert spec.citation.rstrip().endswith("}")  # STEB's own BibTeX is appended
        assert set(spec.steb.table15) == (set(spec.task_types) if spec.steb.in_steb_96 else set())
    # the scores read the same objects, not a copy
    assert list(steb_results.catalogue().values()) == the_96
    assert all(a is b for a, b in zip(steb_results.catalogue().values(), the_96, strict=True))


def test_every_declared_dataset_is_listed() -> None:
    result = CliRunner().invoke(cli, ["list", "datasets", "--format", "json"])
    assert result.exit_code == 0, result.output
    listed = [row["dataset"] for row in json.loads(result.output)]
    assert sorted(listed) == sorted(all_datasets())
    assert set(benchmark_datasets("steb")) >= {s.hub_id for s in steb_datasets(multilingual=True)}


NEW_MODULE = """
from pathlib import Path

from dataset_scripts.core.spec import BuildResult
from dataset_scripts.steb.catalog import CLUSTERING, SampleCount, steb_dataset


def build(raw: Path | None) -> BuildResult:
    rows = [
        {"id": f"r{i}", "text": f"text {i}", "label": "ab"[i % 2]} for i in range(4)
    ]
    return BuildResult({"labelled_texts": {"test": rows}}, {"too short": 1})


DATASETS = (
    steb_dataset(
        name="zz_new_dataset",
        summary="A dataset added by writing one module.",
        bucket="genre",
        definitional=("genre",),
        counts={CLUSTERING: SampleCount(2, 2, 4)},
        source_url="https://example.org/zz",
        license="CC0",
        raw_format="none",
        builder=build,
        protocol="Four rows written by the test.",
        needs_raw=False,
    ),
)
"""


@pytest.fixture
def one_new_module(tmp_path: Path):
    """A new builder module in a folder added to the ``dataset_scripts.steb`` package."""
    folder = tmp_path / "more_steb"
    folder.mkdir()
    (folder / "zz_new_dataset.py").write_text(NEW_MODULE, encoding="utf-8")
    dataset_scripts.steb.__path__.append(str(folder))
    registry.declared_datasets.cache_clear()
    steb_results.catalogue.cache_clear()
    yield
    dataset_scripts.steb.__path__.remove(str(folder))
    sys.modules.pop("dataset_scripts.steb.zz_new_dataset", None)
    registry.declared_datasets.cache_clear()
    steb_results.catalogue.cache_clear()


def test_adding_a_steb_dataset_is_one_module(one_new_module, tmp_path: Path) -> None:
    spec = all_datasets()["steb/zz_new_dataset"]
    assert spec in steb_datasets() and len(steb_datasets()) == 97
    assert "steb/zz_new_dataset" in steb_results.catalogue()  # scores see it
    assert "steb/zz_new_dataset" in benchmark_datasets("definitional")
    listed = CliRunner().invoke(cli, ["list", "datasets", "--format", "json"])
    assert "steb/zz_new_dataset" in [row["dataset"] for row in json.loads(listed.output)]
    folder, dropped = build_dataset(spec, None, tmp_path / "built")
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert dropped == {"too short": 1}
    assert "- Attribute (paper Table 10): genre" in card
    assert "| clustering | 2 | 2 | 4 | 4 |" in card


def test_a_builder_returning_a_bare_tuple_is_refused(tmp_path: Path) -> None:
    from dataclasses import replace

    spec = replace(
        all_datasets()["stylebench/demo"], builder=lambda raw: ({"x": {}}, {}), needs_raw=False
    )
    with pytest.raises(TypeError, match="not a BuildResult"):
        build_dataset(spec, None, tmp_path / "out")


def test_task_type_names_have_one_home() -> None:
    from dataset_scripts.core import schemas
    from dataset_scripts.steb import catalog
    from evaluators.steb_scores.reference import OPERATIONAL_TASKS
    from evaluators.tasks import EVALUATORS
    from evaluators.tasks.facts import TASK_FACTS

    assert list(EVALUATORS) == list(schemas.TASK_TYPES) == list(OPERATIONAL_TASKS)
    assert list(TASK_FACTS) == list(schemas.TASK_TYPES)
    for name in ("CLUSTERING", "ALL_TO_ALL", "PREDEFINED", "ORDER", "RETRIEVAL", "PROBING"):
        assert getattr(catalog, name) is getattr(schemas, name)
    declared = {t for spec in all_datasets().values() for t in spec.task_types}
    assert declared <= set(schemas.TASK_TYPES)
