"""The seven corpora of issue 31 on their real raw data (``../shared/corpora``): PAN13,
PAN14 test corpora 1 and 2, the PAN15 English test set, PAN18, PAN22 dataset1 and PAN25,
eleven STEB datasets. ``stylebench build --all`` is run ONCE per module over folders
named as nobody's raw hint (symlinks to the real folders, plus the PAN15 training set
under a name that sorts first): each dataset must be found by its layout (PAN14 corpus 1
told from corpus 2, the PAN15 test set preferred over its training set), built with
Table 15's counts and loaded back with ``datasets``. Each is then scored with a TF-IDF
encoder fitted on its own texts, and the AUROC is re-derived independently with
scikit-learn (``TfidfVectorizer`` with the documented top-2,000 vocabulary rule, cosines,
``roc_auc_score``) to 1e-6 (the evaluator's cosines are float32); the scikit-learn value
is the pinned golden. The three PAN25 levels (10-13k pairs each) are scored on their first
3,000 pairs to keep CI time down (they are built, counted and checked in full).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from dataset_scripts.core.hub_folder import BUILD_INFO
from dataset_scripts.registry import get_dataset
from evaluators.cli import cli
from evaluators.data import Table, load_table
from evaluators.encoders import get_encoder
from evaluators.tasks import EmbeddingLookup, get_evaluator
from tests.golden import SKLEARN, assert_golden

pytestmark = [pytest.mark.corpora, pytest.mark.slow]

PAN13 = "pan13_authorship_verification_test"
PAN14_1 = "pan14_authorship_verification_test_corpus1"
PAN14_2 = "pan14_authorship_verification_test_corpus2"
PAN15 = "pan15_authorship_verification_english_test"
PAN15_TRAINING = "pan15_authorship_verification_english"
PAN18 = "pan18_style_change"
PAN22 = "pan22_style_change"
PAN25 = "pan25_multi_author_analysis"
SEVEN = (PAN13, PAN14_1, PAN14_2, PAN15, PAN18, PAN22, PAN25)
OTHER_GENRE = "problem of another language/genre (prefix not in ['{}'])"

# dataset id -> (raw folder, rows = Table 15's count, Counter of labels, dropped report)
CASES: dict[str, tuple[str, int, dict[int, int], dict[str, int]]] = {
    "steb/pan13_authorship_verification_english_test": (PAN13, 30, {1: 14, 0: 16}, {}),
    "steb/pan14_authorship_verification_corpus1_english_essays_test": (
        PAN14_1,
        100,
        {0: 50, 1: 50},
        {OTHER_GENRE.format("EE"): 100},
    ),
    "steb/pan14_authorship_verification_corpus1_english_novels_test": (
        PAN14_1,
        100,
        {0: 50, 1: 50},
        {OTHER_GENRE.format("EN"): 100},
    ),
    "steb/pan14_authorship_verification_corpus2_english_essays_test": (
        PAN14_2,
        200,
        {0: 100, 1: 100},
        {OTHER_GENRE.format("EE"): 200},
    ),
    "steb/pan14_authorship_verification_corpus2_english_novels_test": (
        PAN14_2,
        200,
        {0: 100, 1: 100},
        {OTHER_GENRE.format("EN"): 200},
    ),
    "steb/pan15_authorship_verification_english_test": (PAN15, 500, {1: 250, 0: 250}, {}),
    "steb/pan18_style_change": (PAN18, 1492, {0: 746, 1: 746}, {}),
    # dataset1: every document has exactly one change (300 documents, 300 changes)
    "steb/pan22_style_change_basic": (PAN22, 2141, {1: 1841, 0: 300}, {}),
    "steb/pan25_style_change_easy": (PAN25, 10247, {1: 8046, 0: 2201}, {}),
    "steb/pan25_style_change_medium": (PAN25, 12759, {1: 10009, 0: 2750}, {}),
    "steb/pan25_style_change_hard": (PAN25, 10648, {1: 8742, 0: 1906}, {}),
}
PAN14_ESSAYS = "steb/pan14_authorship_verification_corpus1_english_essays_test"
SCORED_ROWS = {h: 3000 for h in CASES if h.startswith("steb/pan25")}  # else all rows

# AUROC of cosine similarity under word-unigram TF-IDF (top 2,000 terms) fitted on each
# dataset's own unique texts, computed by scikit-learn alone (see sklearn_auroc).
GOLDEN: dict[str, float] = {
    "steb/pan13_authorship_verification_english_test": 0.75,
    "steb/pan14_authorship_verification_corpus1_english_essays_test": 0.4032,
    "steb/pan14_authorship_verification_corpus1_english_novels_test": 0.614,
    "steb/pan14_authorship_verification_corpus2_english_essays_test": 0.3601,
    "steb/pan14_authorship_verification_corpus2_english_novels_test": 0.6341,
    "steb/pan15_authorship_verification_english_test": 0.696944,
    "steb/pan18_style_change": 0.8290219867892388,
    "steb/pan22_style_change_basic": 0.6086040195545899,
    "steb/pan25_style_change_easy": 0.7267904545364893,  # first 3,000 pairs
    "steb/pan25_style_change_medium": 0.5411128634010354,  # first 3,000 pairs
    "steb/pan25_style_change_hard": 0.30911246734222625,  # first 3,000 pairs
}

WORDS = {"word_tokens": "regex", "components": ("word",), "word_ngrams": (1, 1)}


def _invoke(args: list[str]) -> Result:
    return CliRunner().invoke(cli, args)


@pytest.fixture(scope="module")
def build_all(corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, Path]:
    """``build --all`` once over the seven real folders under other names, plus the PAN15
    training set under a name that sorts before them all (it must lose to the test set)."""
    root = tmp_path_factory.mktemp("round3") / "downloads"
    root.mkdir()
    for index, name in enumerate(SEVEN):
        (root / f"my download {index}").symlink_to(corpora / name, target_is_directory=True)
    (root / "a pan15 copy").symlink_to(corpora / PAN15_TRAINING, target_is_directory=True)
    built = root.parent / "built"
    result = _invoke(
        ["build", "--all", "--family", "steb", "--raw-root", str(root), "--built-root", str(built)]
    )
    return result, built


def _folder(hub_id: str, built: Path) -> Path:
    return built / get_dataset(hub_id).slug


def _table(hub_id: str, built: Path) -> Table:
    return load_table(str(_folder(hub_id, built)), get_dataset(hub_id).config or "text_pairs")


def test_build_all_finds_the_seven_by_layout(build_all: tuple[Result, Path]) -> None:
    result, _ = build_all
    assert result.exit_code == 0, result.output
    for line in (
        "my download 0 (layout: pan13-authorship-verification-test-corpus2-2013-05-29/dummy/"
        "truth.txt)",
        "pan14_authorship_verification_test_corpus1: ",
        "my download 1 (layout: pan14-author-verification-test-corpus1-english-essays-"
        "2014-04-22/truth.txt) -> 2 datasets",
        "my download 2 (layout: pan14-author-verification-test-corpus2-english-essays-"
        "2014-04-22/truth.txt) -> 2 datasets",
        "pan15_authorship_verification_english_test: ",
        "my download 3 (layout: pan15-authorship-verification-test-dataset2-2015-04-19/",
        "my download 4 (layout: pan18-style-change-detection-validation-dataset-2018-01-31/",
        "my download 5 (layout: pan22-style-change-detection/dataset1/validation/",
        "my download 6 (layout: pan25-multi-author-analysis/easy/validation/",
    ):
        assert line in result.output, line
    for hub_id in CASES:
        assert f"built {hub_id} ->" in result.output
    # nothing else: PAN22 dataset2/3 are not in this download, so are not "buildable"
    assert "11 datasets built, 0 failed, 0 lack their files" in result.output
    assert "pan22_style_change_advanced" not in result.output


@pytest.mark.parametrize("hub_id", list(CASES))
def test_builds_with_table15_counts(hub_id: str, build_all: tuple[Result, Path]) -> None:
    _, built = build_all
    _raw, n_rows, labels, dropped = CASES[hub_id]
    table = _table(hub_id, built)
    assert len(table.rows) == n_rows
    assert dict(Counter(row["label"] for row in table.rows)) == labels
    assert len({row["id"] for row in table.rows}) == n_rows
    spec = get_dataset(hub_id)
    info = json.loads((_folder(hub_id, built) / BUILD_INFO).read_text())
    tag = f"[{spec.config}] " if spec.config else ""  # a release folder's reasons
    mine = {k: n for k, n in info["dropped"].items() if k.startswith(tag)}
    assert mine == {tag + reason: n for reason, n in dropped.items()}
    card = (_folder(hub_id, built) / "README.md").read_text(encoding="utf-8")
    label = f"`{spec.config}` predefined_pairs" if spec.config else "predefined_pairs"
    texts = f"{2 * n_rows:,}"
    assert f"| {label} | {n_rows:,} | 2 | {texts} | {texts} |" in card


def test_cards_say_which_corpus_they_are(build_all: tuple[Result, Path]) -> None:
    _, built = build_all
    pan14 = (_folder(PAN14_ESSAYS, built) / "README.md").read_text(encoding="utf-8")
    assert "Corpus 1 is a subset of corpus 2" in pan14 and "Early-bird" in pan14
    pan15 = _folder("steb/pan15_authorship_verification_english_test", built) / "README.md"
    text = pan15.read_text(encoding="utf-8")
    assert "takes the test set" in text and "a build with 200 texts is that training set" in text
    pan25 = (_folder("steb/pan25_style_change_hard", built) / "README.md").read_text()
    assert "PAN25 hard validation (900 documents, Zenodo 14891299): 10,648 pairs" in pan25


def sklearn_auroc(rows: list[dict], texts: list[str], cap: int = 2000) -> float:
    """The reference: word-unigram TF-IDF by scikit-learn alone (the ``cap`` most frequent
    terms, ties broken by the term, as tfidf-ngrams documents), cosine of each pair,
    ``roc_auc_score`` with label 1 = same author."""
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
    from sklearn.metrics import roc_auc_score

    counter = CountVectorizer(lowercase=True).fit(texts)
    totals = np.asarray(counter.transform(texts).sum(axis=0)).ravel()
    terms = counter.get_feature_names_out()
    top = sorted(range(len(terms)), key=lambda i: (-totals[i], terms[i]))[:cap]
    tfidf = TfidfVectorizer(lowercase=True, norm="l2", vocabulary=sorted(terms[top]))
    matrix = tfidf.fit_transform(texts)
    where = {text: i for i, text in enumerate(texts)}
    left = matrix[[where[r["text1"]] for r in rows]]
    right = matrix[[where[r["text2"]] for r in rows]]
    cosines = np.asarray(left.multiply(right).sum(axis=1)).ravel()
    return float(roc_auc_score([r["label"] for r in rows], cosines))


@pytest.mark.parametrize("hub_id", list(CASES))
def test_tfidf_auroc_equals_sklearn(hub_id: str, build_all: tuple[Result, Path]) -> None:
    _, built = build_all
    table = _table(hub_id, built)
    if hub_id in SCORED_ROWS:
        table = dataclasses.replace(table, rows=table.rows[: SCORED_ROWS[hub_id]])
    evaluator = get_evaluator("predefined_pairs")
    texts = list(dict.fromkeys(evaluator.texts(table)))
    encoder = get_encoder("tfidf-ngrams", **WORDS).fit(texts)
    result = evaluator.evaluate(table, EmbeddingLookup.from_encoder(encoder, texts))
    reference = sklearn_auroc(table.rows, texts)
    assert result.main_score == pytest.approx(reference, abs=1e-6)
    assert_golden(hub_id, reference, GOLDEN[hub_id], 1e-9, SKLEARN)


def test_one_download_holding_both_pan15_sets_builds_the_test_set(
    corpora: Path, tmp_path: Path
) -> None:
    """The Zenodo record ships training and test set side by side (same problem ids
    EN001-EN100): one --raw holding both builds the 500 test problems only and counts
    the training set's 100 (the old builder mixed them: 600 rows, EN001-EN100 twice)."""
    raw = tmp_path / "pan15"
    shutil.copytree(
        corpora / PAN15_TRAINING / "corpus-english",
        raw / "pan15-authorship-verification-training-dataset-english-2015-04-19",
    )
    for test_set in (corpora / PAN15).glob("*/*english*"):
        shutil.copytree(test_set, raw / test_set.name)
    result = get_dataset("steb/pan15_authorship_verification_english_test").builder(raw)
    rows = result.tables["text_pairs"]["test"]
    assert len(rows) == 500 and len({r["id"] for r in rows}) == 500
    assert result.dropped == {
        "problems of pan15-authorship-verification-training-dataset-english-2015-04-19 "
        "(not the test set)": 100
    }
