"""Known answers typed from the LEA specification (KISA, "128-bit Block Cipher LEA", the test
vectors of its appendix; the same as ISO/IEC 29192-2:2019's LEA examples): one block for each key
size. Key bytes 0f 1e 2d ... the plaintexts 10 11 .. 1f, 20 .. 2f and 30 .. 3f; all written as
byte strings in the specification's (little-endian word) order.
"""

from __future__ import annotations

from collections.abc import Iterator

_KEY = bytes.fromhex("0f1e2d3c4b5a69788796a5b4c3d2e1f0" "f0e1d2c3b4a59687" "78695a4b3c2d1e0f")

# (name, key, plaintext, ciphertext)
EXAMPLES: tuple[tuple[str, bytes, bytes, bytes], ...] = (
    ("LEA-128", _KEY[:16], bytes(range(0x10, 0x20)),
     bytes.fromhex("9fc84e3528c6c6185532c7a704648bfd")),
    ("LEA-192", _KEY[:24], bytes(range(0x20, 0x30)),
     bytes.fromhex("6fb95e325aad1b878cdcf5357674c6f2")),
    ("LEA-256", _KEY[:32], bytes(range(0x30, 0x40)),
     bytes.fromhex("d651aff647b189c13a8900ca27f9e197")),
)


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext, ciphertext) for the three key sizes."""
    for _, key, plaintext, ciphertext in EXAMPLES:
        yield key, plaintext, ciphertext
