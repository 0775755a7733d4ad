"""Option groups shared by the ``stylebench`` commands, each defined once with its rule:

* :data:`seed_option`: ``--seed`` (default :data:`~evaluators.metric_math.resampling.DEFAULT_SEED`);
* :func:`scoring_lm_options`: ``--model`` / ``--reference`` of the detectors' language model;
* :func:`cache_options`: ``--cache-dir`` / ``--no-cache``, given to the command as one
  ``cache_dir`` (None: no cache) by :func:`cache_dir_from`;
* :func:`sampling_options`: ``--episode-size`` / ``--per-class``, given as one ``sampling``
  (:class:`~evaluators.tasks.episodes.Sampling`) by :func:`sampling_from`;
* :data:`no_progress_option`: ``--no-progress`` (progress bars, model loading and
  downloads silenced for the command's run, restored after);
* :func:`download_options`: ``--download``, ``--mirror``, ``--manual-dir``,
  ``--accept-terms`` of every ``build``, read by :func:`settings_from`.

:func:`group` declares click options and hands their values to the command as one value;
:func:`packed` does the second half for options declared one by one (their order in
``--help`` stays where it is). Heavy imports stay inside the functions.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from dataset_scripts.core.errors import StylebenchError
from evaluators.downloads import DownloadSettings
from evaluators.metric_math.resampling import DEFAULT_SEED

#: a click decorator (an option, an argument or a group of them)
Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def packed(name: str, build: Callable[..., Any], *params: str) -> Decorator:
    """The command gets the values of its click parameters ``params`` as one keyword
    ``name`` = ``build(**values)`` instead of one keyword each."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(command)
        def call(*args: Any, **kwargs: Any) -> Any:
            values = {p: kwargs.pop(p) for p in params}
            return command(*args, **kwargs, **{name: build(**values)})

        return call

    return decorate


def group(name: str, build: Callable[..., Any], options: Sequence[Decorator]) -> Decorator:
    """``options`` (in this order in ``--help``), their values given to the command as one
    keyword ``name`` = ``build(**values)``."""

    def probe() -> None: ...

    for decorate in options:  # their parameter names, read off a throw-away function
        decorate(probe)
    params = [p.name for p in getattr(probe, "__click_params__", [])]

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        command = packed(name, build, *params)(command)
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def options(*decorators: Decorator) -> Decorator:
    """One decorator applying several click options, in this order in ``--help``."""

    def apply(command: Callable[..., Any]) -> Callable[..., Any]:
        for decorate in reversed(decorators):
            command = decorate(command)
        return command

    return apply


# ------------------------------------------------------------------------- progress

_PROGRESS_ENV = ("HF_HUB_DISABLE_PROGRESS_BARS",)


def silence_progress(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    """``--no-progress``: also no model-loading or download bars (huggingface_hub,
    transformers, datasets), for the command's run only.

    huggingface_hub's switch is turned off before the command imports transformers (which
    takes its default from it at import), datasets' by its own function, and
    ``HF_HUB_DISABLE_PROGRESS_BARS`` carries it to worker processes the command starts
    (``--devices``). When the command ends, the environment and every switch are as before
    (a second command in one process, a test).
    """
    if not value:
        return value
    from huggingface_hub.utils import (
        are_progress_bars_disabled,
        disable_progress_bars,
        enable_progress_bars,
    )

    hub_was_on = not are_progress_bars_disabled()
    transformers_was_on = hub_was_on
    if "transformers" in sys.modules:
        from transformers.utils import logging as transformers_logging

        transformers_was_on = transformers_logging.is_progress_bar_enabled()
    saved_env = {name: os.environ.get(name) for name in _PROGRESS_ENV}
    # datasets reads its own variable once, at import, and then refuses to switch bars
    # back on: import it here (every command with bars loads data through it anyway)
    # and switch its bars off and on by its functions, never by that variable
    import datasets

    datasets_was_on = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    os.environ.update(dict.fromkeys(_PROGRESS_ENV, "1"))
    disable_progress_bars()
    if "transformers" in sys.modules:
        transformers_logging.disable_progress_bar()

    def restore() -> None:
        for name, old in saved_env.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old
        if hub_was_on:
            enable_progress_bars()
        if transformers_was_on and "transformers" in sys.modules:
            from transformers.utils import logging as transformers_logging

            transformers_logging.enable_progress_bar()
        if datasets_was_on:
            datasets.enable_progress_bars()

    ctx.call_on_close(restore)
    return value


#: ``--no-progress`` of every command that shows progress
no_progress_option = click.option(
    "--no-progress", is_flag=True, callback=silence_progress, help="Hide progress bars "
    "(also model loading and downloads).",
)  # fmt: skip


# ------------------------------------------------------------------------ output

#: ``--built-root``: where ``stylebench build`` writes (and ``run``, ``push`` read) dataset
#: folders
built_root_option = click.option(
    "--built-root", type=click.Path(path_type=Path), default=Path("built"), show_default=True
)


# ----------------------------------------------------------------------------- seed

#: ``--seed``: every seeded command's (bootstraps, splits, samples, generation)
seed_option = click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True)


# ------------------------------------------------------------------------- model


def scoring_lm_options(model_help: str, reference_help: str) -> Decorator:
    """``--model`` (the causal LM the zero-shot detectors score with; default the bundled
    SmolLM2 alias) and ``--reference`` (Fast-DetectGPT's sampling / Binoculars' observer
    model), described for the command at hand: ``arb run`` and ``detect run``."""
    from evaluators.arb.detectors import SMOLLM2

    return options(
        click.option("--model", default=SMOLLM2, show_default=True, help=model_help),
        click.option("--reference", default=None, help=reference_help),
    )


# ---------------------------------------------------------------------------- cache


def cache_dir_from(cache_dir: Path | None, no_cache: bool) -> Path | None:
    """The embedding cache a command uses: none with ``--no-cache``, else ``--cache-dir``,
    else the shared default (:func:`evaluators.paths.embedding_cache_dir`)."""
    from evaluators.paths import embedding_cache_dir

    return None if no_cache else (cache_dir or embedding_cache_dir())


def cache_options(help: str) -> Decorator:
    """``--cache-dir`` (described by ``help``) and ``--no-cache``, given to the command
    as ``cache_dir`` by :func:`cache_dir_from`."""
    return group(
        "cache_dir",
        cache_dir_from,
        [
            click.option("--cache-dir", type=click.Path(path_type=Path), default=None, help=help),
            click.option(
                "--no-cache", is_flag=True, help="Do not read or write the embedding cache."
            ),
        ],
    )


# ------------------------------------------------------------------------- sampling


def sampling_from(episode_size: int | None, per_class: str | None) -> Any:
    """The :class:`~evaluators.tasks.episodes.Sampling` of ``--episode-size`` and
    ``--per-class`` (the default when neither is given)."""
    from evaluators.tasks.episodes import DEFAULT_SAMPLING, Sampling

    if episode_size is None and per_class is None:
        return DEFAULT_SAMPLING
    return Sampling(episode_size, per_class)


def sampling_options(
    episode_size_help: str, per_class_help: str, per_class_metavar: str | None = None
) -> Decorator:
    """``--episode-size`` and ``--per-class`` (described for the command at hand), given
    to the command as ``sampling`` by :func:`sampling_from`."""
    return group(
        "sampling",
        sampling_from,
        [
            click.option("--episode-size", type=int, default=None, help=episode_size_help),
            click.option(
                "--per-class", default=None, metavar=per_class_metavar, help=per_class_help
            ),
        ],
    )


# ------------------------------------------------------------------------- download


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


def download_options(command: Any) -> Any:
    """``command`` with :data:`DOWNLOAD_OPTIONS` and ``--no-progress``, in that order in
    its help."""
    command = no_progress_option(command)
    for flag, settings, text in reversed(DOWNLOAD_OPTIONS):
        command = click.option(flag, help=text, **settings)(command)
    return command
