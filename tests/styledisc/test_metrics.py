"""Metric wrappers agree with the underlying libraries and with hand computations."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from evaluators.styledisc.metrics import (
    EmbeddingMetric,
    get_metric,
    meteor_tokens,
    metric_votes,
    votes_from_scores,
)

REF = "the cat sat on the mat"
CANDS = ["the cat sat", "a dog barked loudly", "the cat sat on the mat"]


def test_bleu_matches_sacrebleu_and_hand_values() -> None:
    from sacrebleu.metrics import BLEU

    ours = get_metric("BLEU").similarity([REF] * 3, CANDS)
    direct = [BLEU(effective_order=True).sentence_score(c, [REF]).score / 100 for c in CANDS]
    np.testing.assert_allclose(ours, direct)
    assert ours[2] == pytest.approx(1.0)  # identical text
    # "the cat sat" vs a 6-token reference: all 1..3-gram precisions are 1 (effective order
    # 3), brevity penalty exp(1 - 6/3) = e^-1
    assert ours[0] == pytest.approx(np.exp(-1.0), abs=1e-6)


def test_rouge_matches_rouge_score_and_hand_values() -> None:
    from rouge_score.rouge_scorer import RougeScorer

    scorer = RougeScorer(["rouge1", "rouge2", "rougeL"])
    for name, key in (("ROUGE1", "rouge1"), ("ROUGE2", "rouge2"), ("ROUGEL", "rougeL")):
        ours = get_metric(name).similarity([REF] * 3, CANDS)
        direct = [scorer.score(REF, c)[key].fmeasure for c in CANDS]
        np.testing.assert_allclose(ours, direct)
    # ROUGE-1 of "the cat sat": P = 3/3, R = 3/6 -> F = 2/3; ROUGE-2: P = 2/2, R = 2/5
    assert get_metric("ROUGE1").similarity([REF], [CANDS[0]])[0] == pytest.approx(2 / 3)
    assert get_metric("ROUGE2").similarity([REF], [CANDS[0]])[0] == pytest.approx(2 * 0.4 / 1.4)
    assert get_metric("ROUGE1").similarity([REF], [CANDS[1]])[0] == 0.0


@pytest.fixture()
def wordnet(tmp_path, monkeypatch):
    if not Path("/usr/share/wordnet/data.noun").is_file():
        pytest.skip("Debian wordnet-base is not installed (apt-get install -y wordnet-base)")
    from evaluators.styledisc import wordnet as module

    monkeypatch.setenv("STYLEBENCH_CACHE", str(tmp_path))
    module.load_wordnet.cache_clear()
    yield module.load_wordnet()
    module.load_wordnet.cache_clear()


def test_lexnames_has_the_45_rows_of_man_5_lexnames() -> None:
    from evaluators.styledisc.wordnet import lexnames_text

    lines = lexnames_text().splitlines()
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3"
    assert lines[3] == "03\tnoun.Tops\t1"
    assert lines[29] == "29\tverb.body\t2"
    assert lines[44] == "44\tadj.ppl\t3"


def test_meteor_matches_nltk_and_uses_wordnet_synonyms(wordnet) -> None:
    from nltk.translate.meteor_score import meteor_score

    ours = get_metric("METEOR").similarity([REF] * 3, CANDS)
    direct = [meteor_score([meteor_tokens(REF)], meteor_tokens(c), wordnet=wordnet) for c in CANDS]
    np.testing.assert_allclose(ours, direct)
    assert meteor_tokens("The cat, sat.") == ["the", "cat", ",", "sat", "."]
    # hand value: "the dog ran" vs "the hound ran": 3 unigram matches (dog~hound via
    # WordNet synonymy), P = R = 1 -> Fmean 1; chunks 1 of 3 matches -> penalty
    # 0.5 * (1/3)^3 -> 1 - 1/54
    value = get_metric("METEOR").similarity(["the dog ran"], ["the hound ran"])[0]
    assert value == pytest.approx(1 - 1 / 54)
    assert wordnet.synsets("hound")


class _FixedEncoder:
    def __init__(self, table: dict[str, list[float]]) -> None:
        self.table = table

    def encode(self, texts):
        return np.array([self.table[t] for t in texts], dtype=float)


def test_embedding_metric_is_the_cosine_of_the_encoder_vectors() -> None:
    metric = EmbeddingMetric("fixed")
    metric._encoder = _FixedEncoder({"r": [1.0, 0.0], "p": [1.0, 1.0], "n": [0.0, 2.0]})
    scores = metric.similarity(["r", "r"], ["p", "n"])
    np.testing.assert_allclose(scores, [1 / np.sqrt(2), 0.0], atol=1e-12)


def test_votes_follow_eq1_with_ties_as_abstentions() -> None:
    votes = votes_from_scores(np.array([0.5, 0.2, 0.3]), np.array([0.1, 0.4, 0.3]))
    assert votes.tolist() == [1, -1, 0]
    rows = [{"reference": REF, "positive": CANDS[0], "negative": CANDS[1]}]
    v, pos, neg = metric_votes(get_metric("ROUGE1"), rows)
    assert v.tolist() == [1] and pos[0] > neg[0]


def test_unknown_metric_is_one_line_error() -> None:
    from dataset_scripts.core.errors import UnknownNameError

    with pytest.raises(UnknownNameError, match="unknown metric 'bleurt'"):
        get_metric("bleurt")


def test_paper_style_encoders_by_name_fail_cleanly_offline(monkeypatch) -> None:
    from dataset_scripts.core.errors import StylebenchError

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    metric = get_metric("StyleDistance")
    assert metric.name == "StyleDistance" and metric.spec == "st:StyleDistance/styledistance"
    with pytest.raises(StylebenchError, match="not available offline"):
        metric.similarity(["a"], ["b"])
