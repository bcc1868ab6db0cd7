"""Twofish hardware description: one round (encrypt and/or decrypt) and its subkey generator.

Structure (NSA seed section 5.5.1; Twofish paper sections 4.1-4.3):

- Datapath: the F function of one round with two g functions (key-dependent S-boxes evaluated
  every round as q0/q1 chains with the S-box key words added between the stages, then the MDS of
  components/mds.py), the PHT with the round's two subkeys added (one carry-save level and one
  adder per output, so the subkeys cost no second adder in series), and the 1-bit rotations.
  Encryption and decryption share everything but the rotations (NSA 5.5.1.4, Gaj: under 10 %).
- Subkeys on the fly (NSA 5.5.1.3): K_{2i}, K_{2i+1} = PHT of h(2i rho, Me) and h((2i+1) rho, Mo)
  <<< 8, with <<< 9 on the second; a function of the pair index, no recurrence, so one pair
  generator (two h functions) makes the round's subkeys in the cycle that uses them, forward or
  backward, and the key state never changes. The pair index and the datapath's control come from
  the step index, tabulated at generation time.
- Key state: the key words Me, Mo and the S-box key words S in the order the chain stages use
  them (S_{k-1} at the stage after the final q, ..., S_0 innermost; the RS code runs at key load).
  The round key bus carries the subkey pair, the S words (the g functions are keyed by them), the
  key size (3-in-1: where the chains start) and the whitening keys or the cycle's control.

Two ways to whiten (parameter ``whiten``):

- ``cycles`` (default): as the NSA's iterative Twofish (seed section 5.5.3: 1217.4 ns per block,
  60.87 ns key setup, a ratio of 20). Whitening takes clocks of its own, one subkey pair per clock
  from the single pair generator: clocks 1-2 whiten the two halves, 3-18 are the rounds, 19 undoes
  the last swap and whitens the first half, 20 the second. Two h functions make every subkey; the
  key state is Me, Mo and S only.
- ``fold``: 16 clocks per block. Input whitening is folded into round 1 (the architecture's
  whitened first round) and output whitening into round 16, so each needs four whitening words
  besides the round's pair in one clock. They are computed once at key load into the key state
  (K0..K7: four more pair generators on the load path) and read from registers (NSA 5.5.1.3
  buffers the post-whitening key likewise), so no subkey generation sits in front of round 1.

Subkeys (parameter ``subkeys``): ``fly`` (default) makes a round's pair in the clock that uses
it; ``ahead`` makes it one clock early into the key state, taking h and the PHT adder out of the
round's path for one more pair generator at key load.

Byte order: the model's (every library's): block and key bytes read as little-endian 32-bit words
(P_i = bytes 4i..4i+3); the ports carry the bytes with byte 0 most significant.
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.base import (
    CipherHardware,
    CoreOptions,
    KeyStep,
    RoundDatapath,
    select_by_key_len,
)
from ...arch.keytables import KeyTables, TableEntry
from ...components.adders import add
from ...components.aes_sbox import table_lookup
from ...components.bytes import get_bytes
from ...components.gf256 import const_mul_matrix, linear_map
from ...components.mds import TWOFISH_MDS, TWOFISH_POLY, matrix_mul
from ...components.pht import PseudoHadamard
from .model import Q0, Q1, Q_TABLES, RS, RS_POLYNOMIAL

WORD = 32
Q_KINDS = ("nibble", "table")
WHITEN_KINDS = ("cycles", "fold")
ADDER = "kogge-stone"
ROUNDS = 16
# The q permutation byte i of h meets at chain stage j (0: the final q before the MDS; stage j >= 1
# is followed by the key byte of L_{j-1}); Twofish paper section 4.3.2, Figure 2.
CHAINS = ((1, 0, 0, 1, 1), (0, 0, 1, 1, 0), (1, 1, 0, 0, 0), (0, 1, 1, 0, 1))

# Cycle kinds of whiten=cycles (two bits on the round key bus).
FEISTEL, WHITEN_LO, WHITEN_HI, UNSWAP_LO = 0, 1, 2, 3
KIND_BITS = 2
SUBKEY_KINDS = ("fly", "ahead")
# Key-dependent S-boxes (Twofish paper section 7.2's names): zero = the q chains every round
# (NSA 5.5); partial = s_0..s_3 precomputed, 4 x 256 bytes; full = MDS column i times s_i
# precomputed, 4 x 256 words, so g is four lookups and an XOR.
KEYING_KINDS = ("zero", "partial", "full")


# --- word views -----------------------------------------------------------------------------------


def block_words(value: Value) -> list[Value]:
    """P_0 .. P_3 of a port-ordered block (byte 0 most significant): little-endian words."""
    parts = get_bytes(value)
    return [Cat(*parts[4 * i:4 * i + 4]) for i in range(len(parts) // 4)]


def words_block(words: list[Value]) -> Value:
    """Inverse of block_words."""
    parts = [w[8 * j:8 * j + 8] for w in words for j in range(4)]
    return Cat(*reversed(parts))


def unpack(value: Value, count: int, offset: int = 0) -> list[Value]:
    """``count`` words of an internal bus packed with Cat, from word ``offset``."""
    return [value[WORD * (offset + i):WORD * (offset + i + 1)] for i in range(count)]


def wire(m: Module, value: Value, name: str) -> Signal:
    """``value`` in a named signal: read several times, built once."""
    sig = Signal(len(value), name=name)
    m.d.comb += sig.eq(value)
    return sig


# --- q, h, g --------------------------------------------------------------------------------------


def _ror4(x: Value) -> Value:
    return Cat(x[1:4], x[0])


def _nibble_lookup(m: Module, x: Value, table: tuple[int, ...], name: str) -> Value:
    out = Signal(4, name=name)
    table_lookup(m, wire(m, x, f"{name}_in"), table, out)
    return out


def q_permutation(m: Module, x: Value, which: int, kind: str, name: str) -> Value:
    """q0 or q1 of an 8-bit value: the four 4-bit tables with their XORs and nibble rotations
    (``nibble``, section 4.3.5 as written) or one 256-entry table (``table``)."""
    if kind == "table":
        out = Signal(8, name=name)
        table_lookup(m, wire(m, x, f"{name}_in"), Q0 if which == 0 else Q1, out)
        return out
    t = Q_TABLES[which]
    a0, b0 = x[4:8], x[0:4]
    a1 = a0 ^ b0
    b1 = a0 ^ _ror4(b0) ^ Cat(Const(0, 3), a0[0])   # 8*a0 mod 16 is a0's low bit at the top
    a2 = _nibble_lookup(m, a1, t[0], f"{name}_t0")
    b2 = _nibble_lookup(m, b1, t[1], f"{name}_t1")
    a3 = a2 ^ b2
    b3 = a2 ^ _ror4(b2) ^ Cat(Const(0, 3), a2[0])
    a4 = _nibble_lookup(m, a3, t[2], f"{name}_t2")
    b4 = _nibble_lookup(m, b3, t[3], f"{name}_t3")
    return Cat(a4, b4)


@dataclass(frozen=True)
class ChainStart:
    """Where the q chains of h begin: at stage k for a k-word key (k = key bits / 64). ``is_k``
    maps each supported k to a 1-bit value (constant 1 for a single key size)."""

    ks: tuple[int, ...]
    is_k: dict[int, Value]

    @property
    def top(self) -> int:
        return max(self.ks)


def keyed_sbox(m: Module, x: Value, i: int, stage_words: list[Value], start: ChainStart,
               q_kind: str, name: str) -> Value:
    """s_i(x): byte ``x`` through byte i's q chain, byte i of L_{j-1} added after stage j
    (``stage_words[j-1]`` is L_{j-1}); a constant ``x`` (subkey inputs at key load) lets the
    innermost q fold into a constant."""
    chain = CHAINS[i]
    value: Value | None = None
    for stage in range(start.top, 0, -1):
        if value is None:
            source = x
        elif stage in start.is_k:
            source = Mux(start.is_k[stage], x, value)
        else:
            source = value
        key_byte = stage_words[stage - 1][8 * i:8 * i + 8]
        value = wire(m, _q_or_const(m, source, chain[stage], q_kind, f"{name}q{stage}")
                     ^ key_byte, f"{name}s{stage}")
    assert value is not None
    return q_permutation(m, value, chain[0], q_kind, f"{name}q0")


def mds(m: Module, column: Value, name: str) -> Value:
    """The MDS matrix times a column of four bytes (byte 0 least significant)."""
    column = wire(m, column, f"{name}_y")
    return wire(m, matrix_mul(m, column, TWOFISH_MDS, TWOFISH_POLY, "little"), f"{name}_z")


def h_function(m: Module, x_bytes: list[Value], stage_words: list[Value], start: ChainStart,
               q_kind: str, name: str) -> Value:
    """h(X, L) (section 4.3.2): the four keyed S-boxes, then the MDS."""
    return mds(m, Cat(*[keyed_sbox(m, x, i, stage_words, start, q_kind, f"{name}_b{i}")
                        for i, x in enumerate(x_bytes)]), name)


def mds_column(m: Module, y: Value, i: int, name: str) -> Value:
    """Column i of the MDS times byte ``y``: what full keying stores per S-box entry."""
    parts = [Const(0, 8)] * 4
    parts[i] = y
    return mds(m, Cat(*parts), name)


def _q_or_const(m: Module, x: Value, which: int, kind: str, name: str) -> Value:
    if isinstance(x, Const):
        return Const((Q0 if which == 0 else Q1)[x.value], 8)
    return q_permutation(m, x, which, kind, name)


def subkey_pair(m: Module, pair: Value | int, me: list[Value], mo: list[Value],
                start: ChainStart, q_kind: str, name: str) -> tuple[Value, Value]:
    """K_{2p}, K_{2p+1} (section 4.3.6): A = h(2p rho, Me), B = h((2p+1) rho, Mo) <<< 8,
    K_{2p} = A + B, K_{2p+1} = (A + 2B) <<< 9, the sums by the PHT component."""
    if isinstance(pair, int):
        even: Value = Const(2 * pair, 8)
        odd: Value = Const(2 * pair + 1, 8)
    else:
        even, odd = Signal(8, name=f"{name}_even"), Signal(8, name=f"{name}_odd")
        m.d.comb += [even.eq(Cat(Const(0, 1), pair)), odd.eq(Cat(Const(1, 1), pair))]
    a = h_function(m, [even] * 4, me, start, q_kind, f"{name}_ha")
    b = h_function(m, [odd] * 4, mo, start, q_kind, f"{name}_hb").rotate_left(8)
    pht = PseudoHadamard(WORD, ADDER)
    m.submodules[f"{name}_pht"] = pht
    m.d.comb += [pht.a.eq(a), pht.b.eq(b)]
    return pht.a_out, pht.b_out.rotate_left(9)


# --- key load: RS and the stage order -------------------------------------------------------------


def rs_rows() -> list[int]:
    """GF(2) rows of the RS code (section 4.3): 8 key bytes (byte c at bits 8c..8c+7) -> the S
    word (row r at bits 8r..8r+7), over GF(2^8) modulo x^8+x^6+x^3+x^2+1."""
    rows = [0] * WORD
    for r, row in enumerate(RS):
        for c, coefficient in enumerate(row):
            for bit, mask in enumerate(const_mul_matrix(coefficient, RS_POLYNOMIAL)):
                rows[8 * r + bit] ^= mask << (8 * c)
    return rows


def key_words(key: Value, count: int) -> list[Value]:
    """M_0 .. M_{count-1}: little-endian words of the key bytes (port byte 0 most significant)."""
    parts = get_bytes(key)
    return [Cat(*parts[4 * i:4 * i + 4]) for i in range(count)]


# --- the round ------------------------------------------------------------------------------------


def keyed_pht(m: Module, t0: Value, t1: Value, k0: Value, k1: Value,
              adder: str = ADDER) -> tuple[Value, Value]:
    """F's outputs t0 + t1 + K_{2r+8} and t0 + 2 t1 + K_{2r+9}: a carry-save level folds the
    subkey in, so each output costs one adder (PHT and key addition would be two in series)."""
    twice = Cat(Const(0, 1), t1[:WORD - 1])
    outs = []
    for n, (b, k) in enumerate(((t1, k0), (twice, k1))):
        total = wire(m, t0 ^ b ^ k, f"f{n}_sum")
        carry = wire(m, Cat(Const(0, 1), ((t0 & b) | (t0 & k) | (b & k))[:WORD - 1]),
                     f"f{n}_carry")
        outs.append(wire(m, add(m, total, carry, Const(0, 1), adder, prefix=f"f{n}_"), f"f{n}"))
    return outs[0], outs[1]


class TwofishDatapath(RoundDatapath):
    """One Twofish round (and, per ``whiten``, the whitening) on the four words P_0..P_3."""

    def __init__(self, hw: TwofishHardware) -> None:
        super().__init__(block_bits=128, round_key_bits=hw.round_key_bits)
        self.hw = hw
        # keying=partial/full: each g function reads lane i (s_i) at byte i of its input.
        tables = hw.key_tables()
        self.g_reads = [[self.table_read(tables, i, f"g{g}_t{i}") for i in range(4)]
                        for g in range(2)] if tables else []

    def elaborate(self, platform: object) -> Module:
        m = Module()
        hw = self.hw
        bus = hw.bus
        key, white = bus.fields(self.rk), bus.fields(self.rk_white)
        block = block_words(self.block_in)
        state = block_words(self.state_in)
        start = hw.chain_start(bus.key_size_flags(self.rk))
        if hw.whiten == "fold":
            # Input whitening: K0..K3 encrypting, K4..K7 decrypting; the direction picks them, so
            # no step-index logic sits in front of round 1.
            first_white = self._whitening(white, self.decrypt)
            x = [wire(m, Mux(self.first, block[b] ^ first_white[b], state[b]), f"x{b}")
                 for b in range(4)]
        else:
            x = [wire(m, Mux(self.first, block[b], state[b]), f"x{b}") for b in range(4)]
        y2, y3 = self._round(m, x, key, start)
        swapped = [y2, y3, x[0], x[1]]
        if hw.whiten == "fold":
            last_white = self._whitening(key, ~self.decrypt)
            final = [v ^ w for v, w in zip([x[0], x[1], y2, y3], last_white)]
            out = [Mux(self.last, f, s) for f, s in zip(final, swapped)]
        else:
            out = self._cycle_kinds(m, x, swapped, key)
        m.d.comb += self.state_out.eq(words_block(out))
        return m

    @staticmethod
    def _whitening(fields: dict, later_half: Value) -> list[Value]:
        """K0..K3 or (``later_half``) K4..K7 from the bus's eight whitening words."""
        white = fields["white"]
        return [Mux(later_half, white[4 + b], white[b]) for b in range(4)]

    def _round(self, m: Module, x: list[Value], key: dict, start: ChainStart
               ) -> tuple[Value, Value]:
        """F on x0, x1 and the new x2, x3 (encryption: (x2 ^ f0) >>> 1, (x3 <<< 1) ^ f1;
        decryption: (x2 <<< 1) ^ f0, (x3 ^ f1) >>> 1)."""
        hw = self.hw
        t0 = self._g(m, 0, x[0], key, start)
        t1 = self._g(m, 1, x[1].rotate_left(8), key, start)
        f0, f1 = keyed_pht(m, t0, t1, key["pair"][0], key["pair"][1])
        enc = ((x[2] ^ f0).rotate_right(1), x[3].rotate_left(1) ^ f1)
        dec = (x[2].rotate_left(1) ^ f0, (x[3] ^ f1).rotate_right(1))
        if hw.options.directions == "encrypt":
            return enc
        if hw.options.directions == "decrypt":
            return dec
        return Mux(self.decrypt, dec[0], enc[0]), Mux(self.decrypt, dec[1], enc[1])

    def _g(self, m: Module, g: int, word: Value, key: dict, start: ChainStart) -> Value:
        """g number ``g``: h keyed by the S words on the fly (keying=zero), or the precomputed
        S-boxes read from the key tables (partial: then the MDS; full: the MDS is in the
        entries)."""
        hw = self.hw
        x = get_bytes_le(word)
        name = f"g{g}"
        if not self.g_reads:
            return h_function(m, x, key["s"], start, hw.q_kind, name)
        lanes = []
        for i, (address, data) in enumerate(self.g_reads[g]):
            m.d.comb += address.eq(x[i])
            lanes.append(data)
        if hw.keying == "partial":
            return mds(m, Cat(*lanes), name)
        return wire(m, lanes[0] ^ lanes[1] ^ lanes[2] ^ lanes[3], f"{name}_z")

    @staticmethod
    def _cycle_kinds(m: Module, x: list[Value], swapped: list[Value], key: dict) -> list[Value]:
        """whiten=cycles: the round, or one pair XORed into a half (clock 19 also undoes the
        swap of the last round, which the reference does not make)."""
        kind = key["kind"]
        p0, p1 = key["pair"]
        choices = {
            FEISTEL: swapped,
            WHITEN_LO: [x[0] ^ p0, x[1] ^ p1, x[2], x[3]],
            WHITEN_HI: [x[0], x[1], x[2] ^ p0, x[3] ^ p1],
            UNSWAP_LO: [x[2] ^ p0, x[3] ^ p1, x[0], x[1]],
        }
        out = []
        for b in range(4):
            # The round's result is the deep one: it meets a single multiplexer, last.
            value: Value = choices[UNSWAP_LO][b]
            for k in (WHITEN_LO, WHITEN_HI):
                value = Mux(kind == k, choices[k][b], value)
            out.append(wire(m, Mux(kind == FEISTEL, choices[FEISTEL][b], value), f"out{b}"))
        return out


def get_bytes_le(word: Value) -> list[Value]:
    """Bytes of a Twofish word, x_0 (least significant) first."""
    return [word[8 * i:8 * i + 8] for i in range(4)]


# --- the round key bus ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundKeyBus:
    """Fields of the round key bus (packed with Cat in this order): the subkey pair, the S words
    in stage order, then per ``whiten`` the eight whitening words (fold) or the cycle kind (cycles),
    then the key-size flags (3-in-1 only: is k = 2, is k = 3)."""

    k_max: int
    whiten: str
    multi: bool

    @property
    def width(self) -> int:
        extra = 8 * WORD if self.whiten == "fold" else KIND_BITS
        return (2 + self.k_max) * WORD + extra + (2 if self.multi else 0)

    def fields(self, bus: Value) -> dict:
        pair = unpack(bus, 2)
        s = unpack(bus, self.k_max, 2)
        pos = (2 + self.k_max) * WORD
        out: dict = {"pair": pair, "s": s}
        if self.whiten == "fold":
            out["white"] = unpack(bus, 8, 2 + self.k_max)
            pos += 8 * WORD
        else:
            out["kind"] = bus[pos:pos + 2]
            pos += 2
        return out

    def key_size_flags(self, bus: Value) -> Value | None:
        return bus[self.width - 2:] if self.multi else None

    def pack(self, pair: tuple[Value, Value], s: list[Value], extra: Value,
             flags: Value | None) -> Value:
        parts = [pair[0], pair[1], *s, extra]
        if self.multi:
            assert flags is not None
            parts.append(flags)
        return Cat(*parts)


# --- the key step ---------------------------------------------------------------------------------


def cycles_schedule(rounds: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """whiten=cycles: (pair index, kind) of clock c = 1..R+4 for encryption and decryption.

    Encryption: K0,K1 and K2,K3 whiten the halves, rounds 1..16 use pairs 4..19, then the
    swap is undone with K4,K5 and K6,K7 whitens. Decryption: K4..K7 first, pairs 19..4, K0..K3."""
    enc = [(0, WHITEN_LO), (1, WHITEN_HI)] + [(r + 3, FEISTEL) for r in range(1, rounds + 1)]
    enc += [(2, UNSWAP_LO), (3, WHITEN_HI)]
    dec = [(2, WHITEN_LO), (3, WHITEN_HI)] + [(rounds + 4 - r, FEISTEL)
                                              for r in range(1, rounds + 1)]
    dec += [(0, UNSWAP_LO), (1, WHITEN_HI)]
    return enc, dec


def served_clock(tag: str, backward: bool, step: int, clocks: int, bits: int) -> tuple[bool, int]:
    """(decrypting, clock 1..R) that a key step port serves; clocks outside 1..R serve nothing.

    Key state i serves encryption clock i and decryption clock R-i. Forward step s (state s to
    s+1) serves encryption clock s (``in``), s+1 (``out``) and s+2 (``next``, subkeys=ahead);
    backward step s (state s+1 to s) serves decryption clock R-1-s, R-s and R-s+1. The forward
    step into state R has no encryption clock next: it makes decryption clock 1's, so a
    decryption run-up ends ready. Steps wrap modulo 2**bits (pipelines run down to -1)."""
    wrap = 1 << bits
    shift = {"in": 0, "out": 1, "next": 2}[tag]
    if backward:
        return True, (clocks - 1 - step + shift) % wrap
    if tag == "next" and step == clocks - 1:
        return True, 1
    return False, (step + shift) % wrap


class TwofishKeyStep(KeyStep):
    """Constant key words, subkeys from the step index.

    Key state i serves encryption clock i and decryption clock R-i (R = clocks per block). Step s
    joins states s and s+1: ``rk_in`` is the round key of state s + backward, ``rk_out`` of state
    s + 1 - backward, each for the walk's own direction. The generator makes only the pair that
    direction reads: a Feistel decryption round inverts the encryption round whose state is one
    further on, so one state would otherwise need two pairs. The clock each port serves is
    tabulated over (backward, step) at generation time, wrapping modulo 2**step_bits (other
    architectures run steps down to -1).

    subkeys=ahead: the key state also holds the pair (and cycle kind) of the walk's next clock,
    made one step early, so ``rk_out`` is a register slice and no h function sits in front of the
    round. The forward step into state R makes decryption clock 1's pair instead (no encryption
    clock follows state R), so the decryption run-up ends with the right one.
    """

    def __init__(self, hw: TwofishHardware, key_len_bits: int, step_bits: int) -> None:
        self.hw = hw
        super().__init__(key_bits=max(hw.options.key_sizes), key_len_bits=key_len_bits,
                         state_bits=hw.key_state_bits, round_key_bits=hw.round_key_bits,
                         step_bits=step_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        hw, layout = self.hw, self.hw.layout
        flags = hw.key_size_flags_of(self.key_len)
        start = hw.chain_start(flags)
        m.d.comb += self.loaded.eq(self._load(m, start))
        me, mo = layout.words(self.state_in, "me"), layout.words(self.state_in, "mo")

        def generated(tag: str) -> tuple[tuple[Value, Value], Value]:
            index, kind = self._controls(m, tag)
            return subkey_pair(m, index, me, mo, start, hw.q_kind, f"sk_{tag}"), kind

        inward = generated("in")
        if hw.subkeys == "ahead":
            outward = self._stored_next()
            pair, kind = generated("next")
            following = layout.replace(self.state_in, {"next": Cat(*pair), "next_kind": kind})
        else:
            outward = generated("out")
            following = self.state_in
        m.d.comb += [
            self.state_out.eq(following),
            self.rk_in.eq(self._round_key(inward, flags)),
            self.rk_out.eq(self._round_key(outward, flags)),
        ]
        return m

    def _stored_next(self) -> tuple[tuple[Value, Value], Value]:
        """subkeys=ahead: the pair (and kind) made one step early, from the key state."""
        layout = self.hw.layout
        pair = layout.words(self.state_in, "next")
        kind = (layout.kind(self.state_in, "next_kind") if "next_kind" in layout.names()
                else Const(0, KIND_BITS))
        return (pair[0], pair[1]), kind

    def _round_key(self, made: tuple[tuple[Value, Value], Value],
                   flags: Value | None) -> Value:
        """The bus of ``rk_in`` or ``rk_out``: with whiten=fold all eight whitening words, from the
        key state (the datapath picks K0..K3 or K4..K7 by direction and first/last round)."""
        hw = self.hw
        pair, extra = made
        if hw.whiten == "fold":
            extra = Cat(*hw.layout.words(self.state_in, "white"))
        return hw.bus.pack(pair, hw.layout.words(self.state_in, "s"), extra, flags)

    def _controls(self, m: Module, tag: str) -> tuple[Signal, Signal]:
        """Pair index and cycle kind of the clock a port serves, for every (backward, step):
        forward step s serves encryption clock s (in), s+1 (out), s+2 (next); backward step s
        serves decryption clock R-1-s (in), R-s (out), R-s+1 (next)."""
        hw = self.hw
        bits = len(self.step)
        wrap = 1 << bits
        index = Signal(6, name=f"pair_{tag}")
        kind = Signal(KIND_BITS, name=f"kind_{tag}")
        with m.Switch(Cat(self.step, self.backward)):
            for step in range(wrap):
                for backward in (0, 1) if hw.options.has_decrypt else (0,):
                    decrypting, clock = served_clock(tag, bool(backward), step, hw.clocks, bits)
                    if not 1 <= clock <= hw.clocks:
                        continue
                    pair, what = hw.clock_info(decrypting, clock)
                    with m.Case(step | backward << bits):
                        m.d.comb += [index.eq(pair), kind.eq(what)]
        return index, kind

    def _load(self, m: Module, start: ChainStart) -> Value:
        """Key state 0 from the port: M words, S words by RS in stage order (per key size); for
        whiten=fold the whitening words K0..K7, for subkeys=ahead encryption clock 1's pair."""
        hw = self.hw
        words = key_words(self.key, 2 * hw.k_max)
        me, mo = words[0::2], words[1::2]
        fields: dict[str, Value] = {
            "me": Cat(*me), "mo": Cat(*mo), "s": staged_s_words(m, hw, self.key, self.key_len),
        }
        if hw.whiten == "fold":
            # K0..K7: constant h inputs, so the innermost q of each chain folds away.
            fields["white"] = Cat(*[word for p in range(4)
                                    for word in subkey_pair(m, p, me, mo, start, hw.q_kind,
                                                            f"load{p}")])
        if hw.subkeys == "ahead":
            pair, what = hw.clock_info(False, 1)
            fields["next"] = Cat(*subkey_pair(m, pair, me, mo, start, hw.q_kind, "load_next"))
            fields["next_kind"] = Const(what, KIND_BITS)
        return hw.layout.pack(fields)


def staged_s_words(m: Module, hw: TwofishHardware, key: Value, key_len: Value) -> Value:
    """The S words by RS from the key port, in the order the chain stages add them: stage j
    (1..k) adds L_{j-1} = S_{k-j}, so the order depends on the key size."""
    k = hw.k_max
    words = key_words(key, 2 * k)
    rows = rs_rows()
    s_of = [wire(m, linear_map(Cat(words[2 * i], words[2 * i + 1]), rows), f"rs{i}")
            for i in range(k)]
    staged = {size: Cat(*[s_of[size // 64 - j] if j <= size // 64 else Const(0, WORD)
                          for j in range(1, k + 1)])
              for size in hw.options.key_sizes}
    return wire(m, select_by_key_len(key_len, staged, {size: size // 8 for size in staged}),
                "s_stage")


class TwofishTableEntry(TableEntry):
    """keying=partial/full: the seed is the S words in stage order (and the key-size flags of
    3-in-1); entry x holds s_0(x)..s_3(x) (partial) or their MDS columns (full): the four q
    chains of one h function, the key bytes of the seed added between the stages."""

    def __init__(self, hw: TwofishHardware, key_len_bits: int) -> None:
        tables = hw.key_tables()
        assert tables is not None
        super().__init__(tables, max(hw.options.key_sizes), key_len_bits)
        self.hw = hw

    def elaborate(self, platform: object) -> Module:
        m = Module()
        hw = self.hw
        flags = hw.key_size_flags_of(self.key_len)
        s_stage = staged_s_words(m, hw, self.key, self.key_len)
        m.d.comb += self.seed.eq(s_stage if flags is None else Cat(s_stage, flags))
        s_words = unpack(self.seed_in, hw.k_max)
        start = hw.chain_start(None if flags is None else self.seed_in[hw.k_max * WORD:])
        lanes = []
        for i in range(4):
            y = keyed_sbox(m, self.index, i, s_words, start, hw.q_kind, f"fill_b{i}")
            lanes.append(y if hw.keying == "partial" else mds_column(m, y, i, f"fill_m{i}"))
        m.d.comb += self.entry.eq(Cat(*lanes))
        return m


@dataclass(frozen=True)
class KeyStateLayout:
    """Fields of the key state, packed with Cat in this order (widths in bits)."""

    fields: tuple[tuple[str, int], ...]

    @property
    def width(self) -> int:
        return sum(width for _, width in self.fields)

    def _span(self, name: str) -> tuple[int, int]:
        pos = 0
        for field, width in self.fields:
            if field == name:
                return pos, width
            pos += width
        raise KeyError(name)

    def words(self, state: Value, name: str) -> list[Value]:
        pos, width = self._span(name)
        return unpack(state[pos:pos + width], width // WORD)

    def kind(self, state: Value, name: str) -> Value:
        pos, width = self._span(name)
        return state[pos:pos + width]

    def names(self) -> set[str]:
        return {name for name, _ in self.fields}

    def pack(self, values: dict[str, Value]) -> Value:
        return Cat(*[values[name] for name, _ in self.fields])

    def replace(self, state: Value, values: dict[str, Value]) -> Value:
        """``state`` with the named fields replaced (fields the layout lacks are ignored)."""
        parts = []
        for name, width in self.fields:
            pos, _ = self._span(name)
            parts.append(values.get(name, state[pos:pos + width]))
        return Cat(*parts)


class TwofishHardware(CipherHardware):
    name = "twofish"
    block_bits = 128

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)
        self.q_kind = options.extra.get("q", "nibble")
        self.whiten = options.extra.get("whiten", "cycles")
        self.subkeys = options.extra.get("subkeys", "fly")
        self.keying = options.extra.get("keying", "zero")
        for name, value, valid in (("q", self.q_kind, Q_KINDS), ("whiten", self.whiten,
                                   WHITEN_KINDS), ("subkeys", self.subkeys, SUBKEY_KINDS),
                                   ("keying", self.keying, KEYING_KINDS)):
            if value not in valid:
                raise ValueError(f"{name}={value}; valid: {', '.join(valid)}")
        self.sizes = tuple(sorted(options.key_sizes))
        self.k_max = max(self.sizes) // 64
        self.bus = RoundKeyBus(self.k_max, self.whiten, len(self.sizes) > 1)
        self.round_key_bits = self.bus.width
        self.layout = self._layout()
        self.key_state_bits = self.layout.width
        self.clocks = ROUNDS if self.whiten == "fold" else ROUNDS + 4
        self.schedule = cycles_schedule(ROUNDS)

    def _layout(self) -> KeyStateLayout:
        words = self.k_max * WORD
        fields = [("me", words), ("mo", words), ("s", words)]
        if self.whiten == "fold":
            fields.append(("white", 8 * WORD))
        if self.subkeys == "ahead":
            fields.append(("next", 2 * WORD))
            if self.whiten == "cycles":
                fields.append(("next_kind", KIND_BITS))
        return KeyStateLayout(tuple(fields))

    def rounds(self, key_bits: int) -> int:
        return self.clocks

    def clock_info(self, decrypting: bool, clock: int) -> tuple[int, int]:
        """(pair index, cycle kind) of clock 1..R of a block. fold: encryption round c uses
        pair c+3 (K_{2c+6}, K_{2c+7}); decryption round c inverts encryption round R+1-c."""
        if self.whiten == "fold":
            return (ROUNDS + 4 - clock if decrypting else clock + 3), FEISTEL
        enc, dec = self.schedule
        return (dec if decrypting else enc)[clock - 1]

    def key_size_flags_of(self, key_len: Value) -> Value | None:
        """is k = 2, is k = 3 (k = 4 otherwise) from the key length in bytes; None for one size."""
        if len(self.sizes) == 1:
            return None
        return Cat(key_len == 16, key_len == 24)

    def chain_start(self, flags: Value | None) -> ChainStart:
        ks = tuple(size // 64 for size in self.sizes)
        if flags is None:
            return ChainStart(ks, {ks[0]: Const(1, 1)})
        is_k = {2: flags[0], 3: flags[1]}
        return ChainStart(ks, {k: is_k[k] for k in ks if k != max(ks)})

    def datapath(self) -> TwofishDatapath:
        return TwofishDatapath(self)

    def key_tables(self) -> KeyTables | None:
        """keying=partial/full: 256 entries of the four S-boxes' outputs (8 or 32 bits each);
        the seed is the S words and, for 3-in-1, the key-size flags."""
        if self.keying == "zero":
            return None
        lane = 8 if self.keying == "partial" else WORD
        return KeyTables(entries=256, lanes=4, lane_bits=lane,
                         seed_bits=self.k_max * WORD + (2 if len(self.sizes) > 1 else 0))

    def table_entry(self, key_len_bits: int) -> TwofishTableEntry:
        return TwofishTableEntry(self, key_len_bits)

    def key_step(self, key_len_bits: int, step_bits: int) -> TwofishKeyStep:
        return TwofishKeyStep(self, key_len_bits, step_bits)

    def describe(self) -> dict[str, object]:
        # Pair generators of the iterative core: the round's (one clock early with
        # subkeys=ahead), and at key load K0..K7 (fold) and the first round's pair (ahead).
        at_load = (4 if self.whiten == "fold" else 0) + (1 if self.subkeys == "ahead" else 0)
        return {
            "q": self.q_kind,
            "whiten": self.whiten,
            "subkeys": self.subkeys,
            "keying": self.keying,
            "sbox": "fly" if self.keying == "zero" else f"precomputed ({self.keying} keying)",
            "g_functions": 2,
            "subkey_pair_generators": 1,
            "load_pair_generators": at_load,
            "clocks_per_block": self.clocks,
            "key_state_bits": self.key_state_bits,
        }
