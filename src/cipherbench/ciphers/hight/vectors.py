"""Known answers typed from the HIGHT specification (Hong et al., CHES 2006, and KISA's HIGHT
specification, the test vectors of its appendix; ISO/IEC 18033-3 uses the same): four blocks,
typed as the specification prints them, most significant byte first (key MK_15 .. MK_0, plaintext
P_7 .. P_0, ciphertext C_7 .. C_0). The model's and the cores' ports take byte i = P_i, MK_i, C_i
(KISA's reference code and Crypto++), so ``known_answers`` reverses each string's bytes.
"""

from __future__ import annotations

from collections.abc import Iterator

# (key, plaintext, ciphertext)
EXAMPLES: tuple[tuple[str, str, str], ...] = (
    ("00112233445566778899aabbccddeeff", "0000000000000000", "00f418aed94f03f2"),
    ("ffeeddccbbaa99887766554433221100", "0011223344556677", "23ce9f72e543e6d8"),
    ("000102030405060708090a0b0c0d0e0f", "0123456789abcdef", "7a6fb2a28d23f466"),
    ("28dbc3bc49ffd87dcfa509b11d422be7", "b41e6be2eba84a14", "cc047a75209c1fc6"),
)


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext, ciphertext) of the four examples."""
    for key, plaintext, ciphertext in EXAMPLES:
        yield (bytes.fromhex(key)[::-1], bytes.fromhex(plaintext)[::-1],
               bytes.fromhex(ciphertext)[::-1])
