"""``steb/eWAVE``: example sentences of 53 varieties of English from the eWAVE CLDF release
(Kortmann et al. 2020), labelled by variety (STEB App. C.2).

Raw format: the CLDF StructureDataset ``cldf/examples.csv`` (``ID, Language_ID,
Primary_Text, ...``) and ``cldf/languages.csv`` (``ID, Name, ...``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.steb.catalog import clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import (
    CAP_PROTOCOL,
    find_first,
    labelled_table,
    read_delimited,
)

URL = "https://github.com/cldf-datasets/ewave"


def read_records(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    languages_csv = find_first(raw, ("cldf/languages.csv", "languages.csv"), URL, "languages.csv")
    examples_csv = find_first(raw, ("cldf/examples.csv", "examples.csv"), URL, "examples.csv")
    names = {row["ID"]: row["Name"] for _, row in read_delimited(languages_csv, ("ID", "Name"))}
    for line, row in read_delimited(examples_csv, ("ID", "Language_ID", "Primary_Text")):
        language = row["Language_ID"]
        if language not in names:
            raise DataError(
                f"{examples_csv} line {line}: Language_ID {language!r} is not in {languages_csv}"
            )
        yield f"ewave-{row['ID']}", row["Primary_Text"], names[language]


PROTOCOL = (
    "Every row of `cldf/examples.csv` is one text (`Primary_Text`) labelled with the name "
    "of its variety (`languages.csv`). "
    + CAP_PROTOCOL
    + " With the full CLDF release the smallest variety has 29 examples, giving "
    "53 x 29 = 1,537 texts as in Table 15."
)


def build(raw: Path | None) -> BuildResult:
    """eWAVE example sentences labelled by variety."""
    if raw is None:
        raise DataError("steb/eWAVE needs --raw <eWAVE CLDF checkout>")
    dropped: Counter[str] = Counter()
    return labelled_table(read_records(Path(raw), dropped), dropped)


DATASETS = (
    steb_dataset(
        name="eWAVE",
        summary="Example sentences of 53 varieties of English from the Electronic World Atlas "
        "of Varieties of English (eWAVE), labelled by variety.",
        bucket="dialect",
        definitional=("dialect",),
        counts=clustering_counts(53, 29),
        source_url="https://github.com/cldf-datasets/ewave",
        license="CC BY 4.0 (Zenodo CLDF release, per STEB); the GitHub snapshot's LICENSE "
        "states CC BY 3.0 Unported",
        raw_format="CLDF StructureDataset: cldf/examples.csv + cldf/languages.csv",
        citation="""@book{ewave2020,
  title     = {The Electronic World Atlas of Varieties of English},
  editor    = {Kortmann, Bernd and Lunkenheimer, Kerstin and Ehret, Katharina},
  publisher = {Zenodo},
  year      = {2020}
}""",
        builder=build,
        protocol=PROTOCOL,
        raw_hint="eWAVE",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "eWAVE",
        (
            github(
                "cldf-datasets/ewave",
                "02a93c25920696e2ce3ca7d8fc2ce44baf5a43ed",
                ("cldf/", "raw/", ("README.md", ""), ("LICENSE", "")),
            ),
        ),
        license="CC BY 3.0",
    ),
)
