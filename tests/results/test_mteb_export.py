"""``stylebench results export --format mteb``: MTEB's own tables (``mteb.ResultCache``,
``to_dataframe``, ``join_revisions``, ``BenchmarkResults.to_dict/from_dict``, the
leaderboard's frame; the ``mteb`` extra pinned in requirements.lock) keep every (model,
revision, task, split, subset, main score) of a results repository of three models (two
real runs, one migrated from version 1), and the files pass the rules of MTEB's results
repository. The export refuses to write into the repository and never leaves a partial
export behind (issue 49 row 16)."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import mteb
import pytest
from click.testing import CliRunner

from evaluators.cli import cli
from evaluators.results.repository import iter_model_folders

Row = tuple[str, str, str, str, str, float]  # model, revision, task, split, subset, score


def _ours(root: Path) -> set[Row]:
    """Every (model, revision, task, split, subset, main score) of the repository, under
    the names the export gives them."""
    from evaluators.results.mteb_export import mteb_model_name, mteb_task_name

    return {
        (
            mteb_model_name(str(folder.meta["name"])),
            folder.meta.get("revision") or "no_revision_available",
            mteb_task_name(record),
            record.dataset.split or "test",
            record.dataset.config or "default",
            record.main_score,
        )
        for folder in iter_model_folders(root)
        for _, record in folder.records
    }


def _rows(results: mteb.BenchmarkResults) -> set[Row]:
    return {
        (m.model_name, m.model_revision, t.task_name, split, s["hf_subset"], s["main_score"])
        for m in results.model_results
        for t in m.task_results
        for split, scores in t.scores.items()
        for s in scores
    }


@pytest.fixture()
def exported(repo: Path, tmp_path: Path) -> tuple[Path, str]:
    out = tmp_path / "mteb-results"
    result = CliRunner().invoke(cli, ["results", "export", "--format", "mteb", str(repo), str(out)])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_mteb_reads_every_main_score_back(repo: Path, exported: tuple[Path, str]) -> None:
    out, output = exported
    assert "9 results of 3 model revisions" in output
    # non-Hub names are MTEB's organization/name, and the export says so
    assert "function-words is 'stylebench/function-words' in MTEB's files" in output
    assert "char-stats is 'stylebench/char-stats' in MTEB's files" in output
    loaded = mteb.ResultCache(cache_path=out).load_results(include_remote=False)
    ours = _ours(repo)
    assert len(ours) == 9 and _rows(loaded) == ours  # exact: the floats are written as recorded
    assert {t for _, _, t, *_ in ours} == {
        f"steb__pan23_style_change_{level}.predefined_pairs" for level in ("easy", "medium", "hard")
    }
    for model in loaded.model_results:
        assert model.model_revision == "no_revision_available"  # not None: MTEB's placeholder
        for task in model.task_results:
            level = task.task_name.split(".")[0].rsplit("_", 1)[1]
            assert task.eval_splits == ["test"] and task.hf_subsets == [level]
            assert task.languages == ["eng"] and task.evaluation_time is not None
            assert task.mteb_version == metadata.version("mteb")
    folder = out / "results/stylebench__stylometric/no_revision_available"
    meta = json.loads((folder / "model_meta.json").read_text())
    assert meta["name"] == "stylebench/stylometric" and meta["revision"] == "no_revision_available"
    assert meta["license"] == "mit" and meta["open_weights"] is True and "embed_dim" in meta


def test_mteb_tables_keep_every_row(repo: Path, exported: tuple[Path, str]) -> None:
    """Each MTEB table that dropped the models without a revision (13 of 20 rows on
    dd89bf4) or refused non-Hub names (to_dict/from_dict) keeps all of them."""
    out, _ = exported
    loaded = mteb.ResultCache(cache_path=out).load_results(include_remote=False)
    ours = _ours(repo)
    frame = loaded.to_dataframe(aggregation_level="subset", format="long")
    assert len(frame) == 9 and {
        (r.model_name, r.task_name, r.split, r.subset, r.score) for r in frame.itertuples()
    } == {(m, t, sp, su, s) for m, _, t, sp, su, s in ours}
    revised = loaded.to_dataframe(
        aggregation_level="subset", format="long", include_model_revision=True
    )
    assert set(revised["model_revision"]) == {"no_revision_available"} and len(revised) == 9
    assert _rows(loaded.join_revisions()) == ours
    again = mteb.BenchmarkResults.from_dict(loaded.to_dict())  # the leaderboard's cache format
    assert _rows(again) == ours
    board = loaded._to_results_df()  # the leaderboard's long frame
    assert (
        board.height == 9
        and {
            (
                r["model_name"],
                r["model_revision"],
                r["task_name"],
                r["split"],
                r["subset"],
                r["score"],
            )
            for r in board.iter_rows(named=True)
        }
        == ours
    )


def test_files_pass_the_results_repository_rules(exported: tuple[Path, str]) -> None:
    """The checks of MTEB's results repository (embeddings-benchmark/results tests): folder
    = name and revision of model_meta.json, an organisation in the name, MTEB > 2.0.0 in
    every result, score entry and run-settings line, a run-settings line for every
    (task, split, subset)."""
    from packaging.version import Version

    out, _ = exported
    metas = sorted((out / "results").glob("*/*/model_meta.json"))
    assert len(metas) == 3
    for meta_file in metas:
        meta = json.loads(meta_file.read_text())
        assert meta_file.parent.parent.name == meta["name"].replace("/", "__")
        assert meta_file.parent.name == meta["revision"] and "/" in meta["name"]
        covered = set()
        for line in (meta_file.parent / "run_settings.jsonl").read_text().splitlines():
            entry = json.loads(line)
            assert Version(entry["version"]["mteb"]) > Version("2.0.0")
            covered |= {
                (entry["task"], sp, su) for sp in entry["splits"] for su in entry["subsets"]
            }
        for path in meta_file.parent.glob("*.json"):
            if path.name == "model_meta.json":
                continue
            result = json.loads(path.read_text())
            assert path.stem == result["task_name"]
            assert Version(result["mteb_version"]) > Version("2.0.0")
            assert "kg_co2_emissions" in result and result["dataset_revision"]
            for split, entries in result["scores"].items():
                for entry in entries:
                    assert Version(entry["mteb_version"]) > Version("2.0.0")
                    assert (result["task_name"], split, entry["hf_subset"]) in covered


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("where", [".", "results", "results/x"])
def test_an_export_into_the_repository_is_refused(repo: Path, where: str) -> None:
    before = _files(repo)
    out = repo / where
    result = CliRunner().invoke(cli, ["results", "export", "--format", "mteb", str(repo), str(out)])
    assert result.exit_code != 0
    assert "would be written into the results repository" in str(result.exception)
    assert _files(repo) == before  # the repository's model_meta.json files are untouched


def test_a_full_disk_leaves_no_partial_export(repo: Path, tmp_path: Path) -> None:
    from dataset_scripts.core.errors import StylebenchError
    from evaluators.results.mteb_export import export_mteb
    from tests.faults.harness import enospc_writes

    out = tmp_path / "exports" / "mteb"
    out.parent.mkdir()
    with enospc_writes(out.parent, after_bytes=4000), pytest.raises(StylebenchError) as error:
        export_mteb(repo, out)
    assert "No space left on device" in str(error.value) and "nothing was written" in str(
        error.value
    )
    assert list(out.parent.iterdir()) == []  # no export, no staging folder
    # an earlier export stays as it was when the next one cannot be written
    export_mteb(repo, out)
    before = _files(out)
    with enospc_writes(out.parent, after_bytes=4000), pytest.raises(StylebenchError):
        export_mteb(repo, out)
    assert _files(out) == before and sorted(p.name for p in out.parent.iterdir()) == ["mteb"]


def test_training_datasets_as_a_string_is_refused(repo: Path, tmp_path: Path) -> None:
    from dataset_scripts.core.errors import DataError
    from evaluators.results.mteb_export import export_mteb

    path = repo / "results/stylometric/no_revision_available/model_meta.json"
    meta = json.loads(path.read_text())
    meta["training_datasets"] = "steb/ASSET"  # once exported as its sorted characters
    path.write_text(json.dumps(meta))
    with pytest.raises(DataError, match=r"model_meta.json: key 'training_datasets'.*list"):
        export_mteb(repo, tmp_path / "out")
    assert not (tmp_path / "out").exists()


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
        (
            tmp_path / "out/results/stylebench__stylometric/no_revision_available/model_meta.json"
        ).read_text()
    )
    assert exported["embed_dim"] == 384 and exported["training_datasets"] == ["steb/ASSET"]
    meta["framework"] = "NumPy"  # a list in MTEB's ModelMeta
    path.write_text(json.dumps(meta))
    reasons = [f.reason for f in validate_repository(repo).refusals]
    assert reasons == [
        "schema: key 'framework' is 'NumPy': it must be a list of framework names, as "
        "MTEB's ('Sentence Transformers', 'PyTorch', 'NumPy')"
    ]


def test_a_licence_mteb_does_not_know_is_named(repo: Path, tmp_path: Path) -> None:
    from dataset_scripts.core.errors import DataError
    from evaluators.results.mteb_export import export_mteb

    path = repo / "results/stylometric/no_revision_available/model_meta.json"
    meta = json.loads(path.read_text())
    meta["license"] = "CC BY 4.0 (research use)"
    path.write_text(json.dumps(meta))
    with pytest.raises(DataError, match=r"model_meta.json: MTEB refuses it: key 'license'"):
        export_mteb(repo, tmp_path / "out")


def test_model_names_as_mteb_names_them() -> None:
    from evaluators.results.mteb_export import mteb_model_name

    assert mteb_model_name("mteb:sentence-transformers/all-MiniLM-L6-v2") == (
        "sentence-transformers/all-MiniLM-L6-v2"
    )  # loaded through MTEB's registry: MTEB's own name
    assert mteb_model_name("org/model") == "org/model"
    assert mteb_model_name("function-words") == "stylebench/function-words"
    assert mteb_model_name("st:/data/ckpt") == "stylebench/st__data__ckpt"
    assert mteb_model_name("hf:org/model") == "stylebench/hf__org__model"


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
