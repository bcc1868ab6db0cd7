"""Schema migrations: a numbered list, applied in order in one transaction on open.

The version reached is the one row of ``schema_version``. A database newer than this code is
refused rather than written with the wrong columns. Add a migration by appending to
``MIGRATIONS``; never edit one that has shipped (existing files have already run it).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from ..errors import CipherbenchError


@dataclass(frozen=True)
class Migration:
    version: int
    summary: str
    # SQL templates; {id}, {json} are the backend's column types, {store_id} a fresh identifier.
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "results table", (
        """CREATE TABLE IF NOT EXISTS results (
            id {id},
            cache_key TEXT NOT NULL UNIQUE,
            design TEXT NOT NULL,
            target TEXT NOT NULL,
            settings {json} NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
            reason TEXT,
            measurements {json} NOT NULL,
            cycles {json} NOT NULL,
            metrics {json} NOT NULL,
            provenance {json} NOT NULL,
            created TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS results_design ON results (design)",
        "CREATE INDEX IF NOT EXISTS results_target ON results (target)",
    )),
    Migration(2, "origin of imported rows; store identity for export provenance", (
        # NULL: measured into this store. Imported rows name the store that measured them.
        "ALTER TABLE results ADD COLUMN origin TEXT",
        "CREATE INDEX IF NOT EXISTS results_status ON results (status)",
        "CREATE TABLE store_info (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "INSERT INTO store_info (name, value) VALUES ('store_id', '{store_id}')",
    )),
)
SCHEMA_VERSION = MIGRATIONS[-1].version
assert [m.version for m in MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1))


def current_version(conn: Any) -> int:
    row = conn.execute("SELECT MAX(version) AS v FROM schema_version").fetchone()
    return int(row["v"] or 0)


def migrate(conn: Any, backend: Any, where: str) -> None:
    """Bring the schema to SCHEMA_VERSION under the backend's exclusive write lock.

    Racing openers of a new database serialize on that lock, so exactly one creates the tables
    and the others find them done. DDL is transactional in SQLite and PostgreSQL: a failed
    migration leaves the previous version intact.
    """
    backend.begin(conn, exclusive=True)
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = current_version(conn)
        if current > SCHEMA_VERSION:
            raise CipherbenchError(
                f"{where}: results database schema {current} is newer than this cipherbench "
                f"understands ({SCHEMA_VERSION}); upgrade cipherbench")
        for migration in MIGRATIONS[current:]:
            _apply(conn, backend, migration)
        backend.commit(conn)
    except BaseException:
        backend.rollback(conn)
        raise


def _apply(conn: Any, backend: Any, migration: Migration) -> None:
    fill = {**backend.column_types, "store_id": uuid.uuid4().hex}
    for template in migration.statements:
        conn.execute(template.format(**fill))
    conn.execute("DELETE FROM schema_version")
    conn.execute(backend.sql("INSERT INTO schema_version (version) VALUES (?)"),
                 (migration.version,))
