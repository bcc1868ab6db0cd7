"""GHASH multipliers: products in GCM's GF(2^128) (SP 800-38D), fully parallel and serial.

Operands and product are blocks in the standard's bit order (components/gf128.py: a port's most
significant bit is x_0, the coefficient of alpha^0); internally every generator works on the
*polynomial* order (list index i = coefficient of alpha^i), which is wiring. All are generic in
the field (``field``, default ``gf128.GCM``) so that the same generator builds the same structure
in a narrow field of the same kind, where the proofs can finish.

Fully parallel, combinational (:class:`GhashMul`, ports ``a``, ``b`` -> ``p``):

- ``schoolbook``: every partial product a_i b_j (128^2 = 16384 ANDs), each coefficient of the
  255-bit carry-less product one XOR tree, then the reduction mod f = alpha^128 + alpha^7 +
  alpha^2 + alpha + 1 as a constant bit matrix (:func:`gf128.reduction_rows`: alpha^128+k =
  alpha^k (alpha^7 + alpha^2 + alpha + 1), folded twice for k > 120).
- ``karatsuba``: the carry-less product split ``levels`` times (Karatsuba-Ofman): a = a0 +
  alpha^h a1, b likewise, h = n/2; a b = L + alpha^h (M + L + H) + alpha^2h H with L = a0 b0,
  H = a1 b1, M = (a0 + a1)(b0 + b1): three half-size products instead of four. Each level
  recurses on all three; below the last level the products are schoolbook. 128 -> 64 (one
  level: 3 x 4096 = 12288 ANDs) -> 32 (two levels: 9 x 1024 = 9216 ANDs), at the cost of the
  recombination XORs and a deeper XOR path. The same reduction matrix follows.
- ``behavioral``: Algorithm 1 of the standard unrolled, 128 stages of "Z ^= V if x_i; V =
  V * alpha" written with Amaranth's operators on the standard's bit order (shift right, XOR R).
  The reference of the proofs: it shares no code with the two above.

Sequential (:class:`GhashMulSerial`, ports ``start``, ``a``, ``b`` -> ``busy``, ``done``,
``p``), digit-serial with digit width ``digit`` d (1: the bit-serial multiplier), n/d clocks a
product, Horner's rule from the highest power of alpha: Z <- Z alpha^d + D(alpha) b, where D
holds the next d coefficients of a (the lowest d bits of the standard's integer come first:
they are the coefficients of the highest powers). One step is a d x 128 partial-product array,
one XOR tree of d + 1 terms per coefficient, and the reduction of the d coefficients above
alpha^127; registers: Z (the product, port ``p``), a shift register of a, b held, a step counter.

Pipelined (:class:`GhashMulPipelined`, ports ``advance``, ``a``, ``b`` -> ``p``): the digit-serial
steps unrolled into ``stages`` k pipeline stages of n/k bits of ``a`` each, ``a``'s remaining digits
and ``b`` carried along with the partial product: a product enters on every edge with ``advance``
high and is in ``p`` k advances later (``advance`` held low holds every stage). One stage is the
serial multiplier's step at d = n/k, so the clock is set by a d x n partial-product array, not a
full product: the accumulator that keeps k interleaved GHASH lanes (message/gcm_core.py, H^k)
takes a block every clock at a clock a one-clock product cannot reach.

Timing: a clock edge with ``start`` high takes ``a`` and ``b`` and performs the first step
(a in the middle of a product is restarted); the product is in ``p``, with ``done`` high for
one clock, n/d clock edges after (and including) the start edge: ``start`` in cycle 0, ``done``
in cycle n/d. ``busy`` is high in the cycles between. ``p`` holds the product until the next
``start``, which may come in the ``done`` cycle: one product every n/d clocks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from .gf128 import GCM, NARROW, Field, reduction_rows

STRUCTURES = ("schoolbook", "karatsuba", "behavioral")
DIGITS = (1, 2, 4, 8, 16, 32, 64)


def poly_bits(word: Value, width: int) -> list[Value]:
    """A block in the standard's order as polynomial coefficients (index i: alpha^i)."""
    return [word[width - 1 - i] for i in range(width)]


def block(bits: Sequence[Value]) -> Value:
    """Polynomial coefficients back to a block in the standard's order."""
    return Cat(*reversed(bits))


def _xor(terms: Sequence[Value]) -> Value:
    """Parity of the terms (one balanced XOR tree after synthesis; 0 for none)."""
    if not terms:
        return Const(0, 1)
    return terms[0] if len(terms) == 1 else Cat(*terms).xor()


def schoolbook(a: Sequence[Value], b: Sequence[Value]) -> list[Value]:
    """Carry-less product of coefficient lists: len(a) + len(b) - 1 coefficients, each the XOR of
    its partial products a_i b_j, i + j = k."""
    return [_xor([a[i] & b[k - i] for i in range(max(0, k - len(b) + 1), min(k + 1, len(a)))])
            for k in range(len(a) + len(b) - 1)]


def karatsuba(m: Module, a: Sequence[Value], b: Sequence[Value], levels: int,
              name: str = "kara") -> list[Value]:
    """Carry-less product of two equal-length coefficient lists by ``levels`` Karatsuba splits,
    schoolbook below (see the module docstring). The three sub-products of every level are
    signals of their own (``{name}_lo``, ``_hi``, ``_mid``), so each is built once."""
    n = len(a)
    if len(b) != n:
        raise ValueError("Karatsuba operands must have the same length")
    if levels == 0 or n < 2:
        return schoolbook(a, b)
    h = (n + 1) // 2
    a0, a1, b0, b1 = list(a[:h]), list(a[h:]), list(b[:h]), list(b[h:])
    pad = [Const(0, 1)] * (h - (n - h))
    sums_a = [x ^ y for x, y in zip(a0, a1 + pad)]
    sums_b = [x ^ y for x, y in zip(b0, b1 + pad)]

    def sub(tag: str, x: list[Value], y: list[Value]) -> list[Value]:
        coeffs = karatsuba(m, x, y, levels - 1, f"{name}_{tag}")
        sig = Signal(len(coeffs), name=f"{name}_{tag}")
        m.d.comb += sig.eq(Cat(*coeffs))
        return [sig[k] for k in range(len(coeffs))]

    lo, hi, mid = sub("lo", a0, b0), sub("hi", a1, b1), sub("mid", sums_a, sums_b)
    out: list[list[Value]] = [[] for _ in range(2 * n - 1)]
    for k, c in enumerate(lo):
        out[k].append(c)
        out[k + h].append(c)
    for k, c in enumerate(hi):
        out[k + 2 * h].append(c)
        out[k + h].append(c)
    for k, c in enumerate(mid):
        out[k + h].append(c)
    return [_xor(terms) for terms in out]


def reduce(coeffs: Sequence[Value], field: Field) -> list[Value]:
    """Coefficients of a polynomial of any length, reduced mod ``field.poly`` (a bit matrix)."""
    rows = reduction_rows(field, len(coeffs))
    return [_xor([coeffs[k] for k in range(len(coeffs)) if row >> k & 1]) for row in rows]


def check_structure(structure: str, levels: int, field: Field) -> None:
    """Refuse an unknown structure, or Karatsuba levels that leave no operand to split."""
    if structure not in STRUCTURES:
        raise ValueError(f"unknown GHASH multiplier structure {structure!r}; "
                         f"valid: {', '.join(STRUCTURES)}")
    if structure == "karatsuba" and not 1 <= levels < field.width.bit_length():
        raise ValueError(f"Karatsuba levels must be between 1 and log2 of the width "
                         f"({field.width.bit_length() - 1}), not {levels}")


def check_digit(digit: int, field: Field) -> None:
    """Refuse a digit width that does not divide the field's width (or is all of it)."""
    if digit < 1 or field.width % digit or digit >= field.width:
        raise ValueError(f"the digit width must divide {field.width} and be less than it, "
                         f"not {digit}")


class GhashMul(Elaboratable):
    """Fully parallel multiplier in GF(2^n) (default GCM's), combinational: ``p`` = ``a`` * ``b``.

    ``structure`` = ``schoolbook`` | ``karatsuba`` (``levels`` splits, 1 or more) |
    ``behavioral`` (Algorithm 1 unrolled; the reference). Ports ``a``, ``b``, ``p`` (n bits, the
    standard's bit order)."""

    def __init__(self, structure: str = "schoolbook", levels: int = 1, field: Field = GCM) -> None:
        check_structure(structure, levels, field)
        self.structure, self.levels, self.field = structure, levels, field
        n = field.width
        self.a = Signal(n)
        self.b = Signal(n)
        self.p = Signal(n)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        n = self.field.width
        if self.structure == "behavioral":
            m.d.comb += self.p.eq(self._algorithm1(m))
            return m
        a, b = poly_bits(self.a, n), poly_bits(self.b, n)
        if self.structure == "schoolbook":
            product = schoolbook(a, b)
        else:
            product = karatsuba(m, a, b, self.levels)
        full = Signal(2 * n - 1, name="clmul")   # the unreduced product, alpha^0 at bit 0
        m.d.comb += full.eq(Cat(*product))
        m.d.comb += self.p.eq(block(reduce([full[k] for k in range(2 * n - 1)], self.field)))
        return m

    def _algorithm1(self, m: Module) -> Value:
        """SP 800-38D Algorithm 1, one stage per bit of a, on the standard's bit order."""
        n, r = self.field.width, self.field.r
        z: Value = Const(0, n)
        v: Value = self.b
        for i in range(n):
            z_next, v_next = Signal(n, name=f"z{i + 1}"), Signal(n, name=f"v{i + 1}")
            m.d.comb += [z_next.eq(Mux(self.a[n - 1 - i], z ^ v, z)),
                         v_next.eq(Mux(v[0], (v >> 1) ^ r, v >> 1))]
            z, v = z_next, v_next
        return z


class GhashMulSerial(Elaboratable):
    """Digit-serial multiplier in GF(2^n) (default GCM's): ``digit`` d bits of ``a`` a clock,
    n/d clocks a product (``digit=1``: bit-serial). Timing in the module docstring.

    Ports: ``start`` (1, in), ``a``, ``b`` (n, in, read at the start edge), ``busy`` (1, out),
    ``done`` (1, out, one clock), ``p`` (n, out: the product when ``done``, held after)."""

    def __init__(self, digit: int = 1, field: Field = GCM) -> None:
        n = field.width
        check_digit(digit, field)
        self.digit, self.field = digit, field
        self.cycles = n // digit
        self.start = Signal()
        self.a = Signal(n)
        self.b = Signal(n)
        self.busy = Signal()
        self.done = Signal()
        self.p = Signal(n)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        n, d = self.field.width, self.digit
        a_rest = Signal(n, name="a_rest")    # a's coefficients not consumed, lowest bits next
        b_held = Signal(n, name="b_held")
        steps_left = Signal(range(self.cycles + 1), name="steps_left")
        m.d.comb += self.busy.eq(steps_left != 0)

        # The operands of this clock's step: the ports on a start edge, else the registers.
        a_now = Mux(self.start, self.a, a_rest)
        b_now = Signal(n, name="b_now")
        z_now = Signal(n, name="z_now")
        m.d.comb += [b_now.eq(Mux(self.start, self.b, b_held)),
                     z_now.eq(Mux(self.start, 0, self.p))]
        digit_word = Signal(d, name="digit")
        m.d.comb += digit_word.eq(a_now[:d])
        step = digit_step(z_now, digit_word, b_now, self.field)

        with m.If(self.start):
            m.d.sync += [b_held.eq(self.b), steps_left.eq(self.cycles - 1),
                         self.done.eq(self.cycles == 1)]
        with m.Else():
            m.d.sync += self.done.eq(steps_left == 1)
            with m.If(self.busy):
                m.d.sync += steps_left.eq(steps_left - 1)
        with m.If(self.start | self.busy):
            m.d.sync += [self.p.eq(block(step)), a_rest.eq(a_now >> d)]
        return m


def digit_step(z: Value, digit_word: Value, b: Value, field: Field) -> list[Value]:
    """One Horner step, Z alpha^d + D(alpha) b reduced mod f, as polynomial coefficients: ``z``
    and ``b`` blocks in the standard's order, ``digit_word`` the next d bits of ``a`` (D's
    coefficient j is its bit d-1-j: the standard-order digit)."""
    n, d = field.width, len(digit_word)
    digit = [digit_word[d - 1 - j] for j in range(d)]
    shifted = [Const(0, 1)] * d + poly_bits(z, n)
    partial = schoolbook(digit, poly_bits(b, n)) + [Const(0, 1)]
    return reduce([x ^ y for x, y in zip(shifted, partial)], field)


STAGES = (2, 4, 8)


class GhashMulPipelined(Elaboratable):
    """Pipelined multiplier in GF(2^n) (default GCM's): ``stages`` k stages of n/k bits of ``a``,
    a product entering on every edge with ``advance`` and leaving k advances later (module
    docstring). Ports: ``advance`` (1, in), ``a``, ``b`` (n, in), ``p`` (n, out: the product of
    the operands that entered k advances ago; 0 after reset until then)."""

    def __init__(self, stages: int = 4, field: Field = GCM) -> None:
        n = field.width
        if stages < 2:
            raise ValueError(f"a pipelined multiplier has 2 or more stages, not {stages}")
        check_digit(n // stages if n % stages == 0 else 0, field)
        self.stages, self.field = stages, field
        self.latency = stages
        self.advance = Signal()
        self.a = Signal(n)
        self.b = Signal(n)
        self.p = Signal(n)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        n, k = self.field.width, self.stages
        d = n // k
        z: Value = Const(0, n)
        a: Value = self.a
        b: Value = self.b
        for stage in range(k):
            step = digit_step(z, a[:d], b, self.field)
            z_q = Signal(n, name=f"z{stage}_q")
            with m.If(self.advance):
                m.d.sync += z_q.eq(block(step))
            z = z_q
            if stage < k - 1:   # the last stage needs neither a's rest nor b
                rest = n - (stage + 1) * d
                a_q, b_q = Signal(rest, name=f"a{stage}_q"), Signal(n, name=f"b{stage}_q")
                with m.If(self.advance):
                    m.d.sync += [a_q.eq(a[d:]), b_q.eq(b)]
                a, b = a_q, b_q
        m.d.comb += self.p.eq(z)
        return m


# ---------------------------------------------------------------- proofs


# Width of the proofs (as MULTIPLIER_WIDTH for the integer multipliers): with ABC's ``iprove`` the
# three pairs prove in about 15 s in GF(2^8); in GF(2^16) the schoolbook pair alone did not finish
# in 100 s (Yosys ``sat``: GF(2^8) in 11 to 26 s a pair, GF(2^16) not in 100 s). The generators
# build the same structure at any width.
PROOF_WIDTH = 8
PROOF_ENGINE = "abc"

ProofSpec = tuple[str, Callable[[], Elaboratable], Callable[[], Elaboratable], tuple[str, ...],
                  tuple[str, ...], str]


def proof_pairs(width: int = PROOF_WIDTH, field: Field | None = None) -> list[ProofSpec]:
    """The pairs of ``ghash-mul``, as (name, reference, alternative, inputs, outputs, engine), the
    fields of verify.equivalence.Pair after the component's name: schoolbook and Karatsuba (1 and
    2 levels) against Algorithm 1 unrolled (``behavioral``) in the narrow field of ``width`` bits
    (gf128.NARROW). Plain data, so that the proof module imports this one and not the other way
    round. ``field`` builds the alternatives in another field (a broken input for the tests)."""
    reference = NARROW[width]
    built = field or reference
    alternatives = [("schoolbook", lambda: GhashMul("schoolbook", field=built))]
    alternatives += [(f"karatsuba, {levels} level{'s' if levels > 1 else ''}",
                      lambda k=levels: GhashMul("karatsuba", k, field=built)) for levels in (1, 2)]
    return [(f"{what} = Algorithm 1 (behavioral), {reference.name}",
             lambda: GhashMul("behavioral", field=reference), build, ("a", "b"), ("p",),
             PROOF_ENGINE)
            for what, build in alternatives]
