"""A real results repository (function-words on the demo suite, laid out by
``evaluators.results.repository.add_run``) and the six bad submissions of the results
issue made from it, as zips: what the Submissions tab must refuse (and accept)."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

RECORD_GLOB = "results/*/*/*/*.json"
# kind -> the text its refusal must contain
BAD = {
    "tampered_score": "main score",
    "missing_setting": "missing run setting 'seed'",
    "wrong_folder": "wrong folder",
    "duplicate": "duplicate of",
    "unknown_benchmark": "unknown benchmark version",
    "removed_result": "removed result",
}


def good_repository(
    root: Path,
    models: tuple[str, ...] = ("function-words",),
    tasks: tuple[str, ...] = ("retrieval", "all_to_all_pairs"),
) -> Path:
    """``root/good``: a results repository of one real run of ``models`` on ``tasks``."""
    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset
    from evaluators.results.repository import add_run
    from evaluators.run.service import RunConfig, run

    folder, _ = build_dataset(get_dataset("stylebench/demo"), None, root / "data" / "demo")
    config = RunConfig(tasks=tasks, out_dir=root / "run", progress=False)
    run(list(models), [str(folder)], config)
    repo = root / "good"
    add_run(root / "run", repo)
    return repo


def _records(repo: Path) -> list[Path]:
    return sorted(p for p in repo.glob(RECORD_GLOB) if p.name not in ("model_meta.json",))


def _revision(repo: Path) -> Path:
    return next(repo.glob("results/*/*/run_settings.json")).parent


def bad_repository(good: Path, kind: str, into: Path) -> Path:
    """A copy of ``good`` with one defect of ``kind`` (a key of :data:`BAD`)."""
    repo = into / kind
    shutil.copytree(good, repo)
    revision = _revision(repo)
    if kind == "tampered_score":
        path = _records(repo)[0]
        payload = json.loads(path.read_text())
        payload["main_score"] = min(1.0, payload["main_score"] + 0.05)
        payload["metrics"][payload["main_score_name"]] = payload["main_score"]
        path.write_text(json.dumps(payload, indent=2))
    elif kind == "missing_setting":
        path = revision / "run_settings.json"
        settings = json.loads(path.read_text())
        del settings["seed"]
        path.write_text(json.dumps(settings, indent=2))
    elif kind == "wrong_folder":
        revision.parent.rename(revision.parent.with_name("someone-else"))
    elif kind == "duplicate":
        twin = revision.parents[1] / "alias__function-words" / revision.name
        shutil.copytree(revision, twin)
        meta = json.loads((twin / "model_meta.json").read_text())
        meta["name"] = "alias/function-words"  # the same encoder under a second name
        (twin / "model_meta.json").write_text(json.dumps(meta, indent=2))
    elif kind == "unknown_benchmark":
        path = revision / "run_settings.json"
        settings = json.loads(path.read_text())
        settings["benchmark_version"] = "v9"
        path.write_text(json.dumps(settings, indent=2))
    elif kind == "removed_result":
        _records(repo)[0].unlink()
    else:
        raise KeyError(kind)
    return repo


def zip_folder(folder: Path, path: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                archive.write(file, file.relative_to(folder.parent).as_posix())
    return path
