"""Shared checks of pipelines with stored round keys (``pipelined:keys=stored``, arch/keymem.py),
used by the per-cipher hardware tests: every known-answer set and random blocks against the model,
keys that change behind blocks in flight (the core takes a key once its pipe is empty), and the
measured cycle counts."""

from __future__ import annotations

import json

from cipherbench.cache import ensure_design
from cipherbench.ciphers.registry import ciphers
from cipherbench.spec import parse
from cipherbench.verify.check import check_cases, random_cases
from cipherbench.verify.designs import verify_design
from cipherbench.verify.sim import Simulator


def verify_stored_pipeline(design: str, random_blocks: int = 300) -> dict[str, int]:
    """Verify a design; return the passed count of every vector set."""
    spec = parse(design)
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=random_blocks)
    assert report.failed == 0, [s.first_failures[:2] for s in report.sets if s.failed]
    # Not-drained key ops: the key is offered behind the blocks of the old one; key_ready stays
    # low until they have left and the fill of the old key is done.
    model = ciphers()[spec.cipher].model()
    cases = random_cases(model, spec.key_sizes, 150, seed=23, key_change_every=4)
    sim = Simulator(folder)
    sim.build()
    result = check_cases(sim, cases, drain=False)
    assert result.failed == 0 and result.passed == len(cases)
    return {s.name: s.passed for s in report.sets}


def measured_cycles(design: str) -> dict[str, dict[str, int]]:
    manifest = json.loads((ensure_design(parse(design)) / "manifest.json").read_text())
    return manifest["cycles_by_key_size"]


def pipeline_cycles(rounds: int, interval: int, key_setup: int) -> dict[str, int]:
    """A pipeline's cycle counts: latency and chained R, the key setup the fill's (both
    directions: the fill writes every entry before any block enters)."""
    return {"latency": rounds, "latency_decrypt": rounds, "initiation_interval": interval,
            "cycles_per_chained_block": rounds, "key_setup_encrypt": key_setup,
            "key_setup_decrypt": key_setup, "algorithm_setup": 0}
