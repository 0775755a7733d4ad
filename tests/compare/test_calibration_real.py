"""Calibration on real corpora, the suite's fast subset of
``tests/benchmarks/bench_compare_calibration.py``: per task type, 20 null comparisons on
one real STEB dataset (two encoders with no true difference: one base encoder plus two
independent perturbations of equal size, :mod:`tests.compare.null_pairs`), each scored
by the task evaluator and tested as ``stylebench compare`` does. Fails when more than
12 % are rejected at 5 % on these fixed seeds (3 or more of 20). Retrieval scores in
milliseconds, so it runs 200 comparisons, enough to tell 15 % from 5 %.

The pre-issue-41 test of order alignment (pairs of sequences taken as independent)
rejects most of these same null comparisons: the check has teeth. So did retrieval
before its author groups: PAN18's English problems reuse their candidates' texts under
other labels (50 labelled authors, 20 groups of shared texts); the delete-one-author
jackknife rejected 35 of these 200 (the per-query t-test more than 12 % too), the
delete-one-group one rejects 10.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.compare.null_pairs import DATASETS, null_comparisons

pytestmark = [pytest.mark.corpora, pytest.mark.slow]

COUNT = 20
COUNTS = {"retrieval": 200}  # cheap: more comparisons, a sharper check
MAX_REJECTED = 0.12
FAST = {  # task type -> its cheapest real dataset (the benchmark runs them all)
    "order_alignment": DATASETS["order_alignment"][0],  # STEL_feature
    "predefined_pairs": DATASETS["predefined_pairs"][0],  # PAN15 English test
    "clustering": DATASETS["clustering"][0],  # sms_spam
    "all_to_all_pairs": DATASETS["all_to_all_pairs"][0],  # sms_spam
    "retrieval": DATASETS["retrieval"][0],  # PAN18 English
}
SEED = 2041


@pytest.mark.parametrize("task", list(FAST))
def test_null_comparisons_are_rejected_at_most_12_percent(task: str, corpora: Path) -> None:
    hub_id, raw = FAST[task]
    n_boot = 200 if task == "clustering" else 1000
    count = COUNTS.get(task, COUNT)
    found = null_comparisons(corpora, task, hub_id, raw, count, SEED, n_boot)
    rejected = sum(o.p_value < 0.05 for o in found)
    assert rejected / count <= MAX_REJECTED, (
        f"{task} on {hub_id}: {rejected} of {count} null comparisons rejected at 5 %: "
        + ", ".join(f"{o.p_value:.3g}" for o in found[:40])
    )
    for o in found:
        assert o.ci[0] <= o.difference <= o.ci[1]
        assert (o.p_value < 0.05) == (o.ci[0] > 0 or o.ci[1] < 0)
    if task in ("order_alignment", "retrieval"):  # units taken as independent fail it
        naive = sum(o.p_independent < 0.05 for o in found)
        assert naive / count > MAX_REJECTED, naive
