"""#44 item 3: Hub eval results the Hub accepts. Every field of ``.eval_results`` is
checked against the Hub's documented format (https://huggingface.co/docs/hub/eval-results
and huggingface_hub's ``EvalResultEntry``), including the optional fields; duplicates
are refused; what we write round-trips through huggingface_hub's own parser and
serializer; ``source.url`` is a URL or left out; STEB-nano datasets carry an eval.yaml;
a dry run writes nothing."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from huggingface_hub import eval_result_entries_to_yaml, parse_eval_result_entries

from evaluators.cli import cli
from evaluators.publish import (
    PublishError,
    eval_yaml_text,
    plan_push,
    public_url,
    validate_eval_results,
)
from evaluators.results.repository import iter_model_folders
from evaluators.steb_scores.model_card import eval_results
from tests.core.helpers import write_folder

#: the full example of the Hub's documentation, every optional field set
FULL = {
    "dataset": {"id": "cais/hle", "task_id": "default", "revision": "5503434ddd753f426f4b381"},
    "value": 20.90,
    "verifyToken": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
    "date": "2025-01-15",
    "source": {
        "url": "https://huggingface.co/spaces/SaylorTwift/smollm3-mmlu-pro",
        "name": "Eval traces",
        "user": "SaylorTwift",
    },
    "evaluation_framework": "inspect-ai",
    "notes": "no-tools",
}
MINIMAL = {"dataset": {"id": "Idavidrein/gpqa", "task_id": "gpqa_diamond"}, "value": 0.412}


def _check(*entries: dict[str, Any]) -> int:
    return validate_eval_results(yaml.safe_dump(list(entries)), "x.yaml")


def test_the_documented_examples_are_accepted() -> None:
    assert _check(FULL, MINIMAL) == 2
    datetime_stamp = {**MINIMAL, "date": "2025-01-15T10:30:00Z"}
    assert _check(datetime_stamp) == 1


def _with(entry: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = json.loads(json.dumps(entry))
    *parents, last = path.split(".")
    target = out
    for key in parents:
        target = target[key]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return out


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("colour", "red", "unknown keys ['colour']"),
        ("dataset.task", "x", "dataset has unknown keys ['task']"),
        ("dataset.task_id", KeyError, "dataset lacks task_id"),
        ("dataset.id", "not a repo id", "invalid repo id"),
        ("value", True, "is not a finite number"),
        ("value", float("nan"), "is not a finite number"),
        ("value", "20.9", "is not a finite number"),
        ("date", "15 January 2025", "is not an ISO-8601 date"),
        ("source.url", KeyError, "source lacks url"),
        ("source.url", "/home/alice/results.git", "is not an http(s) URL"),
        ("source.url", "git@github.com:org/results.git", "is not an http(s) URL"),
        ("source.url", "https://alice:hf_key@example.org/r", "is not an http(s) URL"),
        ("source.colour", "red", "source has unknown keys ['colour']"),
        ("notes", "", "is not a string"),
        ("evaluation_framework", 3, "is not a string"),
    ],
)
def test_each_rule_refuses_naming_entry_and_field(path: str, value: Any, message: str) -> None:
    with pytest.raises(PublishError, match=r"x\.yaml: entry 1") as error:
        _check(MINIMAL, _with(FULL, path, value))
    assert message in str(error.value)


def test_duplicates_are_refused() -> None:
    twice = _with(FULL, "value", 30.0)
    with pytest.raises(PublishError, match="entry 2 duplicates entry 0: dataset cais/hle"):
        _check(FULL, MINIMAL, twice)
    other_task = _with(twice, "dataset.task_id", "other")
    assert _check(FULL, MINIMAL, other_task) == 3


@pytest.mark.parametrize(
    ("remote", "url"),
    [
        ("git@github.com:org/style-results.git", "https://github.com/org/style-results"),
        ("ssh://git@gitlab.com/org/style-results.git", "https://gitlab.com/org/style-results"),
        ("https://github.com/org/style-results.git", "https://github.com/org/style-results.git"),
        ("https://alice:key@github.com/org/r.git", None),  # credentials: never published
        ("/srv/git/style-results.git", None),  # a local path is no address
        ("file:///srv/git/r.git", None),
    ],
)
def test_source_url_is_a_web_address_or_nothing(remote: str, url: str | None) -> None:
    assert public_url(remote) == url


def test_what_we_write_round_trips_through_huggingface_hub(repo: Path) -> None:
    (folder,) = [f for f in iter_model_folders(repo) if f.meta["name"] == "stylometric"]
    records = [r for _, r in folder.records]
    entries = eval_results(records, "https://huggingface.co/datasets/org/style-results")
    assert len(entries) == 3 and validate_eval_results(yaml.safe_dump(entries), "s.yaml") == 3
    parsed = parse_eval_result_entries(yaml.safe_load(yaml.safe_dump(entries)))
    assert eval_result_entries_to_yaml(parsed) == entries  # nothing the Hub does not know
    assert {(e.dataset_id, e.task_id) for e in parsed} == {
        ("steb/pan23_style_change", f"{level}_predefined_pairs")
        for level in ("easy", "medium", "hard")
    }
    # a local build's revision is its content fingerprint: no Hub commit, left out
    assert all(r.dataset.revision.startswith("local-") for r in records)
    assert all(e.dataset_revision is None for e in parsed)


def test_a_git_remote_becomes_the_source_url(repo: Path) -> None:
    def source_of() -> set[Any]:
        plan = plan_push(str(repo), kind="model-results", model="stylometric", repo_id="a/b")
        text = (plan.folder / plan.files[0]).read_text(encoding="utf-8")
        validate_eval_results(text, plan.files[0])
        return {json.dumps(e.get("source"), sort_keys=True) for e in yaml.safe_load(text)}

    git = ["git", "-C", str(repo), "remote"]
    subprocess.run([*git, "add", "origin", str(repo.parent / "bare.git")], check=True)
    assert source_of() == {"null"}  # a local bare folder: no address, no source
    subprocess.run([*git, "set-url", "origin", "git@github.com:org/style-results.git"], check=True)
    assert source_of() == {
        json.dumps(
            {
                "name": "stylebench results repository",
                "url": "https://github.com/org/style-results",
            },
            sort_keys=True,
        )
    }


def test_steb_nano_datasets_carry_an_eval_yaml(tmp_path: Path) -> None:
    rows = [{"id": f"r{i}", "text": f"text {i}", "label": "ab"[i % 2]} for i in range(6)]
    folder = write_folder(
        {"labelled_texts": {"test": rows}}, tmp_path / "steb-nano__sms_spam", "steb-nano/sms_spam"
    )
    payload = yaml.safe_load(eval_yaml_text(folder, "steb-nano/sms_spam") or "")
    assert payload["name"] == "sms_spam (STEB-nano)" and "STEB-nano(v1)" in payload["description"]
    assert payload["tasks"] == [
        {"id": f"labelled_texts_{task}", "config": "labelled_texts", "split": "test"}
        for task in ("clustering", "all_to_all_pairs")
    ]
    assert eval_yaml_text(folder, "someone/not-a-benchmark") is None
    # a dry run lists it and writes nothing (#45)
    before = sorted(p.name for p in folder.rglob("*"))
    result = CliRunner().invoke(cli, ["push", str(folder), "--repo-id", "org/nano", "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "  eval.yaml\n" in result.output and sorted(p.name for p in folder.rglob("*")) == before


def test_eval_yaml_is_checked_against_the_documented_format() -> None:
    from evaluators.publish import validate_eval_yaml

    good = {
        "name": "STEL",
        "description": "order alignment",
        "evaluation_framework": "stylebench",
        "tasks": [{"id": "a_clustering", "config": "a", "split": "test"}],
    }
    assert validate_eval_yaml(yaml.safe_dump(good), "eval.yaml", {"a"}) == 1
    twice = {**good, "tasks": good["tasks"] * 2}
    bad = [
        (twice, "task 1: id 'a_clustering' given twice"),
        ({**good, "tasks": [{"id": "x", "config": "b", "split": "test"}]}, "config 'b' is not"),
        ({**good, "tasks": [{"id": "x", "config": "a"}]}, "task 0 lacks split"),
        ({k: v for k, v in good.items() if k != "evaluation_framework"}, "lacks evaluation_"),
        ({**good, "leaderboard": True}, "unknown keys ['leaderboard']"),
        ({**good, "tasks": []}, "tasks is a non-empty list"),
    ]
    for payload, message in bad:
        with pytest.raises(PublishError) as error:
            validate_eval_yaml(yaml.safe_dump(payload), "eval.yaml", {"a"})
        assert message in str(error.value)
