"""`preview` and `validate` (evaluators.dataset_check) on built folders, good and broken:
every error names the file, the row and the column; counts and the per-class rule are
checked against a count by hand."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from evaluators.dataset_check import format_preview, preview, validate
from evaluators.tasks import Sampling
from tests.core.helpers import write_folder


def _labelled_rows(sizes: dict[str, int]) -> list[dict[str, str]]:
    return [
        {"id": f"{label}-{i}", "text": f"text {i} of {label}", "label": label}
        for label, n in sizes.items()
        for i in range(n)
    ]


def _retrieval_rows() -> list[dict[str, object]]:
    rows = []
    for a in range(4):
        rows.append({"id": f"q{a}", "author": f"a{a}", "role": "query", "texts": [f"q {a}"] * 2})
        rows.append({"id": f"t{a}", "author": f"a{a}", "role": "target", "texts": [f"t {a}"]})
    rows.append({"id": "t9", "author": "a9", "role": "target", "texts": ["only a target"]})
    return rows


def _build(tmp_path: Path, tables: dict) -> Path:
    return write_folder(tables, tmp_path / "ds", "local/check")


def _parquet(folder: Path, config: str) -> Path:
    (path,) = sorted((folder / "data" / config).glob("test-*.parquet"))
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return _build(
        tmp_path,
        {
            "labelled_texts": {"test": _labelled_rows({"a": 30, "b": 12, "c": 40})},
            "retrieval": {"test": _retrieval_rows()},
        },
    )


def test_preview_counts_and_the_auto_rule(folder: Path) -> None:
    info = preview(folder, n_rows=2)
    by_config = {c["config"]: c for c in info["configs"]}
    labelled = by_config["labelled_texts"]
    assert labelled["rows"] == {"test": 82}
    assert labelled["task_types"] == ["clustering", "all_to_all_pairs"]
    assert labelled["classes"]["sizes"] == {"c": 40, "a": 30, "b": 12}
    rule = labelled["classes"]["per_class_rule"]
    # the authors' "auto": clamp(12 // 1, 25, 200) = 25 per class; b (12) is dropped
    assert rule["episodes_per_class"] == 25 and rule["dropped"] == {"b": 12}
    assert len(labelled["first_rows"]) == 2
    retrieval = by_config["retrieval"]
    assert retrieval["classes"]["unit"] == "document"
    assert retrieval["classes"]["sizes"]["query:a0"] == 2  # documents, not rows
    assert retrieval["classes"]["per_class_rule"]["episode_size"] == -1
    text = format_preview(info)
    assert "keeps 2 of 3 classes; drops b (12)" in text
    assert "rows     test 82" in text


def test_preview_with_episodes_asked_for(folder: Path) -> None:
    rule = preview(folder, sampling=Sampling(2, 15))["configs"][0]["classes"]["per_class_rule"]
    assert rule["units_per_class"] == 30 and rule["dropped"] == {"b": 12}
    # auto with episode size 4 wants clamp(12 // 4, 25, 200) = 25 episodes = 100 texts
    info = preview(folder, sampling=Sampling(4, "auto"))
    rule = info["configs"][0]["classes"]["per_class_rule"]
    assert "no class has the 100 units the episodes need" in rule["error"]
    assert "per-class rule 4/auto: no class has" in format_preview(info)


def test_validate_a_good_folder(folder: Path) -> None:
    report = validate(folder)
    assert report.ok, [str(p) for p in report.problems]
    assert report.checked["rows"] == 82 + 9 and report.checked["files"] == 2
    (warning,) = report.warnings
    assert "1 author(s) have a target but no query" in warning.message and "'a9'" in warning.message


def _rewrite(path: Path, rows: list[dict], schema: pa.Schema | None = None) -> None:
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)


def test_validate_names_file_row_and_column(folder: Path) -> None:
    path = _parquet(folder, "labelled_texts")
    rows = pq.read_table(path).to_pylist()
    rows[3]["text"] = "   "
    _rewrite(path, rows)
    (error,) = validate(folder).errors
    assert error.where == f"{path} row 3"
    assert "column 'text' holds an empty text" in error.message


def test_validate_missing_extra_and_mistyped_columns(folder: Path) -> None:
    path = _parquet(folder, "labelled_texts")
    rows = [
        {"id": r["id"], "label": i % 3, "note": "x"}
        for i, r in enumerate(pq.read_table(path).to_pylist())
    ]
    _rewrite(path, rows)
    messages = [str(p) for p in validate(folder).errors]
    assert any(f"{path}: missing column 'text'" in m for m in messages), messages
    assert any("columns ['note'] are not in schema labelled_texts" in m for m in messages)
    assert any("column 'label' has Arrow type int64, expected" in m for m in messages)


def test_validate_task_requirements(tmp_path: Path) -> None:
    rows = [
        {"id": f"{g}-{i}", "group": g, "texts": [f"{g} {i} a", f"{g} {i} b"], "styles": ["x", "y"]}
        for g, n in (("two", 2), ("one", 1))
        for i in range(n)
    ]
    folder = _build(tmp_path, {"style_sequences": {"test": rows}})
    report = validate(folder)
    assert report.ok
    (warning,) = report.warnings
    assert "1 group(s) with one sequence are skipped" in warning.message
    # episodes that cannot be formed are an error naming the need
    report = validate(folder, sampling=Sampling(2, 3))
    assert any("no class has the 6 units the episodes need" in p.message for p in report.errors)


def test_validate_missing_card_and_unknown_id(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (error,) = validate(empty).errors
    assert error.where == str(empty / "README.md")
    report = validate("nobody/no_such_dataset_xyz")
    assert not report.ok
    assert "nobody/no_such_dataset_xyz" in str(report.errors[0])


def test_validate_counts_agree_with_the_parquet(folder: Path) -> None:
    path = _parquet(folder, "labelled_texts")
    labels = Counter(pq.read_table(path).column("label").to_pylist())
    info = preview(folder)
    assert info["configs"][0]["classes"]["sizes"] == dict(labels.most_common())


def test_the_commands_print_and_exit_with_the_status(folder: Path) -> None:
    from click.testing import CliRunner

    from evaluators.cli import cli

    runner = CliRunner()
    shown = runner.invoke(cli, ["steb", "preview", str(folder), "--rows", "1", "--per-class", "10"])
    assert shown.exit_code == 0, shown.output
    assert "per-class rule (episode size None, per class 10)" in shown.output
    assert "keeps 3 of 3 classes" in shown.output
    good = runner.invoke(cli, ["validate", str(folder)])
    assert good.exit_code == 0, good.output
    assert "1 author(s) have a target but no query" in good.output
    path = _parquet(folder, "labelled_texts")
    rows = pq.read_table(path).to_pylist()
    rows[5]["id"] = rows[4]["id"]
    _rewrite(path, rows)
    bad = runner.invoke(cli, ["steb", "validate", str(folder)])
    assert bad.exit_code != 0
    assert f"error: {path} row 5: duplicate id {rows[4]['id']!r}" in bad.output
    wrong = runner.invoke(cli, ["validate", str(folder), "--episode-size", "0"])
    assert wrong.exit_code != 0 and "episode size must be >= 1 or -1" in str(wrong.exception)


def test_parse_submetrics() -> None:
    from dataset_scripts.core.errors import DataError
    from evaluators.dataset_check import parse_submetrics

    assert parse_submetrics(["f=formal, informal", "g=x"]) == {
        "f": ["formal", "informal"],
        "g": ["x"],
    }
    for bad in (["nameonly"], ["=a"], ["f="], ["f=a", "f=b"]):
        with pytest.raises(DataError, match="--submetric"):
            parse_submetrics(bad)
