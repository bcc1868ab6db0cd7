"""Basic iterative architecture: one round per clock on one round datapath (NSA "iterative").

Blocks:
- datapath: the state register and one round of the cipher; the first round takes the whitened
  input block directly, so a block takes R cycles (not R+1).
- key_schedule: the working key state, the stored start states (encryption: the loaded key;
  decryption: the key state after the full forward run-up, computed once per key when the first
  decryption block arrives and kept, as in the NSA's RIJNDAEL iterative key schedule), and one step.
- controller: round counter and the handshakes.

Round keys are on the fly: in each cycle the key step computes the next key state from the current
one and its round key feeds the round in the same cycle, so no round key is ever stored. With
``keys=stored`` they come from the round-key memory of arch/keymem.py (shared with the pipelines),
filled once per key; a round reads the entry its (round, direction) has in the cipher's layout.
With ``keys=loaded`` the same memory is written from outside through a round-key port and the core
has no key schedule (arch/loaded.py).
"""

from __future__ import annotations

from amaranth.hdl import Const, Elaboratable, Module, Mux, Signal, Value

from ..interface import CoreInterface, CoreShape
from .base import CipherHardware, KeyStep, bits_for, select_by_key_len
from .handshake import OneBlockController, PassCounting
from .keymem import KeyMemoryLayout, RoundKeyMemory
from .keytables import key_table_fill, refuse_loaded_tables
from .loaded import LoadedKeyHarness, key_port, loaded_key_signals


class KeyScheduleBlock(Elaboratable):
    """What every key-schedule block of the iterative core has: the key port, the registered key
    length and the two round keys a cycle needs."""

    def __init__(self, hw: CipherHardware, shape: CoreShape) -> None:
        self.hw = hw
        self.key = Signal(shape.key_bits)
        self.key_len = Signal(shape.key_len_bits)
        self.load_key = Signal()       # take key/key_len
        self.key_len_reg = Signal(shape.key_len_bits)
        self.rk_white = Signal(hw.round_key_bits)
        self.rk = Signal(hw.round_key_bits)


class IterativeKeySchedule(KeyScheduleBlock):
    """Key registers around the cipher's key step: round keys on the fly."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, step_bits: int) -> None:
        super().__init__(hw, shape)
        self.step: KeyStep = hw.key_step(shape.key_len_bits, step_bits)
        self.start = Signal()          # a block starts: step from the stored start state
        self.start_runup = Signal()    # decryption run-up starts: step forward from the loaded key
        self.advance = Signal()        # a round (or run-up step) happens in this cycle
        self.backward = Signal()
        self.step_index = Signal(step_bits)
        self.store_runup = Signal()    # this cycle's result is the decryption start state

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.step = step = self.step
        state = Signal(self.hw.key_state_bits)
        enc_start = Signal(self.hw.key_state_bits)
        dec_start = Signal(self.hw.key_state_bits) if self.hw.options.has_decrypt else None
        m.d.comb += [step.key.eq(self.key), step.key_len.eq(self.key_len_reg)]
        source = Mux(self.start_runup, enc_start, state)
        if dec_start is not None:
            source = Mux(self.start & self.backward, dec_start,
                         Mux(self.start, enc_start, source))
        else:
            source = Mux(self.start, enc_start, source)
        m.d.comb += [
            step.state_in.eq(source),
            step.step.eq(self.step_index),
            step.backward.eq(self.backward),
            self.rk_white.eq(step.rk_in),
            self.rk.eq(step.rk_out),
        ]
        with m.If(self.load_key):
            m.d.comb += step.key_len.eq(self.key_len)
            m.d.sync += [enc_start.eq(step.loaded), self.key_len_reg.eq(self.key_len)]
        with m.If(self.advance):
            m.d.sync += state.eq(step.state_out)
        if dec_start is not None:
            with m.If(self.store_runup):
                m.d.sync += dec_start.eq(step.state_out)
        return m


class StoredKeySchedule(KeyScheduleBlock):
    """Round keys in a round-key memory (arch/keymem.py, shared with the pipelined core), read
    through two asynchronous ports (whitening and round key): computed once per key by the key
    step inside (keys=stored), or written from outside through the core's round-key port
    (keys=loaded, ``wr_*``)."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, step_bits: int,
                 loaded: bool = False) -> None:
        super().__init__(hw, shape)
        self.memory = RoundKeyMemory(hw, shape, step_bits, loaded=loaded)
        index_bits = self.memory.layout.index_bits
        self.filling = Signal()
        self.ready = Signal()
        self.rk_index_white = Signal(index_bits)
        self.rk_index = Signal(index_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.memory = mem = self.memory
        white_addr, white_data = mem.read("white")
        round_addr, round_data = mem.read("round")
        m.d.comb += [
            mem.key.eq(self.key), mem.key_len.eq(self.key_len), mem.load_key.eq(self.load_key),
            self.key_len_reg.eq(mem.key_len_reg), self.filling.eq(mem.filling),
            self.ready.eq(mem.ready),
            white_addr.eq(self.rk_index_white), round_addr.eq(self.rk_index),
            self.rk_white.eq(white_data), self.rk.eq(round_data),
        ]
        return m


class IterativeDatapath(Elaboratable):
    """The state register and one round."""

    def __init__(self, hw: CipherHardware) -> None:
        self.round = hw.datapath()
        self.block_in = Signal(hw.block_bits)
        self.first = Signal()
        self.last = Signal()
        self.decrypt = Signal()
        self.advance = Signal()
        self.rk_white = Signal(hw.round_key_bits)
        self.rk = Signal(hw.round_key_bits)
        self.state = Signal(hw.block_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.round = rnd = self.round
        m.d.comb += [
            rnd.block_in.eq(self.block_in), rnd.state_in.eq(self.state),
            rnd.first.eq(self.first), rnd.last.eq(self.last), rnd.decrypt.eq(self.decrypt),
            rnd.rk_white.eq(self.rk_white), rnd.rk.eq(self.rk),
        ]
        with m.If(self.advance):
            m.d.sync += self.state.eq(rnd.state_out)
        return m


class RoundCounting(PassCounting):
    """The iterative core's numbers (arch/handshake.py): one round per pass, so P = R (``total``);
    the counter (``rnd``) holds the round being computed, 1..R, and round r steps from key state
    r-1 forward (encryption) or R-r+1 backward (decryption)."""

    count_name, first_count = "rnd", 1
    step_name, final_name = "step_index", "last"

    def __init__(self, hw: CipherHardware, shape: CoreShape, step_bits: int) -> None:
        self.hw = hw
        self.shape = shape
        self.count_bits = bits_for(max(hw.rounds(k) for k in shape.key_sizes))
        self.step_bits = step_bits

    def limits(self, m: Module, ctl: OneBlockController) -> tuple[Value, Value]:
        total = round_total(m, self.hw, self.shape, ctl.key_len_reg, self.count_bits)
        return total, total

    def last_pass(self, count: Value, passes: Value) -> Value:
        return count == passes

    def ends(self, ctl: OneBlockController, count: Value, passes: Value) -> Value:
        return count == passes

    def block_step(self, direction: Value, count: Value, rounds: Value) -> Value:
        return Mux(direction, rounds - count, count - 1)

    def runup_step(self, count: Value) -> Value:
        return count


def round_total(m: Module, hw: CipherHardware, shape: CoreShape, key_len: Value,
                bits: int) -> Signal:
    """R for the registered key length, as a signal (``total``) driven in ``m``."""
    codes = {k: hw.key_len_code(k) for k in shape.key_sizes}
    total = Signal(bits)
    m.d.comb += total.eq(select_by_key_len(key_len, {k: hw.rounds(k) for k in shape.key_sizes},
                                           codes))
    return total


class StoredKeysController(Elaboratable):
    """Round counter and the three handshakes with stored round keys (keys=stored|loaded): key
    setup is the round-key memory's fill (arch/keymem.py), or the commit of its writes; rounds
    then read the entry of (round, direction) the memory's layout gives
    (``KeyMemoryLayout.address``). No run-up: both directions start from the memory."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, io: CoreInterface) -> None:
        self.hw = hw
        self.shape = shape
        self.io = io
        self.round_bits = bits_for(max(hw.rounds(k) for k in shape.key_sizes))
        self.key_len_reg = Signal(shape.key_len_bits)
        # to the other blocks
        self.load_key = Signal()
        self.start = Signal()
        self.first = Signal()
        self.final = Signal(name="last")
        self.decrypt = Signal()
        self.data_advance = Signal()   # a block round happens
        # a key-table fill is running (arch/keytables.py): no block, no key
        self.setup = Signal()
        # from the round-key memory
        self.filling = Signal()
        self.keys_ready = Signal()
        index_bits = KeyMemoryLayout(hw, shape.key_sizes).index_bits
        self.rk_index_white = Signal(index_bits)
        self.rk_index = Signal(index_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        io, hw = self.io, self.hw
        total = round_total(m, hw, self.shape, self.key_len_reg, self.round_bits)
        has_dec, has_enc = hw.options.has_decrypt, hw.options.has_encrypt
        layout = KeyMemoryLayout(hw, self.shape.key_sizes)
        busy, done = Signal(), Signal()
        rnd = Signal(self.round_bits)
        direction = Signal(init=0 if has_enc else 1)
        want_dec = io.inp.decrypt if (has_enc and has_dec) else Const(int(has_dec))
        key_fire = io.key.valid & io.key.ready
        filling = self.filling | self.setup
        m.d.comb += io.key.ready.eq(~busy & ~filling & ~done)
        m.d.comb += io.inp.ready.eq(~busy & ~filling & self.keys_ready & ~key_fire
                                    & (~done | io.out.ready))
        in_fire = io.inp.valid & io.inp.ready
        out_fire = io.out.valid & io.out.ready
        m.d.comb += [io.out.valid.eq(done), self.load_key.eq(key_fire), self.start.eq(in_fire)]
        with m.If(in_fire):
            m.d.comb += [
                self.data_advance.eq(1), self.first.eq(1), self.decrypt.eq(want_dec),
                self.final.eq(total == 1),
                self.rk_index_white.eq(layout.address(Const(0), want_dec, total)),
                self.rk_index.eq(layout.address(Const(1), want_dec, total)),
            ]
            m.d.sync += [direction.eq(want_dec), rnd.eq(2)]
            with m.If(total == 1):
                m.d.sync += done.eq(1)
            with m.Else():
                m.d.sync += [busy.eq(1), done.eq(0)]
        with m.Elif(busy):
            m.d.comb += [
                self.data_advance.eq(1), self.decrypt.eq(direction), self.final.eq(rnd == total),
                self.rk_index.eq(layout.address(rnd, direction, total)),
            ]
            with m.If(rnd == total):
                m.d.sync += [busy.eq(0), done.eq(1)]
            with m.Else():
                m.d.sync += rnd.eq(rnd + 1)
        with m.If(out_fire & ~in_fire):
            m.d.sync += done.eq(0)
        return m


class IterativeCore(Elaboratable):
    """The top: common interface, datapath, key schedule, controller."""

    def __init__(self, hw: CipherHardware, keys: str = "fly") -> None:
        self.hw = hw
        self.keys = keys
        self.shape = CoreShape(hw.block_bits, tuple(sorted(hw.options.key_sizes)))
        self.loaded = keys == "loaded"
        self.io = (loaded_key_signals(hw, self.shape) if self.loaded
                   else self.shape.signature().create())
        max_rounds = max(hw.rounds(k) for k in self.shape.key_sizes)
        self.step_bits = bits_for(max_rounds)
        if self.loaded:
            refuse_loaded_tables(hw)

    def simulation_harness(self, core_name: str) -> LoadedKeyHarness | None:
        """keys=loaded: the wrapper that computes and loads the round keys in simulation."""
        if not self.loaded:
            return None
        return LoadedKeyHarness(self.hw, self.shape, self.step_bits, core_name)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        io = self.io
        key = key_port(io)
        stored = self.keys in ("stored", "loaded")
        ctl: OneBlockController | StoredKeysController = (
            StoredKeysController(self.hw, self.shape, io) if stored else
            OneBlockController(self.hw, self.shape, io,
                               RoundCounting(self.hw, self.shape, self.step_bits)))
        dp = IterativeDatapath(self.hw)
        m.submodules.controller = ctl
        m.submodules.datapath = dp
        ks: KeyScheduleBlock = (self._stored_keys(m, ctl) if stored
                                else self._keys_on_the_fly(m, ctl))
        m.d.comb += [
            ks.key.eq(key), ks.key_len.eq(io.key.len), ks.load_key.eq(ctl.load_key),
            dp.block_in.eq(io.inp.block), dp.first.eq(ctl.first), dp.last.eq(ctl.final),
            dp.decrypt.eq(ctl.decrypt), dp.advance.eq(ctl.data_advance),
            dp.rk_white.eq(ks.rk_white), dp.rk.eq(ks.rk),
            io.out.block.eq(dp.state),
            ctl.key_len_reg.eq(ks.key_len_reg),
        ]
        tables = key_table_fill(m, self.hw, self.shape, key, io.key.len, ctl.load_key,
                                [dp.round])
        if tables is not None:
            m.d.comb += ctl.setup.eq(tables.filling)
        return m

    def _keys_on_the_fly(self, m: Module, ctl: OneBlockController) -> IterativeKeySchedule:
        ks = IterativeKeySchedule(self.hw, self.shape, self.step_bits)
        m.submodules.key_schedule = ks
        m.d.comb += [
            ks.start.eq(ctl.start),
            ks.start_runup.eq(ctl.start_runup), ks.advance.eq(ctl.advance),
            ks.backward.eq(ctl.backward), ks.step_index.eq(ctl.step),
            ks.store_runup.eq(ctl.store_runup),
        ]
        return ks

    def _stored_keys(self, m: Module, ctl: StoredKeysController) -> StoredKeySchedule:
        ks = StoredKeySchedule(self.hw, self.shape, self.step_bits, loaded=self.loaded)
        m.submodules.key_schedule = ks
        if self.loaded:
            ks.memory.write_from(m, self.io)
        m.d.comb += [
            ks.rk_index_white.eq(ctl.rk_index_white), ks.rk_index.eq(ctl.rk_index),
            ctl.filling.eq(ks.filling), ctl.keys_ready.eq(ks.ready),
        ]
        return ks
