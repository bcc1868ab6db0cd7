"""Bit-exact LEA reference model (ISO/IEC 29192-2:2019; Hong et al., "LEA: A 128-Bit Block Cipher
for Fast Encryption on Common Processors", WISA 2013 / the KISA specification): 128-bit blocks,
128-, 192- and 256-bit keys, 24, 28 or 32 rounds of add-rotate-XOR on 32-bit words.

Byte order: the specification's. The block is four 32-bit words X[0..3], X[i] the little-endian
reading of bytes 4i..4i+3; the key K[0..Nk-1] likewise. Its test vectors are written as byte
strings in that order.

Round i (encryption), with round key RK_i = (RK_i[0], ..., RK_i[5]):

    X[0] <- ROL9((X[0] ^ RK[0]) + (X[1] ^ RK[1]))
    X[1] <- ROR5((X[1] ^ RK[2]) + (X[2] ^ RK[3]))
    X[2] <- ROR3((X[2] ^ RK[4]) + (X[3] ^ RK[5]))
    X[3] <- X[0] (the old one)

Key schedule: a register of Nk words T updated each round by additions of the constants delta
rotated by the round index, then fixed rotations (1, 3, 6, 11, 13, 17).
"""

from __future__ import annotations

from functools import lru_cache

from ..base import checked_bytes

BLOCK_BYTES = 16
KEY_SIZES = (128, 192, 256)
ROUNDS = {128: 24, 192: 28, 256: 32}
MASK32 = 0xFFFFFFFF

# The key schedule's constants delta[0..7] (specification section 2.2; the square roots of 766995,
# the ASCII "LEA", as hexadecimal words).
DELTA: tuple[int, ...] = (
    0xC3EFE9DB, 0x44626B02, 0x79E27C8A, 0x78DF30EC,
    0x715EA49E, 0xC785DA0A, 0xE04EF22A, 0xE5C40957,
)
# The rotations applied to T[j] (j-th word updated in a step).
KEY_ROTATIONS = (1, 3, 6, 11, 13, 17)


def rol(x: int, n: int) -> int:
    n %= 32
    return ((x << n) | (x >> (32 - n))) & MASK32 if n else x


def ror(x: int, n: int) -> int:
    return rol(x, 32 - n % 32)


def _checked_key(key: bytes) -> bytes:
    return checked_bytes(key, "LEA", "key", (16, 24, 32))


def _checked_block(block: bytes) -> bytes:
    return checked_bytes(block, "LEA", "block", (BLOCK_BYTES,))


def words(data: bytes) -> list[int]:
    return [int.from_bytes(data[4 * i:4 * i + 4], "little") for i in range(len(data) // 4)]


def to_bytes(values: list[int]) -> bytes:
    return b"".join(w.to_bytes(4, "little") for w in values)


def schedule_states(key: bytes) -> list[list[int]]:
    """T after each key-schedule step (index i: after step i), the key's words first."""
    t = words(key)
    nk = len(t)
    states = [list(t)]
    for i in range(ROUNDS[8 * len(key)]):
        d = DELTA[i % nk]
        if nk == 4:
            for j in range(4):
                t[j] = rol((t[j] + rol(d, i + j)) & MASK32, KEY_ROTATIONS[j])
        elif nk == 6:
            for j in range(6):
                t[j] = rol((t[j] + rol(d, i + j)) & MASK32, KEY_ROTATIONS[j])
        else:
            for j in range(6):
                k = (6 * i + j) % 8
                t[k] = rol((t[k] + rol(d, i + j)) & MASK32, KEY_ROTATIONS[j])
        states.append(list(t))
    return states


def _round_key_of(states: list[list[int]], i: int) -> tuple[int, ...]:
    t = states[i + 1]
    nk = len(t)
    if nk == 4:
        return (t[0], t[1], t[2], t[1], t[3], t[1])
    if nk == 6:
        return tuple(t)
    return tuple(t[(6 * i + j) % 8] for j in range(6))


@lru_cache(maxsize=256)
def _round_keys(key: bytes) -> tuple[tuple[int, ...], ...]:
    states = schedule_states(key)
    return tuple(_round_key_of(states, i) for i in range(ROUNDS[8 * len(key)]))


def expand_key(key: bytes) -> list[tuple[int, ...]]:
    """RK_0 .. RK_{R-1}, six words each."""
    return list(_round_keys(_checked_key(key)))


def encrypt_round(x: list[int], rk: tuple[int, ...]) -> list[int]:
    return [
        rol(((x[0] ^ rk[0]) + (x[1] ^ rk[1])) & MASK32, 9),
        ror(((x[1] ^ rk[2]) + (x[2] ^ rk[3])) & MASK32, 5),
        ror(((x[2] ^ rk[4]) + (x[3] ^ rk[5])) & MASK32, 3),
        x[0],
    ]


def decrypt_round(x: list[int], rk: tuple[int, ...]) -> list[int]:
    """The inverse of ``encrypt_round`` with the same round key."""
    y0 = x[3]
    y1 = ((ror(x[0], 9) - (y0 ^ rk[0])) & MASK32) ^ rk[1]
    y2 = ((rol(x[1], 5) - (y1 ^ rk[2])) & MASK32) ^ rk[3]
    y3 = ((rol(x[2], 3) - (y2 ^ rk[4])) & MASK32) ^ rk[5]
    return [y0, y1, y2, y3]


def encrypt_block(key: bytes, block: bytes) -> bytes:
    keys = _round_keys(_checked_key(key))
    x = words(_checked_block(block))
    for rk in keys:
        x = encrypt_round(x, rk)
    return to_bytes(x)


def decrypt_block(key: bytes, block: bytes) -> bytes:
    keys = _round_keys(_checked_key(key))
    x = words(_checked_block(block))
    for rk in reversed(keys):
        x = decrypt_round(x, rk)
    return to_bytes(x)


class LEA:
    name = "lea"
    block_bits = 128
    key_sizes = KEY_SIZES

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
