"""On-disk embedding cache: one SQLite file per encoder identity, keyed by the
SHA-256 of each text.

* Safe against concurrent runs: SQLite serialises writers (WAL journal, busy timeout),
  and a race between two runs embedding the same text is harmless (both write the same
  vector).
* Safe against interruption: every batch is committed as soon as it is embedded, so a
  killed run resumes without re-embedding what was done.
* Verified: every vector is stored with a checksum (BLAKE2b over its key, dimension and
  bytes). A vector whose checksum, length or dimension does not match is never returned:
  it counts as damaged, a :class:`CacheDamageWarning` names the file, and the runner
  re-encodes it (the new vector replaces the damaged row). Vectors written before
  checksums existed are re-encoded the same way, without a warning.
* Damage to the file itself (truncated, overwritten, not a database) raises
  :class:`CacheDamagedError` naming the file and the recovery: move the file aside and
  rerun; every vector is then re-encoded into a fresh file.
* A write the file system refuses (disk full, a read-only or unwritable folder) raises
  :class:`CacheStorageError` saying which: the cache is healthy and is kept (moving it
  aside would throw good vectors away); free space, give another ``--cache-dir`` or run
  with ``--no-cache``.
* A cache on a read-only file system (or in a folder this user may not write) is read,
  not refused: it is opened read-only (nothing is created, migrated or locked for
  writing), and a run fails only when a text is missing from it and would have to be
  added. Reading a complete (warm) cache needs no write access.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.base import identity_key

DB_NAME = "embeddings.sqlite"
LOCK_DEADLINE_S = 120.0  # how long a writer waits for another one's lock
T = TypeVar("T")


class CacheDamagedError(StylebenchError):
    """The cache file cannot be read as a database; the message names it and the fix."""


class CacheStorageError(StylebenchError):
    """The cache cannot be written (disk full, read-only, no permission): the cache itself
    is healthy and kept; the message says what to do instead."""


class CacheDamageWarning(UserWarning):
    """Some cached vectors failed verification and will be re-encoded."""


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def vector_checksum(key: str, dim: int, blob: bytes) -> str:
    """Checksum of one stored vector, bound to its key and dimension (so a vector moved
    to another row does not verify either)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(key.encode("ascii"))
    digest.update(int(dim).to_bytes(8, "little", signed=True))
    digest.update(blob)
    return digest.hexdigest()


def _writable(folder: Path, path: Path) -> bool:
    """Whether SQLite may write ``path`` and its journal files beside it in ``folder``
    (``access(2)`` says no on a read-only file system, even to root)."""
    import os

    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return False
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK) and os.access(path, os.R_OK | os.W_OK)


def recovery_hint(path: Path) -> str:
    return (
        f"move it aside and rerun (`mv {path} {path}.damaged`); every vector is then "
        "re-encoded into a fresh cache file"
    )


class EmbeddingCache:
    """Vectors of one encoder identity stored under ``root/<identity hash>/``."""

    def __init__(self, root: Path, identity: dict[str, Any]) -> None:
        self.identity = identity
        self.folder = Path(root) / identity_key(identity)
        self.path = self.folder / DB_NAME
        self.n_damaged = 0  # vectors that failed verification, over this object's life
        # a cache file that exists where nothing may be written (a read-only file system,
        # a folder or file without write permission) is opened read-only: reading needs
        # no write access; only a vector that must be added fails (put_many)
        self.read_only = self.path.is_file() and not _writable(self.folder, self.path)
        self._checksums = True  # whether the table has its checksum column
        if self.read_only:
            self._db = self._guard(self._connect_read_only)
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            manifest = self.folder / "identity.json"
            if not manifest.exists():
                manifest.write_text(json.dumps(identity, indent=2, sort_keys=True, default=str))
        except OSError as error:
            raise self._storage_error(error.strerror or str(error), error.errno) from None
        self._db = self._guard(lambda: sqlite3.connect(self.path, timeout=LOCK_DEADLINE_S))
        self._guard(self._init_schema)

    def _connect_read_only(self) -> sqlite3.Connection:
        """A connection that never writes: ``mode=ro`` (which still reads a WAL journal
        left by a run that did not close), else, where SQLite cannot open the journal's
        shared-memory file without writing it, ``immutable=1`` (the file as it is on
        disk; a closed cache keeps everything there). The table is checked, not created."""
        from urllib.parse import quote

        uri = f"file:{quote(str(self.path.resolve()))}"
        last: sqlite3.Error | None = None
        for flags in ("mode=ro", "mode=ro&immutable=1"):
            try:
                db = sqlite3.connect(f"{uri}?{flags}", uri=True, timeout=LOCK_DEADLINE_S)
                columns = {row[1] for row in db.execute("PRAGMA table_info(vectors)")}
            except sqlite3.OperationalError as error:  # -shm cannot be created here
                last = error
                continue
            if not columns:  # an empty file: no vectors to read
                db.execute("CREATE TEMP TABLE vectors (key, dim, vector, checksum)")
            self._checksums = not columns or "checksum" in columns
            return db
        assert last is not None
        raise last

    def _refuse_write(self, n: int) -> CacheStorageError:
        import errno

        return self._storage_error(
            f"{n} text(s) are not in this read-only cache and would have to be added",
            errno.EROFS,
        )

    def _storage_error(self, detail: str, errno_code: int | None = None) -> CacheStorageError:
        """A write the file system refused, named as what it is (the cache is healthy)."""
        import errno
        import os

        full = errno_code in (errno.ENOSPC, errno.EDQUOT)
        read_only = errno_code in (errno.EROFS, errno.EACCES, errno.EPERM)
        text = detail.lower()
        if "full" in text or "no space" in text:
            full = True
        if "readonly" in text or "read-only" in text or "permission" in text:
            read_only = True
        if not full and not read_only:
            try:  # SQLite reports some failed writes only as "disk I/O error"
                stat = os.statvfs(self.folder if self.folder.exists() else self.folder.parent)
                full = stat.f_bavail * stat.f_frsize < 1 << 20
                read_only = bool(stat.f_flag & os.ST_RDONLY) or not os.access(
                    self.folder if self.folder.exists() else self.folder.parent, os.W_OK
                )
            except OSError:
                pass
        keep = "the cache itself is not damaged: keep it"
        instead = "give --cache-dir a writable folder or run with --no-cache"
        if full:
            return CacheStorageError(
                f"embedding cache {self.path}: disk full ({detail}); {keep}; free space "
                f"and rerun, or {instead}"
            )
        if read_only:
            return CacheStorageError(
                f"embedding cache {self.path}: the folder is read-only or not writable "
                f"({detail}); {keep}; {instead}"
            )
        return CacheStorageError(
            f"embedding cache {self.path}: the file system refused a write ({detail}); "
            f"{keep}; {instead}"
        )

    def _guard(self, action: Callable[[], T]) -> T:
        """Run a database action; a damaged file becomes :class:`CacheDamagedError`, a
        write the disk refuses (full, read-only) :class:`CacheStorageError`."""
        try:
            return self._retry_locked(action)
        except sqlite3.DatabaseError as error:
            if isinstance(error, sqlite3.OperationalError) and "locked" in str(error):
                raise
            name = getattr(error, "sqlite_errorname", "") or ""
            if name.startswith(("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_CANTOPEN")) or (
                name.startswith(("SQLITE_IOERR", "SQLITE_PERM"))
            ):
                raise self._storage_error(str(error)) from None
            raise CacheDamagedError(
                f"embedding cache {self.path} is damaged or unreadable ({error}); {recovery_hint(self.path)}"
            ) from None
        except OSError as error:
            raise self._storage_error(error.strerror or str(error), error.errno) from None

    @staticmethod
    def _retry_locked(action: Callable[[], T]) -> T:
        """Run ``action``, retrying while another connection holds the lock.

        SQLite's busy timeout does not cover every lock: switching a new file to WAL
        while other writers open it returns "database is locked" at once (1 in 40
        eight-writer races here). Every action here is idempotent (schema set-up, one
        ``INSERT OR REPLACE`` transaction, reads), so it is retried with backoff until
        :data:`LOCK_DEADLINE_S` has passed, then the error is raised as it came."""
        import time

        deadline = time.monotonic() + LOCK_DEADLINE_S
        pause = 0.005
        while True:
            try:
                return action()
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.5)

    def _init_schema(self) -> None:
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors "
            "(key TEXT PRIMARY KEY, dim INTEGER, vector BLOB, checksum TEXT)"
        )
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(vectors)")}
        if "checksum" not in columns:  # a cache written before checksums existed
            self._db.execute("ALTER TABLE vectors ADD COLUMN checksum TEXT")
        self._db.commit()

    def get_many(self, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """Verified cached vectors of the given texts (missing or damaged ones are absent)."""
        by_key: dict[str, str] = {text_key(t): t for t in texts}
        return self._guard(lambda: self._get(by_key))

    def _get(self, by_key: dict[str, str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        damaged = 0
        keys = list(by_key)
        for start in range(0, len(keys), 900):  # SQLite's bound-parameter limit
            chunk = keys[start : start + 900]
            marks = ",".join("?" * len(chunk))
            checksum_column = "checksum" if self._checksums else "NULL"
            for key, dim, blob, checksum in self._db.execute(
                f"SELECT key, dim, vector, {checksum_column} FROM vectors WHERE key IN ({marks})",
                chunk,
            ):
                if checksum is None:
                    continue  # unverifiable (written before checksums): re-encoded
                if (
                    not isinstance(blob, bytes)
                    or not isinstance(dim, int)
                    or dim < 1
                    or len(blob) != 4 * dim
                    or checksum != vector_checksum(key, dim, blob)
                ):
                    damaged += 1
                    continue
                found[by_key[key]] = np.frombuffer(blob, dtype=np.float32)
        if damaged:
            self.n_damaged += damaged
            warnings.warn(
                f"embedding cache {self.path}: {damaged} cached vector(s) failed their "
                "checksum (damaged); they are re-encoded and replaced",
                CacheDamageWarning,
                stacklevel=3,
            )
        return found

    def put_many(self, texts: list[str], vectors: np.ndarray) -> None:
        if self.read_only and len(texts):
            raise self._refuse_write(len(texts))
        rows = []
        for t, v in zip(texts, vectors, strict=True):
            key = text_key(t)
            blob = np.ascontiguousarray(v, dtype=np.float32).tobytes()
            dim = int(v.shape[0])
            rows.append((key, dim, blob, vector_checksum(key, dim, blob)))

        def write() -> None:
            with self._db:  # one transaction per batch
                # REPLACE: a damaged row is overwritten; two runs racing write the same vector
                self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", rows)

        self._guard(write)

    def verify(self) -> tuple[int, int]:
        """``(n_vectors, n_damaged)`` over the whole file (damaged = failed checksum or
        unverifiable); raises :class:`CacheDamagedError` when the file itself is damaged."""

        def scan() -> tuple[int, int]:
            total = bad = 0
            checksum_column = "checksum" if self._checksums else "NULL"
            for key, dim, blob, checksum in self._db.execute(
                f"SELECT key, dim, vector, {checksum_column} FROM vectors"
            ):
                total += 1
                if (
                    checksum is None
                    or not isinstance(blob, bytes)
                    or not isinstance(dim, int)
                    or len(blob) != 4 * dim
                    or checksum != vector_checksum(key, dim, blob)
                ):
                    bad += 1
            return total, bad

        return self._guard(scan)

    def __len__(self) -> int:
        return int(
            self._guard(lambda: self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])
        )

    def close(self) -> None:
        self._db.close()
