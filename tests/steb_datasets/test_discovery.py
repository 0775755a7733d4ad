"""Raw-download discovery (``dataset_scripts.status``): a download is recognised by its
folder name or, under any other name, by the files that identify it; releases with the
same layout are told apart by their name token; ``build --all`` reports what matched
where, isolates failures and exits non-zero only when a present download failed."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from dataset_scripts.registry import get_dataset
from dataset_scripts.status import BUILDABLE, NEEDS_DOWNLOAD, dataset_status, discover
from evaluators.cli import cli


def _touch(path: Path, text: str = "x") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _pan_level(folder: Path) -> None:
    _touch(folder / "problem-1.txt", "First paragraph.\nSecond paragraph.")
    _touch(folder / "truth-problem-1.json", json.dumps({"authors": 2, "changes": [1]}))


def _sms(folder: Path, lines: list[str]) -> None:
    _touch(folder / "SMSSpamCollection", "\n".join(lines) + "\n")


def test_layouts_are_found_under_any_name(tmp_path: Path) -> None:
    _sms(tmp_path / "downloads-2024" / "smsspamcollection", ["ham\thi"])
    _pan_level(
        tmp_path
        / "zenodo 7729178"
        / "release"
        / "pan23-multi-author-analysis-dataset2"
        / "pan23-multi-author-analysis-dataset2-validation"
    )
    _touch(tmp_path / "corpus" / "blogs" / "1000331.female.37.indUnk.Leo.xml", "<Blog>\n</Blog>")
    _touch(tmp_path / "stormfront" / "annotations_metadata.csv", "file_id,label\n")
    _touch(tmp_path / "stormfront" / "all_files" / "1_1.txt", "a sentence")
    found = discover(tmp_path)
    where = {source: [(m.folder.name, m.how) for m in ms] for source, ms in found.items()}
    assert where["sms_spam_collection"] == [
        ("downloads-2024", "layout: smsspamcollection/SMSSpamCollection")
    ]
    assert where["pan23_multi_author_analysis"] == [
        (
            "zenodo 7729178",
            "layout: release/pan23-multi-author-analysis-dataset2/"
            "pan23-multi-author-analysis-dataset2-validation/truth-problem-1.json",
        )
    ]
    assert where["blog_authorship_corpus"] == [
        ("corpus", "layout: blogs/1000331.female.37.indUnk.Leo.xml")
    ]
    assert where["vicomtech_hate_speech_stormfront"][0][0] == "stormfront"
    status = dataset_status(get_dataset("steb/sms_spam"), tmp_path, None)
    assert status.kind == BUILDABLE and status.raw == tmp_path / "downloads-2024"
    assert "layout: smsspamcollection/SMSSpamCollection" in status.line()


def test_same_layout_needs_the_release_token(tmp_path: Path) -> None:
    """easy/validation/truth-problem-N.json is shared by PAN24, PAN25 and PAN26: only a
    path naming pan24 is taken for PAN24; PAN15's EN###/ layout is PAN14's too."""
    _pan_level(tmp_path / "style-change" / "easy" / "validation")
    _pan_level(tmp_path / "pan24-multi-author-analysis" / "easy" / "validation")
    for folder in ("pan14-novels", "pan15 english"):
        _touch(tmp_path / folder / "truth.txt", "EN001 Y\n")
        _touch(tmp_path / folder / "EN001" / "known01.txt")
        _touch(tmp_path / folder / "EN001" / "unknown.txt")
    found = discover(tmp_path)
    assert [m.folder.name for m in found["pan24_multi_author_analysis"]] == [
        "pan24-multi-author-analysis"
    ]
    assert [m.folder.name for m in found["pan15_authorship_verification_english_test"]] == [
        "pan15 english"
    ]


def test_the_root_itself_may_be_the_download(tmp_path: Path) -> None:
    _sms(tmp_path, ["ham\thi"])
    (match,) = discover(tmp_path)["sms_spam_collection"]
    assert match.folder == tmp_path and match.how == "layout: SMSSpamCollection"
    assert dataset_status(get_dataset("steb/sms_spam"), tmp_path / "absent", None).kind == (
        NEEDS_DOWNLOAD
    )


def test_build_all_reports_matches_and_fails_only_on_present_data(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    ham = [f"ham\tmessage {i}" for i in range(30)]
    spam = [f"spam\tWIN prize {i}" for i in range(30)]
    _sms(raw / "uci sms", ham + spam)
    runner = CliRunner()
    args = ["build", "--all", "--family", "steb", "--raw-root", str(raw)]
    ok = runner.invoke(cli, [*args, "--built-root", str(tmp_path / "built")])
    assert ok.exit_code == 0, ok.output
    assert "sms_spam_collection: " in ok.output and "(layout: SMSSpamCollection)" in ok.output
    assert "built steb/sms_spam ->" in ok.output and ", 0 failed," in ok.output
    _sms(raw / "uci sms", [*ham, "spam without a tab", *spam])  # a malformed line 31
    bad = runner.invoke(cli, [*args, "--built-root", str(tmp_path / "built2")])
    assert bad.exit_code != 0
    assert "failed steb/sms_spam" in bad.output and "SMSSpamCollection line 31" in bad.output
    assert "1 failed" in bad.output
