"""Sugawara et al. Table 1 / Fig. 11 regeneration from stored results (fake but realistic rows)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cipherbench import metrics
from cipherbench.report import write_report
from cipherbench.report.sugawara import published
from cipherbench.report.sugawara import section as sugawara
from cipherbench.store import Result, cache_key


def _result(design: str, goal: str, block_bits: int, ge: float, mhz: float,
            cycles: int, keys: tuple[str, ...] = ("128",)) -> Result:
    counts = {k: {"latency": cycles, "latency_decrypt": cycles, "initiation_interval": cycles,
                  "cycles_per_chained_block": cycles, "key_setup_encrypt": 0,
                  "key_setup_decrypt": 0, "algorithm_setup": 0} for k in keys}
    measurements = {"gate_equivalents": ge, "area_um2": ge * 0.798, "fmax_mhz": mhz}
    record = {"block_bits": block_bits, "cycles": counts, "measurements": measurements}
    target = f"asic:nangate45_typ:{goal}"
    return Result(cache_key=cache_key(design, target, {"goal": goal}, "d" * 64), design=design,
                  target=target, settings={"goal": goal}, status="ok",
                  measurements=measurements, cycles=counts, metrics=metrics.derive(record),
                  provenance={}, created="2026-01-01T00:00:00+00:00")


def _results() -> list[Result]:
    return [
        _result("camellia-128/iterative", "speed", 128, 16_000.0, 500.0, 25),
        _result("camellia-128/iterative", "area", 128, 11_000.0, 250.0, 25),
        _result("tdea/iterative", "speed", 64, 5_000.0, 450.0, 48, ("128", "192")),
        _result("aes-128/pipelined", "speed", 128, 300_000.0, 900.0, 1),  # not a seed architecture
        _result("cast128-128/narrow:width=64", "speed", 64, 31_000.0, 200.0, 17),
    ]


def test_our_rows_keep_only_seed_ciphers_and_architectures() -> None:
    rows = sugawara.our_rows(_results())
    assert [(r.cipher, r.goal) for r in rows] == [
        ("camellia", "area"), ("camellia", "speed"), ("tdea", "speed"), ("cast128", "speed")]
    tdea = rows[2]
    assert tdea.key == "128"
    # 64 bits x 450 MHz / 48 cycles = 600 Mbps; / 5,000 GE = 120 Kbps/GE
    assert abs(tdea.efficiency - 120.0) < 1e-6


def test_table1_places_ours_under_each_ciphers_published_rows() -> None:
    table = sugawara.table1(_results())
    assert table.headers[0] == "cipher" and table.headers[-1] == "Kbps/GE"
    published_rows = table.rows_where("source", sugawara.PUBLISHED_SOURCE)
    assert len(published_rows) == len(published.sugawara_table1())
    camellia = table.rows_where("cipher", "camellia")
    sources = [r["source"] for r in camellia]
    assert sources == [sugawara.PUBLISHED_SOURCE] * 3 + [sugawara.OURS_SOURCE] * 2
    speed = camellia[-1]
    # 128 x 500 / 25 = 2,560 Mbps; / 16,000 GE = 160 Kbps/GE
    assert speed["design"] == "camellia-128/iterative" and speed["synthesis"] == "speed"
    assert [speed["Mbps"], speed["kGE"], speed["Kbps/GE"]] == ["2,560", "16.00", "160.00"]
    assert table.rows_where("cipher", "tdea")[-1]["key"] == "128/192"


def test_targets_table_says_whether_the_reference_flow_target_is_met() -> None:
    rows = {r["cipher"]: r for r in sugawara.targets_table(_results()).records()}
    camellia = rows["camellia"]
    assert camellia["target Kbps/GE"] == "90.00" and camellia["ours Kbps/GE"] == "160.00"
    assert camellia["met"] == "yes"
    assert rows["tdea"]["met"] == "yes"          # 120 >= 103
    # 64 x 200 / 17 = 752.9 Mbps / 31,000 GE = 24.3 Kbps/GE >= 22
    assert rows["cast128"]["met"] == "yes"
    # no result: nothing claimed
    assert rows["seed"]["our best loop core (speed)"] == "-" and rows["seed"]["met"] == "-"


def test_report_has_the_section_and_fig11(tmp_path: Path) -> None:
    paths = write_report(_results(), tmp_path)
    names = {p.name for p in paths}
    assert {"sugawara_fig11.png", "sugawara_fig11.svg"} <= names
    text = (tmp_path / "report.md").read_text()
    assert sugawara.CIPHERS and "Sugawara et al. Table 1" in text
    assert "![Sugawara Fig. 11: throughput vs gates](sugawara_fig11.png)" in text
    html = (tmp_path / "report.html").read_text()
    assert "Sugawara et al. Fig. 11" in html


def test_report_without_iso_ciphers_has_no_sugawara_section(tmp_path: Path) -> None:
    write_report([_result("aes-128/pipelined", "speed", 128, 300_000.0, 900.0, 1)], tmp_path)
    assert "Sugawara" not in (tmp_path / "report.md").read_text()
    assert not (tmp_path / "sugawara_fig11.png").exists()


OSU018 = "osu018_stdcells"  # 0.18 um, the seed's node


def _at(library: str, design: str, goal: str, ge: float, mhz: float, cycles: int) -> Result:
    row = _result(design, goal, 128, ge, mhz, cycles)
    row.target = f"asic:{library}:{goal}"
    row.settings = {"goal": goal, "liberty_name": library}
    return row


def _camellia_at_two_nodes() -> list[Result]:
    return [
        # 128 x 150 MHz / 23 = 834.8 Mbps on 20,000 GE; 128 x 90 / 23 = 500.9 on 14,000
        _at(OSU018, "camellia-128/iterative", "speed", 20_000.0, 150.0, 23),
        _at(OSU018, "camellia-128/iterative", "area", 14_000.0, 90.0, 23),
        _at("NangateOpenCellLibrary", "camellia-128/iterative", "speed", 16_000.0, 500.0, 23),
    ]


def test_table1_at_0_18_um_sets_ours_beside_the_published() -> None:
    comparison = sugawara.node_table(_camellia_at_two_nodes())
    assert comparison is not None
    table = comparison.table
    rows = table.records()
    fastest, smallest, last = rows
    assert fastest["library (node)"] == "osu018_stdcells (0.18 um)"  # NanGate45: not beside it
    assert fastest["row"] == "fastest" and smallest["row"] == "smallest"
    # the seed's fastest Camellia row: 188.3 MHz, 1,048.1 Mbps, 21.5 K gates, 48.7 Kbps/gate
    assert fastest["Clock (MHz): published"] == "188.30"
    assert fastest["Clock (MHz): ours/published"] == "0.797"  # 150 / 188.3
    assert fastest["Throughput (Mbps): ours/published"] == "0.796"  # 834.8 / 1,048.1
    assert fastest["Area (K gates): ours/published"] == "0.93"  # 20 / 21.5
    assert fastest["Efficiency (Kbps/gate): ours/published"] == "0.857"  # 41.74 / 48.7
    assert fastest["cycles ours / published"] == "23 / 23"
    # its smallest: 9.1 K gates at 101.9 MHz
    assert smallest["Area (K gates): ours/published"] == "1.54"  # 14 / 9.1
    assert smallest["Clock (MHz): ours/published"] == "0.883"  # 90 / 101.9
    assert last["cipher"] == "Median ratio (min-max, n)"
    assert last["Area (K gates): ours/published"] == "1.23 (0.93-1.54, n=2)"
    assert comparison.ratios["Throughput (Mbps)"] == pytest.approx(
        [128 * 150 / 23 / 1048.1, 128 * 90 / 23 / 567.3])


def test_table1_labels_our_rows_with_their_node_and_keeps_nanogate_targets() -> None:
    results = _camellia_at_two_nodes()
    sources = [r["source"] for r in sugawara.table1(results).rows_where("cipher", "camellia")][3:]
    assert sorted(sources) == ["cipherbench, NangateOpenCellLibrary (45 nm)",
                               "cipherbench, osu018_stdcells (0.18 um)",
                               "cipherbench, osu018_stdcells (0.18 um)"]
    # the reference-flow targets are NanGate45 figures: the osu018 rows are not judged by them
    camellia = sugawara.targets_table(results[:2]).row_where("cipher", "camellia")
    assert camellia["our best loop core (speed)"] == "-" and camellia["met"] == "-"
    camellia = sugawara.targets_table(results).row_where("cipher", "camellia")
    assert camellia["met"] == "yes"  # 128 x 500 / 23 / 16,000 GE = 173.9 >= 90
    assert sugawara.node_table(results[2:]) is None  # nothing at 0.18 um
    titles = [t.title for t in sugawara.tables(results)]
    assert titles[1].startswith("Sugawara et al. Table 1 at its node (0.18 um)")
