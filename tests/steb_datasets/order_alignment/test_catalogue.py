"""The order-alignment catalogue entries against the paper, typed in here from STEB's
Table 15 (counts), Table 10 (bucket) and Table 13 (definitional clusters)."""

from __future__ import annotations

import pytest

from dataset_scripts.registry import get_dataset
from dataset_scripts.steb.catalog import ORDER, steb_datasets

# the order-alignment-only declarations (corpus-of-diverse-styles serves three task types)
DATASETS = [s for s in steb_datasets() if s.task_types == (ORDER,)]

# name -> (groups, texts per group, texts, Table 10 bucket, Table 13 object-of-study cluster)
PAPER = {
    "ASSET": (1, 400, 400, "register", "register"),
    "OneStopEnglishCorpus": (1, 600, 600, "register", "register"),
    "STEL_feature": (3, 200, 600, "feature", "linguistic_features"),
    "STEL_register": (2, 392, 784, "register", "register"),
    "StylePTB": (14, 50, 700, "feature", "linguistic_features"),
    "SynthSTEL_feature": (32, 200, 6_400, "feature", "linguistic_features"),
    "SynthSTEL_register": (8, 200, 1_600, "register", "register"),
    "graded_formality": (2, 1_000, 2_000, "register", "register"),
    "parallel_shakespeare": (1, 400, 400, "time", "time"),
    "twitter_aave_sae": (1, 400, 400, "dialect", "dialect"),
}
# sources not in ../shared/corpora: their builders need a download
NOT_HERE = {"SynthSTEL_feature", "SynthSTEL_register", "graded_formality"}


def test_every_order_alignment_dataset_of_table15_but_cds_is_here() -> None:
    # corpus-of-diverse-styles (the 11th) is catalogued with the clustering datasets
    assert sorted(_name(d) for d in DATASETS) == sorted(PAPER)


def _name(spec) -> str:
    return spec.hub_id.removeprefix("steb/")


@pytest.mark.parametrize("entry", DATASETS, ids=_name)
def test_entry_matches_the_paper(entry) -> None:
    groups, per_group, total, bucket, cluster = PAPER[_name(entry)]
    count = entry.steb.table15[ORDER]
    assert (count.classes, count.per_class, count.total) == (groups, per_group, total)
    assert list(entry.steb.table15) == [ORDER]
    assert entry.steb.bucket == bucket
    assert entry.steb.definitional == (cluster, "content_independence")
    assert entry.source_url.startswith("https://") and entry.license and entry.citation
    spec = get_dataset(entry.hub_id)
    assert spec.builder is not None, f"{entry.hub_id} has no builder"
    assert spec.protocol
    assert (spec.raw_hint == "") == (_name(entry) in NOT_HERE)
