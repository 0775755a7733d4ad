"""The mkdocs hook of the stylebench site (``hooks:`` in ``mkdocs.yml``).

- ``on_pre_build``: the pictures under ``docs/images/`` are made from real runs when one
  is missing or their recipe changed (:mod:`sbdocs.figures`; otherwise nothing runs);
- ``on_files``: the generated pages are added in memory, never written into ``docs/``:
  ``concepts/datasets.md`` from the dataset registry (:mod:`sbdocs.catalogue`) and
  ``concepts/metrics/<name>.md`` from each metric module's card (:mod:`sbdocs.metric_cards`).
  The CLI and API reference pages are ``docs/reference/*.md``, expanded by mkdocs-click and
  mkdocstrings from the code itself.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files
from sbdocs import catalogue, figures, metric_cards

log = logging.getLogger("mkdocs.hooks.stylebench")

ROOT = Path(__file__).resolve().parents[2]
#: generated page -> the function that writes its Markdown
DATASETS_PAGE = "concepts/datasets.md"
METRICS_FOLDER = "concepts/metrics"


def _corpora() -> Path | None:
    from evaluators.paths import corpora_dir

    return corpora_dir()


def metrics_nav() -> list[Any]:
    """The Metrics section of the nav: the index, then one page per card (a new metric
    module gets its page and its nav entry without an edit here or in mkdocs.yml)."""
    entries: list[Any] = [f"{METRICS_FOLDER}/index.md"]
    for name, card in metric_cards.cards().items():
        title = metric_cards.split_front_matter(card.read_text(encoding="utf-8"))[0].get("title")
        entries.append({str(title or name): f"{METRICS_FOLDER}/{name}.md"})
    return entries


def _fill_metrics(nav: list[Any]) -> bool:
    for item in nav:
        if isinstance(item, dict):
            for key, value in item.items():
                if value == f"{METRICS_FOLDER}/":
                    item[key] = metrics_nav()
                    return True
                if isinstance(value, list) and _fill_metrics(value):
                    return True
    return False


def on_config(config: Any) -> Any:
    """``Metrics: concepts/metrics/`` in mkdocs.yml's nav becomes one entry per card."""
    if config.get("nav") and not _fill_metrics(config["nav"]):
        log.warning(f"mkdocs.yml's nav has no '{METRICS_FOLDER}/' entry for the metric pages")
    return config


def on_pre_build(config: Any) -> None:
    images = Path(config["docs_dir"]) / "images"
    figures.ensure(images, ROOT / ".cache" / "docs", _corpora(), log.info)


def generated_pages() -> dict[str, str]:
    """Every generated page's path (under ``docs/``) and Markdown."""
    pages = {DATASETS_PAGE: catalogue.page()}
    found = metric_cards.cards()
    pages[f"{METRICS_FOLDER}/index.md"] = metric_cards.index(found)
    for name, card in found.items():
        pages[f"{METRICS_FOLDER}/{name}.md"] = metric_cards.page(name, card)
    return pages


def on_files(files: Files, config: Any) -> Files:
    for path, markdown in generated_pages().items():
        existing = files.get_file_from_path(path)
        if existing is not None:  # a stale copy on disk must not shadow the generated page
            files.remove(existing)
        files.append(File.generated(config, path, content=markdown))
    return files
