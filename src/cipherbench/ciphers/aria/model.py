"""Bit-exact ARIA reference model (RFC 5794; KS X 1213-1): 128-bit blocks, 128-, 192- and 256-bit
keys, 12, 14 or 16 rounds of a substitution-permutation network.

Byte order: the RFC's. Blocks, keys and constants are 16-byte strings x0 || x1 || ... || x15
read as big-endian integers (x0 most significant); the rotations of the key schedule are
rotations of those 128-bit integers.

Round functions (RFC 5794 section 2.4): FO(D, RK) = A(SL1(D ^ RK)) in odd rounds, FE(D, RK) =
A(SL2(D ^ RK)) in even ones; SL1 applies SB1, SB2, SB3, SB4 to bytes 0, 1, 2, 3 (and again to
each group of four), SL2 applies SB3, SB4, SB1, SB2. SB1 is the AES S-box, SB3 and SB4 are the
inverses of SB1 and SB2. A is the 16x16 binary matrix of section 2.4.3 on bytes, an involution.

Encryption (section 2.3): P_i = FO/FE(P_{i-1}, ek_i) for i = 1 .. n-1, then the last round
C = SL2(P_{n-1} ^ ek_n) ^ ek_{n+1}. Key schedule (section 2.2): KL || KR is the key padded with
zeros to 256 bits; W0 = KL, W1 = FO(W0, CK1) ^ KR, W2 = FE(W1, CK2) ^ W0, W3 = FO(W2, CK3) ^ W1,
with (CK1, CK2, CK3) the constants (C1, C2, C3) turned by one for each 64 bits of key beyond 128;
the round keys ek_1 .. ek_17 are W_j ^ (W_{j+1 mod 4} rotated), the rotation fixed per group of
four (``EK_ROTATIONS``). Decryption is the same process with dk_1 = ek_{n+1},
dk_i = A(ek_{n+2-i}) for 1 < i <= n, dk_{n+1} = ek_1.
"""

from __future__ import annotations

from functools import lru_cache

from ...components import aes_sbox
from ..base import checked_bytes

BLOCK_BYTES = 16
KEY_SIZES = (128, 192, 256)
ROUNDS = {128: 12, 192: 14, 256: 16}
MASK128 = (1 << 128) - 1

# RFC 5794 section 2.2: the key-schedule constants (the fractional part of 1/pi).
C1 = 0x517CC1B727220A94FE13ABE8FA9A6EE0
C2 = 0x6DB14ACC9E21C820FF28B1D5EF5DE2B0
C3 = 0xDB92371D2126E9700324977504E8C90E
# (CK1, CK2, CK3) by key size.
KEY_CONSTANTS: dict[int, tuple[int, int, int]] = {
    128: (C1, C2, C3), 192: (C2, C3, C1), 256: (C3, C1, C2),
}

# RFC 5794 section 2.4.2: SB2 (row = high nibble, column = low nibble). SB1 is the AES S-box
# (the RFC prints the same table); SB3 = SB1^-1 and SB4 = SB2^-1 (the RFC says so and prints them).
SB2: tuple[int, ...] = (
    0xe2, 0x4e, 0x54, 0xfc, 0x94, 0xc2, 0x4a, 0xcc, 0x62, 0x0d, 0x6a, 0x46, 0x3c, 0x4d, 0x8b, 0xd1,
    0x5e, 0xfa, 0x64, 0xcb, 0xb4, 0x97, 0xbe, 0x2b, 0xbc, 0x77, 0x2e, 0x03, 0xd3, 0x19, 0x59, 0xc1,
    0x1d, 0x06, 0x41, 0x6b, 0x55, 0xf0, 0x99, 0x69, 0xea, 0x9c, 0x18, 0xae, 0x63, 0xdf, 0xe7, 0xbb,
    0x00, 0x73, 0x66, 0xfb, 0x96, 0x4c, 0x85, 0xe4, 0x3a, 0x09, 0x45, 0xaa, 0x0f, 0xee, 0x10, 0xeb,
    0x2d, 0x7f, 0xf4, 0x29, 0xac, 0xcf, 0xad, 0x91, 0x8d, 0x78, 0xc8, 0x95, 0xf9, 0x2f, 0xce, 0xcd,
    0x08, 0x7a, 0x88, 0x38, 0x5c, 0x83, 0x2a, 0x28, 0x47, 0xdb, 0xb8, 0xc7, 0x93, 0xa4, 0x12, 0x53,
    0xff, 0x87, 0x0e, 0x31, 0x36, 0x21, 0x58, 0x48, 0x01, 0x8e, 0x37, 0x74, 0x32, 0xca, 0xe9, 0xb1,
    0xb7, 0xab, 0x0c, 0xd7, 0xc4, 0x56, 0x42, 0x26, 0x07, 0x98, 0x60, 0xd9, 0xb6, 0xb9, 0x11, 0x40,
    0xec, 0x20, 0x8c, 0xbd, 0xa0, 0xc9, 0x84, 0x04, 0x49, 0x23, 0xf1, 0x4f, 0x50, 0x1f, 0x13, 0xdc,
    0xd8, 0xc0, 0x9e, 0x57, 0xe3, 0xc3, 0x7b, 0x65, 0x3b, 0x02, 0x8f, 0x3e, 0xe8, 0x25, 0x92, 0xe5,
    0x15, 0xdd, 0xfd, 0x17, 0xa9, 0xbf, 0xd4, 0x9a, 0x7e, 0xc5, 0x39, 0x67, 0xfe, 0x76, 0x9d, 0x43,
    0xa7, 0xe1, 0xd0, 0xf5, 0x68, 0xf2, 0x1b, 0x34, 0x70, 0x05, 0xa3, 0x8a, 0xd5, 0x79, 0x86, 0xa8,
    0x30, 0xc6, 0x51, 0x4b, 0x1e, 0xa6, 0x27, 0xf6, 0x35, 0xd2, 0x6e, 0x24, 0x16, 0x82, 0x5f, 0xda,
    0xe6, 0x75, 0xa2, 0xef, 0x2c, 0xb2, 0x1c, 0x9f, 0x5d, 0x6f, 0x80, 0x0a, 0x72, 0x44, 0x9b, 0x6c,
    0x90, 0x0b, 0x5b, 0x33, 0x7d, 0x5a, 0x52, 0xf3, 0x61, 0xa1, 0xf7, 0xb0, 0xd6, 0x3f, 0x7c, 0x6d,
    0xed, 0x14, 0xe0, 0xa5, 0x3d, 0x22, 0xb3, 0xf8, 0x89, 0xde, 0x71, 0x1a, 0xaf, 0xba, 0xb5, 0x81,
)  # fmt: skip


def _inverse(table: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * 256
    for x, y in enumerate(table):
        inverse[y] = x
    return tuple(inverse)


SB1: tuple[int, ...] = aes_sbox.sbox_table()
SB3: tuple[int, ...] = aes_sbox.inv_sbox_table()
SB4: tuple[int, ...] = _inverse(SB2)
# The S-box of byte j (j mod 4) in SL1; SL2 is SL1 with the pairs of each group swapped.
SL1_BOXES: tuple[tuple[int, ...], ...] = (SB1, SB2, SB3, SB4)
SL2_BOXES: tuple[tuple[int, ...], ...] = (SB3, SB4, SB1, SB2)

# RFC 5794 section 2.4.3: output byte i of A is the XOR of these input bytes.
DIFFUSION: tuple[tuple[int, ...], ...] = (
    (3, 4, 6, 8, 9, 13, 14), (2, 5, 7, 8, 9, 12, 15), (1, 4, 6, 10, 11, 12, 15),
    (0, 5, 7, 10, 11, 13, 14), (0, 2, 5, 8, 11, 14, 15), (1, 3, 4, 9, 10, 14, 15),
    (0, 2, 7, 9, 10, 12, 13), (1, 3, 6, 8, 11, 12, 13), (0, 1, 4, 7, 10, 13, 15),
    (0, 1, 5, 6, 11, 12, 14), (2, 3, 5, 6, 8, 13, 15), (2, 3, 4, 7, 9, 12, 14),
    (1, 2, 6, 7, 9, 11, 12), (0, 3, 6, 7, 8, 10, 13), (0, 3, 4, 5, 9, 11, 14),
    (1, 2, 4, 5, 8, 10, 15),
)

# RFC 5794 section 2.2: ek_{4g+j+1} = W_j ^ ROT_g(W_{j+1 mod 4}); ROT_g as a right rotation by
# this many bits (>>> 19, >>> 31, <<< 61, <<< 31, <<< 19). Only ek_17 of the last group exists.
EK_ROTATIONS: tuple[int, ...] = (19, 31, 128 - 61, 128 - 31, 128 - 19)


def rotr(x: int, n: int) -> int:
    """The 128-bit value x rotated right by n bits."""
    n %= 128
    return ((x >> n) | (x << (128 - n))) & MASK128 if n else x


def to_bytes(x: int) -> bytes:
    return x.to_bytes(16, "big")


def from_bytes(data: bytes) -> int:
    return int.from_bytes(data, "big")


def substitute(x: int, odd: bool) -> int:
    """SL1 (``odd``) or SL2 on a 128-bit value."""
    boxes = SL1_BOXES if odd else SL2_BOXES
    return from_bytes(bytes(boxes[j % 4][b] for j, b in enumerate(to_bytes(x))))


def diffuse(x: int) -> int:
    """The diffusion layer A."""
    data = to_bytes(x)
    out = bytearray(16)
    for i, sources in enumerate(DIFFUSION):
        for j in sources:
            out[i] ^= data[j]
    return from_bytes(bytes(out))


def round_function(d: int, rk: int, odd: bool) -> int:
    """FO (``odd``) or FE."""
    return diffuse(substitute(d ^ rk, odd))


def _checked_key(key: bytes) -> bytes:
    return checked_bytes(key, "ARIA", "key", (16, 24, 32))


def _checked_block(block: bytes) -> bytes:
    return checked_bytes(block, "ARIA", "block", (BLOCK_BYTES,))


def key_words(key: bytes) -> tuple[int, int, int, int]:
    """W0, W1, W2, W3 of the key initialization (the three Feistel rounds over KL || KR)."""
    padded = key + bytes(32 - len(key))
    kl, kr = from_bytes(padded[:16]), from_bytes(padded[16:])
    ck1, ck2, ck3 = KEY_CONSTANTS[8 * len(key)]
    w0 = kl
    w1 = round_function(w0, ck1, True) ^ kr
    w2 = round_function(w1, ck2, False) ^ w0
    w3 = round_function(w2, ck3, True) ^ w1
    return w0, w1, w2, w3


def round_key(w: tuple[int, int, int, int], i: int) -> int:
    """ek_i (1 <= i <= 17) from W0..W3."""
    group, j = divmod(i - 1, 4)
    return w[j] ^ rotr(w[(j + 1) % 4], EK_ROTATIONS[group])


@lru_cache(maxsize=256)
def _encryption_keys(key: bytes) -> tuple[int, ...]:
    w = key_words(key)
    return tuple(round_key(w, i) for i in range(1, ROUNDS[8 * len(key)] + 2))


def expand_key(key: bytes) -> list[int]:
    """ek_1 .. ek_{n+1}."""
    return list(_encryption_keys(_checked_key(key)))


def decryption_keys(key: bytes) -> list[int]:
    """dk_1 .. dk_{n+1}: the encryption keys reversed, A applied to all but the two ends."""
    ek = expand_key(key)
    return [ek[-1]] + [diffuse(k) for k in reversed(ek[1:-1])] + [ek[0]]


def _run(keys: list[int] | tuple[int, ...], block: bytes) -> bytes:
    n = len(keys) - 1
    p = from_bytes(block)
    for i in range(1, n):
        p = round_function(p, keys[i - 1], i % 2 == 1)
    return to_bytes(substitute(p ^ keys[n - 1], False) ^ keys[n])


def encrypt_block(key: bytes, block: bytes) -> bytes:
    keys = _encryption_keys(_checked_key(key))
    return _run(keys, _checked_block(block))


def decrypt_block(key: bytes, block: bytes) -> bytes:
    keys = decryption_keys(_checked_key(key))
    return _run(keys, _checked_block(block))


class ARIA:
    name = "aria"
    block_bits = 128
    key_sizes = KEY_SIZES

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
