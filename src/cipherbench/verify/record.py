"""The verification record of a generated design: what passed before any figure of it is stored.

``cipherbench run`` measures nothing it has not verified: before the flows run, every design goes
through ``verify_design`` (every known-answer set of its cipher, random blocks against the model
and against an independent oracle with key changes, the first iterations of the Monte Carlo test,
a new key per block without draining, the constant-time set). The summary is
kept beside the design as ``verification.json`` (written once per generated design, atomically, so
concurrent jobs of one design never read half of it) and copied into every result's provenance
(``provenance["verification"]``), where the report's trust table reads it. A failing design is a
failed job with the first mismatch as its reason, and nothing of it is measured.

``cipherbench verify DESIGN`` writes the same record (its default check is a run's), and
``cipherbench list`` lists the designs whose record in the cache passed (``cache.find_records``,
:func:`describe`).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from ..errors import CipherbenchError
from ..spec import DesignSpec
from .designs import MCT_SET, ORACLE_SET

RECORD = "verification.json"
# What a record's checks are: a record of an older procedure is verified again before a run
# (2: random blocks against an independent oracle; 3: and the Monte Carlo test's first
# iterations).
PROCEDURE = 3
# What a run verifies with (``cipherbench verify``'s defaults).
RANDOM_BLOCKS = 1000
SEED = 2026
# Outer iterations of the cipher's Monte Carlo test (2 x 1,000 chained blocks per key size and
# direction for AES; the whole test is benchmarks/mct_hw.py).
MCT_OUTER = 2
# A synthesized netlist's smaller procedure (verify/netlist.py): random blocks, and the vectors
# taken from each known-answer file, spread from its first to its last. The RTL was checked on
# every vector of every file; the netlist check asks only whether synthesis kept what the RTL
# computes. Whole files made it most of a pipeline's job (Serpent 3-in-1: 11,810 vectors, each
# under its own key, on a 400 kGE netlist).
NETLIST_RANDOM_BLOCKS = 200
NETLIST_KNOWN_ANSWER_PER_SET = 16
# A kind's verification (``DesignKind.verify``): (spec, design folder) -> a VerifyReport.
Verifier = Callable[..., Any]


def summarize(report: Any, random_blocks: int = RANDOM_BLOCKS, seed: int = SEED) -> dict[str, Any]:
    """A VerifyReport as the record: per set passed/failed, and the kinds the trust table shows."""
    sets = {s.name: {"passed": s.passed, "failed": s.failed} for s in report.sets}

    def total(match: Callable[[str], bool]) -> int:
        return sum(s.passed for s in report.sets if match(s.name))

    return {
        "passed": report.passed,
        "failed": report.failed,
        "known_answer": total(lambda n: not n.startswith(("random", "new key", "constant",
                                                          MCT_SET))),
        "mct": _count_or_note(report, MCT_SET),
        "random": total(lambda n: n.startswith("random-vs-model")),
        "oracle": _count_or_note(report, ORACLE_SET),
        "key_agility": total(lambda n: n.startswith("new key")),
        "constant_time": next((("ok" if s.failed == 0 else "varies") for s in report.sets
                               if s.name.startswith("constant time")), "not checked"),
        "sets": sets,
        "random_blocks": random_blocks,
        "seed": seed,
        "procedure": PROCEDURE,
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def _count_or_note(report: Any, prefix: str) -> int | str:
    """What the sets named ``prefix...`` passed in all, or the note saying why none ran."""
    sets = [s for s in report.sets if s.name.startswith(prefix)]
    if sets:
        return sum(s.passed for s in sets)
    notes = [n for n in getattr(report, "notes", []) if n.startswith(prefix)]
    return notes[0].split(": ", 1)[1] if notes else "not checked"


def read_record(design_dir: Path) -> dict[str, Any] | None:
    path = design_dir / RECORD
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def ensure_verified(spec: DesignSpec, design_dir: Path,
                    progress: Callable[[str], None] | None = None, *,
                    verify: Verifier | None = None) -> dict[str, Any]:
    """The design's record, verifying it first unless a record is there; a design with any
    failure raises CipherbenchError (and its failing record stays, so it is not re-simulated).
    ``verify``: the design's kind's verification (``kind.verify``); None: a block core's."""
    record = read_record(design_dir)
    if record is not None and record.get("procedure", 1) < PROCEDURE and not record.get("failed"):
        record = None  # passed an older, smaller procedure: verify again
    if record is None:
        if progress:
            progress(f"verifying {spec} (known answers, random, key changes, constant time)")
        record = write_record(design_dir, (verify or verify_block_design)(spec, design_dir))
    if record["failed"]:
        first = "; ".join(record.get("first_failures", [])) or "see cipherbench verify"
        raise CipherbenchError(f"{spec} fails verification ({record['failed']} mismatches: "
                               f"{first}); nothing measured. Run `cipherbench verify "
                               f"{spec.argument}`")
    return record


def verify_block_design(spec: DesignSpec, design_dir: Path, *, netlist: bool = False,
                        trace: bool = False) -> Any:
    """A block core's verification (``verify_design``): a run's procedure, or the smaller one of
    a synthesized netlist (verify/netlist.py says why smaller)."""
    from .designs import verify_design

    if not netlist:
        return verify_design(spec, design_dir, random_blocks=RANDOM_BLOCKS, seed=SEED,
                             mct_outer=MCT_OUTER, trace=trace)
    return verify_design(spec, design_dir, random_blocks=NETLIST_RANDOM_BLOCKS,
                         key_change_blocks=8, constant_time_keys=2, trace=trace,
                         known_answer_per_set=NETLIST_KNOWN_ANSWER_PER_SET)


def write_record(design_dir: Path, report: Any, random_blocks: int = RANDOM_BLOCKS,
                 seed: int = SEED) -> dict[str, Any]:
    """Store ``report`` (of ``verify_design``) as the design's record, replacing any earlier one."""
    record = summarize(report, random_blocks=random_blocks, seed=seed)
    record["first_failures"] = report.first_failures()
    _write_atomically(design_dir / RECORD, record)
    return record


def passed(record: dict[str, Any]) -> bool:
    return bool(record.get("failed", 1) == 0)


def describe(record: dict[str, Any]) -> str:
    """One line: ``verified 2026-11-21: 682 known-answer, 1000 random, 96 key changes, constant
    time ok``, or ``FAILED 2026-11-21: 3 mismatches of 13 (first: ...)``."""
    date = str(record.get("date", ""))[:10] or "undated"
    if passed(record):
        oracle = record.get("oracle", "not checked")
        oracle_text = f"{oracle} oracle" if isinstance(oracle, int) else "oracle not checked"
        return (f"verified {date}: {record.get('known_answer', '?')} known-answer, "
                f"{record.get('random', '?')} random, {oracle_text}, "
                f"{record.get('key_agility', '?')} key changes, "
                f"constant time {record.get('constant_time', 'not checked')}")
    failed = record.get("failed", "?")
    total = failed + record.get("passed", 0) if isinstance(failed, int) else "?"
    first = "; ".join(record.get("first_failures", []))
    return f"FAILED {date}: {failed} mismatches of {total}" + (f" (first: {first})" if first else "")


def summary(record: dict[str, Any] | None) -> dict[str, Any] | None:
    """The record without its per-set detail (for ``cipherbench list --json``)."""
    if record is None:
        return None
    keys = ("passed", "failed", "known_answer", "mct", "random", "oracle", "key_agility",
            "constant_time",
            "random_blocks", "seed", "date", "first_failures")
    return {key: record[key] for key in keys if key in record}


def _write_atomically(path: Path, data: dict[str, Any]) -> None:
    from ..cachedir import publish_text

    publish_text(path, json.dumps(data, indent=1, sort_keys=True))
