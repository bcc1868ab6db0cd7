"""Twofish narrow datapaths (arch/narrow.py): one g function shared by both halves of the round.

The iterative core (hw.py) evaluates four h functions per clock: g(R0) and g(R1 <<< 8) of F, and
h(2i rho, Me) and h((2i+1) rho, Mo) of the subkey pair generator. An h function (four q0/q1
chains keyed by the S words, then the MDS) is most of the core. These datapaths evaluate fewer
per clock and keep what the later clocks need in 32-bit registers:

- ``width=64`` (two h units, half of the iterative core's four): Fischer's minimum Twofish (seed
  004, section 3.5: "only one g() function and data from upper and lower path are multiplexed to
  this block"), with the subkey generator halved the same way. Every block clock pair ("round")
  runs:

  | clock | g unit (S words) | subkey h unit |
  | --- | --- | --- |
  | 0 | t0 <- g(R0) | a <- h(2p rho, Me) |
  | 1 | g(R1 <<< 8), then F's PHT and rotations | h((2p+1) rho, Mo) <<< 8, PHT -> K_2p, K_2p+1 |

- ``width=32`` (one h unit for everything): a Feistel round is four clocks, g(R0) -> t0,
  g(R1 <<< 8) -> t1, h(2p rho, Me) -> a, then h((2p+1) rho, Mo) and the round; a whitening clock
  pair is the last two.
- ``width=8`` (one key-dependent S-box byte lane): the h unit of width=32 one byte per clock
  (``TwofishByteSerial``), 16 clocks per round.

Whitening is the iterative core's ``whiten=cycles`` schedule (hw.cycles_schedule: 20 subkey pairs
per block, K0..K3 and K4..K7 in clocks of their own, the last one also undoing the final swap),
each pair now taking two h clocks: 20 x 2 = 40 clocks at width=64, 4 x 2 + 16 x 4 = 72 at
width=32, 4 x 8 + 16 x 16 = 288 at width=8. The key words Me, Mo and S never change, so there
is nothing to rewind or store (``keys=rewind`` only) and no per-block key work. width=64 and 32
compute S by RS at key load (no key setup in either direction); width=8 computes it one key byte
per clock in a key setup of 1 + 8k clocks (``TwofishKeyWords._rs_serial``), in place of the
RS networks.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.base import select_by_key_len
from ...arch.narrow import NarrowDatapath, Program, Segment
from ...components.gf256 import const_mul_matrix, linear_map
from ...components.mds import TWOFISH_MDS, TWOFISH_POLY
from ...components.pht import PseudoHadamard
from ...errors import CipherbenchError
from ...interface import CoreShape
from .hw import (
    ADDER,
    CHAINS,
    KIND_BITS,
    ROUNDS,
    WORD,
    TwofishDatapath,
    ChainStart,
    TwofishHardware,
    block_words,
    cycles_schedule,
    get_bytes_le,
    h_function,
    key_words,
    keyed_pht,
    q_permutation,
    rs_rows,
    unpack,
    wire,
    words_block,
)
from .model import RS_POLYNOMIAL

WIDTHS = (64, 32, 8)
CLOCKS = ROUNDS + 4            # subkey pairs per block (whiten=cycles)
BLOCK = "block"                # width=64: 20 pairs of 2 clocks
WHITEN_IN, FEISTEL_ROUNDS, WHITEN_OUT = "whiten-in", "rounds", "whiten-out"   # width=32, 8
# width=32, 8: first pair of each segment in the 20-pair schedule, its pair count and its h
# evaluations per pair (steps at width=32; x4 at width=8, one byte per clock).
SERIAL_SEGMENTS = ((WHITEN_IN, 0, 2, 2), (FEISTEL_ROUNDS, 2, ROUNDS, 4), (WHITEN_OUT, 18, 2, 2))
RS_SETUP = "key-rs"            # width=8: the RS code, once per key
# width=8: g(x)'s coefficients of x^0 .. x^3 (a = x, 1/a = 0xA6 modulo 0x14D; Twofish paper 4.3).
RS_GENERATOR = (0x01, 0xA4, 0x02, 0xA4)
# width=32, 8 phases: which h the unit evaluates.
G_LOW, G_HIGH, SUBKEY_EVEN, SUBKEY_ODD = range(4)


class TwofishSharedG(NarrowDatapath):
    """Twofish with ``units`` h functions (2: width=64, 1: width=32 and, a byte per clock,
    width=8 in the subclass); module docstring."""

    def __init__(self, hw: TwofishHardware, width: int) -> None:
        shape = CoreShape(128, tuple(sorted(hw.options.key_sizes)))
        super().__init__(width=width, block_bits=128, key_bits=shape.key_bits,
                         key_len_bits=shape.key_len_bits)
        self.hw = hw
        self.sizes = shape.key_sizes
        self.units = 2 if width == 64 else 1
        self.byte_clocks = 4 if width == 8 else 1    # clocks per h evaluation
        # The byte-serial core is the area minimum: its four 32-bit adders (the subkey PHT and
        # F's) ripple, where the faster cores use Kogge-Stone as the iterative one does.
        self.adder = "ripple" if width == 8 else ADDER
        self.has_enc, self.has_dec = hw.options.has_encrypt, hw.options.has_decrypt
        self.keys = TwofishKeyWords(hw, self.sizes, shape.key_len_bits, serial=width == 8)
        self.key_schedule = self.keys     # placed by the core as its key_schedule block

    # --- programs ---------------------------------------------------------------------------

    def _segments(self) -> tuple[Segment, ...]:
        if self.units == 2:
            return (Segment(BLOCK, {k: CLOCKS for k in self.sizes}, 2),)
        return tuple(Segment(name, {k: pairs for k in self.sizes}, steps * self.byte_clocks)
                     for name, _, pairs, steps in SERIAL_SEGMENTS)

    def programs(self) -> dict[bool, Program]:
        program = Program(main=self._segments())
        out: dict[bool, Program] = {}
        if self.has_enc:
            out[False] = program
        if self.has_dec:
            out[True] = program
        return out

    def describe(self) -> dict[str, object]:
        program = next(iter(self.programs().values()))
        bits = self.sizes[-1]
        return {
            "q": self.hw.q_kind, "whiten": "cycles", "sbox": "fly", "adder": self.adder,
            "h_functions": self.units,
            "g_functions": 1,
            "subkey_h_functions": "shared with g" if self.units == 1 else 1,
            "h_byte_lanes": 1 if self.byte_clocks == 4 else 4 * self.units,
            "clocks_per_round": (4 if self.units == 1 else 2) * self.byte_clocks,
            "latency": program.latency(bits), "interval": program.interval(bits),
            "key_setup": program.key_setup(bits),
        }

    # --- hardware ---------------------------------------------------------------------------

    def elaborate(self, platform: object) -> Module:
        m = Module()
        hw = self.hw
        me, mo, s_words, flags = self._key_words(m)
        start = hw.chain_start(flags)
        state = [Signal(WORD, name=f"p{b}", reset_less=True) for b in range(4)]
        t0 = Signal(WORD, name="t0", reset_less=True)
        a = Signal(WORD, name="a", reset_less=True)
        pair, kind, phase = self._control(m)
        x1_rotated = get_bytes_le(state[1].rotate_left(8))

        def subkey_input(odd: Value) -> list[Value]:
            # h(2p rho, Me) or h((2p+1) rho, Mo): four copies of the byte 2p + odd.
            return [Cat(odd, pair)] * 4

        finish = self.active & (phase == SUBKEY_ODD)
        if self.units == 2:
            # Step 0: g(R0) and h(2p rho, Me); step 1: g(R1 <<< 8) and h((2p+1) rho, Mo).
            second = self.step[0]
            g_in = [Mux(second, hi, lo) for lo, hi in zip(get_bytes_le(state[0]), x1_rotated)]
            g_out = h_function(m, g_in, s_words, start, hw.q_kind, "g")
            k_words = [Mux(second, o, e) for e, o in zip(me, mo)]
            k_out = h_function(m, subkey_input(second), k_words, start, hw.q_kind, "hk")
            t1: Value = g_out
            with m.If(self.active & ~second):
                m.d.sync += [t0.eq(g_out), a.eq(k_out)]
        else:
            t1 = Signal(WORD, name="t1", reset_less=True)
            odd = phase[0]
            subkey = phase[1]
            x_in = [Mux(subkey, s, Mux(odd, r1, r0)) for r0, r1, s in
                    zip(get_bytes_le(state[0]), x1_rotated, subkey_input(odd))]
            k_words = [Mux(subkey, Mux(odd, o, e), s) for e, o, s in zip(me, mo, s_words)]
            k_out = h_function(m, x_in, k_words, start, hw.q_kind, "h")
            with m.If(self.active):
                with m.Switch(phase):
                    with m.Case(G_LOW):
                        m.d.sync += t0.eq(k_out)
                    with m.Case(G_HIGH):
                        m.d.sync += t1.eq(k_out)
                    with m.Case(SUBKEY_EVEN):
                        m.d.sync += a.eq(k_out)
        k0, k1 = self._subkeys(m, a, k_out)
        out = self._round(m, state, t0, t1, k0, k1, kind)
        with m.If(self.load_block):
            m.d.sync += Cat(*state).eq(Cat(*block_words(self.block_in)))
        with m.Elif(finish):
            m.d.sync += Cat(*state).eq(Cat(*out))
        m.d.comb += self.block_out.eq(words_block(state))
        return m

    def _control(self, m: Module) -> tuple[Signal, Signal, Signal]:
        """Pair index, cycle kind and phase of this clock, from the clock's place in the
        20-pair schedule (tabulated at generation time)."""
        enc, dec = cycles_schedule(ROUNDS)
        clock = Signal(5, name="pair_clock")
        phase = Signal(2, name="phase")
        if self.units == 2:
            m.d.comb += [clock.eq(self.round[:5]), phase.eq(Cat(self.step[0], Const(1, 1)))]
        else:
            # Phase = which of the round's four h evaluations; each takes ``byte_clocks`` steps.
            shift = 2 if self.byte_clocks == 4 else 0
            for name, first, _, steps in SERIAL_SEGMENTS:
                with m.If(self.running(name)):
                    m.d.comb += [clock.eq(first + self.round[:5]),
                                 phase.eq(self.step[shift:shift + 2] + (4 - steps))]
        pair = Signal(7, name="pair")  # h's input byte is 2p or 2p + 1
        kind = Signal(KIND_BITS, name="kind")
        directions = [d for d, has in ((0, self.has_enc), (1, self.has_dec)) if has]
        decrypt = self.decrypt if len(directions) == 2 else Const(directions[0], 1)
        with m.Switch(Cat(clock, decrypt)):
            for d in directions:
                for c, (p, what) in enumerate(dec if d else enc):
                    with m.Case(c | d << 5):
                        m.d.comb += [pair.eq(p), kind.eq(what)]
        return pair, kind, phase

    def _subkeys(self, m: Module, a: Value, h_odd: Value) -> tuple[Value, Value]:
        """K_2p = A + B, K_2p+1 = (A + 2B) <<< 9 with B = h((2p+1) rho, Mo) <<< 8."""
        pht = PseudoHadamard(WORD, self.adder)
        m.submodules.subkey_pht = pht
        m.d.comb += [pht.a.eq(a), pht.b.eq(h_odd.rotate_left(8))]
        return pht.a_out, pht.b_out.rotate_left(9)

    def _round(self, m: Module, x: list[Signal], t0: Value, t1: Value, k0: Value, k1: Value,
               kind: Value) -> list[Value]:
        """F's outputs and the rotations (as hw.TwofishDatapath._round), then the clock kind."""
        f0, f1 = keyed_pht(m, t0, t1, k0, k1, self.adder)
        enc = ((x[2] ^ f0).rotate_right(1), x[3].rotate_left(1) ^ f1)
        dec = (x[2].rotate_left(1) ^ f0, (x[3] ^ f1).rotate_right(1))
        if not self.has_dec:
            y2, y3 = enc
        elif not self.has_enc:
            y2, y3 = dec
        else:
            y2, y3 = Mux(self.decrypt, dec[0], enc[0]), Mux(self.decrypt, dec[1], enc[1])
        swapped = [y2, y3, x[0], x[1]]
        return TwofishDatapath._cycle_kinds(m, list(x), swapped, {"kind": kind,
                                                                  "pair": (k0, k1)})

    def _key_words(self, m: Module) -> tuple[list[Value], list[Value], list[Value],
                                             Value | None]:
        """Me, Mo, the S words in stage order and the key-size flags (3-in-1), from the key
        schedule block; width=8 runs its RS setup."""
        ks = self.keys
        m.d.comb += [ks.key.eq(self.key), ks.key_len.eq(self.key_len),
                     ks.load_key.eq(self.load_key)]
        if ks.serial:
            m.d.comb += [ks.rs_clock.eq(self.running(RS_SETUP)), ks.group.eq(self.round[:2]),
                         ks.byte_step.eq(self.step[:3])]
        k = self.hw.k_max
        flags = ks.flags if self.hw.key_size_flags_of(self.key_len) is not None else None
        return (unpack(ks.me, k), unpack(ks.mo, k), unpack(ks.s, k), flags)


class TwofishKeyWords(Elaboratable):
    """Me, Mo and the S words (placed as the core's ``key_schedule``): loaded with the key, S by
    the RS networks at load, or (``serial``, width=8) one key byte per clock in the RS setup."""

    def __init__(self, hw: TwofishHardware, sizes: tuple[int, ...], key_len_bits: int,
                 serial: bool) -> None:
        self.hw, self.sizes, self.serial = hw, sizes, serial
        words = hw.k_max * WORD
        self.key = Signal(max(sizes))
        self.key_len = Signal(key_len_bits)
        self.load_key = Signal()
        self.rs_clock = Signal()       # serial: an RS setup clock
        self.group = Signal(2)         # serial: which S word (the setup's round)
        self.byte_step = Signal(3)     # serial: which of its key bytes (the setup's step)
        self.me = Signal(words)
        self.mo = Signal(words)
        self.s = Signal(words)
        self.flags = Signal(2)         # 3-in-1: is k = 2, is k = 3

    def elaborate(self, platform: object) -> Module:
        m = Module()
        hw = self.hw
        k = hw.k_max
        words = key_words(self.key, 2 * k)
        me = [Signal(WORD, name=f"me{i}", reset_less=True) for i in range(k)]
        mo = [Signal(WORD, name=f"mo{i}", reset_less=True) for i in range(k)]
        flags_in = hw.key_size_flags_of(self.key_len)
        with m.If(self.load_key):
            m.d.sync += [Cat(*me).eq(Cat(*words[0::2])), Cat(*mo).eq(Cat(*words[1::2]))]
        if flags_in is not None:
            flags = Signal(2, name="key_size", reset_less=True)
            with m.If(self.load_key):
                m.d.sync += flags.eq(flags_in)
            m.d.comb += self.flags.eq(flags)
        s = self._rs_serial(m, me, mo) if self.serial else self._rs_at_load(m, words)
        m.d.comb += [self.me.eq(Cat(*me)), self.mo.eq(Cat(*mo)), self.s.eq(Cat(*s))]
        return m

    def _rs_at_load(self, m: Module, words: list[Value]) -> list[Signal]:
        """The S words in stage order, by RS at key load (as hw.TwofishKeyStep)."""
        k = self.hw.k_max
        rows = rs_rows()
        s_of = [wire(m, linear_map(Cat(words[2 * i], words[2 * i + 1]), rows), f"rs{i}")
                for i in range(k)]
        staged = {size: Cat(*[s_of[size // 64 - j] if j <= size // 64 else Const(0, WORD)
                              for j in range(1, k + 1)])
                  for size in self.sizes}
        s_loaded = select_by_key_len(self.key_len, staged, {size: size // 8 for size in staged})
        s = [Signal(WORD, name=f"s{i}", reset_less=True) for i in range(k)]
        with m.If(self.load_key):
            m.d.sync += Cat(*s).eq(s_loaded)
        return s

    def _rs_serial(self, m: Module, me: list[Signal], mo: list[Signal]) -> list[Signal]:
        """The S words by RS as a division by the code's generator polynomial (Twofish paper
        4.3: S_i is the remainder of the key bytes m_{8i+7} .. m_{8i} x^4 modulo
        g(x) = x^4 + (a + 1/a) x^3 + a x^2 + (a + 1/a) x + 1, a = x over x^8+x^6+x^3+x^2+1): one
        key byte per clock into a 4-byte shift register with three constant multipliers, in
        place of the 64-to-32-bit RS network. Group i (the setup's round) makes S_i into s0
        and pushes the earlier words on, so s0 .. s_{k-1} end as S_{k-1} .. S_0, stage order."""
        k = self.hw.k_max
        s = [Signal(WORD, name=f"s{i}", reset_less=True) for i in range(k)]
        key_bytes = [w[8 * b:8 * b + 8] for i in range(k) for w in (me[i], mo[i])
                     for b in range(4)]
        byte = Signal(8, name="rs_byte")
        with m.Switch(Cat(self.byte_step, self.group)):
            for i in range(k):
                for t in range(8):
                    with m.Case(t | i << 3):
                        m.d.comb += byte.eq(key_bytes[8 * i + 7 - t])
        head = wire(m, Mux(self.byte_step == 0, 0, s[0]), "rs_head")
        feedback = wire(m, head[24:] ^ byte, "rs_feedback")
        multiples = Cat(*[linear_map(feedback, const_mul_matrix(c, RS_POLYNOMIAL))
                          for c in RS_GENERATOR])
        with m.If(self.rs_clock):
            m.d.sync += s[0].eq(Cat(Const(0, 8), head[:24]) ^ multiples)
            with m.If(self.byte_step == 0):
                m.d.sync += [s[j + 1].eq(s[j]) for j in range(k - 1)]
        return s


class TwofishByteSerial(TwofishSharedG):
    """width=8: one key-dependent S-box byte lane (Fischer's "reduce the number of q blocks",
    which he did not build). The single h unit of width=32 takes one byte per clock: byte i of its
    input goes through the q chain of byte i (q0 or q1 at each stage, chosen by i) with byte i of
    each stage's key word, and MDS column i of the result is XORed into an accumulator; the
    fourth clock's column completes h combinationally. Four clocks per h, 16 per round."""

    def programs(self) -> dict[bool, Program]:
        # The RS code runs byte-serially once per key (and direction: the controller keeps one
        # flag per direction; a second run recomputes the same words): k groups of 8 clocks.
        setup = Segment(RS_SETUP, {k: k // 64 for k in self.sizes}, 8)
        return {d: Program(main=p.main, setup=(setup,)) for d, p in super().programs().items()}

    def elaborate(self, platform: object) -> Module:
        m = Module()
        hw = self.hw
        me, mo, s_words, flags = self._key_words(m)
        start = hw.chain_start(flags)
        state = [Signal(WORD, name=f"p{b}", reset_less=True) for b in range(4)]
        t0, t1, a, acc = (Signal(WORD, name=n, reset_less=True) for n in ("t0", "t1", "a", "acc"))
        pair, kind, phase = self._control(m)
        byte = self.step[:2]
        odd, subkey = phase[0], phase[1]
        source = Mux(odd, state[1].rotate_left(8), state[0])
        x = Signal(8, name="h_in")
        m.d.comb += x.eq(Mux(subkey, Cat(odd, pair), _byte_of(m, source, byte, "x")))
        stage_words = [Mux(subkey, Mux(odd, o, e), sw) for e, o, sw in zip(me, mo, s_words)]
        key_bytes = [_byte_of(m, w, byte, f"l{j}") for j, w in enumerate(stage_words)]
        column = _mds_column(m, _chain_byte(m, x, key_bytes, byte, start, hw.q_kind), byte)
        total = wire(m, Mux(byte == 0, 0, acc) ^ column, "h_sum")
        h_done = self.active & (byte == 3)
        with m.If(self.active):
            m.d.sync += acc.eq(total)
        with m.If(h_done):
            with m.Switch(phase):
                for target, value in ((G_LOW, t0), (G_HIGH, t1), (SUBKEY_EVEN, a)):
                    with m.Case(target):
                        m.d.sync += value.eq(total)
        k0, k1 = self._subkeys(m, a, total)
        out = self._round(m, state, t0, t1, k0, k1, kind)
        with m.If(self.load_block):
            m.d.sync += Cat(*state).eq(Cat(*block_words(self.block_in)))
        with m.Elif(h_done & (phase == SUBKEY_ODD)):
            m.d.sync += Cat(*state).eq(Cat(*out))
        m.d.comb += self.block_out.eq(words_block(state))
        return m


def _byte_of(m: Module, word: Value, index: Value, name: str) -> Signal:
    """Byte ``index`` (0 = least significant) of a word."""
    out = Signal(8, name=f"{name}_byte")
    with m.Switch(index):
        for i in range(4):
            with m.Case(i):
                m.d.comb += out.eq(word[8 * i:8 * i + 8])
    return out


def _chain_byte(m: Module, x: Value, key_bytes: list[Value], index: Value, start: ChainStart,
                q_kind: str) -> Value:
    """s_i(x) of h for the byte position ``index``: the chain of hw.h_function for one byte, each
    stage's q0 or q1 chosen by the position (CHAINS), key byte i after every stage but the last."""
    value: Value | None = None
    for stage in range(start.top, -1, -1):
        if value is None:
            source: Value = x
        elif stage in start.is_k:
            source = Mux(start.is_k[stage], x, value)
        else:
            source = value
        which = Signal(name=f"q{stage}_is_q1")
        with m.Switch(index):
            for i, chain in enumerate(CHAINS):
                with m.Case(i):
                    m.d.comb += which.eq(chain[stage])
        both = [q_permutation(m, wire(m, source, f"c{stage}_in"), q, q_kind, f"c{stage}q{q}")
                for q in (0, 1)]
        permuted = Mux(which, both[1], both[0])
        value = wire(m, permuted ^ key_bytes[stage - 1] if stage else permuted, f"c{stage}")
    assert value is not None
    return value


def _mds_column(m: Module, y: Value, index: Value) -> Signal:
    """MDS column ``index`` times the byte y (little-endian word): the three products y * 01,
    y * 5B, y * EF, each output byte choosing its product by the column."""
    products = {c: wire(m, linear_map(y, const_mul_matrix(c, TWOFISH_POLY)), f"y_{c:02x}")
                for c in sorted({c for row in TWOFISH_MDS for c in row})}
    out = Signal(WORD, name="mds_column")
    with m.Switch(index):
        for i in range(4):
            with m.Case(i):
                m.d.comb += out.eq(Cat(*[products[TWOFISH_MDS[r][i]] for r in range(4)]))
    return out


class TwofishNarrowHardware(TwofishHardware):
    """Twofish with narrow datapaths (CipherInfo.arch_hardware: narrow)."""

    def narrow_datapath(self, width: int, keys: str = "rewind") -> NarrowDatapath:
        if width not in WIDTHS:
            raise CipherbenchError(f"twofish has no {width}-bit datapath; valid widths: "
                                   f"{', '.join(map(str, WIDTHS))}")
        if self.whiten != "cycles" or self.subkeys != "fly" or self.keying != "zero":
            raise CipherbenchError("the narrow Twofish datapaths whiten in clocks of their own "
                                   "with subkeys and S-boxes on the fly: drop whiten=, "
                                   "subkeys= and keying=")
        if width == 8:
            return TwofishByteSerial(self, width)
        return TwofishSharedG(self, width)


HARDWARE = TwofishNarrowHardware
