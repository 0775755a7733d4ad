"""Shared helpers for STEB's labelled-text datasets (clustering and all-to-all pairs):
locating raw files with a helpful error, reading delimited files with line numbers, and
turning ``(text, label)`` records into a capped ``labelled_texts`` table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github, https, hub, manual
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.raw_io import open_text, read_csv  # noqa: F401 (open_text: re-exported)
from dataset_scripts.steb.sampling import MAX_PER_CLASS, MIN_PER_CLASS, cap_per_class


def require(path: Path, url: str, what: str = "raw file") -> Path:
    """Return ``path`` if it exists, else raise a one-line error with the download URL."""
    if not path.exists():
        raise DataError(f"missing {what}: expected {path} (download: {url})")
    return path


def find_first(raw: Path, candidates: Iterable[str], url: str, what: str) -> Path:
    """The first of ``candidates`` (paths relative to ``raw``, or ``raw`` itself for "")
    that exists; the error names every expected path and the download URL."""
    tried = []
    for name in candidates:
        path = raw / name if name else raw
        if path.is_file():
            return path
        tried.append(str(path))
    raise DataError(f"missing {what}: expected one of {', '.join(tried)} (download: {url})")


def read_delimited(
    path: Path, required: Iterable[str], delimiter: str = ","
) -> Iterator[tuple[int, dict[str, str]]]:
    """Yield ``(line number, row)`` of a CSV/TSV with a header, read strictly by the
    project's one CSV reader (:func:`dataset_scripts.raw_io.read_csv`): missing columns,
    ragged rows and unbalanced quotes raise :class:`DataError` naming file and line."""
    return read_csv(path, required, delimiter=delimiter)


def labelled_table(
    records: Iterable[tuple[str, str, str]],
    dropped: Counter[str],
    *,
    low: int = MIN_PER_CLASS,
    high: int = MAX_PER_CLASS,
    dedupe: bool = False,
) -> BuildResult:
    """``(id, text, label)`` records in source order -> capped ``labelled_texts`` table.

    Empty texts are dropped (counted); with ``dedupe`` exact duplicate texts too (the
    first occurrence is kept). STEB's per-class cap keeps the first n rows per label.
    """
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for row_id, text, label in records:
        text = text.strip()
        if not text:
            dropped["empty text"] += 1
            continue
        if dedupe:
            if text in seen:
                dropped["duplicate text"] += 1
                continue
            seen.add(text)
        rows.append({"id": row_id, "text": text, "label": label})
    rows = cap_per_class(
        rows, key=lambda r: r["label"], dropped=dropped, what="label", low=low, high=high
    )
    return BuildResult({"labelled_texts": {"test": rows}}, dict(dropped))


def labelled_builder(
    read: Callable[[Path, Counter[str]], Iterable[tuple[str, str, str]]],
    **options: Any,
) -> Callable[[Path | None], BuildResult]:
    """A builder from a record reader ``read(raw, dropped) -> (id, text, label)...``."""

    def build(raw: Path | None) -> BuildResult:
        if raw is None:
            raise DataError("this dataset needs --raw <path to the raw download>")
        dropped: Counter[str] = Counter()
        return labelled_table(read(Path(raw), dropped), dropped, **options)

    return build


CAP_PROTOCOL = (
    "As in STEB, every label keeps its first n texts in source order, n = the smallest "
    "label's size clamped to [25, 200]; labels with fewer texts are dropped (counted below)."
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "davidson_hate_speech_offensive",
        (
            https(
                "https://raw.githubusercontent.com/t-davidson/hate-speech-and-offensive-language/cb50f7e9eb855a99abc51423bf40df0e26d6fe30/data/labeled_data.csv",
                "data/labeled_data.csv",
            ),
        ),
        license="MIT",
        homepage="https://github.com/t-davidson/hate-speech-and-offensive-language",
    ),
    Source(
        "vicomtech_hate_speech_stormfront",
        (
            github(
                "Vicomtech/hate-speech-dataset",
                "b802137e8314c38a8d4faa965f9908d6c8e7a84d",
                (
                    "all_files/",
                    ("annotations_metadata.csv", ""),
                    ("LICENSE", ""),
                    ("README.md", ""),
                ),
            ),
        ),
        license="CC BY-SA 3.0 ES",
    ),
    Source(
        "sms_spam_collection",
        (
            github(
                "SnehaKedia/sms-spam-detection-using-tensorflow-keras",
                "ae6d75701433e884ae62bca4bed8eb40c622c3d1",
                ("smsspamcollection/",),
            ),
        ),
        license="free, no limitations beyond the authors' copyright (readme section 4); cite Almeida et al. 2011",
        homepage="https://archive.ics.uci.edu/dataset/228/sms+spam+collection",
        note="the UCI zip's layout, from a copy whose SMSSpamCollection blob another repository holds byte-identical",
    ),
    Source(
        "ceeces",
        (
            manual("https://zenodo.org/records/6411789"),
            manual("https://zenodo.org/records/5887101"),
        ),
        license="see the Zenodo records",
        instructions="Download the CEECES letter files of Zenodo records 6411789 and 5887101 (file names not pinned here).",
        datasets=("steb/ceeces",),
    ),
    Source(
        "core",
        (github("TurkuNLP/CORE-corpus", "main"),),
        license="CC BY-SA 4.0",
        datasets=("steb/core",),
        note="revision not pinned here (no GitHub access): the default branch, unverified",
    ),
    Source(
        "endive",
        (manual("https://huggingface.co/datasets/abhaygupta1266/"),),
        license="see the EnDive dataset card",
        instructions="The EnDive repository name is not pinned here: download its task CSV/JSONL files from the Hub page.",
        datasets=("steb/endive",),
    ),
    Source(
        "fce",
        (manual("https://ilexir.co.uk/datasets/index.html"),),
        license="FCE licence (non-commercial research; Cambridge / ilexir)",
        instructions="The FCE release is downloaded after accepting its licence on the ilexir page; unpack fce-released-dataset.",
        terms="FCE: non-commercial research use under its licence.",
        datasets=("steb/fce_l1",),
    ),
    Source(
        "masc",
        (manual("http://www.anc.org/data/masc/downloads"),),
        license="MASC 3.0.0: open (see the ANC page)",
        instructions="Download MASC 3.0.0 from the ANC page and unpack it (data/written, data/spoken).",
        datasets=("steb/masc_text_genre",),
    ),
    Source(
        "enron_spam",
        (hub("SetFit/enron_spam", "", (("", ""),)),),
        license="see the SetFit/enron_spam dataset card",
        datasets=("steb/enron_spam",),
        note="revision and files not pinned here (no Hub access), unverified",
    ),
    Source(
        "telegram_spam_ham",
        (hub("thehamkercat/telegram-spam-ham", "", (("", ""),)),),
        license="see the dataset card",
        datasets=("steb/telegram-spam-ham",),
        note="revision and files not pinned here (no Hub access), unverified",
    ),
)
