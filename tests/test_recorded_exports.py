"""The rows kept in the project as exports (benchmarks/results/*.json, each a `cipherbench export`
of a run BENCHMARKS.md describes): every one named in the README, every row verified before it
was measured, and the seeds' tables at their own nodes built from them, our figures beside the
published ones with ratios. Cheap: no tool runs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from cipherbench.jobs import EXPECTED_FAILURE_PREFIX, is_expected
from cipherbench.report import current_rows
from cipherbench.report.papaefstathiou import async_rows, asynchronous
from cipherbench.store import Result
from cipherbench.store.transfer import read_export
from cipherbench.report.nsa import comparison as nsa_comparison

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
EXPORTS = sorted(RESULTS.glob("*.json"))


def _rows(name: str) -> list[Result]:
    return current_rows(read_export(RESULTS / name))


def test_the_readme_names_every_export() -> None:
    readme = (ROOT / "README.md").read_text()
    assert EXPORTS
    unnamed = [p.name for p in EXPORTS if f"`{p.name}`" not in readme]
    assert not unnamed, f"README.md does not say what these exports hold: {unnamed}"


def unverified(rows: list[Result]) -> list[str]:
    """The rows that failed, or were measured without a passing verification and netlist
    check (a leakage row: without its check of the driver against the model)."""
    bad = []
    for row in rows:
        m, p = row.measurements, row.provenance
        if not row.ok:
            # A design too large for its device is a result ("does not fit"), not a failure.
            if not is_expected(row.reason):
                bad.append(f"{row.design} @ {row.target}: {row.status}")
        elif row.target.startswith("leakage:"):
            if m.get("checked_traces", 0) < 64:
                bad.append(f"{row.design} @ {row.target}: driver not checked")
        elif p.get("verification", {}).get("failed", 1) != 0 or \
                p.get("netlist_check", {}).get("failed", 1) != 0:
            bad.append(f"{row.design} @ {row.target}: verification or netlist check failed")
    return bad


@pytest.mark.parametrize("export", [p.name for p in EXPORTS])
def test_every_recorded_row_was_verified(export: str) -> None:
    rows = _rows(export)
    assert rows
    assert unverified(rows) == []


def test_the_verified_check_sees_a_failed_row() -> None:
    (row,) = _rows("sugawara.json")[:1]
    failed = replace(row, provenance={**row.provenance, "netlist_check": {"failed": 3}})
    assert unverified([failed]) == [f"{row.design} @ {row.target}: verification or netlist "
                                    "check failed"]


def test_a_does_not_fit_row_is_a_result_and_any_other_failure_is_not() -> None:
    (row,) = _rows("sugawara.json")[:1]
    fit = replace(row, status="failed", reason=f"{EXPECTED_FAILURE_PREFIX} device ecp5-25k: "
                                              "needs 83898 LUTs, has 24288")
    crash = replace(row, status="failed", reason="yosys failed: exit code 1")
    assert unverified([fit]) == []
    assert unverified([crash]) == [f"{row.design} @ {row.target}: failed"]


def test_nsa_tables_at_the_nsas_node() -> None:
    """NSA Tables 1-10 on osu050, the NSA's 0.5 um: area, throughput, key setup and time per
    block beside the NSA's with ratios, and the transistors from the generic target."""
    comparisons = nsa_comparison.nsa_comparisons(_rows("nsa-osu050.json"))
    assert len(comparisons) == 10
    for comparison in comparisons:
        assert "0.5 um" in comparison.table.title
        assert {"Area (um2)", "Throughput (Mbps)", "Transistors"} <= set(comparison.ratios)


def test_papaefstathiou_table_10_at_its_node() -> None:
    """The de-synchronized DES cores on osu018 beside the seed's Table 10 at 0.18 um."""
    rows = _rows("papaefstathiou.json")
    table = asynchronous.node_table(rows)
    assert table is not None
    designs = {r.design for r in rows if r.target.startswith("desync:")}
    assert {"des-64/iterative", "des-64/pipelined:inner=1"} <= designs


def test_a_layout_density_in_a_desync_target_id_is_not_a_tied_port() -> None:
    row = next(r for r in _rows("papaefstathiou.json") if r.target.startswith("desync:"))
    bare = replace(row, settings={},
                   target="desync:osu018_stdcells:flipflop:stage:out_ready=1:layout:density=0.3")
    found = async_rows._target_settings(bare)
    assert found["ties"] == {"out_ready": "1"}
    assert found["placed"] and found["granularity"] == "stage"
