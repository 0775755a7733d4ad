"""One Hub repo per source release with STEB datasets as configs: the registry mapping,
old ids, error messages, the build registered in ``datasets``' cache, evaluation of a
release repo by its Hub id, and ``stylebench push --dry-run`` for the three kinds of repo."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from dataset_scripts.core.errors import StylebenchError, UnknownNameError
from dataset_scripts.hub_cache import MARKER, entry_root, register_build
from dataset_scripts.registry import all_datasets, releases, resolve, suggest
from dataset_scripts.steb.catalog import release_of, steb_datasets
from evaluators.cli import cli
from evaluators.data import config_schemas, load_table
from tests.hub.pan23_fixture import write_pan23

REPO = "steb/pan23_style_change"


def test_steb_96_each_one_repo_config() -> None:
    entries = steb_datasets()
    assert len(entries) == 96
    pairs = {(e.repo, e.config) for e in entries}
    assert len(pairs) == 96  # every STEB dataset is one distinct (repo, config)
    repos = releases()
    assert [s.config for s in repos[REPO]] == ["easy", "medium", "hard"]
    assert [s.hub_id for s in repos[REPO]] == [
        "steb/pan23_style_change_easy",
        "steb/pan23_style_change_medium",
        "steb/pan23_style_change_hard",
    ]
    assert [s.config for s in repos["steb/pan22_style_change"]] == ["basic", "advanced", "sentence"]
    assert {s.config for s in repos["steb/STEL"]} == {"feature", "register"}
    assert len(repos["steb/MAGE"]) == 10 and len(repos["steb/DetectRL"]) == 8
    assert {s.config for s in repos["steb/pan13_authorship_verification"]} == {
        "english",
        "greek",
        "spanish",
    }
    # a dataset that is a release of its own keeps its id as repo, configs by schema
    assert release_of("bible_versions") is None
    assert all_datasets()["steb/bible_versions"].repo == "steb/bible_versions"
    assert release_of("valla/ccat50") is None


def test_old_id_is_an_alias_with_a_note() -> None:
    specs, note = resolve("steb/pan23_style_change_hard")
    assert [s.config for s in specs] == ["hard"]
    assert note is not None and "steb/pan23_style_change" in note and "'hard'" in note
    assert 'load_dataset("steb/pan23_style_change", "hard")' in note
    assert resolve(f"{REPO}:medium")[0][0].hub_id == "steb/pan23_style_change_medium"
    with pytest.raises(UnknownNameError, match="no config 'extreme'"):
        resolve(f"{REPO}:extreme")


def test_unknown_id_suggests_at_most_three_and_the_build_command() -> None:
    with pytest.raises(UnknownNameError) as info:
        resolve("steb/pan23_style_chang")
    message = str(info.value)
    suggested = re.search(r"did you mean (.*?)\?", message).group(1).split(", ")
    assert 1 <= len(suggested) <= 3 and suggested[0] == REPO
    assert f"stylebench build {REPO} --raw" in message
    assert suggest("steb/stel")[:1] == ["steb/STEL"]
    result = CliRunner().invoke(cli, ["build", "steb/pan23_style_chang"])
    assert result.exit_code != 0 and isinstance(result.exception, UnknownNameError)


def test_unbuilt_hub_id_offline_says_how_to_build() -> None:
    with pytest.raises(StylebenchError) as info:
        load_table("steb/pan24_style_change", "easy")
    message = str(info.value)
    assert "stylebench build steb/pan24_style_change --raw" in message
    assert "pan.webis.de" in message
    with pytest.raises(StylebenchError, match="did you mean"):
        config_schemas("steb/pan24_style_chnage")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    root = tmp_path_factory.mktemp("release")
    expected = write_pan23(root / "raw")
    result = CliRunner().invoke(
        cli, ["build", REPO, "--raw", str(root / "raw"), "--out", str(root / "built")]
    )
    assert result.exit_code == 0, result.output
    assert "registered in datasets' cache" in result.output
    return root / "built", expected


def test_release_folder_and_card(built: tuple[Path, dict[str, int]]) -> None:
    folder, expected = built
    info = json.loads((folder / "stylebench_build.json").read_text())
    assert info["hub_id"] == REPO
    assert info["configs"]["hard"] == {
        "schema": "text_pairs",
        "dataset": "steb/pan23_style_change_hard",
    }
    assert {c: v["test"] for c, v in info["counts"].items()} == expected
    card = (folder / "README.md").read_text()
    assert "- config_name: all" in card and "default: true" in card
    assert f'load_dataset("{REPO}", "hard")' in card
    assert "| `hard` | pan23_style_change_hard |" in card  # the STEB dataset of each config


def test_literal_load_dataset_from_another_folder(
    built: tuple[Path, dict[str, int]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datasets import load_dataset

    folder, expected = built
    monkeypatch.chdir(tmp_path)
    everything = load_dataset(REPO)
    assert {k: v.num_rows for k, v in everything.items()} == expected
    hard = load_dataset(REPO, "hard")
    assert list(hard) == ["test"]
    by_folder = load_dataset(str(folder), "hard")["test"].to_list()
    assert hard["test"].to_list() == by_folder  # the same rows as the folder itself
    assert load_dataset(str(folder))["medium"].num_rows == expected["medium"]


def test_register_replaces_only_its_own_entries(
    built: tuple[Path, dict[str, int]], tmp_path: Path
) -> None:
    folder, expected = built
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    foreign = entry_root(REPO) / "hard" / "0.0.0" / ("f" * 40)
    foreign.mkdir(parents=True)
    (foreign / "dataset_info.json").write_text("{}")  # e.g. a real download: no marker
    # change the hard config: drop its last row
    import pyarrow.parquet as pq

    shard = copy / "data" / "hard" / "test-00000-of-00001.parquet"
    table = pq.read_table(shard)
    pq.write_table(table.slice(0, table.num_rows - 1), shard)
    entries = {e.config: e for e in register_build(copy)}
    assert entries["hard"].rows == {"test": expected["hard"] - 1}
    hard_dirs = [p for p in (entry_root(REPO) / "hard" / "0.0.0").iterdir() if p.is_dir()]
    ours = [p for p in hard_dirs if (p / MARKER).is_file()]
    assert len(ours) == 1 and foreign in hard_dirs  # old ours replaced, foreign left alone
    shutil.rmtree(foreign)
    register_build(folder)  # back to the module's build
    assert load_table(REPO, "hard").rows[-1]["id"] == f"problem-{4}-1"


def test_release_repo_by_hub_id_runs_each_config(
    built: tuple[Path, dict[str, int]], tmp_path: Path
) -> None:
    from sklearn.metrics import roc_auc_score

    from evaluators.encoders import get_encoder
    from evaluators.run.runner import Runner, plan_tasks
    from evaluators.steb_scores.results import coverage, load_results

    _, expected = built
    assert config_schemas(REPO) == {c: "text_pairs" for c in ("easy", "hard", "medium")}
    specs = plan_tasks([REPO])
    assert sorted(s.config for s in specs) == ["easy", "hard", "medium"]
    import evaluators.data

    evaluators.data._WARNED.discard("steb/pan23_style_change_hard")  # warned once per process
    with pytest.warns(FutureWarning, match="deprecated id"):
        old = plan_tasks(["steb/pan23_style_change_hard"])
    assert [(s.config, s.task_type) for s in old] == [("hard", "predefined_pairs")]
    encoder = get_encoder("function-words")
    records = Runner(encoder, "function-words", out_dir=tmp_path / "res", progress=False).run(specs)
    for record in records:
        table = load_table(REPO, record.dataset.config)
        assert record.counts["n_pairs"] == expected[record.dataset.config]
        vectors = {
            t: v / (np.linalg.norm(v) or 1.0) for t, v in zip(*_embed(encoder, table), strict=True)
        }
        scores = [float(vectors[r["text1"]] @ vectors[r["text2"]]) for r in table.rows]
        labels = [r["label"] for r in table.rows]
        assert record.main_score == pytest.approx(roc_auc_score(labels, scores), abs=1e-9)
        payload = json.loads(record.path.read_text())["dataset"]
        assert payload["repo"] == REPO and payload["schema"] == "text_pairs"
        assert payload["id"] == f"steb/pan23_style_change_{record.dataset.config}"
    scores = load_results([tmp_path / "res"])
    assert sorted(s.dataset for s in scores) == [
        "steb/pan23_style_change_easy",
        "steb/pan23_style_change_hard",
        "steb/pan23_style_change_medium",
    ]
    assert coverage(scores) == 3  # three of STEB's 96


def _embed(encoder, table) -> tuple[list[str], np.ndarray]:
    texts = list(dict.fromkeys(t for r in table.rows for t in (r["text1"], r["text2"])))
    return texts, np.asarray(encoder.encode(texts))


def test_schema_config_name_still_selects_a_single_config_folder(tmp_path: Path) -> None:
    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset

    write_pan23(tmp_path / "raw")
    folder, _ = build_dataset(
        get_dataset("steb/pan23_style_change_easy"), tmp_path / "raw", tmp_path / "one"
    )
    table = load_table(str(folder), "text_pairs")  # the schema name, as before releases
    assert table.config == "easy" and table.kind == "text_pairs"
    assert table.name == "steb__pan23_style_change_easy"  # result folder as before


# --------------------------------------------------------------------------------------
# stylebench push --dry-run
# --------------------------------------------------------------------------------------


def _dry_run(*args: str) -> str:
    result = CliRunner(env={"COLUMNS": "200"}).invoke(cli, ["push", *args, "--dry-run"])
    assert result.exit_code == 0, result.output + repr(result.exception)
    assert "dry run: nothing uploaded" in result.output
    return result.output


def test_push_dry_run_dataset(built: tuple[Path, dict[str, int]]) -> None:
    folder, _ = built
    before = {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    out = _dry_run(str(folder))
    after = {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    assert after == before  # #45: a dry run writes nothing (eval.yaml is only listed)
    assert f"repo id:   {REPO}" in out and "repo type: dataset" in out
    assert "DatasetCard ok: 4 configs (all, easy, medium, hard), default 'all'" in out
    for file in (
        "README.md",
        *(f"data/{c}/test-00000-of-00001.parquet" for c in ("easy", "medium", "hard")),
    ):
        assert f"  {file}\n" in out
    assert "stylebench_build.json" not in out and "5 files" in out
    assert "  eval.yaml\n" in out and "eval.yaml generated" in out  # the Hub benchmark file


def test_push_dry_run_metric_and_space() -> None:
    out = _dry_run("tpr_at_fpr")
    assert "repo id:   stylebench/tpr_at_fpr" in out and "repo type: space" in out
    assert "SpaceCard ok: 'TPR@FPR', sdk gradio" in out
    for file in ("README.md", "app.py", "requirements.txt", "tpr_at_fpr.py"):
        assert f"  {file}\n" in out
    out = _dry_run("space")
    assert "repo id:   stylebench/stylebench" in out and "repo type: space" in out
    assert "  app.py\n" in out and "  stylebench_space/embedding.py\n" in out
    assert "__pycache__" not in out


def test_push_refuses_bad_cards(built: tuple[Path, dict[str, int]], tmp_path: Path) -> None:
    from evaluators.paths import metrics_dir
    from evaluators.publish import PublishError, plan_push

    folder, _ = built
    copy = tmp_path / "ds"
    shutil.copytree(folder, copy)
    (copy / "data" / "hard" / "test-00000-of-00001.parquet").unlink()
    with pytest.raises(PublishError, match=r"config 'all' split 'hard' reads .* no uploaded file"):
        plan_push(str(copy))
    intact = tmp_path / "ds2"
    shutil.copytree(folder, intact)
    card = (intact / "README.md").read_text()
    (intact / "README.md").write_text(card.replace("license: other\n", "", 1))
    with pytest.raises(PublishError, match=r"metadata has no 'license'"):
        plan_push(str(intact))
    metric = tmp_path / "tpr_at_fpr"
    shutil.copytree(metrics_dir() / "tpr_at_fpr", metric)
    text = (metric / "README.md").read_text().replace("sdk: gradio", "sdk: docker")
    (metric / "README.md").write_text(text)
    with pytest.raises(PublishError, match="sdk is 'docker'"):
        plan_push(str(metric), kind="metric")
    with pytest.raises(PublishError, match="invalid repo id"):
        plan_push("tpr_at_fpr", repo_id="bad id/x y")


def test_real_push_uploads_the_planned_files(
    built: tuple[Path, dict[str, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real push path with the network client replaced by a recorder."""
    import huggingface_hub

    from evaluators.publish import plan_push, run_push

    calls: list[tuple[str, dict]] = []

    class Recorder:
        def __init__(self, token=None) -> None:
            pass

        def create_repo(self, repo_id, **kwargs):
            calls.append(("create_repo", {"repo_id": repo_id, **kwargs}))

        def upload_folder(self, **kwargs):
            calls.append(("upload_folder", kwargs))
            return "commit-url"

    monkeypatch.setattr(huggingface_hub, "HfApi", Recorder)
    plan = plan_push(str(built[0]))
    assert run_push(plan) == "commit-url"
    assert calls[0] == (
        "create_repo",
        {
            "repo_id": REPO,
            "repo_type": "dataset",
            "private": False,
            "exist_ok": True,
            "space_sdk": None,
        },
    )
    assert (
        calls[1][1]["allow_patterns"] == list(plan.files) and calls[1][1]["repo_type"] == "dataset"
    )
    space = plan_push("tpr_at_fpr")
    run_push(space)
    assert calls[2][1]["space_sdk"] == "gradio" and calls[2][1]["repo_type"] == "space"


# --------------------------------------------------------------------------------------
# evaluate.load of the bare names
# --------------------------------------------------------------------------------------


@pytest.mark.slow
def test_bare_metric_names_after_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import evaluate
    from sklearn.metrics import roc_auc_score

    from evaluators.metric_cache import install_metrics, installed_entry, is_ours
    from evaluators.metric_loading import list_metrics

    installed = install_metrics()
    assert {e.load_name for e in installed} == {
        f"{ns}/{n}" for ns in ("evaluate-metric", "stylebench") for n in list_metrics()
    }
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, 200)
    scores = rng.random(200) + 0.3 * labels
    auroc = evaluate.load("auroc").compute(predictions=scores, references=labels)
    assert auroc["auroc"] == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)
    namespaced = evaluate.load("stylebench/auroc").compute(predictions=scores, references=labels)
    assert namespaced["auroc"] == auroc["auroc"]
    for name in list_metrics():
        entry = installed_entry(name)
        assert entry is not None and is_ours(entry)
        assert type(evaluate.load(name)).__module__.endswith(
            f"evaluate-metric--{name}.{entry.parent.name}.{name}"
        )
    # what shadows ours (README): a module folder of the same name in the working directory
    local = tmp_path / "tpr_at_fpr"
    local.mkdir()
    (local / "tpr_at_fpr.py").write_text(
        (installed_entry("tpr_at_fpr")).read_text().replace("class TprAtFpr", "class Shadow")
    )
    shadow = evaluate.load("tpr_at_fpr")
    assert type(shadow).__name__ == "Shadow"


def test_downloaded_repo_without_build_info_knows_its_configs(
    built: tuple[Path, dict[str, int]], tmp_path: Path
) -> None:
    """What a Hub snapshot holds (the pushed files: no build info): the card's stylebench
    block still maps each config to its schema and STEB dataset."""
    from evaluators.publish import plan_push
    from evaluators.run.runner import plan_tasks

    folder, expected = built
    plan = plan_push(str(folder))
    snapshot = tmp_path / "snapshot"
    for file in plan.files:
        (snapshot / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(folder / file, snapshot / file)
    assert not (snapshot / "stylebench_build.json").exists()
    assert config_schemas(str(snapshot)) == {c: "text_pairs" for c in ("easy", "medium", "hard")}
    assert sorted(s.config for s in plan_tasks([str(snapshot)])) == ["easy", "hard", "medium"]
    table = load_table(str(snapshot), "medium")
    assert table.dataset_id == "steb/pan23_style_change_medium" and table.repo == REPO
    assert len(table.rows) == expected["medium"]
