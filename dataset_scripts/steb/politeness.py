"""``steb/wikipedia_politeness`` and ``steb/stackexchange_politeness``: requests of the
Stanford Politeness Corpus (Danescu-Niculescu-Mizil et al. 2013) labelled polite, neutral
or impolite (STEB App. C.3).

Raw format: ``wikipedia.annotated.csv`` / ``stack-exchange.annotated.csv`` with the columns
``Community, Id, Request, Score1..Score5, TurkId1..TurkId5, Normalized Score``.

Labels: the STEB loader reads the ConvoKit export (``utterances.jsonl``) and its ``Binary``
annotation (1 polite, 0 neutral, -1 impolite). The annotated CSV has no such column, so the
builder derives the three classes with the quartile rule of the original paper: a request
in the top quartile of ``Normalized Score`` (within its corpus) is polite, one in the
bottom quartile impolite, the rest neutral. That this matches ConvoKit's ``Binary`` for
every request is an assumption, not checked here.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, https
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.steb.catalog import clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import (
    CAP_PROTOCOL,
    find_first,
    labelled_table,
    read_delimited,
)

URLS = {
    "wikipedia": "https://zissou.infosci.cornell.edu/convokit/datasets/wikipedia-politeness-corpus/",
    "stack-exchange": "https://zissou.infosci.cornell.edu/convokit/datasets/"
    "stack-exchange-politeness-corpus/",
}
COLUMNS = ("Id", "Request", "Normalized Score")


def politeness_label(score: float, low: float, high: float) -> str:
    """Quartile label: >= the 75th percentile polite, <= the 25th impolite."""
    if score >= high:
        return "polite"
    if score <= low:
        return "impolite"
    return "neutral"


def read_requests(raw: Path, corpus: str) -> list[tuple[str, str, float]]:
    """``(id, request, normalised score)`` rows of one annotated CSV, in file order."""
    path = find_first(
        raw,
        (f"{corpus}.annotated.csv", f"corpora/{corpus}.annotated.csv", ""),
        URLS[corpus],
        f"{corpus}.annotated.csv",
    )
    rows = []
    for line, row in read_delimited(path, COLUMNS):
        try:
            score = float(row["Normalized Score"])
        except ValueError:
            raise DataError(
                f"{path} line {line}: column 'Normalized Score' value "
                f"{row['Normalized Score']!r} is not a number"
            ) from None
        if not np.isfinite(score):
            raise DataError(f"{path} line {line}: column 'Normalized Score' is {score}")
        rows.append((row["Id"].strip(), row["Request"], score))
    if not rows:
        raise DataError(f"{path}: no requests")
    return rows


def build_politeness(raw: Path | None, corpus: str) -> BuildResult:
    if raw is None:
        raise DataError(f"politeness datasets need --raw <folder with {corpus}.annotated.csv>")
    requests = read_requests(Path(raw), corpus)
    scores = np.array([score for _, _, score in requests])
    low, high = np.percentile(scores, [25, 75])
    records = [
        (f"{corpus}-{request_id}", text, politeness_label(score, low, high))
        for request_id, text, score in requests
    ]
    return labelled_table(records, Counter())


PROTOCOL = (
    "Each request is labelled by the quartiles of `Normalized Score` within its corpus "
    "(numpy linear percentiles): top quartile (>= 75th percentile) polite, bottom quartile "
    "(<= 25th) impolite, the rest neutral -- the original paper's rule, standing in for the "
    "ConvoKit `Binary` annotation that STEB reads (absent from the annotated CSV). "
    + CAP_PROTOCOL
    + " Our copy (the annotated CSV of the original release) holds every annotated request, "
    "so the counts equal Table 15: 3 x 200 = 600."
)


def build_wikipedia(raw: Path | None) -> BuildResult:
    """Wikipedia requests labelled polite / neutral / impolite."""
    return build_politeness(raw, "wikipedia")


def build_stackexchange(raw: Path | None) -> BuildResult:
    """Stack Exchange requests labelled polite / neutral / impolite."""
    return build_politeness(raw, "stack-exchange")


_POLITENESS_CITATION = """@inproceedings{danescu-niculescu-mizil-etal-2013-computational,
  title     = {A computational approach to politeness with application to social factors},
  author    = {Danescu-Niculescu-Mizil, Cristian and Sudhof, Moritz and Jurafsky, Dan and
               Leskovec, Jure and Potts, Christopher},
  booktitle = {Proceedings of ACL 2013},
  year      = {2013}
}"""


DATASETS = (
    steb_dataset(
        name="wikipedia_politeness",
        summary="Wikipedia editor requests labelled polite, neutral or impolite (Stanford "
        "Politeness Corpus).",
        bucket="register",
        definitional=("register",),
        counts=clustering_counts(3, 200),
        source_url="https://zissou.infosci.cornell.edu/convokit/datasets/wikipedia-politeness-corpus/",
        license="CC BY 4.0 (https://convokit.cornell.edu/documentation/wiki_politeness.html)",
        raw_format="wikipedia.annotated.csv (Community,Id,Request,Score1-5,TurkId1-5,"
        "Normalized Score)",
        citation=_POLITENESS_CITATION,
        builder=build_wikipedia,
        protocol=PROTOCOL,
        raw_hint="StanfordPoliteness",
    ),
    steb_dataset(
        name="stackexchange_politeness",
        summary="Stack Exchange requests labelled polite, neutral or impolite (Stanford "
        "Politeness Corpus).",
        bucket="register",
        definitional=("register",),
        counts=clustering_counts(3, 200),
        source_url="https://zissou.infosci.cornell.edu/convokit/datasets/stack-exchange-politeness-corpus/",
        license="CC BY 4.0 (https://convokit.cornell.edu/documentation/stack_politeness.html)",
        raw_format="stack-exchange.annotated.csv (Community,Id,Request,Score1-5,TurkId1-5,"
        "Normalized Score)",
        citation=_POLITENESS_CITATION,
        builder=build_stackexchange,
        protocol=PROTOCOL,
        raw_hint="StanfordPoliteness",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "StanfordPoliteness",
        tuple(
            https(
                f"https://raw.githubusercontent.com/sudhof/politeness/b21822791a7fa300e7ea3cdc8d4a611bdb164695/corpora/{name}",
                name,
            )
            for name in ("wikipedia.annotated.csv", "stack-exchange.annotated.csv")
        ),
        license="Stanford Politeness Corpus (Danescu-Niculescu-Mizil et al. 2013); repository Apache-2.0",
        homepage="https://github.com/sudhof/politeness",
    ),
)
