"""Load evaluation data from a Hub-ready folder or a Hub dataset id, through
``datasets.load_dataset`` (the same code path for a local build and a pushed one)."""

from __future__ import annotations

import hashlib
import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError, StylebenchError
from dataset_scripts.core.hub_probe import offline_unless_reachable
from dataset_scripts.core.quiet import quiet_datasets
from dataset_scripts.core.schemas import SCHEMAS, validate_rows
from dataset_scripts.core.spec import folder_name

DEFAULT_SPLIT = "test"


def rows_fingerprint(rows: Any) -> str:
    """The content fingerprint of rows held in memory (16 hex digits of the SHA-256 of
    each row as sorted-key JSON, in order): a dataset given as rows is identified by it
    in the cache and in result records, as a folder is by its files."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(row, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Table:
    """One config/split of a dataset, as plain Python rows."""

    dataset: str  # folder path or Hub id as given
    name: str  # short display name
    config: str
    split: str
    rows: list[dict[str, Any]]
    fingerprint: str
    schema: str = ""  # the stylebench schema of the config ("" = the config's own name)
    dataset_id: str = ""  # e.g. steb/pan23_style_change_hard for config hard of its repo
    repo: str = ""  # the Hub repo (or the folder's recorded hub id)

    @property
    def kind(self) -> str:
        """The schema of this table."""
        return self.schema or self.config

    @property
    def source(self) -> str:
        return f"{self.name} [{self.config}/{self.split}]"


def dataset_name(ref: str) -> str:
    path = Path(ref)
    return path.name if path.exists() else ref


_WARNED: set[str] = set()


def resolve_ref(ref: str) -> tuple[str, str | None]:
    """``(dataset ref, the one config it names or None)``.

    A local folder is itself. ``<repo>:<config>`` names one config of a Hub repo. A STEB
    dataset addressed by its pre-release-repo id (``steb/pan23_style_change_hard``) becomes
    its repo and config, with a :class:`FutureWarning` (the old id works for one release).
    """
    if Path(ref).exists():
        return ref, None
    from dataset_scripts.core.dataset_ids import split_config

    repo, config = split_config(ref)
    if config and (Path(repo).is_dir() or repo.count("/") == 1):
        return repo, config  # a folder or Hub repo, and one of its configs
    if ref.count("/") == 1:
        from dataset_scripts.registry import all_datasets, deprecation_note

        spec = all_datasets().get(ref)
        if spec is not None and spec.config:
            if ref not in _WARNED:  # once per process, not once per call
                _WARNED.add(ref)
                warnings.warn(deprecation_note(spec), FutureWarning, stacklevel=3)
            return spec.repo, spec.config
    return ref, None


def schema_for_features(features: Any) -> str | None:
    """The stylebench schema whose columns a config's features have, or None."""
    names = set(features or ())
    for schema in SCHEMAS.values():
        if names == set(schema.columns):
            return schema.name
    probing = SCHEMAS.get("probing")
    if (
        probing is not None
        and {"id", "text"} <= names
        and any(n.startswith("label_") for n in names)
    ):
        return "probing"
    return None


def _not_built_message(ref: str, error: Exception) -> str:
    """Why a Hub id could not be read, and what to do (build it, or a close id)."""
    from dataset_scripts.registry import releases, unknown_dataset_message

    first = str(error).splitlines()[0] if str(error) else ""
    specs = releases().get(ref)
    if specs:
        spec = specs[0]
        return (
            f"{ref} is not built on this machine and the Hub cannot serve it "
            f"({type(error).__name__}: {first}). Build it with `stylebench build {ref} --raw "
            f"<download of {spec.source_url}>`; it then loads offline as "
            f'load_dataset("{ref}"{", <config>" if spec.config else ""}) from any folder'
        )
    return f"{unknown_dataset_message(ref)} ({type(error).__name__}: {first})"


def _local_schemas(folder: Path) -> dict[str, str]:
    from dataset_scripts.core.hub_folder import built_configs

    recorded = {c: v["schema"] for c, v in built_configs(folder).items()}
    if recorded:
        return recorded
    from datasets import get_dataset_config_names, load_dataset_builder

    out = {}
    for name in get_dataset_config_names(str(folder)):
        if name in SCHEMAS:
            out[name] = name
            continue
        cache = _local_cache_dir(folder, _content_hash(folder, name))  # not another's
        with quiet_datasets():
            builder = load_dataset_builder(str(folder), name, cache_dir=cache)
            schema = schema_for_features(builder.info.features)
        if schema:
            out[name] = schema
    return out


def _hub_schemas(ref: str) -> dict[str, str]:
    from datasets import get_dataset_config_names

    from dataset_scripts.hub_cache import cached_configs
    from dataset_scripts.registry import find_config, releases

    names = get_dataset_config_names(ref)
    if names == ["default"]:  # datasets' cache answers with one "default" config
        names = cached_configs(ref) or names
    out = {}
    known = {s.config: s for s in releases().get(ref, []) if s.config}
    for name in names:
        if name in SCHEMAS:
            out[name] = name
        elif name in known:
            spec = find_config(ref, name)
            tasks = spec.task_types if spec is not None else ()
            out[name] = _schema_of_tasks(tasks) or _schema_from_builder(ref, name) or ""
        else:
            out[name] = _schema_from_builder(ref, name) or ""
    return {k: v for k, v in out.items() if v}


def _schema_of_tasks(tasks: Any) -> str | None:
    from dataset_scripts.core.schemas import schema_for_task

    for task in tasks:
        try:
            return schema_for_task(task).name
        except DataError:  # another family's task name
            continue
    return None


def _schema_from_builder(ref: str, config: str) -> str | None:
    from datasets import load_dataset_builder

    with quiet_datasets():
        return schema_for_features(load_dataset_builder(ref, config).info.features)


def config_schemas(ref: str) -> dict[str, str]:
    """``{config: schema}`` of the configs a dataset offers for evaluation.

    Configs are schema-named (``labelled_texts``, ...) for a dataset that is its own repo
    and named for the STEB dataset in a release repo (``easy`` in
    ``steb/pan23_style_change``); the release's ``all`` view repeats its configs and is
    left out. ``ref`` is a folder, a Hub id, ``<repo>:<config>`` or an old STEB id.
    """
    from dataset_scripts.core.cards import ALL_CONFIG
    from dataset_scripts.custom.suggest import not_a_dataset_message

    problem = not_a_dataset_message(ref)  # a CSV, a folder of .txt files, ...
    if problem is not None:
        raise DataError(problem)
    target, only = resolve_ref(ref)
    try:
        local = Path(target).is_dir()
        if not local:
            offline_unless_reachable()  # one probe, not five retries per Hub request
        found = _local_schemas(Path(target)) if local else _hub_schemas(target)
    except FileNotFoundError as error:
        if not Path(target).exists() and target.count("/") == 1:
            raise StylebenchError(_not_built_message(target, error)) from None
        raise StylebenchError(f"dataset {ref!r} not found: {error}".splitlines()[0]) from None
    except Exception as error:  # network / auth errors from the Hub client
        if not Path(target).exists() and target.count("/") == 1:
            raise StylebenchError(_not_built_message(target, error)) from None
        raise StylebenchError(
            f"cannot read dataset {ref!r} ({type(error).__name__}: {str(error).splitlines()[0]}); "
            "offline? build it locally with `stylebench build` and pass the folder"
        ) from None
    if len(found) > 1:
        found.pop(ALL_CONFIG, None)
    if only is not None:
        if only not in found:
            raise DataError(f"{target} has no config {only!r} (configs: {', '.join(found)})")
        found = {only: found[only]}
    if not found:
        raise DataError(
            f"dataset {ref!r} has no config with a stylebench schema ({', '.join(SCHEMAS)})"
        )
    return found


def available_configs(ref: str) -> list[str]:
    """Configs a dataset offers for evaluation (see :func:`config_schemas`)."""
    return list(config_schemas(ref))


def _content_hash(folder: Path, config: str) -> str:
    """Fingerprint of what ``datasets`` reads for ``config`` of a local folder.

    The files are the ones ``datasets`` itself resolves for the config (the card's YAML
    ``configs:`` or its default layout), whatever their format (Parquet, CSV, JSON
    lines, ...): per split, each file's path relative to the folder and its bytes, plus
    the card's YAML front matter (which says how the files are read). Changed data
    therefore always changes the fingerprint, and a folder that is moved keeps it.
    """
    from datasets import load_dataset_builder

    folder = Path(folder).resolve()
    with quiet_datasets():
        builder = load_dataset_builder(str(folder), config)
    data_files = builder.config.data_files or {}
    digest = hashlib.sha256()
    card = folder / "README.md"
    if card.is_file():
        text = card.read_text(encoding="utf-8", errors="replace")
        if text.startswith("---"):
            digest.update(b"card:" + text.split("\n---", 1)[0].encode("utf-8"))
    n_files = 0
    for split in sorted(data_files):
        for name in sorted(str(f) for f in data_files[split]):
            path = Path(name) if Path(name).is_absolute() else folder / name
            try:
                shown = path.resolve().relative_to(folder).as_posix()
            except ValueError:  # a data file outside the folder: its absolute path
                shown = str(path.resolve())
            digest.update(f"\0{split}\0{shown}\0".encode())
            with path.open("rb") as handle:
                while chunk := handle.read(1 << 20):
                    digest.update(chunk)
            n_files += 1
    if not n_files:
        raise DataError(f"{folder}: datasets finds no data files for config {config!r}")
    return digest.hexdigest()[:16]


def _local_cache_dir(folder: Path, fingerprint: str) -> str:
    """The ``cache_dir`` ``datasets`` gets for a local folder whose config has content
    ``fingerprint`` (:func:`_content_hash`): under its datasets cache, in a folder named
    for the folder's resolved path and that fingerprint. Two folders of the same name,
    or one folder rebuilt, never share a cached schema or cached rows; the same folder
    with the same content reuses its Arrow copy."""
    import datasets.config

    where = hashlib.sha256(str(Path(folder).resolve()).encode("utf-8")).hexdigest()[:16]
    root = Path(datasets.config.HF_DATASETS_CACHE) / "stylebench-local"
    return str(root / f"{Path(folder).resolve().name[:40]}-{where}-{fingerprint}")


def _dataset_id(ref: str, config: str, local: bool) -> tuple[str, str]:
    """(dataset id, repo) of a loaded config: for a config of a release repo the STEB
    dataset it is (``steb/pan23_style_change_hard``), else the repo itself."""
    if local:
        from dataset_scripts.core.hub_folder import built_configs, read_build_info

        repo = read_build_info(Path(ref)).get("hub_id")
        if not repo:
            from dataset_scripts.core.cards import stylebench_metadata

            try:  # a downloaded repo (e.g. a Hub snapshot): its card says what it is
                repo = stylebench_metadata((Path(ref) / "README.md").read_text("utf-8"))["repo"]
            except (OSError, KeyError):
                return "", ""
        return str(built_configs(Path(ref)).get(config, {}).get("dataset", repo)), str(repo)
    from dataset_scripts.registry import find_config

    spec = find_config(ref, config)
    return (spec.hub_id if spec is not None else ref), ref


def _refuse_empty_shards(folder: Path, config: str) -> None:
    """A Parquet shard of ``folder/data/<config>/`` with no rows is a :class:`DataError`
    naming it (``datasets`` fails on one with "ArrowInvalid: BatchSize must be greater
    than 0")."""
    import pyarrow.parquet as pq

    for shard in sorted((folder / "data" / config).glob("*.parquet")):
        try:
            rows = pq.read_metadata(shard).num_rows
        except Exception:  # an unreadable shard: datasets' own error names it
            continue
        if rows == 0:
            raise DataError(
                f"{shard}: a Parquet file with 0 rows; nothing to evaluate in config "
                f"{config!r} (rebuild the dataset, or remove the empty file)"
            )


def load_table(ref: str, config: str, split: str | None = None) -> Table:
    """Load and validate one config of a dataset.

    ``ref``: a folder, a Hub id, ``<repo>:<config>`` or an old STEB id (see
    :func:`resolve_ref`). A schema name as ``config`` still selects the one config of that
    schema in a release folder built from a single STEB dataset.
    """
    from datasets import load_dataset

    given = ref
    ref, only = resolve_ref(ref)
    config = only or config
    local = Path(ref).is_dir()
    schema: str | None = None
    if local:
        schemas = _local_schemas(Path(ref))
        if config not in schemas and config in SCHEMAS:
            matches = [c for c, s in schemas.items() if s == config]
            if len(matches) == 1:
                config = matches[0]
        schema = schemas.get(config)
        _refuse_empty_shards(Path(ref), config)
    else:
        offline_unless_reachable()  # one probe, not five retries per Hub request
    fingerprint: str | None = None
    try:
        fingerprint = _content_hash(Path(ref), config) if local else None
        with quiet_datasets():
            # datasets 5.x keys the cache of a local folder by its name, not its path or
            # content: another folder of the same name (or this one rebuilt) would load
            # under the first one's cached schema and rows. A local folder is therefore
            # loaded under a cache of its own, keyed by its resolved path and content.
            dataset_dict = load_dataset(
                ref,
                config,
                cache_dir=_local_cache_dir(Path(ref), fingerprint) if fingerprint else None,
                # split sizes a card may declare are not checked against the files: the
                # files are what is evaluated (and what the fingerprint covers)
                verification_mode="no_checks" if local else None,
            )
    except Exception as error:
        if not local and ref.count("/") == 1 and not Path(ref).exists():
            raise StylebenchError(_not_built_message(ref, error)) from None
        raise StylebenchError(
            f"cannot load {given!r} config {config!r}: {type(error).__name__}: "
            f"{str(error).splitlines()[0] if str(error) else ''}"
        ) from None
    splits = list(dataset_dict)
    chosen = split or (DEFAULT_SPLIT if DEFAULT_SPLIT in splits else splits[0])
    if chosen not in dataset_dict:
        raise DataError(f"{ref!r} config {config!r} has no split {chosen!r} (has {splits})")
    data = dataset_dict[chosen]
    if schema is None:
        schema = config if config in SCHEMAS else schema_for_features(data.features)
    if schema is None:
        raise DataError(
            f"{ref!r} config {config!r}: columns {list(data.features)} match no stylebench "
            f"schema ({', '.join(SCHEMAS)})"
        )
    rows = data.to_list()
    fingerprint = fingerprint or data._fingerprint
    dataset_id, repo = _dataset_id(ref, config, local)
    # result folders and display: the STEB dataset of a release config, else as before
    name = folder_name(dataset_id) if dataset_id and dataset_id != repo else dataset_name(ref)
    table = Table(ref, name, config, chosen, rows, fingerprint, schema, dataset_id, repo)
    validate_rows(schema, rows, table.source)
    return table
