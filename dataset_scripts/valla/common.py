"""Reading helpers shared by the Valla builders: file walking with clear errors."""

from __future__ import annotations

from pathlib import Path

from dataset_scripts.core.errors import DataError

VALLA_CITATION = """@article{tyo2022valla,
  title   = {On the State of the Art in Authorship Attribution and Authorship Verification},
  author  = {Tyo, Jacob and Dhingra, Bhuwan and Lipton, Zachary C.},
  journal = {arXiv preprint arXiv:2209.06869},
  year    = {2022}
}"""


def read_text(path: Path, encoding: str = "utf-8", universal_newlines: bool = False) -> str:
    """The text of one raw file; a decoding error names the file and byte offset.
    ``universal_newlines``: ``\r\n`` and lone ``\r`` become ``\n``, as Python's text-mode
    ``open()`` with which Valla's dataset scripts read their raw files."""
    data = path.read_bytes()
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        raise DataError(
            f"{path}: not valid {encoding} at byte {error.start} ({data[error.start : error.start + 4]!r})"
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if universal_newlines else text


def find_folder(raw: Path, *names: str) -> Path:
    """The first of ``raw/<name>`` or ``raw/data/<name>``... that exists (for each name the
    published layout and the layout of common mirrors)."""
    for base in (raw, raw / "data", raw / "raw"):
        for name in names:
            if (base / name).is_dir():
                return base / name
    raise FileNotFoundError(f"{raw}: none of {list(names)} found (also looked under data/, raw/)")


def author_files(folder: Path, pattern: str = "*.txt") -> list[tuple[str, Path]]:
    """(author, file) for ``folder/<author>/<pattern>``, sorted; an empty author folder or
    a folder without authors is an error."""
    authors = sorted(p for p in folder.iterdir() if p.is_dir())
    if not authors:
        raise DataError(f"{folder}: no author folders")
    out: list[tuple[str, Path]] = []
    for author in authors:
        files = sorted(author.glob(pattern))
        if not files:
            raise DataError(f"{author}: no {pattern} files")
        out.extend((author.name, f) for f in files)
    return out
