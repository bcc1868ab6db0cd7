"""Known answers typed from the Serpent submission package and NESSIE, so the model is checked anywhere.

Sources (read from ``$CIPHERBENCH_KAT/serpent`` where provided): the AES-submission package's ``ecb_iv.txt`` (intermediate
values, one key per size), ``ecb_vk.txt`` and ``ecb_vt.txt`` (first entries), and NESSIE's
``Serpent-*-128.verified.test-vectors`` (set 1 vector 0, set 4 vector 0). The submission files print
numbers: their values are kept here as printed (``*_number`` fields, ints) and converted with
``from_submission_hex`` where the model needs bytes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .model import from_submission_hex


@dataclass(frozen=True)
class SubmissionExample:
    """One ecb_iv.txt block: key, plaintext and ciphertext as printed, with some intermediate values.

    ``round_values`` are (r, R[r]): the state after round r in the standard representation (the
    bitsliced state after IP). ``subkeys`` are (i, SK[i]): the bitsliced round key K_i as a number
    (word X_0 least significant); ``standard_subkeys`` are (i, SK^[i]) = IP(K_i).
    """

    name: str
    key_hex: str
    plaintext_hex: str
    ciphertext_hex: str
    round_values: tuple[tuple[int, int], ...]
    subkeys: tuple[tuple[int, int], ...]
    standard_subkeys: tuple[tuple[int, int], ...]

    @property
    def key(self) -> bytes:
        return from_submission_hex(self.key_hex)

    @property
    def plaintext(self) -> bytes:
        return from_submission_hex(self.plaintext_hex)

    @property
    def ciphertext(self) -> bytes:
        return from_submission_hex(self.ciphertext_hex)


ECB_IV_128 = SubmissionExample(
    name="ecb_iv.txt KEYSIZE=128",
    key_hex="00112233445566778899aabbccddeeff",
    plaintext_hex="0123456789abcdeffedcba9876543210",
    ciphertext_hex="929dd890dcc881c9a7d8b94b0aa0bad5",
    round_values=(
        (0, 0x4FCB58B3308DAC762CE01BE9B635DCCD),
        (1, 0x05F9FE5D51A3BDFF9F0DEAC7AA7632AE),
        (15, 0xF9E837971189310C3A3F3189ED624DD3),
        (30, 0xDC623C1890FAAD8028156CDC3B0BA730),
        (31, 0xE42C56B2F61AE808F83BB016D7096127),
    ),
    subkeys=(
        (0, 0xD4D39167A8979CBAA3CBA7CAD57F32E7),
        (1, 0xB8E69D0B2E8CDA3B01E9E753557FDF82),
        (32, 0x3C3DC2B5A37A04F0801FD85D1D40BA92),
    ),
    standard_subkeys=((0, 0xF9694923EB1D35FFE03D463A7BD469F9), (32, 0x60C9994505CEEA6ABA133490D6CF2A1A)),
)

ECB_IV_192 = SubmissionExample(
    name="ecb_iv.txt KEYSIZE=192",
    key_hex="00112233445566778899aabbccddeeffffeeddccbbaa9988",
    plaintext_hex="0123456789abcdeffedcba9876543210",
    ciphertext_hex="9a873410c7a404f42b8020b7420886da",
    round_values=(
        (0, 0x3985713E9B7A720F7E1824644150479F),
        (15, 0xB9E5CAD69975638E9EC82D1BCB404A3E),
        (31, 0xC528A4F6E0401C8810A80D10756F1632),
    ),
    subkeys=((0, 0xF7C238E9BC89645DE03A10CAF386B91D), (32, 0x65A07EF2150052D044EF7869F56F4867)),
    standard_subkeys=((0, 0xFBFD4C99D82261B414DB9401AE85F52D),),
)

ECB_IV_256 = SubmissionExample(
    name="ecb_iv.txt KEYSIZE=256",
    key_hex="00112233445566778899aabbccddeeffffeeddccbbaa99887766554433221100",
    plaintext_hex="0123456789abcdeffedcba9876543210",
    ciphertext_hex="ca7fa193e3eb9e99bd87e3af3c9adf93",
    round_values=(
        (0, 0xA4C994F6CC9D73E62CD6C105797AA693),
        (15, 0x1D7D10CC6A9C01B7D95308056E10DE96),
        (31, 0xEC73B3C67CC9DAFEF3A5557BF02D62BF),
    ),
    subkeys=((0, 0x7C0FAAEDCEF154DE28B151F26FAAC016), (32, 0x3E4ADD777DAB047E12B3E34B4583C600)),
    standard_subkeys=((0, 0x4DB8FD517476989E97868482EEA7CD78),),
)

SUBMISSION_EXAMPLES: tuple[SubmissionExample, ...] = (ECB_IV_128, ECB_IV_192, ECB_IV_256)

# ecb_iv.txt also decrypts the pattern itself: D_K(0123...3210) as printed, per key size.
DECRYPTED_PATTERN = (
    (ECB_IV_128, "24ccd5dce9b7ca5db97631668b0b5f14"),
    (ECB_IV_192, "2c20275d2239423e95178cd9d06b69b2"),
    (ECB_IV_256, "c383cae048794003205abfe101b865e9"),
)

# ecb_vk.txt I=1 (KEY = the number 2^(n-1), PT = 0) and ecb_vt.txt I=1 (KEY = 0, PT = 2^127), as printed.
SUBMISSION_VK_VT = (
    ("ecb_vk.txt KEYSIZE=128 I=1", "80000000000000000000000000000000", "00000000000000000000000000000000",
     "49afbfad9d5a34052cd8ffa5986bd2dd"),
    ("ecb_vk.txt KEYSIZE=192 I=1", "800000000000000000000000000000000000000000000000",
     "00000000000000000000000000000000", "e78e5402c7195568ac3678f7a3f60c66"),
    ("ecb_vt.txt KEYSIZE=128 I=1", "00000000000000000000000000000000", "80000000000000000000000000000000",
     "10b5ffb720b8cb9002a1142b0ba2e94a"),
)  # fmt: skip

# NESSIE byte strings: (name, key, plaintext, ciphertext, iterated 100 times, iterated 1000 times).
NESSIE = (
    ("NESSIE 128 set 1 vector 0", "80000000000000000000000000000000", "00000000000000000000000000000000",
     "264E5481EFF42A4606ABDA06C0BFDA3D",
     "EFE6F058D74E357A1CA935D35E0E4F24", "1036FF0164E192D27AF351734141994A"),
    ("NESSIE 128 set 4 vector 0", "000102030405060708090A0B0C0D0E0F", "00112233445566778899AABBCCDDEEFF",
     "563E2CF8740A27C164804560391E9B27",
     "70795D35DEC6561F8AD83B2F454F9CC5", "4EA3765A7C3A94786850DF4812249718"),
    ("NESSIE 192 set 4 vector 0", "000102030405060708090A0B0C0D0E0F1011121314151617",
     "00112233445566778899AABBCCDDEEFF", "6AB816C82DE53B93005008AFA2246A02",
     "D8789291A6307A1DFCFB310CB5CEE8E1", "D4D1005991ACF56FDD6C45ED867CD679"),
    ("NESSIE 256 set 4 vector 0", "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
     "00112233445566778899AABBCCDDEEFF", "2868B7A2D28ECD5E4FDEFAC3C4330074",
     "8BF56992354F3F1A0F4E49DCBA82CBC0", "9B1D8B34845DF9BFD36AAAD0CDA1C8FE"),
)  # fmt: skip


def known_answers() -> Iterator[tuple[str, bytes, bytes, bytes]]:
    """(name, key, plaintext, ciphertext) in the model's byte order, every typed-in example."""
    for example in SUBMISSION_EXAMPLES:
        yield example.name, example.key, example.plaintext, example.ciphertext
    for example, plain_hex in DECRYPTED_PATTERN:
        # The decryption of the pattern: the pattern is the ciphertext of the printed plaintext.
        yield (
            f"{example.name} decrypted pattern",
            example.key,
            from_submission_hex(plain_hex),
            example.plaintext,
        )
    for name, key_hex, plain_hex, cipher_hex in SUBMISSION_VK_VT:
        yield (
            name,
            from_submission_hex(key_hex),
            from_submission_hex(plain_hex),
            from_submission_hex(cipher_hex),
        )
    for name, key_hex, plain_hex, cipher_hex, _, _ in NESSIE:
        yield name, bytes.fromhex(key_hex), bytes.fromhex(plain_hex), bytes.fromhex(cipher_hex)
