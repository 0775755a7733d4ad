"""IMDb62 (Seroussi et al. 2014) as a Valla dataset (Valla's ``dsets/imdb.py``).

Raw format: ``imdb62.txt``, one review per line, six tab-separated fields: review id,
user id, item id, rating, title, content. The text is ``title + " " + content``; exact
duplicate texts of a user are removed (counted). Per author, in file order after
de-duplication, the first 600 texts are ``train``, the next 200 ``validation`` and the
rest ``test`` (Valla's per-author 600/200/rest rule; Valla de-duplicated through a Python
``set``, whose order is not reproducible, so file order is used here).
"""

from __future__ import annotations

from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, manual
from dataset_scripts.core.spec import BuildResult, DatasetSpec
from dataset_scripts.valla.common import VALLA_CITATION
from dataset_scripts.valla.splits import SEED, Row, with_av

TRAIN_PER_AUTHOR, VALIDATION_PER_AUTHOR = 600, 200


def read_imdb62(path: Path, dropped: dict[str, int]) -> dict[str, list[Row]]:
    """Texts per user in file order, duplicates removed; bad lines name file and line."""
    per_author: dict[str, list[Row]] = {}
    seen: set[tuple[str, str]] = set()
    with path.open(encoding="utf-8", newline="\n") as handle:
        for number, line in enumerate(handle, 1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 6:
                raise DataError(
                    f"{path}:{number}: expected 6 tab-separated fields, got {len(fields)}"
                )
            review_id, user, _, _, title, content = fields
            text = f"{title} {content}"
            if (user, text) in seen:
                dropped["exact duplicate text of the same author"] = (
                    dropped.get("exact duplicate text of the same author", 0) + 1
                )
                continue
            seen.add((user, text))
            per_author.setdefault(user, []).append(
                {"id": f"{user}/{review_id}/{number}", "text": text, "label": user}
            )
    if not per_author:
        raise DataError(f"{path}: no reviews")
    return per_author


def build(raw: Path | None) -> BuildResult:
    if raw is None:
        raise FileNotFoundError("IMDb62 is built from imdb62.txt; pass --raw")
    path = raw if raw.is_file() else raw / "imdb62.txt"
    if not path.is_file():
        raise FileNotFoundError(f"{raw}: no imdb62.txt")
    dropped: dict[str, int] = {}
    aa: dict[str, list[Row]] = {"train": [], "validation": [], "test": []}
    for _, rows in sorted(read_imdb62(path, dropped).items()):
        aa["train"] += rows[:TRAIN_PER_AUTHOR]
        aa["validation"] += rows[TRAIN_PER_AUTHOR : TRAIN_PER_AUTHOR + VALIDATION_PER_AUTHOR]
        aa["test"] += rows[TRAIN_PER_AUTHOR + VALIDATION_PER_AUTHOR :]
    return BuildResult(with_av(aa, SEED, dropped), dropped)


DATASETS = (
    DatasetSpec(
        hub_id="valla/imdb62",
        pretty_name="Valla IMDb62",
        summary="62,000 IMDb movie reviews by 62 prolific users (Seroussi et al. 2014) "
        "with Valla's per-author 600/200/rest splits.",
        builder=build,
        license="research use (see source)",
        source_url="https://umlt.infotech.monash.edu/?page_id=266",
        citation=VALLA_CITATION,
        raw_format="imdb62.txt: reviewId<TAB>userId<TAB>itemId<TAB>rating<TAB>title<TAB>content",
        protocol="Per author, in file order after removing exact duplicates: 600 train, 200 "
        "validation, the rest test. AV pairs derived from each split with a fixed seed.",
        raw_hint="imdb62",
        table_name="IMDb62",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "imdb62",
        (manual("https://umlt.infotech.monash.edu/?page_id=266", "imdb62.txt"),),
        license="research use (on request from the authors)",
        instructions="IMDb62 is given out by its authors on request.",
    ),
)
