"""Cost of a benchmark-level comparison from stored records (not collected by pytest).

    python tests/benchmarks/bench_compare.py [--work DIR] [--n-boot 1000]

Builds 11 real STEB datasets from ``../shared/corpora`` (PAN23 easy/medium/hard, PAN24
easy, PAN15 English, PAN18 English, the Davidson and Stormfront hate-speech sets, SMS
spam, blog gender, STEL_feature: predefined pairs, all-to-all pairs, clustering,
retrieval and order alignment, 16 results per model), runs two fast encoders
(``function-words``, ``random``) once with ``stylebench run`` (not timed), then times,
from the stored records alone:

* ``stylebench compare --results ... --model function-words --model random`` as a user
  runs it (a fresh interpreter, ``taskset`` to 2 cores when available), per-dataset
  tests, Holm and the two-level benchmark bootstrap;
* the same in-process (:func:`evaluators.compare.api.compare_results`), and the rank
  intervals of the two models (:func:`evaluators.compare.api.rank_results`).

Target: the command under 10 s. Prints each time and its ratio to the target (and the
command's CPU time: on a machine shared with other jobs the wall time is mostly waiting);
exits non-zero when the target is missed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 10.0
ROOT = Path(__file__).resolve().parents[2]
DATASETS = {
    "steb/pan23_style_change_easy": "pan23_multi_author_analysis",
    "steb/pan23_style_change_medium": "pan23_multi_author_analysis",
    "steb/pan23_style_change_hard": "pan23_multi_author_analysis",
    "steb/pan24_style_change_easy": "pan24_multi_author_analysis",
    "steb/pan15_authorship_verification_english_test": "pan15_authorship_verification_english",
    "steb/pan18_cross_domain_authorship_attribution_english": "pan18_cross_domain_authorship_attribution",
    "steb/hate_speech_and_offensive_language": "davidson_hate_speech_offensive",
    "steb/hate_speech": "vicomtech_hate_speech_stormfront",
    "steb/sms_spam": "sms_spam_collection",
    "steb/blog_gender": "blog_authorship_corpus",
    "steb/STEL_feature": "STEL",
}
MODELS = ("function-words", "random")


def _stylebench() -> list[str]:
    return [sys.executable, "-m", "evaluators.cli"]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, default=None, help="keep built data and runs here")
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    args = parser.parse_args()
    if not args.corpora.is_dir():
        print(f"skipped: {args.corpora} is not present")
        return 0
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-compare-"))
    built, runs = work / "built", work / "runs"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}

    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset

    refs = []
    for hub_id, raw in DATASETS.items():
        folder = built / hub_id.split("/")[1]
        if not folder.is_dir():
            build_dataset(get_dataset(hub_id), args.corpora / raw, folder)
        refs.append(str(folder))
    if not runs.is_dir():
        started = time.perf_counter()
        command = [*_stylebench(), "run", "--out", str(runs), "--no-cache", "--no-progress"]
        for model in MODELS:
            command += ["--model", model]
        for ref in refs:
            command += ["--dataset", ref]
        subprocess.run(command, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
        print(f"runs written in {time.perf_counter() - started:.1f} s (not part of the timing)")
    n_results = len(list((runs / MODELS[0]).glob("*/*.json")))

    pin = ["taskset", "-c", "0,1"] if shutil.which("taskset") and (os.cpu_count() or 1) >= 2 else []
    command = [
        *pin,
        *_stylebench(),
        "compare",
        "--results",
        str(runs),
        "--model",
        MODELS[0],
        "--model",
        MODELS[1],
        "--n-boot",
        str(args.n_boot),
        "--out",
        str(work / "compare.json"),
    ]
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    command_s = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    command_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    from evaluators.compare.api import compare_results, rank_results

    started = time.perf_counter()
    comparison = compare_results(runs, MODELS[0], MODELS[1], n_boot=args.n_boot)
    in_process_s = time.perf_counter() - started
    started = time.perf_counter()
    rank_results(runs, list(MODELS), n_boot=args.n_boot)
    rank_s = time.perf_counter() - started

    n_datasets = len({d.dataset for d in comparison.datasets})
    print(
        f"{n_datasets} datasets, {len(comparison.datasets)} results per model "
        f"({n_results} files), {args.n_boot} replicates"
    )
    tally = comparison.tally
    print(
        f"function-words vs random: wins {tally['win']}, ties {tally['tie']}, losses "
        f"{tally['loss']}; benchmark A - B {100 * comparison.benchmark['difference']:+.2f} "
        f"[{100 * comparison.benchmark['ci95'][0]:+.2f}, {100 * comparison.benchmark['ci95'][1]:+.2f}]"
    )
    pinned = " (taskset 2 cores)" if pin else ""
    print(
        f"stylebench compare{pinned}: {command_s:.2f} s = {command_s / TARGET_S:.2f} x target "
        f"({command_cpu:.2f} s CPU)"
    )
    print(
        f"compare_results in-process: {in_process_s:.2f} s = {in_process_s / TARGET_S:.2f} x target"
    )
    print(f"rank_results in-process: {rank_s:.2f} s = {rank_s / TARGET_S:.2f} x target")
    if n_datasets < 10:
        print(f"FAILED: only {n_datasets} datasets compared")
        return 1
    if command_s > TARGET_S:
        print(f"FAILED: the command took {command_s:.2f} s > {TARGET_S} s")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
