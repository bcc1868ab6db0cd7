"""Loop unrolling and outer/inner-round pipelines (docs/architectures.md) on AES-128 and the AES
3-in-1 core, simulated from their generated Verilog: known answers, random blocks with keys that
change while blocks are in flight, exact cycle counts, and key agility (a new key every block at
one block per clock) on the full pipelines.

Generating and Verilating a design dominates the cost (a full pipeline: about a minute and a half
of CPU on a cold cache; a test's simulation: well under a second). By default five designs cover
every mechanism: the 3-in-1 unrolled core (k=3 divides none of 10/12/14: short last passes, chosen
by key length), the AES-128 five-unit ring, the AES-128 full pipeline with two inner cuts (mixed
inner and outer pipelining, key agility), the 3-in-1 five-unit ring (blocks of every key size in
flight, leaving from different units, kept in order) and that ring with a registered key load.
``--runslow`` adds the other eleven."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from cipherbench.arch.base import CoreOptions
from cipherbench.arch.pipelined import PipelinedCore
from cipherbench.cache import ensure_design
from cipherbench.ciphers.aes.hw import AesHardware
from cipherbench.ciphers.registry import ciphers
from cipherbench.errors import CipherbenchError
from cipherbench.kinds.generated import build_core
from cipherbench.spec import parse
from cipherbench.verify.check import check_cases, check_key_agility, random_cases
from cipherbench.verify.designs import verify_design
from cipherbench.verify.sim import BlockOp, KeyOp, Simulator

MODEL = ciphers()["aes"].model()

# Per key size: (latency, initiation interval, cycles per chained block, key setup encrypt,
# key setup decrypt). Unrolled by k: P = ceil(R/k) for everything, decryption run-up P.
# Pipelines with G = inner+1 registers per round: latency R*G, II 1 (full) or ceil(R/stages)
# (a ring: stages*G blocks per burst), chained = latency, decryption run-up R-1.
EXPECTED: dict[str, dict[int, tuple[int, int, int, int, int]]] = {
    "aes-128/unrolled:k=2": {128: (5, 5, 5, 0, 5)},
    "aes-128/unrolled:k=3": {128: (4, 4, 4, 0, 4)},
    "aes-128/pipelined": {128: (10, 1, 10, 0, 9)},
    "aes-128/pipelined:inner=1": {128: (20, 1, 20, 0, 9)},
    "aes-128/pipelined:inner=2": {128: (30, 1, 30, 0, 9)},
    "aes-128/pipelined:stages=2": {128: (10, 5, 10, 0, 9)},
    "aes-128/pipelined:stages=5": {128: (10, 2, 10, 0, 9)},
    "aes/unrolled:k=2": {128: (5, 5, 5, 0, 5), 192: (6, 6, 6, 0, 6), 256: (7, 7, 7, 0, 7)},
    "aes/unrolled:k=3": {128: (4, 4, 4, 0, 4), 192: (4, 4, 4, 0, 4), 256: (5, 5, 5, 0, 5)},
    "aes/pipelined": {128: (10, 1, 10, 0, 9), 192: (12, 1, 12, 0, 11),
                      256: (14, 1, 14, 0, 13)},
    "aes/pipelined:inner=1": {128: (20, 1, 20, 0, 9), 192: (24, 1, 24, 0, 11),
                              256: (28, 1, 28, 0, 13)},
    "aes/pipelined:inner=2": {128: (30, 1, 30, 0, 9), 192: (36, 1, 36, 0, 11),
                              256: (42, 1, 42, 0, 13)},
    "aes/pipelined:stages=2": {128: (10, 5, 10, 0, 9), 192: (12, 6, 12, 0, 11),
                               256: (14, 7, 14, 0, 13)},
    # 5 does not divide 12 or 14: those blocks leave from unit 1 and unit 3 of their third pass.
    "aes/pipelined:stages=5": {128: (10, 2, 10, 0, 9), 192: (12, 3, 12, 0, 11),
                               256: (14, 3, 14, 0, 13)},
    # A registered load: one clock of key setup for encryption, one more for decryption's run-up.
    "aes/pipelined:stages=5,load=registered": {128: (10, 2, 10, 1, 10), 192: (12, 3, 12, 1, 12),
                                               256: (14, 3, 14, 1, 14)},
    "aes-128/pipelined:load=registered": {128: (10, 1, 10, 1, 10)},
}
# One of each kind in the default suite (the 128-bit stages=5 twin of the 3-in-1 one is --runslow).
DEFAULT = ("aes/unrolled:k=3", "aes-128/pipelined:inner=1",
           "aes/pipelined:stages=5", "aes/pipelined:stages=5,load=registered")
DESIGNS = [d if d in DEFAULT else pytest.param(d, marks=pytest.mark.slow) for d in EXPECTED]
FULL = [d if d in DEFAULT else pytest.param(d, marks=pytest.mark.slow)
        for d in EXPECTED if "pipelined" in d and "stages" not in d]
# Per key size: GFSbox + KeySbox + VarKey + VarTxt + MMT blocks, one direction (AESAVS).
AESAVS_BLOCKS = {128: 7 + 21 + 128 + 128 + 55, 192: 6 + 24 + 192 + 128 + 55,
                 256: 5 + 16 + 256 + 128 + 55}


@cache
def _folder(design: str) -> Path:
    return ensure_design(parse(design))


def _sim(design: str) -> Simulator:
    sim = Simulator(_folder(design))
    sim.build()
    return sim


@pytest.mark.parametrize("design", DESIGNS)
def test_cycle_counts(design: str) -> None:
    manifest = json.loads((_folder(design) / "manifest.json").read_text())
    for bits, (latency, ii, chained, setup_enc, setup_dec) in EXPECTED[design].items():
        assert manifest["cycles_by_key_size"][str(bits)] == {
            "latency": latency, "latency_decrypt": latency, "initiation_interval": ii,
            "cycles_per_chained_block": chained, "key_setup_encrypt": setup_enc,
            "key_setup_decrypt": setup_dec, "algorithm_setup": 0,
        }, bits


@pytest.mark.parametrize("design", DESIGNS)
def test_known_answers_and_random_blocks(design: str) -> None:
    # Every AESAVS file (and FIPS-197) in both directions: simulating them costs far less than
    # building the design, so every design gets all of them (skipped without the vector files).
    spec = parse(design)
    report = verify_design(spec, _folder(design), random_blocks=300)
    assert report.failed == 0, [s.first_failures[:2] for s in report.sets if s.failed]
    counts = {s.name: s.passed for s in report.sets}
    assert counts["fips-197"] == {1: 4, 3: 8}[len(spec.key_sizes)]
    for bits in spec.key_sizes:
        aesavs = sum(n for name, n in counts.items()
                     if name.startswith("ECB") and name.endswith(str(bits)))
        assert aesavs in (0, 2 * AESAVS_BLOCKS[bits])


@pytest.mark.parametrize("design", DESIGNS)
def test_keys_change_while_blocks_are_in_flight(design: str) -> None:
    # Keys that do not drain: on a pipeline a new key enters behind blocks of the old one (and in
    # the 3-in-1 core blocks of several key sizes are in flight together); unrolled cores keep
    # key_ready low until they are empty, so the same ops also work there. With back-pressure.
    spec = parse(design)
    cases = random_cases(MODEL, spec.key_sizes, 400, seed=17, key_change_every=3)
    sim = _sim(design)
    assert check_cases(sim, cases, drain=False).failed == 0
    ops: list = []
    key = None
    for k, data, _, decrypt in cases[:120]:
        if k != key:
            ops.append(KeyOp(k, drain=False))
            key = k
        ops.append(BlockOp(data, decrypt))
    stalled = sim.run(ops, backpressure_seed=3)
    assert stalled.outputs == [c[2] for c in cases[:120]]


@pytest.mark.parametrize("design", FULL)
def test_key_agility_one_block_per_clock(design: str) -> None:
    # NSA 'key agility': a different key for every block, streamed at one block per clock; a
    # registered load steps each key on the clock after it, so one block every two clocks.
    registered = "load=registered" in design
    sim = _sim(design)
    for bits in parse(design).key_sizes:
        run = check_key_agility(sim, MODEL, (bits,), n=96, seed=bits)
        assert run.check.failed == 0 and run.check.passed == 96
        assert run.interval == (2.0 if registered else 1.0)
    # Decryption needs each key's run-up (R-1 cycles, R registered) first: one block every R
    # cycles (R + 1 registered).
    run = check_key_agility(sim, MODEL, (128,), n=20, decrypt=True)
    assert run.check.failed == 0 and run.interval == (11.0 if registered else 10.0)


@pytest.mark.parametrize("design, interval", [
    ("aes/pipelined:stages=5", None),
    # Full: 1 cycle before a longer key's block, 5 from a 14-round block to a 10-round one
    # (10 > 14-4): over 60 blocks, 19 x (1 + 1 + 5) + 1 + 1 cycles for 59 intervals.
    pytest.param("aes/pipelined", (19 * 7 + 2) / 59, marks=pytest.mark.slow),
])
def test_three_in_one_pipeline_keeps_order_across_key_sizes(design: str,
                                                              interval: float | None) -> None:
    # A 10-round block right behind a 14-round one would overtake it; it waits instead, so
    # results stay in order. Key sizes in turn, a new key every block.
    run = check_key_agility(_sim(design), MODEL, (128, 192, 256), n=60, seed=5)
    assert run.check.failed == 0 and run.check.passed == 60
    if interval is not None:
        assert run.interval == pytest.approx(interval)


def test_partial_pipeline_takes_blocks_in_bursts() -> None:
    # Five round units: five blocks go in back to back, then the ring is full until the first of
    # them has looped twice (10 cycles after it entered) and leaves (Gaj's partial pipelining).
    sim = _sim("aes-128/pipelined:stages=5")
    key = bytes(range(16))
    ops = [KeyOp(key)] + [BlockOp(bytes([i]) * 16) for i in range(15)]
    trace = sim.run(ops)
    accepted = [trace.block_accept[i][0] for i in range(1, 16)]
    start = accepted[0]
    assert [c - start for c in accepted] == [0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 20, 21, 22, 23, 24]
    assert trace.outputs == [MODEL.encrypt(key, bytes([i]) * 16) for i in range(15)]


@pytest.mark.parametrize("design, message", [
    ("aes-128/unrolled:k=14", "unrolled k=14: aes has at most 10 rounds"),
    ("aes-192/unrolled:k=14", "k must be 1..12"),
])
def test_k_beyond_the_rounds_is_one_line(design: str, message: str) -> None:
    with pytest.raises(CipherbenchError) as info:
        build_core(parse(design))
    assert message in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("stages, inner, message", [
    ("11", "0", "stages must be 1..10 or full"),
    ("0", "0", "stages must be 1..10 or full"),
    ("full", "3", "inner must be 0..2"),
])
def test_pipeline_parameters_are_checked(stages: str, inner: str, message: str) -> None:
    hw = AesHardware(CoreOptions(key_sizes=(128,)))
    with pytest.raises(CipherbenchError) as info:
        PipelinedCore(hw, stages=stages, inner=inner)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_registered_load_needs_travelling_keys() -> None:
    hw = AesHardware(CoreOptions(key_sizes=(128,)))
    with pytest.raises(CipherbenchError) as info:
        PipelinedCore(hw, keys="stored", load="registered")
    assert "applies to keys=fly" in str(info.value) and "\n" not in str(info.value)
