"""The embed-once runner, its cache and the result files, on a built Hub-style folder."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dataset_scripts.core.hub_folder import write_hub_folder
from dataset_scripts.core.spec import DatasetSpec
from evaluators.run.runner import Runner, plan_tasks


class CountingEncoder:
    """A deterministic toy encoder (character statistics) that counts what it encodes."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.encoded: list[str] = []
        self.fail_after = fail_after

    def identity(self) -> dict:
        return {"name": "counting-toy", "version": 1}

    def encode(self, texts: list[str]) -> np.ndarray:
        if self.fail_after is not None and len(self.encoded) + len(texts) > self.fail_after:
            raise KeyboardInterrupt("simulated kill")
        self.encoded.extend(texts)
        return np.array(
            [
                [len(t), t.count("!"), sum(c.isupper() for c in t), t.count(" "), t.count("'") + 1]
                for t in texts
            ],
            dtype=np.float32,
        )


def _spec() -> DatasetSpec:
    return DatasetSpec(
        "test/toy",
        "toy",
        "toy data",
        lambda raw: ({}, {}),
        "mit",
        "none",
        "",
        "none",
        needs_raw=False,
    )


@pytest.fixture()
def toy_folder(tmp_path: Path) -> Path:
    plain = [f"the cat number {i} sat on the mat" for i in range(12)]
    shout = [s.upper() + "!!!" for s in plain]
    contracted = [s.replace("the cat", "it's the cat") for s in plain]
    labelled = [
        {"id": f"{lab}-{i}", "text": t, "label": lab}
        for lab, texts in (("plain", plain), ("shout", shout), ("contr", contracted))
        for i, t in enumerate(texts)
    ]
    sequences = [
        {
            "id": f"s{i}",
            "group": "shout",
            "texts": [shout[i], plain[i]],
            "styles": ["shout", "plain"],
        }
        for i in range(12)
    ]
    sequences += [
        {"id": f"c{i}", "group": "contr", "texts": [contracted[i], plain[i]], "styles": ["c", "p"]}
        for i in range(12)
    ]
    tables = {"labelled_texts": {"test": labelled}, "style_sequences": {"test": sequences}}
    return write_hub_folder(_spec(), tables, tmp_path / "toy")


def test_three_tasks_embed_each_unique_text_once(toy_folder: Path, tmp_path: Path) -> None:
    specs = plan_tasks([str(toy_folder)])
    assert sorted(s.task_type for s in specs) == [
        "all_to_all_pairs",
        "clustering",
        "order_alignment",
    ]
    encoder = CountingEncoder()
    runner = Runner(
        encoder, "toy", cache_dir=tmp_path / "cache", out_dir=tmp_path / "out", progress=False
    )
    records = runner.run(specs)
    unique = 36  # 12 plain + 12 shout + 12 contracted, shared by the three tasks
    assert len(encoder.encoded) == unique == len(set(encoder.encoded))
    assert len(records) == len(specs)
    assert all(
        r.embedding["unique_texts"] == unique and r.embedding["texts_encoded"] == unique
        for r in records
    )
    payload = json.loads(records[0].path.read_text())
    for key in (
        "main_score",
        "metrics",
        "counts",
        "seed",
        "versions",
        "timings",
        "embedding",
        "model",
    ):
        assert key in payload
    assert payload["embedding"]["texts_encoded"] == unique
    assert set(payload["timings"]) == {"encode_seconds", "evaluation_seconds"}

    again = CountingEncoder()
    records2 = Runner(
        again, "toy", cache_dir=tmp_path / "cache", out_dir=tmp_path / "out2", progress=False
    ).run(specs)
    assert again.encoded == []  # all from cache
    assert [r.metrics for r in records2] == [r.metrics for r in records]


def test_killed_run_resumes_without_reembedding(toy_folder: Path, tmp_path: Path) -> None:
    specs = plan_tasks([str(toy_folder)], ["clustering"])
    killed = CountingEncoder(fail_after=20)
    runner = Runner(killed, "toy", cache_dir=tmp_path / "cache", commit_every=8, progress=False)
    with pytest.raises(KeyboardInterrupt):
        runner.run(specs)
    assert len(killed.encoded) == 16  # two committed batches of 8
    resumed = CountingEncoder()
    Runner(resumed, "toy", cache_dir=tmp_path / "cache", commit_every=8, progress=False).run(specs)
    assert len(resumed.encoded) == 36 - 16
    assert not set(resumed.encoded) & set(killed.encoded)


def test_identity_separates_cache(toy_folder: Path, tmp_path: Path) -> None:
    specs = plan_tasks([str(toy_folder)], ["clustering"])
    Runner(CountingEncoder(), "toy", cache_dir=tmp_path / "cache", progress=False).run(specs)

    class Other(CountingEncoder):
        def identity(self) -> dict:
            return {"name": "counting-toy", "version": 2}

    other = Other()
    Runner(other, "toy", cache_dir=tmp_path / "cache", progress=False).run(specs)
    assert len(other.encoded) == 36


def test_same_seed_same_scores_different_seed_runs(toy_folder: Path) -> None:
    specs = plan_tasks([str(toy_folder)], ["clustering"])
    a = Runner(CountingEncoder(), "toy", seed=1, progress=False).run(specs)[0]
    b = Runner(CountingEncoder(), "toy", seed=1, progress=False).run(specs)[0]
    assert a.metrics == b.metrics and a.seed == 1


def test_resume_reuses_matching_results(toy_folder: Path, tmp_path: Path) -> None:
    specs = plan_tasks([str(toy_folder)])
    first = Runner(CountingEncoder(), "toy", out_dir=tmp_path / "out", progress=False).run(specs)
    again = CountingEncoder()
    resumed = Runner(again, "toy", out_dir=tmp_path / "out", progress=False).run(specs, resume=True)
    assert again.encoded == []  # every task was done: nothing embedded, nothing evaluated
    assert len(resumed) == len(first) and all(r.resumed for r in resumed)
    assert [r.metrics for r in resumed] == [r.metrics for r in first]
    other_seed = CountingEncoder()
    Runner(other_seed, "toy", out_dir=tmp_path / "out", seed=7, progress=False).run(
        specs, resume=True
    )
    assert len(other_seed.encoded) == 36  # a different seed is a different result
