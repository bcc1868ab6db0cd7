"""MISTY1 hardware description (RFC 2994): one FO round per clock with its FL layer, 9 clocks.

Structure (Sugawara et al., section 2.2, MISTY1, Fig. 8 -- the straightforward loop
architecture): the 32-bit FO function (three FI functions) and the 64-bit FL/FL^-1 layer run in
the same clock, plus one clock of data I/O: 9 clocks per block. The compact variant of Fig. 9
(FO over three clocks with one FI) is ``narrow.py``, on the narrow architecture.

Clock 1 (``first``) takes the block through the first FL layer (RFC 2994 section 2.3: FL 0/1
before round 0; decryption: FL^-1 8/9). Clocks 2..9 are FO rounds 0..7 (decryption 7..0), with
an FL layer after rounds 1, 3, 5, 7 (decryption: FL^-1 after 6, 4, 2, 0), i.e. in clocks 3, 5, 7,
9 of both directions. In the swapped Feistel form the register holds (A, B) with A the FO input,
and a clock computes t = B ^ FO(A), then (t, A), each through the clock's FL layer; the last clock
outputs (A, t) instead. The register holds A already XORed with the KO1 || KO2 of the round it
goes into, so FO starts from a register; the I/O clock makes that possible for round 0 too, which
is why it is kept (without it, round 0's keys would reach FO through the key schedule's
start-state multiplexers: 8 clocks at 420 MHz against 9 at 500, NanGate45).

Key state (key_state_bits = 268): the words K_0..K_7 and K'_0..K'_7 (K'_i = FI(K_i, K_{i+1}),
EK[8..15] of the RFC) rotated by m words, so position p holds index p + m, then control bits.
Round k runs at m = k + 1: its FO keys sit at fixed positions, wiring. The FL keys of layer i are
the words at i - m, one of a few offsets that the state carries one-hot (with the pairing of keys
to halves, which differs between the directions). K' is computed from the key port at load
(eight FI functions in parallel: one FI deep, shallower than a round), as the seed's 128-bit
"sub-key" register holds it; making K' over several clocks would need a key-setup phase the
iterative generator does not have (the seed spends 10 clocks).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath
from ...components.aes_sbox import table_lookup
from ...errors import CipherbenchError
from .model import S7, S9

ROUNDS = 8
CLOCKS = ROUNDS + 1  # the I/O clock, then the FO rounds
SBOX_KINDS = ("logic", "table")
WORDS = 8
# The FL keys a key state offers: (offset, swap). The keys of layer i sit at offset i - m (mod 8)
# in a state rotated by m; swap False gives the FO side ("t") FL_{2i} and the other side ("A")
# FL_{2i+1}, swap True the reverse (decryption pairs t with FL^-1_{2i+1}). In the order of the
# one-hot code: the encryption input layer, encryption's layers after rounds, decryption's.
FL_CHOICES = ((0, True), (7, False), (6, False), (5, False), (4, False),
              (4, True), (5, True), (6, True), (7, True))
# The FO keys of round k at rotation m = k + 1: positions of KO1..KO4 in K, of KI1..KI3 in K'.
KO_POSITIONS = (7, 1, 6, 3)  # K_k, K_{k+2}, K_{k+7}, K_{k+4}
KI_POSITIONS = (4, 0, 2)     # K'_{k+5}, K'_{k+1}, K'_{k+3}
# The next round's KO1, KO2 in the same state: round k+1 (encryption), round k-1 (decryption).
NEXT_POSITIONS = {False: (0, 2), True: (6, 0)}
# Control bits: FL layer after this clock's round, that layer inverted (FL^-1), the next round's
# KO1/KO2 for decryption (else encryption), then the FL-key choice one-hot.
CTL_BITS = 3 + len(FL_CHOICES)
STATE_BITS = 2 * 16 * WORDS + CTL_BITS
# Round key bus: KO1..KO4, KI1..KI3, the next round's KO1, KO2, the FL keys (and, or) of the t
# side and of the A side, and two control bits.
RK_BITS = 13 * 16 + 2


# --- S-boxes ----------------------------------------------------------------------------------


@cache
def algebraic_normal_form(table: tuple[int, ...], in_bits: int, out_bits: int
                          ) -> tuple[tuple[int, ...], ...]:
    """Per output bit, the monomials (input-bit masks; 0 is the constant 1) of its algebraic
    normal form, by the Moebius transform of its truth table. MISTY1's S9 is quadratic and S7
    cubic by design (RFC 2994 section 2.3 gives them as such equations): a few ANDs and XORs."""
    forms = []
    for bit in range(out_bits):
        coeffs = [(table[x] >> bit) & 1 for x in range(1 << in_bits)]
        for i in range(in_bits):
            for x in range(1 << in_bits):
                if x & (1 << i):
                    coeffs[x] ^= coeffs[x ^ (1 << i)]
        forms.append(tuple(x for x in range(1 << in_bits) if coeffs[x]))
    return tuple(forms)


def _balanced_xor(terms: list[Value]) -> Value:
    """XOR of the terms as a balanced tree (log depth)."""
    if not terms:
        return Const(0, 1)
    while len(terms) > 1:
        terms = [terms[i] ^ terms[i + 1] if i + 1 < len(terms) else terms[i]
                 for i in range(0, len(terms), 2)]
    return terms[0]


class MistySbox(Elaboratable):
    """S7 or S9: ``logic`` from its algebraic normal form (one AND per monomial, products of three
    built on a shared product of two, a balanced XOR tree per output bit), or ``table``: a
    lookup table as the seed used."""

    def __init__(self, bits: int, kind: str) -> None:
        if kind not in SBOX_KINDS:
            raise ValueError(f"unknown S-box kind {kind!r}; valid: {', '.join(SBOX_KINDS)}")
        self.bits, self.kind = bits, kind
        self.table = S9 if bits == 9 else S7
        self.i = Signal(bits)
        self.o = Signal(bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        if self.kind == "table":
            table_lookup(m, self.i, self.table, self.o)
            return m
        forms = algebraic_normal_form(self.table, self.bits, self.bits)
        products: dict[int, Value] = {1 << k: self.i[k] for k in range(self.bits)}
        for mask in sorted({x for form in forms for x in form if x}, key=_weight):
            if mask not in products:
                products[mask] = self._product(m, mask, products)
        outs = []
        for form in forms:
            terms = [products[x] for x in form if x]
            value = _balanced_xor(terms)
            outs.append(~value if 0 in form else value)
        m.d.comb += self.o.eq(Cat(*outs))
        return m

    def _product(self, m: Module, mask: int, products: dict[int, Value]) -> Value:
        low = mask & -mask
        rest = mask ^ low
        if rest not in products:
            products[rest] = self._product(m, rest, products)
        wire = Signal(name=f"p{mask:x}")
        m.d.comb += wire.eq(products[rest] & products[low])
        return wire


def _weight(mask: int) -> tuple[int, int]:
    return mask.bit_count(), mask


# --- FI, FO, FL -------------------------------------------------------------------------------


class FI(Elaboratable):
    """FI(in, key) of RFC 2994 section 2.3 on 16 bits: S9, S7, the key, S9."""

    def __init__(self, sbox: str) -> None:
        self.sbox = sbox
        self.i = Signal(16)
        self.key = Signal(16)
        self.o = Signal(16)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        d9_in, d7_in = self.i[7:], self.i[:7]
        m.submodules.s9a = s9a = MistySbox(9, self.sbox)
        m.submodules.s7 = s7 = MistySbox(7, self.sbox)
        m.submodules.s9b = s9b = MistySbox(9, self.sbox)
        d9 = Signal(9)
        d7 = Signal(7)
        m.d.comb += [s9a.i.eq(d9_in), d9.eq(s9a.o ^ d7_in),
                     s7.i.eq(d7_in), d7.eq(s7.o ^ d9[:7] ^ self.key[9:]),
                     s9b.i.eq(d9 ^ self.key[:9]),
                     self.o.eq(Cat(s9b.o ^ d7, d7))]
        return m


def _fi(m: Module, name: str, x: Value, key: Value, sbox: str) -> Value:
    fi = FI(sbox)
    m.submodules[name] = fi
    m.d.comb += [fi.i.eq(x), fi.key.eq(key)]
    return fi.o


def fo_keyed(m: Module, keyed: Value, ko: list[Value], ki: list[Value], sbox: str) -> Value:
    """FO of RFC 2994 section 2.3 on an input already XORed with KO1 || KO2 (``keyed``). The second
    FI does not depend on the first (only the XOR after it does), so the path is two FI deep; the
    unkeyed right half, which the first FI's output is XORed with, is recovered beside it."""
    t1 = keyed[:16] ^ ko[1]
    t0 = _fi(m, "fi1", keyed[16:], ki[0], sbox) ^ t1
    t1 = _fi(m, "fi2", keyed[:16], ki[1], sbox) ^ t0
    t0 = _fi(m, "fi3", t0 ^ ko[2], ki[2], sbox) ^ t1
    t1 = t1 ^ ko[3]
    return Cat(t0, t1)


def fl_layer_half(x: Value, and_key: Value, or_key: Value, inverse: Value) -> Value:
    """FL (inverse = 0) or FL^-1 (inverse = 1) of one 32-bit half, both built and selected."""
    d0, d1 = x[16:], x[:16]
    f1 = d1 ^ (d0 & and_key)
    forward = Cat(f1, d0 ^ (f1 | or_key))
    b0 = d0 ^ (d1 | or_key)
    backward = Cat(d1 ^ (b0 & and_key), b0)
    return Mux(inverse, backward, forward)


# --- round key bus ----------------------------------------------------------------------------


class RoundKey:
    """Fields of the round key bus (see RK_BITS)."""

    def __init__(self, rk: Value) -> None:
        words = [rk[RK_BITS - 16 * (n + 1):RK_BITS - 16 * n] for n in range(13)]
        self.ko = words[0:4]
        self.ki = words[4:7]
        self.next_ko = Cat(words[8], words[7])  # KO1 || KO2 of the next round
        self.fl_t = (words[9], words[10])   # (and, or) for the FO side
        self.fl_a = (words[11], words[12])  # (and, or) for the other side
        self.fl_flag, self.fl_inverse = rk[0], rk[1]


class Misty1Datapath(RoundDatapath):
    """The I/O clock (``first``: the input FL layer) or one FO round with its FL layer after
    (module docstring). The register holds (A ^ (KO1 || KO2), B), A being the FO input and the
    keys those of the round it goes into: FO starts from a register, and the next round's keys
    are XORed in after the FL layer, long before FO's result arrives.

    Which FL keys go where, and FL or FL^-1 after a round, come with the round key; ``decrypt``
    only chooses FL or FL^-1 for the input layer. (A direction select on every FL bit and key
    is a net of a few hundred loads, and such nets become long buffer chains on the critical
    path; the input layer's select from the start state's control bits would queue behind the
    start-state multiplexer's.)"""

    def __init__(self, sbox: str) -> None:
        super().__init__(block_bits=64, round_key_bits=RK_BITS)
        self.sbox = sbox

    def elaborate(self, platform: object) -> Module:
        m = Module()
        white = RoundKey(self.rk_white)
        rk = RoundKey(self.rk)
        # The input layer takes the high half with the A-side keys: the encryption start state
        # offers FL_0 there, the decryption start state (= encryption's last) FL_9.
        entered = Cat(fl_layer_half(self.block_in[:32], *white.fl_t, self.decrypt),
                      fl_layer_half(self.block_in[32:], *white.fl_a, self.decrypt) ^ rk.next_ko)
        keyed, b = self.state_in[32:], self.state_in[:32]
        a = Signal(32)
        m.d.comb += a.eq(keyed ^ Cat(rk.ko[1], rk.ko[0]))
        t = Signal(32)
        m.d.comb += t.eq(b ^ fo_keyed(m, keyed, rk.ko, rk.ki, self.sbox))
        t_fl = Mux(rk.fl_flag, fl_layer_half(t, *rk.fl_t, rk.fl_inverse), t)
        a_fl = Mux(rk.fl_flag, fl_layer_half(a, *rk.fl_a, rk.fl_inverse), a)
        # The last round's output is not keyed.
        t_next = t_fl ^ Mux(self.last, 0, rk.next_ko)
        m.d.comb += self.state_out.eq(Mux(self.first, entered,
                                          Mux(self.last, Cat(t_next, a_fl), Cat(a_fl, t_next))))
        return m


# --- key schedule -----------------------------------------------------------------------------


def _words(value: Value) -> list[Value]:
    """16-bit words, word 0 the most significant."""
    n = len(value) // 16
    return [value[16 * (n - 1 - w):16 * (n - w)] for w in range(n)]


def _pack(words: list[Value]) -> Value:
    return Cat(*reversed(words))


def _rotate_words(words: list[Value], by: int) -> list[Value]:
    """Position p of the result holds position p + by of the input (by words forward)."""
    return [words[(p + by) % len(words)] for p in range(len(words))]


def step_rotation(step: int, backward: bool) -> int:
    """Words the key state turns by in a step. Round k runs at rotation m = k + 1: encryption's
    state after the I/O clock has m = 0 (step 0 keeps it), then +1 per round. Decryption starts
    at m = 0 = 8 and its I/O clock turns to m = 1, where round 7's KO1, KO2 sit where every
    decryption round finds the next round's; then -1 per round (round 7 at m = 8)."""
    if not backward:
        return 0 if step == 0 else 1
    return 1 if step == CLOCKS - 1 else -1


@dataclass(frozen=True)
class Control:
    """Control bits of a key state (see CTL_BITS)."""

    fl_flag: bool
    fl_inverse: bool
    next_decrypt: bool
    choice: tuple[int, bool]

    def value(self) -> int:
        return (int(self.fl_flag) | int(self.fl_inverse) << 1 | int(self.next_decrypt) << 2
                | 1 << (3 + FL_CHOICES.index(self.choice)))


# The encryption start state: its FL keys feed the input layer (FL_0 on the high half).
START_CONTROL = Control(False, False, False, (0, True))


def control_after(step: int, backward: bool) -> Control:
    """Control bits of the state a step produces.

    Encryption clock c (odd, >= 3) has FL layer i = (c-1)/2 after its round, at rotation
    m = c - 1; decryption clock c (odd, >= 3) has FL^-1 layer i = (9-c)/2 at m = 10 - c. The last
    forward step makes the decryption start state too: its FL keys also feed decryption's input
    layer (FL^-1 8/9)."""
    if not backward:
        clock = step + 1
        offset = ((clock - 1) // 2 - (clock - 1)) % WORDS
        flag = clock % 2 == 1 and clock >= 3
        return Control(flag, False, False, (offset, False) if flag else START_CONTROL.choice)
    clock = CLOCKS - step
    offset = ((CLOCKS - clock) // 2 - (CLOCKS + 1 - clock)) % WORDS
    flag = clock % 2 == 1 and clock >= 3
    return Control(flag, True, True, (offset, True) if flag else START_CONTROL.choice)


class Misty1KeyStep(KeyStep):
    """Load (K and K' from the port) and one rotation step; see the module docstring."""

    def __init__(self, key_len_bits: int, step_bits: int, sbox: str) -> None:
        super().__init__(key_bits=128, key_len_bits=key_len_bits, state_bits=STATE_BITS,
                         round_key_bits=RK_BITS, step_bits=step_bits)
        self.sbox = sbox

    def elaborate(self, platform: object) -> Module:
        m = Module()
        k = _words(self.key)
        derived = [_fi(m, f"load_fi{i}", k[i], k[(i + 1) % WORDS], self.sbox) for i in range(WORDS)]
        start_ctl = Const(START_CONTROL.value(), CTL_BITS)
        m.d.comb += self.loaded.eq(Cat(start_ctl, _pack(derived), self.key))

        kw, kdw = self._arrays(self.state_in)
        ctl = Signal(CTL_BITS)
        turn = Signal(3)  # one-hot: hold, +1, -1 word
        with m.Switch(Cat(self.step, self.backward)):
            for step in range(CLOCKS):
                for backward in (0, 1):
                    with m.Case(step | backward << len(self.step)):
                        m.d.comb += [
                            ctl.eq(control_after(step, bool(backward)).value()),
                            turn.eq(1 << (0, 1, -1).index(step_rotation(step, bool(backward)))),
                        ]

        def turned(words: list[Value]) -> list[Value]:
            options = [words, _rotate_words(words, 1), _rotate_words(words, -1)]
            return [Mux(turn[0], options[0][p], Mux(turn[1], options[1][p], options[2][p]))
                    for p in range(WORDS)]

        new_k, new_kd = turned(kw), turned(kdw)
        m.d.comb += self.state_out.eq(Cat(ctl, _pack(new_kd), _pack(new_k)))
        m.d.comb += [self.rk_in.eq(self._start_round_key(self.state_in)),
                     self.rk_out.eq(self._round_key(self.state_out))]
        return m

    @staticmethod
    def _arrays(state: Value) -> tuple[list[Value], list[Value]]:
        return _words(state[CTL_BITS + 128:]), _words(state[CTL_BITS:CTL_BITS + 128])

    def _start_round_key(self, state: Value) -> Value:
        """rk_in: the architectures read it only as the whitening key of a start state, which
        here is the input FL layer's keys. Both start states are at rotation 0: encryption's
        gives FL_0 (high half) and FL_1, decryption's FL^-1_9 and FL^-1_8. The direction picks
        them directly, not the start state's FL-key choice: that choice's control bits would
        come through the start-state multiplexer first."""
        kw, kdw = self._arrays(state)
        full = self._round_key(state)
        # (and, or) of the low half's layer, then the high half's: FL_1 / FL_8, FL_0 / FL_9.
        low = [Mux(self.backward, kw[4], kdw[2]), Mux(self.backward, kdw[2], kw[4])]
        high = [Mux(self.backward, kdw[6], kw[0]), Mux(self.backward, kw[0], kdw[6])]
        return Cat(full[:RK_BITS - 9 * 16 - 64], _pack(low + high), full[RK_BITS - 9 * 16:])

    def _round_key(self, state: Value) -> Value:
        """The round key bus of a key state: FO keys by wiring, FL keys through the one-hot
        choice of the state's control bits."""
        kw, kdw = self._arrays(state)
        onehot = state[3:CTL_BITS]

        def pick(swapped: bool, array: list[Value], shift: int) -> Value:
            result: Value = Const(0, 16)
            for n, (offset, swap) in enumerate(FL_CHOICES):
                if swap == swapped:
                    result = result | Mux(onehot[n], array[(offset + shift) % WORDS], 0)
            return result

        # FL_{2i}: (K_i, K'_{i+6}); FL_{2i+1}: (K'_{i+2}, K_{i+4}); K_i at the choice's offset.
        even = [(kw, 0), (kdw, 6)]
        odd = [(kdw, 2), (kw, 4)]
        fl_t = [pick(False, *e) | pick(True, *o) for e, o in zip(even, odd)]
        fl_a = [pick(False, *o) | pick(True, *e) for e, o in zip(even, odd)]
        ko = [kw[p] for p in KO_POSITIONS]
        ki = [kdw[p] for p in KI_POSITIONS]
        next_ko = [Mux(state[2], kw[d], kw[e])
                   for d, e in zip(NEXT_POSITIONS[True], NEXT_POSITIONS[False])]
        return Cat(state[:2], _pack(ko + ki + next_ko + fl_t + fl_a))


class Misty1Hardware(CipherHardware):
    name = "misty1"
    # keys=stored: Feistel schedule, decryption round r needs encryption round R+1-r's key, so
    # the round-key memory stores the backward walk's keys too (arch/keymem.py).
    stored_decryption = "walk"
    travelling_keys = False  # pipelines: keys=stored only (docs/ciphers)
    block_bits = 64
    round_key_bits = RK_BITS
    key_state_bits = STATE_BITS

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)
        self.sbox = options.extra.get("sbox", SBOX_KINDS[0])
        if self.sbox not in SBOX_KINDS:
            raise ValueError(f"sbox={self.sbox}")

    def rounds(self, key_bits: int) -> int:
        return CLOCKS

    def datapath(self) -> Misty1Datapath:
        return Misty1Datapath(self.sbox)

    def key_step(self, key_len_bits: int, step_bits: int) -> Misty1KeyStep:
        return Misty1KeyStep(key_len_bits, step_bits, self.sbox)

    def segmented_key_step(self, key_len_bits: int, step_bits: int, segments: int) -> KeyStep:
        # The pipelines start decryption from forward key state R-1. This schedule's backward
        # walk is not the forward walk reversed state by state (a Feistel cipher's decryption
        # round r needs the key of encryption round R+1-r, one state later than AES's), so that
        # state would hand decryption the wrong keys: refuse rather than build a wrong core.
        raise CipherbenchError(
            f"{self.name}: the pipelined architecture is not supported (its decryption starts "
            f"from forward key state R-1; see docs/ciphers/{self.name}.md); use iterative or "
            "unrolled")

    def describe(self) -> dict[str, object]:
        return {"sbox": self.sbox, "data_fi": 3, "key_schedule_fi": WORDS, "fl_halves": 4}
