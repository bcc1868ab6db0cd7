"""ARIA's diffusion layer A and CLEFIA's diffusion matrices M0 and M1: byte-matrix layers built
on mds.GfMatrixMul (``tree`` or ``shared`` XOR structure).

- ARIA A (RFC 5794, section 2.4.3): a 16 x 16 binary matrix on the 16 bytes of the state (byte 0
  most significant, x0 .. x15 as the RFC), y = A x, each output byte the XOR of seven input
  bytes. A is an involution (A A = I). Typed below row by row as the RFC prints the matrix.
- CLEFIA M0 and M1 (RFC 6114, section 3.2.2 (F-functions) and 3.2.4): 4 x 4 Hadamard-type
  matrices over GF(2^8) with the primitive polynomial z^8 + z^4 + z^3 + z^2 + 1 (0x11D), on a
  32-bit word whose byte 0 (T0, y0) is the most significant. Both are involutions too.

These components stand alone: the ARIA and CLEFIA cores build their own layers; the proofs check
each structure against the definition (bytes XORed, products by xtime double-and-add), and the
tests check them against the ciphers' reference models.
"""

from __future__ import annotations

from collections.abc import Sequence

from .mds import GfMatrixMul, pack, unpack

# RFC 5794, section 2.4.3, the matrix of A: row i lists which input bytes x0 .. x15 make y_i.
_ARIA_A_ROWS = (
    "0001101011000110",
    "0010010111001001",
    "0100101000111001",
    "1000010100110110",
    "1010010010010011",
    "0101100001100011",
    "1010000101101100",
    "0101001010011100",
    "1100100100100101",
    "1100011000011010",
    "0011011010000101",
    "0011100101001010",
    "0110001101011000",
    "1001001110100100",
    "1001110001010010",
    "0110110010100001",
)
ARIA_A: tuple[tuple[int, ...], ...] = tuple(tuple(int(c) for c in row) for row in _ARIA_A_ROWS)
# Any field: the entries are 0 and 1, so the polynomial never enters.
ARIA_POLY = 0x11B

CLEFIA_POLY = 0x11D
CLEFIA_M0: tuple[tuple[int, ...], ...] = (
    (0x01, 0x02, 0x04, 0x06),
    (0x02, 0x01, 0x06, 0x04),
    (0x04, 0x06, 0x01, 0x02),
    (0x06, 0x04, 0x02, 0x01),
)
CLEFIA_M1: tuple[tuple[int, ...], ...] = (
    (0x01, 0x08, 0x02, 0x0A),
    (0x08, 0x01, 0x0A, 0x02),
    (0x02, 0x0A, 0x01, 0x08),
    (0x0A, 0x02, 0x08, 0x01),
)
CLEFIA_MATRICES = {"m0": CLEFIA_M0, "m1": CLEFIA_M1}


def aria_a(x: int) -> int:
    """Python reference of A on a 128-bit state (byte 0 most significant)."""
    data = unpack(x, 16, "big")
    out = [0] * 16
    for i, row in enumerate(ARIA_A):
        for j, bit in enumerate(row):
            if bit:
                out[i] ^= data[j]
    return pack(out, "big")


def aria_diffusion(structure: str = "tree") -> GfMatrixMul:
    """ARIA's A on the 128-bit state. Ports ``i``, ``o`` (128)."""
    return GfMatrixMul(ARIA_A, ARIA_POLY, "big", structure)


def clefia_matrix(which: str = "m0", structure: str = "tree") -> GfMatrixMul:
    """CLEFIA's M0 or M1 on a 32-bit word (y0 most significant). Ports ``i``, ``o`` (32)."""
    try:
        matrix = CLEFIA_MATRICES[which]
    except KeyError:
        raise ValueError(f"unknown CLEFIA matrix {which!r}; valid: "
                         f"{', '.join(CLEFIA_MATRICES)}") from None
    return GfMatrixMul(matrix, CLEFIA_POLY, "big", structure)


def clefia_m(which: str, x: int) -> int:
    """Python reference of M0 or M1 on a 32-bit word."""
    from .mds import gf_matrix_mul

    return pack(gf_matrix_mul(CLEFIA_MATRICES[which], unpack(x, 4, "big"), CLEFIA_POLY), "big")


def matrix_square_is_identity(matrix: Sequence[Sequence[int]], poly: int) -> bool:
    """Whether matrix x matrix = I over GF(2^8) mod poly (an involution)."""
    from .gf256 import gf_mul

    n = len(matrix)
    for r in range(n):
        for c in range(n):
            acc = 0
            for k in range(n):
                acc ^= gf_mul(matrix[r][k], matrix[k][c], poly)
            if acc != (1 if r == c else 0):
                return False
    return True
