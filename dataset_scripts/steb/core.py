"""``steb/core``: the Corpus of Online Registers of English (Laippala et al. 2023), web
documents labelled by register sub-label (STEB App. C.4).

Raw format: the TurkuNLP/CORE-corpus files ``train.tsv.gz``, ``dev.tsv.gz`` and
``test.tsv.gz`` (plain ``.tsv`` accepted): no header; column 1 the register label(s)
(whitespace-separated abbreviations), column 2 the CORE document id, column 3 the text.

STEB uses the sub-labels as classes, i.e. every label except the main registers IN, NA,
HI, LY, SP, IP, ID and OP; a document with several sub-labels appears once per sub-label
(its id is suffixed with the label). Train, dev and test are merged in that order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.raw_io import tsv_records
from dataset_scripts.steb.catalog import clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import CAP_PROTOCOL, labelled_builder

URL = "https://github.com/TurkuNLP/CORE-corpus"
MAIN_LABELS = frozenset({"IN", "NA", "HI", "LY", "SP", "IP", "ID", "OP"})
SPLITS = ("train", "dev", "test")


def core_files(raw: Path) -> list[Path]:
    found = []
    for split in SPLITS:
        for name in (f"{split}.tsv.gz", f"{split}.tsv"):
            if (raw / name).is_file():
                found.append(raw / name)
                break
    if not found:
        raise DataError(
            f"missing CORE files: expected {raw / 'train.tsv.gz'}, {raw / 'dev.tsv.gz'} "
            f"or {raw / 'test.tsv.gz'} (download: {URL})"
        )
    return found


def read_records(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    """(id, text, sub-label) rows of the CORE files, read as the unquoted TSV they are
    (:func:`~dataset_scripts.raw_io.tsv_records`: a quote is literal text, a line with
    other than 3 fields is an error naming the file and line)."""
    for path in core_files(raw):
        for _, (labels, doc_id, text) in tsv_records(path, ("labels", "id", "text")):
            sub_labels = [lab for lab in labels.split() if lab not in MAIN_LABELS]
            if not sub_labels:
                dropped["document with main register label(s) only"] += 1
                continue
            for label in dict.fromkeys(sub_labels):
                yield f"{doc_id}-{label}", text, label


build_core = labelled_builder(read_records)


DATASETS = (
    steb_dataset(
        name="core",
        summary="Corpus of Online Registers of English (CORE): web documents labelled by "
        "register sub-label.",
        bucket="genre",
        definitional=("genre",),
        counts=clustering_counts(38, 25),
        source_url="https://github.com/TurkuNLP/CORE-corpus",
        license="CC BY-SA 4.0",
        raw_format="CORE train/dev/test TSV (.tsv[.gz]): 'labels<TAB>id<TAB>text'",
        citation="""@article{laippala2023core,
  title   = {Register identification from the unrestricted open Web using the Corpus of
             Online Registers of English},
  author  = {Laippala, Veronika and others},
  journal = {Language Resources and Evaluation},
  year    = {2023}
}""",
        builder=build_core,
        protocol="Every document of train, dev and test (merged) appears once per register "
        "sub-label (all labels except the main registers IN, NA, HI, LY, SP, IP, ID, OP); "
        "documents with main labels only are dropped (counted). "
        + CAP_PROTOCOL
        + " With the full release STEB reports 38 x 25 = 950 (Table 15).",
    ),
)
