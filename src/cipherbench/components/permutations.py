"""Bit permutations, expansions and selections from a table: wiring, no logic.

A table lists, for each output bit, the input bit it takes. Two numbering conventions:
- ``msb1`` (FIPS 46-3 and most standards' tables): bits numbered from 1 at the most significant
  end, for input and output alike;
- ``lsb0`` (Serpent's tables, C code): bits numbered from 0 at the least significant end.
An output may take an input bit several times (DES E) or leave input bits out (DES PC-1, PC-2).

The DES tables are typed from FIPS 46-3 (IP p. 10, IP^-1 p. 10, E p. 13, P p. 15, PC-1 and PC-2
p. 20); the tests check IP^-1 o IP = identity and run a whole DES through them against an
independent implementation.
"""

from __future__ import annotations

from collections.abc import Sequence

from amaranth.hdl import Cat, Elaboratable, Module, Signal, Value

CONVENTIONS = ("msb1", "lsb0")

DES_IP = (
    58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4,
    62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
    57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3,
    61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7,
)
DES_FP = (  # IP^-1
    40, 8, 48, 16, 56, 24, 64, 32, 39, 7, 47, 15, 55, 23, 63, 31,
    38, 6, 46, 14, 54, 22, 62, 30, 37, 5, 45, 13, 53, 21, 61, 29,
    36, 4, 44, 12, 52, 20, 60, 28, 35, 3, 43, 11, 51, 19, 59, 27,
    34, 2, 42, 10, 50, 18, 58, 26, 33, 1, 41, 9, 49, 17, 57, 25,
)
DES_E = (  # 32 -> 48 bits
    32, 1, 2, 3, 4, 5, 4, 5, 6, 7, 8, 9, 8, 9, 10, 11, 12, 13, 12, 13, 14, 15, 16, 17,
    16, 17, 18, 19, 20, 21, 20, 21, 22, 23, 24, 25, 24, 25, 26, 27, 28, 29, 28, 29, 30, 31, 32, 1,
)
DES_P = (
    16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10,
    2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25,
)
DES_PC1 = (  # 64 -> 56 bits (drops the parity bits 8, 16, ..., 64)
    57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18,
    10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
    63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22,
    14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4,
)
DES_PC2 = (  # 56 -> 48 bits
    14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10, 23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
    41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48, 44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
)
# (table, input width) of each DES table, for catalogs and tests.
DES_TABLES: dict[str, tuple[tuple[int, ...], int]] = {
    "ip": (DES_IP, 64), "fp": (DES_FP, 64), "e": (DES_E, 32), "p": (DES_P, 32),
    "pc1": (DES_PC1, 64), "pc2": (DES_PC2, 56),
}


def _source_indices(table: Sequence[int], in_width: int, convention: str) -> list[int]:
    """For each output bit, LSB first, the LSB-0 index of the input bit it takes."""
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown bit numbering {convention!r}; valid: {', '.join(CONVENTIONS)}")
    base = 1 if convention == "msb1" else 0
    bad = [t for t in table if not base <= t < in_width + base]
    if bad:
        raise ValueError(f"permutation table entry {bad[0]} outside {base}..{in_width + base - 1}")
    if convention == "lsb0":
        return list(table)
    # msb1: output bit k (from 1, MSB first) is LSB-0 bit len-k; input bit t is LSB-0 in_width-t.
    return [in_width - t for t in reversed(table)]


def permute_bits(value: Value, table: Sequence[int], convention: str = "msb1") -> Value:
    """The wiring of a permutation table applied to value (output width = len(table))."""
    sources = _source_indices(table, len(value), convention)
    return Cat(*[value[s] for s in sources])


def permute_int(x: int, table: Sequence[int], in_width: int, convention: str = "msb1") -> int:
    """Python reference of permute_bits."""
    sources = _source_indices(table, in_width, convention)
    return sum(((x >> s) & 1) << k for k, s in enumerate(sources))


def inverse_table(table: Sequence[int], convention: str = "msb1") -> tuple[int, ...]:
    """The inverse of a permutation (a bijection) in the same convention."""
    base = 1 if convention == "msb1" else 0
    if sorted(table) != list(range(base, len(table) + base)):
        raise ValueError("only a permutation (every bit once) has an inverse")
    inverse = [0] * len(table)
    for out_pos, source in enumerate(table):
        inverse[source - base] = out_pos + base
    return tuple(inverse)


class BitPermutation(Elaboratable):
    """o = the bits of i rearranged by ``table``.

    Ports: ``i`` (in_width), ``o`` (len(table)). ``convention``: msb1 or lsb0 (see above).
    """

    def __init__(self, table: Sequence[int], in_width: int, convention: str = "msb1") -> None:
        _source_indices(table, in_width, convention)  # reject a bad table at construction
        self.table, self.convention = tuple(table), convention
        self.i = Signal(in_width)
        self.o = Signal(len(table))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.o.eq(permute_bits(self.i, self.table, self.convention))
        return m


def des_permutation(name: str) -> BitPermutation:
    """One of the DES tables by name: ip, fp, e, p, pc1, pc2."""
    try:
        table, width = DES_TABLES[name]
    except KeyError:
        raise ValueError(f"unknown DES table {name!r}; valid: {', '.join(DES_TABLES)}") from None
    return BitPermutation(table, width)


# ---- PRESENT and GIFT-128: bit i of the state moves to bit P(i) (LSB-0 numbering) -------------
#
# The papers give the permutations as formulas of the destination: PRESENT (CHES 2007, section
# 3, Table 2) P(i) = 16 i mod 63 for i < 63 and P(63) = 63 on 64 bits; GIFT-128 (CHES 2017,
# section 2.1, Table 3) P(j) = 4 floor(j/16) + 32 ((3 floor((j mod 16)/4) + (j mod 4)) mod 4)
# + (j mod 4) on 128 bits. BitPermutation takes the source of each output bit (lsb0), the
# inverse of the destination map: ``destination_table`` converts.


def present_p(i: int) -> int:
    """PRESENT's pLayer: the position bit i moves to."""
    return 63 if i == 63 else (16 * i) % 63


def gift128_p(j: int) -> int:
    """GIFT-128's PermBits: the position bit j moves to."""
    return 4 * (j // 16) + 32 * ((3 * ((j % 16) // 4) + (j % 4)) % 4) + (j % 4)


def destination_table(destinations: Sequence[int]) -> tuple[int, ...]:
    """The lsb0 source table (output bit k takes input bit table[k]) of a permutation given by
    destinations (input bit i goes to destinations[i])."""
    if sorted(destinations) != list(range(len(destinations))):
        raise ValueError("the destinations must be a permutation of 0..n-1")
    source = [0] * len(destinations)
    for i, j in enumerate(destinations):
        source[j] = i
    return tuple(source)


PRESENT_P = tuple(present_p(i) for i in range(64))      # destinations
GIFT128_P = tuple(gift128_p(j) for j in range(128))     # destinations
# Formula name -> (destinations, width), for catalogs and proofs.
SPN_PERMUTATIONS: dict[str, tuple[tuple[int, ...], int]] = {
    "present-player": (PRESENT_P, 64),
    "gift128-permbits": (GIFT128_P, 128),
}


def spn_permutation(name: str, inverse: bool = False) -> BitPermutation:
    """PRESENT's pLayer or GIFT-128's PermBits (``inverse``: the permutation undone) as wiring."""
    try:
        destinations, width = SPN_PERMUTATIONS[name]
    except KeyError:
        raise ValueError(f"unknown permutation {name!r}; valid: "
                         f"{', '.join(SPN_PERMUTATIONS)}") from None
    source = destination_table(destinations)
    # The inverse moves bit P(i) back to i: its destinations are the forward sources.
    return BitPermutation(destinations if inverse else source, width, "lsb0")


def move_bits(x: int, destinations: Sequence[int]) -> int:
    """Python reference: bit i of x to bit destinations[i]."""
    return sum(((x >> i) & 1) << j for i, j in enumerate(destinations))
