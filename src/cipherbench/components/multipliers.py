"""Multiplication mod 2^n (MARS, RC6) and RC6's f(x) = x(2x + 1) mod 2^n through a squarer.

Only the low n bits of a product are kept, so every partial-product bit of weight >= 2^n is
dropped before any logic is built: a truncated n x n multiplier has n(n+1)/2 partial-product
ANDs, half of a full one.

Structure: partial-product rows -> carry-save reduction (3:2 compressors, whole rows at a time)
-> one carry-propagate adder (adders.py, any kind). Reductions:
- ``wallace``: each level compresses the rows in groups of three (Wallace 1964), about
  log_1.5(rows) levels of full adders before the final adder;
- ``array``: one row added per level (a carry-save array), rows - 2 levels: smaller wiring,
  slower;
- ``behavioral``: Amaranth's ``*`` truncated to n bits, a reference; synthesis picks.

Rows carry constant zeros where a bit has no partial product (row i starts at bit i); Yosys
removes the full adders those zeros make trivial, so a row-level description costs nothing over
a column-by-column one.

RC6 (Gaj and Chodowiec, Fig. 11): f(x) = x(2x + 1) = 2x^2 + x mod 2^n. A squarer needs only the
products x_i x_j with i <= j: x^2 = sum_i x_i 2^(2i) + sum_{i<j} x_i x_j 2^(i+j+1), so 2x^2 + x
is a diagonal row, about n/2 rows of cross products and x itself, half the rows of a general
multiplier. The rotation by lg n that RC6 applies to f(x) is wiring, left to the cipher.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Elaboratable, Module, Signal, Value

from .adders import add, check_kind

REDUCTIONS = ("wallace", "array", "behavioral")
RC6_F_KINDS = ("squarer", "behavioral")


def _check(value: str, valid: tuple[str, ...], what: str) -> None:
    if value not in valid:
        raise ValueError(f"unknown {what} {value!r}; valid: {', '.join(valid)}")


def _shifted(row: Value, shift: int, width: int) -> Value:
    """row * 2^shift mod 2^width (wiring and constant zeros)."""
    if shift >= width:
        return Const(0, width)
    return Cat(Const(0, shift), row[:width - shift]) if shift else row[:width]


def _csa(m: Module, name: str, x: Value, y: Value, z: Value, width: int) -> tuple[Value, Value]:
    """A row of full adders: x + y + z = sum + carry (carry already shifted to its weight)."""
    s = Signal(width, name=f"{name}_s")
    c = Signal(width, name=f"{name}_c")
    m.d.comb += [s.eq(x ^ y ^ z), c.eq(_shifted((x & y) | (x & z) | (y & z), 1, width))]
    return s, c


def reduce_rows(m: Module, rows: list[Value], width: int, reduction: str,
                prefix: str = "csa") -> tuple[Value, Value]:
    """Carry-save reduction of rows to two whose sum (mod 2^width) equals theirs."""
    _check(reduction, REDUCTIONS[:2], "carry-save reduction")
    rows = list(rows)
    while len(rows) < 2:
        rows.append(Const(0, width))
    level = 0
    while len(rows) > 2:
        if reduction == "array":
            s, c = _csa(m, f"{prefix}{level}", rows[0], rows[1], rows[2], width)
            rows = [s, c, *rows[3:]]
        else:
            reduced: list[Value] = []
            groups = len(rows) // 3
            for k in range(groups):
                s, c = _csa(m, f"{prefix}{level}_{k}", *rows[3 * k:3 * k + 3], width)
                reduced += [s, c]
            rows = reduced + rows[3 * groups:]  # one or two rows wait for the next level
        level += 1
    return rows[0], rows[1]


def multiply_rows(a: Value, b: Value, width: int) -> list[Value]:
    """Partial products of a * b mod 2^width: row i = (a if b_i else 0) * 2^i."""
    return [_shifted(a & b[i].replicate(width), i, width) for i in range(width)]


def rc6_f_rows(x: Value, width: int) -> list[Value]:
    """Rows whose sum is 2x^2 + x mod 2^width (see the module docstring)."""
    # 2 * sum_i x_i 2^(2i): bit 2i+1 holds x_i.
    diagonal = Cat(*[bit for i in range(width) for bit in (Const(0, 1), x[i])])[:width]
    rows: list[Value] = [diagonal, x]
    # 2 * 2 * sum_{j>i} x_i x_j 2^(i+j): row i is x_i * (x with bits 0..i cleared) * 2^(i+2).
    for i in range(width):
        if 2 * i + 3 >= width:  # the lowest product in the row, j = i+1, has weight 2^(2i+3)
            break
        upper = Cat(Const(0, i + 1), x[i + 1:])
        rows.append(_shifted(upper & x[i].replicate(width), i + 2, width))
    return rows


class Multiplier(Elaboratable):
    """o = a * b mod 2^width (the low half of the product).

    Ports: ``a``, ``b``, ``o`` (width). Parameters: ``reduction`` (wallace, array, behavioral)
    and ``final_adder`` (an adders.ADDER_KINDS kind).
    """

    def __init__(self, width: int = 32, reduction: str = "wallace",
                 final_adder: str = "kogge-stone") -> None:
        _check(reduction, REDUCTIONS, "multiplier reduction")
        check_kind(final_adder)
        self.width, self.reduction, self.final_adder = width, reduction, final_adder
        self.a = Signal(width)
        self.b = Signal(width)
        self.o = Signal(width)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        if self.reduction == "behavioral":
            m.d.comb += self.o.eq((self.a * self.b)[:self.width])
            return m
        rows = multiply_rows(self.a, self.b, self.width)
        s, c = reduce_rows(m, rows, self.width, self.reduction)
        m.d.comb += self.o.eq(add(m, s, c, Const(0, 1), self.final_adder, prefix="fa_"))
        return m


class Rc6F(Elaboratable):
    """RC6's f(x) = x(2x + 1) mod 2^width, without the rotation that follows it.

    Ports: ``i``, ``o`` (width). ``kind``: "squarer" (the rows above, carry-save reduced with
    ``reduction``, then a ``final_adder``) or "behavioral" (Amaranth's ``*``, a reference).
    """

    def __init__(self, width: int = 32, kind: str = "squarer", reduction: str = "wallace",
                 final_adder: str = "kogge-stone") -> None:
        _check(kind, RC6_F_KINDS, "RC6 f kind")
        _check(reduction, REDUCTIONS[:2], "carry-save reduction")
        check_kind(final_adder)
        self.width, self.kind = width, kind
        self.reduction, self.final_adder = reduction, final_adder
        self.i = Signal(width)
        self.o = Signal(width)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        x = self.i
        if self.kind == "behavioral":
            m.d.comb += self.o.eq((x * ((x << 1) | 1))[:self.width])
            return m
        s, c = reduce_rows(m, rc6_f_rows(x, self.width), self.width, self.reduction)
        m.d.comb += self.o.eq(add(m, s, c, Const(0, 1), self.final_adder, prefix="fa_"))
        return m


def rc6_f(x: int, width: int = 32) -> int:
    """Python reference: x(2x + 1) mod 2^width."""
    return (x * (2 * x + 1)) % (1 << width)
