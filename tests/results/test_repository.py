"""The results repository end to end: three models (two real runs on a built STEB
release, one migrated from the version-1 JSON layout), validated, tabled; six
refusals; submission to a bare git remote and to the Hub (a recorder of HfApi calls);
the Hub eval results (``.eval_results`` and ``eval.yaml``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from sklearn.metrics import roc_auc_score

from evaluators.cli import cli
from evaluators.records.items import arrays_of
from evaluators.results.repository import RepoTarget, add_run, open_repo, resolve_repo
from evaluators.results.table import COLUMNS, benchmark_scores, results_table
from evaluators.results.validate import validate_repository
from tests.results.conftest import REPO
from tests.results.conftest import git as _git


def _reasons(report) -> list[str]:
    return [f"{f.path}: {f.reason}" for f in report.refusals]


def test_three_models_validate_and_table_equals_the_files(repo: Path) -> None:
    report = validate_repository(repo)
    assert report.ok, _reasons(report)
    assert report.n_models == 3 and report.n_records == 9
    # the migrated record keeps no per-item data: a warning naming it, not a refusal
    warned = [f for f in report.warnings if "migrated version-1" in f.reason]
    assert len(warned) == 3 and all("/char-stats/" in f.path for f in warned)
    assert all("held unchanged by the base, git HEAD" in f.reason for f in warned)
    assert report.base == "git HEAD"

    table = results_table(repo)
    assert list(table.columns) == list(COLUMNS)
    assert set(table["model"]) == {"function-words", "stylometric", "char-stats"}
    # recomputed from the JSON files alone: every metric, once per benchmark holding it
    expected = {}
    for path in sorted((repo / "results").glob("*/*/*/*.json")):
        payload = json.loads(path.read_text())
        assert payload["schema_version"] == 2
        main = payload["main_score"]
        if payload["items"] is not None:  # the AUC from the pairs, by scikit-learn
            arrays = arrays_of(payload["items"])
            main = roc_auc_score(arrays["labels"].astype(int), arrays["scores"])
            assert main == pytest.approx(payload["main_score"], abs=1e-12)
        for metric, value in payload["metrics"].items():
            is_main = metric == payload["main_score_name"]
            expected[(payload["model"]["name"], payload["dataset"]["id"], metric)] = (
                main if is_main else value,
                is_main,
            )
    got_benchmarks = set()
    for row in table.itertuples():
        value, is_main = expected[(row.model, row.dataset, row.metric)]
        assert row.value == pytest.approx(value, abs=1e-9) and row.is_main == is_main
        got_benchmarks.add((row.benchmark, row.benchmark_version))
    per_benchmark = {"STEB", "STEB-operational", "STEB-definitional", "STEB-application"}
    assert got_benchmarks == {(b, "v1") for b in per_benchmark}
    assert len(table) == len(expected) * len(per_benchmark)
    stylo = table[table["model"] == "stylometric"]
    assert stylo["open_weights"].all() and (stylo["embedding_dim"] == 78).all()
    assert table[table["model"] == "char-stats"]["open_weights"].isna().all()
    ci = table[(table["model"] == "function-words") & table["is_main"]]
    assert ci["ci_low"].notna().all() and (ci["ci_low"] <= ci["value"]).all()
    # aggregates only over complete rows: three datasets of 138 units leave STEB blank
    scores = benchmark_scores(table)
    steb = scores[scores["benchmark"] == "STEB"]
    assert steb["score"].isna().all() and set(steb["covered"]) == {3}
    assert set(steb["total"]) == {138} and not steb["complete"].any()


def test_cli_add_validate_table(runs: dict[str, Path], tmp_path: Path) -> None:
    repo = tmp_path / "r"
    runner = CliRunner()
    added = runner.invoke(cli, ["results", "add", str(runs["v1"]), "--repo", str(repo)])
    assert added.exit_code == 0, added.output
    assert "3 added, 0 replaced (3 migrated from version 1)" in added.output
    # migrated records whose scores cannot be re-derived: refused unless the base held them
    refused = runner.invoke(cli, ["results", "validate", "--repo", str(repo)])
    assert refused.exit_code != 0 and "3 refused" in refused.output, refused.output
    assert refused.output.count("accepted only when the base (--base) already held it") == 3
    base = tmp_path / "base"
    shutil.copytree(repo, base)
    ok = runner.invoke(cli, ["results", "validate", "--repo", str(repo), "--base", str(base)])
    assert ok.exit_code == 0 and "0 refused, 3 warnings" in ok.output, ok.output
    out = tmp_path / "t.parquet"
    tabled = runner.invoke(cli, ["results", "table", "--repo", str(repo), "--out", str(out)])
    assert tabled.exit_code == 0, tabled.output
    import pandas as pd

    assert pd.read_parquet(out).equals(results_table(repo))


# ------------------------------------------------------------------------------ refusals


def _one_record(repo: Path, model: str = "function-words") -> Path:
    return sorted((repo / "results" / model).glob("*/*/*.json"))[0]


def test_refuses_a_tampered_score(repo: Path) -> None:
    path = _one_record(repo)
    payload = json.loads(path.read_text())
    name = payload["main_score_name"]
    payload["main_score"] = payload["metrics"][name] = payload["main_score"] + 0.01
    path.write_text(json.dumps(payload))
    reasons = _reasons(validate_repository(repo))
    assert len(reasons) == 1 and "tampered score" in reasons[0]
    assert reasons[0].startswith(str(path.relative_to(repo)))
    assert "re-derived from its per-item data" in reasons[0]


def test_refuses_a_missing_run_setting(repo: Path) -> None:
    settings = repo / "results/stylometric/no_revision_available/run_settings.json"
    payload = json.loads(settings.read_text())
    del payload["seed"]
    settings.write_text(json.dumps(payload))
    path = _one_record(repo)
    record = json.loads(path.read_text())
    del record["run"]["protocol"]
    path.write_text(json.dumps(record))
    reasons = _reasons(validate_repository(repo))
    assert f"{settings.relative_to(repo)}: missing run setting 'seed'" in reasons
    assert (
        f"{path.relative_to(repo)}: missing run setting 'protocol' in the record's run block"
        in reasons
    )
    assert len(reasons) == 2


def test_refuses_a_wrong_folder(repo: Path) -> None:
    path = _one_record(repo)
    moved = path.parent.parent / "steb__pan23_style_change_easy" / "x" / path.name
    wrong = path.parent.parent / "steb__pan23_style_change_other" / path.name
    wrong.parent.mkdir()
    shutil.move(path, wrong)
    reasons = _reasons(validate_repository(repo))
    assert len(reasons) == 1 and "wrong folder: record of dataset" in reasons[0], reasons
    assert "belongs under 'steb__pan23_style_change_" in reasons[0] and not moved.exists()


def test_refuses_a_duplicate(repo: Path) -> None:
    """The same encoder's results under a second model name."""
    source = repo / "results" / "function-words"
    copy = repo / "results" / "stylebench__function-words"
    shutil.copytree(source, copy)
    meta_path = copy / "no_revision_available" / "model_meta.json"
    meta = json.loads(meta_path.read_text())
    meta["name"] = "stylebench/function-words"
    meta_path.write_text(json.dumps(meta))
    reasons = _reasons(validate_repository(repo))
    assert len(reasons) == 3 and all("duplicate of results/" in r for r in reasons), reasons


def test_refuses_an_unknown_benchmark_version(repo: Path) -> None:
    settings = repo / "results/char-stats/no_revision_available/run_settings.json"
    payload = json.loads(settings.read_text())
    payload["benchmark_version"] = "v9"
    settings.write_text(json.dumps(payload))
    reasons = _reasons(validate_repository(repo))
    assert len(reasons) == 1 and "unknown benchmark version 'STEB(v9)'" in reasons[0]
    assert reasons[0].startswith(str(settings.relative_to(repo)))


def test_refuses_a_removed_result(repo: Path, tmp_path: Path) -> None:
    base = tmp_path / "base"
    shutil.copytree(repo, base)
    gone = _one_record(repo, "char-stats")
    gone.unlink()
    report = validate_repository(repo, str(base))
    reasons = _reasons(report)
    assert reasons == [
        f"{gone.relative_to(repo)}: removed result: present in the base ({base}), absent here"
    ]
    result = CliRunner().invoke(
        cli, ["results", "validate", "--repo", str(repo), "--base", str(base)]
    )
    assert result.exit_code != 0 and "removed result" in result.output


def test_a_removed_model_revision_is_one_refusal_besides_its_results(
    repo: Path, tmp_path: Path
) -> None:
    """#45: model_meta.json and run_settings.json are not results: a model revision folder
    gone is "removed model revision" once, beside each of its results."""
    base = tmp_path / "base"
    shutil.copytree(repo, base)
    folder = repo / "results/stylometric/no_revision_available"
    records = sorted(p.relative_to(repo).as_posix() for p in folder.glob("*/*.json"))
    shutil.rmtree(repo / "results/stylometric")
    reasons = _reasons(validate_repository(repo, str(base)))
    rel = folder.relative_to(repo).as_posix()
    assert reasons == [
        f"{r}: removed result: present in the base ({base}), absent here" for r in records
    ] + [f"{rel}: removed model revision: present in the base ({base}) with 3 results, absent here"]
    assert not any("model_meta.json" in r or "run_settings.json" in r for r in reasons)
    # a model_meta.json gone from a folder still there: "missing", not "removed result"
    shutil.copytree(base / "results/stylometric", repo / "results/stylometric")
    (folder / "model_meta.json").unlink()
    reasons = _reasons(validate_repository(repo, str(base)))
    assert reasons[0] == f"{rel}/model_meta.json: missing (every model revision folder has one)"
    assert not any("removed" in r for r in reasons)


# ------------------------------------------------------------------------------ submit


def test_submit_to_a_bare_git_remote(runs: dict[str, Path], tmp_path: Path) -> None:
    remote = tmp_path / "results.git"
    _git("init", "--bare", "--quiet", str(remote))
    work = tmp_path / "work"
    runner = CliRunner()
    added = runner.invoke(
        cli, ["results", "add", str(runs["real"]), "--repo", str(remote), "--workdir", str(work)]
    )
    assert added.exit_code == 0, added.output
    dry = runner.invoke(
        cli, ["results", "submit", "--repo", str(remote), "--workdir", str(work), "--dry-run"]
    )
    assert dry.exit_code == 0 and "dry run: nothing sent" in dry.output, dry.output
    assert _git("--git-dir", str(remote), "branch", "--list") == ""  # nothing pushed
    sent = runner.invoke(
        cli,
        ["results", "submit", "--repo", str(remote), "--workdir", str(work), "--branch", "sub/fw"],
    )
    assert sent.exit_code == 0, sent.output
    files = _git("--git-dir", str(remote), "ls-tree", "-r", "--name-only", "sub/fw").split()
    planned = [line.strip() for line in dry.output.splitlines() if line.startswith("  results/")]
    assert files == sorted(planned) and len(files) == 2 * (3 + 2)  # 3 records + 2 files each
    log = _git("--git-dir", str(remote), "log", "--format=%s", "sub/fw").splitlines()
    assert log == ["stylebench results: function-words, stylometric"]


def test_submit_to_the_hub_opens_a_pull_request(runs: dict[str, Path], tmp_path: Path) -> None:
    from evaluators.results.submit import plan_submission, submit_hub

    target = open_repo("someone/style-results", tmp_path / "staging", hub=True)
    assert target.kind == "hub"
    add_run(runs["real"], target.root, model="function-words")
    calls: list[dict[str, Any]] = []

    class Recorder:
        def create_commit(self, **kwargs: Any) -> str:
            calls.append(kwargs)
            return "https://huggingface.co/datasets/someone/style-results/discussions/1"

    plan = plan_submission(resolve_repo("someone/style-results", tmp_path / "staging", hub=True))
    assert submit_hub(plan, api=Recorder()).endswith("/discussions/1")
    (call,) = calls
    assert call["create_pr"] is True and call["repo_type"] == "dataset"
    assert call["repo_id"] == "someone/style-results"
    sent = [op.path_in_repo for op in call["operations"]]
    assert sent == list(plan.files) and len(sent) == 3 + 2
    assert all(Path(op.path_or_fileobj).is_file() for op in call["operations"])


def test_submit_refuses_an_invalid_submission(runs: dict[str, Path], tmp_path: Path) -> None:
    from evaluators.results.submit import SubmissionRefused, plan_submission, submit_hub

    target = RepoTarget("hub", "someone/x", tmp_path / "staging", "someone/x")
    add_run(runs["v1"], target.root)
    (target.root / "results/char-stats/no_revision_available/run_settings.json").unlink()
    with pytest.raises(SubmissionRefused, match="missing run settings"):
        submit_hub(plan_submission(target), api=object())


# ------------------------------------------------------------------------------ Hub


def test_model_results_dry_run_prints_valid_eval_results(repo: Path, runs: dict[str, Path]) -> None:
    from evaluators.publish import plan_push

    result = CliRunner().invoke(
        cli,
        ["push", "--kind", "model-results", str(repo), "--model", "stylometric",
         "--repo-id", "someone/stylometric", "--dry-run"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "repo type: model" in result.output and "  .eval_results/STEB_v1.yaml" in result.output
    text = result.output.split("  .eval_results/STEB_v1.yaml\n", 1)[1].split("\n1 files")[0]
    entries = yaml.safe_load(text)
    stored = {
        (p.parent.name, p.stem): json.loads(p.read_text())
        for p in (repo / "results/stylometric").glob("*/*/*.json")
    }
    assert len(entries) == len(stored) == 3
    # every entry names a task of its dataset's eval.yaml (written by the dataset push)
    plan = plan_push(str(runs["built"]))
    assert "eval.yaml" in plan.files and not (runs["built"] / "eval.yaml").exists()
    eval_yaml = yaml.safe_load(dict(plan.generated)["eval.yaml"])
    tasks = {t["id"] for t in eval_yaml["tasks"]}
    assert tasks == {f"{level}_predefined_pairs" for level in ("easy", "medium", "hard")}
    assert all(t["split"] == "test" and t["config"] in t["id"] for t in eval_yaml["tasks"])
    assert eval_yaml["evaluation_framework"] == "stylebench"
    for entry in entries:
        assert set(entry) == {"dataset", "value", "date", "notes"}  # a folder: no source url
        assert entry["dataset"]["id"] == REPO and entry["dataset"]["task_id"] in tasks
        level = entry["dataset"]["task_id"].split("_")[0]
        record = stored[(f"steb__pan23_style_change_{level}", "predefined_pairs")]
        assert entry["value"] == pytest.approx(100 * record["main_score"], abs=1e-4)


def test_benchmark_objects_keep_the_old_names() -> None:
    from evaluators.benchmark_folders import BENCHMARKS, benchmark_datasets
    from evaluators.benchmarks import get_benchmark

    assert BENCHMARKS == (
        "steb",
        "operational",
        "definitional",
        "application",
        "multilingual",
        "lite",
        "nano",
    )
    steb = get_benchmark("steb")
    assert steb.key == "STEB(v1)" and steb is get_benchmark("STEB", "v1") is get_benchmark(
        "STEB(v1)"
    )
    assert len(steb.reference_models) == 40 and steb.superseded_by is None
    assert benchmark_datasets("lite") == list(get_benchmark("STEB-lite").datasets)
    assert get_benchmark("valla").tasks == ("aa", "av") and get_benchmark("arb").datasets == (
        "arb/quartets",
    )
    lite = get_benchmark("lite")
    values = {u: 0.5 for u in lite.units}
    assert lite.aggregate(values).value == pytest.approx(0.5) and lite.aggregate(values).complete
    values.popitem()
    partial = lite.aggregate(values)
    assert (
        partial.value is None and partial.coverage == f"{len(lite.units) - 1} of {len(lite.units)}"
    )


def test_model_results_push_is_a_pull_request(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import huggingface_hub

    from evaluators.publish import plan_push, run_push

    calls: list[tuple[str, dict[str, Any]]] = []

    class Recorder:
        def __init__(self, token: str | None = None) -> None:
            pass

        def create_repo(self, repo_id: str, **kwargs: Any) -> None:
            calls.append(("create_repo", kwargs))

        def upload_folder(self, **kwargs: Any) -> str:
            calls.append(("upload_folder", kwargs))
            return "pr-url"

    monkeypatch.setattr(huggingface_hub, "HfApi", Recorder)
    plan = plan_push(str(repo), kind="model-results", model="function-words", repo_id="a/b")
    assert run_push(plan) == "pr-url"
    (call,) = calls  # no create_repo: the model repo is someone else's
    assert call[0] == "upload_folder" and call[1]["create_pr"] is True
    assert call[1]["allow_patterns"] == [".eval_results/STEB_v1.yaml"] == list(plan.files)
    assert call[1]["repo_type"] == "model" and call[1]["repo_id"] == "a/b"


def test_contamination_is_a_warning(repo: Path) -> None:
    meta_path = repo / "results/stylometric/no_revision_available/model_meta.json"
    meta = json.loads(meta_path.read_text())
    meta["training_datasets"] = [REPO, "steb/ASSET"]
    meta_path.write_text(json.dumps(meta))
    report = validate_repository(repo)
    assert report.ok
    (found,) = [f for f in report.warnings if "contamination" in f.reason]
    assert found.path == str(meta_path.relative_to(repo)) and REPO in found.reason
    assert "steb/ASSET" not in found.reason  # listed, but not evaluated on


def test_removed_result_in_a_git_work_tree_is_checked_against_head(repo: Path) -> None:
    _git("add", "results", cwd=repo)
    _git(
        "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "--quiet", "-m", "base",
        cwd=repo,
    )  # fmt: skip
    assert validate_repository(repo).base == "git HEAD"
    gone = _one_record(repo, "stylometric")
    gone.unlink()
    report = validate_repository(repo)
    assert _reasons(report) == [
        f"{gone.relative_to(repo)}: removed result: present in the base (git HEAD), absent here"
    ]
