"""Twofish's pseudo-Hadamard transform (Twofish paper, section 4.3):
a' = a + b, b' = a + 2b mod 2^32.

The two sums are computed side by side from a and b (2b is b shifted, wiring), so the delay is
one adder, not two in series; the adder structure is a parameter (adders.ADDER_KINDS).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Elaboratable, Module, Signal

from .adders import add, check_kind


def pht(a: int, b: int, width: int = 32) -> tuple[int, int]:
    """Python reference."""
    mask = (1 << width) - 1
    return (a + b) & mask, (a + 2 * b) & mask


class PseudoHadamard(Elaboratable):
    """Ports: ``a``, ``b`` (width) in; ``a_out`` = a + b, ``b_out`` = a + 2b (width) out."""

    def __init__(self, width: int = 32, kind: str = "kogge-stone") -> None:
        check_kind(kind)
        self.width, self.kind = width, kind
        self.a = Signal(width)
        self.b = Signal(width)
        self.a_out = Signal(width)
        self.b_out = Signal(width)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        twice_b = Cat(Const(0, 1), self.b[:self.width - 1])
        m.d.comb += [
            self.a_out.eq(add(m, self.a, self.b, Const(0, 1), self.kind, prefix="s0_")),
            self.b_out.eq(add(m, self.a, twice_b, Const(0, 1), self.kind, prefix="s1_")),
        ]
        return m
