"""PAN authorship verification (PAN13, PAN14, PAN15, PAN20, PAN21) and the Enron
authorship corpus as STEB predefined pairs (App. C.7).

Raw formats:

* PAN13-15 (Zenodo): one folder per problem (``EN001/``, ``GR01/`` ...) holding
  ``known*.txt`` (one or more texts by the known author) and ``unknown.txt``, and a
  ``truth.txt`` of ``<problem id> Y|N`` lines. The two-letter prefix of the problem id
  names the language/genre (PAN14: DE Dutch essays, DR Dutch reviews, EE English essays,
  EN English novels, GR Greek articles, SP Spanish articles; PAN15: DU, EN, GR, SP).
  A trial is (known texts joined by a blank line, unknown text), label 1 for ``Y``.
* PAN20/21: ``pairs.jsonl`` (``{"id", "fandoms", "pair": [text1, text2]}``) and
  ``truth.jsonl`` (``{"id", "same", "authors"}``). STEB keeps a balanced, seeded
  500-pair subsample (:func:`balanced_subsample`).
* Enron (Halvani): verification cases in the PAN folder layout above, or the
  ``enron.sample`` quanteda corpus of the ``idiolect`` R package (``.rda`` with
  ``author`` and ``textname`` docvars; read with the ``rdata`` package).
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.spec import BuildResult, DatasetSpec
from dataset_scripts.raw_io import iter_jsonl, read_text
from dataset_scripts.steb.catalog import PREDEFINED, predefined_counts, steb_dataset
from dataset_scripts.steb.pan_sources import (
    IDIOLECT,
    LANGUAGES,
    PAN13_CITATION,
    PAN14_CITATION,
    PAN15_CITATION,
    PAN20_CITATION,
    PAN21_CITATION,
    PAN_AV_FORMAT,
    PAN_DATA_URL,
    PAN_LICENSE,
)

SEED = 42
PAN2X_PAIRS_PER_LABEL = 250
KNOWN_SEPARATOR = "\n\n"


def _read_text(path: Path) -> str:
    return read_text(path)  # UTF-8, BOM dropped; a decoding error names file and line


def read_truth_txt(path: Path) -> dict[str, int]:
    """``truth.txt`` of PAN13-15: ``<problem> Y|N`` per line -> {problem: 1|0}."""
    truth: dict[str, int] = {}
    for line_no, line in enumerate(_read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) < 2 or parts[1].upper() not in ("Y", "N"):
            raise DataError(f"{path} line {line_no}: expected '<problem> Y|N', found {line!r:.60}")
        truth[parts[0]] = int(parts[1].upper() == "Y")
    return truth


def _known_order(path: Path) -> tuple[int, str]:
    match = re.search(r"(\d+)", path.stem)
    return (int(match.group(1)) if match else 0, path.name)


def pan_folder_pairs(
    raw: Path, prefixes: tuple[str, ...] | None, dropped: Counter[str]
) -> list[dict[str, Any]]:
    """Trials of a PAN13-15-style download: every problem folder (with ``unknown.txt``)
    whose id starts with one of ``prefixes`` (all when None); problems of other
    languages/genres and problems missing from every ``truth.txt`` are counted."""
    truth: dict[str, int] = {}
    for path in sorted(raw.rglob("truth.txt")):
        truth.update(read_truth_txt(path))
    if not truth:
        raise DataError(f"{raw}: no truth.txt (expected a PAN13-15 verification download)")
    rows = []
    for unknown in sorted(raw.rglob("unknown.txt"), key=lambda p: p.parent.name):
        problem = unknown.parent.name
        if prefixes is not None and not problem.upper().startswith(prefixes):
            dropped[f"problem of another language/genre (prefix not in {list(prefixes)})"] += 1
            continue
        if problem not in truth:
            dropped["problem without a truth.txt entry"] += 1
            continue
        knowns = sorted(unknown.parent.glob("known*.txt"), key=_known_order)
        if not knowns:
            raise DataError(f"{unknown.parent}: problem has no known*.txt")
        known_text = KNOWN_SEPARATOR.join(_read_text(k).strip() for k in knowns)
        unknown_text = _read_text(unknown).strip()
        if not known_text.strip() or not unknown_text:
            dropped["problem with an empty known or unknown text"] += 1
            continue
        rows.append(
            {"id": problem, "text1": known_text, "text2": unknown_text, "label": truth[problem]}
        )
    if not rows:
        raise DataError(f"{raw}: no problem matched {list(prefixes or [])}")
    return rows


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [record for _, record in iter_jsonl(path)]


def read_truth_jsonl(path: Path) -> dict[str, int]:
    """PAN20/21 ``truth.jsonl`` -> {pair id: 1 same | 0 different}, in file order."""
    truth: dict[str, int] = {}
    for index, record in enumerate(_jsonl(path), start=1):
        if "id" not in record or not isinstance(record.get("same"), bool):
            raise DataError(f"{path} record {index}: needs 'id' and boolean 'same'")
        truth[str(record["id"])] = int(record["same"])
    return truth


def balanced_subsample(
    truth: dict[str, int], per_label: int, seed: int, dropped: Counter[str]
) -> list[str]:
    """STEB's PAN20/21 subsample: ``per_label`` same-author and ``per_label``
    different-author pair ids, each drawn without replacement by
    ``random.Random(seed)`` from the ids of that label in file order (same-author first);
    returned in file order. The other pairs are counted in ``dropped``."""
    rng = random.Random(seed)
    chosen: set[str] = set()
    for label in (1, 0):
        ids = [i for i, value in truth.items() if value == label]
        if len(ids) < per_label:
            raise DataError(f"only {len(ids)} pairs with label {label}; need {per_label}")
        chosen.update(rng.sample(ids, per_label))
    dropped["pairs outside the seeded balanced 500-pair subsample"] += len(truth) - len(chosen)
    return [i for i in truth if i in chosen]


def _find_one(raw: Path, name: str) -> Path:
    found = sorted(raw.rglob(name))
    if not found:
        raise DataError(f"{raw}: no {name}")
    tests = [p for p in found if "test" in str(p.relative_to(raw)).lower()]
    return (tests or found)[0]


def pan2x_pairs(raw: Path, dropped: Counter[str], seed: int = SEED) -> list[dict[str, Any]]:
    """Balanced 500-pair subsample of a PAN20/21 ``pairs.jsonl`` + ``truth.jsonl``."""
    pairs_path = _find_one(raw, "pairs.jsonl")
    truth_path = pairs_path.with_name("truth.jsonl")
    if not truth_path.exists():
        truth_path = _find_one(raw, "truth.jsonl")
    truth = read_truth_jsonl(truth_path)
    keep = set(balanced_subsample(truth, PAN2X_PAIRS_PER_LABEL, seed, dropped))
    rows = []
    for index, record in enumerate(_jsonl(pairs_path), start=1):
        pair_id = str(record.get("id"))
        if pair_id not in keep:
            continue
        pair = record.get("pair")
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(t, str) for t in pair)
        ):
            raise DataError(f"{pairs_path} record {index}: 'pair' must hold two texts")
        rows.append({"id": pair_id, "text1": pair[0], "text2": pair[1], "label": truth[pair_id]})
    missing = len(keep) - len(rows)
    if missing:
        raise DataError(f"{pairs_path}: {missing} subsampled ids of {truth_path.name} have no pair")
    return rows


# ---------------------------------------------------------------- Enron (Halvani) ---


def read_idiolect_rda(path: Path) -> list[tuple[str, str, str]]:
    """(author, textname, text) of the ``idiolect`` package's quanteda corpus ``.rda``."""
    try:
        import rdata
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise DataError(f"{path}: reading .rda needs the 'rdata' package ({error})") from None
    import warnings

    with warnings.catch_warnings():  # rdata warns about R classes it maps to plain types
        warnings.simplefilter("ignore")
        return _idiolect_records(rdata, path)


def _idiolect_records(rdata: Any, path: Path) -> list[tuple[str, str, str]]:
    parsed = rdata.parser.parse_file(path)
    converter = rdata.conversion.SimpleConverter()
    corpus = parsed.object.value[0]
    texts = [str(t) for t in converter.convert(corpus)]
    docvars = None
    attribute = corpus.attributes
    while attribute is not None and getattr(attribute, "value", None):
        if attribute.tag is not None and attribute.tag.value.value == b"docvars":
            docvars = attribute.value[0]
        attribute = attribute.value[1] if len(attribute.value) > 1 else None
    if docvars is None:
        raise DataError(f"{path}: quanteda corpus without docvars")
    names_attr = docvars.attributes
    columns: list[str] = []
    while names_attr is not None and getattr(names_attr, "value", None):
        value = converter.convert(names_attr.value[0])
        if hasattr(value, "tolist") and "author" in list(value):
            columns = [str(v) for v in value]
        names_attr = names_attr.value[1] if len(names_attr.value) > 1 else None
    if "author" not in columns or "textname" not in columns:
        raise DataError(f"{path}: docvars lack 'author'/'textname' (found {columns})")
    data = {
        name: list(converter.convert(col)) for name, col in zip(columns, docvars.value, strict=True)
    }
    if len(data["author"]) != len(texts):
        raise DataError(f"{path}: {len(texts)} texts but {len(data['author'])} docvars rows")
    return [
        (str(a), str(n), t) for a, n, t in zip(data["author"], data["textname"], texts, strict=True)
    ]


def enron_rda_pairs(path: Path, dropped: Counter[str]) -> list[dict[str, Any]]:
    """Two trials per author of the idiolect Enron sample: the author's e-mails but the
    last (by number in ``textname``, at most 4) joined by blank lines vs. (same) the
    author's last e-mail and (different) the last e-mail of the next author in
    alphabetical order."""
    by_author: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for author, name, text in read_idiolect_rda(path):
        by_author[author].append((name, text))
    authors = []
    for author in sorted(by_author):
        if len(by_author[author]) < 2:
            dropped["author with fewer than 2 e-mails"] += len(by_author[author])
            continue
        by_author[author].sort(key=lambda item: _known_order(Path(item[0])))
        authors.append(author)
    rows = []
    for index, author in enumerate(authors):
        mails = by_author[author]
        known = KNOWN_SEPARATOR.join(t.strip() for _, t in mails[:-1][-4:])
        other = authors[(index + 1) % len(authors)]
        rows.append({"id": f"{author}-same", "text1": known, "text2": mails[-1][1], "label": 1})
        rows.append(
            {"id": f"{author}-diff", "text1": known, "text2": by_author[other][-1][1], "label": 0}
        )
    return rows


ENRON_PROTOCOL = (
    "Each of Halvani's verification cases has five e-mails: four by one author and one "
    "questioned e-mail. The four known e-mails are joined with a blank line (`\\n\\n`) into "
    "`text1`; the questioned e-mail is `text2`; `label` is 1 when it is by the same author "
    "(STEB App. C.7). A download in the PAN folder layout (case folders with known*.txt, "
    "unknown.txt and truth.txt) is read as such. The `idiolect` R package's "
    "`enron.sample` (.rda; 10 authors, content-masked with POSnoise) is also accepted: "
    "per author, its e-mails but the last (at most four) form `text1`, paired with the "
    "author's last e-mail (same) and with the next author's last e-mail (different). "
    "Reading .rda needs the `rdata` package."
)


def build_enron(raw: Path | None) -> BuildResult:
    """Enron AV trials from a folder of cases or the idiolect ``.rda`` sample."""
    if raw is None:
        raise DataError("steb/enron_authorship_corpus needs --raw")
    raw = Path(raw)
    dropped: Counter[str] = Counter()
    rda = [raw] if raw.suffix == ".rda" else sorted(raw.rglob("*.rda"))
    rows = enron_rda_pairs(rda[0], dropped) if rda else pan_folder_pairs(raw, None, dropped)
    return BuildResult({"text_pairs": {"test": rows}}, dict(dropped))


# ------------------------------------------------------------------- PAN13-15/20/21 ---


def av_protocol(name: str, prefixes: tuple[str, ...] | None) -> str:
    if prefixes is None:
        return (
            "`pairs.jsonl` and `truth.jsonl` are joined by `id`; `label` = 1 where `same` is "
            "true. As in STEB (App. C.7), a balanced subsample of 250 same-author and 250 "
            "different-author pairs is drawn: `random.Random(42).sample` picks 250 ids among "
            "the same-author ids (in `truth.jsonl` order), then 250 among the "
            "different-author ids; rows keep file order. Rebuilding is byte-identical; the "
            "pairs left out are counted below. Point `--raw` at the test download."
        )
    return (
        "Every problem folder whose id starts with "
        + " or ".join(f"`{p}`" for p in prefixes)
        + " gives one trial: its `known*.txt` texts (numeric order) joined by a blank line "
        "form `text1`, `unknown.txt` is `text2`, and `label` is 1 where `truth.txt` says "
        "`Y`. Problems of the download's other languages/genres are counted below. Point "
        "`--raw` at the test corpus (for PAN14: corpus 1 or corpus 2)."
    )


def _register_av(hub_id: str, prefixes: tuple[str, ...] | None) -> Any:
    def build(raw: Path | None) -> BuildResult:
        if raw is None:
            raise DataError(f"{hub_id} needs --raw (the PAN download)")
        dropped: Counter[str] = Counter()
        if prefixes is None:
            rows = pan2x_pairs(Path(raw), dropped)
        else:
            rows = pan_folder_pairs(Path(raw), prefixes, dropped)
        return BuildResult({"text_pairs": {"test": rows}}, dict(dropped))

    build.__name__ = "build_" + hub_id.split("/")[1]
    build.__doc__ = f"Build {hub_id} from its PAN download."
    return build


# Raw downloads available under ../shared/corpora (folder name; status.LAYOUTS knows
# their layout), and what the card must say about them.
RAW_HINTS = {
    "steb/pan15_authorship_verification_english_test": "pan15_authorship_verification_english"
}
PAN15_NOTE = (
    " STEB uses the English **test** set (500 problems; Table 15: 1,000 texts). The "
    "training set (`pan15-authorship-verification-training-dataset-english-2015-04-19`, "
    "100 problems, 50 Y / 50 N) has the same layout and builds the same way into 100 trials "
    "(200 texts): a build with 200 texts is that training set, a sample of the problems "
    "STEB evaluates, not STEB's dataset. The copy in `../shared/corpora` is the training set."
)

MULTILINGUAL_NOTE = (
    " This set is part of STEB's multilingual analysis (Sec. 5.3, Table 5), not of the 96 "
    "datasets or the main scores."
)


def _av(
    name: str,
    trials: int,
    summary: str,
    citation: str,
    problem_prefixes: tuple[str, ...] | None = None,
) -> DatasetSpec:
    hub_id = f"steb/{name}"
    note = PAN15_NOTE if name == "pan15_authorship_verification_english_test" else ""
    return steb_dataset(
        name=name,
        summary=summary,
        bucket="authorship",
        definitional=IDIOLECT,
        counts=predefined_counts(trials),
        source_url=PAN_DATA_URL,
        license=PAN_LICENSE,
        raw_format=PAN_AV_FORMAT,
        citation=citation,
        application="AV",
        problem_prefixes=problem_prefixes,
        builder=_register_av(hub_id, problem_prefixes),
        protocol=av_protocol(name, problem_prefixes) + note,
        raw_hint=RAW_HINTS.get(hub_id, ""),
    )


def _multilingual_av(
    name: str, language: str, prefixes: tuple[str, ...], citation: str
) -> DatasetSpec:
    return steb_dataset(
        name=name,
        summary=f"{name.split('_')[0].upper()} authorship verification, {language.title()} "
        "(multilingual STEB subset; not in the 96 or the main scores).",
        bucket="authorship",
        definitional=(),
        counts={},
        task_types=(PREDEFINED,),
        in_steb_96=False,
        source_url=PAN_DATA_URL,
        license=PAN_LICENSE,
        raw_format=PAN_AV_FORMAT,
        citation=citation,
        language=(LANGUAGES[language],),
        application="AV",
        problem_prefixes=prefixes,
        builder=_register_av(f"steb/{name}", prefixes),
        protocol=av_protocol(name, prefixes) + MULTILINGUAL_NOTE,
    )


ENRON = steb_dataset(
    name="enron_authorship_corpus",
    summary="Halvani's 80-author Enron e-mail authorship-verification corpus: four known "
    "e-mails concatenated with blank lines vs. one questioned e-mail.",
    bucket="authorship",
    definitional=IDIOLECT,
    counts=predefined_counts(80),
    source_url="https://data.mendeley.com/datasets/n77w7mzhc5/1",
    license="CC BY 4.0 (STEB App. C.7)",
    raw_format="Halvani's Enron AV corpus: 80 cases of 4 known + 1 unknown e-mail; the "
    "idiolect R package's enron.sample (quanteda corpus .rda with author/textname docvars) "
    "is read too",
    citation="""@phdthesis{halvani2021practice,
  title  = {Practice-Oriented Authorship Verification},
  author = {Halvani, Oren},
  school = {Technical University of Darmstadt},
  year   = {2021}
}""",
    application="AV",
    builder=build_enron,
    protocol=ENRON_PROTOCOL,
    raw_hint="enron_idiolect_sample",
)

AV_SETS = (
    _av(
        "pan13_authorship_verification_english_test",
        30,
        "PAN13 authorship verification, English test set: known texts vs. an unknown text.",
        PAN13_CITATION,
        problem_prefixes=("EN",),
    ),
    _av(
        "pan14_authorship_verification_corpus1_english_essays_test",
        100,
        "PAN14 authorship verification, test corpus 1, English essays.",
        PAN14_CITATION,
        problem_prefixes=("EE",),
    ),
    _av(
        "pan14_authorship_verification_corpus1_english_novels_test",
        100,
        "PAN14 authorship verification, test corpus 1, English novels.",
        PAN14_CITATION,
        problem_prefixes=("EN",),
    ),
    _av(
        "pan14_authorship_verification_corpus2_english_essays_test",
        200,
        "PAN14 authorship verification, test corpus 2, English essays.",
        PAN14_CITATION,
        problem_prefixes=("EE",),
    ),
    _av(
        "pan14_authorship_verification_corpus2_english_novels_test",
        200,
        "PAN14 authorship verification, test corpus 2, English novels.",
        PAN14_CITATION,
        problem_prefixes=("EN",),
    ),
    _av(
        "pan15_authorship_verification_english_test",
        500,
        "PAN15 cross-topic/cross-genre authorship verification, English test set.",
        PAN15_CITATION,
        problem_prefixes=("EN",),
    ),
    _av(
        "pan20_authorship_verification_test",
        500,
        "PAN20 fanfiction authorship verification test set, balanced 500-pair seeded "
        "subsample (250 same-author, 250 different-author).",
        PAN20_CITATION,
    ),
    _av(
        "pan21_authorship_verification_test",
        500,
        "PAN21 fanfiction authorship verification test set, balanced 500-pair seeded "
        "subsample (250 same-author, 250 different-author).",
        PAN21_CITATION,
    ),
)

MULTILINGUAL_AV = (
    _multilingual_av("pan13_authorship_verification_greek_test", "greek", ("GR",), PAN13_CITATION),
    _multilingual_av(
        "pan13_authorship_verification_spanish_test", "spanish", ("SP",), PAN13_CITATION
    ),
    *(
        _multilingual_av(
            f"pan14_authorship_verification_{corpus}_{language}_{genre}_test",
            language,
            (prefix,),
            PAN14_CITATION,
        )
        for corpus in ("corpus1", "corpus2")
        for language, genre, prefix in (
            ("dutch", "essays", "DE"),
            ("dutch", "reviews", "DR"),
            ("greek", "articles", "GR"),
            ("spanish", "articles", "SP"),
        )
    ),
    *(
        _multilingual_av(
            f"pan15_authorship_verification_{language}_test", language, (prefix,), PAN15_CITATION
        )
        for language, prefix in (("dutch", "DU"), ("greek", "GR"), ("spanish", "SP"))
    ),
)

DATASETS = (ENRON, *AV_SETS, *MULTILINGUAL_AV)
