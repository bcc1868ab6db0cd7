"""Pipelines of the AES finalists with on-the-fly keys (Serpent, Twofish): simulated from their
generated Verilog on every known-answer set and random blocks, with a new key for every block
offered while older blocks are in flight (NSA key agility), and exact cycle counts.

Partial pipelines (two round units that blocks loop through) run in the default suite: they use
the same units, key travel and exit taps as the full pipeline at a fraction of the simulator build.
The full pipelines (one block per clock), 128-bit and 3-in-1 as the NSA built them (Serpent's also
with the registered key load the NSA study uses), are the same checks behind ``--runslow`` (a full Twofish-128 pipeline takes about 6 CPU minutes to build).
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


def _cipher(design: str) -> str:
    return design.split("/")[0].split("-")[0]


def _key_setup(design: str) -> tuple[int, int]:
    """Encryption / decryption key setup in clocks: 0 / R-1, one more each with the loaded key
    state registered before its step (``load=registered``, docs/architectures.md)."""
    extra = int("load=registered" in design)
    return extra, ROUNDS[_cipher(design)] - 1 + extra


@pytest.mark.parametrize("design", ["serpent-128/pipelined:stages=2",
                                    "twofish-128/pipelined:stages=2",
                                    # the load Serpent's NSA-study pipelines use, 3-in-1
                                    "serpent/pipelined:stages=2,load=registered"])
def test_partial_pipeline_verifies_with_keys_in_flight(design: str) -> None:
    counts = _verify(design, random_blocks=400)
    assert counts["random-vs-model (400)"] == 400
    rounds = ROUNDS[_cipher(design)]
    # Two units, a block loops through them R/2 times; two blocks in flight: one every R/2 clocks.
    for cycles in _cycles(design).values():
        assert cycles["latency"] == rounds and cycles["initiation_interval"] == rounds // 2
        assert (cycles["key_setup_encrypt"], cycles["key_setup_decrypt"]) == _key_setup(design)


@pytest.mark.slow
@pytest.mark.parametrize("design", ["serpent-128/pipelined", "serpent/pipelined",
                                    "serpent-128/pipelined:load=registered",
                                    "serpent/pipelined:load=registered",
                                    "twofish-128/pipelined", "twofish/pipelined"])
def test_full_pipeline_one_block_per_clock(design: str) -> None:
    counts = _verify(design, random_blocks=1000)
    agile = [name for name in counts if name.startswith("new key every block")
             and "encryptions" in name]
    # A new key with every block: every clock, or every other one when each key's start
    # states are stepped on the clock after it (load=registered).
    interval = "2.0" if "load=registered" in design else "1.0"
    assert agile and f"{interval} cycles between blocks" in agile[0]
    rounds = ROUNDS[_cipher(design)]
    for cycles in _cycles(design).values():
        assert cycles["initiation_interval"] == 1 and cycles["latency"] == rounds
        assert (cycles["key_setup_encrypt"], cycles["key_setup_decrypt"]) == _key_setup(design)
