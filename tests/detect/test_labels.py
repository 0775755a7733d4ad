"""--machine-label / --human-label for every detector (issue #30): a `1 = human` set read
with `--human-label 1 --machine-label 0` gives the numbers of the relabelled set; values
other than the two named ones are an error listing them; the Python API takes the same."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from dataset_scripts.core.errors import DataError
from evaluators.cli import main
from evaluators.detect.data import label_mapping, load_detection_set
from tests.byod.conftest import detection_rows


def _run(path: Path, out: Path, *extra: str) -> dict:
    main(
        ["detect", "run", "--data", str(path), "--detector", "tfidf", "--group-column",
         "generator", "--resamples", "50", "--out", str(out), "--no-progress", *extra]
    )  # fmt: skip
    result = json.loads((out / "detection.json").read_text())
    for r in result["results"]:
        r.pop("seconds", None)
    return result


def test_inverted_labels_give_the_relabelled_numbers(tmp_path: Path) -> None:
    rows = detection_rows(40, 40)
    plain = tmp_path / "plain.csv"
    pd.DataFrame(rows).to_csv(plain, index=False)
    inverted = tmp_path / "inverted.csv"  # 1 = human, 0 = machine
    pd.DataFrame([{**r, "label": 1 if r["label"] == "human" else 0} for r in rows]).to_csv(
        inverted, index=False
    )
    expected = _run(plain, tmp_path / "a")["results"]
    got = _run(inverted, tmp_path / "b", "--human-label", "1", "--machine-label", "0")["results"]
    assert got == expected
    # without the mapping the 1 = human set is read the other way round: AUROC flips
    flipped = _run(inverted, tmp_path / "c")["results"]
    assert flipped[0]["n_human"] == expected[0]["n_machine"]


def test_values_besides_the_two_named_are_listed(tmp_path: Path) -> None:
    path = tmp_path / "three.csv"
    path.write_text("text,label\na b,1\nc d,0\ne f,2\ng h,1\ni j,unsure\nk l,2\n")
    with pytest.raises(DataError) as error:
        load_detection_set(path, human_label="1", machine_label="0")
    message = str(error.value)
    assert "2 value(s) besides the human label and the machine label ('1', '0')" in message
    assert "'2' (first at " in message and "three.csv line 4)" in message
    assert "three.csv line 6)" in message.split("'unsure' (first at ")[1]
    with pytest.raises(DataError, match="--machine-label needs --human-label too"):
        label_mapping("0", None)
    with pytest.raises(DataError, match="are both '1'"):
        label_mapping("1", "1.0")


def test_any_convention_and_the_parquet_numbers(tmp_path: Path) -> None:
    rows = detection_rows(6, 6)
    frame = pd.DataFrame([{**r, "label": 1.0 if r["label"] == "human" else 7.0} for r in rows])
    frame.to_parquet(tmp_path / "floats.parquet")
    data = load_detection_set(tmp_path / "floats.parquet", human_label="1", machine_label="7")
    assert data.labels == [0] * 6 + [1] * 6
    frame["label"] = ["people" if y == 1.0 else "bots" for y in frame["label"]]
    frame.to_csv(tmp_path / "words.csv", index=False)
    data = load_detection_set(tmp_path / "words.csv", human_label="people", machine_label="bots")
    assert data.labels == [0] * 6 + [1] * 6


def test_the_space_takes_the_label_names(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "spaces" / "stylebench"))
    from stylebench_space import detectors
    from stylebench_space.safety import UserError

    path = tmp_path / "set.csv"
    path.write_text("text,label\na b,1\nc d,1\ne f,0\ng h,0\n")
    _, regimes = detectors.load_arb_set(path, human_label="1", machine_label="0")
    assert regimes == ["Human", "Human", "machine", "machine"]
    _, regimes = detectors.load_arb_set(path)  # default: 1 = machine
    assert regimes == ["machine", "machine", "Human", "Human"]
    named = tmp_path / "named.csv"
    named.write_text("text,label\na b,people\nc d,people\ne f,bots\n")
    assert "neither human" in detectors.estimate_message("loglik", str(named))
    assert detectors.estimate_message("loglik", str(named), "people", "bots").startswith("3 texts")
    path.write_text("text,label\na b,1\nc d,1\ne f,5\n")
    with pytest.raises(UserError, match="row 4: label '5' is neither of '1', '0'"):
        detectors.load_arb_set(path, human_label="1", machine_label="0")
