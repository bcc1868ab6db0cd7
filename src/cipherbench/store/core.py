"""``Store``: the results database, on SQLite or PostgreSQL, with the same rules on both.

Rows are content-addressed by ``cache_key``. Open one Store per process (database connections
do not survive fork). Every write is one transaction, retried when the database says another
writer got in the way, so parallel jobs lose nothing and duplicate nothing.
"""

from __future__ import annotations

import os
import random
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from .backends import SQLiteBackend, PostgresBackend, open_backend
from .location import default_db_path, parse_location
from .migrations import migrate
from .model import COLUMNS, JSON_FIELDS, Result, canonical_json, now

T = TypeVar("T")
# Retries after the database's own waiting gave up (SQLite's busy timeout) or aborted a
# transaction (PostgreSQL serialization failure, deadlock): a few, with growing random sleeps.
_RETRIES = 6
_RETRY_BASE_S = 0.05

# Same cache key: a failed row is replaced by anything; an ok row is replaced by a newer ok row
# (a forced re-run) but never by a failure, which is the more likely flaky outcome.
_UPSERT = (
    f"INSERT INTO results ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))}) "
    f"ON CONFLICT (cache_key) DO UPDATE SET "
    + ", ".join(f"{n} = excluded.{n}" for n in COLUMNS if n != "cache_key")
    + " WHERE results.status = 'failed' OR excluded.status = 'ok'"
)
_INSERT = f"INSERT INTO results ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
_REPLACE = ("UPDATE results SET " + ", ".join(f"{n} = ?" for n in COLUMNS if n != "cache_key")
            + " WHERE cache_key = ?")


@dataclass
class MergeReport:
    """What an import did, key by key (``conflicts`` holds one line per conflicting row)."""

    added: int = 0
    identical: int = 0
    updated: int = 0  # a failed row here replaced by the import, as a re-run would
    kept: int = 0  # an ok row here kept over an imported failure
    conflicts: list[str] = field(default_factory=list)
    replaced: int = 0  # conflicts resolved in the import's favour (--replace)

    def line(self) -> str:
        parts = [f"{self.added} added", f"{self.identical} identical", f"{self.updated} updated",
                 f"{self.kept} kept", f"{len(self.conflicts)} conflicting"]
        if self.replaced:
            parts.append(f"{self.replaced} replaced")
        return "import: " + ", ".join(parts)


class Store:
    """A results database: a SQLite file (default) or a PostgreSQL database given by URL."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        location = parse_location(path if path is not None else default_db_path())
        self._backend: SQLiteBackend | PostgresBackend = open_backend(location)
        self.path: Path | None = self._backend.path
        self.location = self._backend.display
        self.backend = self._backend.name
        self._conn = self._guarded(self._open)

    # --- lifecycle -------------------------------------------------------------------------

    def _guarded(self, action: Callable[[], T]) -> T:
        """Run ``action``, retrying transient conflicts; database errors become one line."""
        for attempt in range(_RETRIES + 1):
            try:
                return action()
            except Exception as exc:
                if attempt < _RETRIES and self._backend.is_transient(exc):
                    time.sleep(_RETRY_BASE_S * 2 ** attempt * (1 + random.random()))
                    continue
                error = self._backend.user_error(exc)
                if error is None:
                    raise
                raise error from None
        raise AssertionError("unreachable")

    def _open(self) -> Any:
        conn = self._backend.connect()
        try:
            migrate(conn, self._backend, self.location)
        except BaseException:
            conn.close()
            raise
        return conn

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _execute(self, sql: str, params: Iterable[Any] = ()) -> Any:
        return self._conn.execute(self._backend.sql(sql), tuple(params))

    def _transaction(self, work: Callable[[], T]) -> T:
        """``work`` inside one write transaction: all of it is stored or none of it."""
        self._backend.begin(self._conn)
        try:
            value = work()
            self._backend.commit(self._conn)
        except BaseException:
            self._backend.rollback(self._conn)
            raise
        return value

    # --- reads -----------------------------------------------------------------------------

    def _from_row(self, row: Any) -> Result:
        values = {name: row[name] for name in ("id", *COLUMNS)}
        for name in JSON_FIELDS:
            values[name] = self._backend.decode_json(values[name])
        return Result(**values)

    def _fetch(self, key: str) -> Result | None:
        row = self._execute("SELECT * FROM results WHERE cache_key = ?", (key,)).fetchone()
        return self._from_row(row) if row is not None else None

    def get(self, key: str) -> Result | None:
        """The row with this cache key, failed or not (the caller decides whether to retry)."""
        return self._guarded(lambda: self._fetch(key))

    def by_id(self, result_id: int) -> Result | None:
        """The row with this id (``Result.id``, as reports and exports show it)."""
        sql = "SELECT * FROM results WHERE id = ?"
        row = self._guarded(lambda: self._execute(sql, (result_id,)).fetchone())
        return self._from_row(row) if row is not None else None

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
        rows = self._guarded(lambda: self._execute(sql, params).fetchall())
        return [self._from_row(row) for row in rows]

    @property
    def store_id(self) -> str:
        """This database's identifier, made when it was created (or migrated to schema 2)."""
        sql = "SELECT value FROM store_info WHERE name = 'store_id'"
        return str(self._guarded(lambda: self._execute(sql).fetchone()["value"]))

    def origin(self) -> str:
        """``host:store_id``: what an export names as the origin of rows measured here."""
        return f"{socket.gethostname()}:{self.store_id}"

    # --- writes ----------------------------------------------------------------------------

    @staticmethod
    def _values(result: Result, created: str) -> list[Any]:
        """Column values in COLUMNS order; JSON as canonical text (PostgreSQL casts it)."""
        result.validate()
        values: list[Any] = []
        for name in COLUMNS:
            value = created if name == "created" else getattr(result, name)
            values.append(canonical_json(value) if name in JSON_FIELDS else value)
        return values

    def put(self, result: Result) -> Result:
        """Store ``result`` in one transaction and return the row as stored (see _UPSERT)."""
        values = self._values(result, result.created or now())

        def write() -> Result:
            self._execute(_UPSERT, values)
            stored = self._fetch(result.cache_key)
            assert stored is not None
            return stored

        return self._guarded(lambda: self._transaction(write))

    def merge(self, incoming: list[Result], replace: bool = False) -> MergeReport:
        """Import rows from another store in one transaction (see MergeReport for the rules)."""
        rows = [(result, self._values(result, result.created or now())) for result in incoming]

        def write() -> MergeReport:
            report = MergeReport()  # fresh on every retry: a retried transaction starts over
            for result, values in rows:
                self._merge_one(result, values, replace, report)
            return report

        return self._guarded(lambda: self._transaction(write))

    def _merge_one(self, result: Result, values: list[Any], replace: bool,
                   report: MergeReport) -> None:
        existing = self._fetch(result.cache_key)
        if existing is None:
            self._execute(_INSERT, values)
            report.added += 1
        elif existing.figures() == result.figures():
            report.identical += 1
        elif not existing.ok:
            self._execute(_REPLACE, [*values[1:], result.cache_key])
            report.updated += 1
        elif not result.ok:
            report.kept += 1
        else:
            report.conflicts.append(_conflict_line(existing, result))
            if replace:
                self._execute(_REPLACE, [*values[1:], result.cache_key])
                report.replaced += 1


def _conflict_line(existing: Result, incoming: Result) -> str:
    mine, theirs = existing.figures(), incoming.figures()
    differ = ", ".join(name for name in mine if mine[name] != theirs[name])
    return f"{existing.design} on {existing.target} ({existing.cache_key[:12]}): {differ} differ"
