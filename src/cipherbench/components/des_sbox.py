"""The eight DES S-boxes (FIPS 46-3, p. 17), each 6 -> 4 bits, as combinational lookups.

FIPS 46-3 prints each S-box as 4 rows x 16 columns: for an input b1..b6 (b1 the most
significant), the row is b1 b6 and the column b2 b3 b4 b5. ``DES_SBOXES[k]`` is S(k+1) indexed
directly by the 6-bit input, so the hardware is a plain 64-entry table (case statement) and
synthesis sees the whole function.
"""

from __future__ import annotations

from functools import lru_cache

from amaranth.hdl import Elaboratable, Module, Signal

from .aes_sbox import table_lookup

# Rows as printed in FIPS 46-3: _ROWS[k][row][column].
_ROWS = (
    ((14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7),
     (0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8),
     (4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0),
     (15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13)),
    ((15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10),
     (3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5),
     (0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15),
     (13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9)),
    ((10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8),
     (13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1),
     (13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7),
     (1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12)),
    ((7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15),
     (13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9),
     (10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4),
     (3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14)),
    ((2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9),
     (14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6),
     (4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14),
     (11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3)),
    ((12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11),
     (10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8),
     (9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6),
     (4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13)),
    ((4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1),
     (13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6),
     (1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2),
     (6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12)),
    ((13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7),
     (1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2),
     (7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8),
     (2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11)),
)


def _flatten(rows: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    # Input x = b1..b6: row = b1 b6, column = b2..b5.
    return tuple(rows[((x >> 4) & 2) | (x & 1)][(x >> 1) & 15] for x in range(64))


@lru_cache(maxsize=None)
def des_sbox_tables() -> tuple[tuple[int, ...], ...]:
    """S1..S8, each indexed by the 6-bit input."""
    return tuple(_flatten(rows) for rows in _ROWS)


def des_sbox_layer(x: int) -> int:
    """Python reference of the S layer: 48 bits (S1's input most significant) -> 32 bits."""
    tables = des_sbox_tables()
    out = 0
    for k in range(8):
        out = (out << 4) | tables[k][(x >> (42 - 6 * k)) & 63]
    return out


class DesSbox(Elaboratable):
    """One DES S-box S``number`` (1..8). Ports: ``i`` (6 bits, b1 most significant), ``o`` (4)."""

    def __init__(self, number: int) -> None:
        if not 1 <= number <= 8:
            raise ValueError(f"DES has S-boxes 1..8, not {number}")
        self.number = number
        self.i = Signal(6)
        self.o = Signal(4)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        table_lookup(m, self.i, des_sbox_tables()[self.number - 1], self.o)
        return m


class DesSboxLayer(Elaboratable):
    """All eight S-boxes side by side, as in the round function: ``i`` (48), ``o`` (32).

    S1 takes the six most significant input bits and gives the four most significant output bits.
    """

    def __init__(self) -> None:
        self.i = Signal(48)
        self.o = Signal(32)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        for k in range(8):
            box = DesSbox(k + 1)
            m.submodules[f"s{k + 1}"] = box
            m.d.comb += [box.i.eq(self.i[42 - 6 * k:48 - 6 * k]),
                         self.o[28 - 4 * k:32 - 4 * k].eq(box.o)]
        return m
