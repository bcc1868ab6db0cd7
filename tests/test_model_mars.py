"""The MARS reference model (tweaked key schedule) against IBM's vectors, Crypto++'s files and oracles.

Also tests the Crypto++ TestVectors reader of ``cipherbench.verify.kat_formats``.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from cipherbench.ciphers.mars.model import (
    FIX_TABLE,
    MARS,
    S,
    S0,
    S1,
    decrypt_block,
    decrypt_trace,
    e_function,
    encrypt_block,
    encrypt_trace,
    expand_key,
    fixing_mask,
    sbox_close_pairs,
    sbox_from_sha1,
)
from cipherbench.ciphers.mars.vectors import EXPANDED_KEYS, INTERMEDIATE_EXAMPLES, SBOX_QUOTED, known_answers
from cipherbench.errors import CipherbenchError
from cipherbench.verify.kat_formats import read_cryptopp_txt, read_kat_file, read_submission_mct
from cipherbench.verify.vectors import kat_root

sys.path.insert(0, str(Path(__file__).parent))
from oracles import mismatches, per_key, random_workload  # noqa: E402
from oracles.cryptopp import cryptopp_or_skip  # noqa: E402

CIPHER_MODEL = MARS()

# --- the S-box ----------------------------------------------------------------------------------------


def test_typed_sbox_is_the_sha1_construction() -> None:
    assert len(S) == 512 and S0 == S[:256] and S1 == S[256:]
    assert sbox_from_sha1() == S


def test_sbox_entries_quoted_in_the_specification() -> None:
    for index, value in SBOX_QUOTED:
        assert S[index] == value, index
    assert FIX_TABLE == S[265:269]


def test_sbox_design_properties() -> None:
    # Properties the designers list for S: no all-0 or all-1 word, no equal, complementary or negated
    # pair, and within S0 and within S1 any two entries differ in at least three of four bytes.
    assert not {0, 0xFFFFFFFF} & set(S)
    values = set(S)
    assert len(values) == 512
    assert not any((~w & 0xFFFFFFFF) in values or (-w & 0xFFFFFFFF) in values for w in S)
    assert sbox_close_pairs(S) == []


# --- key schedule -------------------------------------------------------------------------------------


def _literal_mask(w: int) -> int:
    """M straight from the specification's wording, bit by bit (slow, but obviously right)."""
    bits = [(w >> l) & 1 for l in range(32)]
    mask = 0
    for l in range(2, 31):
        if bits[l - 1] == bits[l] == bits[l + 1]:
            # Is bit l inside some window of ten equal bits?
            if any(len(set(bits[start : start + 10])) == 1 for start in range(max(0, l - 9), min(l, 22) + 1)):
                mask |= 1 << l
    return mask


@pytest.mark.parametrize(
    "w, mask",
    [
        (0x00000003, 0x7FFFFFF8),  # zeros in bits 2..31: their inside is 3..30 (bit 31 never counts)
        (0xFFFFFFFF, 0x7FFFFFFC),  # all ones: 2..30
        (0x000003FF, 0x7FFFF9FC),  # ten ones (inside 2..8) and 22 zeros (inside 11..30)
        (0x0FFC0003, 0x07F9FFF8),  # zeros 2..17 (inside 3..16), ones 18..27 (inside 19..26)
        (0x0FF80003, 0x0003FFF8),  # nine ones in 19..27 are too short; zeros 2..18 (inside 3..17)
        (0x55555557, 0x00000000),
    ],
)
def test_fixing_mask_marks_the_inside_of_long_runs(w: int, mask: int) -> None:
    assert fixing_mask(w) == mask == _literal_mask(w)


def test_fixing_mask_matches_the_wording_on_random_words() -> None:
    rng = random.Random(9)
    for _ in range(300):
        # Words with long runs are rare at random: draw some from a few runs of random lengths.
        w = rng.getrandbits(32) if rng.random() < 0.3 else _runs(rng)
        assert fixing_mask(w | 3) == _literal_mask(w | 3), hex(w)


def _runs(rng: random.Random) -> int:
    w, position, bit = 0, 0, rng.getrandbits(1)
    while position < 32:
        length = rng.randint(1, 14)
        if bit:
            w |= ((1 << length) - 1) << position
        position += length
        bit ^= 1
    return w & 0xFFFFFFFF


def test_multiplication_keys_have_their_low_bits_set() -> None:
    for size in (16, 24, 32):
        k = expand_key(bytes(range(size)))
        assert len(k) == 40 and all(k[i] & 3 == 3 for i in range(5, 36, 2))


@pytest.mark.parametrize("example", EXPANDED_KEYS, ids=lambda e: e.name)
def test_expanded_keys_match_ecb_vk(example) -> None:
    assert tuple(expand_key(example.key)) == example.words


# --- typed-in examples --------------------------------------------------------------------------------


@pytest.mark.parametrize("name, key, plaintext, ciphertext", list(known_answers()), ids=lambda v: str(v)[:40])
def test_typed_examples_both_directions(name: str, key: bytes, plaintext: bytes, ciphertext: bytes) -> None:
    assert encrypt_block(key, plaintext) == ciphertext, name
    assert decrypt_block(key, ciphertext) == plaintext, name


@pytest.mark.parametrize("example", INTERMEDIATE_EXAMPLES, ids=lambda e: e.name)
def test_encrypt_trace_matches_the_intermediate_values(example) -> None:
    states = encrypt_trace(example.key, example.plaintext)
    assert len(states) == 35 and states[0] == example.plaintext and states[-1] == example.ciphertext
    for index, state in example.values:
        assert states[index] == state, f"IV{index}"


@pytest.mark.parametrize("example", INTERMEDIATE_EXAMPLES, ids=lambda e: e.name)
def test_decrypt_trace_is_the_encryption_backwards(example) -> None:
    forward = encrypt_trace(example.key, example.plaintext)
    assert decrypt_trace(example.key, example.ciphertext) == forward[::-1]


def test_e_function_outputs() -> None:
    # R = ((x <<< 13) * K2) <<< 10 in all, M = (x + K1) <<< (bits of R), L starts from S[M's low 9 bits].
    def rotl(value: int, n: int) -> int:
        return ((value << n) | (value >> (32 - n))) & 0xFFFFFFFF

    x, k1, k2 = 0x12345678, 0x0BADF00D, 0x9E3779BB
    left, middle, right = e_function(x, k1, k2)
    first = rotl(rotl(x, 13) * k2 % 2**32, 5)
    assert right == rotl(first, 5)
    assert middle == rotl((x + k1) % 2**32, first & 31)
    assert left == rotl(S[(x + k1) % 512] ^ first ^ right, right & 31)
    assert e_function(0, 0, 3) == (S[0], 0, 0)


# --- the shared known-answer files ----------------------------------------------------------------------


def _kat(name: str) -> Path:
    root = kat_root()
    if root is None:
        pytest.skip("the shared kat folder is not present (set CIPHERBENCH_KAT)")
    path = root / "mars" / name
    if not path.is_file():
        pytest.skip(f"mars/{name} is not in the shared kat folder")
    return path


# (file, single-block cases, Monte Carlo records): IBM's files hold one direction per record.
KAT_FILES = [
    ("ecb_vk.txt", 128 + 192 + 256, 0),
    ("ecb_vt.txt", 3 * 128, 0),
    ("ecb_tbl.txt", 3 * 40, 0),
    ("ecb_ivt.txt", 3 * 2, 0),
    ("mars.txt", 2 * 10, 6),
    ("marsval.dat", 2 * 9, 0),
]


@pytest.mark.parametrize("name, count, monte_carlo", KAT_FILES, ids=[f[0] for f in KAT_FILES])
def test_kat_file(name: str, count: int, monte_carlo: int) -> None:
    kat = read_kat_file(_kat(name))
    assert len(kat.cases) == count and len(kat.monte_carlo) == monte_carlo
    for case in kat.cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


def test_ecb_vk_every_expanded_key() -> None:
    text = _kat("ecb_vk.txt").read_text().replace("\r", "")
    listed = re.findall(r"KEY=(\w+)\s+Expanded Key = \[([^\]]*)\]", text)
    assert len(listed) == 128 + 192 + 256
    for key_hex, words in listed:
        assert expand_key(bytes.fromhex(key_hex)) == [int(w, 16) for w in words.split()], key_hex


def test_ecb_ivt_every_intermediate_value() -> None:
    text = _kat("ecb_ivt.txt").read_text().replace("\r", "")
    sections = re.findall(
        r"(Encryption|Decryption): KEYSIZE=\d+\s+KEY=(\w+)\s+(PT|CT)=(\w+)(.*?)\n(?:CT|PT)=", text, re.DOTALL
    )
    assert len(sections) == 6
    for direction, key_hex, _, data_hex, body in sections:
        key, data = bytes.fromhex(key_hex), bytes.fromhex(data_hex)
        values = [bytes.fromhex(v.replace(" ", "")) for v in re.findall(r"IV\d+=([0-9a-f ]+)", body)]
        trace = encrypt_trace if direction == "Encryption" else decrypt_trace
        assert trace(key, data) == values, direction


@pytest.mark.parametrize("name", ["ecb_e_m.txt", "ecb_d_m.txt"])
def test_monte_carlo_first_records_are_10000_operations(name: str) -> None:
    # The inner loop of the AES-candidate Monte Carlo test alone, for the first record of each key size.
    records = read_submission_mct(_kat(name)).monte_carlo
    assert len(records) == 3 * 400
    for record in (r for r in records if r.index == 0):
        run = decrypt_block if record.decrypt else encrypt_block
        data = record.data
        for _ in range(10_000):
            data = run(record.key, data)
        assert data == record.expected, record.source


# --- reader errors (Crypto++ TestVectors) --------------------------------------------------------------


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.txt"
    path.write_text(text)
    return path


def test_cryptopp_txt_reader_values_persist(tmp_path: Path) -> None:
    c1, c2 = encrypt_block(bytes(16), bytes(16)), encrypt_block(bytes(16), b"\x01" * 16)
    text = (
        "AlgorithmType: SymmetricCipher\nName: MARS/ECB\n# a comment\nComment: first\n"
        f"Key: {'00' * 16}\nPlaintext: {'00' * 16}\nCiphertext: {c1.hex()}\nTest: Encrypt\n"
        f"Plaintext: {'01' * 16}\nCiphertext: {c2.hex()}\nTest: Encrypt\nTest: EncryptionMCT\n"
    )
    kat = read_cryptopp_txt(_write(tmp_path, text))
    assert [(c.data, c.expected, c.decrypt) for c in kat.cases] == [
        (bytes(16), c1, False), (c1, bytes(16), True), (b"\x01" * 16, c2, False), (c2, b"\x01" * 16, True),
    ]  # fmt: skip
    (record,) = kat.monte_carlo
    assert record.procedure == "cryptopp" and record.data == b"\x01" * 16 and not record.decrypt


@pytest.mark.parametrize(
    "text, message",
    [
        ("Key: 00\nTest: Encrypt\n", "Test: Encrypt without a Plaintext: value"),
        ("Key: 00\nPlaintext: 00\nCiphertext: 0\nTest: Encrypt\n", "Ciphertext has an odd number"),
        ("Key: 00\nPlaintext: 00\nCiphertext: 00\nTest: Verify\n", "unsupported test 'Verify'"),
        ("IV: 00\n", "unexpected field IV"),
        ("no colon here\n", "unreadable line"),
        ("Comment: nothing\n", "no test vectors found"),
    ],
)
def test_cryptopp_txt_reader_errors(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(CipherbenchError) as error:
        read_cryptopp_txt(path)
    assert message in str(error.value) and str(path) in str(error.value) and "\n" not in str(error.value)


# --- random blocks against independent implementations ------------------------------------------------

RANDOM_BLOCKS = 10_000
RANDOM_SEED = 1998


@pytest.fixture(scope="module", params=[128, 192, 256], ids=lambda bits: f"{bits}-bit")
def random_results(request: pytest.FixtureRequest):
    return random_workload(encrypt_block, decrypt_block, request.param, RANDOM_BLOCKS, RANDOM_SEED)


def test_random_blocks_against_katcrypt(random_results) -> None:
    mars = pytest.importorskip(
        "katcrypt.ciphers.mars", reason="katcrypt is not installed (pip install katcrypt)"
    )
    encrypted = per_key(random_results, mars.MARS, "encrypt_block")
    decrypted = per_key(random_results, mars.MARS, "decrypt_block")
    assert mismatches(random_results, encrypted, decrypted)[:3] == []


def test_random_blocks_against_cryptopp(random_results) -> None:
    oracle = cryptopp_or_skip()
    pairs = [(r.key, r.block) for r in random_results]
    found = mismatches(random_results, oracle.encrypt("mars", pairs), oracle.decrypt("mars", pairs))
    assert found[:3] == []


def test_random_round_trips_and_traces() -> None:
    for result in random_workload(encrypt_block, decrypt_block, 256, 100, RANDOM_SEED + 1, blocks_per_key=1):
        assert decrypt_block(result.key, result.encrypted) == result.block
        assert encrypt_trace(result.key, result.block)[-1] == result.encrypted
        assert decrypt_trace(result.key, result.encrypted)[-1] == result.block
