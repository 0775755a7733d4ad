"""Issue 42 (round three of the venue), items 1-4, 6-13 and 20: the results repository
tried as an adversary would. Every case is one a stranger can send to a shared results
repository (a record, a ``--model-meta`` file, a branch name, a zip for the Space), and
each failed on the code before this issue: a forced push dropped a maintainer's commit,
a record's task wrote outside the repository, a link was counted as a result, a 1.4 MB
record inflated to 1 GiB, a score was laundered through "items omitted" or a version-1
migration, ``validate`` crashed on a malformed items block, and so on.

Records are built here from real per-item arrays (:func:`make_items`) whose main score is
the AUROC computed by scikit-learn, so ``validate`` re-derives them for real.
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
import time
import tracemalloc
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from dataset_scripts.core.errors import DataError, StylebenchError
from evaluators.cli import cli
from evaluators.records.ids import MAX_SEGMENT_BYTES, path_segment, segment_problem
from evaluators.records.items import (
    RECORD_INFLATE_BYTES,
    SUBMISSION_INFLATE_BYTES,
    encode_array,
    make_items,
)
from evaluators.records.record import (
    DatasetInfo,
    ModelInfo,
    ResultRecord,
    load_record,
    run_settings,
    write_record,
)
from evaluators.results.repository import add_run, resolve_repo
from evaluators.results.validate import validate_repository
from tests.space.server import SPACE_DIR

if str(SPACE_DIR) not in sys.path:
    sys.path.insert(0, str(SPACE_DIR))

DATASET = "steb/pan23_style_change_easy"
TASK = "predefined_pairs"
GIT_ID = ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main"]


def _record(
    model: str = "char-model",
    dataset: str = DATASET,
    task: str = TASK,
    *,
    seed: int = 0,
    n: int = 200,
    revision: str | None = None,
    identity: dict[str, Any] | None = None,
) -> ResultRecord:
    """A predefined-pairs record whose main score is scikit-learn's AUROC of its items."""
    rng = np.random.default_rng(seed)
    scores, labels = rng.normal(size=n), (rng.random(n) < 0.5).astype(int)
    labels[:2] = (0, 1)
    auc = float(roc_auc_score(labels, scores))
    return ResultRecord(
        task=task,
        dataset=DatasetInfo(name=dataset.rsplit("/", 1)[-1], id=dataset),
        model=ModelInfo(name=model, identity=identity or {"name": model}, revision=revision),
        main_score_name="auc",
        main_score=auc,
        metrics={"auc": auc},
        seed=0,
        run=run_settings("steb", 0, None, {}),
        versions={"stylebench": "test"},
        items=make_items("auc", "pairs", {"scores": (scores, "f8"), "labels": (labels, "i4")}),
    )


def _run_folder(root: Path, *records: ResultRecord) -> Path:
    """A `stylebench run --out` folder: ``<model>/<dataset>/<n>.json`` (a safe path of
    our choosing; the record's own fields are what is hostile)."""
    for k, record in enumerate(records):
        write_record(record, root / f"m{k}" / f"d{k}" / f"{k}.json")
    return root


def _reasons(report: Any) -> list[str]:
    return [f"{f.path}: {f.reason}" for f in report.refusals]


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def _git(*args: str, cwd: Path | None = None, check: bool = True) -> str:
    done = subprocess.run(["git", *GIT_ID, *args], cwd=cwd, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(done.stderr)
    return done.stdout.strip()


@pytest.fixture
def good(tmp_path: Path) -> Path:
    """A valid repository of one model, two datasets."""
    repo = tmp_path / "repo"
    run = _run_folder(
        tmp_path / "run",
        _record(),
        _record(dataset="steb/pan23_style_change_hard", seed=1),
    )
    add_run(run, repo)
    assert validate_repository(repo).ok
    return repo


def _one(repo: Path) -> Path:
    return sorted(repo.glob("results/*/*/*/*.json"))[0]


# --------------------------------------------------------------- item 1 and 9: submit ---


@pytest.fixture
def stale_copy(tmp_path: Path) -> dict[str, Any]:
    """A bare remote whose main holds a maintainer's commit made after the working copy
    was cloned (the copy is stale), and a result added in the copy."""
    remote = tmp_path / "results.git"
    _git("init", "--quiet", "--bare", str(remote))
    maintainer = tmp_path / "maintainer"
    _git("clone", "--quiet", str(remote), str(maintainer))
    (maintainer / "README.md").write_text("results\n")
    _git("add", "README.md", cwd=maintainer)
    _git("commit", "--quiet", "-m", "start", cwd=maintainer)
    _git("push", "--quiet", "origin", "HEAD:main", cwd=maintainer)
    work = tmp_path / "work"
    run = _run_folder(tmp_path / "run", _record())
    added = CliRunner().invoke(
        cli, ["results", "add", str(run), "--repo", str(remote), "--workdir", str(work)]
    )
    assert added.exit_code == 0, added.output
    (maintainer / "NOTICE.md").write_text("a maintainer's later commit\n")
    _git("add", "NOTICE.md", cwd=maintainer)
    _git("commit", "--quiet", "-m", "maintainer", cwd=maintainer)
    _git("push", "--quiet", "origin", "HEAD:main", cwd=maintainer)
    main = _git("--git-dir", str(remote), "rev-parse", "refs/heads/main")
    return {"remote": remote, "work": work, "main": main}


def _submit(state: dict[str, Any], *extra: str) -> Any:
    return CliRunner().invoke(
        cli,
        ["results", "submit", "--repo", str(state["remote"]), "--workdir", str(state["work"]),
         *extra],
    )  # fmt: skip


@pytest.mark.parametrize(
    "branch", ["+main", "+x", "-x", "--force", "x:y", "refs/heads/x", "HEAD", "main", "a..b", "@"]
)
def test_branch_names_git_reads_otherwise_are_refused(stale_copy, branch: str) -> None:
    result = _submit(stale_copy, f"--branch={branch}")
    assert result.exit_code != 0, result.output
    assert f"--branch {branch!r}" in str(result.exception), result.output
    remote = stale_copy["remote"]
    # the maintainer's commit is still main's head, and nothing else was created
    assert _git("--git-dir", str(remote), "rev-parse", "refs/heads/main") == stale_copy["main"]
    assert _git("--git-dir", str(remote), "for-each-ref", "--format=%(refname)") == (
        "refs/heads/main"
    )


def test_a_good_branch_from_a_stale_copy_keeps_main(stale_copy) -> None:
    from evaluators.results.submit import check_branch

    assert check_branch("submission/char-model", "main") == "submission/char-model"
    result = _submit(stale_copy, "--branch", "sub/char")
    assert result.exit_code == 0, result.output
    assert "compared with origin/main" in result.output
    remote = stale_copy["remote"]
    assert _git("--git-dir", str(remote), "rev-parse", "refs/heads/main") == stale_copy["main"]
    sent = _git("--git-dir", str(remote), "ls-tree", "-r", "--name-only", "sub/char").split()
    assert sum(f.startswith("results/") for f in sent) == 3  # meta, settings, one record
    head = _git("rev-parse", "HEAD", cwd=stale_copy["work"])
    assert _git("--git-dir", str(remote), "rev-parse", "refs/heads/sub/char") == head


def test_push_is_never_forced_and_a_new_branch_carries_the_unpushed_commit(stale_copy) -> None:
    remote, work = stale_copy["remote"], stale_copy["work"]
    # someone else's branch of the same name already exists on the remote
    other = _git("--git-dir", str(remote), "rev-parse", "refs/heads/main")
    _git("--git-dir", str(remote), "update-ref", "refs/heads/sub/taken", other)
    refused = _submit(stale_copy, "--branch", "sub/taken")
    assert refused.exit_code != 0
    assert _git("--git-dir", str(remote), "rev-parse", "refs/heads/sub/taken") == other
    unpushed = _git("rev-parse", "--short", "HEAD", cwd=work)
    # the working copy is clean now, but the remote does not hold its commit
    assert _git("status", "--porcelain", cwd=work) == ""
    dry = _submit(stale_copy, "--branch", "sub/new", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert f"unpushed commit {unpushed}" in dry.output and "3 files" in dry.output
    sent = _submit(stale_copy, "--branch", "sub/new")
    assert sent.exit_code == 0, sent.output
    files = _git("--git-dir", str(remote), "ls-tree", "-r", "--name-only", "sub/new").split()
    assert sum(f.startswith("results/") for f in files) == 3
    assert _git("--git-dir", str(remote), "rev-parse", "refs/heads/main") == stale_copy["main"]


# ------------------------------------------------------------------ item 2: path names ---


@pytest.mark.parametrize(
    "name",
    [".", "..", "", "a/b", "..\\..\\x", "a\x00b", "\x1b[31mred", "x\ny", ".hidden",
     "x" * (MAX_SEGMENT_BYTES + 1), "é" * (MAX_SEGMENT_BYTES // 2 + 1)],
)  # fmt: skip
def test_the_path_segment_rule_refuses(name: str) -> None:
    assert segment_problem(name) is not None
    with pytest.raises(DataError, match="not a folder or file name"):
        path_segment(name, "task")


@pytest.mark.parametrize("name", ["predefined_pairs", "steb__pastel_age", "v1.0", "a-b", "x" * 200])
def test_the_path_segment_rule_keeps(name: str) -> None:
    assert path_segment(name, "task") == name and Path(name).name == name


HOSTILE = {
    "task": {"task": "../../../../escaped"},
    "dataset": {"dataset": "../../../../escaped"},
    "model": {"model": ".."},
    "revision": {"revision": ".."},
    "revision_dot": {"revision": "."},
    "model_hidden": {"model": ".git"},
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_record_names_write_nothing(tmp_path: Path, kind: str) -> None:
    run = _run_folder(tmp_path / "run", _record(**HOSTILE[kind]))
    repo = tmp_path / "area" / "deep" / "repo"
    before = _files(tmp_path)
    with pytest.raises(DataError, match="not a folder or file name"):
        add_run(run, repo)
    assert _files(tmp_path) == before  # nothing written, in the repository or outside


@pytest.mark.parametrize("meta", [{"name": ".."}, {"revision": ".."}, {"name": "../../x"}])
def test_hostile_model_meta_names_write_nothing(tmp_path: Path, meta: dict[str, str]) -> None:
    run = _run_folder(tmp_path / "run", _record())
    path = tmp_path / "meta.json"
    path.write_text(json.dumps(meta))
    repo = tmp_path / "area" / "repo"
    before = _files(tmp_path)
    with pytest.raises(DataError):
        add_run(run, repo, path)
    assert _files(tmp_path) == before


def test_validate_refuses_hostile_names_in_records_and_folders(good: Path) -> None:
    path = _one(good)
    payload = json.loads(path.read_text())
    payload["task"] = "../../../../escaped"
    path.write_text(json.dumps(payload))
    (good / "results" / ".hidden" / "no_revision_available").mkdir(parents=True)
    reasons = _reasons(validate_repository(good))
    rel = path.relative_to(good).as_posix()
    assert any(r.startswith(f"{rel}: task '../../../../escaped'") for r in reasons), reasons
    assert any(
        r.startswith("results/.hidden: model folder name starts with a dot") for r in reasons
    )


# ---------------------------------------------------------------------- item 3: links ---


def test_symbolic_links_are_refused_by_add_validate_and_table(good: Path, tmp_path: Path) -> None:
    from evaluators.results.table import results_table

    outside = tmp_path / "outside.json"
    shutil.copy(_one(good), outside)  # a valid record, outside the repository
    folder = _one(good).parent
    link = folder.parent / "steb__pan23_style_change_medium" / TASK
    link.parent.mkdir()
    link = link.with_suffix(".json")
    link.symlink_to(outside)
    rel = link.relative_to(good).as_posix()
    report = validate_repository(good)
    assert f"{rel}: symbolic link: a results repository holds plain files and folders only" in (
        _reasons(report)
    )
    assert report.n_records == 2  # the link is not counted as a result
    with pytest.raises(DataError, match="symbolic link"):
        results_table(good)
    run = _run_folder(tmp_path / "run2", _record("other", seed=3))
    with pytest.raises(DataError, match=f"{link}: a symbolic link"):
        add_run(run, good)
    assert not (good / "results" / "other").exists()
    # a linked model folder, and a linked results/ folder
    link.unlink()
    (good / "results" / "alias").symlink_to(good / "results" / "char-model")
    assert _reasons(validate_repository(good)) == [
        "results/alias: symbolic link: a results repository holds plain files and folders only"
    ]


def test_the_space_refuses_a_link_in_a_git_submission(
    good: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stylebench_space import submissions_tab

    secret = tmp_path / "secret.json"
    shutil.copy(_one(good), secret)
    work = tmp_path / "work"
    shutil.copytree(good, work)
    link = work / "results/char-model/no_revision_available/steb__pan23_style_change_medium"
    link.mkdir()
    (link / f"{TASK}.json").symlink_to(secret)
    _git("init", "--quiet", cwd=work)
    _git("add", "-A", cwd=work)
    _git("commit", "--quiet", "-m", "with a link", cwd=work)
    bare = tmp_path / "remote.git"
    _git("clone", "--quiet", "--bare", str(work), str(bare))
    monkeypatch.setenv(submissions_tab.ENV_GIT_ROOTS, str(tmp_path))
    report = submissions_tab.validate_submission(None, f"{bare}#main")
    assert not report.accepted
    assert [r[1] for r in report.refusals] == [
        "results/char-model/no_revision_available/steb__pan23_style_change_medium/"
        "predefined_pairs.json"
    ] and "symbolic link" in report.refusals[0][2]


# ------------------------------------------------------------- item 4: inflate budgets ---


def _bomb_stream(gib: int = 1) -> bytes:
    """A zlib stream of ``gib`` GiB of zeros, about 1 MB, built without inflating or
    deflating a GiB: after a full flush deflate restarts, so each MiB of zeros compresses
    to the same bytes; the trailer is the Adler-32 of the whole."""
    chunk = bytes(1 << 20)
    engine = zlib.compressobj(9)
    first = engine.compress(chunk) + engine.flush(zlib.Z_FULL_FLUSH)
    unit = engine.compress(chunk) + engine.flush(zlib.Z_FULL_FLUSH)
    last = engine.compress(chunk) + engine.flush(zlib.Z_FINISH)
    adler = 1
    for _ in range(1024 * gib):
        adler = zlib.adler32(chunk, adler)
    return first + unit * (1024 * gib - 2) + last[:-4] + adler.to_bytes(4, "big")


@pytest.fixture(scope="module")
def bomb() -> str:
    import base64

    return base64.b64encode(_bomb_stream()).decode("ascii")


def _plant(repo: Path, block: dict[str, Any]) -> Path:
    path = _one(repo)
    payload = json.loads(path.read_text())
    payload["items"]["arrays"]["scores"] = block
    path.write_text(json.dumps(payload))
    return path


@pytest.mark.parametrize(
    "declared",
    [200, 2**27],  # a header that lies (200 values), and one that is honest (1 GiB of f8)
)
def test_an_inflate_bomb_is_refused_fast_and_small(good: Path, bomb: str, declared: int) -> None:
    path = _plant(good, {"dtype": "f8", "n": declared, "codec": "zlib", "b64": bomb})
    assert 1_300_000 < path.stat().st_size < 1_500_000  # the 1.4 MB record of the issue
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    start = time.perf_counter()
    report = validate_repository(good)
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    (reason,) = [r for r in _reasons(report) if r.startswith(str(path.relative_to(good)))]
    if declared == 200:
        assert "array 'scores'" in reason and "longer than its declared size allows" in reason
    else:
        assert "array 'scores'" in reason and "over the budget of 1,000,000" in reason
    assert seconds < 1.0, seconds
    assert peak < 100 * 2**20, peak  # Python-level allocations, numpy's included
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_rss
    assert grown_kib < 100 * 1024, grown_kib


def test_a_stream_is_inflated_only_to_its_declared_size() -> None:
    from evaluators.records.items import inflate

    stream = _bomb_stream()
    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(ValueError, match="inflates past its declared 1,600 bytes"):
        inflate(stream, 1600, "stream")
    assert time.perf_counter() - start < 0.5
    assert tracemalloc.get_traced_memory()[1] < 10 * 2**20
    tracemalloc.stop()
    assert inflate(zlib.compress(bytes(1600)), 1600) == bytes(1600)  # exactly the size: kept
    with pytest.raises(ValueError, match="truncated"):
        inflate(zlib.compress(bytes(1600))[:-6], 1600)
    with pytest.raises(ValueError, match="bytes after its end"):
        inflate(zlib.compress(b"x") + b"junk", 10)


def test_per_record_and_per_submission_budgets(good: Path) -> None:
    # per record: 9 arrays of a million f8 each declare 72 MB > 64 MiB, refused unread
    path = _one(good)
    payload = json.loads(path.read_text())
    block = encode_array(np.zeros(1_000_000))
    payload["items"]["arrays"].update({f"x{k}": block for k in range(9)})
    path.write_text(json.dumps(payload))
    (reason,) = _reasons(validate_repository(good))
    assert f"over the budget of {RECORD_INFLATE_BYTES:,} per record (not inflated)" in reason
    # per submission: a budget smaller than the two honest records together
    path.unlink()
    shutil.copytree(good, good.parent / "copy")
    report = validate_repository(good.parent / "copy", inflate_budget=4000)
    assert report.ok  # one record of 200 f8 + 200 i4 = 2,400 bytes fits
    add_run(_run_folder(good.parent / "r2", _record(seed=5)), good.parent / "copy")
    report = validate_repository(good.parent / "copy", inflate_budget=4000)
    (reason,) = _reasons(report)
    assert "over the budget of 4,000 per submission (not inflated)" in reason
    # records the base holds byte for byte are not charged to the submission
    _git("init", "--quiet", cwd=good.parent / "copy")
    _git("add", "results", cwd=good.parent / "copy")
    _git("commit", "--quiet", "-m", "base", cwd=good.parent / "copy")
    assert validate_repository(good.parent / "copy", inflate_budget=4000).ok
    assert validate_repository(good.parent / "copy", str(good), inflate_budget=2400).ok


def test_the_spaces_caps_and_the_inflate_budget_agree(
    good: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Space applies the command line's budgets (the same constants): a zip member
    over the record-file budget never unpacks, and the records' items are charged to the
    same per-submission inflate budget."""
    from stylebench_space import submissions_tab

    from evaluators.records import items
    from evaluators.records.items import RECORD_FILE_BYTES
    from tests.space.submissions import zip_folder

    assert submissions_tab.record_file_budget() == RECORD_FILE_BYTES
    assert RECORD_FILE_BYTES <= submissions_tab.MAX_UNPACKED_BYTES <= SUBMISSION_INFLATE_BYTES
    upload = zip_folder(good, tmp_path / "good.zip")
    assert submissions_tab.validate_submission(str(upload), None).accepted
    monkeypatch.setattr(items, "SUBMISSION_INFLATE_BYTES", 4000)  # two records of 2,400
    report = submissions_tab.validate_submission(str(upload), None)
    assert not report.accepted
    assert "over the budget of 4,000 per submission" in report.refusals[0][2]


def test_the_space_refuses_the_bomb_fast_and_small(good: Path, bomb: str, tmp_path: Path) -> None:
    from stylebench_space import submissions_tab

    from tests.space.submissions import zip_folder

    path = _plant(good, {"dtype": "f8", "n": 200, "codec": "zlib", "b64": bomb})
    upload = zip_folder(good, tmp_path / "bomb.zip")
    tracemalloc.start()
    start = time.perf_counter()
    report = submissions_tab.validate_submission(str(upload), None)
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert not report.accepted and seconds < 1.0 and peak < 100 * 2**20, (seconds, peak)
    assert [r[1] for r in report.refusals] == [path.relative_to(good).as_posix()]
    # a zip member over the record-file budget never unpacks
    big = tmp_path / "big.zip"
    with zipfile.ZipFile(big, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("repo/results/m/r/d/t.json", b" " * (33 * 2**20))
    from stylebench_space.safety import UserError

    with pytest.raises(UserError, match="over the budget of 33,554,432 per file"):
        submissions_tab.validate_submission(str(big), None)


# ----------------------------------------------------- item 6: every score re-derived ---


def test_items_over_the_inline_budget_go_to_a_checksummed_sidecar(tmp_path: Path) -> None:
    record = _record(n=150_000)  # 1.2 MB of f8 scores: over the 1 MB inline budget
    run = _run_folder(tmp_path / "run", record)
    written = next(run.rglob("*.json"))
    sidecar = written.with_name(f"{written.stem}.items.zlib")
    assert sidecar.is_file() and written.stat().st_size < 10_000
    ref = json.loads(written.read_text())["items"]["sidecar"]
    assert ref["file"] == sidecar.name and ref["bytes"] == sidecar.stat().st_size
    assert load_record(written).items == record.items  # read back whole
    repo = tmp_path / "repo"
    add_run(run, repo)
    stored = _one(repo)
    assert stored.with_name(f"{stored.stem}.items.zlib").is_file()
    report = validate_repository(repo)
    assert report.ok and not report.warnings, _reasons(report)
    # the score is re-derived from the sidecar: a raised score is refused
    payload = json.loads(stored.read_text())
    payload["main_score"] = payload["metrics"]["auc"] = payload["main_score"] + 0.1
    stored.write_text(json.dumps(payload))
    (reason,) = _reasons(validate_repository(repo))
    assert "tampered score" in reason and "re-derived from its per-item data" in reason
    # a changed sidecar byte, or none
    payload["main_score"] = payload["metrics"]["auc"] = record.main_score
    stored.write_text(json.dumps(payload))
    side = stored.with_name(f"{stored.stem}.items.zlib")
    data = bytearray(side.read_bytes())
    data[100] ^= 1
    side.write_bytes(bytes(data))
    (reason,) = _reasons(validate_repository(repo))
    assert "SHA-256 differs" in reason
    side.unlink()
    (reason,) = _reasons(validate_repository(repo))
    assert "items sidecar predefined_pairs.items.zlib is missing" in reason


def test_a_score_is_not_laundered_through_omitted_items(good: Path) -> None:
    path = _one(good)
    payload = json.loads(path.read_text())
    payload["main_score"] = payload["metrics"]["auc"] = payload["main_score"] + 0.1
    payload["items"] = {"omitted": "1000001 pairs exceed the budget of 1000000"}
    path.write_text(json.dumps(payload))
    (reason,) = _reasons(validate_repository(good))
    assert "main score cannot be re-derived: per-item data left out" in reason


def _v1(payload: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in payload.items() if k not in ("schema_version", "items", "run")}
    out["details"] = {"protocol": "steb"}  # version 1 kept its run settings in details
    return out


def test_a_score_is_not_laundered_through_a_version_1_migration(tmp_path: Path) -> None:
    record = _record()
    raised = _v1(json.loads(record.to_json()))
    raised["main_score"] = raised["metrics"]["auc"] = record.main_score + 0.1
    run = tmp_path / "run" / "m" / "d" / "x.json"
    run.parent.mkdir(parents=True)
    run.write_text(json.dumps(raised))
    repo = tmp_path / "repo"
    add_run(tmp_path / "run", repo)  # add migrates; validate decides
    (reason,) = _reasons(validate_repository(repo))
    assert "accepted only when the base (--base) already held it" in reason
    # a base that held the migrated record with its original score does not help
    base = tmp_path / "base"
    shutil.copytree(repo, base)
    held = _one(base)
    payload = json.loads(held.read_text())
    payload["main_score"] = payload["metrics"]["auc"] = record.main_score
    held.write_text(json.dumps(payload))
    (reason,) = _reasons(validate_repository(repo, str(base)))
    assert "accepted only when the base (--base) already held it" in reason
    # the same record, unchanged in the base: accepted, with a warning
    shutil.copy(_one(repo), held)
    report = validate_repository(repo, str(base))
    assert report.ok and "held unchanged by the base" in report.warnings[0].reason


# ------------------------------------------------------ item 13: malformed items blocks ---

MALFORMED = {
    "auc_no_arrays": ({"kind": "auc", "arrays": {}}, "lack the array 'scores'"),
    "auc_no_labels": ("drop:labels", "lack the array 'labels'"),
    "arrays_not_object": ({"kind": "auc", "arrays": [1, 2]}, "no 'arrays' object"),
    "items_list": ([1, 2, 3], "not an object"),
    "unknown_kind": ({"kind": "nope", "arrays": {}}, "unknown items kind 'nope'"),
    "n_string": ("scores:n=lots", "array size n 'lots' is not a count"),
    "dtype": ("scores:dtype=f16", "unknown array dtype 'f16'"),
    "b64_garbage": ("scores:b64=!!!!", "array 'scores'"),
    "short": ("scores:n=201", "array 'scores'"),
    "lengths": ("labels:n=100", "array 'labels'"),
    "text_auc_zero": (
        {
            "kind": "text_auc",
            "arrays": {
                "placement": encode_array([1.0]),
                "n_positive_pairs": encode_array([0], "i4"),
            },
        },
        "'n_positive_pairs' is not one positive count",
    ),
    "assignment_no_clusters": (
        {"kind": "assignment", "arrays": {"labels": encode_array([1, 2], "i4")}},
        "lack the array 'clusters'",
    ),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_items_block_is_a_refusal_naming_file_and_array(good: Path, case: str) -> None:
    change, expected = MALFORMED[case]
    path = _one(good)
    payload = json.loads(path.read_text())
    if isinstance(change, str) and change.startswith("drop:"):
        del payload["items"]["arrays"][change.removeprefix("drop:")]
    elif isinstance(change, str):
        array, _, setting = change.partition(":")
        key, _, value = setting.partition("=")
        payload["items"]["arrays"][array][key] = int(value) if value.isdigit() else value
    else:
        payload["items"] = change
    path.write_text(json.dumps(payload))
    result = CliRunner().invoke(cli, ["results", "validate", "--repo", str(good)])
    assert result.exit_code != 0 and isinstance(result.exception, StylebenchError | SystemExit)
    assert expected in result.output
    (reason,) = _reasons(validate_repository(good))
    assert reason.startswith(path.relative_to(good).as_posix()) and expected in reason, reason


# ------------------------------------------------------ items 7, 8: model_meta schema ---


@pytest.mark.parametrize(
    ("meta", "key"),
    [
        ({"n_parameters": "lots"}, "n_parameters"),
        ({"n_parameters": True}, "n_parameters"),
        ({"embed_dim": -3}, "embed_dim"),
        ({"embedding_dim": -3}, "embed_dim"),  # the name before MTEB's, migrated on read
        ({"max_tokens": 1.5}, "max_tokens"),
        ({"open_weights": "yes"}, "open_weights"),
        ({"training_datasets": [1, 2]}, "training_datasets"),
        ({"license": ["mit"]}, "license"),
        ({"parameters": 5}, "parameters"),
    ],
)
def test_model_meta_has_a_schema(tmp_path: Path, good: Path, meta: dict, key: str) -> None:
    run = _run_folder(tmp_path / "run", _record("other", seed=7))
    path = tmp_path / "meta.json"
    path.write_text(json.dumps(meta))
    before = _files(good)
    with pytest.raises(DataError, match=f"key '{key}'"):
        add_run(run, good, path)
    assert _files(good) == before
    meta_path = next(good.glob("results/*/*/model_meta.json"))
    stored = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps({**stored, **meta}))
    reasons = _reasons(validate_repository(good))
    assert reasons and all(f"key '{key}'" in r for r in reasons), reasons
    assert all(r.startswith(meta_path.relative_to(good).as_posix()) for r in reasons)
    from evaluators.results.table import results_table

    with pytest.raises(DataError, match=f"model_meta.json: .*key '{key}'"):
        results_table(good)  # named, not pandas' "Failed to parse string"


@pytest.mark.parametrize("trained", [DATASET, [DATASET], [DATASET, "steb/ASSET"]])
def test_training_data_as_string_or_list_warns_for_contamination(
    tmp_path: Path, trained: Any
) -> None:
    path = tmp_path / "meta.json"
    path.write_text(json.dumps({"training_data": trained}))
    repo = tmp_path / "repo"
    add_run(_run_folder(tmp_path / "run", _record()), repo, path)
    meta_path = next(repo.glob("results/*/*/model_meta.json"))
    assert isinstance(json.loads(meta_path.read_text())["training_datasets"], list)
    meta_path.write_text(
        json.dumps({**json.loads(meta_path.read_text()), "training_datasets": trained})
    )
    report = validate_repository(repo)
    (found,) = [f for f in report.warnings if "contamination" in f.reason]
    assert report.ok and DATASET in found.reason and "steb/ASSET" not in found.reason


# ------------------------------------------------------------------ item 10: add -----


def test_add_is_all_or_nothing(tmp_path: Path, good: Path) -> None:
    # the second model's records contradict each other (two revisions): nothing is written
    run = _run_folder(
        tmp_path / "run",
        _record("a-model", seed=1),
        _record("b-model", seed=2, revision="r1"),
        _record("b-model", dataset="steb/pan23_style_change_hard", seed=3, revision="r2"),
    )
    before = _files(good)
    with pytest.raises(DataError, match="differ in model revision"):
        add_run(run, good)
    assert _files(good) == before and not list(good.glob(".stylebench-add-*"))


def test_add_is_all_or_nothing_on_a_full_disk(tmp_path: Path, good: Path) -> None:
    from tests.faults.harness import enospc_writes

    run = _run_folder(tmp_path / "run", _record("a-model", seed=1), _record("b-model", seed=2))
    before = _files(good)
    with enospc_writes(good, after_bytes=300), pytest.raises(OSError):
        add_run(run, good)
    assert _files(good) == before
    assert sorted(p.name for p in (good / "results").iterdir()) == ["char-model"]


def test_model_meta_applies_to_one_named_model(tmp_path: Path) -> None:
    run = _run_folder(tmp_path / "run", _record("a-model", seed=1), _record("b-model", seed=2))
    meta = tmp_path / "meta.json"
    meta.write_text(json.dumps({"license": "mit", "revision": "v2"}))
    repo = tmp_path / "repo"
    with pytest.raises(DataError, match="name it with --model"):
        add_run(run, repo, meta)
    assert not repo.exists()
    result = CliRunner().invoke(
        cli,
        ["results", "add", str(run), "--repo", str(repo), "--model-meta", str(meta),
         "--model", "b-model"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert [p.relative_to(repo).as_posix() for p in repo.glob("results/*/*")] == [
        "results/b-model/v2"
    ]


def test_validate_finds_one_identity_under_two_revisions(good: Path) -> None:
    folder = next(good.glob("results/*/no_revision_available"))
    twin = folder.with_name("v2")
    shutil.copytree(folder, twin)
    meta = json.loads((twin / "model_meta.json").read_text())
    (twin / "model_meta.json").write_text(json.dumps({**meta, "revision": "v2"}))
    reasons = _reasons(validate_repository(good))
    assert len(reasons) == 2 and all("duplicate of results/char-model/no_revision" in r
                                      for r in reasons), reasons  # fmt: skip


# -------------------------------------------------------- item 11: the run's benchmark ---


def test_add_takes_the_benchmark_from_the_records(tmp_path: Path) -> None:
    from evaluators.benchmarks import get_benchmark

    nano = get_benchmark("nano")
    units = sorted(u for u in nano.units if u[1] == TASK)[:2]
    run = _run_folder(
        tmp_path / "run", *(_record(dataset=d, task=t, seed=k) for k, (d, t) in enumerate(units))
    )
    repo = tmp_path / "repo"
    report = add_run(run, repo)
    assert report.benchmark == "STEB-nano(v1)"
    settings = json.loads(next(repo.glob("results/*/*/run_settings.json")).read_text())
    assert (settings["benchmark"], settings["benchmark_version"]) == ("STEB-nano", "v1")
    validated = validate_repository(repo)
    assert validated.ok and not [w for w in validated.warnings if "not a unit" in w.reason]
    # a run that names its benchmark in its run settings is added for that one
    named = tmp_path / "named"
    record = _record()
    record.run["benchmark"] = "STEB-lite(v1)"
    assert add_run(_run_folder(tmp_path / "run2", record), named).benchmark == "STEB-lite(v1)"
    with pytest.raises(DataError, match="contradicts the records' run settings"):
        add_run(tmp_path / "run2", tmp_path / "other", benchmark="steb")


# ------------------------------------------------------ item 12: rich markup, item 20 ---


@pytest.mark.parametrize("name", ["[bold red]evil[/bold red]", "[link=https://x.invalid]y[/link]"])
def test_markup_in_a_model_name_is_printed_as_written(tmp_path: Path, name: str) -> None:
    run = _run_folder(tmp_path / "run", _record(name))
    result = CliRunner().invoke(cli, ["results", "add", str(run), "--repo", str(tmp_path / "repo")])
    assert result.exit_code == 0, result.output
    assert f"for {name} (STEB(v1))" in result.output.replace("\n", "")


def test_a_path_like_repo_must_exist_unless_hub(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    run = _run_folder(tmp_path / "run", _record())
    result = CliRunner().invoke(cli, ["results", "add", str(run), "--repo", "a/b"])
    assert result.exit_code != 0 and "no such folder" in str(result.exception)
    assert not (tmp_path / "a").exists()
    with pytest.raises(StylebenchError, match="pass --hub"):
        resolve_repo("a/b")
    staged = CliRunner().invoke(
        cli,
        ["results", "add", str(run), "--repo", "a/b", "--hub", "--workdir", str(tmp_path / "s")],
    )
    assert staged.exit_code == 0, staged.output
    assert (tmp_path / "s" / "results").is_dir()
    (tmp_path / "a" / "b").mkdir(parents=True)  # an existing folder is a folder
    assert resolve_repo("a/b").kind == "folder"


# ------------------------------------------------------------- properties (hypothesis) ---


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=0, max_size=80))
def test_a_name_the_rule_keeps_is_one_plain_segment(name: str) -> None:
    if segment_problem(name) is not None:
        return
    root = Path("/repository")
    assert (root / name).parent == root and Path(name).name == name
    assert not name.startswith(".") and "\x00" not in name


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(["mean", "auc", "text_auc", "assignment", "probing", "x"]),
    arrays=st.dictionaries(
        st.sampled_from(["scores", "labels", "placement", "n_positive_pairs", "clusters",
                         "auc", "correct_a"]),
        st.one_of(_JSON, st.fixed_dictionaries(
            {"dtype": st.sampled_from(["f8", "i4", "bits", "f4"]),
             "n": st.one_of(st.integers(-2, 50), _JSON), "codec": st.sampled_from(["zlib", None]),
             "b64": st.sampled_from([encode_array(np.arange(3.0))["b64"], "", "AAAA", "!!"])})),
        max_size=4,
    ),
)  # fmt: skip
def test_any_items_block_rederives_or_says_why(kind: str, arrays: dict) -> None:
    from evaluators.records.items import rederive

    try:
        value = rederive({"kind": kind, "arrays": arrays}, "auc")
    except ValueError:
        return  # a refusal with a reason; nothing else may escape
    assert isinstance(value, float)


def test_deep_nesting_and_oversized_files_are_refusals(good: Path) -> None:
    meta = next(good.glob("results/*/*/model_meta.json"))
    meta.write_text("[" * 100_000 + "]" * 100_000)  # json's recursion limit
    record = _one(good)
    with record.open("ab") as handle:  # a record file past the 32 MiB budget, unread
        handle.truncate(33 * 2**20)
    reasons = _reasons(validate_repository(good))
    assert any(r.startswith(f"{meta.relative_to(good)}: not readable JSON") for r in reasons)
    assert any(
        r.startswith(f"{record.relative_to(good)}: record file is 34,603,008 bytes, over the")
        for r in reasons
    ), reasons


def test_a_sidecar_declaring_more_than_it_can_hold_is_refused_unread(tmp_path: Path) -> None:
    run = _run_folder(tmp_path / "run", _record(n=150_000))
    written = next(run.rglob("*.json"))
    payload = json.loads(written.read_text())
    payload["items"]["sidecar"]["bytes"] = 10**12
    written.write_text(json.dumps(payload))
    with pytest.raises(DataError, match="declares 1,000,000,000,000 bytes for"):
        load_record(written)
