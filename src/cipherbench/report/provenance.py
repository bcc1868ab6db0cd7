"""The report's last sections: the runs that failed, and where each figure came from (tools and
versions, Liberty file and hash, git hash, date; every setting as stored)."""

from __future__ import annotations

from typing import Any, Sequence

from ..store import Result
from .tables import MISSING, Table, column_label, failed_run, fmt, ordered, settings_raw, \
    settings_text, status_text


def failed_table(results: Sequence[Result]) -> Table:
    failed = ordered(r for r in results if failed_run(r))
    return Table(
        title="",  # the section heading names it
        headers=["Design", "Target", "Settings", "Reason", "Date"],
        rows=[[r.design, r.target, settings_text(r.settings) or MISSING,
               " ".join((r.reason or MISSING).split()), r.created or MISSING] for r in failed],
    )


_PROVENANCE_KEYS = ("tools", "liberty", "liberty_file", "liberty_sha256", "git_hash", "git",
                    "date")
# Already in the row (design, target, settings) or too bulky for a table cell; results.csv has
# the full provenance JSON.
_PROVENANCE_SKIP = ("design", "target", "settings", "cache_key", "verification")
_CELL_LIMIT = 80


def _short(text: str) -> str:
    return text if len(text) <= _CELL_LIMIT else text[:_CELL_LIMIT - 3] + "..."


def _tools_text(tools: Any) -> str | None:
    if isinstance(tools, dict):
        return "; ".join(f"{name} {version}" for name, version in sorted(tools.items())) or None
    return fmt(tools) if tools else None


def _liberty_text(prov: dict[str, Any]) -> str | None:
    """``liberty`` as {"path"/"file", "sha256"/"hash"} or a string, or liberty_file/_sha256."""
    lib = prov.get("liberty")
    if isinstance(lib, dict):
        name = lib.get("path") or lib.get("file") or lib.get("name")
        digest = lib.get("sha256") or lib.get("hash")
    else:
        name, digest = lib or prov.get("liberty_file"), prov.get("liberty_sha256")
    if not name and not digest:
        return None
    return f"{name or MISSING} (sha256 {digest})" if digest else str(name)


def provenance_table(results: Sequence[Result]) -> Table:
    """Where each figure came from: tools and versions, Liberty file + hash, git hash, date."""
    rows = []
    for r in ordered(results):
        prov = r.provenance
        other = {k: v for k, v in prov.items()
                 if k not in _PROVENANCE_KEYS and k not in _PROVENANCE_SKIP}
        rows.append([
            r.design, column_label(r), status_text(r),
            fmt(prov.get("git_hash") or prov.get("git")),
            fmt(prov.get("date") or r.created or None),
            fmt(_tools_text(prov.get("tools"))),
            fmt(_liberty_text(prov)),
            ", ".join(f"{k}={_short(fmt(v))}" for k, v in sorted(other.items())) or MISSING,
        ])
    return Table(title="",
                 headers=["Design", "Target", "Status", "Git", "Date", "Tools", "Liberty", "Other"],
                 rows=rows)


def raw_settings_table(results: Sequence[Result]) -> Table:
    """Every run's settings exactly as stored (the tables elsewhere say them in words and leave
    out defaults): folded away, for whoever reruns or compares a row."""
    return Table(title="Settings as stored, per run",
                 headers=["Design", "Target", "Status", "Settings"],
                 rows=[[r.design, r.target, status_text(r), settings_raw(r.settings)]
                       for r in ordered(results)],
                 folded=True)
