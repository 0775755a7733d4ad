"""Style-attribute datasets built from the real raw copies in ../shared/corpora: build ->
load through ``datasets`` -> schema and Table 15 counts -> clustering and all-to-all pairs
with a TF-IDF encoder (pinned), byte-identical rebuild, and independent re-derivations."""

from __future__ import annotations

import csv
import itertools
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from dataset_scripts.build import build_dataset
from dataset_scripts.registry import get_dataset
from evaluators.data import load_table
from evaluators.encoders import get_encoder
from evaluators.tasks import EmbeddingLookup, get_evaluator

pytestmark = [pytest.mark.corpora, pytest.mark.slow]

# name -> (raw folder, classes, texts per class, equal to Table 15?)
DATASETS: dict[str, tuple[str, int, int, bool]] = {
    "bible_versions": ("BibleVersions", 8, 200, True),
    "corpus-of-diverse-styles": ("CDS_samples", 11, 200, True),
    "wikipedia_politeness": ("StanfordPoliteness", 3, 200, True),
    "stackexchange_politeness": ("StanfordPoliteness", 3, 200, True),
    "eWAVE": ("eWAVE", 53, 29, True),
    "x_genre": ("X-GENRE", 7, 25, False),  # dev split only (Table 15: 9 x 46)
    "pastel_age": ("PASTEL", 2, 200, False),  # binary release (Table 15: 6 x 25)
    "pastel_education": ("PASTEL", 2, 200, False),
    "pastel_gender": ("PASTEL", 2, 200, False),
    "pastel_politics": ("PASTEL", 2, 200, False),
}

# TF-IDF (char 3-5 + regex-token word 1-2 n-grams, fitted on the dataset's own texts),
# STEB evaluators with their default seed: (clustering V-measure, all-to-all pair AUC).
# Re-pinned after issue 19 (k-means on the vectors' own dtype, Bible shuffle) and issue 20
# (TF-IDF vocabulary tie-break, float64 weights); five AUCs moved by < 2e-8 in issue 25
# (exact gridded cosines rounded to float32: near-equal cosines round differently).
PINNED: dict[str, tuple[float, float]] = {  # V-measure: scikit-learn 1.7.1 k-means (issue 33)
    "bible_versions": (0.030306334567137126, 0.5357418080917983),
    "corpus-of-diverse-styles": (0.04527070221879141, 0.5503263027742016),
    "wikipedia_politeness": (0.003386552275399544, 0.5190827437883864),
    "stackexchange_politeness": (0.013627208170422, 0.5141297774288107),
    "eWAVE": (0.11492036177217237, 0.604252657725818),
    "x_genre": (0.3514215200069408, 0.6588431746031747),
    "pastel_age": (0.0022364523831476064, 0.5017228907035176),
    "pastel_education": (0.05516782252877523, 0.5044164663944724),
    "pastel_gender": (0.0043235759354887954, 0.5214589318467336),
    "pastel_politics": (0.025328875221407053, 0.5058694588567839),
}


def _build_all(corpora: Path, out: Path) -> dict[str, Path]:
    return {
        name: build_dataset(get_dataset(f"steb/{name}"), corpora / raw, out / name)[0]
        for name, (raw, *_rest) in DATASETS.items()
    }


@pytest.fixture(scope="module")
def built(corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return _build_all(corpora, tmp_path_factory.mktemp("style_attributes"))


@pytest.mark.parametrize("name", list(DATASETS))
def test_build_load_count_and_score(built: dict[str, Path], name: str) -> None:
    _raw, classes, per_class, full_source = DATASETS[name]
    table = load_table(str(built[name]), "labelled_texts", "test")
    assert set(table.rows[0]) == {"id", "text", "label"}
    counts = Counter(row["label"] for row in table.rows)
    assert (len(counts), set(counts.values())) == (classes, {per_class})
    spec = get_dataset(f"steb/{name}")
    table15 = spec.steb.table15
    assert table15["clustering"] == table15["all_to_all_pairs"]
    paper = (table15["clustering"].classes, table15["clustering"].per_class)
    if full_source:
        assert (classes, per_class) == paper
    else:  # a sample or a different release: the card says why counts differ
        assert (classes, per_class) != paper
        assert "Table 15" in spec.protocol
    card = (built[name] / "README.md").read_text(encoding="utf-8")
    assert spec.protocol[:40] in card

    texts = [row["text"] for row in table.rows]
    encoder = get_encoder("tfidf-ngrams", components=("char", "word"), word_tokens="regex").fit(
        texts
    )
    lookup = EmbeddingLookup.from_encoder(encoder, texts)
    v_measure = get_evaluator("clustering").evaluate(table, lookup).metrics["v_measure"]
    auc = get_evaluator("all_to_all_pairs").evaluate(table, lookup).metrics["auc"]
    assert (v_measure, auc) == pytest.approx(PINNED[name], abs=1e-9)
    if name == "wikipedia_politeness":  # independent AUC: every unordered pair, sklearn
        unit = lookup(texts).astype(np.float64)
        unit /= np.linalg.norm(unit, axis=1, keepdims=True)
        labels = [row["label"] for row in table.rows]
        pairs = list(itertools.combinations(range(len(texts)), 2))
        scores = [float(unit[i] @ unit[j]) for i, j in pairs]
        same = [int(labels[i] == labels[j]) for i, j in pairs]
        assert roc_auc_score(same, scores) == pytest.approx(auc, abs=1e-6)  # float32 vectors


def test_rebuild_is_byte_identical(built: dict[str, Path], corpora: Path, tmp_path: Path) -> None:
    again = _build_all(corpora, tmp_path)
    for name, folder in built.items():
        first = sorted(folder.rglob("*.parquet"))
        assert first, name
        for path in first:
            twin = again[name] / path.relative_to(folder)
            assert path.read_bytes() == twin.read_bytes(), f"{name}: {path.name} differs"


def test_politeness_labels_follow_score_quartiles(corpora: Path) -> None:
    """Re-derive wikipedia_politeness labels from the CSV without the builder."""
    path = corpora / "StanfordPoliteness" / "wikipedia.annotated.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    scores = np.array([float(r["Normalized Score"]) for r in rows])
    q1, q3 = np.quantile(scores, 0.25), np.quantile(scores, 0.75)
    expected: dict[str, list[str]] = {"polite": [], "neutral": [], "impolite": []}
    for row, score in zip(rows, scores, strict=True):
        label = "polite" if score >= q3 else "impolite" if score <= q1 else "neutral"
        expected[label].append(row["Request"].strip())
    assert min(len(v) for v in expected.values()) >= 200
    tables, dropped = get_dataset("steb/wikipedia_politeness").builder(
        corpora / "StanfordPoliteness"
    )
    built_rows = tables["labelled_texts"]["test"]
    for label, texts in expected.items():
        assert [r["text"] for r in built_rows if r["label"] == label] == texts[:200]
    assert sum(dropped.values()) == len(rows) - 600


def test_bible_drops_identical_verses_and_stays_parallel(corpora: Path) -> None:
    tables, dropped = get_dataset("steb/bible_versions").builder(corpora / "BibleVersions")
    rows = tables["labelled_texts"]["test"]
    by_version: dict[str, list[str]] = {}
    for row in rows:
        by_version.setdefault(row["label"], []).append(row["id"].split("-", 1)[1])
    verse_lists = list(by_version.values())
    assert all(v == verse_lists[0] for v in verse_lists)  # same verses, same order
    first_kept = verse_lists[0][0]
    assert first_kept == "Ezekiel-20-10"  # the authors' loader: filter, then shuffle by Random(42)
    assert "Genesis-1-1" not in verse_lists[0]
    bibles = corpora / "BibleVersions" / "Data" / "Bibles"
    genesis_1_1 = [
        " ".join(
            (bibles / v / "Genesis" / "Genesis1.txt")
            .read_text()
            .splitlines()[0]
            .lower()
            .split()[1:]
        )
        for v in by_version
    ]
    assert len(set(genesis_1_1)) < 8  # two versions agree on Gen 1:1, so it is dropped
    kept = {" ".join(r["text"].lower().split()) for r in rows if r["id"].endswith("-" + first_kept)}
    assert len(kept) == 8
    assert dropped["verse identical in two or more versions (dropped from all)"] % 8 == 0


def test_ewave_matches_examples_csv(corpora: Path) -> None:
    with (corpora / "eWAVE/cldf/examples.csv").open(encoding="utf-8", newline="") as handle:
        per_language = Counter(row["Language_ID"] for row in csv.DictReader(handle))
    assert min(per_language.values()) == 29 and len(per_language) == 53
