"""Linear maps made of a word XORed with rotations of itself: SM4's L and L'.

SM4 (GB/T 32907-2016, section 6.2 and 7.3): for a 32-bit word B,

- L(B)  = B ^ (B <<< 2) ^ (B <<< 10) ^ (B <<< 18) ^ (B <<< 24)   (the round function's T),
- L'(B) = B ^ (B <<< 13) ^ (B <<< 23)                             (the key schedule's T').

Structures (``structure``):

- ``rotations``: the definition, the word and its rotations (wiring) into one XOR per bit;
- ``tree``: the same map as a 32 x 32 bit matrix, one XOR tree per output bit (gf256.linear_map);
  the same gates, written bit by bit, so synthesis starts from a different netlist;
- ``shared``: Paar's greedy factoring of common XOR pairs across the output bits (the planner of
  aes_sbox_composite, as mds.py's ``shared``): L has pairs of bits used by several outputs, so
  the XOR count can fall below 4 per bit.

``rotations`` is the reference the other two are proven equal to (cipherbench prove).
"""

from __future__ import annotations

from collections.abc import Sequence

from amaranth.hdl import Elaboratable, Module, Signal, Value

from .gf256 import linear_map

ROTXOR_STRUCTURES = ("rotations", "tree", "shared")

# Rotation amounts to the left; the word itself (amount 0) is always included.
SM4_L = (2, 10, 18, 24)
SM4_L_PRIME = (13, 23)
SM4_TRANSFORMS: dict[str, tuple[int, ...]] = {"l": SM4_L, "l-prime": SM4_L_PRIME}
_SHARED_TRIES = 8


def rotl(x: int, n: int, width: int = 32) -> int:
    n %= width
    mask = (1 << width) - 1
    return ((x << n) | (x >> (width - n))) & mask if n else x & mask


def rot_xor(x: int, rotations: Sequence[int], width: int = 32) -> int:
    """Python reference: x ^ (x <<< r) for every r in ``rotations``."""
    out = x
    for r in rotations:
        out ^= rotl(x, r, width)
    return out


def rot_xor_rows(rotations: Sequence[int], width: int = 32) -> list[int]:
    """The GF(2) rows (LSB first) of the map: output bit k = input bits k, k - r (mod width)."""
    rows = []
    for k in range(width):
        row = 1 << k
        for r in rotations:
            row ^= 1 << ((k - r) % width)
        rows.append(row)
    return rows


class RotXor(Elaboratable):
    """o = i ^ (i <<< r1) ^ (i <<< r2) ^ ... Ports: ``i``, ``o`` (``width``)."""

    def __init__(self, rotations: Sequence[int], width: int = 32,
                 structure: str = "rotations") -> None:
        if structure not in ROTXOR_STRUCTURES:
            raise ValueError(f"unknown structure {structure!r}; valid: "
                             f"{', '.join(ROTXOR_STRUCTURES)}")
        self.rotations, self.width, self.structure = tuple(rotations), width, structure
        self.i = Signal(width)
        self.o = Signal(width)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.o.eq(rot_xor_logic(m, self.i, self.rotations, self.structure))
        return m


def rot_xor_logic(m: Module, x: Value, rotations: Sequence[int], structure: str = "rotations",
                  prefix: str = "rx") -> Value:
    """The map on ``x`` built in ``m``."""
    if structure == "rotations":
        out = x
        for r in rotations:
            out = out ^ x.rotate_left(r)
        return out
    rows = rot_xor_rows(rotations, len(x))
    if structure == "tree":
        return linear_map(x, rows)
    from .mds import shared_xor

    return shared_xor(m, x, rows, prefix, _SHARED_TRIES)


def sm4_linear(transform: str = "l", structure: str = "rotations") -> RotXor:
    """SM4's L (``l``) or L' (``l-prime``) on a 32-bit word."""
    try:
        rotations = SM4_TRANSFORMS[transform]
    except KeyError:
        raise ValueError(f"unknown SM4 transform {transform!r}; valid: "
                         f"{', '.join(SM4_TRANSFORMS)}") from None
    return RotXor(rotations, 32, structure)
