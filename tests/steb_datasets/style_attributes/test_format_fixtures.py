"""Builders for sources not reachable here, run on small fixtures written in each source's
published raw format, plus the error contract (malformed record -> file and line; missing
file -> expected path and download URL) for these and the real-data builders."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from dataset_scripts.build import build_dataset
from dataset_scripts.core.errors import DataError
from dataset_scripts.registry import get_dataset
from evaluators.data import load_table

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _blog_fixture_is_the_full_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 60-file blog fixture stands in for the full 19,320-file corpus (a copy with
    fewer files is a sample and uses every file: see test_blog_sample_uses_every_file)."""
    from dataset_scripts.steb import blog

    monkeypatch.setattr(blog, "FULL_CORPUS_FILES", 60)


def _build(name: str, raw: Path) -> tuple[list[dict], dict[str, int]]:
    tables, dropped = get_dataset(f"steb/{name}").builder(raw)
    return tables["labelled_texts"]["test"], dropped


@pytest.mark.parametrize(
    ("name", "folder", "expected"),
    [
        ("sms_spam", "sms", {"ham": 30, "spam": 30}),
        ("telegram-spam-ham", "telegram", {"ham": 30, "spam": 30}),
        ("enron_spam", "enron", {"ham": 30, "spam": 30}),
        (
            "hate_speech_and_offensive_language",
            "davidson",
            {"hate_speech": 30, "offensive_language": 30, "neither": 30},
        ),
        ("hate_speech", "stormfront", {"noHate": 25, "hate": 25}),
        ("blog_age", "blogs", {"10s": 30, "20s": 30, "30s": 30}),
        ("blog_gender", "blogs", {"male": 30, "female": 30}),
        ("core", "core", {"NE": 25, "DT": 25}),
        ("fce_l1", "fce", {"French": 25, "Spanish": 25}),
        ("pastel_ethnic", "pastel_stories", {"Caucasian": 27, "Hispanic or Latino": 27}),
        ("pastel_tod", "pastel_stories", {"Morning": 27, "Evening": 27}),
        ("pastel_gender", "pastel_stories", {"Male": 28, "Female": 28}),
    ],
)
def test_fixture_counts(name: str, folder: str, expected: dict[str, int]) -> None:
    rows, _dropped = _build(name, FIXTURES / folder)
    assert Counter(r["label"] for r in rows) == expected
    assert all(r["text"] == r["text"].strip() and r["text"] for r in rows)


def test_fixture_drop_reasons() -> None:
    _, dropped = _build("hate_speech", FIXTURES / "stormfront")
    assert dropped["label 'relation' (not one of STEB's 2 classes)"] == 9
    assert dropped["label 'idk/skip' (not one of STEB's 2 classes)"] == 1
    _, dropped = _build("sms_spam", FIXTURES / "sms")
    assert dropped == {"label 'ham' capped at 30 rows (STEB per-class cap)": 30}
    rows, dropped = _build("blog_gender", FIXTURES / "blogs")
    assert dropped == {
        "label 'male' capped at 30 rows (STEB per-class cap)": 30,
        "blog files of the Hub loader's train split (STEB uses validation)": 57,
    }
    assert rows[0]["text"].startswith("Today I wrote post 0 about my caf\u00e9 visit")


def test_core_sub_labels_and_fce_original_text() -> None:
    rows, dropped = _build("core", FIXTURES / "core")
    assert dropped["document with main register label(s) only"] == 9
    assert dropped["label 'OB' has 3 < 25 rows (class dropped)"] == 3
    assert rows[0]["id"] == "0000000-NE"  # train.tsv.gz is read first, ids carry the label
    rows, dropped = _build("fce_l1", FIXTURES / "fce")
    assert rows[0]["text"] == (
        "Dear Sir or Madam,\nI am writing to tell that the show 0 was disappointment."
    )
    assert rows[1]["text"] == "Last summer I go to the beatch number 0."
    assert dropped["label 'Greek' has 2 < 25 rows (class dropped)"] == 2


def test_pastel_story_format() -> None:
    rows, dropped = _build("pastel_ethnic", FIXTURES / "pastel_stories")
    assert dropped == {"story without a ethnic value": 2}
    assert rows[0] == {
        "id": "test/1000_0",  # sorted paths: test/ before train/, as STEB's sorted glob
        "text": "We went to the beach 0. The sun was hot. Friends came along. We swam for "
        "hours. Then we drove home.",
        "label": "Caucasian",
    }


def test_blog_uses_every_twentieth_file_and_age_groups() -> None:
    from dataset_scripts.steb.blog import age_bucket, validation_files

    files = validation_files(FIXTURES / "blogs")
    assert [f.name.split(".")[0] for f in files] == ["1000000", "1000140", "1000280"]
    assert [age_bucket(a) for a in (13, 17, 18, 23, 27, 33, 47, 48)] == [
        "10s",
        "10s",
        None,
        "20s",
        "20s",
        "30s",
        "30s",
        None,
    ]


def test_blog_sample_uses_every_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy with fewer files than the full corpus is a sample: its validation split
    would be a handful of bloggers, so every file is used (and nothing is counted as the
    train split)."""
    from dataset_scripts.steb import blog

    monkeypatch.setattr(blog, "FULL_CORPUS_FILES", 19_320)
    files = blog.validation_files(FIXTURES / "blogs", dropped := Counter())
    assert len(files) == 60 and dropped == {}
    assert "fewer than 19,320 files is a sample" in get_dataset("steb/blog_gender").protocol


def test_fixture_dataset_loads(tmp_path: Path) -> None:
    folder, _ = build_dataset(get_dataset("steb/sms_spam"), FIXTURES / "sms", tmp_path / "sms")
    table = load_table(str(folder), "labelled_texts", "test")
    assert len(table.rows) == 60 and table.rows[0]["id"] == "sms-1"


# -- error contract -------------------------------------------------------------------


def _corrupt(tmp_path: Path, folder: str, relative: str, line_no: int, new: str) -> Path:
    copy = tmp_path / folder
    shutil.copytree(FIXTURES / folder, copy)
    path = copy / relative
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[line_no - 1] = new
    path.write_text("".join(lines), encoding="utf-8")
    return copy


@pytest.mark.parametrize(
    ("name", "folder", "relative", "line_no", "new", "message"),
    [
        ("sms_spam", "sms", "SMSSpamCollection", 5, "maybe\tnot a label\n", "line 5"),
        ("telegram-spam-ham", "telegram", "dataset.csv", 4, "eggs,hello\n", "line 4"),
        ("enron_spam", "enron", "test.jsonl", 7, "{not json\n", "line 7"),
        (
            "hate_speech_and_offensive_language",
            "davidson",
            "data/labeled_data.csv",
            3,
            "1,3,0,0,3,7,a tweet\n",
            "line 3",
        ),
        (
            "hate_speech",
            "stormfront",
            "annotations_metadata.csv",
            2,
            "12834217_1,572066,1346,0,angry\n",
            "line 2",
        ),
    ],
)
def test_malformed_record_names_file_and_line(
    tmp_path: Path, name: str, folder: str, relative: str, line_no: int, new: str, message: str
) -> None:
    raw = _corrupt(tmp_path, folder, relative, line_no, new)
    with pytest.raises(DataError, match=message) as error:
        _build(name, raw)
    assert Path(relative).name in str(error.value)


@pytest.mark.parametrize(
    ("name", "url"),
    [
        ("sms_spam", "archive.ics.uci.edu"),
        ("telegram-spam-ham", "thehamkercat/telegram-spam-ham"),
        ("enron_spam", "SetFit/enron_spam"),
        ("hate_speech", "Vicomtech/hate-speech-dataset"),
        ("hate_speech_and_offensive_language", "t-davidson"),
        ("blog_age", "koppel/BlogCorpus"),
        ("core", "TurkuNLP/CORE-corpus"),
        ("fce_l1", "ilexir.co.uk"),
        ("bible_versions", "keithecarlson/StyleTransferBibleData"),
        ("corpus-of-diverse-styles", "billray110/corpus-of-diverse-styles"),
        ("wikipedia_politeness", "wikipedia-politeness-corpus"),
        ("stackexchange_politeness", "stack-exchange-politeness-corpus"),
        ("eWAVE", "cldf-datasets/ewave"),
        ("x_genre", "X-GENRE-text-genre-dataset"),
        ("pastel_gender", "dykang/PASTEL"),
        ("pastel_tod", "dykang/PASTEL"),
    ],
)
def test_missing_raw_names_path_and_url(tmp_path: Path, name: str, url: str) -> None:
    with pytest.raises(DataError, match="expected") as error:
        get_dataset(f"steb/{name}").builder(tmp_path)
    assert url in str(error.value) and str(tmp_path) in str(error.value)


def test_missing_stormfront_text_file(tmp_path: Path) -> None:
    copy = tmp_path / "stormfront"
    shutil.copytree(FIXTURES / "stormfront", copy)
    (copy / "all_files" / "12834218_2.txt").unlink()
    with pytest.raises(DataError, match=r"12834218_2\.txt.*Vicomtech"):
        _build("hate_speech", copy)


def test_real_format_errors(tmp_path: Path) -> None:
    """Malformed records in the formats of the real-data builders (written here)."""
    bible = tmp_path / "Data" / "Bibles" / "ASV" / "Genesis"
    bible.mkdir(parents=True)
    (bible / "Genesis1.txt").write_text("1 In the beginning\nverse two without number\n")
    with pytest.raises(DataError, match=r"Genesis1\.txt line 2"):
        get_dataset("steb/bible_versions").builder(tmp_path)

    (tmp_path / "wikipedia.annotated.csv").write_text(
        "Community,Id,Request,Normalized Score\nWikipedia,1,Could you?,0.5\nWikipedia,2,Why?,high\n"
    )
    with pytest.raises(DataError, match=r"wikipedia\.annotated\.csv line 3.*'high'"):
        get_dataset("steb/wikipedia_politeness").builder(tmp_path)

    pastel = tmp_path / "tsv_bert_files"
    pastel.mkdir()
    (pastel / "combined_gender.tsv").write_text("0\tA sentence.\nno tab here\n")
    with pytest.raises(DataError, match=r"combined_gender\.tsv line 2"):
        get_dataset("steb/pastel_gender").builder(tmp_path)

    (tmp_path / "X-GENRE-dev.tsv").write_text("\ttext\tlabels\n0\tSome text\tPoetry\n")
    with pytest.raises(DataError, match=r"X-GENRE-dev\.tsv line 2.*'Poetry'"):
        get_dataset("steb/x_genre").builder(tmp_path)
