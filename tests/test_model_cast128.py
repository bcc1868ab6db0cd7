"""The CAST-128 reference model against RFC 2144 (S-boxes, B.1, B.2), files and two oracles, all key sizes."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from oracles import RandomResult, mismatches, per_key, random_workload
from oracles.cryptopp import cryptopp_or_skip

from cipherbench.ciphers.cast128 import CIPHER
from cipherbench.ciphers.cast128.model import (
    CAST128,
    KEY_SIZES,
    S1,
    S2,
    S3,
    S4,
    S5,
    S6,
    S7,
    S8,
    decrypt_block,
    decrypt_trace,
    encrypt_block,
    encrypt_trace,
    expand_key,
    rounds,
    subkeys,
    trace_labels,
)
from cipherbench.ciphers.cast128.vectors import RFC2144_B1, RFC2144_B2, cast5_ecb_file, known_answers
from cipherbench.errors import CipherbenchError
from cipherbench.verify.kat_formats import iterate, read_cryptopp_dat, read_nessie
from cipherbench.verify.vectors import kat_root, read_rsp
from cipherbench.verify.oracles import PycaEcb

SBOXES = (S1, S2, S3, S4, S5, S6, S7, S8)


def _kat_file(name: str) -> Path:
    root = kat_root()
    path = root / "cast128" / name if root else None
    if path is None or not path.is_file():
        pytest.skip(f"cast128/{name} is not in the shared kat folder")
    return path


# --- S-boxes, key sizes and the key schedule ----------------------------------------------------------------


def test_sboxes_have_256_distinct_32_bit_words() -> None:
    for box in SBOXES:
        assert len(box) == 256 and len(set(box)) == 256 and all(0 <= w < 2**32 for w in box)


def test_sboxes_match_the_rfc_text() -> None:
    text = _kat_file("rfc2144.txt").read_text().replace("\r", "")
    appendix = text[text.index("Appendix A. S-Boxes") : text.index("Appendix B. Test Vectors")]
    parts = re.split(r"S-Box S(\d)\n", appendix)[1:]
    boxes = {}
    for number, body in zip(parts[0::2], parts[1::2]):
        words = [w for line in body.splitlines() if re.fullmatch(r"(?:[0-9a-f]{8} ){7}[0-9a-f]{8}\s*", line)
                 for w in line.split()]  # fmt: skip
        boxes[int(number)] = tuple(int(w, 16) for w in words)
    assert [boxes[n] for n in range(1, 9)] == list(SBOXES)


def test_key_sizes_and_round_counts() -> None:
    assert KEY_SIZES == (40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128)
    assert [rounds(bits) for bits in KEY_SIZES] == [12] * 6 + [16] * 6
    assert [len(expand_key(bytes(bits // 8))) for bits in (40, 80, 88, 128)] == [12, 12, 16, 16]


def test_short_keys_are_not_their_zero_padded_128_bit_form() -> None:
    # The PITFALL: an 80-bit key uses the padded key's subkeys but stops after 12 rounds.
    key80 = bytes.fromhex("01234567123456782345")
    assert subkeys(key80) == subkeys(key80 + bytes(6))
    block = bytes.fromhex("0123456789abcdef")
    assert encrypt_block(key80, block) == bytes.fromhex("eb6a711a2c02271b")
    assert encrypt_block(key80 + bytes(6), block) != encrypt_block(key80, block)


def test_keys_above_80_bits_equal_their_zero_padded_form() -> None:
    # Both run 16 rounds on the same padded schedule, so they are the same cipher (RFC 2144 2.5 rule 3).
    rng = random.Random(2144)
    for key_bytes in range(11, 16):
        key, block = rng.randbytes(key_bytes), rng.randbytes(8)
        assert encrypt_block(key, block) == encrypt_block(key.ljust(16, b"\0"), block)


def test_rotation_subkeys_are_five_bits() -> None:
    pairs = expand_key(bytes.fromhex("0123456712345678234567893456789a"))
    assert all(0 <= kr < 32 and 0 <= km < 2**32 for km, kr in pairs)
    keys = subkeys(bytes.fromhex("0123456712345678234567893456789a"))
    assert [km for km, _ in pairs] == keys[:16] and [kr for _, kr in pairs] == [k & 31 for k in keys[16:]]


# --- RFC 2144 Appendix B ------------------------------------------------------------------------------------


@pytest.mark.parametrize("example", RFC2144_B1, ids=lambda e: e.name)
def test_b1_examples_both_directions(example) -> None:
    assert encrypt_block(example.key, example.plaintext) == example.ciphertext
    assert decrypt_block(example.key, example.ciphertext) == example.plaintext


def _spaced_hex(text: str) -> bytes:
    return bytes.fromhex(text.replace(" ", ""))


def test_b1_as_printed_in_the_rfc_text() -> None:
    text = _kat_file("rfc2144.txt").read_text().replace("\r", "")
    section = text[text.index("B.1. Single Plaintext") : text.index("B.2. Full Maintenance")]
    found = []
    for bits, key, padded, plain, cipher in re.findall(
        r"(\d+)-bit\s+key\s+=\s+([0-9A-F ]+?)\n(?:\s+=\s+([0-9A-F ]+?)\n)?"
        r"\s+plaintext\s+=\s+([0-9A-F ]+?)\n\s+ciphertext\s+=\s+([0-9A-F ]+?)\n", section):
        key_bytes = _spaced_hex(key)
        assert len(key_bytes) * 8 == int(bits)
        if padded:
            assert _spaced_hex(padded) == key_bytes.ljust(16, b"\0")
        found.append((key_bytes, _spaced_hex(plain), _spaced_hex(cipher)))
    assert found == list(known_answers())


def _maintenance(encrypt: Callable[[bytes, bytes], bytes], iterations: int) -> tuple[bytes, bytes]:
    """RFC 2144 B.2's loop: aL, aR encrypted under b, then bL, bR under the new a."""
    a, b = RFC2144_B2.initial_a, RFC2144_B2.initial_b
    for _ in range(iterations):
        a = encrypt(b, a[:8]) + encrypt(b, a[8:])
        b = encrypt(a, b[:8]) + encrypt(a, b[8:])
    return a, b


def test_maintenance_loop_short_run_against_pycryptodome() -> None:
    # The full B.2 run takes minutes in pure Python; 2,000 iterations against an oracle check the same loop.
    cast = pytest.importorskip("Crypto.Cipher.CAST", reason="pycryptodome is not installed")

    def oracle(key: bytes, block: bytes) -> bytes:
        return cast.new(key, cast.MODE_ECB).encrypt(block)

    assert _maintenance(encrypt_block, 2000) == _maintenance(oracle, 2000)


@pytest.mark.slow
def test_full_maintenance_test_b2(request: pytest.FixtureRequest) -> None:
    if not request.config.getoption("--runslow", default=False):
        pytest.skip("RFC 2144 B.2 runs a million iterations (about 2-3 minutes); use --runslow")
    a, b = _maintenance(encrypt_block, RFC2144_B2.iterations)
    assert (a, b) == (RFC2144_B2.final_a, RFC2144_B2.final_b)


def test_traces() -> None:
    for example in RFC2144_B1:
        bits = len(example.key) * 8
        states = encrypt_trace(example.key, example.plaintext)
        assert len(states) == len(trace_labels(bits)) == rounds(bits) + 1
        assert states[-1] == example.ciphertext == states[-2][4:] + states[-2][:4]
        assert states[0][:4] == example.plaintext[4:]  # L1 = R0
        assert decrypt_trace(example.key, example.ciphertext)[-1] == example.plaintext


# --- API, registry and errors -------------------------------------------------------------------------------


def test_vector_sets_pass_and_filter_by_key_size() -> None:
    cipher = CAST128()
    sets = dict(CIPHER.vector_sets(KEY_SIZES))
    assert len(sets["rfc2144"]) == 6
    for cases in sets.values():
        for case in cases:
            run = cipher.decrypt if case.decrypt else cipher.encrypt
            assert run(case.key, case.data) == case.expected, case.source
    only_80 = dict(CIPHER.vector_sets((80,)))
    assert {len(c.key) for cases in only_80.values() for c in cases} == {10}


def test_rounds_rejects_other_sizes() -> None:
    for bits in (32, 44, 136):
        with pytest.raises(CipherbenchError, match="40..128 bits"):
            rounds(bits)


# --- files: pyca .rsp, NESSIE, Crypto++ ---------------------------------------------------------------------


def test_pyca_cast5_ecb_file() -> None:
    path = cast5_ecb_file()
    if path is None:
        pytest.skip("cast5-ecb.txt: neither cryptography_vectors nor the shared kat folder has it")
    cases = read_rsp(path, block_bytes=8)
    assert [(c.key, c.data, c.expected) for c in cases] == list(known_answers())


def test_nessie_file(request: pytest.FixtureRequest) -> None:
    kat = read_nessie(_kat_file("Cast-128-128-64.verified.test-vectors"))
    assert len(kat.cases) == 2 * 900 and len(kat.iterated) == 2 * 450
    for case in kat.cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source
    # Iterated values cost 100 + 1000 encryptions per vector: one in three unless --runslow.
    every = request.config.getoption("--runslow", default=False)
    sample = kat.iterated if every else [c for i, c in enumerate(kat.iterated) if (i // 2) % 3 == 0]
    for case in sample:
        assert iterate(CAST128(), case) == case.expected, case.source


def test_cryptopp_cast128v_file() -> None:
    # Crypto++ TestData/cast128v.dat: RFC 2144 B.1 again, as lines of spaced hex bytes.
    kat = read_cryptopp_dat(_kat_file("cast128v.dat"))
    assert [(c.key, c.data, c.expected) for c in kat.cases if not c.decrypt] == list(known_answers())
    for case in kat.cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


# --- random blocks against independent implementations, every key size --------------------------------------

RANDOM_BLOCKS = 10_000  # per key size
BLOCKS_PER_KEY = 4  # 2,500 fresh keys per size
RANDOM_SEED = 2144


@pytest.fixture(scope="module")
def workload() -> dict[int, list[RandomResult]]:
    """Per key size 40..128, the model's encryption and decryption of 10,000 random blocks."""
    return {
        bits: random_workload(encrypt_block, decrypt_block, bits, RANDOM_BLOCKS, RANDOM_SEED, BLOCKS_PER_KEY,
                              block_bytes=8)
        for bits in KEY_SIZES
    }


def _assert_same(results: list[RandomResult], encrypted: list[bytes], decrypted: list[bytes]) -> None:
    found = mismatches(results, encrypted, decrypted)
    assert not found, f"{len(found)} mismatches, first: {found[:3]}"


def test_random_workload_covers_every_key_size(workload) -> None:
    assert sorted(workload) == list(KEY_SIZES)
    assert all(len(results) == RANDOM_BLOCKS for results in workload.values())


def test_random_blocks_against_pycryptodome(workload) -> None:
    # pycryptodome's CAST takes 5..16-byte keys and applies the 12-round rule itself: the short-key oracle.
    cast = pytest.importorskip("Crypto.Cipher.CAST", reason="pycryptodome is not installed")

    def make(key: bytes) -> object:
        return cast.new(key, cast.MODE_ECB)

    for results in workload.values():
        _assert_same(results, per_key(results, make, "encrypt"), per_key(results, make, "decrypt"))


def test_random_blocks_against_cryptography(workload) -> None:
    algorithms = pytest.importorskip("cryptography.hazmat.decrepit.ciphers.algorithms")

    def make(key: bytes) -> object:
        return PycaEcb(algorithms.CAST5(key))

    for results in workload.values():
        _assert_same(results, per_key(results, make, "encrypt"), per_key(results, make, "decrypt"))


def test_random_blocks_against_cryptopp(workload) -> None:
    oracle = cryptopp_or_skip()
    for results in workload.values():
        pairs = [(r.key, r.block) for r in results]
        _assert_same(results, oracle.encrypt("cast128", pairs), oracle.decrypt("cast128", pairs))


def test_random_round_trips_and_traces() -> None:
    rng = random.Random(RANDOM_SEED + 1)
    for _ in range(300):
        key, block = rng.randbytes(rng.randint(5, 16)), rng.randbytes(8)
        ciphertext = encrypt_block(key, block)
        assert decrypt_block(key, ciphertext) == block
        assert encrypt_trace(key, block)[-1] == ciphertext
        assert decrypt_trace(key, ciphertext)[-1] == block
