"""The same numbers on every CPU (issue 25): a selected set of the golden and parity
computations (:mod:`tests.crosscpu.decisions`: TF-IDF order alignment on OneStopEnglish
and twitter_aave_sae, function-word order alignment on STEL rows and episodes, PAN18
English retrieval by rows and with episode size -1, Bible all-to-all pairs and
clustering, PAN23 predefined pairs, and the parity references) runs in a subprocess under
each OpenBLAS kernel this CPU can run (Prescott, Haswell, SkylakeX), OpenBLAS's own
choice, one thread, and numpy's SIMD dispatch switched off; every value must be the same
bits everywhere. On the code before issue 25, 21 of these values differ between the
variants (the solver's choices on STEL, OneStopEnglish and twitter_aave_sae; the
reference's PAN18 ranking; last bits of means)."""

from __future__ import annotations

import pickle
import platform
from pathlib import Path

import pytest

from dataset_scripts.registry import get_dataset
from evaluators.data import Table
from tests.crosscpu.variants import differences, run_all, variants

pytestmark = [pytest.mark.corpora, pytest.mark.slow]

#: name -> (hub id, folder in ../shared/corpora)
SOURCES = {
    "OneStopEnglishCorpus": ("steb/OneStopEnglishCorpus", "OneStopEnglish"),
    "twitter_aave_sae": ("steb/twitter_aave_sae", "AAVE_SAE_Groenwold"),
    "STEL_feature": ("steb/STEL_feature", "STEL"),
    "pan18_english": (
        "steb/pan18_cross_domain_authorship_attribution_english",
        "pan18_cross_domain_authorship_attribution",
    ),
    "bible_versions": ("steb/bible_versions", "BibleVersions"),
    "pan23_easy": ("steb/pan23_style_change_easy", "pan23_multi_author_analysis"),
}


@pytest.fixture(scope="module")
def results(corpora: Path, repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Every variant's values, from the same tables (built once here)."""
    tables = {}
    for name, (hub_id, raw) in SOURCES.items():
        configs, _ = get_dataset(hub_id).builder(corpora / raw)
        (config, splits), *_ = configs.items()
        tables[name] = Table(hub_id, hub_id.split("/")[-1], config, "test", splits["test"], "x")
    folder = tmp_path_factory.mktemp("crosscpu")
    (folder / "tables.pkl").write_bytes(pickle.dumps(tables))
    return run_all(folder / "tables.pkl", folder, repo_root)


def test_the_variants_ran_what_they_name(results: dict) -> None:
    kernels = {
        name: {b["kernel"] for b in r["runtime"]["blas"]}
        for name, r in results.items()
        if name.startswith("OPENBLAS_CORETYPE=")
    }
    if platform.machine().lower() in {"x86_64", "amd64"}:  # Prescott and Haswell at least
        assert len(kernels) >= 2
    assert all(len(k) == 1 for k in kernels.values())
    assert len({k.pop() for k in kernels.values()}) == len(kernels)  # distinct kernels
    assert {b["threads"] for b in results["OPENBLAS_NUM_THREADS=1"]["runtime"]["blas"]} == {1}
    if "NPY_DISABLE_CPU_FEATURES" in variants():
        assert results["NPY_DISABLE_CPU_FEATURES"]["runtime"]["numpy_dispatch_enabled"] == []
        assert results["default"]["runtime"]["numpy_dispatch_enabled"]


def test_every_value_is_the_same_bits_in_every_variant(results: dict) -> None:
    assert len(results["default"]["values"]) > 100
    diff = differences(results)
    shown = {k: {n: float.fromhex(v) if "units" not in k else v for n, v in seen.items()}
             for k, seen in list(diff.items())[:5]}  # fmt: skip
    assert not diff, f"{len(diff)} values differ between variants, e.g. {shown}"


def test_the_values_are_the_goldens(results: dict) -> None:
    """The variants compute the pinned goldens (tests/steb_datasets/order_alignment)."""
    from tests.steb_datasets.order_alignment.test_real_corpora import GOLDEN

    values = results["default"]["values"]
    for name in ("OneStopEnglishCorpus", "twitter_aave_sae"):
        accuracy, distractor, _ = GOLDEN[f"steb/{name}"]
        assert float.fromhex(values[f"tfidf/{name}/accuracy"]) == pytest.approx(accuracy, abs=1e-9)
        got = float.fromhex(values[f"tfidf/{name}/distractor_accuracy"])
        assert got == pytest.approx(distractor, abs=1e-9)
    for name in ("mrr", "mean_rank", "recall@1"):  # the parity reference, episode size -1
        ours = float.fromhex(values[f"pan18/all/{name}"])
        assert ours == pytest.approx(float.fromhex(values[f"pan18/reference/{name}"]), abs=1e-9)
