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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github, manual
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


@dataclass(frozen=True)
class Release:
    """The corpus of a PAN13-15 download that one dataset reads, told apart from the
    download's other corpora (PAN14's test corpus 1 and 2, PAN15's training and test
    sets) by the names of their folders and, for PAN14, by the ``corpus`` that their
    ``truth.json`` names."""

    what: str  # the corpus, in words: "test corpus 1"
    wanted: tuple[str, ...]  # a corpus whose label (lower case) holds one is this one
    others: tuple[str, ...]  # words naming the download's other corpora
    fallback: bool = False  # build from the other corpora when this one is absent


PAN13_TEST = Release("test corpus 2", ("corpus2",), ("training", "corpus1"), fallback=True)
PAN14_CORPUS1 = Release(
    "early-bird test corpus 1", ("corpus1", "early-bird"), ("corpus2", "final", "training")
)
PAN14_CORPUS2 = Release(
    "final test corpus 2", ("corpus2", "final evaluation"), ("corpus1", "early-bird", "training")
)
PAN15_TEST = Release("test set", ("test",), ("training",), fallback=True)


def corpus_label(corpus: Path, raw: Path) -> str:
    """What names a corpus folder: its path below ``raw`` (lower case) and, where it has
    a ``truth.json`` (PAN14), the ``corpus`` named there."""
    label = corpus.relative_to(raw).as_posix().lower()
    truth_json = corpus / "truth.json"
    if truth_json.is_file():
        match = re.search(r'"corpus"\s*:\s*"([^"]*)"', _read_text(truth_json)[:2000])
        label += " " + (match.group(1).lower() if match else "")
    return label


def select_corpora(
    raw: Path, corpora: list[Path], release: Release | None, dropped: Counter[str]
) -> list[Path]:
    """The corpus folders (those holding a ``truth.txt``) of ``raw`` that ``release``
    reads: all of them when there is only one or no release is given; else those whose
    label names the release, else those naming no other corpus, else (``fallback``) all.
    The problems of the corpora left out are counted in ``dropped``; a download holding
    only other corpora is an error naming them."""
    if release is None or len(corpora) < 2:
        return corpora
    label = {c: corpus_label(c, raw) for c in corpora}
    chosen = [c for c in corpora if any(t in label[c] for t in release.wanted)]
    if not chosen:
        chosen = [c for c in corpora if not any(t in label[c] for t in release.others)]
    if not chosen and release.fallback:
        return corpora
    if not chosen:
        found = ", ".join(c.relative_to(raw).as_posix() for c in corpora)
        raise DataError(f"missing {release.what} in {raw}: its corpora are {found}")
    for corpus in corpora:
        if corpus not in chosen:
            n = len(list(corpus.glob("*/unknown.txt")))
            where = corpus.relative_to(raw).as_posix()
            dropped[f"problems of {where} (not the {release.what})"] += n
    return chosen


def pan_folder_pairs(
    raw: Path,
    prefixes: tuple[str, ...] | None,
    dropped: Counter[str],
    release: Release | None = None,
) -> list[dict[str, Any]]:
    """Trials of a PAN13-15-style download: every problem folder (with ``unknown.txt``)
    of the corpus ``release`` names (:func:`select_corpora`) whose id starts with one of
    ``prefixes`` (all when None); problems of other languages/genres and problems
    missing from every ``truth.txt`` are counted. A problem id found twice (two copies
    or two corpora mixed) is an error naming both folders."""
    corpora = sorted({p.parent for p in raw.rglob("truth.txt")})
    if not corpora:
        raise DataError(f"{raw}: no truth.txt (expected a PAN13-15 verification download)")
    chosen = select_corpora(raw, corpora, release, dropped)
    truth: dict[str, int] = {}
    for corpus in chosen:
        truth.update(read_truth_txt(corpus / "truth.txt"))
    if len(chosen) == len(corpora):
        unknowns = raw.rglob("unknown.txt")
    else:  # only the problems of the corpora chosen
        unknowns = (u for c in chosen for u in c.rglob("unknown.txt"))
    rows = []
    seen: dict[str, Path] = {}
    for unknown in sorted(unknowns, key=lambda p: (p.parent.name, str(p))):
        problem = unknown.parent.name
        if prefixes is not None and not problem.upper().startswith(prefixes):
            dropped[f"problem of another language/genre (prefix not in {list(prefixes)})"] += 1
            continue
        if problem not in truth:
            dropped["problem without a truth.txt entry"] += 1
            continue
        if problem in seen:
            raise DataError(
                f"{raw}: problem {problem} is in {seen[problem]} and in {unknown.parent} "
                "(two corpora or two copies; point --raw at one corpus)"
            )
        seen[problem] = unknown.parent
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
        wanted = f"problems {list(prefixes)}" if prefixes else "problems with a truth.txt entry"
        raise DataError(f"missing {wanted} in {raw}: no problem matched")
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


def av_protocol(name: str, prefixes: tuple[str, ...] | None, release: Release | None) -> str:
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
        "`--raw` at the test corpus (for PAN14: corpus 1 or corpus 2)." + _release_text(release)
    )


def _release_text(release: Release | None) -> str:
    if release is None:
        return ""
    text = (
        f" A download holding several corpora (folders with a `truth.txt`) is read for the "
        f"{release.what} only: the corpora whose path (or `truth.json` `corpus` field) names "
        + " or ".join(f"`{t}`" for t in release.wanted)
        + ", else those naming none of "
        + ", ".join(f"`{t}`" for t in release.others)
        + "; the problems of the others are counted below"
    )
    if release.fallback:
        return text + " (a download holding only those others is read whole)."
    return text + " (a download holding only those others is reported as lacking it)."


def _register_av(
    hub_id: str, prefixes: tuple[str, ...] | None, release: Release | None = None
) -> Any:
    def build(raw: Path | None) -> BuildResult:
        if raw is None:
            raise DataError(f"{hub_id} needs --raw (the PAN download)")
        dropped: Counter[str] = Counter()
        if prefixes is None:
            rows = pan2x_pairs(Path(raw), dropped)
        else:
            rows = pan_folder_pairs(Path(raw), prefixes, dropped, release)
        return BuildResult({"text_pairs": {"test": rows}}, dict(dropped))

    build.__name__ = "build_" + hub_id.split("/")[1]
    build.__doc__ = f"Build {hub_id} from its PAN download."
    return build


# Raw downloads available under ../shared/corpora (folder name; status.LAYOUTS knows
# their layout), and what the card must say about them.
RAW_HINTS = {
    "steb/pan13_authorship_verification_english_test": "pan13_authorship_verification_test",
    **{
        f"steb/pan14_authorship_verification_{corpus}_english_{genre}_test": (
            f"pan14_authorship_verification_test_{corpus}"
        )
        for corpus in ("corpus1", "corpus2")
        for genre in ("essays", "novels")
    },
    "steb/pan15_authorship_verification_english_test": "pan15_authorship_verification_english_test",
}
PAN13_NOTE = (
    " STEB's PAN13 set is test corpus 2 (`pan13-authorship-verification-test-corpus2-2013-05-29`"
    "), whose English problems `EN01`-`EN40` (30 of them, 3-7 known texts each) give Table "
    "15's 30 trials; its `truth.txt` also lists the Greek and Spanish problems (85 lines)."
)
PAN14_NOTE = (
    " PAN14 released two test corpora with the same layout and file names: corpus 1 (the "
    "early-bird evaluation corpus; 100 English essays `EE*` and 100 English novels `EN*` "
    "problems) and corpus 2 (the final evaluation corpus; 200 of each). Corpus 1 is a subset "
    "of corpus 2: in the copies in `../shared/corpora` its 200 problem folders are "
    "byte-identical to corpus 2's folders of the same ids, with the same answers. The "
    "build tells them apart by the folder names (`...-test-corpus1-...`, "
    "`...-test-corpus2-...`) or the `corpus` that `truth.json` names (`Early-bird "
    "Evaluation Corpus`, `Final Evaluation Corpus`). The English novels reuse texts across "
    "problems: corpus 2's 400 novel files are 43 distinct texts (corpus 1's 200 files the "
    "same 43), so a model embeds far fewer texts than Table 15's count of texts."
)
PAN15_NOTE = (
    " STEB uses the English **test** set (`pan15-authorship-verification-test-dataset2-"
    "english-2015-04-19`: 500 problems, 250 Y / 250 N; Table 15: 1,000 texts). The "
    "training set (`pan15-authorship-verification-training-dataset-english-2015-04-19`, "
    "100 problems, 50 Y / 50 N) has the same layout and builds the same way into 100 trials "
    "(200 texts): a build with 200 texts is that training set, a sample of the problems "
    "STEB evaluates, not STEB's dataset. `../shared/corpora` holds both "
    "(`pan15_authorship_verification_english_test`, `pan15_authorship_verification_english`); "
    "`stylebench build --all` takes the test set (its problems numbered 200 and above only "
    "it has) and the training set only where no test set is found. The test set reuses "
    "texts across problems: its 1,000 files are 83 distinct files (82 distinct texts once "
    "leading and trailing whitespace is stripped)."
)
NOTES = {
    "pan13_authorship_verification_english_test": PAN13_NOTE,
    "pan15_authorship_verification_english_test": PAN15_NOTE,
}

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
    release: Release | None = None,
) -> DatasetSpec:
    hub_id = f"steb/{name}"
    note = NOTES.get(name, PAN14_NOTE if name.startswith("pan14") else "")
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
        builder=_register_av(hub_id, problem_prefixes, release),
        protocol=av_protocol(name, problem_prefixes, release) + note,
        raw_hint=RAW_HINTS.get(hub_id, ""),
    )


def _multilingual_av(
    name: str, language: str, prefixes: tuple[str, ...], citation: str, release: Release
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
        builder=_register_av(f"steb/{name}", prefixes, release),
        protocol=av_protocol(name, prefixes, release) + MULTILINGUAL_NOTE,
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
        release=PAN13_TEST,
    ),
    _av(
        "pan14_authorship_verification_corpus1_english_essays_test",
        100,
        "PAN14 authorship verification, test corpus 1, English essays.",
        PAN14_CITATION,
        problem_prefixes=("EE",),
        release=PAN14_CORPUS1,
    ),
    _av(
        "pan14_authorship_verification_corpus1_english_novels_test",
        100,
        "PAN14 authorship verification, test corpus 1, English novels.",
        PAN14_CITATION,
        problem_prefixes=("EN",),
        release=PAN14_CORPUS1,
    ),
    _av(
        "pan14_authorship_verification_corpus2_english_essays_test",
        200,
        "PAN14 authorship verification, test corpus 2, English essays.",
        PAN14_CITATION,
        problem_prefixes=("EE",),
        release=PAN14_CORPUS2,
    ),
    _av(
        "pan14_authorship_verification_corpus2_english_novels_test",
        200,
        "PAN14 authorship verification, test corpus 2, English novels.",
        PAN14_CITATION,
        problem_prefixes=("EN",),
        release=PAN14_CORPUS2,
    ),
    _av(
        "pan15_authorship_verification_english_test",
        500,
        "PAN15 cross-topic/cross-genre authorship verification, English test set.",
        PAN15_CITATION,
        problem_prefixes=("EN",),
        release=PAN15_TEST,
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
    _multilingual_av(
        "pan13_authorship_verification_greek_test", "greek", ("GR",), PAN13_CITATION, PAN13_TEST
    ),
    _multilingual_av(
        "pan13_authorship_verification_spanish_test", "spanish", ("SP",), PAN13_CITATION, PAN13_TEST
    ),
    *(
        _multilingual_av(
            f"pan14_authorship_verification_{corpus}_{language}_{genre}_test",
            language,
            (prefix,),
            PAN14_CITATION,
            PAN14_CORPUS1 if corpus == "corpus1" else PAN14_CORPUS2,
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
            f"pan15_authorship_verification_{language}_test",
            language,
            (prefix,),
            PAN15_CITATION,
            PAN15_TEST,
        )
        for language, prefix in (("dutch", "DU"), ("greek", "GR"), ("spanish", "SP"))
    ),
)

DATASETS = (ENRON, *AV_SETS, *MULTILINGUAL_AV)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
PAN_REQUEST = "PAN publishes this release on Zenodo with access on request: log in to Zenodo, request access on the record, download the release and put it, unpacked, into the folder named below."
RAW_SOURCES = (
    Source(
        "pan13_authorship_verification_test",
        (
            github(
                "johannesjasper/pan_av_data",
                "a5b7077a29ff65684ee8c49f92fa2d289a7d447a",
                (
                    (
                        "test/pan13-authorship-verification-test-corpus2-2013-05-29/",
                        "pan13-authorship-verification-test-corpus2-2013-05-29/",
                    ),
                ),
            ),
        ),
        license=PAN_LICENSE,
        homepage="https://zenodo.org/records/3715999",
        note="English problems only, as a participant's repository normalised them (a dummy/ level added)",
    ),
    *(
        Source(
            f"pan14_authorship_verification_test_corpus{n}",
            (
                github(
                    "johannesjasper/pan_av_data",
                    "a5b7077a29ff65684ee8c49f92fa2d289a7d447a",
                    tuple(
                        (
                            f"test/pan14-authorship-verification-test-corpus-2014-04-22/pan14-author-verification-test-corpus{n}-english-{kind}-2014-04-22/",
                            f"pan14-author-verification-test-corpus{n}-english-{kind}-2014-04-22/",
                        )
                        for kind in ("essays", "novels")
                    ),
                ),
            ),
            license=PAN_LICENSE,
            homepage="https://zenodo.org/records/3716033",
            note="English essays and novels only (the repository kept English)",
        )
        for n in (1, 2)
    ),
    Source(
        "pan15_authorship_verification_english_test",
        (
            github(
                "johannesjasper/pan_av_data",
                "a5b7077a29ff65684ee8c49f92fa2d289a7d447a",
                (
                    (
                        "test/pan15-authorship-verification-test-dataset2-2015-04-19/",
                        "pan15-authorship-verification-test-dataset2-2015-04-19/",
                    ),
                ),
            ),
        ),
        license=PAN_LICENSE,
        homepage="https://zenodo.org/records/3737563",
    ),
    Source(
        "enron_idiolect_sample",
        (
            github(
                "andreanini/idiolect",
                "889f1125bde4cce27201ac61bd782f3ba3fb98f9",
                (
                    ("data/enron.sample.rda", "enron.sample.rda"),
                    ("R/enron.sample.R", "enron.sample.R"),
                ),
            ),
        ),
        license="GPL (>= 2)",
    ),
    *(
        Source(
            name,
            (manual(page),),
            license=PAN_LICENSE,
            homepage=page,
            instructions=PAN_REQUEST,
            terms="PAN shared-task data: research use; do not redistribute.",
            datasets=ids,
        )
        for name, page, ids in (
            (
                "pan13_authorship_verification_other",
                "https://zenodo.org/records/3715999",
                (
                    "steb/pan13_authorship_verification_greek_test",
                    "steb/pan13_authorship_verification_spanish_test",
                ),
            ),
            (
                "pan14_authorship_verification_other",
                "https://zenodo.org/records/3716033",
                tuple(
                    f"steb/pan14_authorship_verification_corpus{n}_{x}_test"
                    for n in (1, 2)
                    for x in ("dutch_essays", "dutch_reviews", "greek_articles", "spanish_articles")
                ),
            ),
            (
                "pan15_authorship_verification_other",
                "https://zenodo.org/records/3737563",
                tuple(
                    f"steb/pan15_authorship_verification_{x}_test"
                    for x in ("dutch", "greek", "spanish")
                ),
            ),
            (
                "pan20_authorship_verification",
                "https://pan.webis.de/clef20/pan20-web/author-identification.html",
                ("steb/pan20_authorship_verification_test",),
            ),
            (
                "pan21_authorship_verification",
                "https://pan.webis.de/clef21/pan21-web/author-identification.html",
                ("steb/pan21_authorship_verification_test",),
            ),
        )
    ),
)
