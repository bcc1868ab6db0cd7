"""The SEED cores, simulated from their generated Verilog: RFC 4269 and every SEED vector file
found, in both directions, random blocks with key changes against the model, and the cycle counts
measured in simulation. The iterative core: one I/O clock and 16 rounds, keys on the fly. The compact core
(seed/narrow, Sugawara et al. Fig. 6): one G function used three times per round, one for the key
schedule; its key-register walk is replayed against the model's round keys."""

from __future__ import annotations

import json

import pytest

from cipherbench.arch.base import CoreOptions
from cipherbench.cache import ensure_design
from cipherbench.ciphers.seed.hw import SeedHardware
from cipherbench.ciphers.seed.model import KC, _round_keys, g_function
from cipherbench.ciphers.seed.narrow import main_segment, round_key_index
from cipherbench.errors import CipherbenchError
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design

DESIGN = "seed/iterative"
CLOCKS = 17
# Sizes of the file sets (each case once per direction), checked when the file is present.
FILE_SETS = {"rfc-4269": 4, "Seed-128-128.unverified.test-vectors": 2056, "seed.txt": 8}


def test_every_vector_set_both_directions_and_random_blocks_with_key_changes() -> None:
    spec = parse(DESIGN)
    report = verify_design(spec, ensure_design(spec), random_blocks=1000)
    assert report.failed == 0, [s.first_failures for s in report.sets if s.failed]
    counts = {s.name: s.passed for s in report.sets}
    assert counts["rfc4269"] == 8  # Appendix B's four examples, encrypted and decrypted
    for name, size in FILE_SETS.items():
        if name in counts:
            assert counts[name] == size
    assert counts["random-vs-model (1000)"] == 1000


def test_cycle_counts_are_measured_as_designed() -> None:
    manifest = json.loads((ensure_design(parse(DESIGN)) / "manifest.json").read_text())
    assert manifest["cycles_by_key_size"] == {"128": {
        "latency": CLOCKS, "latency_decrypt": CLOCKS, "initiation_interval": CLOCKS,
        "cycles_per_chained_block": CLOCKS,
        "key_setup_encrypt": 0,         # the I/O clock computes K1
        "key_setup_decrypt": CLOCKS,    # one forward run-up per key, then stored
        "algorithm_setup": 0,
    }}
    assert manifest["parameters"]["data_sboxes"] == 12
    assert manifest["parameters"]["key_schedule_sboxes"] == 8


def test_key_schedule_constants_follow_the_rfc() -> None:
    # KC_{i+1} = KC_i rotated left by one (the golden-ratio constant of RFC 4269 section 2.3).
    assert all(KC[i + 1] == ((KC[i] << 1) | (KC[i] >> 31)) & 0xFFFFFFFF for i in range(15))
    hw = SeedHardware(CoreOptions(key_sizes=(128,)))
    # Key state: Key0..Key3, the next round key and this round's; the bus carries both keys.
    assert (hw.key_state_bits, hw.round_key_bits, hw.rounds(128)) == (256, 128, CLOCKS)


# --- the compact core (seed/narrow:width=32) -----------------------------------------------------

COMPACT = "seed/narrow"
# The load clock, a key-only round of two clocks (K1 or K16), 16 rounds of three clocks.
COMPACT_CLOCKS = 1 + 2 + 16 * 3


@pytest.mark.parametrize("design", [COMPACT, "seed/narrow:ops=decrypt"])
def test_compact_core_every_vector_set_and_random_blocks_with_key_changes(design: str) -> None:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=1000)
    assert report.failed == 0, [s.first_failures for s in report.sets if s.failed]
    counts = {s.name: s.passed for s in report.sets}
    both = spec.param_dict["ops"] == "both"
    assert counts["rfc4269"] == (8 if both else 4)
    for name, size in FILE_SETS.items():
        if name in counts:
            assert counts[name] == (size if both else size // 2)
    # A one-direction core takes the random blocks of its direction (514 of the 1000 here).
    random_set = "random-vs-model (1000)" if both else "random-vs-model (514)"
    assert counts[random_set] == (1000 if both else 514)


def test_compact_core_cycle_counts() -> None:
    manifest = json.loads((ensure_design(parse(COMPACT)) / "manifest.json").read_text())
    assert manifest["cycles_by_key_size"] == {"128": {
        "latency": COMPACT_CLOCKS, "latency_decrypt": COMPACT_CLOCKS,
        "initiation_interval": COMPACT_CLOCKS, "cycles_per_chained_block": COMPACT_CLOCKS,
        # The key register is back at the loaded key after every block: no run-up, no rewind.
        "key_setup_encrypt": 0, "key_setup_decrypt": 0, "algorithm_setup": 0,
    }}
    params = manifest["parameters"]
    assert (params["width"], params["g_functions"], params["clocks_per_round"]) == ("32", 2, 3)
    assert params["latency"] == main_segment().cycles(128) + 1 == COMPACT_CLOCKS


def _turn(w: list[int], i: int, undo: bool) -> list[int]:
    """RFC 4269's turn after K_i (or its inverse) on Key0..Key3."""
    k0, k1, k2, k3 = w
    if i & 1:
        v = k0 << 32 | k1
        v = (v << 8 | v >> 56) if undo else (v >> 8 | v << 56)
        v &= (1 << 64) - 1
        return [v >> 32, v & 0xFFFFFFFF, k2, k3]
    v = k2 << 32 | k3
    v = (v >> 8 | v << 56) if undo else (v << 8 | v >> 56)
    v &= (1 << 64) - 1
    return [k0, k1, v >> 32, v & 0xFFFFFFFF]


def test_compact_key_walk_gives_the_rfc_keys_and_returns_to_the_key() -> None:
    key = bytes.fromhex("4706480851E61BE85D74BFB3FD956185")  # RFC 4269 B.4
    words = [int.from_bytes(key[i:i + 4], "big") for i in range(0, 16, 4)]
    mask = 0xFFFFFFFF
    for decrypt in (False, True):
        w, made = list(words), []
        for counter in range(16):
            i = round_key_index(counter, decrypt)
            if decrypt:
                w = _turn(w, i, undo=True)     # step 1 turns back first
            k0, k1, k2, k3 = w
            made.append((g_function((k0 + k2 - KC[i - 1]) & mask),
                         g_function((k1 - k3 + KC[i - 1]) & mask)))
            if not decrypt:
                w = _turn(w, i, undo=False)    # step 2 turns after the key
        expected = list(_round_keys(key))
        assert made == (expected[::-1] if decrypt else expected)
        assert w == words  # eight 8-bit turns of each 64-bit half: the key again


def test_compact_core_offers_one_width_and_one_key_mode() -> None:
    with pytest.raises(CipherbenchError, match="width"):
        parse("seed/narrow:width=8")
    # The one key state returns to its start after every block: nothing to store, so the spec
    # offers only keys=rewind (restricts "narrow:keys"), and `cipherbench list` shows only that.
    with pytest.raises(CipherbenchError, match="valid: rewind"):
        parse("seed/narrow:keys=stored")


# keys=stored (arch/keymem.py, stored_decryption = "walk"): the fill writes the forward walk's
# round keys (17 + 1) and the backward walk's (17 + 1): key setup 36 in both directions.
STORED_SETUP = 2 * (CLOCKS + 1)
STORED = {"seed/iterative:keys=stored": CLOCKS, "seed/pipelined:keys=stored": 1}


# The full pipeline's fixed entries are covered in the default suite by DES's loaded pipeline
# (tests/test_keys_loaded.py); SEED's takes 45 s to build and runs with --runslow.
@pytest.mark.parametrize("design", [
    d if "iterative" in d else pytest.param(d, marks=pytest.mark.slow) for d in STORED])
def test_stored_round_keys_iterative_and_full_pipeline(design: str) -> None:
    from stored_pipelines import measured_cycles, pipeline_cycles, verify_stored_pipeline

    counts = verify_stored_pipeline(design)
    assert counts["rfc4269"] == 8
    for name, size in FILE_SETS.items():
        if name in counts:
            assert counts[name] == size
    assert measured_cycles(design)["128"] == pipeline_cycles(CLOCKS, STORED[design],
                                                             STORED_SETUP)


def test_pipeline_with_travelling_keys_is_refused_in_one_line() -> None:
    # Refused by the spec (restricts "pipelined:keys"): `cipherbench list` never offers it.
    with pytest.raises(CipherbenchError, match="valid: stored"):
        parse("seed/pipelined:keys=fly")
    assert parse("seed/pipelined").param_dict["keys"] == "stored"
