"""Known answers typed from RFC 2994 Appendix A (MISTY1): its ECB example and its CBC example.

Typed here: Appendix A's two-block ECB example and its CBC example (IV 0102030405060708). Each CBC block
is one MISTY1 encryption of (plaintext XOR previous ciphertext), so it is a known answer too.
The RFC's text, where provided, is ``$CIPHERBENCH_KAT/misty1/rfc2994.txt``.

MISTY1 has no NIST or pyca file. Botan's ``src/tests/data/block/misty.vec`` (read from the vector folder
``$CIPHERBENCH_KAT`` as ``misty1/misty.vec``, read with ``cipherbench.verify.kat_formats.read_botan_vec``) holds
``Key = / In = / Out =`` records; its first two are Appendix A, the rest come from Botan's test suite.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class ModeExample:
    name: str
    key: bytes
    iv: bytes | None  # None for ECB
    plaintext: bytes
    ciphertext: bytes


_KEY = bytes.fromhex("00112233445566778899aabbccddeeff")
_PLAINTEXT = bytes.fromhex("0123456789abcdef" "fedcba9876543210")

RFC2994_ECB = ModeExample("RFC 2994 App. A (ECB)", _KEY, None, _PLAINTEXT,
                          bytes.fromhex("8b1da5f56ab3d07c" "04b68240b13be95d"))
RFC2994_CBC = ModeExample("RFC 2994 App. A (CBC)", _KEY, bytes.fromhex("0102030405060708"), _PLAINTEXT,
                          bytes.fromhex("461c1e879c18c27f" "b9adf2d80c89031f"))
EXAMPLES: tuple[ModeExample, ...] = (RFC2994_ECB, RFC2994_CBC)


def example_blocks(example: ModeExample) -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, block cipher input, block cipher output) for each 8-byte block of an ECB or CBC example."""
    previous = example.iv
    for i in range(0, len(example.plaintext), 8):
        plain, cipher = example.plaintext[i : i + 8], example.ciphertext[i : i + 8]
        block_in = plain if previous is None else bytes(a ^ b for a, b in zip(plain, previous))
        yield example.key, block_in, cipher
        if previous is not None:
            previous = cipher


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext block, ciphertext block): the ECB blocks, then the CBC blocks."""
    for example in EXAMPLES:
        yield from example_blocks(example)
