"""The seeds at their own nodes: our osu050 (0.5 um) rows beside the NSA's figures with the ratio
ours/published, each table's median ratio and spread, transistor counts at any node, rows of
another node (NanGate45) labelled and left out of the ratios, and the per-seed summary for
BENCHMARKS.md (constructed rows with the libraries' real Liberty names and NAND2 areas)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cipherbench import metrics
from cipherbench.report import same_node, tables, write_report
from cipherbench.store import Result, cache_key
from cipherbench.report import seeds
from cipherbench.report.nsa import parameters as nsa_parameters
from cipherbench.report.nsa import comparison as nsa_comparison

OSU050 = "osu05_stdcells"  # the Liberty `library (...)` name of Debian's qflow-tech-osu050
NANGATE = "NangateOpenCellLibrary"
NAND2_UM2 = {OSU050: 216.0, NANGATE: 0.798}


def _cycles(rounds: int, ii: int | None = None, key_setup: int = 0) -> dict[str, dict[str, int]]:
    return {"128": {"latency": rounds, "latency_decrypt": rounds,
                    "initiation_interval": ii or rounds, "cycles_per_chained_block": rounds,
                    "key_setup_encrypt": 0, "key_setup_decrypt": key_setup,
                    "algorithm_setup": 0}}


def asic(design: str, library: str, goal: str, area_um2: float, mhz: float,
         cycles: dict[str, dict[str, int]]) -> Result:
    measurements = {"area_um2": area_um2, "gate_equivalents": area_um2 / NAND2_UM2[library],
                    "fmax_mhz": mhz, "critical_path_ns": 1000.0 / mhz}
    record = {"block_bits": 128, "io_count": 263, "cycles": cycles,
              "measurements": measurements}
    target = f"asic:{library}:{goal}"
    settings = {"goal": goal, "liberty_name": library, "sequential": "flipflop"}
    return Result(cache_key=cache_key(design, target, settings, "d" * 64), design=design,
                  target=target, settings=settings, status="ok", measurements=measurements,
                  cycles=cycles, metrics=metrics.derive(record),
                  created="2026-11-26T00:00:00+00:00")


def generic(design: str, transistors: int, cycles: dict[str, dict[str, int]]) -> Result:
    measurements = {"transistors": transistors, "cells": transistors // 6}
    record = {"block_bits": 128, "io_count": 263, "cycles": cycles,
              "measurements": measurements}
    return Result(cache_key=cache_key(design, "generic", {}, "d" * 64), design=design,
                  target="generic", settings={}, status="ok", measurements=measurements,
                  cycles=cycles, metrics=metrics.derive(record),
                  created="2026-11-26T00:00:00+00:00")


def _aes_rows() -> list[Result]:
    """aes-128/iterative: area and speed ends on osu050 and NanGate45, and its transistors."""
    c = _cycles(10, key_setup=10)
    return [
        asic("aes-128/iterative", OSU050, "area", 20_000_000.0, 40.0, c),
        asic("aes-128/iterative", OSU050, "speed", 30_000_000.0, 80.0, c),
        asic("aes-128/iterative", NANGATE, "area", 25_000.0, 400.0, c),
        asic("aes-128/iterative", NANGATE, "speed", 30_000.0, 600.0, c),
        generic("aes-128/iterative", 300_000, c),
    ]


def _cells(table: tables.Table) -> list[dict[str, str]]:
    return table.records()


def test_osu050_figures_beside_the_nsas_with_the_ratio() -> None:
    comparison = nsa_comparison.nsa_comparison("aes", "128-bit", _aes_rows())
    assert comparison is not None
    table = comparison.table
    assert table.title.startswith("NSA Table 6 at the NSA's node (0.5 um): aes 128-bit")
    rows = _cells(table)
    asic_rows = [r for r in rows if r["Library (node)"] == "osu05_stdcells (0.5 um)"]
    # NanGate45 rows are another node: not set beside the NSA's 0.5 um figures
    assert not any("Nangate" in r["Library (node)"] for r in rows)
    low, high = asic_rows
    assert (low["Bound"], high["Bound"]) == ("Min.", "Max.")
    # Min.: our smallest area against Table 6's 20,739,239 um2; our slowest throughput,
    # 128 bits x 40 MHz / 10 cycles = 512 Mbps, against 271.13
    assert low["Area (um2): ours"] == "20,000,000" and low["Area (um2): NSA"] == "20,739,239"
    assert low["Area (um2): ours/NSA"] == "0.964"  # 20,000,000 / 20,739,239 = 0.9644
    assert low["Throughput (Mbps): ours"] == "512.00"
    assert low["Throughput (Mbps): ours/NSA"] == "1.89"  # 512 / 271.13
    # Max.: 30,000,000 / 33,851,050 = 0.886; 1,024 / 605.77 = 1.69; time 250 ns / 472.1 = 0.53
    assert high["Area (um2): ours/NSA"] == "0.886"
    assert high["Throughput (Mbps): ours/NSA"] == "1.69"
    assert high["Time to encrypt one block (ns): ours"] == "250.00"
    assert high["Time to encrypt one block (ns): ours/NSA"] == "0.53"
    # key setup: the NSA's encryption setup is 0, so no ratio; decryption 10 cycles at 40 MHz
    # = 250 ns against 472.10 (Max.)
    assert high["Key setup encrypt (ns): ours/NSA"] == "-"
    assert high["Key setup decrypt (ns): ours/NSA"] == "0.53"
    assert comparison.ratios["Area (um2)"] == pytest.approx([20e6 / 20_739_239,
                                                             30e6 / 33_851_050])
    # transistors: the generic count, node-free, against both NSA columns
    generic_rows = [r for r in rows if r["Library (node)"].startswith("generic")]
    assert [r["Transistors: ours/NSA"] for r in generic_rows] == ["1.09", "0.468"]
    assert comparison.ratios["Transistors"] == pytest.approx([300_000 / 275_485,
                                                              300_000 / 641_681])


def test_each_table_ends_with_its_median_ratio_and_spread() -> None:
    comparison = nsa_comparison.nsa_comparison("aes", "128-bit", _aes_rows())
    assert comparison is not None
    last = _cells(comparison.table)[-1]
    assert last["Design"] == same_node.MEDIAN_LABEL
    # median of 0.9644 and 0.8862 = 0.9253; spread min-max
    assert last["Area (um2): ours/NSA"] == "0.925 (0.886-0.964, n=2)"
    assert last["Throughput (Mbps): ours/NSA"] == "1.79 (1.69-1.89, n=2)"
    assert last["Transistors: ours/NSA"] == "0.778 (0.468-1.09, n=2)"  # (1.089 + 0.4675) / 2
    assert last["Key setup encrypt (ns): ours/NSA"] == "-"  # no ratio at all
    assert any("min-max" in note for note in comparison.table.notes)


def test_spread_is_median_and_min_max() -> None:
    found = same_node.spread([3.0, 1.0, 10.0, 2.0])
    assert found == same_node.Spread(2.5, 1.0, 10.0, 4)
    assert found.text() == "2.5 (1-10, n=4)"
    assert same_node.spread([0.5, 4.0, 1.0]).median == 1.0
    assert same_node.spread([]) is None
    assert same_node.ratio(1.0, 0) is None and same_node.ratio(None, 2.0) is None
    assert same_node.ratio(3.0, 2.0) == 1.5


def test_nodes_of_results() -> None:
    rows = _aes_rows()
    assert [same_node.result_node(r) for r in rows] == [0.5, 0.5, 0.045, 0.045, None]
    # without liberty_name, the library part of the target id; layout targets by their kit
    bare = Result(cache_key="x", design="aes-128/iterative", target="asic:osu018_stdcells:area")
    assert same_node.result_node(bare) == 0.18
    layout = Result(cache_key="y", design="des/iterative", target="layout:osu018:d60:speed")
    assert same_node.result_node(layout) == 0.18
    assert same_node.library_text(NANGATE) == "NangateOpenCellLibrary (45 nm)"


def test_without_rows_at_0_5_um_only_transistors_compare() -> None:
    rows = [r for r in _aes_rows() if r.settings.get("liberty_name") != OSU050]
    comparison = nsa_comparison.nsa_comparison("aes", "128-bit", rows)
    assert comparison is not None
    table = comparison.table
    assert "no ASIC rows at 0.5 um" in table.title
    assert [h for h in table.headers if h.endswith("ours/NSA")] == ["Transistors: ours/NSA"]
    # and no table at all without generic rows either
    assert nsa_comparison.nsa_comparison("aes", "128-bit", rows[:2]) is None


def test_nsa_table_labels_each_column_with_its_node(tmp_path: Path) -> None:
    table = nsa_parameters.nsa_table("aes", "128-bit", _aes_rows())
    assert table is not None
    assert "aes-128/iterative @ asic:osu05_stdcells:area (0.5 um)" in table.headers
    assert "aes-128/iterative @ asic:NangateOpenCellLibrary:speed (45 nm)" in table.headers
    assert "aes-128/iterative @ generic" in table.headers
    assert any(note.startswith("ASIC columns at 45 nm: not the NSA's 0.5 um")
               for note in table.notes)
    write_report(_aes_rows(), tmp_path)
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    regenerated = md.index("### NSA Table 6 regenerated: aes 128-bit")
    beside = md.index("### NSA Table 6 at the NSA's node (0.5 um): aes 128-bit")
    assert regenerated < beside < md.index("## The NSA's findings")
    assert "| aes-128/iterative | osu05\\_stdcells (0.5 um) | Min. | 128 | 20,000,000 |" in md


def test_seed_summary_for_benchmarks() -> None:
    text = seeds.seed_summary_markdown(_aes_rows())
    assert ("| NSA (Weeks et al.), Tables 1-10 | 0.5 um | osu05_stdcells | Area (um2) | 0.925 | "
            "0.886-0.964 | 2 |") in text
    assert "| Sugawara et al., Table 1 | 0.18 um | none | - | - | - | 0 |" in text
    nsa = seeds.seed_summary(_aes_rows())[0]
    assert nsa.spreads()["Throughput (Mbps)"].median == pytest.approx(
        (512 / 271.13 + 1024 / 605.77) / 2)
