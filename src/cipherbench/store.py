"""The results store: one row per design x target x settings, with full provenance.

SQLite (stdlib) by default. Rows are content-addressed: ``cache_key`` hashes the design, target,
settings and a digest of every input (generated Verilog, tool versions, Liberty hash), so a row
can be reused exactly when nothing that could change it has changed.

Several worker processes write to one file at once: WAL mode lets readers proceed while one writer
holds the lock, and the busy timeout makes writers queue instead of failing.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from .errors import CipherbenchError

SCHEMA_VERSION = 1
DB_ENV = "CIPHERBENCH_DB"
DEFAULT_RELATIVE_PATH = Path("results") / "cipherbench.sqlite"
STATUSES = ("ok", "failed")

# Long enough for a queue of workers each writing one row; a row write takes milliseconds.
_BUSY_TIMEOUT_MS = 60_000

_JSON_FIELDS = ("settings", "measurements", "cycles", "metrics", "provenance")
_COLUMNS = (
    "id", "cache_key", "design", "target", "settings", "status", "reason",
    "measurements", "cycles", "metrics", "provenance", "created",
)

_SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY,
    cache_key TEXT NOT NULL UNIQUE,
    design TEXT NOT NULL,
    target TEXT NOT NULL,
    settings JSON NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    reason TEXT,
    measurements JSON NOT NULL,
    cycles JSON NOT NULL,
    metrics JSON NOT NULL,
    provenance JSON NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS results_design ON results (design);
CREATE INDEX IF NOT EXISTS results_target ON results (target);
"""

# version reached -> statements that reach it from the previous version. Future migrations go here.
_MIGRATIONS: dict[int, str] = {1: _SCHEMA_V1}


def canonical_json(value: Any) -> str:
    """Stable JSON text: sorted keys, no spaces, no NaN/Infinity (not JSON, and not comparable)."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise CipherbenchError(f"results store: value is not plain JSON ({exc})") from None


def cache_key(design: str, target: str, settings: dict[str, Any], inputs_digest: str) -> str:
    """sha256 (hex) of the canonical JSON of everything that determines a result.

    ``inputs_digest`` is the caller's hash of the generated Verilog, tool versions and Liberty
    file; the leading "v" lets a future change of this scheme never collide with old keys.
    """
    payload = {"v": 1, "design": design, "target": target, "settings": settings,
               "inputs_digest": inputs_digest}
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


def default_db_path() -> Path:
    """``$CIPHERBENCH_DB`` if set, else results/cipherbench.sqlite under the current directory."""
    env = os.environ.get(DB_ENV, "").strip()
    return Path(env) if env else Path.cwd() / DEFAULT_RELATIVE_PATH


default_path = default_db_path  # short alias


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class Result:
    """One measured (or failed) design x target x settings."""

    cache_key: str
    design: str
    target: str
    settings: dict[str, Any] = field(default_factory=dict)
    status: str = "ok"
    reason: str | None = None
    measurements: dict[str, Any] = field(default_factory=dict)
    cycles: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)
    created: str = ""
    id: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def target_kind(self) -> str:
        """"asic" of "asic:nangate45_typ:speed"; the whole id when it has no kind prefix."""
        return self.target.split(":", 1)[0]

    def validate(self) -> None:
        """Refuse rows a report could not make sense of (caller bugs, hence ValueError)."""
        if not self.cache_key or not self.design or not self.target:
            raise ValueError("Result needs a cache_key, a design and a target")
        if self.status not in STATUSES:
            raise ValueError(f"Result.status must be one of {STATUSES}, got {self.status!r}")
        if self.status == "failed" and not self.reason:
            raise ValueError("a failed Result must carry its reason")
        for name in _JSON_FIELDS:
            if not isinstance(getattr(self, name), dict):
                raise ValueError(f"Result.{name} must be a dict")


def _from_row(row: sqlite3.Row) -> Result:
    values = {name: row[name] for name in _COLUMNS}
    for name in _JSON_FIELDS:
        values[name] = json.loads(values[name])
    return Result(**values)


class Store:
    """A results database file. Open one per process (SQLite connections do not survive fork)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self._conn = self._guarded(self._open)

    # --- lifecycle -------------------------------------------------------------------------

    def _guarded(self, action: Callable[[], Any]) -> Any:
        """Run ``action``; a file SQLite cannot use becomes one line naming the file."""
        try:
            return action()
        except (sqlite3.DatabaseError, OSError) as exc:
            detail = " ".join(str(exc).split())
            if "locked" in detail or "busy" in detail:
                raise CipherbenchError(
                    f"{self.path}: results database stayed locked by another process for "
                    f"{_BUSY_TIMEOUT_MS // 1000} s; retry when the other run has finished"
                ) from None
            raise CipherbenchError(
                f"{self.path}: not a usable cipherbench results database ({detail}); "
                f"move it away or set {DB_ENV} to another file"
            ) from None

    def _open(self) -> sqlite3.Connection:
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves so a put is exactly one transaction.
        conn = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        conn.row_factory = sqlite3.Row
        try:
            conn.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            self._migrate(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _migrate(self, conn: sqlite3.Connection) -> None:
        """Create or upgrade the schema under the write lock, so racing openers agree."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = row[0] or 0
            if current > SCHEMA_VERSION:
                raise CipherbenchError(
                    f"{self.path}: results database schema {current} is newer than this "
                    f"cipherbench understands ({SCHEMA_VERSION}); upgrade cipherbench"
                )
            for version in range(current + 1, SCHEMA_VERSION + 1):
                for statement in _MIGRATIONS[version].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("DELETE FROM schema_version")
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reads -----------------------------------------------------------------------------

    def get(self, key: str) -> Result | None:
        """The row with this cache key, failed or not (the caller decides whether to retry)."""
        sql = "SELECT * FROM results WHERE cache_key = ?"
        row = self._guarded(lambda: self._conn.execute(sql, (key,)).fetchone())
        return _from_row(row) if row is not None else None

    def results(
        self, design: str | None = None, target: str | None = None, status: str | None = None
    ) -> list[Result]:
        """Rows matching every filter given, oldest first."""
        clauses: list[str] = []
        params: list[str] = []
        for column, value in (("design", design), ("target", target), ("status", status)):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        sql = f"SELECT * FROM results{where} ORDER BY id"
        rows = self._guarded(lambda: self._conn.execute(sql, params).fetchall())
        return [_from_row(row) for row in rows]

    # --- writes ----------------------------------------------------------------------------

    def put(self, result: Result) -> Result:
        """Store ``result`` in one transaction and return the row as stored.

        Same cache key: a failed row is replaced by anything; an ok row is replaced by a newer ok
        row (a forced re-run) but never by a failure, which is the more likely flaky outcome.
        """
        result.validate()
        created = result.created or _now()
        values = [result.cache_key, result.design, result.target, canonical_json(result.settings),
                  result.status, result.reason, canonical_json(result.measurements),
                  canonical_json(result.cycles), canonical_json(result.metrics),
                  canonical_json(result.provenance), created]
        names = _COLUMNS[1:]
        updates = ", ".join(f"{n} = excluded.{n}" for n in names if n != "cache_key")
        sql = (
            f"INSERT INTO results ({', '.join(names)}) VALUES ({', '.join('?' * len(names))}) "
            f"ON CONFLICT (cache_key) DO UPDATE SET {updates} "
            "WHERE results.status = 'failed' OR excluded.status = 'ok'"
        )
        return self._guarded(lambda: self._write(sql, values, result.cache_key))

    def _write(self, sql: str, values: list[Any], key: str) -> Result:
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(sql, values)
            row = conn.execute("SELECT * FROM results WHERE cache_key = ?", (key,)).fetchone()
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return _from_row(row)
