"""One CLI grammar (issue 16): `stylebench <family> <verb>` with build/run/report/list in
every family, the top-level STEB shortcuts as the same commands, old spellings kept, and
one build path per family (every spelling writes the same bytes)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from evaluators.cli import FAMILIES, SHORTCUTS, cli, main
from evaluators.cli import datasets as dataset_commands

VERBS = {"build", "run", "report", "list"}


def _error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    return capsys.readouterr().err.strip()


def test_help_lists_the_families_their_verbs_and_the_shortcuts() -> None:
    result = CliRunner().invoke(cli, ["--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    text = result.output
    families = text.split("Benchmark families")[1].split("Shortcuts")[0]
    for family in FAMILIES:
        line = next(x for x in families.splitlines() if x.strip().startswith(family + " "))
        assert all(verb in line for verb in VERBS), line
    shortcuts = text.split("Shortcuts")[1].split("Other commands")[0]
    for name, target in SHORTCUTS.items():
        assert any(
            x.split() and x.split()[0] == name and target in x for x in shortcuts.splitlines()
        )
    assert "score" not in text.split()  # hidden old spellings stay out of the help


def test_every_family_has_the_shared_verbs() -> None:
    for family in FAMILIES:
        group = cli.commands[family]
        assert set(group.commands) >= VERBS, (family, sorted(group.commands))
        assert group.list_commands(None)[:4] == ["build", "run", "report", "list"]


def test_shortcuts_are_the_steb_commands_themselves() -> None:
    steb = cli.commands["steb"]
    for name in ("run", "demo", "probing-build", "preview", "validate"):
        assert cli.commands[name] is steb.commands[name]
    # leaderboard: the same callback as `steb report`, under the old names
    assert cli.commands["leaderboard"].callback is steb.commands["report"].callback
    assert steb.commands["leaderboard"].callback is steb.commands["report"].callback


def test_every_build_spelling_calls_the_one_build_function(monkeypatch, tmp_path: Path) -> None:
    calls: list[tuple[list[str], dict]] = []
    monkeypatch.setattr(
        dataset_commands, "build_datasets", lambda ids, **kw: calls.append((ids, kw))
    )
    runner = CliRunner()
    for argv in (
        ["build", "arb/quartets", "--raw", str(tmp_path)],
        ["arb", "build", "--raw", str(tmp_path)],
        ["steb", "build", "--all"],
        ["valla", "build", "valla/ccat50"],
        ["styledisc", "build", "styledisc/ccat50", "--llm-n", "3"],
    ):
        result = runner.invoke(cli, argv, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    assert [(ids, kw["family"]) for ids, kw in calls] == [
        (["arb/quartets"], None),
        ([], "arb"),  # no id: the family's only dataset (resolved in build_datasets)
        ([], "steb"),
        (["valla/ccat50"], "valla"),
        (["styledisc/ccat50"], "styledisc"),
    ]
    assert calls[0][1]["raw"] == calls[1][1]["raw"] == tmp_path
    assert calls[2][1]["build_all"] is True
    assert calls[4][1].get("after") is None  # no --llm-generator: no LLM step


def test_old_spellings_keep_working() -> None:
    runner = CliRunner()
    old = runner.invoke(cli, ["arb", "score", "--help"])
    assert old.exit_code == 0 and "stylebench arb run" in old.output
    listed = runner.invoke(cli, ["arb", "--help"]).output.split("Commands:")[1]
    assert [line.split()[0] for line in listed.splitlines() if line.startswith("  ")] == [
        "build",
        "run",
        "report",
        "list",
        "generate",
    ]
    assert runner.invoke(cli, ["steb", "leaderboard", "--help"]).exit_code == 0
    styledisc = runner.invoke(cli, ["styledisc", "build", "--help"])
    assert "--corpora" not in styledisc.output  # hidden, still accepted (test below)


def test_family_build_refuses_another_familys_dataset(capsys) -> None:
    err = _error(capsys, ["steb", "build", "arb/quartets"])
    assert err == (
        "error: arb/quartets is a dataset of the arb family, not steb: "
        "`stylebench arb build arb/quartets` (or `stylebench build arb/quartets`)"
    )


def test_family_build_without_an_id_names_the_familys_datasets(capsys) -> None:
    err = _error(capsys, ["valla", "build"])
    assert err.startswith("error: give a dataset id or --all; valla datasets: ")
    assert "valla/ccat50" in err and "`stylebench valla list datasets`" in err


def test_family_lists() -> None:
    runner = CliRunner()

    def rows(argv: list[str]) -> list[list[str]]:
        result = runner.invoke(cli, [*argv, "--format", "json"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    arb_ids = {r["dataset"] for r in rows(["arb", "list", "datasets"])}
    assert arb_ids == {"arb/quartets"}
    valla_ids = {r["dataset"] for r in rows(["valla", "list", "datasets"])}
    assert "valla/ccat50" in valla_ids and all(i.startswith("valla/") for i in valla_ids)
    steb_ids = {r["dataset"] for r in rows(["steb", "list", "datasets"])}
    assert len(steb_ids) >= 96 and all(i.startswith("steb/") for i in steb_ids)
    every = {r["dataset"] for r in rows(["list", "datasets"])}
    assert steb_ids | arb_ids | valla_ids <= every
    detectors = [r["detector"] for r in rows(["arb", "list", "detectors"])]
    assert detectors[:5] == ["loglik", "logrank", "entropy", "fastdetectgpt", "binoculars"]
    assert [r["method"] for r in rows(["valla", "list", "methods"])] == [
        "ngram",
        "ppm",
        "bert",
        "siamese",
    ]
    metrics = [r["metric"] for r in rows(["styledisc", "list", "metrics"])]
    assert metrics[:5] == ["BLEU", "ROUGE1", "ROUGE2", "ROUGEL", "METEOR"]
    assert "Wegmann" in metrics and "emb:<encoder>" in metrics
    tasks = {r["task"] for r in rows(["steb", "list", "tasks"])}
    assert tasks == {r["task"] for r in rows(["list", "tasks"])} and "retrieval" in tasks


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.mark.slow
@pytest.mark.corpora
def test_build_spellings_write_identical_folders(corpora: Path, tmp_path: Path) -> None:
    """`stylebench build <id>` and `stylebench <family> build` (and the old style
    discrimination spelling) write the same bytes: card, build info and Parquet (the
    build info holds no timestamp)."""
    runner = CliRunner()

    def build(argv: list[str]) -> None:
        result = runner.invoke(cli, [*argv, "--no-register"], catch_exceptions=False)
        assert result.exit_code == 0, result.output

    build(["build", "arb/quartets", "--raw", str(corpora), "--out", str(tmp_path / "arb1")])
    build(["arb", "build", "--raw", str(corpora), "--out", str(tmp_path / "arb2")])
    arb = _files(tmp_path / "arb1")
    assert arb == _files(tmp_path / "arb2")
    assert {"README.md", "stylebench_build.json"} <= set(arb)
    card = arb["README.md"].decode()
    assert "This build (n texts, mean ± sd words):" in card and "### Quality flags" in card
    info = json.loads(arb["stylebench_build.json"])
    assert info["counts"] == {"quartets": {"train": 7021}}
    assert info["quality_flags"]["generated_texts"] == 5868  # Free-LLM, H2L, LLM2L rows
    assert info["quality_flags"]["flag_short"] == 99 == info["quality_flags"]["any_flag"]

    raw = str(corpora / "ccat50")
    build(["build", "styledisc/ccat50", "--raw", raw, "--out", str(tmp_path / "sd1")])
    build(["styledisc", "build", "styledisc/ccat50", "--raw", raw, "--out", str(tmp_path / "sd2")])
    old = ["styledisc", "build", "--corpora", str(corpora), "--domain", "ccat50"]
    build([*old, "--out", str(tmp_path / "root")])
    styledisc = _files(tmp_path / "sd1")
    assert len(styledisc) == 3 and "data/style_triplets/test-00000-of-00001.parquet" in styledisc
    assert styledisc == _files(tmp_path / "sd2") == _files(tmp_path / "root/styledisc__ccat50")


class _Counting:
    """A deterministic encoder that counts the texts it is asked to encode."""

    def __init__(self) -> None:
        self.encoded = 0

    def identity(self) -> dict:
        return {"kind": "counting-test-encoder"}

    def encode(self, texts):
        self.encoded += len(texts)
        return np.asarray([[len(t), t.count("a") + 1.0, 1.0] for t in texts], dtype=np.float32)


def test_style_embedding_metric_embeds_once_through_the_runner_cache(tmp_path: Path) -> None:
    from evaluators.metric_math import cosine_similarity_matrix
    from evaluators.styledisc.metrics import EmbeddingMetric

    refs, cands = ["a cat", "a cat", "banana"], ["a dog", "banana", "a cat"]
    scores = []
    for _ in range(2):
        metric = EmbeddingMetric("counting", cache_dir=tmp_path)
        metric._encoder = encoder = _Counting()
        scores.append(metric.similarity(refs, cands))
        if not scores[1:]:
            assert encoder.encoded == 3  # the unique texts, once
    assert encoder.encoded == 0  # the second metric read every vector from the cache
    vectors = _Counting().encode(refs + cands).astype(np.float64)
    expected = np.diag(cosine_similarity_matrix(vectors[:3], vectors[3:]))
    np.testing.assert_allclose(scores[0], expected, rtol=1e-12)
    np.testing.assert_array_equal(scores[0], scores[1])
    assert list(tmp_path.rglob("*.sqlite"))


def test_arb_semantic_similarity_embeds_once_through_the_runner_cache(
    monkeypatch, tmp_path: Path
) -> None:
    import evaluators.encoders
    from evaluators.cli import arb as arb_cli

    encoders: list[_Counting] = []
    monkeypatch.setattr(
        evaluators.encoders,
        "get_encoder",
        lambda spec: encoders.append(_Counting()) or encoders[-1],
    )
    texts = ["human text", "a rewrite", "human text", "another rewrite"]
    first = arb_cli._embedded("counting", texts, tmp_path)
    assert encoders[0].encoded == 3  # unique texts, once
    again = arb_cli._embedded("counting", texts, tmp_path)
    assert encoders[1].encoded == 0  # all from the cache
    np.testing.assert_array_equal(first.encode(texts[1:3]), again.encode(texts[1:3]))
    np.testing.assert_array_equal(first.encode(["a rewrite"]), _Counting().encode(["a rewrite"]))
    uncached = arb_cli._embedded("counting", texts, None)
    assert encoders[2].encoded == 3  # no cache: embedded again (once per unique text)
    np.testing.assert_array_equal(uncached.encode(texts), first.encode(texts))
