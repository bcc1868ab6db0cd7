"""CLEFIA hardware description (RFC 6114): one GFN round per clock, round keys on the fly, every key
size (128/192/256) in one core if asked (the 3-in-1 core selects by ``key_len``).

Round (datapath): F0 and F1 side by side (eight S-boxes, the matrices M0 and M1 as XOR networks):
T1 ^= F0(RK_a ^ T0), T3 ^= F1(RK_b ^ T2), then the words turn left (encryption) or right
(decryption). Both directions feed the F-functions from the same words, so a core with both
directions only multiplexes the outputs. The whitening is wiring around the first and last clock:
the first clock XORs WK into words 1 and 3 of the input block, the last one into the result.

Key schedule: the intermediate key L = GFN_{4,12}(CON, K) (GFN_{8,10} for 192/256-bit keys) is
twelve (ten) GFN rounds deep, so the load cannot compute it in one clock, and the generators have no
key-setup phase for keys on the fly (a block may start on the clock after its key). The key step
therefore has its own F-functions (two, four for GFN_{8,10}) and computes L in the first G = 12
(10) steps of every walk; the data rounds wait meanwhile ("hold" clocks, as Camellia's KA, see
ciphers/camellia/hw.py). Then each step makes one pair of round keys from L, K and CON and applies
DoubleSwap to L every two steps. A block takes R = G + r clocks: 30, 32 and 36. A key-setup phase
in the generators (L computed once per key) would take the G clocks out of every block.

Key state s (Cat order, least significant first):

    flags   enc, dec: whether a round of that direction using this state computes (else it holds)
    P       pair_lo || pair_hi, two round-key pairs (RK_2n, RK_2n+1): a window on the schedule
    L       the GFN state during the first G steps, then L (LL || LR for 192/256, turned: see below)
    K       the key (KL || KR for 192/256; K6, K7 = ~K0, ~K1 for 192 bits)

The round-key bus is P and the flags (130 bits), straight from the state. The generators give
encryption round c the key of state c and decryption round c that of state R - c: data state
G + q holds (pair q-1, pair q), encryption takes pair_lo (round q at clock G + q) and decryption
pair_hi (its round c = the encryption round r + 1 - c). So the backward walk gives every round the
key the forward walk's state holds (as SM4's five-word state): keys fly in every generator, travel
with the blocks in pipelines, and a round-key memory mirrors the encryption entries
(``stored_decryption = "mirror"``).

Whitening keys ride in pair_hi where no round key is needed: the loaded state 0 holds WK0 || WK1
(encryption's input whitening, decryption's output whitening) and the last forward step writes
WK2 || WK3 into state R (encryption's output, decryption's input whitening); the backward walk
writes WK0 || WK1 back into state 1's pair_lo, which becomes state 0's pair_hi. Encryption's
clocks 1..G hold; decryption's data rounds are its clocks 1..r and it holds in the last G, where the
backward walk only counts (the states of its GFN phase are never read but for the flags and WK).

L during the data phase (192/256): iteration i of the RFC's loop uses LL (i mod 4 in {0, 1}) or LR
and applies DoubleSwap to the half it used. The register holds (A, B) with A the half iteration i
reads: entering iteration i, A becomes DoubleSwap(A), and for even i the halves swap. Backward the
same inverted. The K to XOR (odd i: KR for i mod 4 = 1, KL for 3) is chosen by the step index.

Controls of a step (GFN or data, the constants CON, which half of A, which K, the flags of the new
state) are tables of the step index and direction (``plan``), per key size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath, select_by_key_len
from ...components.aes_sbox import table_lookup
from ...components.sbox4 import sbox4
from .model import CON, KEY_GFN_BRANCHES, KEY_GFN_ROUNDS, M0, M1, ROUNDS, S0, S1, SS

# How S0 is built (the ``s0`` parameter): a 256-entry table, or as RFC 6114 constructs it from
# four 4-bit S-boxes (benchmarks/clefia_sbox_forms.py: 572 against 125 GE of logic on osu018, and
# the shallower of the two). S1 stays a table.
S0_FORMS = ("table", "nibbles")

WORD = 32
PAIR = 2 * WORD
FLAG_BITS = 2
RK_BITS = FLAG_BITS + 2 * PAIR   # enc, dec, pair_lo, pair_hi


def words_msb(value: Value, count: int) -> list[Value]:
    """The 32-bit words of ``value``, most significant first (the RFC's word 0)."""
    return [value[WORD * (count - 1 - i):WORD * (count - i)] for i in range(count)]


def join_msb(values: list[Value]) -> Value:
    """The inverse of ``words_msb``."""
    return Cat(*reversed(values))


def sigma(v: Value) -> Value:
    """DoubleSwap on a 128-bit value whose most significant bit is the RFC's bit 0:
    X[7-63] | X[121-127] | X[0-6] | X[64-120] (wiring)."""
    return Cat(v[7:64], v[121:128], v[0:7], v[64:121])


def sigma_inverse(v: Value) -> Value:
    return Cat(v[64:71], v[0:57], v[71:128], v[57:64])


def _xtime(v: Value) -> Value:
    """v * 2 in GF(2^8) modulo z^8 + z^4 + z^3 + z^2 + 1."""
    return Cat(Const(0, 1), v[0:7]) ^ (v[7].replicate(8) & Const(0x1D, 8))


def _times(v: Value, c: int) -> Value:
    """v * c for a constant c of M0 or M1 (1, 2, 4, 6, 8, 10): XORs of doublings."""
    result: Value = Const(0, 8)
    power = v
    while c:
        if c & 1:
            result = result ^ power
        c >>= 1
        if c:
            power = _xtime(power)
    return result


def _times2_gf16(v: Value) -> Value:
    """Multiplication by 2 in GF(2^4) modulo z^4 + z + 1: wiring and one XOR."""
    return Cat(v[3], v[0] ^ v[3], v[1], v[2])


def s0_nibbles(m: Module, x: Value, prefix: str) -> Value:
    """S0 by its construction (RFC 6114; the model's ``s0_from_4bit_sboxes``): SS0 on the high
    nibble and SS1 on the low one, the mix (t0 ^ 2 t1, 2 t0 ^ t1) in GF(2^4), then SS2 (high) and
    SS3 (low)."""
    t0 = sbox4(m, x[4:], SS[0], "table", f"{prefix}_ss0")
    t1 = sbox4(m, x[:4], SS[1], "table", f"{prefix}_ss1")
    u0, u1 = t0 ^ _times2_gf16(t1), _times2_gf16(t0) ^ t1
    return Cat(sbox4(m, u1, SS[3], "table", f"{prefix}_ss3"),
               sbox4(m, u0, SS[2], "table", f"{prefix}_ss2"))


class FFunction(Elaboratable):
    """F0 or F1: ``o = M (S-boxes)(i ^ k)``, bytes most significant first; S0 as ``s0``
    (``S0_FORMS``)."""

    def __init__(self, which: int, s0: str = "table") -> None:
        self.which = which
        self.s0 = s0
        self.i = Signal(WORD)
        self.k = Signal(WORD)
        self.o = Signal(WORD)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        boxes = (S0, S1, S0, S1) if self.which == 0 else (S1, S0, S1, S0)
        matrix = M0 if self.which == 0 else M1
        t = self.i ^ self.k
        s = []
        for lane in range(4):
            out = Signal(8, name=f"s{lane}")
            src = Signal(8, name=f"t{lane}")
            m.d.comb += src.eq(t[WORD - 8 * (lane + 1):WORD - 8 * lane])
            if boxes[lane] is S0 and self.s0 == "nibbles":
                m.d.comb += out.eq(s0_nibbles(m, src, f"s0_{lane}"))
            else:
                table_lookup(m, src, boxes[lane], out)
            s.append(out)
        y = [Signal(8, name=f"y{row}") for row in range(4)]
        for row in range(4):
            acc: Value = Const(0, 8)
            for col in range(4):
                acc = acc ^ _times(s[col], matrix[row][col])
            m.d.comb += y[row].eq(acc)
        m.d.comb += self.o.eq(Cat(y[3], y[2], y[1], y[0]))
        return m


def f_function(m: Module, which: int, x: Value, k: Value, name: str,
               s0: str = "table") -> Signal:
    f = FFunction(which, s0)
    m.submodules[name] = f
    m.d.comb += [f.i.eq(x), f.k.eq(k)]
    return f.o


# -- the round-key bus: flags and the pair window


@dataclass(frozen=True)
class RoundKey:
    enc: Value
    dec: Value
    pair_lo: list[Value]   # RK_2n, RK_2n+1
    pair_hi: list[Value]


def unpack_rk(rk: Value) -> RoundKey:
    lo, hi = rk[FLAG_BITS:FLAG_BITS + PAIR], rk[FLAG_BITS + PAIR:FLAG_BITS + 2 * PAIR]
    return RoundKey(rk[0], rk[1], words_msb(lo, 2), words_msb(hi, 2))


def _whiten(t: list[Value], w: list[Value]) -> list[Value]:
    """Words 1 and 3 XOR the two whitening words."""
    return [t[0], t[1] ^ w[0], t[2], t[3] ^ w[1]]


class ClefiaDatapath(RoundDatapath):
    """One round or hold clock (module docstring); ``rounds=False``: a unit that only ever holds
    (a one-direction pipeline stage of the key GFN's clocks), without F-functions."""

    def __init__(self, options: CoreOptions, rounds: bool = True) -> None:
        super().__init__(block_bits=128, round_key_bits=RK_BITS)
        self.options = options
        self.rounds = rounds
        self.s0 = options.extra.get("s0", "table")

    def _direction(self, enc_value: Value, dec_value: Value) -> Value:
        if not self.options.has_decrypt:
            return enc_value
        if not self.options.has_encrypt:
            return dec_value
        return Mux(self.decrypt, dec_value, enc_value)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        white = unpack_rk(self.rk_white)
        whitened = join_msb(_whiten(words_msb(self.block_in, 4), white.pair_hi))
        source = Signal(128)
        m.d.comb += source.eq(Mux(self.first, whitened, self.state_in))
        t = words_msb(source, 4)
        key = unpack_rk(self.rk)
        held = join_msb(t)
        # Encryption's last clock is always a round (its rounds come after the key GFN's clocks),
        # decryption's always a hold (after its rounds): the final layouts follow from that.
        final_dec = join_msb([t[1], t[2], t[3], t[0]])   # GFN^-1 ends without the last turn
        if self.rounds:
            pair = [self._direction(key.pair_lo[i], key.pair_hi[i]) for i in range(2)]
            x1 = Signal(WORD)
            x3 = Signal(WORD)
            m.d.comb += [x1.eq(t[1] ^ f_function(m, 0, t[0], pair[0], "f0", self.s0)),
                         x3.eq(t[3] ^ f_function(m, 1, t[2], pair[1], "f1", self.s0))]
            enc_round = join_msb([x1, t[2], x3, t[0]])
            dec_round = join_msb([x3, t[0], x1, t[2]])
            active = self._direction(key.enc, key.dec)
            step = Mux(active, self._direction(enc_round, dec_round), held)
            final_enc = join_msb([t[0], x1, t[2], x3])     # GFN ends without the last turn
            final = self._direction(final_enc, final_dec)
        else:
            step = held
            final = final_dec if not self.options.has_encrypt else held
        last_out = join_msb(_whiten(words_msb(final, 4), key.pair_hi))
        m.d.comb += self.state_out.eq(Mux(self.last, last_out, step))
        return m


# -- the key schedule's plan: what each step does, by key size, step index and direction


@dataclass(frozen=True)
class StepControl:
    gfn: int = 0        # forward step of the key GFN
    gfn_last: int = 0   # its last round (no turn of the words)
    lmove: int = 0      # L enters the next (forward) or previous (backward) iteration
    lswap: int = 0      # that move swaps the halves (192/256)
    white: int = 0      # the new pair is a whitening pair: forward WK2, WK3; backward WK0, WK1
    half: int = 0       # which half of A the new pair takes
    xkl: int = 0        # XOR KL (K for 128-bit keys) into the new pair
    xkr: int = 0        # XOR KR
    enc: int = 0        # flags of the new state
    dec: int = 0
    con_gfn: tuple[int, int, int, int] = (0, 0, 0, 0)
    con_pair: tuple[int, int] = (0, 0)


def _pair_control(bits: int, n: int) -> dict[str, object]:
    """What makes pair n (RK_2n, RK_2n+1): half, K to XOR, constants; nothing for n < 0 or
    beyond the schedule (such pairs are never read)."""
    rounds = ROUNDS[bits]
    if not 0 <= n < rounds:
        return {}
    gfn = KEY_GFN_ROUNDS[bits]
    base = KEY_GFN_BRANCHES[bits] // 2 * gfn
    i = n // 2
    xkl = xkr = 0
    if i % 2:
        if bits == 128 or i % 4 == 3:
            xkl = 1
        else:
            xkr = 1
    con = CON[bits]
    return {"half": n % 2, "xkl": xkl, "xkr": xkr,
            "con_pair": (con[base + 2 * n], con[base + 2 * n + 1])}


def _flags(bits: int, state: int) -> dict[str, int]:
    """Encryption computes a round in state s > G, decryption in s >= G (module docstring)."""
    gfn = KEY_GFN_ROUNDS[bits]
    return {"enc": int(state >= gfn + 1), "dec": int(state >= gfn)}


@cache
def plan(bits: int, step: int, backward: bool) -> StepControl:
    """The controls of forward step ``step`` (state step -> step+1) or backward step ``step``
    (state step+1 -> step) for a key size."""
    gfn = KEY_GFN_ROUNDS[bits]
    total = gfn + ROUNDS[bits]
    eight = KEY_GFN_BRANCHES[bits] == 8
    if not backward:
        fields: dict[str, object] = dict(_flags(bits, step + 1))
        if step < gfn:
            half = KEY_GFN_BRANCHES[bits] // 2
            con = CON[bits][half * step:half * (step + 1)]
            fields.update(gfn=1, gfn_last=int(step == gfn - 1),
                          con_gfn=tuple(con) + (0,) * (4 - len(con)))
        n = step - gfn + 1                     # the pair this step makes
        if step >= gfn and n % 2 == 0:
            # Entering iteration n/2: DoubleSwap, and for an even iteration the halves swap.
            fields.update(lmove=1, lswap=int(eight and (n // 2) % 2 == 0))
        if step == total - 1:
            fields.update(white=1)
        elif step >= gfn - 1:
            fields.update(_pair_control(bits, n))
        return StepControl(**fields)  # type: ignore[arg-type]
    fields = dict(_flags(bits, step))
    if step == 1:
        fields.update(white=1)
    if step >= gfn:
        q = step - gfn                         # the new state is G + q
        entering = (q + 1) // 2                # the iteration the input state's L is in
        fields.update(lmove=int(q % 2 == 1), lswap=int(eight and entering % 2 == 0))
        fields.update(_pair_control(bits, q - 1))
    return StepControl(**fields)  # type: ignore[arg-type]


FLAG_NAMES = ("gfn", "gfn_last", "lmove", "lswap", "white", "half", "xkl", "xkr", "enc", "dec")
CONTROL_BITS = len(FLAG_NAMES) + 6 * WORD


def _control_word(c: StepControl) -> int:
    """A step's controls as one table word: the flags, then the four GFN and two pair
    constants."""
    value = sum(getattr(c, name) << i for i, name in enumerate(FLAG_NAMES))
    for k, word in enumerate(c.con_gfn + c.con_pair):
        value |= word << (len(FLAG_NAMES) + WORD * k)
    return value


@dataclass(frozen=True)
class Controls:
    bit: dict[str, Value]
    con: list[Value]


class ClefiaKeyStep(KeyStep):
    """Load and one forward or backward step for the key sizes of the core (module docstring)."""

    def __init__(self, key_sizes: tuple[int, ...], key_len_bits: int, step_bits: int,
                 code_of: dict[int, int], s0: str = "table") -> None:
        self.key_sizes = key_sizes
        self.code_of = code_of
        self.s0 = s0
        self.wide = max(key_sizes) > 128        # K and L hold 256 bits
        self.kw = 8 if self.wide else 4         # words of K and of L
        super().__init__(key_bits=max(key_sizes), key_len_bits=key_len_bits,
                         state_bits=state_bits(key_sizes), round_key_bits=RK_BITS,
                         step_bits=step_bits)

    def _select(self, options: dict[int, Value]) -> Value:
        return select_by_key_len(self.key_len, options, self.code_of)

    def _is(self, size: int) -> Value:
        """The key length is ``size`` (a constant in a core of one key size)."""
        if len(self.key_sizes) == 1:
            return Const(int(size == self.key_sizes[0]), 1)
        return self.key_len == self.code_of[size]

    def _fields(self, state: Value) -> tuple[Value, Value, list[Value], list[Value]]:
        """(flags, P, L words, K words) of a key state."""
        l_at = FLAG_BITS + 2 * PAIR
        k_at = l_at + WORD * self.kw
        return (state[0:FLAG_BITS], state[FLAG_BITS:l_at], words_msb(state[l_at:k_at], self.kw),
                words_msb(state[k_at:k_at + WORD * self.kw], self.kw))

    def _pack(self, flags: Value, p: Value, l_words: list[Value], k_words: list[Value]) -> Value:
        return Cat(flags, p, join_msb(l_words), join_msb(k_words))

    def _whitening(self, k: list[Value], half: int) -> list[Value]:
        """WK_{2 half}, WK_{2 half + 1}: K (128-bit keys) or KL ^ KR."""
        words = [k[2 * half], k[2 * half + 1]]
        if not self.wide:
            return words
        mixed = [k[2 * half] ^ k[4 + 2 * half], k[2 * half + 1] ^ k[5 + 2 * half]]
        if 128 not in self.key_sizes:
            return mixed
        return [Mux(self._is(128), w, x) for w, x in zip(words, mixed)]

    def _controls(self, m: Module) -> Controls:
        """This step's controls: one table per key size on (step, backward), then the key
        length's."""
        per_size: dict[int, Value] = {}
        for size in self.key_sizes:
            table = Signal(CONTROL_BITS, name=f"control_{size}")
            total = KEY_GFN_ROUNDS[size] + ROUNDS[size]
            with m.Switch(Cat(self.step, self.backward)):
                for backward in (0, 1):
                    for j in range(total):
                        with m.Case(j | backward << len(self.step)):
                            m.d.comb += table.eq(_control_word(plan(size, j, bool(backward))))
            per_size[size] = table
        control = Signal(CONTROL_BITS)
        m.d.comb += control.eq(self._select(per_size))
        bit = {name: control[i] for i, name in enumerate(FLAG_NAMES)}
        con = words_msb(control[len(FLAG_NAMES):], 6)[::-1]   # con_gfn[0..3], con_pair[0..1]
        return Controls(bit, con)

    def _gfn(self, m: Module, l_words: list[Value], con: list[Value], last: Value) -> list[Value]:
        """One round of the key GFN: 4 branches for 128-bit keys, 8 for 192/256."""
        t = l_words
        fa0 = f_function(m, 0, t[0], con[0], "kf0a", self.s0)
        fa1 = f_function(m, 1, t[2], con[1], "kf1a", self.s0)
        four_turned = [t[1] ^ fa0, t[2], t[3] ^ fa1, t[0]]
        four_last = [t[0], t[1] ^ fa0, t[2], t[3] ^ fa1]
        four = [Mux(last, a, b) for a, b in zip(four_last, four_turned)]
        if not self.wide:
            return four
        fb0 = f_function(m, 0, t[4], con[2], "kf0b", self.s0)
        fb1 = f_function(m, 1, t[6], con[3], "kf1b", self.s0)
        eight_turned = [t[1] ^ fa0, t[2], t[3] ^ fa1, t[4], t[5] ^ fb0, t[6], t[7] ^ fb1, t[0]]
        eight_last = [t[0], t[1] ^ fa0, t[2], t[3] ^ fa1, t[4], t[5] ^ fb0, t[6], t[7] ^ fb1]
        eight = [Mux(last, a, b) for a, b in zip(eight_last, eight_turned)]
        if 128 not in self.key_sizes:
            return eight
        is128 = self._is(128)
        return [Mux(is128, a, b) for a, b in zip(four + t[4:], eight)]

    def _moves(self, l_words: list[Value], swap: Value) -> tuple[list[Value], list[Value]]:
        """L entering the next iteration (forward) and the previous one (backward)."""
        a = join_msb(l_words[:4])
        if not self.wide:
            return words_msb(sigma(a), 4), words_msb(sigma_inverse(a), 4)
        b = join_msb(l_words[4:])
        fwd = Mux(swap, Cat(sigma(a), b), Cat(b, sigma(a)))
        bwd = Mux(swap, Cat(a, sigma_inverse(b)), Cat(b, sigma_inverse(a)))
        return words_msb(fwd, 8), words_msb(bwd, 8)

    def _loaded(self) -> Value:
        """State 0: K, L = K, pair_hi = WK0 || WK1, flags 0."""
        # The port is as wide as the longest key (192 bits in a 192-bit core): pad to 8 words.
        count = len(self.key) // WORD
        kw = words_msb(self.key, count) + [Const(0, WORD)] * (self.kw - count)
        k = list(kw)
        if 192 in self.key_sizes:
            # K6 = ~K0, K7 = ~K1 for 192-bit keys.
            is192 = self._is(192)
            k[6] = Mux(is192, ~kw[0], kw[6])
            k[7] = Mux(is192, ~kw[1], kw[7])
        white = self._whitening(k, 0)
        p = Cat(Const(0, PAIR), join_msb(white))
        return self._pack(Const(0, FLAG_BITS), p, k, k)

    def _new_l(self, m: Module, c: Controls, l_words: list[Value]) -> tuple[list[Value],
                                                                           list[Value]]:
        """(L of the new state, the half-L the new pair comes from): forward a key GFN round or
        the move into the next iteration; backward the move into the previous one. Backward, the
        new (lower) pair always belongs to the iteration before the input state's."""
        back = self.backward
        gfn_out = self._gfn(m, l_words, c.con[0:4], c.bit["gfn_last"])
        fwd, bwd = self._moves(l_words, c.bit["lswap"])
        moved = [Mux(back, b, f) for f, b in zip(fwd, bwd)]
        data_l = [Mux(c.bit["lmove"], mv, w) for mv, w in zip(moved, l_words)]
        new_l = [Mux(c.bit["gfn"] & ~back, g, d) for g, d in zip(gfn_out, data_l)]
        source = [Mux(back, b, n) for b, n in zip(bwd[:4], new_l[:4])]
        return new_l, source

    def _new_pair(self, m: Module, c: Controls, source: list[Value], k: list[Value]) -> Signal:
        """RK_2n, RK_2n+1 = half of L ^ CON (^ KL or KR), or a whitening pair."""
        half = c.bit["half"]
        pair = [Mux(half, source[2 + i], source[i]) ^ c.con[4 + i] for i in range(2)]
        kl = [Mux(half, k[2 + i], k[i]) for i in range(2)]
        kr = ([Mux(half, k[6 + i], k[4 + i]) for i in range(2)] if self.wide
              else [Const(0, WORD)] * 2)
        keyed = [pair[i] ^ (kl[i] & c.bit["xkl"].replicate(WORD))
                 ^ (kr[i] & c.bit["xkr"].replicate(WORD)) for i in range(2)]
        white = [Mux(self.backward, lo, hi)
                 for lo, hi in zip(self._whitening(k, 0), self._whitening(k, 1))]
        new_pair = Signal(PAIR)
        m.d.comb += new_pair.eq(join_msb([Mux(c.bit["white"], w, v) for w, v in zip(white, keyed)]))
        return new_pair

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.loaded.eq(self._loaded())
        _, p, l_words, k = self._fields(self.state_in)
        c = self._controls(m)
        new_l, source = self._new_l(m, c, l_words)
        new_pair = self._new_pair(m, c, source, k)
        # The window slides: forward the new pair enters on top, backward at the bottom.
        pair_lo, pair_hi = p[:PAIR], p[PAIR:]
        new_p = Mux(self.backward, Cat(new_pair, pair_lo), Cat(pair_hi, new_pair))
        new_flags = Cat(c.bit["enc"], c.bit["dec"])
        m.d.comb += self.state_out.eq(self._pack(new_flags, new_p, new_l, k))
        m.d.comb += [self.rk_in.eq(self.state_in[:RK_BITS]),
                     self.rk_out.eq(self.state_out[:RK_BITS])]
        return m


def state_bits(key_sizes: tuple[int, ...]) -> int:
    wide = max(key_sizes) > 128
    return FLAG_BITS + 2 * PAIR + 2 * WORD * (8 if wide else 4)


def hold_only(options: CoreOptions, rounds: frozenset[int]) -> bool:
    """A unit whose every round is a hold clock in every direction and key size of the core."""
    for size in options.key_sizes:
        gfn, total = KEY_GFN_ROUNDS[size], KEY_GFN_ROUNDS[size] + ROUNDS[size]
        for r in rounds:
            if r > total:
                continue
            if options.has_encrypt and r > gfn:
                return False
            if options.has_decrypt and r <= ROUNDS[size]:
                return False
    return True


class ClefiaHardware(CipherHardware):
    name = "clefia"
    block_bits = 128
    round_key_bits = RK_BITS

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)
        self.key_state_bits = state_bits(tuple(options.key_sizes))

    def rounds(self, key_bits: int) -> int:
        """Clocks per block: the key GFN's G clocks and the r rounds (module docstring)."""
        return KEY_GFN_ROUNDS[key_bits] + ROUNDS[key_bits]

    def datapath(self) -> ClefiaDatapath:
        return ClefiaDatapath(self.options)

    def unit_datapath(self, rounds: frozenset[int]) -> ClefiaDatapath:
        return ClefiaDatapath(self.options, rounds=not hold_only(self.options, rounds))

    def key_step(self, key_len_bits: int, step_bits: int) -> ClefiaKeyStep:
        sizes = tuple(sorted(self.options.key_sizes))
        return ClefiaKeyStep(sizes, key_len_bits, step_bits,
                             {k: self.key_len_code(k) for k in sizes},
                             self.options.extra.get("s0", "table"))

    def describe(self) -> dict[str, object]:
        wide = max(self.options.key_sizes) > 128
        return {"data_sboxes": 8, "key_schedule_sboxes": 16 if wide else 8,
                "s0": self.options.extra.get("s0", "table"),
                "key_state_bits": self.key_state_bits,
                "hold_clocks": {k: KEY_GFN_ROUNDS[k] for k in sorted(self.options.key_sizes)}}
