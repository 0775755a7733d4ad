"""Two CPU worker processes vs one, on 5,000 texts (not collected by pytest).

    python tests/benchmarks/bench_devices.py

all-MiniLM-L6-v2 on 5,000 unique texts of small STEB datasets built from
../shared/corpora: one in-process device (torch on every core) against
``devices=["cpu", "cpu"]`` (two worker processes, cores split between them), fed
through the runner's 256-text batches. Prints the ratio (two workers / one) and the
worker start-up time separately. On one 2-core machine the two workers share the same
cores as the single process, so no speed-up is expected; the point of ``--devices``
is one worker per GPU. No target.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

N_TEXTS = 5000


def texts_5000() -> list[str]:
    from evaluators.data import load_table
    from evaluators.paths import corpora_dir
    from evaluators.runner import plan_tasks
    from evaluators.tasks import get_evaluator
    from tests.scaling.small_datasets import MORE_STEB, SMALL_STEB, build_small

    corpora = corpora_dir()
    if corpora is None:
        sys.exit("needs ../shared/corpora")
    ids = SMALL_STEB + MORE_STEB
    folders = build_small(Path(tempfile.mkdtemp()), corpora, len(ids), ids)
    texts = list(
        dict.fromkeys(
            t
            for s in plan_tasks(folders)
            for t in get_evaluator(s.task_type).texts(load_table(s.dataset, s.config, s.split))
        )
    )
    if len(texts) < N_TEXTS:
        sys.exit(f"only {len(texts)} unique texts")
    return texts[:N_TEXTS]


def encode_all(encoder, texts: list[str]) -> float:
    start = time.perf_counter()
    for i in range(0, len(texts), 256):  # the runner's commit batches
        encoder.encode(texts[i : i + 256])
    return time.perf_counter() - start


def main() -> None:
    import numpy as np

    from evaluators.encoders import get_encoder

    texts = texts_5000()
    single = get_encoder("minilm")
    single.encode(texts[:32])
    t_one = encode_all(single, texts)
    reference = single.encode(texts[:256])
    del single
    start = time.perf_counter()
    with get_encoder("minilm", devices=["cpu", "cpu"]) as multi:
        t_start = time.perf_counter() - start
        multi.encode(texts[:32])
        t_two = encode_all(multi, texts)
        diff = float(np.abs(multi.encode(texts[:256]) - reference).max())
    print(f"texts: {len(texts)} unique (MiniLM, runner batches of 256)")
    print(f"one device (in-process):     {t_one:7.2f} s  ({len(texts) / t_one:6.0f} texts/s)")
    print(f"two CPU worker processes:    {t_two:7.2f} s  ({len(texts) / t_two:6.0f} texts/s)"
          f"  + {t_start:.1f} s to start the workers")
    print(f"ratio two workers / one: {t_two / t_one:.2f}x time; max |vector diff| {diff:.2e}")


if __name__ == "__main__":
    main()
