"""What a round-based PRESENT-80 encryption core costs without our interface, for BENCHMARKS.md
and docs/ciphers/present.md (issue 29's 1,570 GE target at 0.18 um).

Three bare cores in the CHES 2007 paper's round-based architecture (its Fig. 5 as the paper's
text describes it: a 64-bit state and an 80-bit key register, a 5-bit round counter, 16 S-boxes,
pLayer as wiring, one key S-box; load the plaintext and key in one clock, then 31 rounds; the
ciphertext is the round's own key XOR, state ^ K_32, after the 31st), each adding one thing our
common interface (docs/interface.md) demands:

- ``bare``: the paper's datapath alone: every register loads or steps, nothing holds;
- ``hold``: + a hold on every register (the result waits until taken; our flows have no clock
  gating, so a hold is a multiplexer in front of each flip-flop);
- ``kept``: + the key kept across blocks (a second 80-bit key register that reloads the working
  one when a block starts), which is what ``present-80/iterative:ops=encrypt`` has, besides its
  handshakes and taking the first round in the load clock (31 clocks, not 32).

Each is simulated in Amaranth against the model (the paper's four vectors), then synthesized by
the project's ASIC flow (the area and speed goals) on each Liberty given. These are measurement
probes, not cipherbench designs: no handshake, no verification record, not in any study.

Usage: python benchmarks/present_bare.py [--liberty osu018] [--liberty FILE] [--work DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from amaranth.hdl import Cat, Elaboratable, Module, Signal
from amaranth.sim import Simulator

from cipherbench.ciphers.present import model
from cipherbench.ciphers.present.hw import _update, permute, sbox_layer
from cipherbench.flows import get_flow
from cipherbench.rtl import to_verilog

VARIANTS = ("bare", "hold", "kept")


class BarePresent80(Elaboratable):
    """PRESENT-80 encryption, one round per clock, the paper's architecture plus ``variant``."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.load = Signal()          # take plaintext (and, but for ``kept``, the key)
        self.load_key = Signal()      # ``kept``: take the key into the kept register
        self.plaintext = Signal(64)
        self.key = Signal(80)
        self.ciphertext = Signal(64)
        self.done = Signal()

    def ports(self) -> list[Signal]:
        return [self.load, self.load_key, self.plaintext, self.key, self.ciphertext, self.done]

    def elaborate(self, platform: object) -> Module:
        m = Module()
        state, key, counter = Signal(64), Signal(80), Signal(5)
        mixed = Signal(64)
        m.d.comb += [mixed.eq(state ^ key[16:]), self.ciphertext.eq(mixed),
                     self.done.eq(counter == 0)]
        step_state = permute(sbox_layer(m, mixed, model.SBOX, "s"), model.PERMUTATION)
        step_key = _update(m, key, counter, 80, "k")
        # ``bare`` steps every clock (the counter wraps to 0 after round 31: ``done``);
        # the others hold once done.
        running = (counter != 0) if self.variant != "bare" else 1
        start_key = self.key
        if self.variant == "kept":
            kept = Signal(80)
            with m.If(self.load_key):
                m.d.sync += kept.eq(self.key)
            start_key = kept
        with m.If(self.load):
            m.d.sync += [state.eq(self.plaintext), key.eq(start_key), counter.eq(1)]
        with m.Elif(running):
            m.d.sync += [state.eq(step_state), key.eq(step_key), counter.eq(counter + 1)]
        return m


def check(variant: str) -> None:
    """The paper's four vectors through the core in Amaranth's simulator."""
    core = BarePresent80(variant)
    cases = [(k, p) for k in (b"\x00" * 10, b"\xff" * 10) for p in (b"\x00" * 8, b"\xff" * 8)]

    async def bench(ctx):  # type: ignore[no-untyped-def]
        for key, block in cases:
            ctx.set(core.key, int.from_bytes(key, "big"))
            ctx.set(core.plaintext, int.from_bytes(block, "big"))
            # ``kept`` takes the key in a clock of its own, as our interface does
            ctx.set(core.load_key, 1)
            await ctx.tick()
            ctx.set(core.load_key, 0)
            ctx.set(core.load, 1)
            await ctx.tick()
            ctx.set(core.load, 0)
            for _ in range(31):
                await ctx.tick()
            want = int.from_bytes(model.encrypt_block(key, block), "big")
            assert ctx.get(core.done) == 1, variant
            assert ctx.get(core.ciphertext) == want, (variant, key.hex(), block.hex())

    sim = Simulator(core)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()


def write_design(variant: str, out: Path) -> Path:
    """The core as Verilog with the manifest the flows read."""
    out.mkdir(parents=True, exist_ok=True)
    core = BarePresent80(variant)
    top = f"present80_{variant}"
    to_verilog(core, core.ports(), top, out)
    (out / "manifest.json").write_text(json.dumps({"top": top, "clock": "clk",
                                                   "verilog": [f"{top}.v"]}))
    return out


def measure(liberties: list[str], work: Path) -> list[list[str]]:
    rows = []
    for variant in VARIANTS:
        check(variant)
        design = write_design(variant, work / variant / "design")
        for liberty in liberties:
            for goal in ("area", "speed"):
                run = work / variant / f"{Path(liberty).name}-{goal}"
                result = get_flow("asic").run(design, run, {"liberty": liberty, "goal": goal,
                                                            "power": False})
                mm = result.measurements
                rows.append([variant, result.settings["liberty_name"], goal,
                             f"{mm['gate_equivalents']:,.0f}", str(mm["flipflops"]),
                             f"{mm['fmax_mhz']:.0f}"])
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--liberty", action="append", help="Liberty file or built-in name")
    parser.add_argument("--work", type=Path, help="work folder (default: a temporary one)")
    args = parser.parse_args()
    liberties = args.liberty or ["osu018"]
    with tempfile.TemporaryDirectory() as tmp:
        rows = measure(liberties, args.work or Path(tmp))
    print("| core | library | goal | GE | FFs | MHz |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
