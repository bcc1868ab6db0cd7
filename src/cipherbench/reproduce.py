"""``cipherbench reproduce RESULT_ID``: regenerate a stored result from its provenance and compare.

A result's provenance names everything that decided it: the design spec, the target's flow and
settings (the Liberty file with its SHA-256), the generator and measurement digests, the tool
versions and the git commit. Reproducing runs the same job again (the flow, the netlist
simulation, the metrics; the generated design and its verification record come from the design
cache when the generator digest is unchanged, else they are made again) without the result cache
and without writing the store, then compares every figure (measurements, cycle counts, metrics)
with the stored ones. Where the
inputs themselves changed (another tool version, edited generator sources, a different Liberty
file) the figures may differ for that reason, which the comparison lists first.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .errors import CipherbenchError
from .store import Result, Store

@dataclass
class Comparison:
    stored: Result
    identical: list[str] = field(default_factory=list)
    differing: list[tuple[str, Any, Any]] = field(default_factory=list)   # (figure, stored, new)
    input_changes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differing


def reproduce(store: Store, result_id: int,
              say: Callable[[str], None] | None = None) -> Comparison:
    """Run result ``result_id``'s job again and compare its figures with the stored ones."""
    from .jobs import Job, job_key, measure
    from .targets import Target

    stored = store.by_id(result_id)
    if stored is None:
        raise CipherbenchError(f"no result {result_id} in this database; the ids are in the "
                               "report's Provenance table and in `cipherbench export`")
    if not stored.ok:
        raise CipherbenchError(f"result {result_id} is a failed run ({stored.reason}); only "
                               "measured results can be reproduced")
    prov = stored.provenance or {}
    if prov.get("flow") == "leakage":
        # No flow to rerun: the assessment is its own command, seeded, whose row it replaces.
        raise CipherbenchError(f"result {result_id} is a leakage assessment; run it again with "
                               f"`{prov.get('command', 'cipherbench leakage DESIGN')}`")
    try:
        spec = _design(prov)
        target = Target(prov["target"], prov["flow"], dict(prov.get("settings") or {}))
    except KeyError as exc:
        raise CipherbenchError(f"result {result_id} has no {exc} in its provenance; it was "
                               "stored by a version that did not record it") from exc
    comparison = Comparison(stored)
    _check_liberty(prov, comparison)
    job = Job(spec, target)
    ident = job_key(job)
    # The inputs digest covers the generator and flow sources and the tool versions.
    stored_inputs = prov.get("inputs_digest")
    if stored_inputs and stored_inputs != ident.inputs:
        comparison.input_changes.append(
            f"inputs_digest: stored {stored_inputs}, now {ident.inputs} (generator sources, "
            "flows or tool versions changed since)")
    fresh = measure(job, ident.flow, ident.settings, ident.key, ident.target_id, ident.inputs,
                     say)
    for kind in ("measurements", "cycles", "metrics"):
        _compare(kind, getattr(stored, kind) or {}, getattr(fresh, kind) or {}, comparison)
    return comparison


def _design(prov: dict[str, Any]) -> Any:
    """The stored design, as its kind makes it again from the provenance (a designer's core
    read again from its description, which must still hash as it did)."""
    from .kinds.registry import kind_of_name

    return kind_of_name(prov["design"]).from_provenance(prov)


def _check_liberty(prov: dict[str, Any], comparison: Comparison) -> None:
    liberty = prov.get("liberty")
    if not liberty:
        return
    path = Path(liberty["path"])
    if not path.is_file():
        raise CipherbenchError(f"the Liberty file of this result is gone: {path}; put it back "
                               "(its SHA-256 is in the provenance) to reproduce the result")
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    if sha != liberty.get("sha256"):
        comparison.input_changes.append(f"Liberty {path} changed: sha256 {sha[:12]}, stored "
                                        f"{str(liberty.get('sha256'))[:12]}")


def _compare(kind: str, stored: dict[str, Any], fresh: dict[str, Any],
             comparison: Comparison) -> None:
    for name in sorted(set(stored) | set(fresh)):
        figure = f"{kind}.{name}"
        if stored.get(name) == fresh.get(name):
            comparison.identical.append(figure)
        else:
            comparison.differing.append((figure, stored.get(name), fresh.get(name)))


def format_comparison(c: Comparison) -> list[str]:
    r = c.stored
    lines = [f"result {r.id}: {r.design} on {r.target}"]
    lines += [f"  input changed: {change}" for change in c.input_changes]
    lines += [f"  differs: {figure}: stored {old!r}, reproduced {new!r}"
              for figure, old, new in c.differing]
    verdict = ("identical" if c.ok else f"{len(c.differing)} of "
               f"{len(c.differing) + len(c.identical)} figures differ")
    lines.append(f"  {len(c.identical)} figures identical; {verdict}")
    return lines
