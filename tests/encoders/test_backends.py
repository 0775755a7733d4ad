"""Backends (onnx, openvino), precisions and token-budget batching of the st:/hf: encoders
(evaluators/encoders/backends.py, hf_pooling.FastEncodeMixin, base.length_sorted_batches)."""

from __future__ import annotations

import importlib.util
import itertools
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders import backends
from evaluators.encoders.base import (
    encoder_identity,
    identity_key,
    length_sorted_batches,
    prefetched,
)
from tests.encoders.conftest import TINY_WORDS, needs_minilm, needs_torch

HAS_RUNTIMES = all(
    importlib.util.find_spec(m) is not None for m in ("onnxruntime", "openvino", "onnx")
)
needs_runtimes = pytest.mark.skipif(not HAS_RUNTIMES, reason="needs stylebench[fast]")

TEXTS = [
    "the cat sat on the mat .",
    "a dog ran in the park and the cat sat there , very long text here with padding",
    "we ran !",
    "this is a short sentence",
    "they sat with the dog",
    "i",
    "one two three four five six seven eight nine ten one two three",
    "but that was it ?",
] * 3


# -- batching helpers (no model) -------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    lengths=st.lists(st.integers(min_value=0, max_value=300), max_size=60),
    budget=st.integers(min_value=1, max_value=2000),
)
def test_token_budget_batches_partition_and_respect_the_budget(
    lengths: list[int], budget: int
) -> None:
    texts = ["x"] * len(lengths)
    batches = list(length_sorted_batches(texts, 8, lengths=lengths, token_budget=budget))
    flat = [i for batch in batches for i in batch]
    assert sorted(flat) == list(range(len(lengths)))  # every text exactly once
    # longest first, stable among equal lengths
    assert flat == sorted(range(len(lengths)), key=lambda i: -lengths[i])
    for batch in batches:
        longest = max(1, max(lengths[i] for i in batch))
        assert len(batch) == 1 or len(batch) * longest <= budget
    # greedy: a batch stops only when the next text would overflow the budget
    for batch, _following in itertools.pairwise(batches):
        longest = max(1, lengths[batch[0]])
        assert (len(batch) + 1) * longest > budget


def test_fixed_count_batches_are_unchanged() -> None:
    rng = np.random.default_rng(0)
    texts = ["w" * int(n) for n in rng.integers(0, 40, size=101)]
    old = sorted(range(len(texts)), key=lambda i: -len(texts[i]))  # the former rule
    expected = [old[s : s + 7] for s in range(0, len(old), 7)]
    assert list(length_sorted_batches(texts, 7)) == expected
    with pytest.raises(ValueError, match="2 lengths for 3 texts"):
        list(length_sorted_batches(["a", "b", "c"], 2, lengths=[1, 2], token_budget=4))


def test_prefetched_prepares_the_next_batch_while_this_one_runs() -> None:
    batches = [[0, 1], [2], [3, 4, 5]]
    started = {i: threading.Event() for i in range(3)}
    threads: set[int] = set()

    def prepare(batch: list[int]) -> int:
        threads.add(threading.get_ident())
        started[batches.index(batch)].set()
        return sum(batch)

    seen = []
    for number, (batch, value) in enumerate(prefetched(batches, prepare)):
        if number + 1 < len(batches):  # the next batch is being prepared right now
            assert started[number + 1].wait(timeout=10)
        seen.append((batch, value))
    assert seen == [(b, sum(b)) for b in batches]
    assert threading.get_ident() not in threads
    assert list(prefetched([], prepare)) == []


def test_backend_and_precision_names() -> None:
    assert backends.check_backend(None, None) == ("torch", "fp32")
    assert backends.check_backend("ONNX", "float32") == ("onnx", "fp32")
    assert backends.check_backend("openvino", "bfloat16") == ("openvino", "bf16")
    with pytest.raises(StylebenchError, match="unknown backend 'tensorrt'"):
        backends.check_backend("tensorrt", None)
    with pytest.raises(StylebenchError, match="unknown precision 'int4'"):
        backends.check_backend("onnx", "int4")
    with pytest.raises(StylebenchError, match="int8 runs with --backend onnx"):
        backends.check_backend("torch", "int8")
    with pytest.raises(StylebenchError, match="fp16 runs with"):
        backends.check_backend("onnx", "fp16")


def test_min_cosine_matches_scipy() -> None:
    from scipy.spatial.distance import cosine

    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(9, 5)), rng.normal(size=(9, 5))
    expected = min(1 - cosine(x, y) for x, y in zip(a, b, strict=True))
    assert backends.min_cosine(a, b) == pytest.approx(expected, abs=1e-12)
    assert backends.min_cosine(a, a) == pytest.approx(1.0, abs=1e-12)


def test_token_budget_from_free_memory() -> None:
    # per token: 2 * 4 bytes * (6*384 + 1536 + 12*256) = 2 * 4 * 6912 = 55296 bytes
    budget = backends.token_budget_from_memory(
        10 * 2**30, hidden=384, intermediate=1536, heads=12, max_tokens=256
    )
    assert budget == (5 * 2**30) // 55296 == 97090
    half = backends.token_budget_from_memory(
        10 * 2**30, hidden=384, intermediate=1536, heads=12, max_tokens=256, bytes_per_value=2
    )
    assert half == (5 * 2**30) // 27648
    # never below one text of the model's length
    assert (
        backends.token_budget_from_memory(1000, hidden=8, intermediate=8, heads=1, max_tokens=64)
        == 64
    )


def test_run_config_passes_backend_and_strict_only_under_steb() -> None:
    from evaluators.run.service import RunConfig

    assert "backend" not in RunConfig().encoder_settings()
    assert "strict" not in RunConfig().encoder_settings()
    settings_ = RunConfig(backend="onnx", precision="int8").encoder_settings()
    assert settings_["backend"] == "onnx" and settings_["precision"] == "int8"
    assert settings_["strict"] is True
    other = RunConfig(backend="onnx", protocol="steb-strict").encoder_settings()
    assert "strict" not in other
    assert RunConfig(token_budget=4096).encoder_settings()["token_budget"] == 4096


# -- a tiny random BERT through hf: (export takes about a second) ----------------------


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> str:
    if importlib.util.find_spec("transformers") is None:
        pytest.skip("needs transformers")
    from tests.tiny_models import write_tiny_bert

    return write_tiny_bert(tmp_path_factory.mktemp("tiny-bert"), TINY_WORDS)


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("STYLEBENCH_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@needs_torch
@needs_runtimes
def test_onnx_and_openvino_match_torch_with_their_own_identity(
    tiny_bert: str, fresh_cache: Path
) -> None:
    from evaluators.encoders import get_encoder

    torch_encoder = get_encoder(f"hf:{tiny_bert}", batch_size=4)
    reference = torch_encoder.encode(TEXTS)
    identity = encoder_identity(torch_encoder)
    assert not {"backend", "precision", "runtime"} & set(identity)  # torch keys unchanged
    keys = {identity_key(identity)}
    for name in ("onnx", "openvino"):
        encoder = get_encoder(f"hf:{tiny_bert}", batch_size=4, backend=name, strict=True)
        vectors = encoder.encode(TEXTS)
        assert backends.min_cosine(reference, vectors) >= backends.TOLERANCE
        np.testing.assert_allclose(vectors, reference, atol=1e-5)
        assert encoder.probe_min_cosine >= backends.TOLERANCE
        info = encoder_identity(encoder)
        assert info["backend"] == name and info["precision"] == "fp32"
        assert info["runtime"].split()[0] == {"onnx": "onnxruntime", "openvino": "openvino"}[name]
        assert {
            k: v for k, v in info.items() if k not in {"backend", "precision", "runtime"}
        } == identity
        keys.add(identity_key(info))
    int8 = get_encoder(f"hf:{tiny_bert}", batch_size=4, backend="onnx", precision="int8")
    info = encoder_identity(int8)
    assert info["precision"] == "int8" and info["quantization"] == backends.QUANTIZATION
    assert backends.min_cosine(reference, int8.encode(TEXTS)) > 0.5  # close, not equal
    keys.add(identity_key(info))
    assert len(keys) == 4
    assert len(list(fresh_cache.glob("exports/*/model.onnx"))) == 1  # one export, all use it


@needs_torch
@needs_runtimes
def test_the_export_is_reused(
    tiny_bert: str, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import onnx
    import torch
    from onnxruntime.transformers import optimizer

    from evaluators.encoders import get_encoder

    encoder = get_encoder(f"hf:{tiny_bert}", backend="onnx")
    first = encoder.encode(TEXTS)
    # a BERT: the eager-attention export and its fused graph, which onnx runs
    files = sorted(fresh_cache.glob("exports/*/*.onnx"))
    assert [path.name for path in files] == ["model.eager.onnx", "model.fused.onnx"]
    fused_ops = {node.op_type for node in onnx.load(str(files[1])).graph.node}
    assert {"Attention", "SkipLayerNormalization", "EmbedLayerNormalization"} <= fused_ops
    assert encoder_identity(encoder)["runtime"].endswith(", fused graph")
    # the trace's eager attention is undone: the torch model runs as it was loaded
    plain = get_encoder(f"hf:{tiny_bert}").model.config._attn_implementation
    assert encoder.model.config._attn_implementation == plain
    stamps = [path.stat().st_mtime_ns for path in files]

    def no_export(*args: object, **kwargs: object) -> None:
        raise AssertionError("exported again")

    monkeypatch.setattr(torch.onnx, "export", no_export)
    monkeypatch.setattr(optimizer, "optimize_model", no_export)
    again = get_encoder(f"hf:{tiny_bert}", backend="onnx").encode(TEXTS)
    np.testing.assert_array_equal(first, again)
    assert [path.stat().st_mtime_ns for path in files] == stamps


@needs_torch
@needs_runtimes
def test_drift_beyond_the_tolerance_is_refused_only_under_strict(
    tiny_bert: str, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evaluators.encoders import get_encoder

    monkeypatch.setattr(backends, "TOLERANCE", 1.5)  # no real vectors reach a cosine of 1.5
    with pytest.raises(StylebenchError, match=r"backend onnx at fp32 drifts .*min cosine"):
        get_encoder(f"hf:{tiny_bert}", backend="onnx", strict=True)
    loose = get_encoder(f"hf:{tiny_bert}", backend="onnx")
    assert 0.99999 <= loose.probe_min_cosine <= 1.0 + 1e-9


@needs_torch
@needs_runtimes
def test_backends_never_share_a_cache_entry(tiny_bert: str, fresh_cache: Path) -> None:
    from evaluators.cache import EmbeddingCache
    from evaluators.encoders import get_encoder

    torch_encoder = get_encoder(f"hf:{tiny_bert}")
    onnx_encoder = get_encoder(f"hf:{tiny_bert}", backend="onnx")
    root = fresh_cache / "embeddings"
    store = EmbeddingCache(root, encoder_identity(torch_encoder))
    store.put_many(TEXTS[:8], torch_encoder.encode(TEXTS[:8]))
    assert len(store.get_many(TEXTS[:8])) == 8
    other = EmbeddingCache(root, encoder_identity(onnx_encoder))
    assert other.get_many(TEXTS[:8]) == {}  # nothing of torch's is served to onnx
    assert other.folder != store.folder
    store.close()
    other.close()


@needs_torch
def test_token_budget_batches_of_a_real_tokenizer(tiny_bert: str) -> None:
    from evaluators.encoders import get_encoder

    counted = get_encoder(f"hf:{tiny_bert}", batch_size=4)
    budgeted = get_encoder(f"hf:{tiny_bert}", batch_size=4, token_budget=40)
    groups = budgeted.forward_groups(TEXTS)
    padded = []
    for group in groups:
        ids = budgeted.tokenizer([TEXTS[i] for i in group], padding=True)["input_ids"]
        padded.append(len(group) * len(ids[0]))
    assert all(n <= 40 for n, g in zip(padded, groups, strict=True) if len(g) > 1)
    assert sorted(i for g in groups for i in g) == list(range(len(TEXTS)))
    assert len({len(g) for g in groups}) > 1  # short texts share bigger batches
    vectors = budgeted.encode(TEXTS)
    np.testing.assert_allclose(vectors, counted.encode(TEXTS), atol=1e-6)
    # one group through encode runs exactly that batch: the same bits (--devices relies on it)
    for group in groups:
        np.testing.assert_array_equal(budgeted.encode([TEXTS[i] for i in group]), vectors[group])


# -- the real MiniLM -------------------------------------------------------------------


@pytest.mark.models
@needs_minilm
def test_minilm_vectors_are_sentence_transformers_own_bit_for_bit(minilm: object) -> None:
    texts = [*TEXTS, "An entirely different, much longer sentence of a real register. " * 9]
    ours = minilm.encode(texts)
    theirs = minilm.model.encode(texts, batch_size=minilm.batch_size, convert_to_numpy=True)
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.models
@needs_minilm
@needs_runtimes
def test_minilm_onnx_is_within_the_tolerance_and_int8_is_refused_for_steb() -> None:
    from evaluators.encoders import get_encoder

    onnx = get_encoder("minilm", backend="onnx", strict=True)
    assert onnx.probe_min_cosine >= backends.TOLERANCE
    with pytest.raises(StylebenchError, match="int8 drifts"):
        get_encoder("minilm", backend="onnx", precision="int8", strict=True)


@pytest.fixture(scope="module")
def steb_tables(corpora: Path) -> dict:
    from dataset_scripts.registry import get_dataset
    from evaluators.data import Table

    tables = {}
    for hub_id, raw, rows in (
        ("steb/STEL_feature", "STEL", None),
        ("steb/bible_versions", "BibleVersions", 400),
    ):
        configs, _ = get_dataset(hub_id).builder(corpora / raw)
        (config, splits), *_ = configs.items()
        kept = splits["test"][:rows] if rows else splits["test"]
        tables[hub_id] = Table(hub_id, hub_id.split("/")[-1], config, "test", kept, "backend")
    return tables


@pytest.mark.models
@pytest.mark.corpora
@pytest.mark.slow
@needs_minilm
@needs_runtimes
def test_onnx_scores_equal_torch_scores_on_stel_and_bible(
    minilm: object, steb_tables: dict
) -> None:
    """Vectors within the tolerance give the same STEB scores (to 1e-4: a cosine moved by
    1e-5 can only swap near-tied pairs)."""
    from evaluators.encoders import get_encoder
    from evaluators.tasks import EmbeddingLookup, get_evaluator

    onnx = get_encoder("minilm", backend="onnx", strict=True)
    cases = [
        ("steb/STEL_feature", "order_alignment", "accuracy"),
        ("steb/bible_versions", "all_to_all_pairs", "auc"),
        ("steb/bible_versions", "clustering", "v_measure"),
    ]
    for hub_id, task, metric in cases:
        table = steb_tables[hub_id]
        evaluator = get_evaluator(task)
        texts = list(dict.fromkeys(evaluator.texts(table)))
        torch_vectors, onnx_vectors = minilm.encode(texts), onnx.encode(texts)
        assert backends.min_cosine(torch_vectors, onnx_vectors) >= backends.TOLERANCE
        torch_score = evaluator.evaluate(table, EmbeddingLookup(texts, torch_vectors))
        onnx_score = evaluator.evaluate(table, EmbeddingLookup(texts, onnx_vectors))
        assert onnx_score.metrics[metric] == pytest.approx(torch_score.metrics[metric], abs=1e-4)
