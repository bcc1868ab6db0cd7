"""The Twofish reference model against the Twofish paper, Botan, Crypto++ and independent implementations.

Also tests the Botan ``.vec`` and Crypto++ ``.dat`` readers of ``cipherbench.verify.kat_formats``.
"""

from __future__ import annotations

import re
import struct
import sys
import warnings
from pathlib import Path

import pytest

from cipherbench.ciphers.twofish.model import (
    MDS,
    MDS_POLYNOMIAL,
    Q0,
    Q1,
    RS_POLYNOMIAL,
    Twofish,
    decrypt_block,
    decrypt_trace,
    encrypt_block,
    encrypt_trace,
    expand_key,
    g,
    gf_mul,
    h,
    key_dependent_sbox,
    mds_multiply,
    rs_multiply,
    sbox_key_words,
)
from cipherbench.ciphers.twofish.vectors import (
    CHAIN_LENGTH,
    CHAINED_TABLES,
    INTERMEDIATE_EXAMPLES,
    known_answers,
)
from cipherbench.errors import CipherbenchError
from cipherbench.verify.kat_formats import read_botan_vec, read_cryptopp_dat, read_kat_file
from cipherbench.verify.vectors import kat_root

sys.path.insert(0, str(Path(__file__).parent))
from oracles import mismatches, per_key, random_workload  # noqa: E402
from oracles.cryptopp import cryptopp_or_skip  # noqa: E402

CIPHER_MODEL = Twofish()

# --- primitives ---------------------------------------------------------------------------------------


def test_q_permutations() -> None:
    assert sorted(Q0) == sorted(Q1) == list(range(256))
    # First and last entries of the q0 and q1 tables printed in the paper.
    assert Q0[:4] == (0xA9, 0x67, 0xB3, 0xE8) and Q0[-1] == 0xE0
    assert Q1[:4] == (0x75, 0xF3, 0xC6, 0xF4) and Q1[-1] == 0x91


def test_field_multiplications() -> None:
    assert gf_mul(0x80, 0x02, MDS_POLYNOMIAL) == 0x69  # x^8 = x^6 + x^5 + x^3 + 1
    assert gf_mul(0x80, 0x02, RS_POLYNOMIAL) == 0x4D  # x^8 = x^6 + x^3 + x^2 + 1
    for polynomial in (MDS_POLYNOMIAL, RS_POLYNOMIAL):
        assert all(gf_mul(a, 1, polynomial) == a for a in range(256))
        assert gf_mul(0x57, 0x83, polynomial) == gf_mul(0x83, 0x57, polynomial)


def test_mds_columns_and_linearity() -> None:
    for column in range(4):
        unit = [0, 0, 0, 0]
        unit[column] = 1
        assert mds_multiply(tuple(unit)) == sum(MDS[row][column] << (8 * row) for row in range(4))  # type: ignore[arg-type]
    a, b = (1, 2, 3, 4), (0x80, 0x40, 0x20, 0x10)
    assert mds_multiply(a) ^ mds_multiply(b) == mds_multiply(tuple(x ^ y for x, y in zip(a, b)))  # type: ignore[arg-type]


def test_rs_code_of_the_zero_and_unit_keys() -> None:
    assert rs_multiply(bytes(8)) == 0
    assert rs_multiply(b"\x01" + bytes(7)) == 0xA402A401  # first column (01, A4, 02, A4), little-endian


def test_key_dependent_sboxes_are_permutations_and_give_g() -> None:
    key = bytes(range(32))
    boxes = [key_dependent_sbox(i, tuple(sbox_key_words(key))) for i in range(4)]
    assert all(sorted(box) == list(range(256)) for box in boxes)
    for x in (0, 0x01020304, 0xDEADBEEF, 0xFFFFFFFF):
        assert g(key, x) == h(x, tuple(sbox_key_words(key)))


# --- key schedule and typed-in examples ---------------------------------------------------------------


@pytest.mark.parametrize("example", INTERMEDIATE_EXAMPLES, ids=lambda e: e.name)
def test_subkeys_and_sbox_keys_match_ecb_ival(example) -> None:
    assert tuple(expand_key(example.key)) == example.subkeys
    assert tuple(reversed(sbox_key_words(example.key))) == example.sbox_words


@pytest.mark.parametrize("name, key, plaintext, ciphertext", list(known_answers()), ids=lambda v: str(v)[:40])
def test_typed_examples_both_directions(name: str, key: bytes, plaintext: bytes, ciphertext: bytes) -> None:
    assert encrypt_block(key, plaintext) == ciphertext, name
    assert decrypt_block(key, ciphertext) == plaintext, name


@pytest.mark.parametrize("example", INTERMEDIATE_EXAMPLES, ids=lambda e: e.name)
def test_encrypt_trace_matches_the_round_values(example) -> None:
    states = encrypt_trace(example.key, example.plaintext)
    assert len(states) == 18 and states[-1] == example.ciphertext
    for index, words in example.round_words:
        state = example.plaintext if index == -1 else states[index]
        assert struct.unpack("<4I", state) == words, f"R[{index}]"


@pytest.mark.parametrize("example", INTERMEDIATE_EXAMPLES, ids=lambda e: e.name)
def test_decrypt_trace_is_the_encryption_backwards(example) -> None:
    forward = encrypt_trace(example.key, example.plaintext)
    assert decrypt_trace(example.key, example.ciphertext) == forward[-2::-1] + [example.plaintext]


@pytest.mark.parametrize("table", CHAINED_TABLES, ids=lambda t: f"{t.key_bits}-bit")
def test_chained_table_to_its_last_entry(table) -> None:
    ciphertexts = [bytes(16)] * 3  # C[-2], C[-1], C[0]
    for index in range(CHAIN_LENGTH):
        key = (ciphertexts[-2] + ciphertexts[-3])[: table.key_bits // 8]
        plaintext = ciphertexts[-1]
        if index < len(table.first):
            assert (key, plaintext, encrypt_block(key, plaintext)) == table.first[index]
        ciphertexts.append(encrypt_block(key, plaintext))
    assert ciphertexts[-1] == table.last_ciphertext


# --- the shared known-answer files ----------------------------------------------------------------------


def _kat(name: str) -> Path:
    root = kat_root()
    if root is None:
        pytest.skip("the shared kat folder is not present (set CIPHERBENCH_KAT)")
    path = root / "twofish" / name
    if not path.is_file():
        pytest.skip(f"twofish/{name} is not in the shared kat folder")
    return path


# (file, cases): ecb_ival.txt holds the paper's ecb_tbl part (12 records per key size, the rest elided).
KAT_FILES = [("ecb_ival.txt", 3 * 12), ("twofish.vec", 2 * 1107), ("twofishv.dat", 2 * 9)]


@pytest.mark.parametrize("name, count", KAT_FILES, ids=[f[0] for f in KAT_FILES])
def test_kat_file(name: str, count: int) -> None:
    kat = read_kat_file(_kat(name))
    assert len(kat.cases) == count
    for case in kat.cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


def test_ecb_ival_every_round_value() -> None:
    text = _kat("ecb_ival.txt").read_text().replace("\r", "")
    sections = re.findall(
        r"KEYSIZE=\d+\s+KEY=(\w+)(.*?)\nPT=(\w+)\s+Encrypt\(\)(.*?)\nCT=(\w+)", text, re.DOTALL
    )
    assert len(sections) == 3
    for key_hex, schedule, plain_hex, rounds, cipher_hex in sections:
        key = bytes.fromhex(key_hex)
        pairs = re.findall(r"^;\s+([0-9A-F]{8}) ([0-9A-F]{8})", schedule, re.MULTILINE)
        subkeys = [int(word, 16) for pair in pairs for word in pair]
        # The key-schedule listing pairs key words with S-box words first, then the 40 subkeys.
        assert subkeys[-40:] == expand_key(key) and len(subkeys) == len(key) // 4 + 40
        states = encrypt_trace(key, bytes.fromhex(plain_hex))
        printed = re.findall(r"R\[\s*(-?\d+)\]: x= (\w+)\s+(\w+)\s+(\w+)\s+(\w+)\.", rounds)
        assert len(printed) == 19
        for index, *words in printed:
            if int(index) >= 0:
                assert struct.unpack("<4I", states[int(index)]) == tuple(int(w, 16) for w in words), index
        assert states[-1] == bytes.fromhex(cipher_hex)


# --- reader errors (Botan .vec and Crypto++ .dat) -------------------------------------------------------


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_botan_reader_splits_multi_block_records(tmp_path: Path) -> None:
    c1 = encrypt_block(bytes(16), bytes(16))
    c2 = encrypt_block(bytes(16), c1)
    text = (
        f"# comment\n[Twofish]\nKey = {'00' * 16}\nIn = {'00' * 16}{c1.hex()}\nOut = {c1.hex()}{c2.hex()}\n"
    )
    cases = read_botan_vec(_write(tmp_path, "t.vec", text)).cases
    assert len(cases) == 4 and [c.decrypt for c in cases] == [False, True, False, True]
    assert cases[2].data == c1 and cases[2].expected == c2 and cases[2].source.endswith("block 2/2")


@pytest.mark.parametrize(
    "text, message",
    [
        ("[T]\nKey = 00\nIn = 0011\n", "record has no Out"),
        ("[T]\nKey = 00\nIn = 00\nOut = 0011\n", "input and output lengths differ"),
        (
            "[T]\nKey = 00\nIn = " + "00" * 20 + "\nOut = " + "00" * 20 + "\n",
            "not a whole number of 16-byte blocks",
        ),
        ("[T]\nNonce = 00\n", "unexpected line 'Nonce = 00'"),
        ("[T]\nKey = 0g\nIn = 00\nOut = 00\n", "Key is not hex"),
        ("# nothing\n", "no test vectors found"),
    ],
)
def test_botan_reader_errors(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, "t.vec", text)
    with pytest.raises(CipherbenchError) as error:
        read_botan_vec(path)
    assert message in str(error.value) and str(path) in str(error.value) and "\n" not in str(error.value)


def test_cryptopp_dat_reader_layouts(tmp_path: Path) -> None:
    triples = _write(tmp_path, "a.dat", "0011 2233 4455\r\n\r\n6677\n  8899 aabb\n")
    assert [(c.key.hex(), c.data.hex(), c.expected.hex()) for c in read_cryptopp_dat(triples).cases[::2]] == [
        ("0011", "2233", "4455"),
        ("6677", "8899", "aabb"),
    ]
    spaced = _write(tmp_path, "b.dat", "01 23 45 67\n89 AB\nCD EF\n\n")
    (enc, dec) = read_cryptopp_dat(spaced).cases
    assert (enc.key, enc.data, enc.expected, dec.decrypt) == (
        bytes.fromhex("01234567"),
        b"\x89\xab",
        b"\xcd\xef",
        True,
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("00 11\n", "value(s) left over"),
        ("0011 22 3344\n", "lengths differ"),
        ("0011 2233 zzzz\n", "is not hex"),
        ("\n", "no test vectors"),
    ],
)
def test_cryptopp_dat_reader_errors(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, "x.dat", text)
    with pytest.raises(CipherbenchError) as error:
        read_cryptopp_dat(path)
    assert message in str(error.value) and "\n" not in str(error.value)


# --- random blocks against independent implementations ------------------------------------------------

RANDOM_BLOCKS = 10_000
RANDOM_SEED = 1998


@pytest.fixture(scope="module", params=[128, 192, 256], ids=lambda bits: f"{bits}-bit")
def random_results(request: pytest.FixtureRequest):
    return random_workload(encrypt_block, decrypt_block, request.param, RANDOM_BLOCKS, RANDOM_SEED)


def test_random_blocks_against_pypi_twofish(random_results) -> None:
    # The PyPI "twofish" package wraps Niels Ferguson's C implementation; it takes all three key sizes.
    with warnings.catch_warnings():  # twofish 0.3 still imports the deprecated "imp" module
        warnings.simplefilter("ignore", DeprecationWarning)
        twofish = pytest.importorskip("twofish", reason="twofish is not installed (pip install twofish)")
    encrypted = per_key(random_results, twofish.Twofish, "encrypt")
    decrypted = per_key(random_results, twofish.Twofish, "decrypt")
    assert mismatches(random_results, encrypted, decrypted)[:3] == []


def test_random_blocks_against_cryptopp(random_results) -> None:
    oracle = cryptopp_or_skip()
    pairs = [(r.key, r.block) for r in random_results]
    found = mismatches(random_results, oracle.encrypt("twofish", pairs), oracle.decrypt("twofish", pairs))
    assert found[:3] == []


def test_random_round_trips_and_traces() -> None:
    for result in random_workload(encrypt_block, decrypt_block, 192, 100, RANDOM_SEED + 1, blocks_per_key=1):
        assert decrypt_block(result.key, result.encrypted) == result.block
        assert encrypt_trace(result.key, result.block)[-1] == result.encrypted
        assert decrypt_trace(result.key, result.encrypted)[-1] == result.block
