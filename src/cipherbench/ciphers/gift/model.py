"""GIFT-128 reference model (Banik, Pandey, Peyrin, Sasaki, Sim, Todo, "GIFT: A Small Present",
CHES 2017, section 2): 128-bit block, 128-bit key, 40 rounds. GIFT-128 is the block cipher of
GIFT-COFB.

Bit order: the specification's. The state is b127 .. b0 with block byte 0 holding b127 .. b120
(the order the paper and the designers' test vectors print), and the nibble w_i is
b_{4i+3} .. b_{4i}. The key is k7 || k6 || ... || k0, sixteen-bit words with k7 in key bytes 0-1.
This is not the bitsliced ("fixsliced") representation of the GIFT-COFB reference code, which
arranges the same bits in four 32-bit slices: its values print differently and are not typed in
here (docs/ciphers/gift.md).

Round i (1..40), typed from the paper:
- SubCells: the S-box GS on each nibble.
- PermBits: bit b_j moves to bit P(j) = 4 floor(j/16) + 32 ((3 floor((j mod 16)/4) + (j mod 4))
  mod 4) + (j mod 4).
- AddRoundKey: U = k5 || k4 and V = k1 || k0 (32 bits each) are XORed into b_{4j+2} ^= u_j and
  b_{4j+1} ^= v_j (j = 0..31); then b127 ^= 1 and the round constant c5 .. c0 into b23, b19, b15,
  b11, b7, b3.
- Key update (after the round key is taken): k7 || ... || k0 <- (k1 >>> 2) || (k0 >>> 12) ||
  k7 || ... || k2.
- Round constants: a 6-bit affine LFSR, zero at the start and updated before each round:
  (c5, .., c0) <- (c4, c3, c2, c1, c0, c5 ^ c4 ^ 1); ROUND_CONSTANTS is the paper's table of them.
"""

from __future__ import annotations

from functools import lru_cache

from ..base import checked_bytes

ROUNDS = 40
BLOCK_BYTES = 16
KEY_BYTES = 16

# GS (paper Table 1): GS[x] for x = 0 .. F.
SBOX = (0x1, 0xA, 0x4, 0xC, 0x6, 0xF, 0x3, 0x9, 0x2, 0xD, 0xB, 0x7, 0x5, 0x0, 0x8, 0xE)
INVERSE_SBOX = tuple(SBOX.index(y) for y in range(16))


def _p128(j: int) -> int:
    return 4 * (j // 16) + 32 * ((3 * ((j % 16) // 4) + (j % 4)) % 4) + (j % 4)


# PermBits of GIFT-128 (paper Table 3): bit j moves to PERMUTATION[j].
PERMUTATION = tuple(_p128(j) for j in range(128))
INVERSE_PERMUTATION = tuple(PERMUTATION.index(j) for j in range(128))

# The round constants of rounds 1..40 (paper Table 4; the LFSR above generates them).
ROUND_CONSTANTS = (
    0x01, 0x03, 0x07, 0x0F, 0x1F, 0x3E, 0x3D, 0x3B, 0x37, 0x2F,
    0x1E, 0x3C, 0x39, 0x33, 0x27, 0x0E, 0x1D, 0x3A, 0x35, 0x2B,
    0x16, 0x2C, 0x18, 0x30, 0x21, 0x02, 0x05, 0x0B, 0x17, 0x2E,
    0x1C, 0x38, 0x31, 0x23, 0x06, 0x0D, 0x1B, 0x36, 0x2D, 0x1A,
)
# Where c5 .. c0 go: b23, b19, b15, b11, b7, b3 (c_k to bit 4k + 3).
CONSTANT_BITS = tuple(4 * k + 3 for k in range(6))

MASK16 = 0xFFFF


def lfsr_step(c: int) -> int:
    """The round-constant LFSR: (c5..c0) <- (c4, c3, c2, c1, c0, c5 ^ c4 ^ 1)."""
    feedback = ((c >> 5) ^ (c >> 4) ^ 1) & 1
    return ((c << 1) & 0x3E) | feedback


def lfsr_step_back(c: int) -> int:
    """lfsr_step undone."""
    c4 = (c >> 5) & 1
    c5 = (c ^ c4 ^ 1) & 1  # c0 of the new value is c5 ^ c4 ^ 1 of the old
    return (c5 << 5) | (c >> 1)


def _rotr16(x: int, n: int) -> int:
    return ((x >> n) | (x << (16 - n))) & MASK16


def key_words(key: int) -> list[int]:
    """[k0, k1, ..., k7] of a 128-bit key register."""
    return [(key >> (16 * i)) & MASK16 for i in range(8)]


def from_words(words: list[int]) -> int:
    return sum(w << (16 * i) for i, w in enumerate(words))


def key_update(key: int) -> int:
    """k7 || ... || k0 <- (k1 >>> 2) || (k0 >>> 12) || k7 || ... || k2."""
    k = key_words(key)
    return from_words(k[2:] + [_rotr16(k[0], 12), _rotr16(k[1], 2)])


def key_update_back(key: int) -> int:
    """key_update undone."""
    k = key_words(key)
    return from_words([_rotr16(k[6], 4), _rotr16(k[7], 14)] + k[:6])


def round_key_bits(key: int) -> tuple[int, int]:
    """(U, V) = (k5 || k4, k1 || k0) of a key register."""
    return (key >> 64) & 0xFFFFFFFF, key & 0xFFFFFFFF


def round_key_mask(key: int, constant: int) -> int:
    """What AddRoundKey XORs into the state: U, V, the constant and b127."""
    u, v = round_key_bits(key)
    mask = 1 << 127
    for j in range(32):
        mask |= ((u >> j) & 1) << (4 * j + 2)
        mask |= ((v >> j) & 1) << (4 * j + 1)
    for k, bit in enumerate(CONSTANT_BITS):
        mask |= ((constant >> k) & 1) << bit
    return mask


def sub_cells(state: int, box: tuple[int, ...] = SBOX) -> int:
    out = 0
    for i in range(32):
        out |= box[(state >> (4 * i)) & 0xF] << (4 * i)
    return out


def perm_bits(state: int, table: tuple[int, ...] = PERMUTATION) -> int:
    out = 0
    for j in range(128):
        out |= ((state >> j) & 1) << table[j]
    return out


def _checked(value: object, what: str, size: int) -> bytes:
    return checked_bytes(value, "GIFT-128", what, (size,))


@lru_cache(maxsize=256)
def _masks(key: bytes) -> tuple[int, ...]:
    register = int.from_bytes(key, "big")
    masks = []
    for i in range(ROUNDS):
        masks.append(round_key_mask(register, ROUND_CONSTANTS[i]))
        register = key_update(register)
    return tuple(masks)


def round_key_masks(key: bytes) -> tuple[int, ...]:
    """The 40 values AddRoundKey XORs into the state, round 1 first."""
    return _masks(_checked(key, "key", KEY_BYTES))


def encrypt_trace(key: bytes, block: bytes) -> list[int]:
    """The state after each round's SubCells, PermBits and AddRoundKey: 3 x 40 values; the last is
    the ciphertext (the designers' test vectors print the same three per round)."""
    masks = round_key_masks(key)
    state = int.from_bytes(_checked(block, "block", BLOCK_BYTES), "big")
    states = []
    for mask in masks:
        state = sub_cells(state)
        states.append(state)
        state = perm_bits(state)
        states.append(state)
        state ^= mask
        states.append(state)
    return states


def encrypt_block(key: bytes, block: bytes) -> bytes:
    return encrypt_trace(key, block)[-1].to_bytes(BLOCK_BYTES, "big")


def decrypt_block(key: bytes, block: bytes) -> bytes:
    masks = round_key_masks(key)
    state = int.from_bytes(_checked(block, "block", BLOCK_BYTES), "big")
    for mask in reversed(masks):
        state = sub_cells(perm_bits(state ^ mask, INVERSE_PERMUTATION), INVERSE_SBOX)
    return state.to_bytes(BLOCK_BYTES, "big")


class Gift128:
    """The GIFT-128 reference as a ``CipherModel``."""

    name: str = "gift"
    block_bits: int = 128
    key_sizes: tuple[int, ...] = (128,)

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
