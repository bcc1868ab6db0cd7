"""The SEED reference model against RFC 4269 (tables, round keys, round states), files and two oracles."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from oracles import RandomResult, mismatches, per_key, random_workload
from oracles.blocks import botan_batch
from oracles.cryptopp import cryptopp_or_skip

from cipherbench.ciphers.seed import CIPHER
from cipherbench.ciphers.seed.model import (
    KC,
    S0,
    S1,
    SEED,
    SS0,
    SS1,
    SS2,
    SS3,
    decrypt_block,
    decrypt_trace,
    encrypt_block,
    encrypt_trace,
    expand_key,
    g_function,
    g_function_reference,
    trace_labels,
)
from cipherbench.ciphers.seed.vectors import EXAMPLES, known_answers, rfc4269_rsp
from cipherbench.verify.kat_formats import iterate, read_cryptopp_txt, read_nessie
from cipherbench.verify.vectors import kat_root, read_rsp
from cipherbench.verify.oracles import PycaEcb


def _kat_file(name: str) -> Path:
    root = kat_root()
    path = root / "seed" / name if root else None
    if path is None or not path.is_file():
        pytest.skip(f"seed/{name} is not in the shared kat folder")
    return path


def _rfc_text() -> str:
    text = _kat_file("rfc4269.txt").read_text().replace("\r", "")
    # Drop the page footers and headers so that tables read as one run.
    return re.sub(r"\n[^\n]*\[Page \d+\]\n\f?\s*\nRFC 4269[^\n]*\n", "\n", text)


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start) + len(start) : text.index(end)]


# --- S-boxes, G and constants -------------------------------------------------------------------------------


def test_sboxes_are_permutations() -> None:
    assert sorted(S0) == sorted(S1) == list(range(256))


def test_sboxes_match_the_rfc_text() -> None:
    text = _rfc_text()
    s0 = [int(v, 16) for v in re.findall(r"\b[0-9A-F]{2}\b", _section(text, "- S-Box S0", "- S-Box S1"))]
    s1 = [int(v, 16) for v in re.findall(r"\b[0-9A-F]{2}\b", _section(text, "- S-Box S1", "A.2."))]
    assert tuple(s0) == S0 and tuple(s1) == S1


@pytest.mark.parametrize("index", range(4))
def test_derived_ss_tables_match_appendix_a2(index: int) -> None:
    text = _rfc_text()
    ends = ["- S-Box SS1", "- S-Box SS2", "- S-Box SS3", "Appendix B."]
    words = re.findall(r"\b[0-9A-F]{8}\b", _section(text, f"- S-Box SS{index}", ends[index]))
    assert tuple(int(w, 16) for w in words) == (SS0, SS1, SS2, SS3)[index]


def test_g_through_ss_tables_equals_the_mask_definition() -> None:
    rng = random.Random(4269)
    for x in [0, 0xFFFFFFFF] + [rng.getrandbits(32) for _ in range(5000)]:
        assert g_function(x) == g_function_reference(x)


def test_key_constants_are_the_golden_ratio_rotated() -> None:
    # KC_i = 0x9E3779B9 <<< (i - 1): a check of the typed table against its construction.
    golden = 0x9E3779B9
    for i, constant in enumerate(KC):
        rotated = ((golden << i) | (golden >> (32 - i))) & 0xFFFFFFFF if i else golden
        assert constant == rotated, f"KC{i + 1}"


# --- RFC 4269 Appendix B: answers, round keys and round states ----------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_appendix_b_both_directions(example) -> None:
    assert encrypt_block(example.key, example.plaintext) == example.ciphertext
    assert decrypt_block(example.key, example.ciphertext) == example.plaintext


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_appendix_b_round_keys(example) -> None:
    assert tuple(expand_key(example.key)) == example.round_keys


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_appendix_b_round_states(example) -> None:
    states = encrypt_trace(example.key, example.plaintext)
    assert len(states) == len(trace_labels()) == 16
    assert example.round_inputs[0] == example.plaintext
    assert tuple(states[:15]) == example.round_inputs[1:]
    assert states[15] == example.ciphertext
    assert example.round_inputs[15][8:] == example.ciphertext[8:]  # no swap in round 16


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_decrypt_trace_walks_the_states_back(example) -> None:
    states = decrypt_trace(example.key, example.ciphertext)
    assert states[-1] == example.plaintext
    # After decryption round r the block is round input 16-r with its halves swapped (the Feistel mirror).
    for r in range(1, 16):
        expected = example.round_inputs[16 - r]
        assert states[r - 1] == expected[8:] + expected[:8], r


def test_appendix_b_as_printed_in_the_rfc_text() -> None:
    text = _rfc_text()
    appendix = text[text.index("Appendix B.  Test Vectors") :]
    blocks = re.split(r"\nB\.\d\.\n", appendix)[1:]
    assert len(blocks) == len(EXAMPLES) == 4
    for block, example in zip(blocks, EXAMPLES):
        fields = {
            name: bytes.fromhex(value.replace(" ", ""))
            for name, value in re.findall(r"(Key|Plaintext|Ciphertext)\s*:\s*((?:[0-9A-F]{2} ?)+)", block)
        }
        assert (fields["Key"], fields["Plaintext"], fields["Ciphertext"]) == (
            example.key, example.plaintext, example.ciphertext)  # fmt: skip
        rows = re.findall(r"Round\s+\d+ : (\w{8}) (\w{8}) \| (\w{8}) (\w{8}) (\w{8}) (\w{8})", block)
        assert tuple(bytes.fromhex(a + b) for a, b, *_ in rows) == example.round_keys
        assert tuple(bytes.fromhex("".join(rest)) for _, _, *rest in rows) == example.round_inputs


# --- API, registry and errors -------------------------------------------------------------------------------


def test_vector_sets_pass() -> None:
    cipher = SEED()
    sets = dict(CIPHER.vector_sets((128,)))
    assert len(sets["rfc4269"]) == 8 and len(list(known_answers())) == 4
    for cases in sets.values():
        for case in cases:
            run = cipher.decrypt if case.decrypt else cipher.encrypt
            assert run(case.key, case.data) == case.expected, case.source
    assert list(CIPHER.vector_sets((192,))) == []


# --- files: pyca .rsp, NESSIE, Crypto++ ---------------------------------------------------------------------


def test_pyca_rfc4269_file() -> None:
    path = rfc4269_rsp()
    if path is None:
        pytest.skip("rfc-4269.txt: neither cryptography_vectors nor the shared kat folder has it")
    cases = read_rsp(path, block_bytes=16)
    assert len(cases) == 4
    assert [(c.key, c.data, c.expected) for c in cases] == list(known_answers())


def test_nessie_file(request: pytest.FixtureRequest) -> None:
    kat = read_nessie(_kat_file("Seed-128-128.unverified.test-vectors"))
    assert len(kat.cases) == 2 * 1028 and len(kat.iterated) == 2 * 514
    for case in kat.cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source
    # Iterated values cost 100 + 1000 encryptions per vector: one in six unless --runslow.
    every = request.config.getoption("--runslow", default=False)
    sample = kat.iterated if every else [c for i, c in enumerate(kat.iterated) if (i // 2) % 6 == 0]
    for case in sample:
        assert iterate(SEED(), case) == case.expected, case.source


def test_cryptopp_seed_test_vectors() -> None:
    # Crypto++ TestVectors/seed.txt: the four RFC 4269 triples again.
    kat = read_cryptopp_txt(_kat_file("seed.txt"))
    encryptions = [(c.key, c.data, c.expected) for c in kat.cases if not c.decrypt]
    assert encryptions == list(known_answers()) and len(kat.cases) == 8
    for case in kat.cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


# --- random blocks against independent implementations ------------------------------------------------------

RANDOM_BLOCKS = 10_000
BLOCKS_PER_KEY = 4  # 2,500 fresh keys
RANDOM_SEED = 4269


@pytest.fixture(scope="module")
def workload() -> list[RandomResult]:
    """The model's encryption and decryption of 10,000 random blocks (the block is decrypted as is)."""
    return random_workload(encrypt_block, decrypt_block, 128, RANDOM_BLOCKS, RANDOM_SEED, BLOCKS_PER_KEY)


def _assert_same(results: list[RandomResult], encrypted: list[bytes], decrypted: list[bytes]) -> None:
    found = mismatches(results, encrypted, decrypted)
    assert not found, f"{len(found)} mismatches, first: {found[:3]}"


def test_random_blocks_against_cryptography(workload) -> None:
    algorithms = pytest.importorskip("cryptography.hazmat.decrepit.ciphers.algorithms")

    def make(key: bytes) -> object:
        return PycaEcb(algorithms.SEED(key))

    assert len(workload) == RANDOM_BLOCKS
    _assert_same(workload, per_key(workload, make, "encrypt"), per_key(workload, make, "decrypt"))


def test_random_blocks_against_cryptopp(workload) -> None:
    oracle = cryptopp_or_skip()
    pairs = [(r.key, r.block) for r in workload]
    _assert_same(workload, oracle.encrypt("seed", pairs), oracle.decrypt("seed", pairs))


def test_random_blocks_against_botan(workload) -> None:
    answers = botan_batch([("SEED", r.key, r.block) for r in workload])
    _assert_same(workload, [e for e, _ in answers], [d for _, d in answers])


def test_random_round_trips_and_traces() -> None:
    rng = random.Random(RANDOM_SEED + 1)
    for _ in range(200):
        key, block = rng.randbytes(16), rng.randbytes(16)
        ciphertext = encrypt_block(key, block)
        assert decrypt_block(key, ciphertext) == block
        assert encrypt_trace(key, block)[-1] == ciphertext
        assert decrypt_trace(key, ciphertext)[-1] == block
