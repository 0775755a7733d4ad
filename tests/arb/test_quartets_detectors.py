"""arb/quartets on the real corpora, quality flags, detectors on a tiny model, report."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dataset_scripts.arb.quality import is_non_english, is_refusal, length_stratum, text_sha256
from dataset_scripts.core.arb_schema import RELEASE_FIELDS, validate_quartet_rows
from dataset_scripts.core.errors import DataError


@pytest.fixture(scope="module")
def quartets(corpora):
    from dataset_scripts.arb.quartets import build_rows

    return build_rows(corpora)


@pytest.mark.slow
@pytest.mark.corpora
def test_real_quartets_golden(quartets) -> None:
    rows, dropped, flags = quartets
    assert len(rows) == 7021 and dropped == {}
    assert list(rows[0])[:12] == list(RELEASE_FIELDS)
    df = pd.DataFrame(rows)
    counts = df.groupby(["source_dataset_short", "regime"]).size().to_dict()
    assert counts[("arxiv", "Human")] == 350 and counts[("arxiv", "LLM2L")] == 350
    assert counts[("brat", "Human")] == 402 and counts[("brat", "H2L")] == 804
    assert counts[("ielts", "Free-LLM")] == 802
    # Human shared across generator blocks: stored once, generator null
    assert df[df.regime == "Human"].generator_model.isna().all()
    assert df[df.regime == "Human"].pair_id.is_unique
    assert flags["generated_texts"] == 5868 and flags["flag_short"] == 99
    assert df.flag_short.sum() >= 99  # humans counted on the rows too
    row = df[(df.pair_id == "brat-000000") & (df.regime == "LLM2L")]
    assert set(row.free_llm_model) == {"gpt-4o-mini-2024-07-18", "Llama-3.3-70B-Instruct"}
    validate_quartet_rows(rows[:50], "test")


@pytest.mark.corpora
def test_schema_errors_name_row_and_column(quartets) -> None:
    rows = [dict(r) for r in quartets[0][:3]]
    rows[2]["label_id"] = 3 if rows[2]["regime"] != "LLM2L" else 0
    with pytest.raises(DataError, match=r"row 2: column 'label_id'"):
        validate_quartet_rows(rows, "x")


def test_quality_helpers() -> None:
    assert is_refusal("I'm sorry, but I can't fulfill this request.")
    assert not is_refusal("The sorry state of the roads was news.")
    assert is_non_english("Der Hund läuft schnell über die Straße und bellt laut im Park heute")
    assert not is_non_english("The dog runs quickly over the road and barks loudly in the park")
    assert length_stratum(150) == "short" and length_stratum(221) == "medium"
    assert length_stratum(500) == "long" and length_stratum(501) == "outside"
    assert text_sha256("a  b\n") == text_sha256("a b")


def _naive_ned(a: str, b: str) -> float:
    x, y = a.split(), b.split()
    d = [[i + j if i * j == 0 else 0 for j in range(len(y) + 1)] for i in range(len(x) + 1)]
    for i in range(1, len(x) + 1):
        for j in range(1, len(y) + 1):
            d[i][j] = min(
                d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (x[i - 1] != y[j - 1])
            )
    return d[-1][-1] / max(len(x), len(y))


def test_token_ned_matches_dynamic_programming() -> None:
    from evaluators.arb.report import jaccard, token_ned

    rng = np.random.default_rng(0)
    for _ in range(30):
        a = " ".join(rng.choice(list("abcde"), rng.integers(1, 12)))
        b = " ".join(rng.choice(list("abcde"), rng.integers(1, 12)))
        assert token_ned(a, b) == pytest.approx(_naive_ned(a, b))
    assert jaccard("a b c", "b c d") == 0.5


@pytest.fixture(scope="module")
def tiny_lm(tmp_path_factory):
    from tests.tiny_models import write_tiny_llama

    words = [
        "the",
        "a",
        "cat",
        "dog",
        "sat",
        "on",
        "mat",
        "ran",
        "fast",
        "slow",
        "and",
        "big",
        "small",
        "red",
        "blue",
    ]
    return write_tiny_llama(tmp_path_factory.mktemp("tiny_lm"), words, max_positions=64)


def test_zero_shot_detectors_match_hand_computation(tiny_lm) -> None:
    import torch

    from evaluators.arb.detectors import CausalLM, ZeroShotDetector, share_model_passes

    texts = ["the cat sat on the mat", "a big red dog ran fast and slow"]
    dets = {
        k: ZeroShotDetector(k, tiny_lm, batch_size=2)
        for k in ("loglik", "fastdetectgpt", "binoculars", "entropy", "logrank")
    }
    share_model_passes(list(dets.values()))
    lm = CausalLM.shared(tiny_lm, max_tokens=512, batch_size=2, device="cpu")
    for i, text in enumerate(texts):
        ids = lm.tokenizer(text, return_tensors="pt")["input_ids"]
        with torch.no_grad():
            logits = lm.model(ids).logits[0, :-1]
        lp = torch.log_softmax(logits, -1)
        ll = lp.gather(-1, ids[0, 1:, None]).squeeze(-1)
        p = lp.exp()
        mu = (p * lp).sum(-1)
        var = (p * lp**2).sum(-1) - mu**2
        crit = (ll.sum() - mu.sum()) / var.sum().sqrt()
        assert dets["loglik"].score(texts)[i] == pytest.approx(float(ll.mean()), abs=1e-5)
        assert dets["fastdetectgpt"].score(texts)[i] == pytest.approx(float(crit), abs=1e-4)
        ent = float(-(p * lp).sum(-1).mean())
        assert dets["entropy"].score(texts)[i] == pytest.approx(-ent, abs=1e-5)
        assert dets["binoculars"].raw_scores(texts)[i] == pytest.approx(
            float(-ll.mean()) / ent, abs=1e-5
        )
    assert "degenerate" in dets["binoculars"].config()
    assert dets["loglik"].config()["scoring_model"]["precision"] == "float32"


def test_hf_classifier_orientation(tmp_path, tiny_lm) -> None:
    from transformers import AutoTokenizer, LlamaConfig, LlamaForSequenceClassification

    from evaluators.arb.detectors import HFClassifierDetector

    cfg = LlamaConfig(
        vocab_size=17,
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_labels=2,
        pad_token_id=1,
        id2label={0: "human", 1: "machine"},
        label2id={"human": 0, "machine": 1},
    )
    LlamaForSequenceClassification(cfg).save_pretrained(tmp_path)
    AutoTokenizer.from_pretrained(tiny_lm).save_pretrained(tmp_path)
    texts = ["the cat sat", "a dog ran fast"]
    m = HFClassifierDetector(str(tmp_path), "machine").score(texts)
    h = HFClassifierDetector(str(tmp_path), 0).score(texts)
    np.testing.assert_allclose(m + h, 1.0, atol=1e-6)
    with pytest.raises(Exception, match="no class named"):
        HFClassifierDetector(str(tmp_path), "robot")


def test_tfidf_baseline_learns() -> None:
    from evaluators.arb.detectors import TfidfLogisticDetector

    human = [f"i reckon the match {i} was ok lol, whatever" for i in range(20)]
    machine = [f"In conclusion, match {i} demonstrates remarkable resilience." for i in range(20)]
    det = TfidfLogisticDetector().fit(human + machine, [0] * 20 + [1] * 20)
    s = det.score(["i reckon it was ok lol", "In conclusion, it demonstrates resilience."])
    assert s[1] > s[0]


def test_report_end_to_end(tmp_path) -> None:
    from click.testing import CliRunner

    from evaluators.cli.arb import COMMAND

    rng = np.random.default_rng(1)
    rows = []
    for ds in ("x", "y"):
        for i in range(40):
            pid = f"{ds}-{i}"
            rows.append((pid, "Human", ds, "", rng.normal(0, 1)))
            for g in ("g1", "g2"):
                for r, m in (("Free-LLM", 2.0), ("H2L", 0.5), ("LLM2L", 1.5)):
                    rows.append((pid, r, ds, g, rng.normal(m, 1)))
    df = pd.DataFrame(rows, columns=["pair_id", "regime", "dataset", "generator", "score"])
    df["detector"], df["raw"], df["id"] = "fastdetectgpt", df["score"], range(len(df))
    df.to_parquet(tmp_path / "s.parquet")
    res = CliRunner().invoke(
        COMMAND,
        [
            "report",
            "--scores",
            str(tmp_path / "s.parquet"),
            "--resamples",
            "200",
            "--out",
            str(tmp_path / "r"),
        ],
    )
    assert res.exit_code == 0, res.output
    text = (tmp_path / "r" / "report.md").read_text()
    assert "Human vs. H2L" in text and "0.475 [0.444, 0.511]" in text  # paper Table 9 beside
    assert len(list((tmp_path / "r").glob("*.png"))) == 5


def test_diagnostics_known_values() -> None:
    from evaluators.arb.report import diagnostics, table10

    same = {"b1": [("a b c d", "a b c d")] * 5, "b2": [("a b", "a b")] * 3}
    d = diagnostics(same, None, 100, 42)
    assert d["word_ratio"][0] == 1.0 and d["token_ned"][0] == 0.0 and d["jaccard"][0] == 1.0
    half = {"b1": [("a b c d", "a b")] * 4, "b2": [("a b", "x y z w")] * 4}
    h = diagnostics(half, None, 100, 42)
    assert h["word_ratio"][0] == pytest.approx((0.5 + 2.0) / 2)  # macro over blocks
    assert h["token_ned"][0] == pytest.approx((0.5 + 1.0) / 2)
    assert "0.798 [0.746, 0.845]" in table10(d, h)  # the paper's values beside
