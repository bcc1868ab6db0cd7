"""A small builder for pipelined masked circuits: share-wise linear maps, DOM multipliers and the
registers between them, with every value's pipeline stage tracked.

A :class:`Shared` is a w-bit value as d + 1 share expressions plus the stage at which it is valid
(clocks after the gadget's input). Operations that combine values first bring them to the same
stage by delay registers (a chain per value, shared by all its readers), so a gadget only says
where the registers *that matter for security* go (:meth:`MaskedBuilder.register`: a register
that holds compressed shares, so that a later multiplier's glitches cannot reach the terms behind
it); the timing registers follow.

Linear maps work share-wise: the same XOR network on every share, each share a domain of its own,
and a constant only on share 0. Every register is named ``{value}_s{k}`` for share k (the
DOM multiplier's term registers ``{multiplier}_c{i}{j}``), so a netlist shows which register
holds which domain (tests/test_masked_gadgets.py checks that no combinational cone holds two
shares of one value).

``transparent=True`` makes every register a wire: the same logic with the pipeline flattened,
which the SAT proof of the unmasked function uses (verify/equivalence.py: a sequential miter
would have to unroll the pipeline); simulation checks the timing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from amaranth.hdl import Cat, Elaboratable, Module, Mux, Signal, Value

from .dom import Product, bits_of, dom_multiply, xor_network
from .shares import RandomLayout, domain_pairs


@dataclass(frozen=True, eq=False)
class Shared:
    """A value as d + 1 share expressions (each ``width`` bits), valid ``stage`` clocks after
    the gadget's input. Compared by identity (delay chains are cached per value)."""

    shares: tuple[Value, ...]
    stage: int
    name: str = "v"  # names its registers: {name}_s{k}, delayed copies {name}_d{stage}_s{k}

    @property
    def width(self) -> int:
        return len(self.shares[0])

    def bits(self, start: int, stop: int) -> Shared:
        """Bits [start, stop) of every share (a sub-field element, a nibble of a byte)."""
        return Shared(tuple(s[start:stop] for s in self.shares), self.stage,
                      f"{self.name}_b{start}")


def concat(parts: Sequence[Shared], name: str = "v") -> Shared:
    """The parts side by side, the first at the least significant end (same stage required)."""
    stages = {p.stage for p in parts}
    if len(stages) != 1:
        raise ValueError(f"concatenating values of stages {sorted(stages)}")
    count = len(parts[0].shares)
    return Shared(tuple(Cat(*(p.shares[k] for p in parts)) for k in range(count)), stages.pop(),
                  name)


class MaskedBuilder:
    """Builds a masked pipeline in module ``m`` (see the module docstring).

    ``random``: the gadget's randomness port; ``layout`` says which of its bits each multiplier
    reads. ``register_terms=False`` builds every multiplier as the broken variant (compressed,
    then registered)."""

    def __init__(self, m: Module, shares: int, random: Value, layout: RandomLayout, *,
                 register_terms: bool = True, transparent: bool = False) -> None:
        self.m, self.count = m, shares
        self.random, self.layout = random, layout
        self.register_terms, self.transparent = register_terms, transparent
        self._delays: dict[Shared, list[Shared]] = {}
        self.registers = 0  # flip-flops made so far
        self.flops: dict[str, Signal] = {}  # every register by name (testbenches read them)

    # ---- registers -------------------------------------------------------------------------

    def _flop(self, value: Value, name: str) -> Value:
        held = Signal(len(value), name=name, reset_less=True)
        domain = self.m.d.comb if self.transparent else self.m.d.sync
        domain += held.eq(value)
        self.registers += len(value)
        self.flops[name] = held
        return held

    def input(self, shares: Sequence[Value], name: str, stage: int = 0) -> Shared:
        return Shared(tuple(shares), stage, name)

    def register(self, x: Shared, name: str) -> Shared:
        """A register on every share of ``x``: one stage later, and the shares' combinational
        history ends here."""
        return Shared(tuple(self._flop(s, f"{name}_s{k}") for k, s in enumerate(x.shares)),
                      x.stage + 1, name)

    def delay(self, x: Shared, stage: int) -> Shared:
        """``x`` held until ``stage`` (registers shared by every reader of ``x``)."""
        if stage < x.stage:
            raise ValueError(f"a value of stage {x.stage} is not available at stage {stage}")
        chain = self._delays.setdefault(x, [x])
        while chain[-1].stage < stage:
            chain.append(self.register(chain[-1], f"{x.name}_d{chain[-1].stage + 1}"))
        return chain[stage - x.stage]

    def align(self, xs: Sequence[Shared]) -> list[Shared]:
        stage = max(x.stage for x in xs)
        return [self.delay(x, stage) for x in xs]

    # ---- share-wise linear logic -----------------------------------------------------------

    def linear(self, name: str, xs: Sequence[Shared], rows: Sequence[int], constant: int = 0
               ) -> Shared:
        """The GF(2) matrix ``rows`` over the bits of ``xs`` (the first value's bits first),
        share by share, plus ``constant`` on share 0 only."""
        aligned = self.align(xs)
        out = []
        for k in range(self.count):
            inputs = [bit for x in aligned for bit in bits_of(x.shares[k])]
            value = Cat(*xor_network(self.m, f"{name}_s{k}", inputs, rows))
            out.append(value ^ constant if k == 0 and constant else value)
        return Shared(tuple(out), aligned[0].stage, name)

    def select(self, name: str, choose_second: Value, first: Shared, second: Shared) -> Shared:
        """Share by share, ``second`` where the public bit ``choose_second`` is 1, else
        ``first`` (a public select, e.g. encrypt/decrypt, may steer shares: it is no secret).
        The caller gives ``choose_second`` as valid at the values' stage (:meth:`public`)."""
        first, second = self.align([first, second])
        return Shared(tuple(Mux(choose_second, b, a)
                            for a, b in zip(first.shares, second.shares, strict=True)),
                      first.stage, name)

    def public(self, value: Value, stage: int, name: str) -> Value:
        """A public (unmasked) signal of the input's stage, held until ``stage``."""
        for k in range(stage):
            value = self._flop(value, f"{name}_d{k + 1}")
        return value

    def invert(self, x: Shared) -> Shared:
        """NOT: the complement of share 0, the other shares unchanged."""
        return Shared((~x.shares[0], *x.shares[1:]), x.stage, f"{x.name}_n")

    # ---- the non-linear part -----------------------------------------------------------------

    def multiply(self, name: str, a: Shared, b: Shared, product: Product) -> Shared:
        """a * b by a DOM-indep multiplier (dom.py), valid one stage after both operands;
        its fresh bits are the layout's slice for ``name``."""
        a, b = self.align([a, b])
        w = product.width
        indices = self.layout.indices(name)
        random = [Cat(*(self.random[i] for i in indices[p * w:(p + 1) * w]))
                  for p in range(len(domain_pairs(self.count)))]
        q = dom_multiply(self.m, name, a.shares, b.shares, random, product, self._flop,
                         self.register_terms)
        return Shared(tuple(q), a.stage + 1, name)


class MaskedGadget(Elaboratable):
    """What the masked S-boxes share: ports ``i`` and ``o`` of ``width`` x ``shares`` bits
    (share k of a value at bits [width k, width (k + 1))), ``r`` of the layout's random bits
    (one dummy bit when unmasked, never read), the registers by name after elaboration, and
    the builder their pipelines are made with."""

    def _ports(self, width: int, shares: int, layout: RandomLayout, *, register: bool,
               transparent: bool) -> None:
        if shares < 1:
            raise ValueError("a masked value has at least one share")
        self.shares, self.register, self.transparent = shares, register, transparent
        self.layout = layout
        self.i = Signal(width * shares)
        self.r = Signal(max(layout.width, 1))
        self.o = Signal(width * shares)
        self.flops: dict[str, Signal] = {}  # every register by name, after elaboration
        self.flipflops = 0                   # their bit count, after elaboration

    @property
    def random_bits(self) -> int:
        """Fresh bits per evaluation (and per clock, at one evaluation per clock)."""
        return self.layout.width

    def _builder(self, m: Module) -> MaskedBuilder:
        return MaskedBuilder(m, self.shares, self.r, self.layout, register_terms=self.register,
                             transparent=self.transparent)

