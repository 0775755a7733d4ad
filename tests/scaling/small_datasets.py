"""Small real STEB datasets built from ../shared/corpora for the scaling tests and
benchmarks (each builds in well under a second)."""

from __future__ import annotations

from pathlib import Path

# 8 small built datasets (5 repo folders, 12 task results per model): clustering +
# all-to-all pairs, and order alignment
SMALL_STEB = (
    "steb/pastel_age",
    "steb/sms_spam",
    "steb/ASSET",
    "steb/STEL_feature",
    "steb/pastel_education",
    "steb/pastel_gender",
    "steb/STEL_register",
    "steb/eWAVE",
)


# more real texts for the 5,000-text multi-device benchmark
MORE_STEB = ("steb/StylePTB", "steb/OneStopEnglishCorpus", "steb/bible_versions")


def build_small(
    out: Path, corpora: Path, n: int = len(SMALL_STEB), hub_ids: tuple[str, ...] = SMALL_STEB
) -> list[str]:
    """Build the first ``n`` of ``hub_ids`` under ``out``; their folder paths, each
    once (configs of one dataset repo, e.g. PASTEL's age and gender, share a folder)."""
    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset
    from dataset_scripts.status import dataset_status

    folders = []
    for hub_id in hub_ids[:n]:
        spec = get_dataset(hub_id)
        raw = dataset_status(spec, corpora, None).raw
        folder, _ = build_dataset(spec, raw, Path(out) / spec.slug)
        folders.append(str(folder))
    return list(dict.fromkeys(folders))
