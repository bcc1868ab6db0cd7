"""Known answers typed from the Twofish paper (Schneier et al., 1998, appendix), so the model is checked
anywhere.

Sources (the appendix text, where provided, is ``$CIPHERBENCH_KAT/twofish/ecb_ival.txt``): the intermediate-value
file ``ecb_ival.txt`` (key schedule and per-round values for one key of each size) and the chained
full-encryption file ``ecb_tbl.txt`` (49 entries per key size; each plaintext is the previous
ciphertext and each key is made of the ciphertexts two and three entries back). Hex strings are bytes;
the intermediate values are 32-bit words, printed as numbers, of the little-endian block.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class IntermediateExample:
    """One ecb_ival.txt section: the key, S-box key words S_0, S_1, ..., all 40 subkeys, some rounds.

    ``round_words`` are (r, words of R[r]) for r in -1..17 as printed: R[-1] is the plaintext, R[0]
    after input whitening, R[1]..R[16] after each round (halves swapped back on odd rounds, as the
    reference keeps them in place), R[17] the ciphertext words.
    """

    name: str
    key: bytes
    sbox_words: tuple[int, ...]  # S_0 first, as printed
    subkeys: tuple[int, ...]  # K_0 .. K_39
    plaintext: bytes
    ciphertext: bytes
    round_words: tuple[tuple[int, tuple[int, int, int, int]], ...]


IVAL_128 = IntermediateExample(
    name="ecb_ival.txt KEYSIZE=128",
    key=bytes(16),
    sbox_words=(0x00000000, 0x00000000),
    subkeys=(
        0x52C54DDE, 0x11F0626D, 0x7CAC9D4A, 0x4D1B4AAA, 0xB7B83A10, 0x1E7D0BEB, 0xEE9C341F, 0xCFE14BE4,
        0xF98FFEF9, 0x9C5B3C17, 0x15A48310, 0x342A4D81, 0x424D89FE, 0xC14724A7, 0x311B834C, 0xFDE87320,
        0x3302778F, 0x26CD67B4, 0x7A6C6362, 0xC2BAF60E, 0x3411B994, 0xD972C87F, 0x84ADB1EA, 0xA7DEE434,
        0x54D2960F, 0xA2F7CAA8, 0xA6B8FF8C, 0x8014C425, 0x6A748D1C, 0xEDBAF720, 0x928EF78C, 0x0338EE13,
        0x9949D6BE, 0xC8314176, 0x07C07D68, 0xECAE7EA7, 0x1FE71844, 0x85C05C89, 0xF298311E, 0x696EA672,
    ),
    plaintext=bytes(16),
    ciphertext=bytes.fromhex("9F589F5CF6122C32B6BFEC2F2AE8C35A"),
    round_words=(
        (-1, (0x00000000, 0x00000000, 0x00000000, 0x00000000)),
        (0, (0x52C54DDE, 0x11F0626D, 0x7CAC9D4A, 0x4D1B4AAA)),
        (1, (0x52C54DDE, 0x11F0626D, 0xC38DCAA4, 0x7A0A91B6)),
        (2, (0x55A538DE, 0x5C5A4DB6, 0xC38DCAA4, 0x7A0A91B6)),
        (3, (0x55A538DE, 0x5C5A4DB6, 0x899063BD, 0x893E49A9)),
        (8, (0xA85CE579, 0xDE2661CE, 0xCD0D38A1, 0xC069BD9B)),
        (15, (0xB0681C46, 0x606D0273, 0xEB27628F, 0x2C51191D)),
        (16, (0xC1708BA9, 0x9522A3CE, 0xEB27628F, 0x2C51191D)),
        (17, (0x5C9F589F, 0x322C12F6, 0x2FECBFB6, 0x5AC3E82A)),
    ),
)  # fmt: skip

IVAL_192 = IntermediateExample(
    name="ecb_ival.txt KEYSIZE=192",
    key=bytes.fromhex("0123456789ABCDEFFEDCBA98765432100011223344556677"),
    sbox_words=(0xB89FF6F2, 0xB255BC4B, 0x45661061),
    subkeys=(
        0x38394A24, 0xC36D1175, 0xE802528F, 0x219BFEB4, 0xB9141AB4, 0xBD3E70CD, 0xAF609383, 0xFD36908A,
        0x03EFB931, 0x1D2EE7EC, 0xA7489D55, 0x6E44B6E8, 0x714AD667, 0x653AD51F, 0xB6315B66, 0xB27C05AF,
        0xA06C8140, 0x9853D419, 0x4016E346, 0x8D1C0DD4, 0xF05480BE, 0xB6AF816F, 0x2D7DC789, 0x45B7BD3A,
        0x57F8A163, 0x2BEFDA69, 0x26AE7271, 0xC2900D79, 0xED323794, 0x3D3FFD80, 0x5DE68E49, 0x9C3D2478,
        0xDF326FE3, 0x5911F70D, 0xC229F13B, 0xB1364772, 0x4235364D, 0x0CEC363A, 0x57C8DD1F, 0x6A1AD61E,
    ),
    plaintext=bytes(16),
    ciphertext=bytes.fromhex("CFD1D2E5A9BE9CDF501F13B892BD2248"),
    round_words=(
        (0, (0x38394A24, 0xC36D1175, 0xE802528F, 0x219BFEB4)),
        (1, (0x38394A24, 0xC36D1175, 0x9C263D67, 0x5E68BE8F)),
        (2, (0xC8F5099F, 0x0C4B8F53, 0x9C263D67, 0x5E68BE8F)),
        (16, (0x17738CD3, 0xB5142D18, 0x5CC6CB7B, 0x62A2CE64)),
        (17, (0xE5D2D1CF, 0xDF9CBEA9, 0xB8131F50, 0x4822BD92)),
    ),
)  # fmt: skip

IVAL_256 = IntermediateExample(
    name="ecb_ival.txt KEYSIZE=256",
    key=bytes.fromhex("0123456789ABCDEFFEDCBA987654321000112233445566778899AABBCCDDEEFF"),
    sbox_words=(0xB89FF6F2, 0xB255BC4B, 0x45661061, 0x8E4447F7),
    subkeys=(
        0x5EC769BF, 0x44D13C60, 0x76CD39B1, 0x16750474, 0x349C294B, 0xEC21F6D6, 0x4FBD10B4, 0x578DA0ED,
        0xC3479695, 0x9B6958FB, 0x6A7FBC4E, 0x0BF1830B, 0x61B5E0FB, 0xD78D9730, 0x7C6CF0C4, 0x2F9109C8,
        0xE69EA8D1, 0xED99BDFF, 0x35DC0BBD, 0xA03E5018, 0xFB18EA0B, 0x38BD43D3, 0x76191781, 0x37A9A0D3,
        0x72427BEA, 0x911CC0B8, 0xF1689449, 0x71009CA9, 0xB6363E89, 0x494D9855, 0x590BBC63, 0xF95A28B5,
        0xFB72B4E1, 0x2A43505C, 0xBFD34176, 0x5C133D12, 0x3A9247F7, 0x9A3331DD, 0xEE7515E6, 0xF0D54DCD,
    ),
    plaintext=bytes(16),
    ciphertext=bytes.fromhex("37527BE0052334B89F0CFCCAE87CFA20"),
    round_words=(),
)  # fmt: skip

INTERMEDIATE_EXAMPLES: tuple[IntermediateExample, ...] = (IVAL_128, IVAL_192, IVAL_256)


@dataclass(frozen=True)
class ChainedTable:
    """ecb_tbl.txt for one key size: the first entries as printed and the 49th (last) ciphertext."""

    key_bits: int
    first: tuple[tuple[bytes, bytes, bytes], ...]  # (key, plaintext, ciphertext) for I = 1, 2, 3
    last_ciphertext: bytes  # CT of I = 49


def _entries(*rows: tuple[str, str, str]) -> tuple[tuple[bytes, bytes, bytes], ...]:
    return tuple((bytes.fromhex(k), bytes.fromhex(p), bytes.fromhex(c)) for k, p, c in rows)


CHAINED_TABLES: tuple[ChainedTable, ...] = (
    ChainedTable(
        128,
        _entries(
            ("00000000000000000000000000000000", "00000000000000000000000000000000",
             "9F589F5CF6122C32B6BFEC2F2AE8C35A"),
            ("00000000000000000000000000000000", "9F589F5CF6122C32B6BFEC2F2AE8C35A",
             "D491DB16E7B1C39E86CB086B789F5419"),
            ("9F589F5CF6122C32B6BFEC2F2AE8C35A", "D491DB16E7B1C39E86CB086B789F5419",
             "019F9809DE1711858FAAC3A3BA20FBC3"),
        ),
        bytes.fromhex("5D9D4EEFFA9151575524F115815A12E0"),
    ),
    ChainedTable(
        192,
        _entries(
            ("000000000000000000000000000000000000000000000000", "00000000000000000000000000000000",
             "EFA71F788965BD4453F860178FC19101"),
            ("000000000000000000000000000000000000000000000000", "EFA71F788965BD4453F860178FC19101",
             "88B2B2706B105E36B446BB6D731A1E88"),
            ("EFA71F788965BD4453F860178FC191010000000000000000", "88B2B2706B105E36B446BB6D731A1E88",
             "39DA69D6BA4997D585B6DC073CA341B2"),
        ),
        bytes.fromhex("E75449212BEEF9F4A390BD860A640941"),
    ),
    ChainedTable(
        256,
        _entries(
            ("0000000000000000000000000000000000000000000000000000000000000000",
             "00000000000000000000000000000000", "57FF739D4DC92C1BD7FC01700CC8216F"),
            ("0000000000000000000000000000000000000000000000000000000000000000",
             "57FF739D4DC92C1BD7FC01700CC8216F", "D43BB7556EA32E46F2A282B7D45B4E0D"),
            ("57FF739D4DC92C1BD7FC01700CC8216F00000000000000000000000000000000",
             "D43BB7556EA32E46F2A282B7D45B4E0D", "90AFE91BB288544F2C32DC239B2635E6"),
        ),
        bytes.fromhex("37FE26FF1CF66175F5DDF4C33B97A205"),
    ),
)  # fmt: skip

# Entry i of ecb_tbl encrypts C[i-1] under the key C[i-2] || C[i-3] cut to size, with C[0], C[-1] and
# C[-2] all zero: the 49th ciphertext thus checks 49 chained encryptions and 49 key schedules.
CHAIN_LENGTH = 49


def known_answers() -> Iterator[tuple[str, bytes, bytes, bytes]]:
    """(name, key, plaintext, ciphertext) for every typed-in example."""
    for example in INTERMEDIATE_EXAMPLES:
        yield example.name, example.key, example.plaintext, example.ciphertext
    for table in CHAINED_TABLES:
        for index, (key, plain, cipher) in enumerate(table.first, start=1):
            yield f"ecb_tbl.txt KEYSIZE={table.key_bits} I={index}", key, plain, cipher
