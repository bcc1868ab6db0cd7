"""The AES S-box's affine map and its inverse (FIPS-197 section 5.1.1), as integers and as the
rows of their bit matrices: shared by every AES S-box implementation (aes_sbox.py,
aes_sbox_composite.py, the masked tower S-box)."""

from __future__ import annotations

# The AES affine map: b_i ^ b_{i+4} ^ b_{i+5} ^ b_{i+6} ^ b_{i+7} ^ c_i, c = 0x63 (FIPS-197 eq. 5.1).
AFFINE_CONST = 0x63
AFFINE_ROWS = [sum(1 << ((i + k) % 8) for k in (0, 4, 5, 6, 7)) for i in range(8)]
# Its inverse: b_i = b'_{i+2} ^ b'_{i+5} ^ b'_{i+7} ^ d_i, d = 0x05.
INV_AFFINE_CONST = 0x05
INV_AFFINE_ROWS = [sum(1 << ((i + k) % 8) for k in (2, 5, 7)) for i in range(8)]


def _apply_rows(x: int, rows: list[int]) -> int:
    return sum((bin(x & row).count("1") & 1) << i for i, row in enumerate(rows))


def affine(x: int) -> int:
    return _apply_rows(x, AFFINE_ROWS) ^ AFFINE_CONST


def inv_affine(x: int) -> int:
    return _apply_rows(x, INV_AFFINE_ROWS) ^ INV_AFFINE_CONST
