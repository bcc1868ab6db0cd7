"""The CLEFIA cores, simulated from their generated Verilog: the RFC's examples in both directions,
random blocks with key (and key-size) changes against the model (no independent implementation is
known), the cycle counts; the iterative core for each key size and the 3-in-1 core (keys on the
fly, the key GFN's clocks in every block: hw.py), the unrolled core, a partial pipeline with
travelling keys; stored keys, one-direction cores and full pipelines with --runslow."""

from __future__ import annotations

import json

import pytest
from verified import verified_counts

from cipherbench.arch.base import CoreOptions
from cipherbench.cache import ensure_design
from cipherbench.ciphers.clefia.hw import ClefiaHardware, hold_only, plan
from cipherbench.ciphers.clefia.model import KEY_GFN_ROUNDS, ROUNDS
from cipherbench.spec import parse

# Clocks per block: the key GFN's G clocks, then the rounds.
CLOCKS = {128: 30, 192: 32, 256: 36}


_verified = verified_counts  # tests/verified.py: once per test process


# 192 and 256 bits are in the default suite through the 3-in-1 core below.
@pytest.mark.parametrize("bits", [128, pytest.param(192, marks=pytest.mark.slow),
                                  pytest.param(256, marks=pytest.mark.slow)])
def test_iterative_core_per_key_size(bits: int) -> None:
    counts = _verified(f"clefia-{bits}/iterative", 300)
    assert counts["rfc6114"] == 2   # the RFC's example, both directions
    assert counts["random-vs-model (300)"] == 300
    # No second implementation: verification says so instead of pretending.
    assert not any(name.startswith("random-vs-oracle") for name in counts)


def test_three_in_one_iterative_core() -> None:
    counts = _verified("clefia/iterative", 600)
    assert counts["rfc6114"] == 6   # three examples, both directions
    assert counts["random-vs-model (600)"] == 600


def test_iterative_cycle_counts() -> None:
    manifest = json.loads((ensure_design(parse("clefia/iterative")) / "manifest.json").read_text())
    by_size = manifest["cycles_by_key_size"]
    for bits, clocks in CLOCKS.items():
        assert clocks == KEY_GFN_ROUNDS[bits] + ROUNDS[bits]
        counts = by_size[str(bits)]
        assert counts["latency"] == counts["latency_decrypt"] == clocks
        assert counts["initiation_interval"] == clocks
        assert counts["key_setup_encrypt"] == 0
        assert counts["key_setup_decrypt"] == clocks   # the forward run-up, once per key


@pytest.mark.parametrize("design", ["clefia-256/unrolled:k=2", "clefia-128/pipelined:stages=2"])
def test_other_architectures(design: str) -> None:
    counts = _verified(design, 300)
    assert counts["rfc6114"] == 2 and counts["random-vs-model (300)"] == 300


# Stored keys, one-direction cores (hold-only pipeline units) and full pipelines (30 to 36 units):
# more and longer builds, --runslow.
@pytest.mark.slow
@pytest.mark.parametrize("design", [
    "clefia-128/iterative:keys=stored",
    "clefia-192/iterative:ops=decrypt",
    "clefia-128/pipelined:ops=encrypt",
    "clefia-128/pipelined",
    "clefia/pipelined:stages=5",
])
def test_more_architectures(design: str) -> None:
    counts = _verified(design, 300)
    assert counts["rfc6114"] >= 1
    assert any(name.startswith("random-vs-model") and n > 0 for name, n in counts.items())


def test_key_state_round_key_bus_and_hold_units() -> None:
    both = ClefiaHardware(CoreOptions(key_sizes=(128,)))
    # flags (2) + two round-key pairs (128) + L (128) + K (128); 3-in-1: L and K of 256 bits.
    assert (both.key_state_bits, both.round_key_bits, both.rounds(128)) == (386, 130, 30)
    assert ClefiaHardware(CoreOptions(key_sizes=(128, 192, 256))).key_state_bits == 642
    # A one-direction pipeline stage that only holds gets a datapath without F-functions.
    enc = CoreOptions(key_sizes=(128,), directions="encrypt")
    assert hold_only(enc, frozenset({1})) and not hold_only(enc, frozenset({13}))
    dec = CoreOptions(key_sizes=(128,), directions="decrypt")
    assert hold_only(dec, frozenset({30})) and not hold_only(dec, frozenset({18}))
    assert not hold_only(CoreOptions(key_sizes=(128,)), frozenset({1}))
    # In a 3-in-1 core a unit holds only if it holds for every key size.
    assert not hold_only(CoreOptions(key_sizes=(128, 192), directions="encrypt"),
                         frozenset({11}))


def test_plan_whitening_and_flags() -> None:
    for bits, gfn in KEY_GFN_ROUNDS.items():
        total = gfn + ROUNDS[bits]
        # The last forward step writes WK2, WK3; backward step 1 writes WK0, WK1 (hw.py).
        assert plan(bits, total - 1, False).white and plan(bits, 1, True).white
        # Encryption computes in states G+1..R, decryption in G..R-1.
        assert [plan(bits, j, False).enc for j in range(total)] == [int(j + 1 > gfn)
                                                                    for j in range(total)]
        assert [plan(bits, j, True).dec for j in range(total)] == [int(j >= gfn)
                                                                   for j in range(total)]


def test_s0_built_from_its_nibble_sboxes_equals_the_table() -> None:
    # hw.py's S0 construction (s0=nibbles), simulated over every input against the RFC's table
    from amaranth.hdl import Module, Signal
    from amaranth.sim import Simulator

    from cipherbench.ciphers.clefia.hw import s0_nibbles
    from cipherbench.ciphers.clefia.model import S0

    m = Module()
    x, y = Signal(8), Signal(8)
    m.d.comb += y.eq(s0_nibbles(m, x, "probe"))
    seen = []

    async def bench(ctx):  # type: ignore[no-untyped-def]
        for value in range(256):
            ctx.set(x, value)
            seen.append(ctx.get(y))

    sim = Simulator(m)
    sim.add_testbench(bench)
    sim.run()
    assert tuple(seen) == S0


def test_iterative_core_with_s0_from_nibbles() -> None:
    # the same core with S0 as four 4-bit S-boxes in all four F-functions (data and key GFN)
    counts = _verified("clefia-128/iterative:s0=nibbles", 300)
    assert counts["rfc6114"] == 2 and counts["random-vs-model (300)"] == 300
    hw = ClefiaHardware(CoreOptions((128,), extra={"s0": "nibbles"}))
    assert hw.describe()["s0"] == "nibbles"
