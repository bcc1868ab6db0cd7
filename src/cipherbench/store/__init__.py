"""The results store: one row per design x target x settings, with full provenance.

SQLite (stdlib) by default, PostgreSQL when given a ``postgresql://`` URL (``--db`` or
``$CIPHERBENCH_DB``). Rows are content-addressed: ``cache_key`` hashes the design, target,
settings and a digest of every input (generated Verilog, tool versions, Liberty hash), so a row
can be reused exactly when nothing that could change it has changed. See docs/results.md.
"""

from __future__ import annotations

from .core import MergeReport, Store
from .location import DB_ENV, DEFAULT_RELATIVE_PATH, default_db_path, parse_location, store_exists
from .migrations import MIGRATIONS, SCHEMA_VERSION
from .model import STATUSES, Result, cache_key, canonical_json

default_path = default_db_path  # short alias

__all__ = [
    "DB_ENV", "DEFAULT_RELATIVE_PATH", "MIGRATIONS", "MergeReport", "Result", "SCHEMA_VERSION",
    "STATUSES", "Store", "cache_key", "canonical_json", "default_db_path", "default_path",
    "parse_location", "store_exists",
]
