"""Parity with the STEB authors' algorithms on real built datasets (``../shared/corpora``).

Every task type is computed twice on the same vectors of a deterministic encoder (the
function-word baseline with STEB's list): by our evaluator under the default ``steb``
protocol, and by :mod:`tests.parity.steb_reference`, an independent re-implementation of
the authors' code. The two must agree to 1e-9. The builders' STEB-specific sampling
(PAN style change pairs, PAN26 down-sampling) is checked against the reference loader,
and the function-word vectors against the authors' CountVectorizer construction.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from dataset_scripts.registry import get_dataset
from dataset_scripts.steb.pan_style_change import LEVEL_TOKENS, find_split_folder
from evaluators.data import Table
from evaluators.encoders.function_words import STEB_RESOURCE, FunctionWordEncoder
from evaluators.tasks import EmbeddingLookup, Sampling, get_evaluator
from tests.parity import steb_reference as ref
from tests.parity.test_ci_containment import assert_ci

pytestmark = [pytest.mark.corpora, pytest.mark.slow]

TOL = 1e-9
ENCODER = FunctionWordEncoder()  # STEB's list; deterministic, no model download


def _table(hub_id: str, raw: Path) -> Table:
    configs, _ = get_dataset(hub_id).builder(raw)
    (config, splits), *_ = configs.items()
    rows = splits["test"]
    return Table(hub_id, hub_id.split("/")[-1], config, "test", rows, "parity")


def _lookup(texts: list[str]) -> EmbeddingLookup:
    return EmbeddingLookup.from_encoder(ENCODER, texts)


@pytest.fixture(scope="module")
def stel(corpora: Path) -> Table:
    return _table("steb/STEL_feature", corpora / "STEL")


@pytest.fixture(scope="module")
def bible(corpora: Path) -> Table:
    return _table("steb/bible_versions", corpora / "BibleVersions")


def test_function_word_vectors_match_the_authors_vectorizer(stel: Table, bible: Table) -> None:
    texts = [t for row in stel.rows for t in row["texts"]] + [r["text"] for r in bible.rows[:400]]
    ours = ENCODER.encode(texts)
    theirs = ref.function_word_vectors(texts, STEB_RESOURCE)
    assert ours.shape == theirs.shape == (len(texts), 458)
    np.testing.assert_array_equal(ours, theirs)


def test_order_alignment_stel(stel: Table) -> None:
    evaluator = get_evaluator("order_alignment")
    lookup = _lookup(evaluator.texts(stel))
    result = evaluator.evaluate(stel, lookup)
    assert_ci(result)
    sequences = [lookup(row["texts"]) for row in stel.rows]
    theirs = ref.order_alignment(sequences, [row["group"] for row in stel.rows])
    assert result.metrics["accuracy"] == pytest.approx(theirs["acc_mean"], abs=TOL)
    assert result.metrics["distractor_accuracy"] == pytest.approx(
        theirs["distractor_acc_mean"], abs=TOL
    )
    assert result.details["protocol"] == {"name": "steb", "version": "2"}
    # the tie-aware number differs exactly where items are tied (most of them here)
    assert result.metrics["tied_share"] > 0.5
    assert result.metrics["accuracy_tie_aware"] < result.metrics["accuracy"]
    strict = get_evaluator("order_alignment", protocol="steb-strict").evaluate(stel, lookup)
    assert strict.metrics["accuracy"] == result.metrics["accuracy_tie_aware"]


def test_all_to_all_pairs_and_clustering_bible(bible: Table) -> None:
    labels = [row["label"] for row in bible.rows]
    lookup = _lookup([row["text"] for row in bible.rows])
    vectors = lookup(row["text"] for row in bible.rows)
    pairs = get_evaluator("all_to_all_pairs").evaluate(bible, lookup)
    assert_ci(pairs)
    assert pairs.counts["n_pairs"] == 1600 * 1599 // 2
    assert pairs.metrics["auc"] == pytest.approx(ref.all_to_all_auc(vectors, labels), abs=TOL)
    # their literal float32 arithmetic moves near-tied cosines by ~1e-7
    literal = ref.all_to_all_auc(vectors, labels, literal_float32=True)
    assert pairs.metrics["auc"] == pytest.approx(literal, abs=1e-5)
    clusters = get_evaluator("clustering").evaluate(bible, lookup)
    assert_ci(clusters)
    assert clusters.metrics["v_measure"] == pytest.approx(ref.clustering(vectors, labels), abs=TOL)


@pytest.mark.parametrize(
    ("year", "level", "raw"),
    [
        (23, "easy", "pan23_multi_author_analysis"),
        (24, "hard", "pan24_multi_author_analysis"),
        (26, "easy", "pan_code_smoketests"),
        (26, "hard", "pan_code_smoketests"),
    ],
)
def test_pan_style_change_pairs_and_auc(corpora: Path, year: int, level: str, raw: str) -> None:
    hub_id = f"steb/pan{year}_style_change_{level}"
    table = _table(hub_id, corpora / raw)
    folder = find_split_folder(corpora / raw, LEVEL_TOKENS[(year, level)], Counter())
    theirs = ref.style_change_pairs(folder, balance=year == 26)
    ours = sorted(
        (row["id"].rsplit("-", 1)[0], int(row["id"].rsplit("-", 1)[1]), row["label"])
        for row in table.rows
    )
    assert ours == sorted((f"problem-{doc}", i, label) for doc, i, label in theirs)
    evaluator = get_evaluator("predefined_pairs")
    lookup = _lookup(evaluator.texts(table))
    result = evaluator.evaluate(table, lookup)
    assert_ci(result)
    left = lookup(row["text1"] for row in table.rows)
    right = lookup(row["text2"] for row in table.rows)
    labels = [row["label"] for row in table.rows]
    assert result.metrics["auc"] == pytest.approx(ref.predefined_auc(left, right, labels), abs=TOL)
    # their literal float32 cosines reorder near-tied pairs (function-word vectors tie
    # often): the AUROC moves by at most a few 1e-6
    literal = ref.predefined_auc(left, right, labels, literal_float32=True)
    assert result.metrics["auc"] == pytest.approx(literal, abs=1e-5)


def test_retrieval_ccat50(corpora: Path) -> None:
    table = _table("stylebench/ccat50_retrieval", corpora / "ccat50")
    _retrieval_parity(table)


def test_retrieval_pan18_drops_targets_without_a_query(corpora: Path) -> None:
    table = _table(
        "steb/pan18_cross_domain_authorship_attribution_english",
        corpora / "pan18_cross_domain_authorship_attribution",
    )
    result = _retrieval_parity(table)
    assert result.counts["n_targets_without_query"] >= 0


def _retrieval_parity(table: Table):
    # rows as built (episode size 1); the default -1 is tests/parity/test_parity_round2.py's
    evaluator = get_evaluator("retrieval", sampling=Sampling(1))
    lookup = _lookup(evaluator.texts(table))
    result = evaluator.evaluate(table, lookup)
    assert_ci(result)

    def pooled(role: str) -> tuple[np.ndarray, list[str]]:
        rows = [r for r in table.rows if r["role"] == role]
        return np.stack([lookup(r["texts"]).astype(np.float64).mean(axis=0) for r in rows]), [
            r["author"] for r in rows
        ]

    (q, q_lab), (t, t_lab) = pooled("query"), pooled("target")
    theirs = ref.retrieval(q, t, q_lab, t_lab)
    for name, value in theirs.items():
        assert result.metrics[name] == pytest.approx(value, abs=TOL), name
    return result
