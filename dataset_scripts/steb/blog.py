"""``steb/blog_age`` and ``steb/blog_gender``: posts of the Blog Authorship Corpus (Schler et
al. 2006), labelled by the blogger's age bucket or gender (STEB App. C.6).

Raw format: the corpus' ``blogs/`` folder of ``<id>.<gender>.<age>.<industry>.<sign>.xml``
files (Latin-1; ``<Blog>``, ``<date>`` lines and the posts' text lines; not well-formed
XML). STEB uses the validation split of the Hub loader ``blog_authorship_corpus``, which
takes the files in sorted path order and puts every 20th file (index 0, 20, 40, ...) into
validation; every non-empty line that does not start with ``<`` is one text. This builder
applies the same split and line rule to the full corpus (19,320 files). A partial copy
(fewer files, such as the 100-file sample in ``../shared/corpora``) is a sample: its
validation split would hold a handful of bloggers (5 of 100, one of them female), too few
for STEB's classes, so every file of the sample is used and the card says so. Age buckets (as in the corpus description and the STEB loader): 13-17 "10s", 23-27
"20s", 33-47 "30s"; other ages are dropped (counted). Note: the current STEB loader
concatenates the train and validation splits, while the paper (App. C.6) names the
validation split; the builder follows the paper.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.steb.catalog import clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import CAP_PROTOCOL, labelled_builder

URL = "https://u.cs.biu.ac.il/~koppel/BlogCorpus.htm"
VALIDATION_EVERY = 20
FULL_CORPUS_FILES = 19_320  # blogs.zip of the corpus homepage
RAW_HINT = "blog_authorship_corpus"  # the folder under ../shared/corpora


def age_bucket(age: int) -> str | None:
    """The corpus' three age groups; ``None`` outside them."""
    for low, high, name in ((13, 17, "10s"), (23, 27, "20s"), (33, 47, "30s")):
        if low <= age <= high:
            return name
    return None


def blog_files(raw: Path) -> list[Path]:
    """The blogger files of a download, sorted by path (``raw/blogs/*.xml`` or
    ``raw/*.xml``)."""
    folder = raw / "blogs" if (raw / "blogs").is_dir() else raw
    files = sorted(folder.glob("*.xml"))
    if not files:
        raise DataError(
            f"missing blog files: expected {folder}/<id>.<gender>.<age>.<industry>.<sign>.xml "
            f"(download: {URL})"
        )
    return files


def validation_files(raw: Path, dropped: Counter[str] | None = None) -> list[Path]:
    """The Hub loader's validation split (every 20th file) of the full corpus; every file
    of a partial copy (a sample; see the module docstring). Files left out are counted."""
    files = blog_files(raw)
    if len(files) < FULL_CORPUS_FILES:
        return files
    chosen = files[::VALIDATION_EVERY]
    if dropped is not None:
        dropped["blog files of the Hub loader's train split (STEB uses validation)"] += len(
            files
        ) - len(chosen)
    return chosen


def parse_blog_name(path: Path) -> tuple[str, str, int, str, str]:
    """``<id>.<gender>.<age>.<industry>.<sign>.xml`` -> (id, gender, age, industry, sign)."""
    parts = path.name.split(".")
    if len(parts) != 6 or not parts[2].isdigit() or parts[1] not in ("male", "female"):
        raise DataError(f"{path}: file name is not <id>.<gender>.<age>.<industry>.<sign>.xml")
    return parts[0], parts[1], int(parts[2]), parts[3], parts[4]


def read_posts(raw: Path, dropped: Counter[str], attribute: str) -> Iterator[tuple[str, str, str]]:
    for path in validation_files(raw, dropped):
        blogger, gender, age, _, _ = parse_blog_name(path)
        if attribute == "gender":
            label: str | None = gender
        else:
            label = age_bucket(age)
            if label is None:
                dropped[f"blogger age {age} outside the three age groups"] += 1
                continue
        with path.open(encoding="latin-1") as handle:
            for line_no, line in enumerate(handle, start=1):
                line = line.strip()
                if line and not line.startswith("<"):
                    yield f"{blogger}-{line_no}", line, label


SAMPLE_NOTE = (
    " **A copy with fewer than 19,320 files is a sample** (the copy in `../shared/corpora` "
    "holds the first 100 files): its validation split would keep 5 bloggers, too few for "
    "STEB's classes, so every file of the sample is used; its counts are the sample's, not "
    "STEB's."
)


def _protocol(attribute: str, total: str) -> str:
    return (
        "Validation split of the Hub loader (files sorted by name, every 20th file, index 0, "
        "20, ...); every non-empty line not starting with `<` is one post, labelled by the "
        f"blogger's {attribute} from the file name. " + CAP_PROTOCOL + f" {total}" + SAMPLE_NOTE
    )


build_blog_age = labelled_builder(lambda raw, dropped: read_posts(raw, dropped, "age"))
build_blog_gender = labelled_builder(lambda raw, dropped: read_posts(raw, dropped, "gender"))


BLOG_CITATION = """@inproceedings{schler2006effects,
  title     = {Effects of Age and Gender on Blogging},
  author    = {Schler, Jonathan and Koppel, Moshe and Argamon, Shlomo and Pennebaker, James},
  booktitle = {AAAI Spring Symposium: Computational Approaches to Analyzing Weblogs},
  year      = {2006}
}"""
BLOG_FORMAT = (
    "Blog Authorship Corpus XML files <id>.<gender>.<age>.<industry>.<sign>.xml "
    "(<Blog><date/><post/>...</Blog>)"
)
BLOG_LICENSE = "non-commercial research use (https://u.cs.biu.ac.il/~koppel/BlogCorpus.htm)"
BLOG_URL = "https://huggingface.co/datasets/barilan/blog_authorship_corpus"


DATASETS = (
    steb_dataset(
        name="blog_age",
        summary="Blog posts labelled by the blogger's age bucket (10s, 20s, 30s).",
        bucket="demographics",
        definitional=("demographics",),
        counts=clustering_counts(3, 200),
        source_url=BLOG_URL,
        license=BLOG_LICENSE,
        raw_format=BLOG_FORMAT,
        citation=BLOG_CITATION,
        builder=build_blog_age,
        protocol=_protocol("age bucket (10s/20s/30s)", "Table 15: 3 x 200."),
        raw_hint=RAW_HINT,
    ),
    steb_dataset(
        name="blog_gender",
        summary="Blog posts labelled by the blogger's gender.",
        bucket="demographics",
        definitional=("demographics",),
        counts=clustering_counts(2, 200),
        source_url=BLOG_URL,
        license=BLOG_LICENSE,
        raw_format=BLOG_FORMAT,
        citation=BLOG_CITATION,
        builder=build_blog_gender,
        protocol=_protocol("gender", "Table 15: 2 x 200."),
        raw_hint=RAW_HINT,
    ),
)
