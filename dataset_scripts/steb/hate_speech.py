"""STEB hate-speech datasets: ``steb/hate_speech`` (de Gibert et al. 2018, Stormfront
sentences, hate vs noHate) and ``steb/hate_speech_and_offensive_language`` (Davidson et al.
2017, tweets: hate speech, offensive language, neither).

Raw formats:

* ``hate_speech``: the repository's ``annotations_metadata.csv`` (``file_id, user_id,
  subforum_id, num_contexts, label``) and one text file per sentence,
  ``all_files/<file_id>.txt``. Labels ``relation`` (the sentence needs its neighbours to
  be judged) and ``idk/skip`` are not classes of STEB's 2-class set and are dropped.
* ``hate_speech_and_offensive_language``: ``data/labeled_data.csv`` (an unnamed index
  column, ``count, hate_speech, offensive_language, neither, class, tweet``) where
  ``class`` is 0 hate speech, 1 offensive language, 2 neither.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.raw_io import read_text
from dataset_scripts.steb.catalog import clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import (
    CAP_PROTOCOL,
    find_first,
    labelled_builder,
    read_delimited,
    require,
)

STORMFRONT_URL = "https://github.com/Vicomtech/hate-speech-dataset"
DAVIDSON_URL = "https://github.com/t-davidson/hate-speech-and-offensive-language"
STORMFRONT_LABELS = ("hate", "noHate")
DAVIDSON_CLASSES = {"0": "hate_speech", "1": "offensive_language", "2": "neither"}


def read_stormfront(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    metadata = find_first(
        raw, ("annotations_metadata.csv", ""), STORMFRONT_URL, "annotations_metadata.csv"
    )
    folder = metadata.parent / "all_files"
    for line, row in read_delimited(metadata, ("file_id", "label")):
        label = row["label"].strip()
        if label not in STORMFRONT_LABELS:
            if label in ("relation", "idk/skip"):
                dropped[f"label {label!r} (not one of STEB's 2 classes)"] += 1
                continue
            raise DataError(f"{metadata} line {line}: column 'label' value {label!r} is unknown")
        path = require(folder / f"{row['file_id']}.txt", STORMFRONT_URL, f"text of line {line}")
        yield row["file_id"], read_text(path), label  # a decoding error names the file


def read_davidson(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    path = find_first(raw, ("data/labeled_data.csv", "labeled_data.csv", ""), DAVIDSON_URL, "CSV")
    for line, row in read_delimited(path, ("class", "tweet")):
        label = DAVIDSON_CLASSES.get(row["class"].strip())
        if label is None:
            raise DataError(
                f"{path} line {line}: column 'class' value {row['class']!r} is not 0/1/2"
            )
        yield f"tweet-{line}", row["tweet"], label


build_hate_speech = labelled_builder(read_stormfront)
build_hate_speech_and_offensive_language = labelled_builder(read_davidson)


DATASETS = (
    steb_dataset(
        name="hate_speech",
        summary="Stormfront forum sentences labelled hate or noHate (de Gibert et al. 2018).",
        bucket="register",
        definitional=(),
        counts=clustering_counts(2, 200),
        source_url="https://github.com/Vicomtech/hate-speech-dataset",
        license="CC BY-SA 3.0 ES (Creative Commons Attribution-ShareAlike 3.0 Spain; LICENSE "
        "of the repository)",
        raw_format="annotations_metadata.csv (file_id,user_id,subforum_id,num_contexts,label) "
        "+ all_files/<file_id>.txt",
        citation="""@inproceedings{de-gibert-etal-2018-hate,
  title     = {Hate Speech Dataset from a White Supremacy Forum},
  author    = {de Gibert, Ona and Perez, Naiara and Garc{\\'i}a-Pablos, Aitor and
               Cuadros, Montse},
  booktitle = {Proceedings of the 2nd Workshop on Abusive Language Online (ALW2)},
  year      = {2018}
}""",
        note="Table 10 bucket inferred from the table's row order",
        builder=build_hate_speech,
        protocol="Every annotated sentence (`annotations_metadata.csv` + `all_files/<file_id>.txt`) "
        "labelled hate or noHate is one text; `relation` and `idk/skip` are dropped (counted). "
        + CAP_PROTOCOL
        + " With the full release this gives 2 x 200 = 400 (Table 15).",
        raw_hint="vicomtech_hate_speech_stormfront",
    ),
    steb_dataset(
        name="hate_speech_and_offensive_language",
        summary="Tweets labelled hate speech, offensive language or neither (Davidson et al. "
        "2017).",
        bucket="register",
        definitional=(),
        counts=clustering_counts(3, 200),
        source_url="https://github.com/t-davidson/hate-speech-and-offensive-language",
        license="mit",
        raw_format="data/labeled_data.csv (,count,hate_speech,offensive_language,neither,"
        "class,tweet)",
        citation="""@inproceedings{davidson2017automated,
  title     = {Automated Hate Speech Detection and the Problem of Offensive Language},
  author    = {Davidson, Thomas and Warmsley, Dana and Macy, Michael and Weber, Ingmar},
  booktitle = {Proceedings of ICWSM 2017},
  year      = {2017}
}""",
        note="Table 10 bucket inferred from the table's row order",
        builder=build_hate_speech_and_offensive_language,
        protocol="Every tweet of `labeled_data.csv` is one text labelled by its `class` "
        "(hate_speech, offensive_language, neither). "
        + CAP_PROTOCOL
        + " With the full CSV this gives 3 x 200 = 600 (Table 15).",
        raw_hint="davidson_hate_speech_offensive",
    ),
)
