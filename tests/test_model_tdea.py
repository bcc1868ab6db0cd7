"""The TDEA reference model against SP 800-67, the NIST TDES KAT/MMT files, NESSIE and two oracles."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from oracles import RandomResult, mismatches, per_key, random_workload
from oracles.cryptopp import cryptopp_or_skip

from cipherbench.ciphers.des import model as des
from cipherbench.ciphers.des.vectors import SINGLE_KEY_FILES, THREE_KEY_FILES, TWO_KEY_FILES, tdes_files
from cipherbench.ciphers.tdea import CIPHER, two_key_cases
from cipherbench.ciphers.tdea.model import (
    TDEA,
    decrypt_block,
    decrypt_trace,
    encrypt_block,
    encrypt_trace,
    encrypt_trace_rounds,
    expand_key,
    split_key,
    trace_labels,
)
from cipherbench.ciphers.tdea.vectors import NOT_TDEA_FILES, SP800_67_B, known_answers
from cipherbench.verify.kat_formats import IteratedCase, iterate, read_cryptopp_dat, read_nessie
from cipherbench.verify.vectors import kat_root, read_rsp
from cipherbench.verify.oracles import PycaEcb

K1, K2, K3 = (bytes.fromhex(k) for k in ("0123456789abcdef", "23456789abcdef01", "456789abcdef0123"))

# --- keying options -----------------------------------------------------------------------------------------


def test_split_key_for_both_keying_options() -> None:
    assert split_key(K1 + K2 + K3) == (K1, K2, K3)
    assert split_key(K1 + K2) == (K1, K2, K1)


def test_ede_composition_of_des() -> None:
    block = b"The qufc"
    expected = des.encrypt_block(K3, des.decrypt_block(K2, des.encrypt_block(K1, block)))
    assert encrypt_block(K1 + K2 + K3, block) == expected
    assert decrypt_block(K1 + K2 + K3, expected) == block


def test_two_key_form_equals_three_key_form_with_k3_equal_k1() -> None:
    rng = random.Random(67)
    for _ in range(100):
        k1, k2, block = rng.randbytes(8), rng.randbytes(8), rng.randbytes(8)
        assert encrypt_block(k1 + k2, block) == encrypt_block(k1 + k2 + k1, block)
        assert decrypt_block(k1 + k2, block) == decrypt_block(k1 + k2 + k1, block)


def test_equal_keys_reduce_to_single_des() -> None:
    # SP 800-67's backward compatibility: K1 = K2 = K3 is DES.
    block = b"abcdefgh"
    assert encrypt_block(K1 * 3, block) == des.encrypt_block(K1, block)
    assert encrypt_block(K1 * 2, block) == des.encrypt_block(K1, block)


def test_expand_key_gives_three_des_schedules() -> None:
    schedules = expand_key(K1 + K2)
    assert len(schedules) == 3 and schedules[0] == schedules[2] == des.expand_key(K1)
    assert schedules[1] == des.expand_key(K2)


# --- SP 800-67 example and traces ---------------------------------------------------------------------------


def test_sp800_67_example_is_typed_as_published() -> None:
    assert SP800_67_B.plaintext.hex() == "5468652071756663" "6b2062726f776e20" "666f78206a756d70"
    assert len(list(known_answers())) == 3


@pytest.mark.parametrize("key, plaintext, ciphertext", list(known_answers()))
def test_sp800_67_example_both_directions(key: bytes, plaintext: bytes, ciphertext: bytes) -> None:
    assert encrypt_block(key, plaintext) == ciphertext
    assert decrypt_block(key, ciphertext) == plaintext


def test_traces_are_the_three_des_outputs() -> None:
    key, block = K1 + K2 + K3, b"The qufc"
    first = des.encrypt_block(K1, block)
    second = des.decrypt_block(K2, first)
    assert encrypt_trace(key, block) == [first, second, bytes.fromhex("a826fd8ce53b855f")]
    assert decrypt_trace(key, bytes.fromhex("a826fd8ce53b855f")) == [second, first, block]
    assert len(trace_labels()) == len(trace_labels(decrypt=True)) == 3


def test_round_trace_concatenates_three_des_traces() -> None:
    states = encrypt_trace_rounds(K1 + K2 + K3, b"The qufc")
    assert len(states) == 54
    assert states[17] == des.encrypt_block(K1, b"The qufc")
    assert states[-1] == bytes.fromhex("a826fd8ce53b855f")


# --- API, registry and errors -------------------------------------------------------------------------------


def _vector_sets_pass(key_sizes: tuple[int, ...]) -> dict[str, int]:
    cipher = TDEA()
    counts = {}
    for name, cases in CIPHER.vector_sets(key_sizes):
        for case in cases:
            assert len(case.key) * 8 in key_sizes, case.source
            run = cipher.decrypt if case.decrypt else cipher.encrypt
            assert run(case.key, case.data) == case.expected, case.source
        counts[name] = len(cases)
    return counts


def test_vector_sets_for_each_keying_option() -> None:
    three = _vector_sets_pass((192,))
    assert three["sp800-67"] == 6
    two = _vector_sets_pass((128,))
    assert two["sp800-67"] == 0
    assert not any(name.endswith("-3key") for name in two) and "TECBMMT3-3key" not in two
    if "TECBMMT2-2key" in two:
        assert two["TECBMMT2-2key"] == 110 and three["TECBMMT3-3key"] == 110
    assert "3desval.dat" not in two and "3desval.dat" not in three


# --- NIST CAVP TDES KAT and MMT files -----------------------------------------------------------------------

ALL_NIST_FILES = SINGLE_KEY_FILES + TWO_KEY_FILES + THREE_KEY_FILES


def _nist_cases(name: str):
    found = {p.name: p for p in tdes_files((name,))}
    if name not in found:
        pytest.skip(f"{name}: neither cryptography_vectors nor the shared kat folders are present")
    return read_rsp(found[name])


@pytest.mark.parametrize("name", ALL_NIST_FILES)
def test_nist_file_with_three_keys(name: str) -> None:
    cases = _nist_cases(name)
    for case in cases:
        assert len(case.key) == 24
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


@pytest.mark.parametrize("name", SINGLE_KEY_FILES + TWO_KEY_FILES)
def test_nist_file_in_two_key_form(name: str) -> None:
    cases = _nist_cases(name)
    two_key = two_key_cases(cases)
    assert len(two_key) == len(cases), "every record of these files has K3 = K1"
    for case in two_key:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


def test_mmt_files_use_the_keying_options_they_claim() -> None:
    for name, distinct in (("TECBMMT2.rsp", 2), ("TECBMMT3.rsp", 3)):
        for case in _nist_cases(name):
            assert len({case.key[0:8], case.key[8:16], case.key[16:24]}) == distinct, case.source


# --- shared kat folder: NESSIE and Crypto++ files -----------------------------------------------------------


def _kat_file(name: str) -> Path:
    root = kat_root()
    path = root / "tdea" / name if root else None
    if path is None or not path.is_file():
        pytest.skip(f"tdea/{name} is not in the shared kat folder")
    return path


def _iterated_sample(request: pytest.FixtureRequest, cases: list[IteratedCase],
                     stride: int) -> list[IteratedCase]:
    """Every case with --runslow; otherwise both iterated values (100, 1000) of every stride-th vector."""
    if request.config.getoption("--runslow", default=False):
        return cases
    vectors = sorted({c.source.rsplit(" iterated", 1)[0] for c in cases})
    kept = set(vectors[::stride])
    return [c for c in cases if c.source.rsplit(" iterated", 1)[0] in kept]


@pytest.mark.parametrize("name, key_bytes, vectors", [
    ("Triple-Des-2-Key-128-64.unverified.test-vectors", 16, 900),
    ("Triple-Des-3-Key-192-64.unverified.test-vectors", 24, 1028),
])  # fmt: skip
def test_nessie_file(request: pytest.FixtureRequest, name: str, key_bytes: int, vectors: int) -> None:
    kat = read_nessie(_kat_file(name))
    assert len(kat.cases) == 2 * vectors and {len(c.key) for c in kat.cases} == {key_bytes}
    for case in kat.cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source
    # Iterated values cost 1,100 TDEA encryptions per vector: one in 16 unless --runslow.
    sample = _iterated_sample(request, kat.iterated, 16)
    assert len(sample) >= len(kat.iterated) // 16
    for case in sample:
        assert iterate(TDEA(), case) == case.expected, case.source


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


def test_cryptopp_3desval_file() -> None:
    # Crypto++ TestData/3desval.dat: KEY PLAINTEXT CIPHERTEXT triples that Crypto++ runs through DES-EDE2,
    # DES-EDE3 and DES-XEX3. Record 1 is 2-key TDEA and record 2 3-key TDEA; record 3 is DESX (not TDEA),
    # with Crypto++'s key layout x1 || K || x3 and C = x3 ^ DES_K(P ^ x1): checked as such on the DES model.
    assert "3desval.dat" in NOT_TDEA_FILES
    cases = read_cryptopp_dat(_kat_file("3desval.dat")).cases
    assert len(cases) == 6  # three records, both directions
    for case in cases[:4]:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source
    desx = cases[4]
    x1, des_key, x3 = desx.key[0:8], desx.key[8:16], desx.key[16:24]
    assert _xor(des.encrypt_block(des_key, _xor(desx.data, x1)), x3) == desx.expected
    assert encrypt_block(desx.key, desx.data) != desx.expected


# --- random blocks against independent implementations ------------------------------------------------------

RANDOM_BLOCKS = 10_000  # per key size
BLOCKS_PER_KEY = 4  # 2,500 fresh keys per size
RANDOM_SEED = 80067


@pytest.fixture(scope="module")
def workload() -> dict[int, list[RandomResult]]:
    """Per key size (128 = 2-key, 192 = 3-key), the model's answers on 10,000 random blocks."""
    return {
        bits: random_workload(encrypt_block, decrypt_block, bits, RANDOM_BLOCKS, RANDOM_SEED, BLOCKS_PER_KEY,
                              block_bytes=8)
        for bits in (128, 192)
    }


def _assert_same(results: list[RandomResult], encrypted: list[bytes], decrypted: list[bytes]) -> None:
    found = mismatches(results, encrypted, decrypted)
    assert not found, f"{len(found)} mismatches, first: {found[:3]}"


def test_random_workload_covers_both_keying_options(workload) -> None:
    sizes = {bits: len(results) for bits, results in workload.items()}
    assert sizes == {128: RANDOM_BLOCKS, 192: RANDOM_BLOCKS}
    assert all(len(r.key) * 8 == bits for bits, results in workload.items() for r in results)


def test_random_blocks_against_pycryptodome(workload) -> None:
    des3 = pytest.importorskip("Crypto.Cipher.DES3", reason="pycryptodome is not installed")

    def make(key: bytes) -> object:
        # DES3 refuses keys that degenerate to single DES; random keys essentially never do.
        return des3.new(key, des3.MODE_ECB)

    for results in workload.values():
        _assert_same(results, per_key(results, make, "encrypt"), per_key(results, make, "decrypt"))


def test_random_blocks_against_cryptography(workload) -> None:
    algorithms = pytest.importorskip("cryptography.hazmat.decrepit.ciphers.algorithms")

    def make(key: bytes) -> object:
        # cryptography deprecates 16-byte keys; K1 || K2 || K1 is the same 2-key cipher.
        return PycaEcb(algorithms.TripleDES(key if len(key) == 24 else key + key[:8]))

    for results in workload.values():
        _assert_same(results, per_key(results, make, "encrypt"), per_key(results, make, "decrypt"))


def test_random_blocks_against_cryptopp(workload) -> None:
    oracle = cryptopp_or_skip()
    for bits, name in ((128, "DES_EDE2"), (192, "DES_EDE3")):
        pairs = [(r.key, r.block) for r in workload[bits]]
        _assert_same(workload[bits], oracle.encrypt(name, pairs), oracle.decrypt(name, pairs))


def test_random_round_trips_and_traces() -> None:
    rng = random.Random(RANDOM_SEED + 1)
    for _ in range(200):
        key, block = rng.randbytes(rng.choice((16, 24))), rng.randbytes(8)
        ciphertext = encrypt_block(key, block)
        assert decrypt_block(key, ciphertext) == block
        assert encrypt_trace(key, block)[-1] == ciphertext
        assert decrypt_trace(key, ciphertext)[-1] == block
