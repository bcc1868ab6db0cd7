"""GF(2^8) arithmetic: Python-level tables (for generators and tests) and XOR-network multipliers.

The field is GF(2)[x]/(m(x)) with a reduction polynomial given as an integer (AES: 0x11B). Constant
multiplication is linear over GF(2), so in hardware it is an 8x8 bit matrix: a net of XOR gates,
which synthesis sees directly (no table, no multiplier).
"""

from __future__ import annotations

from functools import lru_cache

from amaranth.hdl import Cat, Const, Value

AES_POLY = 0x11B


def gf_mul(a: int, b: int, poly: int = AES_POLY) -> int:
    """Product of a and b in GF(2^8) modulo poly (shift-and-add)."""
    result = 0
    while b:
        if b & 1:
            result ^= a
        a <<= 1
        if a & 0x100:
            a ^= poly
        b >>= 1
    return result


@lru_cache(maxsize=None)
def gf_inverse_table(poly: int = AES_POLY) -> tuple[int, ...]:
    """Multiplicative inverses, with 0 mapped to 0 (the AES convention)."""
    inv = [0] * 256
    for a in range(1, 256):
        for b in range(1, 256):
            if gf_mul(a, b, poly) == 1:
                inv[a] = b
                break
    return tuple(inv)


def const_mul_matrix(c: int, poly: int = AES_POLY) -> list[int]:
    """Rows of the 8x8 GF(2) matrix of x -> c*x: bit i of the output is the parity of x & row[i]."""
    columns = [gf_mul(c, 1 << j, poly) for j in range(8)]
    return [sum(((columns[j] >> i) & 1) << j for j in range(8)) for i in range(8)]


def xor_of_bits(value: Value, mask: int) -> Value:
    """Parity of the bits of value selected by mask (an XOR tree; 0 if mask is empty)."""
    bits = [value[j] for j in range(len(value)) if (mask >> j) & 1]
    if not bits:
        return Const(0, 1)
    result = bits[0]
    for bit in bits[1:]:
        result = result ^ bit
    return result


def linear_map(value: Value, rows: list[int]) -> Value:
    """Apply a GF(2) matrix given by rows (output bit i = parity(value & rows[i]))."""
    return Cat(*[xor_of_bits(value, row) for row in rows])


def const_mul(value: Value, c: int, poly: int = AES_POLY) -> Value:
    """value * c in GF(2^8) as an XOR network."""
    if c == 1:
        return value
    return linear_map(value, const_mul_matrix(c, poly))
