"""``steb/fce_l1``: answers of the public FCE release of the Cambridge Learner Corpus
(Yannakoudakis et al. 2011), labelled by the writer's first language (STEB App. C.6).

Raw format: ``fce-released-dataset/dataset/<folder>/<doc>.xml``, one exam script per file::

    <learner><head sortkey="..."><candidate><personnel><language>French</language>...
    </personnel></candidate><text><answer1><question_number>1</question_number>
    <coded_answer><p>... <NS type="RV"><i>tell</i><c>say</c></NS> ...</p></coded_answer>
    </answer1><answer2>...</answer2></text></head></learner>

Every answer (``<answerN>``) is one text: the learner's original wording, i.e. inside an
``<NS>`` error annotation the ``<i>`` (incorrect) part is kept and the ``<c>``
(correction) dropped; an ``<NS>`` with only a correction (a missing word) adds nothing.
Paragraphs are joined with a newline.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

from dataset_scripts.core.errors import DataError
from dataset_scripts.steb.catalog import clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import CAP_PROTOCOL, labelled_builder

URL = "https://ilexir.co.uk/datasets/index.html"


def original_text(element: ElementTree.Element) -> str:
    """The learner's own text under ``element`` (``<i>`` kept, ``<c>`` dropped)."""
    if element.tag == "c":
        return ""
    if element.tag == "NS":
        incorrect = element.find("i")
        if incorrect is not None:
            return original_text(incorrect)
        if element.find("c") is not None:
            return ""
    parts = [element.text or ""]
    for child in element:
        parts.append(original_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def fce_files(raw: Path) -> list[Path]:
    for base in (raw / "fce-released-dataset" / "dataset", raw / "dataset", raw):
        files = sorted(base.glob("*/*.xml"))
        if files:
            return files
    raise DataError(
        f"missing FCE scripts: expected {raw / 'fce-released-dataset' / 'dataset'}/<folder>/"
        f"<doc>.xml (download: {URL})"
    )


def read_records(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    for path in fce_files(raw):
        try:
            root = ElementTree.parse(path).getroot()
        except ElementTree.ParseError as error:
            line, column = error.position
            raise DataError(f"{path} line {line} column {column}: malformed XML") from None
        language = (root.findtext(".//personnel/language") or "").strip()
        if not language:
            raise DataError(f"{path}: no <personnel><language> element")
        text_element = root.find(".//text")
        answers = [] if text_element is None else list(text_element)
        if not answers:
            dropped["script without answers"] += 1
        for answer in answers:
            coded = answer.find("coded_answer")
            if coded is None:
                dropped["answer without coded_answer"] += 1
                continue
            paragraphs = coded.findall("p") or [coded]
            text = "\n".join(" ".join(original_text(p).split()) for p in paragraphs)
            yield f"{path.stem}-{answer.tag}", text, language


build_fce_l1 = labelled_builder(read_records)


DATASETS = (
    steb_dataset(
        name="fce_l1",
        summary="FCE exam answers of learners of English, labelled by first language.",
        bucket="demographics",
        definitional=("demographics",),
        counts=clustering_counts(15, 25),
        source_url="https://ilexir.co.uk/datasets/index.html",
        license="non-commercial research and educational use",
        raw_format="FCE release XML (fce-released-dataset/dataset/*/*.xml: <language>, "
        "<coded_answer> with <NS> error tags)",
        citation="""@inproceedings{yannakoudakis-etal-2011-new,
  title     = {A New Dataset and Method for Automatically Grading {ESOL} Texts},
  author    = {Yannakoudakis, Helen and Briscoe, Ted and Medlock, Ben},
  booktitle = {Proceedings of ACL 2011},
  year      = {2011}
}""",
        builder=build_fce_l1,
        protocol="Every answer of every FCE script is one text (the learner's original wording: "
        "error annotations contribute their incorrect part), labelled with the candidate's "
        "first language. " + CAP_PROTOCOL + " With the public release STEB reports 15 x 25 = "
        "375 (Table 15; one of the 16 languages has fewer than 25 answers).",
    ),
)
