"""The DES loop cores, simulated from their generated Verilog: des/iterative and the area-optimized
des/narrow (one key register), every DES vector set both ways, random blocks with key changes
against the model, the exact cycle counts; the key-schedule plans walked in Python against the
model's round keys; the 16-stage pipeline of Papaefstathiou et al. (des/pipelined) with a new key
for every block (slow: run with --runslow)."""

from __future__ import annotations

import json
import random

import pytest

from cipherbench.cache import ensure_design
from cipherbench.ciphers.des import model as des
from cipherbench.ciphers.des.hw import CD_BITS, DesSchedule, StepPlan
from cipherbench.components.permutations import DES_PC1, DES_PC2, permute_int
from cipherbench.spec import parse
from cipherbench.verify.check import check_key_agility
from cipherbench.verify.designs import verify_design
from cipherbench.verify.sim import Simulator
from stored_pipelines import measured_cycles, verify_stored_pipeline

# FIPS 81 Tables B1 and B2: three ECB and three CBC blocks, both directions.
FIPS81_CASES = 12


def _rotate(word: int, amount: int) -> int:
    """C and D of a 56-bit word rotated by amount (+ left, - right), as rotate_cd."""
    def rot28(v: int) -> int:
        k = amount % 28
        return ((v << k) | (v >> (28 - k))) & 0xFFFFFFF
    return (rot28(word >> 28) << 28) | rot28(word & 0xFFFFFFF)


def apply_plan(plan: StepPlan, words: list[int]) -> tuple[list[int], int, bool]:
    """A plan on integer key words: (new words, round key, layer start)."""
    new = [_rotate(words[p], a) for p, a in plan.words]
    position, amount = plan.rk
    return new, permute_int(_rotate(words[position], amount), DES_PC2, CD_BITS), plan.layer_start


def walk_schedule(schedule: DesSchedule, keys: list[bytes],
                  expected: list[int]) -> list[list[int]]:
    """Check every plan of the schedule against the expected round keys (of rounds 1..R, in
    encryption order) and return the key states S_0..S_R."""
    rounds = schedule.rounds
    states = [[permute_int(int.from_bytes(k, "big"), DES_PC1, 64) for k in keys]]
    for i in range(rounds):
        words, rk, start = apply_plan(schedule.forward(i), states[-1])
        assert (rk, start) == (expected[i], i % 16 == 0), f"forward step {i}"
        states.append(words)
    for i in range(1, rounds + 1):
        assert apply_plan(schedule.rk_forward(i), states[i])[1] == expected[i - 1], f"rk_f {i}"
    for i in reversed(range(rounds)):
        words, rk, start = apply_plan(schedule.backward(i), states[i + 1])
        assert words == states[i], f"backward step {i} is not the inverse"
        # Backward step i serves decryption round R-i.
        assert (rk, start) == (expected[i], (rounds - i - 1) % 16 == 0), f"backward step {i}"
    for i in range(-1, rounds - 1):
        # The pipelined core reads rk_b of state i+1 for decryption round R-i-1.
        assert apply_plan(schedule.rk_backward(i), states[i + 1])[1] == expected[i + 1]
    return states


def des_round_keys(key: bytes) -> list[int]:
    return [int.from_bytes(k, "big") for k in des.expand_key(key)]


def test_schedule_plans_give_the_model_round_keys_both_ways() -> None:
    rng = random.Random(46)
    for _ in range(50):
        key = rng.randbytes(8)
        states = walk_schedule(DesSchedule(1, ("E",)), [key], des_round_keys(key))
        assert states[16] == states[0]  # C16 D16 = C0 D0


def _manifest(design: str) -> dict:
    return json.loads((ensure_design(parse(design)) / "manifest.json").read_text())


def test_every_vector_set_both_directions_and_random_blocks() -> None:
    spec = parse("des/iterative")
    report = verify_design(spec, ensure_design(spec), random_blocks=2000)
    assert report.failed == 0
    counts = {s.name: s.passed for s in report.sets}
    assert counts["fips-81"] == FIPS81_CASES
    assert counts["random-vs-model (2000)"] == 2000
    assert all(n > 0 for n in counts.values())


def test_cycle_counts_of_the_loop_core() -> None:
    manifest = _manifest("des/iterative")
    assert manifest["cycles_by_key_size"] == {"64": {
        "latency": 16, "latency_decrypt": 16, "initiation_interval": 16,
        "cycles_per_chained_block": 16, "key_setup_encrypt": 0,
        # The iterative generator runs the schedule forward once per key before the first
        # decryption (C16 D16 = C0 D0 makes it redundant for DES, but it is generic).
        "key_setup_decrypt": 16, "algorithm_setup": 0}}
    assert manifest["parameters"]["data_sboxes"] == 8


@pytest.mark.parametrize("design, only", [("des/iterative:ops=encrypt", "latency"),
                                          ("des/iterative:ops=decrypt", "latency_decrypt")])
def test_one_direction_cores(design: str, only: str) -> None:
    spec = parse(design)
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=300)
    assert report.failed == 0 and report.passed >= 150
    counts = json.loads((folder / "manifest.json").read_text())["cycles_by_key_size"]["64"]
    assert counts[only] == 16


def test_area_optimized_loop_has_one_key_register_and_no_key_setup() -> None:
    # des/narrow (width 64): one round per clock after a load clock; S_16 = S_0, so the single
    # key register needs no start states, run-up or rewind in either direction.
    spec = parse("des/narrow")
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=1000)
    assert report.failed == 0 and report.passed > 1000
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["cycles_by_key_size"]["64"] == {
        "latency": 17, "latency_decrypt": 17, "initiation_interval": 17,
        "cycles_per_chained_block": 17, "key_setup_encrypt": 0, "key_setup_decrypt": 0,
        "algorithm_setup": 0}
    assert manifest["parameters"]["key_register_bits"] == 56


@pytest.mark.parametrize("design", ["des/iterative:keys=stored", "des/iterative:keys=loaded",
                                    "des/pipelined:keys=stored,stages=2"])
def test_stored_and_loaded_round_keys(design: str) -> None:
    """Both walks of the C/D schedule in the round-key memory (``walk``): 2 x 17 entries, so
    the fill (and the load over the port, plus its commit) takes 34 clocks before any block."""
    passed = verify_stored_pipeline(design, random_blocks=200)
    assert passed["random-vs-model (200)"] == 200
    cycles = measured_cycles(design)["64"]
    fill = 34 + (1 if "loaded" in design else 0)
    assert cycles["key_setup_encrypt"] == cycles["key_setup_decrypt"] == fill
    assert cycles["latency"] == 16


@pytest.mark.slow
def test_full_pipeline_takes_a_block_and_a_key_every_clock() -> None:
    spec = parse("des/pipelined")
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=500)
    assert report.failed == 0
    counts = json.loads((folder / "manifest.json").read_text())["cycles_by_key_size"]["64"]
    assert (counts["latency"], counts["initiation_interval"]) == (16, 1)
    assert counts["key_setup_encrypt"] == 0 and counts["key_setup_decrypt"] == 15
    sim = Simulator(folder)
    sim.build()
    run = check_key_agility(sim, des.DES(), (64,), n=64, seed=3)
    assert run.check.failed == 0 and run.interval == 1.0
