"""STEB's graded formality dataset as order-alignment data: ``steb/graded_formality``.

STEB (App. C.3, Table 11) takes ~4k non-offensive TweetEval tweets and ~4k non-spam SMS
(UCI SMS Spam Collection) and has gpt-5-mini rewrite each utterance more formally four
times, giving five formality levels per utterance (level 1 = the original, level 5 = the
most formal rewrite). Table 15: two style groups (the two sources) x 200 sequences of 5
texts.

Raw format (the STEB release; not reachable from this machine, so the builder reads the
layout below and is tested on a fixture written in it): ``graded_formality.csv``, UTF-8,
RFC 4180 quoting, header ``id,source,level_1,level_2,level_3,level_4,level_5`` where
``source`` is ``tweet_eval`` or ``sms_spam``. Rows are read in file order.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, manual
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.raw_io import read_csv
from dataset_scripts.steb.catalog import ORDER, SampleCount, steb_dataset
from dataset_scripts.steb.sampling import cap_per_class

DOWNLOAD_URL = (
    "the STEB release of graded_formality (originals: "
    "https://huggingface.co/datasets/cardiffnlp/tweet_eval, "
    "https://huggingface.co/datasets/ucirvine/sms_spam)"
)
FILE_NAME = "graded_formality.csv"
LEVELS = tuple(f"level_{k}" for k in range(1, 6))
COLUMNS = ("id", "source", *LEVELS)
SOURCES = ("tweet_eval", "sms_spam")
# sequences run from most to least formal: level 5 first
STYLES = [f"formality level {k}" for k in range(5, 0, -1)]


def _file(raw: Path) -> Path:
    path = raw if raw.is_file() else raw / FILE_NAME
    if not path.is_file():
        raise FileNotFoundError(f"missing file {path}; get it from {DOWNLOAD_URL}")
    return path


def build_rows(raw: Path) -> tuple[list[dict[str, Any]], Counter[str]]:
    """All five-level sequences (most formal first), before the cap."""
    path = _file(raw)
    dropped: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    # the project's strict CSV reader: missing columns, ragged rows and unbalanced quotes
    # are errors naming file and line
    for line_no, row in read_csv(path, COLUMNS):
        where = f"{path} line {line_no}"
        source = row["source"].strip()
        if source not in SOURCES:
            raise DataError(f"{where}: column 'source' is {source!r}, expected one of {SOURCES}")
        row_id = row["id"].strip()
        if not row_id or row_id in seen:
            raise DataError(f"{where}: column 'id' is empty or repeats {row_id!r}")
        seen.add(row_id)
        texts = [row[level].strip() for level in reversed(LEVELS)]
        if not all(texts):
            dropped[f"{source} utterance with an empty level"] += 1
            continue
        if len(set(texts)) < len(texts):
            dropped[f"{source} utterance with the same text at two levels"] += 1
            continue
        rows.append(
            {
                "id": f"{source}-{row_id}",
                "group": source,
                "texts": texts,
                "styles": list(STYLES),
            }
        )
    return rows, dropped


_PROTOCOL = (
    "Each row of `graded_formality.csv` (an original tweet or SMS and its four "
    "increasingly formal gpt-5-mini rewrites) becomes the sequence `[level 5, ..., level 1]` "
    "(most to least formal); the style group is the source (`tweet_eval`, `sms_spam`). "
    "Utterances with an empty level or the same text at two levels are dropped (an "
    "unorderable sequence). As in STEB, every group keeps its first n sequences in file "
    "order, n = clamp(smallest group, 25, 200) = 200 (Table 15: 2 groups x 1,000 texts). "
    "The CSV layout is the one documented in the builder (STEB's release format could not be "
    "checked from here)."
)


def build(raw: Path | None) -> BuildResult:
    """Five-level formality sequences of tweets and SMS."""
    if raw is None:
        raise FileNotFoundError(f"steb/graded_formality needs {DOWNLOAD_URL}")
    rows, dropped = build_rows(raw)
    rows = cap_per_class(rows, key=lambda row: row["group"], dropped=dropped, what="source")
    return BuildResult({"style_sequences": {"test": rows}}, dict(dropped))


GRADED_FORMALITY_CITATION = """@inproceedings{barbieri-etal-2020-tweeteval,
  title     = {{T}weet{E}val: Unified Benchmark and Comparative Evaluation for Tweet
               Classification},
  author    = {Barbieri, Francesco and Camacho-Collados, Jose and Espinosa Anke, Luis and
               Neves, Leonardo},
  booktitle = {Findings of EMNLP 2020},
  year      = {2020}
}
@inproceedings{almeida-etal-2011-sms,
  title     = {Contributions to the Study of {SMS} Spam Filtering: New Collection and Results},
  author    = {Almeida, Tiago A. and G{\\'o}mez Hidalgo, Jos{\\'e} Mar{\\'i}a and Yamakami, Akebo},
  booktitle = {Proceedings of the 11th ACM Symposium on Document Engineering},
  year      = {2011}
}"""


DATASETS = (
    steb_dataset(
        name="graded_formality",
        summary="Non-offensive TweetEval tweets and non-spam SMS, each rewritten four times "
        "with increasing formality by gpt-5-mini: five-level formality sequences, as STEB "
        "order-alignment data.",
        bucket="register",
        definitional=("register", "content_independence"),
        counts={ORDER: SampleCount(2, 1_000, 2_000)},
        source_url="https://huggingface.co/datasets/cardiffnlp/tweet_eval and "
        "https://huggingface.co/datasets/ucirvine/sms_spam (originals); the rewrites are "
        "released with STEB",
        license="derived data: TweetEval tweets (Twitter terms of service, research use) and "
        "the UCI SMS Spam Collection (CC BY 4.0); rewrites generated with gpt-5-mini "
        "(OpenAI terms); no licence stated for the STEB release",
        raw_format="graded_formality.csv (UTF-8, header id,source,level_1,...,level_5; "
        "source tweet_eval or sms_spam; level_1 = original utterance, level_5 = most formal "
        "rewrite)",
        citation=GRADED_FORMALITY_CITATION,
        builder=build,
        protocol=_PROTOCOL,
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "graded_formality",
        (manual("https://huggingface.co/datasets/cardiffnlp/tweet_eval", "graded_formality.csv"),),
        license="see tweet_eval and sms_spam; the rewrites are released with STEB",
        instructions="The graded-formality rewrites are released with STEB, not at a public URL pinned here.",
        datasets=("steb/graded_formality",),
    ),
)
