"""Leaderboard (marks, comparability, md/csv/png exports), model-card metadata, the
`stylebench steb` commands, result loading and the named subsets."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from dataset_scripts.core.errors import DataError
from dataset_scripts.steb.catalog import steb_datasets
from evaluators.benchmark_folders import (
    BENCHMARKS,
    benchmark_datasets,
    resolve_benchmark,
)
from evaluators.cli import cli, main
from evaluators.leaderboard import (
    build_leaderboard,
    export,
    protocol_board,
    to_markdown,
)
from evaluators.records.ids import legacy_dataset_id as hub_id_for
from evaluators.steb_scores.model_card import card_metadata_yaml, model_index
from evaluators.steb_scores.results import load_results, read_result
from evaluators.steb_scores.summary import summarize
from tests.steb_scores.helpers import score, write_result

RUN = [
    score("my-model", "steb/STEL_feature", "order_alignment", 0.5, accuracy=0.9),
    score("my-model", "steb/STEL_register", "order_alignment", 0.3, accuracy=0.7),
]


def test_board_rows_marks_and_comparability() -> None:
    board = build_leaderboard("operational", summarize(RUN, n_boot=50))
    assert len(board.rows) == 41
    run = next(r for r in board.rows if r.source == "run")
    assert run.coverage == "2 of 96" and not run.comparable
    assert run.values["order_alignment"] == 40.0  # x100, mean of 0.5 and 0.3
    marks = board.marks()
    best = [board.rows[i].model for (i, c), m in marks.items() if c == "steb_score" and m == "best"]
    second = [
        board.rows[i].model for (i, c), m in marks.items() if c == "steb_score" and m == "second"
    ]
    assert best == ["LUAR-CRUD"] and second == ["STAR"]  # 50.82, 50.75 (Table 6)
    # a partial run is never marked
    assert not any(board.rows[i].source == "run" for (i, _c) in marks)
    text = to_markdown(board)
    assert "**50.82**" in text and "<u>50.75</u>" in text
    assert "my-model [run, 2 of 96] (not comparable)" in text


def test_exports_written(tmp_path: Path) -> None:
    board = build_leaderboard("definitional", summarize(RUN, n_boot=50))
    paths = export(board, tmp_path)
    assert {k: p.exists() for k, p in paths.items()} == {"md": True, "csv": True, "png": True}
    assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = list(csv.DictReader(paths["csv"].open()))
    assert len(rows) == 41
    mine = next(r for r in rows if r["model"] == "my-model")
    assert mine["comparable"] == "False" and mine["coverage"] == "2 of 96"
    assert float(mine["content_independence"]) == 40.0
    assert float(mine["linguistic_features"]) == 90.0  # STEL_feature: plain accuracy
    assert next(r for r in rows if r["model"] == "StyleDistance")["average_mark"] == "best"


def test_model_card_metadata() -> None:
    summary = summarize(RUN, n_boot=50)
    meta = model_index("my-model", RUN, summary.models["my-model"])
    parsed = yaml.safe_load(card_metadata_yaml(meta).strip("-\n"))
    entry = parsed["model-index"][0]
    assert entry["name"] == "my-model"
    first = entry["results"][0]
    assert first["task"] == {"type": "OrderAlignment"}
    assert first["dataset"]["type"] == "steb/STEL_feature"
    assert {"type": "main_score", "value": 50.0} in first["metrics"]
    views = [r for r in entry["results"] if r["dataset"]["type"] == "steb/STEB"]
    assert {r["dataset"]["config"] for r in views} == {"operational", "definitional"}
    assert all("not comparable" in r["dataset"]["name"] for r in views)


def test_result_files_and_cli(tmp_path: Path) -> None:
    results = tmp_path / "results"
    for model, (a, b) in {"m1": (0.1, 0.2), "m2": (0.3, 0.1), "m3": (0.5, 0.4)}.items():
        write_result(results, model, "steb/STEL_feature", "order_alignment", a)
        write_result(results, model, "steb/STEL_register", "order_alignment", b)
    loaded = load_results([results])
    assert len(loaded) == 6 and {s.dataset for s in loaded} == {
        "steb/STEL_feature",
        "steb/STEL_register",
    }
    runner = CliRunner()
    out = tmp_path / "scores"
    res = runner.invoke(
        cli, ["steb", "scores", "--results", str(results), "--out", str(out), "--n-boot", "200"]
    )
    assert res.exit_code == 0, res.output
    payload = json.loads((out / "steb_scores.json").read_text())
    assert payload["models"]["m3"]["views"]["operational"]["overall"] == 0.45
    assert payload["models"]["m3"]["coverage"] == "2 of 96"
    assert "ward-spearman" in payload["cluster_source"]  # 3 complete models: discovered
    assert (out / "model_cards" / "m1.yaml").exists()
    board = tmp_path / "board"
    res = runner.invoke(
        cli,
        [
            "steb",
            "leaderboard",
            "--results",
            str(results),
            "--view",
            "definitional",
            "--out",
            str(board),
            "--n-boot",
            "100",
        ],
    )
    assert res.exit_code == 0, res.output
    assert [p.name for p in sorted(board.iterdir())] == [
        "steb_definitional_leaderboard.csv",
        "steb_definitional_leaderboard.md",
        "steb_definitional_leaderboard.png",
    ]
    res = runner.invoke(cli, ["steb", "clusters", "--results", str(results)])
    assert res.exit_code == 0 and "order_alignment" in res.output


def test_bad_result_file_names_file(tmp_path: Path, capsys) -> None:
    path = tmp_path / "m" / "d" / "clustering.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"model": {"name": "m"}, "dataset": {}, "task": "clustering"}))
    try:
        read_result(path)
    except DataError as error:
        assert str(path) in str(error) and "main_score_name" in str(error)
    else:  # pragma: no cover
        raise AssertionError("expected DataError")
    with pytest.raises(SystemExit) as exit_info:
        main(["steb", "scores", "--results", str(tmp_path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "clustering.json" in err and err.count("\n") == 1


def test_hub_ids_and_benchmarks(tmp_path: Path) -> None:
    built = tmp_path / "built" / "steb__STEL_feature"
    (built / "data").mkdir(parents=True)
    (built / "stylebench_build.json").write_text(json.dumps({"hub_id": "steb/STEL_feature"}))
    assert hub_id_for("whatever", str(built)) == "steb/STEL_feature"
    assert hub_id_for("steb__STEL_register", "/nonexistent/steb__STEL_register") == (
        "steb/STEL_register"
    )
    assert hub_id_for("steb/amazon", "steb/amazon") == "steb/amazon"
    for name in BENCHMARKS:
        assert benchmark_datasets(name), name
    assert "steb/STEL_feature" in benchmark_datasets("definitional")
    multi = set(benchmark_datasets("multilingual"))
    assert len(multi) == 17 and not multi & set(benchmark_datasets("operational"))
    refs, missing = resolve_benchmark("definitional", tmp_path / "built")
    assert str(built) in refs and "steb/STEL_feature" not in missing  # a pre-release folder
    assert "steb/STEL:register" in refs and "steb/STEL:register" in missing
    # the release layout: built/steb__STEL holds configs feature and register
    release = tmp_path / "built" / "steb__STEL"
    release.mkdir()
    configs = {c: {"schema": "style_sequences", "dataset": f"steb/STEL_{c}"} for c in ("register",)}
    (release / "stylebench_build.json").write_text(
        json.dumps({"hub_id": "steb/STEL", "configs": configs})
    )
    refs, missing = resolve_benchmark("definitional", tmp_path / "built")
    assert f"{release}:register" in refs and not any(m.startswith("steb/STEL") for m in missing)


def test_protocol_board_places_runs_beside_table_14(tmp_path: Path) -> None:
    ds = "steb/pan15_authorship_verification_dutch_test"
    chunk = summarize([score("x", ds, "predefined_pairs", 0.70)], n_boot=20)
    trunc = summarize([score("x", ds, "predefined_pairs", 0.60)], n_boot=20)
    board = protocol_board(chunk, trunc)
    run = board.rows[-1]
    assert run.model == "x" and run.coverage == "1 of 13" and not run.comparable
    # 70.00 falls below StyleDistance 72.40 and CISR 70.08: third; 60.00 truncated: 3rd
    assert run.values == {
        "chunk_and_pool_auc": 70.0,
        "chunk_and_pool_rank": 3.0,
        "truncate_auc": 60.0,
        "truncate_rank": 3.0,
    }
    marks = board.marks()
    assert marks[(3, "truncate_auc")] == "best"  # MSR, 67.51, under truncation
    assert not any(column.endswith("_rank") for _i, column in marks)
    exported = export(board, tmp_path)
    assert exported and all(p.exists() for p in exported.values())


def test_full_coverage_run_is_comparable_and_ranked() -> None:
    entries = steb_datasets()
    assert len(entries) == 96  # the catalogue is STEB's 96 datasets
    full = [
        score("full", e.hub_id, task, 0.99, accuracy=0.99) for e in entries for task in e.task_types
    ]
    summary = summarize(full, {}, n_boot=20)
    ms = summary.models["full"]
    assert ms.coverage == "96 of 96" and ms.comparable
    assert ms.views["operational"].complete and ms.views["definitional"].complete
    assert ms.views["operational"].overall == pytest.approx(0.99)
    board = build_leaderboard("operational", summary)
    assert board.rows[0].model == "full" and board.rows[0].comparable
    assert board.marks()[(0, "steb_score")] == "best"
