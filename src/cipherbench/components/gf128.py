"""GF(2^128) as GCM defines it (NIST SP 800-38D, section 6.3), and GHASH (section 6.4).

**Bit order.** A block is a 16-byte string, read as a 128-bit big-endian integer. The standard
numbers the block's bits x_0 .. x_127 from the left (x_0 is the most significant bit of byte 0,
the integer's bit 127) and takes bit x_i as the coefficient of alpha^i: the representation is
*bit-reflected*. So the field element 1 is the block 80 00 .. 00, alpha is 40 00 .. 00, and the
field polynomial f = 1 + alpha + alpha^2 + alpha^7 + alpha^128 gives R = E1 || 0^120 (the
coefficients of alpha^0, alpha^1, alpha^2 and alpha^7 as the four leftmost-ish bits 1110 0001).

:func:`gf128_mul` is Algorithm 1 of the standard, step by step: Z = 0, V = Y; for each bit x_i of
X from the left, Z ^= V if x_i is set, then V = V >> 1 (multiplication by alpha in the reflected
order), XORed with R if the bit shifted out (v_127, the coefficient of alpha^127) was set.
:func:`ghash` is Algorithm 2: Y_i = (Y_{i-1} ^ X_i) * H.

The hardware generators (components/ghash_mul.py) work on the *polynomial* order instead (bit i of
a signal = the coefficient of alpha^i, the reflection of the standard's integer) and reduce by
the matrix of :func:`reduction_rows`. They are generic in the field (:class:`Field`): GCM's, and
narrow fields of the same shape, in which ``cipherbench prove`` can prove the structures equal
(SAT does not finish on 128-bit multipliers; the generators build the same structure at any
width). :func:`field_mul` is Algorithm 1 for any such field; :func:`clmul` and :func:`poly_mod`
are the polynomial arithmetic, a second, independent way to the same product that the tests
compare with Algorithm 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

BLOCK_BYTES = 16
MASK128 = (1 << 128) - 1
R = 0xE1 << 120  # SP 800-38D section 6.3: R = 11100001 || 0^120
ONE = 1 << 127   # the field's 1 in the standard's bit order (x_0 set)


def gf128_mul(x: int, y: int) -> int:
    """X * Y in GCM's GF(2^128) (SP 800-38D Algorithm 1), blocks as 128-bit big-endian ints."""
    if not (0 <= x <= MASK128 and 0 <= y <= MASK128):
        raise ValueError("GF(2^128) operands are 128-bit integers")
    z, v = 0, y
    for i in range(128):
        if x >> (127 - i) & 1:        # x_i, the i-th bit from the left
            z ^= v
        v = (v >> 1) ^ R if v & 1 else v >> 1   # v_127 is the integer's bit 0
    return z


def ghash(h: bytes, data: bytes) -> bytes:
    """GHASH_H(X_1 || .. || X_m) (SP 800-38D Algorithm 2); ``data`` a multiple of 16 bytes."""
    if len(h) != BLOCK_BYTES:
        raise ValueError(f"the hash subkey is {BLOCK_BYTES} bytes, not {len(h)}")
    if len(data) % BLOCK_BYTES:
        raise ValueError(f"GHASH input of {len(data)} bytes is not a whole number of blocks")
    key, y = int.from_bytes(h, "big"), 0
    for k in range(0, len(data), BLOCK_BYTES):
        y = gf128_mul(y ^ int.from_bytes(data[k:k + BLOCK_BYTES], "big"), key)
    return y.to_bytes(BLOCK_BYTES, "big")


# ---------------------------------------------------------------- fields of GCM's shape


@dataclass(frozen=True)
class Field:
    """GF(2^width) = GF(2)[alpha]/(poly), ``poly`` with its x^width term, elements in GCM's
    reflected bit order (the integer's most significant bit is the coefficient of alpha^0)."""

    width: int
    poly: int

    def __post_init__(self) -> None:
        if self.poly >> self.width != 1:
            raise ValueError(f"poly {self.poly:#x} is not of degree {self.width}")

    @property
    def r(self) -> int:
        """Algorithm 1's R: the low terms of poly, reflected (GCM: 0xE1 << 120)."""
        return reflect(self.poly & ((1 << self.width) - 1), self.width)

    @property
    def name(self) -> str:
        return f"GF(2^{self.width})"


GCM = Field(128, (1 << 128) | 0x87)          # x^128 + x^7 + x^2 + x + 1
# Narrow fields of the same kind (irreducible pentanomials), for the proofs.
NARROW = {8: Field(8, 0x11B),                # x^8 + x^4 + x^3 + x + 1 (AES)
          16: Field(16, 0x1002B),            # x^16 + x^5 + x^3 + x + 1
          32: Field(32, (1 << 32) | 0x8D)}   # x^32 + x^7 + x^3 + x^2 + 1


def reflect(value: int, width: int) -> int:
    """The ``width``-bit value with its bits in the opposite order."""
    return int(format(value, f"0{width}b")[::-1], 2)


def field_mul(x: int, y: int, field: Field = GCM) -> int:
    """Algorithm 1 in any :class:`Field` (``field_mul(x, y, GCM) == gf128_mul(x, y)``)."""
    n, r = field.width, field.r
    z, v = 0, y
    for i in range(n):
        if x >> (n - 1 - i) & 1:
            z ^= v
        v = (v >> 1) ^ r if v & 1 else v >> 1
    return z


def clmul(a: int, b: int) -> int:
    """Carry-less product of two polynomials over GF(2) (bit i = coefficient of x^i)."""
    out = 0
    while b:
        if b & 1:
            out ^= a
        a <<= 1
        b >>= 1
    return out


def poly_mod(value: int, poly: int) -> int:
    """``value`` mod ``poly`` over GF(2) (both polynomials, bit i = coefficient of x^i)."""
    degree = poly.bit_length() - 1
    while value.bit_length() - 1 >= degree:
        value ^= poly << (value.bit_length() - 1 - degree)
    return value


def poly_mul(x: int, y: int, field: Field = GCM) -> int:
    """The product the polynomial way: reflect, multiply carry-less, reduce, reflect back."""
    n = field.width
    return reflect(poly_mod(clmul(reflect(x, n), reflect(y, n)), field.poly), n)


@lru_cache(maxsize=None)
def reduction_rows(field: Field, length: int) -> tuple[int, ...]:
    """The reduction of a ``length``-bit polynomial mod ``field.poly`` as a bit matrix: output bit
    m (coefficient of alpha^m) is the parity of the input bits set in row m."""
    images = [poly_mod(1 << k, field.poly) for k in range(length)]
    return tuple(sum(((images[k] >> m) & 1) << k for k in range(length))
                 for m in range(field.width))
