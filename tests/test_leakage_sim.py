"""The leakage simulator (issue 31): a small SPN round synthesized by Yosys, simulated at gate
level, against its Python model; the power sample against Hamming distances computed here from
the recorded nets; the numpy and native back ends bit for bit; the stimulus' errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.leakage import Netlist, Planes, TraceSimulator, Traces
from cipherbench.leakage.simulate import column_counts
from cipherbench.leakage.stimulus import pack, unpack
from leakage_gadgets import SPN, gate_netlist, spn_model

BACKENDS = ("numpy", "native")
CLOCKS = 10


@pytest.fixture(scope="module")
def spn(tmp_path_factory: pytest.TempPathFactory) -> Netlist:
    return gate_netlist(tmp_path_factory.mktemp("spn"), "spn", SPN)


def spn_stimulus(count: int, seed: int) -> tuple[list[dict], np.ndarray, np.ndarray]:
    """Reset at clock 0, load at 1, then rounds under a fresh 72-bit key each clock (as bytes),
    enable dropped at clock 6. Returns the stimulus, the loaded blocks and the keys."""
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, 1 << 32, count, dtype=np.uint64)
    keys = rng.integers(0, 256, (CLOCKS, count, 9), dtype=np.uint8)
    stimulus: list[dict] = [{"rst": 1}, {"rst": 0, "load": 1, "din": blocks, "key": keys[1]}]
    for clock in range(2, CLOCKS):
        stimulus.append({"load": 0, "en": int(clock != 6), "key": keys[clock]})
    return stimulus, blocks, keys


def expected_states(blocks: np.ndarray, keys: np.ndarray) -> list[list[int]]:
    """dout at each clock, per trace, from the model."""
    rows = []
    for t, block in enumerate(blocks):
        state, row = 0, [0, 0]
        state = int(block)                   # loaded at the edge after clock 1
        for clock in range(2, CLOCKS):
            row.append(state)
            key = int.from_bytes(keys[clock][t].tobytes(), "little")
            if clock != 6:
                state = spn_model(state, key)
        rows.append(row)
    return rows


@pytest.mark.parametrize("backend", BACKENDS)
def test_gate_level_spn_matches_its_model(spn: Netlist, backend: str) -> None:
    stimulus, blocks, keys = spn_stimulus(300, seed=1)
    dout = spn.outputs["dout"]
    traces = TraceSimulator(spn, backend=backend).run(300, CLOCKS, stimulus, dout, range(CLOCKS))
    weights = 1 << np.arange(32, dtype=np.uint64)
    got = np.stack([(traces.bits(c).astype(np.uint64) * weights[:, None]).sum(axis=0)
                    for c in range(CLOCKS)], axis=1)
    assert got.tolist() == expected_states(blocks, keys)


@pytest.mark.parametrize("structure", ["modules", "restructure"])
def test_every_synthesis_structure_keeps_the_function(tmp_path: Path, structure: str) -> None:
    netlist = gate_netlist(tmp_path, "spn", SPN, structure=structure)
    stimulus, blocks, keys = spn_stimulus(64, seed=2)
    traces = TraceSimulator(netlist, backend="numpy").run(64, CLOCKS, stimulus,
                                                     netlist.outputs["dout"], [CLOCKS - 1])
    got = (traces.bits(CLOCKS - 1).astype(np.uint64)
           * (1 << np.arange(32, dtype=np.uint64))[:, None]).sum(axis=0)
    assert got.tolist() == [row[-1] for row in expected_states(blocks, keys)]


def hamming_distances(traces: Traces, weights: list[int]) -> np.ndarray:
    """Per trace and clock, the weighted count of recorded nets that changed (all 0 before 0)."""
    values = np.stack([traces.bits(c) for c in range(traces.clocks)])  # (clocks, nets, traces)
    previous = np.concatenate([np.zeros_like(values[:1]), values[:-1]])
    toggled = (values != previous).astype(np.int64)
    return np.einsum("cnt,n->tc", toggled, np.array(weights))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("weights", ["unit", "fanout"])
def test_power_sample_is_the_hamming_distance_of_the_nets(spn: Netlist, backend: str,
                                                          weights: str) -> None:
    stimulus, _, _ = spn_stimulus(200, seed=3)
    simulator = TraceSimulator(spn, weights=weights, backend=backend)
    traces = simulator.run(200, CLOCKS, stimulus, simulator.power_nets, range(CLOCKS))
    expected = hamming_distances(traces, simulator.weights)
    assert traces.power.tolist() == expected.tolist()
    assert traces.power.max() > 50  # the round switches about half its nets
    if weights == "fanout":
        assert max(simulator.weights) > 1


def test_power_of_chosen_nets_only(spn: Netlist) -> None:
    """Only the dout nets: their Hamming distance, 32 bits at most."""
    stimulus, blocks, keys = spn_stimulus(100, seed=4)
    dout = spn.outputs["dout"]
    traces = TraceSimulator(spn, power_nets=dout, backend="numpy").run(100, CLOCKS, stimulus)
    states = np.array(expected_states(blocks, keys), dtype=np.uint64)
    previous = np.concatenate([np.zeros((100, 1), dtype=np.uint64), states[:, :-1]], axis=1)
    assert traces.power.tolist() == np.bitwise_count(states ^ previous).tolist()


def test_native_and_numpy_agree_bit_for_bit(spn: Netlist) -> None:
    """1000 traces (not a multiple of 64 or 512), two threads, fanout weights."""
    stimulus, _, _ = spn_stimulus(1000, seed=5)
    nets = spn.design_nets()[::7]
    runs = [TraceSimulator(spn, weights="fanout", backend=backend).run(
        1000, CLOCKS, stimulus, nets, [0, 3, 9], threads=threads)
        for backend, threads in (("numpy", 1), ("native", 2))]
    assert np.array_equal(runs[0].power, runs[1].power)
    for clock in (0, 3, 9):
        assert np.array_equal(runs[0].bits(clock), runs[1].bits(clock))


def test_column_counts_count_each_traces_set_bits() -> None:
    rng = np.random.default_rng(6)
    bits = rng.integers(0, 2, (1001, 300), dtype=np.uint8)
    assert column_counts(pack(bits, 5), 300).tolist() == bits.sum(axis=0).tolist()


def test_planes_and_per_trace_values_drive_a_port_alike(spn: Netlist) -> None:
    rng = np.random.default_rng(7)
    blocks = rng.integers(0, 1 << 32, 100, dtype=np.uint64)
    bits = ((blocks[None, :] >> np.arange(32, dtype=np.uint64)[:, None]) & 1).astype(np.uint8)
    as_planes = Planes(pack(bits, 2))
    assert np.array_equal(as_planes.values(100), bits)
    runs = [TraceSimulator(spn, backend="numpy").run(100, 3, [{"rst": 1}, {"rst": 0, "load": 1,
                                                                      "din": value}, {}])
            for value in (blocks, as_planes)]
    assert np.array_equal(runs[0].power, runs[1].power)
    assert np.array_equal(unpack(pack(bits, 2), 100), bits)


@pytest.mark.parametrize("given, message", [
    ({"nope": 1}, "stimulus port nope is not an input port of spn"),
    ({"clk": 1}, "stimulus port clk is the clock, which the simulator drives"),
    ({"rst": 2}, "value 0x2 does not fit input rst (1 bits)"),
    ({"din": np.zeros(5, dtype=np.uint64)}, "input din: a value must be an int"),
    ({"key": np.zeros(10, dtype=np.uint64)}, "input key is 72 bits: give it as a (traces, bytes)"),
])
def test_a_wrong_stimulus_is_a_one_line_error(spn: Netlist, given: dict, message: str) -> None:
    with pytest.raises(CipherbenchError) as info:
        TraceSimulator(spn, backend="numpy").run(10, 1, [given])
    assert message in str(info.value) and "\n" not in str(info.value)


def test_without_a_compiler_auto_takes_numpy_and_native_says_what_to_install(
        spn: Netlist, monkeypatch: pytest.MonkeyPatch) -> None:
    from cipherbench.errors import ToolMissing
    from cipherbench.leakage.native import compile_netlist

    monkeypatch.setenv("CXX", "no-such-compiler-here")
    assert TraceSimulator(spn).backend == "numpy"
    with pytest.raises(ToolMissing, match="no-such-compiler-here not found: apt-get install g"):
        compile_netlist(spn)


def test_synthesized_netlists_are_cached_by_their_inputs(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from cipherbench.leakage import synthesize_netlist
    from leakage_gadgets import write_design

    monkeypatch.setenv("CIPHERBENCH_CACHE", str(tmp_path / "cache"))
    design = write_design(tmp_path / "spn", "spn", SPN)
    first = synthesize_netlist(design)
    made = first.stat().st_mtime_ns
    assert synthesize_netlist(design) == first and first.stat().st_mtime_ns == made
    assert synthesize_netlist(design, "modules") != first
    (design / "core.v").write_text(SPN.replace("32'd0", "32'd1"))
    assert synthesize_netlist(design) != first
    with pytest.raises(CipherbenchError, match="netlist structure 'flat' must be one of keep"):
        synthesize_netlist(design, "flat")
