"""SM4's S-box through the masked tower-field inverter (components/masked/tower.py).

SM4's S-box is affine-inverse-affine over its own field (Liu, Ji, Hu et al.'s analysis of the
SMS4 S-box): S(x) = A (A x + C)^-1 + C in GF(2)[x]/(x^8 + x^7 + x^6 + x^5 + x^4 + x^2 + 1),
A the circulant matrix whose output bit i is the parity of x AND (0xA7 rotated left by i), and
C = 0xD3. :func:`algebraic_sbox` computes that and the tests compare it with the model's table
(GB/T 32907, typed separately) for all 256 inputs.

All fields of 256 elements are isomorphic, so the same tower-field inverter serves: the search of
components/aes_sbox_composite.py (every normal-basis tower with trace-1 constants, under each of
its 8 isomorphisms, now into SM4's field) gives for each candidate the input matrix X A (with
the constant X C on share 0) and the output matrix A M, and the candidate with the fewest XORs in
them and in nu x^2 is chosen (:data:`BASIS`); the choice is checked against the table at import.
The masked S-box then has the AES one's structure, latency and randomness: 7 clocks, 18 fresh
bits per evaluation at first order.
"""

from __future__ import annotations

from functools import lru_cache

from ...components.aes_sbox_composite import (TowerBasis, apply_rows, candidate_bases, gf256_inv,
                                              is_isomorphism, matrix_of, xor_cost)
from ...components.gf256 import gf_inverse_table
from ...components.masked.tower import MaskedTowerSbox
from .model import SBOX

FIELD_POLY = 0x1F5   # x^8 + x^7 + x^6 + x^5 + x^4 + x^2 + 1
AFFINE_ROW = 0xA7    # row 0 of the circulant A (row i: rotated left by i)
AFFINE_CONST = 0xD3


def _rotl8(x: int, n: int) -> int:
    return ((x << n) | (x >> (8 - n))) & 0xFF if n else x


AFFINE_ROWS = tuple(_rotl8(AFFINE_ROW, i) for i in range(8))


def affine(x: int) -> int:
    """A x + C, the affine map applied before and after the inversion."""
    return apply_rows(x, AFFINE_ROWS) ^ AFFINE_CONST


def algebraic_sbox(x: int) -> int:
    """S(x) = A (A x + C)^-1 + C in SM4's field (0 inverts to 0)."""
    return affine(gf_inverse_table(FIELD_POLY)[affine(x)])


def in_rows(basis: TowerBasis) -> list[int]:
    """X A: the input byte's linear part into the tower (rows over the byte)."""
    return matrix_of(lambda x: apply_rows(apply_rows(x, AFFINE_ROWS), basis.to_tower))


def in_const(basis: TowerBasis) -> int:
    return apply_rows(AFFINE_CONST, basis.to_tower)


def out_rows(basis: TowerBasis) -> list[int]:
    """A M: out of the tower and through A's linear part (rows over the tower bits)."""
    return matrix_of(lambda t: apply_rows(apply_rows(t, basis.to_aes), AFFINE_ROWS))


def cost(basis: TowerBasis) -> int:
    """XORs of the choice-dependent linear parts, as aes_sbox_composite scores AES's."""
    return (xor_cost(in_rows(basis)) + xor_cost(out_rows(basis))
            + xor_cost(basis.sq_scale_rows(), 4))


def tower_sbox(x: int, basis: TowerBasis) -> int:
    """The S-box computed the way the hardware does: matrices around the tower inversion."""
    t = apply_rows(x, in_rows(basis)) ^ in_const(basis)
    return apply_rows(gf256_inv(t, basis.n, basis.nu), out_rows(basis)) ^ AFFINE_CONST


@lru_cache(maxsize=None)
def choose_basis() -> TowerBasis:
    best = min(candidate_bases(FIELD_POLY),
               key=lambda b: (cost(b), b.n, b.nu, b.w, b.z, b.y))
    assert is_isomorphism(best), "basis search produced a non-homomorphic map"
    assert all(tower_sbox(x, best) == SBOX[x] for x in range(256)), \
        "the tower-field SM4 S-box disagrees with the table"
    return best


class MaskedSm4Sbox(MaskedTowerSbox):
    """SM4's S-box masked with ``shares`` = d + 1 shares: the masked AES S-box's inverter
    between SM4's matrices. Ports ``i``, ``r``, ``o``, latency 7, 18 d (d + 1) / 2 fresh bits
    per evaluation, variants as :class:`~cipherbench.components.masked.tower.MaskedTowerSbox`."""

    def __init__(self, shares: int = 2, *, register: bool = True, randomness: str = "fresh",
                 transparent: bool = False) -> None:
        basis = choose_basis()
        super().__init__(in_rows(basis), in_const(basis), out_rows(basis), AFFINE_CONST,
                         basis.n, basis.nu, shares, register=register, randomness=randomness,
                         transparent=transparent)
