"""What a stored row is: the ``Result`` record, its content-addressed key, canonical JSON."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from ..errors import CipherbenchError

STATUSES = ("ok", "failed")
JSON_FIELDS = ("settings", "measurements", "cycles", "metrics", "provenance")
# Everything a row says about the design; provenance, dates and ids only say where it came from.
# Import compares these to tell an identical row from a conflicting one.
FIGURE_FIELDS = ("design", "target", "settings", "status", "reason", "measurements", "cycles",
                 "metrics")
# Stored columns in table order, without the local ``id``.
COLUMNS = ("cache_key", "design", "target", "settings", "status", "reason", "measurements",
           "cycles", "metrics", "provenance", "created", "origin")


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


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class Result:
    """One measured (or failed) design x target x settings.

    ``origin`` is None for a row measured into this store; an imported row keeps the
    ``host:store_id`` of the store that measured it, so merged databases stay traceable.
    """

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
    origin: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def target_kind(self) -> str:
        """"asic" of "asic:nangate45_typ:speed"; the whole id when it has no kind prefix."""
        return self.target.split(":", 1)[0]

    def figures(self) -> dict[str, Any]:
        """The fields that make two rows of one cache key the same measurement."""
        return {name: getattr(self, name) for name in FIGURE_FIELDS}

    def validate(self) -> None:
        """Refuse rows a report could not make sense of (caller bugs, hence ValueError)."""
        if not self.cache_key or not self.design or not self.target:
            raise ValueError("Result needs a cache_key, a design and a target")
        if self.status not in STATUSES:
            raise ValueError(f"Result.status must be one of {STATUSES}, got {self.status!r}")
        if self.status == "failed" and not self.reason:
            raise ValueError("a failed Result must carry its reason")
        for name in JSON_FIELDS:
            if not isinstance(getattr(self, name), dict):
                raise ValueError(f"Result.{name} must be a dict")
