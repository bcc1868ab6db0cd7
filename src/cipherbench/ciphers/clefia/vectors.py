"""Known answers typed from RFC 6114 (CLEFIA), its test vectors: one block for each key size, the
same plaintext 00 01 .. 0f under the key ff ee dd .. 00 (128 bits), continued by f0 e0 d0 .. 80
(192) and .. 70 60 .. 00 (256). The RFC prints them as byte strings in the cipher's order.
"""

from __future__ import annotations

from collections.abc import Iterator

_KEY = bytes.fromhex("ffeeddccbbaa99887766554433221100" "f0e0d0c0b0a09080" "7060504030201000")
_PLAINTEXT = bytes(range(16))

# (name, key, plaintext, ciphertext)
EXAMPLES: tuple[tuple[str, bytes, bytes, bytes], ...] = (
    ("CLEFIA-128", _KEY[:16], _PLAINTEXT, bytes.fromhex("de2bf2fd9b74aacdf1298555459494fd")),
    ("CLEFIA-192", _KEY[:24], _PLAINTEXT, bytes.fromhex("e2482f649f028dc480dda184fde181ad")),
    ("CLEFIA-256", _KEY[:32], _PLAINTEXT, bytes.fromhex("a1397814289de80c10da46d1fa48b38a")),
)


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext, ciphertext) for the three key sizes."""
    for _, key, plaintext, ciphertext in EXAMPLES:
        yield key, plaintext, ciphertext
