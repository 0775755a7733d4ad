"""STEL (real data from ../shared/corpora/STEL): build -> load_dataset -> runner ->
order alignment, pinned for a deterministic baseline and re-derived independently."""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

import numpy as np
import pytest

from dataset_scripts.build import build_dataset
from dataset_scripts.registry import get_dataset
from evaluators.encoders import get_encoder
from evaluators.run.runner import Runner, plan_tasks
from tests.parity import steb_reference as ref

pytestmark = pytest.mark.corpora

# Pinned: function-word frequencies (STEB's list) on steb/STEL_feature (300 sequences,
# 14,850 pairs). The tie-aware numbers equal the independent loop computation below; the
# main (steb protocol: solver tie-breaks) numbers equal tests/parity's re-implementation
# of the STEB authors' loop. Issue 25 (exact gridded cosines) moved PINNED_ACCURACY from
# 0.8843771043771044 and PINNED_TIE_AWARE from 0.5906060606060606: 309 items change the
# solver's choice (their two assignments' totals differed by at most 1.6e-9, most by
# rounding noise only; on the grid 293 tie exactly, and scipy's choice on an exact 2x2
# tie is the identity), and 19 contraction items whose gap was ~1e-9, at the tie
# tolerance, fall within it now (the grid moves a cosine by up to ~1e-8). Issue 33 (the
# solver's choice on the float64 costs, each cosine a correctly rounded dot) moved
# PINNED_ACCURACY back to 0.8843771043771044, the authors' loop's number (0.8958922558922559
# on the grid, which merged cosines 1e-9 apart into exact ties).
PINNED_ACCURACY = 0.8843771043771044
PINNED_DISTRACTOR = 0.056296296296296296
PINNED_TIE_AWARE = 0.5912457912457912
PINNED_TIE_AWARE_DISTRACTOR = 0.053737373737373736

MORE = {"contraction": "ction", "emotives": "emote", "nbr_substitution": "leet"}


@pytest.fixture(scope="module")
def stel_feature(corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("stel") / "STEL_feature"
    folder, dropped = build_dataset(get_dataset("steb/STEL_feature"), corpora / "STEL", out)
    assert dropped["style type 'em-subj-pronoun' is not used by STEB"] == 100
    return folder


def _independent_pairs(stel_root: Path) -> dict[str, list[tuple[str, str]]]:
    """(more, less) pairs per feature style, parsed here without the builder."""
    pairs: dict[str, list[tuple[str, str]]] = {s: [] for s in MORE}
    for path in sorted((stel_root / "Data" / "STEL").glob("*/*.tsv")):
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                style = row["style type"].strip().lower()
                if style not in MORE:
                    continue
                _, anchors, alternatives = row["ID"].split("_")[:3]
                for (a, b), ids in (
                    ((row["Anchor 1"], row["Anchor 2"]), anchors),
                    ((row["Alternative 1.1"], row["Alternative 1.2"]), alternatives),
                ):
                    pair = (
                        (a.strip(), b.strip())
                        if ids.startswith(MORE[style])
                        else (b.strip(), a.strip())
                    )
                    if pair not in pairs[style]:
                        pairs[style].append(pair)
    smallest = min(len(p) for p in pairs.values())  # STEB's cap: first n per group
    return {style: p[:smallest] for style, p in pairs.items()}


def _score(better: float, worse: float) -> float:
    """1 if the correct choice costs less, 0 if more, 0.5 on a tie: equal up to the
    documented tolerance (relative 1e-9 of the largest cost + 1e-12 per row), since
    costs equal in exact arithmetic can differ in the last bit."""
    if abs(better - worse) <= 1e-9 * max(abs(better), abs(worse)) + 1e-12:
        return 0.5
    return 1.0 if better < worse else 0.0


def test_stel_feature_counts(stel_feature: Path) -> None:
    from datasets import load_dataset

    # STEL_feature is config "feature" of the release repo steb/STEL
    rows = load_dataset(str(stel_feature), "feature", split="test")
    groups = {g: rows["group"].count(g) for g in set(rows["group"])}
    # Table 15 of the STEB paper: 3 groups x 200 texts (100 pairs each after the cap)
    assert groups == {"contraction": 100, "emotives": 100, "nbr_substitution": 100}
    assert all(len(t) == 2 for t in rows["texts"])


def test_function_words_order_alignment_pinned(stel_feature: Path, corpora: Path) -> None:
    encoder = get_encoder("function-words")
    records = Runner(encoder, "function-words", progress=False).run(plan_tasks([str(stel_feature)]))
    result = records[0]
    assert result.counts["n_pairs"] == 14_850
    assert result.metrics["accuracy"] == pytest.approx(PINNED_ACCURACY, abs=1e-12)
    assert result.metrics["distractor_accuracy"] == pytest.approx(PINNED_DISTRACTOR, abs=1e-12)
    assert result.metrics["accuracy_tie_aware"] == pytest.approx(PINNED_TIE_AWARE, abs=1e-12)
    assert result.metrics["distractor_accuracy_tie_aware"] == pytest.approx(
        PINNED_TIE_AWARE_DISTRACTOR, abs=1e-12
    )

    # Independent computation: explicit loops over pairs, both 2x2 assignments compared.
    plain, distractor = [], []
    for pairs in _independent_pairs(corpora / "STEL").values():
        vectors = encoder.encode([t for pair in pairs for t in pair]).astype(np.float64)
        units = ref.grid_units(vectors)  # the protocol's exact gridded cosines (issue 25)
        cost = 1 - np.maximum(ref.grid_cos(units, units), 0)
        for i, j in itertools.combinations(range(len(pairs)), 2):
            im, il, jm, jl = 2 * i, 2 * i + 1, 2 * j, 2 * j + 1
            plain.append(_score(cost[im, jm] + cost[il, jl], cost[im, jl] + cost[il, jm]))
            distractor.append(_score(cost[im, jm], cost[im, il]))  # "last": i's least replaces j's
            distractor.append(_score(cost[il, jl], cost[il, im]))  # "first": i's most replaces j's
    assert len(plain) == 14_850
    assert np.mean(plain) == pytest.approx(PINNED_TIE_AWARE, abs=1e-12)
    assert np.mean(distractor) == pytest.approx(PINNED_TIE_AWARE_DISTRACTOR, abs=1e-12)
