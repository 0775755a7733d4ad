"""``stylebench build --from``: a user's files -> a validated Hub-ready dataset folder.

:func:`build_from_source` reads the input (:mod:`.readers`), maps its columns, drops and
counts unusable rows (empty text, missing label, ...), forms the schema's rows
(:mod:`.forming`) and writes them with the shared writer
(:func:`dataset_scripts.core.hub_folder.write_hub_folder`: schema validation, Parquet shards,
card, build report). The card records the source, its format, the column mapping, every
option, the counts and the dropped rows, and the exact command that rebuilds it.
"""

from __future__ import annotations

import re
import shlex
from collections import Counter
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.custom import forming
from dataset_scripts.custom.readers import FILE_DOCUMENT, Source, read_source

# schemas a user can build from their own rows (the task types follow from the schema)
_SAFE_NAME = re.compile(r"^(?!\.\.?$)[A-Za-z0-9._-]+$")
SCHEMA_CHOICES = ("labelled_texts", "text_pairs", "style_sequences", "retrieval", "probing")


_PASSAGES = ("text_column", "doc_column", "id_column", "chunk_words", "chunks_per_doc", "seed")
# the options that matter for each schema (the card lists these)
RELEVANT: dict[str, tuple[str, ...]] = {
    "labelled_texts": ("schema", "label_column", "normalise_labels", *_PASSAGES),
    "retrieval": (
        "schema",
        "label_column",
        "normalise_labels",
        *_PASSAGES,
        "texts_per_query",
        "queries_per_author",
    ),
    "probing": ("schema", *_PASSAGES),
    "text_pairs": ("schema", "text1_column", "text2_column", "label_column", "id_column"),
    "style_sequences": (
        "schema",
        "text_column",
        "sequence_column",
        "style_column",
        "group_column",
        "order_column",
    ),
}


@dataclass(frozen=True)
class BuildOptions:
    """Column mapping and formation options (CLI flags of the same names)."""

    schema: str = "labelled_texts"
    text_column: str = "text"
    label_column: str = "label"
    doc_column: str | None = None
    id_column: str | None = None
    text1_column: str = "text1"
    text2_column: str = "text2"
    sequence_column: str = "sequence"
    style_column: str = "style"
    group_column: str | None = None
    order_column: str | None = None
    label_from: str = "folder"
    file_pattern: str | None = None
    chunk_words: int | None = None
    chunks_per_doc: int | None = None
    texts_per_query: int | None = None
    queries_per_author: int = 1
    seed: int = 42
    split: str | None = None
    hf_config: str | None = None
    name: str | None = None
    license: str | None = None
    normalise_labels: bool = False

    def non_default(self) -> dict[str, Any]:
        default = BuildOptions()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }


def cli_command(source: str | Path, out: str | Path, options: BuildOptions) -> str:
    """The ``stylebench build --from`` command line for ``options`` (non-defaults only,
    ``--schema`` always)."""
    parts = ["stylebench", "build", "--from", str(source), "--schema", options.schema]
    for key, value in options.non_default().items():
        if key == "schema" or value is None:
            continue
        if isinstance(value, bool):  # a flag
            parts += [f"--{key.replace('_', '-')}"] if value else []
            continue
        parts += [f"--{key.replace('_', '-')}", str(value)]
    parts += ["--out", str(out)]
    return shlex.join(parts)


@dataclass(frozen=True)
class BuildReport:
    folder: Path
    counts: dict[str, int]
    dropped: dict[str, int]
    source_kind: str
    command: str


def _require_columns(source: Source, wanted: dict[str, str | None]) -> None:
    columns = source.columns
    for flag, column in wanted.items():
        if column is not None and column not in columns:
            raise DataError(
                f"{source.path}: no column {column!r} (for {flag}); columns found: "
                f"{', '.join(map(str, columns)) or 'none'}"
            )


def _present(value: Any) -> bool:
    if value is None:
        return False
    if isinstance(value, float) and value != value:  # NaN from pandas / Parquet
        return False
    return bool(str(value).strip())


def _documents(
    source: Source, options: BuildOptions, dropped: Counter[str], need_label: bool
) -> list[forming.Passage]:
    doc_column = options.doc_column or (FILE_DOCUMENT if "text files" in source.kind else None)
    _require_columns(
        source,
        {
            "--text-column": options.text_column,
            "--label-column": options.label_column if need_label else None,
            "--doc-column": doc_column,
            "--id-column": options.id_column,
        },
    )
    docs = []
    for index, (where, row) in enumerate(source.rows):
        text = row.get(options.text_column)
        if not _present(text):
            dropped[f"rows with an empty or missing {options.text_column!r}"] += 1
            continue
        if not isinstance(text, str):
            raise DataError(
                f"{where}: column {options.text_column!r} holds {type(text).__name__} "
                f"{text!r:.60}, expected text"
            )
        label = row.get(options.label_column) if need_label else None
        if need_label and not _present(label):
            dropped[f"rows with an empty or missing {options.label_column!r}"] += 1
            continue
        row_id = str(row[options.id_column]) if options.id_column else f"r{index}"
        document = str(row[doc_column]) if doc_column and _present(row[doc_column]) else row_id
        docs.append(
            forming.Passage(
                row_id,
                text.strip(),
                None if label is None else str(label).strip(),
                document,
                where,
                {},
            )
        )
    return docs


def form_tables(
    source: Source, options: BuildOptions, dropped: Counter[str]
) -> dict[str, list[dict[str, Any]]]:
    """``{config: rows}`` for ``options.schema`` from the rows read."""
    schema = options.schema
    if schema not in SCHEMA_CHOICES:
        raise DataError(f"--schema must be one of {', '.join(SCHEMA_CHOICES)}, got {schema!r}")
    if schema in ("labelled_texts", "retrieval", "probing"):
        docs = _documents(source, options, dropped, need_label=schema != "probing")
        docs = forming.label_variants(docs, dropped, merge=options.normalise_labels)
        passages, links = forming.to_passages(
            docs,
            dropped,
            chunk_words_n=options.chunk_words,
            chunks_per_doc=options.chunks_per_doc,
            seed=options.seed,
        )
        if not passages:
            raise DataError(f"{source.path}: no usable texts (dropped: {dict(dropped)})")
        if schema == "labelled_texts":
            return {"labelled_texts": forming.labelled_rows(passages)}
        if schema == "retrieval":
            return {
                "retrieval": forming.retrieval_rows(
                    passages,
                    dropped,
                    texts_per_episode=options.texts_per_query,
                    episodes=options.queries_per_author,
                    seed=options.seed,
                    links=links,
                )
            }
        from dataset_scripts.steb.probing import probing_table

        return {
            "probing": probing_table([p.id for p in passages], [p.text for p in passages], dropped)
        }
    if options.chunk_words is not None:
        raise DataError(
            f"--chunk-words applies to labelled_texts, retrieval and probing, not {schema}"
        )
    if schema == "text_pairs":
        _require_columns(
            source,
            {
                "--text1-column": options.text1_column,
                "--text2-column": options.text2_column,
                "--label-column": options.label_column,
                "--id-column": options.id_column,
            },
        )
        rows = []
        for index, (where, row) in enumerate(source.rows):
            a, b = row.get(options.text1_column), row.get(options.text2_column)
            if not _present(a) or not _present(b):
                dropped["pairs with an empty or missing text"] += 1
                continue
            if not _present(row.get(options.label_column)):
                dropped[f"pairs with an empty or missing {options.label_column!r}"] += 1
                continue
            rows.append(
                {
                    "id": str(row[options.id_column]) if options.id_column else f"r{index}",
                    "text1": str(a).strip(),
                    "text2": str(b).strip(),
                    "label": forming.pair_label(row[options.label_column], where),
                }
            )
        return {"text_pairs": rows}
    # style_sequences
    _require_columns(
        source,
        {
            "--text-column": options.text_column,
            "--sequence-column": options.sequence_column,
            "--style-column": options.style_column,
            "--group-column": options.group_column,
            "--order-column": options.order_column,
        },
    )
    kept = []
    for where, row in source.rows:
        if not _present(row.get(options.text_column)):
            dropped[f"rows with an empty or missing {options.text_column!r}"] += 1
            continue
        kept.append((where, row))
    return {
        "style_sequences": forming.sequence_rows(
            kept,
            text_column=options.text_column,
            sequence_column=options.sequence_column,
            style_column=options.style_column,
            group_column=options.group_column,
            order_column=options.order_column,
        )
    }


def _protocol(source: Source, options: BuildOptions, command: str) -> str:
    wanted = RELEVANT[options.schema] + (
        ("split", "hf_config") if "Hugging Face" in source.kind else ()
    )
    if "text files" in source.kind:
        wanted += ("label_from", "file_pattern")
    mapping = {k: v for k, v in asdict(options).items() if v is not None and k in wanted}
    lines = [
        f"Built from the user's data `{source.path}` ({source.kind}, {len(source.rows):,} "
        "records read) with `stylebench build --from`.",
        "",
        "| option | value |",
        "|---|---|",
        *[f"| `{k}` | `{v}` |" for k, v in mapping.items()],
        "",
    ]
    if options.chunk_words:
        lines.append(
            f"Documents were cut into consecutive {options.chunk_words}-word passages (words "
            "after the last full passage dropped)"
            + (
                f"; {options.chunks_per_doc} passages per document kept, drawn with seed "
                f"{options.seed}."
                if options.chunks_per_doc
                else "."
            )
        )
    if options.schema == "retrieval":
        lines.append(
            "Queries and targets are split by document (STEB App. C.9 episodes): per author the "
            f"documents are shuffled (seed {options.seed}) and halved; the query side's passages "
            "form the queries and the target side's the targets, "
            f"{options.texts_per_query or 'all'} passages each, {options.queries_per_author} per "
            "author and side. No document contributes to both sides."
        )
    lines += ["", "Rebuild with:", "", "```bash", command, "```"]
    return "\n".join(lines)


def build_from_source(
    source: str | Path, out: str | Path, options: BuildOptions | None = None
) -> BuildReport:
    """Read ``source``, form ``options.schema`` rows and write a Hub-ready folder at ``out``."""
    from dataset_scripts.core.hub_folder import write_hub_folder
    from dataset_scripts.core.spec import DatasetSpec

    options = options or BuildOptions()
    if options.schema not in SCHEMA_CHOICES:
        raise DataError(
            f"--schema must be one of {', '.join(SCHEMA_CHOICES)}, got {options.schema!r}"
        )
    if options.name is not None and not _SAFE_NAME.match(options.name):
        raise DataError(
            f"--name {options.name!r}: a dataset name is letters, digits, '.', '_' and '-' "
            "(no '/' or '..'; it names a folder under --built-root)"
        )
    from dataset_scripts.core.hub_folder import check_out_dir

    local = Path(str(source))
    # the output may not be, hold or lie inside the input (it would replace its own input)
    check_out_dir(Path(out), local if local.exists() else None, "the --from input")
    dropped: Counter[str] = Counter()
    label_from = (
        "none"
        if options.schema == "probing" and options.label_from == "folder"
        else options.label_from
    )
    src = read_source(
        source,
        label_from=label_from,
        file_pattern=options.file_pattern,
        split=options.split,
        config=options.hf_config,
        dropped=dropped,
    )
    if not src.rows:
        raise DataError(f"{source}: no records found")
    tables = form_tables(src, options, dropped)
    out = Path(out)
    name = options.name or (Path(str(source)).stem.split(".")[0] or "dataset")
    command = cli_command(source, out, options)
    spec = DatasetSpec(
        hub_id=f"local/{name}",
        pretty_name=name,
        summary=(
            f"A `{options.schema}` dataset built from `{source}` ({src.kind}) with "
            "`stylebench build --from`."
        ),
        builder=None,
        license=options.license or "unknown (the licence of the source data)",
        source_url=str(source),
        citation="(cite the source of the data)",
        raw_format=src.kind,
        protocol=_protocol(src, options, command),
        needs_raw=True,
        run_command=f"stylebench run --model <encoder> --dataset {out}",
        build_command=command,
    )
    info = {
        "source": str(source),
        "source_kind": src.kind,
        "options": asdict(options),
        "command": command,
    }
    folder = write_hub_folder(
        spec, {cfg: {"test": rows} for cfg, rows in tables.items()}, out, dict(dropped), info
    )
    return BuildReport(
        Path(folder),
        {cfg: len(rows) for cfg, rows in tables.items()},
        dict(dropped),
        src.kind,
        command,
    )
