"""The typed declaration of one dataset (:class:`DatasetSpec`) and the builder signature:
the vocabulary that the registry, the Hub-folder writer and the card renderer share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# A builder reads the raw download at ``raw`` and returns {config: {split: rows}} plus a
# build report {reason: count} of rows dropped (never silently).
Tables = dict[str, dict[str, list[dict[str, Any]]]]
BuildOutput = tuple[Tables, dict[str, int]]
Builder = Callable[[Path | None], BuildOutput]


@dataclass(frozen=True)
class DatasetSpec:
    """Everything known about one dataset: card metadata and (optionally) its builder.

    ``builder`` is ``None`` for a catalogued dataset whose build script does not exist yet.
    ``extra`` holds family-specific metadata (for STEB: task types, attribute bucket,
    definitional cluster, Table 15 sample counts).
    """

    hub_id: str
    pretty_name: str
    summary: str
    builder: Builder | None
    license: str
    source_url: str
    citation: str
    raw_format: str
    protocol: str = ""
    language: tuple[str, ...] = ("en",)
    needs_raw: bool = True
    raw_hint: str = ""  # folder name under ../shared/corpora, when available there
    extra: dict[str, Any] = field(default_factory=dict)
    # The Hub repo holding this dataset and its config there. Empty: the dataset is its own
    # repo (``hub_id``) whose configs are named for their schemas (``labelled_texts``, ...).
    # Set for a STEB dataset that is one of several of a source release (see
    # :func:`register_releases`): ``steb/pan23_style_change_easy`` is config ``easy`` of
    # the repo ``steb/pan23_style_change``.
    repo_id: str = ""
    config: str = ""
    # For a protocol that reports its own build (ARB: this build's composition and quality
    # flags): the card's protocol text and extra build-info keys, computed from the tables
    # written ({config: {split: rows}}) by whichever command writes them; None: ``protocol``.
    describe_build: Callable[[Tables], tuple[str, dict[str, Any]]] | None = None

    @property
    def repo(self) -> str:
        """The Hub repo (and local build folder) this dataset lives in."""
        return self.repo_id or self.hub_id

    @property
    def slug(self) -> str:
        """Folder name of the repo's local build (``built/<org>__<name>``)."""
        return self.repo.replace("/", "__")

    @property
    def load_call(self) -> str:
        """The ``load_dataset`` call that reads this dataset."""
        if self.config:
            return f'load_dataset("{self.repo}", "{self.config}")'
        return f'load_dataset("{self.repo}")'
