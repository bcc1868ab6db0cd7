"""The NSA's findings judged from stored rows: rankings, verdicts, the measured departure reason,
and the report section (fake but realistic rows: five finalists' iterative and pipelined cores)."""

from __future__ import annotations

from pathlib import Path

from cipherbench import metrics
from cipherbench.report import NSA_FINDINGS_SECTION, write_report
from cipherbench.report.nsa import findings as nsa_findings
from cipherbench.report.tables import Table
from cipherbench.store import Result, cache_key

LIB = "NangateOpenCellLibrary"


def _row(design: str, goal: str, ge: float, mhz: float, rounds: int, key_setup: int = 0,
         flipflop_share: float = 0.2, ii: int | None = None, library: str = LIB) -> Result:
    cycles = {"128": {"latency": rounds, "latency_decrypt": rounds,
                      "initiation_interval": ii or rounds, "cycles_per_chained_block": rounds,
                      "key_setup_encrypt": key_setup, "key_setup_decrypt": key_setup,
                      "algorithm_setup": 0}}
    area = ge * 0.798
    measurements = {"gate_equivalents": ge, "area_um2": area, "fmax_mhz": mhz,
                    "sequential_area_um2": area * flipflop_share}
    record = {"block_bits": 128, "io_count": 263, "cycles": cycles, "measurements": measurements}
    target = f"asic:{library}:{goal}"
    return Result(cache_key=cache_key(design, target, {"goal": goal}, "d" * 64), design=design,
                  target=target, settings={"goal": goal}, status="ok",
                  measurements=measurements, cycles=cycles, metrics=metrics.derive(record),
                  created="2026-11-22T00:00:00+00:00")


def _iterative() -> list[Result]:
    """Our measured shape: AES fastest per area, MARS largest and slowest, RC6 large by its
    round-key registers (45 % of its area), Twofish the smallest."""
    return [
        _row("aes-128/iterative", "area", 29_100, 386, 10),
        _row("aes-128/iterative", "speed", 31_500, 555, 10),
        _row("serpent-128/iterative", "area", 31_800, 390, 32),
        _row("twofish-128/iterative", "area", 19_700, 159, 16),
        _row("rc6-128/iterative", "area", 40_000, 197, 20, key_setup=133, flipflop_share=0.45),
        _row("mars-128/iterative", "area", 56_400, 152, 32, key_setup=334),
    ]


FIGURES = "Our figures (128-bit keys; best over the ASIC points)"


def _by_finding(table: Table) -> dict[tuple[str, str], dict[str, str]]:
    """(finding, cores) -> its row, read by header."""
    return {(row["Finding (NSA)"], row["Cores"]): row for row in table.records()}


def _table_rows(results: list[Result]) -> dict[tuple[str, str], dict[str, str]]:
    (table,) = nsa_findings.findings_tables(results)
    return _by_finding(table)


def test_verdicts_and_figures_from_the_rows() -> None:
    rows = _table_rows(_iterative())
    fastest = rows[("In the iterative architecture Rijndael has the highest throughput per area",
                    "128-bit")]
    assert fastest["Ours"] == "yes"
    # AES's best point is the speed end: 128 x 555 MHz / 10 = 7,104 Mbps over 31,500 GE.
    assert fastest[FIGURES].startswith("Rijndael 225.5, ")
    assert rows[("MARS is the largest iterative core", "128-bit")]["Ours"] == "yes"
    assert rows[("MARS is the slowest iterative core", "128-bit")]["Ours"] == "yes"
    assert rows[("RC6 and MARS have the longest key setup", "128-bit")]["Ours"] == "yes"
    smallest = rows[("Twofish and RC6 are the smallest iterative cores", "128-bit")]
    assert smallest["Ours"] == "partly"
    assert smallest[FIGURES] == ("Twofish 19,700, Rijndael 29,100, Serpent 31,800, RC6 40,000, "
                                 "MARS 56,400 GE")
    assert smallest["Why ours depart"].startswith(
        "RC6's flip-flops are 45 % of its area, against 20-20 % for the others: storage")
    # No pipelines among the rows: their findings are left out, not judged.
    assert not any(key[0].startswith("In the pipelined") for key in rows)


def test_a_missing_finalist_is_not_judged() -> None:
    rows = _table_rows([r for r in _iterative() if not r.design.startswith("mars")])
    assert rows[("MARS is the largest iterative core", "128-bit")]["Ours"] == "not measured"
    assert rows[("RC6 and MARS have the longest key setup", "128-bit")]["Ours"] == "not measured"


def test_serpent_pipeline_ranks_by_its_best_point() -> None:
    pipes = [_row("aes-128/pipelined", "speed", 264_000, 759, 10, ii=1),
             _row("serpent-128/pipelined", "area", 300_000, 500, 32, ii=1),
             _row("serpent-128/pipelined", "speed", 393_100, 830, 32, ii=1)]
    rows = _table_rows(pipes)
    serpent = rows[("In the pipelined architecture Serpent has the highest throughput",
                    "128-bit")]
    assert serpent["Ours"] == "yes"
    assert serpent[FIGURES] == "Serpent 106,240, Rijndael 97,152 Mbps"
    pipes[2] = _row("serpent-128/pipelined", "speed", 393_100, 700, 32, ii=1)
    rows = _table_rows(pipes)
    verdict = rows[("In the pipelined architecture Serpent has the highest throughput",
                    "128-bit")]
    # no critical path stored: nothing to say
    assert verdict["Ours"] == "no" and verdict["Why ours depart"] == "-"
    # With the path OpenSTA reported, the departure says which unit sets Serpent's clock.
    pipes[2].measurements.update({
        "critical_path_cells": "key_schedule.key_len_reg[3]_reg DFF_X1 > MUX2_X1 > XOR2_X1",
        "critical_path_end": "key_schedule.dec_white[73]_reg"})
    verdict = _table_rows(pipes)[("In the pipelined architecture Serpent has the highest "
                                  "throughput", "128-bit")]
    assert verdict["Why ours depart"] == (
        "Serpent's critical path at its fastest point runs from "
        "key_schedule.key_len_reg[3]_reg to key_schedule.dec_white[73]_reg: "
        "its key schedule, not its rounds, sets the clock")


def test_departure_in_logic_is_said_so() -> None:
    results = _iterative()
    results[4] = _row("rc6-128/iterative", "area", 40_000, 197, 20, key_setup=133,
                      flipflop_share=0.1)
    row = _table_rows(results)[("Twofish and RC6 are the smallest iterative cores", "128-bit")]
    assert row["Why ours depart"].endswith("the difference is in the logic, not the storage")


def test_the_report_has_the_section(tmp_path: Path) -> None:
    write_report(_iterative(), tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert f"## {NSA_FINDINGS_SECTION}" in md
    assert "| Twofish and RC6 are the smallest iterative cores |" in md
    html = (tmp_path / "report.html").read_text()
    assert "The NSA&#x27;s findings" in html or "The NSA's findings" in html


OSU050 = "osu05_stdcells"  # 0.5 um, the NSA's node


def _at_osu050() -> list[Result]:
    """The same cores on osu050, where RC6 (not MARS) is the largest and slowest iterative core:
    the NanGate45 rows say otherwise, so a verdict shows which library it came from."""
    return [
        _row("aes-128/iterative", "area", 30_000, 60, 10, library=OSU050),
        _row("serpent-128/iterative", "area", 32_000, 55, 32, library=OSU050),
        _row("twofish-128/iterative", "area", 20_000, 25, 16, library=OSU050),
        _row("rc6-128/iterative", "area", 70_000, 20, 20, key_setup=133, library=OSU050),
        _row("mars-128/iterative", "area", 56_000, 22, 32, key_setup=334, library=OSU050),
    ]


def test_findings_are_judged_at_the_nsas_node_when_there_are_rows_there() -> None:
    results = _iterative() + _at_osu050()
    (table,) = nsa_findings.findings_tables(results)  # NanGate45 is not judged beside it
    assert table.title == ("The NSA's findings, checked on osu05_stdcells (0.5 um), the NSA's "
                           "own node")
    rows = _by_finding(table)
    largest = rows[("MARS is the largest iterative core", "128-bit")]
    assert largest["Ours"] == "no"  # osu050: RC6 70,000 GE > MARS 56,000
    assert largest[FIGURES].startswith("RC6 70,000, MARS 56,000")
    # 128 x 22 MHz / 32 = 88 Mbps for MARS, RC6 128 x 20 / 20 = 128: MARS still the slowest
    assert rows[("MARS is the slowest iterative core", "128-bit")]["Ours"] == "yes"
    assert any(note.startswith("Judged at 0.5 um, the NSA's node") for note in table.notes)
    other = next(note for note in table.notes if note.startswith("Also measured on"))
    assert other == ("Also measured on NangateOpenCellLibrary (45 nm), not the NSA's node: "
                     "verdicts differ: MARS is the largest iterative core (128-bit): yes there, "
                     "no here.")


def test_findings_without_rows_at_the_nsas_node_say_which_node_they_used() -> None:
    (table,) = nsa_findings.findings_tables(_iterative())
    assert table.title == "The NSA's findings, checked on NangateOpenCellLibrary (45 nm)"
    assert ("No finalist rows at the NSA's node (0.5 um): judged on NangateOpenCellLibrary "
            "(45 nm) alone.") in table.notes
    assert nsa_findings.judged_libraries(_iterative() + _at_osu050()) == ([OSU050], True)
    assert nsa_findings.judged_libraries(_iterative()) == ([LIB], False)
