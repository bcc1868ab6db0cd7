"""The report's trust table (issue 8): per design, what its stored figures rest on.

Read from each result's provenance: the design's verification record (``verify/record.py``:
known-answer vectors, random blocks against the model, blocks under a new key each, the
constant-time set) and, per flow, the gate-level simulation of the synthesized netlist
(``verify/netlist.py``) or the proof that it equals a simulated netlist of the same design
(``verify/netlist_proof.py``). A design measured by an older version without a record says so rather
than passing silently.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..store import Result
from ..verify.designs import ORACLE_SET
from .tables import Table

TITLE = "Trust: verification of every measured design"
EXPLANATION = (
    "Before any flow runs, cipherbench run verifies the design in simulation: every known-answer "
    "file of its cipher, 1000 random blocks against the reference model with key changes, 200 "
    "against an independent implementation of the cipher (cryptography, pycryptodome, Botan or "
    "Crypto++; the oracle column names it), blocks "
    "under a new key each without draining, and the constant-time set (latency, interval and key "
    "setup equal for 24 random keys per key size and direction). A failing design is not "
    "measured. The generic and ASIC flows' mapped netlists (ASIC cells replaced by their Liberty "
    "functions) and the FPGA flows' synthesized netlists (the vendor cells' simulation models) are "
    "simulated on the same vectors; a differing netlist fails its run. Without power, a generic or "
    "ASIC netlist may instead be proven equal (ABC, registers matched by name) to the design's "
    "gate prefix, which another of its netlists was proven equal to and simulated; the last "
    "column names that netlist. Every alternative component "
    "(composite-field S-boxes, prefix adders, multipliers...) is proven equal to its reference "
    "by SAT (cipherbench prove). Monte Carlo (AESAVS; Serpent and MARS submission files): the "
    "first 2 outer iterations per key size and direction in every verification, a checkpoint "
    "each; the whole test: pytest --runslow tests/test_mct.py and benchmarks/mct_hw.py. "
    "100,000 blocks per core against the oracles: pytest tests/test_differential.py --runslow "
    "--differential-blocks 100000.")


def trust_table(results: list[Result]) -> Table:
    """One row per design with any ok result."""
    records: dict[str, dict[str, Any] | None] = {}
    netlists: dict[str, dict[str, str]] = defaultdict(dict)
    for r in results:
        if not r.ok:
            continue
        prov = r.provenance or {}
        record = prov.get("verification")
        if record or r.design not in records:
            records[r.design] = record
        check = prov.get("netlist_check")
        if check:
            netlists[r.design][check.get("netlist", r.target)] = netlist_cell(check)
    rows = []
    for design in sorted(records):
        record = records[design]
        gates = "; ".join(f"{flow}: {cell}"
                          for flow, cell in sorted(netlists[design].items())) or "-"
        if not record:
            rows.append([design, status_text(record), "-", "-", "-", "-", "-", gates])
            continue
        rows.append([design, status_text(record), str(record.get("known_answer", "-")),
                     mct_cell(record),
                     str(record.get("random", "-")), oracle_cell(record),
                     str(record.get("constant_time", "-")), gates])
    return Table(TITLE, ["design", "verification", "known answers", "Monte Carlo",
                         "random vs model", "random vs oracle", "constant time",
                         "netlists checked"], rows)


def status_text(record: dict[str, Any] | None) -> str:
    """A design's verification in one cell: pass, FAIL (how many vectors), or no record."""
    if not record:
        return "no record (measured by an older version)"
    return "pass" if not record.get("failed") else f"FAIL ({record['failed']})"


def design_status(results: list[Result]) -> dict[str, str]:
    """Per design, its verification record's verdict (the trust table's second column), read
    from its ok rows, as the trust table reads them."""
    records: dict[str, dict[str, Any] | None] = {}
    for r in results:
        if r.ok:
            record = (r.provenance or {}).get("verification")
            if record or r.design not in records:
                records[r.design] = record
    return {design: status_text(record) for design, record in records.items()}


def netlist_cell(check: dict[str, Any]) -> str:
    """A netlist's check: its own simulation, or the proof that it equals a simulated netlist of
    the same design (verify/netlist_proof.py)."""
    simulated = check.get("simulated_netlist")
    if simulated:
        return f"proven equal to {simulated}"
    counts = f"{int(check.get('passed', 0))} passed, {int(check.get('failed', 0))} failed"
    # A de-synchronized netlist is checked in timed simulation (flows/desync/measure.py).
    return f"timed simulation: {counts}" if str(check.get("method", "")).startswith("timed") \
        else counts


def mct_cell(record: dict[str, Any]) -> str:
    """Monte Carlo checkpoints passed (each one outer iteration of chained blocks), or why none."""
    mct = record.get("mct")
    if mct is None:
        return "-"
    return f"{mct} checkpoints" if isinstance(mct, int) else str(mct)


def oracle_cell(record: dict[str, Any]) -> str:
    """Blocks passed against the oracle and its name, or why it was not checked."""
    oracle = record.get("oracle")
    if oracle is None:
        return "-"
    if not isinstance(oracle, int):
        return str(oracle)
    names = [name.split(", ", 1)[1].rstrip(")") for name in record.get("sets", {})
             if name.startswith(ORACLE_SET) and ", " in name]
    return f"{oracle} ({names[0]})" if names else str(oracle)
