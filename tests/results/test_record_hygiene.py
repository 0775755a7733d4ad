"""#44 item 2: records say what happened, without local leftovers: no absolute path of the
submitter's machine (``dataset.ref``), a local build's revision is its content
fingerprint, languages and evaluation time recorded, and an episode run of a count-based
encoder says its texts were joined (not pooled by their mean)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from evaluators.encoders.function_words import FunctionWordEncoder
from evaluators.records.record import DatasetInfo, ResultRecord
from evaluators.tasks import Sampling, get_evaluator
from evaluators.tasks.base import EmbeddingLookup
from evaluators.tasks.episodes import ENCODER_POOLING, MEAN_POOLING, form_episodes
from tests.core.helpers import table


@pytest.mark.parametrize(
    ("ref", "kept"),
    [
        ("/home/alice/built/steb__pan23_style_change", "steb__pan23_style_change"),
        ("~/built/steb__x", "steb__x"),
        ("C:\\Users\\alice\\built\\steb__x", "steb__x"),
        ("steb/pan23_style_change", "steb/pan23_style_change"),
    ],
)
def test_no_absolute_ref_and_a_local_revision_is_the_fingerprint(ref: str, kept: str) -> None:
    info = DatasetInfo(name="x", ref=ref, id="steb/pan23_style_change_easy", fingerprint="f00d")
    assert info.ref == kept
    hub = kept == ref and "/" in ref
    assert info.revision == (None if hub else "local-f00d")
    assert info.languages == ["eng-Latn"]
    # an old record (version 1, an absolute path, no revision) reads clean too
    payload = {
        "model": {"name": "m"},
        "dataset": {"name": "x", "ref": ref, "fingerprint": "f00d", "id": "steb/ASSET"},
        "task": "clustering",
        "main_score_name": "v_measure",
        "main_score": 0.5,
        "metrics": {"v_measure": 0.5},
        "timings": {"encode_seconds": 1.25, "evaluation_seconds": 0.5},
    }
    record = ResultRecord.from_dict(payload)
    assert record.dataset.ref == kept and record.evaluation_time == pytest.approx(1.75)
    assert record.to_dict()["evaluation_time"] == pytest.approx(1.75)


def test_a_repository_holds_no_path_of_the_machine(
    repo: Path,
    runs: dict[str, Path],
) -> None:
    """The run folders lie under the test's temporary root: no repository file names it,
    nor the home folder; every record has its languages, evaluation time and revision."""
    machine = str(runs["built"].parent)
    records = list((repo / "results").rglob("*.json"))
    assert len(records) == 15  # 9 records, 3 model_meta.json, 3 run_settings.json
    for path in records:
        text = path.read_text(encoding="utf-8")
        assert machine not in text and str(Path.home()) not in text, path
        payload = json.loads(text)
        if "main_score" in payload:
            assert payload["dataset"]["languages"] == ["eng-Latn"]
            assert payload["dataset"]["revision"] == f"local-{payload['dataset']['fingerprint']}"
            assert payload["evaluation_time"] is not None
    # as the runner writes them (before add): evaluation time = encoding + scoring
    for path in runs["real"].rglob("*.json"):
        payload = json.loads(path.read_text(encoding="utf-8"))
        if "main_score" in payload:
            timings = payload["timings"]
            expected = timings["encode_seconds"] + timings["evaluation_seconds"]
            assert payload["evaluation_time"] == pytest.approx(expected, abs=1e-4)
            assert machine not in payload["dataset"]["ref"]


def test_an_episode_run_of_a_count_based_encoder_says_its_texts_were_joined() -> None:
    rng = np.random.default_rng(3)
    words = ["the", "of", "and", "a", "to", "in", "is", "it", "that", "was", "for", "on"]
    rows = [
        {
            "id": f"r{i}",
            "text": " ".join(rng.choice(words, size=2 + (5 * i) % 11)) + f" {i}",
            "label": "ab"[i % 2],
        }
        for i in range(40)  # texts of unequal length: the joined text is not the mean
    ]
    data = table("labelled_texts", rows)
    sampling = Sampling(4, 3)
    evaluator = get_evaluator("clustering", sampling=sampling)
    encoder = FunctionWordEncoder()
    texts = [r["text"] for r in rows]
    # the mean of the texts' vectors (a neural model's episodes)
    mean = EmbeddingLookup(texts, encoder.encode(texts))
    assert evaluator.evaluate(data, mean).details["sampling"]["pooling"] == MEAN_POOLING
    # as the runner does for an encoder that reads episodes itself: one joined text each
    groups = evaluator.episode_groups(data)
    joined = EmbeddingLookup(texts, encoder.encode(texts))
    joined.add_episodes(groups, encoder.encode_episodes(groups))
    result = evaluator.evaluate(data, joined)
    assert result.details["sampling"]["pooling"] == ENCODER_POOLING
    assert "function words" in ENCODER_POOLING and "joined by one space" in ENCODER_POOLING
    # and it is true: the pooled vector of an episode is the encoding of its joined text
    episodes = form_episodes([r["label"] for r in rows], sampling)
    first = tuple(rows[i]["text"] for i in episodes.members[0])
    np.testing.assert_array_equal(joined.pool([first])[0], encoder.encode([" ".join(first)])[0])
    assert not np.allclose(joined.pool([first])[0], mean.pool([first])[0])
