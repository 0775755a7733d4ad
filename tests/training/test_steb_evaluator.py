"""StebEvaluator in sentence-transformers training (issue 32): a tiny random model trained
a few steps with ``SentenceTransformerTrainer``; the evaluator's metrics in the trainer's
logs at every evaluation, the best checkpoint chosen by its primary metric, the metrics in
the saved model card; the same numbers as ``stylebench run --model st:<saved model>``."""

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
    from evaluators.results.record import load_record
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
        cli = written[(record.extra["id"], record.result.task_type)]
        assert record.result.main_score == pytest.approx(cli.main_score, abs=1e-9, rel=0)
        for key, value in record.result.metrics.items():
            if isinstance(value, int | float):
                assert value == pytest.approx(cli.metrics[key], abs=1e-9, rel=0), key
        short = record.extra["id"].split("/")[-1]
        assert metrics[f"stylebench_{record.result.task_type}_{short}"] == record.result.main_score
    by_task: dict[str, list[float]] = {}
    for (_, task), r in written.items():
        by_task.setdefault(task, []).append(r.main_score)
    expected = sum(sum(v) / len(v) for v in by_task.values()) / len(by_task)
    assert metrics[evaluator.primary_metric] == pytest.approx(expected, abs=1e-12)
    assert evaluator.primary_metric == "stylebench_score" and evaluator.greater_is_better


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
            "eval_style_score", "eval_style_clustering", "eval_style_all_to_all_pairs",
            "eval_style_predefined_pairs", "eval_style_clustering_styles",
            "eval_style_all_to_all_pairs_styles", "eval_style_predefined_pairs_pairs",
        }  # fmt: skip
        tasks = ("clustering", "all_to_all_pairs", "predefined_pairs")  # one dataset each
        assert entry[key] == pytest.approx(sum(entry[f"eval_style_{t}"] for t in tasks) / 3)
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
    assert not list((tmp_path / "run").rglob("*evaluation_results.csv"))
    trainer.model.save(str(tmp_path / "final"))
    card = (tmp_path / "final" / "README.md").read_text(encoding="utf-8")
    assert "stylebench datasets(local)" in card
    for metric in ("score", "clustering_styles", "predefined_pairs_pairs"):
        assert metric in card
    assert f"**{round(max(scores), 4)}**" in card  # the primary metric, bold, as ST's own
    metadata = json.dumps(card.split("---")[1])
    assert "model-index" in metadata
