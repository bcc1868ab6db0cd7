"""Bit-exact HIGHT reference model (ISO/IEC 18033-3:2010; Hong et al., "HIGHT: A New Block
Cipher Suitable for Low-Resource Device", CHES 2006; KISA's specification): 64-bit blocks,
128-bit keys, 32 rounds of an 8-branch generalized Feistel network on bytes (add-rotate-XOR).

Byte order: byte i of the block is P_i, byte i of the key MK_i, byte i of the ciphertext C_i: the
order of KISA's reference code (arrays P[0..7], MK[0..15]) and of Crypto++'s HIGHT. The
specification prints its test vectors the other way round, most significant byte first (MK_15 ..
MK_0, P_7 .. P_0, C_7 .. C_0); vectors.py types them as printed and reverses them.

Whitening: WK_i = MK_{i+12} (i = 0..3), MK_{i-4} (i = 4..7). Subkeys SK_{16i+j} = MK_{(j-i) mod 8}
+ delta_{16i+j} and SK_{16i+j+8} = MK_{((j-i) mod 8) + 8} + delta_{16i+j+8} (i, j = 0..7), the
constants delta from the 7-bit LFSR s_{i+7} = s_{i+3} ^ s_i started at delta_0 = 0x5A.
F0(x) = x<<<1 ^ x<<<2 ^ x<<<7, F1(x) = x<<<3 ^ x<<<4 ^ x<<<6.
"""

from __future__ import annotations

from functools import lru_cache

from ..base import checked_bytes

BLOCK_BYTES = 8
KEY_BYTES = 16
KEY_SIZES = (128,)
ROUNDS = 32


def _deltas() -> tuple[int, ...]:
    """delta_0..delta_127: the LFSR of the specification (x^7 + x^3 + 1), state s_{i+6}..s_i."""
    state = 0x5A
    out = []
    for _ in range(128):
        out.append(state)
        # s_{i+7} = s_{i+3} ^ s_i: the new bit enters at the top, the oldest (bit 0) leaves.
        new = ((state >> 3) ^ state) & 1
        state = (state >> 1) | (new << 6)
    return tuple(out)


DELTA: tuple[int, ...] = _deltas()


def rol8(x: int, n: int) -> int:
    return ((x << n) | (x >> (8 - n))) & 0xFF


def f0(x: int) -> int:
    return rol8(x, 1) ^ rol8(x, 2) ^ rol8(x, 7)


def f1(x: int) -> int:
    return rol8(x, 3) ^ rol8(x, 4) ^ rol8(x, 6)


def whitening_keys(mk: bytes) -> tuple[int, ...]:
    return tuple(mk[i + 12] for i in range(4)) + tuple(mk[i - 4] for i in range(4, 8))


def subkeys(mk: bytes) -> tuple[int, ...]:
    sk = [0] * 128
    for i in range(8):
        for j in range(8):
            sk[16 * i + j] = (mk[(j - i) % 8] + DELTA[16 * i + j]) & 0xFF
            sk[16 * i + j + 8] = (mk[(j - i) % 8 + 8] + DELTA[16 * i + j + 8]) & 0xFF
    return tuple(sk)


@lru_cache(maxsize=256)
def _schedule(key: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return whitening_keys(key), subkeys(key)


def _checked(value: bytes, what: str, size: int) -> bytes:
    return checked_bytes(value, "HIGHT", what, (size,))


def encrypt_round(x: list[int], sk: tuple[int, int, int, int], last: bool) -> list[int]:
    """Round i with (SK_{4i}, SK_{4i+1}, SK_{4i+2}, SK_{4i+3}); ``last``: round 31, no rotation."""
    n1 = (x[1] + (f1(x[0]) ^ sk[0])) & 0xFF
    n3 = x[3] ^ ((f0(x[2]) + sk[1]) & 0xFF)
    n5 = (x[5] + (f1(x[4]) ^ sk[2])) & 0xFF
    n7 = x[7] ^ ((f0(x[6]) + sk[3]) & 0xFF)
    if last:
        return [x[0], n1, x[2], n3, x[4], n5, x[6], n7]
    return [n7, x[0], n1, x[2], n3, x[4], n5, x[6]]


def decrypt_round(y: list[int], sk: tuple[int, int, int, int], last: bool) -> list[int]:
    """The inverse of ``encrypt_round``."""
    if last:
        x0, n1, x2, n3, x4, n5, x6, n7 = y
    else:
        n7, x0, n1, x2, n3, x4, n5, x6 = y
    return [x0, (n1 - (f1(x0) ^ sk[0])) & 0xFF, x2, n3 ^ ((f0(x2) + sk[1]) & 0xFF),
            x4, (n5 - (f1(x4) ^ sk[2])) & 0xFF, x6, n7 ^ ((f0(x6) + sk[3]) & 0xFF)]


def initial(p: list[int], wk: tuple[int, ...]) -> list[int]:
    return [(p[0] + wk[0]) & 0xFF, p[1], p[2] ^ wk[1], p[3], (p[4] + wk[2]) & 0xFF, p[5],
            p[6] ^ wk[3], p[7]]


def final(x: list[int], wk: tuple[int, ...]) -> list[int]:
    return [(x[0] + wk[4]) & 0xFF, x[1], x[2] ^ wk[5], x[3], (x[4] + wk[6]) & 0xFF, x[5],
            x[6] ^ wk[7], x[7]]


def encrypt_block(key: bytes, block: bytes) -> bytes:
    wk, sk = _schedule(_checked(key, "key", KEY_BYTES))
    x = initial(list(_checked(block, "block", BLOCK_BYTES)), wk)
    for i in range(ROUNDS):
        x = encrypt_round(x, sk[4 * i:4 * i + 4], i == ROUNDS - 1)
    return bytes(final(x, wk))


def decrypt_block(key: bytes, block: bytes) -> bytes:
    wk, sk = _schedule(_checked(key, "key", KEY_BYTES))
    c = list(_checked(block, "block", BLOCK_BYTES))
    x = [(c[0] - wk[4]) & 0xFF, c[1], c[2] ^ wk[5], c[3], (c[4] - wk[6]) & 0xFF, c[5],
         c[6] ^ wk[7], c[7]]
    for i in reversed(range(ROUNDS)):
        x = decrypt_round(x, sk[4 * i:4 * i + 4], i == ROUNDS - 1)
    return bytes([(x[0] - wk[0]) & 0xFF, x[1], x[2] ^ wk[1], x[3], (x[4] - wk[2]) & 0xFF, x[5],
                  x[6] ^ wk[3], x[7]])


class HIGHT:
    name = "hight"
    block_bits = 64
    key_sizes = KEY_SIZES

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
