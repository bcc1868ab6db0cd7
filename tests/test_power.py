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


def _reference_rates(text: str, start: int) -> dict[tuple[str, int], tuple[int, int]]:
    """Per (id, bit): toggles from ``start`` and time at 1, one change at a time."""
    value: dict[str, int] = {}
    toggles: dict[tuple[str, int], int] = {}
    high: dict[tuple[str, int], int] = {}
    since: dict[tuple[str, int], int] = {}
    time = 0
    for line in text.split("$enddefinitions $end")[1].splitlines():
        if line.startswith("#"):
            time = int(line[1:])
            continue
        if line.startswith("b"):
            bits, code = line[1:].split()
            new = int(bits, 2)
        elif line[:1] in ("0", "1"):
            code, new = line[1:], int(line[0])
        else:
            continue
        old = value.get(code, 0)
        for bit in range(64):
            if (old ^ new) >> bit & 1:
                key, now = (code, bit), max(time, start)
                if time >= start:
                    toggles[key] = toggles.get(key, 0) + 1
                if old >> bit & 1:
                    high[key] = high.get(key, 0) + now - since.get(key, start)
                since[key] = now
        value[code] = new
    for code, v in value.items():
        for bit in range(64):
            if v >> bit & 1:
                key = (code, bit)
                high[key] = high.get(key, 0) + time - since.get(key, start)
    return {key: (toggles.get(key, 0), high.get(key, 0)) for key in set(toggles) | set(high)}


def test_toggle_rates_match_a_change_by_change_count(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Random VCD of 300 one-bit and three vector variables, read in chunks of a few hundred
    bytes (so changes of one variable fall in different chunks), against the plain count."""
    import random

    from cipherbench.verify import activity as activity_module

    rng = random.Random(7)
    codes = [chr(33 + i % 94) + (chr(33 + i // 94) if i >= 94 else "") for i in range(300)]
    vectors = {"v~": 5, "w~": 12, "x~": 3}
    head = ["$scope module tb_top $end", "$scope module core $end"]
    head += [f"$var wire 1 {c} n{i} $end" for i, c in enumerate(codes)]
    head += [f"$var wire {w} {c} bus{c[0]} [{w - 1}:0] $end" for c, w in vectors.items()]
    body = ["#0", *(f"{rng.randint(0, 1)}{c}" for c in codes),
            *(f"b{rng.getrandbits(w):0{w}b} {c}" for c, w in vectors.items())]
    for t in range(1, 400):
        body.append(f"#{t}")
        body += [f"{rng.randint(0, 1)}{c}" for c in rng.sample(codes, rng.randint(0, 40))]
        body += [f"b{rng.getrandbits(w):0{w}b} {c}" for c, w in vectors.items() if rng.random() < .3]
    text = "\n".join([*head, "$upscope $end", "$upscope $end", "$enddefinitions $end", *body])
    path = tmp_path / "r.vcd"
    path.write_text(text + "\n")
    monkeypatch.setattr(activity_module, "_CHUNK_BYTES", 333)
    activity = toggle_rates(path, start_cycle=20)
    span = 399 - 40
    expected = _reference_rates(text, 40)
    for i, c in enumerate(codes):
        toggles, high = expected.get((c, 0), (0, 0))
        assert activity.rates[(f"n{i}", 0)] == pytest.approx((toggles * 2 / span, high / span))
    for c, w in vectors.items():
        for bit in range(w):
            toggles, high = expected.get((c, bit), (0, 0))
            assert activity.rates[(f"bus{c[0]}", bit)] == pytest.approx(
                (toggles * 2 / span, high / span))


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
