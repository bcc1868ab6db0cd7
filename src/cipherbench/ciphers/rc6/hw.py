"""RC6-32/20 hardware description: one round per clock and the key schedule's mixing loop.

Datapath (NSA seed section 5.2.1.4, Gaj & Chodowiec Fig. 11): two f(x) = x(2x + 1) squarers
(components/multipliers.py), the rotations by lg w = 5 (wiring), data-dependent barrel rotators
(constant time), and the key additions. Encryption and decryption share the squarers (and so the
rotation amounts); each modified word has a left rotator with an adder after it (encryption) and
a right rotator with a subtractor before it (decryption), so that no structural path joins the
two directions.

Clocks per block: R = 21, the 20 rounds and one clock for the output whitening. The iterative
architecture's round-key memory has R + 1 equal entries; with 64-bit entries (one round's key
pair) RC6 needs 22 of them: S[0..1] (input whitening), S[2r..2r+1] for round r, S[42..43] (output
whitening). With the output whitening in its own clock, entry r serves encryption clock r and the
decryption clock that inverts it (decryption clock d reads entry R - d), so no entry carries two
pairs. Folding the output whitening into round 20 instead would need 128-bit entries (round 20
carries four words), doubling the memory for one clock in 21.

Clock by clock (entry e holds S[2e], S[2e+1]):

=========  ==========================================  ============================================
clock      encryption                                  decryption
=========  ==========================================  ============================================
1 (first)  B, D += entry 0; round 1 with entry 1       A, C -= entry 21; round 20^-1 with entry 20
2 .. 20    round c with entry c                        round (21-c)^-1 with entry 21-c
21 (last)  A, C += entry 21 (no round)                 B, D -= entry 0 (no round)
=========  ==========================================  ============================================

Decryption keeps its state register rotated by one word, (D, A, B, C), so that the squarers read
the same register words (1 and 3) in both directions: no multiplexer sits in front of them.

Key schedule (``keys=stored`` only: 3 max(c, 44) = 132 iterations of the mixing loop, which cannot
be walked backward per round): the key state holds the S and L arrays, A, B and an iteration count.
One iteration per clock (the NSA's "single round of expansion per clock"): S is a 44-word shift
register whose head is S[i mod 44] and whose tail receives the new A; L is a c-word shift register
the same way. So neither array needs an index multiplexer. The third pass finalizes S[2t], S[2t+1]
after 90 + 2t iterations, when they sit in the two tail words: the key step raises ``rk_valid``
then, and the round-key memory takes the pair (entries 0..21 after iterations 90, 92, ..., 132).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath
from ...components.adders import AddSub, add
from ...components.bytes import from_words, get_words
from ...components.multipliers import Rc6F, reduce_rows
from ...components.rotators import BarrelRotator, barrel_rotate_left
from .model import P32, Q32

ROUNDS = 20
CLOCKS = ROUNDS + 1  # the output whitening has its own clock (see the module docstring)
S_WORDS = 2 * ROUNDS + 4
ITERATIONS = 3 * S_WORDS  # 3 max(c, 44) with c <= 8
FIRST_KEY = 2 * S_WORDS + 2  # after 90 iterations S[0] and S[1] are final
_MASK = 0xFFFFFFFF
ADDER = "kogge-stone"


def le_words(value: Value) -> list[Value]:
    """A 128-bit block in port order (byte 0 most significant) as RC6's words A, B, C, D, each
    read little-endian from its four bytes: byte swaps are wiring."""
    return [_swap(w) for w in get_words(value)]


def from_le_words(words: list[Value]) -> Value:
    return from_words([_swap(w) for w in words])


def _swap(word: Value) -> Value:
    return Cat(*[word[8 * (len(word) // 8 - 1 - b):8 * (len(word) // 8 - b)]
                 for b in range(len(word) // 8)])


def _wire(m: Module, value: Value, name: str) -> Signal:
    wire = Signal(len(value), name=name)
    m.d.comb += wire.eq(value)
    return wire


def _by_direction(decrypt: Value, enc: list[Value], dec: list[Value]) -> list[Value]:
    return [Mux(decrypt, d, e) for e, d in zip(enc, dec)]


class Rc6Datapath(RoundDatapath):
    """One RC6 round (or a whitening-only clock), both directions or one."""

    def __init__(self, directions: str) -> None:
        super().__init__(block_bits=128, round_key_bits=64)
        self.directions = directions

    def elaborate(self, platform: object) -> Module:
        m = Module()
        enc, dec = self.directions != "decrypt", self.directions != "encrypt"
        decrypt = self.decrypt if enc and dec else Const(int(dec), 1)
        block = le_words(self.block_in)
        state = le_words(self.state_in)
        x = [_wire(m, Mux(self.first, w, s), f"x{i}")
             for i, (w, s) in enumerate(zip(self._whiten_input(m, block, decrypt), state))]
        rounded = self._round(m, x, decrypt, enc, dec)
        final = self._whiten_output(m, state, decrypt)
        out = [Mux(self.last, f, r) for f, r in zip(final, rounded)]
        m.d.comb += self.state_out.eq(from_le_words(out))
        return m

    def _addsub(self, m: Module, name: str, a: Value, b: Value, sub: Value) -> Value:
        unit = AddSub(32, mode="both")
        m.submodules[name] = unit
        m.d.comb += [unit.a.eq(a), unit.b.eq(b), unit.sub.eq(sub)]
        return unit.o

    def _whiten_input(self, m: Module, w: list[Value], decrypt: Value) -> list[Value]:
        """Encryption: B += S0, D += S1. Decryption: A -= S42, C -= S43, then the rotation to
        (D, A, B, C) that the decryption register keeps. Both land on words 1 and 3."""
        k0, k1 = self.rk_white[:32], self.rk_white[32:]
        one = self._addsub(m, "white_in1", Mux(decrypt, w[0], w[1]), k0, decrypt)
        three = self._addsub(m, "white_in3", Mux(decrypt, w[2], w[3]), k1, decrypt)
        return [Mux(decrypt, w[3], w[0]), one, Mux(decrypt, w[1], w[2]), three]

    def _whiten_output(self, m: Module, r: list[Value], decrypt: Value) -> list[Value]:
        """The last clock. Encryption: A += S42, C += S43. Decryption: undo the register's
        rotation ((D, A, B, C) -> (A, B, C, D)), then B -= S0, D -= S1."""
        k0, k1 = self.rk[:32], self.rk[32:]
        p = self._addsub(m, "white_out_p", Mux(decrypt, r[2], r[0]), k0, decrypt)
        q = self._addsub(m, "white_out_q", Mux(decrypt, r[0], r[2]), k1, decrypt)
        return _by_direction(decrypt, [p, r[1], q, r[3]], [r[1], p, r[3], q])

    def _round(self, m: Module, x: list[Value], decrypt: Value, enc: bool,
               dec: bool) -> list[Value]:
        """Encryption on (A, B, C, D): A = ((A ^ t) <<< u) + k0, C = ((C ^ u) <<< t) + k1, then
        (B, C, D, A). Decryption on the rotated register (D, A, B, C) of the state (A', B', C',
        D') it inverts: A' = ((A - k0) >>> u) ^ t, C' = ((C - k1) >>> t) ^ u, then kept rotated.
        t = f(B) <<< 5 and u = f(D) <<< 5 are register words 1 and 3 in both directions."""
        t = self._f(m, "f_b", x[1])
        u = self._f(m, "f_d", x[3])
        k0, k1 = self.rk[:32], self.rk[32:]
        a = self._lane(m, "lane_a", x[0], t, u[:5], k0, decrypt, enc, dec)
        c = self._lane(m, "lane_c", x[2], u, t[:5], k1, decrypt, enc, dec)
        return _by_direction(decrypt, [x[1], c, x[3], a], [x[3], a, x[1], c])

    def _f(self, m: Module, name: str, value: Value) -> Value:
        unit = Rc6F(32)
        m.submodules[name] = unit
        m.d.comb += unit.i.eq(value)
        return _wire(m, unit.o.rotate_left(5), f"{name}_rot")

    def _lane(self, m: Module, name: str, word: Value, mask: Value, amount: Value, key: Value,
              decrypt: Value, enc: bool, dec: bool) -> Value:
        """One modified word: encryption ((word ^ mask) <<< amount) + key, decryption
        ((word - key) >>> amount) ^ mask. Each direction has its own rotator: a rotator shared
        by both would put the decryption subtractor and the encryption adder on one structural
        path (never taken, but timing analysis would report it)."""
        out: Value | None = None
        if enc:
            rotated = barrel_rotate_left(m, word ^ mask, amount, prefix=f"{name}_rotl")
            out = add(m, rotated, key, Const(0, 1), ADDER, prefix=f"{name}_add_")
        if dec:
            unkeyed = add(m, word, ~key, Const(1, 1), ADDER, prefix=f"{name}_sub_")
            rot = BarrelRotator(32, "right")
            m.submodules[f"{name}_rotr"] = rot
            m.d.comb += [rot.i.eq(unkeyed), rot.amount.eq(amount)]
            back = rot.o ^ mask
            out = back if out is None else Mux(decrypt, back, out)
        assert out is not None
        return _wire(m, out, f"{name}_out")


class Rc6KeyStep(KeyStep):
    """The RC6 key schedule's mixing loop, one iteration per step, forward only.

    Key state (low bits first): S[0..43] as a shift register (head first), L[0..c_max-1] likewise,
    A, B, the iteration count. ``rk_in`` is the tail pair (S[42], S[43] of the register), offered
    with ``rk_valid`` after iterations 90, 92, ..., 132 (see the module docstring).
    """

    def __init__(self, key_sizes: tuple[int, ...], key_len_bits: int, step_bits: int) -> None:
        self.key_sizes = key_sizes
        self.l_words = max(key_sizes) // 32
        self.count_bits = ITERATIONS.bit_length()
        super().__init__(key_bits=max(key_sizes), key_len_bits=key_len_bits,
                         state_bits=self.state_bits(key_sizes), round_key_bits=64,
                         step_bits=step_bits)
        self.rk_valid = Signal()  # the iterative generator writes rk_in only when this is high

    @staticmethod
    def state_bits(key_sizes: tuple[int, ...]) -> int:
        """S, L (as many words as the longest key), A, B and the iteration count."""
        return 32 * (S_WORDS + max(key_sizes) // 32 + 2) + ITERATIONS.bit_length()

    def _unpack(self, state: Value) -> tuple[list[Value], list[Value], Value, Value, Value]:
        words = [state[32 * i:32 * (i + 1)] for i in range(S_WORDS + self.l_words + 2)]
        s, rest = words[:S_WORDS], words[S_WORDS:]
        l_arr, a, b = rest[:self.l_words], rest[self.l_words], rest[self.l_words + 1]
        count = state[32 * len(words):]
        return s, l_arr, a, b, count

    @staticmethod
    def _pack(s: list[Value], l_arr: list[Value], a: Value, b: Value, count: Value) -> Value:
        return Cat(*s, *l_arr, a, b, count)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        # Load: S = P32 + i Q32 (constants), L = the key words (little-endian, key byte 0 first in
        # the left-aligned port), A = B = 0, no iteration yet.
        key_words = [_swap(w) for w in get_words(self.key)]
        init_s = [Const((P32 + i * Q32) & _MASK, 32) for i in range(S_WORDS)]
        m.d.comb += self.loaded.eq(self._pack(init_s, key_words, Const(0, 32), Const(0, 32),
                                              Const(0, self.count_bits)))
        s, l_arr, a, b, count = self._unpack(self.state_in)
        new_a = _wire(m, self._sum3(m, "a", s[0], a, b).rotate_left(3), "new_a")
        a_plus_b = _wire(m, add(m, new_a, b, Const(0, 1), ADDER, prefix="ab_"), "a_plus_b")
        mixed = self._sum3(m, "b", l_arr[0], new_a, b)
        new_b = _wire(m, barrel_rotate_left(m, mixed, a_plus_b[:5], prefix="b_rot"), "new_b")
        shifted_l = [self._l_word(p, l_arr, new_b) for p in range(self.l_words)]
        m.d.comb += [
            self.state_out.eq(self._pack(s[1:] + [new_a], shifted_l, new_a, new_b,
                                          (count + 1)[:self.count_bits])),
            self.rk_in.eq(Cat(s[-2], s[-1])),
            self.rk_valid.eq((count >= FIRST_KEY) & ~count[0]),
        ]
        next_s = self._unpack(self.state_out)[0]
        m.d.comb += self.rk_out.eq(Cat(next_s[-2], next_s[-1]))
        return m

    def _sum3(self, m: Module, name: str, x: Value, y: Value, z: Value) -> Value:
        """x + y + z mod 2^32: one row of full adders, then one carry-propagate adder."""
        s, c = reduce_rows(m, [x, y, z], 32, "wallace", prefix=f"{name}_csa")
        return _wire(m, add(m, s, c, Const(0, 1), ADDER, prefix=f"{name}_add_"),
                     f"{name}_sum")

    def _l_word(self, p: int, l_arr: list[Value], new_b: Value) -> Value:
        """L shifts by one word per iteration over its c words: B enters at word c-1, which the
        key length selects in a 3-in-1 core (c = 4, 6 or 8)."""
        lasts = {size // 32 - 1: size // 8 for size in self.key_sizes}
        word: Value = l_arr[p + 1] if p + 1 < self.l_words else new_b
        if p in lasts:
            word = new_b if len(lasts) == 1 else Mux(self.key_len == lasts[p], new_b, word)
        return word


class Rc6Hardware(CipherHardware):
    name = "rc6"
    block_bits = 128
    round_key_bits = 64

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)
        self.key_state_bits = Rc6KeyStep.state_bits(options.key_sizes)

    def rounds(self, key_bits: int) -> int:
        return CLOCKS

    def datapath(self) -> Rc6Datapath:
        return Rc6Datapath(self.options.directions)

    def key_step(self, key_len_bits: int, step_bits: int) -> Rc6KeyStep:
        return Rc6KeyStep(self.options.key_sizes, key_len_bits, step_bits)

    def describe(self) -> dict[str, object]:
        return {"rounds": ROUNDS, "clocks_per_block": CLOCKS, "squarers": 2,
                "data_rotators": 2, "key_schedule_iterations": ITERATIONS,
                "key_iterations_per_clock": 1}
