"""CCAT50 (Reuter_50_50; Lewis et al. 2004 via the UCI repository) as a Valla dataset.

Raw format: ``C50train/<author>/<n>newsML.txt`` and ``C50test/<author>/<n>newsML.txt``
(50 authors x 50 + 50 plain-text news stories, UTF-8/ASCII, CRLF line ends). Texts are read
as Valla's ``C50.py`` reads them, with Python's text-mode ``open()``: line ends become
``\n`` (PPM_A on CCAT50 moves from 69.16 with CRLF kept to the paper's 69.36).

Split (Valla's ``valla/dsets/C50.py``): the published test set is ``test``; the published
training set is split 80/20, stratified by author with ``random_state=0``, into ``train``
and ``validation``. Valla's Ngram and PPM train on train + validation before scoring
``test``. CCAT50 has no topic, genre or author shift (Table 1), so it has iid splits only.

Duplicates: an article whose text (as read) is identical to an article filed under another
author is kept under each author, as Valla's ``C50.py`` keeps every file, and counted in the
build report and the card (:data:`SHARED_ARTICLE`; :func:`shared_articles`). The UCI
release has none (its 5,000 files are 5,000 distinct texts); a copy holding such files
gives AV pairs of one text labelled "different authors", which the count makes visible.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github
from dataset_scripts.core.spec import BuildResult, DatasetSpec
from dataset_scripts.valla.common import VALLA_CITATION, author_files, find_folder, read_text
from dataset_scripts.valla.splits import SEED, sorted_rows, stratified_split, with_av


def read_ccat50(raw: Path) -> dict[str, list[dict[str, str]]]:
    """The published train and test sets as rows (id = path below the raw folder)."""
    out = {}
    for part in ("C50train", "C50test"):
        folder = find_folder(raw, part)
        out[part] = []
        for author, path in author_files(folder, "*.txt"):
            text = read_text(path, universal_newlines=True)
            if not text.strip():
                raise DataError(f"{path}: empty file (a CCAT50 article holds text)")
            out[part].append({"id": f"{part}/{author}/{path.name}", "text": text, "label": author})
    train_authors = {r["label"] for r in out["C50train"]}
    test_authors = {r["label"] for r in out["C50test"]}
    if train_authors != test_authors:
        missing = sorted(train_authors ^ test_authors)[:5]
        raise FileNotFoundError(f"{raw}: C50train and C50test have different authors: {missing}")
    return out


SHARED_ARTICLE = (
    "articles whose text is identical to an article filed under another author (kept "
    "under each author, not dropped, as Valla keeps every file)"
)


def shared_articles(rows: Iterable[dict[str, str]]) -> list[list[str]]:
    """Ids of the articles sharing one text across two or more authors, one list per text
    (ids in row order, lists in order of their first id); same-author copies alone are
    not listed."""
    by_text: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        by_text[row["text"]].append(row)
    return [
        [r["id"] for r in group]
        for group in by_text.values()
        if len({r["label"] for r in group}) > 1
    ]


def build(raw: Path | None) -> BuildResult:
    """Build the AA splits and the derived AV pairs (see the module notes)."""
    if raw is None:
        raise FileNotFoundError("CCAT50 is built from the Reuter_50_50 download; pass --raw")
    parts = read_ccat50(raw)
    train, validation = stratified_split(parts["C50train"], 0.2, SEED)
    dropped: dict[str, int] = {}
    shared = shared_articles(parts["C50train"] + parts["C50test"])
    if shared:
        dropped[SHARED_ARTICLE] = sum(len(ids) for ids in shared)
    aa = {"train": train, "validation": validation, "test": sorted_rows(parts["C50test"])}
    return BuildResult(with_av(aa, SEED, dropped), dropped)


SPEC = DatasetSpec(
    hub_id="valla/ccat50",
    pretty_name="Valla CCAT50 (Reuter_50_50)",
    summary=(
        "News stories by 50 Reuters journalists (100 per author) for authorship "
        "attribution (config `labelled_texts`, label = author) and verification "
        "(config `text_pairs`), with Valla's standard splits."
    ),
    builder=build,
    license="UCI dataset (RCV1 subset; Reuters text, research use)",
    source_url="https://archive.ics.uci.edu/dataset/217/reuter+50+50",
    citation=VALLA_CITATION,
    raw_format="C50train/<author>/*newsML.txt and C50test/<author>/*newsML.txt",
    protocol=(
        "The published `C50test` is `test`; `C50train` is split 80/20 into `train` and "
        "`validation`, stratified by author (scikit-learn `train_test_split`, "
        "`random_state=0`, rows in path order), as in Valla's `dsets/C50.py`; line ends "
        "read as Valla reads them (text mode: CRLF becomes LF). AV pairs: "
        "for every text of a split, one same-author and one different-author pair drawn "
        "with a fixed seed (balanced 1:1), as in Valla's `sample_av_dataset`. An "
        "article whose text is identical to one filed under another author is kept under "
        "each author (Valla keeps every file) and counted below; the UCI release has none "
        "(5,000 files, 5,000 distinct texts)."
    ),
    raw_hint="ccat50",
    table_name="CCAT50",
)


DATASETS = (SPEC,)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "ccat50",
        (
            github(
                "zpantovic/Reuter_50_50",
                "cc6261d5b915f0d1b3f0979519c33d16e2012a18",
                ("data/C50train/", "data/C50test/"),
            ),
        ),
        license="UCI Reuter_50_50 (RCV1 subset, Reuters text): research use",
        homepage="https://archive.ics.uci.edu/dataset/217/reuter+50+50",
        terms="Reuters text (RCV1): research use only.",
    ),
)
