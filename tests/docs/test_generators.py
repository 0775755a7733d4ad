"""The documentation site's generators (docs/hooks/sbdocs): the dataset catalogue and the
metric pages say what the registry and the cards say, and the pictures are current."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

from sbdocs import catalogue, figures, metric_cards  # noqa: E402

from dataset_scripts.registry import all_datasets  # noqa: E402


def test_the_catalogue_lists_every_registered_dataset_once() -> None:
    page = catalogue.page()
    specs = all_datasets().values()
    for spec in specs:
        assert page.count(f"| `{catalogue.repo_config(spec)}` |") == 1, spec.hub_id
    table_rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert len(table_rows) == len(specs)
    assert f"{len(specs)} datasets in {len({s.repo for s in specs})} Hub repos" in page


def test_catalogue_rows_carry_the_registry_facts() -> None:
    rows = {r[0]: r for r in catalogue.rows(all_datasets().values())}
    asset = rows["`steb/ASSET`"]
    # STEB Table 15: 400 texts; 3,7 MB of raw files recorded in checksums.tsv; GitHub source
    assert asset[1:4] == ["order_alignment", "en", "github"]
    assert asset[5] == "400 texts; 3.7 MB raw"
    assert asset[6] == "`--download` (verified)"
    assert rows["`stylebench/demo`"][6] == "builds offline, no download"
    assert rows["`steb/amazon`"][6] == "manual step first (unverified)"
    pastel = rows["`steb/PASTEL:age`"]
    assert pastel[1] == "clustering, all_to_all_pairs" and pastel[5].startswith("150 texts")


@pytest.mark.parametrize(
    ("size", "shown"),
    [(999, "999 B"), (1000, "1.0 kB"), (3_712_345, "3.7 MB"), (2**40, "1099.5 GB")],
)
def test_human_bytes(size: int, shown: str) -> None:
    assert catalogue.human_bytes(size) == shown


def test_one_metric_page_per_card_without_the_space_settings() -> None:
    found = metric_cards.cards()
    modules = sorted(
        p.parent.name for p in (ROOT / "metrics").glob("*/*.py") if p.stem == p.parent.name
    )
    assert sorted(found) == modules and len(modules) >= 7
    for name, card in found.items():
        page = metric_cards.page(name, card)
        assert page.startswith("# ") and "sdk: gradio" not in page and "app_file" not in page
        body = metric_cards.split_front_matter(card.read_text(encoding="utf-8"))[1]
        assert body.split("\n", 2)[-1].strip()[:200] in page  # the card's text, unchanged
    index = metric_cards.index(found)
    assert all(f"]({name}.md)" in index for name in found)


def test_a_card_without_a_closing_front_matter_line_is_refused() -> None:
    with pytest.raises(ValueError, match="closing '---'"):
        metric_cards.split_front_matter("---\ntitle: x\n# no end\n")
    assert metric_cards.split_front_matter("# plain\n") == ({}, "# plain\n")


def test_the_recipe_hash_ignores_docstrings_not_code(tmp_path: Path) -> None:
    a, b, c = (tmp_path / n for n in ("a.py", "b.py", "c.py"))
    a.write_text('"""one"""\n\ndef f():\n    """doc"""\n    return 1  # note\n')
    b.write_text('"""two, reworded"""\ndef f():\n    """other doc"""\n    return 1\n')
    c.write_text('"""one"""\n\ndef f():\n    """doc"""\n    return 2\n')
    assert figures.code_hash(a) == figures.code_hash(b) != figures.code_hash(c)


def test_the_committed_pictures_are_current() -> None:
    """The PNGs under docs/images were made by this recipe (remake them with
    ``STYLEBENCH_DOCS_FIGURES=rebuild mkdocs build`` after changing it), each under 150 kB."""
    images = ROOT / "docs" / "images"
    assert figures.stale(images) == []
    stamp = figures.read_stamp(images)
    for name in figures.FIGURES:
        size = (images / name).stat().st_size
        assert size < 150_000, f"{name}: {size} bytes"
        assert stamp["figures"][name]["from"]
