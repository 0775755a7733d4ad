"""Issue 31: PAN releases that share a layout are told apart, on small fixtures written
in their published layouts (the real folders are checked in
tests/integration/test_real_corpora_round3.py):

- discovery (``dataset_scripts.status``): PAN14 test corpus 1 from corpus 2 by folder
  name or by the corpus ``truth.json`` names; PAN15's test set (problems numbered 200
  and above) preferred over its training set whatever the folder order; PAN22's three
  datasets found each by its own folder; PAN18 by the ``positions`` of its truth files;
- the PAN13-15 builder (``pan_av.pan_folder_pairs``): a download holding several corpora
  is read for the dataset's corpus only (the others counted), a download lacking it says
  so with a "missing ..." error, and a problem id seen twice is an error.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dataset_scripts.core.errors import DataError
from dataset_scripts.registry import get_dataset
from dataset_scripts.status import BUILDABLE, NEEDS_DOWNLOAD, dataset_status, discover

CORPUS1 = "steb/pan14_authorship_verification_corpus1_english_essays_test"
CORPUS2 = "steb/pan14_authorship_verification_corpus2_english_essays_test"
PAN15 = "steb/pan15_authorship_verification_english_test"


def _touch(path: Path, text: str = "x") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _av_corpus(folder: Path, answers: dict[str, str], corpus: str = "", text: str = "") -> None:
    """A PAN13-15 corpus folder: truth.txt, one folder per problem, and (PAN14) a
    truth.json naming the corpus."""
    _touch(folder / "truth.txt", "".join(f"{p} {a}\n" for p, a in answers.items()))
    for problem in answers:
        _touch(folder / problem / "known01.txt", f"known text of {problem} {text}")
        _touch(folder / problem / "unknown.txt", f"unknown text of {problem} {text}")
    if corpus:
        problems = [{"name": p, "answer": a} for p, a in answers.items()]
        _touch(folder / "truth.json", json.dumps({"corpus": corpus, "problems": problems}))


def _rows(hub_id: str, raw: Path) -> tuple[list[dict], dict[str, int]]:
    result = get_dataset(hub_id).builder(raw)
    return result.tables["text_pairs"]["test"], result.dropped


def test_pan14_corpora_told_apart_by_name_or_truth_json(tmp_path: Path) -> None:
    early = "PAN 2014 - Author Identification - Early-bird Evaluation Corpus"
    final = "PAN 2014 - Author Identification - Final Evaluation Corpus"
    _av_corpus(tmp_path / "d1" / "pan14-author-verification-test-corpus1-essays", {"EE001": "Y"})
    _av_corpus(tmp_path / "renamed one" / "essays", {"EE001": "Y"}, corpus=early)
    _av_corpus(tmp_path / "renamed two" / "essays", {"EE001": "N", "EE002": "Y"}, corpus=final)
    found = discover(tmp_path)
    one = [m.folder.name for m in found["pan14_authorship_verification_test_corpus1"]]
    two = [m.folder.name for m in found["pan14_authorship_verification_test_corpus2"]]
    assert one == ["d1", "renamed one"] and two == ["renamed two"]
    status = dataset_status(get_dataset(CORPUS2), tmp_path, None, found)
    assert status.kind == BUILDABLE and status.raw == tmp_path / "renamed two"


def test_pan15_test_set_is_preferred_over_the_training_set(tmp_path: Path) -> None:
    """Both sets have truth.txt + ENnnn/known01.txt; only the test set has problems
    numbered 200 and above. The training set still feeds the dataset when alone."""
    _av_corpus(tmp_path / "a pan15 training", {"EN001": "Y", "EN100": "N"})
    _av_corpus(tmp_path / "b pan15 other", {"EN001": "Y", "EN201": "N", "EN500": "Y"})
    (first, second) = discover(tmp_path)["pan15_authorship_verification_english_test"]
    assert first.folder.name == "b pan15 other" and second.folder.name == "a pan15 training"
    assert dataset_status(get_dataset(PAN15), tmp_path, None).raw == tmp_path / "b pan15 other"
    alone = tmp_path / "alone"
    _av_corpus(alone / "a pan15 training", {"EN001": "Y"})
    assert dataset_status(get_dataset(PAN15), alone, None).raw == alone / "a pan15 training"


def test_pan22_levels_and_pan18_are_found_by_their_own_files(tmp_path: Path) -> None:
    level = tmp_path / "zenodo" / "pan22-style-change-detection" / "dataset1" / "validation"
    _touch(level / "problem-1.txt", "One.\nTwo.")
    _touch(level / "truth-problem-1.json", json.dumps({"authors": 2, "changes": [1]}))
    _touch(tmp_path / "sc2018" / "problem-1.txt", "Some text here. And more text.")
    _touch(tmp_path / "sc2018" / "problem-1.truth", '{"changes": true, "positions": [16]}')
    found = discover(tmp_path)
    assert [m.folder.name for m in found["pan22_style_change"]] == ["zenodo"]
    assert "pan22_style_change_dataset2" not in found
    assert [m.folder.name for m in found["pan18_style_change"]] == ["sc2018"]
    basic, advanced = (
        dataset_status(get_dataset(f"steb/pan22_style_change_{level}"), tmp_path, None, found)
        for level in ("basic", "advanced")
    )
    assert (basic.kind, advanced.kind) == (BUILDABLE, NEEDS_DOWNLOAD)


def test_a_download_with_both_pan14_corpora_builds_each_from_its_own(tmp_path: Path) -> None:
    """Corpus 1's problem ids are a subset of corpus 2's: mixed, EE001 would be read
    twice (with the other corpus' answer for one of them)."""
    raw = tmp_path / "pan14-authorship-verification-test-corpus-2014-04-22"
    _av_corpus(raw / "pan14-author-verification-test-corpus1-english-essays", {"EE001": "Y"})
    _av_corpus(
        raw / "pan14-author-verification-test-corpus2-english-essays",
        {"EE001": "N", "EE002": "Y", "EN003": "N"},
        text="(corpus 2)",
    )
    one, dropped_one = _rows(CORPUS1, raw)
    assert [(r["id"], r["label"], r["text2"]) for r in one] == [
        ("EE001", 1, "unknown text of EE001")
    ]
    assert dropped_one == {
        "problems of pan14-author-verification-test-corpus2-english-essays "
        "(not the early-bird test corpus 1)": 3
    }
    two, dropped_two = _rows(CORPUS2, raw)
    assert [(r["id"], r["label"]) for r in two] == [("EE001", 0), ("EE002", 1)]
    assert dropped_two == {
        "problems of pan14-author-verification-test-corpus1-english-essays "
        "(not the final test corpus 2)": 1,
        "problem of another language/genre (prefix not in ['EE'])": 1,
    }


def test_missing_corpus_and_twice_seen_problems_are_errors(tmp_path: Path) -> None:
    only2 = tmp_path / "only corpus 2"
    _av_corpus(only2 / "pan14-test-corpus2-english-essays", {"EE001": "Y"})
    _av_corpus(only2 / "pan14-test-corpus2-english-novels", {"EN001": "Y"})
    with pytest.raises(DataError, match=r"^missing early-bird test corpus 1 in .*only corpus 2"):
        _rows(CORPUS1, only2)
    twice = tmp_path / "two copies"
    _av_corpus(twice / "copy a", {"EN001": "Y"})
    _av_corpus(twice / "copy b", {"EN001": "Y"})
    with pytest.raises(DataError, match=r"problem EN001 is in .*copy a/EN001 and in .*copy b"):
        _rows("steb/pan13_authorship_verification_english_test", twice)
    dutch = "steb/pan14_authorship_verification_corpus1_dutch_essays_test"
    with pytest.raises(DataError, match=r"^missing problems \['DE'\]"):
        _rows(dutch, tmp_path / "only corpus 2" / "pan14-test-corpus2-english-essays")
