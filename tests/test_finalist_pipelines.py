"""Pipelines of the AES finalists with on-the-fly keys (Serpent, Twofish): simulated from their
generated Verilog on every known-answer set and random blocks, with a new key for every block
offered while older blocks are in flight (NSA key agility), and exact cycle counts.

Partial pipelines (two round units that blocks loop through) run in the default suite: they use
the same units, key travel and exit taps as the full pipeline at a fraction of the simulator build.
The full pipelines (one block per clock), 128-bit and 3-in-1 as the NSA built them, are the same
checks behind ``--runslow`` (a full Twofish-128 pipeline takes about 6 CPU minutes to build).
RC6 and MARS pipelines use stored round keys and are tested with their ciphers."""

from __future__ import annotations

import json

import pytest

from cipherbench.cache import ensure_design
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design

# Twofish: 16 rounds plus its input and output whitening as clocks of their own (whiten=cycles).
ROUNDS = {"serpent": 32, "twofish": 20}


def _verify(design: str, random_blocks: int) -> dict[str, int]:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=random_blocks,
                           key_change_blocks=40)
    assert report.failed == 0, [s.first_failures[:2] for s in report.sets if s.failed]
    assert len(report.sets) >= 4  # typed-in set, random, key changes in both directions
    return {s.name: s.passed for s in report.sets}


def _cycles(design: str) -> dict[str, dict[str, int]]:
    folder = ensure_design(parse(design))
    return json.loads((folder / "manifest.json").read_text())["cycles_by_key_size"]


@pytest.mark.parametrize("design", ["serpent-128/pipelined:stages=2",
                                    "twofish-128/pipelined:stages=2"])
def test_partial_pipeline_verifies_with_keys_in_flight(design: str) -> None:
    counts = _verify(design, random_blocks=400)
    assert counts["random-vs-model (400)"] == 400
    rounds = ROUNDS[design.split("-")[0]]
    cycles = _cycles(design)["128"]
    # Two units, a block loops through them R/2 times; two blocks in flight: one every R/2 clocks.
    assert cycles["latency"] == rounds and cycles["initiation_interval"] == rounds // 2
    assert cycles["key_setup_encrypt"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("design", ["serpent-128/pipelined", "serpent/pipelined",
                                    "twofish-128/pipelined", "twofish/pipelined"])
def test_full_pipeline_one_block_per_clock(design: str) -> None:
    counts = _verify(design, random_blocks=1000)
    agile = [name for name in counts if name.startswith("new key every block")
             and "encryptions" in name]
    assert agile and "1.0 cycles between blocks" in agile[0]  # a new key with every block
    rounds = ROUNDS[design.split("-")[0].split("/")[0]]
    for cycles in _cycles(design).values():
        assert cycles["initiation_interval"] == 1 and cycles["latency"] == rounds
        assert cycles["key_setup_encrypt"] == 0
