"""``steb/masc_text_genre``: texts of the Manually Annotated Sub-Corpus of American
English (MASC 3.0.0, Ide et al. 2008, 2013) labelled by its 19 genres (STEB App. C.4).

Raw format: the MASC 3.0.0 release folder (``MASC-3.0.0/`` or its contents), whose
primary texts are ``data/written/<genre>/<doc>.txt`` and ``data/spoken/<genre>/<doc>.txt``
(UTF-8 plain text; the stand-off annotation files next to them, ``*.xml``/``*.anc``, are
ignored). The genre label is the name of the folder holding the ``.txt`` file.

STEB reports 150 samples per genre, more than the documents of most genres, so a text is
one non-empty line of a document (a paragraph in written genres, a turn in spoken
transcripts) with whitespace collapsed. Uncertain: the paper does not say how documents
were split; line-level units are this builder's choice. Duplicate lines (boilerplate such
as repeated headers) are dropped and counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.steb.catalog import clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import CAP_PROTOCOL, labelled_builder

URL = "http://www.anc.org/data/masc/downloads"
MODES = ("written", "spoken")
PER_GENRE = 150


def masc_files(raw: Path) -> list[Path]:
    """The primary ``.txt`` files, written before spoken, sorted by genre and name."""
    for base in (raw / "MASC-3.0.0" / "data", raw / "data", raw):
        files = [
            path
            for mode in MODES
            for path in sorted((base / mode).glob("*/*.txt"))
            if path.is_file()
        ]
        if files:
            return files
    raise DataError(
        f"missing MASC texts: expected {raw / 'data' / 'written'}/<genre>/<doc>.txt or "
        f"{raw / 'data' / 'spoken'}/<genre>/<doc>.txt (download: {URL})"
    )


def read_records(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    for path in masc_files(raw):
        genre = path.parent.name
        with path.open("rb") as handle:
            for line_no, data in enumerate(handle, start=1):
                try:
                    line = data.decode("utf-8-sig" if line_no == 1 else "utf-8")
                except UnicodeDecodeError as error:
                    raise DataError(
                        f"{path} line {line_no}: not UTF-8 (byte {error.start} of the line)"
                    ) from None
                text = " ".join(line.split())
                if not text:
                    continue
                yield f"{genre}/{path.stem}-{line_no}", text, genre


build_masc_text_genre = labelled_builder(read_records, high=PER_GENRE, dedupe=True)


DATASETS = (
    steb_dataset(
        name="masc_text_genre",
        summary="MASC 3.0.0 texts of 19 genres of American English.",
        bucket="genre",
        definitional=("genre",),
        counts=clustering_counts(19, 150),
        source_url="http://www.anc.org/data/masc/downloads",
        license="no licence or other restrictions (https://anc.org/data/masc/about/)",
        raw_format="MASC 3.0.0 data/written|spoken/<genre>/<doc>.txt",
        builder=build_masc_text_genre,
        protocol="Every non-empty line of every MASC 3.0.0 document (data/written and "
        "data/spoken) is one text, labelled with its genre folder; duplicate lines are dropped. "
        + CAP_PROTOCOL.replace("[25, 200]", f"[25, {PER_GENRE}]")
        + f" STEB reports 19 x {PER_GENRE} = 2,850 (Table 15).",
    ),
)
