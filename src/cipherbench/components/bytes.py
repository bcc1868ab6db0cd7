"""Byte and word views of wide values in the standards' order: byte 0 is the most significant."""

from __future__ import annotations

from typing import Sequence

from amaranth.hdl import Cat, Value


def get_bytes(value: Value) -> list[Value]:
    """Split a value into bytes, byte 0 = the most significant 8 bits."""
    n = len(value) // 8
    return [value[(n - 1 - b) * 8:(n - b) * 8] for b in range(n)]


def from_bytes(parts: Sequence[Value]) -> Value:
    """Inverse of get_bytes: byte 0 becomes the most significant."""
    return Cat(*reversed(list(parts)))


def get_words(value: Value, width: int = 32) -> list[Value]:
    """Split a value into words of ``width`` bits, word 0 = the most significant."""
    n = len(value) // width
    return [value[(n - 1 - w) * width:(n - w) * width] for w in range(n)]


def from_words(parts: Sequence[Value]) -> Value:
    """Inverse of get_words."""
    return Cat(*reversed(list(parts)))


def permute_bytes(value: Value, source_of: Sequence[int]) -> Value:
    """Byte permutation (pure wiring): output byte i is input byte source_of[i]."""
    parts = get_bytes(value)
    return from_bytes([parts[s] for s in source_of])
