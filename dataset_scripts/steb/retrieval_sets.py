"""STEB authorship retrieval (App. C.9): ``steb/amazon``, ``steb/fanfiction``,
``steb/stackexchange_retrieval`` (LUAR split format), ``steb/pan18_cross_domain_
authorship_attribution_<language>`` (PAN18 cross-domain AA), plus the extra
``stylebench/ccat50_retrieval`` (Reuter_50_50 / CCAT50; not one of STEB's 96).

Every row of the ``retrieval`` schema is one query or one target: one or more documents
by one author (``author``). Raw formats:

* LUAR (Rivera Soto et al. 2021): ``*queries*.jsonl`` and ``*targets*.jsonl``, one
  author per line, ``{"author_id": ..., "syms": [document, ...], ...}``.
* PAN18 cross-domain AA: ``collection-info.json`` (``[{"problem-name", "language",
  "encoding"}]``); per problem ``problem-info.json`` (``{"unknown-folder",
  "candidate-authors": [{"author-name"}]}``), ``candidateNNNNN/known*.txt``,
  ``unknown/*.txt`` and ``ground-truth.json`` (``{"ground_truth": [{"unknown-text",
  "true-author"}]}``).
* CCAT50: ``C50train/<author>/*newsML.txt`` and ``C50test/<author>/*newsML.txt``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github, manual
from dataset_scripts.core.spec import Builder, BuildResult, DatasetSpec
from dataset_scripts.raw_io import iter_jsonl, read_text
from dataset_scripts.steb.catalog import RETRIEVAL, SampleCount, steb_dataset
from dataset_scripts.steb.pan_sources import (
    IDIOLECT,
    LANGUAGES,
    PAN18_CITATION,
    PAN_DATA_URL,
    PAN_LICENSE,
)

SEED = 42
LUAR_AUTHORS = 500  # STEB keeps 500 authors per LUAR-format set (Table 15)
PAN18_LANGUAGES = {"english": "en", "french": "fr", "italian": "it", "polish": "pl"}
PAN18_LANGUAGES["spanish"] = "sp"  # PAN18 collection-info.json spells Spanish "sp"


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as error:
        raise DataError(f"{path}: invalid JSON at line {error.lineno}: {error.msg}") from None


def read_luar_jsonl(path: Path) -> list[tuple[str, list[str]]]:
    """(author id, documents) per line of a LUAR-format jsonl file."""
    authors = []
    for line_no, record in iter_jsonl(path):
        if "author_id" not in record or not isinstance(record.get("syms"), list):
            raise DataError(f"{path} line {line_no}: needs 'author_id' and a list 'syms'")
        docs = record["syms"]
        if not all(isinstance(d, str) for d in docs):
            raise DataError(f"{path} line {line_no}: 'syms' must hold strings")
        authors.append((str(record["author_id"]), docs))
    return authors


def _pick(raw: Path, word: str) -> Path:
    found = sorted(p for p in raw.rglob("*.jsonl") if word in p.name.lower())
    if not found:
        raise DataError(f"{raw}: no *{word}*.jsonl (expected LUAR queries/targets files)")
    tests = [p for p in found if "test" in p.name.lower()]
    return (tests or found)[0]


def luar_rows(
    raw: Path, dropped: Counter[str], n_authors: int = LUAR_AUTHORS, seed: int = SEED
) -> list[dict[str, Any]]:
    """Query and target rows of a LUAR-format split: authors with both a query and a
    target line, ``n_authors`` of them drawn by ``random.Random(seed)`` when there are
    more (kept in query-file order); empty documents are removed and counted."""
    queries = read_luar_jsonl(_pick(raw, "quer"))
    targets = read_luar_jsonl(_pick(raw, "target"))
    target_authors = {a for a, _ in targets}
    query_authors = list(dict.fromkeys(a for a, _ in queries))
    both = [a for a in query_authors if a in target_authors]
    dropped["authors with a query but no target (or the reverse)"] += len(
        set(query_authors) ^ target_authors
    )
    if len(both) > n_authors:
        chosen = set(random.Random(seed).sample(both, n_authors))
        dropped[f"authors outside the seeded {n_authors}-author subsample"] += len(both) - n_authors
    else:
        chosen = set(both)
    rows: list[dict[str, Any]] = []
    for role, records in (("query", queries), ("target", targets)):
        for index, (author, docs) in enumerate(records):
            if author not in chosen:
                continue
            kept = [d for d in docs if d.strip()]
            if len(kept) < len(docs):
                dropped["empty documents"] += len(docs) - len(kept)
            if not kept:
                dropped[f"{role} without a non-empty document"] += 1
                continue
            rows.append({"id": f"{role}-{index}", "author": author, "role": role, "texts": kept})
    return rows


def _read(path: Path, encoding: str) -> str:
    """A PAN18 text in its problem's declared encoding; a decoding error names the file."""
    if encoding.replace("-", "").upper() == "UTF8":
        return read_text(path)
    try:
        return path.read_text(encoding=encoding)
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: not {encoding} at byte {error.start}") from None
    except LookupError:
        raise DataError(
            f"{path}: collection-info.json declares unknown encoding {encoding!r}"
        ) from None


def pan18_aa_rows(raw: Path, language: str, dropped: Counter[str]) -> list[dict[str, Any]]:
    """PAN18 cross-domain AA problems of one language: each unknown text is a query,
    each candidate's known texts joined by a blank line form one target document.
    Unknown texts whose true author is ``<UNK>`` (open set) are counted and left out."""
    code = PAN18_LANGUAGES[language]
    info_paths = sorted(raw.rglob("collection-info.json"))
    if not info_paths:
        raise DataError(f"{raw}: no collection-info.json (expected the PAN18 AA download)")
    # STEB uses test-dataset2 (its download script converts only that release); the
    # Zenodo record also holds the training set, whose problems reuse the same names.
    tests = [p for p in info_paths if "test" in p.parent.name.lower()]
    if tests:
        for path in info_paths:
            if path not in tests:
                dropped[f"problems of {path.parent.name} (STEB uses the test set)"] += len(
                    _json(path)
                )
        info_paths = tests
    rows: list[dict[str, Any]] = []
    for info_path in info_paths:
        # two releases used together (e.g. two test sets) are told apart by folder name
        release = f"{info_path.parent.name}/" if len(info_paths) > 1 else ""
        for entry in _json(info_path):
            name = entry.get("problem-name")
            if entry.get("language") != code:
                dropped[f"problems in other languages than {language}"] += 1
                continue
            folder = info_path.parent / str(name)
            encoding = str(entry.get("encoding", "UTF-8"))
            problem = _json(folder / "problem-info.json")
            truth_path = folder / "ground-truth.json"
            if not truth_path.exists():
                truth_path = info_path.parent / f"{name}-ground-truth.json"
            if not truth_path.exists():
                raise DataError(f"{folder}: no ground-truth.json")
            truth = {t["unknown-text"]: t["true-author"] for t in _json(truth_path)["ground_truth"]}
            for candidate in problem["candidate-authors"]:
                author = candidate["author-name"]
                knowns = sorted((folder / author).glob("*.txt"))
                if not knowns:
                    raise DataError(f"{folder / author}: candidate without known texts")
                text = "\n\n".join(_read(k, encoding).strip() for k in knowns)
                rows.append(
                    {
                        "id": f"{release}{name}/{author}",
                        "author": f"{release}{name}/{author}",
                        "role": "target",
                        "texts": [text],
                    }
                )
            unknown_folder = folder / problem.get("unknown-folder", "unknown")
            for path in sorted(unknown_folder.glob("*.txt")):
                author = truth.get(path.name)
                if author is None:
                    raise DataError(f"{truth_path}: no entry for {path.name}")
                if author == "<UNK>":
                    dropped["unknown texts by none of the candidates (<UNK>)"] += 1
                    continue
                rows.append(
                    {
                        "id": f"{release}{name}/{path.stem}",
                        "author": f"{release}{name}/{author}",
                        "role": "query",
                        "texts": [_read(path, encoding).strip()],
                    }
                )
    return rows


LUAR_PROTOCOL = (
    "Queries and targets come from the LUAR split files (`*queries*.jsonl`, "
    "`*targets*.jsonl`); each line is one author's documents (`syms`) and becomes one row "
    "with all of them in `texts`. Authors present in both files are kept; where there are "
    "more than 500, `random.Random(42).sample` picks 500 (STEB's subsample, Table 15). The "
    "retrieval task mean-pools each row's document vectors, ranks targets by cosine and "
    "reports MRR (main score) and recall@k (App. C.9). Dropped authors and documents are "
    "counted below."
)

PAN18_PROTOCOL = (
    "For every PAN18 cross-domain authorship-attribution problem in the language, each "
    "candidate's known texts are joined with a blank line into one target document and "
    "each unknown text is one query whose `author` is its true candidate (STEB App. C.9); "
    "authors are namespaced by problem (`problem00001/candidate00003`). Unknown texts by "
    "none of the candidates (`<UNK>`) and problems in other languages are counted below. "
    "Where the download also holds the training set "
    "(`pan18-cross-domain-authorship-attribution-training-dataset-2017-12-02`, whose "
    "problems reuse the test set's names), only the test set "
    "(`...-test-dataset2-2018-04-20`) is used, as in STEB; the training problems are "
    "counted below. English test set: 4 problems, 50 candidates, 209 unknown texts = 259 "
    "rows, as Table 15 (50 classes, 259 texts)."
)


def _luar_builder(hub_id: str) -> Builder:
    def build(raw: Path | None) -> BuildResult:
        if raw is None:
            raise DataError(f"{hub_id} needs --raw (the LUAR-format split)")
        dropped: Counter[str] = Counter()
        return BuildResult({"retrieval": {"test": luar_rows(Path(raw), dropped)}}, dict(dropped))

    build.__name__ = "build_" + hub_id.split("/")[1]
    return build


def _pan18_build(language: str) -> Builder:
    def build(raw: Path | None) -> BuildResult:
        if raw is None:
            raise DataError("PAN18 cross-domain AA needs --raw (the PAN18 download)")
        dropped: Counter[str] = Counter()
        rows = pan18_aa_rows(Path(raw), language, dropped)
        return BuildResult({"retrieval": {"test": rows}}, dict(dropped))

    build.__name__ = f"build_pan18_aa_{language}"
    return build


def _retrieval(
    name: str, authors: int, per: int, total: int, summary: str, **declared: Any
) -> DatasetSpec:
    """A STEB retrieval set; ``declared`` gives its source, licence, format, citation
    and, for the PAN18 set, its builder (the LUAR-format sets share one)."""
    declared.setdefault("builder", _luar_builder(f"steb/{name}"))
    declared.setdefault("protocol", LUAR_PROTOCOL)
    return steb_dataset(
        name=name,
        summary=summary,
        bucket="authorship",
        definitional=IDIOLECT,
        counts={RETRIEVAL: SampleCount(authors, per, total)},
        application="AR",
        **declared,
    )


MULTILINGUAL_NOTE = (
    " This set is part of STEB's multilingual analysis (Sec. 5.3, Table 5), not of the 96 "
    "datasets or the main scores."
)
LUAR_FORMAT = (
    "LUAR split format: queries.jsonl and targets.jsonl, one author per line "
    "({author_id, syms: [documents], ...})"
)
LUAR_CITATION = """@inproceedings{riverasoto2021learning,
  title     = {Learning Universal Authorship Representations},
  author    = {Rivera-Soto, Rafael A. and Miano, Olivia Elizabeth and Ordonez, Juanita and
               Chen, Barry Y. and Khan, Aleem and Bishop, Marcus and Andrews, Nicholas},
  booktitle = {Proceedings of EMNLP 2021},
  year      = {2021},
  pages     = {913--919}
}"""

PAN18_AA_FORMAT = (
    "PAN18 cross-domain AA: collection-info.json; per problem problem-info.json, "
    "candidateNNNNN/known*.txt, unknown/unknown*.txt and ground-truth.json"
)

RETRIEVAL_SETS = (
    _retrieval(
        "amazon",
        500,
        195,
        97_787,
        "Amazon review authorship retrieval (LUAR test split, 500-author STEB subsample): "
        "several reviews per query and per target.",
        source_url="https://github.com/LLNL/LUAR",
        license="Amazon review data terms (research use); STEB redistributes the "
        "subsampled split for research only",
        raw_format=LUAR_FORMAT,
        citation=LUAR_CITATION,
    ),
    _retrieval(
        "fanfiction",
        500,
        86,
        43_411,
        "Fanfiction authorship retrieval (500-author STEB subsample): several stories per "
        "query and per target.",
        source_url="https://pan.webis.de/data.html",
        license="research use (STEB redistribution)",
        raw_format=LUAR_FORMAT,
        citation=LUAR_CITATION,
    ),
    _retrieval(
        "pan18_cross_domain_authorship_attribution_english",
        50,
        5,
        259,
        "PAN18 cross-domain authorship attribution (English): unknown fanfics as queries, "
        "each candidate's known texts concatenated as its target.",
        source_url=PAN_DATA_URL,
        license=PAN_LICENSE,
        raw_format=PAN18_AA_FORMAT,
        citation=PAN18_CITATION,
        builder=_pan18_build("english"),
        protocol=PAN18_PROTOCOL,
        raw_hint="pan18_cross_domain_authorship_attribution",
    ),
    _retrieval(
        "stackexchange_retrieval",
        500,
        125,
        62_980,
        "StackExchange authorship retrieval (500 random authors across communities): "
        "several posts per query and per target.",
        source_url="https://archive.org/download/stackexchange",
        license="CC BY-SA 3.0",
        raw_format=LUAR_FORMAT,
    ),
)

MULTILINGUAL_AA = tuple(
    steb_dataset(
        name=f"pan18_cross_domain_authorship_attribution_{language}",
        summary=f"PAN18 cross-domain authorship attribution ({language.title()}; multilingual "
        "STEB subset, not in the 96): unknown texts as queries, concatenated known texts "
        "as targets.",
        bucket="authorship",
        definitional=(),
        counts={},
        source_url=PAN_DATA_URL,
        license=PAN_LICENSE,
        raw_format=PAN18_AA_FORMAT,
        citation=PAN18_CITATION,
        language=(LANGUAGES[language],),
        application="AR",
        in_steb_96=False,
        task_types=(RETRIEVAL,),
        builder=_pan18_build(language),
        raw_hint="pan18_cross_domain_authorship_attribution",
        protocol=PAN18_PROTOCOL + MULTILINGUAL_NOTE,
    )
    for language in ("french", "italian", "polish", "spanish")
)


# ------------------------------------------------------------------ CCAT50 (extra) ---


def ccat50_rows(raw: Path, dropped: Counter[str]) -> list[dict[str, Any]]:
    """CCAT50 as retrieval: per author, the 50 ``C50test`` articles form one query and
    the 50 ``C50train`` articles one target."""
    base = next((p for p in (raw / "data", raw) if (p / "C50train").is_dir()), None)
    if base is None:
        raise DataError(f"{raw}: no C50train/ folder (expected the Reuter_50_50 layout)")
    rows = []
    for role, split in (("query", "C50test"), ("target", "C50train")):
        folder = base / split
        if not folder.is_dir():
            raise DataError(f"{base}: no {split}/ folder")
        for author_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
            docs = []
            for path in sorted(author_dir.glob("*.txt")):
                text = path.read_text(encoding="utf-8", errors="strict").strip()
                if text:
                    docs.append(text)
                else:
                    dropped["empty articles"] += 1
            if docs:
                rows.append(
                    {
                        "id": f"{role}-{author_dir.name}",
                        "author": author_dir.name,
                        "role": role,
                        "texts": docs,
                    }
                )
    return rows


def build_ccat50(raw: Path | None) -> BuildResult:
    """CCAT50 (Reuter_50_50) as an authorship-retrieval set."""
    if raw is None:
        raise DataError("stylebench/ccat50_retrieval needs --raw (the Reuter_50_50 folder)")
    dropped: Counter[str] = Counter()
    return BuildResult({"retrieval": {"test": ccat50_rows(Path(raw), dropped)}}, dict(dropped))


CCAT50_SPEC = DatasetSpec(
    hub_id="stylebench/ccat50_retrieval",
    pretty_name="CCAT50 authorship retrieval (extra, not part of STEB)",
    summary="Reuter_50_50 (CCAT50) news articles of 50 authors as STEB-style authorship "
    "retrieval: each author's 50 test articles are one query, the 50 training articles "
    "one target. An extra set outside STEB's 96 datasets.",
    builder=build_ccat50,
    license="UCI Reuter_50_50 (RCV1 subset; Reuters text, research use only)",
    source_url="https://archive.ics.uci.edu/dataset/217/reuter+50+50",
    citation="""@misc{liu2011reuter,
  title  = {{Reuter\\_50\\_50}},
  author = {Liu, Zhi},
  year   = {2011},
  howpublished = {UCI Machine Learning Repository}
}""",
    raw_format="C50train/<author>/*newsML.txt and C50test/<author>/*newsML.txt "
    "(plain text, one article per file)",
    protocol="NOT one of STEB's 96 datasets: an extra authorship-retrieval set in the "
    "same `retrieval` schema and protocol (App. C.9). Each author has one query row (the "
    "50 `C50test` articles) and one target row (the 50 `C50train` articles); the "
    "evaluator mean-pools each row's article vectors, ranks the 50 targets by cosine and "
    "reports MRR. Empty articles would be counted below (there are none in the UCI "
    "release).",
    language=("en",),
    raw_hint="ccat50",
    task_types=(RETRIEVAL,),
)

DATASETS = (*RETRIEVAL_SETS, *MULTILINGUAL_AA, CCAT50_SPEC)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "pan18_cross_domain_authorship_attribution",
        (
            github(
                "UGURGULAYDIN/Author-Detection-with-Machine-Learning",
                "400e99ddc463e04817675ada5fd00f3df42f9a67",
                tuple(
                    (f"{d}/",) * 2
                    for d in (
                        "pan18-cross-domain-authorship-attribution-training-dataset-2017-12-02",
                        "pan18-cross-domain-authorship-attribution-test-dataset2-2018-04-20",
                    )
                ),
            ),
        ),
        license=PAN_LICENSE,
        homepage="https://zenodo.org/records/3737849",
        note="a participant's copy of the training and test sets (original: Zenodo 3737849)",
    ),
    Source(
        "luar_splits",
        (manual("https://github.com/LLNL/LUAR"),),
        license="see LUAR and each corpus",
        instructions="LUAR's author splits (queries.jsonl, targets.jsonl) are made with its scripts from the Amazon, fanfiction (PAN) and Stack Exchange data, which each need a request or a dump.",
        datasets=("steb/amazon", "steb/fanfiction", "steb/stackexchange_retrieval"),
    ),
)
