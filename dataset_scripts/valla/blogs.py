"""The Blog Authorship Corpus (Schler et al. 2006) as Valla's Blogs50 (AA) and BlogsAll
(AV), following Valla's ``dsets/blogs.py``.

Raw format: one file per blogger, ``<id>.<gender>.<age>.<industry>.<sign>.xml``, holding
``<date>...</date>`` and ``<post>...</post>`` blocks (not well-formed XML, so it is read
line by line as Valla does; undecodable bytes are replaced). A post is its lines joined
by spaces. Posts shorter than 100 characters are dropped; posts are cut at 100,000
characters; exact duplicate posts (the same text anywhere in the corpus, ~160,000 in the
full release) are dropped, the first in file-name order kept. All drops are counted.

- ``valla/blogs50``: the 50 authors with the most remaining posts (ties: smaller id),
  split 60/20/20 stratified by author.
- ``valla/blogsall``: every author with at least ``MIN_TEXTS_ALL`` remaining posts
  (fewer cannot be stratified 60/20/20), split the same way; used through its AV pairs.
"""

from __future__ import annotations

from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, hub
from dataset_scripts.core.spec import BuildResult, DatasetSpec
from dataset_scripts.valla.common import VALLA_CITATION
from dataset_scripts.valla.splits import SEED, Row, iid_splits, with_av

MIN_CHARS, MAX_CHARS = 100, 100_000
TOP_AUTHORS = 50
MIN_TEXTS_ALL = 5


def read_posts(path: Path) -> list[str]:
    """The posts of one blog file, in file order."""
    posts, current, inside, opened_at = [], [], False, 0
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            if not inside and "<post>" in line:
                opened_at = number
                inside, current = True, []
                line = line.split("<post>", 1)[1]  # the post may close on this line
            if inside:
                if "</post>" in line:
                    current.append(line.split("</post>", 1)[0].strip())
                    posts.append(" ".join(p for p in current if p).replace("\0", ""))
                    inside = False
                elif line.strip():
                    current.append(line.strip())
        if inside:
            raise DataError(f"{path}:{opened_at}: <post> without </post>")
    return posts


def read_blogs(raw: Path, dropped: dict[str, int]) -> dict[str, list[Row]]:
    files = sorted(raw.rglob("*.xml"))
    if not files:
        raise FileNotFoundError(f"{raw}: no <id>.<gender>.<age>.<industry>.<sign>.xml files")
    seen: set[str] = set()
    per_author: dict[str, list[Row]] = {}
    for path in files:
        parts = path.name.split(".")
        if len(parts) != 6:
            raise DataError(f"{path}: file name is not <id>.<gender>.<age>.<industry>.<sign>.xml")
        author = parts[0]
        for index, post in enumerate(read_posts(path)):
            text = post.strip()
            if len(text) < MIN_CHARS:
                dropped["post shorter than 100 characters"] = (
                    dropped.get("post shorter than 100 characters", 0) + 1
                )
                continue
            text = text[:MAX_CHARS]
            if text in seen:
                dropped["exact duplicate post"] = dropped.get("exact duplicate post", 0) + 1
                continue
            seen.add(text)
            per_author.setdefault(author, []).append(
                {"id": f"{author}/{index:05d}", "text": text, "label": author}
            )
    return per_author


def _build(raw: Path | None, top: int | None) -> BuildResult:
    if raw is None:
        raise FileNotFoundError("Blogs is built from the blogs/ folder of the corpus; pass --raw")
    dropped: dict[str, int] = {}
    per_author = read_blogs(raw, dropped)
    if top is not None:
        ranked = sorted(
            per_author, key=lambda a: (-len(per_author[a]), int(a) if a.isdigit() else a)
        )
        keep = set(ranked[:top])
    else:
        keep = {a for a, rows in per_author.items() if len(rows) >= MIN_TEXTS_ALL}
    left_out = sum(len(r) for a, r in per_author.items() if a not in keep)
    if left_out:
        reason = (
            f"author not among the top {top}" if top else f"author with < {MIN_TEXTS_ALL} posts"
        )
        dropped[reason] = left_out
    rows = [r for a in sorted(keep) for r in per_author[a]]
    return BuildResult(with_av(iid_splits(rows, 0.2, 0.2, SEED), SEED, dropped), dropped)


def build_blogs50(raw: Path | None) -> BuildResult:
    return _build(raw, TOP_AUTHORS)


def build_blogsall(raw: Path | None) -> BuildResult:
    return _build(raw, None)


SAMPLE_NOTE = (
    " The full corpus has 19,320 blogger files; a build from fewer (such as the 100-file "
    "sample in `../shared/corpora`) is a sample: its authors are the sample's most prolific, "
    "not Valla's, and its counts are not the paper's."
)

_COMMON = {
    "license": "research use (Blog Authorship Corpus terms)",
    "source_url": "https://u.cs.biu.ac.il/~koppel/BlogCorpus.htm",
    "citation": VALLA_CITATION,
    "raw_format": "blogs/<id>.<gender>.<age>.<industry>.<sign>.xml with <post> blocks",
    "raw_hint": "blog_authorship_corpus",  # the folder under ../shared/corpora
}


DATASETS = (
    DatasetSpec(
        hub_id="valla/blogs50",
        pretty_name="Valla Blogs50",
        summary="Posts of the 50 most prolific bloggers of the Blog Authorship Corpus, exact "
        "duplicates removed, with Valla's 60/20/20 split.",
        builder=build_blogs50,
        protocol="Posts < 100 characters dropped, cut at 100,000 characters, exact duplicate "
        "posts removed corpus-wide (first kept); top 50 authors by remaining posts; 60/20/20 "
        "stratified split (`random_state=0`); AV pairs derived per split with a fixed seed."
        + SAMPLE_NOTE,
        table_name="Blogs50",
        **_COMMON,
    ),
    DatasetSpec(
        hub_id="valla/blogsall",
        pretty_name="Valla BlogsAll (AV)",
        summary="All bloggers of the Blog Authorship Corpus with at least 5 distinct posts, "
        "exact duplicates removed, as AV pairs (and AA splits).",
        builder=build_blogsall,
        protocol="As Blogs50, but every author with >= 5 remaining posts; AV pairs per split."
        + SAMPLE_NOTE,
        table_name="BlogsAll",
        **_COMMON,
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "blog_authorship_corpus",
        (
            hub(
                "barilan/blog_authorship_corpus",
                "",
                ("blogs/",),
                filename="data/blogs.zip",
                archive="zip",
            ),
        ),
        license="non-commercial research use (corpus homepage)",
        homepage="https://u.cs.biu.ac.il/~koppel/BlogCorpus.htm",
        terms="The Blog Authorship Corpus may be freely used for non-commercial research purposes only.",
        note="revision not pinned (no Hub access here); the recorded files are the first 100 of blogs/, byte-exact from muhwagua/color-bert@8db0aa36",
    ),
)
