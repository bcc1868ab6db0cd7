"""The RC6-32/20/b reference model against the RC6 paper, NESSIE, Crypto++'s files and Crypto++ itself."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

from cipherbench.ciphers.rc6.model import (
    P32,
    Q32,
    RC6,
    ROUNDS,
    decrypt_block,
    decrypt_trace,
    encrypt_block,
    encrypt_trace,
    expand_key,
)
from cipherbench.ciphers.rc6.vectors import NESSIE_SET4, PAPER_VECTORS, known_answers
from cipherbench.verify.kat_formats import iterate, read_kat_file
from cipherbench.verify.vectors import kat_root

sys.path.insert(0, str(Path(__file__).parent))
from oracles import mismatches, random_workload  # noqa: E402
from oracles.cryptopp import cryptopp_or_skip  # noqa: E402

CIPHER_MODEL = RC6()

# --- constants and key schedule -----------------------------------------------------------------------


def test_magic_constants_are_odd_e_and_golden_ratio() -> None:
    # P32 = Odd((e - 2) 2^32) and Q32 = Odd((phi - 1) 2^32), where Odd(x) is the odd integer nearest x,
    # i.e. floor(x) | 1; e and phi computed here in 64-bit fixed point.
    one = 1 << 64
    e_fixed, term = 0, one
    for k in range(1, 40):  # e = sum 1/k!
        e_fixed += term
        term //= k
    phi_fixed = (math.isqrt(5 << 128) + one) // 2  # (1 + sqrt 5) / 2
    assert P32 == ((e_fixed - 2 * one) >> 32) | 1 == 0xB7E15163
    assert Q32 == ((phi_fixed - one) >> 32) | 1 == 0x9E3779B9


def test_key_schedule_shape_and_initial_table() -> None:
    words = expand_key(bytes(16))
    assert len(words) == 2 * ROUNDS + 4 == 44
    assert all(0 <= w < 2**32 for w in words)
    # A key change must change every round key (the mixing runs 3 * 44 times over S and L).
    other = expand_key(b"\x01" + bytes(15))
    assert all(a != b for a, b in zip(words, other))


def test_key_schedule_matches_a_literal_transcription() -> None:
    # The paper's pseudo-code, written as plainly as possible, for a few keys of each size.
    def rotl(x: int, n: int) -> int:
        n %= 32
        return ((x << n) | (x >> (32 - n))) & 0xFFFFFFFF

    rng = random.Random(6)
    for size in (16, 24, 32):
        key = rng.randbytes(size)
        c = size // 4
        L = [int.from_bytes(key[4 * i : 4 * i + 4], "little") for i in range(c)]
        S = [P32]
        for i in range(1, 44):
            S.append((S[i - 1] + Q32) % 2**32)
        A = B = i = j = 0
        for _ in range(3 * max(c, 44)):
            A = S[i] = rotl((S[i] + A + B) % 2**32, 3)
            B = L[j] = rotl((L[j] + A + B) % 2**32, (A + B) % 32)
            i, j = (i + 1) % 44, (j + 1) % c
        assert expand_key(key) == S


# --- typed-in examples --------------------------------------------------------------------------------


def test_paper_vectors_are_typed_as_published() -> None:
    assert len(PAPER_VECTORS) == 6 and PAPER_VECTORS[0][2] == "8fc3a53656b1f778c129df4e9848a41e"
    assert [len(key) * 4 for key, _, _ in PAPER_VECTORS] == [128, 128, 192, 192, 256, 256]


@pytest.mark.parametrize("name, key, plaintext, ciphertext", list(known_answers()), ids=lambda v: str(v)[:40])
def test_typed_examples_both_directions(name: str, key: bytes, plaintext: bytes, ciphertext: bytes) -> None:
    assert encrypt_block(key, plaintext) == ciphertext, name
    assert decrypt_block(key, ciphertext) == plaintext, name


def test_nessie_iterated_values() -> None:
    for key_hex, plain_hex, _, after_100, after_1000 in NESSIE_SET4:
        key, data = bytes.fromhex(key_hex), bytes.fromhex(plain_hex)
        for count in range(1000):
            data = encrypt_block(key, data)
            if count == 99:
                assert data.hex().upper() == after_100
        assert data.hex().upper() == after_1000


def test_trace_shape_and_round_structure() -> None:
    key, block = bytes.fromhex(PAPER_VECTORS[1][0]), bytes.fromhex(PAPER_VECTORS[1][1])
    states = encrypt_trace(key, block)
    assert len(states) == ROUNDS + 2 and states[-1].hex() == PAPER_VECTORS[1][2]
    s = expand_key(key)
    a, b, c, d = (int.from_bytes(block[i : i + 4], "little") for i in range(0, 16, 4))
    first = [int.from_bytes(states[0][i : i + 4], "little") for i in range(0, 16, 4)]
    assert first == [a, (b + s[0]) % 2**32, c, (d + s[1]) % 2**32]  # pre-whitening only touches B and D
    # Each round rotates the registers: the new D is the old A-side word, the new A the old B.
    for before, after in zip(states[:-2], states[1:-1]):
        assert after[0:4] == before[4:8] and after[8:12] == before[12:16]


def test_decrypt_trace_is_the_encryption_backwards() -> None:
    key, block = bytes(32), bytes(range(16))
    forward = encrypt_trace(key, block)
    assert decrypt_trace(key, forward[-1]) == forward[-2::-1] + [block]


# --- the shared known-answer files ----------------------------------------------------------------------

# (file, single-block cases, iterated cases)
KAT_FILES = [
    ("Rc6-128-128.verified.test-vectors", 2 * 1028, 1028),
    ("Rc6-192-128.verified.test-vectors", 2 * 1156, 1156),
    ("Rc6-256-128.verified.test-vectors", 2 * 1284, 1284),
    ("rc6val.dat", 2 * 6, 0),
]


@pytest.mark.parametrize("name, count, iterated", KAT_FILES, ids=[f[0] for f in KAT_FILES])
def test_kat_file(name: str, count: int, iterated: int) -> None:
    root = kat_root()
    if root is None:
        pytest.skip("the shared kat folder is not present (set CIPHERBENCH_KAT)")
    path = root / "rc6" / name
    if not path.is_file():
        pytest.skip(f"rc6/{name} is not in the shared kat folder")
    kat = read_kat_file(path)
    assert len(kat.cases) == count and len(kat.iterated) == iterated
    for case in kat.cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source
    # Iterated values cost 100 or 1000 encryptions each: check every 25th, including set 4's.
    for case in kat.iterated[::25] + [c for c in kat.iterated if "set 4" in c.source]:
        assert iterate(CIPHER_MODEL, case) == case.expected, case.source


def test_paper_vectors_are_the_cryptopp_file() -> None:
    root = kat_root()
    if root is None:
        pytest.skip("the shared kat folder is not present (set CIPHERBENCH_KAT)")
    path = root / "rc6" / "rc6val.dat"
    if not path.is_file():
        pytest.skip("rc6/rc6val.dat is not in the shared kat folder")
    encryptions = [c for c in read_kat_file(path).cases if not c.decrypt]
    assert [(c.key.hex(), c.data.hex(), c.expected.hex()) for c in encryptions] == [
        tuple(v.lower() for v in vector) for vector in PAPER_VECTORS
    ]


# --- random blocks against Crypto++ --------------------------------------------------------------------

RANDOM_BLOCKS = 10_000
RANDOM_SEED = 1998


@pytest.fixture(scope="module", params=[128, 192, 256], ids=lambda bits: f"{bits}-bit")
def random_results(request: pytest.FixtureRequest):
    return random_workload(encrypt_block, decrypt_block, request.param, RANDOM_BLOCKS, RANDOM_SEED)


def test_random_blocks_against_cryptopp(random_results) -> None:
    # No maintained Python package implements RC6: Crypto++ is the oracle here.
    oracle = cryptopp_or_skip()
    pairs = [(r.key, r.block) for r in random_results]
    found = mismatches(random_results, oracle.encrypt("rc6", pairs), oracle.decrypt("rc6", pairs))
    assert found[:3] == []


def test_random_round_trips_and_traces() -> None:
    for result in random_workload(encrypt_block, decrypt_block, 128, 100, RANDOM_SEED + 1, blocks_per_key=1):
        assert decrypt_block(result.key, result.encrypted) == result.block
        assert encrypt_trace(result.key, result.block)[-1] == result.encrypted
        assert decrypt_trace(result.key, result.encrypted)[-1] == result.block
