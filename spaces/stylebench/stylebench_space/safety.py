"""Limits, identifier validation, defensive upload parsing and error messages.

Everything a visitor types or uploads passes through here before it reaches stylebench:

* texts: at most :data:`MAX_TEXT_CHARS` characters each, :data:`MAX_TEXTS` per request;
* uploads: at most :data:`MAX_UPLOAD_BYTES`, UTF-8 (BOM tolerated), CSV with named columns;
* encoder identifiers: a built-in name, or a Hub id ``org/name`` (optionally ``st:``), or a
  folder under an allowed model directory; never a path outside those directories, never
  ``..``, never a model that ships its own code (``trust_remote_code`` is never enabled);
* Hub ids (models and datasets) are resolved through ``huggingface_hub`` to the absolute
  snapshot folder in the Hub cache (:func:`resolve_encoder_spec`, :func:`resolve_dataset_id`)
  before anything loads them, so ``org/name`` can never be read as a folder relative to the
  server's working directory, and a downloaded model is checked for shipped code too;
* run time: long runs stop at :data:`MAX_RUN_SECONDS` and report what finished;
* errors: :func:`clean_message` keeps the first line and replaces server paths by ``<path>``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

MAX_TEXT_CHARS = 5_000
MAX_TEXTS = 2_000
MAX_UPLOAD_BYTES = 2_000_000
MAX_CSV_COLUMNS = 50
MAX_RUN_SECONDS = float(os.environ.get("STYLEBENCH_SPACE_MAX_RUN_SECONDS", "240"))
MAX_DATASETS = 5
MAX_ID_CHARS = 200

# what the encoder dropdown offers besides the built-ins (typed values are validated)
HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$")
CONFIG_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$")
_PREFIXES = ("st:", "hf:")
_REFUSED_PREFIXES = ("causal:",)  # multi-GB causal LMs are not for a shared Space
_REMOTE_CODE_MARKERS = ("trust_remote_code", "remote_code", "auto_map")


class UserError(Exception):
    """A problem with what the visitor asked for; the message is shown as it is."""


def clean_message(error: BaseException | str) -> str:
    """One line, no server paths, no traceback: what a visitor may read."""
    text = str(error).strip() or type(error).__name__
    text = text.splitlines()[0]
    # absolute POSIX or Windows paths, and file:// URLs
    text = re.sub(r"file://\S+", "<path>", text)
    text = re.sub(r"(?<![\w.])(?:/[\w.@+-]+){2,}/?", "<path>", text)
    text = re.sub(r"[A-Za-z]:\\[^\s'\"]+", "<path>", text)
    return text[:400]


def check_text(text: str, what: str = "text") -> str:
    """A non-empty text within :data:`MAX_TEXT_CHARS` characters (stripped)."""
    if not isinstance(text, str):
        raise UserError(f"{what} must be text")
    text = text.strip()
    if not text:
        raise UserError(f"{what} is empty: paste some text first")
    if len(text) > MAX_TEXT_CHARS:
        raise UserError(
            f"{what} has {len(text):,} characters; the limit is {MAX_TEXT_CHARS:,} "
            "(run longer texts with the stylebench CLI)"
        )
    return text


def allowed_model_dirs() -> list[Path]:
    """Folders whose sub-folders may be loaded as local models
    (``STYLEBENCH_SPACE_MODEL_DIRS``, separated by ``os.pathsep``)."""
    raw = os.environ.get("STYLEBENCH_SPACE_MODEL_DIRS", "")
    return [Path(p).resolve() for p in raw.split(os.pathsep) if p.strip()]


def _inside(path: Path, roots: Iterable[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def needs_remote_code(folder: Path) -> bool:
    """True when a local model folder ships Python code or maps classes to its own code."""
    if any(folder.glob("*.py")):
        return True
    for name in ("config.json", "config_sentence_transformers.json", "modules.json"):
        path = folder / name
        if path.is_file() and path.stat().st_size < 1_000_000:
            try:
                config = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(config, dict) and (
                "auto_map" in config or config.get("trust_remote_code")
            ):
                return True
    return False


def validate_encoder_spec(spec: str, builtins: Iterable[str]) -> str:
    """The encoder spec to pass to ``get_encoder``, or :class:`UserError`.

    Accepted: a built-in name; ``org/name`` or ``st:org/name`` (sentence-transformers) and
    ``hf:org/name`` (mean pooling) Hub ids; a local folder inside an allowed model dir
    (:func:`allowed_model_dirs`). Refused: empty or over-long ids, ``..``, ``~``, absolute
    paths elsewhere, options or anything mentioning remote code, ``causal:`` models, and
    local folders that ship code.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise UserError("choose an encoder")
    spec = spec.strip()
    if spec in set(builtins):
        return spec
    if len(spec) > MAX_ID_CHARS:
        raise UserError(f"model id is longer than {MAX_ID_CHARS} characters")
    lowered = spec.lower()
    if any(marker in lowered for marker in _REMOTE_CODE_MARKERS):
        raise UserError(
            "models that need trust_remote_code are refused: this Space never runs code "
            "shipped with a model"
        )
    if ".." in spec or "~" in spec or "\\" in spec or "\x00" in spec:
        raise UserError("this model id is refused: no '..', '~' or backslashes allowed")
    if lowered.startswith(_REFUSED_PREFIXES):
        raise UserError("causal language models are too large for this Space; use the CLI")
    prefix = next((p for p in _PREFIXES if spec.startswith(p)), "")
    target = spec[len(prefix) :]
    if target.startswith("/"):
        path = Path(target).resolve()
        roots = allowed_model_dirs()
        if not roots or not _inside(path, roots) or path in roots:
            raise UserError(
                "local model paths are refused unless they lie inside a model folder "
                "this Space allows"
            )
        if not path.is_dir():
            raise UserError("that local model folder does not exist")
        if needs_remote_code(path):
            raise UserError(
                "this model ships its own code (trust_remote_code); this Space never runs it"
            )
        return f"{prefix or 'st:'}{path}"
    if not HUB_ID.match(target):
        raise UserError(
            f"{spec!r} is neither a built-in encoder nor a Hub id like "
            "'sentence-transformers/all-MiniLM-L6-v2'"
        )
    return f"{prefix or 'st:'}{target}"


DATASET_PATTERNS = (
    "README.md",
    "*.parquet",
    "**/*.parquet",
    "*.arrow",
    "**/*.arrow",
    "*.csv",
    "**/*.csv",
    "*.json",
    "**/*.json",
    "*.jsonl",
    "**/*.jsonl",
)  # never a loading script


def hub_snapshot(repo_id: str, repo_type: str) -> Path:
    """The absolute snapshot folder of a Hub repo in the local Hub cache (downloaded when the
    Hub is reachable). Raises :class:`UserError` when it cannot be had."""
    from huggingface_hub import snapshot_download

    if not HUB_ID.match(repo_id):
        raise UserError(f"{repo_id[:80]!r} is not a Hub id like 'org/name'")
    try:
        folder = snapshot_download(
            repo_id=repo_id,
            repo_type=repo_type,
            allow_patterns=list(DATASET_PATTERNS) if repo_type == "dataset" else None,
        )
    except Exception as error:
        raise UserError(
            f"cannot fetch {repo_type} {repo_id!r} from the Hugging Face Hub "
            f"({type(error).__name__}: {clean_message(error)[:160]}); "
            "the Hub may be unreachable from this Space"
        ) from None
    path = Path(folder).resolve()
    if not path.is_absolute() or not path.is_dir():
        raise UserError(f"the Hub cache gave no folder for {repo_id!r}")
    return path


def resolve_encoder_spec(spec: str, builtins: Iterable[str]) -> str:
    """A validated spec (:func:`validate_encoder_spec`) with any Hub id replaced by its
    absolute snapshot folder, which is checked for shipped code like a local folder."""
    if spec in set(builtins):
        return spec
    prefix = next((p for p in _PREFIXES if spec.startswith(p)), "")
    target = spec[len(prefix) :]
    if target.startswith("/"):
        return spec  # an allowed local folder, already checked
    folder = hub_snapshot(target, "model")
    if needs_remote_code(folder):
        raise UserError(
            "this model ships its own code (trust_remote_code); this Space never runs it"
        )
    return f"{prefix or 'st:'}{folder}"


def resolve_dataset_id(ref: str) -> Path:
    """The absolute snapshot folder of a Hub dataset id (data files and card only)."""
    return hub_snapshot(validate_dataset_id(ref), "dataset")


def validate_dataset_id(ref: str) -> str:
    """A Hub dataset id ``org/name``, optionally ``org/name:config`` (no paths)."""
    ref = (ref or "").strip()
    repo, sep, config = ref.partition(":")
    if (
        ".." in ref
        or ref.startswith(("/", "~", "."))
        or not HUB_ID.match(repo)
        or (sep and not CONFIG_NAME.match(config))
    ):
        raise UserError(
            f"{ref[:80]!r} is not a Hub dataset id like 'org/name' or 'org/name:config'"
        )
    return ref


def read_csv_upload(
    path: str | Path | None,
    *,
    required: Iterable[str] = (),
    max_rows: int = MAX_TEXTS,
    what: str = "upload",
) -> list[dict[str, str]]:
    """Rows of an uploaded CSV as dicts of strings, checked for size, encoding and columns.

    Raises :class:`UserError` naming the problem (and the row, for a malformed one).
    """
    if not path:
        raise UserError(f"{what}: no file uploaded")
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError:
        raise UserError(f"{what}: the uploaded file cannot be read") from None
    if size > MAX_UPLOAD_BYTES:
        raise UserError(f"{what}: file is {size:,} bytes; the limit is {MAX_UPLOAD_BYTES:,}")
    data = path.read_bytes()
    if b"\x00" in data:
        raise UserError(f"{what}: this is a binary file, not a CSV")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UserError(
            f"{what}: not UTF-8 text (bad byte at position {error.start}); save it as UTF-8 CSV"
        ) from None
    return parse_csv_text(text, required=required, max_rows=max_rows, what=what)


def parse_csv_text(
    text: str, *, required: Iterable[str] = (), max_rows: int = MAX_TEXTS, what: str = "CSV"
) -> list[dict[str, str]]:
    """Parse CSV text with a header row (see :func:`read_csv_upload`)."""
    if len(text) > MAX_UPLOAD_BYTES:
        raise UserError(f"{what}: more than {MAX_UPLOAD_BYTES:,} characters")
    csv.field_size_limit(MAX_TEXT_CHARS * 4)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if not header or not any(h.strip() for h in header):
            raise UserError(f"{what}: empty file; the first row must name the columns")
        header = [h.strip() for h in header]
        if len(header) > MAX_CSV_COLUMNS:
            raise UserError(f"{what}: {len(header)} columns; at most {MAX_CSV_COLUMNS}")
        if len(set(header)) != len(header):
            raise UserError(f"{what}: duplicate column names in the header {header}")
        missing = [c for c in required if c not in header]
        if missing:
            raise UserError(
                f"{what}: missing column(s) {', '.join(missing)}; found {', '.join(header)}"
            )
        rows = []
        for values in reader:
            line = reader.line_num
            if not any(v.strip() for v in values):
                continue
            if len(values) != len(header):
                raise UserError(
                    f"{what}: row at line {line} has {len(values)} fields; "
                    f"the header has {len(header)}"
                )
            if len(rows) >= max_rows:
                raise UserError(f"{what}: more than {max_rows:,} rows; the limit is {max_rows:,}")
            for column, value in zip(header, values, strict=True):
                if len(value) > MAX_TEXT_CHARS:
                    raise UserError(
                        f"{what}: line {line}, column {column!r} has {len(value):,} characters; "
                        f"the limit is {MAX_TEXT_CHARS:,}"
                    )
            rows.append(dict(zip(header, values, strict=True)))
    except csv.Error as error:
        raise UserError(f"{what}: malformed CSV at line {reader.line_num}: {error}") from None
    if not rows:
        raise UserError(f"{what}: the header has no data rows below it")
    return rows
