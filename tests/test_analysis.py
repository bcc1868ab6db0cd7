"""Gaj & Chodowiec's formulas and the enc/dec sharing table, on hand-made results."""

from __future__ import annotations

import pytest

from cipherbench.report.analysis import formula_table, predicted_mbps, sharing_table
from cipherbench.store import Result


def _result(design: str, target: str, **measurements: float) -> Result:
    cycles = {"128": {"latency": 10, "initiation_interval": 10}}
    throughput = measurements.pop("mbps", 0.0)
    return Result(cache_key=design + target, design=design, target=target,
                  measurements=dict(measurements), cycles=cycles,
                  metrics={"block_bits": 128, "by_key_size": {"128": {"throughput_mbps": throughput}}})


def test_formula_2_loop_unrolling() -> None:
    # Basic: period 2.0 ns of which 0.2 ns register overhead -> D = 1.8, tau = 1/9.
    basic = 128 / (10 * 2.0) * 1000
    unrolled = predicted_mbps(128, 10, 2.0, 0.2, (2, 1, 1))
    tau = 0.2 / 1.8
    assert unrolled / basic == pytest.approx((1 + tau) / (1 + tau / 2))
    # k = 3 does not divide 10: 4 cycles of 3 D + o.
    assert predicted_mbps(128, 10, 2.0, 0.2, (3, 1, 1)) == pytest.approx(128 / (4 * 5.6) * 1000)


def test_formula_3_pipelining() -> None:
    # Full outer pipeline (one unit per round) with 2 inner stages: period D/2 + o, 1 block/clock.
    assert predicted_mbps(128, 10, 2.0, 0.2, (1, -1, 2)) == pytest.approx(128 / 1.1 * 1000)
    # Inner pipelining alone, 2 stages: 2 blocks in flight over 10 rounds.
    assert predicted_mbps(128, 10, 2.0, 0.2, (1, 1, 2)) == pytest.approx(128 / (10 * 1.1) * 1000)


def test_tables_pair_designs_on_the_same_target() -> None:
    target = "asic:lib:speed"
    rows = [
        _result("aes-128/iterative", target, critical_path_ns=2.0, register_overhead_ns=0.2,
                mbps=6400.0, gate_equivalents=30000.0),
        _result("aes-128/iterative:ops=encrypt", target, gate_equivalents=24000.0, mbps=7000.0),
        _result("aes-128/iterative", "asic:lib:area", critical_path_ns=3.0,
                register_overhead_ns=0.2, mbps=4000.0),
    ]
    sharing = sharing_table(rows)
    assert len(sharing.rows) == 1
    (row,) = sharing.records()
    assert row["Target"] == target and row["Extra (%)"] == "25.00"
    assert formula_table(rows).rows == []  # no unrolled or pipelined design measured
