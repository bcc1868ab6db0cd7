"""The report's masked-cores section (issue 31) on synthetic rows: the cost of protection against
the unmasked twin, the leakage verdicts, the published masked AES cores beside ours; shown only
with masked rows, and the leakage rows kept out of the tables of measured netlists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cipherbench import metrics
from cipherbench.leakage.core import TARGET
from cipherbench.report import MASKED_SECTION, build_sections, write_report
from cipherbench.report.masked import published
from cipherbench.report.masked import section as masked
from cipherbench.store import Result, cache_key

NANGATE = "NangateOpenCellLibrary"  # 45 nm
OSU018 = "osu018_stdcells"


def asic(design: str, ge: float, cycles: int, library: str = NANGATE, mhz: float = 500.0,
         block_bits: int = 128, key: str = "128") -> Result:
    counts = {key: {"latency": cycles, "latency_decrypt": None, "initiation_interval": cycles,
                    "cycles_per_chained_block": cycles, "key_setup_encrypt": 0,
                    "key_setup_decrypt": None, "algorithm_setup": 0}}
    measurements = {"gate_equivalents": ge, "area_um2": ge * 0.8, "fmax_mhz": mhz}
    record = {"block_bits": block_bits, "cycles": counts, "measurements": measurements}
    target = f"asic:{library}:area"
    settings = {"goal": "area", "liberty_name": library}
    return Result(cache_key=cache_key(design, target, settings, "d" * 64), design=design,
                  target=target, settings=settings, status="ok", measurements=measurements,
                  cycles=counts, metrics=metrics.derive(record), provenance={},
                  created="2026-01-01T00:00:00+00:00")


def leakage(design: str, verdict: str, max_t: float, log_p: float, *, traces: int = 1_000_000,
            probe_traces: int = 100_000, per_clock: int = 18, latency: int = 283,
            per_evaluation: int = 18) -> Result:
    settings = {"traces": traces, "probe_traces": probe_traces, "probe_clocks": 30,
                "structure": "keep", "seed": 1}
    measurements: dict[str, Any] = {
        "shares": 2, "flaw": "none", "latency": latency, "clocks": latency + 3,
        "random_bits_per_clock": per_clock, "random_bits_per_block": per_clock * (latency + 1),
        "random_bits_per_evaluation": per_evaluation, "block_bits": 128,
        "netlist_gates": 3303, "netlist_flip_flops": 732, "power_model": "zero-delay HD",
        "probing_model": "glitch-extended", "tvla_model": "Welch", "verdict": verdict,
        "tvla_traces": traces, "tvla_max_abs_t": max_t, "tvla_clock": 5,
        "tvla_verdict": "pass" if max_t <= 4.5 else "fail", "tvla_traces_per_second": 47_798.0,
        "probing_traces": probe_traces, "probing_tests": 116_670,
        "probing_max_minus_log10_p": log_p, "probing_threshold": 8.07,
        "probing_where": "clock 15: datapath.sbox.t_s0[5]",
        "probing_verdict": "pass" if log_p <= 8.07 else "fail"}
    return Result(cache_key=cache_key(design, TARGET, settings, "e" * 64), design=design,
                  target=TARGET, settings=settings, status="ok", measurements=measurements,
                  provenance={"flow": "leakage"}, created="2026-01-02T00:00:00+00:00")


def rows() -> list[Result]:
    return [
        asic("aes-128/masked", 9_000.0, 284),
        asic("aes-128/masked:shares=1", 3_000.0, 284),
        asic("aes-128/masked", 8_000.0, 284, library=OSU018),
        leakage("aes-128/masked", "pass", 3.12, 5.0),
        leakage("aes-128/masked:flaw=register", "fail", 2.9, 185.8),
        asic("aes/iterative", 20_000.0, 11),
    ]


def test_the_published_cores_are_typed_as_the_issue_gives_them() -> None:
    by_source = {c.source: c for c in published.cores()}
    de_cnudde = by_source[published.DE_CNUDDE_2016]
    assert (de_cnudde.gates, de_cnudde.node_um, de_cnudde.cycles, de_cnudde.random_bits,
            de_cnudde.shares) == (6_685, 0.045, 276, 54, 2)
    assert by_source[published.GROSS_DOM].random_bits == 18
    assert by_source[published.GROSS_DOM].gates == 7_100
    smaesh = by_source[published.SMAESH]
    assert (smaesh.gates, smaesh.cycles, smaesh.node_um) == (29_400, 86, 0.045)
    assert by_source[published.OPENTITAN].cycles == 56
    assert by_source[published.OPENTITAN].gates is None


def test_the_cost_table_sets_each_masked_core_against_its_unmasked_twin() -> None:
    table = masked.cost_table(rows())
    lines = table.records()
    nangate = [r for r in lines if r["design"] == "aes-128/masked" and "45 nm" in
               r["library (node)"]]
    assert len(nangate) == 1
    row = nangate[0]
    assert row["GE"] == "9,000" and row["x unmasked"] == "3" and row["cycles"] == "284"
    assert row["random bits/clock"] == "18" and row["random bits/block"] == "5,112"
    # 128 / 284 / 9,000 x 1000
    assert row["bits/clock/kGE"] == "0.0501"
    assert row["leakage verdict"] == "pass: |t| 3.12 at 1,000,000 traces; probing 5.00 / 8.07 at 100,000"
    # No twin on osu018: no ratio there.
    osu = [r for r in lines if r["design"] == "aes-128/masked" and "0.18" in r["library (node)"]]
    assert osu[0]["x unmasked"] == "-"
    twin = [r for r in lines if r["design"] == "aes-128/masked:shares=1"]
    assert twin[0]["x unmasked"] == "-" and twin[0]["leakage verdict"] == "not assessed"
    broken = [r for r in lines if r["design"] == "aes-128/masked:flaw=register"]
    assert broken[0]["leakage verdict"].startswith("FAIL: |t| 2.90")
    assert all("iterative" not in r["design"] for r in lines)


def test_the_assessment_table_has_every_leakage_row_with_its_verdicts() -> None:
    table = masked.assessment_table(rows())
    lines = table.records()
    assert [r["design"] for r in lines] == ["aes-128/masked", "aes-128/masked:flaw=register"]
    assert lines[0]["max |t| (clock)"] == "3.12 (5)" and lines[0]["verdict"] == "pass"
    assert lines[1]["probing"] == "fail" and lines[1]["verdict"] == "FAIL"
    assert lines[1]["max -log10 p / threshold"] == "185.80 / 8.07"
    assert any("glitch-extended" in note for note in table.notes)


def test_the_published_table_compares_area_only_at_the_same_node() -> None:
    table = masked.published_table(rows())
    lines = table.records()
    de_cnudde = [r for r in lines if r["source"] == published.DE_CNUDDE_2016]
    # our 8-bit core on both libraries: a ratio on NanGate45 only (9,000 / 6,685)
    assert [(r["our library (node)"], r["GE ours/theirs"]) for r in de_cnudde] == [
        ("NangateOpenCellLibrary (45 nm)", "1.35"), ("osu018_stdcells (0.18 um)", "-")]
    assert all(r["our cycles"] == "284" and r["our random bits per S-box"] == "18"
               for r in de_cnudde)
    # no 128-bit core among the rows: OpenTitan's line names the design and has no figures
    opentitan = [r for r in lines if r["source"] == published.OPENTITAN]
    assert opentitan[0]["our core"] == "aes-128/masked:width=128"
    assert opentitan[0]["our GE"] == "-"


def test_the_section_is_shown_only_with_masked_rows_and_leakage_rows_stay_out_of_the_rest(
        tmp_path: Path) -> None:
    titles = [s.title for s in build_sections(rows())]
    assert MASKED_SECTION in titles
    without = [r for r in rows() if "masked" not in r.design]
    assert MASKED_SECTION not in [s.title for s in build_sections(without)]
    written = write_report(rows(), tmp_path)
    text = (tmp_path / "report.md").read_text()
    assert "## Masked cores: the cost of protection and the leakage assessment" in text
    headline = text.split("## Headline")[1].split("\n## ")[0]
    assert "leakage" not in headline
    per_target = text.split("## Results per target")[1].split("\n## ")[0]
    assert "leakage" not in per_target
    # results.csv and the provenance keep every row
    assert (tmp_path / "results.csv").read_text().count(TARGET) == 2
    assert tmp_path / "report.html" in written
