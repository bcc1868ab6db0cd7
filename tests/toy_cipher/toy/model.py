"""The toy cipher's reference model.

Block L || R (one byte each), key k0 || k1. Round r: (L, R) -> (R, L ^ F(R, k_r)) with k_1 = k0,
k_2 = k1 and F(x, k) = rotl(t, 3) ^ (t & rotl(t, 1)), t = x ^ k. Decryption undoes the rounds in
reverse: (L, R) -> (R ^ F(L, k_r), L).
"""

from __future__ import annotations

from cipherbench.errors import CipherbenchError

ROUNDS = 2
# (key, plaintext, ciphertext), hex, computed with this model.
KNOWN_ANSWERS = (
    ("0000", "0000", "0000"),
    ("1234", "abcd", "cac6"),
    ("ffff", "0001", "0b46"),
)


def _rotl8(x: int, n: int) -> int:
    return ((x << n) | (x >> (8 - n))) & 0xFF


def f(x: int, k: int) -> int:
    t = x ^ k
    return _rotl8(t, 3) ^ (t & _rotl8(t, 1))


class Toy:
    name = "toy"
    block_bits = 16
    key_sizes = (16,)

    def _check(self, key: bytes, block: bytes) -> None:
        if len(key) != 2:
            raise CipherbenchError(f"toy key must be 2 bytes (16 bits), got {len(key)} bytes")
        if len(block) != 2:
            raise CipherbenchError(f"toy block must be 2 bytes (16 bits), got {len(block)} bytes")

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        self._check(key, block)
        left, right = block
        for k in key:
            left, right = right, left ^ f(right, k)
        return bytes((left, right))

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        self._check(key, block)
        left, right = block
        for k in reversed(key):
            left, right = right ^ f(left, k), left
        return bytes((left, right))
