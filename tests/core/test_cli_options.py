"""The CLI's option groups (evaluators/cli/options.py) and what they hand the commands:
the cache rule, the sampling rule, the seed default, and every option of ``stylebench
run`` / ``detect run`` reaching the RunConfig / the detection calls unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from evaluators.cli import main
from evaluators.cli.options import cache_options, group, packed, sampling_options, seed_option
from evaluators.metric_math.resampling import DEFAULT_SEED
from evaluators.tasks.episodes import DEFAULT_SAMPLING, Sampling


class _Stop(Exception):
    """Raised by a stand-in to end a command once its inputs are captured."""


def _probe(given: dict[str, Any]) -> click.Command:
    """A command with the shared groups; its callback stores what it was given."""

    @click.command()
    @click.option("--first")
    @cache_options("The cache.")
    @seed_option
    @sampling_options("Episode size.", "Per class.", "N|auto")
    @click.option("--last", is_flag=True)
    def probe(**values: Any) -> None:
        given.clear()
        given.update(values)

    return probe


def _given(argv: list[str]) -> dict[str, Any]:
    given: dict[str, Any] = {}
    result = CliRunner().invoke(_probe(given), argv)
    assert result.exit_code == 0, result.output
    return given


def test_groups_keep_their_options_in_order_and_hand_over_one_value(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    probe = _probe({})
    names = [p.name for p in probe.params]
    assert names == ["first", "cache_dir", "no_cache", "seed", "episode_size", "per_class", "last"]
    monkeypatch.setenv("STYLEBENCH_CACHE", str(tmp_path / "home"))
    assert _given([]) == {
        "first": None,
        "cache_dir": tmp_path / "home" / "embeddings",
        "seed": DEFAULT_SEED,
        "sampling": DEFAULT_SAMPLING,
        "last": False,
    }
    given = _given(["--cache-dir", str(tmp_path / "c"), "--seed", "7", "--episode-size", "4"])
    assert given["cache_dir"] == tmp_path / "c" and given["seed"] == 7
    assert given["sampling"] == Sampling(4, None)
    assert _given(["--no-cache", "--cache-dir", "x", "--per-class", "auto"])["cache_dir"] is None
    assert _given(["--per-class", "auto"])["sampling"] == Sampling(None, "auto")


def test_packed_and_group_pass_the_values_through_build() -> None:
    @click.command()
    @group("pair", lambda a, b: (a, b), [click.option("--a"), click.option("--b")])
    @click.option("--c")
    @packed("cd", lambda c, d: f"{c}-{d}", "c", "d")
    @click.option("--d")
    def cmd(pair: tuple[str, str], cd: str) -> None:
        click.echo(f"{pair} {cd}")

    assert [p.name for p in cmd.params] == ["a", "b", "c", "d"]
    result = CliRunner().invoke(cmd, ["--a", "1", "--b", "2", "--c", "3", "--d", "4"])
    assert result.output == "('1', '2') 3-4\n", result.output


def test_run_options_reach_the_run_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from evaluators.run import service

    seen: dict[str, Any] = {}

    def plan(refs: list[str], config: Any) -> list[Any]:
        seen.update(refs=refs, config=config)
        raise _Stop

    monkeypatch.setattr(service, "plan", plan)
    corpus = tmp_path / "fit.txt"
    corpus.write_text("a text\n", encoding="utf-8")
    argv = ["run", "--model", "function-words", "--dataset", "d1", "--dataset", "d2",
            "--no-resume", "--tasks", "classification, pairs", "--out", str(tmp_path / "o"),
            "--cache-dir", str(tmp_path / "c"), "--seed", "9", "--protocol", "steb-strict",
            "--sentence-splitter", "regex", "--fit-corpus", str(corpus), "--batch-size", "4",
            "--device", "cpu", "--backend", "onnx", "--precision", "int8",
            "--episode-size", "3", "--per-class", "auto", "--submetric", "g=a,b",
            "--no-progress"]  # fmt: skip
    with pytest.raises(_Stop):
        main(argv)
    config = seen["config"]
    assert seen["refs"] == ["d1", "d2"]
    expected = service.RunConfig(
        seed=9,
        protocol="steb-strict",
        sampling=Sampling(3, "auto"),
        submetrics={"g": ["a", "b"]},
        tasks=("classification", "pairs"),
        chunk="regex",
        batch_size=4,
        device="cpu",
        devices=None,
        backend="onnx",
        precision="int8",
        fit_corpus=corpus,
        cache_dir=tmp_path / "c",
        out_dir=tmp_path / "o",
        resume=False,
        progress=False,
    )
    assert config == expected
    # the defaults: spaCy chunking, the shared cache, every task, resume on
    monkeypatch.setenv("STYLEBENCH_CACHE", str(tmp_path / "home"))
    with pytest.raises(_Stop):
        main(["run", "--model", "m", "--dataset", "d", "--truncate", "--no-cache"])
    assert seen["config"].chunk is False and seen["config"].cache_dir is None
    with pytest.raises(_Stop):
        main(["run", "--model", "m", "--dataset", "d"])
    config = seen["config"]
    assert (config.chunk, config.cache_dir, config.tasks, config.resume, config.seed) == (
        True,
        tmp_path / "home" / "embeddings",
        None,
        True,
        DEFAULT_SEED,
    )
    assert config.sampling == DEFAULT_SAMPLING and config.batch_size == 32


def test_detect_run_options_reach_the_loader_and_the_detectors(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import evaluators.detect.data as data
    import evaluators.detect.run as run

    seen: dict[str, Any] = {}
    load = data.load_detection_set

    def loader(source: str, **kwargs: Any) -> Any:
        seen["load"] = kwargs
        return load(source, **kwargs)

    def detection(dataset: Any, detectors: Any, out: Any, **kwargs: Any) -> Any:
        seen["run"] = kwargs
        raise _Stop

    monkeypatch.setattr(data, "load_detection_set", loader)
    monkeypatch.setattr(run, "run_detection", detection)
    rows = ["text,label,domain,gen"] + [
        f"text number {i},{'human' if i % 2 else 'machine'},d{i % 3},g{i % 2}" for i in range(24)
    ]
    csv = tmp_path / "set.csv"
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    argv = ["detect", "run", "--data", str(csv), "--detector", "tfidf", "--label-column",
            "label", "--group-column", "gen", "--sample", "20", "--seed", "5", "--protocol",
            "raid", "--model", "lm", "--reference", "ref", "--hf-machine-class", "1",
            "--max-tokens", "64", "--batch-size", "2", "--device", "cpu", "--duplicates",
            "together", "--conflicts", "keep", "--domain-column", "domain", "--resamples",
            "50", "--train-fraction", "0.25", "--out", str(tmp_path / "o"), "--no-progress"]  # fmt: skip
    with pytest.raises(_Stop):
        main(argv)
    assert seen["load"] == {
        "seed": 5,
        "text_column": "text",
        "label_column": "label",
        "group_columns": ("domain", "gen"),  # --protocol raid puts the domain column first
        "id_column": None,
        "split_column": None,
        "split_by": None,
        "sample": 20,
        "split": None,
        "machine_label": None,
        "human_label": None,
        "duplicates": "together",
        "conflicts": "keep",
    }
    kwargs = seen["run"]
    assert kwargs["detector_options"] == {
        "model": "lm",
        "reference": "ref",
        "max_tokens": 64,
        "batch_size": 2,
        "device": "cpu",
        "machine_label": "1",
    }
    assert (kwargs["batch_size"], kwargs["seed"], kwargs["n_resamples"]) == (2, 5, 50)
    assert (kwargs["fprs"], kwargs["train_fraction"], kwargs["protocol"]) == (
        (0.05, 0.01),
        0.25,
        "raid",
    )
    assert kwargs["domain_column"] == "domain" and kwargs["progress"] is False
