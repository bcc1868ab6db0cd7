"""metrics.py against hand-computed values."""

from __future__ import annotations

import pytest

from cipherbench import metrics
from cipherbench.errors import CipherbenchError
from cipherbench.report.nsa import published


def _cycles(latency: int, ii: int, chained: int, ks_enc: int = 0, ks_dec: int = 10,
            latency_decrypt: int | None = None) -> dict[str, int]:
    counts = {"latency": latency, "initiation_interval": ii, "cycles_per_chained_block": chained,
              "key_setup_encrypt": ks_enc, "key_setup_decrypt": ks_dec, "algorithm_setup": 0}
    if latency_decrypt is not None:
        counts["latency_decrypt"] = latency_decrypt
    return counts


def test_aes128_iterative_asic_hand_computed() -> None:
    # 128 bits x 280 MHz / 10 cycles = 3584 Mbps; 3,584,000 Kbps / 24,100 GE = 148.71 Kbps/GE;
    # 10 cycles / 280 MHz = 35.714 ns.
    out = metrics.derive({
        "block_bits": 128,
        "io_count": 399,
        "cycles": {"128": _cycles(10, 10, 10, latency_decrypt=10)},
        "measurements": {"fmax_mhz": 280.0, "gate_equivalents": 24_100, "area_um2": 19_231.8},
    })
    k128 = out["by_key_size"]["128"]
    assert k128["throughput_mbps"] == pytest.approx(3584.0)
    assert k128["throughput_feedback_mbps"] == pytest.approx(3584.0)
    assert k128["kbps_per_ge"] == pytest.approx(148.71, abs=0.005)
    assert k128["time_to_encrypt_ns"] == pytest.approx(35.714, abs=5e-4)
    assert k128["time_to_decrypt_ns"] == pytest.approx(35.714, abs=5e-4)
    assert k128["key_setup_encrypt_ns"] == 0.0
    assert k128["key_setup_decrypt_ns"] == pytest.approx(35.714, abs=5e-4)
    assert k128["algorithm_setup_ns"] == 0.0
    assert k128["bits_per_cycle"] == pytest.approx(12.8)
    assert k128["mbps_per_lut"] is None  # an ASIC has no LUTs
    assert out["io_count"] == 399
    assert out["clock_period_ns"] == pytest.approx(3.5714, abs=1e-4)
    assert out["area_um2"] == pytest.approx(19_231.8)


def test_pipelined_feedback_differs_from_non_feedback() -> None:
    # Outer-pipelined, 10 stages at 500 MHz: a block per clock = 128 x 500 = 64,000 Mbps, but a
    # chained block waits for the previous one: 128 x 500 / 10 = 6,400 Mbps. Latency 10 -> 20 ns.
    out = metrics.derive({"block_bits": 128, "cycles": {128: _cycles(10, 1, 10)},
                          "measurements": {"fmax_mhz": 500.0}})
    k128 = out["by_key_size"]["128"]
    assert k128["throughput_mbps"] == pytest.approx(64_000.0)
    assert k128["throughput_feedback_mbps"] == pytest.approx(6_400.0)
    assert k128["time_to_encrypt_ns"] == pytest.approx(20.0)
    assert k128["time_to_decrypt_ns"] is None  # not measured: never assumed equal to encryption


def test_fpga_mbps_per_lut() -> None:
    # 128 x 100 MHz / 11 cycles = 1163.64 Mbps over 2000 LUTs = 0.58182 Mbps/LUT.
    out = metrics.derive({"block_bits": 128, "cycles": {"128": _cycles(11, 11, 11)},
                          "measurements": {"fmax_mhz": 100.0, "luts": 2000, "ffs": 400}})
    k128 = out["by_key_size"]["128"]
    assert k128["throughput_mbps"] == pytest.approx(1163.636, abs=1e-3)
    assert k128["mbps_per_lut"] == pytest.approx(0.58182, abs=1e-5)
    assert k128["kbps_per_ge"] is None
    assert out["luts"] == 2000


def test_three_key_sizes_sorted_numerically() -> None:
    # AES 3-in-1 iterative at 100 MHz: 10/12/14 rounds -> 100/120/140 ns; 1280/1066.67/914.29 Mbps.
    cycles = {"256": _cycles(14, 14, 14), "128": _cycles(10, 10, 10), 192: _cycles(12, 12, 12)}
    out = metrics.derive({"block_bits": 128, "cycles": cycles, "fmax_mhz": 100.0})
    assert list(out["by_key_size"]) == ["128", "192", "256"]
    times = [v["time_to_encrypt_ns"] for v in out["by_key_size"].values()]
    assert times == pytest.approx([100.0, 120.0, 140.0])
    rates = [v["throughput_mbps"] for v in out["by_key_size"].values()]
    assert rates == pytest.approx([1280.0, 1066.667, 914.286], abs=1e-3)


def test_fmax_from_critical_path_and_ge_from_nand2() -> None:
    # 2.5 ns critical path -> 400 MHz; 1064 um2 / 0.798 um2 (NAND2_X1) = 1333.33 GE.
    out = metrics.derive({"block_bits": 64, "cycles": {"128": _cycles(16, 16, 16)},
                          "measurements": {"critical_path_ns": 2.5, "area_um2": 1064.0,
                                           "nand2_area_um2": 0.798}})
    assert out["fmax_mhz"] == pytest.approx(400.0)
    assert out["gate_equivalents"] == pytest.approx(1333.33, abs=0.01)
    k128 = out["by_key_size"]["128"]
    assert k128["throughput_mbps"] == pytest.approx(64 * 400 / 16)  # 1600 Mbps
    assert k128["kbps_per_ge"] == pytest.approx(1_600_000 / 1333.333, abs=0.01)


def test_generic_flow_without_clock() -> None:
    # The generic flow has gates but no clock: only clock-free figures exist.
    out = metrics.derive({"block_bits": 128, "cycles": {"128": _cycles(10, 10, 10)},
                          "measurements": {"transistors": 412_000, "cells": 9_800,
                                           "logic_depth": 31}})
    k128 = out["by_key_size"]["128"]
    assert out["fmax_mhz"] is None and out["transistors"] == 412_000
    assert k128["bits_per_cycle"] == pytest.approx(12.8)
    assert k128["throughput_mbps"] is None and k128["time_to_encrypt_ns"] is None


def test_energy_per_bit() -> None:
    # 10 mW at 100 MHz, 128 bits every 10 cycles = 1280 Mbps -> 10e-3 / 1.28e9 J = 7.8125 pJ/bit.
    out = metrics.derive({"block_bits": 128, "cycles": {"128": _cycles(10, 10, 10)},
                          "measurements": {"fmax_mhz": 200.0, "power_mw": 10.0,
                                           "power_clock_mhz": 100.0}})
    assert out["by_key_size"]["128"]["energy_per_bit_pj"] == pytest.approx(7.8125)


def test_formulas_reproduce_nsa_table_6() -> None:
    # NSA Table 6, iterative: one block per 10 round cycles, so throughput = 128 bits / time.
    # Min./Max. are per-row extremes: the shortest time goes with the highest throughput.
    lo, hi = (next(c for c in published.TABLE_6 if c.architecture == "iterative" and c.bound == b)
              for b in ("min", "max"))
    pairs = ((lo.time_to_encrypt_ns[128], hi.throughput_mbps[128]),
             (hi.time_to_encrypt_ns[128], lo.throughput_mbps[128]))
    for time_ns, rate in pairs:
        clock = metrics.fmax_from_period(time_ns / 10)
        assert metrics.throughput_mbps(128, clock, 10) == pytest.approx(rate, abs=0.01)
        assert metrics.cycles_to_ns(10, clock) == pytest.approx(time_ns)


def test_empty_cycles_give_no_key_sizes() -> None:
    out = metrics.derive({"block_bits": 128, "measurements": {"fmax_mhz": 100.0}})
    assert out["by_key_size"] == {}


@pytest.mark.parametrize(
    "record",
    [
        {"block_bits": 0, "cycles": {}},
        {"block_bits": True, "cycles": {}},
        {"block_bits": 128, "cycles": {"128": {"initiation_interval": 0}}},
        {"block_bits": 128, "cycles": {"128": {"initiation_interval": -1}}},
        {"block_bits": 128, "cycles": {"128": {"latency": "10"}}},
        {"block_bits": 128, "cycles": {"abc": {"latency": 10}}},
        {"block_bits": 128, "cycles": {}, "measurements": {"fmax_mhz": 0.0}},
        {"block_bits": 128, "cycles": {}, "measurements": {"fmax_mhz": float("nan")}},
        {"block_bits": 128, "cycles": {}, "measurements": {"gate_equivalents": 0}},
    ],
)
def test_bad_input_is_one_line_error(record: dict) -> None:
    with pytest.raises(CipherbenchError) as info:
        metrics.derive(record)
    assert "\n" not in str(info.value)
