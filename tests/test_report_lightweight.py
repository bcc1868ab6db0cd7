"""The new ciphers' section (issue 29): published anchors, ours beside them, the claims."""

from __future__ import annotations

from pathlib import Path

import pytest

from cipherbench import metrics
from cipherbench.report import write_report
from cipherbench.report.lightweight import published
from cipherbench.report.lightweight import section as lightweight
from cipherbench.store import Result, cache_key

OSU018 = "osu018_stdcells"  # 0.18 um
SKY130 = "sky130_fd_sc_hd__tt_025C_1v80"  # 0.13 um: Sony's Table 2 node


def _result(design: str, goal: str, block_bits: int, ge: float, mhz: float, cycles: int,
            keys: tuple[str, ...], library: str = OSU018) -> Result:
    counts = {k: {"latency": cycles, "latency_decrypt": cycles, "initiation_interval": cycles,
                  "cycles_per_chained_block": cycles, "key_setup_encrypt": 0,
                  "key_setup_decrypt": 0, "algorithm_setup": 0} for k in keys}
    measurements = {"gate_equivalents": ge, "area_um2": ge * 10.0, "fmax_mhz": mhz}
    record = {"block_bits": block_bits, "cycles": counts, "measurements": measurements}
    target = f"asic:{library}:{goal}"
    settings = {"goal": goal, "liberty_name": library}
    return Result(cache_key=cache_key(design, target, settings, "d" * 64), design=design,
                  target=target, settings=settings, status="ok", measurements=measurements,
                  cycles=counts, metrics=metrics.derive(record), provenance={},
                  created="2026-01-01T00:00:00+00:00")


def _results() -> list[Result]:
    return [
        # 64 x 250 MHz / 32 = 500 Mbps on 1,500 GE: 333.3 Kbps/GE
        _result("present-80/iterative:ops=encrypt", "area", 64, 1_500.0, 250.0, 32, ("80",)),
        _result("present-80/iterative", "area", 64, 2_100.0, 240.0, 32, ("80",)),
        _result("hight-128/iterative", "area", 64, 3_300.0, 200.0, 34, ("128",)),
        # 128 x 100 MHz / 18 = 711.1 Mbps on 8,000 GE at 0.13 um
        _result("clefia-128/iterative", "area", 128, 8_000.0, 100.0, 18, ("128",), SKY130),
        _result("aes-128/narrow:ops=encrypt,sbox=composite,width=8", "area", 128, 3_900.0, 150.0,
                160, ("128",)),
        _result("aes-128/pipelined", "speed", 128, 300_000.0, 900.0, 1, ("128",)),  # not kept
    ]


def test_anchors_are_typed_with_their_sources() -> None:
    rows = published.anchors()
    present = [a for a in rows if a.cipher == "present"]
    assert [(a.gates, a.node_um, a.cycles) for a in present] == [(1570.0, None, None)]
    hight = [a for a in rows if a.cipher == "hight"]
    assert [(a.gates, a.node_um) for a in hight] == [(3048.0, 0.25)]
    table1 = [a for a in rows if a.table == "Table 1"]
    assert len(table1) == 6 and all(a.node_um == 0.09 for a in table1)
    fastest = max(table1, key=lambda a: a.throughput_mbps or 0)
    assert (fastest.cycles, fastest.gates, fastest.freq_mhz, fastest.throughput_mbps) == (
        18, 12009.0, 422.29, 3003.00)
    # each printed Mbps is 128 x MHz / cycles, each Kbps/gate Mbps / gates (to the printed digits)
    for a in table1:
        assert abs(128 * a.freq_mhz / a.cycles / a.throughput_mbps - 1) < 1e-4
        # (5,979 gates: 1,605.94 / 5,979 = 268.60, printed 268.63; the gates are rounded)
        assert abs(a.throughput_mbps / a.gates * 1000 / a.kbps_per_gate - 1) < 1e-3
    smallest = min((a for a in rows if a.gates), key=lambda a: a.gates or 0)
    assert (smallest.cipher, smallest.gates, smallest.node_um, smallest.cycles) == (
        "present", 1570.0, None, None)
    compact = [a for a in rows if a.table == "Table 2"]
    assert sorted(a.gates for a in compact) == [2488.0, 2604.0, 2678.0, 2781.0]
    assert 2604.0 - 2488.0 == 116.0  # Akishita & Hiwatari: 116 GE more for decryption
    # ARIA: two abstracts, neither with a key size or cycles; SM4: bit-serial, no node
    aria = [(a.source, a.node_um, a.gates, a.key_bits, a.cycles) for a in rows
            if a.cipher == "aria"]
    assert aria == [(published.KOO_2007, 0.25, 19056.0, None, None),
                    (published.KIM_SHIN_2012, 0.13, 46100.0, None, None)]
    kim = [a for a in rows if a.source == published.KIM_SHIN_2012][0]
    assert (kim.freq_mhz, kim.throughput_mbps) == (200.0, 1280.0)
    sm4 = [(a.gates, a.cycles, a.node_um, a.architecture, a.ops) for a in rows
           if a.cipher == "sm4"]
    assert sm4 == [(1771.0, 2336, None, "compact", "encrypt"),
                   (1861.0, 1344, None, "compact", "encrypt")]
    # Sugawara et al. (ISCAS 2008): only the best Kbps/gate of five CLEFIA cores at 90 nm
    iscas = [a for a in rows if a.source == published.SUGAWARA_2008]
    assert [(a.kbps_per_gate, a.gates, a.node_um, a.architecture) for a in iscas] == [
        (400.96, None, 0.09, "?")]
    records = list(published.records())
    assert {r.cipher for r in records} == {"present", "hight", "clefia", "aria", "sm4"}
    assert all(r.value is not None for r in records)
    assert {c for c, _ in published.NOT_CONFIRMED} >= {"lea", "gift", "sm4", "aria"}


def test_our_rows_keep_round_based_and_compact_cores() -> None:
    rows = lightweight.our_rows(_results())
    assert [(r.cipher, r.architecture, r.key) for r in rows] == [
        ("clefia", "round-based", "128"), ("hight", "round-based", "128"),
        ("present", "round-based", "80"), ("present", "round-based", "80"),
        ("aes", "compact", "128")]
    assert lightweight.relevant(_results())
    assert not lightweight.relevant(_results()[4:])  # AES alone: the other sections'


def test_anchor_table_gives_ratios_only_at_the_same_node() -> None:
    comparison = lightweight.anchor_table(_results())
    assert comparison is not None
    rows = comparison.table.records()
    clefia = [r for r in rows if r["cipher"] == "clefia"]
    # CLEFIA-128 round-based, both directions: Sony's 18-cycle rows (0.09 um), then Sugawara et
    # al.'s best Kbps/gate (90 nm, architecture not given: any of ours); ours at 0.13 um
    assert [r["same node"] for r in clefia] == ["no", "no", "no"]
    assert clefia[2]["published row"] == f"{published.SUGAWARA_2008}, abstract"
    assert clefia[2]["Efficiency (Kbps/GE): published"] == "400.96"
    clefia = clefia[:2]
    area = clefia[0]
    assert area["published row"] == "Sony, CLEFIA implementation page, Table 1, area-optimized"
    assert area["Cycles: ours/published"] == "1"
    assert area["Area (GE): published"] == "5,979" and area["Area (GE): ours/published"] == "-"
    present = [r for r in rows if r["cipher"] == "present"]
    # the abstract's 1,570 GE: no node, so no area ratio; ours the smallest of the two
    assert len(present) == 1 and present[0]["our core (synthesis)"] == (
        "present-80/iterative:ops=encrypt (area)")
    assert present[0]["Area (GE): ours"] == "1,500" and present[0]["Area (GE): published"] == "1,570"
    assert present[0]["Area (GE): ours/published"] == "-"
    assert present[0]["Cycles: published"] == "-"
    hight = [r for r in rows if r["cipher"] == "hight"]
    assert hight[0]["published node"] == "0.25 um" and hight[0]["same node"] == "no"
    assert rows[-1]["cipher"] == "Median ratio (min-max, n)"
    assert comparison.ratios["Cycles"] == [1.0, 1.0]  # CLEFIA's two 18-cycle rows
    assert comparison.ratios["Area (GE)"] == []


def test_anchor_table_at_the_published_node(monkeypatch: pytest.MonkeyPatch) -> None:
    # a synthetic anchor at 0.18 um (no confirmed figure of these ciphers is at a node of ours)
    anchor = published.Anchor("hight", 128, "synthetic", "Table X", 0.18, "0.18 um library",
                              "round-based", "both", 34, 3000.0, "area", 150.0, 282.35, 94.1)
    monkeypatch.setattr(lightweight, "anchors", lambda: (anchor,))
    comparison = lightweight.anchor_table(_results())
    assert comparison is not None
    row, last = comparison.table.records()
    assert row["same node"] == "yes" and row["library (node)"] == "osu018_stdcells (0.18 um)"
    # ours: 3,300 GE at 200 MHz, 34 cycles: 64 x 200 / 34 = 376.5 Mbps, 114.1 Kbps/GE
    assert row["Area (GE): ours/published"] == "1.1"
    assert row["Clock (MHz): ours/published"] == "1.33"
    assert row["Throughput (Mbps): ours/published"] == "1.33"  # 376.5 / 282.35
    assert row["Efficiency (Kbps/GE): ours/published"] == "1.21"  # 114.08 / 94.1
    assert row["Cycles: ours/published"] == "1"
    assert last["Area (GE): ours/published"] == "1.1 (1.1-1.1, n=1)"
    assert comparison.ratios["Efficiency (Kbps/GE)"] == pytest.approx(
        [64 * 200 / 34 / 3300 * 1000 / 94.1])
    # the per-cipher claim is judged at that node too
    rows = {r["claim"].split(" ")[0]: r for r in lightweight.findings_table(_results()).records()
            if "throughput per area" in r["claim"]}
    assert rows["hight"]["holds"] == "yes" and rows["hight"]["ours/published"] == "1.21"
    # with the clock left out, ours (64 / 34 / 3,300) is below it (64 / 34 / 3,000)
    per_clock = [r for r in lightweight.findings_table(_results()).records()
                 if r["claim"].startswith("hight") and "per clock" in r["claim"]]
    assert [(r["ours"], r["ours/published"], r["holds"]) for r in per_clock] == [
        ("0.57", "0.909", "no")]


def test_findings_judge_present_at_0_18_um() -> None:
    table = lightweight.findings_table(_results())
    rows = {r["claim"].split(" ")[0]: r for r in table.records() if "per clock" not in r["claim"]}
    claim = rows["PRESENT-80"]
    assert claim["our core"] == ("present-80/iterative:ops=encrypt (area), osu018_stdcells "
                                 "(0.18 um)")
    # 1,500 / 1,570
    assert (claim["ours"], claim["ours/published"], claim["holds"]) == ("1,500", "0.955", "yes")
    # CLEFIA's published round-based figures are at 0.09 um, where we measured nothing
    clefia = rows["clefia"]
    assert clefia["published / target"] == "268.63 Kbps/gate"
    assert clefia["holds"] == "not measured"
    # a PRESENT-80 core above 1,570 GE at 0.18 um does not meet the target
    big = [_result("present-80/iterative", "area", 64, 2_100.0, 240.0, 32, ("80",))]
    assert {r["claim"].split(" ")[0]: r for r in lightweight.findings_table(big).records()}[
        "PRESENT-80"]["holds"] == "no"
    assert lightweight.findings_table([]).records()[0]["holds"] == "not measured"


def test_report_has_the_section_only_with_new_cipher_rows(tmp_path: Path) -> None:
    write_report(_results(), tmp_path)
    text = (tmp_path / "report.md").read_text()
    assert lightweight.TITLE in text and "The issue's claims, checked against ours" in text
    write_report(_results()[4:], tmp_path / "aes")
    assert lightweight.TITLE not in (tmp_path / "aes" / "report.md").read_text()


def test_an_anchor_without_a_key_size_matches_every_key(monkeypatch: pytest.MonkeyPatch) -> None:
    # ARIA's abstracts quote one figure for a core of three key sizes: any key of ours matches
    anchor = published.Anchor("hight", None, "synthetic", "abstract", 0.25, "0.25 um", "?", "?",
                              None, 3000.0)
    monkeypatch.setattr(lightweight, "anchors", lambda: (anchor,))
    comparison = lightweight.anchor_table(_results())
    assert comparison is not None
    row = comparison.table.records()[0]
    assert row["cipher"] == "hight" and row["Area (GE): published"] == "3,000"
    assert row["Area (GE): ours/published"] == "-"  # 0.25 um: no library of ours there
    assert lightweight.published_table().rows  # the real table renders the '?' key sizes


def test_findings_compare_bits_per_clock_per_kge_at_any_node() -> None:
    rows = {r["claim"]: r for r in lightweight.findings_table(_results()).records()}
    claim = rows["clefia round-based at or beyond the best published bits per clock per kGE "
                 "(any node)"]
    # ours: 128 bits / 18 cycles / 8,000 GE = 0.889; Sony's Table 1, 5,979 gates: 1.189
    assert claim["ours"] == "0.889" and claim["published / target"] == "1.19 bits/clock/kGE"
    assert claim["ours/published"] == "0.747" and claim["holds"] == "no"  # 0.8889 / 1.1894
    assert metrics.bits_per_clock_per_kge(64, 32, 1570.0) == pytest.approx(1.2739, abs=1e-4)
    # a cipher without a published round-based row with cycles gets no such claim
    assert not any(r.startswith("present round-based") for r in rows)
