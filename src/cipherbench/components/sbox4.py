"""4-bit S-boxes from a 16-entry table: a lookup, its algebraic normal form, or a bitsliced
instruction sequence.

A 4-bit S-box is given by its table ``t`` (t[x] for x = 0 .. 15). Nibble bit k is bit k of the
table's values (bit 0 least significant), as in the PRESENT and GIFT papers, whose nibbles are
b_{4j+3} .. b_{4j}. Implementations (``kind``):

- ``table``: a 16-way case statement (aes_sbox.table_lookup); synthesis makes two-level logic of
  it. This is the reference every other kind is proven equal to (cipherbench prove).
- ``anf``: each output bit as its algebraic normal form, the XOR of the monomials (ANDs of input
  bits) whose Moebius coefficient is 1, computed from the table (so it exists for every table);
  monomials used by several output bits are built once.
- ``bitsliced``: a straight-line program of AND/OR/XOR/NOT on the four bits, where the cipher's
  designers give one (``BITSLICED``): GIFT's GS from the GIFT paper (CHES 2017, section 2.1, the
  bitsliced description S1 ^= S0 & S2 ... with S0 the least significant bit), and GS^-1 as that
  program run backwards (each step is its own inverse; the final bit swap undone first). A table
  without a program is refused at construction.

Instances typed from the standards: PRESENT's S (CHES 2007, Table 1) and GIFT's GS (CHES 2017,
Table 1); the inverses are computed.
"""

from __future__ import annotations

from collections.abc import Sequence

from amaranth.hdl import Cat, Const, Elaboratable, Module, Signal, Value

from .aes_sbox import table_lookup

SBOX4_KINDS = ("table", "anf", "bitsliced")

PRESENT_SBOX = (0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD, 0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2)
GIFT_SBOX = (0x1, 0xA, 0x4, 0xC, 0x6, 0xF, 0x3, 0x9, 0x2, 0xD, 0xB, 0x7, 0x5, 0x0, 0x8, 0xE)


def check_table(table: Sequence[int]) -> tuple[int, ...]:
    values = tuple(table)
    if len(values) != 16 or any(not 0 <= v < 16 for v in values):
        raise ValueError("a 4-bit S-box table has 16 entries, each 0..15")
    return values


def inverse_sbox4(table: Sequence[int]) -> tuple[int, ...]:
    """The inverse of a bijective 16-entry table."""
    checked = check_table(table)
    if sorted(checked) != list(range(16)):
        raise ValueError("only a bijective S-box (every value once) has an inverse")
    return tuple(checked.index(y) for y in range(16))


PRESENT_INV_SBOX = inverse_sbox4(PRESENT_SBOX)
GIFT_INV_SBOX = inverse_sbox4(GIFT_SBOX)

# A bitsliced program: steps (dest, op, a, b) on bits s0..s3 (s0 least significant), meaning
# s[dest] ^= s[a] op s[b] for op "&" or "|", s[dest] ^= s[a] for "^", s[dest] = ~s[dest] for
# "~"; ("perm", (p0, p1, p2, p3)) sets the new s_k to the old s_{p_k}.
Step = tuple
_GIFT_STEPS: tuple[Step, ...] = (
    (1, "&", 0, 2),   # S1 <- S1 ^ (S0 & S2)
    (0, "&", 1, 3),   # S0 <- S0 ^ (S1 & S3)
    (2, "|", 0, 1),   # S2 <- S2 ^ (S0 | S1)
    (3, "^", 2, None),  # S3 <- S3 ^ S2
    (1, "^", 3, None),  # S1 <- S1 ^ S3
    (3, "~", None, None),  # S3 <- ~S3
    (2, "&", 0, 1),   # S2 <- S2 ^ (S0 & S1)
    ("perm", (3, 1, 2, 0)),  # {S0, S1, S2, S3} <- {S3, S1, S2, S0}
)


def _reversed_program(steps: Sequence[Step]) -> tuple[Step, ...]:
    """The inverse program: the steps in reverse order, each undone. An XOR step whose operands
    it does not change is its own inverse; a permutation is undone by its inverse."""
    out: list[Step] = []
    for step in reversed(steps):
        if step[0] == "perm":
            p = step[1]
            out.append(("perm", tuple(p.index(k) for k in range(4))))
        else:
            out.append(step)
    return tuple(out)


BITSLICED: dict[tuple[int, ...], tuple[Step, ...]] = {
    GIFT_SBOX: _GIFT_STEPS,
    GIFT_INV_SBOX: _reversed_program(_GIFT_STEPS),
}


def run_program(steps: Sequence[Step], x: int) -> int:
    """Python reference of a bitsliced program on the nibble x."""
    s = [(x >> k) & 1 for k in range(4)]
    for step in steps:
        if step[0] == "perm":
            s = [s[p] for p in step[1]]
            continue
        dest, op, a, b = step
        if op == "&":
            s[dest] ^= s[a] & s[b]
        elif op == "|":
            s[dest] ^= s[a] | s[b]
        elif op == "^":
            s[dest] ^= s[a]
        else:
            s[dest] ^= 1
    return sum(bit << k for k, bit in enumerate(s))


def anf(table: Sequence[int]) -> list[list[int]]:
    """Per output bit, the monomials of its algebraic normal form: each a 4-bit mask of the input
    bits ANDed (0 is the constant 1). Moebius transform of the bit's truth table."""
    values = check_table(table)
    out = []
    for bit in range(4):
        coeffs = [(values[x] >> bit) & 1 for x in range(16)]
        for k in range(4):
            for x in range(16):
                if x >> k & 1:
                    coeffs[x] ^= coeffs[x ^ (1 << k)]
        out.append([mono for mono in range(16) if coeffs[mono]])
    return out


def anf_eval(table: Sequence[int], x: int) -> int:
    """Python evaluation of the ANF (to check it against the table without hardware)."""
    result = 0
    for bit, monomials in enumerate(anf(table)):
        value = 0
        for mono in monomials:
            value ^= int(x & mono == mono)
        result |= value << bit
    return result


def _anf_logic(m: Module, x: Value, table: Sequence[int], prefix: str) -> Value:
    terms: dict[int, Value] = {}

    def monomial(mono: int) -> Value:
        if mono not in terms:
            if mono == 0:
                terms[mono] = Const(1, 1)
            else:
                bits = [x[k] for k in range(4) if mono >> k & 1]
                value = bits[0]
                for b in bits[1:]:
                    value = value & b
                if len(bits) > 1:  # a named wire, so several outputs share it
                    wire = Signal(name=f"{prefix}_m{mono:x}")
                    m.d.comb += wire.eq(value)
                    value = wire
                terms[mono] = value
        return terms[mono]

    outs = []
    for monomials in anf(table):
        value: Value = Const(0, 1)
        for mono in monomials:
            value = value ^ monomial(mono)
        outs.append(value)
    return Cat(*outs)


def _bitsliced_logic(m: Module, x: Value, steps: Sequence[Step], prefix: str) -> Value:
    s: list[Value] = [x[k] for k in range(4)]
    for n, step in enumerate(steps):
        if step[0] == "perm":
            s = [s[p] for p in step[1]]
            continue
        dest, op, a, b = step
        if op == "&":
            value = s[dest] ^ (s[a] & s[b])
        elif op == "|":
            value = s[dest] ^ (s[a] | s[b])
        elif op == "^":
            value = s[dest] ^ s[a]
        else:
            value = ~s[dest]
        wire = Signal(name=f"{prefix}_t{n}")
        m.d.comb += wire.eq(value)
        s[dest] = wire
    return Cat(*s)


def sbox4(m: Module, x: Value, table: Sequence[int], kind: str = "table",
          prefix: str = "sb4") -> Value:
    """The S-box ``table`` on the 4-bit value ``x``, built in ``m`` as ``kind``."""
    values = check_table(table)
    if kind == "table":
        lane_in = Signal(4, name=f"{prefix}_in")
        lane_out = Signal(4, name=f"{prefix}_out")
        m.d.comb += lane_in.eq(x)
        table_lookup(m, lane_in, values, lane_out)
        return lane_out
    if kind == "anf":
        return _anf_logic(m, x, values, prefix)
    return _bitsliced_logic(m, x, BITSLICED[values], prefix)


def check_kind(table: Sequence[int], kind: str) -> None:
    if kind not in SBOX4_KINDS:
        raise ValueError(f"unknown 4-bit S-box kind {kind!r}; valid: {', '.join(SBOX4_KINDS)}")
    if kind == "bitsliced" and check_table(table) not in BITSLICED:
        raise ValueError("no bitsliced program is known for this table (GIFT's GS and GS^-1 "
                         "have one); use kind=table or anf")


class Sbox4(Elaboratable):
    """One 4-bit S-box. Ports: ``i`` (4), ``o`` (4) = table[i]. ``kind``: table | anf |
    bitsliced (see the module docstring)."""

    def __init__(self, table: Sequence[int], kind: str = "table") -> None:
        check_kind(table, kind)
        self.table, self.kind = check_table(table), kind
        self.i = Signal(4)
        self.o = Signal(4)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.o.eq(sbox4(m, self.i, self.table, self.kind))
        return m


class Sbox4Layer(Elaboratable):
    """The same 4-bit S-box on every nibble of a word (PRESENT's sBoxLayer, GIFT's SubCells).

    Ports: ``i``, ``o`` (4 x ``count``); nibble j is bits 4j+3 .. 4j."""

    def __init__(self, table: Sequence[int], count: int, kind: str = "table") -> None:
        check_kind(table, kind)
        self.table, self.kind, self.count = check_table(table), kind, count
        self.i = Signal(4 * count)
        self.o = Signal(4 * count)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.o.eq(Cat(*(sbox4(m, self.i[4 * j:4 * j + 4], self.table, self.kind,
                                          f"sb{j}") for j in range(self.count))))
        return m


def sbox4_layer(x: int, table: Sequence[int], count: int) -> int:
    """Python reference of Sbox4Layer."""
    return sum(table[(x >> (4 * j)) & 0xF] << (4 * j) for j in range(count))
