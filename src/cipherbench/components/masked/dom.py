"""The domain-oriented masking (DOM) multiplier, DOM-indep (Gross, Mangard, Korak 2016).

Inputs a and b as d + 1 shares each, output q = a * b as d + 1 shares, one clock later. Share i
of the output is the compression of the terms of domain i:

    q_i = a_i b_i  XOR  XOR_{j != i} (a_i b_j XOR r_{min(i,j) max(i,j)})

The inner-domain term a_i b_i uses only domain i. The cross-domain terms a_i b_j combine two
domains, so each is "reshared" with a fresh random value r_ij (the same r_ij for a_i b_j and
a_j b_i, which then cancel in the sum) and put into a register before the XOR that compresses it
into domain i: without that register, a glitch in the compression could combine a_i b_j with
a_i b_i (and so b_i with b_j) before r_ij takes effect. The inner-domain terms are registered as
well, so the multiplier takes a new input in every clock (otherwise the compression would mix
the new inner-domain terms with the previous input's cross-domain terms). Latency: 1 clock.
Randomness: d (d + 1) / 2 fresh w-bit values per multiplication (w = 1 for a GF(2) AND: one
bit for first order, three for second).

DOM-indep is secure only if the sharings of a and b are independent; the gadgets built from it
(components/masked/tower.py, sbox4.py) place their registers so that they are (see there).

The product may be any GF(2)-bilinear map given as AND gates between linear forms of the operands
(:class:`Product`): the GF(2) AND, and Canright's GF(2^2) and GF(2^4) normal-basis multipliers
(components/aes_sbox_composite.py: 3 and 9 ANDs), whose cross-domain products a_i * b_j are
whole field products reshared with a w-bit random value, as in Gross et al.'s AES S-box.

``register=False`` is a deliberately broken variant for the leakage assessment: the terms are
compressed first and the compressed share is registered, so the latency and the function are the
same while the cross-domain terms meet the inner-domain term (and the other share of b) in
combinational logic: a first-order flaw under glitches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from amaranth.hdl import Cat, Const, Elaboratable, Module, Signal, Value

from ..aes_sbox_composite import (expand4, expand16, gf4_mul, gf16_mul, mul4_out, mul16_out,
                                  plan_xor_network, unit_rows)
from .shares import RandomLayout, domain_pairs, join_shares, split_shares

LATENCY = 1


@dataclass(frozen=True)
class Product:
    """A bilinear product of two ``width``-bit values: AND gate k takes the linear forms
    ``expand[k]`` of a and of b (rows over the operand's bits); product bit i is the XOR of the
    gates in ``combine[i]`` (rows over the gates). ``model`` is the same product on integers."""

    name: str
    width: int
    expand: tuple[int, ...]
    combine: tuple[int, ...]
    model: Callable[[int, int], int]

    @property
    def gates(self) -> int:
        return len(self.expand)


GF2_AND = Product("gf2", 1, (1,), (1,), lambda a, b: a & b)


@lru_cache(maxsize=None)
def gf4_product() -> Product:
    """Canright's GF(2^2) product, normal basis (W^2, W): 3 ANDs."""
    return Product("gf4", 2, tuple(expand4(unit_rows(2))), tuple(mul4_out(unit_rows(3))),
                   gf4_mul)


@lru_cache(maxsize=None)
def gf16_product(n: int) -> Product:
    """Canright's GF(2^4) product over GF(2^2) with constant N, normal basis (Z^4, Z): 9 ANDs."""
    return Product(f"gf16n{n}", 4, tuple(expand16(unit_rows(4))),
                   tuple(mul16_out(unit_rows(9), n)), lambda a, b: gf16_mul(a, b, n))


def xor_network(m: Module, name: str, inputs: Sequence[Value], rows: Sequence[int]) -> list[Value]:
    """The GF(2) matrix ``rows`` over ``inputs`` as a shared XOR network (Paar's greedy, the same
    planner as the unmasked composite S-box), every gate a named wire."""
    plan = plan_xor_network(tuple(rows), len(inputs))
    signals: list[Value] = list(inputs)
    for k, (a, b) in enumerate(plan.gates):
        wire = Signal(name=f"{name}_x{k}")
        m.d.comb += wire.eq(signals[a] ^ signals[b])
        signals.append(wire)
    return [Const(0, 1) if out is None else signals[out] for out in plan.outputs]


def bits_of(value: Value) -> list[Value]:
    return [value[k] for k in range(len(value))]


Register = Callable[[Value, str], Value]


def dom_multiply(m: Module, name: str, a: Sequence[Value], b: Sequence[Value],
                 random: Sequence[Value], product: Product, register: Register,
                 register_terms: bool = True) -> list[Value]:
    """Build one DOM-indep multiplication in ``m``: ``a``, ``b`` the operand shares (each
    ``product.width`` bits), ``random`` one value per pair of domains (``domain_pairs``),
    ``register(value, name)`` makes a pipeline register. Returns the output shares, valid one
    clock after the operands. Term registers are named ``{name}_c{i}{j}`` (domain i, operand b
    from domain j); with ``register_terms=False`` (the broken variant) the compressed shares are
    registered instead, as ``{name}_s{i}``."""
    shares = len(a)
    pair_random = dict(zip(domain_pairs(shares), random, strict=True))
    # Each operand share's AND inputs are computed once and used by every term it appears in.
    a_forms = [xor_network(m, f"{name}_ea{i}", bits_of(a[i]), product.expand)
               for i in range(shares)]
    b_forms = [xor_network(m, f"{name}_eb{j}", bits_of(b[j]), product.expand)
               for j in range(shares)]
    outputs = []
    for i in range(shares):
        terms = []
        for j in range(shares):
            gates = []
            for k in range(product.gates):
                gate = Signal(name=f"{name}_g{i}{j}_{k}")
                m.d.comb += gate.eq(a_forms[i][k] & b_forms[j][k])
                gates.append(gate)
            term = Cat(*xor_network(m, f"{name}_p{i}{j}", gates, product.combine))
            if i != j:
                term = term ^ pair_random[min(i, j), max(i, j)]
            terms.append(register(term, f"{name}_c{i}{j}") if register_terms else term)
        compressed = terms[0]
        for term in terms[1:]:
            compressed = compressed ^ term
        outputs.append(compressed if register_terms else register(compressed, f"{name}_s{i}"))
    return outputs


class DomIndepMul(Elaboratable):
    """One DOM-indep multiplier as a component (see the module docstring).

    Ports: ``a``, ``b`` (shares x width, share k at bits [k w, (k+1) w)), ``r`` (width x
    d(d+1)/2: pair p of ``domain_pairs`` at bits [p w, (p+1) w)), ``q`` (shares x width, valid
    one clock after a, b and r). Clocked by ``sync``. ``product``: :data:`GF2_AND`,
    :func:`gf4_product`, :func:`gf16_product`; ``register=False``: the broken variant."""

    latency = LATENCY

    def __init__(self, product: Product = GF2_AND, shares: int = 2, register: bool = True,
                 transparent: bool = False) -> None:
        if shares < 1:
            raise ValueError("a masked value has at least one share")
        self.product, self.shares, self.register = product, shares, register
        self.transparent = transparent  # registers as wires (views.py, for the SAT proof)
        self.layout = RandomLayout(shares, [("mul", product.width)])
        w = product.width
        self.a = Signal(w * shares)
        self.b = Signal(w * shares)
        self.r = Signal(max(self.layout.width, 1))  # a 0-bit port would vanish from the netlist
        self.q = Signal(w * shares)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        w = self.product.width

        def register(value: Value, name: str) -> Value:
            held = Signal(len(value), name=name, reset_less=True)
            domain = m.d.comb if self.transparent else m.d.sync
            domain += held.eq(value)
            return held

        random = [self.r[p * w:(p + 1) * w] for p in range(len(domain_pairs(self.shares)))]
        q = dom_multiply(m, "mul", split_shares(self.a, w, self.shares),
                         split_shares(self.b, w, self.shares), random, self.product, register,
                         self.register)
        m.d.comb += self.q.eq(join_shares(q))
        return m
