"""``stylebench sources``: every raw-data source, where it stands here (``list``), and
``record``, which writes their SHA-256s into the checksum registry shipped with the code
(``dataset_scripts/sources/checksums.tsv``) for a maintainer to commit, from a real
download or from raw folders already on disk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from dataset_scripts.core.errors import StylebenchError
from evaluators.cli.datasets import console
from evaluators.cli.options import confirm
from evaluators.downloads import DownloadSettings, check_terms


@click.group("sources", help="The raw-data sources every dataset is built from.")
def COMMAND() -> None:
    pass


def _rows(settings: DownloadSettings, family: str | None = None) -> list[dict[str, Any]]:
    from dataset_scripts.registry import all_sources, datasets_of
    from dataset_scripts.sources.fetch import status

    options = settings.options()
    rows = []
    for name, source in sorted(all_sources().items()):
        fed = [s.hub_id for s in datasets_of(source)]
        if family and not any(i.split("/")[0] == family for i in fed):
            continue
        entries = options.entries(name)
        size = sum(e.size for e in entries if not e.is_download)
        rows.append(
            {
                "source": name,
                "kind": source.kind,
                "where": "; ".join(d.describe() for d in source.downloads),
                "status": status(source, options),
                "hashes": "recorded" if entries else "unverified",
                "files": sum(e.files for e in entries if not e.is_download),
                "size_bytes": size,
                "gated": source.gated,
                "license": source.license,
                "datasets": fed,
            }
        )
    return rows


@COMMAND.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@click.option("--family", default=None, help="Only the sources of this family's datasets.")
def list_sources(fmt: str, family: str | None) -> None:
    """Every source: kind, where, status here (verified, cached, unverified, gated, not
    downloaded), recorded size."""
    import json

    rows = _rows(DownloadSettings(), family)
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    from rich.table import Table

    table = Table()
    for column in ("source", "kind", "status", "hashes", "size", "datasets", "where"):
        table.add_column(column, overflow="fold")
    for r in rows:
        size = f"{r['size_bytes'] / 1e6:.1f} MB" if r["size_bytes"] else "?"
        table.add_row(
            r["source"],
            r["kind"],
            r["status"],
            r["hashes"],
            size,
            str(len(r["datasets"])),
            r["where"],
        )
    console().print(table)
    console().print(totals(rows))


def totals(rows: list[dict[str, Any]]) -> str:
    """The footer: sources, how many are fetched by the command and their recorded size,
    how many have no recorded hashes, how many need a manual step (and their datasets)."""
    auto = [r for r in rows if not r["gated"]]
    gated = [r for r in rows if r["gated"]]
    size = sum(r["size_bytes"] for r in auto)
    unverified = [r["source"] for r in auto if r["hashes"] == "unverified"]
    return (
        f"{len(rows)} sources: {len(auto)} fetched by `build --download` "
        f"({size / 1e6:,.0f} MB of raw files recorded; {len(unverified)} without recorded "
        f"hashes: {', '.join(unverified) or 'none'}), {len(gated)} need a manual step "
        f"({sum(len(r['datasets']) for r in gated)} datasets)"
    )


@COMMAND.command("record")
@click.argument("names", nargs=-1)
@click.option(
    "--from-folder",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Record the files of raw folders already here (<folder>/<source>/), e.g. "
    "../shared/corpora, instead of downloading (a gzip'ed copy x.gz is recorded as x, "
    "with its content's hash).",
)
@click.option("--mirror", default=None, metavar="URL", help="Fetch from <URL>/<host>/<path>.")
@click.option("--accept-terms", is_flag=True, help="Accept the sources' terms without asking.")
def record_sources(
    names: tuple[str, ...], from_folder: Path | None, mirror: str | None, accept_terms: bool
) -> None:
    """Write SHA-256s and sizes into dataset_scripts/sources/checksums.tsv (for a
    maintainer to commit), from a real download or from raw folders already here."""
    from dataset_scripts.registry import all_sources
    from dataset_scripts.sources.checksums import entries_for_folder, read_registry, write_registry
    from dataset_scripts.sources.fetch import record

    out = console()
    sources = all_sources()
    unknown = [n for n in names if n not in sources]
    if unknown:
        raise StylebenchError(
            f"unknown source(s) {', '.join(unknown)}; `stylebench sources list` lists them"
        )
    chosen = [sources[n] for n in (names or sorted(sources))]
    registry = read_registry()
    settings = DownloadSettings(
        mirror=mirror or "", accept_terms=accept_terms, progress=False, confirm=confirm
    )
    if from_folder is None:
        check_terms(chosen, settings, out)
    for source in chosen:
        if from_folder is not None:
            folder = from_folder / source.name
            if not folder.is_dir():
                out.print(f"skipped {source.name}: no folder {folder}")
                continue
            gz = any(p.suffix == ".gz" for p in folder.rglob("*.gz"))
            lines = entries_for_folder(source.name, folder, wanted=source.covers, gunzip=gz)
        else:
            lines = record(source, settings.options())
        registry[source.name] = lines
        out.print(f"recorded {source.name}: {len(lines)} entries")
    write_registry(registry)
