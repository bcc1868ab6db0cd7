"""Byte-serial HIGHT (arch/narrow.py): ``hight/narrow:width=8``, one byte-wide F function (F0 or
F1 of one byte), one 8-bit data adder/subtractor and one 8-bit subkey adder per clock.

- **State: a ring of eight bytes** that rotates left by one byte every clock (``ring[0]`` the
  head, ``ring[7]`` the tail); the new tail byte is the head, transformed or not. A branch of the
  round (x_{2k}, x_{2k+1}) is one clock: when the odd byte is at the head, its even partner has
  just gone to the tail, so the clock computes x_{2k+1} + (F1(tail) ^ SK) or
  x_{2k+1} ^ (F0(tail) + SK) (decryption: minus, and the same XOR) from the head and the tail
  alone: an "O" clock. The even byte's clock ("E") moves it unchanged, or XORs / adds a
  whitening key byte (the data adder is free in E clocks).
- **The round's byte rotation costs nothing:** a round is 7 clocks (O E O E O E O), the ring
  turning by 7 bytes, which leaves it exactly where the rotated round output starts. Decryption
  also takes 7 clocks a round: its rounds begin at successive odd bytes (the branches of a round
  are independent, so the order within a round is free), which changes only which of the four
  subkeys a clock uses.
- **Whitening in E clocks.** Encryption's first round is 8 clocks (E O E O E O E O) whose E
  clocks add WK0..WK3; a pass of 8 clocks then adds WK4..WK7. Decryption mirrors it: the first
  round (undoing the last, unrotated one) undoes WK4..WK7 in its E clocks, a final pass undoes
  WK0..WK3. 8 + 31 x 7 + 8 = 233 clocks. Decryption's pass ends with the ring turned by two
  bytes; a core with decryption turns encryption's last pass by two more bytes (10 clocks) so
  that ``block_out`` is one wiring for both.
- **Key: the 16 master-key bytes as the iterative core's key state** (hw.py: Q rotated so that
  round s's subkeys come from Q[0..3], and the delta LFSR at delta_{4s}); an O clock adds
  Q[k] + delta_{4s+k} (one adder, a 4:1 byte choice, the LFSR stepped k times: XORs). The state
  steps once per round in the round's last O clock (forward for encryption, back for
  decryption: rotations, wiring), and 32 steps bring Q back to the master key. Decryption steps
  Q back once in the clock that takes the block and loads delta_124; encryption loads delta_0.
  So the register holds the key whenever no block runs: no run-up, no rewind, nothing to store
  (``keys=rewind`` only). The whitening keys are master-key bytes read from Q where the state of
  the clock keeps them.
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.narrow import NarrowDatapath, Program, Segment
from ...errors import CipherbenchError
from ...interface import CoreShape
from .hw import HightHardware, f0, f1, lfsr, lfsr_back
from .model import DELTA, ROUNDS

WIDTH = 8
FIRST, ROUNDS_SEGMENT, WHITEN = "first-round", "rounds", "whitening"
ROUND_CLOCKS = 7
PASS = 8
# The whitening keys' bytes of Q: WK0..3 in state 0, WK4..7 in state 32 (Q = the key), and
# WK4..7 in state 31 (decryption's first round).
WK_LOW = (12, 13, 14, 15)
WK_HIGH = (0, 1, 2, 3)
WK_HIGH_31 = (11, 4, 5, 6)


def _named(m: Module, value: Value, name: str) -> Signal:
    wire = Signal(len(value), name=name)
    m.d.comb += wire.eq(value)
    return wire


def key_step(q: list[Value], boundary: Value, back: bool) -> list[Value]:
    """The key state's Q one round on (``back``: one round back); ``boundary``: the round's
    index s (forward s -> s+1, back s+1 -> s) ends a group of four."""
    if not back:
        turned = q[4:] + q[:4]
        shifted = ([turned[(b - 1) % 8] for b in range(8)]
                   + [turned[8 + (b - 1) % 8] for b in range(8)])
        return [Mux(boundary, s, t) for s, t in zip(shifted, turned)]
    unshifted = [q[(b + 1) % 8] for b in range(8)] + [q[8 + (b + 1) % 8] for b in range(8)]
    base = [Mux(boundary, u, o) for u, o in zip(unshifted, q)]
    return base[12:] + base[:12]


@dataclass(frozen=True, eq=False)
class _Control:
    """The controller's wires that the datapath and the key state read."""

    dec: Value          # decrypting (a constant in a one-direction core)
    first: Value        # the first round (8 clocks) runs
    rounds: Value       # the 7-clock rounds run
    whiten: Value       # the final whitening pass runs
    step: Value         # the clock within the round or pass
    t: Value            # the round index within the rounds segment
    half: Value         # step / 2
    o_clock: Value      # a branch of the round: the odd byte at the head
    w_clock: Value      # an E clock that adds or XORs a whitening key byte
    branch: Value       # the O clock's branch k (which subkey it uses)


class HightSerial(NarrowDatapath):
    """Byte-serial HIGHT (module docstring)."""

    def __init__(self, hw: HightHardware) -> None:
        shape = CoreShape(64, (128,))
        super().__init__(width=WIDTH, block_bits=64, key_bits=shape.key_bits,
                         key_len_bits=shape.key_len_bits)
        self.has_enc, self.has_dec = hw.options.has_encrypt, hw.options.has_decrypt
        # Decryption's last pass leaves the ring turned by two bytes.
        self.offset = 2 if self.has_dec else 0

    def _segments(self, decrypt: bool) -> tuple[Segment, ...]:
        last = PASS if decrypt else PASS + self.offset
        return (Segment(FIRST, {128: 1}, PASS),
                Segment(ROUNDS_SEGMENT, {128: ROUNDS - 1}, ROUND_CLOCKS),
                Segment(WHITEN, {128: 1}, last))

    def programs(self) -> dict[bool, Program]:
        out: dict[bool, Program] = {}
        if self.has_enc:
            out[False] = Program(main=self._segments(False))
        if self.has_dec:
            out[True] = Program(main=self._segments(True))
        return out

    def describe(self) -> dict[str, object]:
        facts: dict[str, object] = {
            "f_functions": 1, "data_adders_8bit": 1, "key_schedule_adders_8bit": 1,
            "clocks_per_round": ROUND_CLOCKS, "key_registers": 128 + 7,
        }
        for decrypt, program in self.programs().items():
            name = "decrypt" if decrypt else "encrypt"
            facts[f"{name}_latency"] = program.latency(128)
            facts[f"{name}_interval"] = program.interval(128)
            facts[f"{name}_key_setup"] = program.key_setup(128)
        return facts

    def _dec(self) -> Value:
        if self.has_enc and self.has_dec:
            return self.decrypt
        return Const(int(self.has_dec), 1)

    def elaborate(self, platform: object) -> Module:
        # The Verilog text depends on the order signals are created and statements added: keep
        # this order (and the order inside the helpers) to keep the generated cores unchanged.
        m = Module()
        ctl = self._control(m)
        q = [Signal(8, name=f"q{i}", reset_less=True) for i in range(16)]
        d = Signal(7, name="delta", reset_less=True)
        sk = self._subkey(m, ctl, q, d)
        wk, w_arith = self._whitening_key(m, ctl, q)
        ring = [Signal(8, name=f"ring{i}", reset_less=True) for i in range(8)]
        new = self._new_tail(m, ctl, ring[0], ring[7], sk, wk, w_arith)
        self._ring_register(m, ctl, ring, new)
        self._key_register(m, ctl, q, d)
        return m

    def _control(self, m: Module) -> _Control:
        """Which segment runs and what kind of clock this is: an O clock (an odd byte at the
        head, a branch of the round), a whitening E clock, or an E clock that only moves."""
        dec = _named(m, self._dec(), "dec")
        first = _named(m, self.running(FIRST), "first")
        rounds = _named(m, self.running(ROUNDS_SEGMENT), "in_rounds")
        whiten = _named(m, self.running(WHITEN), "whiten")
        step = self.step[:4]
        t = self.round[:5]
        even = ~step[0]
        # The first round starts with an E clock, the 7-clock rounds with an O clock.
        o_clock = _named(m, first & step[0] | rounds & even, "o_clock")
        w_clock = _named(m, (first | whiten & (step < PASS)) & even, "w_clock")
        # The branch of an O clock: k = step / 2, decryption's rounds start one branch earlier
        # every round.
        half = step[1:3]
        k = _named(m, Mux(dec & rounds, half - t[:2] - 1, half)[:2], "branch")
        return _Control(dec=dec, first=first, rounds=rounds, whiten=whiten, step=step, t=t,
                        half=half, o_clock=o_clock, w_clock=w_clock, branch=k)

    def _subkey(self, m: Module, ctl: _Control, q: list[Signal], d: Signal) -> Signal:
        """The O clock's subkey Q[k] + delta_{4s+k}: one 8-bit adder after a 4:1 byte choice;
        the three later deltas are the LFSR stepped (XORs), so only delta_{4s} is stored."""
        deltas = [d]
        for _ in range(3):
            deltas.append(lfsr(deltas[-1]))
        q_k = Signal(8, name="q_k")
        d_k = Signal(7, name="delta_k")
        with m.Switch(ctl.branch):
            for i in range(4):
                with m.Case(i):
                    m.d.comb += [q_k.eq(q[i]), d_k.eq(deltas[i])]
        return _named(m, (q_k + d_k)[:8], "sk")

    def _whitening_key(self, m: Module, ctl: _Control,
                       q: list[Signal]) -> tuple[Signal, Signal]:
        """The whitening byte of an E clock (WK index and where Q keeps it in the clock's key
        state), and whether it is added (subtracted) rather than XORed."""
        w_index = _named(m, Mux(ctl.dec & ctl.whiten, ctl.half + 1, ctl.half)[:2], "w_index")
        wk = Signal(8, name="wk")
        sources = {False: {FIRST: WK_LOW, WHITEN: WK_HIGH}, True: {FIRST: WK_HIGH_31,
                                                                   WHITEN: WK_LOW}}
        for direction in (False, True):
            if (direction and not self.has_dec) or (not direction and not self.has_enc):
                continue
            for segment, places in sources[direction].items():
                with m.If((ctl.dec == int(direction)) & self.running(segment)):
                    with m.Switch(w_index):
                        for i, place in enumerate(places):
                            with m.Case(i):
                                m.d.comb += wk.eq(q[place])
        # WK0, WK2, WK4, WK6 are added (subtracted), the others XORed.
        w_arith = _named(m, ~w_index[0], "w_arith")
        return wk, w_arith

    def _new_tail(self, m: Module, ctl: _Control, head: Signal, tail: Signal, sk: Value,
                  wk: Value, w_arith: Value) -> Signal:
        """The byte that enters the ring's tail: the head, transformed in an O clock by one F
        and one adder/subtractor shared by both branch types and the whitening."""
        o_clock = ctl.o_clock
        type_a = ~ctl.branch[0]
        f = _named(m, Mux(type_a, f1(tail), f0(tail)), "f")
        a = Mux(o_clock & ~type_a, f, head)
        b = Mux(o_clock, Mux(type_a, f ^ sk, sk), wk)
        sub = ctl.dec & ~(o_clock & ~type_a)
        total = _named(m, Mux(sub, (a - b)[:8], (a + b)[:8]), "sum")
        new = Signal(8, name="new")
        with m.If(o_clock):
            m.d.comb += new.eq(Mux(type_a, total, total ^ head))
        with m.Elif(ctl.w_clock):
            m.d.comb += new.eq(Mux(w_arith, total, head ^ wk))
        with m.Else():
            m.d.comb += new.eq(head)
        return new

    def _ring_register(self, m: Module, ctl: _Control, ring: list[Signal],
                       new: Signal) -> None:
        """The ring of eight bytes: load the block, then turn one byte a clock while a segment
        runs. ``block_out`` undoes the two-byte turn decryption's last pass leaves (a core
        with decryption lengthens encryption's pass to match), so it is one wiring for both."""
        active = ctl.first | ctl.rounds | ctl.whiten
        block = [self.block_in[64 - 8 * (i + 1):64 - 8 * i] for i in range(8)]
        with m.If(self.load_block):
            m.d.sync += [r.eq(v) for r, v in zip(ring, block)]
        with m.Elif(active):
            m.d.sync += [r.eq(v) for r, v in zip(ring, ring[1:] + [new])]
        out = [ring[(j - self.offset) % 8] for j in range(8)]
        m.d.comb += self.block_out.eq(Cat(*reversed(out)))

    def _key_step_clocks(self, m: Module, ctl: _Control) -> tuple[Signal, Value, Value]:
        """The clocks the key state steps in and the boundaries of its groups of four."""
        # Encryption: in the last O clock of every round (first round step 7, rounds step 6),
        # s -> s + 1 with s the round's index (0, then t + 1).
        last_o = _named(m, ctl.first & (ctl.step == PASS - 1)
                        | ctl.rounds & (ctl.step == ROUND_CLOCKS - 1), "last_o")
        fwd_boundary = ctl.rounds & (ctl.t[:2] == 2)          # s = t + 1 = 3 mod 4
        # Decryption: back in the clock that takes the block (32 -> 31, a group's end), in the
        # first round's last clock (31 -> 30) and in the rounds' last clocks (30 - t -> 29 - t)
        # but the last.
        bwd_boundary = self.load_block | ctl.rounds & (ctl.t[:2] == 2)   # s = 29 - t = 3 mod 4
        return last_o, fwd_boundary, bwd_boundary

    def _key_register(self, m: Module, ctl: _Control, q: list[Signal], d: Signal) -> None:
        """The key state Q || delta: load the key, then step it forward (encryption) or back
        (decryption) once a round; 32 steps bring Q back to the key."""
        last_o, fwd_boundary, bwd_boundary = self._key_step_clocks(m, ctl)
        dec = ctl.dec
        key_bytes = [self.key[128 - 8 * (i + 1):128 - 8 * i] for i in range(16)]
        # The Elifs in the direction blocks below continue this If: one priority chain.
        with m.If(self.load_key):
            m.d.sync += [r.eq(v) for r, v in zip(q, key_bytes)]
        if self.has_dec:
            back = key_step(q, bwd_boundary, back=True)
            d_back = d
            for _ in range(4):
                d_back = lfsr_back(d_back)
            with m.Elif(self.load_block & dec):
                m.d.sync += [r.eq(v) for r, v in zip(q, back)]
                m.d.sync += d.eq(DELTA[4 * (ROUNDS - 1)])
            with m.Elif(last_o & dec & ~(ctl.rounds & self.last_round)):
                m.d.sync += [r.eq(v) for r, v in zip(q, back)]
                m.d.sync += d.eq(d_back)
        if self.has_enc:
            fwd = key_step(q, fwd_boundary, back=False)
            d_fwd = d
            for _ in range(4):
                d_fwd = lfsr(d_fwd)
            with m.Elif(self.load_block):
                m.d.sync += d.eq(DELTA[0])
            with m.Elif(last_o & ~dec):
                m.d.sync += [r.eq(v) for r, v in zip(q, fwd)]
                m.d.sync += d.eq(d_fwd)


class HightNarrowHardware(HightHardware):
    """HIGHT with the byte-serial datapath (CipherInfo.arch_hardware: narrow)."""

    def narrow_datapath(self, width: int, keys: str = "rewind") -> NarrowDatapath:
        if width != WIDTH:
            raise CipherbenchError(f"hight has an {WIDTH}-bit narrow datapath only (one F "
                                   f"function and one adder per clock); valid widths: {WIDTH}")
        if keys != "rewind":
            raise CipherbenchError(f"{self.name}/narrow: keys={keys} would store nothing (the "
                                   "key register holds the key between blocks); use "
                                   "keys=rewind")
        return HightSerial(self)


HARDWARE = HightNarrowHardware
