"""What every cipher folder provides: a bit-exact reference model (and, for hardware, a description),
and the argument checks every model makes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class CipherModel(Protocol):
    """A bit-exact block cipher reference. Bytes in, bytes out, in the standard's byte order.
    The model a block design (families/block.py) is checked and measured against."""

    name: str
    block_bits: int
    key_sizes: tuple[int, ...]  # supported key lengths in bits, ascending

    def encrypt(self, key: bytes, block: bytes) -> bytes: ...

    def decrypt(self, key: bytes, block: bytes) -> bytes: ...


def _listing(lengths: tuple[int, ...]) -> str:
    """"16, 24 or 32"; "5 to 16" for a run of more than three lengths."""
    if len(lengths) > 3 and lengths == tuple(range(lengths[0], lengths[-1] + 1)):
        return f"{lengths[0]} to {lengths[-1]}"
    words = [str(n) for n in lengths]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def checked_bytes(value: object, cipher: str, what: str, lengths: Iterable[int],
                  meaning: str = "") -> bytes:
    """``value`` as bytes if it is bytes of one of ``lengths`` (in bytes); else a one-line
    CipherbenchError: "AES key must be 16, 24 or 32 bytes (128/192/256 bits), got 10 bytes".
    ``meaning``: what goes in the parentheses (default: the lengths in bits)."""
    from ..errors import CipherbenchError

    valid = tuple(sorted(lengths))
    listing = _listing(valid)
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise CipherbenchError(f"{cipher} {what} must be {listing} bytes, got "
                               f"{type(value).__name__}")
    value = bytes(value)
    if len(value) not in valid:
        meaning = meaning or "/".join(str(8 * n) for n in valid) + " bits"
        raise CipherbenchError(f"{cipher} {what} must be {listing} bytes ({meaning}), got "
                               f"{len(value)} bytes")
    return value
