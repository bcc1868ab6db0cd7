"""Known answers typed from RFC 5794 Appendix A (the ARIA specification's examples): one block
for each key size, key bytes 00 01 02 ..., plaintext 00 11 22 ... ff.
"""

from __future__ import annotations

from collections.abc import Iterator

_KEY = bytes(range(32))
_PLAINTEXT = bytes.fromhex("00112233445566778899aabbccddeeff")

# (name, key, plaintext, ciphertext)
EXAMPLES: tuple[tuple[str, bytes, bytes, bytes], ...] = (
    ("ARIA-128 (A.1)", _KEY[:16], _PLAINTEXT, bytes.fromhex("d718fbd6ab644c739da95f3be6451778")),
    ("ARIA-192 (A.2)", _KEY[:24], _PLAINTEXT, bytes.fromhex("26449c1805dbe7aa25a468ce263a9e79")),
    ("ARIA-256 (A.3)", _KEY[:32], _PLAINTEXT, bytes.fromhex("f92bd7c79fb72e2f2b8f80c1972d24fc")),
)


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext, ciphertext) for the three key sizes."""
    for _, key, plaintext, ciphertext in EXAMPLES:
        yield key, plaintext, ciphertext
