"""Calibration of ``stylebench compare`` on real corpora (not collected by pytest).

    python tests/benchmarks/bench_compare_calibration.py [--count 100] [--tasks t1,t2]
        [--work DIR] [--report-only] [--plot PNG]

For every task type, null pairs on real STEB datasets from ``../shared/corpora``
(:mod:`tests.compare.null_pairs`: one base encoder, function words or character TF-IDF,
plus two independent perturbations of equal size at noise levels 0.25, 0.5 and 1 times
each dimension's sd; no true difference), ``--count`` comparisons per dataset (100; the
retrieval set, the only one, twice that), each scored by the task evaluator and tested by
:func:`evaluators.compare.units.paired_test` as ``stylebench compare`` does. Prints per
task type and dataset:

* the share of null comparisons rejected at 5 % with its Clopper-Pearson 95 % interval
  (target: every interval overlaps [3 %, 7 %], none above 10 %), and the same for the
  method before issue 41 (stored units treated as independent; clustering on the
  seed-42 assignment alone);
* the coverage of the 95 % CI of the null difference (0), which is one minus the
  rejection rate by construction (the CI excludes 0 exactly when p < 0.05);
* the power against a real difference: function words against function words on a
  random tenth of its dimensions (10 comparisons per dataset).

Writes every outcome to ``<work>/outcomes_<task>.json`` (a later ``--report-only`` run
merges them), the table to ``<work>/summary.md`` (with the date and the command), and
the histogram of the null p-values per task type to ``--plot`` (default
``<work>/compare_null_pvalues.png``; the committed figure of the docs is
``--plot docs/images/compare_null_pvalues.png``). Exits non-zero when a task type's
pooled rejection rate is above 10 %.

Cost: 28 min for the default ``--count 100`` (2026-12-05, 2 cores shared with other
jobs, load 5-12): the task evaluators dominate (STEL_register's 38,220 pairs 7 min,
bible_versions all-to-all 10 min, PAN23 hard 6 min; retrieval 9 s). Results and the
figure: docs/guides/compare.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.compare.null_pairs import (  # noqa: E402
    DATASETS,
    Outcome,
    clopper_pearson,
    null_comparisons,
    power_comparisons,
)

Y_MAX = 3.5  # histogram density axis (uniform = 1); taller bars are clipped and labelled
CLUSTERING_N_BOOT = 400  # text resamples of a clustering test (k-means dominates the cost)
N_POWER = 10


def run(corpora: Path, tasks: list[str], count: int, work: Path) -> None:
    started = time.time()
    for task in tasks:
        null, power = [], []
        n_boot = CLUSTERING_N_BOOT if task == "clustering" else 1000
        for hub_id, raw in DATASETS[task]:
            n = count * 2 if len(DATASETS[task]) == 1 else count
            start = time.time()
            null += null_comparisons(corpora, task, hub_id, raw, n, 41, n_boot)
            power += power_comparisons(corpora, task, hub_id, raw, N_POWER, 41, n_boot)
            print(f"{task} {hub_id}: {n} null + {N_POWER} power in {time.time() - start:.0f} s")
        payload = {
            "null": [dataclasses.asdict(o) for o in null],
            "power": [dataclasses.asdict(o) for o in power],
        }
        (work / f"outcomes_{task}.json").write_text(json.dumps(payload), encoding="utf-8")
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    command = " ".join(["python", *sys.argv])
    minutes = (time.time() - started) / 60
    (work / "run.json").write_text(
        json.dumps({"command": command, "finished": stamp, "minutes": round(minutes, 1)}),
        encoding="utf-8",
    )


def _rate(outcomes: list[Outcome], key: str = "p_value") -> tuple[int, int, str]:
    k = sum(getattr(o, key) < 0.05 for o in outcomes)
    n = len(outcomes)
    low, high = clopper_pearson(k, n)
    return k, n, f"{100 * k / n:5.1f} % [{100 * low:4.1f}, {100 * high:4.1f}]"


def report(work: Path, plot: Path | None) -> bool:
    rows, pooled, lines = [], {}, []
    for path in sorted(work.glob("outcomes_*.json")):
        payload = json.loads(path.read_text(encoding="utf-8"))
        null = [Outcome(**o) for o in payload["null"]]
        power = [Outcome(**o) for o in payload["power"]]
        task = null[0].task
        pooled[task] = null
        for dataset in dict.fromkeys(o.dataset for o in null):
            mine = [o for o in null if o.dataset == dataset]
            strong = [o for o in power if o.dataset == dataset]
            rows.append((task, dataset, mine, strong))
        rows.append((task, "all", null, power))
    print(
        f"{'task':17} {'dataset':42} {'n':>4} {'rejected at 5 % [95 % CI]':>27} "
        f"{'CI coverage':>11} {'before #41':>27} {'power':>6} {'undecid.':>8}"
    )
    lines.append(
        "| task | dataset | n | rejected at 5 % [95 % CI] | CI coverage | before #41 | "
        "power | not decidable |"
    )
    lines.append("|---|---|---|---|---|---|---|---|")
    ok = True
    for task, dataset, null, power in rows:
        k, n, text = _rate(null)
        _, _, old = _rate(null, "p_independent")
        share = f"{sum(o.p_value < 0.05 for o in power)}/{len(power)}" if power else "-"
        undecided = sum(not o.decidable for o in null)
        coverage = sum(o.ci[0] <= 0.0 <= o.ci[1] for o in null)
        print(
            f"{task:17} {dataset:42} {n:4d} {text:>27} {100 * coverage / n:10.1f}% {old:>27} "
            f"{share:>6} {undecided:8d}"
        )
        lines.append(
            f"| {task} | {dataset} | {n} | {text.strip()} | {100 * coverage / n:.1f} % | "
            f"{old.strip()} | {share} | {undecided} |"
        )
        if dataset == "all" and k / n > 0.10:
            ok = False
    ran = work / "run.json"
    if ran.is_file():  # the run that measured the outcomes (a --report-only run did not)
        info = json.loads(ran.read_text(encoding="utf-8"))
        head = f"Measured {info['finished']} by `{info['command']}` ({info['minutes']} min)"
    else:
        head = "Measured by an earlier run (no run.json in the work folder)"
    (work / "summary.md").write_text(head + "\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {work / 'summary.md'}")
    if plot is not None:
        _plot(pooled, plot)
        print(f"wrote {plot} ({plot.stat().st_size:,} bytes)")
    return ok


def _plot(pooled: dict[str, list[Outcome]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    tasks = list(pooled)
    fig, axes = plt.subplots(1, len(tasks), figsize=(2.6 * len(tasks), 2.4), sharey=True)
    bins = np.linspace(0, 1, 21)
    for ax, task in zip(np.atleast_1d(axes), tasks, strict=True):
        ps = np.array([o.p_value for o in pooled[task]])
        old = np.array([o.p_independent for o in pooled[task]])
        heights, _, _ = ax.hist(
            old, bins=bins, density=True, histtype="step", color="#d62728", label="before #41"
        )
        ax.hist(ps, bins=bins, density=True, color="#1f77b4", alpha=0.7, label="now")
        ax.axhline(1.0, color="black", lw=0.8, ls="--")
        ax.set_ylim(0, Y_MAX)
        if heights.max() > Y_MAX:  # the old method's spike at p < 0.05, clipped
            ax.annotate(
                f"before: {heights.max():.1f}",
                (bins[int(np.argmax(heights))], Y_MAX),
                xytext=(4, -10),
                textcoords="offset points",
                fontsize=7,
                color="#d62728",
            )
        rate = float(np.mean(ps < 0.05))
        ax.set_title(
            f"{task.replace('_', ' ')}: {100 * rate:.1f} % < 0.05 (n={ps.size})", fontsize=8
        )
        ax.set_xlabel("null p-value", fontsize=8)
    np.atleast_1d(axes)[0].set_ylabel("density (uniform = 1)", fontsize=8)
    np.atleast_1d(axes)[0].legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--tasks", default=",".join(DATASETS))
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench_compare_calibration"))
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--plot", type=Path, default=None, help="PNG of the null p-values")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    if not args.report_only:
        run(args.corpora, args.tasks.split(","), args.count, args.work)
    plot = args.plot if args.plot is not None else args.work / "compare_null_pvalues.png"
    return 0 if report(args.work, plot) else 1


if __name__ == "__main__":
    sys.exit(main())
