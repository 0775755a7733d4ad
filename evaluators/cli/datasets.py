"""The dataset verbs every family shares: ``build`` and ``list``.

``stylebench <family> build`` and ``stylebench <family> list`` are made here by
:func:`build_command` and :func:`list_command` with the family's name (``steb``, ``arb``,
``valla``, ``styledisc``); the top-level ``stylebench build`` / ``stylebench list`` are the
same commands without a family, i.e. over every family. One implementation
(:func:`build_datasets`, :func:`print_listing`), so a dataset is built the same way, byte
for byte, whichever spelling built it.

Heavy imports stay inside the functions: this module is imported by ``stylebench --help``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from dataset_scripts.core.errors import StylebenchError
from evaluators.tabular import plural

# ``after(console, specs, folder)``: a family's step after a folder is built (the style
# discrimination LLM setting adds its generated rows there)
AfterBuild = Callable[[Any, Sequence[Any], Path], None]


def console():
    """The CLI's console: messages printed whole (a terminal wraps them itself; a pipe or
    a log gets one line per message, never a phrase cut at column 80)."""
    from rich.console import Console

    return Console(soft_wrap=True)


def corpora_root() -> Path | None:
    """``../shared/corpora`` (or $STYLEBENCH_CORPORA) when present."""
    from evaluators.paths import corpora_dir

    return corpora_dir()


def family_of(hub_id: str) -> str:
    """A dataset's family: its hub id's organisation (``arb/quartets`` -> ``arb``), the
    rule of :func:`dataset_scripts.status.select`."""
    return hub_id.split("/")[0]


#: the verbs every family has, in the order its help lists them
VERBS = ("build", "run", "report", "list")


class FamilyGroup(click.Group):
    """A family's group (``stylebench arb``): the shared verbs first, then its own verbs
    in the order they were added."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [v for v in VERBS if v in self.commands] + [
            n for n in self.commands if n not in VERBS
        ]

    def verbs(self) -> list[str]:
        """The visible verbs (for the root's help)."""
        return [n for n in self.list_commands(None) if not self.commands[n].hidden]  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- build


def build_datasets(
    hub_ids: Sequence[str],
    *,
    family: str | None = None,
    raw: Path | None = None,
    out: Path | None = None,
    build_all: bool = False,
    raw_root: Path | None = None,
    built_root: Path = Path("built"),
    register: bool | None = None,
    from_values: dict[str, Any] | None = None,
    after: AfterBuild | None = None,
    download: Any = None,
) -> list[Path]:
    """What every ``build`` spelling runs: dataset ids (or, with ``family``, that family's
    only dataset when none is given), ``--all`` (of ``family``, or of every family), or
    the user's own files (``--from``); with ``download`` (a
    :class:`evaluators.downloads.DownloadSettings`), each from its declared source.
    Returns the folders written."""
    from evaluators.cli.build_from import build_from

    if from_values is not None and from_values.get("from_source") is not None:
        if hub_ids or build_all:
            raise StylebenchError("give a dataset id, --all or --from, not several")
        return [build_from(out, built_root, from_values)]
    if not hub_ids and not build_all and family is not None:
        hub_ids = [_only_dataset(family)]
    if build_all == bool(hub_ids):
        raise StylebenchError("give either a dataset id or --all")
    if download is not None:
        return _build_downloaded(
            hub_ids, family, build_all, out, raw, built_root, register, after, download
        )
    out_console = console()
    if hub_ids:
        if out is not None and len(hub_ids) > 1:
            raise StylebenchError("--out names one folder: give one dataset id with it")
        return [
            _build_one(out_console, hub_id, family, raw, out, raw_root, built_root, register, after)
            for hub_id in hub_ids
        ]
    if out is not None:
        raise StylebenchError(
            f"--out {out} names one dataset's folder; --all writes one folder per dataset "
            "under --built-root (give --built-root instead)"
        )
    if register:
        raise StylebenchError(
            "--register applies to one dataset id; register --all builds with "
            "`stylebench build <repo id>` for those you load by id"
        )
    return _build_all(out_console, family, raw_root, built_root, after)


def _build_downloaded(
    hub_ids: Sequence[str],
    family: str | None,
    build_all: bool,
    out: Path | None,
    raw: Path | None,
    built_root: Path,
    register: bool | None,
    after: AfterBuild | None,
    download: Any,
) -> list[Path]:
    """``--download``: the datasets named (every config of a release) or ``--all`` (of
    ``family``), each built from its fetched and verified source."""
    from dataset_scripts.registry import all_datasets
    from dataset_scripts.status import select
    from evaluators.downloads import build_with_download

    if raw is not None or out is not None:
        raise StylebenchError(
            "--download builds from the fetched source into --built-root: drop --raw / --out"
        )
    if build_all:
        specs = sorted(select(all_datasets().values(), family=family), key=lambda s: s.hub_id)
    else:
        specs = []
        for hub_id in hub_ids:
            found = _resolve_in_family(hub_id, family, console(), " --download")
            specs += [s for s in found if s not in specs]
    folders = build_with_download(
        specs, built_root=built_root, settings=download, out=console(), after=after
    )
    if register and build_all:
        raise StylebenchError("--register applies to dataset ids, not --all")
    if register is not False and not build_all:
        from dataset_scripts.hub_cache import register_build

        for folder in dict.fromkeys(folders):
            repo = next(s.repo for s in specs if s.slug == folder.name)
            register_build(folder, repo)
            console().print(f'registered in datasets\' cache: load_dataset("{repo}") works offline')
    return folders


def _resolve_in_family(hub_id: str, family: str | None, out: Any, flags: str = "") -> list[Any]:
    """The specs ``hub_id`` names (its deprecation note printed), refused when they are
    another family's than the ``family`` command's."""
    from dataset_scripts.registry import resolve

    specs, note = resolve(hub_id)
    owner = family_of(specs[0].hub_id)
    if family is not None and owner != family:
        raise StylebenchError(
            f"{hub_id} is a dataset of the {owner} family, not {family}: "
            f"`stylebench {owner} build {hub_id}{flags}` (or `stylebench build {hub_id}{flags}`)"
        )
    if note:
        out.print(f"[yellow]{note}[/yellow]")
    return list(specs)


def _only_dataset(family: str) -> str:
    """The dataset a family build without an id means: the family's only one."""
    from dataset_scripts.registry import all_datasets
    from dataset_scripts.status import select

    ids = sorted(s.hub_id for s in select(all_datasets().values(), family=family) if s.builder)
    if len(ids) == 1:
        return ids[0]
    raise StylebenchError(
        f"give a dataset id or --all; {family} datasets: {', '.join(ids) or 'none'} "
        f"(`stylebench {family} list datasets`)"
    )


def _build_one(
    out_console,
    hub_id: str,
    family: str | None,
    raw: Path | None,
    out: Path | None,
    raw_root: Path | None,
    built_root: Path,
    register: bool | None,
    after: AfterBuild | None,
) -> Path:
    """One id: a release repo (every config it holds), ``repo:config``, or an old STEB id
    (with its deprecation note); then registered in datasets' cache."""
    from dataset_scripts.build import build_dataset, build_release
    from dataset_scripts.hub_cache import register_build
    from dataset_scripts.status import dataset_status

    specs = _resolve_in_family(hub_id, family, out_console)
    if raw is None and any(s.needs_raw for s in specs):
        root = raw_root or corpora_root()
        raw = next((r for s in specs if (r := dataset_status(s, root, None).raw)), None)
    folder = out or built_root / specs[0].slug
    try:
        if specs[0].config:
            folder, dropped, failed = build_release(specs, raw, folder)
        else:
            folder, single = build_dataset(specs[0], raw, folder)
            dropped, failed = {"": single}, {}
    except FileNotFoundError as error:
        raise StylebenchError(str(error)) from None
    repo = specs[0].repo
    rebuilt = [s.config for s in specs if s.config and s.config not in failed]
    shown = f"{repo} \\[{', '.join(rebuilt)}]" if rebuilt else repo
    kept = [c for c in dropped if c and c not in rebuilt]
    out_console.print(
        f"built {shown} -> {folder}" + (f" (kept: {', '.join(kept)})" if kept else "")
    )
    for config, reasons in dropped.items():
        if config in kept:
            continue
        for reason, n in sorted(reasons.items()):
            where = f"\\[{config}] " if config else ""
            out_console.print(f"  {where}dropped {plural(n, 'row')}: {reason}")
    if after is not None and not failed:
        after(out_console, specs, Path(folder))
    if register is not False:
        entries = register_build(folder, repo)
        names = ", ".join(e.config for e in entries)
        out_console.print(
            f'registered in datasets\' cache ({names}): load_dataset("{repo}"...) now works '
            "offline from any folder"
        )
    if failed:
        for config, error in failed.items():
            out_console.print(f"[red]not built[/red] {repo} \\[{config}]: {error}")
        raise StylebenchError(
            f"{len(failed)} of {len(specs)} configs of {repo} could not be built from {raw}"
        )
    return Path(folder)


def _build_all(
    out_console,
    family: str | None,
    raw_root: Path | None,
    built_root: Path,
    after: AfterBuild | None,
) -> list[Path]:
    """``--all``: every dataset (of ``family``) whose raw download is under ``raw_root``;
    one source's failure does not stop the others."""
    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import all_datasets
    from dataset_scripts.status import BUILDABLE, BUILT, dataset_status, discover, select

    root = raw_root or corpora_root()
    started = time.perf_counter()
    specs = sorted(select(all_datasets().values(), family=family), key=lambda s: s.hub_id)
    found = discover(root)
    _print_matches(out_console, root, found, specs)
    folders: list[Path] = []
    skipped, absent, failed = 0, [], []
    for spec in specs:
        status = dataset_status(spec, root, None, found)
        if status.kind not in (BUILDABLE, BUILT):
            skipped += 1
            continue
        t0 = time.perf_counter()
        try:
            folder, dropped = build_dataset(spec, status.raw, built_root / spec.slug)
            if after is not None:
                after(out_console, [spec], Path(folder))
        except Exception as error:  # one source's failure must not stop the others
            if os.environ.get("STYLEBENCH_DEBUG"):
                raise
            if _raw_files_absent(error):  # e.g. a sample release lacking this dataset's files
                absent.append(spec.hub_id)
                out_console.print(f"[yellow]not in this download[/yellow] {spec.hub_id}: {error}")
            else:
                failed.append(spec.hub_id)
                out_console.print(
                    f"[red]failed[/red] {spec.hub_id} (from {status.raw}): "
                    f"{type(error).__name__}: {error}"
                )
            continue
        folders.append(Path(folder))
        out_console.print(
            f"built {spec.hub_id} -> {folder} ({time.perf_counter() - t0:.1f} s, "
            f"{plural(sum(dropped.values()), 'row')} dropped: see its card)"
        )
    listing = f"stylebench {family} list datasets" if family else "stylebench list datasets"
    out_console.print(
        f"{len(folders)} datasets built, {len(failed)} failed, {len(absent)} lack their files "
        f"in the download found, {skipped} need a download or a builder (`{listing}`), "
        f"{time.perf_counter() - started:.0f} s"
    )
    if failed:
        raise StylebenchError(
            f"{len(failed)} datasets whose raw download is present could not be built "
            f"(reasons above): {', '.join(failed)}"
        )
    return folders


def _raw_files_absent(error: Exception) -> bool:
    """A build error that says the download lacks this dataset's files (not that they
    are unreadable): such a dataset needs another download and is not a failure."""
    from dataset_scripts.core.errors import DataError

    if isinstance(error, FileNotFoundError):
        return True
    return isinstance(error, DataError) and str(error).startswith("missing ")


def _print_matches(out_console, root: Path | None, found: dict, specs: list) -> None:
    """One line per raw download found under ``root``: where, why, and what it feeds."""
    users: dict[str, list[str]] = {}
    for spec in specs:
        if spec.raw_hint and spec.builder is not None:
            users.setdefault(spec.raw_hint, []).append(spec.hub_id)
    out_console.print(f"raw downloads found under {root}:")
    for source in sorted(found):
        if source not in users:
            continue
        match = found[source][0]
        out_console.print(f"  {source}: {match.line()} -> {len(users[source])} datasets")


def build_command(
    family: str | None,
    *,
    help: str,
    options: Sequence[Callable[[Callable[..., Any]], Callable[..., Any]]] = (),
    prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> click.Command:
    """The ``build`` command of ``family`` (None: every family, the top-level spelling).

    ``options`` are a family's extra click options; ``prepare`` turns their values (and
    the shared ones, all as keywords) into the keywords of :func:`build_datasets` (it
    may set ``after``). ``--from`` (your own files in a STEB schema) is offered by the
    top-level and the STEB spelling."""
    from evaluators.cli.build_from import OPTION_NAMES, from_options
    from evaluators.cli.options import built_root_option, download_options, settings_from

    def build(hub_ids: tuple[str, ...], **values: Any) -> None:
        download = settings_from(values)  # pops the --download options
        if prepare is not None:
            values = prepare(dict(values, hub_ids=hub_ids))
            hub_ids = values.pop("hub_ids")
        from_values = {k: values.pop(k) for k in (*OPTION_NAMES, "from_source") if k in values}
        build_datasets(
            list(hub_ids),
            family=values.pop("family", None) or family,
            from_values=from_values or None,
            download=download,
            **values,
        )

    for decorate in reversed(options):
        build = decorate(build)
    if family in (None, "steb"):
        build = from_options(build)  # --from <your file or folder> --schema ...
    if family is None:
        build = click.option(
            "--family", default=None, help="With --all: only this family (steb, arb, valla, ...)."
        )(build)
    shared = [
        click.argument("hub_ids", nargs=-1, metavar="[DATASET_ID]..."),
        click.option(
            "--raw", type=click.Path(path_type=Path), default=None, help="The raw download."
        ),
        click.option(
            "--out",
            type=click.Path(path_type=Path),
            default=None,
            help="Output folder (default: <built-root>/<org>__<name>).",
        ),
        click.option(
            "--all",
            "build_all",
            is_flag=True,
            help="Build every dataset"
            + (f" of {family}" if family else "")
            + " whose raw download is under --raw-root.",
        ),
        click.option(
            "--raw-root",
            type=click.Path(path_type=Path),
            default=None,
            help="Folder holding raw downloads, searched by --all and when --raw is not "
            "given (default: ../shared/corpora when present).",
        ),
        built_root_option,
        click.option(
            "--register/--no-register",
            default=None,
            help="Register the build in datasets' cache so that load_dataset(<hub id>) finds "
            "it offline from any folder (default: on for dataset ids; --all builds are not "
            "registered).",
        ),
    ]
    for decorate in reversed(shared):
        build = decorate(build)
    build = download_options(build)
    return click.command("build", help=help)(build)


# ----------------------------------------------------------------------------- list


@dataclass(frozen=True)
class ListFilters:
    """The ``list`` options (language, task, family and folders apply to datasets)."""

    language: str | None = None
    task: str | None = None
    family: str | None = None
    raw_root: Path | None = None
    built_root: Path = Path("built")


@dataclass
class Listing:
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    caption: str | None = None


ListKind = Callable[[ListFilters], Listing]


def list_tasks(_: ListFilters) -> Listing:
    """The STEB task types, their schema and main score."""
    from dataset_scripts.core.schemas import schema_for_task
    from evaluators.tasks import EVALUATORS

    listing = Listing(["task", "schema", "main score", "protocol"])
    for name, cls in EVALUATORS.items():
        listing.rows.append(
            [name, schema_for_task(name).name, cls.main_score_name, cls.description]
        )
    return listing


def list_encoders(_: ListFilters) -> Listing:
    """Built-in encoders and model adapters, and whether they run here."""
    from evaluators.encoders import list_encoders as entries

    listing = Listing(["encoder", "kind", "available", "description"])
    for entry in entries():
        ok = "yes" if entry.get("available") else f"no: {entry.get('reason', '')}"
        listing.rows.append(
            [entry["name"], entry.get("kind", ""), ok, entry.get("description", "")]
        )
    return listing


def list_datasets(filters: ListFilters) -> Listing:
    """Registered datasets (of ``filters.family``): built / buildable here / needs a
    download."""
    from collections import Counter

    from dataset_scripts.registry import all_datasets
    from dataset_scripts.status import (
        dataset_status,
        discover,
        registered_builds,
        select,
        source_kind,
        task_types,
    )

    specs = select(
        all_datasets().values(),
        language=filters.language,
        task=filters.task,
        family=filters.family,
    )
    root = filters.raw_root or corpora_root()
    found = discover(root)
    registered = registered_builds()
    statuses = [dataset_status(s, root, filters.built_root, found, registered) for s in specs]
    # the Hub repo (and config) first: what load_dataset and --dataset take; "dataset" is
    # the dataset's own id (STEB's Table 15 name; for a config of a release repo, the
    # pre-release per-dataset id, which still works with a deprecation note)
    listing = Listing(
        ["Hub repo[:config]", "tasks", "lang", "source", "status", "licence", "dataset"]
    )

    def repo_config(spec: Any) -> str:
        return f"{spec.repo}:{spec.config}" if spec.config else spec.repo

    for status in sorted(statuses, key=lambda st: repo_config(st.spec).lower()):
        spec = status.spec
        listing.rows.append(
            [
                repo_config(spec),
                ", ".join(task_types(spec)),
                ",".join(spec.language),
                source_kind(spec),
                status.line(),
                spec.license.split(";")[0],
                spec.hub_id,
            ]
        )
    tally = Counter(st.kind for st in statuses)
    listing.caption = (
        f"{plural(len(statuses), 'dataset')}: "
        + ", ".join(f"{n} {k}" for k, n in sorted(tally.items()))
        + f"; {plural(len({s.repo for s in specs}), 'Hub repo')} ({counts_note(specs)})"
    )
    return listing


def counts_note(specs: Sequence[Any]) -> str:
    """What the dataset count is made of: per family, and for STEB the paper's 96
    (Table 15) plus the non-English PAN sets of its Sec. 5.3 (the "113 entries")."""
    from collections import Counter

    families = Counter(s.hub_id.split("/")[0] for s in specs)
    parts = []
    for family, n in sorted(families.items(), key=lambda item: (-item[1], item[0])):
        if family == "steb":
            in_96 = sum(1 for s in specs if s.steb is not None and s.steb.in_steb_96)
            parts.append(
                f"{n} steb, of the paper's 96 (Table 15)"
                if in_96 == n
                else f"{n} steb = {'the' if in_96 == 96 else f'{in_96} of the'} paper's 96 "
                f"(Table 15) + {n - in_96} non-English PAN sets (Sec. 5.3)"
            )
        else:
            parts.append(f"{n} {family}")
    return ", ".join(parts)


def list_metric_modules(_: ListFilters) -> Listing:
    """The bundled evaluate modules."""
    from evaluators.metric_loading import list_metrics

    listing = Listing(
        ["metric", "load with (after `stylebench metrics install`)", "or, no install"]
    )
    for name in list_metrics():
        listing.rows.append([name, f'evaluate.load("{name}")', f'load_metric("{name}")'])
    return listing


#: what ``stylebench list`` and ``stylebench steb list`` show
STEB_LISTS: dict[str, ListKind] = {
    "tasks": list_tasks,
    "encoders": list_encoders,
    "datasets": list_datasets,
    "metrics": list_metric_modules,
}


def print_listing(kind: ListKind, filters: ListFilters, fmt: str) -> None:
    from evaluators.tabular import print_rows

    listing = kind(filters)
    print_rows(console(), listing.columns, listing.rows, fmt, listing.caption)


def list_command(family: str | None, kinds: dict[str, ListKind], *, help: str) -> click.Command:
    """The ``list`` command of ``family`` (None: the top-level spelling, every family):
    ``kinds`` name what it lists (the first is the default)."""

    def list_(what: str, fmt: str, **values: Any) -> None:
        filters = ListFilters(**{"family": family, **values})
        print_listing(kinds[what], filters, fmt)

    options = [
        click.argument("what", type=click.Choice(list(kinds)), default=next(iter(kinds))),
        click.option("--language", default=None, help="datasets: only this language (en, es)."),
        click.option("--task", default=None, help="datasets: only those serving this task type."),
    ]
    if family is None:
        options.append(
            click.option(
                "--family", default=None, help="datasets: only this family (steb, arb, valla, ...)."
            )
        )
    options += [
        click.option(
            "--raw-root",
            type=click.Path(path_type=Path),
            default=None,
            help="datasets: folder holding raw downloads (default: ../shared/corpora when present).",
        ),
        click.option(
            "--built-root",
            type=click.Path(path_type=Path),
            default=Path("built"),
            show_default=True,
            help="datasets: folder of built datasets.",
        ),
        click.option(
            "--format",
            "fmt",
            type=click.Choice(["auto", "table", "tsv", "md", "csv", "json"]),
            default="auto",
            show_default=True,
            help="auto: a table in a terminal wide enough for whole ids and URLs, TSV otherwise.",
        ),
    ]
    for decorate in reversed(options):
        list_ = decorate(list_)
    return click.command("list", help=help)(list_)


def alias(command: click.Command, name: str, note: str, *, hidden: bool = False) -> click.Command:
    """``command`` under another name (same callback, same options: no second
    implementation); ``note`` is its one-line help, e.g. ``= stylebench steb run``."""
    import copy

    other = copy.copy(command)
    other.name = name
    other.hidden = hidden
    other.short_help = note
    other.help = f"{note}\n\n{command.help or ''}".strip()
    other.alias_of = command  # type: ignore[attr-defined]  # the help of the root names it
    return other
