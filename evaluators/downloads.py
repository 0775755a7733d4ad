"""``stylebench build ... --download``: the datasets' declared sources fetched into the
download cache (``$STYLEBENCH_CACHE/downloads``, see :mod:`dataset_scripts.sources.fetch`),
verified against the checksum registry, extracted and built, ending with one table:
built / needs a manual step / failed, with why. (``stylebench sources`` is in
:mod:`evaluators.cli.sources`.)
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import StylebenchError

BUILT, MANUAL, FAILED = "built", "needs manual step", "failed"


@dataclass
class DownloadSettings:
    """What ``--download`` was given: mirror, manual folder, terms accepted, progress."""

    mirror: str = ""
    manual_dir: Path | None = None
    accept_terms: bool = False
    progress: bool = True
    #: how a terminal is asked to accept a source's terms (the CLI passes click's
    #: confirm); None: never asked (``--accept-terms`` is then the only yes)
    confirm: Callable[[str], bool] | None = None

    def options(self) -> Any:
        from dataset_scripts.sources.fetch import Options
        from evaluators.paths import cache_root

        return Options(
            root=cache_root() / "downloads",
            manual_root=self.manual_dir,
            mirror=self.mirror or os.environ.get("STYLEBENCH_MIRROR", ""),
            progress=self.progress,
        )


@dataclass
class Outcome:
    hub_id: str
    status: str
    detail: str


@dataclass
class Timings:
    seconds: dict[str, float] = field(
        default_factory=lambda: dict.fromkeys(("fetch", "verify", "extract", "build"), 0.0)
    )
    fetched_bytes: int = 0

    def line(self) -> str:
        s = self.seconds
        return (
            f"time: fetch {s['fetch']:.2f} s, verify {s['verify']:.2f} s, extract "
            f"{s['extract']:.2f} s, build {s['build']:.2f} s; {self.fetched_bytes} bytes fetched"
        )


def check_terms(sources: Sequence[Any], settings: DownloadSettings, out: Any) -> None:
    """Show every source's terms; go on with ``--accept-terms`` or a yes at a terminal."""
    with_terms = [s for s in sources if s.terms]
    if not with_terms:
        return
    for source in with_terms:
        out.print(f"terms of {source.name}: {source.terms}")
    if settings.accept_terms:
        return
    names = ", ".join(s.name for s in with_terms)
    asked = settings.confirm is not None and sys.stdin.isatty()
    if asked and settings.confirm(f"Accept the terms of {names}?"):
        return
    raise StylebenchError(
        f"the sources {names} ask you to accept their terms (shown above); pass "
        "--accept-terms to accept them and download"
    )


def _prepare_all(
    sources: Sequence[Any], settings: DownloadSettings, out: Any, timings: Timings
) -> dict[str, Any]:
    """{source name: Prepared or the exception} for every source, four at a time."""
    from dataset_scripts.sources.fetch import prepare

    options = settings.options()

    def one(source: Any) -> Any:
        try:
            prepared = prepare(source, options, log=out.print)
        except (StylebenchError, OSError) as error:
            return error
        for step, seconds in prepared.seconds.items():
            timings.seconds[step] += seconds
        timings.fetched_bytes += prepared.fetched_bytes
        how = "cached" if prepared.cached else "fetched"
        verified = "verified" if prepared.verified else "unverified"
        out.print(f"{how} {source.name} ({verified}) -> {prepared.folder}")
        return prepared

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip([s.name for s in sources], pool.map(one, sources), strict=True))


def reads_beside(spec: Any) -> list[Any]:
    """The declared sources ``spec``'s builder reads beside its own raw folder (its
    module's ``READS_BESIDE``: styledisc's other domains), fetched along with it; a
    failure of one of them fails nothing (the builder goes without, as with --raw)."""
    from dataset_scripts.registry import all_sources

    module = sys.modules.get(getattr(spec.builder, "__module__", "") or "")
    sources = all_sources()
    return [sources[n] for n in getattr(module, "READS_BESIDE", ()) if n in sources]


def build_with_download(
    specs: Sequence[Any],
    *,
    built_root: Path,
    settings: DownloadSettings,
    out: Any,
    after: Any = None,
) -> list[Path]:
    """Fetch, verify, extract and build ``specs``; print the table; StylebenchError when
    any failed (a manual step is not a failure: the table says what to do)."""
    from rich.table import Table

    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import source_of
    from dataset_scripts.sources.fetch import ManualStepNeeded

    started = time.perf_counter()
    timings = Timings()
    by_spec = {s.hub_id: source_of(s) if s.needs_raw else None for s in specs}
    wanted = [s for s in by_spec.values() if s is not None]
    wanted += [s for spec in specs if spec.needs_raw for s in reads_beside(spec)]
    sources = list({s.name: s for s in wanted}.values())
    check_terms(sources, settings, out)
    prepared = _prepare_all(sources, settings, out, timings)
    primary = {s.name for s in by_spec.values() if s is not None}
    for name, got in prepared.items():
        if name not in primary and isinstance(got, BaseException):
            first = (str(got).splitlines() or [type(got).__name__])[0]
            out.print(f"[yellow]built without {name}[/yellow] (read beside others): {first}")
    outcomes: list[Outcome] = []
    folders: list[Path] = []
    for spec in specs:
        source = by_spec[spec.hub_id]
        if spec.builder is None:
            outcomes.append(Outcome(spec.hub_id, FAILED, "no build script"))
            continue
        if spec.needs_raw and source is None:
            outcomes.append(
                Outcome(
                    spec.hub_id,
                    MANUAL,
                    f"no declared source: get it from {spec.source_url} and build with --raw",
                )
            )
            continue
        got = prepared.get(source.name) if source is not None else None
        if isinstance(got, ManualStepNeeded):
            outcomes.append(Outcome(spec.hub_id, MANUAL, str(got)))
            continue
        if isinstance(got, BaseException):
            outcomes.append(Outcome(spec.hub_id, FAILED, str(got)))
            continue
        t0 = time.perf_counter()
        try:
            folder, _ = build_dataset(spec, got.folder if got else None, built_root / spec.slug)
            if after is not None:
                after(out, [spec], Path(folder))
        except Exception as error:  # one dataset's failure must not stop the others
            if os.environ.get("STYLEBENCH_DEBUG"):
                raise
            outcomes.append(Outcome(spec.hub_id, FAILED, f"{type(error).__name__}: {error}"))
            continue
        finally:
            timings.seconds["build"] += time.perf_counter() - t0
        folders.append(Path(folder))
        outcomes.append(Outcome(spec.hub_id, BUILT, str(folder)))
    table = Table(title="build --download")
    for column in ("dataset", "status", "why / where"):
        table.add_column(column, overflow="fold")
    colour = {BUILT: "green", MANUAL: "yellow", FAILED: "red"}
    for o in outcomes:
        table.add_row(o.hub_id, f"[{colour[o.status]}]{o.status}[/]", o.detail)
    out.print(table)
    counts = {k: sum(o.status == k for o in outcomes) for k in (BUILT, MANUAL, FAILED)}
    out.print(
        f"{counts[BUILT]} built, {counts[MANUAL]} need a manual step, {counts[FAILED]} failed "
        f"({time.perf_counter() - started:.1f} s)"
    )
    out.print(timings.line())
    if counts[FAILED]:
        failed = [o for o in outcomes if o.status == FAILED]
        if len(failed) == 1:
            raise StylebenchError(f"{failed[0].hub_id}: {failed[0].detail}")
        raise StylebenchError(f"{counts[FAILED]} datasets failed (reasons above)")
    if counts[MANUAL] and not counts[BUILT] and len(outcomes) == 1:
        raise StylebenchError(outcomes[0].detail)
    return folders
