"""Masked 4-bit S-boxes (PRESENT's S, GIFT's GS and their inverses) as two layers of DOM ANDs.

Every 4-bit permutation has algebraic degree at most 3, so its algebraic normal form (ANF,
components/sbox4.py) is a sum of input bits, quadratic monomials x_a x_b and cubic monomials
x_a x_b x_c. The masked S-box computes it in two layers of DOM-indep ANDs (dom.py):

    stage 1: every quadratic monomial that is needed, q_ab = x_a AND x_b
    stage 2: every cubic monomial, c_abc = q_ab AND x_c (x_c delayed one clock)
    output:  each bit the share-wise XOR of its ANF's input bits (delayed), quadratic and cubic
             monomials, the constant 1 on share 0; combinational after the stage-2 registers

A cubic monomial takes a quadratic factor that the ANF uses anyway where there is one. Latency 2
clocks (1 for a quadratic S-box), one fresh bit per AND and pair of domains:

    table        ANDs (quadratic + cubic)   fresh bits per evaluation, 2 / 3 shares
    PRESENT S    5 + 3                      8 / 24
    PRESENT S^-1 6 + 3                      9 / 27
    GIFT GS      4 + 2                      6 / 18
    GIFT GS^-1   6 + 2                      8 / 24

Why no register between the layers (the tower inverter needs compression registers, tower.py):
q_ab's domain-i cone holds the AND's domain-i term registers, x_a,i x_b,i and
x_a,i x_b,j + r, and the other operand x_c,j is domain j of a bit outside {a, b}. A glitch on
the cross-domain term q_ab,i x_c,j thus sees shares of distinct input bits (a uniform sharing)
and a term masked by r, which nothing else in that cone holds; the sharings of q_ab and x_c are
independent as DOM-indep requires.

This trades randomness for latency against GIFT's bitsliced sequence (components/sbox4.py:
AND, AND, OR, AND, a chain four gates deep): masked gate by gate (:class:`MaskedBitsliced4`,
with GIFT's register schedule in ciphers/gift/masked.py) it needs 4 fresh bits but, with the
compression registers its dependent operands need, six clocks.

``randomness="reuse"``: two quadratic monomials of one output bit (the first output bit with two)
read the same fresh bit. Share i of x_a x_b is x_a,i x_b + r, so the two compressed shares then
differ by a term without randomness (GIFT: x_0,i (x_1 + x_2), zero whenever x_1 = x_2); the
output XOR of that bit sees both registers, a first-order flaw under glitches
(tests/test_masked_sbox4.py shows the registers' XOR constant for some inputs, and masked for all
with fresh bits). ``register=False``: every AND compressed before its register (dom.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from amaranth.hdl import Module

from ..sbox4 import anf, check_table
from .dom import GF2_AND
from .pipeline import MaskedGadget, Shared
from .shares import RandomLayout, join_shares, split_shares

RANDOMNESS = ("fresh", "reuse")


def _weight(mask: int) -> int:
    return bin(mask).count("1")


@dataclass(frozen=True)
class AnfPlan:
    """The two AND layers for one 4-bit table: the quadratic monomials (4-bit masks of the input
    bits), the cubic monomials with the quadratic factor each is computed from, and per output
    bit its linear input bits, constant and monomials."""

    quadratic: tuple[int, ...]
    cubic: tuple[tuple[int, int], ...]  # (monomial, quadratic factor)
    linear: tuple[int, ...]             # per output bit: mask of input bits
    constant: int                       # bit k: output bit k's ANF has the constant 1
    monomials: tuple[tuple[int, ...], ...]  # per output bit: its monomials of degree >= 2

    @property
    def latency(self) -> int:
        return 2 if self.cubic else (1 if self.quadratic else 0)

    def multipliers(self) -> list[tuple[str, int]]:
        return ([(f"q{q:x}", 1) for q in self.quadratic]
                + [(f"c{c:x}", 1) for c, _ in self.cubic])

    def reused_pair(self) -> tuple[str, str]:
        """(reader, owner): the two quadratic ANDs the reuse variant gives one random bit."""
        for monomials in self.monomials:
            quads = [m for m in monomials if _weight(m) == 2]
            if len(quads) >= 2:
                return f"q{quads[1]:x}", f"q{quads[0]:x}"
        raise ValueError("no output bit has two quadratic monomials")


def anf_plan(table: Sequence[int]) -> AnfPlan:
    terms = anf(check_table(table))
    if any(_weight(m) > 3 for bit in terms for m in bit):
        raise ValueError("a degree-4 table (not a permutation) needs a third AND layer")
    quadratic = sorted({m for bit in terms for m in bit if _weight(m) == 2})
    cubic = []
    for c in sorted({m for bit in terms for m in bit if _weight(m) == 3}):
        factors = [c & ~(1 << k) for k in range(4) if c >> k & 1]
        known = [f for f in factors if f in quadratic]
        factor = known[0] if known else min(factors)
        if factor not in quadratic:
            quadratic.append(factor)
        cubic.append((c, factor))
    return AnfPlan(
        tuple(quadratic), tuple(cubic),
        tuple(sum(m for m in bit if _weight(m) == 1) for bit in terms),
        sum(1 << k for k, bit in enumerate(terms) if 0 in bit),
        tuple(tuple(m for m in bit if _weight(m) >= 2) for bit in terms))


def random_layout(table: Sequence[int], shares: int, randomness: str = "fresh") -> RandomLayout:
    """Where each AND of the table's plan finds its fresh bits (the reuse variant aliased)."""
    if randomness not in RANDOMNESS:
        raise ValueError(f"unknown randomness {randomness!r}; valid: {', '.join(RANDOMNESS)}")
    plan = anf_plan(table)
    aliases = dict([plan.reused_pair()]) if randomness == "reuse" else None
    return RandomLayout(shares, plan.multipliers(), aliases)


class MaskedSbox4(MaskedGadget):
    """A masked 4-bit S-box from its table (see the module docstring).

    Ports: ``i`` (4 x shares, share k at bits [4k, 4k + 4)), ``r`` (:attr:`random_bits`, read
    every clock: one bit per AND and pair of domains, ANDs in :meth:`AnfPlan.multipliers` order),
    ``o`` (4 x shares, valid :attr:`latency` clocks after ``i``). ``shares`` = d + 1."""

    def __init__(self, table: Sequence[int], shares: int = 2, *, register: bool = True,
                 randomness: str = "fresh", transparent: bool = False) -> None:
        self.table = check_table(table)
        self.plan = anf_plan(self.table)
        self._ports(4, shares, random_layout(self.table, shares, randomness), register=register,
                    transparent=transparent)
        self.latency = self.plan.latency

    def elaborate(self, platform: object) -> Module:
        m = Module()
        plan = self.plan
        b = self._builder(m)
        x = b.input(split_shares(self.i, 4, self.shares), "x")
        bit = [x.bits(k, k + 1) for k in range(4)]
        quads: dict[int, Shared] = {}
        for q in plan.quadratic:
            low, high = [k for k in range(4) if q >> k & 1]
            quads[q] = b.multiply(f"q{q:x}", bit[low], bit[high], GF2_AND)
        cubes: dict[int, Shared] = {}
        for c, factor in plan.cubic:
            (third,) = [k for k in range(4) if (c & ~factor) >> k & 1]
            cubes[c] = b.multiply(f"c{c:x}", quads[factor], bit[third], GF2_AND)
        # Output rows over [x (4 bits), the quadratic ANDs, the cubic ANDs].
        column = {q: 4 + n for n, q in enumerate(plan.quadratic)}
        column.update({c: 4 + len(plan.quadratic) + n for n, (c, _) in enumerate(plan.cubic)})
        rows = [plan.linear[k] | sum(1 << column[mono] for mono in plan.monomials[k])
                for k in range(4)]
        out = b.linear("out", [x, *quads.values(), *cubes.values()], rows, plan.constant)
        m.d.comb += self.o.eq(join_shares(out.shares))
        self.flops = dict(b.flops)
        self.flipflops = b.registers
        return m


def program_latency(steps: Sequence[tuple], registers: dict[int, Sequence[int]]) -> int:
    """A masked bitsliced program's latency: each AND/OR one clock after its later operand,
    each register listed before a step one more."""
    stage = [0, 0, 0, 0]
    for n, step in enumerate(steps):
        for k in registers.get(n, ()):
            stage[k] += 1
        if step[0] == "perm":
            stage = [stage[p] for p in step[1]]
            continue
        dest, op, a, b = step
        if op in ("&", "|"):
            stage[dest] = max(stage[dest], stage[a] + 1, stage[b] + 1)
        elif op == "^":
            stage[dest] = max(stage[dest], stage[a])
    return max(stage)


class MaskedBitsliced4(MaskedGadget):
    """A 4-bit S-box from a bitsliced program (components/sbox4.py: steps s[dest] ^= s[a] & s[b],
    ^= s[a] | s[b], ^= s[a], = ~s[dest], and a bit permutation), every AND a DOM-indep AND and
    every OR one by De Morgan (a | b = ~(~a & ~b), each NOT on share 0 only), the XORs share-wise.

    ``registers`` maps a step's index to the state bits that are registered (compressed) before
    it: the program's own dependencies decide where a value's shares would otherwise meet in a
    later AND, so the schedule is the cipher's (ciphers/gift/masked.py). The multipliers' fresh
    bits are named ``g{step}`` in step order, one bit per pair of domains each. Ports and layout
    as :class:`MaskedSbox4`; the latency is the program's (``latency`` after construction)."""

    def __init__(self, steps: Sequence[tuple], registers: dict[int, Sequence[int]],
                 shares: int = 2, *, register: bool = True, transparent: bool = False) -> None:
        self.steps, self.schedule = tuple(steps), dict(registers)
        gates = [(f"g{n}", 1) for n, step in enumerate(self.steps) if step[1:2] in (("&",), ("|",))]
        self._ports(4, shares, RandomLayout(shares, gates), register=register,
                    transparent=transparent)
        self.latency = program_latency(self.steps, self.schedule)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        b = self._builder(m)
        x = b.input(split_shares(self.i, 4, self.shares), "x")
        s = [x.bits(k, k + 1) for k in range(4)]
        for n, step in enumerate(self.steps):
            for k in self.schedule.get(n, ()):
                s[k] = b.register(s[k], f"s{k}_before{n}")
            if step[0] == "perm":
                s = [s[p] for p in step[1]]
                continue
            dest, op, a, c = step
            if op == "~":
                s[dest] = b.invert(s[dest])
                continue
            if op == "^":
                term = s[a]
            elif op == "&":
                term = b.multiply(f"g{n}", s[a], s[c], GF2_AND)
            else:  # De Morgan
                term = b.invert(b.multiply(f"g{n}", b.invert(s[a]), b.invert(s[c]), GF2_AND))
            s[dest] = b.linear(f"t{n}", [s[dest], term], [0b11])
        out = b.linear("out", s, [1 << k for k in range(4)])
        assert out.stage == self.latency
        m.d.comb += self.o.eq(join_shares(out.shares))
        self.flops = dict(b.flops)
        self.flipflops = b.registers
        return m
