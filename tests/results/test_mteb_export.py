"""``stylebench results export --format mteb``: MTEB's own loader (``mteb.ResultCache``,
the ``mteb`` test extra pinned in requirements.lock) reads the export of a results
repository of three models (two real runs, one migrated from version 1), and every
(model, revision, task, main score) comes back equal to the repository's records."""

from __future__ import annotations

import json
from pathlib import Path

import mteb
import pytest
from click.testing import CliRunner

from evaluators.cli import cli
from evaluators.results.repository import iter_model_folders


def _ours(root: Path) -> dict[tuple[str, str | None, str], float]:
    from evaluators.results.mteb_export import mteb_task_name

    return {
        (str(folder.meta["name"]), folder.meta.get("revision"), mteb_task_name(record)): (
            record.main_score
        )
        for folder in iter_model_folders(root)
        for _, record in folder.records
    }


def test_mteb_reads_every_main_score_back(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "mteb-results"
    result = CliRunner().invoke(cli, ["results", "export", "--format", "mteb", str(repo), str(out)])
    assert result.exit_code == 0, result.output
    assert "9 results of 3 model revisions" in result.output

    loaded = mteb.ResultCache(cache_path=out).load_results(include_remote=False)
    theirs = {
        (model.model_name, model.model_revision, task.task_name): task.get_score()
        for model in loaded.model_results
        for task in model.task_results
    }
    ours = _ours(repo)
    assert len(ours) == 9 and theirs == ours  # exact: the floats are written as recorded
    assert {t for _, _, t in ours} == {
        f"steb__pan23_style_change_{level}.predefined_pairs" for level in ("easy", "medium", "hard")
    }
    # the split, subset and languages of each score, and the model metadata, as MTEB reads them
    for model in loaded.model_results:
        for task in model.task_results:
            level = task.task_name.split(".")[0].rsplit("_", 1)[1]
            assert task.eval_splits == ["test"] and task.hf_subsets == [level]
            assert task.languages == ["eng"] and task.evaluation_time is not None
    folder = out / "results/stylometric/no_revision_available"
    meta = json.loads((folder / "model_meta.json").read_text())
    assert meta["license"] == "mit" and meta["open_weights"] is True and "embed_dim" in meta
    settings = [
        json.loads(line) for line in (folder / "run_settings.jsonl").read_text().splitlines()
    ]
    assert sorted(s["task"] for s in settings) == sorted(
        t for m, _, t in ours if m == "stylometric"
    )
    assert all(s["splits"] == ["test"] and s["stylebench_run"]["seed"] == 42 for s in settings)


def test_old_model_meta_names_are_migrated_on_read(repo: Path, tmp_path: Path) -> None:
    from evaluators.results.mteb_export import export_mteb
    from evaluators.results.validate import validate_repository

    path = repo / "results/stylometric/no_revision_available/model_meta.json"
    meta = json.loads(path.read_text())
    assert "embed_dim" in meta and "training_datasets" in meta and "embedding_dim" not in meta
    meta["embedding_dim"] = 384
    meta["training_data"] = ["steb/ASSET"]
    del meta["embed_dim"], meta["training_datasets"]
    path.write_text(json.dumps(meta))  # a model_meta.json written before MTEB's names
    assert validate_repository(repo).ok
    export_mteb(repo, tmp_path / "out")
    exported = json.loads(
        (tmp_path / "out/results/stylometric/no_revision_available/model_meta.json").read_text()
    )
    assert exported["embed_dim"] == 384 and exported["training_datasets"] == ["steb/ASSET"]
    meta["framework"] = "NumPy"  # a list in MTEB's ModelMeta
    path.write_text(json.dumps(meta))
    reasons = [f.reason for f in validate_repository(repo).refusals]
    assert reasons == [
        "schema: key 'framework' is 'NumPy': it must be a list of framework names, as "
        "MTEB's ('Sentence Transformers', 'PyTorch', 'NumPy')"
    ]


def test_every_registry_language_has_its_mteb_form() -> None:
    from dataset_scripts.registry import all_datasets
    from evaluators.records.languages import mteb_language

    codes = {c for spec in all_datasets().values() for c in spec.language}
    assert {mteb_language(c) for c in codes} >= {"eng-Latn", "ell-Grek"}
    with pytest.raises(ValueError, match="'xx'"):
        mteb_language("xx")


def test_names_that_are_not_folders_and_unknown_languages_are_refused(repo: Path) -> None:
    from dataset_scripts.core.errors import DataError
    from evaluators.results.mteb_export import mteb_model_folder, task_result

    assert mteb_model_folder("sentence-transformers/all-MiniLM-L6-v2") == (
        "sentence-transformers__all-MiniLM-L6-v2"
    )  # MTEB's ModelMeta.model_name_as_path
    for hostile in ("../../etc", ".hidden", "a\\b", "x\x00y"):
        with pytest.raises(DataError, match="MTEB model folder"):
            mteb_model_folder(hostile)
    (folder,) = [f for f in iter_model_folders(repo) if f.meta["name"] == "stylometric"]
    _, record = folder.records[0]
    record.dataset.languages, record.dataset.id, record.dataset.repo = [], "org/unknown", ""
    with pytest.raises(DataError, match=r"org/unknown .*no languages recorded"):
        task_result(record)
    record.dataset.languages = ["eng-Latn"]
    record.metrics["hf_subset"] = 1.0
    with pytest.raises(DataError, match=r"metric names \['hf_subset'\] are MTEB's"):
        task_result(record)
