"""What every cipher folder provides: a bit-exact reference model (and, for hardware, a description)."""

from __future__ import annotations

from typing import Protocol


class CipherModel(Protocol):
    """A bit-exact block cipher reference. Bytes in, bytes out, in the standard's byte order."""

    name: str
    block_bits: int
    key_sizes: tuple[int, ...]  # supported key lengths in bits, ascending

    def encrypt(self, key: bytes, block: bytes) -> bytes: ...

    def decrypt(self, key: bytes, block: bytes) -> bytes: ...
