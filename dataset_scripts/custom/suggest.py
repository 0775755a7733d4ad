"""The exact ``stylebench build --from`` command that turns a path into a dataset folder.

Used by ``stylebench run`` when ``--dataset`` names a file or a folder that is not a
Hub-ready dataset folder. The command is derived from what the path holds: a table file's
header (text and label columns recognised by common names), or a folder of text files
(labels from its sub-folders). Where a column cannot be recognised, the command names the
columns found instead of guessing.
"""

from __future__ import annotations

from pathlib import Path

from dataset_scripts.custom.build import BuildOptions, cli_command
from dataset_scripts.custom.readers import TABLE_SUFFIXES, _suffix, is_text_file, peek_columns

TEXT_NAMES = ("text", "texts", "body", "content", "document", "passage", "sentence", "review")
LABEL_NAMES = ("label", "author", "style", "class", "category", "labels", "author_id", "genre")


def _pick(columns: list[str], names: tuple[str, ...]) -> str | None:
    lowered = {c.lower(): c for c in map(str, columns)}
    for name in names:
        if name in lowered:
            return lowered[name]
    return None


def is_dataset_folder(path: Path) -> bool:
    """A folder ``datasets.load_dataset`` reads as a stylebench dataset: a README card
    with ``configs``, or data files under ``data/<schema>/``."""
    card = path / "README.md"
    if card.is_file() and "configs:" in card.read_text(encoding="utf-8", errors="replace")[:20000]:
        return True
    from dataset_scripts.core.schemas import SCHEMAS

    return any((path / "data" / name).is_dir() for name in SCHEMAS)


def build_command_for(path: str | Path, out_root: str | Path = "built") -> str | None:
    """The command that builds ``path`` into ``<out_root>/<name>``, or ``None`` when the
    path is neither a supported file nor a folder of text files."""
    found = suggestion_for(path, out_root)
    return None if found is None else found[0]


def not_a_dataset_message(ref: str, out_root: str | Path = "built") -> str | None:
    """The one-line error for ``stylebench run --dataset <ref>`` when ``ref`` is an
    existing path that is not a dataset folder (``None`` when it is one, or no path)."""
    path = Path(ref)
    if not path.exists() or (path.is_dir() and is_dataset_folder(path)):
        return None
    found = suggestion_for(path, out_root)
    what = "a file" if path.is_file() else "a folder"
    if found is None:
        return (
            f"{ref!r} is {what}, not a dataset folder, and stylebench cannot read it "
            f"(supported: {', '.join(TABLE_SUFFIXES)} files, folders of .txt files, "
            "Hugging Face dataset folders); see `stylebench build --help`"
        )
    command, out = found
    return (
        f"{ref!r} is {what}, not a dataset folder; make it one with `{command}`, "
        f"then run with --dataset {out}"
    )


def suggestion_for(path: str | Path, out_root: str | Path = "built") -> tuple[str, Path] | None:
    """(command, output folder) of :func:`build_command_for`."""
    path = Path(path)
    out = Path(out_root) / (path.name.split(".")[0] or "dataset")
    if path.is_dir():
        files = [p for p in path.rglob("*") if p.is_file() and is_text_file(p)]
        if not files:
            tables = sorted(p for p in path.rglob("*") if _suffix(p) in TABLE_SUFFIXES)
            if not tables:
                return None
            return _table_command(path, tables[0], out)
        labelled = any(p.parent != path for p in files)
        options = BuildOptions(label_from="folder" if labelled else "none")
        if not labelled:
            options = BuildOptions(schema="probing", label_from="none")
        return cli_command(path, out, options), out
    if not path.is_file() or _suffix(path) not in TABLE_SUFFIXES:
        return None
    return _table_command(path, path, out)


def _table_command(source: Path, sample: Path, out: Path) -> tuple[str, Path]:
    """The command for a table file (or a folder of them; ``sample`` gives the columns)."""
    path = source
    try:
        columns = peek_columns(sample)
    except Exception:  # an unreadable file: the build command will report the problem
        columns = []
    text = _pick(columns, TEXT_NAMES) or "<TEXT COLUMN>"
    label = _pick(columns, LABEL_NAMES) or "<LABEL COLUMN>"
    options = BuildOptions(text_column=text, label_column=label)
    command = cli_command(path, out, options)
    if "<" in text or "<" in label:
        command += f"   (columns found: {', '.join(map(str, columns)) or 'none'})"
    return command, out
