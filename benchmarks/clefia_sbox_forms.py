"""What CLEFIA's 8-bit S-boxes cost as 256-entry tables (what ciphers/clefia/hw.py builds) and S0
as RFC 6114 constructs it (SS0, SS1 on the nibbles, a multiplication by 2 in GF(2^4), SS2, SS3),
for docs/ciphers/clefia.md (issue 29: where CLEFIA's area goes).

Each S-box sits between an 8-bit input and an 8-bit output register (16 flip-flops, subtracted
from the figure given as logic), is checked against the model's table over all 256 inputs in
Amaranth's simulator, and is synthesized by the project's ASIC flow at the area goal. A probe,
not a component of the catalog.

Usage: python benchmarks/clefia_sbox_forms.py [--liberty osu018] [--liberty FILE] [--work DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from amaranth.hdl import Cat, Elaboratable, Module, Signal, Value
from amaranth.sim import Simulator

from cipherbench.ciphers.clefia.model import S0, S1, SS
from cipherbench.components.aes_sbox import table_lookup
from cipherbench.components.sbox4 import sbox4
from cipherbench.flows import get_flow
from cipherbench.flows.liberty import load_liberty
from cipherbench.rtl import to_verilog

FORMS = ("s0-table", "s0-4bit", "s1-table")


def _times2(v: Value) -> Value:
    """Multiplication by 2 in GF(2^4) modulo z^4 + z + 1 (wiring and one XOR)."""
    return Cat(v[3], v[0] ^ v[3], v[1], v[2])


class SboxProbe(Elaboratable):
    def __init__(self, form: str) -> None:
        self.form = form
        self.i = Signal(8)
        self.o = Signal(8)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        x, y = Signal(8), Signal(8)
        m.d.sync += [x.eq(self.i), self.o.eq(y)]
        if self.form == "s0-4bit":
            t0 = sbox4(m, x[4:], SS[0], "table", "ss0")
            t1 = sbox4(m, x[:4], SS[1], "table", "ss1")
            u0, u1 = t0 ^ _times2(t1), _times2(t0) ^ t1
            m.d.comb += y.eq(Cat(sbox4(m, u1, SS[3], "table", "ss3"),
                                 sbox4(m, u0, SS[2], "table", "ss2")))
        else:
            table_lookup(m, x, S0 if self.form == "s0-table" else S1, y)
        return m


def check(form: str) -> None:
    probe = SboxProbe(form)
    table = S1 if form == "s1-table" else S0

    async def bench(ctx):  # type: ignore[no-untyped-def]
        for value in range(257):
            ctx.set(probe.i, value % 256)
            await ctx.tick()
            if value >= 1:  # o holds S of the input taken a clock before
                assert ctx.get(probe.o) == table[value - 1], (form, value)

    sim = Simulator(probe)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()


def measure(liberties: list[str], work: Path) -> list[list[str]]:
    rows = []
    for form in FORMS:
        check(form)
        probe = SboxProbe(form)
        design = work / form / "design"
        top = form.replace("-", "_")
        to_verilog(probe, [probe.i, probe.o], top, design)
        (design / "manifest.json").write_text(json.dumps({"top": top, "clock": "clk",
                                                          "verilog": [f"{top}.v"]}))
        for liberty in liberties:
            library = load_liberty(liberty)
            result = get_flow("asic").run(design, work / form / library.name,
                                          {"liberty": liberty, "goal": "area", "power": False})
            mm = result.measurements
            logic = (mm["area_um2"] - mm["sequential_area_um2"]) / library.nand2.area
            rows.append([form, library.name, f"{mm['gate_equivalents']:,.1f}",
                         f"{logic:,.1f}", f"{mm['critical_path_ns']:.3f}"])
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--liberty", action="append", help="Liberty file or built-in name")
    parser.add_argument("--work", type=Path, help="work folder (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = measure(args.liberty or ["osu018"], args.work or Path(tmp))
    print("| S-box | library | GE (with 16 FFs) | GE of logic | critical path (ns) |")
    print("| --- | --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
