"""The CAST-128 loop core (cast128/narrow: width=64, one round per clock, Sugawara et al. Fig. 10),
simulated from its generated Verilog: every vector set both ways for all twelve key sizes, random
blocks with key and key-size changes against the model, the exact cycle counts; the key-setup
phases replayed in Python against the model's subkeys; the iterative and full pipelined cores
with round keys loaded from outside; the specs that cannot be built refused."""

from __future__ import annotations

import json
import random

import pytest

from cipherbench.arch.base import CoreOptions
from cipherbench.cache import ensure_design
from cipherbench.ciphers.cast128 import model
from cipherbench.ciphers.cast128.hw import (
    EXTRA_WORD,
    CastHardware,
    PHASE_STEPS,
    SCHEDULE_SBOXES,
    lookup_source,
    setup_phases,
    update_registers,
)
from cipherbench.errors import CipherbenchError
from cipherbench.kinds.generated import build_core
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design

# RFC 2144 B.1: one block under a 128-, an 80- and a 40-bit key, both directions.
RFC2144_CASES = 6


def _word_bytes(words: list[int]) -> list[int]:
    return [(w >> (24 - 8 * b)) & 0xFF for w in words for b in range(4)]


def replay_setup(key: bytes) -> list[int]:
    """The setup phases as the hardware runs them (registers, lookups, writes), on integers;
    returns K1..K32 in the order the ring takes them."""
    x = [int.from_bytes(key.ljust(16, b"\0")[4 * w:4 * w + 4], "big") for w in range(4)]
    regs = {"x": x, "z": [0] * 4}
    keys: list[int] = []
    for phase in range(16):
        u = phase // 2
        for step in range(PHASE_STEPS):
            out = {}
            for box, table in SCHEDULE_SBOXES.items():
                reg, index = lookup_source(phase, step, box)
                out[box] = table[_word_bytes(regs[reg])[index]]
            main = out[5] ^ out[6] ^ out[7] ^ out[8]
            src, dst, lines = update_registers(u)
            if phase % 2 == 0 and step == 0:
                regs[dst] = [regs[src][start // 4] ^ out[box] for _, start, _, box, _ in lines]
            elif phase % 2 == 0:
                regs[dst][step - 1] ^= main
            elif step == 0:
                for box, word in EXTRA_WORD.items():
                    regs[src][word] = out[box]
            else:
                keys.append(regs[src][EXTRA_WORD[4 + step]] ^ main)
    return keys


def test_setup_phases_compute_the_rfc_subkeys() -> None:
    rng = random.Random(2144)
    for size in (5, 10, 11, 16):
        for _ in range(10):
            key = rng.randbytes(size)
            assert replay_setup(key) == model.subkeys(key)
    # 12-round keys stop after the group that gives K25-K28.
    assert (setup_phases(80), setup_phases(88)) == (14, 16)


DESIGN = "cast128/narrow"


def test_every_vector_set_both_directions_and_random_blocks() -> None:
    spec = parse(DESIGN)
    report = verify_design(spec, ensure_design(spec), random_blocks=1200)
    assert report.failed == 0
    counts = {s.name: s.passed for s in report.sets}
    assert counts["rfc2144"] == RFC2144_CASES
    # 1200 blocks, a new random key every 7, the twelve key sizes in turn: each size about
    # 14 keys, both directions mixed under each.
    assert counts["random-vs-model (1200)"] == 1200
    assert all(n > 0 for n in counts.values())


def test_cycle_counts_per_round_count() -> None:
    manifest = json.loads((ensure_design(parse(DESIGN)) / "manifest.json").read_text())
    by_size = manifest["cycles_by_key_size"]
    assert sorted(map(int, by_size)) == list(range(40, 129, 8))
    for bits, counts in by_size.items():
        rounds = 12 if int(bits) <= 80 else 16
        # One load clock and one clock per round; the setup: the clock the waiting block
        # starts it, then 5 clocks per phase (14 or 16 phases), once per key and direction.
        setup = 1 + 5 * setup_phases(int(bits))
        assert counts == {"latency": 1 + rounds, "latency_decrypt": 1 + rounds,
                          "initiation_interval": 1 + rounds,
                          "cycles_per_chained_block": 1 + rounds,
                          "key_setup_encrypt": setup, "key_setup_decrypt": setup,
                          "algorithm_setup": 0}
    assert manifest["parameters"]["latency_16_rounds"] == 17
    assert manifest["parameters"]["key_setup_12_rounds"] == 71


# The generic generators take CAST-128's round keys from outside (keys=loaded): the loop core with
# its one generic round, and a full pipeline for all twelve key sizes (units of one type per
# direction folded to constants, the rest reading the type from the round key).
LOADED_DESIGNS = ["cast128/iterative", "cast128/pipelined"]


@pytest.mark.parametrize("design", LOADED_DESIGNS)
def test_loaded_round_keys_on_the_generic_generators(design: str) -> None:
    spec = parse(design)
    assert dict(spec.params)["keys"] == "loaded"
    report = verify_design(spec, ensure_design(spec), random_blocks=300)
    assert report.failed == 0
    counts = {s.name: s.passed for s in report.sets}
    assert counts["rfc2144"] == RFC2144_CASES
    assert counts["random-vs-model (300)"] == 300


def test_full_pipeline_cycle_counts() -> None:
    manifest = json.loads((ensure_design(parse("cast128/pipelined")) / "manifest.json").read_text())
    by_size = manifest["cycles_by_key_size"]
    for bits, counts in by_size.items():
        rounds = 12 if int(bits) <= 80 else 16
        # One block per clock, one clock per round; the key setup writes both walks of the
        # round keys (2 x (R + 1) entries) and commits.
        assert counts["initiation_interval"] == 1
        assert counts["latency"] == counts["latency_decrypt"] == rounds
        assert counts["key_setup_encrypt"] == counts["key_setup_decrypt"] == 2 * (rounds + 1) + 1


def test_unit_types_fold_where_one_round_count_fixes_them() -> None:
    one_size = CastHardware(CoreOptions(key_sizes=(128,)))
    # Unit 0 of a 16-round pipeline: encryption round 1 (type 1), decryption round 16 (type 1).
    assert one_size.unit_kinds(frozenset({1})) == (1, 1)
    assert one_size.unit_kinds(frozenset({2})) == (2, 3)
    every_size = CastHardware(CoreOptions(key_sizes=(80, 128)))
    # Decryption round 1 is round 12 (type 3) or 16 (type 1): read from the round key.
    assert every_size.unit_kinds(frozenset({1})) is None
    # Only 16-round keys reach round 13: encryption round 13, decryption round 13 = round 4.
    assert every_size.unit_kinds(frozenset({13})) == (1, 1)
    assert every_size.unit_kinds(frozenset({14})) == (2, 3)
    # A ring unit serving rounds 1 and 6 of encryption computes types 1 and 3.
    assert one_size.unit_kinds(frozenset({1, 6})) is None
    encrypt_only = CastHardware(CoreOptions(key_sizes=(80, 128), directions="encrypt"))
    assert encrypt_only.unit_kinds(frozenset({1})) == (1, None)


@pytest.mark.parametrize("design, match", [
    ("cast128/unrolled", "valid: iterative, pipelined, narrow"),
    ("cast128/iterative:keys=fly", "loaded"),
    ("cast128/pipelined:keys=stored", "loaded"),
    ("cast128/pipelined:inner=1", "inner must be 0..0"),
])
def test_generators_without_a_setup_are_refused(design: str, match: str) -> None:
    # Kr1 = K17: no on-the-fly schedule, no one-entry-per-clock fill inside a core.
    with pytest.raises(CipherbenchError, match=match):
        build_core(parse(design))


def test_only_the_full_width_is_offered() -> None:
    with pytest.raises(CipherbenchError, match="width"):
        parse("cast128/narrow:width=32")
