"""Power from switching activity (issue 7): the activity counter on a VCD typed here, and the
whole path (gate-level simulation of the ASIC netlist, per-pin annotation, OpenSTA) on a DES core."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cipherbench.verify.activity import toggle_rates, workload_ops
from cipherbench.spec import parse
from cipherbench.verify.sim import BlockOp, IdleOp, KeyOp

VCD = """$timescale 1ps $end
$scope module TOP $end
$var wire 1 ! clk $end
$scope module core $end
$var wire 1 ! clk $end
$var wire 2 " n0 [1:0] $end
$var wire 1 # n1 $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
0!
b00 "
0#
#2
1!
b01 "
1#
#3
0!
#4
1!
b11 "
#5
0!
#6
1!
b10 "
0#
#7
0!
#8
1!
"""


def test_toggle_rates_per_bit(tmp_path: Path) -> None:
    """Over clocks 1..4 (VCD time 2..8): n0[0] rises at 2 and falls at 6 (2 toggles in 3 clocks),
    n0[1] rises at 4; n1 is high from 2 to 6."""
    path = tmp_path / "t.vcd"
    path.write_text(VCD)
    activity = toggle_rates(path, start_cycle=1)
    assert activity.cycles == 3
    rates = activity.rates
    assert rates[("n0", 0)] == pytest.approx((2 / 3, 4 / 6))
    assert rates[("n0", 1)] == pytest.approx((1 / 3, 4 / 6))
    assert rates[("n1", 0)] == pytest.approx((2 / 3, 4 / 6))
    assert ("clk", 0) in rates  # the design's own clock port (the caller leaves it out)


def test_half_workload_offers_a_block_every_two_intervals() -> None:
    ops = workload_ops(parse("aes-128/iterative"), "half", interval=10, blocks=3)
    assert isinstance(ops[0], KeyOp) and len(ops[0].key) == 16
    assert [type(op) for op in ops[1:]] == [BlockOp, IdleOp] * 3
    assert all(op.cycles == 19 for op in ops[2::2])
    stream = workload_ops(parse("des-64/iterative:ops=decrypt"), "stream", interval=16, blocks=4)
    assert all(isinstance(op, BlockOp) and op.decrypt for op in stream[1:])


def _area_end_power(design: str, work: Path, **settings: str) -> tuple[dict, dict]:
    """(flow measurements, power figures) of ``design``'s area-end ASIC netlist."""
    from cipherbench.cache import ensure_design
    from cipherbench.flows.asic import AsicFlow
    from cipherbench.power import measure_power

    liberty = os.environ.get("CIPHERBENCH_LIBERTY")
    if not liberty:
        pytest.skip("no Liberty configured (CIPHERBENCH_LIBERTY)")
    spec = parse(design)
    folder = ensure_design(spec)
    result = AsicFlow().run(folder, work / "asic", {"liberty": liberty, "goal": "area",
                                                    **settings})
    return result.measurements, measure_power(spec, folder, result, work / "asic")


def test_power_of_a_latch_core(tmp_path: Path) -> None:
    """Latch pairs (asic sequential=latch): the simulated activity's mean set on every net (the
    only way OpenSTA 2.0.17 finishes on latch loops), labelled as such."""
    measurements, power = _area_end_power("des-64/iterative:ops=encrypt", tmp_path,
                                          sequential="latch")
    assert measurements["latches"] > 300
    assert (power["power_activity_method"], power["power_vectorless_method"]) == (
        "uniform mean", "global")
    assert power["power_uniform_mw"] == power["power_mw"]
    assert power["power_annotated_pins"] > 1000
    assert 0 < power["power_half_mw"] < power["power_mw"]
    assert 0 < power["power_common_clock_mw"] < power["power_mw"]
    assert 0.2 < power["power_mw"] / power["power_vectorless_mw"] < 5


def test_power_of_a_des_core_from_its_activity(tmp_path: Path) -> None:
    measurements, power = _area_end_power("des-64/iterative:ops=encrypt", tmp_path)
    assert power["power_clock_mhz"] == measurements["fmax_mhz"]
    # Every net's pins annotated; busy half the time costs less, at 100 MHz less again.
    assert power["power_annotated_pins"] > 1000
    assert 0 < power["power_half_mw"] < power["power_mw"]
    assert 0 < power["power_common_clock_mw"] < power["power_mw"]
    parts = power["power_internal_mw"] + power["power_switching_mw"] + power["power_leakage_mw"]
    assert parts == pytest.approx(power["power_mw"], rel=1e-3)
    assert power["power_activity_method"] == "per pin"
    # The same activity's mean on every net (the method latch cores need): same magnitude.
    assert 0.2 < power["power_uniform_mw"] / power["power_mw"] < 5
    # Same order of magnitude as OpenSTA's vectorless estimate.
    assert 0.2 < power["power_mw"] / power["power_vectorless_mw"] < 5


def test_power_of_a_core_inside_its_simulation_wrapper(tmp_path: Path) -> None:
    """keys=loaded: the netlist is simulated inside the wrapper that writes its round keys; the
    activity is read from the core's scope, one level down, and annotates its pins."""
    _, power = _area_end_power("des-64/iterative:keys=loaded,ops=encrypt", tmp_path)
    assert power["power_annotated_pins"] > 1000
    assert 0 < power["power_half_mw"] < power["power_mw"]
    assert 0.2 < power["power_mw"] / power["power_vectorless_mw"] < 5
