"""Stored round keys: a round-key memory filled once per key, shared by the iterative and the
pipelined architectures (``keys=stored``).

Gaj & Chodowiec section 4.1 b, Fischer section 3.1: the cipher's key step runs once per key and
its round keys go into a memory that the rounds read. Needed by schedules that cannot be walked
backward per round (a run-up before the first round key), and a comparison point for the others.

The fill and the entry layout depend on how the cipher's decryption keys relate to its encryption
keys, which the cipher declares (``CipherHardware.stored_decryption``):

- ``mirror`` (AES-like, the default): R+1 entries, entry r the round key of key state r (entry 0
  the whitening key), written by a forward walk. Decryption round r reads entry R-r and its
  whitening entry R: the same keys in reverse. The key step may offer round keys only on some
  fill cycles (``KeyStep.rk_valid``, e.g. RC6 and MARS after their run-ups).
- ``walk`` (Feistel schedules whose decryption round r needs the key of encryption round R+1-r,
  or whose round-key bus carries the next round's key too, so that decryption's bus is not an
  encryption entry): the fill writes exactly what the on-the-fly key schedule would hand each
  round, both walks of it: the forward walk from the loaded key (entries 0..R, encryption) and
  the backward walk from the state it ends in (entries B..B+R, decryption, B = longest R + 1).
  Entry 0 of a walk is the whitening key (``rk_in`` of the start state), entry r (r >= 1) the
  ``rk_out`` of the walk's r-th step. Twice the memory and fill time of ``mirror``.

Loaded round keys (``keys=loaded``, Gaj & Chodowiec section 4.1 b, Fischer section 3.1): the same
memory and layout, but the core has no key schedule at all. Its round keys are computed outside
and written through a port (``rk_we``, ``rk_addr``, ``rk_data``: one entry per clock, only while
``key_ready`` is high); a transfer on the key channel (``key_valid``/``key_ready`` with
``key_len``) then commits them. ``RoundKeyFill`` is that outside computation for simulation: the
same fill the stored core runs internally, placed in a testbench wrapper (``LoadedKeyHarness``) so
the measured core is only memory, rounds and control.

Storage: a ``Memory`` with asynchronous read ports (``read``) where rounds select by address (the
iterative core; partial pipelines, whose units serve several rounds), which an FPGA maps to
distributed RAM; or plain registers read as fixed entries (``entry``: a full pipeline's unit
always computes the same round, so its keys are wires and a 2:1 direction multiplexer).
"""

from __future__ import annotations

from amaranth.hdl import Const, Elaboratable, Module, Mux, Signal, Value, unsigned
from amaranth.lib.wiring import connect, flipped

from ..interface import ChannelPorts, CoreInterface, CoreShape, round_key_port
from .base import CipherHardware, bits_for, select_by_key_len

STORED_DECRYPTION = ("mirror", "walk")


class KeyMemoryLayout:
    """Depth and entry addresses of a cipher's round-key memory."""

    def __init__(self, hw: CipherHardware, key_sizes: tuple[int, ...]) -> None:
        mode = getattr(hw, "stored_decryption", "mirror")
        if mode not in STORED_DECRYPTION:
            raise ValueError(f"{hw.name}: stored_decryption={mode!r}; valid: "
                             f"{', '.join(STORED_DECRYPTION)}")
        self.walk_fill = mode == "walk"
        # Only a core with decryption keeps the backward walk's entries.
        self.walk = self.walk_fill and hw.options.has_decrypt
        self.rounds = {size: hw.rounds(size) for size in key_sizes}
        self.base = max(self.rounds.values()) + 1      # first decryption entry (walk)
        self.depth = 2 * self.base if self.walk else self.base
        self.index_bits = bits_for(self.depth - 1)

    def address(self, round_no: Value, decrypt: Value, total: Value) -> Value:
        """The entry of round ``round_no`` (0: whitening) of a block of ``total`` rounds."""
        if self.walk:
            dec = self.base + round_no
        else:
            dec = total - round_no
        return Mux(decrypt, dec, round_no)[:self.index_bits]

    def decryption_entry(self, round_no: int, rounds: int) -> int:
        """The fixed decryption entry of round ``round_no`` for a key size of ``rounds`` rounds."""
        return self.base + round_no if self.walk else rounds - round_no


def total_rounds(hw: CipherHardware, shape: CoreShape, layout: KeyMemoryLayout,
                 key_len: Value) -> Value:
    """R for a key length (a multiplexer on it for several key sizes)."""
    codes = {k: hw.key_len_code(k) for k in shape.key_sizes}
    return select_by_key_len(key_len, dict(layout.rounds), codes)


class RoundKeyFill(Elaboratable):
    """The key step and the fill sequence, once per key: on ``load_key`` it takes ``key`` and
    ``key_len`` and from the next cycle writes every entry of the layout through ``addr``,
    ``data``, ``en``; ``filling`` is high until the last entry is written."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, step_bits: int) -> None:
        self.hw = hw
        self.shape = shape
        self.layout = KeyMemoryLayout(hw, shape.key_sizes)
        self.step = hw.key_step(shape.key_len_bits, step_bits)
        self.step_bits = step_bits
        self.key = Signal(shape.key_bits)
        self.key_len = Signal(shape.key_len_bits)
        self.load_key = Signal()
        self.key_len_reg = Signal(shape.key_len_bits)
        self.filling = Signal()
        self.addr = Signal(self.layout.index_bits)
        self.data = Signal(hw.round_key_bits)
        self.en = Signal()

    def total(self, key_len: Value) -> Value:
        """R for a key length (a multiplexer on it for several key sizes)."""
        return total_rounds(self.hw, self.shape, self.layout, key_len)

    def write_port(self) -> ChannelPorts:
        """The fill's writes (``en``, ``addr``, ``data``) as a round-key write port (interface.py),
        from the writer's side: what drives a keys=loaded core's ``rk`` port."""
        return round_key_port(self.layout.index_bits, self.hw.round_key_bits).of(
            we=self.en, addr=self.addr, data=self.data)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.step = step = self.step
        state = Signal(self.hw.key_state_bits)
        m.d.comb += [step.key.eq(self.key), step.key_len.eq(self.key_len_reg),
                     step.state_in.eq(state)]
        with m.If(self.load_key):
            m.d.comb += step.key_len.eq(self.key_len)
            m.d.sync += [state.eq(step.loaded), self.key_len_reg.eq(self.key_len),
                         self.filling.eq(1)]
        fill = self.filling & ~self.load_key
        total = Signal(self.step_bits)
        m.d.comb += total.eq(self.total(self.key_len_reg))
        if self.layout.walk_fill:
            self._walk_fill(m, state, fill, total)
        else:
            self._forward_fill(m, state, fill, total)
        return m

    def _forward_fill(self, m: Module, state: Signal, fill: Value, total: Signal) -> None:
        """``mirror``: one forward step per cycle; entry r is ``rk_in`` of state r, written on
        the cycles the key step marks valid (``rk_valid``, default every cycle)."""
        step, addr, data, en = self.step, self.addr, self.data, self.en
        pos = Signal(self.layout.index_bits)
        valid = getattr(step, "rk_valid", None)
        rk_valid = Signal()
        m.d.comb += [rk_valid.eq(1 if valid is None else valid), step.step.eq(pos),
                     step.backward.eq(0), addr.eq(pos), data.eq(step.rk_in),
                     en.eq(fill & rk_valid)]
        with m.If(self.load_key):
            m.d.sync += pos.eq(0)
        with m.Elif(fill):
            m.d.sync += state.eq(step.state_out)
            with m.If(rk_valid):
                with m.If(pos == total):
                    m.d.sync += self.filling.eq(0)
                with m.Else():
                    m.d.sync += pos.eq(pos + 1)

    def _walk_fill(self, m: Module, state: Signal, fill: Value, total: Signal) -> None:
        """``walk``: per direction, a whitening cycle (``rk_in`` of the start state, no step)
        and R steps (``rk_out`` of each), with the step indices the on-the-fly schedule uses
        (forward r-1, backward R-r for round r); the backward walk starts where the forward
        one ends, at key state R."""
        step, addr, data, en = self.step, self.addr, self.data, self.en
        pos = Signal(self.step_bits)
        backward = Signal()
        white = pos == 0
        forward_index = Mux(white, 0, pos - 1)
        backward_index = Mux(white, total - 1, total - pos)
        m.d.comb += [
            step.backward.eq(backward),
            step.step.eq(Mux(backward, backward_index, forward_index)),
            addr.eq(Mux(backward, self.layout.base + pos, pos)),
            data.eq(Mux(white, step.rk_in, step.rk_out)),
            en.eq(fill),
        ]
        with m.If(self.load_key):
            m.d.sync += [pos.eq(0), backward.eq(0)]
        with m.Elif(fill):
            with m.If(~white):
                m.d.sync += state.eq(step.state_out)
            with m.If(pos != total):
                m.d.sync += pos.eq(pos + 1)
            with m.Elif(~backward & Const(int(self.layout.walk))):
                m.d.sync += [pos.eq(0), backward.eq(1)]
            with m.Else():
                m.d.sync += self.filling.eq(0)


class RoundKeyMemory(Elaboratable):
    """The round-key memory and what fills it.

    ``loaded=False`` (keys=stored): a ``RoundKeyFill`` inside; ``load_key`` takes ``key``/
    ``key_len`` and starts the fill. ``loaded=True`` (keys=loaded): no key schedule; entries come
    through ``wr_addr``/``wr_data``/``wr_en`` from outside and ``load_key`` commits them for a key
    of length ``key_len`` (a write clears ``ready`` until the next commit). ``filling`` is high
    while a fill runs, ``ready`` once the memory holds every round key of the current key.
    ``fixed``: registers read by ``entry(i)``; else a memory read through ``read()`` ports."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, step_bits: int,
                 fixed: bool = False, loaded: bool = False) -> None:
        self.hw = hw
        self.shape = shape
        self.layout = KeyMemoryLayout(hw, shape.key_sizes)
        self.fixed = fixed
        self.fill = None if loaded else RoundKeyFill(hw, shape, step_bits)
        self.key = Signal(shape.key_bits)
        self.key_len = Signal(shape.key_len_bits)
        self.load_key = Signal()
        self.key_len_reg = Signal(shape.key_len_bits)
        self.filling = Signal()
        self.ready = Signal()
        self.wr_addr = Signal(self.layout.index_bits)
        self.wr_data = Signal(hw.round_key_bits)
        self.wr_en = Signal()
        self._entries = [Signal(hw.round_key_bits, name=f"rk_entry{i}", reset_less=True)
                         for i in range(self.layout.depth)] if fixed else []
        self._reads: list[tuple[Signal, Signal]] = []

    def entry(self, index: int) -> Signal:
        """Entry ``index`` as a wire (``fixed`` storage only)."""
        assert self.fixed, "fixed entries need fixed=True storage"
        return self._entries[index]

    def read(self, name: str) -> tuple[Signal, Signal]:
        """A new asynchronous read port: (address, data)."""
        assert not self.fixed, "read ports need memory storage"
        port = (Signal(self.layout.index_bits, name=f"{name}_addr"),
                Signal(self.hw.round_key_bits, name=f"{name}_data"))
        self._reads.append(port)
        return port

    def total(self, key_len: Value) -> Value:
        """R for a key length (a multiplexer on it for several key sizes)."""
        return total_rounds(self.hw, self.shape, self.layout, key_len)

    def write_from(self, m: Module, io: CoreInterface) -> None:
        """keys=loaded: the write port driven by the core's round-key port."""
        port = round_key_port(self.layout.index_bits, self.hw.round_key_bits).of(
            we=self.wr_en, addr=self.wr_addr, data=self.wr_data)
        connect(m, flipped(io.rk), flipped(port))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        if self.fill is None:
            self._commit(m)
        else:
            self._run_fill(m, self.fill)
        self._storage(m, self.wr_addr, self.wr_data, self.wr_en)
        return m

    def _run_fill(self, m: Module, fill: RoundKeyFill) -> None:
        m.submodules.fill = fill
        m.d.comb += [fill.key.eq(self.key), fill.key_len.eq(self.key_len),
                     fill.load_key.eq(self.load_key), self.key_len_reg.eq(fill.key_len_reg),
                     self.filling.eq(fill.filling),
                     self.wr_addr.eq(fill.addr), self.wr_data.eq(fill.data),
                     self.wr_en.eq(fill.en)]
        # Ready from the edge that ends the fill until the next key is taken.
        have_key = Signal()
        with m.If(self.load_key):
            m.d.sync += have_key.eq(1)
        m.d.comb += self.ready.eq(have_key & ~fill.filling)

    def _commit(self, m: Module) -> None:
        """keys=loaded: a write invalidates the stored key; a commit validates it."""
        with m.If(self.load_key):
            m.d.sync += [self.key_len_reg.eq(self.key_len), self.ready.eq(1)]
        with m.Elif(self.wr_en):
            m.d.sync += self.ready.eq(0)

    def _storage(self, m: Module, addr: Signal, data: Signal, en: Signal) -> None:
        if self.fixed:
            with m.If(en):
                with m.Switch(addr):
                    for i, reg in enumerate(self._entries):
                        with m.Case(i):
                            m.d.sync += reg.eq(data)
            return
        from amaranth.lib.memory import Memory

        m.submodules.round_keys = mem = Memory(shape=unsigned(self.hw.round_key_bits),
                                               depth=self.layout.depth, init=[])
        write = mem.write_port()
        m.d.comb += [write.addr.eq(addr), write.data.eq(data), write.en.eq(en)]
        for address, value in self._reads:
            port = mem.read_port(domain="comb")
            m.d.comb += [port.addr.eq(address), value.eq(port.data)]
