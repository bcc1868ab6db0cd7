"""The SEED iterative core, simulated from its generated Verilog: RFC 4269 and every SEED vector file
found, in both directions, random blocks with key changes against the model, and the cycle counts
measured in simulation (one I/O clock and 16 rounds, keys on the fly)."""

from __future__ import annotations

import json

from cipherbench.arch.base import CoreOptions
from cipherbench.cache import ensure_design
from cipherbench.ciphers.seed.hw import SeedHardware
from cipherbench.ciphers.seed.model import KC
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
