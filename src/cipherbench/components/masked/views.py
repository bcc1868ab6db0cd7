"""The masked gadgets seen from outside the masking, for the SAT proofs of ``cipherbench prove``
(verify/equivalence.py): the gadget built with ``transparent=True`` (every pipeline register a
wire), its input shared by free mask inputs, its output shares XORed. A miter against the
unmasked reference then proves the gadget's function for every input, every sharing and every
value of the randomness at once; simulation (tests/test_masked_*.py) checks the pipeline timing.
"""

from __future__ import annotations

from amaranth.hdl import Elaboratable, Module, Signal, Value

from ..aes_sbox import table_lookup
from .dom import DomIndepMul, Product
from .shares import join_shares


def _shared(value: Value, mask: Value, width: int, shares: int) -> Value:
    """A sharing of ``value`` whose shares 1..d are the mask's parts."""
    masks = [mask[k * width:(k + 1) * width] for k in range(shares - 1)]
    first: Value = value
    for part in masks:
        first = first ^ part
    return join_shares([first, *masks])


def _unshared(port: Value, width: int, shares: int) -> Value:
    result: Value = port[0:width]
    for k in range(1, shares):
        result = result ^ port[k * width:(k + 1) * width]
    return result


class UnmaskedView(Elaboratable):
    """A masked gadget seen from outside the masking, for SAT proofs: ports ``i`` (the value),
    ``mask`` (shares 1..d), ``r`` (the gadget's randomness) and ``o`` (the XOR of the output
    shares). Share 0 is i XOR the masks. Build the gadget with ``transparent=True`` to prove its
    function for every input, every sharing and every random input in one combinational miter."""

    def __init__(self, gadget: Elaboratable, width: int, shares: int, random_bits: int) -> None:
        self.gadget, self.width, self.shares = gadget, width, shares
        self.i = Signal(width)
        self.mask = Signal(max(width * (shares - 1), 1))
        self.r = Signal(max(random_bits, 1))
        self.o = Signal(width)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.gadget = g = self.gadget
        w, s = self.width, self.shares
        m.d.comb += [g.i.eq(_shared(self.i, self.mask, w, s)), g.r.eq(self.r[:len(g.r)]),
                     self.o.eq(_unshared(g.o, w, s))]
        return m


class IgnoringInputs(Elaboratable):
    """A reference component with the extra (unused) inputs ``mask`` and ``r`` of an
    :class:`UnmaskedView`, so a miter can pair the two port for port."""

    def __init__(self, inner: Elaboratable, mask_bits: int, random_bits: int) -> None:
        self.inner = inner
        self.i, self.o = inner.i, inner.o
        self.mask = Signal(max(mask_bits, 1))
        self.r = Signal(max(random_bits, 1))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.inner = self.inner
        return m


class UnmaskedProduct(Elaboratable):
    """A transparent DOM multiplier seen unmasked: ports ``a``, ``b`` (the values), ``mask_a``,
    ``mask_b`` (their shares 1..d), ``r`` and ``q`` (the XOR of the output shares)."""

    def __init__(self, product: Product, shares: int, register: bool = True) -> None:
        self.mul = DomIndepMul(product, shares, register, transparent=True)
        self.product, self.shares = product, shares
        w = product.width
        self.a, self.b, self.q = Signal(w), Signal(w), Signal(w)
        self.mask_a = Signal(max(w * (shares - 1), 1))
        self.mask_b = Signal(max(w * (shares - 1), 1))
        self.r = Signal(len(self.mul.r))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.mul = g = self.mul
        w, s = self.product.width, self.shares
        m.d.comb += [g.a.eq(_shared(self.a, self.mask_a, w, s)),
                     g.b.eq(_shared(self.b, self.mask_b, w, s)), g.r.eq(self.r),
                     self.q.eq(_unshared(g.q, w, s))]
        return m


class ProductTable(Elaboratable):
    """The reference for :class:`UnmaskedProduct`: the product's integer model (the tower
    field's formulas in aes_sbox_composite, not the gate rows the multiplier is built from) as a
    lookup table on (a, b), with the unused inputs ``mask_a``, ``mask_b``, ``r``."""

    def __init__(self, product: Product, shares: int) -> None:
        self.product = product
        w = product.width
        self.a, self.b, self.q = Signal(w), Signal(w), Signal(w)
        self.mask_a = Signal(max(w * (shares - 1), 1))
        self.mask_b = Signal(max(w * (shares - 1), 1))
        self.r = Signal(max(w * shares * (shares - 1) // 2, 1))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        w = self.product.width
        index = Signal(2 * w)
        m.d.comb += index.eq(self.b | (self.a << w))
        table = tuple(self.product.model(x >> w, x & ((1 << w) - 1)) for x in range(1 << 2 * w))
        table_lookup(m, index, table, self.q)
        return m
