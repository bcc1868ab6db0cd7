"""Known answers typed from NIST SP 800-67 for TDEA, and which NIST TDES files serve each keying option.

Typed here: SP 800-67 Rev. 1 (2012) Appendix B, "Example TDEA ECB encryption": three independent keys
(keying option 1) and the three-block ASCII plaintext "The qufck brown fox jump" (the misspelling is the
standard's). It is the only worked TDEA example in the standard; 2-key (keying option 2) answers come
from the CAVP files (TECBMMT2 and the KAT files) and from the oracles in the tests.

File sets (read with ``cipherbench.verify.vectors.read_rsp``; found by ``des.vectors.tdes_files``):
the KAT files and TECBMMT1 have K1 = K2 = K3, TECBMMT2 has K1 = K3 (2-key), TECBMMT3 three keys.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

# Crypto++'s TestData/3desval.dat serves three ciphers: its third record is DES-XEX3 (DESX, key
# x1 || K || x3), not TDEA, so the file is not a TDEA vector set (the tests check it record by record).
NOT_TDEA_FILES: frozenset[str] = frozenset({"3desval.dat"})


@dataclass(frozen=True)
class EcbExample:
    name: str
    key: bytes  # K1 || K2 || K3
    plaintext: bytes
    ciphertext: bytes


SP800_67_B = EcbExample(
    name="SP 800-67 Rev. 1 Appendix B (3-key ECB)",
    key=bytes.fromhex("0123456789abcdef" "23456789abcdef01" "456789abcdef0123"),
    plaintext=b"The qufck brown fox jump",  # 5468652071756663 6b2062726f776e20 666f78206a756d70
    ciphertext=bytes.fromhex("a826fd8ce53b855f" "cce21c8112256fe6" "68d5c05dd9b6b900"),
)

EXAMPLES: tuple[EcbExample, ...] = (SP800_67_B,)


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext block, ciphertext block) for each 8-byte block of the typed examples."""
    for example in EXAMPLES:
        for i in range(0, len(example.plaintext), 8):
            yield example.key, example.plaintext[i : i + 8], example.ciphertext[i : i + 8]
