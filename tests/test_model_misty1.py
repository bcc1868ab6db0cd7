"""The MISTY1 reference model against RFC 2994 (tables, ECB and CBC examples), Botan's file and Botan."""

from __future__ import annotations

import random
import re

import pytest
from oracles import mismatches, random_workload
from oracles.blocks import botan_batch

from cipherbench.ciphers.misty1 import CIPHER
from cipherbench.ciphers.misty1.model import (
    MISTY1,
    S7,
    S9,
    decrypt_block,
    decrypt_trace,
    encrypt_block,
    encrypt_trace,
    expand_key,
    fi,
    fi_reference,
    fl,
    fl_inv,
    trace_labels,
)
from cipherbench.ciphers.misty1.vectors import EXAMPLES, RFC2994_ECB, example_blocks, known_answers
from cipherbench.verify.kat_formats import read_botan_vec
from cipherbench.verify.vectors import kat_root

RFC_KEY = bytes.fromhex("00112233445566778899aabbccddeeff")


def _rfc_text() -> str:
    root = kat_root()
    path = root / "misty1" / "rfc2994.txt" if root else None
    if path is None or not path.is_file():
        pytest.skip("misty1/rfc2994.txt is not in the shared kat folder")
    return path.read_text().replace("\r", "")


# --- S-boxes and functions ----------------------------------------------------------------------------------


def test_sboxes_are_permutations() -> None:
    assert sorted(S7) == list(range(128))
    assert sorted(S9) == list(range(512))


def test_sboxes_match_the_rfc_text() -> None:
    text = _rfc_text()
    s7 = text[text.index("S7TABLE:") : text.index("S9TABLE:")]
    s9 = text[text.index("S9TABLE:") : text.index("Function FL takes")]
    s7_rows = re.findall(r"^\s+([0-7]0):((?: [0-9a-f]{2}){16})$", s7, re.M)
    s7_values = [v for _, row in s7_rows for v in row.split()]
    s9_values = [v for _, row in re.findall(r"^\s+([0-9a-f]{2}0):((?: [0-9a-f]{3}){16})$", s9, re.M)
                 for v in row.split()]  # fmt: skip
    assert tuple(int(v, 16) for v in s7_values) == S7
    assert tuple(int(v, 16) for v in s9_values) == S9


def test_tabulated_fi_matches_the_rfc_steps() -> None:
    rng = random.Random(2994)
    for fi_in in range(0, 1 << 16, 7):
        key = rng.getrandbits(16)
        assert fi(fi_in, key) == fi_reference(fi_in, key)


def test_fl_inv_inverts_fl_for_every_index() -> None:
    ek = tuple(expand_key(RFC_KEY))
    rng = random.Random(1)
    for k in range(10):
        for _ in range(100):
            x = rng.getrandbits(32)
            assert fl_inv(ek, fl(ek, x, k), k) == x


def test_expanded_key_layout() -> None:
    ek = expand_key(RFC_KEY)
    assert len(ek) == 32
    assert ek[:8] == [0x0011, 0x2233, 0x4455, 0x6677, 0x8899, 0xAABB, 0xCCDD, 0xEEFF]
    for i in range(8):
        assert ek[8 + i] == fi_reference(ek[i], ek[(i + 1) % 8])
        assert (ek[16 + i], ek[24 + i]) == (ek[8 + i] & 0x1FF, ek[8 + i] >> 9)


# --- RFC 2994 Appendix A ------------------------------------------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_appendix_a_examples_both_directions(example) -> None:
    blocks = list(example_blocks(example))
    assert len(blocks) == 2
    for key, block_in, block_out in blocks:
        assert encrypt_block(key, block_in) == block_out
        assert decrypt_block(key, block_out) == block_in


def test_appendix_a_as_printed_in_the_rfc_text() -> None:
    text = _rfc_text()
    appendix = text[text.index("Appendix A. Example Data of MISTY1") : text.index("Full Copyright")]
    fields = re.findall(r"(Key|IV|Plaintext|Ciphertext):\s+((?:[0-9a-f]{2} ?)+)", appendix)
    values = [(name, bytes.fromhex(value.replace(" ", ""))) for name, value in fields]
    names = ["Key", "Plaintext", "Ciphertext", "Key", "IV", "Plaintext", "Ciphertext"]
    assert [name for name, _ in values] == names
    assert (values[0][1], values[1][1], values[2][1]) == (RFC2994_ECB.key, RFC2994_ECB.plaintext,
                                                           RFC2994_ECB.ciphertext)  # fmt: skip
    cbc = EXAMPLES[1]
    assert (values[3][1], values[4][1], values[5][1], values[6][1]) == (cbc.key, cbc.iv, cbc.plaintext,
                                                                         cbc.ciphertext)  # fmt: skip
    assert len(list(known_answers())) == 4


def test_traces() -> None:
    plain = RFC2994_ECB.plaintext[:8]
    states = encrypt_trace(RFC_KEY, plain)
    assert len(states) == len(trace_labels()) == 14
    assert states[-1] == RFC2994_ECB.ciphertext[:8]
    # Odd rounds change only D0, even rounds only D1; the output swaps D0 and D1.
    for previous, current, label in zip(states, states[1:], trace_labels()[1:]):
        if label.startswith("round "):
            changes_d1 = int(label.split()[1]) % 2 == 0
            assert (previous[:4] == current[:4]) == changes_d1, label
    assert states[-1] == states[-2][4:] + states[-2][:4]
    back = decrypt_trace(RFC_KEY, states[-1])
    assert len(back) == len(trace_labels(decrypt=True)) == 14 and back[-1] == plain


# --- API, registry and errors -------------------------------------------------------------------------------


def test_vector_sets_pass() -> None:
    cipher = MISTY1()
    sets = dict(CIPHER.vector_sets((128,)))
    assert len(sets["rfc2994"]) == 8
    for cases in sets.values():
        for case in cases:
            run = cipher.decrypt if case.decrypt else cipher.encrypt
            assert run(case.key, case.data) == case.expected, case.source


# --- Botan's misty.vec --------------------------------------------------------------------------------------


def test_botan_file() -> None:
    root = kat_root()
    path = root / "misty1" / "misty.vec" if root else None
    if path is None or not path.is_file():
        pytest.skip("misty1/misty.vec is not in the shared kat folder")
    cases = read_botan_vec(path, block_bytes=8).cases
    assert len(cases) == 2 * 31
    # Its first two records are RFC 2994 Appendix A.
    encryptions = [(c.key, c.data, c.expected) for c in cases if not c.decrypt]
    assert encryptions[:2] == list(known_answers())[:2]
    for case in cases:
        run = decrypt_block if case.decrypt else encrypt_block
        assert run(case.key, case.data) == case.expected, case.source


# --- random blocks against Botan, the only independent MISTY1 available here --------------------------------

RANDOM_BLOCKS = 10_000
BLOCKS_PER_KEY = 2  # 5,000 fresh keys
RANDOM_SEED = 2994

def test_random_blocks_against_botan() -> None:
    workload = random_workload(encrypt_block, decrypt_block, 128, RANDOM_BLOCKS, RANDOM_SEED, BLOCKS_PER_KEY,
                               block_bytes=8)
    answers = botan_batch([("MISTY1", r.key, r.block) for r in workload])
    found = mismatches(workload, [e for e, _ in answers], [d for _, d in answers])
    assert not found, f"{len(found)} mismatches, first: {found[:3]}"
    assert len(workload) == RANDOM_BLOCKS


def test_random_round_trips_and_traces() -> None:
    rng = random.Random(RANDOM_SEED + 1)
    for _ in range(200):
        key, block = rng.randbytes(16), rng.randbytes(8)
        ciphertext = encrypt_block(key, block)
        assert decrypt_block(key, ciphertext) == block
        assert encrypt_trace(key, block)[-1] == ciphertext
        assert decrypt_trace(key, ciphertext)[-1] == block
