"""The leakage netlist reader (issue 31): every Yosys gate and flip-flop type simulated against
its definition in Yosys' simcells.v, on netlists typed here as Yosys JSON; the one-line errors
for what the simulator cannot follow; scopes for probing one instance."""

from __future__ import annotations

import json
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.leakage import TraceSimulator, read_netlist
from leakage_gadgets import TWO_ANDS_FRESH, gate_netlist

BACKENDS = ("numpy", "native")

# Yosys' simcells.v, one line each: the specification the simulator must meet.
GATES = {
    "$_BUF_": lambda a: a, "$_NOT_": lambda a: 1 - a,
    "$_AND_": lambda a, b: a & b, "$_NAND_": lambda a, b: 1 - (a & b),
    "$_OR_": lambda a, b: a | b, "$_NOR_": lambda a, b: 1 - (a | b),
    "$_XOR_": lambda a, b: a ^ b, "$_XNOR_": lambda a, b: 1 - (a ^ b),
    "$_ANDNOT_": lambda a, b: a & (1 - b), "$_ORNOT_": lambda a, b: a | (1 - b),
    "$_MUX_": lambda a, b, s: b if s else a, "$_NMUX_": lambda a, b, s: 1 - (b if s else a),
    "$_AOI3_": lambda a, b, c: 1 - ((a & b) | c), "$_OAI3_": lambda a, b, c: 1 - ((a | b) & c),
    "$_AOI4_": lambda a, b, c, d: 1 - ((a & b) | (c & d)),
    "$_OAI4_": lambda a, b, c, d: 1 - ((a | b) & (c | d)),
}
PINS = "ABCD"


def module(ports: dict[str, tuple[str, list[Any]]], cells: dict[str, tuple[str, dict[str, list[Any]]]],
           netnames: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Yosys JSON of one top module."""
    body = {
        "attributes": {"top": "00000000000000000000000000000001"},
        "ports": {name: {"direction": d, "bits": bits} for name, (d, bits) in ports.items()},
        "cells": {name: {"hide_name": 0, "type": kind, "parameters": {}, "attributes": {},
                         "port_directions": {}, "connections": conn}
                  for name, (kind, conn) in cells.items()},
        "netnames": {name: {"hide_name": 0, "bits": bits, "attributes": {}}
                     for name, (_, bits) in ports.items()},
    }
    body["netnames"].update(netnames or {})
    return {"modules": {"top": body}}


def write(tmp_path: Path, data: dict[str, Any], name: str = "n.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def every_gate() -> dict[str, Any]:
    """Inputs a, b, c, d (nets 2-5) and one cell of each type, output port y_<type>."""
    ports: dict[str, tuple[str, list[Any]]] = {p: ("input", [2 + i]) for i, p in enumerate("abcd")}
    cells = {}
    for i, (kind, function) in enumerate(GATES.items()):
        pins = function.__code__.co_argcount
        conn = {PINS[p] if kind not in ("$_MUX_", "$_NMUX_") or p < 2 else "S": [2 + p]
                for p in range(pins)}
        conn["Y"] = [10 + i]
        cells[f"g{i}"] = (kind, conn)
        ports[f"y{kind.strip('$_')}"] = ("output", [10 + i])
    return module(ports, cells)


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_gate_type_computes_its_simcells_function(tmp_path: Path, backend: str) -> None:
    netlist = read_netlist(write(tmp_path, every_gate()))
    combos = list(product((0, 1), repeat=4))  # trace t: (a, b, c, d) = combos[t]
    stimulus = [{p: np.array([c[i] for c in combos]) for i, p in enumerate("abcd")}]
    outputs = [netlist.outputs[f"y{k.strip('$_')}"][0] for k in GATES]
    traces = TraceSimulator(netlist, backend=backend).run(16, 1, stimulus, outputs, [0])
    got = traces.bits(0)
    for row, (kind, function) in enumerate(GATES.items()):
        pins = function.__code__.co_argcount
        expected = [function(*c[:pins]) for c in combos]
        assert got[row].tolist() == expected, kind


# Flip-flops: (type, pins besides C/D/Q) and the model: (state, d, e, r) -> (Q now, next state)
FLOPS = {
    "$_DFF_P_": ("", lambda s, d, e, r: (s, d)),
    "$_DFFE_PP_": ("E", lambda s, d, e, r: (s, d if e else s)),
    "$_DFFE_PN_": ("E", lambda s, d, e, r: (s, s if e else d)),
    "$_SDFF_PP1_": ("R", lambda s, d, e, r: (s, 1 if r else d)),
    "$_SDFF_PN0_": ("R", lambda s, d, e, r: (s, d if r else 0)),
    "$_SDFFE_PP0P_": ("ER", lambda s, d, e, r: (s, 0 if r else (d if e else s))),
    "$_SDFFCE_PP0P_": ("ER", lambda s, d, e, r: (s, (0 if r else d) if e else s)),
    "$_DFF_PN0_": ("R", lambda s, d, e, r: (s if r else 0, d if r else 0)),
    "$_DFF_PP1_": ("R", lambda s, d, e, r: (1 if r else s, 1 if r else d)),
    "$_DFFE_PP0P_": ("ER", lambda s, d, e, r: (0 if r else s, 0 if r else (d if e else s))),
    "$_DFF_N_": ("", lambda s, d, e, r: (s, d)),
}


def every_flop(kinds: list[str], init_first: str) -> dict[str, Any]:
    ports: dict[str, tuple[str, list[Any]]] = {"clk": ("input", [2]), "d": ("input", [3]),
                                                "e": ("input", [4]), "r": ("input", [5])}
    cells = {}
    for i, kind in enumerate(kinds):
        conn = {"C": [2], "D": [3], "Q": [10 + i]}
        for pin in FLOPS[kind][0]:
            conn[pin] = [4 if pin == "E" else 5]
        cells[f"f{i}"] = (kind, conn)
        ports[f"q{i}"] = ("output", [10 + i])
    netnames = {"q0": {"hide_name": 0, "bits": [10], "attributes": {"init": init_first}}}
    return module(ports, cells, netnames)


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_flip_flop_type_follows_its_simcells_behaviour(tmp_path: Path, backend: str) -> None:
    """Enables and synchronous resets act at the edge; an asynchronous reset forces Q at once
    and the state at the edge; the first register starts at its `init` value 1."""
    kinds = [k for k in FLOPS if k != "$_DFF_N_"]
    netlist = read_netlist(write(tmp_path, every_flop(kinds, "1")))
    clocks, count = 24, 64
    rng = np.random.default_rng(5)
    drive = {p: rng.integers(0, 2, (clocks, count)) for p in "der"}
    stimulus = [{p: drive[p][c] for p in "der"} for c in range(clocks)]
    outputs = [netlist.outputs[f"q{i}"][0] for i in range(len(kinds))]
    traces = TraceSimulator(netlist, backend=backend).run(count, clocks, stimulus, outputs,
                                                     range(clocks))
    for i, kind in enumerate(kinds):
        model = FLOPS[kind][1]
        state = np.full(count, 1 if i == 0 else 0)
        for clock in range(clocks):
            d, e, r = (drive[p][clock] for p in "der")
            now, nxt = zip(*(model(s, di, ei, ri) for s, di, ei, ri in zip(state, d, e, r)))
            assert traces.bits(clock)[i].tolist() == list(now), (kind, clock)
            state = np.array(nxt)


def test_registers_on_the_falling_edge_alone_are_one_clock(tmp_path: Path) -> None:
    netlist = read_netlist(write(tmp_path, every_flop(["$_DFF_N_"], "0")))
    assert netlist.clock == "clk" and len(netlist.registers) == 1


BROKEN: dict[str, tuple[Any, str]] = {
    "unknown cell": (module({"a": ("input", [2]), "y": ("output", [3])},
                            {"add": ("$add", {"A": [2], "B": [2], "Y": [3]})}),
                     "cell add has type $add, which the leakage simulator does not know; "
                     "synthesize to Yosys' gate cells first"),
    "latch": (module({"a": ("input", [2]), "e": ("input", [4]), "y": ("output", [3])},
                     {"l": ("$_DLATCH_P_", {"E": [4], "D": [2], "Q": [3]})}),
              "latches are not simulated"),
    "set and reset": (module({"clk": ("input", [2]), "a": ("input", [3]), "y": ("output", [4])},
                             {"f": ("$_DFFSR_PPP_", {"C": [2], "S": [3], "R": [3], "D": [3],
                                                     "Q": [4]})}),
                      "give each register at most one asynchronous reset"),
    "hierarchy": (module({"a": ("input", [2]), "y": ("output", [3])},
                         {"u": ("sub", {"a": [2], "y": [3]})}),
                  "instantiates module sub; flatten the design first"),
    "loop": (module({"a": ("input", [2]), "y": ("output", [3])},
                    {"g1": ("$_AND_", {"A": [2], "B": [4], "Y": [3]}),
                     "g2": ("$_NOT_", {"A": [3], "Y": [4]})}),
             "combinational loop through net"),
    "two drivers": (module({"a": ("input", [2]), "y": ("output", [3])},
                           {"g1": ("$_NOT_", {"A": [2], "Y": [3]}),
                            "g2": ("$_BUF_", {"A": [2], "Y": [3]})}),
                    "has two drivers"),
    "two clocks": (module({"c1": ("input", [2]), "c2": ("input", [3]), "d": ("input", [4]),
                           "y": ("output", [5, 6])},
                          {"f1": ("$_DFF_P_", {"C": [2], "D": [4], "Q": [5]}),
                           "f2": ("$_DFF_P_", {"C": [3], "D": [4], "Q": [6]})}),
                   "registers on several clocks"),
    "both edges": (module({"clk": ("input", [2]), "d": ("input", [4]), "y": ("output", [5, 6])},
                          {"f1": ("$_DFF_P_", {"C": [2], "D": [4], "Q": [5]}),
                           "f2": ("$_DFF_N_", {"C": [2], "D": [4], "Q": [6]})}),
                   "registers on both edges of clk"),
    "gated clock": (module({"clk": ("input", [2]), "en": ("input", [3]), "d": ("input", [4]),
                            "y": ("output", [5])},
                           {"g": ("$_AND_", {"A": [2], "B": [3], "Y": [7]}),
                            "f": ("$_DFF_P_", {"C": [7], "D": [4], "Q": [5]})}),
                    "not an input port (a gated or divided clock)"),
    "clock into logic": (module({"clk": ("input", [2]), "d": ("input", [4]),
                                 "y": ("output", [5, 7])},
                                {"g": ("$_AND_", {"A": [2], "B": [4], "Y": [7]}),
                                 "f": ("$_DFF_P_", {"C": [2], "D": [4], "Q": [5]})}),
                         "the clock clk also drives logic"),
    "inout": (module({"a": ("inout", [2])}, {}), "port a is inout"),
    "no modules": ({"creator": "Yosys"}, "has no modules; write it with Yosys' write_json"),
    "malformed cell": (module({"a": ("input", [2]), "y": ("output", [3])},
                              {"g": ("$_AND_", {"A": [2], "Y": [3]})}),
                       "is malformed Yosys JSON"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_what_the_simulator_cannot_follow_is_a_one_line_error(tmp_path: Path, case: str) -> None:
    data, message = BROKEN[case]
    with pytest.raises(CipherbenchError) as info:
        read_netlist(write(tmp_path, data))
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_a_file_that_is_not_json_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "n.json"
    path.write_text("module top; endmodule\n")
    with pytest.raises(CipherbenchError, match="is not Yosys JSON") as info:
        read_netlist(path)
    assert "\n" not in str(info.value)


def test_a_well_formed_netlist_reads_without_error(tmp_path: Path) -> None:
    """The broken cases above differ from this one by their flaw alone."""
    data = module({"clk": ("input", [2]), "d": ("input", [4]), "y": ("output", [5])},
                  {"g": ("$_NOT_", {"A": [4], "Y": [6]}),
                   "f": ("$_DFF_P_", {"C": [2], "D": [6], "Q": [5]})})
    netlist = read_netlist(write(tmp_path, data))
    assert (netlist.clock, list(netlist.inputs), len(netlist.gates)) == ("clk", ["d"], 1)


def test_scopes_select_an_instance_or_every_instance_of_a_module(tmp_path: Path) -> None:
    """Flattened after mapping (structure "modules"), every gate knows its instance."""
    netlist = gate_netlist(tmp_path, "and_xor", TWO_ANDS_FRESH, structure="modules")
    assert netlist.modules == {"mul_ab": "dom_and", "mul_cd": "dom_and"}
    ab = {netlist.names[n] for n in netlist.in_scope("mul_ab")}
    both = {netlist.names[n] for n in netlist.in_scope("dom_and")}
    assert {"mul_ab.inner0", "mul_ab.cross01", "a0", "b1", "r1"} <= ab
    assert not any(name.startswith("mul_cd.") or name in ("c0", "z0") for name in ab)
    assert {"mul_ab.cross10", "mul_cd.cross10", "c0", "d1", "r2"} <= both
    assert "z0" not in both
    # every gate of the instance, named or not: the 4 ANDs, 2 XORs before its registers and
    # the 2 XORs after them
    gates_ab = [g for g in netlist.gates if g.output in set(netlist.in_scope("mul_ab"))]
    assert len(gates_ab) == 8
