"""Known answers typed from the DES standards, and where the NIST TDES files with single-DES keys are.

Typed here (so the model is checked on any machine):

* FIPS 81 (DES Modes of Operation, 1980) Appendix B, Table B1: ECB encryption of the ASCII text
  "Now is the time for all " under key 0123456789abcdef, and Table B2: CBC with IV 1234567890abcdef.
  Each CBC block is one DES encryption of (plaintext XOR previous ciphertext), so it is a DES known answer.
* SP 800-67 Rev. 1 section 3.3.2: the four weak keys and six pairs of semi-weak keys (properties, not
  answers: encrypting twice under a weak key, or under both keys of a semi-weak pair, is the identity).

The larger sets are the NIST CAVP TDES ECB files (SP 800-20 tables: variable key, variable text,
permutation, inverse permutation, substitution table; plus MMT1): their "KEYs" records run DES three
times under one key, which is single DES. ``tdes_files`` finds them in PyPI ``cryptography_vectors``
or the shared kat folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cipherbench.verify.vectors import cryptography_vectors_dir, kat_root


@dataclass(frozen=True)
class ModeExample:
    """A multi-block example from FIPS 81: key, IV (None for ECB), plaintext and ciphertext blocks."""

    name: str
    key: bytes
    iv: bytes | None
    plaintext: bytes
    ciphertext: bytes


FIPS81_ECB = ModeExample(
    name="FIPS 81 Table B1 (ECB)",
    key=bytes.fromhex("0123456789abcdef"),
    iv=None,
    plaintext=b"Now is the time for all ",  # 4e6f772069732074 68652074696d6520 666f7220616c6c20
    ciphertext=bytes.fromhex("3fa40e8a984d4815" "6a271787ab8883f9" "893d51ec4b563b53"),
)

FIPS81_CBC = ModeExample(
    name="FIPS 81 Table B2 (CBC)",
    key=bytes.fromhex("0123456789abcdef"),
    iv=bytes.fromhex("1234567890abcdef"),
    plaintext=b"Now is the time for all ",
    ciphertext=bytes.fromhex("e5c7cdde872bf27c" "43e934008c389c0f" "683788499a7c05f6"),
)

EXAMPLES: tuple[ModeExample, ...] = (FIPS81_ECB, FIPS81_CBC)

# SP 800-67 Rev. 1, section 3.3.2 (parity bits set as printed there).
WEAK_KEYS: tuple[bytes, ...] = tuple(
    bytes.fromhex(k) for k in ("0101010101010101", "fefefefefefefefe", "e0e0e0e0f1f1f1f1", "1f1f1f1f0e0e0e0e")
)

SEMI_WEAK_PAIRS: tuple[tuple[bytes, bytes], ...] = tuple(
    (bytes.fromhex(a), bytes.fromhex(b))
    for a, b in (
        ("011f011f010e010e", "1f011f010e010e01"),
        ("01e001e001f101f1", "e001e001f101f101"),
        ("01fe01fe01fe01fe", "fe01fe01fe01fe01"),
        ("1fe01fe00ef10ef1", "e01fe01ff10ef10e"),
        ("1ffe1ffe0efe0efe", "fe1ffe1ffe0efe0e"),
        ("e0fee0fef1fef1fe", "fee0fee0fef1fef1"),
    )
)


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


def example_blocks(example: ModeExample) -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, DES input block, DES output block) for each block of an ECB or CBC example."""
    previous = example.iv
    for i in range(0, len(example.plaintext), 8):
        plain, cipher = example.plaintext[i : i + 8], example.ciphertext[i : i + 8]
        # CBC encrypts P_i XOR C_(i-1) (C_0 = IV); ECB encrypts P_i itself.
        block_in = plain if previous is None else _xor(plain, previous)
        yield example.key, block_in, cipher
        if previous is not None:
            previous = cipher


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext block, ciphertext block): FIPS 81 Table B1, then Table B2's blocks."""
    for example in EXAMPLES:
        yield from example_blocks(example)


# --- NIST CAVP TDES ECB files ------------------------------------------------------------------------------

# The KAT files use "KEYs" (K1 = K2 = K3); TECBMMT1 has three equal keys; MMT2 has K1 = K3; MMT3 three keys.
SINGLE_KEY_FILES: tuple[str, ...] = (
    "TECBvarkey.rsp",
    "TECBvartext.rsp",
    "TECBinvperm.rsp",
    "TECBpermop.rsp",
    "TECBsubtab.rsp",
    "TECBMMT1.rsp",
)
TWO_KEY_FILES: tuple[str, ...] = ("TECBMMT2.rsp",)
THREE_KEY_FILES: tuple[str, ...] = ("TECBMMT3.rsp",)


def _folders() -> list[Path]:
    folders = [cryptography_vectors_dir("ciphers", "3DES", "ECB")]
    root = kat_root()
    if root is not None:
        folders += [root / "des", root / "tdea"]
    return [f for f in folders if f is not None and f.is_dir()]


def tdes_files(names: tuple[str, ...]) -> list[Path]:
    """The named CAVP TDES ECB files that exist here (first folder that has each), in ``names`` order."""
    found = []
    folders = _folders()
    for name in names:
        for folder in folders:
            if (folder / name).is_file():
                found.append(folder / name)
                break
    return found
