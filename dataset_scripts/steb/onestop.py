"""OneStopEnglish (Vajjala & Lučić 2018) as STEB order-alignment data:
``steb/OneStopEnglishCorpus``.

Raw format: ``Sentence-Aligned/ADV-INT.txt``, ``ELE-INT.txt`` and ``ADV-ELE.txt`` of
the OneStopEnglishCorpus repository. Each file is a sequence of three-line blocks: a
sentence at the first reading level of the file name, the aligned sentence at the
second level, and a separator line of seven asterisks (``*******``).

STEB (App. C.3, Table 15: one group of 600 texts) uses the three reading levels as one
style group; with sentence-level sequences of three texts that is 200 sequences
``[advanced, intermediate, elementary]``. A triple is an ADV-INT pair whose
intermediate sentence is aligned to an elementary one in ELE-INT and whose advanced and
elementary sentences are also aligned in ADV-ELE (all three pairwise alignments agree).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.steb.catalog import ORDER, SampleCount, steb_dataset
from dataset_scripts.steb.sampling import cap_per_class
from dataset_scripts.steb.shakespeare import read_lines

DOWNLOAD_URL = "https://github.com/nishkalavallabhi/OneStopEnglishCorpus"
SEPARATOR = "*******"
FILES = ("ADV-INT.txt", "ELE-INT.txt", "ADV-ELE.txt")
GROUP = "reading_level"
STYLES = ["advanced", "intermediate", "elementary"]


def read_aligned(path: Path) -> list[tuple[int, str, str]]:
    """(line number of the first sentence, first-level sentence, second-level sentence)
    of one Sentence-Aligned file; a broken block raises :class:`DataError` naming the
    file and line."""
    if not path.is_file():
        raise FileNotFoundError(
            f"missing OneStopEnglish file {path}; download {DOWNLOAD_URL} "
            "(folder Sentence-Aligned/)"
        )
    lines = read_lines(path)
    if len(lines) % 3:
        raise DataError(
            f"{path} line {len(lines)}: file ends inside a block ({len(lines)} lines is not a "
            "multiple of 3: sentence, aligned sentence, separator)"
        )
    pairs = []
    for start in range(0, len(lines), 3):
        first, second, separator = lines[start : start + 3]
        if separator.strip() != SEPARATOR:
            raise DataError(
                f"{path} line {start + 3}: expected the separator {SEPARATOR!r}, "
                f"got {separator[:60]!r}"
            )
        for offset, sentence in ((0, first), (1, second)):
            if not sentence.strip() or sentence.strip() == SEPARATOR:
                raise DataError(f"{path} line {start + offset + 1}: expected a sentence")
        pairs.append((start + 1, first.strip(), second.strip()))
    return pairs


def build_rows(raw: Path) -> tuple[list[dict[str, Any]], Counter[str]]:
    """All consistent (advanced, intermediate, elementary) triples, before the cap."""
    folder = raw / "Sentence-Aligned" if (raw / "Sentence-Aligned").is_dir() else raw
    adv_int, ele_int, adv_ele = (read_aligned(folder / name) for name in FILES)
    elementary_of: dict[str, str] = {}
    for _, elementary, intermediate in ele_int:
        elementary_of.setdefault(intermediate, elementary)
    confirmed = {(advanced, elementary) for _, advanced, elementary in adv_ele}
    dropped: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    for line_no, advanced, intermediate in adv_int:
        elementary = elementary_of.get(intermediate)
        if elementary is None:
            dropped["ADV-INT pair whose intermediate sentence has no ELE-INT alignment"] += 1
            continue
        if (advanced, elementary) not in confirmed:
            dropped["ADV-INT + ELE-INT triple not confirmed by ADV-ELE"] += 1
            continue
        triple = (advanced, intermediate, elementary)
        if len(set(triple)) < 3:
            dropped["triple with the same sentence at two levels"] += 1
            continue
        if triple in seen:
            dropped["duplicate triple"] += 1
            continue
        seen.add(triple)
        rows.append(
            {
                "id": f"adv-int-line-{line_no}",
                "group": GROUP,
                "texts": list(triple),
                "styles": list(STYLES),
            }
        )
    return rows, dropped


_PROTOCOL = (
    "Sentence triples `[advanced, intermediate, elementary]` (most to least complex), one "
    "style group, built from the three pairwise sentence alignments of `Sentence-Aligned/`: "
    "every ADV-INT pair (in file order) is extended with the elementary sentence that "
    "ELE-INT aligns to its intermediate sentence, and kept only if ADV-ELE aligns the same "
    "advanced and elementary sentences. Triples with a repeated sentence or seen before are "
    "dropped. STEB's Table 15 has one group of 600 texts (= 200 three-level sequences; the "
    "paper names the corpus but not the unit, and the 189 article triples could not give "
    "600). As in STEB, the group keeps its first n sequences in source order, n = "
    "clamp(group size, 25, 200) = 200."
)


def build(raw: Path | None) -> BuildResult:
    """OneStopEnglish three-level sentence triples as order-alignment sequences."""
    if raw is None:
        raise FileNotFoundError(f"steb/OneStopEnglishCorpus needs {DOWNLOAD_URL}")
    rows, dropped = build_rows(raw)
    rows = cap_per_class(rows, key=lambda row: row["group"], dropped=dropped, what="group")
    return BuildResult({"style_sequences": {"test": rows}}, dict(dropped))


ONESTOP_CITATION = """@inproceedings{vajjala-lucic-2018-onestopenglish,
  title     = {{O}ne{S}top{E}nglish corpus: A new corpus for automatic readability assessment
               and text simplification},
  author    = {Vajjala, Sowmya and Lu{\\v{c}}i{\\'c}, Ivana},
  booktitle = {Proceedings of the Thirteenth Workshop on Innovative Use of NLP for Building
               Educational Applications},
  pages     = {297--304},
  year      = {2018}
}"""


DATASETS = (
    steb_dataset(
        name="OneStopEnglishCorpus",
        summary="OneStopEnglish news texts rewritten by teachers at three reading levels; "
        "sentence triples advanced > intermediate > elementary, as STEB order-alignment data.",
        bucket="register",
        definitional=("register", "content_independence"),
        counts={ORDER: SampleCount(1, 600, 600)},
        source_url="https://github.com/nishkalavallabhi/OneStopEnglishCorpus",
        license="CC-BY-SA-4.0",
        raw_format="Sentence-Aligned/{ADV-INT,ELE-INT,ADV-ELE}.txt: blocks of two aligned "
        "sentences (first level, second level) separated by a line of seven asterisks",
        citation=ONESTOP_CITATION,
        builder=build,
        protocol=_PROTOCOL,
        raw_hint="OneStopEnglish",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "OneStopEnglish",
        (
            github(
                "nishkalavallabhi/OneStopEnglishCorpus",
                "37f8db3945cd2f3cc0caafe45674147b224349be",
                (
                    "Sentence-Aligned/",
                    "Texts-SeparatedByReadingLevel/",
                    ("README.md", ""),
                    ("LICENSE.markdown", ""),
                ),
            ),
        ),
        license="CC BY-SA 4.0",
    ),
)
