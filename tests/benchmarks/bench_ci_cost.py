"""Cost of the evaluation-time CIs beside encoding (not collected by pytest).

    python tests/benchmarks/bench_ci_cost.py [--model minilm]

Builds ``steb/bible_versions`` from ``../shared/corpora/BibleVersions`` (1,600 verses,
1.28 M all-to-all pairs), encodes every unique text once with the model (timed), then
runs the clustering and all-to-all-pairs evaluators, CIs included (timed, best of 3),
and prints evaluation time as a share of encoding time. Target: <= 5 %. For reference
it also times the text-bootstrap CI the analytic all-to-all interval replaced.
Exits non-zero when the target is missed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

TARGET_SHARE = 0.05


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="minilm")
    parser.add_argument(
        "--raw",
        type=Path,
        default=Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "BibleVersions",
    )
    args = parser.parse_args()
    if not args.raw.is_dir():
        print(f"skipped: {args.raw} is not present")
        return 0

    from dataset_scripts.steb.bible import build
    from evaluators.data import Table
    from evaluators.encoders import get_encoder
    from evaluators.tasks import EmbeddingLookup, get_evaluator
    from evaluators.tasks.pairs import all_pairs, all_pairs_ci

    configs, _ = build(args.raw)
    rows = configs["labelled_texts"]["test"]
    table = Table("steb/bible_versions", "bible_versions", "labelled_texts", "test", rows, "bench")
    texts = list(dict.fromkeys(row["text"] for row in rows))
    encoder = get_encoder(args.model)
    if hasattr(encoder, "fit"):
        encoder.fit(texts)
    started = time.perf_counter()
    lookup = EmbeddingLookup.from_encoder(encoder, texts)
    encode_s = time.perf_counter() - started

    evaluation_s = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        results = [
            get_evaluator(t).evaluate(table, lookup) for t in ("clustering", "all_to_all_pairs")
        ]
        evaluation_s = min(evaluation_s, time.perf_counter() - started)
    share = evaluation_s / encode_s
    for result in results:
        ci = result.details["ci95"]
        print(
            f"{result.task_type}: {result.main_score_name} = {result.main_score:.4f}, "
            f"95% CI {ci[result.main_score_name]} ({ci['method']})"
        )
    scores, same = all_pairs(lookup(row["text"] for row in rows), [row["label"] for row in rows])
    started = time.perf_counter()
    bootstrap = all_pairs_ci(scores, same, len(rows))
    bootstrap_s = time.perf_counter() - started
    print(f"  (text bootstrap CI for comparison: {bootstrap['auc']}, {bootstrap_s:.2f} s)")
    print(
        f"encoding {len(texts)} texts with {args.model}: {encode_s:.2f} s; evaluation of "
        f"clustering + all-to-all pairs with CIs: {evaluation_s:.2f} s; "
        f"share {share:.1%} (target <= {TARGET_SHARE:.0%})"
    )
    return 0 if share <= TARGET_SHARE else 1


if __name__ == "__main__":
    sys.exit(main())
