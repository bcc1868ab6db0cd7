"""The DES reference model against FIPS 46-3's tables, FIPS 81, SP 800-67, NIST/NESSIE files and oracles."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from oracles import RandomResult, mismatches, per_key, random_workload
from oracles.cryptopp import cryptopp_or_skip

from cipherbench.ciphers.des import single_des_cases
from cipherbench.ciphers.des.model import (
    DES,
    FP,
    IP,
    PC1,
    PC2,
    SBOXES,
    E,
    P,
    decrypt_block,
    decrypt_trace,
    encrypt_block,
    encrypt_trace,
    expand_key,
    feistel,
    permute,
    sbox,
    trace_labels,
    with_odd_parity,
)
from cipherbench.ciphers.des.vectors import (
    EXAMPLES,
    SEMI_WEAK_PAIRS,
    SINGLE_KEY_FILES,
    WEAK_KEYS,
    example_blocks,
    known_answers,
    tdes_files,
)
from cipherbench.verify.kat_formats import IteratedCase, iterate, read_cryptopp_dat, read_nessie
from cipherbench.verify.vectors import VectorCase, kat_root, read_rsp
from cipherbench.verify.oracles import PycaEcb

# --- tables -----------------------------------------------------------------------------------------------


def test_sbox_rows_are_permutations_of_0_to_15() -> None:
    for box in SBOXES:
        assert len(box) == 64
        for row in range(4):
            assert sorted(box[16 * row : 16 * row + 16]) == list(range(16))


def test_sbox_entries_quoted_in_fips46() -> None:
    # FIPS 46-3's worked example: S1(011011) is row 01, column 1101 = 5.
    assert sbox(0, 0b011011) == 5
    assert (SBOXES[0][0], SBOXES[7][63]) == (14, 11)


def test_ip_and_fp_are_inverse_permutations() -> None:
    assert sorted(IP) == sorted(FP) == list(range(1, 65))
    assert all(FP[IP[i] - 1] == i + 1 for i in range(64))
    value = random.Random(1).getrandbits(64)
    assert permute(permute(value, IP, 64), FP, 64) == value


def test_expansion_permutation_and_key_tables_shapes() -> None:
    assert len(E) == 48 and sorted(set(E)) == list(range(1, 33))
    assert sorted(P) == list(range(1, 33))
    # PC-1 drops exactly the parity bits 8, 16, ..., 64; PC-2 drops 8 of the 56 bits.
    assert sorted(PC1) == [b for b in range(1, 65) if b % 8]
    assert len(PC2) == 48 and len(set(PC2)) == 48 and max(PC2) == 56


def _feistel_literal(right: int, round_key: int) -> int:
    """f(R, K) exactly as FIPS 46-3 draws it: E, XOR, eight S-boxes, P."""
    x = permute(right, E, 32) ^ round_key
    s_out = 0
    for i in range(8):
        s_out = (s_out << 4) | sbox(i, (x >> (42 - 6 * i)) & 0x3F)
    return permute(s_out, P, 32)


def test_sp_table_round_function_matches_the_literal_definition() -> None:
    rng = random.Random(46)
    for _ in range(2000):
        right, key = rng.getrandbits(32), rng.getrandbits(48)
        groups = tuple((key >> (42 - 6 * i)) & 0x3F for i in range(8))
        assert feistel(right, groups) == _feistel_literal(right, key)


# --- key schedule -------------------------------------------------------------------------------------------


def test_round_keys_are_sixteen_48_bit_values() -> None:
    keys = expand_key(bytes.fromhex("133457799bbcdff1"))
    assert len(keys) == 16 and all(len(k) == 6 for k in keys)


def test_parity_bits_do_not_change_anything() -> None:
    rng = random.Random(7)
    for _ in range(50):
        key, block = rng.randbytes(8), rng.randbytes(8)
        flipped = bytes(b ^ 1 for b in key)
        assert expand_key(key) == expand_key(flipped)
        assert encrypt_block(key, block) == encrypt_block(flipped, block)
        assert with_odd_parity(key) == with_odd_parity(flipped)
        assert all(bin(b).count("1") % 2 == 1 for b in with_odd_parity(key))


@pytest.mark.parametrize("key", WEAK_KEYS, ids=lambda k: k.hex())
def test_weak_keys_have_sixteen_equal_round_keys(key: bytes) -> None:
    # SP 800-67 3.3.2: with a weak key encryption equals decryption.
    assert len(set(expand_key(key))) == 1
    block = bytes.fromhex("0123456789abcdef")
    assert encrypt_block(key, encrypt_block(key, block)) == block


@pytest.mark.parametrize("pair", SEMI_WEAK_PAIRS, ids=lambda p: f"{p[0].hex()}-{p[1].hex()}")
def test_semi_weak_key_pairs_undo_each_other(pair: tuple[bytes, bytes]) -> None:
    first, second = pair
    rng = random.Random(first)
    for _ in range(8):
        block = rng.randbytes(8)
        assert encrypt_block(second, encrypt_block(first, block)) == block
        assert encrypt_block(first, encrypt_block(second, block)) == block


# --- typed standards' examples ------------------------------------------------------------------------------


def test_fips81_examples_are_typed_as_published() -> None:
    answers = list(known_answers())
    assert len(answers) == 6
    assert answers[0] == (bytes.fromhex("0123456789abcdef"), b"Now is t", bytes.fromhex("3fa40e8a984d4815"))
    # CBC block 1 is E(P1 XOR IV).
    assert answers[3][1] == bytes(a ^ b for a, b in zip(b"Now is t", bytes.fromhex("1234567890abcdef")))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_fips81_examples_both_directions(example) -> None:
    for key, block_in, block_out in example_blocks(example):
        assert encrypt_block(key, block_in) == block_out
        assert decrypt_block(key, block_out) == block_in


def test_trace_shape_and_feistel_relation() -> None:
    key, block = bytes.fromhex("0123456789abcdef"), b"Now is t"
    states = encrypt_trace(key, block)
    assert len(states) == len(trace_labels()) == 18
    assert states[0] == permute(int.from_bytes(block, "big"), IP, 64).to_bytes(8, "big")
    assert states[-1] == bytes.fromhex("3fa40e8a984d4815")
    round_keys = [int.from_bytes(k, "big") for k in expand_key(key)]
    for n in range(1, 17):
        before, after = int.from_bytes(states[n - 1], "big"), int.from_bytes(states[n], "big")
        left, right = before >> 32, before & 0xFFFFFFFF
        assert after >> 32 == right
        assert after & 0xFFFFFFFF == left ^ _feistel_literal(right, round_keys[n - 1])
    # The output is IP^-1 of R16 L16.
    last = int.from_bytes(states[16], "big")
    swapped = ((last & 0xFFFFFFFF) << 32) | (last >> 32)
    assert states[17] == permute(swapped, FP, 64).to_bytes(8, "big")


def test_decrypt_trace_ends_with_the_plaintext() -> None:
    key = bytes.fromhex("0123456789abcdef")
    states = decrypt_trace(key, bytes.fromhex("3fa40e8a984d4815"))
    assert len(states) == 18 and states[-1] == b"Now is t"


# --- NIST CAVP TDES files read as single DES ----------------------------------------------------------------

# Records per direction in each file (KAT: SP 800-20 tables; MMT1: 10 messages of 1..10 blocks).
NIST_CASES_PER_DIRECTION = {
    "TECBvarkey.rsp": 56,
    "TECBvartext.rsp": 64,
    "TECBinvperm.rsp": 64,
    "TECBpermop.rsp": 32,
    "TECBsubtab.rsp": 19,
    "TECBMMT1.rsp": 55,
}


@pytest.mark.parametrize("name", SINGLE_KEY_FILES)
def test_nist_tdes_single_key_file(name: str) -> None:
    found = {p.name: p for p in tdes_files((name,))}
    if name not in found:
        pytest.skip(f"{name}: neither cryptography_vectors nor the shared kat/des folder is present")
    raw = read_rsp(found[name])
    cases = single_des_cases(raw)
    assert len(cases) == len(raw), "every record of these files has K1 = K2 = K3"
    per_direction = NIST_CASES_PER_DIRECTION[name]
    assert sum(not c.decrypt for c in cases) == sum(c.decrypt for c in cases) == per_direction
    for case in cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


# --- shared kat folder: NESSIE and Crypto++ files -----------------------------------------------------------


def _kat_file(name: str) -> Path:
    root = kat_root()
    path = root / "des" / name if root else None
    if path is None or not path.is_file():
        pytest.skip(f"des/{name} is not in the shared kat folder")
    return path


def _check_cases(cases: list[VectorCase]) -> None:
    for case in cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


def _iterated_sample(request: pytest.FixtureRequest, cases: list[IteratedCase],
                     stride: int) -> list[IteratedCase]:
    """Every case with --runslow; otherwise both iterated values (100, 1000) of every stride-th vector."""
    if request.config.getoption("--runslow", default=False):
        return cases
    vectors = sorted({c.source.rsplit(" iterated", 1)[0] for c in cases})
    kept = set(vectors[::stride])
    return [c for c in cases if c.source.rsplit(" iterated", 1)[0] in kept]


def test_nessie_des_file(request: pytest.FixtureRequest) -> None:
    kat = read_nessie(_kat_file("Des-64-64.test-vectors"))
    assert len(kat.cases) == 2 * 772 and len(kat.iterated) == 2 * 386
    _check_cases(kat.cases)
    # Iterated values cost 100 + 1000 encryptions per vector: a third of them unless --runslow.
    for case in _iterated_sample(request, kat.iterated, 3):
        assert iterate(DES(), case) == case.expected, case.source


def test_cryptopp_descert_file() -> None:
    # Crypto++ TestData/descert.dat: the NBS SP 500-20 tables as KEY PLAINTEXT CIPHERTEXT triples.
    kat = read_cryptopp_dat(_kat_file("descert.dat"))
    assert len(kat.cases) == 2 * 171
    _check_cases(kat.cases)


# --- random blocks against independent implementations ------------------------------------------------------

RANDOM_BLOCKS = 10_000
BLOCKS_PER_KEY = 4  # 2,500 fresh keys: key schedules are exercised as much as the rounds
RANDOM_SEED = 463


@pytest.fixture(scope="module")
def workload() -> list[RandomResult]:
    """The model's encryption and decryption of 10,000 random blocks (the block is decrypted as is)."""
    return random_workload(encrypt_block, decrypt_block, 64, RANDOM_BLOCKS, RANDOM_SEED, BLOCKS_PER_KEY, 8)


def _assert_same(results: list[RandomResult], encrypted: list[bytes], decrypted: list[bytes]) -> None:
    found = mismatches(results, encrypted, decrypted)
    assert not found, f"{len(found)} mismatches, first: {found[:3]}"


def test_random_workload_size(workload) -> None:
    assert len(workload) == RANDOM_BLOCKS
    assert len({r.key for r in workload}) == RANDOM_BLOCKS // BLOCKS_PER_KEY


def test_random_blocks_against_pycryptodome(workload) -> None:
    crypto_des = pytest.importorskip("Crypto.Cipher.DES", reason="pycryptodome is not installed")

    def make(key: bytes) -> object:
        return crypto_des.new(key, crypto_des.MODE_ECB)

    _assert_same(workload, per_key(workload, make, "encrypt"), per_key(workload, make, "decrypt"))


def test_random_blocks_against_cryptography(workload) -> None:
    algorithms = pytest.importorskip("cryptography.hazmat.decrepit.ciphers.algorithms")

    def make(key: bytes) -> object:
        # TripleDES with K1 = K2 = K3 is single DES (EDE collapses to one encryption).
        return PycaEcb(algorithms.TripleDES(key * 3))

    _assert_same(workload, per_key(workload, make, "encrypt"), per_key(workload, make, "decrypt"))


def test_random_blocks_against_cryptopp(workload) -> None:
    oracle = cryptopp_or_skip()
    pairs = [(r.key, r.block) for r in workload]
    _assert_same(workload, oracle.encrypt("des", pairs), oracle.decrypt("des", pairs))


def test_random_round_trips_and_traces() -> None:
    rng = random.Random(RANDOM_SEED + 1)
    for _ in range(200):
        key, block = rng.randbytes(8), rng.randbytes(8)
        ciphertext = encrypt_block(key, block)
        assert decrypt_block(key, ciphertext) == block
        assert encrypt_trace(key, block)[-1] == ciphertext
        assert decrypt_trace(key, ciphertext)[-1] == block


def test_complementation_property() -> None:
    # DES(~K, ~P) = ~DES(K, P): a structural property of the standard worth checking on the model.
    rng = random.Random(RANDOM_SEED + 2)
    for _ in range(100):
        key, block = rng.randbytes(8), rng.randbytes(8)
        inverted = encrypt_block(bytes(255 - b for b in key), bytes(255 - b for b in block))
        assert inverted == bytes(255 - b for b in encrypt_block(key, block))
