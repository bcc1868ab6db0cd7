"""Round keys loaded from outside (``keys=loaded``): the simulation wrapper that computes them.

Gaj & Chodowiec (section 4.1 b) and Fischer (section 3.1) measured cores whose round keys are
computed elsewhere (software, or a key-setup unit outside the comparison) and written into the
core's round-key memory. Such a core (``LoadedKeySignals``) has no ``key`` port and no key
schedule, so the common testbench cannot drive it directly. ``LoadedKeyHarness`` is the outside:
it has the common interface, runs the cipher's own key step through the fill sequence the
``keys=stored`` core uses (arch/keymem.py ``RoundKeyFill``), writes each entry into the core's port
one per clock, and commits the key. It instantiates the core by module name, so the Verilog the
flows measure is the core alone and simulation compiles core and wrapper together.

The measured key setup therefore includes writing every entry over the port (one per clock, the
rate a memory write port allows) and the commit cycle: the time a host needs to load a key.
"""

from __future__ import annotations

from amaranth.hdl import ClockSignal, Elaboratable, Instance, Module, ResetSignal, Signal

from ..interface import CoreShape, CoreSignals, LoadedKeySignals
from .base import CipherHardware
from .keymem import KeyMemoryLayout, RoundKeyFill


# The core's instance name inside the wrapper: the scope of its nets in a VCD (power, activity).
CORE_INSTANCE = "core"


def loaded_key_signals(hw: CipherHardware, shape: CoreShape) -> LoadedKeySignals:
    """The interface of a keys=loaded core of ``hw``: the round-key port sized by its layout."""
    layout = KeyMemoryLayout(hw, shape.key_sizes)
    return LoadedKeySignals(shape, layout.index_bits, hw.round_key_bits)


class LoadedKeyHarness(Elaboratable):
    """Common interface outside, a keys=loaded core (module ``core_name``) inside."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, step_bits: int,
                 core_name: str) -> None:
        self.shape = shape
        self.core_name = core_name
        self.fill = RoundKeyFill(hw, shape, step_bits)
        self.inner = loaded_key_signals(hw, shape)
        self.io = CoreSignals(shape)

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
        key_fire = io.key_valid & io.key_ready
        m.d.comb += [
            io.key_ready.eq(inner.key_ready & ~busy),
            fill.key.eq(io.key), fill.key_len.eq(io.key_len), fill.load_key.eq(key_fire),
            inner.rk_we.eq(fill.en), inner.rk_addr.eq(fill.addr), inner.rk_data.eq(fill.data),
            inner.key_valid.eq(commit), inner.key_len.eq(fill.key_len_reg),
            inner.in_block.eq(io.in_block), inner.in_decrypt.eq(io.in_decrypt),
            inner.in_valid.eq(io.in_valid & ~busy & ~key_fire),
            io.in_ready.eq(inner.in_ready & ~busy & ~key_fire),
            io.out_block.eq(inner.out_block), io.out_valid.eq(inner.out_valid),
            inner.out_ready.eq(io.out_ready),
        ]
        return m

    def _instance(self) -> Instance:
        """The core by module name, every port of its interface connected."""
        inner = self.inner
        outputs = set(inner.OUTPUTS)
        ports = {("o_" if sig.name in outputs else "i_") + sig.name: sig
                 for sig in inner.port_list()}
        return Instance(self.core_name, i_clk=ClockSignal(), i_rst=ResetSignal(), **ports)
