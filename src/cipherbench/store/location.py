"""Where the results live: a SQLite file (a path or ``sqlite:///path``) or a PostgreSQL URL."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import CipherbenchError

DB_ENV = "CIPHERBENCH_DB"
DEFAULT_RELATIVE_PATH = Path("results") / "cipherbench.sqlite"
POSTGRES_SCHEMES = ("postgresql", "postgres")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


@dataclass(frozen=True)
class Location:
    """A parsed database location: exactly one of ``path`` (SQLite) and ``url`` (PostgreSQL)."""

    path: Path | None = None
    url: str | None = None

    @property
    def backend(self) -> str:
        return "sqlite" if self.path is not None else "postgresql"

    def display(self) -> str:
        """For messages and export provenance: never shows a password."""
        if self.path is not None:
            return str(self.path)
        return redact_url(self.url or "")


def redact_url(url: str) -> str:
    """``postgresql://user@host:port/db``: the password and query (may hold one) left out."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{host}{parts.path}"


def parse_location(value: str | os.PathLike[str]) -> Location:
    """A path, ``sqlite:///relative``, ``sqlite:////absolute`` or ``postgresql://...``."""
    if not isinstance(value, str):
        return Location(path=Path(value))
    text = value.strip()
    match = _SCHEME.match(text)
    if match is None:
        if not text:
            raise CipherbenchError(f"empty results database location; set {DB_ENV} or --db "
                                   f"to a file path or a postgresql:// URL")
        return Location(path=Path(text))
    scheme = match.group(1).lower()
    if scheme in POSTGRES_SCHEMES:
        return Location(url=text)
    if scheme == "sqlite":
        # SQLAlchemy's convention, the one users know: three slashes then a relative path,
        # four for an absolute one.
        rest = text[match.end():]
        path = rest[1:] if rest.startswith("/") else rest
        if not path:
            raise CipherbenchError(f"{text}: no file in the SQLite URL; write sqlite:///FILE")
        return Location(path=Path(path))
    raise CipherbenchError(f"{redact_url(text)}: unsupported database URL scheme {scheme!r}; "
                           f"use a file path, sqlite:///FILE or postgresql://USER@HOST/DB")


def default_db_path() -> Path | str:
    """``$CIPHERBENCH_DB`` if set (a path, or a URL kept as text: Path would fold its "//"),
    else results/cipherbench.sqlite under the current directory."""
    env = os.environ.get(DB_ENV, "").strip()
    if not env:
        return Path.cwd() / DEFAULT_RELATIVE_PATH
    location = parse_location(env)
    return location.path if location.path is not None else env


def store_exists(value: str | os.PathLike[str] | None) -> bool:
    """False only for a SQLite file that is not there: a server database is checked on connect."""
    location = parse_location(value if value is not None else default_db_path())
    return location.path is None or location.path.exists()
