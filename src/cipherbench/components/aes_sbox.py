"""The AES S-box in several implementations, chosen by a parameter (as OpenTitan's aes_sbox).

Implementations:
- ``table``: a 256-entry lookup per direction (forward S and inverse S^-1); an enc+dec S-box holds
  both tables and a multiplexer.
- ``gf-inv``: one table of the GF(2^8) inverse shared by both directions, with the affine map
  after it (encryption) or its inverse before it (decryption): S(x) = A(x^-1), S^-1(y) = (A^-1(y))^-1.
  Half the table logic of ``table`` for an enc+dec core.
- ``composite``: the inverse computed in the tower field GF(((2^2)^2)^2) with AND/XOR logic
  (Canright's compact S-box; see aes_sbox_composite), about a third of the area of a table.

Each S-box is an Elaboratable with ``i`` (8 bits), ``o`` (8 bits) and, for both directions,
``decrypt`` (1 bit), so any cipher or architecture instantiates it the same way.
"""

from __future__ import annotations

from functools import lru_cache

from amaranth.hdl import Elaboratable, Module, Mux, Signal

from .aes_affine import (AFFINE_CONST, AFFINE_ROWS, INV_AFFINE_CONST, INV_AFFINE_ROWS, affine,
                         inv_affine)
from .aes_sbox_composite import CompositeSbox
from .gf256 import gf_inverse_table, linear_map

SBOX_KINDS = ("table", "gf-inv", "composite")

@lru_cache(maxsize=None)
def sbox_table() -> tuple[int, ...]:
    inv = gf_inverse_table()
    return tuple(affine(inv[x]) for x in range(256))


@lru_cache(maxsize=None)
def inv_sbox_table() -> tuple[int, ...]:
    inv = gf_inverse_table()
    return tuple(inv[inv_affine(y)] for y in range(256))


def table_lookup(m: Module, index: Signal, table: tuple[int, ...], out: Signal) -> None:
    """A combinational ROM as a case statement: synthesis turns it into two-level logic."""
    with m.Switch(index):
        for address, value in enumerate(table):
            with m.Case(address):
                m.d.comb += out.eq(value)


class AesSbox(Elaboratable):
    """One AES S-box byte lane. ``directions``: "encrypt", "decrypt" or "both"."""

    def __init__(self, kind: str = "table", directions: str = "both") -> None:
        if kind not in SBOX_KINDS:
            raise ValueError(f"unknown S-box kind {kind!r}; valid: {', '.join(SBOX_KINDS)}")
        self.kind = kind
        self.directions = directions
        self.i = Signal(8)
        self.o = Signal(8)
        self.decrypt = Signal()  # ignored unless directions == "both"

    def elaborate(self, platform: object) -> Module:
        m = Module()
        if self.kind == "table":
            self._elaborate_tables(m)
        elif self.kind == "composite":
            self._elaborate_composite(m)
        else:
            self._elaborate_shared_inverse(m)
        return m

    def _elaborate_composite(self, m: Module) -> None:
        m.submodules.composite = sbox = CompositeSbox(self.directions)
        m.d.comb += [sbox.i.eq(self.i), sbox.decrypt.eq(self.decrypt), self.o.eq(sbox.o)]

    def _elaborate_tables(self, m: Module) -> None:
        if self.directions == "encrypt":
            table_lookup(m, self.i, sbox_table(), self.o)
            return
        if self.directions == "decrypt":
            table_lookup(m, self.i, inv_sbox_table(), self.o)
            return
        fwd, inv = Signal(8), Signal(8)
        table_lookup(m, self.i, sbox_table(), fwd)
        table_lookup(m, self.i, inv_sbox_table(), inv)
        m.d.comb += self.o.eq(Mux(self.decrypt, inv, fwd))

    def _elaborate_shared_inverse(self, m: Module) -> None:
        pre, inverse = Signal(8), Signal(8)
        before = linear_map(self.i, INV_AFFINE_ROWS) ^ INV_AFFINE_CONST
        after = linear_map(inverse, AFFINE_ROWS) ^ AFFINE_CONST
        if self.directions == "encrypt":
            m.d.comb += pre.eq(self.i)
        elif self.directions == "decrypt":
            m.d.comb += pre.eq(before)
        else:
            m.d.comb += pre.eq(Mux(self.decrypt, before, self.i))
        table_lookup(m, pre, gf_inverse_table(), inverse)
        if self.directions == "encrypt":
            m.d.comb += self.o.eq(after)
        elif self.directions == "decrypt":
            m.d.comb += self.o.eq(inverse)
        else:
            m.d.comb += self.o.eq(Mux(self.decrypt, inverse, after))
