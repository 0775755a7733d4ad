"""Issue 15, items 1, 3 and 4 against the running Space: a bounded load test.

2 bursts of 64 mixed requests (16 at a time) against one Space on 127.0.0.1 (the issue's
crash recipe, many ``compute_metric`` calls on evaluate's slow path with cost matrices of different sizes,
mixed with valid and invalid metric inputs from other "visitors", relative-path attacks,
dataset browsing and two real embedding runs). Every answer is checked against an
independent computation; every invalid request must get its clear one-line message.
Required: zero server errors (no unexpected answer, nothing logged as unexpected, no
traceback in the server log) and a live process that still answers afterwards. The test
stops by itself: each request has a deadline and the server is stopped at the end.
"""

from __future__ import annotations

import functools
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from evaluators.metric_math import order_alignment_accuracy, tpr_at_fpr

pytestmark = [pytest.mark.filterwarnings("ignore::FutureWarning"), pytest.mark.slow]

DEMO = "stylebench/demo (embedded demo suite)"
N_REQUESTS = 64  # per burst
BURSTS = 2  # the issue saw the process die in 2 of 4 bursts
WORKERS = 16
REQUEST_SECONDS = 240


@dataclass
class Case:
    kind: str
    args: tuple[Any, ...]
    api_name: str
    expect_error: str | None = None  # the message an invalid request must get
    check: Any = None  # callable(answer) -> None for a valid one


def _ragged_alignment(rng: random.Random) -> Case:
    sizes = [rng.randint(2, 6) for _ in range(rng.randint(2, 6))]
    costs, expected = [], []
    for k in sizes:
        m = k + rng.randint(0, 1)
        costs.append([[round(rng.random(), 3) for _ in range(m)] for _ in range(k)])
        order = list(range(m))
        rng.shuffle(order)
        expected.append(order[:k])
    want = order_alignment_accuracy(costs, expected)["accuracy"]

    def check(answer: dict) -> None:
        assert answer["accuracy"] == pytest.approx(want, abs=1e-12)
        assert answer["n_items"] == len(costs)

    return Case(
        "alignment-ragged",
        (
            "order_alignment_accuracy",
            "\n".join(json.dumps(c) for c in costs),
            "\n".join(json.dumps(e) for e in expected),
            "",
            None,
        ),
        "/compute_metric",
        check=check,
    )


def _tpr(rng: random.Random) -> Case:
    n = rng.randint(8, 40)
    scores = [round(rng.random(), 4) for _ in range(n)]
    labels = [i % 2 for i in range(n)]
    want = tpr_at_fpr(scores, labels, fpr=0.25)

    def check(answer: dict) -> None:
        assert answer["tpr"] == pytest.approx(want["tpr"])
        assert answer["n_pos"] == want["n_pos"] and answer["n_neg"] == want["n_neg"]

    return Case(
        "tpr-valid",
        (
            "tpr_at_fpr",
            " ".join(map(str, scores)),
            " ".join(map(str, labels)),
            '{"fpr": 0.25}',
            None,
        ),
        "/compute_metric",
        check=check,
    )


def _float_labels(rng: random.Random) -> Case:
    n = rng.randint(6, 20)
    scores = " ".join(str(round(rng.random(), 3)) for _ in range(n))
    labels = " ".join(rng.choice(["0.9", "0.1", "0.8"]) for _ in range(n))
    return Case(
        "float-labels",
        (rng.choice(["tpr_at_fpr", "auroc"]), scores, labels, "", None),
        "/compute_metric",
        expect_error="must hold integers",
    )


def _auroc_full(rng: random.Random) -> Case:
    n = rng.randint(10, 50)
    scores = [round(rng.random(), 4) for _ in range(n)]
    labels = [int(rng.random() < 0.5) for _ in range(n - 2)] + [0, 1]
    want = roc_auc_score(labels, scores)

    def check(answer: dict) -> None:
        assert answer["auroc"] == pytest.approx(want) and answer["partial_auc"] == pytest.approx(
            want
        )

    return Case(
        "auroc-max-fpr-1",
        ("auroc", " ".join(map(str, scores)), " ".join(map(str, labels)), '{"max_fpr": 1.0}', None),
        "/compute_metric",
        check=check,
    )


def _text_option(rng: random.Random) -> Case:
    return Case(
        "fpr-as-text",
        ("tpr_at_fpr", "0.1 0.9 0.4 0.8", "0 1 0 1", '{"fpr": "0.01"}', None),
        "/compute_metric",
        expect_error="fpr must be a number",
    )


def _browse(rng: random.Random) -> Case:
    if rng.random() < 0.5:

        def rows(answer: dict) -> None:
            assert answer["data"][0][0] == "stylebench/demo"

        return Case("list-datasets", ("demo",), "/list_datasets", check=rows)

    def card(answer: tuple) -> None:
        assert answer[0].startswith("#")

    return Case("dataset-details", ("stylebench/demo",), "/dataset_details", check=card)


def _relative_model(rng: random.Random) -> Case:
    model = rng.choice(["localmodels/minilm", "st:localmodels/minilm", "hf:localmodels/minilm"])
    return Case(
        "relative-model",
        (model, [DEMO], "", ["retrieval"]),
        "/run_embedding",
        expect_error="cannot fetch model",
    )


def _relative_dataset(rng: random.Random) -> Case:
    return Case(
        "relative-dataset",
        ("function-words", [], "private/ds", ["retrieval"]),
        "/run_embedding",
        expect_error="cannot fetch dataset 'private/ds'",
    )


@functools.cache
def expected_demo_auc() -> float:
    """function-words all-to-all AUC on the demo suite, computed here with the CLI's runner."""
    import tempfile
    from pathlib import Path

    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset
    from evaluators.demo import make_encoder
    from evaluators.run.runner import Runner, plan_tasks

    with tempfile.TemporaryDirectory() as tmp:
        folder, _ = build_dataset(get_dataset("stylebench/demo"), None, Path(tmp) / "demo")
        runner = Runner(make_encoder("function-words"), "function-words", progress=False)
        (record,) = runner.run(plan_tasks([str(folder)], ["all_to_all_pairs"]))
    return float(record.metrics["auc"])


def _embedding_run(rng: random.Random) -> Case:
    want = expected_demo_auc()

    def check(answer: tuple) -> None:
        table = answer[0]
        scores = {(r[1], r[2]): r[3] for r in table["data"]}
        assert scores[("all_to_all_pairs", "auc")] == pytest.approx(want, abs=5.1e-5)

    return Case(
        "embedding-run",
        ("function-words", [DEMO], "", ["all_to_all_pairs"]),
        "/run_embedding",
        check=check,
    )


def _leaderboard(rng: random.Random) -> Case:
    """The Leaderboard tab (issue 29): a view of the paper's rows (this Space has no
    results table), or a drill-down it must refuse with its message."""
    from evaluators.steb_scores.reference import view_reference

    view = rng.choice(["operational", "definitional", "application", "multilingual"])
    if rng.random() < 0.25:
        return Case(
            "leaderboard-drilldown",
            ("STEB(v1) (paper)", "LUAR-MUD"),
            "/leaderboard_drilldown",
            expect_error="has no per-dataset results here",
        )
    reference = view_reference(view)
    overall = "steb_score" if view == "operational" else "average"
    best = max(reference, key=lambda m: reference[m].get(overall, float("-inf")))

    def check(answer: tuple) -> None:
        table = answer[0]
        assert table["data"][0][table["headers"].index("model")] == best
        assert len(table["data"]) == len(reference)

    return Case(
        "leaderboard-view",
        ("STEB(v1) (paper)", view, False, "any size", []),
        "/leaderboard_table",
        check=check,
    )


MIX = [
    (_ragged_alignment, 22),
    (_leaderboard, 4),
    (_tpr, 10),
    (_float_labels, 10),
    (_auroc_full, 4),
    (_text_option, 2),
    (_browse, 4),
    (_relative_model, 3),
    (_relative_dataset, 3),
    (_embedding_run, 2),
]


def _cases(seed: int = 15) -> list[Case]:
    rng = random.Random(seed)
    cases = [make(rng) for make, count in MIX for _ in range(count)]
    rng.shuffle(cases)
    return cases


def test_mix_has_the_planned_size() -> None:
    assert len(_cases()) == N_REQUESTS >= 50


def test_space_survives_mixed_concurrent_load(space) -> None:
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    cases = [case for burst in range(BURSTS) for case in _cases(seed=15 + burst)]
    # one client (one session, one event stream) per worker thread, as separate visitors
    # have: gradio_client's shared event stream is not meant for 32 threads at once
    local = threading.local()

    def visitor() -> Client:
        if not hasattr(local, "client"):
            local.client = Client(space.url, verbose=False)
        return local.client

    started = time.monotonic()

    def call(case: Case) -> tuple[Case, str, Any]:
        try:
            job = visitor().submit(*case.args, api_name=case.api_name)
            return case, "answer", job.result(timeout=REQUEST_SECONDS)
        except AppError as error:
            return case, "message", str(error)
        except Exception as error:  # transport errors, timeouts, queue trouble
            return case, "failure", f"{type(error).__name__}: {error}"

    outcomes = []
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for burst in range(BURSTS):  # each burst: N_REQUESTS submitted at once
            outcomes += pool.map(call, cases[burst * N_REQUESTS : (burst + 1) * N_REQUESTS])
    seconds = time.monotonic() - started

    problems = []
    served = 0
    for case, how, answer in outcomes:
        if how == "failure":
            problems.append(f"{case.kind}: {answer}")
            continue
        served += 1
        if case.expect_error is not None:
            if how != "message" or case.expect_error not in answer:
                problems.append(
                    f"{case.kind}: expected {case.expect_error!r}, got {answer!r}"[:300]
                )
            elif "something went wrong" in answer:
                problems.append(f"{case.kind}: unexpected server error {answer!r}")
            continue
        if how != "answer":
            problems.append(f"{case.kind}: error {answer!r}"[:300])
            continue
        try:
            case.check(answer)
        except AssertionError as error:
            problems.append(f"{case.kind}: wrong answer ({error})"[:300])
    log = space.log.read_text(errors="replace")
    print(
        f"\nload test: {len(cases)} requests in {BURSTS} bursts ({WORKERS} at a time), "
        f"{served} served, "
        f"{len(problems)} errors, {seconds:.1f} s; kinds: "
        + ", ".join(f"{make.__name__.strip('_')}={count}" for make, count in MIX)
    )
    assert problems == [], "\n".join(problems) + "\n--- server log ---\n" + log[-4000:]
    assert served == len(cases)
    for marker in ("Traceback", "unexpected error", "Fatal Python error", "Bus error"):
        assert marker not in log, log[-3000:]
    assert space.process.poll() is None, "the Space process died"
    # still serving, and still correct
    again = Client(space.url, verbose=False).predict(
        "tpr_at_fpr", "0.1 0.9 0.4 0.8", "0 1 0 1", '{"fpr": 0.4}', None, api_name="/compute_metric"
    )
    assert again["tpr"] == 1.0 and again["n_pos"] == 2
    import urllib.request

    with urllib.request.urlopen(space.url + "health", timeout=10) as response:
        assert response.status == 200 and json.loads(response.read())["status"] == "ok"


def test_metric_state_does_not_leak_between_visitors(space) -> None:
    """A failed request followed by another visitor's invalid one: both refused, the valid
    one after them gets its own answer (no leftover writer, no cast to int)."""
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    client = Client(space.url, verbose=False)
    for _ in range(3):
        with pytest.raises(AppError, match="must hold integers"):
            client.predict(
                "tpr_at_fpr", "0.2 0.9 0.4", "0.9 0.9 0.1", "", None, api_name="/compute_metric"
            )
        with pytest.raises(AppError, match="fpr must be"):
            client.predict(
                "tpr_at_fpr", "0.2 0.9", "0 1", '{"fpr": 2}', None, api_name="/compute_metric"
            )
    answer = client.predict(
        "macro_accuracy", "1 0 1 1", "1 0 0 1", "", None, api_name="/compute_metric"
    )
    assert answer["accuracy"] == pytest.approx(0.75)
    scores = np.array([0.1, 0.9, 0.35, 0.8])
    answer = client.predict(
        "auroc", " ".join(map(str, scores)), "0 1 0 1", "", None, api_name="/compute_metric"
    )
    assert answer["auroc"] == pytest.approx(roc_auc_score([0, 1, 0, 1], scores))
