"""``steb/bible_versions``: eight verse-aligned English Bible translations (Carlson et al.
2018), labelled by version (STEB App. C.5).

Raw format: the ``StyleTransferBibleData`` repository, ``Data/Bibles/<VERSION>/<Book>/
<Book><chapter>.txt`` with one verse per line, ``<verse number> <text>``. The verse
references are sorted as the STEB authors' loader sorts them (book folder name, chapter,
verse) and shuffled with ``random.Random(42)`` before the per-version cap takes the first
200 (the STEB protocol; the canonical-order first 200 were an earlier, non-STEB sample). STEB "removes verses that are
identical (ignoring whitespacing and casing)": a verse whose text is the same in two or
more versions is dropped from every version, which keeps the kept verses parallel.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.steb.catalog import clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import CAP_PROTOCOL, labelled_table, require

URL = "https://github.com/keithecarlson/StyleTransferBibleData"
SHUFFLE_SEED = 42  # STEB's seed for the order of verse references
VERSIONS = ("ASV", "BBE", "DARBY", "DRA", "KJV", "LEB", "WEB", "YLT")
# canonical Protestant order, spelled as the repository's folder names
BOOKS = [
    "Genesis",
    "Exodus",
    "Leviticus",
    "Numbers",
    "Deuteronomy",
    "Joshua",
    "Judges",
    "Ruth",
    "1Samuel",
    "2Samuel",
    "1Kings",
    "2Kings",
    "1Chronicles",
    "2Chronicles",
    "Ezra",
    "Nehemiah",
    "Esther",
    "Job",
    "Psalms",
    "Proverbs",
    "Ecclesiastes",
    "SongofSolomon",
    "Isaiah",
    "Jeremiah",
    "Lamentations",
    "Ezekiel",
    "Daniel",
    "Hosea",
    "Joel",
    "Amos",
    "Obadiah",
    "Jonah",
    "Micah",
    "Nahum",
    "Habakkuk",
    "Zephaniah",
    "Haggai",
    "Zechariah",
    "Malachi",
    "Matthew",
    "Mark",
    "Luke",
    "John",
    "Acts",
    "Romans",
    "1Corinthians",
    "2Corinthians",
    "Galatians",
    "Ephesians",
    "Phillipians",
    "Colossians",
    "1Thessalonians",
    "2Thessalonians",
    "1Timothy",
    "2Timothy",
    "Titus",
    "Philemon",
    "Hebrews",
    "James",
    "1Peter",
    "2Peter",
    "1John",
    "2John",
    "3John",
    "Jude",
    "Revelation",
]
_VERSE = re.compile(r"^(?:\[\[)?(\d+)(?:\s+(.*))?$")  # "[[" marks LEB bracketed verses

VerseKey = tuple[int, int, int]  # book index, chapter, verse


def _bibles_dir(raw: Path) -> Path:
    for base in (raw / "Data" / "Bibles", raw / "Bibles", raw):
        if (base / VERSIONS[0]).is_dir():
            return base
    return require(raw / "Data" / "Bibles" / VERSIONS[0], URL, "Bible version folder")


def read_version(folder: Path, bracketed: set[VerseKey] | None = None) -> dict[VerseKey, str]:
    """All verses of one version folder, keyed by (book index, chapter, verse); the keys of
    verses marked ``[[`` (LEB's bracketed verses) are added to ``bracketed`` when given."""
    verses: dict[VerseKey, str] = {}
    books = {p.name for p in folder.iterdir() if p.is_dir()}
    unknown = sorted(books - set(BOOKS))
    if unknown:
        raise DataError(f"{folder}: unknown book folder(s) {unknown}")
    for book_index, book in enumerate(BOOKS):
        if book not in books:
            continue
        for path in (folder / book).glob(f"{book}*.txt"):
            chapter_text = path.stem[len(book) :]
            if not chapter_text.isdigit():
                raise DataError(f"{path}: file name is not <Book><chapter>.txt")
            chapter = int(chapter_text)
            with path.open(encoding="utf-8") as handle:
                for line_no, line in enumerate(handle, start=1):
                    line = line.strip()
                    if not line:
                        continue
                    match = _VERSE.match(line)
                    if match is None:
                        raise DataError(
                            f"{path} line {line_no}: expected '<verse number> <text>', "
                            f"got {line[:60]!r}"
                        )
                    key = (book_index, chapter, int(match.group(1)))
                    verses[key] = (match.group(2) or "").strip()
                    if bracketed is not None and line.startswith("[["):
                        bracketed.add(key)
    return verses


def _normalise(text: str) -> str:
    return " ".join(text.lower().split())


PROTOCOL = (
    "Verse references are sorted by (book folder name, chapter, verse); the verses kept "
    "(below) are shuffled by `random.Random(42)` (the STEB authors' loader), then the first "
    "verses of that order are kept per version. Only verses present and non-empty in all "
    "eight versions are used; LEB's bracketed verses (a leading `[[`), which the authors' "
    "loader does not read, are dropped from every version. STEB removes verses "
    "that are identical ignoring whitespace and casing: a verse whose normalised text is "
    "the same in two or more versions is dropped from every version (so the kept verses stay "
    "parallel across labels). " + CAP_PROTOCOL + " Our copy is the full source: 8 x 200 = "
    "1,600 texts, as in Table 15."
)


def build(raw: Path | None) -> BuildResult:
    """Bible verses labelled by translation."""
    if raw is None:
        raise DataError("steb/bible_versions needs --raw <StyleTransferBibleData checkout>")
    base = _bibles_dir(Path(raw))
    bracketed: set[VerseKey] = set()
    bibles = {v: read_version(require(base / v, URL, f"{v} folder"), bracketed) for v in VERSIONS}
    dropped: Counter[str] = Counter()
    common = set.intersection(*(set(b) for b in bibles.values()))
    for version, verses in bibles.items():
        missing = len(verses) - len(common)
        if missing:
            dropped[f"{version} verse absent from another version"] += missing
    # STEB's order: references sorted as (book folder name, chapter, verse), filtered, then
    # the kept ones shuffled by random.Random(42); the per-version cap then takes the
    # first verses of that order. The authors' loader reads a verse line only when it is
    # "<number> <text>": an empty or a bracketed ("[[12 ...") verse is absent there, so it
    # leaves the common references before the shuffle, as here.
    keys = sorted(common, key=lambda k: (BOOKS[k[0]], k[1], k[2]))
    kept: list[VerseKey] = []
    for key in keys:
        texts = [_normalise(bibles[v][key]) for v in VERSIONS]
        if not all(texts):
            dropped["verse empty in some version (dropped from all)"] += len(texts)
            continue
        if key in bracketed:
            dropped["verse bracketed ([[) in LEB (dropped from all)"] += len(texts)
            continue
        if len(set(texts)) < len(texts):
            dropped["verse identical in two or more versions (dropped from all)"] += len(texts)
            continue
        kept.append(key)
    random.Random(SHUFFLE_SEED).shuffle(kept)
    records = [
        (f"{version}-{BOOKS[b]}-{c}-{v}", bibles[version][(b, c, v)], version)
        for version in VERSIONS
        for (b, c, v) in kept
    ]
    return labelled_table(records, dropped)


DATASETS = (
    steb_dataset(
        name="bible_versions",
        summary="Verse-aligned text of eight English Bible translations, labelled by version.",
        bucket="time",
        definitional=("time",),
        counts=clustering_counts(8, 200),
        source_url="https://github.com/keithecarlson/StyleTransferBibleData",
        license="KJV, ASV, BBE, Darby, DRA, WEB, YLT public domain; LEB under the Lexham "
        "English Bible licence (free use with attribution); no licence file in the repository",
        raw_format="Data/Bibles/<VERSION>/<Book>/<Book><chapter>.txt, lines '<verse> <text>'",
        citation="""@article{carlson2018evaluating,
  title   = {Evaluating prose style transfer with the Bible},
  author  = {Carlson, Keith and Riddell, Allen and Rockmore, Daniel},
  journal = {Royal Society Open Science},
  year    = {2018}
}""",
        builder=build,
        protocol=PROTOCOL,
        raw_hint="BibleVersions",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "BibleVersions",
        (
            github(
                "keithecarlson/StyleTransferBibleData",
                "1c6c8eec242d496c40531d740cd0d57f5f195d05",
                ("Data/Bibles/", ("README.md", ""), ("Results/Results.csv", "")),
            ),
        ),
        license="public-domain texts; LEB under Lexham's free-use licence (attribution)",
    ),
)
