"""The rule for ``--backend``/``--precision`` in a run of several models
(evaluators/encoders/routing.py, ``BACKEND_OPTIONS``): an encoder that runs no model
(function words, TF-IDF, the random floor) ignores them with a warning and scores as
without them; the neural encoder of the same run takes them; an adapter that cannot run
a backend refuses it in one line."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.routing import BackendOptionIgnored
from tests.encoders.conftest import needs_torch

needs_onnx = pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("onnxruntime", "onnx")),
    reason="needs stylebench[fast]",
)

ROWS = {
    "ann": "she walked softly to the garden and poured the tea quietly reading her letter",
    "bob": "he drove the loud truck hard down the road and the engine was fast and it was late",
    "cyd": "we saw the market price rise and our shares fell in the quarter and profit was thin",
}


def _cli(argv: list[str]) -> None:
    from evaluators.cli import main

    try:
        main(argv)
    except SystemExit as stop:  # main() exits only on errors
        raise AssertionError(f"`stylebench {' '.join(argv)}` exited {stop.code}") from None


def _records(out: Path) -> dict[tuple[str, str], dict]:
    """``{(model name, task): result JSON}`` of every result under ``out``."""
    found = {}
    for path in sorted(out.rglob("*.json")):
        payload = json.loads(path.read_text())
        if "main_score" in payload:
            found[(payload["model"]["name"], payload["task"])] = payload
    return found


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rule")
    lines = []
    for author, sentence in ROWS.items():
        words = sentence.split()
        lines += [f"{author},{' '.join(words[i:] + words[:i])}" for i in range(5)]
    csv = root / "authors.csv"
    csv.write_text("author,text\n" + "\n".join(lines) + "\n")
    _cli(["build", "--from", str(csv), "--schema", "labelled_texts", "--label-column", "author",
          "--out", str(root / "built")])  # fmt: skip
    return root / "built"


@pytest.mark.slow
@needs_torch
@needs_onnx
def test_a_non_neural_model_ignores_the_backend_in_a_mixed_run(
    dataset: Path, tmp_path: Path
) -> None:
    from tests.tiny_models import write_tiny_bert

    words = sorted({w for s in ROWS.values() for w in s.split()})
    bert = write_tiny_bert(tmp_path / "bert", words)
    common = ["--dataset", str(dataset), "--no-cache", "--no-progress"]
    with pytest.warns(BackendOptionIgnored, match=r"function-words: backend onnx ignored"):
        _cli(["run", "--model", "function-words", "--model", f"hf:{bert}",
              "--backend", "onnx", "--out", str(tmp_path / "onnx"), *common])  # fmt: skip
    _cli(["run", "--model", "function-words", "--out", str(tmp_path / "plain"), *common])
    mixed, plain = _records(tmp_path / "onnx"), _records(tmp_path / "plain")
    words_tasks = {task for name, task in plain if name == "function-words"}
    assert words_tasks and {task for name, task in mixed if name == "function-words"} == words_tasks
    for task in words_tasks:  # the same scores, the same identity: it ran as always
        ours, theirs = mixed[("function-words", task)], plain[("function-words", task)]
        assert ours["main_score"] == theirs["main_score"]
        assert ours["model"]["identity"] == theirs["model"]["identity"]
        assert "backend" not in ours["model"]["identity"]
    neural = [p for (name, _), p in mixed.items() if name == f"hf:{bert}"]
    assert neural and all(p["model"]["identity"]["backend"] == "onnx" for p in neural)


def test_an_adapter_without_backends_refuses_one_in_one_line() -> None:
    from evaluators.encoders import get_encoder

    with pytest.warns(BackendOptionIgnored, match="random: backend openvino, precision int8"):
        get_encoder("random", backend="openvino", precision="int8", strict=True)
    with pytest.raises(StylebenchError, match=r"does not take the option 'backend'; backend,"):
        get_encoder("openai-embeddings:m@http://127.0.0.1:9/v1", backend="onnx")
