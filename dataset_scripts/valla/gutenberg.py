"""Valla's Gutenberg dataset (single-author English books from Project Gutenberg),
following Valla's ``dsets/guten.py``; the data is distributed by the Valla authors on
request.

Raw format: ``train/<author>/<file>``, ``val/<author>/<file>``, ``test/<author>/<file>``
(plain text; the three folders have disjoint authors). A text is its lines joined with
spaces; texts of at most 100 space-separated words are dropped, and authors with fewer
than two distinct texts in a folder are dropped (both counted).

AA (``labelled_texts``): the ``train`` folder split 60/20/20 into train/validation/test
(the first cut stratified by author, the second not, as Valla's script, because many
authors have too few books). AV: pairs derived from every split; the ``val``/``test``
folders (authors never seen in training) become ``unseen_author_validation`` and
``unseen_author_test`` (Table 5's GutAV is the unseen-author test).
"""

from __future__ import annotations

from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, manual
from dataset_scripts.core.spec import BuildResult, DatasetSpec
from dataset_scripts.valla.common import VALLA_CITATION, read_text
from dataset_scripts.valla.splits import SEED, Row, sorted_rows, stratified_split, with_av

MIN_WORDS = 101


def _count(dropped: dict[str, int], reason: str, n: int = 1) -> None:
    dropped[reason] = dropped.get(reason, 0) + n


def read_folder(folder: Path, dropped: dict[str, int]) -> list[Row]:
    rows: list[Row] = []
    for author in sorted(p for p in folder.iterdir() if p.is_dir()):
        texts: dict[str, Row] = {}
        for path in sorted(p for p in author.iterdir() if p.is_file()):
            text = " ".join(read_text(path).splitlines(keepends=True))
            if len(text.strip().split(" ")) < MIN_WORDS:
                _count(dropped, f"{folder.name}: text of at most 100 words")
                continue
            if text in texts:
                _count(dropped, f"{folder.name}: exact duplicate text of the same author")
                continue
            texts[text] = {
                "id": f"{folder.name}/{author.name}/{path.name}",
                "text": text,
                "label": author.name,
            }
        if len(texts) < 2:
            _count(dropped, f"{folder.name}: author with fewer than two texts", len(texts))
            continue
        rows.extend(texts.values())
    return rows


def build(raw: Path | None) -> BuildResult:
    if raw is None:
        raise FileNotFoundError(
            "Gutenberg is built from Valla's train/ val/ test/ folders; pass --raw"
        )
    base = raw / "raw" if (raw / "raw" / "train").is_dir() else raw
    for name in ("train", "val", "test"):
        if not (base / name).is_dir():
            raise FileNotFoundError(f"{raw}: missing {name}/ (expected train/, val/, test/)")
    dropped: dict[str, int] = {}
    parts = {name: read_folder(base / name, dropped) for name in ("train", "val", "test")}
    authors = {name: {r["label"] for r in rows} for name, rows in parts.items()}
    overlap = (authors["train"] & (authors["val"] | authors["test"])) | (
        authors["val"] & authors["test"]
    )
    if overlap:
        raise DataError(f"{raw}: authors in more than one of train/val/test: {sorted(overlap)[:5]}")
    from sklearn.model_selection import train_test_split

    train, rest = stratified_split(parts["train"], 0.4, SEED)
    validation, test = train_test_split(rest, test_size=0.5, random_state=SEED, shuffle=True)
    aa = {
        "train": train,
        "validation": sorted_rows(validation),
        "test": sorted_rows(test),
        "unseen_author_validation": sorted_rows(parts["val"]),
        "unseen_author_test": sorted_rows(parts["test"]),
    }
    return BuildResult(with_av(aa, SEED, dropped), dropped)


DATASETS = (
    DatasetSpec(
        hub_id="valla/gutenberg",
        pretty_name="Valla Gutenberg",
        summary="Single-author English books from Project Gutenberg (Valla's new large-scale "
        "dataset), for AA (known authors) and AV (unseen authors).",
        builder=build,
        license="public domain texts (Project Gutenberg); dataset from the Valla authors",
        source_url="https://github.com/JacobTyo/Valla",
        citation=VALLA_CITATION,
        raw_format="train/<author>/<file>, val/<author>/<file>, test/<author>/<file>",
        protocol="Texts of <= 100 words and authors with < 2 texts dropped (counted); train/ split "
        "60/20/20 for AA; val/ and test/ (unseen authors) as unseen-author sets; AV pairs per split.",
        raw_hint="gutenberg",
        table_name="Gutenberg",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "gutenberg",
        (manual("https://github.com/JacobTyo/Valla"),),
        license="public domain texts (Project Gutenberg)",
        instructions="Valla's Gutenberg split is made by its scripts (train/, val/, test/ of <author>/<file>); put that folder here.",
    ),
)
