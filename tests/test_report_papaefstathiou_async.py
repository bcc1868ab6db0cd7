"""Papaefstathiou et al.'s asynchronous DES (Table 10, the idle experiment, the findings of
section 4.2.2) regenerated from synthetic de-synchronized and synchronous rows: the figures land
in the right cells, the ratios and the idle scaling are computed as stated, and every finding
is shown holding on one set of rows and not holding (or not checkable) on another."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cipherbench import metrics
from cipherbench.report import PAPA_ASYNC_SECTION, build_sections, write_report
from cipherbench.report.papaefstathiou import async_findings as papa_findings
from cipherbench.report.papaefstathiou import async_rows as papa_rows
from cipherbench.report.papaefstathiou import asynchronous as papa_async
from cipherbench.report.tables import Table
from cipherbench.store import Result, cache_key
from cipherbench.report import seeds

OSU = "osu018_stdcells"
NANGATE = "NangateOpenCellLibrary"


def _counts(latency: int, ii: int, key: str) -> dict[str, Any]:
    return {key: {"latency": latency, "latency_decrypt": latency, "initiation_interval": ii,
                  "cycles_per_chained_block": latency, "key_setup_encrypt": 0,
                  "key_setup_decrypt": 0, "algorithm_setup": 0}}


def _row(design: str, target: str, settings: dict[str, Any], measurements: dict[str, Any],
         latency: int, ii: int, block_bits: int, key: str) -> Result:
    counts = _counts(latency, ii, key)
    record = {"block_bits": block_bits, "cycles": counts, "measurements": measurements}
    return Result(cache_key=cache_key(design, target, settings, "d" * 64), design=design,
                  target=target, settings=settings, status="ok", measurements=measurements,
                  cycles=counts, metrics=metrics.derive(record), provenance={},
                  created="2026-01-01T00:00:00+00:00")


def _desync(design: str, storage: str, granularity: str, *, cycle_ns: float, ii: int,
            latency_cycles: int, power: float, half_idle: float, sync_cp: float,
            area: tuple[float, float, float, float] = (40_000.0, 10_000.0, 6_000.0, 4_000.0),
            library: str = OSU, block_bits: int = 64, key: str = "64") -> Result:
    """A de-synchronized core: ``ii`` handshake cycles of ``cycle_ns`` per block."""
    logic, storage_um2, control, delay = area
    measurements = {
        "latency_ns": round(latency_cycles * cycle_ns, 4), "latency_cycles": latency_cycles,
        "throughput_stream_mbps": block_bits * 1000.0 / (cycle_ns * ii),
        "throughput_chained_mbps": block_bits * 1000.0 / (cycle_ns * latency_cycles),
        "cycle_ns": cycle_ns, "fmax_mhz": 1000.0 / cycle_ns, "critical_path_ns": cycle_ns,
        "area_um2": logic + storage_um2 + control + delay, "area_logic_um2": logic,
        "area_storage_um2": storage_um2, "area_control_um2": control, "area_delay_um2": delay,
        "power_mw": power, "power_internal_mw": 0.6 * power, "power_switching_mw": 0.4 * power,
        "power_leakage_mw": 0.001, "power_half_idle_mw": half_idle,
        "synchronous_critical_path_ns": sync_cp, "timed_verification_passed": 400,
    }
    settings = {"storage": storage, "granularity": granularity, "margin": 0.2, "goal": "area",
                "liberty_name": library}
    return _row(design, f"desync:{library}:{storage}:{granularity}", settings, measurements,
                latency_cycles, ii, block_bits, key)


def _sync(design: str, *, mhz: float, latency: int, ii: int, power: float, half: float,
          leakage: float = 0.01, library: str = OSU, goal: str = "area",
          sequential: str = "flipflop", block_bits: int = 64, key: str = "64") -> Result:
    measurements = {"area_um2": 50_000.0, "fmax_mhz": mhz, "critical_path_ns": 1000.0 / mhz,
                    "power_mw": power, "power_half_mw": half, "power_leakage_mw": leakage,
                    "power_clock_mhz": mhz}
    # as the asic flow stores them: the ends of synthesis have no delay target
    settings = {"goal": goal, "liberty_name": library, "sequential": sequential,
                "delay_ps": None, "grade_position": None}
    suffix = ":latch" if sequential == "latch" else ""
    return _row(design, f"asic:{library}:{goal}{suffix}", settings, measurements, latency, ii,
                block_bits, key)


def _rows(**change: Any) -> list[Result]:
    """DES on osu018, the seed's shapes: AO (iterative) and FGP control-bound and much slower
    than PO; PO(F) the most efficient; PO(L) faster and hungrier; idle halves near nothing.
    ``change`` overrides a core's figures by its short name."""
    cores: dict[str, dict[str, Any]] = {
        # 64 bits / (16 x 6 ns) = 666.67 Mbps at 4 mW; its cycle is 58 % control (2.5 / 6 ns)
        "AO": dict(design="des/iterative", storage="latch", granularity="register",
                   cycle_ns=6.0, ii=16, latency_cycles=16, power=4.0, half_idle=2.05,
                   sync_cp=2.5),
        # 64 / 8 ns = 8 Gbps; 75 % control
        "FGP": dict(design="des/pipelined:inner=1", storage="latch", granularity="register",
                    cycle_ns=8.0, ii=1, latency_cycles=32, power=90.0, half_idle=45.5,
                    sync_cp=2.0),
        # 64 / 2.5 ns = 25.6 Gbps at 100 mW: 256 Gbps/W
        "PO(F)": dict(design="des/pipelined", storage="flipflop", granularity="stage",
                      cycle_ns=2.5, ii=1, latency_cycles=16, power=100.0, half_idle=50.5,
                      sync_cp=2.0),
        # 64 / 2.2 ns = 29.09 Gbps at 150 mW
        "PO(L)": dict(design="des/pipelined", storage="latch", granularity="stage",
                      cycle_ns=2.2, ii=1, latency_cycles=16, power=150.0, half_idle=75.6,
                      sync_cp=1.9),
    }
    syncs: dict[str, dict[str, Any]] = {
        # 64 x 200 / 16 = 800 Mbps at 10 mW: 80 Gbps/W; at 50 % load 8 mW
        "sync iterative": dict(design="des/iterative", mhz=200.0, latency=16, ii=16,
                               power=10.0, half=8.0),
        # 64 x 250 = 16 Gbps at 300 mW: 53.3 Gbps/W
        "sync pipelined": dict(design="des/pipelined", mhz=250.0, latency=16, ii=1,
                               power=300.0, half=220.0, leakage=0.1),
    }
    for name, figures in change.items():
        (cores if name in cores else syncs)[name.replace("_", " ")].update(figures)
    return ([_desync(**c) for c in cores.values()] + [_sync(**s) for s in syncs.values()])


def _table_rows(table: Table) -> list[dict[str, str]]:
    return table.records()


# --- Table 10 ---------------------------------------------------------------------------------


def test_table_10_at_the_seed_node_beside_ours_with_ratios() -> None:
    comparison = papa_async.node_table(_rows())
    assert comparison is not None
    rows = _table_rows(comparison.table)
    ao, fgp, po_f, po_l, last = rows
    assert [r["published design"] for r in (ao, fgp, po_f, po_l)] == [
        "Table 10: AO DES", "Table 10: FGP DES", "Table 10: PO DES(F)", "Table 10: PO DES(L)"]
    assert ao["our core"] == "des/iterative" and ao["storage, granularity, ties"] == "latch, register"
    assert ao["library (node)"] == "osu018_stdcells (0.18 um)"
    assert ao["ours: stage"] == "synthesis"
    # AO: 16 x 6 ns = 96 ns against 138; 0.667 Gbps against 7.42; 4 mW against 23.76;
    # 60 K um2 against 83
    assert ao["Latency (ns): ours"] == "96.00" and ao["Latency (ns): published"] == "138"
    assert ao["Latency (ns): ours/published"] == "0.696"
    assert ao["Throughput (Gbps): ours/published"] == "0.0898"
    assert ao["Power (mW): ours/published"] == "0.168"
    assert ao["Area (K um2): ours/published"] == "0.723"
    # PO(F): 25.6 Gbps against 33.16
    assert po_f["Throughput (Gbps): ours"] == "25.60"
    assert po_f["Throughput (Gbps): ours/published"] == "0.772"
    assert comparison.ratios["Power (mW)"] == pytest.approx(
        [4 / 23.76, 90 / 70.04, 100 / 156.29, 150 / 420.8])
    # median of 60/83, 60/882, 60/560, 60/512: (0.107 + 0.117) / 2
    assert last["Area (K um2): ours/published"] == "0.112 (0.068-0.723, n=4)"


def test_table_10_needs_rows_at_the_seed_node() -> None:
    elsewhere = [_desync("des/iterative", "latch", "register", cycle_ns=1.0, ii=16,
                         latency_cycles=16, power=1.0, half_idle=0.5, sync_cp=0.5,
                         library=NANGATE)]
    assert papa_async.node_table(elsewhere) is None
    # ... while the per-library table still lists it, under the published rows.
    [table] = papa_async.cores_tables(elsewhere)
    assert "NangateOpenCellLibrary (45 nm)" in table.title
    assert table.column("seed's design") == ["AO DES", "FGP DES", "PO DES(F)", "PO DES(L)", "AO"]


def test_every_core_per_library_with_its_area_by_part() -> None:
    aes = _desync("aes-128/pipelined", "flipflop", "stage", cycle_ns=5.0, ii=1,
                  latency_cycles=10, power=200.0, half_idle=100.2, sync_cp=4.0,
                  block_bits=128, key="128")
    other = _desync("des/iterative", "flipflop", "stage", cycle_ns=5.0, ii=16,
                    latency_cycles=16, power=3.0, half_idle=1.6, sync_cp=2.5)
    [table] = papa_async.cores_tables([*_rows(), aes, other])
    rows = _table_rows(table)
    # the seed's four in its order, then our other variants, then the other ciphers
    assert [r["seed's design"] for r in rows[4:]] == ["AO", "FGP", "PO(F)", "PO(L)", "-",
                                                        "PO(F)"]
    ao = rows[4]
    assert ao["logic (K um2)"] == "40.00" and ao["storage (K um2)"] == "10.00"
    assert ao["control (K um2)"] == "6.00" and ao["delay (K um2)"] == "4.00"
    assert ao["control + delay (%)"] == "16.67"  # (6 + 4) / 60
    assert ao["latency (handshakes)"] == "16" and ao["timed checks passed"] == "400"
    assert rows[-1]["cipher"] == "aes" and rows[-1]["throughput (Gbps)"] == "25.60"
    assert "no asynchronous AES" in table.notes[0]


def test_a_layout_target_is_said_placed_and_routed() -> None:
    row = _rows()[0]
    row.target += ":layout"
    [ours] = papa_rows.async_rows([row])
    assert ours.stage == "placed and routed"
    assert papa_rows.async_rows(_rows())[0].stage == "synthesis"


def test_library_storage_granularity_and_goal_from_the_target_id_alone() -> None:
    row = _rows()[0]
    row.settings = {}
    [ours] = papa_rows.async_rows([row])
    assert (ours.library, ours.storage, ours.granularity, ours.goal) == (
        OSU, "latch", "register", "area")
    assert papa_async.node_table([row]) is not None  # still at the seed's node
    row.target = f"desync:{OSU}:flipflop:stage:speed"
    [ours] = papa_rows.async_rows([row])
    assert (ours.storage, ours.granularity, ours.goal, ours.seed_label) == (
        "flipflop", "stage", "speed", "-")  # an iterative core per stage: none of the seed's


def _tied(row: Result) -> Result:
    """The same core with out_ready held at 1, as the flow names and stores it."""
    row.target += ":out_ready=1"
    row.settings = {**row.settings, "ties": {"out_ready": 1}}
    return row


def test_a_core_with_tied_ports_is_its_own_row_and_pairs_with_its_tied_twin() -> None:
    rows = _rows()
    po_f, po_l = (_tied(_rows()[i]) for i in (2, 3))
    po_f.measurements["throughput_reactive_mbps"] = 12_800.0
    [table] = papa_async.cores_tables([*rows, po_f, po_l])
    tied = [r for r in _table_rows(table) if r["tied ports"] == "out_ready=1"]
    assert [(r["seed's design"], r["storage"]) for r in tied] == [("PO(F)", "flipflop"),
                                                                  ("PO(L)", "latch")]
    assert tied[0]["reactive (Gbps)"] == "12.80"
    # the latch finding pairs each latch core with its own flip-flop twin, tied or not
    judged = papa_findings.judge_latch([*rows, po_f, po_l], OSU)
    assert [j.cores for j in judged] == ["des/pipelined", "des/pipelined (out_ready=1)"]
    assert len(papa_findings.judge_latch([*rows[:3], po_l], OSU)) == 1  # no tied flip-flop twin
    # read from the target id alone as well
    po_f.settings = {k: v for k, v in po_f.settings.items() if k != "ties"}
    [ours] = papa_rows.async_rows([po_f])
    assert ours.ties == (("out_ready", "1"),) and ours.variant == "flipflop, stage, out_ready=1"
    # its synchronous counterpart: the untied core of the same design
    assert papa_rows.counterpart(ours, papa_rows.sync_rows(rows, OSU)).result.design == (
        "des/pipelined")


# --- the idle experiment ------------------------------------------------------------------------


def test_idle_scaling_by_hand() -> None:
    # 800 Mbps at 200 MHz; 666.67 Mbps needs 166.67 MHz
    assert papa_rows.matching_clock_mhz(200.0, 800.0, 2000.0 / 3) == pytest.approx(500.0 / 3)
    # leakage stays, the rest scales with the clock
    assert papa_rows.scaled_power_mw(8.0, 0.01, 200.0, 100.0) == pytest.approx(4.005)
    assert papa_rows.idle_share(4.0, 2.05) == pytest.approx(0.025)


def test_idle_table_scales_the_synchronous_core_to_the_same_throughput() -> None:
    table = papa_async.idle_table(_rows())
    assert table is not None
    rows = _table_rows(table)
    published = rows[0]
    assert published["half idle (mW)"] == "12.78"
    assert published["its 50 % load at fmax (mW)"] == "171.38"
    assert published["asynchronous / synchronous, 50 % load"] == "0.0746"  # 12.78 / 171.38
    ao = rows[1]
    assert ao["seed's design"] == "AO" and ao["busy (mW)"] == "4.00"
    assert ao["half idle / busy"] == "0.512" and ao["idle half / busy (%)"] == "2.50"
    assert ao["synchronous core"] == "des/iterative @ asic:osu018_stdcells:area"
    assert ao["clock for the same throughput (MHz)"] == "166.67"
    scaled = (8.0 - 0.01) * (500.0 / 3) / 200.0 + 0.01
    assert ao["its 50 % load at that clock (mW)"] == f"{scaled:.2f}"
    assert ao["asynchronous / synchronous, 50 % load"] == f"{2.05 / scaled:.3g}"
    # PO(F) streams 25.6 Gbps; its synchronous pipeline 16 Gbps at 250 MHz: 400 MHz is beyond
    # that core's fmax, and said to be.
    po_f = next(r for r in rows if r["seed's design"] == "PO(F)")
    assert po_f["clock for the same throughput (MHz)"] == "400.00 (above its fmax)"
    # FGP's synchronous core was not measured: no synchronous figures beside it.
    fgp = next(r for r in rows if r["seed's design"] == "FGP")
    assert fgp["synchronous core"] == "-" and fgp["asynchronous / synchronous, 50 % load"] == "-"


# --- the findings, each both ways ---------------------------------------------------------------


def _verdict(key: str, results: list[Result], library: str = OSU) -> papa_findings.Judged:
    [judged] = papa_findings.JUDGES[key](results, library)
    return judged


def test_most_efficient_des_is_asynchronous_both_ways() -> None:
    judged = _verdict("efficient", _rows())
    assert judged.verdict == "holds"
    assert "best asynchronous PO(F) des/pipelined (flipflop, stage): 256.00 Gbps/W" in judged.figures
    assert "best synchronous des/iterative @ asic:osu018_stdcells:area: 80.00 Gbps/W" in (
        judged.figures)
    # a synchronous pipeline at 50 mW: 320 Gbps/W beats every asynchronous core
    judged = _verdict("efficient", _rows(sync_pipelined={"power": 50.0}))
    assert judged.verdict == "does not hold"
    # the reason measured: PO(F)'s cycle against its synchronous critical path, and against the
    # synchronous core it came from (25.6 / 16 Gbps = 1.6x the throughput at 2x the power)
    assert judged.why.startswith("PO(F) des/pipelined (flipflop, stage): its handshake cycle")
    assert "2.5 ns against its synchronous netlist's critical path of 2.00 ns (1.25x" in (
        judged.why.replace("2.50", "2.5"))
    assert "1.6x the throughput at 2x the power" in judged.why


def test_a_core_that_is_none_of_the_seed_s_is_named_by_itself() -> None:
    # an iterative core with one controller per stage, at 0.5 mW: 1,333 Gbps/W, the best
    other = _desync("des/iterative", "flipflop", "stage", cycle_ns=6.0, ii=16,
                    latency_cycles=16, power=0.5, half_idle=0.26, sync_cp=2.5)
    judged = _verdict("efficient", [*_rows(), other])
    assert judged.figures.startswith("best asynchronous des/iterative (flipflop, stage): 1,333")
    assert judged.why.startswith("des/iterative (flipflop, stage): its handshake cycle")


def test_po_f_over_the_best_synchronous_both_ways() -> None:
    judged = _verdict("po_f_over_sync", _rows())
    assert judged.verdict == "holds" and "ours +220 %, the seed's +12 %" in judged.figures
    judged = _verdict("po_f_over_sync", _rows(**{"PO(F)": {"power": 400.0}}))  # 64 Gbps/W
    assert judged.verdict == "does not hold" and "ours -20 %" in judged.figures


def test_latch_version_faster_but_hungrier_both_ways() -> None:
    judged = _verdict("latch", _rows())
    assert judged.verdict == "holds" and judged.cores == "des/pipelined"
    assert "latch pairs: 29.09 Gbps" in judged.figures
    judged = _verdict("latch", _rows(**{"PO(L)": {"power": 80.0}}))
    assert judged.verdict == "does not hold"
    assert "the latch version does not switch more" in judged.why
    assert "switching power 32.00 against 40.00 mW" in judged.why  # 0.4 x 80, 0.4 x 100
    judged = _verdict("latch", _rows(**{"PO(L)": {"cycle_ns": 3.0}}))
    assert judged.verdict == "does not hold" and "does not shorten" in judged.why


def test_ao_and_fgp_control_bound_both_ways() -> None:
    judged = _verdict("control_bound", _rows())
    assert judged.verdict == "holds"
    # AO 0.667 Gbps = 0.0229 of PO(L)'s 29.09; 58 % of its cycle control; 0.833x the
    # synchronous iterative core's 800 Mbps
    assert "AO des/iterative (latch, register) 0.667 Gbps = 0.0229 of PO's" in judged.figures
    assert "control and delays 58 % of its 6.00 ns cycle, 0.833x the synchronous" in (
        judged.figures)
    # FGP at 3 ns: 21.3 Gbps, over half of PO's, and its cycle only 33 % control
    judged = _verdict("control_bound", _rows(FGP={"cycle_ns": 3.0}))
    assert judged.verdict == "does not hold"
    assert judged.why == ("FGP is not much slower than PO (0.733 of its throughput); FGP's "
                          "cycle is mostly logic: its synchronous critical path is 2.00 of its "
                          "3.00 ns, control and delays 33 %")
    # AO's cycle mostly logic
    judged = _verdict("control_bound", _rows(AO={"sync_cp": 5.0}))
    assert judged.verdict == "does not hold"
    assert "AO's cycle is mostly logic" in judged.why and "17 %" in judged.why


def test_idle_power_both_ways() -> None:
    judged = _verdict("idle", _rows())
    assert judged.verdict == "holds"
    assert "des/iterative (latch, register) 2.5 %" in judged.figures  # 2 x 2.05 / 4 - 1
    assert "des/iterative @ asic:osu018_stdcells:area 60 %" in judged.figures  # 2 x 8 / 10 - 1
    judged = _verdict("idle", _rows(AO={"half_idle": 3.5}))  # the idle half at 75 %
    assert judged.verdict == "does not hold"
    assert "des/iterative (latch, register) keeps drawing 75 %" in judged.why
    judged = _verdict("idle", _rows(sync_iterative={"half": 5.2}))  # the sync idle half at 4 %
    assert judged.verdict == "does not hold" and "no clock tree" in judged.why


def test_a_speed_grade_is_not_the_synchronous_core_it_came_from() -> None:
    graded = _rows()
    for row in graded:
        if row.target_kind == "asic":
            row.settings["delay_ps"] = 3000  # a grade between the ends (NSA section 3.2)
    assert papa_rows.sync_rows(graded, OSU) == []
    assert len(papa_rows.sync_rows(_rows(), OSU)) == 2


def test_findings_name_the_missing_rows() -> None:
    asynchronous_only = [r for r in _rows() if r.target_kind == "desync"]
    for key in ("efficient", "po_f_over_sync", "idle"):
        judged = _verdict(key, asynchronous_only)
        assert judged.verdict == "cannot be checked"
        assert judged.figures.startswith(f"missing on {OSU}: ")
        assert "synchronous" in judged.figures
    no_po = [r for r in _rows() if "stage" not in r.target]
    assert _verdict("latch", no_po).verdict == "cannot be checked"
    judged = _verdict("control_bound", no_po)
    assert judged.verdict == "cannot be checked" and "a de-synchronized PO DES" in judged.figures


def test_findings_table_judges_each_library_seed_node_first() -> None:
    elsewhere = _desync("des/iterative", "latch", "register", cycle_ns=1.0, ii=16,
                        latency_cycles=16, power=1.0, half_idle=0.5, sync_cp=0.5,
                        library=NANGATE)
    table = papa_async.findings_table([elsewhere, *_rows()])
    assert table is not None
    rows = _table_rows(table)
    assert len(rows) == 10  # five findings on two libraries
    assert [r["Library (node)"] for r in rows[:2]] == ["osu018_stdcells (0.18 um)",
                                                        "NangateOpenCellLibrary (45 nm)"]
    assert [r["Ours"] for r in rows[::2]] == ["holds"] * 5
    # the seed's own tables: AO DES 7.42 Gbps / 23.76 mW = 312 Gbps/W is Table 10's best, not
    # the PO DES(F) (212) its conclusions name; Table 9's best is AO SDES(PERM) at 72.5
    efficient = rows[0]["The seed's own tables"]
    assert "Table 10's best AO DES 312.29 Gbps/W (PO DES(F), which the conclusions name, " \
        "212.17)" in efficient
    assert "Table 9 (placed and routed) AO SDES(PERM) 72.51" in efficient
    assert "no pair of tables gives the text's 1.12x" in rows[2]["The seed's own tables"]
    assert rows[0]["Where the seed says it"].startswith("section 5 (and abstract)")


def test_seed_summary_pools_table_10_apart() -> None:
    text = seeds.seed_summary_markdown(_rows())
    # Table 10 (placed and routed) is not pooled with the synthesis tables 8, 11, 13
    assert ("| Papaefstathiou et al., Table 10 (asynchronous, published placed and routed) | "
            "0.18 um | osu018_stdcells | Power (mW) | 0.498 | 0.168-1.28 | 4 |") in text
    assert "| Papaefstathiou et al., Tables 8, 11, 13 (synthesis) | 0.18 um | osu018_stdcells | " \
        "- | - | - | 0 |" in text


# --- the report ---------------------------------------------------------------------------------


def test_section_only_with_desync_rows() -> None:
    titles = [s.title for s in build_sections(_rows())]
    assert PAPA_ASYNC_SECTION in titles
    synchronous_only = [r for r in _rows() if r.target_kind == "asic"]
    assert PAPA_ASYNC_SECTION not in [s.title for s in build_sections(synchronous_only)]
    assert not papa_async.relevant(synchronous_only)


def test_report_shows_the_section_in_markdown_and_html(tmp_path: Path) -> None:
    write_report(_rows(), tmp_path)
    for name in ("report.md", "report.html"):
        text = (tmp_path / name).read_text()
        assert PAPA_ASYNC_SECTION in text.replace("&amp;", "&")
        assert "Papaefstathiou et al. Table 10 at its node (0.18 um)" in text
        assert "the idle experiment, asynchronous against synchronous at 50 % load" in text
        assert "findings on asynchronous DES, checked against ours" in text.replace("&#x27;", "'")
