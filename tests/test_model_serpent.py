"""The Serpent reference model against the submission package, NESSIE, Crypto++, Botan and oracles.

Also tests the AES-candidate submission and NESSIE readers of ``cipherbench.verify.kat_formats``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cipherbench.ciphers.serpent.model import (
    INVERSE_SBOXES,
    PHI,
    SBOXES,
    Serpent,
    apply_sbox,
    bitslice_to_standard,
    bytes_of,
    decrypt_block,
    decrypt_trace,
    encrypt_block,
    encrypt_trace,
    expand_key,
    from_submission_hex,
    inverse_linear_transform,
    linear_transform,
    padded_key,
    prekeys,
    round_keys,
    standard_to_bitslice,
    to_submission_hex,
    words_of,
)
from cipherbench.ciphers.serpent.vectors import DECRYPTED_PATTERN, NESSIE, SUBMISSION_EXAMPLES, known_answers
from cipherbench.errors import CipherbenchError
from cipherbench.verify.kat_formats import (
    iterate,
    read_kat_file,
    read_nessie,
    read_submission,
    read_submission_mct,
)
from cipherbench.verify.vectors import kat_root

sys.path.insert(0, str(Path(__file__).parent))
from oracles import mismatches, per_key, random_workload  # noqa: E402
from oracles.cryptopp import cryptopp_or_skip  # noqa: E402

CIPHER_MODEL = Serpent()

# --- primitives ---------------------------------------------------------------------------------------


def test_sboxes_are_permutations_with_inverses() -> None:
    assert len(SBOXES) == len(INVERSE_SBOXES) == 8
    for box, inverse in zip(SBOXES, INVERSE_SBOXES):
        assert sorted(box) == list(range(16))
        assert all(inverse[box[x]] == x for x in range(16))


def test_sbox_entries_quoted_in_the_specification() -> None:
    assert SBOXES[0][:4] == (3, 8, 15, 1) and SBOXES[7][-4:] == (9, 3, 5, 6)


@pytest.mark.parametrize("index", range(8))
def test_bitsliced_sbox_applies_the_table_in_every_lane(index: int) -> None:
    # Lane j of the four words holds nibble j: give every lane a different input and read them back.
    nibbles = [(7 * j + index) % 16 for j in range(32)]
    words = tuple(sum(((n >> bit) & 1) << j for j, n in enumerate(nibbles)) for bit in range(4))
    out = apply_sbox(index, words)  # type: ignore[arg-type]
    for j, n in enumerate(nibbles):
        assert sum(((out[bit] >> j) & 1) << bit for bit in range(4)) == SBOXES[index][n]


def test_linear_transform_inverts() -> None:
    words = (0x01234567, 0x89ABCDEF, 0xDEADBEEF, 0x0F1E2D3C)
    assert inverse_linear_transform(*linear_transform(*words)) == words


def test_standard_and_bitslice_forms_are_inverse_permutations() -> None:
    words = (0x01234567, 0x89ABCDEF, 0xDEADBEEF, 0x0F1E2D3C)
    assert standard_to_bitslice(bitslice_to_standard(words)) == words
    assert bitslice_to_standard((1, 0, 0, 0)) == 1 and bitslice_to_standard((0, 1, 0, 0)) == 2
    assert bitslice_to_standard((2, 0, 0, 0)) == 16


# --- key schedule -------------------------------------------------------------------------------------


def test_short_keys_are_padded_with_a_one_bit() -> None:
    assert padded_key(bytes(16)) == bytes(16) + b"\x01" + bytes(15)
    assert padded_key(bytes(24)) == bytes(24) + b"\x01" + bytes(7)
    assert padded_key(bytes(range(32))) == bytes(range(32))
    # The submission prints the padded key as LONG_KEY: the number 2^128 + key for 128-bit keys.
    long_key = "0000000000000000000000000000000100112233445566778899aabbccddeeff"
    assert to_submission_hex(padded_key(from_submission_hex("00112233445566778899aabbccddeeff"))) == long_key


def test_prekey_recurrence() -> None:
    key = bytes(range(32))
    w = list(words_of(key[:16]) + words_of(key[16:])) + prekeys(key)
    for i in range(132):
        t = w[i] ^ w[i + 3] ^ w[i + 5] ^ w[i + 7] ^ PHI ^ i
        assert w[i + 8] == ((t << 11) | (t >> 21)) & 0xFFFFFFFF
    assert len(expand_key(key)) == 132 and len(round_keys(key)) == 33


@pytest.mark.parametrize("example", SUBMISSION_EXAMPLES, ids=lambda e: e.name)
def test_subkeys_match_ecb_iv(example) -> None:
    keys = round_keys(example.key)
    flat = expand_key(example.key)
    for index, value in example.subkeys:
        assert int(to_submission_hex(bytes_of(keys[index])), 16) == value, f"SK[{index}]"
        assert tuple(flat[4 * index : 4 * index + 4]) == keys[index]
    for index, value in example.standard_subkeys:
        assert bitslice_to_standard(keys[index]) == value, f"SK^[{index}]"


# --- typed-in examples --------------------------------------------------------------------------------


@pytest.mark.parametrize("name, key, plaintext, ciphertext", list(known_answers()), ids=lambda v: str(v)[:40])
def test_typed_examples_both_directions(name: str, key: bytes, plaintext: bytes, ciphertext: bytes) -> None:
    assert encrypt_block(key, plaintext) == ciphertext, name
    assert decrypt_block(key, ciphertext) == plaintext, name


def test_submission_byte_order_is_the_reverse_of_nessie() -> None:
    # ecb_vk.txt I=1 prints KEY=80..00: the number 2^127, i.e. NESSIE's key 00..80.
    assert from_submission_hex("80" + "00" * 15) == bytes(15) + b"\x80"
    assert (
        to_submission_hex(encrypt_block(bytes(15) + b"\x80", bytes(16))) == "49afbfad9d5a34052cd8ffa5986bd2dd"
    )


@pytest.mark.parametrize("example", SUBMISSION_EXAMPLES, ids=lambda e: e.name)
def test_encrypt_trace_matches_the_round_values(example) -> None:
    states = encrypt_trace(example.key, example.plaintext)
    assert len(states) == 32 and states[-1] == example.ciphertext
    for index, value in example.round_values:
        assert bitslice_to_standard(words_of(states[index])) == value, f"R[{index}]"


@pytest.mark.parametrize("example", SUBMISSION_EXAMPLES, ids=lambda e: e.name)
def test_decrypt_trace_is_the_encryption_backwards(example) -> None:
    forward = encrypt_trace(example.key, example.plaintext)
    backward = decrypt_trace(example.key, example.ciphertext)
    assert backward == forward[-2::-1] + [example.plaintext]


def test_nessie_iterated_values() -> None:
    for name, key_hex, plain_hex, _, after_100, after_1000 in NESSIE[:2]:
        key, data = bytes.fromhex(key_hex), bytes.fromhex(plain_hex)
        for count in range(1000):
            data = encrypt_block(key, data)
            if count == 99:
                assert data.hex().upper() == after_100, name
        assert data.hex().upper() == after_1000, name


def test_decrypted_pattern_examples_are_typed_as_printed() -> None:
    assert [e.name for e, _ in DECRYPTED_PATTERN] == [e.name for e in SUBMISSION_EXAMPLES]


# --- the shared known-answer files ----------------------------------------------------------------------


def _kat(name: str) -> Path:
    root = kat_root()
    if root is None:
        pytest.skip("the shared kat folder is not present (set CIPHERBENCH_KAT)")
    path = root / "serpent" / name
    if not path.is_file():
        pytest.skip(f"serpent/{name} is not in the shared kat folder")
    return path


# (file, single-block cases, iterated cases); submission files are single-direction records.
KAT_FILES = [
    ("ecb_vk.txt", 128 + 192 + 256, 0),
    ("ecb_vt.txt", 3 * 128, 0),
    ("ecb_tbl.txt", 3 * 512, 0),
    ("ecb_iv.txt", 3 * 4, 0),
    ("Serpent-128-128.verified.test-vectors", 2 * 1028, 1028),
    ("Serpent-192-128.verified.test-vectors", 2 * 1156, 1156),
    ("Serpent-256-128.verified.test-vectors", 2 * 1284, 1284),
    ("serpent.vec", 2 * 1158, 0),
    ("serpentv.dat", 2 * 12, 0),
]


@pytest.mark.parametrize("name, count, iterated", KAT_FILES, ids=[f[0] for f in KAT_FILES])
def test_kat_file(name: str, count: int, iterated: int) -> None:
    kat = read_kat_file(_kat(name), reverse_submission_hex=True)
    assert len(kat.cases) == count and len(kat.iterated) == iterated
    for case in kat.cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source
    # Iterated values cost 100 or 1000 encryptions each: check every 40th, including set 4's.
    for case in kat.iterated[::40] + [c for c in kat.iterated if "set 4" in c.source]:
        assert iterate(CIPHER_MODEL, case) == case.expected, case.source


def test_submission_directions_and_sources() -> None:
    cases = read_submission(_kat("ecb_iv.txt"), reverse_submission_hex=True).cases
    assert [c.decrypt for c in cases[:4]] == [False, True, True, False]
    assert cases[0].source.startswith("ecb_iv.txt:") and "KEYSIZE=128" in cases[0].source
    tbl = read_submission(_kat("ecb_tbl.txt"), reverse_submission_hex=True).cases
    assert "I=1 Round=0 Input value=0" in tbl[0].source and not any(c.decrypt for c in tbl)


def _ecb_iv_sections(text: str) -> list[dict[str, str]]:
    """KEY, the R[r] values of the first encryption and the SK^[i] values, per key size."""
    sections = []
    for chunk in re.split(r"KEYSIZE=", text)[1:]:
        values = dict(re.findall(r"^(KEY|PT|CT|SK\^\[\d+\]|SK\[\d+\]|R\[\d+\])=(\w+)", chunk, re.MULTILINE))
        sections.append(values)
    return sections


def test_ecb_iv_every_subkey_and_round_value() -> None:
    text = _kat("ecb_iv.txt").read_text().replace("\r", "")
    sections = _ecb_iv_sections(text)
    assert len(sections) == 3
    for values in sections:
        key = from_submission_hex(values["KEY"])
        keys = round_keys(key)
        for i in range(33):
            assert to_submission_hex(bytes_of(keys[i])) == values[f"SK[{i}]"], f"SK[{i}]"
            assert f"{bitslice_to_standard(keys[i]):032x}" == values[f"SK^[{i}]"], f"SK^[{i}]"
        # dict() kept the last PT/R/CT: those of the final block, an encryption of D_K(pattern).
        states = encrypt_trace(key, from_submission_hex(values["PT"]))
        for r in range(32):
            assert f"{bitslice_to_standard(words_of(states[r])):032x}" == values[f"R[{r}]"], f"R[{r}]"
        assert to_submission_hex(states[-1]) == values["CT"]


@pytest.mark.parametrize("name", ["ecb_e_m.txt", "ecb_d_m.txt", "cbc_e_m.txt", "cbc_d_m.txt"])
def test_monte_carlo_files_are_read_as_records(name: str) -> None:
    kat = read_submission_mct(_kat(name), reverse_submission_hex=True)
    records = kat.monte_carlo
    assert len(records) == 3 * 400 and not kat.cases
    assert {len(r.key) for r in records} == {16, 24, 32}
    assert all(r.decrypt == ("_d_" in name) for r in records)
    assert all((r.iv is not None) == name.startswith("cbc") for r in records)
    assert [r.index for r in records[:3]] == [0, 1, 2]


def test_monte_carlo_first_ecb_record_is_10000_encryptions() -> None:
    # The inner loop of the AES-candidate Monte Carlo test alone: enough to check the record's meaning.
    record = read_submission_mct(_kat("ecb_e_m.txt"), reverse_submission_hex=True).monte_carlo[0]
    data = record.data
    for _ in range(10_000):
        data = encrypt_block(record.key, data)
    assert data == record.expected


# --- reader errors (submission and NESSIE formats) ------------------------------------------------------


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


SUBMISSION_OK = (
    "FILENAME: x\n\nKEYSIZE=128\n\nPT=00000000000000000000000000000000\n\nI=1\nKEY={key}\nCT={ct}\n"
)


def test_submission_reader_minimal_file(tmp_path: Path) -> None:
    key, ct = "80" + "00" * 15, "49afbfad9d5a34052cd8ffa5986bd2dd"
    path = _write(tmp_path, "ecb_vk.txt", SUBMISSION_OK.format(key=key, ct=ct))
    (case,) = read_submission(path, reverse_submission_hex=True).cases
    assert encrypt_block(case.key, case.data) == case.expected and not case.decrypt
    (plain,) = read_submission(path).cases
    assert plain.key == bytes.fromhex(key)


@pytest.mark.parametrize(
    "text, message",
    [
        (SUBMISSION_OK.format(key="80" * 15, ct="00" * 16), "KEY has 120 bits in a KEYSIZE=128 section"),
        (SUBMISSION_OK.format(key="zz" * 16, ct="00" * 16), "KEY is not hex"),
        (SUBMISSION_OK.format(key="0" * 31, ct="00" * 16), "odd number of hex digits"),
        ("KEYSIZE=12x\n", "KEYSIZE is '12x'"),
        ("KEY=00\n", "KEY= before any KEYSIZE= line"),
        ("KEYSIZE=128\nI=one\n", "I is 'one'"),
        ("KEYSIZE=128\nI=1\nNONCE=00\n", "unexpected field NONCE"),
        ("KEYSIZE=128\nI=1\nKEY=" + "00" * 16 + "\nKEY=" + "00" * 16 + "\n", "second KEY in one record"),
        ("KEYSIZE=128\nI=1\nPT=" + "00" * 16 + "\nCT=" + "00" * 16 + "\n", "record has no KEY"),
        ("just some text\n", "no test vectors found"),
    ],
)
def test_submission_reader_errors_are_one_line_with_position(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, "ecb_tbl.txt", text)
    with pytest.raises(CipherbenchError) as error:
        read_submission(path)
    assert message in str(error.value) and str(path) in str(error.value) and "\n" not in str(error.value)


def test_submission_reader_refuses_monte_carlo_and_vice_versa(tmp_path: Path) -> None:
    mct = _write(tmp_path, "ecb_e_m.txt", "Monte Carlo Test\nKEYSIZE=128\n")
    with pytest.raises(CipherbenchError, match="read_submission_mct"):
        read_submission(mct)
    kat = _write(tmp_path, "ecb_vk.txt", SUBMISSION_OK.format(key="00" * 16, ct="00" * 16))
    with pytest.raises(CipherbenchError, match="not a Monte Carlo file"):
        read_submission_mct(kat)


NESSIE_OK = """********************************************************************************
*Project NESSIE - New European Schemes for Signature, Integrity, and Encryption*
********************************************************************************

Test vectors -- set 1
=====================

Set 1, vector#  0:
                           key=00000000000000000000000000000000
                               0000000000000000
                         plain=00000000000000000000000000000000
                        cipher={cipher}
                     decrypted=00000000000000000000000000000000
            Iterated 100 times=00
"""


def test_nessie_reader_wrapped_key_and_both_directions(tmp_path: Path) -> None:
    cipher = encrypt_block(bytes(24), bytes(16)).hex()
    kat = read_nessie(_write(tmp_path, "n.test-vectors", NESSIE_OK.format(cipher=cipher)))
    assert [len(c.key) for c in kat.cases] == [24, 24] and [c.decrypt for c in kat.cases] == [False, True]
    assert kat.iterated[0].iterations == 100 and "set 1 vector 0" in kat.cases[0].source


@pytest.mark.parametrize(
    "replace, message",
    [
        (("cipher={cipher}", "cipher=XYZ"), "cipher is not hex"),
        (("cipher={cipher}", "tweak=00"), "unexpected field tweak"),
        (("cipher={cipher}", ""), "vector has no cipher="),
        (("decrypted=00000000000000000000000000000000", "decrypted=01" + "00" * 15), "decrypted= differs"),
        (("            Iterated", "garbage line\n            Iterated"), "unexpected line 'garbage line'"),
    ],
)
def test_nessie_reader_errors(tmp_path: Path, replace: tuple[str, str], message: str) -> None:
    text = NESSIE_OK.replace(*replace).format(cipher="00" * 16)
    path = _write(tmp_path, "n.test-vectors", text)
    with pytest.raises(CipherbenchError) as error:
        read_nessie(path)
    assert message in str(error.value) and f"{path}:" in str(error.value) and "\n" not in str(error.value)


def test_unknown_format_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CipherbenchError, match="unrecognized vector file format"):
        read_kat_file(_write(tmp_path, "notes.txt", "hello\n"))
    with pytest.raises(CipherbenchError, match="no such vector file"):
        read_kat_file(tmp_path / "absent.txt")


# --- random blocks against independent implementations ------------------------------------------------

RANDOM_BLOCKS = 10_000
RANDOM_SEED = 1998


@pytest.fixture(scope="module", params=[128, 192, 256], ids=lambda bits: f"{bits}-bit")
def random_results(request: pytest.FixtureRequest):
    return random_workload(encrypt_block, decrypt_block, request.param, RANDOM_BLOCKS, RANDOM_SEED)


def test_random_blocks_against_pyserpent(random_results) -> None:
    pyserpent = pytest.importorskip("pyserpent", reason="pyserpent is not installed (pip install pyserpent)")
    encrypted = per_key(random_results, pyserpent.Serpent, "encrypt")
    decrypted = per_key(random_results, pyserpent.Serpent, "decrypt")
    assert mismatches(random_results, encrypted, decrypted)[:3] == []


def test_random_blocks_against_cryptopp(random_results) -> None:
    oracle = cryptopp_or_skip()
    pairs = [(r.key, r.block) for r in random_results]
    found = mismatches(random_results, oracle.encrypt("serpent", pairs), oracle.decrypt("serpent", pairs))
    assert found[:3] == []


def test_random_round_trips_and_traces() -> None:
    for result in random_workload(encrypt_block, decrypt_block, 256, 100, RANDOM_SEED + 1, blocks_per_key=1):
        assert decrypt_block(result.key, result.encrypted) == result.block
        assert encrypt_trace(result.key, result.block)[-1] == result.encrypted
        assert decrypt_trace(result.key, result.encrypted)[-1] == result.block
