"""The style-attribute half of the STEB catalogue (Tables 10, 13, 15)."""

from __future__ import annotations

from dataset_scripts.registry import all_datasets
from dataset_scripts.steb.catalog import ALL_TO_ALL, CLUSTERING, ORDER, PROBING, steb_datasets

# the style-attribute declarations: every STEB dataset outside the authorship bucket that
# is not an order-alignment-only set
DATASETS = [
    s for s in steb_datasets() if s.steb.bucket != "authorship" and s.task_types != (ORDER,)
]

CLUSTER_ROWS = {  # Table 15 clustering / all-to-all rows: classes, samples per class, total
    "bible_versions": (8, 200, 1600),
    "blog_age": (3, 200, 600),
    "blog_gender": (2, 200, 400),
    "ceeces": (6, 200, 1200),
    "core": (38, 25, 950),
    "corpus-of-diverse-styles": (11, 200, 2200),
    "eWAVE": (53, 29, 1537),
    "endive": (6, 200, 1200),
    "enron_spam": (2, 200, 400),
    "fce_l1": (15, 25, 375),
    "hate_speech": (2, 200, 400),
    "hate_speech_and_offensive_language": (3, 200, 600),
    "masc_text_genre": (19, 150, 2850),
    "pastel_age": (6, 25, 150),
    "pastel_education": (8, 25, 200),
    "pastel_ethnic": (9, 25, 225),
    "pastel_gender": (3, 55, 165),
    "pastel_politics": (3, 200, 600),
    "pastel_tod": (5, 200, 1000),
    "sms_spam": (2, 200, 400),
    "stackexchange_politeness": (3, 200, 600),
    "telegram-spam-ham": (2, 200, 400),
    "wikipedia_politeness": (3, 200, 600),
    "x_genre": (9, 46, 414),
}
PROBING_ROWS = {
    "probing_amazon": 27_584,
    "probing_blog": 39_111,
    "probing_reddit": 16_447,
    "probing_stackexchange": 9_253,
}


def test_table15_counts() -> None:
    entries = {d.hub_id.removeprefix("steb/"): d.steb.table15 for d in DATASETS}
    assert set(entries) == set(CLUSTER_ROWS) | set(PROBING_ROWS)
    for name, row in CLUSTER_ROWS.items():
        for task in (CLUSTERING, ALL_TO_ALL):
            count = entries[name][task]
            assert (count.classes, count.per_class, count.total) == row, name
    assert entries["corpus-of-diverse-styles"][ORDER].total == 4400
    for name, total in PROBING_ROWS.items():
        assert entries[name] == {PROBING: entries[name][PROBING]}
        assert (entries[name][PROBING].classes, entries[name][PROBING].total) == (
            46,
            total,
        )


def test_metadata_complete_and_registered() -> None:
    registry = all_datasets()
    buckets = {"feature", "dialect", "register", "genre", "time", "demographics"}
    for entry in DATASETS:
        assert entry.steb.bucket in buckets
        assert entry.source_url.startswith("http") and entry.license and entry.raw_format
        assert registry[entry.hub_id] is entry
    with_builder = {n for n, s in registry.items() if s.builder and s in DATASETS}
    without = {d.hub_id for d in DATASETS} - with_builder
    assert without == set()  # every catalogued dataset of this family has a build script
