"""results.csv: one row per result and key size, raw numbers (every measurement, metric and
cycle count a column)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any, Sequence

from ..store import Result
from .tables import key_sizes, ordered

_CSV_LEAD = ("id", "cache_key", "design", "target", "target_kind", "settings", "status", "reason",
             "key_bits")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """Raw numbers; nested values as JSON; text that a spreadsheet would run as a formula quoted."""
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        value = json.dumps(value, sort_keys=True)
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_header(results: Sequence[Result]) -> list[str]:
    """Lead columns, then every measurement, top-level metric, per-key metric and cycle name."""
    meas, top, per_key, cyc = set(), set(), set(), set()
    for r in results:
        meas |= set(r.measurements)
        top |= {k for k in r.metrics if k != "by_key_size"}
        for figures in (r.metrics.get("by_key_size") or {}).values():
            per_key |= set(figures)
        for counts in r.cycles.values():
            cyc |= set(counts or {})
    return [*_CSV_LEAD,
            *(f"measurements.{n}" for n in sorted(meas)),
            *(f"metrics.{n}" for n in sorted(top | per_key)),
            *(f"cycles.{n}" for n in sorted(cyc)),
            "provenance", "created"]


def _csv_values(r: Result, key: str, header: list[str]) -> list[Any]:
    lead = {"id": r.id, "cache_key": r.cache_key, "design": r.design, "target": r.target,
            "target_kind": r.target_kind, "settings": r.settings or None, "status": r.status,
            "reason": r.reason, "key_bits": key or None, "provenance": r.provenance or None,
            "created": r.created}
    per_key = (r.metrics.get("by_key_size") or {}).get(key, {})
    out = []
    for name in header:
        source, _, field_name = name.partition(".")
        if not field_name:
            value = lead.get(name)
        elif source == "measurements":
            value = r.measurements.get(field_name)
        elif source == "cycles":
            value = (r.cycles.get(key) or {}).get(field_name)
        else:
            value = per_key.get(field_name, r.metrics.get(field_name))
        out.append(csv_cell(value))
    return out


def to_csv(results: Sequence[Result]) -> str:
    rows = ordered(results)
    header = csv_header(rows)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    for r in rows:
        for key in key_sizes(r) or [""]:
            writer.writerow(_csv_values(r, key, header))
    return buf.getvalue()
