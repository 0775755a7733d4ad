"""Issue 45, item 6 (first hour, round two): a build registered in ``datasets``' cache
counts as built in ``stylebench list datasets`` wherever it was built and from whichever
folder the list is asked (the build said ``load_dataset(...)`` works offline from any
folder, so the list must not say "needs download")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dataset_scripts.registry import get_dataset
from dataset_scripts.status import BUILT, NEEDS_DOWNLOAD, dataset_status
from tests.faults.harness import run_cli


@pytest.mark.corpora
@pytest.mark.slow
def test_a_registered_build_counts_as_built_from_any_folder(corpora: Path, tmp_path: Path) -> None:
    env = {
        "HF_HOME": str(tmp_path / "hf"),
        "HF_DATASETS_CACHE": str(tmp_path / "hf" / "datasets"),
        "STYLEBENCH_CACHE": str(tmp_path / "cache"),
        "HF_HUB_OFFLINE": "1",
    }
    somewhere, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    somewhere.mkdir()
    elsewhere.mkdir()
    empty = tmp_path / "no-raw"
    empty.mkdir()
    listing = ["list", "datasets", "--family", "steb", "--raw-root", str(empty), "--format"]
    before = run_cli([*listing, "json"], cwd=elsewhere, env=env)
    assert before.returncode == 0, before.stderr
    rows = {r["dataset"]: r for r in json.loads(before.stdout)}
    assert rows["steb/sms_spam"]["status"].startswith("needs download")
    built = run_cli(
        ["build", "steb/sms_spam", "--raw", str(corpora / "sms_spam_collection")],
        cwd=somewhere,
        env=env,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    assert "works offline from any folder" in built.stdout
    after = run_cli([*listing, "json"], cwd=elsewhere, env=env)
    assert after.returncode == 0, after.stderr
    rows = {r["dataset"]: r for r in json.loads(after.stdout)}
    status = rows["steb/sms_spam"]["status"]
    assert status.startswith("built: registered in datasets' cache"), status
    assert str(somewhere / "built" / "steb__sms_spam") in status
    # the rest is unchanged: one more built, one fewer needing a download
    counted = [r["status"].split(":")[0] for r in json.loads(before.stdout)]
    counted_after = [r["status"].split(":")[0] for r in json.loads(after.stdout)]
    assert counted_after.count("built") == counted.count("built") + 1
    assert counted_after.count("needs download") == counted.count("needs download") - 1
    table = run_cli([*listing, "tsv"], cwd=elsewhere, env=env)
    assert f"{counted.count('built') + 1} built" in table.stdout + table.stderr


def test_a_release_config_counts_only_when_that_config_is_registered(tmp_path: Path) -> None:
    feature, register = get_dataset("steb/STEL_feature"), get_dataset("steb/STEL_register")
    assert feature.repo == register.repo and feature.config and register.config
    registered = {(feature.repo, feature.config): tmp_path / "steb__STEL"}
    got = dataset_status(feature, None, None, registered=registered)
    assert got.kind == BUILT and str(tmp_path / "steb__STEL") in got.detail
    assert dataset_status(register, None, None, registered=registered).kind == NEEDS_DOWNLOAD
    assert dataset_status(register, None, None, registered={}).kind == NEEDS_DOWNLOAD
    plain = get_dataset("steb/sms_spam")
    assert not plain.config
    mixed = {**registered, (plain.repo, "default"): tmp_path / "x"}
    assert dataset_status(plain, None, None, registered=mixed).kind == BUILT
