"""Round keys loaded from outside (``keys=loaded``): the simulation wrapper that computes them.

Gaj & Chodowiec (section 4.1 b) and Fischer (section 3.1) measured cores whose round keys are
computed elsewhere (software, or a key-setup unit outside the comparison) and written into the
core's round-key memory. Such a core (``loaded_key_signals``: interface.py's signature with
``round_keys``) has no ``key`` port and no key schedule, so the common testbench cannot drive it directly. ``LoadedKeyHarness`` is the outside:
it has the common interface, runs the cipher's own key step through the fill sequence the
``keys=stored`` core uses (arch/keymem.py ``RoundKeyFill``), writes each entry into the core's port
one per clock, and commits the key. It instantiates the core by module name, so the Verilog the
flows measure is the core alone and simulation compiles core and wrapper together.

The measured key setup therefore includes writing every entry over the port (one per clock, the
rate a memory write port allows) and the commit cycle: the time a host needs to load a key.
"""

from __future__ import annotations

from amaranth.hdl import ClockSignal, Elaboratable, Instance, Module, ResetSignal, Signal, Value
from amaranth.lib.wiring import Out, connect, flipped

from ..interface import CoreInterface, CoreShape, CoreSignature
from .base import CipherHardware
from .keymem import KeyMemoryLayout, RoundKeyFill


# The core's instance name inside the wrapper: the scope of its nets in a VCD (power, activity).
CORE_INSTANCE = "core"


def loaded_key_signals(hw: CipherHardware, shape: CoreShape) -> CoreInterface:
    """The interface of a keys=loaded core of ``hw``: the round-key port sized by its layout."""
    layout = KeyMemoryLayout(hw, shape.key_sizes)
    return CoreSignature(shape, round_keys=(layout.index_bits, hw.round_key_bits)).create()


def key_port(io: CoreInterface) -> Value:
    """The key a core's key schedule takes: the ``key`` port, or in a keys=loaded core, which has
    none, a signal of its width named as it that stays 0 (its key schedule is the round-key
    memory's write port, and reads no key)."""
    if io.signature.round_keys is None:
        return io.key.data
    return Signal(io.shape.key_bits, name="key")


class LoadedKeyHarness(Elaboratable):
    """Common interface outside, a keys=loaded core (module ``core_name``) inside."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, step_bits: int,
                 core_name: str) -> None:
        self.shape = shape
        self.core_name = core_name
        self.fill = RoundKeyFill(hw, shape, step_bits)
        self.inner = loaded_key_signals(hw, shape)
        self.io = shape.signature().create()

    def elaborate(self, platform: object) -> Module:
        m = Module()
        io, inner, fill = self.io, self.inner, self.fill
        m.submodules.fill = fill
        m.submodules[CORE_INSTANCE] = self._instance()
        # The key is taken when the core could take one (no block in flight) and no fill runs;
        # when the fill ends the core is told to commit, in the cycle after the last write.
        commit = Signal()
        was_filling = Signal()
        m.d.sync += was_filling.eq(fill.filling)
        m.d.comb += commit.eq(was_filling & ~fill.filling)
        busy = fill.filling | commit
        key_fire = io.key.valid & io.key.ready
        m.d.comb += [
            io.key.ready.eq(inner.key.ready & ~busy),
            fill.key.eq(io.key.data), fill.key_len.eq(io.key.len), fill.load_key.eq(key_fire),
        ]
        # The fill's write port drives the core's round-key port.
        connect(m, fill.write_port(), inner.rk)
        m.d.comb += [
            inner.key.valid.eq(commit), inner.key.len.eq(fill.key_len_reg),
            inner.inp.block.eq(io.inp.block), inner.inp.decrypt.eq(io.inp.decrypt),
            inner.inp.valid.eq(io.inp.valid & ~busy & ~key_fire),
            io.inp.ready.eq(inner.inp.ready & ~busy & ~key_fire),
        ]
        # The output channel passes through.
        connect(m, inner.out, flipped(io.out))
        return m

    def _instance(self) -> Instance:
        """The core by module name, every port of its interface connected, directions from its
        signature."""
        inner = self.inner
        ports = {("o_" if member.flow == Out else "i_") + sig.name: sig
                 for _path, member, sig in inner.signature.flatten(inner)}
        return Instance(self.core_name, i_clk=ClockSignal(), i_rst=ResetSignal(), **ports)
