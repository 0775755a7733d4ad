"""Failure isolation: one unreadable style-discrimination source fails only its own
dataset; every other domain still builds (without that source's DD negatives, which its
card names), and ``stylebench build --all`` reports the failure with a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.hub_folder import BUILD_INFO
from evaluators.cli import cli

pytestmark = pytest.mark.corpora

BROKEN_POST = "<Blog>\n<date>01,May,2004</date>\n<post>\nnever closed\n"


@pytest.fixture
def root_with_broken_blogs(corpora: Path, tmp_path: Path) -> Path:
    """Real Reuters-21578, Reuter_50_50 and Enron beside a blog folder with an unclosed
    post."""
    root = tmp_path / "corpora"
    root.mkdir()
    for name in ("reuters21578", "ccat50", "enron_emails_drndr"):
        (root / name).symlink_to(corpora / name, target_is_directory=True)
    blogs = root / "blog_authorship_corpus" / "blogs"
    blogs.mkdir(parents=True)
    (blogs / "1000001.female.23.Arts.Leo.xml").write_text(BROKEN_POST, encoding="latin-1")
    return root


def test_one_unreadable_source_fails_only_its_own_dataset(root_with_broken_blogs: Path) -> None:
    from dataset_scripts.styledisc.build import build_domain

    with pytest.raises(DataError, match=r"1000001\.female\.23\.Arts\.Leo\.xml line 3: <post>"):
        build_domain(root_with_broken_blogs, "blogs")
    rows, dropped = build_domain(root_with_broken_blogs, "reuters")
    assert {r["setting"] for r in rows} == {"DD", "AA"} and len(rows) == 100
    (reason,) = [r for r in dropped if r.startswith("DD negatives: domain blogs not used")]
    assert "DataError" in reason and "<post> without </post>" in reason
    assert {r["negative_domain"] for r in rows if r["setting"] == "DD"} == {"enron"}


def test_build_all_isolates_and_exits_non_zero(
    root_with_broken_blogs: Path, tmp_path: Path
) -> None:
    built = tmp_path / "built"
    result = CliRunner().invoke(
        cli,
        [
            "build",
            "--all",
            "--family",
            "styledisc",
            "--raw-root",
            str(root_with_broken_blogs),
            "--built-root",
            str(built),
        ],
    )
    assert result.exit_code != 0
    assert "failed styledisc/blogs" in result.output and "<post> without </post>" in result.output
    for domain in ("reuters", "ccat50", "enron"):
        info = json.loads((built / f"styledisc__{domain}" / BUILD_INFO).read_text())
        assert any(r.startswith("DD negatives: domain blogs not used") for r in info["dropped"])
    assert not (built / "styledisc__blogs").exists()
    assert "3 datasets built, 1 failed" in result.output
