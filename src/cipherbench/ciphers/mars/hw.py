"""MARS (tweaked) hardware description: one round of any kind per clock, and the key schedule.

Datapath (NSA seed section 5.1.1.4, Gaj & Chodowiec Fig. 9): a single state register whose next
value depends on the round kind: unkeyed forward mixing (F), keyed core rounds with the E-function
in forward or backward mode (C), unkeyed backward mixing (B), and their inverses for decryption.
The kinds share four S-box lanes, two on S0 and two on S1 (the 512-entry S-box as its two 256-entry
halves, each a case statement): a mixing round looks up S0 and S1 twice each; the core's 9-bit
lookup S[M mod 512] is one S0 lane and one S1 lane and a multiplexer on bit 8. The E-function has a
32 x 32 multiplier (mod 2^32, components/multipliers.py) and two barrel rotators (constant time).

Clocks per block: R = 33. The iterative architecture's round-key memory has R + 1 equal entries;
encryption clock r reads entry r (and entry 0 for the input whitening), decryption clock d reads
entry R - d (and entry R). With 64-bit entries (one key pair) and the key operations spread so
that each entry serves one clock and the clock that inverts it:

=====  ===========================  ===================================================
entry  contents                     encryption clock = entry, decryption clock = 33 - entry
=====  ===========================  ===================================================
0      K0, K1                       enc 1: D0 += K0, D1 += K1 (whitening); dec 33: D0, D1 -= K0, K1
1      K2, K3 (mixing round 0)      enc 1: D2 += K2, D3 += K3, then F0; dec 32: F0^-1, then subtract
2-8    (mixing rounds 1..7)         F1..F7 / their inverses
9-24   K4 .. K35 in pairs           core rounds 0..15 / their inverses (K5, K7, ... key-fixed)
25-31  (mixing rounds 0..6)         B0..B6 / their inverses
32     K36, K37 (mixing round 7)    enc 32: B7, then D0, D1 -= K36, K37; dec 1: add, then B7^-1
33     K38, K39                     enc 33: D2, D3 -= K38, K39 (no round); dec 1 whitening: add
=====  ===========================  ===================================================

So 32 rounds and one clock of key subtraction; a 32-clock schedule would need 128-bit entries
(each core entry serving two rounds). Every entry also carries six control bits computed by the key
schedule from the entry index: the round kind (F, C forward mode, C backward mode, B), the mixing
round's extra addition (D3, D1 or none) and where its key pair goes (D0, D1 or D2, D3).

The core kinds and the mixing kinds that never run in the first clock (B, F^-1) read the state
register, not the whitened input: no path runs from the input adders through the multiplier.

Key schedule (``keys=stored`` only, NSA 5.1.1.3: ten words at a time, four iterations, then the
fixing of the multiplication keys). The key state is the 15-word array T as a rotating register
with one word processor: each clock either applies one word of the linear transformation
(T[i] ^= (T[i-7] ^ T[i-2]) <<< 3 ^ (4i + j), 15 clocks) or one S-box stirring step
(T[i] = (T[i] + S[T[i-1] mod 512]) <<< 9, 60 clocks), so T[i] is always at the head and T[i-1],
T[i-2], T[i-7] at fixed places. Then the array stands still while the iteration's entries are
emitted (``rk_valid``): K[10j + 2m], K[10j + 2m + 1] = T[8m mod 15], T[8m + 4 mod 15], the second
word key-fixed for core entries; entries without keys (mixing rounds) are emitted between them in
entry order. 4 x (15 + 60) + 34 = 334 clocks fill the memory.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, KeyStep, RoundDatapath
from ...components.adders import add
from ...components.bytes import from_words, get_words
from ...components.multipliers import Multiplier, reduce_rows
from ...components.rotators import barrel_rotate_left
from .model import FIX_TABLE, S

MIXING_ROUNDS = 8
CORE_ROUNDS = 16
CLOCKS = 2 * MIXING_ROUNDS + CORE_ROUNDS + 1
ENTRIES = CLOCKS + 1
ADDER = "kogge-stone"

# Control bits of a round-key entry, above the two key words.
KIND_F, KIND_CF, KIND_CB, KIND_B = 0, 1, 2, 3
EXTRA_NONE, EXTRA_D3, EXTRA_D1 = 0, 1, 2
RK_BITS = 64 + 6
# Key schedule phases.
LINEAR, STIR, EMIT = 0, 1, 2
STIR_STEPS = 4 * 15


# --- the entry plan: what each round-key entry holds (tabulated at generation time) ----------


def entry_first_key(e: int) -> int | None:
    """Index of the first of the two key words of entry ``e`` (None: a mixing round's entry)."""
    if e in (0, 1):
        return 2 * e
    if 9 <= e <= 24:
        return 2 * (e - 9) + 4
    if e in (32, 33):
        return 36 + 2 * (e - 32)
    return None


def entry_controls(e: int) -> tuple[int, int, bool, bool]:
    """(kind, extra, keyed, high pair) of entry ``e``; see the module docstring."""
    keyed = e in (0, 1, 32, 33)
    high = e in (1, 33)
    if 9 <= e <= 24:
        return (KIND_CF if e < 17 else KIND_CB), EXTRA_NONE, False, False
    if 25 <= e <= 32:
        i = e - 25  # backward mixing round i: the model's subtractions after rounds 1, 2, 5, 6
        extra = EXTRA_D3 if i in (1, 5) else EXTRA_D1 if i in (2, 6) else EXTRA_NONE
        return KIND_B, extra, keyed, high
    i = e - 1  # forward mixing round i (entries 1..8): additions after rounds 0, 1, 4, 5
    extra = EXTRA_D3 if i in (0, 4) else EXTRA_D1 if i in (1, 5) else EXTRA_NONE
    return KIND_F, (extra if 1 <= e <= 8 else EXTRA_NONE), keyed, high


def emission_ends() -> dict[int, int]:
    """Key-schedule iteration j -> the last entry emitted after it (entries are written in order,
    and each pair is emitted after the iteration that computed it)."""
    ends: dict[int, int] = {}
    for e in range(ENTRIES):
        first = entry_first_key(e)
        if first is not None:
            ends[first // 10] = e
    assert sorted(ends) == [0, 1, 2, 3]
    return ends


def pair_position(first_key: int) -> int:
    """Where K[first_key] sits in T after its iteration: K[10j + i] = T[4i mod 15]."""
    return (4 * (first_key % 10)) % 15


def controls_value(e: int) -> int:
    kind, extra, keyed, high = entry_controls(e)
    return kind | extra << 2 | int(keyed) << 4 | int(high) << 5


# --- shared pieces ---------------------------------------------------------------------------------


def le_words(value: Value) -> list[Value]:
    """A block or key in port order (byte 0 most significant) as MARS's little-endian words."""
    return [_swap(w) for w in get_words(value)]


def from_le_words(words: list[Value]) -> Value:
    return from_words([_swap(w) for w in words])


def _swap(word: Value) -> Value:
    n = len(word) // 8
    return Cat(*[word[8 * (n - 1 - b):8 * (n - b)] for b in range(n)])


def _wire(m: Module, value: Value, name: str) -> Signal:
    wire = Signal(len(value), name=name)
    m.d.comb += wire.eq(value)
    return wire


def _add(m: Module, name: str, a: Value, b: Value) -> Signal:
    return _wire(m, add(m, a, b, Const(0, 1), ADDER, prefix=f"{name}_"), name)


def _sub(m: Module, name: str, a: Value, b: Value) -> Signal:
    return _wire(m, add(m, a, ~b, Const(1, 1), ADDER, prefix=f"{name}_"), name)


def _addsub(m: Module, name: str, a: Value, b: Value, subtract: Value) -> Signal:
    """a + b or a - b: b inverted and the 1 as carry in when subtracting."""
    flipped = b ^ subtract.replicate(len(b))
    return _wire(m, add(m, a, flipped, subtract, ADDER, prefix=f"{name}_"), name)


def _pick(select: Value, choices: dict[int, Value], width: int = 32) -> Value:
    """AND-OR multiplexer on a small code (values not listed give 0)."""
    result: Value = Const(0, width)
    for code, value in choices.items():
        result = result | Mux(select == code, value, 0)
    return result


class SboxTable(Elaboratable):
    """A 32-bit S-box as table logic: one case statement over the index (256 or 512 entries)."""

    def __init__(self, entries: tuple[int, ...]) -> None:
        self.entries = entries
        self.i = Signal((len(entries) - 1).bit_length())
        self.o = Signal(32)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        with m.Switch(self.i):
            for index, value in enumerate(self.entries):
                with m.Case(index):
                    m.d.comb += self.o.eq(value)
        return m


# --- the datapath -------------------------------------------------------------------------------


class MarsDatapath(RoundDatapath):
    """Whitening, one round of the kind the entry names, key subtraction."""

    def __init__(self, directions: str, clocks: frozenset[int] | None = None) -> None:
        super().__init__(block_bits=128, round_key_bits=RK_BITS)
        self.directions = directions
        self.clocks = clocks

    def _controls(self, decrypt: Value, enc: bool, dec: bool) -> Value:
        """The entry's six control bits. A unit that computes only ``clocks`` (a pipeline stage,
        an unrolled unit) reads encryption entries c and decryption entries 33 - c: each bit that
        is the same in all of them is a constant, so the kinds the unit never runs (in a mixing
        stage the whole E-function) synthesize away."""
        controls = self.rk[64:70]
        if self.clocks is None:
            return controls

        def known(entries: set[int]) -> Value:
            bits = []
            for b in range(6):
                values = {controls_value(e) >> b & 1 for e in entries}
                bits.append(Const(values.pop(), 1) if len(values) == 1 else controls[b])
            return Cat(*bits)

        by_enc = known({c for c in self.clocks})
        by_dec = known({CLOCKS - c for c in self.clocks})
        if enc and dec:
            return Mux(decrypt, by_dec, by_enc)
        return by_enc if enc else by_dec

    def elaborate(self, platform: object) -> Module:
        m = Module()
        enc, dec = self.directions != "decrypt", self.directions != "encrypt"
        decrypt = self.decrypt if enc and dec else Const(int(dec), 1)
        controls = self._controls(decrypt, enc, dec)
        kind, extra = controls[0:2], controls[2:4]
        keyed, high = controls[4], controls[5]
        state = [_wire(m, w, f"d{i}") for i, w in enumerate(le_words(self.state_in))]
        first_in = self._whiten(m, decrypt)
        x = [_wire(m, Mux(self.first, w, s), f"x{i}")
             for i, (w, s) in enumerate(zip(first_in, state))]
        inv_f_word = self._inv_f_word(m, state, extra) if dec else None
        lanes = _Lanes(m)
        core = self._core(m, lanes, state, decrypt, kind, enc, dec)
        mixing = self._mixing(m, lanes, x, state, inv_f_word, decrypt, kind, extra, enc, dec)
        lanes.drive(m, self._lane_word(m, x, state, inv_f_word, decrypt, kind),
                    core.index, kind, core.active)
        # Mixing rounds (and the key-only last clock) may end with a key subtraction.
        plain_out = [Mux(core.active, c, x_) for c, x_ in zip(core.out, mixing.out)]
        keyed_in = [Mux(self.last, s, v) for s, v in zip(state, mixing.keyed_source)]
        keyed_out = self._subtract_keys(m, keyed_in, high)
        post = (keyed & ~self.first) | self.last
        out = [Mux(post, k, p) for k, p in zip(keyed_out, plain_out)]
        m.d.comb += self.state_out.eq(from_le_words(out))
        return m

    def _whiten(self, m: Module, decrypt: Value) -> list[Value]:
        """First clock: all four whitening words are added to the input block. Encryption: entry 0
        (rk_white) on D0, D1 and entry 1 (rk) on D2, D3; decryption: entry 33 (rk_white) on D2, D3
        and entry 32 (rk) on D0, D1."""
        low = Mux(decrypt, self.rk[:64], self.rk_white[:64])
        high = Mux(decrypt, self.rk_white[:64], self.rk[:64])
        keys = [low[:32], low[32:], high[:32], high[32:]]
        words = le_words(self.block_in)
        return [_add(m, f"white{i}", w, k) for i, (w, k) in enumerate(zip(words, keys))]

    def _subtract_keys(self, m: Module, v: list[Value], high: Value) -> list[Value]:
        """The entry's key pair subtracted from D0, D1 or from D2, D3."""
        k0, k1 = self.rk[:32], self.rk[32:64]
        p = _sub(m, "keysub_p", Mux(high, v[2], v[0]), k0)
        q = _sub(m, "keysub_q", Mux(high, v[3], v[1]), k1)
        return [Mux(high, v[0], p), Mux(high, v[1], q), Mux(high, p, v[2]), Mux(high, q, v[3])]

    @staticmethod
    def _inv_f_word(m: Module, d: list[Value], extra: Value) -> Value:
        """F^-1's new D0, (D3 - D2, D0 or nothing) <<< 24, which also indexes the S-boxes. Both
        differences are computed before the entry's control bits select one: the subtractors
        then run while the round-key memory is read, not after it."""
        minus_d2 = _sub(m, "fi_w_d2", d[3], d[2])
        minus_d0 = _sub(m, "fi_w_d0", d[3], d[0])
        chosen = Mux(extra == EXTRA_D3, minus_d2, Mux(extra == EXTRA_D1, minus_d0, d[3]))
        return _wire(m, chosen.rotate_left(24), "fi_w_rot")

    @staticmethod
    def _lane_word(m: Module, x: list[Value], d: list[Value], inv_f_word: Value | None,
                   decrypt: Value, kind: Value) -> Value:
        """The word whose bytes index the mixing S-boxes: D0 going forward (F from the whitened
        input, which it may take in the first clock; B from the register), and in decryption the
        word the inverse round recomputes (F^-1: from the register; B^-1: D3 >>> 24 of x)."""
        is_f = kind == KIND_F
        enc_word = Mux(is_f, x[0], d[0])
        if inv_f_word is None:
            return _wire(m, enc_word, "lane_word")
        dec_word = Mux(is_f, inv_f_word, x[3].rotate_right(24))
        # A decryption-only core has a constant select: synthesis drops the encryption word.
        return _wire(m, Mux(decrypt, dec_word, enc_word), "lane_word")

    def _mixing(self, m: Module, lanes: _Lanes, x: list[Value], d: list[Value],
                inv_f_word: Value | None, decrypt: Value, kind: Value, extra: Value, enc: bool,
                dec: bool) -> _Mixing:
        """Candidates of the four mixing kinds; F and B^-1 (first-clock kinds) read ``x``, B and
        F^-1 the register. ``keyed_source``: the kinds that may end with a key subtraction."""
        is_f = kind == KIND_F
        enc_out = enc_keyed = dec_out = dec_keyed = None
        if enc:
            f_out = _forward_mixing(m, lanes, x, extra)
            enc_keyed = _backward_mixing(m, lanes, d, extra)
            enc_out = [Mux(is_f, f, b) for f, b in zip(f_out, enc_keyed)]
        if dec:
            assert inv_f_word is not None
            dec_keyed = _inverse_forward_mixing(m, lanes, d, inv_f_word)
            bi_out = _inverse_backward_mixing(m, lanes, x, extra)
            dec_out = [Mux(is_f, f, b) for f, b in zip(dec_keyed, bi_out)]
        return _Mixing(_merge(decrypt, enc_out, dec_out), _merge(decrypt, enc_keyed, dec_keyed))

    def _core(self, m: Module, lanes: _Lanes, d: list[Value], decrypt: Value, kind: Value,
              enc: bool, dec: bool) -> _Core:
        """A core round on the register. Encryption: E(D0); D2 += M; forward mode D1 += L,
        D3 ^= R (backward: D3 += L, D1 ^= R); words rotate with D0 <<< 13 last. Decryption:
        x = D3 >>> 13, E(x); D1, D2, D3 = D0, D1, D2 with M, L subtracted and R xored; D0 = x."""
        undo = d[3].rotate_right(13)
        e_in = d[0] if not dec else (undo if not enc else Mux(decrypt, undo, d[0]))
        e_in = _wire(m, e_in, "e_in")
        k1, k2 = self.rk[:32], self.rk[32:64]
        e = _EFunction(m, e_in, k1, k2, lanes)
        forward = kind == KIND_CF
        # Words the round changes: D1, D2, D3 going forward, D0, D1, D2 going backward.
        lane1 = d[1] if not dec else (d[0] if not enc else Mux(decrypt, d[0], d[1]))
        lane2 = d[2] if not dec else (d[1] if not enc else Mux(decrypt, d[1], d[2]))
        lane3 = d[3] if not dec else (d[2] if not enc else Mux(decrypt, d[2], d[3]))
        l_sum = _addsub(m, "core_l", Mux(forward, lane1, lane3), e.left, decrypt)
        m_sum = _addsub(m, "core_m", lane2, e.middle, decrypt)
        w1 = Mux(forward, l_sum, lane1 ^ e.right)
        w3 = Mux(forward, lane3 ^ e.right, l_sum)
        enc_out = [w1, m_sum, w3, d[0].rotate_left(13)]
        dec_out = [undo, w1, m_sum, w3]
        out = _merge(decrypt, enc_out if enc else None, dec_out if dec else None)
        active = (kind == KIND_CF) | (kind == KIND_CB)
        return _Core(out, e.index, active)


def _forward_mixing(m: Module, lanes: _Lanes, x: list[Value], extra: Value) -> list[Value]:
    """F: D1 = (D1 ^ S0[b0]) + S1[b1]; D2 += S0[b2]; D3 ^= S1[b3]; D0 >>> 24 plus the new D3 or
    D1 in rounds 0, 4 / 1, 5; then the words rotate (the lanes index bytes of D0)."""
    f1 = _add(m, "f_n1", x[1] ^ lanes.s0a, lanes.s1a)
    f2 = _add(m, "f_n2", x[2], lanes.s0b)
    f3 = _wire(m, x[3] ^ lanes.s1b, "f_n3")
    f0 = _add(m, "f_n0", x[0].rotate_right(24), _pick(extra, {EXTRA_D3: f3, EXTRA_D1: f1}))
    return [f1, f2, f3, f0]


def _backward_mixing(m: Module, lanes: _Lanes, d: list[Value], extra: Value) -> list[Value]:
    """B: D1 ^= S1[b0]; D2 -= S0[b3]; D3 = (D3 - S1[b2]) ^ S0[b1]; the words rotate with
    D0 <<< 24 last; then D0 -= D3 or D1 after rounds 1, 5 / 2, 6."""
    b2 = _sub(m, "b_n2", d[2], lanes.s0b)
    b3 = _wire(m, _sub(m, "b_n3s", d[3], lanes.s1b) ^ lanes.s0a, "b_n3")
    b0r = d[0].rotate_left(24)
    b1 = _b_first_word(m, d[1] ^ lanes.s1a, b0r, d[2], lanes.s0b, extra)
    return [b1, b2, b3, b0r]


def _inverse_forward_mixing(m: Module, lanes: _Lanes, d: list[Value],
                            word: Value) -> list[Value]:
    """F^-1: D0 = w = (D3 - D2 or D0) <<< 24 (rounds 0, 4 / 1, 5; the lanes index its bytes);
    D1 = (D0 - S1[b1]) ^ S0[b0]; D2 = D1 - S0[b2]; D3 = D2 ^ S1[b3]."""
    fi1 = _wire(m, _sub(m, "fi_n1s", d[0], lanes.s1a) ^ lanes.s0a, "fi_n1")
    fi2 = _sub(m, "fi_n2", d[1], lanes.s0b)
    fi3 = _wire(m, d[2] ^ lanes.s1b, "fi_n3")
    return [word, fi1, fi2, fi3]


def _inverse_backward_mixing(m: Module, lanes: _Lanes, x: list[Value],
                             extra: Value) -> list[Value]:
    """B^-1: D0 += D3 or D1 (rounds 1, 5 / 2, 6); w = D3 >>> 24 (the lanes index its bytes);
    D1 = D0 ^ S1[b0]; D2 = D1 + S0[b3]; D3 = (D2 ^ S0[b1]) + S1[b2]; D0 = w."""
    bi0 = _add(m, "bi_n0", x[0], _pick(extra, {EXTRA_D3: x[3], EXTRA_D1: x[1]}))
    bi1 = _wire(m, bi0 ^ lanes.s1a, "bi_n1")
    bi2 = _add(m, "bi_n2", x[1], lanes.s0b)
    bi3 = _add(m, "bi_n3", x[2] ^ lanes.s0a, lanes.s1b)
    return [x[3].rotate_right(24), bi1, bi2, bi3]


def _b_first_word(m: Module, n1: Value, rotated: Value, d2: Value, s0b: Value,
                  extra: Value) -> Value:
    """B's new D0: n1 - (D0 <<< 24) or n1 - (D2 - S0[b3]) or n1. The second is the three-operand
    n1 - D2 + S0[b3]: one row of full adders and one carry-propagate adder, not two adders."""
    d3, d1 = extra == EXTRA_D3, extra == EXTRA_D1
    second = Mux(d3, ~rotated, Mux(d1, ~d2, 0))
    third = Mux(d1, s0b, 0)
    s, c = reduce_rows(m, [n1, second, third], 32, "wallace", prefix="b_n1_csa")
    return _wire(m, add(m, s, c, d3 | d1, ADDER, prefix="b_n1_"), "b_n1")


class _Mixing:
    def __init__(self, out: list[Value], keyed_source: list[Value]) -> None:
        self.out = out
        self.keyed_source = keyed_source


class _Core:
    def __init__(self, out: list[Value], index: Value, active: Value) -> None:
        self.out = out
        self.index = index
        self.active = active


def _merge(decrypt: Value, enc: list[Value] | None, dec: list[Value] | None) -> list[Value]:
    if enc is not None and dec is not None:
        return [Mux(decrypt, d, e) for e, d in zip(enc, dec)]
    result = enc if enc is not None else dec
    assert result is not None
    return result


class _Lanes:
    """The four S-box lanes: two on S0 (entries 0..255), two on S1 (256..511)."""

    def __init__(self, m: Module) -> None:
        self.tables = {name: SboxTable(S[:256] if name.startswith("s0") else S[256:])
                       for name in ("s0a", "s0b", "s1a", "s1b")}
        for name, table in self.tables.items():
            m.submodules[f"sbox_{name}"] = table
        self.s0a, self.s0b = self.tables["s0a"].o, self.tables["s0b"].o
        self.s1a, self.s1b = self.tables["s1a"].o, self.tables["s1b"].o

    def drive(self, m: Module, word: Value, core_index: Value, kind: Value,
              core: Value) -> None:
        """Mixing F / F^-1: S0 <- bytes 0, 2, S1 <- bytes 1, 3; B / B^-1: S0 <- bytes 1, 3,
        S1 <- bytes 0, 2 (byte 0 the least significant); core: S0a and S1a <- M mod 256."""
        b = [word[8 * k:8 * (k + 1)] for k in range(4)]
        backward = kind == KIND_B
        low = core_index[:8]
        t = self.tables
        m.d.comb += [
            t["s0a"].i.eq(Mux(core, low, Mux(backward, b[1], b[0]))),
            t["s1a"].i.eq(Mux(core, low, Mux(backward, b[0], b[1]))),
            t["s0b"].i.eq(Mux(backward, b[3], b[2])),
            t["s1b"].i.eq(Mux(backward, b[2], b[3])),
        ]


class _EFunction:
    """E(x) with the core round's key pair: M = x + k1; R = (x <<< 13) k2 <<< 5; L = S[M mod 512]
    ^ R ^ (R <<< 5), rotated by (R <<< 5) mod 32; M rotated by R mod 32; R <<< 5 again."""

    def __init__(self, m: Module, x: Value, k1: Value, k2: Value, lanes: _Lanes) -> None:
        self.index = _add(m, "e_m", x, k1)
        mul = Multiplier(32)
        m.submodules.e_mul = mul
        m.d.comb += [mul.a.eq(x.rotate_left(13)), mul.b.eq(k2)]
        r1 = _wire(m, mul.o.rotate_left(5), "e_r1")
        r2 = _wire(m, r1.rotate_left(5), "e_r2")
        lookup = _wire(m, Mux(self.index[8], lanes.s1a, lanes.s0a), "e_s")
        self.middle = _wire(m, barrel_rotate_left(m, self.index, r1[:5], prefix="e_mrot"), "e_mid")
        self.left = _wire(m, barrel_rotate_left(m, lookup ^ r1 ^ r2, r2[:5], prefix="e_lrot"),
                          "e_left")
        self.right = r2


# --- the key schedule ---------------------------------------------------------------------------


class MarsKeyStep(KeyStep):
    """The tweaked key schedule, one word operation per step, forward only (module docstring).

    Key state: T[0..14] as a rotating register (head first), the iteration j (2 bits), the phase
    (linear / stir / emit), the step within the phase (6 bits) and the next entry (6 bits).
    """

    def __init__(self, key_sizes: tuple[int, ...], key_len_bits: int, step_bits: int) -> None:
        self.key_sizes = key_sizes
        super().__init__(key_bits=max(key_sizes), key_len_bits=key_len_bits,
                         state_bits=15 * 32 + 2 + 2 + 6 + 6, round_key_bits=RK_BITS,
                         step_bits=step_bits)
        self.rk_valid = Signal()  # the iterative generator writes rk_in only when this is high

    @staticmethod
    def _unpack(state: Value) -> tuple[list[Value], Value, Value, Value, Value]:
        t = [state[32 * i:32 * (i + 1)] for i in range(15)]
        rest = state[480:]
        return t, rest[0:2], rest[2:4], rest[4:10], rest[10:16]

    @staticmethod
    def _pack(t: list[Value], j: Value, phase: Value, step: Value, entry: Value) -> Value:
        return Cat(*t, j, phase, step, entry)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.loaded.eq(self._pack(self._initial(), Const(0, 2), Const(LINEAR, 2),
                                              Const(0, 6), Const(0, 6)))
        t, j, phase, step, entry = self._unpack(self.state_in)
        linear = _wire(m, t[0] ^ (t[8] ^ t[13]).rotate_left(3) ^ Cat(j, step[:4]), "linear")
        sbox = SboxTable(S)
        m.submodules.sbox = sbox
        m.d.comb += sbox.i.eq(t[14][:9])
        stirred = _wire(m, _add(m, "stir_sum", t[0], sbox.o).rotate_left(9), "stirred")
        new_word = Mux(phase == LINEAR, linear, stirred)
        next_t = [Mux(phase == EMIT, t[i], (t + [new_word])[i + 1]) for i in range(15)]
        next_j, next_phase, next_step = Signal(2), Signal(2), Signal(6)
        m.d.comb += [next_j.eq(j), next_phase.eq(phase), next_step.eq(step + 1)]
        ends = emission_ends()
        with m.Switch(phase):
            with m.Case(LINEAR):
                with m.If(step == 14):
                    m.d.comb += [next_phase.eq(STIR), next_step.eq(0)]
            with m.Case(STIR):
                with m.If(step == STIR_STEPS - 1):
                    m.d.comb += [next_phase.eq(EMIT), next_step.eq(0)]
            with m.Case(EMIT):
                with m.If(_any_equal(entry, [ends[i] for i in range(3)])):
                    m.d.comb += [next_phase.eq(LINEAR), next_step.eq(0), next_j.eq(j + 1)]
        m.d.comb += [
            self.state_out.eq(self._pack(next_t, next_j, next_phase, next_step,
                                         (entry + (phase == EMIT))[:6])),
            self.rk_valid.eq(phase == EMIT),
            self.rk_in.eq(self._entry(m, t, entry)),
        ]
        return m

    def _initial(self) -> list[Value]:
        """T = the key words, their count n, zeros (little-endian words of the left-aligned
        key port; n follows the key length in a 3-in-1 core)."""
        words = le_words(self.key)
        t: list[Value] = []
        codes = {size // 32: size // 8 for size in self.key_sizes}
        for p in range(15):
            value: Value = Const(0, 32)
            for n, code in codes.items():
                here = words[p] if p < n else Const(n if p == n else 0, 32)
                value = here if len(codes) == 1 else Mux(self.key_len == code, here, value)
            t.append(value)
        return t

    def _entry(self, m: Module, t: list[Value], entry: Value) -> Value:
        """The round-key entry ``entry``: its key pair from T (the second word fixed for core
        entries) and its control bits, tabulated per entry."""
        position = Signal(range(5))  # which pair of this iteration (m = 0..4)
        has_keys, fixed, controls = Signal(), Signal(), Signal(6)
        with m.Switch(entry):
            for e in range(ENTRIES):
                first = entry_first_key(e)
                with m.Case(e):
                    m.d.comb += controls.eq(controls_value(e))
                    if first is not None:
                        m.d.comb += [position.eq((first % 10) // 2), has_keys.eq(1),
                                     fixed.eq(int(4 <= first <= 34))]
        pairs = [(t[pair_position(2 * i)], t[pair_position(2 * i + 1)]) for i in range(5)]
        low = _wire(m, _pick(position, {i: p[0] for i, p in enumerate(pairs)}), "pair_low")
        high = _wire(m, _pick(position, {i: p[1] for i, p in enumerate(pairs)}), "pair_high")
        high_fixed = Mux(fixed, _fix_multiplication_key(m, high, low), high)
        keys = Mux(has_keys, Cat(low, high_fixed), 0)
        return Cat(keys, controls)


def _any_equal(value: Value, codes: list[int]) -> Value:
    result: Value = Const(0, 1)
    for code in codes:
        result = result | (value == code)
    return result


def _fix_multiplication_key(m: Module, k: Value, previous: Value) -> Value:
    """K[i] | 3 with every bit inside a run of ten or more equal bits (not the run's ends, not bits
    0, 1, 31) replaced: XORed with the matching bit of B[K[i] mod 4] <<< (K[i-1] mod 32)."""
    w = _wire(m, k | 3, "fix_w")
    equal = [~(w[i] ^ w[i + 1]) for i in range(31)]  # bit i equals bit i+1
    windows = [_all(equal[a:a + 9]) for a in range(23)]  # bits a..a+9 all equal
    mask_bits = [Const(0, 1), Const(0, 1)]
    for bit in range(2, 31):
        inside = equal[bit - 1] & equal[bit]
        mask_bits.append(inside & _any(windows[max(0, bit - 9):min(bit, 22) + 1]))
    mask_bits.append(Const(0, 1))
    mask = _wire(m, Cat(*mask_bits), "fix_mask")
    table = _pick(k[:2], {i: Const(v, 32) for i, v in enumerate(FIX_TABLE)})
    pattern = barrel_rotate_left(m, table, previous[:5], prefix="fix_rot")
    return _wire(m, w ^ (pattern & mask), "fix_out")


def _all(bits: list[Value]) -> Value:
    result: Value = Const(1, 1)
    for bit in bits:
        result = result & bit
    return result


def _any(bits: list[Value]) -> Value:
    result: Value = Const(0, 1)
    for bit in bits:
        result = result | bit
    return result


class MarsHardware(CipherHardware):
    name = "mars"
    block_bits = 128
    round_key_bits = RK_BITS
    key_state_bits = 15 * 32 + 16

    def rounds(self, key_bits: int) -> int:
        return CLOCKS

    def datapath(self) -> MarsDatapath:
        return MarsDatapath(self.options.directions)

    def unit_datapath(self, rounds: frozenset[int]) -> MarsDatapath:
        return MarsDatapath(self.options.directions, rounds)

    def key_step(self, key_len_bits: int, step_bits: int) -> MarsKeyStep:
        return MarsKeyStep(self.options.key_sizes, key_len_bits, step_bits)

    def describe(self) -> dict[str, object]:
        return {"clocks_per_block": CLOCKS, "mixing_rounds": 2 * MIXING_ROUNDS,
                "core_rounds": CORE_ROUNDS, "sbox_lanes": "2 x S0 + 2 x S1 (256 x 32 each)",
                "key_schedule_sbox": "512 x 32", "multipliers": 1}
