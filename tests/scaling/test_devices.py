"""``--devices cpu,cpu``: one worker process per device, each running its share of every
batch; the vectors and results match one device (bit for bit where the model declares
its batches), the identity (cache key) is the same, bad devices and unfitted encoders
fail with a clear error, workers stop with the run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.multi_device import MultiDeviceEncoder, parse_devices

pytestmark = [pytest.mark.slow, pytest.mark.models]


def test_parse_devices() -> None:
    assert parse_devices("cuda:0, cuda:1") == ["cuda:0", "cuda:1"]
    assert parse_devices(["cpu", "cpu"]) == ["cpu", "cpu"]
    for bad in ("cpu,,cpu", "", " "):
        with pytest.raises(StylebenchError, match="comma-separated device names"):
            parse_devices(bad)


def test_workers_split_batches_and_agree_with_one_process() -> None:
    """A cheap deterministic encoder: exact equality, order kept, both workers used."""
    from evaluators.encoders import get_encoder

    texts = [f"text number {i} " + "word " * (i % 7) for i in range(101)]
    single = get_encoder("function-words")
    with get_encoder("function-words", devices=["cpu", "cpu"]) as multi:
        assert isinstance(multi, MultiDeviceEncoder)
        assert multi.identity() == single.identity()
        assert np.array_equal(multi.encode(texts), single.encode(texts))
        assert np.array_equal(multi.encode(texts[:1]), single.encode(texts[:1]))  # 1 worker idle
        processes = list(multi._processes)
        assert len({p.pid for p in processes}) == 2 and all(p.is_alive() for p in processes)
    assert not any(p.is_alive() for p in processes)  # stopped with the context


def test_worker_errors_are_clear(tmp_path: Path) -> None:
    from dataset_scripts.core.errors import UnknownNameError
    from evaluators.encoders import get_encoder

    # refused before any worker starts
    with pytest.raises(StylebenchError, match=r"tfidf-ngrams must be fitted"):
        get_encoder("tfidf-ngrams", devices=["cpu", "cpu"])
    with pytest.raises(UnknownNameError, match=r"unknown encoder 'no-such-model'"):
        get_encoder("no-such-model", devices=["cpu", "cpu"])
    # a failure inside a worker names the spec and the device
    with pytest.raises(StylebenchError, match=r"random on cpu: .*does not take the option 'bogus'"):
        get_encoder("random", devices=["cpu", "cpu"], bogus=1)


@pytest.mark.slow
@pytest.mark.models
def test_minilm_on_two_cpu_workers_matches_one(minilm_local, tmp_path: Path) -> None:
    """Real MiniLM on two CPU workers: same identity (shared cache), vectors equal to
    one in-process device within float32 rounding, and the same scores on the demo."""
    from evaluators.encoders import get_encoder
    from evaluators.run.runner import Runner

    with get_encoder("minilm", devices=["cpu", "cpu"]) as multi:
        assert multi.identity() == minilm_local.identity
        sample = minilm_local.texts[:256]
        vectors = multi.encode(sample)
        assert np.abs(vectors - minilm_local.vectors[:256]).max() < 1e-5
        # the demo's labelled-texts tasks through the runner on two workers: same scores
        keep = [i for i, s in enumerate(minilm_local.specs) if s.config == "labelled_texts"]
        specs = [minilm_local.specs[i] for i in keep]
        assert {s.task_type for s in specs} == {"clustering", "all_to_all_pairs"}
        records = Runner(multi, "minilm", progress=False).run(specs)
    for mine, theirs in zip([minilm_local.records[i] for i in keep], records, strict=True):
        for name, value in mine.metrics.items():
            if isinstance(value, float):
                assert theirs.metrics[name] == pytest.approx(value, abs=1e-6), name


def _workers_threads(encoder, texts: list[str]) -> np.ndarray:
    """``encoder.encode(texts)`` in this process with torch on the thread count of each
    of two CPU workers (half the cores: 1 on a 2-core machine)."""
    import os

    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(max(1, (os.cpu_count() or 1) // 2))
    try:
        return encoder.encode(texts)
    finally:
        torch.set_num_threads(threads)


@pytest.mark.slow
@pytest.mark.models
def test_minilm_workers_run_one_devices_batches_bit_for_bit(minilm_local) -> None:
    """The workers run the very batches one device runs (chunks of long texts
    included, pooled in the parent): vectors equal bit for bit those of one process
    with the workers' thread count (1 each here; a different thread count is a
    different CPU kernel, as a different GPU model would be). The contiguous slices
    used before differed by ~1.5e-7."""
    from evaluators.encoders import get_encoder

    short = minilm_local.texts[:200]
    long = [" ".join(minilm_local.texts[i : i + 40]) for i in range(200, 1000, 40)]
    texts = short + long  # 20 texts of ~1,000 tokens: chunk-and-pool
    single = get_encoder("minilm", chunk=True)
    items, owners = single.items(texts)
    assert owners is not None and len(items) > len(texts) + 40
    expected = _workers_threads(single, texts)
    with get_encoder("minilm", chunk=True, devices=["cpu", "cpu"]) as multi:
        assert multi._by_batches  # the model declares its batches
        assert np.array_equal(multi.encode(texts), expected)
        assert np.array_equal(multi.encode(texts[:1]), expected[:1])  # one batch: 1 worker


@pytest.mark.slow
@pytest.mark.models
def test_a_transformers_model_on_workers_runs_the_same_batches(tmp_path: Path) -> None:
    """The same for a bare model folder (a tiny random BERT, mean pooling over the raw
    transformers model, 46-token budget): texts up to ~200 tokens, chunked."""
    from evaluators.encoders import get_encoder
    from tests.tiny_models import write_tiny_bert

    words = [f"w{i}" for i in range(60)]
    folder = write_tiny_bert(tmp_path / "bert", words)
    rng = np.random.default_rng(0)
    texts = [
        ". ".join(" ".join(rng.choice(words, size=int(k))) for k in rng.integers(2, 30, size=m))
        for m in rng.integers(1, 8, size=90)
    ]
    single = get_encoder(folder, chunk=True)
    assert single.items(texts)[1] is not None  # some texts are chunked
    expected = _workers_threads(single, texts)
    with get_encoder(folder, chunk=True, devices=["cpu", "cpu"]) as multi:
        assert multi._by_batches and multi.identity() == single.identity()
        assert np.array_equal(multi.encode(texts), expected)


def test_cli_devices_writes_the_results_of_one_device(demo_specs: list, tmp_path: Path) -> None:
    from evaluators.cli import main

    folder = demo_specs[0].dataset
    for name, extra in (("one", []), ("two", ["--devices", "cpu,cpu"])):
        main(
            [
                "run",
                "--no-progress",
                "--model",
                "function-words",
                "--dataset",
                folder,
                "--out",
                str(tmp_path / name),
                "--cache-dir",
                str(tmp_path / f"cache_{name}"),
                *extra,
            ]
        )

    from tests.scaling.results import result_payloads

    one, two = result_payloads(tmp_path / "one"), result_payloads(tmp_path / "two")
    assert len(one) == len(demo_specs) and one == two
