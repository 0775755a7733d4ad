"""Readers for the style-discrimination corpora of reviews, blogs and lyrics: Amazon Fine
Food Reviews, the Blog Authorship Corpus and Edenbd's lyrics dump (the reviews and lyrics
are not under ../shared/corpora: their tests use format fixtures).

Each reader returns :class:`~dataset_scripts.styledisc.readers.Document` rows in source
order (author = reviewer ``userId`` / blogger id / artist) and a ``{reason: count}``
report of every record it skipped, exactly like the readers of ``readers.py``.

Raw formats:

- **Amazon Fine Food Reviews** (McAuley and Leskovec 2013): SNAP's ``finefoods.txt``
  (optionally ``.gz``; ISO-8859-1), records of ``key: value`` lines (``product/productId``,
  ``review/userId``, ``review/profileName``, ``review/helpfulness``, ``review/score``,
  ``review/time``, ``review/summary``, ``review/text``) separated by blank lines; or the
  Kaggle ``Reviews.csv`` (columns ``Id, ProductId, UserId, ProfileName,
  HelpfulnessNumerator, HelpfulnessDenominator, Score, Time, Summary, Text``). Review
  texts carry HTML (``<br />``, ``&quot;``), which is unescaped.
- **Blog Authorship Corpus** (Schler et al. 2006): ``blogs/<id>.<gender>.<age>.<industry>
  .<sign>.xml`` files (Latin-1, not well-formed XML). The file-name convention and source
  URL are the ones of :mod:`dataset_scripts.steb.blog`; one text is one ``<post>``
  element (its non-empty lines joined by newlines), the paper's unit of a blog article.
- **Lyrics** (Edenbd 2020, "150k lyrics labeled with Spotify valence", Kaggle):
  ``labeled_lyrics_cleaned.csv`` with an unnamed index column and ``artist, seq, song,
  label`` (``seq`` = the lyrics, ``label`` = valence). Assumption: the paper names the
  dump but not its columns; the reader takes the lyrics from ``seq``, or from ``lyrics``
  / ``text`` in other Kaggle lyrics dumps, and the author from ``artist``.

The two CSV files are read by the project's one strict reader
(:func:`dataset_scripts.raw_io.read_csv`): a newline inside a quoted review or song is
fine; an unbalanced quote or a row with a wrong field count is an error naming the file
and the line, not rows merged into one text.
"""

from __future__ import annotations

import gzip
import html
import io
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.raw_io import csv_header, read_csv
from dataset_scripts.steb.blog import URL as BLOG_URL
from dataset_scripts.steb.blog import parse_blog_name
from dataset_scripts.styledisc.readers import Document

_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
_TAGS = re.compile(r"<[^>]+>")


def _open_lines(path: Path, encoding: str) -> io.TextIOBase:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding=encoding, newline="")  # type: ignore[return-value]
    return path.open(encoding=encoding, newline="")


def clean_review_text(text: str) -> str:
    """Amazon review text: ``<br />`` -> newline, other tags removed, entities unescaped."""
    text = _BR.sub("\n", text)
    text = html.unescape(_TAGS.sub("", text))
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


# --- Amazon Fine Food Reviews ------------------------------------------------------------

SNAP_KEYS = (
    "product/productId",
    "review/userId",
    "review/profileName",
    "review/helpfulness",
    "review/score",
    "review/time",
    "review/summary",
    "review/text",
)
_UNKNOWN_USERS = {"", "unknown"}


def iter_snap_records(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """(first line number, ``{key: value}``) of every record of a SNAP ``finefoods.txt``.

    Raises :class:`DataError` naming file and line for a line that is not ``key: value``
    with a known key, or a key repeated inside one record."""
    record: dict[str, str] = {}
    start = 0
    with _open_lines(path, "latin-1") as handle:
        for line_no, line in enumerate(handle, start=1):
            line = line.rstrip("\r\n")
            if not line.strip():
                if record:
                    yield start, record
                    record = {}
                continue
            key, sep, value = line.partition(":")
            if not sep or key not in SNAP_KEYS:
                raise DataError(
                    f"{path} line {line_no}: expected '<key>: <value>' with a key of "
                    f"{', '.join(SNAP_KEYS)}, got {line[:60]!r}"
                )
            if key in record:
                raise DataError(
                    f"{path} line {line_no}: {key} repeated in the record starting at "
                    f"line {start} (missing blank line between records?)"
                )
            if not record:
                start = line_no
            record[key] = value[1:] if value.startswith(" ") else value
    if record:
        yield start, record


def _review(
    docs: list[Document],
    dropped: Counter[str],
    doc_id: str,
    user: str,
    text: str,
) -> None:
    user = user.strip()
    if user.casefold() in _UNKNOWN_USERS:
        dropped["amazon_food: review without a user id"] += 1
        return
    text = clean_review_text(text)
    if not text:
        dropped["amazon_food: empty review text"] += 1
        return
    docs.append(Document(doc_id, text, "amazon_food", user))


def read_amazon_snap(path: Path) -> tuple[list[Document], Counter[str]]:
    """SNAP ``finefoods.txt(.gz)``: one Document per record (author = ``review/userId``)."""
    docs: list[Document] = []
    dropped: Counter[str] = Counter()
    for index, (line_no, record) in enumerate(iter_snap_records(path)):
        for key in ("review/userId", "review/text"):
            if key not in record:
                raise DataError(f"{path} record {index + 1} (line {line_no}): missing {key}")
        _review(
            docs, dropped, f"amazon_food-{index}", record["review/userId"], record["review/text"]
        )
    return docs, dropped


def read_amazon_csv(path: Path) -> tuple[list[Document], Counter[str]]:
    """Kaggle ``Reviews.csv``: one Document per row (author = ``UserId``; id from ``Id``)."""
    docs: list[Document] = []
    dropped: Counter[str] = Counter()
    header = csv_header(path)
    missing = [c for c in ("UserId", "Text") if c not in header]
    if missing:
        raise DataError(f"{path} line 1: missing column {missing[0]!r} (header: {header})")
    # the project's strict CSV reader: an unbalanced quote or a wrong field count is an
    # error naming the file and line, not rows merged into one review
    for row_no, (_, row) in enumerate(read_csv(path), start=1):
        doc_id = f"amazon_food-{row.get('Id') or row_no - 1}"
        _review(docs, dropped, doc_id, row["UserId"], row["Text"])
    return docs, dropped


def read_amazon_food(raw: Path) -> tuple[list[Document], Counter[str]]:
    """Amazon Fine Food Reviews from ``raw``: SNAP ``finefoods.txt(.gz)`` if present, else
    Kaggle ``Reviews.csv(.gz)`` (the two are the same 568,454 reviews; one is read)."""
    raw = Path(raw)
    for name, reader in (
        ("finefoods.txt", read_amazon_snap),
        ("Reviews.csv", read_amazon_csv),
    ):
        for candidate in (raw / name, raw / f"{name}.gz"):
            if candidate.is_file():
                return reader(candidate)
    raise FileNotFoundError(
        f"{raw}: no finefoods.txt(.gz) (SNAP) or Reviews.csv(.gz) (Kaggle) "
        "(expected Amazon Fine Food Reviews, https://snap.stanford.edu/data/web-FineFoods.html)"
    )


# --- Blog Authorship Corpus ---------------------------------------------------------------


def iter_blog_posts(path: Path) -> Iterator[tuple[int, str]]:
    """(line of ``<post>``, text) of every ``<post>`` of one blogger file. Tags may share a
    line with text; an unclosed ``<post>`` or a ``<post>`` inside a post is a DataError
    naming file and line."""
    start: int | None = None
    lines: list[str] = []
    with path.open(encoding="latin-1") as handle:
        for line_no, line in enumerate(handle, start=1):
            rest = line
            while rest:
                if start is None:
                    index = rest.find("<post>")
                    if index < 0:
                        break
                    start, rest = line_no, rest[index + len("<post>") :]
                    continue
                close = rest.find("</post>")
                opening = rest.find("<post>")
                if opening >= 0 and (close < 0 or opening < close):
                    raise DataError(
                        f"{path} line {line_no}: <post> inside the post of line {start}"
                    )
                if close < 0:
                    lines.append(rest)
                    break
                lines.append(rest[:close])
                text = "\n".join(s.strip() for s in "".join(lines).splitlines() if s.strip())
                yield start, text
                start, lines, rest = None, [], rest[close + len("</post>") :]
    if start is not None:
        raise DataError(f"{path} line {start}: <post> without </post>")


def read_blogs(raw: Path) -> tuple[list[Document], Counter[str]]:
    """Blog Authorship Corpus ``blogs/*.xml`` (or ``raw/*.xml``): one Document per post,
    author = blogger id, in sorted file order."""
    raw = Path(raw)
    folder = raw / "blogs" if (raw / "blogs").is_dir() else raw
    files = sorted(folder.glob("*.xml"))
    if not files:
        raise FileNotFoundError(
            f"{folder}: no <id>.<gender>.<age>.<industry>.<sign>.xml files "
            f"(expected the Blog Authorship Corpus, {BLOG_URL})"
        )
    docs: list[Document] = []
    dropped: Counter[str] = Counter()
    for path in files:
        blogger = parse_blog_name(path)[0]
        posts = 0
        for line_no, text in iter_blog_posts(path):
            posts += 1
            if not text:
                dropped["blogs: empty post"] += 1
                continue
            docs.append(Document(f"blogs-{blogger}-{line_no}", text, "blogs", blogger))
        if not posts:
            dropped["blogs: blogger file without a <post>"] += 1
    return docs, dropped


# --- Lyrics (Edenbd 2020) ------------------------------------------------------------------

LYRICS_TEXT_COLUMNS = ("seq", "lyrics", "Lyrics", "text")
LYRICS_ARTIST_COLUMNS = ("artist", "Artist")


def read_lyrics(raw: Path) -> tuple[list[Document], Counter[str]]:
    """Lyrics CSV (``labeled_lyrics_cleaned.csv`` of Edenbd's dump, else the only
    ``*.csv`` in ``raw``): one Document per song, author = artist (case-folded, spaces
    collapsed, so ``"ABBA "`` and ``"abba"`` are one author)."""
    raw = Path(raw)
    if raw.is_file():
        path = raw
    else:
        preferred = [raw / "labeled_lyrics_cleaned.csv", raw / "labeled_lyrics_cleaned.csv.gz"]
        found = [p for p in preferred if p.is_file()] or sorted(raw.glob("*.csv*"))
        if len(found) != 1:
            raise FileNotFoundError(
                f"{raw}: expected labeled_lyrics_cleaned.csv (Edenbd, '150k lyrics labeled "
                f"with Spotify valence') or exactly one *.csv; found {len(found)}"
            )
        path = found[0]
    docs: list[Document] = []
    dropped: Counter[str] = Counter()
    header = csv_header(path)
    text_col = next((c for c in LYRICS_TEXT_COLUMNS if c in header), None)
    artist_col = next((c for c in LYRICS_ARTIST_COLUMNS if c in header), None)
    if text_col is None or artist_col is None:
        wanted = "lyrics (seq/lyrics/text)" if text_col is None else "artist"
        raise DataError(f"{path} line 1: no {wanted} column (header: {header})")
    # the project's strict CSV reader (see read_amazon_csv)
    for row_no, (_, row) in enumerate(read_csv(path), start=1):
        artist = re.sub(r"\s+", " ", row[artist_col]).strip().casefold()
        if not artist:
            dropped["lyrics: song without an artist"] += 1
            continue
        text = "\n".join(s.strip() for s in row[text_col].splitlines() if s.strip())
        if not text:
            dropped["lyrics: empty lyrics"] += 1
            continue
        docs.append(Document(f"lyrics-{row_no - 1}", text, "lyrics", artist))
    return docs, dropped
