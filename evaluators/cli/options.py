"""Option groups shared by the ``stylebench`` commands, each defined once: the download
options of every ``build`` (``--download``, ``--mirror``, ``--manual-dir``,
``--accept-terms``) and the rule that turns them into
:class:`evaluators.downloads.DownloadSettings`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from dataset_scripts.core.errors import StylebenchError
from evaluators.downloads import DownloadSettings


def confirm(question: str) -> bool:
    """A yes/no question at the terminal (no by default): how the CLI accepts terms."""
    return click.confirm(question, default=False)


def settings_from(values: dict[str, Any]) -> DownloadSettings | None:
    """Pop ``build``'s download options from ``values``: the settings with
    ``--download``, None without (StylebenchError for a download option without it)."""
    download = values.pop("download", False)
    given = {k: values.pop(k, None) for k in ("mirror", "manual_dir", "accept_terms")}
    quiet = values.pop("no_progress", False)
    if not download:
        named = [f"--{k.replace('_', '-')}" for k, v in given.items() if v]
        if named:
            raise StylebenchError(f"{', '.join(named)} go with --download")
        return None
    return DownloadSettings(
        mirror=given["mirror"] or "",
        manual_dir=given["manual_dir"],
        accept_terms=bool(given["accept_terms"]),
        progress=not quiet,
        confirm=confirm,
    )


#: ``build``'s download options: (flag, click settings, help)
DOWNLOAD_OPTIONS: tuple[tuple[str, dict[str, Any], str], ...] = (
    (
        "--download",
        {"is_flag": True},
        "Fetch each dataset's raw data from its declared source into "
        "$STYLEBENCH_CACHE/downloads, verify its SHA-256s, then build.",
    ),
    (
        "--mirror",
        {"metavar": "URL"},
        "With --download: fetch every file from <URL>/<host>/<path> instead of its host "
        "(default: $STYLEBENCH_MIRROR).",
    ),
    (
        "--manual-dir",
        {"type": click.Path(path_type=Path)},
        "With --download: where files of gated sources are put by hand, one folder per "
        "source (default: $STYLEBENCH_CACHE/downloads/manual).",
    ),
    (
        "--accept-terms",
        {"is_flag": True},
        "With --download: accept the sources' terms of use without asking.",
    ),
)


def download_options(command: Any, no_progress_option: Any) -> Any:
    """``command`` with :data:`DOWNLOAD_OPTIONS` and ``no_progress_option`` (the CLI's
    ``--no-progress``), in that order in its help."""
    command = no_progress_option(command)
    for flag, settings, text in reversed(DOWNLOAD_OPTIONS):
        command = click.option(flag, help=text, **settings)(command)
    return command
