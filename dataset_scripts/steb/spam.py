"""STEB spam datasets: ``steb/sms_spam``, ``steb/telegram-spam-ham`` and ``steb/enron_spam``
(label spam vs ham; sources as in the STEB authors' dataset configs).

Raw formats:

* ``sms_spam``: the UCI ``SMSSpamCollection`` file, one message per line,
  ``ham|spam<TAB>text``, no header (the Hub ``sms_spam`` train split is this whole file);
* ``telegram-spam-ham``: the CSV of ``thehamkercat/telegram-spam-ham`` with columns
  ``text_type`` (spam|ham) and ``text``;
* ``enron_spam``: the test split of ``SetFit/enron_spam`` as JSON lines (``test.jsonl``) or
  CSV (``test.csv``), with ``text`` and ``label_text`` (ham|spam) or ``label`` (0 ham, 1 spam).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.raw_io import iter_jsonl
from dataset_scripts.steb.catalog import NOT_STATED, clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import (
    CAP_PROTOCOL,
    find_first,
    labelled_builder,
    open_text,
    read_delimited,
)

SMS_URL = "https://archive.ics.uci.edu/dataset/228/sms+spam+collection"
TELEGRAM_URL = "https://huggingface.co/datasets/thehamkercat/telegram-spam-ham"
ENRON_URL = "https://huggingface.co/datasets/SetFit/enron_spam"
LABELS = ("ham", "spam")


SMS_NAMES = ("SMSSpamCollection", "SMSSpamCollection.txt")


def sms_file(raw: Path) -> Path:
    """``SMSSpamCollection`` in ``raw``, in ``raw/smsspamcollection/`` (the folder the UCI
    zip unpacks to), anywhere below ``raw``, or ``raw`` itself when it is the file."""
    if raw.is_dir() and not any((raw / name).is_file() for name in SMS_NAMES):
        below = sorted(p for name in SMS_NAMES for p in raw.rglob(name) if p.is_file())
        if below:
            return below[0]
    return find_first(raw, (*SMS_NAMES, ""), SMS_URL, "file SMSSpamCollection")


def read_sms(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    path = sms_file(raw)
    with open_text(path) as handle:
        for line_no, line in enumerate(handle, start=1):
            line = line.rstrip("\r\n")
            if not line:
                continue
            label, tab, text = line.partition("\t")
            if not tab or label not in LABELS:
                raise DataError(
                    f"{path} line {line_no}: expected 'ham|spam<TAB>text', got {line[:60]!r}"
                )
            yield f"sms-{line_no}", text, label


def read_telegram(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    path = find_first(raw, ("dataset.csv", "telegram-spam-ham.csv", ""), TELEGRAM_URL, "CSV")
    for line, row in read_delimited(path, ("text_type", "text")):
        label = row["text_type"].strip()
        if label not in LABELS:
            raise DataError(
                f"{path} line {line}: column 'text_type' value {label!r} is not ham/spam"
            )
        yield f"telegram-{line}", row["text"], label


def _enron_label(record: dict[str, object], where: str) -> str:
    text_label = record.get("label_text")
    if text_label in LABELS:
        return str(text_label)
    if str(record.get("label")) in ("0", "1"):
        return LABELS[int(str(record["label"]))]
    raise DataError(
        f"{where}: no ham/spam label (label_text {text_label!r}, label {record.get('label')!r})"
    )


def read_enron(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    path = find_first(raw, ("test.jsonl", "test.json", "test.csv", ""), ENRON_URL, "test split")
    if path.suffix == ".csv":
        for line, row in read_delimited(path, ("text",)):
            yield (
                f"enron-{row.get('message_id') or line}",
                row["text"],
                _enron_label(row, f"{path} line {line}"),
            )
        return
    for line_no, record in iter_jsonl(path):
        if not isinstance(record.get("text"), str):
            raise DataError(f"{path} line {line_no}: record has no string 'text'")
        yield (
            f"enron-{record.get('message_id', line_no)}",
            record["text"],
            _enron_label(record, f"{path} line {line_no}"),
        )


def _protocol(source: str, full: str) -> str:
    return f"Every {source} is one text labelled ham or spam. {CAP_PROTOCOL} {full}"


build_sms_spam = labelled_builder(read_sms)
build_telegram_spam_ham = labelled_builder(read_telegram)
build_enron_spam = labelled_builder(read_enron)


DATASETS = (
    steb_dataset(
        name="enron_spam",
        summary="Enron e-mails labelled spam or ham (SetFit/enron_spam test split).",
        bucket="register",
        definitional=(),
        counts=clustering_counts(2, 200),
        source_url="https://huggingface.co/datasets/SetFit/enron_spam",
        license=NOT_STATED,
        raw_format="SetFit/enron_spam test split as JSON lines or CSV (text, label, label_text)",
        citation="""@inproceedings{metsis2006spam,
  title     = {Spam Filtering with Naive Bayes -- Which Naive Bayes?},
  author    = {Metsis, Vangelis and Androutsopoulos, Ion and Paliouras, Georgios},
  booktitle = {Third Conference on Email and Anti-Spam (CEAS)},
  year      = {2006}
}""",
        note="Table 10 bucket inferred from the table's row order",
        builder=build_enron_spam,
        protocol=_protocol(
            "message of the SetFit/enron_spam test split (`text` = subject + body)",
            "With the full test split this gives 2 x 200 = 400 (Table 15).",
        ),
    ),
    steb_dataset(
        name="sms_spam",
        summary="SMS messages labelled spam or ham (UCI SMS Spam Collection).",
        bucket="register",
        definitional=(),
        counts=clustering_counts(2, 200),
        source_url="https://huggingface.co/datasets/ucirvine/sms_spam",
        license="free use with no limitations except the authors' copyright (T. A. Almeida, "
        "J. M. G\u00f3mez Hidalgo); cite the paper (readme of the UCI release, section 4)",
        raw_format="SMSSpamCollection: one message per line, 'ham|spam<TAB>text', no header",
        citation="""@inproceedings{almeida2011sms,
  title     = {Contributions to the Study of {SMS} Spam Filtering: New Collection and Results},
  author    = {Almeida, Tiago A. and G{\\'o}mez Hidalgo, Jos{\\'e} Mar{\\'i}a and
               Yamakami, Akebo},
  booktitle = {Proceedings of the 11th ACM Symposium on Document Engineering},
  year      = {2011}
}""",
        note="Table 10 bucket inferred from the table's row order",
        builder=build_sms_spam,
        protocol=_protocol(
            "line of SMSSpamCollection",
            "With the full collection (5,574 messages, 747 spam) this gives 2 x 200 = 400, as in "
            "Table 15. Point `--raw` at the file, at the `smsspamcollection/` folder the UCI zip "
            "unpacks to, or at any folder holding it.",
        ),
        raw_hint="sms_spam_collection",
    ),
    steb_dataset(
        name="telegram-spam-ham",
        summary="Telegram messages labelled spam or ham (thehamkercat/telegram-spam-ham).",
        bucket="register",
        definitional=(),
        counts=clustering_counts(2, 200),
        source_url="https://huggingface.co/datasets/thehamkercat/telegram-spam-ham",
        license=NOT_STATED,
        raw_format="CSV with columns text_type (spam|ham) and text",
        note="Table 10 bucket inferred from the table's row order",
        builder=build_telegram_spam_ham,
        protocol=_protocol(
            "row of the CSV", "With the full CSV this gives 2 x 200 = 400 (Table 15)."
        ),
    ),
)
