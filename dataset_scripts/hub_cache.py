"""Register a local build where ``datasets`` keeps datasets downloaded from the Hub, so that
the literal ``load_dataset("steb/pan23_style_change", ...)`` finds it offline, from any
working directory, exactly as it would after a download.

How ``datasets`` 5.x resolves ``load_dataset("org/name", config)`` (``datasets/load.py``):

1. a folder ``org/name`` relative to the working directory (it *shadows* everything below);
2. the Hub repo ``org/name`` (online; a pushed repo answers here);
3. when the Hub cannot be reached or has no such repo, ``CachedDatasetModuleFactory``: the
   prepared copy under ``$HF_DATASETS_CACHE/org___name/<config>/<version>/<hash>/``
   (Arrow shards + ``dataset_info.json``); without a config, the most recently prepared
   config.

:func:`register_build` prepares every config of a built folder with ``datasets``' own
Parquet builder straight into step 3's layout (version ``0.0.0``, the hash of the data),
and the ``all`` view of a multi-dataset release last, so that a call without a config
returns it, as the card's ``default: true`` does on the Hub. Nothing of ``datasets`` is
patched; ``load_dataset(<folder>)`` is untouched. Only entries this module wrote (they hold
:data:`MARKER`) are ever replaced or removed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

MARKER = "stylebench_registered.json"
VERSION = "0.0.0"


@dataclass(frozen=True)
class CacheEntry:
    repo: str
    config: str
    path: Path
    rows: dict[str, int]


def cache_root() -> Path:
    import datasets

    return Path(os.path.expanduser(str(datasets.config.HF_DATASETS_CACHE)))


def entry_root(repo: str) -> Path:
    """``org___name`` folder of ``repo`` in the cache (``datasets``' own naming rule)."""
    from datasets.naming import camelcase_to_snakecase

    parts = repo.split("/")
    parts[-1] = camelcase_to_snakecase(parts[-1])
    return cache_root() / "___".join(parts)


def cached_configs(repo: str) -> list[str]:
    """Configs of ``repo`` that ``datasets``' cache holds (registered or downloaded)."""
    root = entry_root(repo)
    if not root.is_dir():
        return []
    return sorted(
        c.name
        for c in root.iterdir()
        if c.is_dir() and any(h.is_dir() for v in c.iterdir() if v.is_dir() for h in v.iterdir())
    )


def _card_configs(folder: Path) -> dict[str, tuple[dict[str, list[Path]], bool]]:
    """``{config: ({split: files}, is_default)}`` from the folder's card, read with
    ``datasets``' own parser of the YAML ``configs:`` block."""
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCard

    card = DatasetCard.load(folder / "README.md")
    out = {}
    for name, params in MetadataConfigs.from_dataset_card_data(card.data).items():
        files: dict[str, list[Path]] = {}
        for entry in params.get("data_files", []):
            patterns = entry["path"] if isinstance(entry["path"], list) else [entry["path"]]
            found = sorted(p for pattern in patterns for p in folder.glob(pattern))
            if not found:
                raise FileNotFoundError(f"{folder}: config {name!r} lists {patterns}; no such file")
            files[entry["split"]] = found
        out[name] = (files, bool(params.get("default")))
    return out


def _hash(config: str, files: dict[str, list[Path]]) -> str:
    digest = hashlib.sha256(config.encode())
    for split, paths in sorted(files.items()):
        digest.update(split.encode())
        for path in paths:
            digest.update(path.read_bytes())
    return digest.hexdigest()[:40]


def register_build(folder: Path, repo: str | None = None) -> list[CacheEntry]:
    """Make the built ``folder`` loadable as ``load_dataset(repo[, config])`` offline.

    ``repo`` defaults to the folder's recorded hub id. Idempotent: an unchanged config is
    not prepared again; a changed one replaces this module's previous entry (never an
    entry ``datasets`` downloaded).
    """
    from datasets.packaged_modules.parquet.parquet import Parquet

    from dataset_scripts.core.hub_folder import BUILD_INFO
    from dataset_scripts.core.quiet import quiet_datasets

    folder = Path(folder).resolve()
    if repo is None:
        info = json.loads((folder / BUILD_INFO).read_text(encoding="utf-8"))
        repo = str(info["hub_id"])
    if repo.count("/") != 1:
        raise ValueError(f"{repo!r} is not a Hub id 'org/name'")
    configs = _card_configs(folder)
    # the default config last: the newest entry is what a call without a config returns
    order = sorted(configs, key=lambda c: configs[c][1])
    entries = []
    now = time.time()
    for index, config in enumerate(order):
        files, _ = configs[config]
        digest = _hash(config, files)
        target = entry_root(repo) / config / VERSION / digest
        if not (target / MARKER).is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{digest}.", dir=target.parent))
            try:
                with tempfile.TemporaryDirectory() as scratch, quiet_datasets():
                    builder = Parquet(
                        cache_dir=scratch,
                        dataset_name=repo.split("/")[-1],
                        config_name=config,
                        data_files={s: [str(p) for p in ps] for s, ps in files.items()},
                        hash=digest,
                    )
                    builder.download_and_prepare(output_dir=str(staging / "prepared"))
                (staging / "prepared" / MARKER).write_text(
                    json.dumps({"source": str(folder), "repo": repo, "config": config})
                )
                if target.exists():  # a torn earlier registration of ours
                    shutil.rmtree(target)
                os.rename(staging / "prepared", target)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        _remove_older(target)
        stamp = now + index  # strictly increasing: the default config is newest
        os.utime(target, (stamp, stamp))
        info = json.loads((target / "dataset_info.json").read_text(encoding="utf-8"))
        rows = {s: int(v.get("num_examples", 0)) for s, v in (info.get("splits") or {}).items()}
        entries.append(CacheEntry(repo, config, target, rows))
    return entries


def _remove_older(current: Path) -> None:
    """Delete other hashes of the same config that this module registered."""
    for sibling in current.parent.iterdir():
        if sibling != current and sibling.is_dir() and (sibling / MARKER).is_file():
            shutil.rmtree(sibling)
