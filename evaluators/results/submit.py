"""``stylebench results submit``: send what ``results add`` laid out to the shared
results repository, after ``validate`` passes.

* a **git remote**: in its working copy, a new branch with one commit holding the added
  and changed files under ``results/``, pushed to the remote (the pull request is opened
  on the forge from that branch). What is sent is found by comparing with the remote
  (fetched first: its default branch), not with the working copy, so a commit left
  unpushed by a refused push is sent with the next submission, and the plan lists it.
  The branch name is checked (:func:`check_branch`: ``git check-ref-format --branch``, no
  leading ``+`` or ``-``, no ``:``, no ``refs/...``, not ``HEAD``, never the remote's
  default branch); the push is never forced (``HEAD:refs/heads/<branch>``, a non
  fast-forward is refused by git), and the remote's branch is read back afterwards;
* a **Hub dataset repo**: one commit of exactly the staged files, opened as a pull
  request (``HfApi.create_commit(..., create_pr=True)``).

``--dry-run`` prints the files it would send and sends nothing (no network).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import StylebenchError
from evaluators.records.paths import RESULTS_DIR
from evaluators.results.repository import RepoTarget, git
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
    compared_with: str | None = None  # git: the remote ref the files differ from
    commits: tuple[str, ...] = ()  # git: local commits not on the remote, oldest first
    default_branch: str | None = None  # git: the remote's default branch


def remote_default_branch(root: Path) -> str | None:
    """The remote's default branch (``origin``'s ``HEAD``), None for an empty remote."""
    out = git(root, "ls-remote", "--symref", "origin", "HEAD", check=False)
    for line in out.splitlines():
        if line.startswith("ref: refs/heads/") and line.endswith("\tHEAD"):
            return line.removeprefix("ref: refs/heads/").removesuffix("\tHEAD")
    return None


def check_branch(name: str, default: str | None) -> str:
    """``name`` when it is a branch name git reads as nothing else; StylebenchError
    naming the problem otherwise (not a valid ref name by ``git check-ref-format
    --branch``, a leading ``+`` (a forced refspec) or ``-`` (an option), a ``:`` (a
    refspec), ``refs/...``, ``HEAD``, ``@``, or the remote's default branch (``main``
    and ``master`` when the remote has none yet))."""
    problem = None
    if not name or name.startswith(("+", "-")):
        problem = "starts with '+' or '-' (git reads it as a forced refspec or an option)"
    elif ":" in name:
        problem = "holds ':' (git reads it as a refspec)"
    elif name.startswith("refs/") or name in ("HEAD", "@") or "@{" in name:
        problem = "names a ref, not a branch"
    elif name in ({default} if default else {"main", "master"}):
        problem = "is the remote's default branch: a submission goes to a branch of its own"
    else:
        done = subprocess.run(
            ["git", "check-ref-format", "--branch", name], capture_output=True, text=True
        )
        if done.returncode != 0 or done.stdout.strip() != name:
            problem = "is not a valid branch name (git check-ref-format --branch)"
    if problem is not None:
        raise StylebenchError(f"--branch {name!r} {problem}")
    return name


def _remote_state(root: Path) -> tuple[str | None, str | None]:
    """Fetch the remote; (its default branch, the ``origin/<default>`` ref) or Nones
    for an empty remote."""
    git(root, "fetch", "--quiet", "--prune", "origin")
    default = remote_default_branch(root)
    if default is None:
        return None, None
    ref = f"refs/remotes/origin/{default}"
    if not git(root, "rev-parse", "--verify", "--quiet", ref, check=False).strip():
        return default, None
    return default, ref


def _changed_files(root: Path, against: str | None) -> tuple[str, ...]:
    """Files under results/ of a git working copy that differ from ``against`` (the
    remote's default branch; every file when None), committed or not, untracked
    included; removals are never sent (``validate`` refuses them)."""
    if against is None:
        tracked = git(root, "ls-files", "-z", "--", RESULTS_DIR)
    else:
        tracked = git(root, "diff", "--name-only", "-z", "--no-renames", against, "--", RESULTS_DIR)
    untracked = git(root, "ls-files", "-z", "--others", "--exclude-standard", "--", RESULTS_DIR)
    files = {p for p in (tracked + untracked).split("\0") if p}
    return tuple(sorted(p for p in files if (root / p).is_file()))


def _unpushed_commits(root: Path, against: str | None) -> tuple[str, ...]:
    """``<short id> <subject>`` of each local commit the remote does not hold (not on
    ``against``, or on no remote branch when the remote is empty), oldest first."""
    if not git(root, "rev-parse", "--verify", "--quiet", "HEAD", check=False).strip():
        return ()
    if against is not None:
        span = [f"{against}..HEAD"]
    else:
        remote = git(root, "for-each-ref", "--format=%(refname)", "refs/remotes/origin")
        span = ["HEAD", *(f"^{ref}" for ref in remote.split())]
    return tuple(git(root, "log", "--reverse", "--format=%h %s", *span).splitlines())


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
    if target.kind == "hub":
        files = _staged_files(target.root)
        if not files:
            raise StylebenchError(f"nothing to submit to {target.spec}: no new or changed results")
        return SubmissionPlan(target, files, None, message or _message(files))
    default, against = _remote_state(target.root)
    files = _changed_files(target.root, against)
    commits = _unpushed_commits(target.root, against)
    compared = f"origin/{default}" if against else "an empty remote"
    if not files:
        raise StylebenchError(
            f"nothing to submit to {target.spec}: no result differs from {compared}"
        )
    name = check_branch(branch or default_branch(files), default)
    return SubmissionPlan(
        target, files, name, message or _message(files), compared, commits, default
    )


def _message(files: tuple[str, ...]) -> str:
    models = sorted({f.split("/")[1] for f in files if f.count("/") >= 2})
    return f"stylebench results: {', '.join(models)}"


def check(plan: SubmissionPlan) -> ValidationReport:
    report = validate_repository(plan.target.root)
    if not report.ok:
        raise SubmissionRefused(report)
    return report


def submit_git(plan: SubmissionPlan) -> str:
    """Branch, commit and push (never forced: ``HEAD:refs/heads/<branch>``), then read
    the remote back: its branch must be the commit sent and its default branch where it
    was; the commit id."""
    root = plan.target.root
    branch = check_branch(str(plan.branch), plan.default_branch)
    check(plan)
    default_before = _remote_head(root, plan.default_branch)
    current = git(root, "rev-parse", "--abbrev-ref", "HEAD", check=False).strip()
    if current != branch:
        if git(root, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}", check=False):
            raise StylebenchError(
                f"a local branch {branch!r} exists in {root} and is not checked out: "
                "choose another --branch"
            )
        git(root, "checkout", "--quiet", "-b", branch)
    git(root, "add", "--", *plan.files)
    if git(root, "diff", "--cached", "--name-only").strip():
        git(root, "commit", "--quiet", "-m", plan.message)
    head = git(root, "rev-parse", "HEAD").strip()
    git(root, "push", "--quiet", "origin", f"HEAD:refs/heads/{branch}")
    sent = _remote_head(root, branch)
    if sent != head:
        raise StylebenchError(
            f"after the push, {plan.target.spec} branch {branch!r} is {sent or 'absent'}, "
            f"not the commit sent {head}"
        )
    if plan.default_branch and _remote_head(root, plan.default_branch) != default_before:
        raise StylebenchError(
            f"the remote's default branch {plan.default_branch!r} moved during the push: "
            "check the remote"
        )
    return head


def _remote_head(root: Path, branch: str | None) -> str | None:
    if not branch:
        return None
    out = git(root, "ls-remote", "origin", f"refs/heads/{branch}", check=False)
    return out.split()[0] if out.split() else None


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
