"""GIFT-128 known answers, typed in from the designers' published test vectors.

Source: the GIFT designers' repository (github.com/giftcipher/gift, linked from the GIFT page),
``implementations/test vectors/GIFT128_test_vector_{1,2,3}.txt``: plaintext, master key and
ciphertext, with the state after SubCells, PermBits and AddRoundKeys and the updated key of every
round. They print the specification's bit order (byte 0 is b127 .. b120; the key k7 first), the
order of the model and the ports. The CHES 2017 paper itself prints no GIFT-128 test vector.

INTERMEDIATE holds a few of the printed round values, to check the model's steps one by one.
"""

from __future__ import annotations

from collections.abc import Iterator

# (source, key, plaintext, ciphertext)
KNOWN_ANSWERS: tuple[tuple[str, str, str, str], ...] = (
    ("GIFT128_test_vector_1", "00000000000000000000000000000000",
     "00000000000000000000000000000000", "cd0bd738388ad3f668b15a36ceb6ff92"),
    ("GIFT128_test_vector_2", "fedcba9876543210fedcba9876543210",
     "fedcba9876543210fedcba9876543210", "8422241a6dbf5a9346af468409ee0152"),
    ("GIFT128_test_vector_3", "d0f5c59a7700d3e799028fa9f90ad837",
     "e39c141fa57dba43f08a85b6a91f86c1", "13ede67cbdcc3dbf400a62d6977265ea"),
)

# (vector index into KNOWN_ANSWERS, round as printed (0-based), after SubCells, after PermBits,
# after AddRoundKeys, updated key)
INTERMEDIATE: tuple[tuple[int, int, str, str, str, str], ...] = (
    (0, 0, "11111111111111111111111111111111", "11111111111111111111111111111111",
     "91111111111111111111111111111119", "00000000000000000000000000000000"),
    (1, 0, "e8057bd293f6c4a1e8057bd293f6c4a1", "473447346bd86bd88f708f7090af90af",
     "c15241546dde6dd88f168f1090a990a7", "1d952103fedcba9876543210fedcba98"),
    (1, 1, "5af46af6300830022ea32ea1d1bdd1b9", "778022ddce22aad9de13a811220077bb",
     "91e644bda824ccd9be75c87142061733", "3fb7a98b1d952103fedcba9876543210"),
    (2, 39, "a5bd05b724cdeab8830861a77bf085ac", "918fa478fdea1fbd024802d0f75a832e",
     "13ede67cbdcc3dbf400a62d6977265ea", "5d0f9ac50770e7d32990a98faf9037d8"),
)


def known_answers() -> Iterator[tuple[str, bytes, bytes, bytes]]:
    """(name, key, plaintext, ciphertext) of every typed-in vector."""
    for source, key, plain, cipher in KNOWN_ANSWERS:
        yield source, bytes.fromhex(key), bytes.fromhex(plain), bytes.fromhex(cipher)
