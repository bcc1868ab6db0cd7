"""Known answers typed from IBM's MARS test vectors (tweaked key schedule), so the model is checked anywhere.

Source: the test-vector files published with the revised (August 1999) MARS document by its designers,
read from ``$CIPHERBENCH_KAT/mars`` where provided: ``ecb_tbl.txt`` (first entries), ``ecb_vk.txt``
(I=1 with its expanded key, and two keys that exercise the top bit of the key-fixing mask),
``ecb_vt.txt`` (I=1) and ``ecb_ivt.txt`` (intermediate values). Hex strings are bytes in order;
expanded-key words are 32-bit numbers; intermediate values print each state's 16 bytes in order,
4 per group.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

# (name, key, plaintext, ciphertext)
TABLE_VECTORS: tuple[tuple[str, str, str, str], ...] = (
    ("ecb_tbl.txt KEYSIZE=128 I=1", "00000000000000000000000000000000", "00000000000000000000000000000000",
     "DCC07B8DFB0738D6E30A22DFCF27E886"),
    ("ecb_tbl.txt KEYSIZE=128 I=2", "00000000000000000000000000000000", "DCC07B8DFB0738D6E30A22DFCF27E886",
     "33CAFFBDDC7F1DDA0F9C15FA2F30E2FF"),
    ("ecb_tbl.txt KEYSIZE=192 I=1", "000000000000000000000000000000000000000000000000",
     "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "97778747D60E425C2B4202599DB856FB"),
    ("ecb_tbl.txt KEYSIZE=256 I=1", "0000000000000000000000000000000000000000000000000000000000000000",
     "62E45B4CF3477F1DD65063729D9ABA8F", "0F4B897EA014D21FBC20F1054A42F719"),
    ("ecb_vt.txt KEYSIZE=128 I=1", "00000000000000000000000000000000", "80000000000000000000000000000000",
     "D962EFEBA75817BF6ED24BBBB5B7820D"),
    ("ecb_vk.txt KEYSIZE=128 I=1", "80000000000000000000000000000000", "00000000000000000000000000000000",
     "B3E2AD5608AC1B6733A7CB4FDF8F9952"),
    # Keys whose schedule has a multiplication key with ten or more leading zeros and a fixing pattern
    # with its top bit set: IBM's reference leaves bit 31 out of the mask M ("2 <= l <= 30").
    ("ecb_vk.txt KEYSIZE=192 (top-bit case)", "000000000000000000004000000000000000000000000000",
     "00000000000000000000000000000000", "1A4D5C52FDDEE81374295341F950055D"),
    ("ecb_vk.txt KEYSIZE=256 I=19 (top-bit case)",
     "0000200000000000000000000000000000000000000000000000000000000000", "00000000000000000000000000000000",
     "1A3FC4F1DE42F1AC5DA5F88701E6F292"),
)  # fmt: skip


@dataclass(frozen=True)
class ExpandedKeyExample:
    """A key and its 40 expanded words K[0..39] as listed in ecb_vk.txt."""

    name: str
    key: bytes
    words: tuple[int, ...]


EXPANDED_KEYS: tuple[ExpandedKeyExample, ...] = (
    ExpandedKeyExample(
        "ecb_vk.txt KEYSIZE=128 I=1",
        bytes.fromhex("80000000000000000000000000000000"),
        (
            0x7A690123, 0x4A4CF6EE, 0xD1C145FD, 0x4A929170, 0x551A7316, 0xD46B4D1F, 0x6A68B2DD, 0x52A45B5F,
            0xD99775E0, 0xFBEC331B, 0x9879762B, 0xDBDB6103, 0xB66DFCD5, 0x560475C7, 0x897923F4, 0xCB157A67,
            0xBE38B5D6, 0xF5E2A20B, 0xDB46B244, 0x258E03FB, 0x4E45DCC8, 0x38A3BF7B, 0xB600F7B9, 0xCE23F06B,
            0xB255F1C4, 0x66FE13CB, 0x3FA7323B, 0xE5168ED7, 0x3C1CA161, 0xAC63D7FB, 0x50826E87, 0x87B0E657,
            0x77F7012A, 0xC1E7AA83, 0x79D936FC, 0x56174F97, 0x9F8F4547, 0xC3901CC5, 0xF32A2B2E, 0xC604C22B,
        ),
    ),
    ExpandedKeyExample(
        "ecb_vk.txt KEYSIZE=256 I=1",
        bytes.fromhex("8000000000000000000000000000000000000000000000000000000000000000"),
        (
            0x7FAE26A4, 0xCAB687A3, 0x10AE5DA6, 0xF6B36218, 0x8ADD9337, 0x97A780B7, 0x27390419, 0x4211C48B,
            0x5524D8AC, 0x9F74FE83, 0x81709444, 0x4D412B4B, 0xB89FFDE0, 0x205CFADF, 0x628F376C, 0x61ECF187,
            0x5FB440E4, 0xEDA52D8F, 0x86BE108F, 0x68FEECBF, 0x8F74BB86, 0x9FBCCE27, 0x19672FDF, 0x67696B23,
            0x93073105, 0x108B6107, 0xF8D14BFD, 0x6C88AA3B, 0x8B3DB629, 0xA30A2353, 0x98F7549A, 0x5C62FE7F,
            0xD1848ECE, 0x1949C347, 0x8527638D, 0x85C9A067, 0x4A4930D9, 0x9564C2E3, 0xB61E4E40, 0xE5468BF3,
        ),
    ),
)  # fmt: skip


@dataclass(frozen=True)
class IntermediateExample:
    """Some of ecb_ivt.txt's IV0..IV34 for an encryption: (index, 16 state bytes)."""

    name: str
    key: bytes
    plaintext: bytes
    ciphertext: bytes
    values: tuple[tuple[int, bytes], ...]


def _state(text: str) -> bytes:
    return bytes.fromhex(text.replace(" ", ""))


INTERMEDIATE_EXAMPLES: tuple[IntermediateExample, ...] = (
    IntermediateExample(
        "ecb_ivt.txt Encryption KEYSIZE=128",
        bytes(16),
        bytes(16),
        bytes.fromhex("DCC07B8DFB0738D6E30A22DFCF27E886"),
        (
            (1, _state("2b0be42a 936da6fd dd15d33e 3009927e")),  # after adding K[0..3]
            (2, _state("91fc721c 6a95303f 31130c6a 67d16738")),  # after forward-mixing round 0
            (9, _state("2ec2da7c 071db767 a11c90a1 488257f2")),  # after forward mixing
            (10, _state("9bcf4558 e136c8c0 4b6e202f 5a87c12b")),  # after core round 0
            (17, _state("91d5c6dd ea3e3563 1467cfc0 934253f0")),
            (25, _state("face8eca 9e244a46 c0fd9b32 25a3817a")),  # after the core
            (26, _state("ce8ecafa f4cb326d ba6a3805 88c4168c")),
            (27, _state("053b44d2 cb326df4 41ea83fa 108f1816")),
            (33, _state("1f666bfd 2ec5a47c 9cfd2360 15ba6ba4")),  # after backward mixing
            (34, _state("dcc07b8d fb0738d6 e30a22df cf27e886")),  # the ciphertext
        ),
    ),
    IntermediateExample(
        "ecb_ivt.txt Encryption KEYSIZE=256",
        bytes(32),
        bytes(16),
        bytes.fromhex("E998F63D39378523A951320451085D56"),
        (
            (1, _state("2d6ad930 21fce9ac 9d4fbf37 836a9bae")),
            (9, _state("3aff7e14 22b3cfcc 82057a2b 998c611d")),
            (10, _state("8f42e7df 2317e304 f90b594a 4c4ba866")),
            (25, _state("c65bf59e 49f832a2 d502c017 9f587f51")),
            (26, _state("5bf59ec6 7991b311 73799ac2 f250b1b7")),
            (33, _state("5bdf57e8 78e843fc 45e26959 20931c58")),
            (34, _state("e998f63d 39378523 a9513204 51085d56")),
        ),
    ),
)

# Words of the specification's S-box table: the first four, S[17] (one of the nine entries the designers
# changed to 3 times the SHA-1 word) and B = S[265..268], the patterns of the key-fixing step.
SBOX_QUOTED: tuple[tuple[int, int], ...] = (
    (0, 0x09D0C479), (1, 0x28C8FFE0), (2, 0x84AA6C39), (3, 0x9DAD7287), (17, 0x0D72EE46),
    (265, 0xA4A8D57B), (266, 0x5B5D193B), (267, 0xC8A8309B), (268, 0x73F9A978),
)  # fmt: skip


def known_answers() -> Iterator[tuple[str, bytes, bytes, bytes]]:
    """(name, key, plaintext, ciphertext) for every typed-in example."""
    for name, key, plain, cipher in TABLE_VECTORS:
        yield name, bytes.fromhex(key), bytes.fromhex(plain), bytes.fromhex(cipher)
    for example in INTERMEDIATE_EXAMPLES:
        yield example.name, example.key, example.plaintext, example.ciphertext
