"""Every tab's named API endpoint through ``gradio_client`` against the running Space, and the
abuse cases: each gets a clear one-line message and the Space keeps serving."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.space.conftest import SpaceServer

pytestmark = pytest.mark.slow

DEMO = "stylebench/demo (embedded demo suite)"
ENDPOINTS = {
    "/run_embedding",
    "/leaderboard",
    "/evaluate_detector",
    "/score_text",
    "/compute_metric",
    "/metric_info",
    "/list_datasets",
    "/dataset_details",
}
PATH_LIKE = re.compile(r"/(?:tmp|home|work|usr|etc)/")


def _message(client, *args, api_name: str) -> str:
    """The error message a call produces (fails if the call succeeds)."""
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError) as info:
        client.predict(*args, api_name=api_name)
    message = str(info.value)
    assert "Traceback" not in message and not PATH_LIKE.search(message), message
    return message


def test_named_endpoints(client) -> None:
    api = client.view_api(print_info=False, return_format="dict")
    assert set(api["named_endpoints"]) >= ENDPOINTS


# function-words on the demo suite, computed with evaluators.run.runner.Runner on the same built
# folder (``stylebench demo`` gives the same numbers): the Space must not compute its own.
# STEB's function-word list and retrieval over every match (issue 19), as the CLI runner gives
# retrieval: the authors' episode size -1 by default (issue 33)
GOLDEN_FUNCTION_WORDS = {("all_to_all_pairs", "auc"): 0.5032, ("retrieval", "mrr"): 0.3929}


def test_run_embedding(client) -> None:
    table, chart, summary = client.predict(
        "function-words", [DEMO], "", ["all_to_all_pairs", "retrieval"], api_name="/run_embedding"
    )
    assert table["headers"] == ["dataset", "task", "metric", "score", "evaluated on"]
    scores = {(row[1], row[2]): row[3] for row in table["data"]}
    assert scores == pytest.approx(GOLDEN_FUNCTION_WORDS, abs=1e-4), summary
    assert {row[0] for row in table["data"]} == {"stylebench/demo"}
    assert table["data"][0][4] == "texts=480, pairs=114960"
    assert Path(chart).stat().st_size > 5_000
    assert "2 task(s)" in summary
    message = _message(client, "function-words", [], "", [], api_name="/run_embedding")
    assert "choose at least one dataset" in message


def test_leaderboard(client) -> None:
    from evaluators.steb_scores.reference import view_reference

    table, caption = client.predict("operational", api_name="/leaderboard")
    assert table["headers"][:3] == ["rank", "model", "steb_score"]
    reference = view_reference("operational")
    best = max(reference, key=lambda m: reference[m]["steb_score"])
    assert table["data"][0][1] == best
    assert table["data"][0][2] == pytest.approx(100 * reference[best]["steb_score"], abs=0.01)
    assert len(table["data"]) == len(reference)
    assert "Table 6" in caption


def test_compute_metric_against_sklearn(client, tmp_path: Path) -> None:
    from sklearn.metrics import roc_auc_score

    scores, labels = [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.5], [0, 0, 1, 1, 0, 1, 0]
    result = client.predict(
        "auroc",
        ", ".join(map(str, scores)),
        " ".join(map(str, labels)),
        "",
        None,
        api_name="/compute_metric",
    )
    assert result["auroc"] == pytest.approx(roc_auc_score(labels, scores))
    # the same through a CSV upload
    from gradio_client import handle_file

    csv = tmp_path / "values.csv"
    csv.write_text(
        "predictions,references\n"
        + "".join(f"{s},{y}\n" for s, y in zip(scores, labels, strict=True))
    )
    result = client.predict("auroc", "", "", "", handle_file(str(csv)), api_name="/compute_metric")
    assert result["auroc"] == pytest.approx(roc_auc_score(labels, scores))
    # TPR@FPR by hand: negatives 0.1 0.2 0.4 0.5; fpr <= 0.25 allows one -> threshold 0.8 (tpr 2/3)
    result = client.predict(
        "tpr_at_fpr",
        "0.1 0.4 0.35 0.8 0.2 0.9 0.5",
        "0 0 1 1 0 1 0",
        '{"fpr": 0.25}',
        None,
        api_name="/compute_metric",
    )
    assert result["tpr"] == pytest.approx(2 / 3)
    assert result["threshold"] == pytest.approx(0.8)
    assert result["achieved_fpr"] == 0.0


def test_metric_info(client) -> None:
    info, options = client.predict("v_measure", api_name="/metric_info")
    assert "V-measure" in info or "v_measure" in info
    assert options == ""


def test_dataset_browser(client) -> None:
    table = client.predict("demo", api_name="/list_datasets")
    rows = {row[0]: row for row in table["data"]}
    assert rows["stylebench/demo"][2] == "built here"
    assert "clustering" in rows["stylebench/demo"][3]
    full = client.predict("", api_name="/list_datasets")
    from dataset_scripts.registry import all_datasets

    assert len(full["data"]) == len(all_datasets())
    card, preview = client.predict("stylebench/demo", api_name="/dataset_details")
    assert card.startswith("# stylebench demo suite")
    assert "**labelled_texts / test** (480 rows)" in preview
    assert preview.count("| plain-") >= 1


def test_detector_endpoints(client) -> None:
    from stylebench_space.backends import arb_backend, detector_names

    backend = arb_backend()
    if backend.available:
        message = _message(client, "no-such-detector", "Some text.", "", api_name="/score_text")
        names = [n for n, _ in detector_names(backend)]
        assert message == f"unknown detector 'no-such-detector'; available: {', '.join(names)}"
    else:
        message = _message(client, "fast-detectgpt", "Some text.", "", api_name="/score_text")
        assert "ARB detectors are not part of this build" in message
    message = _message(client, "any", "Some text.", "high", api_name="/score_text")
    assert message == "the threshold 'high' is not a number"


# ------------------------------------------------------------------------------------ abuse


def test_over_long_text(client) -> None:
    message = _message(client, "any", "x" * 6_000, "0.5", api_name="/score_text")
    assert "6,000 characters; the limit is 5,000" in message


def test_malformed_csv(client, tmp_path: Path) -> None:
    from gradio_client import handle_file

    bad = tmp_path / "bad.csv"
    bad.write_text("predictions,references\n0.1,0\n0.2,1,7\n")
    message = _message(
        client, "auroc", "", "", "", handle_file(str(bad)), api_name="/compute_metric"
    )
    assert message == "CSV: row at line 3 has 3 fields; the header has 2"
    latin = tmp_path / "latin1.csv"
    latin.write_bytes("text,regime\ncaf\xe9,Human\n".encode("latin-1"))
    message = _message(client, "any", handle_file(str(latin)), None, api_name="/evaluate_detector")
    assert "not UTF-8" in message
    columns = tmp_path / "columns.csv"
    columns.write_text("texts,label\nhello,1\n")
    message = _message(
        client, "any", handle_file(str(columns)), None, api_name="/evaluate_detector"
    )
    assert "missing column(s) text; found texts, label" in message
    message = _message(client, "any", None, None, api_name="/evaluate_detector")
    assert message == "upload an ARB-style CSV or choose a built ARB set"


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("../../etc/passwd", "no '..'"),
        ("st:../secrets", "no '..'"),
        ("/etc", "local model paths are refused"),
        ("hf:/root/.cache/huggingface", "local model paths are refused"),
        ("causal:HuggingFaceTB/SmolLM2-135M", "causal language models"),
        ("org/model --trust_remote_code", "trust_remote_code are refused"),
        ("remote-code-model", "neither a built-in encoder nor a Hub id"),
    ],
)
def test_model_ids_refused(client, model: str, expected: str) -> None:
    message = _message(client, model, [DEMO], "", [], api_name="/run_embedding")
    assert expected in message


def test_remote_code_model_refused(client, space_server: SpaceServer) -> None:
    folder = space_server.model_dir / "remote-code-model"
    message = _message(client, str(folder), [DEMO], "", [], api_name="/run_embedding")
    assert "ships its own code" in message


def test_twenty_concurrent_requests(client) -> None:
    """20 requests at once (abusive and fine ones): each gets its answer or a clear message."""
    from gradio_client.exceptions import AppError

    def call(i: int):
        kind = i % 4
        try:
            if kind == 0:
                return kind, client.predict("../x", [DEMO], "", [], api_name="/run_embedding")
            if kind == 1:
                return kind, client.predict("any", "y" * 9_999, "0.5", api_name="/score_text")
            if kind == 2:
                return kind, client.predict(
                    "v_measure", "1 1 2 2", "a a b b", "", None, api_name="/compute_metric"
                )
            return kind, client.predict("demo", api_name="/list_datasets")
        except AppError as error:
            return kind, str(error)

    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(call, range(20)))
    assert len(answers) == 20
    for kind, answer in answers:
        if kind == 0:
            assert "no '..'" in answer
        elif kind == 1:
            assert "the limit is 5,000" in answer
        elif kind == 2:
            assert answer["v_measure"] == pytest.approx(1.0)
        else:
            assert answer["data"][0][0] == "stylebench/demo"
    # still serving
    assert client.predict("stylebench/demo", api_name="/dataset_details")[0].startswith("#")
