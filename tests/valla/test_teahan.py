"""The order-k PPM model Valla runs (teahan03 rules), vectorised in evaluators.valla.teahan:
hand-computed probabilities and an independent dictionary implementation written here from
the rules (no escape penalty, every suffix context updated, 1/alph_size for unseen
characters, contexts never spanning two training texts)."""

from __future__ import annotations

from math import log2

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_scripts.core.errors import StylebenchError
from evaluators.valla.ppm import PPMAA, PPMAV, PPMConfig
from evaluators.valla.teahan import cross_entropies, pair_cross_entropy


class DictModel:
    """Counts per (context, character) in plain dictionaries, one character at a time."""

    def __init__(self, texts: list[str], order: int, alph_size: int) -> None:
        self.order, self.alph_size = order, alph_size
        self.counts: dict[tuple[str, str], int] = {}
        self.totals: dict[str, int] = {}
        for text in texts:
            for i, char in enumerate(text):
                context = text[max(0, i - order) : i]
                for k in range(len(context) + 1):
                    suffix = context[k:]
                    self.counts[suffix, char] = self.counts.get((suffix, char), 0) + 1
                    self.totals[suffix] = self.totals.get(suffix, 0) + 1

    def p(self, char: str, context: str) -> float:
        for k in range(len(context) + 1):  # longest suffix first
            suffix = context[k:]
            if self.counts.get((suffix, char), 0):
                return self.counts[suffix, char] / self.totals[suffix]
        return 1.0 / self.alph_size

    def h(self, text: str) -> float:
        bits = [-log2(self.p(c, text[max(0, i - self.order) : i])) for i, c in enumerate(text)]
        return sum(bits) / len(text)


def test_hand_computed_probabilities() -> None:
    # trained on "abab", order 2: P(a | "") = 2/4; P(b | "a") = 2/2 ("ab" twice, "a" is
    # followed twice); "c" was never seen: 1/256 -> (1 + 0 + 8) / 3 bits
    _, entropy = cross_entropies(["abab"], ["x"], ["abc"], order=2)
    assert entropy[0, 0] == pytest.approx(3.0, abs=1e-12)
    # "ba" under "abab": P(b | "") = 2/4, P(a | "b") = 1/1 (the final "b" has no successor)
    assert pair_cross_entropy("abab", "ba", order=2) == pytest.approx(0.5, abs=1e-12)
    # back-off without an escape penalty: "bb" never occurs, so P(b | "b") falls back to
    # P(b | "") = 1/2 at no cost (a true PPM would charge an escape)
    assert pair_cross_entropy("abab", "bb", order=2) == pytest.approx(1.0, abs=1e-12)
    # contexts never span two training texts: "ab" + "ab" has no "ba" bigram
    assert pair_cross_entropy("ab", "ba", order=1) == pytest.approx(
        DictModel(["ab"], 1, 256).h("ba"), abs=1e-12
    )
    _, split = cross_entropies(["ab", "ab"], ["x", "x"], ["bab"], order=1)
    _, joined = cross_entropies(["abab"], ["x"], ["bab"], order=1)
    assert split[0, 0] > joined[0, 0]


texts = st.text(alphabet="abé€ \n", min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(
    train=st.lists(st.tuples(texts, st.sampled_from("PQR")), min_size=1, max_size=6),
    unknown=st.lists(texts, min_size=1, max_size=4),
    order=st.integers(0, 5),
    alph_size=st.sampled_from([1, 64, 256]),
)
def test_matches_dictionary_model(
    train: list[tuple[str, str]], unknown: list[str], order: int, alph_size: int
) -> None:
    authors, entropy = cross_entropies(
        [t for t, _ in train], [a for _, a in train], unknown, order, alph_size
    )
    assert authors == sorted({a for _, a in train})
    expected = [
        [DictModel([t for t, x in train if x == a], order, alph_size).h(u) for a in authors]
        for u in unknown
    ]
    np.testing.assert_allclose(entropy, expected, rtol=0, atol=1e-12)


def test_attribution_ties_go_to_first_author_and_bad_input() -> None:
    model = PPMAA(PPMConfig(order=2)).fit(["abc", "abc"], ["zed", "amy"])
    assert model.predict(["abc"]) == ["amy"]  # equal cross-entropies: sorted first
    with pytest.raises(StylebenchError, match="unknown text 1 is empty"):
        model.predict(["abc", ""])
    with pytest.raises(StylebenchError, match="coder"):
        PPMConfig(coder="zip")


def test_av_logistic_regression_on_cross_entropies() -> None:
    a, b = "the cat sat on the mat. " * 4, "zyx wvu tsr qpo. " * 4
    t1 = [a, a, b, b, a[:40], b[:40]]
    t2 = [a[5:], b, b[3:], a, a[7:60], a[3:50]]
    labels = [1, 0, 1, 0, 1, 0]
    model = PPMAV().fit(t1, t2, labels)
    features = model.features([a], [b])
    d1, d2 = pair_cross_entropy(a, b), pair_cross_entropy(b, a)
    np.testing.assert_allclose(features, [[d1, d2, (d1 + d2) / 2, abs(d1 - d2)]], atol=1e-12)
    scores = model.score([a, a], [a[9:], b])
    assert ((scores >= 0) & (scores <= 1)).all() and scores[0] > scores[1]
    with pytest.raises(StylebenchError, match="not fitted"):
        PPMAV().score([a], [b])
