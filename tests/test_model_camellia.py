"""The Camellia reference model against RFC 3713, NTT/NESSIE/Crypto++ files and two oracles."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from oracles import RandomResult, mismatches, per_key, random_workload
from oracles.blocks import botan_batch
from oracles.cryptopp import cryptopp_or_skip

from cipherbench.ciphers.camellia import CIPHER
from cipherbench.ciphers.camellia.model import (
    SBOX1,
    SBOX2,
    SBOX3,
    SBOX4,
    Camellia,
    decrypt_block,
    decrypt_trace,
    encrypt_block,
    encrypt_trace,
    expand_key,
    f_function,
    f_function_reference,
    fl,
    fl_inv,
    key_variables,
    rounds,
    trace_labels,
)
from cipherbench.ciphers.camellia.vectors import RFC3713_A, known_answers, ntt_file, read_ntt
from cipherbench.errors import CipherbenchError
from cipherbench.verify.kat_formats import iterate, read_cryptopp_dat, read_cryptopp_txt, read_nessie
from cipherbench.verify.vectors import VectorCase, kat_root
from cipherbench.verify.oracles import PycaEcb


def _kat_file(name: str) -> Path:
    root = kat_root()
    path = root / "camellia" / name if root else None
    if path is None or not path.is_file():
        pytest.skip(f"camellia/{name} is not in the shared kat folder")
    return path


# --- S-boxes and building blocks ----------------------------------------------------------------------------


def test_sboxes_are_permutations_and_derived_as_the_rfc_says() -> None:
    for box in (SBOX1, SBOX2, SBOX3, SBOX4):
        assert sorted(box) == list(range(256))
    assert SBOX1[0x3D] == 86  # the RFC's own example
    assert SBOX2[0] == ((SBOX1[0] << 1) | (SBOX1[0] >> 7)) & 0xFF
    assert SBOX4[0x80] == SBOX1[0x01]


def test_sbox1_matches_the_rfc_text() -> None:
    text = _kat_file("rfc3713.txt").read_text()
    rows = re.findall(r"^\s+([0-9a-f])0:((?:\s+\d{1,3}){16})\s*$", text, re.MULTILINE)
    assert len(rows) == 16
    assert tuple(int(v) for _, values in rows for v in values.split()) == SBOX1


def test_table_f_function_matches_the_byte_by_byte_definition() -> None:
    rng = random.Random(3713)
    for _ in range(3000):
        x, k = rng.getrandbits(64), rng.getrandbits(64)
        assert f_function(x, k) == f_function_reference(x, k)


def test_fl_inv_inverts_fl() -> None:
    rng = random.Random(1)
    for _ in range(1000):
        x, k = rng.getrandbits(64), rng.getrandbits(64)
        assert fl_inv(fl(x, k), k) == x


# --- key schedule -------------------------------------------------------------------------------------------


def test_subkey_names_and_counts() -> None:
    small = expand_key(bytes(16))
    assert len(small) == 26 and list(small)[:4] == ["kw1", "kw2", "k1", "k2"]
    assert list(small)[8:10] == ["ke1", "ke2"] and list(small)[-2:] == ["kw3", "kw4"]
    for key_bytes in (24, 32):
        large = expand_key(bytes(key_bytes))
        assert len(large) == 34 and "k24" in large and "ke6" in large
    assert all(len(v) == 8 for v in small.values())
    assert [rounds(b) for b in (128, 192, 256)] == [18, 24, 24]


def test_key_variables_follow_section_2_2() -> None:
    key = bytes(range(24))
    variables = key_variables(key)
    k = int.from_bytes(key, "big")
    assert variables["KL"] == k >> 64
    low = k & (2**64 - 1)
    assert variables["KR"] == (low << 64) | (low ^ (2**64 - 1))
    assert set(key_variables(bytes(16))) == {"KL", "KR", "KA"}
    # kw1 || kw2 is KL itself for every key size.
    for key_bytes in (16, 24, 32):
        key = bytes(range(1, key_bytes + 1))
        subkeys = expand_key(key)
        assert subkeys["kw1"] + subkeys["kw2"] == key[:16]


# --- RFC 3713 Appendix A ------------------------------------------------------------------------------------


@pytest.mark.parametrize("example", RFC3713_A, ids=lambda e: e.name)
def test_rfc3713_examples_both_directions(example) -> None:
    assert encrypt_block(example.key, example.plaintext) == example.ciphertext
    assert decrypt_block(example.key, example.ciphertext) == example.plaintext


def test_rfc3713_appendix_text() -> None:
    # The appendix as printed: "Key : hex" (continued on ': hex' lines), "Plaintext :", "Ciphertext:".
    text = _kat_file("rfc3713.txt").read_text().replace("\r", "")
    appendix = text[text.index("Appendix A.  Example Data of Camellia") :]
    found = []
    for block in re.findall(r"Key\s*:(.*?)Plaintext\s*:(.*?)\n\s*Ciphertext:(.*?)\n", appendix, re.DOTALL):
        key, plain, cipher = (bytes.fromhex(part.replace(":", " ")) for part in block)
        found.append((key, plain, cipher))
        assert encrypt_block(key, plain) == cipher
    assert found == list(known_answers())


def test_trace_shape() -> None:
    for example in RFC3713_A:
        bits = len(example.key) * 8
        states = encrypt_trace(example.key, example.plaintext)
        assert len(states) == len(trace_labels(bits)) == rounds(bits) + rounds(bits) // 6 - 1 + 2
        assert states[-1] == example.ciphertext
        first = bytes(a ^ b for a, b in zip(example.plaintext, example.key[:16]))
        assert states[0] == first  # prewhitening with kw1 || kw2 = KL
        assert decrypt_trace(example.key, example.ciphertext)[-1] == example.plaintext


def test_feistel_rounds_change_one_half_each() -> None:
    example = RFC3713_A[0]
    states = encrypt_trace(example.key, example.plaintext)
    labels = trace_labels(128)
    for previous, current, label in zip(states, states[1:], labels[1:]):
        if label.startswith("round "):
            changed = int(label.split()[1]) % 2  # odd rounds change D2 (the right half)
            assert (previous[:8] == current[:8]) == bool(changed), label


# --- API, registry and errors -------------------------------------------------------------------------------


def test_vector_sets_pass() -> None:
    cipher = Camellia()
    sets = dict(CIPHER.vector_sets((128, 192, 256)))
    assert len(sets["rfc3713"]) == 6
    for cases in sets.values():
        for case in cases:
            run = cipher.decrypt if case.decrypt else cipher.encrypt
            assert run(case.key, case.data) == case.expected, case.source
    assert [len(c.key) for c in dict(CIPHER.vector_sets((192,)))["rfc3713"]] == [24, 24]


def test_wrong_key_size_for_rounds() -> None:
    with pytest.raises(CipherbenchError, match="128, 192 or 256"):
        rounds(64)


# --- files: NTT (pyca), NESSIE, Crypto++ --------------------------------------------------------------------


@pytest.mark.parametrize("bits", [128, 192, 256])
def test_ntt_file(bits: int) -> None:
    path = ntt_file(bits)
    if path is None:
        pytest.skip(f"camellia-{bits}-ecb.txt: neither cryptography_vectors nor the shared kat folder has it")
    cases = read_ntt(path)
    assert len(cases) == 2 * 1280  # 10 keys x 128 plaintexts, both directions
    for case in cases:
        assert len(case.key) * 8 == bits
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


def test_ntt_reader_rejects_garbage(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("K No.001 : 00 11\nnonsense\n")
    with pytest.raises(CipherbenchError, match="bad.txt:2"):
        read_ntt(bad)


def _check_cases(cases: list[VectorCase]) -> None:
    for case in cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


def test_nessie_file(request: pytest.FixtureRequest) -> None:
    kat = read_nessie(_kat_file("Camellia-128-128.verified.test-vectors"))
    assert len(kat.cases) == 2 * 1028 and len(kat.iterated) == 2 * 514
    _check_cases(kat.cases)
    # Iterated values cost 100 + 1000 encryptions per vector: one in five unless --runslow.
    every = request.config.getoption("--runslow", default=False)
    sample = kat.iterated if every else [c for i, c in enumerate(kat.iterated) if (i // 2) % 5 == 0]
    for case in sample:
        assert iterate(Camellia(), case) == case.expected, case.source


def test_cryptopp_camellia_dat() -> None:
    # Crypto++ TestData/camellia.dat: KEY PLAINTEXT CIPHERTEXT triples, all three key sizes.
    kat = read_cryptopp_dat(_kat_file("camellia.dat"))
    assert len(kat.cases) == 2 * 45 and {len(c.key) for c in kat.cases} == {16, 24, 32}
    _check_cases(kat.cases)


def test_cryptopp_camellia_test_vectors() -> None:
    # Crypto++ TestVectors/camellia.txt: the NESSIE sets for 128-, 192- and 256-bit keys.
    kat = read_cryptopp_txt(_kat_file("camellia.txt"))
    assert len(kat.cases) == 2 * 1728 and {len(c.key) for c in kat.cases} == {16, 24, 32}
    _check_cases(kat.cases)


# --- random blocks against independent implementations ------------------------------------------------------

RANDOM_BLOCKS = 10_000  # per key size
BLOCKS_PER_KEY = 4  # 2,500 fresh keys per size
RANDOM_SEED = 3713


@pytest.fixture(scope="module")
def workload() -> dict[int, list[RandomResult]]:
    """Per key size, the model's encryption and decryption of 10,000 random blocks."""
    return {
        bits: random_workload(encrypt_block, decrypt_block, bits, RANDOM_BLOCKS, RANDOM_SEED, BLOCKS_PER_KEY)
        for bits in (128, 192, 256)
    }


def _assert_same(results: list[RandomResult], encrypted: list[bytes], decrypted: list[bytes]) -> None:
    found = mismatches(results, encrypted, decrypted)
    assert not found, f"{len(found)} mismatches, first: {found[:3]}"


def test_random_workload_covers_every_key_size(workload) -> None:
    sizes = {bits: len(results) for bits, results in workload.items()}
    assert sizes == dict.fromkeys((128, 192, 256), RANDOM_BLOCKS)


def test_random_blocks_against_cryptography(workload) -> None:
    algorithms = pytest.importorskip("cryptography.hazmat.decrepit.ciphers.algorithms")

    def make(key: bytes) -> object:
        return PycaEcb(algorithms.Camellia(key))

    for results in workload.values():
        _assert_same(results, per_key(results, make, "encrypt"), per_key(results, make, "decrypt"))


def test_random_blocks_against_cryptopp(workload) -> None:
    oracle = cryptopp_or_skip()
    for results in workload.values():
        pairs = [(r.key, r.block) for r in results]
        _assert_same(results, oracle.encrypt("camellia", pairs), oracle.decrypt("camellia", pairs))


def test_random_blocks_against_botan(workload) -> None:
    for bits, results in workload.items():
        answers = botan_batch([(f"Camellia-{bits}", r.key, r.block) for r in results])
        _assert_same(results, [e for e, _ in answers], [d for _, d in answers])


def test_random_round_trips_and_traces() -> None:
    rng = random.Random(RANDOM_SEED + 1)
    for _ in range(200):
        key, block = rng.randbytes(rng.choice((16, 24, 32))), rng.randbytes(16)
        ciphertext = encrypt_block(key, block)
        assert decrypt_block(key, ciphertext) == block
        assert encrypt_trace(key, block)[-1] == ciphertext
        assert decrypt_trace(key, ciphertext)[-1] == block
