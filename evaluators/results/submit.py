"""``stylebench results submit``: send what ``results add`` laid out to the shared
results repository, after ``validate`` passes.

* a **git remote**: in its working copy, a new branch with one commit holding the added
  and changed files under ``results/``, pushed to the remote (the pull request is opened
  on the forge from that branch);
* a **Hub dataset repo**: one commit of exactly the staged files, opened as a pull
  request (``HfApi.create_commit(..., create_pr=True)``).

``--dry-run`` prints the files it would send and sends nothing (no network).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import StylebenchError
from evaluators.results.repository import RESULTS_DIR, RepoTarget, git
from evaluators.results.validate import ValidationReport, validate_repository


class SubmissionRefused(StylebenchError):
    """The submission does not pass ``stylebench results validate``."""

    def __init__(self, report: ValidationReport) -> None:
        self.report = report
        lines = "; ".join(str(f) for f in report.refusals)
        super().__init__(f"submission refused ({len(report.refusals)}): {lines}")


@dataclass(frozen=True)
class SubmissionPlan:
    target: RepoTarget
    files: tuple[str, ...]  # repository-relative POSIX paths, sorted
    branch: str | None  # git only
    message: str


def _changed_files(root: Path) -> tuple[str, ...]:
    """Added, changed and untracked files under results/ of a git working copy."""
    out = git(root, "status", "--porcelain", "--untracked-files=all", "--", RESULTS_DIR)
    files = []
    for line in out.splitlines():
        status, path = line[:2], line[3:]
        if "D" in status:
            continue  # a removal is refused by validate; never sent
        files.append(path.strip('"'))
    return tuple(sorted(files))


def _staged_files(root: Path) -> tuple[str, ...]:
    base = root / RESULTS_DIR
    if not base.is_dir():
        return ()
    return tuple(sorted(p.relative_to(root).as_posix() for p in base.rglob("*") if p.is_file()))


def default_branch(files: tuple[str, ...]) -> str:
    models = sorted({f.split("/")[1] for f in files if f.count("/") >= 2})
    head = models[0] if models else "results"
    more = f"-and-{len(models) - 1}-more" if len(models) > 1 else ""
    return f"submission/{head}{more}"


def plan_submission(
    target: RepoTarget, *, branch: str | None = None, message: str | None = None
) -> SubmissionPlan:
    """What ``submit`` would send from the working copy or staging folder."""
    if target.kind not in ("git", "hub"):
        raise StylebenchError(
            f"--repo {target.spec!r} is a local folder: submit sends to a git remote (URL or "
            "a path ending .git) or a Hub dataset repo (org/name)"
        )
    if not target.root.is_dir():
        raise StylebenchError(
            f"nothing added for {target.spec}: run `stylebench results add <run folder> "
            f"--repo {target.spec}` first"
        )
    files = _changed_files(target.root) if target.kind == "git" else _staged_files(target.root)
    if not files:
        raise StylebenchError(f"nothing to submit to {target.spec}: no new or changed results")
    models = sorted({f.split("/")[1] for f in files if f.count("/") >= 2})
    text = message or f"stylebench results: {', '.join(models)}"
    return SubmissionPlan(
        target, files, (branch or default_branch(files)) if target.kind == "git" else None, text
    )


def check(plan: SubmissionPlan) -> ValidationReport:
    report = validate_repository(plan.target.root)
    if not report.ok:
        raise SubmissionRefused(report)
    return report


def submit_git(plan: SubmissionPlan) -> str:
    """Branch, commit and push; the commit id."""
    root = plan.target.root
    check(plan)
    git(root, "checkout", "-b", str(plan.branch))
    git(root, "add", "--", *plan.files)
    git(root, "commit", "--quiet", "-m", plan.message)
    git(root, "push", "--quiet", "origin", str(plan.branch))
    return git(root, "rev-parse", "HEAD").strip()


def submit_hub(plan: SubmissionPlan, api: Any = None, token: str | None = None) -> Any:
    """One commit of exactly the planned files, as a pull request on the Hub dataset repo;
    ``api``: an ``HfApi`` (or a stand-in recording its calls)."""
    from huggingface_hub import CommitOperationAdd

    check(plan)
    if api is None:
        from huggingface_hub import HfApi

        api = HfApi(token=token)
    root = plan.target.root
    operations = [
        CommitOperationAdd(path_in_repo=f, path_or_fileobj=str(root / f)) for f in plan.files
    ]
    return api.create_commit(
        repo_id=plan.target.spec,
        repo_type="dataset",
        operations=operations,
        commit_message=plan.message,
        create_pr=True,
    )
