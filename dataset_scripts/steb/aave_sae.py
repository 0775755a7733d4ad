"""Twitter AAE/SAE (Groenwold et al. 2020) as STEB order-alignment data:
``steb/twitter_aave_sae``.

Raw format: two line-aligned UTF-8 text files, ``aave_samples.txt`` (tweets in
African-American English, from TwitterAAE) and ``sae_samples.txt`` (their
intent-equivalent Standard American English rewrites by crowd workers); line *i* of one
file pairs with line *i* of the other. They come in the EMNLP 2020 supplementary
archive (folder ``EMNLP-AAVE-files/``); the official GitHub repository ships only
``sae_samples.txt``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, https
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.steb.catalog import ORDER, SampleCount, steb_dataset
from dataset_scripts.steb.sampling import cap_per_class
from dataset_scripts.steb.shakespeare import read_lines

DOWNLOAD_URL = (
    "https://aclanthology.org/attachments/2020.emnlp-main.473.OptionalSupplementaryMaterial.zip"
)
FILES = ("aave_samples.txt", "sae_samples.txt")
GROUP = "aave"
STYLES = ["African-American English", "Standard American English"]


def _folder(raw: Path) -> Path:
    for base in (raw, raw / "EMNLP-AAVE-files"):
        if all((base / name).is_file() for name in FILES):
            return base
    missing = next(raw / n for n in FILES if not (raw / n).is_file())
    raise FileNotFoundError(
        f"missing file {missing} (the AAVE/SAE pairs need both {' and '.join(FILES)}); "
        f"download the EMNLP 2020 supplementary archive {DOWNLOAD_URL}"
    )


def build_rows(raw: Path) -> tuple[list[dict[str, Any]], Counter[str]]:
    """All (AAVE, SAE) sequences in file order, before the cap."""
    folder = _folder(raw)
    aave, sae = (read_lines(folder / name) for name in FILES)
    if len(aave) != len(sae):
        raise DataError(
            f"{folder / FILES[0]} has {len(aave)} lines but {folder / FILES[1]} has "
            f"{len(sae)}; the files must be line-aligned"
        )
    dropped: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    for line_no, (dialect, standard) in enumerate(zip(aave, sae, strict=True), start=1):
        dialect, standard = dialect.strip(), standard.strip()
        if not dialect or not standard:
            dropped["aligned line with an empty side"] += 1
            continue
        if dialect == standard:
            dropped["AAVE and SAE line identical (no style difference)"] += 1
            continue
        rows.append(
            {
                "id": f"line-{line_no}",
                "group": GROUP,
                "texts": [dialect, standard],
                "styles": list(STYLES),
            }
        )
    return rows, dropped


_PROTOCOL = (
    "Line i of `aave_samples.txt` and of `sae_samples.txt` form the sequence "
    "`[AAVE tweet, SAE rewrite]`, one style group (STEB App. C.2; 2,019 pairs). Pairs with "
    "an empty side or identical sides are dropped (none in the published files). As in "
    "STEB, the group keeps its first n sequences in file order, n = clamp(group size, 25, "
    "200) = 200 (Table 15: 1 group x 400 texts). Research use only: the AAVE tweets come "
    "from TwitterAAE and are subject to Twitter's terms; there is no licence file."
)


def build(raw: Path | None) -> BuildResult:
    """AAVE tweets and their SAE rewrites as order-alignment sequences."""
    if raw is None:
        raise FileNotFoundError(f"steb/twitter_aave_sae needs {DOWNLOAD_URL}")
    rows, dropped = build_rows(raw)
    rows = cap_per_class(rows, key=lambda row: row["group"], dropped=dropped, what="group")
    return BuildResult({"style_sequences": {"test": rows}}, dict(dropped))


AAVE_CITATION = """@inproceedings{groenwold-etal-2020-investigating,
  title     = {Investigating {A}frican-{A}merican {V}ernacular {E}nglish in Transformer-Based
               Text Generation},
  author    = {Groenwold, Sophie and Ou, Lily and Parekh, Aesha and Honnavalli, Samhita and
               Levy, Sharon and Mirza, Diba and Wang, William Yang},
  booktitle = {Proceedings of EMNLP 2020},
  year      = {2020}
}"""


DATASETS = (
    steb_dataset(
        name="twitter_aave_sae",
        summary="Groenwold et al. (2020): African-American English tweets and their "
        "intent-equivalent Standard American English rewrites, as STEB order-alignment data.",
        bucket="dialect",
        definitional=("dialect", "content_independence"),
        counts={ORDER: SampleCount(1, 400, 400)},
        source_url="https://aclanthology.org/attachments/2020.emnlp-main.473."
        "OptionalSupplementaryMaterial.zip",
        license="no licence file; research use only (paper supplementary material). The AAVE "
        "side are TwitterAAE tweets (Blodgett et al. 2016) under the Twitter terms of service; "
        "the official repository omits them for that reason",
        raw_format="two line-aligned UTF-8 text files, aave_samples.txt and sae_samples.txt "
        "(one tweet per line, line i of one file pairs with line i of the other)",
        citation=AAVE_CITATION,
        builder=build,
        protocol=_PROTOCOL,
        raw_hint="AAVE_SAE_Groenwold",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "AAVE_SAE_Groenwold",
        (
            https(
                "https://raw.githubusercontent.com/sophiegroenwold/AAVE_SAE_dataset/370149236fe9171f7ab21cf1cb07eb2bef9c1d0e/sae_samples.txt",
                "sae_samples.txt",
            ),
            https(
                "https://raw.githubusercontent.com/kristenvaccaro/CSE190-HW5/0be188251ade1440abd7e46692e9b83b90f3c14d/aave_samples.txt",
                "aave_samples.txt",
            ),
        ),
        license="no licence file; the AAVE tweets come from TwitterAAE (Twitter terms)",
        homepage="https://github.com/sophiegroenwold/AAVE_SAE_dataset",
        terms="The AAVE side is tweets (Blodgett et al. 2016) that the official repository omits citing Twitter's terms; use for research only.",
        note="aave_samples.txt from a course repository's copy of the ACL Anthology supplement (its sae_samples.txt is byte-identical to the official one)",
    ),
)
