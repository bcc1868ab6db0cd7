"""Bit-exact RC6-32/20/b reference model (Rivest, Robshaw, Sidney, Yin; AES finalist).

w = 32-bit words, r = 20 rounds, b = 16, 24 or 32 key bytes. Byte order: the one of the RC6 paper's
test vectors and of NESSIE and Crypto++: block and key are byte strings read as little-endian words
(A = bytes 0..3, least significant first; L[i] = key bytes 4i..4i+3).
"""

from __future__ import annotations

import struct
from functools import lru_cache

from ...components.rotators import rotl, rotr
from ..base import checked_bytes

BLOCK_BYTES = 16
KEY_SIZES = (128, 192, 256)
ROUNDS = 20
WORD_BITS = 32
_MASK = 0xFFFFFFFF
_LG_W = 5  # log2(w): rotation amounts are the low 5 bits
# The magic constants P32 = Odd((e - 2) 2^32) and Q32 = Odd((phi - 1) 2^32) of the key schedule.
P32 = 0xB7E15163
Q32 = 0x9E3779B9


def _checked_key(key: bytes) -> bytes:
    return checked_bytes(key, "RC6", "key", (16, 24, 32))


def _checked_block(block: bytes) -> bytes:
    return checked_bytes(block, "RC6", "block", (BLOCK_BYTES,))


@lru_cache(maxsize=256)
def _schedule(key: bytes) -> tuple[int, ...]:
    """S[0 .. 2r+3]; cached because a key usually serves many blocks."""
    c = max(1, len(key) // 4)
    words = list(struct.unpack(f"<{c}I", key))
    t = 2 * ROUNDS + 4
    s = [(P32 + i * Q32) & _MASK for i in range(t)]
    a = b = i = j = 0
    for _ in range(3 * max(c, t)):  # 3 passes over the longer of the two arrays
        a = s[i] = rotl((s[i] + a + b) & _MASK, 3)
        b = words[j] = rotl((words[j] + a + b) & _MASK, a + b)
        i = (i + 1) % t
        j = (j + 1) % c
    return tuple(s)


def expand_key(key: bytes) -> list[int]:
    """The 44 round-key words S[0] .. S[43]."""
    return list(_schedule(_checked_key(key)))


def _f(x: int) -> int:
    """f(x) = x (2x + 1) mod 2^32, rotated left by lg w = 5."""
    return rotl((x * (2 * x + 1)) & _MASK, _LG_W)


def _encrypt(s: tuple[int, ...], block: bytes, trace: list[bytes] | None) -> bytes:
    a, b, c, d = struct.unpack("<4I", block)
    b = (b + s[0]) & _MASK
    d = (d + s[1]) & _MASK
    if trace is not None:
        trace.append(struct.pack("<4I", a, b, c, d))
    for i in range(1, ROUNDS + 1):
        t = _f(b)
        u = _f(d)
        a = (rotl(a ^ t, u) + s[2 * i]) & _MASK
        c = (rotl(c ^ u, t) + s[2 * i + 1]) & _MASK
        a, b, c, d = b, c, d, a
        if trace is not None:
            trace.append(struct.pack("<4I", a, b, c, d))
    a = (a + s[2 * ROUNDS + 2]) & _MASK
    c = (c + s[2 * ROUNDS + 3]) & _MASK
    out = struct.pack("<4I", a, b, c, d)
    if trace is not None:
        trace.append(out)
    return out


def _decrypt(s: tuple[int, ...], block: bytes, trace: list[bytes] | None) -> bytes:
    a, b, c, d = struct.unpack("<4I", block)
    c = (c - s[2 * ROUNDS + 3]) & _MASK
    a = (a - s[2 * ROUNDS + 2]) & _MASK
    if trace is not None:
        trace.append(struct.pack("<4I", a, b, c, d))
    for i in range(ROUNDS, 0, -1):
        a, b, c, d = d, a, b, c
        u = _f(d)
        t = _f(b)
        c = rotr((c - s[2 * i + 1]) & _MASK, t) ^ u
        a = rotr((a - s[2 * i]) & _MASK, u) ^ t
        if trace is not None:
            trace.append(struct.pack("<4I", a, b, c, d))
    d = (d - s[1]) & _MASK
    b = (b - s[0]) & _MASK
    out = struct.pack("<4I", a, b, c, d)
    if trace is not None:
        trace.append(out)
    return out


def encrypt_block(key: bytes, block: bytes) -> bytes:
    return _encrypt(_schedule(_checked_key(key)), _checked_block(block), None)


def decrypt_block(key: bytes, block: bytes) -> bytes:
    return _decrypt(_schedule(_checked_key(key)), _checked_block(block), None)


def encrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """22 states (A, B, C, D as LE words): after the pre-whitening, after rounds 1..20, ciphertext."""
    states: list[bytes] = []
    _encrypt(_schedule(_checked_key(key)), _checked_block(block), states)
    return states


def decrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """22 states of decryption: the encryption's states after round 20, 19, ..., 1, 0, then plaintext."""
    states: list[bytes] = []
    _decrypt(_schedule(_checked_key(key)), _checked_block(block), states)
    return states


class RC6:
    """The RC6-32/20/b reference as a ``CipherModel``."""

    name: str = "rc6"
    block_bits: int = 128
    key_sizes: tuple[int, ...] = KEY_SIZES

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
