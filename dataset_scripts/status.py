"""Where each registered dataset stands on this machine: built, buildable from a raw
download that is present, needing a download, or still without a build script.

Raw downloads are found in two ways (:func:`discover`): a folder named like the
dataset's ``raw_hint`` (the folder names under ``../shared/corpora``), or, under any
other name, a folder whose *layout* identifies the download (:data:`LAYOUTS`: the files
that only that release has, e.g. ``SMSSpamCollection`` or PAN's
``truth-problem-N.json`` under ``pan23-multi-author-analysis-dataset1``, or what one
of them says: the corpus PAN14's ``truth.json`` names). Every match
says which file identified it, so ``stylebench build --all`` can print what it found
where.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from dataset_scripts.core.hub_folder import BUILD_INFO
from dataset_scripts.core.spec import DatasetSpec

BUILT, BUILDABLE, NEEDS_DOWNLOAD, NO_BUILDER = (
    "built",
    "buildable",
    "needs download",
    "no builder",
)

# How deep below a candidate folder discovery looks, and how many paths it lists at most
# per candidate (a corpus of many small files is identified by its first few thousand).
MAX_DEPTH = 5
MAX_PATHS = 50_000


@dataclass(frozen=True)
class Layout:
    """The files that identify one raw download.

    ``patterns`` are ``fnmatch`` patterns on a file's path relative to the candidate
    folder (``*`` also crosses ``/``); each must match at least one file, and a pattern
    may offer alternatives separated by ``|``. ``token`` (lower case), when given, must
    occur in the candidate's name or in one of its paths: it tells apart releases with
    the same layout (PAN23 from PAN24, PAN15 from PAN14). ``says`` = (pattern, text),
    when given, is the other way to name the release: one of the first files matching
    the pattern holds the text in its first kilobytes (PAN14's ``truth.json`` names its
    corpus); with both, either one suffices. Several layouts may feed one source: the
    earlier in :data:`LAYOUTS` is preferred (PAN15's test set over its training set).
    """

    source: str  # the raw_hint of the datasets this download feeds
    what: str  # the release, in words
    patterns: tuple[str, ...]
    token: str = ""
    says: tuple[str, str] | None = None


LAYOUTS: tuple[Layout, ...] = (
    Layout(
        "pan23_multi_author_analysis",
        "PAN23 multi-author writing style analysis (Zenodo 7729178)",
        ("*pan23-multi-author-analysis-dataset[123]*/truth-problem-*.json",),
    ),
    Layout(
        "pan24_multi_author_analysis",
        "PAN24 multi-author writing style analysis (Zenodo 10677876)",
        ("*easy/*truth-problem-*.json|*medium/*truth-problem-*.json|*hard/*truth-problem-*.json",),
        token="pan24",
    ),
    Layout(
        "pan25_multi_author_analysis",
        "PAN25 multi-author writing style analysis (Zenodo 14891299)",
        ("*easy/*truth-problem-*.json|*medium/*truth-problem-*.json|*hard/*truth-problem-*.json",),
        token="pan25",
    ),
    *(
        Layout(
            f"pan22_style_change{suffix}",
            f"PAN22 style change detection, dataset{n} ({level})",
            (f"*dataset{n}/*truth-problem-*.json",),
            token="pan22",
        )
        for n, level, suffix in (
            (1, "basic", ""),
            (2, "advanced", "_dataset2"),
            (3, "sentence", "_dataset3"),
        )
    ),
    Layout(
        "pan18_style_change",
        "PAN18 style change detection (problem-N.truth with change positions; Zenodo 3746040)",
        ("*problem-[0-9]*.truth", "*problem-[0-9]*.txt"),
        token="pan18",
        says=("*problem-[0-9]*.truth", '"positions"'),
    ),
    Layout(
        "pan13_authorship_verification_test",
        "PAN13 authorship verification (two-digit problems EN01/; Zenodo 3715999)",
        ("*truth.txt", "*EN[0-9][0-9]/unknown.txt", "*EN[0-9][0-9]/known0[0-9].txt"),
        token="pan13",
    ),
    *(
        Layout(
            f"pan14_authorship_verification_test_corpus{n}",
            f"PAN14 authorship verification, test corpus {n} ({name}; Zenodo 3716033)",
            ("*truth.txt", "*E[EN][0-9][0-9][0-9]/unknown.txt"),
            token=f"corpus{n}",
            says=("*truth.json", f"{name} Evaluation Corpus"),
        )
        for n, name in ((1, "Early-bird"), (2, "Final"))
    ),
    Layout(  # only the test set has problems numbered 200 and above (EN001-EN500)
        "pan15_authorship_verification_english_test",
        "PAN15 authorship verification, English test set (Zenodo 3737563)",
        ("*truth.txt", "*EN[0-9][0-9][0-9]/known01.txt", "*EN[2-5][0-9][0-9]/unknown.txt"),
        token="pan15",
    ),
    Layout(  # the training set (EN001-EN100): STEB's dataset only where no test set is
        "pan15_authorship_verification_english_test",
        "PAN15 authorship verification, English training set (Zenodo 3737563)",
        ("*truth.txt", "*EN[0-9][0-9][0-9]/unknown.txt", "*EN[0-9][0-9][0-9]/known01.txt"),
        token="pan15",
    ),
    Layout(
        "pan18_cross_domain_authorship_attribution",
        "PAN18 cross-domain authorship attribution (Zenodo 3737849)",
        (
            "*collection-info.json",
            "*problem0000[0-9]/problem-info.json",
            "*candidate0000[0-9]/known0000[0-9].txt",
        ),
        token="pan18",
    ),
    Layout(
        "davidson_hate_speech_offensive",
        "Davidson et al. hate speech and offensive language (labeled_data.csv)",
        ("*labeled_data.csv|*labeled_data.csv.gz",),
    ),
    Layout(
        "vicomtech_hate_speech_stormfront",
        "de Gibert et al. Stormfront hate speech (annotations_metadata.csv + all_files/)",
        ("*annotations_metadata.csv", "*all_files/*_*.txt"),
    ),
    Layout(
        "sms_spam_collection",
        "UCI SMS Spam Collection (SMSSpamCollection)",
        ("*SMSSpamCollection|*SMSSpamCollection.txt",),
    ),
    Layout(
        "blog_authorship_corpus",
        "Blog Authorship Corpus (<id>.<gender>.<age>.<industry>.<sign>.xml)",
        ("*[0-9].male.[0-9]*.*.*.xml|*[0-9].female.[0-9]*.*.*.xml",),
    ),
)


@dataclass(frozen=True)
class RawMatch:
    """One raw download found on disk: the folder, what it is and why we think so."""

    source: str
    folder: Path
    how: str  # "folder name" or "layout: <file that identified it>"

    def line(self) -> str:
        return f"{self.folder} ({self.how})"


@dataclass(frozen=True)
class DatasetStatus:
    spec: DatasetSpec
    kind: str  # one of BUILT, BUILDABLE, NEEDS_DOWNLOAD, NO_BUILDER
    detail: str  # the folder, the raw path, or the download URL
    raw: Path | None = None  # the raw download to build from, when BUILDABLE/BUILT
    how: str = ""  # why ``raw`` is this dataset's download (folder name or layout)

    def line(self) -> str:
        return f"{self.kind}: {self.detail}" if self.detail else self.kind


def _listing(folder: Path) -> list[str]:
    """Relative posix paths of the files under ``folder`` (depth and count bounded),
    in sorted order so that the evidence printed is stable."""
    paths: list[str] = []
    base_depth = len(folder.parts)
    for current, dirs, files in os.walk(folder):
        dirs.sort()
        if len(Path(current).parts) - base_depth >= MAX_DEPTH:
            dirs[:] = []
        rel = Path(current).relative_to(folder).as_posix()
        prefix = "" if rel == "." else rel + "/"
        paths.extend(prefix + name for name in sorted(files))
        if len(paths) >= MAX_PATHS:
            break
    return paths


def match_layout(folder: Path, layout: Layout, listing: list[str] | None = None) -> str | None:
    """The file of ``folder`` that identifies it as ``layout``'s download, or ``None``."""
    listing = _listing(folder) if listing is None else listing
    evidence = None
    for pattern in layout.patterns:
        regex = re.compile("|".join(fnmatch.translate(o) for o in pattern.split("|")))
        hit = next((p for p in listing if regex.match(p)), None)
        if hit is None:
            return None
        evidence = evidence or hit
    if not layout.token and layout.says is None:
        return evidence
    token = layout.token
    if token and (token in folder.name.lower() or any(token in p.lower() for p in listing)):
        return evidence
    return evidence if layout.says and _says(folder, listing, *layout.says) else None


def _says(folder: Path, listing: list[str], pattern: str, text: str, files: int = 20) -> bool:
    """Whether one of the first ``files`` files matching ``pattern`` holds ``text`` in its
    first 4 KB."""
    regex = re.compile(fnmatch.translate(pattern))
    for path in [p for p in listing if regex.match(p)][:files]:
        try:
            with open(folder / path, "rb") as handle:
                head = handle.read(4096)
        except OSError:
            continue
        if text.encode("utf-8") in head:
            return True
    return False


def discover(raw_root: Path | None) -> dict[str, list[RawMatch]]:
    """Every raw download under ``raw_root``, by source (``raw_hint``): first the
    subfolders named like a source, then every subfolder whose layout identifies one of
    :data:`LAYOUTS` (whatever its name). ``raw_root`` itself is taken as one download
    only when no subfolder matched anything. The folder-name match comes first."""
    found: dict[str, list[RawMatch]] = {}
    if raw_root is None or not Path(raw_root).is_dir():
        return found
    root = Path(raw_root)
    children = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    for child in children:
        found.setdefault(child.name, []).append(RawMatch(child.name, child, "folder name"))
    by_layout: list[tuple[int, RawMatch]] = []
    for child in children:
        listing = _listing(child)
        for rank, layout in enumerate(LAYOUTS):
            if any(m.folder == child for m in found.get(layout.source, [])) or any(
                m.folder == child and m.source == layout.source for _, m in by_layout
            ):
                continue
            evidence = match_layout(child, layout, listing)
            if evidence is not None:
                by_layout.append((rank, RawMatch(layout.source, child, f"layout: {evidence}")))
    for _, match in sorted(by_layout, key=lambda item: item[0]):  # stable: folder order
        found.setdefault(match.source, []).append(match)
    sources = {layout.source for layout in LAYOUTS}
    if not any(m.source in sources for ms in found.values() for m in ms):
        listing = _listing(root)  # raw_root may itself be one download
        for layout in LAYOUTS:
            evidence = None if layout.source in found else match_layout(root, layout, listing)
            if evidence is not None:
                found.setdefault(layout.source, []).append(
                    RawMatch(layout.source, root, f"layout: {evidence}")
                )
    return found


def built_folder(spec: DatasetSpec, built_root: Path | None) -> Path | None:
    """The locally built folder of ``spec`` under ``built_root`` (``<org>__<name>``)."""
    if built_root is None:
        return None
    folder = Path(built_root) / spec.slug
    if not (folder / BUILD_INFO).is_file():
        return None
    if spec.config:  # one config of a release folder: built only if the folder holds it
        from dataset_scripts.core.hub_folder import built_configs

        return folder if spec.config in built_configs(folder) else None
    return folder


def raw_match(
    spec: DatasetSpec,
    raw_root: Path | None,
    found: dict[str, list[RawMatch]] | None = None,
) -> RawMatch | None:
    """The raw download of ``spec`` under ``raw_root``: its ``raw_hint`` folder, or a
    folder whose layout identifies the download (see :func:`discover`). A folder named
    like the source but holding another layout is still taken (the builder's error then
    names the file it missed)."""
    if raw_root is None or not spec.raw_hint:
        return None
    found = discover(Path(raw_root)) if found is None else found
    matches = found.get(spec.raw_hint, [])
    return matches[0] if matches else None


def registered_builds() -> dict[tuple[str, str], Path]:
    """``{(repo, config): the folder it was built in}`` of every build registered in
    ``datasets``' cache (:func:`dataset_scripts.hub_cache.register_build`): those load
    offline from any folder, wherever they were built."""
    import json

    from dataset_scripts.hub_cache import MARKER, VERSION, cache_root

    found: dict[tuple[str, str], Path] = {}
    root = cache_root()
    if not root.is_dir():
        return found
    for marker in sorted(root.glob(f"*/*/{VERSION}/*/{MARKER}")):
        try:
            info = json.loads(marker.read_text(encoding="utf-8"))
            found[(str(info["repo"]), str(info["config"]))] = Path(str(info["source"]))
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a torn entry: not counted
    return found


def _registered(spec: DatasetSpec, registered: dict[tuple[str, str], Path] | None) -> Path | None:
    """The folder ``spec`` was built in, if a build of it is registered in the cache (a
    config of a release needs that config; a plain dataset any of its repo's)."""
    if not registered:
        return None
    if spec.config:
        return registered.get((spec.repo, spec.config))
    return next((f for (repo, _), f in sorted(registered.items()) if repo == spec.repo), None)


def dataset_status(
    spec: DatasetSpec,
    raw_root: Path | None,
    built_root: Path | None,
    found: dict[str, list[RawMatch]] | None = None,
    registered: dict[tuple[str, str], Path] | None = None,
) -> DatasetStatus:
    """Where ``spec`` stands; ``found`` is :func:`discover` of ``raw_root`` when the
    caller checks many datasets (discovery walks the raw folders once); ``registered``
    (:func:`registered_builds`) makes a build registered in ``datasets``' cache count as
    built wherever it was built."""
    match = raw_match(spec, raw_root, found)
    raw = match.folder if match else None
    how = match.how if match else ""
    folder = built_folder(spec, built_root)
    if folder is not None:
        return DatasetStatus(spec, BUILT, str(folder), raw, how)
    source = _registered(spec, registered)
    if source is not None:
        detail = f"registered in datasets' cache (built in {source})"
        return DatasetStatus(spec, BUILT, detail, raw, how)
    if spec.builder is None:
        return DatasetStatus(spec, NO_BUILDER, f"source {spec.source_url}")
    if not spec.needs_raw:
        return DatasetStatus(spec, BUILDABLE, "no download needed")
    if raw is not None:
        detail = f"from {raw}" + ("" if how == "folder name" else f" ({how})")
        return DatasetStatus(spec, BUILDABLE, detail, raw, how)
    return DatasetStatus(spec, NEEDS_DOWNLOAD, download_hint(spec))


def download_hint(spec: DatasetSpec) -> str:
    """How to get ``spec``'s raw data: the command that fetches it from its declared
    source (saying when a manual step comes first), else the source URL."""
    from dataset_scripts.registry import source_of

    source = source_of(spec)
    if source is None:
        return spec.source_url
    command = f"`stylebench build {spec.repo} --download`"
    if source.gated:
        return f"manual step first ({source.homepage}); {command} says what to put where"
    return f"{source.kind}: {command}"


def source_kind(spec: DatasetSpec) -> str:
    """The host kind of ``spec``'s declared source (``github``, ``zenodo``, ``hub``,
    ``https``, ``manual``), ``none`` for a dataset that needs no download."""
    from dataset_scripts.registry import source_of

    if not spec.needs_raw:
        return "none"
    source = source_of(spec)
    return source.kind if source is not None else "?"


def task_types(spec: DatasetSpec) -> tuple[str, ...]:
    return spec.task_types


def select(
    specs: Iterable[DatasetSpec],
    *,
    language: str | None = None,
    task: str | None = None,
    family: str | None = None,
) -> list[DatasetSpec]:
    """Filter specs by language code, task type and family (hub id prefix)."""
    chosen = []
    for spec in specs:
        if language and language not in spec.language:
            continue
        if task and task not in task_types(spec):
            continue
        if family and spec.hub_id.split("/")[0] != family:
            continue
        chosen.append(spec)
    return chosen
