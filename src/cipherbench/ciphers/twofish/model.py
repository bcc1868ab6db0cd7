"""Bit-exact Twofish reference model (Schneier et al., AES finalist): 128/192/256-bit keys.

Byte order: the one of the Twofish paper's known-answer tests and of every library: block and key are
byte strings, read as little-endian 32-bit words (``P_i`` = bytes 4i..4i+3, least significant first).
The paper's intermediate-value file (``ecb_ival.txt``) prints those words as numbers, so its
``R[17]: 5C9F589F ...`` is the ciphertext ``9F589F5C...``.

Everything is built from the specification's primitives when the module loads: the permutations q0
and q1 from their four 4-bit tables t0..t3, the MDS matrix over GF(2^8) modulo x^8+x^6+x^5+x^3+1
(0x169) and the RS code over GF(2^8) modulo x^8+x^6+x^3+x^2+1 (0x14D). For speed, each key gets four
"key-dependent S-box" tables: the q-chain of h with the S-box key bytes, followed by its MDS column,
so that g(X) is four lookups and three XORs.
"""

from __future__ import annotations

import struct
from functools import lru_cache

from ...components.rotators import rotl, rotr
from ..base import checked_bytes

BLOCK_BYTES = 16
KEY_SIZES = (128, 192, 256)
ROUNDS = 16
_MASK = 0xFFFFFFFF
RHO = 0x01010101  # 2^24 + 2^16 + 2^8 + 1: spreads a byte over a word for the subkey inputs
MDS_POLYNOMIAL = 0x169
RS_POLYNOMIAL = 0x14D

# The 4-bit tables t0..t3 of q0 and of q1 (Twofish paper, section 4.3.5).
Q_TABLES: tuple[tuple[tuple[int, ...], ...], ...] = (
    (
        (0x8, 0x1, 0x7, 0xD, 0x6, 0xF, 0x3, 0x2, 0x0, 0xB, 0x5, 0x9, 0xE, 0xC, 0xA, 0x4),
        (0xE, 0xC, 0xB, 0x8, 0x1, 0x2, 0x3, 0x5, 0xF, 0x4, 0xA, 0x6, 0x7, 0x0, 0x9, 0xD),
        (0xB, 0xA, 0x5, 0xE, 0x6, 0xD, 0x9, 0x0, 0xC, 0x8, 0xF, 0x3, 0x2, 0x4, 0x7, 0x1),
        (0xD, 0x7, 0xF, 0x4, 0x1, 0x2, 0x6, 0xE, 0x9, 0xB, 0x3, 0x0, 0x8, 0x5, 0xC, 0xA),
    ),
    (
        (0x2, 0x8, 0xB, 0xD, 0xF, 0x7, 0x6, 0xE, 0x3, 0x1, 0x9, 0x4, 0x0, 0xA, 0xC, 0x5),
        (0x1, 0xE, 0x2, 0xB, 0x4, 0xC, 0x3, 0x7, 0x6, 0xD, 0xA, 0x5, 0xF, 0x9, 0x0, 0x8),
        (0x4, 0xC, 0x7, 0x5, 0x1, 0x6, 0x9, 0xA, 0x0, 0xE, 0xD, 0x8, 0x2, 0xB, 0x3, 0xF),
        (0xB, 0x9, 0x5, 0x1, 0xC, 0x3, 0xD, 0xE, 0x6, 0x4, 0x7, 0xF, 0x2, 0x0, 0x8, 0xA),
    ),
)

# Section 4.2: the MDS matrix (applied to the column (y0, y1, y2, y3), z0 first).
MDS: tuple[tuple[int, ...], ...] = (
    (0x01, 0xEF, 0x5B, 0x5B),
    (0x5B, 0xEF, 0xEF, 0x01),
    (0xEF, 0x5B, 0x01, 0xEF),
    (0xEF, 0x01, 0xEF, 0x5B),
)

# Section 4.3: the Reed-Solomon matrix that maps 8 key bytes to 4 S-box key bytes.
RS: tuple[tuple[int, ...], ...] = (
    (0x01, 0xA4, 0x55, 0x87, 0x5A, 0x58, 0xDB, 0x9E),
    (0xA4, 0x56, 0x82, 0xF3, 0x1E, 0xC6, 0x68, 0xE5),
    (0x02, 0xA1, 0xFC, 0xC1, 0x47, 0xAE, 0x3D, 0x19),
    (0xA4, 0x55, 0x87, 0x5A, 0x58, 0xDB, 0x9E, 0x03),
)


# --- fixed primitives --------------------------------------------------------------------------------


def gf_mul(a: int, b: int, polynomial: int) -> int:
    """Product of two bytes in GF(2^8) modulo ``polynomial`` (0x169 for MDS, 0x14D for RS)."""
    product = 0
    while b:
        if b & 1:
            product ^= a
        a <<= 1
        if a & 0x100:
            a ^= polynomial
        b >>= 1
    return product


def _ror4(x: int, n: int) -> int:
    return ((x >> n) | (x << (4 - n))) & 0xF


def q_permutation(x: int, tables: tuple[tuple[int, ...], ...]) -> int:
    """The byte permutation q of section 4.3.5 with the given t0..t3."""
    t0, t1, t2, t3 = tables
    a0, b0 = x >> 4, x & 0xF
    a1 = a0 ^ b0
    b1 = a0 ^ _ror4(b0, 1) ^ ((8 * a0) & 0xF)
    a2, b2 = t0[a1], t1[b1]
    a3 = a2 ^ b2
    b3 = a2 ^ _ror4(b2, 1) ^ ((8 * a2) & 0xF)
    a4, b4 = t2[a3], t3[b3]
    return 16 * b4 + a4


Q0: tuple[int, ...] = tuple(q_permutation(x, Q_TABLES[0]) for x in range(256))
Q1: tuple[int, ...] = tuple(q_permutation(x, Q_TABLES[1]) for x in range(256))


def _mds_column(column: int) -> tuple[int, ...]:
    """Word contributed by byte y in input position ``column``: (MDS[0][c] y, ..., MDS[3][c] y), LE."""
    return tuple(
        sum(gf_mul(MDS[row][column], y, MDS_POLYNOMIAL) << (8 * row) for row in range(4)) for y in range(256)
    )


_MDS_COLUMNS: tuple[tuple[int, ...], ...] = tuple(_mds_column(c) for c in range(4))


def mds_multiply(y: tuple[int, int, int, int]) -> int:
    """MDS times the column (y0..y3), as the little-endian word z0 + 2^8 z1 + 2^16 z2 + 2^24 z3."""
    return _MDS_COLUMNS[0][y[0]] ^ _MDS_COLUMNS[1][y[1]] ^ _MDS_COLUMNS[2][y[2]] ^ _MDS_COLUMNS[3][y[3]]


def rs_multiply(key_bytes: bytes) -> int:
    """RS times 8 key bytes: one S-box key word s0 + 2^8 s1 + 2^16 s2 + 2^24 s3."""
    word = 0
    for row in range(4):
        byte = 0
        for column in range(8):
            byte ^= gf_mul(RS[row][column], key_bytes[column], RS_POLYNOMIAL)
        word |= byte << (8 * row)
    return word


# The q permutations that byte i meets, outermost (applied last) first: the column "q0/q1 chains" of
# Figure 2. Entry [i][0] is applied just before the MDS, [i][1] after the L_0 byte is added, and so on;
# [i][3] and [i][4] only appear for 192- and 256-bit keys.
_CHAINS: tuple[tuple[tuple[int, ...], ...], ...] = (
    (Q1, Q0, Q0, Q1, Q1),
    (Q0, Q0, Q1, Q1, Q0),
    (Q1, Q1, Q0, Q0, Q0),
    (Q0, Q1, Q1, Q0, Q1),
)


def _sbox_byte(i: int, x: int, key_words: tuple[int, ...]) -> int:
    """Byte i of h before the MDS: x through the q-chain with byte i of L_{k-1}, ..., L_0 added."""
    chain = _CHAINS[i]
    k = len(key_words)
    y = x
    for stage in range(k, 0, -1):  # stage k first (innermost), stage 1 last before the final q
        y = chain[stage][y] ^ ((key_words[stage - 1] >> (8 * i)) & 0xFF)
    return chain[0][y]


def h(x: int, key_words: tuple[int, ...]) -> int:
    """The function h of section 4.3.2: word x and the list L = (L_0, ..., L_{k-1})."""
    y = tuple(_sbox_byte(i, (x >> (8 * i)) & 0xFF, key_words) for i in range(4))
    return mds_multiply((y[0], y[1], y[2], y[3]))


# --- key schedule ------------------------------------------------------------------------------------


def _checked_key(key: bytes) -> bytes:
    return checked_bytes(key, "Twofish", "key", (16, 24, 32))


def _checked_block(block: bytes) -> bytes:
    return checked_bytes(block, "Twofish", "block", (BLOCK_BYTES,))


def _key_vectors(key: bytes) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(Me, Mo, S): even and odd key words, and the S-box key words in h's order S_{k-1}, ..., S_0."""
    k = len(key) // 8
    m = struct.unpack(f"<{2 * k}I", key)
    s = tuple(rs_multiply(key[8 * i : 8 * i + 8]) for i in range(k))
    # h takes L_0 as its last key byte added: the S vector lists S_{k-1} first (section 4.3).
    return m[0::2], m[1::2], tuple(reversed(s))


def sbox_key_words(key: bytes) -> list[int]:
    """The S-box key vector S = (S_{k-1}, ..., S_0) that g uses (S_i = RS times key bytes 8i..8i+7).

    ecb_ival.txt prints S_0 first (next to the key words it comes from), i.e. this list reversed.
    """
    return list(_key_vectors(_checked_key(key))[2])


def _subkeys(me: tuple[int, ...], mo: tuple[int, ...]) -> tuple[int, ...]:
    words = []
    for i in range(20):
        a = h(2 * i * RHO, me)
        b = rotl(h((2 * i + 1) * RHO, mo), 8)
        words.append((a + b) & _MASK)
        words.append(rotl((a + 2 * b) & _MASK, 9))
    return tuple(words)


def key_dependent_sbox(i: int, s: tuple[int, ...]) -> list[int]:
    """The 8-bit S-box of byte i in g: its q-chain with byte i of each S-box key word (S vector order)."""
    chain = _CHAINS[i]
    column = list(range(256))
    for stage in range(len(s), 0, -1):  # whole-table passes: much faster than 256 separate chains
        table, key_byte = chain[stage], (s[stage - 1] >> (8 * i)) & 0xFF
        column = [table[y] ^ key_byte for y in column]
    final = chain[0]
    return [final[y] for y in column]


def _g_tables(s: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """g(X) = T0[x0] ^ T1[x1] ^ T2[x2] ^ T3[x3]: each table is one key-dependent S-box and MDS column."""
    return tuple(tuple(_MDS_COLUMNS[i][y] for y in key_dependent_sbox(i, s)) for i in range(4))


@lru_cache(maxsize=256)
def _schedule(key: bytes) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The 40 subkey words and the key-dependent g tables; cached because a key serves many blocks."""
    me, mo, s = _key_vectors(key)
    return _subkeys(me, mo), _g_tables(s)


def expand_key(key: bytes) -> list[int]:
    """K_0 .. K_39: input whitening K_0..K_3, output whitening K_4..K_7, round keys K_8..K_39."""
    return list(_schedule(_checked_key(key))[0])


def g(key: bytes, x: int) -> int:
    """The keyed function g(X) = h(X, S) of the round function."""
    tables = _schedule(_checked_key(key))[1]
    return tables[0][x & 0xFF] ^ tables[1][(x >> 8) & 0xFF] ^ tables[2][(x >> 16) & 0xFF] ^ tables[3][x >> 24]


# --- the rounds --------------------------------------------------------------------------------------

_Words = tuple[int, int, int, int]


def _encrypt_words(key: bytes, block: bytes, trace: list[bytes] | None) -> bytes:
    k, (t0, t1, t2, t3) = _schedule(key)
    p0, p1, p2, p3 = struct.unpack("<4I", block)
    r0, r1, r2, r3 = p0 ^ k[0], p1 ^ k[1], p2 ^ k[2], p3 ^ k[3]
    if trace is not None:
        trace.append(struct.pack("<4I", r0, r1, r2, r3))
    for r in range(ROUNDS):
        y = rotl(r1, 8)  # g(ROL(R1, 8)) as four lookups on the rotated word's bytes
        a = t0[r0 & 0xFF] ^ t1[(r0 >> 8) & 0xFF] ^ t2[(r0 >> 16) & 0xFF] ^ t3[r0 >> 24]
        b = t0[y & 0xFF] ^ t1[(y >> 8) & 0xFF] ^ t2[(y >> 16) & 0xFF] ^ t3[y >> 24]
        f0 = (a + b + k[2 * r + 8]) & _MASK
        f1 = (a + 2 * b + k[2 * r + 9]) & _MASK
        r2 = rotr(r2 ^ f0, 1)
        r3 = rotl(r3, 1) ^ f1
        # The halves swap after every round but the last; keeping them in place and swapping the roles
        # instead mirrors the reference code, whose per-round values ecb_ival.txt prints.
        r0, r1, r2, r3 = r2, r3, r0, r1
        if trace is not None:
            trace.append(_unswapped(r, (r0, r1, r2, r3)))
    c = (r2 ^ k[4], r3 ^ k[5], r0 ^ k[6], r1 ^ k[7])
    out = struct.pack("<4I", *c)
    if trace is not None:
        trace.append(out)
    return out


def _unswapped(r: int, words: _Words) -> bytes:
    """The state after round r as the reference prints it: the halves swapped back after odd counts."""
    w0, w1, w2, w3 = words
    if r % 2 == 0:  # an odd number (r + 1) of swaps so far
        w0, w1, w2, w3 = w2, w3, w0, w1
    return struct.pack("<4I", w0, w1, w2, w3)


def _decrypt_words(key: bytes, block: bytes, trace: list[bytes] | None) -> bytes:
    k, (t0, t1, t2, t3) = _schedule(key)
    c0, c1, c2, c3 = struct.unpack("<4I", block)
    # Undo the output whitening and the final undone swap: (r0, r1, r2, r3) is the state after round 16.
    r2, r3, r0, r1 = c0 ^ k[4], c1 ^ k[5], c2 ^ k[6], c3 ^ k[7]
    if trace is not None:
        trace.append(_unswapped(ROUNDS - 1, (r0, r1, r2, r3)))
    for r in range(ROUNDS - 1, -1, -1):
        # Before round r the state was (r2, r3, r0', r1') with r0' and r1' now in r0 and r1.
        r0, r1, r2, r3 = r2, r3, r0, r1
        y = rotl(r1, 8)
        a = t0[r0 & 0xFF] ^ t1[(r0 >> 8) & 0xFF] ^ t2[(r0 >> 16) & 0xFF] ^ t3[r0 >> 24]
        b = t0[y & 0xFF] ^ t1[(y >> 8) & 0xFF] ^ t2[(y >> 16) & 0xFF] ^ t3[y >> 24]
        f0 = (a + b + k[2 * r + 8]) & _MASK
        f1 = (a + 2 * b + k[2 * r + 9]) & _MASK
        r2 = rotl(r2, 1) ^ f0
        r3 = rotr(r3 ^ f1, 1)
        if trace is not None:
            trace.append(_unswapped(r - 1, (r0, r1, r2, r3)) if r else struct.pack("<4I", r0, r1, r2, r3))
    out = struct.pack("<4I", r0 ^ k[0], r1 ^ k[1], r2 ^ k[2], r3 ^ k[3])
    if trace is not None:
        trace.append(out)
    return out


def encrypt_block(key: bytes, block: bytes) -> bytes:
    return _encrypt_words(_checked_key(key), _checked_block(block), None)


def decrypt_block(key: bytes, block: bytes) -> bytes:
    return _decrypt_words(_checked_key(key), _checked_block(block), None)


def encrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """18 states (LE words as bytes): after input whitening, after rounds 1..16, then the ciphertext.

    These are ecb_ival.txt's ``R[0]`` .. ``R[17]``: the reference keeps the halves in place on even
    rounds, so after round r the state is printed without the swap when r is odd.
    """
    states: list[bytes] = []
    _encrypt_words(_checked_key(key), _checked_block(block), states)
    return states


def decrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """18 states of decryption: R[16], R[15], ..., R[0] of the encryption, then the plaintext."""
    states: list[bytes] = []
    _decrypt_words(_checked_key(key), _checked_block(block), states)
    return states


class Twofish:
    """The Twofish reference as a ``CipherModel``."""

    name: str = "twofish"
    block_bits: int = 128
    key_sizes: tuple[int, ...] = KEY_SIZES

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
