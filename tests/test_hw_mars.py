"""The MARS iterative cores (keys=stored), simulated from their generated Verilog: every vector set
of the cipher (IBM's submission files, Crypto++) in both directions, random blocks with key changes
against the model, and the measured cycle counts (docs/ciphers/mars.md). Also the plan of the
round-key entries and the key-fixing logic on its own."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from amaranth.hdl import Module, Signal
from amaranth.sim import Simulator

from cipherbench.cache import ensure_design
from cipherbench.ciphers.mars import hw
from cipherbench.ciphers.mars.model import FIX_TABLE, fixing_mask
from cipherbench.errors import CipherbenchError
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design

DESIGNS = ["mars-128/iterative", "mars/iterative"]
# Cases per key size: IBM's ecb_tbl (40), ecb_vt (128), ecb_ivt (2), ecb_vk (one per key bit),
# mars.txt (10 over all sizes: 10 for 128-bit keys) and marsval.dat.
FILE_CASES = {
    (128,): {"ecb_tbl": 40, "ecb_vt": 128, "ecb_ivt": 2, "ecb_vk": 128, "mars": 10, "marsval": 8},
    (128, 192, 256): {"ecb_tbl": 120, "ecb_vt": 384, "ecb_ivt": 6, "ecb_vk": 576, "mars": 20,
                      "marsval": 18},
}
RANDOM_BLOCKS = 1000
# 8 + 16 + 8 rounds and one clock of key subtraction; the memory is filled after 4 iterations of
# 15 linear + 60 S-box stirring steps (one word per clock) and 34 entry writes.
CLOCKS = 33
KEY_SETUP = 4 * (15 + 60) + 34


@functools.cache
def _verified(design: str) -> dict[str, int]:
    """The design verified once per test process (every set the cipher has, RANDOM_BLOCKS random
    blocks): the passed count of every set. The fill writes only on the clocks the key step marks
    (KeyStep.rk_valid, docs/ciphers/mars.md, "Key setup"): a fill that ignored them fails here."""
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=RANDOM_BLOCKS)
    assert report.failed == 0, report.as_dict()
    return {s.name: s.passed for s in report.sets}


@functools.cache
def _pipeline_verified(design: str) -> dict[str, int]:
    from stored_pipelines import verify_stored_pipeline

    return verify_stored_pipeline(design)


@pytest.mark.parametrize("design", DESIGNS)
def test_typed_in_vectors_and_random_blocks_with_key_changes(design: str) -> None:
    counts = _verified(design)
    assert counts["mars-spec"] == (10 if len(parse(design).key_sizes) == 1 else 20)
    assert counts[f"random-vs-model ({RANDOM_BLOCKS})"] == RANDOM_BLOCKS


@pytest.mark.parametrize("design", DESIGNS)
def test_every_vector_file(design: str, kat_folder: Path) -> None:
    """IBM's submission files and Crypto++'s, every vector in both directions (skipped, saying
    so, without the vector files)."""
    counts = _verified(design)
    for name, cases in FILE_CASES[parse(design).key_sizes].items():
        assert counts[name] == cases, name


@pytest.mark.parametrize("design", DESIGNS)
def test_measured_cycle_counts(design: str) -> None:
    manifest = json.loads((ensure_design(parse(design)) / "manifest.json").read_text())
    assert set(manifest["cycles_by_key_size"]) == {str(b) for b in parse(design).key_sizes}
    for counts in manifest["cycles_by_key_size"].values():
        assert counts == {
            "latency": CLOCKS, "latency_decrypt": CLOCKS, "initiation_interval": CLOCKS,
            "cycles_per_chained_block": CLOCKS,
            "key_setup_encrypt": KEY_SETUP, "key_setup_decrypt": KEY_SETUP,
            "algorithm_setup": 0,
        }
    assert manifest["parameters"]["keys"] == "stored"


def test_round_keys_cannot_be_on_the_fly() -> None:
    with pytest.raises(CipherbenchError):
        parse("mars/iterative:keys=fly")


def test_every_key_word_has_one_entry_and_each_iteration_emits_in_order() -> None:
    firsts = [hw.entry_first_key(e) for e in range(hw.ENTRIES)]
    words = sorted(w for f in firsts if f is not None for w in (f, f + 1))
    assert words == list(range(40))
    # Entries are written in index order, each after the iteration that computed its keys.
    iterations = [f // 10 for f in firsts if f is not None]
    assert iterations == sorted(iterations)
    assert hw.emission_ends() == {0: 11, 1: 16, 2: 21, 3: 33}
    # The 34 emissions plus 4 x 75 word operations: the key setup the cores measure.
    assert hw.ENTRIES + 4 * (15 + hw.STIR_STEPS) == KEY_SETUP


def test_entry_controls_follow_the_round_kinds() -> None:
    kinds = [hw.entry_controls(e)[0] for e in range(1, 33)]
    assert kinds == [hw.KIND_F] * 8 + [hw.KIND_CF] * 8 + [hw.KIND_CB] * 8 + [hw.KIND_B] * 8
    keyed = {e: hw.entry_controls(e)[3] for e in range(hw.ENTRIES) if hw.entry_controls(e)[2]}
    assert keyed == {0: False, 1: True, 32: False, 33: True}  # pair D0, D1 or D2, D3


def _fixing_cases() -> list[tuple[int, int]]:
    rng = random.Random(7)
    cases = []
    for start in range(0, 32, 3):
        for length in (8, 9, 10, 11, 16, 32 - start):
            run = ((1 << length) - 1) << start & 0xFFFFFFFF
            base = rng.getrandbits(32)
            cases += [(base | run, rng.getrandbits(32)), (base & ~run, rng.getrandbits(32))]
    cases += [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(40)]
    return cases


def test_key_fixing_logic_matches_the_model() -> None:
    cases = _fixing_cases()
    m = Module()
    k, previous = Signal(32), Signal(32)
    out = Signal(32)
    m.d.comb += out.eq(hw._fix_multiplication_key(m, k, previous))
    sim = Simulator(m)
    results: list[int] = []

    async def bench(ctx) -> None:
        for word, prev in cases:
            ctx.set(k, word)
            ctx.set(previous, prev)
            results.append(ctx.get(out))

    sim.add_testbench(bench)
    sim.run()
    for (word, prev), got in zip(cases, results):
        w = word | 3
        pattern = FIX_TABLE[word & 3]
        amount = prev & 31
        rotated = ((pattern << amount) | (pattern >> (32 - amount))) & 0xFFFFFFFF
        assert got == w ^ (rotated & fixing_mask(w)), hex(word)


# Pipelines with stored round keys (pipelined:keys=stored, arch/keymem.py): every unit reads its
# entry, whose control bits carry the round kind (forward mixing, core, backward mixing). The
# full 33-unit pipeline (33 multipliers) is long to build, so the default suite builds the 2-unit
# ring and --runslow adds the full pipeline.
PIPELINES = {
    "mars-128/pipelined:keys=stored,stages=2": 17,   # ceil(33/2) passes per block
    "mars-128/pipelined:keys=stored": 1,
}
# Both MARS pipelines are long builds (127 s for stages=2 in CI): --runslow. The stored-key
# pipeline family stays in the default suite through HIGHT, SM4 and RC6.
PIPELINE_DEFAULT: tuple[str, ...] = ()


@pytest.mark.parametrize("design", [d if d in PIPELINE_DEFAULT else
                                    pytest.param(d, marks=pytest.mark.slow) for d in PIPELINES])
def test_stored_key_pipelines(design: str) -> None:
    from stored_pipelines import measured_cycles, pipeline_cycles

    counts = _pipeline_verified(design)
    assert counts["mars-spec"] == 10
    assert measured_cycles(design)["128"] == pipeline_cycles(CLOCKS, PIPELINES[design], KEY_SETUP)


@pytest.mark.parametrize("design", [d if d in PIPELINE_DEFAULT else
                                    pytest.param(d, marks=pytest.mark.slow) for d in PIPELINES])
def test_stored_key_pipelines_every_vector_file(design: str, kat_folder: Path) -> None:
    counts = _pipeline_verified(design)
    for name, cases in FILE_CASES[(128,)].items():
        assert counts[name] == cases, name
