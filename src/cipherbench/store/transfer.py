"""Moving results between machines: export to JSON (full records) or CSV (flattened), and
reading a JSON export back for ``Store.merge``.

A JSON export is ``{"format": "cipherbench-results", "format_version": 1, "exported": {...},
"results": [...]}``: ``exported`` says when, where and from which store the file was written;
each result is a full row (everything but the local id), its ``origin`` naming the store that
measured it.
"""

from __future__ import annotations

import csv
import io
import json
import socket
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from ..errors import CipherbenchError
from .core import Store
from .migrations import SCHEMA_VERSION
from .model import COLUMNS, JSON_FIELDS, Result, canonical_json, now

EXPORT_FORMAT = "cipherbench-results"
EXPORT_VERSION = 1
_LEADING_CSV = ("cache_key", "design", "target", "status", "reason", "created", "origin")
_STRING_FIELDS = ("cache_key", "design", "target", "status", "created")


def select(results: list[Result], design: str | None, target: str | None) -> list[Result]:
    """Rows whose design and target match the shell-style globs given (case-sensitive)."""
    return [r for r in results
            if (design is None or fnmatchcase(r.design, design))
            and (target is None or fnmatchcase(r.target, target))]


def _record(result: Result, origin_here: str) -> dict[str, Any]:
    record = {name: getattr(result, name) for name in COLUMNS}
    record["origin"] = result.origin or origin_here
    return record


def export_document(store: Store, design: str | None = None,
                    target: str | None = None) -> dict[str, Any]:
    """The JSON export of ``store``'s rows matching the globs, with the export's provenance."""
    from .. import __version__

    rows = select(store.results(), design, target)
    origin = store.origin()
    exported = {
        "date": now(), "host": socket.gethostname(), "cipherbench": __version__,
        "store": str(store.path.resolve()) if store.path else store.location,
        "backend": store.backend, "store_id": store.store_id,
        "origin": origin, "schema_version": SCHEMA_VERSION,
        "filters": {"design": design, "target": target}, "count": len(rows),
    }
    return {"format": EXPORT_FORMAT, "format_version": EXPORT_VERSION, "exported": exported,
            "results": [_record(r, origin) for r in rows]}


def to_json(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=1, sort_keys=True, allow_nan=False) + "\n"


def _flatten(prefix: str, value: Any, out: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(f"{prefix}.{key}", item, out)
    elif isinstance(value, list):
        out[prefix] = canonical_json(value)  # a list has no natural columns
    else:
        out[prefix] = "" if value is None else str(value)


def to_csv(document: dict[str, Any]) -> str:
    """One line per result: the row's columns, then every nested figure and provenance entry
    as a dotted column (``measurements.area_um2``, ``provenance.tools.yosys``, ...)."""
    flat_rows: list[dict[str, str]] = []
    for record in document["results"]:
        flat = {name: "" if record[name] is None else str(record[name]) for name in _LEADING_CSV}
        for name in JSON_FIELDS:
            _flatten(name, record[name], flat)
        flat_rows.append(flat)
    extra = sorted({column for flat in flat_rows for column in flat} - set(_LEADING_CSV),
                   key=lambda c: (JSON_FIELDS.index(c.split(".", 1)[0]), c))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=[*_LEADING_CSV, *extra], restval="",
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows(flat_rows)
    return buffer.getvalue()


# --- reading an export -----------------------------------------------------------------------

def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_export(path: Path) -> list[Result]:
    """Every result of a JSON export, all checked before any is stored; else one line."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CipherbenchError(f"{where}: cannot read ({' '.join(str(exc).split())}); give a "
                               f"file written by `cipherbench export --format json`") from None
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except ValueError as exc:
        raise CipherbenchError(f"{where}: not JSON ({exc}); give a file written by "
                               f"`cipherbench export --format json`") from None
    records = _check_document(document, where)
    default_origin = document["exported"].get("origin") if isinstance(
        document.get("exported"), dict) else None
    results = [_result(record, n, where, default_origin) for n, record in enumerate(records, 1)]
    _check_unique(results, where)
    return results


def _check_document(document: Any, where: str) -> list[Any]:
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise CipherbenchError(f"{where}: not a cipherbench results export (no \"format\": "
                               f"\"{EXPORT_FORMAT}\"); export it with `cipherbench export`")
    version = document.get("format_version")
    if not isinstance(version, int) or version > EXPORT_VERSION or version < 1:
        raise CipherbenchError(f"{where}: export format version {version!r} is not one this "
                               f"cipherbench reads (1..{EXPORT_VERSION}); upgrade cipherbench")
    records = document.get("results")
    if not isinstance(records, list):
        raise CipherbenchError(f"{where}: \"results\" must be a list of records")
    return records


def _result(record: Any, n: int, where: str, default_origin: Any) -> Result:
    def bad(why: str) -> CipherbenchError:
        return CipherbenchError(f"{where}: result {n}: {why}; fix or re-export the file")

    if not isinstance(record, dict):
        raise bad("not an object")
    unknown = sorted(set(record) - set(COLUMNS))
    missing = sorted(set(COLUMNS) - {"origin"} - set(record))
    if unknown or missing:
        raise bad(f"unknown field(s) {unknown}, missing field(s) {missing}")
    for name in _STRING_FIELDS:
        if not isinstance(record[name], str) or not record[name]:
            raise bad(f"{name} must be a non-empty string")
    for name in ("reason", "origin"):
        if record.get(name) is not None and not isinstance(record[name], str):
            raise bad(f"{name} must be a string or null")
    origin = record.get("origin") or (default_origin if isinstance(default_origin, str) else None)
    result = Result(**{**{k: record[k] for k in COLUMNS if k in record}, "origin": origin})
    try:
        result.validate()
    except ValueError as exc:
        raise bad(str(exc)) from None
    return result


def _check_unique(results: list[Result], where: str) -> None:
    seen: set[str] = set()
    for n, result in enumerate(results, 1):
        if result.cache_key in seen:
            raise CipherbenchError(f"{where}: result {n}: cache key {result.cache_key[:12]} "
                                   f"appears twice; fix or re-export the file")
        seen.add(result.cache_key)
