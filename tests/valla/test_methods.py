"""Valla's methods on tiny synthetic data: cross-checked against direct computations."""

from __future__ import annotations

import numpy as np
import pytest

from dataset_scripts.core.errors import StylebenchError
from evaluators.metric_math import macro_accuracy, roc_auc
from evaluators.valla.ngram import NgramAA, NgramAV, NgramConfig, distort
from evaluators.valla.ppm import PPMAA, PPMAV, PPMConfig, _Worker, compressed_size
from tests.valla.fixtures import WORDS, sentence


def corpus(n: int, offset: int = 0) -> tuple[list[str], list[str]]:
    texts, authors = [], []
    for author in WORDS:
        for i in range(offset, offset + n):
            texts.append(sentence(author, i, f"topic {i % 3}") * 3)
            authors.append(author)
    return texts, authors


def test_distortion_masks_letters() -> None:
    assert distort("The dog's 12 houses.") == "* *'* 00 *."


def test_ngram_vectorisers_see_raw_text_unless_preprocess() -> None:
    """Valla's CharNGram.py hands its preprocessors to nobody: by default "dist_char" is
    plain character 1-3-grams of the raw text; preprocess=True masks letters as Table 2."""
    from evaluators.valla.ngram import _Family

    texts = ["The dog's 12 houses.", "A cat 7 sat, here."]
    raw = _Family("dist_char", NgramConfig(min_df=1)).vectorizer.fit(texts).vocabulary_
    assert "Th" in raw and "12" in raw and "*" not in raw
    masked = _Family("dist_char", NgramConfig(min_df=1, preprocess=True)).vectorizer
    vocabulary = masked.fit(texts).vocabulary_
    assert "* *" in vocabulary and "00" in vocabulary and "Th" not in vocabulary
    # words: scikit-learn's default pattern drops one-character tokens ("A", "7")
    words = _Family("word", NgramConfig(min_df=1)).vectorizer.fit(texts).vocabulary_
    assert "cat" in words and "A" not in words and "7 sat" not in words


def test_ngram_aa_learns_authors() -> None:
    texts, authors = corpus(6)
    test, gold = corpus(3, offset=20)
    model = NgramAA(NgramConfig(min_df=1, max_iter=200)).fit(texts, authors)
    assert macro_accuracy(model.predict(test), gold)["macro_accuracy"] == 1.0
    proba = model.predict_proba(test)
    assert np.allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize("av_model", ["valla", "families"])
def test_ngram_av_scores_same_author_higher(av_model: str) -> None:
    texts, authors = corpus(6)
    t1, t2, y = [], [], []
    for i, a in enumerate(texts):
        for j, b in enumerate(texts):
            if i < j and (i + j) % 3 == 0:
                t1.append(a), t2.append(b), y.append(int(authors[i] == authors[j]))
    config = NgramConfig(min_df=1, max_iter=200, av_model=av_model, av_epochs=20)
    model = NgramAV(config).fit(t1, t2, y)
    test, gold = corpus(2, offset=30)
    u1, u2, z = [], [], []
    for i in range(len(test)):
        for j in range(i + 1, len(test)):
            u1.append(test[i]), u2.append(test[j]), z.append(int(gold[i] == gold[j]))
    scores = model.score(u1, u2)
    assert ((scores >= 0) & (scores <= 1)).all()
    assert roc_auc(scores, z) > 0.9
    with pytest.raises(StylebenchError, match="av_model"):
        NgramConfig(av_model="svm")


def test_ppm_worker_matches_direct_encoding() -> None:
    config = PPMConfig(coder="ppmd")
    context = ("the quick brown fox jumps over the lazy dog. " * 40).encode()
    texts = [b"the lazy dog sleeps", b"zqxj vvkw", "é ü".encode()]
    worker = _Worker()
    try:
        worker.submit(config, context, texts)
        forked = worker.result()
    finally:
        worker.close()
    base = compressed_size(context, config)
    direct = [compressed_size(context + t, config) - base for t in texts]
    # same model state; only the final flush of the context differs by a few bytes
    assert all(abs(a - b) <= 6 for a, b in zip(forked, direct, strict=True))
    assert forked[0] < forked[1]  # seen words cost less than unseen ones


def test_ppm_aa_and_av() -> None:
    texts, authors = corpus(6)
    test, gold = corpus(2, offset=20)
    for coder in ("teahan", "ppmd"):
        model = PPMAA(PPMConfig(coder=coder)).fit(texts, authors)
        entropy = model.cross_entropy(test)
        assert entropy.shape == (len(test), 3) and (entropy > 0).all()
        assert model.predict(test) == gold
    scores = PPMAV(PPMConfig(coder="ppmd")).score([test[0], test[0]], [test[1], test[-1]])
    assert scores[0] > scores[1]  # test[0], test[1]: same author; test[-1]: another


def test_ppm_needs_two_authors() -> None:
    from dataset_scripts.core.errors import StylebenchError

    with pytest.raises(StylebenchError, match="two authors"):
        PPMAA().fit(["a", "b"], ["x", "x"])
