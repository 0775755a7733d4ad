"""STEB-nano (issue 32): the sub-sampling rule on small tables (fast), the declaration, and
on the real corpora: nano folders written from the full builds give ``stylebench run
--benchmark nano`` the numbers of ``StebEvaluator("nano")``, and those results go through
``stylebench results add`` and ``stylebench push --kind model-results``."""

from __future__ import annotations

import importlib.util
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from evaluators.benchmarks import NANO_DATASETS, NANO_SEED, get_benchmark, nano_id
from evaluators.nano import sample_rows

HAS_ST = all(importlib.util.find_spec(m) is not None for m in ("torch", "sentence_transformers"))


def _labelled(n_per: dict[str, int]) -> list[dict]:
    rows = [
        {"id": f"{c}{i}", "text": f"{c} {i}", "label": c}
        for c, n in n_per.items()
        for i in range(n)
    ]
    random.Random(3).shuffle(rows)
    return rows


def test_labels_capped_in_order_and_seeded() -> None:
    rows = _labelled({"a": 30, "b": 5, "c": 12})
    kept = sample_rows(rows, "labelled_texts", 10)
    assert Counter(r["label"] for r in kept) == {"a": 10, "b": 5, "c": 10}
    positions = [rows.index(r) for r in kept]
    assert positions == sorted(positions)  # the built order is kept
    assert kept == sample_rows(rows, "labelled_texts", 10, NANO_SEED)
    assert kept != sample_rows(rows, "labelled_texts", 10, NANO_SEED + 1)
    # the draw is random.Random(seed) over each class in sorted order, as documented
    rng = random.Random(NANO_SEED)
    expected = set()
    for label in ("a", "b", "c"):
        members = [i for i, r in enumerate(rows) if r["label"] == label]
        expected |= set(rng.sample(members, min(10, len(members))))
    assert positions == sorted(expected)


def test_groups_authors_and_probing_rows() -> None:
    seqs = [
        {"id": str(i), "group": "g" + str(i % 3), "texts": ["x", "y"], "styles": ["1", "2"]}
        for i in range(30)
    ]
    assert Counter(r["group"] for r in sample_rows(seqs, "style_sequences", 4)) == {
        "g0": 4, "g1": 4, "g2": 4,
    }  # fmt: skip
    units = [
        {"id": f"{a}{role}{k}", "author": a, "role": role, "texts": ["t"]}
        for a in "abcdefg"
        for role, k in (("query", 0), ("query", 1), ("target", 0))
    ] + [{"id": "z", "author": "z", "role": "query", "texts": ["t"]}]  # no target: never drawn
    kept = sample_rows(units, "retrieval", 3)
    authors = {r["author"] for r in kept}
    assert len(authors) == 3 and "z" not in authors
    assert all(sum(r["author"] == a for r in kept) == 3 for a in authors)  # all their rows
    probing = [{"id": str(i), "text": "t", "label_x": "1", "split_x": "train"} for i in range(50)]
    assert len(sample_rows(probing, "probing", 20)) == 20
    with pytest.raises(Exception, match="at least 1"):
        sample_rows(probing, "probing", 0)


def test_declaration_units_follow_the_sources() -> None:
    nano = get_benchmark("nano")
    assert nano.key == "STEB-nano(v1)" and get_benchmark("STEB-nano") == nano
    assert set(nano.datasets) == {nano_id(s) for s, _ in NANO_DATASETS}
    tasks = {t for _, t in nano.units}
    assert tasks == {
        "clustering",
        "all_to_all_pairs",
        "predefined_pairs",
        "order_alignment",
        "retrieval",
    }
    # each nano dataset serves exactly the tasks its STEB source declares
    from dataset_scripts.registry import all_datasets

    specs = all_datasets()
    for source, _ in NANO_DATASETS:
        served = {t for d, t in nano.units if d == nano_id(source)}
        assert served == set(specs[source].task_types), source
    # nano results never count as units of the full benchmark
    assert not set(nano.units) & set(get_benchmark("steb").units)


# -- on the real corpora ---------------------------------------------------------------

WORDS = ["the", "a", "of", "and", "to", "in", "is", "was", "it", "that"]


@pytest.fixture(scope="module")
def nano_sources(corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The eight STEB datasets of STEB-nano built from ../shared/corpora."""
    from click.testing import CliRunner

    from dataset_scripts.registry import all_datasets
    from evaluators.cli import cli

    specs = all_datasets()
    built = tmp_path_factory.mktemp("built")
    for source, _ in NANO_DATASETS:
        spec = specs[source]
        target = f"{spec.repo}:{spec.config}" if spec.config else source
        done = CliRunner().invoke(
            cli,
            ["build", target, "--raw", str(corpora / spec.raw_hint), "--built-root", str(built),
             "--no-register"],
            catch_exceptions=False,
        )  # fmt: skip
        assert done.exit_code == 0, done.output
    return built


@pytest.mark.corpora
@pytest.mark.slow
@pytest.mark.skipif(not HAS_ST, reason="needs torch and sentence-transformers")
def test_nano_run_equals_evaluator_and_pushes(nano_sources: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner
    from sentence_transformers import SentenceTransformer, models

    from dataset_scripts.registry import all_datasets
    from evaluators.cli import cli
    from evaluators.nano import nano_tables, write_nano
    from evaluators.records.record import load_record
    from evaluators.training import StebEvaluator
    from tests.tiny_models import write_tiny_bert

    word = models.Transformer(write_tiny_bert(tmp_path / "bert", WORDS), max_seq_length=40)
    pooling = models.Pooling(word.get_embedding_dimension(), "mean")
    model = SentenceTransformer(modules=[word, pooling], device="cpu")
    model.save(str(tmp_path / "st"))
    model = SentenceTransformer(str(tmp_path / "st"), device="cpu")

    tables = nano_tables(nano_sources)
    caps = dict(NANO_DATASETS)
    for source, cap in caps.items():
        table = tables[nano_id(source)]
        column = {"labelled_texts": "label", "text_pairs": "label", "style_sequences": "group"}
        if table.kind in column:
            assert max(Counter(r[column[table.kind]] for r in table.rows).values()) <= cap
        else:
            assert len({r["author"] for r in table.rows}) == cap
    evaluator = StebEvaluator("nano", built_root=nano_sources, model_name="org/tiny",
                              results_dir=tmp_path / "evals")  # fmt: skip
    metrics = evaluator(model)
    assert evaluator.primary_metric == "steb_nano_primary_mean_main_score"
    assert len(evaluator.last_records) == len(get_benchmark("nano").units) == 11
    assert metrics["steb_nano_coverage"] == 1.0
    # the card's model-index names the Hub datasets the nano tables sample
    index = evaluator.model_index_results()
    assert {r["dataset"]["type"] for r in index} == {
        all_datasets()[s].repo for s, _ in NANO_DATASETS
    }
    assert all(r["dataset"]["args"]["benchmark"] == "STEB-nano(v1)" for r in index)

    nano_root = tmp_path / "nano"
    assert len(write_nano(nano_sources, nano_root)) == len(NANO_DATASETS)
    done = CliRunner().invoke(
        cli,
        ["run", "--model", f"st:{tmp_path / 'st'}", "--benchmark", "nano", "--built-root",
         str(nano_root), "--out", str(tmp_path / "out"), "--no-cache", "--no-progress"],
        catch_exceptions=False,
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    cli_scores = {
        (r.dataset_id, r.task): r.main_score
        for r in map(load_record, (tmp_path / "out").rglob("*.json"))
    }
    assert set(cli_scores) == set(get_benchmark("nano").units)
    for record in evaluator.last_records:
        key = (record.dataset.id, record.task)
        assert record.main_score == pytest.approx(cli_scores[key], abs=1e-9, rel=0)
    assert metrics[evaluator.primary_metric] == pytest.approx(
        get_benchmark("nano").aggregate(cli_scores).value, abs=1e-12
    )

    # some sources not built: the units that are run, the primary metric over them
    partial = tmp_path / "partial"
    partial.mkdir()
    folders = sorted(p for p in nano_sources.iterdir() if p.is_dir())[:2]
    for folder in folders:
        (partial / folder.name).symlink_to(folder, target_is_directory=True)
    some = StebEvaluator("nano", built_root=partial, model_name="org/tiny")
    assert 0 < len(some.units) < 11
    got = some(model)
    assert got["steb_nano_coverage"] == pytest.approx(len(some.units) / 11)
    by_task: dict[str, list[float]] = {}
    for dataset, task in some.units:
        by_task.setdefault(task, []).append(cli_scores[(dataset, task)])
    expected = sum(sum(v) / len(v) for v in by_task.values()) / len(by_task)
    assert got[some.primary_metric] == pytest.approx(expected, abs=1e-12)

    # the evaluator's records -> a results repository -> the model repo's eval results
    meta = tmp_path / "meta.json"
    meta.write_text(json.dumps({"name": "org/tiny", "revision": "step-final"}), encoding="utf-8")
    repo = tmp_path / "repo"
    added = CliRunner().invoke(
        cli,
        ["results", "add", str(tmp_path / "evals" / "final"), "--repo", str(repo),
         "--model-meta", str(meta), "--benchmark", "nano"],
        catch_exceptions=False,
    )  # fmt: skip
    assert added.exit_code == 0, added.output
    from evaluators.publish import plan_push

    plan = plan_push(str(repo), kind="model-results", model="org/tiny")
    assert plan.files == (".eval_results/STEB-nano_v1.yaml",)
    import yaml

    entries = yaml.safe_load((plan.folder / plan.files[0]).read_text(encoding="utf-8"))
    assert len(entries) == 11
    values = sorted(e["value"] for e in entries)
    mine = sorted(
        metrics[f"steb_nano_{r.dataset.id.split('/')[-1]}_{r.task}_"
                f"{r.main_score_name}"]
        for r in evaluator.last_records
    )  # fmt: skip
    assert values == pytest.approx([100 * m for m in mine], abs=1e-4)  # in %, 4 decimals
