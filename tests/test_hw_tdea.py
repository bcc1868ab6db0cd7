"""The TDEA loop cores (48 DES rounds on one round block, Sugawara et al. Fig. 7), simulated from
their generated Verilog: 2-key, 3-key and the core for both, on the iterative generator and as
the single-key-register loop (narrow, width 64); every vector set of their key sizes both ways,
random blocks with key changes (and key-size changes) against the model, the exact cycle counts;
the key-schedule plans walked in Python against the model's DES round keys."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from cipherbench.cache import ensure_design
from cipherbench.ciphers.des.hw import DesSchedule
from cipherbench.ciphers.tdea.hw import LAYERS
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design

sys.path.insert(0, str(Path(__file__).parent))
from test_hw_des import des_round_keys, walk_schedule  # noqa: E402
from stored_pipelines import measured_cycles, verify_stored_pipeline  # noqa: E402

# SP 800-67 Appendix B: three blocks under one 3-key key, both directions.
SP800_67_CASES = 6


def tdea_round_keys(k1: bytes, k2: bytes, k3: bytes) -> list[int]:
    """The 48 round keys of an E-D-E encryption, in round order."""
    return des_round_keys(k1) + des_round_keys(k2)[::-1] + des_round_keys(k3)


@pytest.mark.parametrize("words", [2, 3])
def test_schedule_plans_give_the_model_round_keys_both_ways(words: int) -> None:
    rng = random.Random(words)
    for _ in range(20):
        keys = [rng.randbytes(8) for _ in range(words)]
        k3 = keys[2] if words == 3 else keys[0]
        states = walk_schedule(DesSchedule(words, LAYERS), keys,
                               tdea_round_keys(keys[0], keys[1], k3))
        # The key words come back in place after 48 rounds (2 keys: no turn after the last).
        assert states[48] == states[0]


DESIGNS = ["tdea-128/iterative", "tdea-192/iterative", "tdea/iterative"]


@pytest.mark.parametrize("design", DESIGNS)
def test_every_vector_set_both_directions_and_random_blocks(design: str) -> None:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=1000)
    assert report.failed == 0
    counts = {s.name: s.passed for s in report.sets}
    assert counts["random-vs-model (1000)"] == 1000
    if 192 in spec.key_sizes:
        assert counts["sp800-67"] == SP800_67_CASES
    # NIST's 2-key and 3-key MMT files (keying options 2 and 1) for each key size the core has.
    suffixes = {128: "2key", 192: "3key"}
    for bits in spec.key_sizes:
        assert counts[f"TECBMMT2-{suffixes[bits]}"] > 0
    assert all(n > 0 for n in counts.values())


@pytest.mark.parametrize("design", DESIGNS)
def test_cycle_counts_are_48_per_block(design: str) -> None:
    manifest = json.loads((ensure_design(parse(design)) / "manifest.json").read_text())
    for counts in manifest["cycles_by_key_size"].values():
        assert counts == {"latency": 48, "latency_decrypt": 48, "initiation_interval": 48,
                          "cycles_per_chained_block": 48, "key_setup_encrypt": 0,
                          # the generic forward run-up before the first decryption under a key
                          "key_setup_decrypt": 48, "algorithm_setup": 0}
    # Key words kept: two for the 2-key core, three otherwise (K1 K2 K1 for 16-byte keys).
    assert manifest["parameters"]["key_words"] == (2 if design.startswith("tdea-128") else 3)


@pytest.mark.parametrize("design", ["tdea-128/narrow", "tdea/narrow"])
def test_single_key_register_loop(design: str) -> None:
    # The narrow width-64 loop: a load clock, then 48 rounds; the one key register is back in
    # place after every block (2 keys: no turn after the last DES operation), so no key setup.
    spec = parse(design)
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=600)
    assert report.failed == 0 and report.passed > 600
    manifest = json.loads((folder / "manifest.json").read_text())
    for counts in manifest["cycles_by_key_size"].values():
        assert counts == {"latency": 49, "latency_decrypt": 49, "initiation_interval": 49,
                          "cycles_per_chained_block": 49, "key_setup_encrypt": 0,
                          "key_setup_decrypt": 0, "algorithm_setup": 0}
    assert manifest["parameters"]["key_register_bits"] == 56 * (2 if "128" in design else 3)


@pytest.mark.parametrize("design", ["tdea/iterative:keys=stored",
                                    "tdea/pipelined:keys=loaded,stages=5"])
def test_stored_and_loaded_round_keys(design: str) -> None:
    """Both walks of the 48-round schedule in the round-key memory (``walk``): 2 x 49 entries."""
    passed = verify_stored_pipeline(design, random_blocks=200)
    assert passed["random-vs-model (200)"] == 200
    for size in ("128", "192"):
        cycles = measured_cycles(design)[size]
        fill = 98 + (1 if "loaded" in design else 0)
        assert cycles["key_setup_encrypt"] == cycles["key_setup_decrypt"] == fill
        assert cycles["latency"] == 48


@pytest.mark.slow
def test_full_pipeline_of_48_des_rounds() -> None:
    """TDEA as 48 DES round units, one block per clock, 2- and 3-key blocks sharing the pipe; the
    decryption start states come from a 47-step forward run-up once per key (1 min to build)."""
    spec = parse("tdea/pipelined")
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=400)
    assert report.failed == 0 and report.passed > 4000
    for counts in measured_cycles("tdea/pipelined").values():
        assert counts == {"latency": 48, "latency_decrypt": 48, "initiation_interval": 1,
                          "cycles_per_chained_block": 48, "key_setup_encrypt": 0,
                          "key_setup_decrypt": 47, "algorithm_setup": 0}
