"""Adders and subtractors mod 2^n, with the carry structure chosen by a parameter.

Kinds:
- ``ripple``: a chain of full adders, c[i+1] = g[i] | p[i] & c[i]; n gates deep, about 5n gates.
- ``kogge-stone``: a parallel-prefix carry network (Kogge and Stone 1973): log2(n) levels of the
  prefix operator, fanout 2 everywhere, about n log2(n) operators. The fastest, the largest.
- ``brent-kung``: a parallel-prefix network (Brent and Kung 1982): 2 log2(n) - 1 levels, about
  2n operators. Between the two.
- ``behavioral``: Amaranth's ``+``; synthesis chooses the structure (Yosys' own carry network),
  a reference for the hand-built ones.

The prefix networks are written out from generate/propagate signals, not with ``+``: Yosys
turns ``+`` into its own adder before ABC sees it, so a hand-built network is the only way to
choose the structure. ABC restructures logic only locally, so the structure survives mapping.

The prefix operator combines a higher group (g, p) with the adjacent lower group (g', p'):
(g, p) o (g', p') = (g | p & g', p & p'). After the network, G[i] is the carry out of bits
0..i, so sum[i] = p[i] ^ G[i-1] (and sum[0] = p[0] ^ carry in).

CAST-128, MARS and RC6 need both addition and subtraction mod 2^32: ``AddSub`` computes
a + b or a - b = a + ~b + 1 (the +1 as the carry in, so it costs nothing extra).
"""

from __future__ import annotations

from collections.abc import Callable

from amaranth.hdl import Cat, Const, Elaboratable, Module, Signal, Value

ADDER_KINDS = ("ripple", "kogge-stone", "brent-kung", "behavioral")
ADDSUB_MODES = ("add", "sub", "both")

# (g, p) pairs per bit position; the network functions rewrite them in place.
_GroupList = list[tuple[Value, Value]]


def check_kind(kind: str) -> None:
    if kind not in ADDER_KINDS:
        raise ValueError(f"unknown adder kind {kind!r}; valid: {', '.join(ADDER_KINDS)}")


def _wire(m: Module, name: str, value: Value) -> Signal:
    """Give an intermediate its own named signal, so the netlist shows the structure and an
    expression shared by several gates is built once."""
    wire = Signal(len(value), name=name)
    m.d.comb += wire.eq(value)
    return wire


def _combine(m: Module, name: str, high: tuple[Value, Value], low: tuple[Value, Value],
             need_p: bool = True) -> tuple[Value, Value]:
    """The prefix operator. ``need_p`` False: the group's propagate is never read again (it
    reaches bit 0, whose group generate is already the carry), so it is not built."""
    g_hi, p_hi = high
    g_lo, p_lo = low
    g = _wire(m, f"{name}_g", g_hi | (p_hi & g_lo))
    p = _wire(m, f"{name}_p", p_hi & p_lo) if need_p else Const(0, 1)
    return g, p


def _kogge_stone(m: Module, groups: _GroupList, prefix: str) -> None:
    """Every level doubles the span: node i combines with node i - d, d = 1, 2, 4, ..."""
    n, d, level = len(groups), 1, 0
    while d < n:
        previous = list(groups)
        for i in range(d, n):
            # A group that reaches bit 0 never needs its propagate again.
            need_p = i - 2 * d >= 0
            groups[i] = _combine(m, f"{prefix}ks{level}_{i}", previous[i], previous[i - d], need_p)
        d, level = 2 * d, level + 1


def _brent_kung(m: Module, groups: _GroupList, prefix: str) -> None:
    """Up-sweep builds the groups of aligned power-of-two spans (a binary tree); down-sweep fills
    in the remaining positions from the nearest finished group below them."""
    n = len(groups)
    d = 1
    while d < n:  # up-sweep: node i = k*2d - 1 takes in the span of d bits below it
        for i in range(2 * d - 1, n, 2 * d):
            need_p = i + 1 != 2 * d  # spans reaching bit 0 need no propagate
            groups[i] = _combine(m, f"{prefix}bku{d}_{i}", groups[i], groups[i - d], need_p)
        d *= 2
    d //= 2
    while d >= 1:  # down-sweep: node i = k*2d + d - 1 (k >= 1) joins the finished group at i - d
        for i in range(3 * d - 1, n, 2 * d):
            groups[i] = _combine(m, f"{prefix}bkd{d}_{i}", groups[i], groups[i - d], False)
        d //= 2


_NETWORKS: dict[str, Callable[[Module, _GroupList, str], None]] = {
    "kogge-stone": _kogge_stone,
    "brent-kung": _brent_kung,
}


def _generate_propagate(m: Module, a: Value, b: Value, prefix: str) -> tuple[Signal, Signal]:
    g = _wire(m, f"{prefix}g", a & b)
    p = _wire(m, f"{prefix}p", a ^ b)
    return g, p


def ripple_sum(m: Module, a: Value, b: Value, carry_in: Value, prefix: str = "") -> Value:
    """a + b + carry_in mod 2^n as a chain of full adders."""
    n = len(a)
    g, p = _generate_propagate(m, a, b, prefix)
    carries: list[Value] = [carry_in]
    for i in range(n - 1):  # the carry out of the top bit is dropped (mod 2^n)
        carries.append(_wire(m, f"{prefix}c{i + 1}", g[i] | (p[i] & carries[i])))
    return p ^ Cat(*carries)


def prefix_sum(m: Module, a: Value, b: Value, carry_in: Value, network: str,
               prefix: str = "") -> Value:
    """a + b + carry_in mod 2^n with the named parallel-prefix carry network."""
    n = len(a)
    g, p = _generate_propagate(m, a, b, prefix)
    # The carry in joins bit 0's generate, so bit i's group generate is the carry into bit i+1.
    g0 = _wire(m, f"{prefix}g0c", g[0] | (p[0] & carry_in))
    groups: _GroupList = [(g0, p[0])] + [(g[i], p[i]) for i in range(1, n)]
    _NETWORKS[network](m, groups, prefix)
    carries = [carry_in] + [groups[i][0] for i in range(n - 1)]
    return p ^ Cat(*carries)


def add(m: Module, a: Value, b: Value, carry_in: Value, kind: str, prefix: str = "") -> Value:
    """a + b + carry_in mod 2^len(a), built as ``kind``; a and b of equal width."""
    check_kind(kind)
    if len(a) != len(b):
        raise ValueError(f"adder operands differ in width: {len(a)} and {len(b)}")
    if kind == "ripple":
        return ripple_sum(m, a, b, carry_in, prefix)
    if kind == "behavioral":
        return (a + b + carry_in)[:len(a)]
    return prefix_sum(m, a, b, carry_in, kind, prefix)


class Adder(Elaboratable):
    """o = a + b (+ ci) mod 2^width.

    Ports: ``a``, ``b`` (width), ``ci`` (1, carry in; leave at 0 for a plain adder), ``o`` (width).
    No carry out: the ciphers add mod 2^32.
    """

    def __init__(self, width: int = 32, kind: str = "kogge-stone") -> None:
        check_kind(kind)
        self.width, self.kind = width, kind
        self.a = Signal(width)
        self.b = Signal(width)
        self.ci = Signal()
        self.o = Signal(width)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.o.eq(add(m, self.a, self.b, self.ci, self.kind))
        return m


class AddSub(Elaboratable):
    """o = a + b or a - b mod 2^width.

    ``mode``: "add", "sub" (a fixed subtractor) or "both" (the ``sub`` input selects).
    Ports: ``a``, ``b`` (width), ``sub`` (1; read only when mode="both"), ``o`` (width).
    Subtraction is a + ~b + 1: one XOR per bit on b and the 1 as carry in.
    """

    def __init__(self, width: int = 32, kind: str = "kogge-stone", mode: str = "both") -> None:
        check_kind(kind)
        if mode not in ADDSUB_MODES:
            raise ValueError(f"unknown add/sub mode {mode!r}; valid: {', '.join(ADDSUB_MODES)}")
        self.width, self.kind, self.mode = width, kind, mode
        self.a = Signal(width)
        self.b = Signal(width)
        self.sub = Signal()
        self.o = Signal(width)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        if self.mode == "add":
            subtract: Value = Const(0, 1)
        elif self.mode == "sub":
            subtract = Const(1, 1)
        else:
            subtract = self.sub
        # Replicate the select over the word: b ^ 1...1 = ~b when subtracting.
        b = _wire(m, "b_eff", self.b ^ subtract.replicate(self.width))
        m.d.comb += self.o.eq(add(m, self.a, b, subtract, self.kind))
        return m
