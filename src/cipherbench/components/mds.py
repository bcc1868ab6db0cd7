"""Multiplication of a byte vector by a constant matrix over GF(2^8): MDS layers.

Multiplying by a constant is linear over GF(2), so the whole matrix-vector product is one
(8 rows) x (8 cols) bit matrix: every output bit is the XOR of a fixed set of input bits. It is
built in one of two structures:
- ``tree``: one XOR tree per output bit (as gf256.linear_map); Yosys/ABC share what they find;
- ``shared``: common pairs factored out first across all output bits (Paar's greedy, the
  planner of aes_sbox_composite), which ABC does not find on its own across 32 outputs.

Instances:
- AES MixColumns / InvMixColumns (FIPS-197 section 5.1.3/5.3.3): circulant (02 03 01 01) /
  (0e 0b 0d 09) over x^8 + x^4 + x^3 + x + 1 (0x11B). ``AesMixColumns`` applies it to the four
  columns of a 128-bit state in the FIPS-197 byte order of components/bytes.py (byte 0 most
  significant).
- Twofish MDS (Twofish paper, section 4.2): the matrix below over
  v(x) = x^8 + x^6 + x^5 + x^3 + 1 (0x169). Twofish numbers bytes little-endian: y0 is the
  least significant byte of the input word and z = z0 + 2^8 z1 + 2^16 z2 + 2^24 z3, so the
  Twofish instance uses byte_order="little".
"""

from __future__ import annotations

from collections.abc import Sequence

from amaranth.hdl import Cat, Const, Elaboratable, Module, Signal, Value

from .gf256 import AES_POLY, const_mul_matrix, gf_mul, linear_map

BYTE_ORDERS = ("big", "little")
STRUCTURES = ("tree", "shared")

AES_MDS = ((2, 3, 1, 1), (1, 2, 3, 1), (1, 1, 2, 3), (3, 1, 1, 2))
AES_INV_MDS = ((14, 11, 13, 9), (9, 14, 11, 13), (13, 9, 14, 11), (11, 13, 9, 14))
TWOFISH_POLY = 0x169
TWOFISH_MDS = (
    (0x01, 0xEF, 0x5B, 0x5B),
    (0x5B, 0xEF, 0xEF, 0x01),
    (0xEF, 0x5B, 0x01, 0xEF),
    (0xEF, 0x01, 0xEF, 0x5B),
)
# Paar restarts for the shared structure: the 32x32 matrices are larger than the S-box's 8x8
# ones, and a few restarts already find nearly all the sharing.
_SHARED_TRIES = 8

Matrix = Sequence[Sequence[int]]


def gf_matrix_mul(matrix: Matrix, vector: Sequence[int], poly: int = AES_POLY) -> list[int]:
    """Python reference: matrix x vector over GF(2^8) mod poly (byte lists, element 0 first)."""
    out = []
    for row in matrix:
        acc = 0
        for coefficient, byte in zip(row, vector, strict=True):
            acc ^= gf_mul(coefficient, byte, poly)
        out.append(acc)
    return out


def _byte_lsb(index: int, count: int, byte_order: str) -> int:
    """LSB position of vector element ``index`` in the packed word."""
    return 8 * (count - 1 - index) if byte_order == "big" else 8 * index


def pack(vector: Sequence[int], byte_order: str) -> int:
    return sum(b << _byte_lsb(k, len(vector), byte_order) for k, b in enumerate(vector))


def unpack(word: int, count: int, byte_order: str) -> list[int]:
    return [(word >> _byte_lsb(k, count, byte_order)) & 0xFF for k in range(count)]


def bit_rows(matrix: Matrix, poly: int, byte_order: str) -> list[int]:
    """The GF(2) rows (over the packed input word, LSB first) of the packed output bits."""
    n_out, n_in = len(matrix), len(matrix[0])
    rows = [0] * (8 * n_out)
    for r, row in enumerate(matrix):
        out_lsb = _byte_lsb(r, n_out, byte_order)
        for k, coefficient in enumerate(row):
            in_lsb = _byte_lsb(k, n_in, byte_order)
            for bit, mask in enumerate(const_mul_matrix(coefficient, poly)):
                rows[out_lsb + bit] ^= mask << in_lsb
    return rows


def _shared_xor(m: Module, value: Value, rows: Sequence[int], prefix: str) -> Value:
    return shared_xor(m, value, rows, prefix)


def shared_xor(m: Module, value: Value, rows: Sequence[int], prefix: str,
               tries: int = _SHARED_TRIES) -> Value:
    """The GF(2) map ``rows`` (output bit i = parity(value & rows[i])) on ``value`` with common
    XOR pairs factored out first (Paar's greedy, ``tries`` restarts)."""
    # Imported here: the composite S-box searches its tower basis at import time.
    from .aes_sbox_composite import plan_xor_network

    plan = plan_xor_network(tuple(rows), len(value), tries)
    signals: list[Value] = [value[j] for j in range(len(value))]
    for k, (a, b) in enumerate(plan.gates):
        wire = Signal(name=f"{prefix}_x{k}")
        m.d.comb += wire.eq(signals[a] ^ signals[b])
        signals.append(wire)
    return Cat(*[Const(0, 1) if out is None else signals[out] for out in plan.outputs])


def matrix_mul(m: Module, value: Value, matrix: Matrix, poly: int = AES_POLY,
               byte_order: str = "big", structure: str = "tree", prefix: str = "mds") -> Value:
    """The hardware of gf_matrix_mul on a packed byte vector."""
    if byte_order not in BYTE_ORDERS:
        raise ValueError(f"unknown byte order {byte_order!r}; valid: {', '.join(BYTE_ORDERS)}")
    if structure not in STRUCTURES:
        raise ValueError(f"unknown XOR structure {structure!r}; valid: {', '.join(STRUCTURES)}")
    rows = bit_rows(matrix, poly, byte_order)
    if structure == "tree":
        return linear_map(value, rows)
    return _shared_xor(m, value, rows, prefix)


class GfMatrixMul(Elaboratable):
    """o = matrix x i over GF(2^8) mod ``poly``.

    Ports: ``i`` (8 x columns), ``o`` (8 x rows). ``byte_order``: "big" puts vector element 0
    in the most significant byte (FIPS-197), "little" in the least (Twofish). ``structure``:
    "tree" or "shared" (see the module docstring).
    """

    def __init__(self, matrix: Matrix, poly: int = AES_POLY, byte_order: str = "big",
                 structure: str = "tree") -> None:
        if not matrix or any(len(row) != len(matrix[0]) for row in matrix):
            raise ValueError("the matrix must be a non-empty list of equal-length rows")
        self.matrix = tuple(tuple(row) for row in matrix)
        self.poly, self.byte_order, self.structure = poly, byte_order, structure
        self.i = Signal(8 * len(matrix[0]))
        self.o = Signal(8 * len(matrix))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.o.eq(matrix_mul(m, self.i, self.matrix, self.poly, self.byte_order,
                                         self.structure))
        return m


def twofish_mds(structure: str = "tree") -> GfMatrixMul:
    """Twofish's MDS on a 32-bit word (y0 = least significant byte)."""
    return GfMatrixMul(TWOFISH_MDS, TWOFISH_POLY, "little", structure)


def aes_mix_column(inverse: bool = False, structure: str = "tree") -> GfMatrixMul:
    """One AES column (32 bits, row 0 most significant)."""
    return GfMatrixMul(AES_INV_MDS if inverse else AES_MDS, AES_POLY, "big", structure)


class AesMixColumns(Elaboratable):
    """AES MixColumns (or InvMixColumns) on a 128-bit state: four column instances.

    Ports: ``i``, ``o`` (128; byte b = r + 4c is s[r, c], byte 0 most significant, as FIPS-197's
    input order and components/bytes.py).
    """

    def __init__(self, inverse: bool = False, structure: str = "tree") -> None:
        self.inverse, self.structure = inverse, structure
        self.i = Signal(128)
        self.o = Signal(128)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        for c in range(4):
            column = aes_mix_column(self.inverse, self.structure)
            m.submodules[f"col{c}"] = column
            lsb = 32 * (3 - c)  # column 0 holds bytes 0..3, the most significant
            m.d.comb += [column.i.eq(self.i[lsb:lsb + 32]), self.o[lsb:lsb + 32].eq(column.o)]
        return m
