"""The linear layers of AES: ShiftRows (wiring) and MixColumns / InvMixColumns (XOR networks).

The state is a 128-bit value in FIPS-197 input order: byte b = r + 4c is s[r, c], byte 0 in the
most significant bits.
"""

from __future__ import annotations

from amaranth.hdl import Value

from .bytes import from_bytes, get_bytes, permute_bytes
from .gf256 import const_mul

# ShiftRows: s'[r, c] = s[r, (c + r) mod 4]; InvShiftRows: s'[r, c] = s[r, (c - r) mod 4].
SHIFT_ROWS = [r + 4 * ((c + r) % 4) for c in range(4) for r in range(4)]
INV_SHIFT_ROWS = [r + 4 * ((c - r) % 4) for c in range(4) for r in range(4)]

MIX_COLUMNS = (2, 3, 1, 1)
INV_MIX_COLUMNS = (14, 11, 13, 9)


def shift_rows(state: Value) -> Value:
    return permute_bytes(state, SHIFT_ROWS)


def inv_shift_rows(state: Value) -> Value:
    return permute_bytes(state, INV_SHIFT_ROWS)


def mix_column(column: list[Value], coefficients: tuple[int, ...]) -> list[Value]:
    """One column through a circulant MDS matrix with first row ``coefficients``."""
    out = []
    for r in range(4):
        acc: Value | None = None
        for k in range(4):
            term = const_mul(column[(r + k) % 4], coefficients[k])
            acc = term if acc is None else acc ^ term
        assert acc is not None
        out.append(acc)
    return out


def mix_columns(state: Value, coefficients: tuple[int, ...] = MIX_COLUMNS) -> Value:
    parts = get_bytes(state)
    out: list[Value] = []
    for c in range(4):
        out += mix_column(parts[4 * c:4 * c + 4], coefficients)
    return from_bytes(out)


def inv_mix_columns(state: Value) -> Value:
    return mix_columns(state, INV_MIX_COLUMNS)
