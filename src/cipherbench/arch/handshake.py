"""The controller of a core that works on one block at a time with round keys on the fly
(iterative, unrolled): its key, input and output channels as docs/interface.md defines them, the
trigger of the once-per-key decryption run-up (started by the first decryption block, so
encryption has key setup 0), and the pass counter that runs blocks and run-ups.

The iterative core is the unrolled one with one round per pass (k = 1), and both use
``OneBlockController``. What differs is said by a ``PassCounting``: how P and R are selected by
the key length, how the counter numbers a block's passes and which key step each pass starts from.
The iterative core's counter holds the round being computed (1..R), the unrolled core's the pass
(0..P-1); both numberings are kept so that neither core's registers change (the netlist proof
matches registers by name and value). The stored-key cores (keys=stored|loaded) have a controller
of their own (arch/iterative.py), with the same handshakes.
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Elaboratable, Module, Mux, Signal, Value

from ..interface import CoreInterface, CoreShape
from .base import CipherHardware


@dataclass
class OneBlockControl:
    """Controller state the handshakes depend on, and what they decide this cycle."""

    busy: Signal        # a block is being computed
    runup: Signal       # the decryption run-up is going
    done: Signal        # a result waits in the state register (out_valid)
    have_key: Signal
    dec_ready: Signal   # the decryption start state of the current key is stored
    want_dec: Value     # the offered block is a decryption (the core's only direction if one)
    key_fire: Value
    in_fire: Value
    out_fire: Value
    begin_runup: Value


def one_block_handshakes(m: Module, io: CoreInterface, hw: CipherHardware,
                         setup: Value | None = None) -> OneBlockControl:
    """Drive key_ready, in_ready and out_valid; keep have_key and dec_ready per key. ``setup``:
    a once-per-key fill is running (arch/keytables.py), so neither a block nor a key is taken."""
    has_dec, has_enc = hw.options.has_decrypt, hw.options.has_encrypt
    busy, runup, done, have_key, dec_ready = (Signal(name=n) for n in (
        "busy", "runup", "done", "have_key", "dec_ready"))
    # A one-direction core ignores in_decrypt.
    want_dec = io.inp.decrypt if (has_enc and has_dec) else Signal(init=int(has_dec))
    idle = ~busy & ~runup
    if setup is not None:
        idle = idle & ~setup
    key_fire = io.key.valid & io.key.ready
    m.d.comb += io.key.ready.eq(idle & ~done)
    accept_ok = idle & have_key & ~key_fire & (~done | io.out.ready)
    if has_dec:
        accept_ok = accept_ok & (~want_dec | dec_ready)
    m.d.comb += [io.inp.ready.eq(accept_ok), io.out.valid.eq(done)]
    begin_runup: Value = (idle & have_key & ~key_fire & io.inp.valid & want_dec & ~dec_ready
                          if has_dec else Signal())
    with m.If(key_fire):
        m.d.sync += [have_key.eq(1), dec_ready.eq(0)]
    return OneBlockControl(busy, runup, done, have_key, dec_ready, want_dec, key_fire,
                           io.inp.valid & io.inp.ready, io.out.valid & io.out.ready, begin_runup)


class PassCounting:
    """How a one-block core counts: what ``OneBlockController`` asks of its core.

    A block takes P passes, the decryption run-up P passes of k forward steps; unit 0 of run-up
    pass p steps from key state p*k. The counter is ``count_bits`` wide and named
    ``count_name``; it holds ``first_count`` in a block's first pass and counts up, and 0, 1, ...
    in the run-up's passes. The controller's step index (``step_bits``, ``step_name``) is that of
    unit 0's key step, and its ``final`` output (``final_name``) is high in a block's last pass."""

    count_name: str
    count_bits: int
    first_count: int
    step_name: str
    step_bits: int
    final_name: str

    def limits(self, m: Module, ctl: OneBlockController) -> tuple[Value, Value]:
        """(P, R) for the registered key length, driven in ``m``; also any outputs of the core's
        own that follow from them and ``ctl.final``."""
        raise NotImplementedError

    def last_pass(self, count: Value, passes: Value) -> Value:
        """A block's pass ``count`` is its last."""
        raise NotImplementedError

    def ends(self, ctl: OneBlockController, count: Value, passes: Value) -> Value:
        """The condition on which a block's busy passes end (``final`` or the same comparison)."""
        raise NotImplementedError

    def block_step(self, direction: Value, count: Value, rounds: Value) -> Value:
        """Unit 0's step index in a block's pass ``count`` (after the first)."""
        raise NotImplementedError

    def runup_step(self, count: Value) -> Value:
        """Unit 0's step index in run-up pass ``count`` (after the first)."""
        raise NotImplementedError


class OneBlockController(Elaboratable):
    """Pass counter, run-up and the three handshakes."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, io: CoreInterface,
                 counting: PassCounting) -> None:
        self.hw = hw
        self.io = io
        self.counting = counting
        self.key_len_reg = Signal(shape.key_len_bits)
        # to the other blocks
        self.load_key = Signal()
        self.start = Signal()          # a block starts: the key steps start from a start state
        self.start_runup = Signal()    # the decryption run-up starts from the loaded key
        self.advance = Signal()        # a pass (block or run-up) happens in this cycle
        self.backward = Signal()
        self.step = Signal(counting.step_bits, name=counting.step_name)
        self.store_runup = Signal()    # this pass ends the run-up: keep the decryption start state
        self.first = Signal()
        self.final = Signal(name=counting.final_name)  # this pass is the block's last
        self.decrypt = Signal()
        self.data_advance = Signal()   # a block's pass happens (not a run-up pass)
        self.setup = Signal()          # a key-table fill is running (arch/keytables.py)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        io, hw, c = self.io, self.hw, self.counting
        has_enc = hw.options.has_encrypt
        passes, rounds = c.limits(m, self)

        hs = one_block_handshakes(m, io, hw, setup=self.setup)
        busy, runup, done, dec_ready = hs.busy, hs.runup, hs.done, hs.dec_ready
        want_dec, in_fire, out_fire = hs.want_dec, hs.in_fire, hs.out_fire
        begin_runup = hs.begin_runup
        count = Signal(c.count_bits, name=c.count_name)
        direction = Signal(init=0 if has_enc else 1)
        m.d.comb += [self.load_key.eq(hs.key_fire), self.start.eq(in_fire),
                     self.start_runup.eq(begin_runup)]

        # Encryption pass p starts at forward step p*k, decryption at backward step R-1-p*k, the
        # run-up at forward step p*k; unit j adds (subtracts) j.
        with m.If(in_fire):
            m.d.comb += [
                self.advance.eq(1), self.data_advance.eq(1), self.first.eq(1),
                self.decrypt.eq(want_dec), self.backward.eq(want_dec),
                self.final.eq(passes == 1), self.step.eq(Mux(want_dec, rounds - 1, 0)),
            ]
            m.d.sync += [direction.eq(want_dec), count.eq(c.first_count + 1)]
            with m.If(passes == 1):
                m.d.sync += done.eq(1)
            with m.Else():
                m.d.sync += [busy.eq(1), done.eq(0)]
        with m.Elif(busy):
            m.d.comb += [
                self.advance.eq(1), self.data_advance.eq(1),
                self.decrypt.eq(direction), self.backward.eq(direction),
                self.final.eq(c.last_pass(count, passes)),
                self.step.eq(c.block_step(direction, count, rounds)),
            ]
            with m.If(c.ends(self, count, passes)):
                m.d.sync += [busy.eq(0), done.eq(1)]
            with m.Else():
                m.d.sync += count.eq(count + 1)
        with m.Elif(begin_runup):
            m.d.comb += [self.advance.eq(1), self.step.eq(0),
                         self.store_runup.eq(passes == 1)]
            with m.If(passes == 1):
                m.d.sync += dec_ready.eq(1)
            with m.Else():
                m.d.sync += [runup.eq(1), count.eq(1)]
        with m.Elif(runup):
            final_runup = count == passes - 1
            m.d.comb += [self.advance.eq(1), self.step.eq(c.runup_step(count)),
                         self.store_runup.eq(final_runup)]
            with m.If(final_runup):
                m.d.sync += [runup.eq(0), dec_ready.eq(1)]
            with m.Else():
                m.d.sync += count.eq(count + 1)
        with m.If(out_fire & ~in_fire):
            m.d.sync += done.eq(0)
        return m
