"""Probing against an independent re-implementation of the STEB authors' pipeline
(``tests/parity/probing_reference.py``) on real Blog Authorship Corpus posts from
``../shared/corpora``: the seeded sample with the 32-token filter, the shuffle, bins, per-bin
cap and splits of our builder equal theirs row for row, and our ``steb`` probe equals their
torch training loop to 1e-12 on STEB's function-word vectors.

The 46 LFTK features are replaced by 46 cheap counts of the same texts (LFTK on spaCy
costs minutes for a few hundred texts on 2 shared cores); the rules tested (sample,
filter, shuffle, qcut, balance, cap, split, probe) do not depend on which counts they get.
A small sample (300 of the 48,000 texts, cap 200 instead of 38,400) keeps it under ~30 s.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dataset_scripts.steb.probing as probing
from evaluators.data import Table
from evaluators.encoders.function_words import FunctionWordEncoder
from evaluators.tasks import EmbeddingLookup, get_evaluator
from tests.parity import probing_reference as ref

pytestmark = [pytest.mark.corpora, pytest.mark.slow]
spacy = pytest.importorskip("spacy")
pytest.importorskip("torch")

NUM_SAMPLES = 300
TOTAL_CAP = 200
TOL = 1e-12
PATTERNS = [chr(c) for c in range(ord("a"), ord("z") + 1)] + (
    [" ", ",", ".", "the", "and", "ing", "er", "th", "he", "in"]
    + ["an", "re", "on", "at", "en", "nd", "ti", "es", "or", "te"]
)
assert len(PATTERNS) == len(probing.FEATURES)


def cheap_features(texts: list[str]) -> list[dict[str, float]]:
    """46 deterministic counts per text, one per probing feature name."""
    return [
        {
            name: float(t.lower().count(p))
            for name, p in zip(probing.FEATURES, PATTERNS, strict=True)
        }
        for t in texts
    ]


@pytest.fixture(scope="module")
def built(corpora: Path) -> tuple[Table, dict[str, int], list[str]]:
    raw = corpora / "blog_authorship_corpus"
    if not (raw / "blogs").is_dir():
        pytest.skip("blog_authorship_corpus/blogs is not in ../shared/corpora")
    population = [t for _, t in probing.read_blog(raw, Counter())]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(probing, "compute_features", cheap_features)
        configs, dropped = probing.build_probing(
            raw, "blog", num_samples=NUM_SAMPLES, total_cap=TOTAL_CAP
        )
    rows = configs["probing"]["test"]
    return (
        Table("steb/probing_blog", "probing_blog", "probing", "test", rows, "parity"),
        dropped,
        population,
    )


@pytest.fixture(scope="module")
def reference(built: tuple[Table, dict[str, int], list[str]]) -> pd.DataFrame:
    _, _, population = built
    tokenizer = spacy.load(probing.SPACY_MODEL).tokenizer
    texts = ref.sample_texts(population, lambda t: len(tokenizer(t)), num_samples=NUM_SAMPLES)
    frame = pd.DataFrame(cheap_features(texts))
    frame["text"] = texts
    return ref.split_features(frame, total_data=TOTAL_CAP)


def test_sample_counts_every_dropped_text(built: tuple[Table, dict[str, int], list[str]]) -> None:
    table, dropped, population = built
    size = NUM_SAMPLES + NUM_SAMPLES // 5
    assert dropped["not in the random sample of 360 texts (STEB: 40,000 + 20 %)"] == (
        len(population) - size
    )
    short = dropped["fewer than 32 spaCy tokens"]
    beyond = dropped.get(f"beyond the first {NUM_SAMPLES} texts of >= 32 tokens", 0)
    kept = min(NUM_SAMPLES, size - short)
    assert short > 0 and short + beyond + kept == size
    unused = dropped.get("text left out of every feature's balanced sample", 0)
    assert len(table.rows) + unused == kept


def test_data_preparation_equals_the_authors_scripts(
    built: tuple[Table, dict[str, int], list[str]], reference: pd.DataFrame
) -> None:
    table, _, _ = built
    ours = [f for f in probing.FEATURES if f"label_{f}" in table.rows[0]]
    assert len(ours) >= 40
    for feature in set(probing.FEATURES) - set(ours):  # left out: theirs could not probe it
        splits = set(reference[f"split_{feature}"])
        assert not {"val", "test"} <= splits, feature
    used = reference[reference[[f"split_{f}" for f in ours]].notna().any(axis=1)].reset_index(
        drop=True
    )
    assert [r["text"] for r in table.rows] == list(used["text"])
    rename = {"val": "validation"}
    for feature in ours:
        assert [r[f"label_{feature}"] for r in table.rows] == list(used[f"label_{feature}"])
        theirs = [rename.get(s, s) for s in used[f"split_{feature}"]]
        assert [r[f"split_{feature}"] for r in table.rows] == theirs
    per_bin = Counter(
        r[f"label_{ours[0]}"] for r in table.rows if r[f"label_{ours[0]}"] is not None
    )
    assert set(per_bin.values()) == {TOTAL_CAP // len(per_bin)}  # the cap binds here


def test_probe_equals_the_authors_training_loop(
    built: tuple[Table, dict[str, int], list[str]], reference: pd.DataFrame
) -> None:
    import torch

    full, _, _ = built
    # every 6th probed feature (8 of them): the training loops cost ~1 s per feature here
    ours = [f for f in probing.FEATURES if f"label_{f}" in full.rows[0]][::6]
    keys = ["id", "text"] + [f"{k}_{f}" for f in ours for k in ("label", "split")]
    rows = [{k: r[k] for k in keys} for r in full.rows]
    rows = [r for r in rows if any(r[f"split_{f}"] is not None for f in ours)]
    table = Table(full.dataset, full.name, full.config, full.split, rows, full.fingerprint)
    texts = [r["text"] for r in table.rows]
    lookup = EmbeddingLookup.from_encoder(FunctionWordEncoder(), texts)
    result = get_evaluator("probing").evaluate(table, lookup)
    assert result.details["probe"]["name"].startswith("torch")
    used = reference[reference[[f"split_{f}" for f in ours]].notna().any(axis=1)]
    assert list(used["text"]) == texts
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    state = torch.random.get_rng_state()
    try:
        theirs = ref.probe_all(lookup(list(used["text"])), used, ours)
    finally:
        torch.random.set_rng_state(state)
        torch.set_num_threads(threads)
    for feature in ours:
        assert abs(result.metrics[f"accuracy_{feature}"] - theirs[feature]) <= TOL, feature
    assert abs(result.metrics["accuracy"] - theirs["average"]) <= TOL
    assert 0.1 < result.metrics["accuracy"] < 0.9  # letter counts from function words: ~chance
    strict = get_evaluator("probing", protocol="steb-strict").evaluate(table, lookup)
    assert strict.details["probe"]["name"].startswith("scikit-learn")
    assert np.isfinite(strict.metrics["accuracy"]) and strict.metrics != result.metrics
