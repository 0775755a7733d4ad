"""Valla datasets with cross-topic and cross-genre test sets: Guardian and CMCC.

Guardian (Stamatatos 2013; Valla's ``dsets/Guardian.py``). Raw format:
``<Category>/<author>/*.txt`` (Windows-1252) with the categories ``Politics``,
``Society``, ``World``, ``UK`` (opinion columns) and ``Books`` (book reviews). iid data =
Politics + Society + World, exact duplicates per author removed, split 60/20/20
(stratified); cross-topic = UK, cross-genre = Books, each split 50/50 into validation
and test.

CMCC (Goldstein et al. 2008; Valla's ``dsets/CMCC.py``). Raw format:
``<Genre>/Correlated/<file>.txt`` (Windows-1252) for the genres Blogs, Chat, Discussion,
Emails, Essays, Interviews; the file name codes author, genre and topic
(``S1D1I3.txt``: author ``S1``, genre ``D``, topic ``I``). One known typo in the
published zip (``Discussion/Correlated/S1D113.txt`` for ``S1D1I3.txt``) is read under its
corrected name. iid = Blogs + Chat + Emails (60/20/20), cross-topic = Essays,
cross-genre = Discussion + Interviews.
"""

from __future__ import annotations

import re
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, manual
from dataset_scripts.core.spec import BuildResult, DatasetSpec
from dataset_scripts.valla.common import VALLA_CITATION, read_text
from dataset_scripts.valla.splits import (
    SEED,
    Row,
    drop_exact_duplicates,
    iid_splits,
    shifted_splits,
    topic_confusion_split,
    with_av,
)

GUARDIAN_IID = ("Politics", "Society", "World")
GUARDIAN_TOPIC = ("UK",)
GUARDIAN_GENRE = ("Books",)


def _assemble(groups: dict[str, list[Row]], dropped: dict[str, int]) -> dict[str, list[Row]]:
    """iid rows (deduplicated) -> train/validation/test; cross_topic/cross_genre rows ->
    their validation/test halves."""
    aa = iid_splits(drop_exact_duplicates(groups["iid"], dropped), 0.2, 0.2, SEED)
    for name in ("cross_topic", "cross_genre"):
        if groups.get(name):
            aa.update(shifted_splits(groups[name], name, SEED, dropped))
    return aa


def read_guardian(raw: Path) -> dict[str, list[Row]]:
    """Rows per group (iid / cross_topic / cross_genre); unknown categories are errors."""
    groups: dict[str, list[Row]] = {"iid": [], "cross_topic": [], "cross_genre": []}
    categories = sorted(p for p in raw.iterdir() if p.is_dir())
    if not categories:
        raise FileNotFoundError(f"{raw}: no category folders (expected Politics/, Society/, ...)")
    for category in categories:
        name = category.name
        if name in GUARDIAN_IID:
            group = "iid"
        elif name in GUARDIAN_TOPIC:
            group = "cross_topic"
        elif name in GUARDIAN_GENRE:
            group = "cross_genre"
        else:
            raise DataError(f"{category}: unknown Guardian category {name!r}")
        for author in sorted(p for p in category.iterdir() if p.is_dir()):
            for path in sorted(author.glob("*.txt")):
                groups[group].append(
                    {
                        "id": f"{name}/{author.name}/{path.name}",
                        "text": read_text(path, "cp1252"),
                        "label": author.name,
                    }
                )
    if not groups["iid"]:
        raise DataError(f"{raw}: no Politics/Society/World texts")
    return groups


def build_guardian(raw: Path | None) -> BuildResult:
    if raw is None:
        raise FileNotFoundError("Guardian is built from its raw download; pass --raw")
    dropped: dict[str, int] = {}
    aa = _assemble(read_guardian(raw), dropped)
    return BuildResult(with_av(aa, SEED, dropped), dropped)


CMCC_IID = ("Blogs", "Chat", "Emails")
CMCC_TOPIC = ("Essays",)
CMCC_GENRE = ("Discussion", "Interviews")
CMCC_NAME = re.compile(r"(?P<author>[A-Z]\d+)(?P<genre>[A-Z])\d+(?P<topic>[A-Z])\d+\.txt")
CMCC_TYPO = {"S1D113.txt": "S1D1I3.txt"}


def read_cmcc(raw: Path) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = {"iid": [], "cross_topic": [], "cross_genre": []}
    for genre in CMCC_IID + CMCC_TOPIC + CMCC_GENRE:
        folder = raw / genre / "Correlated"
        if not folder.is_dir():
            raise FileNotFoundError(f"{raw}: missing {genre}/Correlated/")
        group = (
            "iid" if genre in CMCC_IID else "cross_topic" if genre in CMCC_TOPIC else "cross_genre"
        )
        for path in sorted(folder.glob("*.txt")):
            name = CMCC_TYPO.get(path.name, path.name) if genre == "Discussion" else path.name
            match = CMCC_NAME.fullmatch(name)
            if match is None:
                raise DataError(
                    f"{path}: file name does not follow CMCC's <author><genre>#<topic>#.txt"
                )
            groups[group].append(
                {
                    "id": f"{genre}/{name}",
                    "text": read_text(path, "cp1252"),
                    "label": match["author"],
                }
            )
    return groups


def build_cmcc(raw: Path | None) -> BuildResult:
    if raw is None:
        raise FileNotFoundError("CMCC is built from its raw download; pass --raw")
    dropped: dict[str, int] = {}
    aa = _assemble(read_cmcc(raw), dropped)
    return BuildResult(with_av(aa, SEED, dropped), dropped)


_PROTOCOL = (
    "iid texts split 60/20/20 into train/validation/test, stratified by author "
    "(scikit-learn `train_test_split`, `random_state=0`, rows in path order); exact duplicate "
    "texts of an author removed first; the held-out {what} split 50/50 into "
    "`cross_topic_validation`/`cross_topic_test` and `cross_genre_validation`/"
    "`cross_genre_test`. AV pairs derived from every split with a fixed seed (1 same + 1 "
    "different-author pair per text)."
)


TOPIC_CONFUSION_TOPICS = ("Politics", "Society")


def build_guardian_topic_confusion(raw: Path | None) -> BuildResult:
    """The topic-confusion split on the Guardian columns (Altakrori et al. 2021)."""
    if raw is None:
        raise FileNotFoundError("Guardian is built from its raw download; pass --raw")
    dropped: dict[str, int] = {}
    groups = read_guardian(raw)
    rows = drop_exact_duplicates([r for g in groups.values() for r in g], dropped)
    topic_of = {r["id"]: r["id"].split("/", 1)[0] for r in rows}
    aa = topic_confusion_split(rows, topic_of, TOPIC_CONFUSION_TOPICS, SEED, dropped)
    return BuildResult(with_av(aa, SEED, dropped), dropped)


DATASETS = (
    DatasetSpec(
        hub_id="valla/guardian",
        pretty_name="Valla Guardian (cross-topic, cross-genre)",
        summary="Guardian opinion columns and book reviews by 13 authors (Stamatatos 2013), "
        "with Valla's iid, cross-topic (UK) and cross-genre (Books) splits.",
        builder=build_guardian,
        license="research use (The Guardian texts; see source)",
        source_url="https://www.kaggle.com/datasets/adityakharosekar2/guardian-news-articles",
        citation=VALLA_CITATION,
        raw_format="<Category>/<author>/*.txt (Windows-1252), categories Politics, Society, "
        "World, UK, Books",
        protocol=_PROTOCOL.format(what="topic UK and genre Books"),
        raw_hint="guardian",
        table_name="Guardian",
    ),
    DatasetSpec(
        hub_id="valla/cmcc",
        pretty_name="Valla CMCC (cross-topic, cross-genre)",
        summary="The Cross-Modal Cross-Cultural corpus (Goldstein et al. 2008): 21 authors "
        "writing in six genres on six topics, with Valla's iid, cross-topic and cross-genre splits.",
        builder=build_cmcc,
        license="research use (from the corpus authors on request)",
        source_url="http://www.lrec-conf.org/proceedings/lrec2008/pdf/771_paper.pdf",
        citation=VALLA_CITATION,
        raw_format="<Genre>/Correlated/<author><genre><n><topic><n>.txt (Windows-1252)",
        protocol=_PROTOCOL.format(what="genre Essays (topic shift) and Discussion + Interviews"),
        raw_hint="cmcc",
        table_name="CMCC",
    ),
    DatasetSpec(
        hub_id="valla/guardian_topic_confusion",
        pretty_name="Valla Guardian topic confusion",
        summary="The topic-confusion setting of Altakrori et al. (2021) on the Guardian "
        "columns: each author's topic in the test set is the other half's training topic.",
        builder=build_guardian_topic_confusion,
        license="research use (The Guardian texts; see source)",
        source_url="https://github.com/malikaltakrori/Topic-Confusion-for-authorship-attribution-EMNLP-2021-",
        citation=VALLA_CITATION,
        raw_format="<Category>/<author>/*.txt (Windows-1252), as valla/guardian",
        protocol="Authors split in two halves (seeded); train/validation (80/20, stratified): "
        "half A on Politics, half B on Society; test: half A on Society, half B on Politics. "
        "Other categories dropped (counted).",
        raw_hint="guardian",
        table_name="Guardian TC",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "guardian",
        (manual("https://www.kaggle.com/datasets/adityakharosekar2/guardian-news-articles"),),
        license="see the Kaggle dataset (Guardian articles)",
        instructions="Kaggle needs a login: download and unpack the <Category>/<author>/*.txt folders here.",
    ),
    Source(
        "cmcc",
        (manual("http://www.lrec-conf.org/proceedings/lrec2008/pdf/771_paper.pdf"),),
        license="research use (from the authors)",
        instructions="The CMCC corpus is given out by its authors on request (Goldstein-Stewart et al. 2008).",
    ),
)
