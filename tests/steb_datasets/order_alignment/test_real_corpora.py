"""Order-alignment datasets built from the real raw data in ../shared/corpora: build ->
``datasets.load_dataset`` (via ``load_table``) -> schema and counts vs STEB Table 15 ->
order-alignment evaluator with a TF-IDF encoder (golden numbers, one re-derived with
explicit loops); a second build is byte-identical."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from dataset_scripts.build import build_dataset
from dataset_scripts.core.schemas import SCHEMAS
from dataset_scripts.registry import get_dataset
from evaluators.data import load_table
from evaluators.encoders import get_encoder
from evaluators.tasks import EmbeddingLookup, get_evaluator
from tests.golden import SKLEARN, SPACY, assert_golden
from tests.parity import steb_reference as ref

pytestmark = [pytest.mark.corpora, pytest.mark.slow]

# hub id -> (corpora folder, groups, sequences per group, texts per sequence)
REAL = {
    "steb/StylePTB": ("StylePTB", 13, 25, 2),
    "steb/parallel_shakespeare": ("Shakespeare", 1, 200, 2),
    "steb/OneStopEnglishCorpus": ("OneStopEnglish", 1, 200, 3),
    "steb/ASSET": ("ASSET", 1, 200, 2),
    "steb/twitter_aave_sae": ("AAVE_SAE_Groenwold", 1, 200, 2),
}

# Rows each filter removed from our raw copies (pinned: a parser change shows up here).
DROPPED = {
    "steb/StylePTB": {
        "TPA pair whose transfer left the sentence unchanged": 156,
        "TPR pair whose transfer left the sentence unchanged": 227,
        "transfer 'to_future' capped at 25 rows (STEB per-class cap)": 7_246,
        "transfer 'pp_back_to_front' capped at 25 rows (STEB per-class cap)": 435,
    },
    "steb/parallel_shakespeare": {
        "original and modern line identical (no style difference)": 1_317,
        "eNotes alignments (plays2/): STEB uses the 17 SparkNotes plays only": 10_365,
        "group 'shakespearean' capped at 200 rows (STEB per-class cap)": 19_562,
    },
    "steb/OneStopEnglishCorpus": {
        "ADV-INT pair whose intermediate sentence has no ELE-INT alignment": 1_495,
        "ADV-INT + ELE-INT triple not confirmed by ADV-ELE": 366,
        "duplicate triple": 3,
        "group 'reading_level' capped at 200 rows (STEB per-class cap)": 90,
    },
    "steb/ASSET": {
        "drawn simplification identical to the original": 12,
        "group 'simplicity' capped at 200 rows (STEB per-class cap)": 2_147,
    },
    "steb/twitter_aave_sae": {
        "group 'aave' capped at 200 rows (STEB per-class cap)": 1_819,
    },
}

# Golden scores: tfidf-ngrams (char + word components) fitted on each dataset's own texts.
# Re-pinned after issue 19 (solver's own choice on ties), issue 20 (TF-IDF) and issue 25
# (exact gridded cosines): OneStopEnglish and twitter_aave_sae hold items whose optimal
# assignments tie exactly on the grid (49 and 23 plain items, 3 "last" items of
# OneStopEnglish, against the previous goldens measured under OpenBLAS's SkylakeX kernel);
# the solver's choice on those followed the BLAS kernel's last bits and is now scipy's on
# exact ties (re-derived by the independent reference below). Issue 33: the solver's choice
# is taken on the float64 costs (each cosine a correctly rounded dot of the unit vectors)
# where the grid's error could decide it: OneStopEnglish 0.37043551088777216 ->
# 0.37020100502512565 and distractor 0.2532663316582915 -> 0.2532537688442211,
# twitter_aave_sae 0.6163819095477387 -> 0.6162814070351759 (re-derived by the reference).
GOLDEN = {
    "steb/StylePTB": (0.7958974358974359, 0.005384615384615384, 3_900),
    "steb/parallel_shakespeare": (0.6028643216080402, 0.043015075376884426, 19_900),
    "steb/OneStopEnglishCorpus": (0.37020100502512565, 0.2532537688442211, 19_900),
    "steb/ASSET": (0.5244221105527638, 5.0251256281407036e-05, 19_900),
    "steb/twitter_aave_sae": (0.6162814070351759, 2.5125628140703518e-05, 19_900),
}


@pytest.fixture(scope="module")
def built(
    corpora: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[Path, Path, dict[str, int]]]:
    """Every dataset built twice (two folders) from the real raw data."""
    root = tmp_path_factory.mktemp("steb_order_alignment")
    out = {}
    for hub_id, (folder, *_) in REAL.items():
        spec = get_dataset(hub_id)
        name = f"{hub_id.split('/')[1]}-oa-test"  # unique: datasets caches by folder name
        first, dropped = build_dataset(spec, corpora / folder, root / "a" / name)
        second, _ = build_dataset(spec, corpora / folder, root / "b" / name)
        out[hub_id] = (first, second, dropped)
    return out


@pytest.mark.parametrize("hub_id", list(REAL))
def test_schema_counts_and_table15(hub_id: str, built: dict) -> None:
    folder, _, dropped = built[hub_id]
    _, n_groups, per_group, positions = REAL[hub_id]
    table = load_table(str(folder), "style_sequences")  # datasets.load_dataset on the folder
    assert set(table.rows[0]) == set(SCHEMAS["style_sequences"].features)
    groups: dict[str, int] = {}
    for row in table.rows:
        groups[row["group"]] = groups.get(row["group"], 0) + 1
        assert len(row["texts"]) == len(row["styles"]) == positions
        assert len(set(row["texts"])) == positions  # no unorderable sequence
    assert len(groups) == n_groups and set(groups.values()) == {per_group}
    texts = sum(len(row["texts"]) for row in table.rows)

    spec = get_dataset(hub_id)
    paper = spec.steb.table15["order_alignment"]
    if hub_id == "steb/StylePTB":
        # our raw copy lacks 2 of the 15 kept transfers; the card says so
        assert (paper.classes, paper.per_class, paper.total) == (14, 50, 700)
        assert texts == 13 * 50 and "13 groups x 50 texts = 650" in spec.protocol
    else:
        assert texts == paper.total and n_groups == paper.classes
        assert texts // n_groups == paper.per_class
    for reason, count in DROPPED[hub_id].items():
        assert dropped[reason] == count, reason
    card = (folder / "README.md").read_text()
    assert f"**{spec.license}**" in card  # the source's licence, verbatim
    assert spec.protocol in card
    assert all(reason in card for reason in dropped)


@pytest.mark.parametrize("hub_id", list(REAL))
def test_rebuild_is_byte_identical(hub_id: str, built: dict) -> None:
    first, second, _ = built[hub_id]
    files = sorted(p.relative_to(first) for p in first.rglob("*.parquet"))
    assert files == [Path("data/style_sequences/test-00000-of-00001.parquet")]
    for relative in files:
        assert (first / relative).read_bytes() == (second / relative).read_bytes()
    assert (first / "README.md").read_text() == (second / "README.md").read_text()


_EVALUATED: dict[Path, tuple[object, EmbeddingLookup]] = {}


def _evaluate(folder: Path) -> tuple[object, EmbeddingLookup]:
    """Order-alignment result and embeddings of a built folder (memoised per folder)."""
    if folder not in _EVALUATED:
        table = load_table(str(folder), "style_sequences")
        evaluator = get_evaluator("order_alignment")
        texts = evaluator.texts(table)
        encoder = get_encoder("tfidf-ngrams", components=("char", "word"))
        encoder.fit(list(dict.fromkeys(texts)))
        lookup = EmbeddingLookup.from_encoder(encoder, texts)
        _EVALUATED[folder] = (evaluator.evaluate(table, lookup), lookup)
    return _EVALUATED[folder]


@pytest.mark.parametrize("hub_id", list(REAL))
def test_tfidf_order_alignment_golden(hub_id: str, built: dict) -> None:
    result, _ = _evaluate(built[hub_id][0])
    accuracy, distractor, n_pairs = GOLDEN[hub_id]
    assert result.counts["n_pairs"] == n_pairs
    golden = {"accuracy": accuracy, "distractor_accuracy": distractor}
    assert_golden(hub_id, result.metrics, golden, 1e-9, {**SKLEARN, **SPACY})


@pytest.mark.parametrize("hub_id", ["steb/OneStopEnglishCorpus", "steb/twitter_aave_sae"])
def test_goldens_rederived_by_the_reference(hub_id: str, built: dict) -> None:
    """The solver's accuracies (the goldens) recomputed by the independent STEB reference
    on the same TF-IDF vectors: its own float64 unit vectors (fsum norms) and correctly
    rounded dot products, scipy's Hungarian solver per pair in the authors' loop."""
    folder = built[hub_id][0]
    result, lookup = _evaluate(folder)
    rows = load_table(str(folder), "style_sequences").rows
    theirs = ref.order_alignment([lookup(r["texts"]) for r in rows], [r["group"] for r in rows])
    assert result.metrics["accuracy"] == pytest.approx(theirs["acc_mean"], abs=1e-12)
    distractor = result.metrics["distractor_accuracy"]
    assert distractor == pytest.approx(theirs["distractor_acc_mean"], abs=1e-12)


def _choice(better: float, worse: float) -> float:
    """1 if the correct choice costs less, 0 if more, 0.5 on a (numerical) tie."""
    if abs(better - worse) <= 1e-9 * max(abs(better), abs(worse)) + 1e-12:
        return 0.5
    return 1.0 if better < worse else 0.0


def test_aave_scores_rederived_with_loops(built: dict) -> None:
    """Two-position sequences: plain = straight vs crossed assignment; distractor = the
    reference's own other text against the candidate's same-position text."""
    folder = built["steb/twitter_aave_sae"][0]
    result, lookup = _evaluate(folder)
    rows = load_table(str(folder), "style_sequences").rows
    vectors = lookup([t for row in rows for t in row["texts"]]).astype(np.float64)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    cost = 1 - np.maximum(unit @ unit.T, 0)
    plain, distractor = [], []
    for i, j in itertools.combinations(range(len(rows)), 2):
        im, il, jm, jl = 2 * i, 2 * i + 1, 2 * j, 2 * j + 1
        plain.append(_choice(cost[im, jm] + cost[il, jl], cost[im, jl] + cost[il, jm]))
        distractor.append(_choice(cost[im, jm], cost[im, il]))
        distractor.append(_choice(cost[il, jl], cost[il, im]))
    assert len(plain) == 19_900
    # the loops score a tie 0.5: the tie-aware rule (issue 19: the default `steb` protocol
    # scores the Hungarian solver's own choice, reported as `accuracy`)
    assert np.mean(plain) == pytest.approx(result.metrics["accuracy_tie_aware"], abs=1e-12)
    assert np.mean(distractor) == pytest.approx(
        result.metrics["distractor_accuracy_tie_aware"], abs=1e-12
    )
