"""The Submissions tab: explain a submission to the results repository and check it with
``stylebench results validate`` (:func:`evaluators.results.validate.validate_repository`),
showing each refusal with its file and reason.

A submission is a zip of a results-repository folder (``results/<org>__<model>/...`` as
``stylebench results add`` lays it out), a git repository URL (``https://...``, optionally
``#<branch>``: the branch is checked against the repository's default branch, so a removed
result is refused), or a Hub dataset repo id (``org/name``, optionally ``@<revision>``,
e.g. ``@refs/pr/3``; not offline). Everything is unpacked, cloned or downloaded into a
fresh temporary folder that is deleted afterwards: the Space never writes anywhere else,
and never pushes or opens a pull request (``stylebench results submit`` does that).

Budgets (the same as ``stylebench results validate``'s, :mod:`evaluators.records.items`):
a zip of at most :data:`MAX_ZIP_BYTES`, unpacking to at most :data:`MAX_UNPACKED_BYTES` in
at most :data:`MAX_FILES` files, none over the record-file budget (32 MiB); then the
records' per-item data may declare at most the per-record (64 MiB) and per-submission
(1 GiB) inflate budgets, checked before anything is inflated, each stream inflated only
to its declared size. A repository holding a symbolic link is refused (a zip holding one
never unpacks).

``STYLEBENCH_SPACE_RESULTS_BASE`` (a local copy of the results repository) is what an
uploaded zip is compared with for removed results; without it removals are not checked
for a zip, and the report says so. ``STYLEBENCH_SPACE_GIT_ROOTS`` (folders separated by
``:``) allows local git repositories under them besides ``https://`` URLs (for tests and
self-hosted mirrors).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stylebench_space.safety import UserError, clean_message

MAX_ZIP_BYTES = 50_000_000
MAX_UNPACKED_BYTES = 200_000_000
MAX_FILES = 20_000
GIT_SECONDS = 90
ENV_BASE = "STYLEBENCH_SPACE_RESULTS_BASE"
ENV_GIT_ROOTS = "STYLEBENCH_SPACE_GIT_ROOTS"
HUB_REF = re.compile(r"^([A-Za-z0-9][\w.-]{0,95}/[A-Za-z0-9][\w.-]{0,95})(?:@([\w./-]{1,100}))?$")
COLUMNS = ("level", "file", "reason")

EXPLAIN = """A submission adds your model's results to the shared results repository. Make it with
the command line, then check it here before you open the pull request:

```bash
stylebench run --benchmark steb --model <your model> --out runs/mine
stylebench results add runs/mine --repo ./results-repo --model-meta meta.yaml
stylebench results validate --repo ./results-repo      # what this tab runs
stylebench results submit --repo <git-url>  # a branch + commit (--hub --repo org/name: a Hub PR)
```

Upload the repository folder as a zip (it holds `results/`), or give a git URL
(`https://...#branch`) or a Hub dataset repo (`org/name@refs/pr/N`). Refused: a record
whose main score does not follow from its per-item data, a missing run setting, a folder
that does not match its metadata, a duplicate, an unknown benchmark version, and a result
removed from the repository, a symbolic link, a name that is not a plain folder or file
name, per-item data over its size budget. Nothing is stored: the check runs in a
temporary folder."""


@dataclass
class SubmissionReport:
    accepted: bool
    findings: list[tuple[str, str, str]] = field(default_factory=list)  # level, file, reason
    n_records: int = 0
    n_models: int = 0
    base: str | None = None
    source: str = ""

    @property
    def refusals(self) -> list[tuple[str, str, str]]:
        return [f for f in self.findings if f[0] == "refusal"]

    def summary(self) -> str:
        head = "**Accepted**" if self.accepted else f"**Refused** ({len(self.refusals)} reason(s))"
        warnings = len(self.findings) - len(self.refusals)
        removed = (
            f"removed results checked against {self.base}"
            if self.base
            else "removed results not checked (no base to compare with)"
        )
        return (
            f"{head}: {self.source}: {self.n_records} result(s) of {self.n_models} model "
            f"revision(s), {len(self.refusals)} refused, {warnings} warning(s); {removed}."
        )


def validator() -> Any:
    """The results repository's validate function (one place that names it), run with
    the per-submission inflate budget of :mod:`evaluators.records.items`."""
    try:
        from evaluators.records.items import SUBMISSION_INFLATE_BYTES
        from evaluators.results.validate import validate_repository
    except ImportError:
        raise UserError(
            "this build of stylebench has no results validation (evaluators.results.validate)"
        ) from None

    def validate(root: Path, base: str | None) -> Any:
        return validate_repository(root, base, inflate_budget=SUBMISSION_INFLATE_BYTES)

    return validate


def record_file_budget() -> int:
    """The largest record file ``validate`` reads (a zip member over it never unpacks)."""
    from evaluators.records.items import RECORD_FILE_BYTES

    return RECORD_FILE_BYTES


def check_folder(root: Path, base: str | None, source: str) -> SubmissionReport:
    """Run the validation over a repository folder and turn it into plain rows."""
    validate = validator()
    try:
        report = validate(root, base)
    except Exception as error:  # a DataError of a bad base, git trouble, ...
        raise UserError(f"the submission could not be checked: {clean_message(error)}") from None
    findings = [(f.level, f.path, clean_message(f.reason)) for f in report.findings]
    return SubmissionReport(
        accepted=report.ok,
        findings=findings,
        n_records=report.n_records,
        n_models=report.n_models,
        base=_public_base(report.base),
        source=source,
    )


def _public_base(label: str | None) -> str | None:
    if label is None:
        return None
    if label.startswith("git "):
        return label
    return "the Space's copy of the results repository"


def configured_base() -> str | None:
    value = os.environ.get(ENV_BASE, "").strip()
    return value if value and Path(value).is_dir() else None


def unpack_zip(upload: Path, into: Path) -> Path:
    """Extract a zip safely (no absolute paths, no ``..``, no links, bounded sizes) and
    return the folder that holds ``results/``."""
    if upload.stat().st_size > MAX_ZIP_BYTES:
        raise UserError(f"the zip is over {MAX_ZIP_BYTES // 1_000_000} MB")
    try:
        archive = zipfile.ZipFile(upload)
    except zipfile.BadZipFile:
        raise UserError("the upload is not a zip file") from None
    with archive:
        members = archive.infolist()
        if len(members) > MAX_FILES:
            raise UserError(f"the zip holds over {MAX_FILES:,} files")
        if sum(m.file_size for m in members) > MAX_UNPACKED_BYTES:
            raise UserError(f"the zip unpacks to over {MAX_UNPACKED_BYTES // 1_000_000} MB")
        per_file = record_file_budget()
        for member in members:
            name = member.filename
            if member.file_size > per_file:
                raise UserError(
                    f"the zip holds {name[:100]!r} of {member.file_size:,} bytes, over the "
                    f"budget of {per_file:,} per file"
                )
            parts = Path(name).parts
            if name.startswith(("/", "\\")) or ".." in parts or re.match(r"^[A-Za-z]:", name):
                raise UserError(f"the zip holds an unsafe path: {name!r}")
            if stat.S_ISLNK(member.external_attr >> 16):
                raise UserError(f"the zip holds a link: {name!r}")
        try:
            archive.extractall(into)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError) as error:
            raise UserError(f"the zip is damaged ({clean_message(error)})") from None
    return _repository_root(into)


def _repository_root(folder: Path) -> Path:
    if (folder / "results").is_dir():
        return folder
    inner = [p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(("__MACOSX", "."))]
    if len(inner) == 1 and (inner[0] / "results").is_dir():
        return inner[0]
    raise UserError(
        "the zip holds no results/ folder (zip the repository folder that `stylebench "
        "results add` wrote)"
    )


def _git_allowed(url: str) -> bool:
    if url.startswith("https://") and not any(c in url for c in " \t\n;|&`$"):
        return True
    roots = [Path(r).resolve() for r in os.environ.get(ENV_GIT_ROOTS, "").split(":") if r]
    if not roots:
        return False
    path = Path(url.removeprefix("file://")).resolve()
    return any(path == r or r in path.parents for r in roots)


def clone(url: str, branch: str | None, into: Path) -> Path:
    """A shallow clone of every branch (so the default branch is there to compare with),
    the submission's branch checked out."""
    if not _git_allowed(url):
        raise UserError("a git submission is an https:// URL (optionally #branch)")
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true"}
    target = into / "repo"
    source = url if url.startswith("https://") else str(Path(url.removeprefix("file://")))
    commands = [
        ["git", "clone", "--quiet", "--no-single-branch", "--depth", "50", source, str(target)]
    ]
    if branch:
        commands.append(
            ["git", "-C", str(target), "checkout", "--quiet", "-B", branch, f"origin/{branch}"]
        )
    for command in commands:
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=GIT_SECONDS, env=env
            )
        except subprocess.TimeoutExpired:
            raise UserError(f"git did not answer within {GIT_SECONDS} s") from None
        if done.returncode != 0:
            what = "clone the repository" if command[1] == "clone" else f"check out {branch!r}"
            raise UserError(f"could not {what}: {clean_message(done.stderr or done.stdout)}")
    return target


def download_hub(repo_id: str, revision: str | None, into: Path) -> Path:
    if os.environ.get("HF_HUB_OFFLINE", "") not in ("", "0"):
        raise UserError("the Hub is not reachable from this Space (offline): upload a zip")
    from huggingface_hub import snapshot_download

    try:
        folder = snapshot_download(
            repo_id,
            repo_type="dataset",
            revision=revision,
            local_dir=into / "repo",
            cache_dir=into / "cache",
        )
    except Exception as error:
        raise UserError(f"could not download {repo_id}: {clean_message(error)}") from None
    return Path(folder)


def validate_submission(upload: str | None, reference: str | None) -> SubmissionReport:
    """Check an uploaded zip or a git / Hub reference (exactly one of them)."""
    reference = (reference or "").strip()
    if bool(upload) == bool(reference):
        raise UserError("upload a zip or give a git URL or Hub repo id (one of them)")
    with tempfile.TemporaryDirectory(prefix="stylebench-submission-") as tmp:
        work = Path(tmp)
        if upload:
            root = unpack_zip(Path(upload), work / "unpacked")
            return check_folder(root, configured_base(), "the uploaded zip")
        if "://" in reference or reference.startswith("/") or reference.endswith(".git"):
            url, _, branch = reference.partition("#")
            root = clone(url, branch or None, work)
            label = "the git repository" + (f", branch {branch}" if branch else "")
            return check_folder(root, None, label)
        match = HUB_REF.match(reference)
        if not match:
            raise UserError(
                f"{reference[:100]!r} is neither an https:// git URL nor a Hub repo id org/name"
            )
        root = download_hub(match.group(1), match.group(2), work)
        return check_folder(root, configured_base(), f"Hub dataset {match.group(1)}")


def report_rows(report: SubmissionReport) -> list[list[str]]:
    return [list(f) for f in report.findings]


def build(guard: Any) -> None:
    """The tab's components and its event (``/validate_submission``)."""
    import gradio as gr
    import pandas as pd

    @guard
    def run(upload: str | None, reference: str) -> tuple[str, pd.DataFrame]:
        report = validate_submission(upload, reference)
        return report.summary(), pd.DataFrame(report_rows(report), columns=list(COLUMNS))

    gr.Markdown(EXPLAIN)
    with gr.Row():
        upload = gr.File(
            label="Results repository (zip)",
            file_types=[".zip"],
            type="filepath",
            elem_id="sub-upload",
        )
        reference = gr.Textbox(
            label="or a git URL (https://...#branch) or Hub dataset repo (org/name@refs/pr/N)",
            elem_id="sub-ref",
        )
    button = gr.Button("Validate submission", variant="primary", elem_id="sub-validate")
    verdict = gr.Markdown(elem_id="sub-verdict")
    findings = gr.Dataframe(
        headers=list(COLUMNS), interactive=False, wrap=True, elem_id="sub-findings"
    )
    button.click(
        run,
        inputs=[upload, reference],
        outputs=[verdict, findings],
        api_name="validate_submission",
        concurrency_id="submission",
        concurrency_limit=2,
    )
