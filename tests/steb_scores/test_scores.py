"""The four views on constructed result sets, against hand computations."""

from __future__ import annotations

import pytest

from evaluators.steb_scores.scores import (
    definitional_spec,
    evaluate_spec,
    unit_values,
    view_score,
)
from tests.steb_scores.helpers import score

M = [
    score("M", "steb/d1", "clustering", 0.2),
    score("M", "steb/d1", "all_to_all_pairs", 0.6),
    score("M", "steb/d2", "clustering", 0.4),
    score("M", "steb/d3", "clustering", 0.9),
    score("M", "steb/d4", "order_alignment", 0.1, accuracy=0.8),
    score("M", "steb/d5", "retrieval", 0.5),
    # non-English: multilingual view only
    score("M", "steb/pan15_authorship_verification_dutch_test", "predefined_pairs", 0.7),
    score("M", "steb/pan18_cross_domain_authorship_attribution_french", "retrieval", 0.3),
    # not a STEB dataset: in no view
    score("M", "demo/toy", "retrieval", 0.0),
]


def test_operational_with_clusters_by_hand() -> None:
    # clustering: clusters {d1, d2} -> 0.3 and {d3} -> 0.9 => 0.6
    # all_to_all: 0.6; order alignment: distractor 0.1; retrieval: 0.5 (French set excluded)
    vs = view_score("operational", M, {"clustering": [["steb/d1", "steb/d2"], ["steb/d3"]]})
    assert vs.columns["clustering"] == pytest.approx(0.6)
    assert vs.columns["all_to_all_pairs"] == pytest.approx(0.6)
    assert vs.columns["order_alignment"] == pytest.approx(0.1)
    assert vs.columns["retrieval"] == pytest.approx(0.5)
    assert vs.columns["predefined_pairs"] is None and vs.columns["probing"] is None
    assert vs.overall == pytest.approx((0.6 + 0.6 + 0.1 + 0.5) / 4)
    assert vs.n_datasets["clustering"] == 3 and vs.n_datasets["retrieval"] == 1
    assert not vs.complete


def test_operational_without_clusters_is_plain_macro_average() -> None:
    vs = view_score("operational", M)
    assert vs.columns["clustering"] == pytest.approx((0.2 + 0.4 + 0.9) / 3)
    assert vs.overall == pytest.approx((0.5 + 0.6 + 0.1 + 0.5) / 4)


def test_definitional_by_hand() -> None:
    clusters = {
        "steb/d1": ("genre",),
        "steb/d2": ("genre",),
        "steb/d3": ("linguistic_features",),
        "steb/d4": ("register", "content_independence"),
    }
    available = {"steb/d1": {"clustering", "all_to_all_pairs"}, "steb/d2": {"clustering"}}
    available |= {"steb/d3": {"clustering"}, "steb/d4": {"order_alignment"}}
    spec = definitional_spec(available, clusters)
    cols = evaluate_spec(spec, unit_values(M))
    # genre: mean over task types of dataset means: clustering (0.2+0.4)/2, all-to-all 0.6
    assert cols["genre"] == pytest.approx(0.45)
    assert cols["register"] == pytest.approx(0.8)  # plain order-alignment accuracy
    assert cols["linguistic_features"] == pytest.approx(0.9)
    assert cols["content_independence"] == pytest.approx(0.1)  # distractor accuracy only
    assert cols["object_of_study"] == pytest.approx((0.45 + 0.8) / 2)
    assert cols["average"] == pytest.approx((0.625 + 0.9 + 0.1) / 3)
    assert "time" not in cols


def test_application_by_hand() -> None:
    scores = [
        score("M", "steb/gede_essay_detection", "clustering", 0.2),
        score("M", "steb/pan23_style_change_easy", "predefined_pairs", 0.9),
        score("M", "steb/enron_authorship_corpus", "predefined_pairs", 0.7),
        score("M", "steb/amazon", "retrieval", 0.3),
        score("M", "steb/fanfiction", "retrieval", 0.5),
    ]
    vs = view_score("application", scores)
    assert vs.columns["atd"] == pytest.approx(0.2)
    assert vs.columns["av_overall"] == pytest.approx(0.8)
    assert vs.columns["av_easy"] == pytest.approx(0.9)
    assert vs.columns["av_hard"] is None and vs.columns["atd_adversarial"] is None
    assert vs.columns["ar"] == pytest.approx(0.4)
    # easy/medium/hard do not count towards the average
    assert vs.overall == pytest.approx((0.2 + 0.8 + 0.4) / 3)


def test_multilingual_by_hand() -> None:
    vs = view_score("multilingual", M)
    assert vs.columns["pair_classification"] == pytest.approx(0.7)
    assert vs.columns["retrieval"] == pytest.approx(0.3)
    assert vs.overall == pytest.approx(0.5)
    assert vs.n_datasets == {"pair_classification": 1, "retrieval": 1}
