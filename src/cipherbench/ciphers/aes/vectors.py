"""Known answers typed from FIPS-197 (Nov 26, 2001), so that the AES model is checked on any machine.

The larger official sets (NIST CAVP AESAVS files) are read from outside the project: see
:func:`aesavs_files`. Source of every value below: FIPS-197 Appendix A (key
expansion), Appendix B (cipher example) and Appendix C (example vectors, with their per-round states).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ...errors import CipherbenchError
from ...verify.vectors import cryptography_vectors_dir, kat_root

# The AESAVS ECB file families read_rsp handles (Monte Carlo files are a different procedure).
AESAVS_FAMILIES = ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT")


def _hex(text: str) -> bytes:
    return bytes.fromhex(text)


def _states(*texts: str) -> tuple[bytes, ...]:
    return tuple(bytes.fromhex(t) for t in texts)


@dataclass(frozen=True)
class KeyExpansionExample:
    """A cipher key and some of its expanded words w[i] (index, big-endian word) from Appendix A."""

    name: str
    key: bytes
    words: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class ExampleVector:
    """One worked example: the block in, the block out, and the state after each round.

    ``round_states`` is the state after the initial AddRoundKey and after each of the Nr rounds (FIPS-197's
    round[r].start for r = 1..Nr, then round[Nr].output): what ``encrypt_trace`` returns.
    ``inverse_round_states`` is the same for the Inverse Cipher run on the ciphertext (round[r].istart,
    then round[Nr].ioutput): what ``decrypt_trace`` returns. Empty where the standard does not list them.
    """

    name: str
    key: bytes
    plaintext: bytes
    ciphertext: bytes
    round_states: tuple[bytes, ...] = ()
    inverse_round_states: tuple[bytes, ...] = ()


# --- Appendix A: key expansion (a few words from the start and the end of each table) ---

FIPS197_A1 = KeyExpansionExample(
    name="FIPS-197 A.1 (AES-128)",
    key=_hex("2b7e151628aed2a6abf7158809cf4f3c"),
    words=(
        (4, 0xa0fafe17),
        (5, 0x88542cb1),
        (6, 0x23a33939),
        (7, 0x2a6c7605),
        (40, 0xd014f9a8),
        (41, 0xc9ee2589),
        (42, 0xe13f0cc8),
        (43, 0xb6630ca6),
    ),
)

FIPS197_A2 = KeyExpansionExample(
    name="FIPS-197 A.2 (AES-192)",
    key=_hex("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
    words=(
        (6, 0xfe0c91f7),
        (7, 0x2402f5a5),
        (8, 0xec12068e),
        (9, 0x6c827f6b),
        (48, 0xe98ba06f),
        (49, 0x448c773c),
        (50, 0x8ecc7204),
        (51, 0x01002202),
    ),
)

FIPS197_A3 = KeyExpansionExample(
    name="FIPS-197 A.3 (AES-256)",
    key=_hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
    words=(
        (8, 0x9ba35411),
        (9, 0x8e6925af),
        (10, 0xa51a8b5f),
        (11, 0x2067fcde),
        (56, 0xfe4890d1),
        (57, 0xe6188d0b),
        (58, 0x046df344),
        (59, 0x706c631e),
    ),
)

KEY_EXPANSIONS: tuple[KeyExpansionExample, ...] = (FIPS197_A1, FIPS197_A2, FIPS197_A3)

# --- Appendix B: cipher example. The standard draws each state as a 4x4 array whose row r, column c
# holds byte 4c + r; these are the same states as byte strings ("Start of Round" column, then output). ---

FIPS197_B = ExampleVector(
    name="FIPS-197 Appendix B (AES-128)",
    key=_hex("2b7e151628aed2a6abf7158809cf4f3c"),
    plaintext=_hex("3243f6a8885a308d313198a2e0370734"),
    ciphertext=_hex("3925841d02dc09fbdc118597196a0b32"),
    round_states=_states(
        "193de3bea0f4e22b9ac68d2ae9f84808",
        "a49c7ff2689f352b6b5bea43026a5049",
        "aa8f5f0361dde3ef82d24ad26832469a",
        "486c4eee671d9d0d4de3b138d65f58e7",
        "e0927fe8c86363c0d9b1355085b8be01",
        "f1006f55c1924cef7cc88b325db5d50c",
        "260e2e173d41b77de86472a9fdd28b25",
        "5a4142b11949dc1fa3e019657a8c040c",
        "ea835cf00445332d655d98ad8596b0c5",
        "eb40f21e592e38848ba113e71bc342d2",
        "3925841d02dc09fbdc118597196a0b32",
    ),
)

# --- Appendix C: example vectors for each key length ---

FIPS197_C1 = ExampleVector(
    name="FIPS-197 C.1 (AES-128)",
    key=_hex("000102030405060708090a0b0c0d0e0f"),
    plaintext=_hex("00112233445566778899aabbccddeeff"),
    ciphertext=_hex("69c4e0d86a7b0430d8cdb78070b4c55a"),
    round_states=_states(
        "00102030405060708090a0b0c0d0e0f0",
        "89d810e8855ace682d1843d8cb128fe4",
        "4915598f55e5d7a0daca94fa1f0a63f7",
        "fa636a2825b339c940668a3157244d17",
        "247240236966b3fa6ed2753288425b6c",
        "c81677bc9b7ac93b25027992b0261996",
        "c62fe109f75eedc3cc79395d84f9cf5d",
        "d1876c0f79c4300ab45594add66ff41f",
        "fde3bad205e5d0d73547964ef1fe37f1",
        "bd6e7c3df2b5779e0b61216e8b10b689",
        "69c4e0d86a7b0430d8cdb78070b4c55a",
    ),
    inverse_round_states=_states(
        "7ad5fda789ef4e272bca100b3d9ff59f",
        "54d990a16ba09ab596bbf40ea111702f",
        "3e1c22c0b6fcbf768da85067f6170495",
        "b458124c68b68a014b99f82e5f15554c",
        "e8dab6901477d4653ff7f5e2e747dd4f",
        "36339d50f9b539269f2c092dc4406d23",
        "2d6d7ef03f33e334093602dd5bfb12c7",
        "3bd92268fc74fb735767cbe0c0590e2d",
        "a7be1a6997ad739bd8c9ca451f618b61",
        "6353e08c0960e104cd70b751bacad0e7",
        "00112233445566778899aabbccddeeff",
    ),
)

FIPS197_C2 = ExampleVector(
    name="FIPS-197 C.2 (AES-192)",
    key=_hex("000102030405060708090a0b0c0d0e0f1011121314151617"),
    plaintext=_hex("00112233445566778899aabbccddeeff"),
    ciphertext=_hex("dda97ca4864cdfe06eaf70a0ec0d7191"),
    round_states=_states(
        "00102030405060708090a0b0c0d0e0f0",
        "4f63760643e0aa85aff8c9d041fa0de4",
        "cb02818c17d2af9c62aa64428bb25fd7",
        "f75c7778a327c8ed8cfebfc1a6c37f53",
        "22ffc916a81474416496f19c64ae2532",
        "80121e0776fd1d8a8d8c31bc965d1fee",
        "671ef1fd4e2a1e03dfdcb1ef3d789b30",
        "0c0370d00c01e622166b8accd6db3a2c",
        "7255dad30fb80310e00d6c6b40d0527c",
        "a906b254968af4e9b4bdb2d2f0c44336",
        "88ec930ef5e7e4b6cc32f4c906d29414",
        "afb73eeb1cd1b85162280f27fb20d585",
        "dda97ca4864cdfe06eaf70a0ec0d7191",
    ),
    inverse_round_states=_states(
        "793e76979c3403e9aab7b2d10fa96ccc",
        "c494bffae62322ab4bb5dc4e6fce69dd",
        "d37e3705907a1a208d1c371e8c6fbfb5",
        "406c501076d70066e17057ca09fc7b7f",
        "fe7c7e71fe7f807047b95193f67b8e4b",
        "85e5c8042f8614549ebca17b277272df",
        "cd54c7283864c0c55d4c727e90c9a465",
        "93faa123c2903f4743e4dd83431692de",
        "68cc08ed0abbd2bc642ef555244ae878",
        "1fb5430ef0accf64aa370cde3d77792c",
        "84e1dd691a41d76f792d389783fbac70",
        "6353e08c0960e104cd70b751bacad0e7",
        "00112233445566778899aabbccddeeff",
    ),
)

FIPS197_C3 = ExampleVector(
    name="FIPS-197 C.3 (AES-256)",
    key=_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
    plaintext=_hex("00112233445566778899aabbccddeeff"),
    ciphertext=_hex("8ea2b7ca516745bfeafc49904b496089"),
    round_states=_states(
        "00102030405060708090a0b0c0d0e0f0",
        "4f63760643e0aa85efa7213201a4e705",
        "1859fbc28a1c00a078ed8aadc42f6109",
        "975c66c1cb9f3fa8a93a28df8ee10f63",
        "1c05f271a417e04ff921c5c104701554",
        "c357aae11b45b7b0a2c7bd28a8dc99fa",
        "7f074143cb4e243ec10c815d8375d54c",
        "d653a4696ca0bc0f5acaab5db96c5e7d",
        "5aa858395fd28d7d05e1a38868f3b9c5",
        "4a824851c57e7e47643de50c2af3e8c9",
        "c14907f6ca3b3aa070e9aa313b52b5ec",
        "5f9c6abfbac634aa50409fa766677653",
        "516604954353950314fb86e401922521",
        "627bceb9999d5aaac945ecf423f56da5",
        "8ea2b7ca516745bfeafc49904b496089",
    ),
    inverse_round_states=_states(
        "aa5ece06ee6e3c56dde68bac2621bebf",
        "d1ed44fd1a0f3f2afa4ff27b7c332a69",
        "cfb4dbedf4093808538502ac33de185c",
        "78e2acce741ed5425100c5e0e23b80c7",
        "d6f3d9dda6279bd1430d52a0e513f3fe",
        "beb50aa6cff856126b0d6aff45c25dc4",
        "f6e062ff507458f9be50497656ed654c",
        "d22f0c291ffe031a789d83b2ecc5364c",
        "2e6e7a2dafc6eef83a86ace7c25ba934",
        "9cf0a62049fd59a399518984f26be178",
        "88db34fb1f807678d3f833c2194a759e",
        "ad9c7e017e55ef25bc150fe01ccb6395",
        "84e1fd6b1a5c946fdf4938977cfbac23",
        "6353e08c0960e104cd70b751bacad0e7",
        "00112233445566778899aabbccddeeff",
    ),
)

EXAMPLES: tuple[ExampleVector, ...] = (FIPS197_B, FIPS197_C1, FIPS197_C2, FIPS197_C3)


def known_answers() -> Iterator[tuple[bytes, bytes, bytes]]:
    """(key, plaintext, ciphertext) for Appendix B and Appendix C.1, C.2 and C.3, in that order."""
    for example in EXAMPLES:
        yield example.key, example.plaintext, example.ciphertext


def _aesavs_names(key_bits: int) -> list[str]:
    if key_bits not in (128, 192, 256):
        raise CipherbenchError(f"AESAVS files exist for 128, 192 and 256-bit keys, got {key_bits}")
    return [f"ECB{family}{key_bits}.rsp" for family in AESAVS_FAMILIES]


def aesavs_files(key_bits: int) -> list[Path]:
    """The AESAVS ECB KAT and MMT files for one key size (in AESAVS_FAMILIES order), or [] if none here.

    Prefers the ``cryptography_vectors`` package; falls back to the shared ``kat/aes`` folder.
    """
    names = _aesavs_names(key_bits)
    root = kat_root()
    folders = [cryptography_vectors_dir("ciphers", "AES", "ECB"), root / "aes" if root else None]
    for folder in folders:
        if folder is None:
            continue
        found = [folder / name for name in names if (folder / name).is_file()]
        if found:
            return found
    return []
