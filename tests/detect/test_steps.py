"""The named steps of a detection run (#50 item 7): reading a set
(:class:`DetectionReading`, :func:`read_rows`), the run (:class:`DetectionSettings`,
:func:`split_rows`, :func:`score_detectors`, :func:`detection_records`,
:func:`detection_meta`, :func:`write_detection_files`), RAID's frame
(:class:`FrameColumns`, :func:`frame_scores`, :func:`frame_labels`) and the command's
steps (``settle_protocol``, ``check_label_options``, ``announce``, ``print_bootstrap``).
The whole routes are checked in tests/byod/test_detect.py, tests/detect/test_raid.py and
tests/core/test_cli_options.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import numpy as np
import pandas as pd
import pytest
from rich.console import Console

from dataset_scripts.core.errors import DataError, StylebenchError
from dataset_scripts.custom.readers import read_source
from evaluators.cli.detect import (
    Evaluation,
    announce,
    check_label_options,
    print_bootstrap,
    settle_protocol,
)
from evaluators.detect.data import (
    DetectionReading,
    check_columns,
    load_detection_set,
    read_rows,
    resolve_label_column,
)
from evaluators.detect.raid import (
    FrameColumns,
    evaluate_detection,
    frame_labels,
    frame_scores,
    raid_records,
)
from evaluators.detect.report import records_for
from evaluators.detect.run import (
    DetectionRun,
    DetectionSettings,
    detection_meta,
    detection_records,
    run_detection,
    score_detectors,
    split_rows,
    write_detection_files,
)
from tests.byod.conftest import detection_rows


class _Length:
    """An unsupervised detector: the text's length, oriented ``orientation``."""

    def __init__(self, orientation: float = 1.0) -> None:
        self.orientation = orientation
        self.name = "length"

    def raw_scores(self, texts):
        return np.array([len(t) for t in texts], float)

    def config(self) -> dict[str, Any]:
        return {"detector": "length"}


class _Memory(_Length):
    """A supervised detector: remembers the texts it was fitted on; scores 1 for a
    machine text it saw, 0 otherwise."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "memory"
        self.fitted: list[tuple[str, int]] = []

    def fit(self, texts, labels) -> None:
        self.fitted = list(zip(texts, labels, strict=True))

    def raw_scores(self, texts):
        machine = {t for t, y in self.fitted if y}
        return np.array([1.0 if t in machine else 0.0 for t in texts])


@pytest.fixture(scope="module")
def csv_set(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("steps") / "set.csv"
    pd.DataFrame(detection_rows(20, 20, seed=4)).to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def data(csv_set):
    return load_detection_set(csv_set, group_columns=["domain"])


# ------------------------------------------------------------------------------ reading


def test_a_reading_and_its_keywords_read_the_same_set(csv_set):
    reading = DetectionReading(group_columns=("domain",), sample=16, seed=3)
    packed = load_detection_set(csv_set, reading)
    spelled = load_detection_set(csv_set, group_columns=("domain",), sample=16, seed=3)
    assert packed == spelled and len(packed) == 16
    # keywords override the reading's fields; an unknown one is refused by name
    assert len(load_detection_set(csv_set, reading, sample=None)) == 40
    with pytest.raises(TypeError, match="sampel"):
        load_detection_set(csv_set, reading, sampel=3)


def test_the_label_column_is_named_regime_or_label(csv_set):
    columns = ["text", "regime", "label"]
    assert resolve_label_column(csv_set, columns, DetectionReading()) == "regime"
    assert resolve_label_column(csv_set, ["text", "label"], DetectionReading()) == "label"
    named = DetectionReading(label_column="kind")
    assert resolve_label_column(csv_set, ["text"], named) == "kind"
    with pytest.raises(DataError, match=r"no 'label' or 'regime' column \(columns: text, x\)"):
        resolve_label_column("f.csv", ["text", "x"], DetectionReading())


def test_every_named_column_must_exist():
    reading = DetectionReading(group_columns=("domain",), split_by="pair")
    check_columns("f.csv", ["text", "label", "domain", "pair"], "label", reading)
    with pytest.raises(DataError, match=r"f\.csv: no column 'pair'; columns found: text, label"):
        check_columns("f.csv", ["text", "label", "domain"], "label", reading)


def test_read_rows_drops_counts_and_keeps_source_order(tmp_path):
    path = tmp_path / "arb.csv"
    rows = [
        {"text": " a ", "regime": "Human", "split": "TRAIN", "pair": "p1"},
        {"text": "", "regime": "H2L", "split": "test", "pair": "p1"},
        {"text": "b", "regime": "", "split": "test", "pair": "p2"},
        {"text": "c", "regime": "H2L", "split": "test", "pair": "p2"},
    ]
    pd.DataFrame(rows).to_csv(path, index=False)
    reading = DetectionReading(split_column="split", split_by="pair")
    found = read_rows(path, read_source(path), reading, None)
    assert (found.texts, found.labels, found.ids) == (["a", "c"], [0, 1], ["0", "3"])
    assert found.groups == {"regime": ["Human", "H2L"]}  # the regime is the first group
    assert (found.splits, found.split_keys) == (["train", "test"], ["p1", "p2"])
    assert found.dropped == {
        "rows with an empty or missing 'text'": 1,
        "rows with an empty or missing 'regime'": 1,
    }
    assert found.label_values == {"Human": 0, "H2L": 1} and found.label_column == "regime"
    rows[3]["split"] = "dev"
    pd.DataFrame(rows).to_csv(path, index=False)
    with pytest.raises(DataError, match="split 'dev' is not 'train' or 'test'"):
        read_rows(path, read_source(path), reading, None)


def test_read_rows_lists_label_values_outside_the_named_two(tmp_path):
    path = tmp_path / "odd.csv"
    pd.DataFrame({"text": list("abcde"), "label": ["h", "m", "x", "y", "x"]}).to_csv(
        path, index=False
    )
    with pytest.raises(DataError, match=r"holds 2 value\(s\) besides .*'x' \(first at .*'y'"):
        read_rows(path, read_source(path), DetectionReading(), {"h": 0, "m": 1})


# ------------------------------------------------------------------------------ the run


def test_settings_refuse_an_unknown_protocol_and_keywords_override_them(data):
    with pytest.raises(StylebenchError, match="--protocol must be one of default, raid"):
        DetectionSettings(protocol="rad")
    settings = DetectionSettings(n_resamples=20, progress=False, log=str)
    run = run_detection(data, {"length": _Length()}, None, settings, n_resamples=30)
    assert run.meta["bootstrap"]["n_resamples"] == 30
    with pytest.raises(TypeError, match="n_resample"):
        run_detection(data, {"length": _Length()}, None, settings, n_resample=3)


def test_split_rows_without_and_with_a_supervised_detector(data):
    settings = DetectionSettings(seed=7)
    everything = split_rows(data, [], settings)
    assert everything.evaluation is data and everything.training is None
    assert everything.meta["rule"] == "no supervised detector: every row is evaluated"
    assert "held_out_copies_of_training_dropped" not in everything.leaks
    split = split_rows(data, ["memory"], settings)
    assert split.meta["rule"] == "label-stratified random split"
    assert (split.meta["n_train"], split.meta["n_test"], split.meta["seed"]) == (20, 20, 7)
    assert split.training is not None and len(split.train) == 20
    assert set(split.training.texts).isdisjoint(split.evaluation.texts)
    assert split.training.texts == [data.texts[i] for i in split.train]
    assert split.leaks["held_out_copies_of_training_dropped"] == 0


def test_score_detectors_fits_on_training_rows_and_orients_the_scores(data):
    lines: list[str] = []
    settings = DetectionSettings(seed=7, progress=False, log=lines.append)
    split = split_rows(data, ["memory"], settings)
    memory, length = _Memory(), _Length(orientation=-1.0)
    scores, configs = score_detectors(
        data, {"memory": memory, "length": length}, split, None, settings
    )
    assert memory.fitted == list(zip(split.training.texts, split.training.labels, strict=True))
    assert not scores["memory"].any()  # no held-out text was seen in training
    assert scores["length"].tolist() == [-float(len(t)) for t in split.evaluation.texts]
    assert (
        len(configs["memory"]["training_rows"]) == 16 and "training_rows" not in configs["length"]
    )
    assert configs["length"]["texts_reused"] == 0
    assert [line.split(":")[0] for line in lines] == ["memory", "length"]
    assert lines[1].startswith("length: 20 texts in ")


def test_detection_records_follow_the_protocol(data):
    scores = {"length": np.array([float(len(t)) for t in data.texts])}
    labels = np.asarray(data.labels)
    default = DetectionSettings(n_resamples=25, seed=2)
    records, thresholds = detection_records(scores, data, default)
    assert thresholds == {} and records == records_for(
        "length", scores["length"], labels, data.groups, (0.01,), 25, 2
    )
    raid = DetectionSettings(protocol="raid", domain_column="domain", fprs=(0.1,))
    records, thresholds = detection_records(scores, data, raid)
    rows, _ = raid_records(scores["length"], labels, data.groups, "domain", (0.1,))
    assert records == [{"detector": "length", **r} for r in rows]
    assert set(thresholds) == {"length"}


def test_detection_meta_names_the_protocols_rule(data):
    split = split_rows(data, [], DetectionSettings())
    meta = detection_meta(data, split, {"length": {}}, {}, DetectionSettings(n_resamples=9))
    assert meta["bootstrap"]["n_resamples"] == 9 and "raid" not in meta
    assert meta["data"]["n_rows"] == meta["data"]["n_evaluated"] == 40
    assert meta["data"]["group_columns"] == ["domain"] and meta["split"] is split.meta
    raid = DetectionSettings(protocol="raid", domain_column="domain")
    meta = detection_meta(data, split, {}, {"length": {"x": 1}}, raid)
    assert meta["raid"]["thresholds"] == {"length": {"x": 1}} and "bootstrap" not in meta
    assert meta["raid"]["domain_column"] == "domain" and meta["protocol"] == "raid"


@pytest.mark.slow  # matplotlib's first figure: about 3 s
def test_write_detection_files_writes_the_four_files(data, tmp_path):
    settings = DetectionSettings(n_resamples=10)
    scores = {"length": np.array([float(len(t)) for t in data.texts])}
    records, _ = detection_records(scores, data, settings)
    split = split_rows(data, [], settings)
    run = DetectionRun(records, scores, data, meta=detection_meta(data, split, {}, {}, settings))
    files = write_detection_files(tmp_path, run, data, settings)
    assert sorted(files) == ["csv", "json", "roc", "scores"]
    assert all(path.is_file() and path.parent == tmp_path for path in files.values())
    assert json.loads(files["json"].read_text())["results"] == json.loads(json.dumps(records))
    written = pd.read_csv(files["scores"])
    assert written["score:length"].tolist() == scores["length"].tolist()


# ------------------------------------------------------------------------ RAID's frame


def test_frame_scores_join_on_the_id_or_take_row_order():
    rows = [{"id": "a"}, {"id": "b"}]
    joined = frame_scores([{"id": "b", "score": 2}, {"id": "a", "score": 1}], rows, "id")
    assert joined.tolist() == [1.0, 2.0]
    assert frame_scores([3, 4], rows, "id").tolist() == [3.0, 4.0]
    with pytest.raises(DataError, match="3 scores for 2 rows"):
        frame_scores([1, 2, 3], rows, "id")
    with pytest.raises(DataError, match="id 'a' has two scores"):
        frame_scores([{"id": "a", "score": 1}, {"id": "a", "score": 2}], rows, "id")
    with pytest.raises(DataError, match="1 rows have no score \\(first id 'b'\\)"):
        frame_scores([{"id": "a", "score": 1}], rows, "id")


def test_frame_labels_read_the_label_column_or_raids_model():
    rows = [{"model": "human", "label": "0"}, {"model": "gpt4", "label": "1"}]
    assert frame_labels(rows, FrameColumns()).tolist() == [0, 1]
    no_label = [{"model": m} for m in ("human", "gpt4", "mistral")]
    assert frame_labels(no_label, FrameColumns()).tolist() == [0, 1, 1]
    named = FrameColumns(label_column="label", machine_label="0", human_label="1")
    assert frame_labels(rows, named).tolist() == [1, 0]
    with pytest.raises(DataError, match="no column 'kind'"):
        frame_labels(rows, FrameColumns(label_column="kind"))
    with pytest.raises(DataError, match="no 'label' column and no RAID 'model' column"):
        frame_labels([{"text": "x"}], FrameColumns())


def test_frame_columns_and_their_keywords_evaluate_the_same():
    frame = pd.DataFrame(
        {
            "id": [str(i) for i in range(12)],
            "kind": ["h", "m"] * 6,
            "domain": ["a"] * 6 + ["b"] * 6,
        }
    )
    scores = list(range(12))
    columns = FrameColumns(label_column="kind", machine_label="m", human_label="h")
    packed = evaluate_detection(scores, frame, 0.2, columns)
    spelled = evaluate_detection(
        scores, frame, 0.2, label_column="kind", machine_label="m", human_label="h"
    )
    assert packed == spelled and packed["domain_column"] == "domain"
    assert (
        evaluate_detection(scores, frame, 0.2, columns, domain_column=None)["domain_column"] is None
    )
    with pytest.raises(TypeError, match="domain_colum"):
        evaluate_detection(scores, frame, 0.2, columns, domain_colum=None)


# ------------------------------------------------------------------------- the command


def _evaluation(**changes: Any) -> Evaluation:
    fields: dict[str, Any] = dict(
        fprs=(), resamples=10, seed=1, train_fraction=0.5, protocol="default", domain_column=None
    )
    return Evaluation(**(fields | changes))


def test_settle_protocol_gives_each_protocol_its_defaults():
    reading = {"group_columns": ("gen",)}
    evaluation, same = settle_protocol(_evaluation(), reading)
    assert evaluation.fprs == (0.01,) and same is reading
    evaluation, _ = settle_protocol(_evaluation(fprs=(0.2,)), reading)
    assert evaluation.fprs == (0.2,)
    with pytest.raises(click.UsageError, match="--domain-column applies to --protocol raid"):
        settle_protocol(_evaluation(domain_column="gen"), reading)
    raid, read = settle_protocol(_evaluation(protocol="raid"), {"group_columns": ("gen", "domain")})
    assert (raid.fprs, raid.domain_column, read["group_columns"]) == (
        (0.05, 0.01),
        "domain",
        ("gen", "domain"),
    )
    raid, read = settle_protocol(_evaluation(protocol="raid", domain_column="site"), reading)
    assert raid.domain_column == "site" and read["group_columns"] == ("site", "gen")
    assert reading == {"group_columns": ("gen",)}  # the given reading is not changed
    raid, read = settle_protocol(_evaluation(protocol="raid"), reading)
    assert raid.domain_column is None and read is reading  # one domain


def test_check_label_options_catches_the_hf_machine_class_mix_up():
    check_label_options({"machine_label": "0", "human_label": "1"}, ("hf:x",))
    check_label_options({"machine_label": "0", "human_label": None}, ("tfidf",))
    with pytest.raises(click.UsageError, match="is --hf-machine-class"):
        check_label_options({"machine_label": "0", "human_label": None}, ("tfidf", "hf:x"))


def _console() -> Console:
    return Console(record=True, width=200, color_system=None)


def test_announce_says_what_was_read(data):
    console = _console()
    announce(console, data, ("length",), _evaluation(), named_labels=False)
    text = console.export_text()
    assert text.startswith(f"{data.name}: 20 human and 20 machine texts, groups: domain; ")
    assert "estimated scoring time on 2 CPU cores" in text
    assert "labels read as label: 'machine' = machine, 'human' = human (--human-label" in text
    console = _console()
    announce(console, data, ("length",), _evaluation(), named_labels=True)
    assert "(--human-label" not in console.export_text()


def test_print_bootstrap_prints_one_row_per_record(data):
    run = run_detection(
        data, {"length": _Length()}, None, n_resamples=20, fprs=(0.01, 0.1), progress=False, log=str
    )
    console = _console()
    print_bootstrap(console, run, data, _evaluation(fprs=(0.01, 0.1), resamples=20))
    text = console.export_text()
    assert f"{data.name}: detectors, 20 bootstrap resamples (seed 1)" in text
    assert "TPR@10%FPR [95% CI]" in text and "domain=" in text
    overall = run.records[0]
    low, high = overall["auroc_ci95"]
    assert f"{overall['auroc']:.3f} [{low:.3f}, {high:.3f}]" in text
    assert len([line for line in text.splitlines() if "│ length" in line]) == len(run.records)
