"""The Serpent iterative cores, simulated from their generated Verilog: every Serpent vector set
(submission package, NESSIE, Crypto++/Botan files) for every key size in both directions, random
blocks with key changes against the model, and exact cycle counts (one round per clock, on-the-fly
keys with the decryption run-up stored once per key, or a round-key memory)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from verified import verified_counts

from cipherbench.cache import ensure_design
from cipherbench.ciphers.serpent import hw
from cipherbench.ciphers.serpent.model import INVERSE_SBOXES, SBOXES, round_keys
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design

ROUNDS = 32


_verified = verified_counts  # tests/verified.py: once per test process
# NESSIE's verified test-vector file per key size and the single blocks read from it (sets 1-8;
# the iterated values are not single blocks), both directions.
NESSIE = {128: ("Serpent-128-128.verified", 2056), 192: ("Serpent-192-128.verified", 2312),
          256: ("Serpent-256-128.verified", 2568)}


def _counts(design: str) -> dict:
    folder = ensure_design(parse(design))
    return json.loads((folder / "manifest.json").read_text())["cycles_by_key_size"]


def test_lane_tables_fold_the_round_offsets() -> None:
    """Encryption round r uses K_r and S_{r-1}; decryption round r uses K_{R-r} and S^-1_{R-r};
    K_i comes from S_{3-i}: the lane tables are indexed by the round key's index mod 8."""
    for i in range(8):
        for x in range(16):
            assert hw.ENC_LANE[16 * i + x] == SBOXES[(i - 1) % 8][x]
            assert hw.DEC_LANE[16 * i + x] == INVERSE_SBOXES[i][x]
            assert hw.KEY_LANE[16 * i + x] == SBOXES[(3 - i) % 8][x]
    assert len(round_keys(bytes(16))) == ROUNDS + 1


@pytest.mark.parametrize("design", ["serpent-128/iterative", "serpent/iterative"])
def test_typed_in_vectors_both_directions_and_random(design: str) -> None:
    counts = _verified(design, 2000)
    # Typed in: three ecb_iv examples, their decrypted patterns, two vk/vt firsts for 128 and one
    # vk for 192, four NESSIE examples; each both directions.
    assert counts["serpent-spec"] == {1: 12, 3: 26}[len(parse(design).key_sizes)]
    assert any(name.startswith("random") and n == 2000 for name, n in counts.items())


@pytest.mark.parametrize("design", ["serpent-128/iterative", "serpent/iterative"])
def test_every_vector_file_both_directions(design: str, kat_folder: Path) -> None:
    counts = _verified(design, 2000)
    sizes = parse(design).key_sizes
    for bits in sizes:
        name, blocks = NESSIE[bits]
        assert counts[name] == blocks
    assert counts["ecb_tbl"] == 512 * len(sizes)
    assert counts["ecb_vt"] == 128 * len(sizes)
    assert counts["ecb_vk"] == sum(sizes)


@pytest.mark.parametrize("design", ["serpent-128/iterative", "serpent/iterative"])
def test_cycle_counts_one_round_per_clock(design: str) -> None:
    counts = _counts(design)
    assert set(counts) == {str(bits) for bits in parse(design).key_sizes}
    for per_size in counts.values():
        assert per_size == {
            "latency": ROUNDS, "latency_decrypt": ROUNDS, "initiation_interval": ROUNDS,
            "cycles_per_chained_block": ROUNDS,
            "key_setup_encrypt": 0,       # key state 0 is computed on the key's edge
            "key_setup_decrypt": ROUNDS,  # one forward run-up per key, then stored
            "algorithm_setup": 0,
        }


@pytest.mark.parametrize("design, expected", [
    # Round-key memory filled once per key: R+1 cycles of key setup, both directions.
    ("serpent-192/iterative:keys=stored", {"latency": 32, "latency_decrypt": 32,
                                           "key_setup_encrypt": 33, "key_setup_decrypt": 33}),
    ("serpent-256/iterative:ops=encrypt", {"latency": 32, "latency_decrypt": None,
                                           "key_setup_encrypt": 0, "key_setup_decrypt": None}),
])
def test_variants_verify_and_count(design: str, expected: dict) -> None:
    spec = parse(design)
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=500)
    assert report.failed == 0 and report.passed >= 500
    only = json.loads((folder / "manifest.json").read_text())["cycles_by_key_size"]
    for name, value in expected.items():
        assert only[str(spec.key_sizes[0])][name] == value


# --- narrow datapaths (ciphers/serpent/narrow.py): Fischer's fair (64-bit) and minimum (16-bit) ---

KEY_ROUNDS = ROUNDS + 1  # whitening + 32 rounds, or Fischer's 33 key-mixing rounds


def _narrow_counts(width: int, keys: str) -> dict:
    """Predicted cycles: 33 rounds of 128/width clocks after the load clock; keys=rewind walks the
    prekey window back (encryption, 33 clocks after the result) or runs it up (decryption, 33
    clocks before the rounds); keys=stored runs the run-up once per key (1 + 33)."""
    main = KEY_ROUNDS * 128 // width
    if keys == "stored":
        return {"latency": 1 + main, "latency_decrypt": 1 + main,
                "initiation_interval": 1 + main, "cycles_per_chained_block": 1 + main,
                "key_setup_encrypt": 0, "key_setup_decrypt": 1 + KEY_ROUNDS, "algorithm_setup": 0}
    # Encryption: 1 + main + 33 (rewind); decryption: 1 + 33 (run-up) + main: the same interval.
    return {"latency": 1 + main, "latency_decrypt": 1 + KEY_ROUNDS + main,
            "initiation_interval": 1 + main + KEY_ROUNDS,
            "cycles_per_chained_block": 1 + main + KEY_ROUNDS,
            "key_setup_encrypt": 0, "key_setup_decrypt": 0, "algorithm_setup": 0}


@pytest.mark.parametrize("design", ["serpent-128/narrow:width=64", "serpent/narrow:width=16"])
def test_narrow_typed_in_vectors_both_directions_and_random(design: str) -> None:
    counts = _verified(design, 1000)
    assert counts["serpent-spec"] == {1: 12, 3: 26}[len(parse(design).key_sizes)]
    assert any(name.startswith("random") and n == 1000 for name, n in counts.items())


@pytest.mark.parametrize("design", ["serpent-128/narrow:width=64", "serpent/narrow:width=16"])
def test_narrow_every_vector_file_both_directions(design: str, kat_folder: Path) -> None:
    counts = _verified(design, 1000)
    sizes = parse(design).key_sizes
    for bits in sizes:
        name, blocks = NESSIE[bits]
        assert counts[name] == blocks
    assert counts["ecb_tbl"] == 512 * len(sizes)


@pytest.mark.parametrize("design, width, keys", [
    ("serpent-128/narrow:width=64", 64, "rewind"),     # Fischer's fair: 66 clocks of rounds
    ("serpent/narrow:width=16", 16, "rewind"),         # Fischer's minimum: 264
    ("serpent-128/narrow:width=64,keys=stored", 64, "stored"),
])
def test_narrow_cycle_counts(design: str, width: int, keys: str) -> None:
    counts = _counts(design)
    assert set(counts) == {str(bits) for bits in parse(design).key_sizes}
    for per_size in counts.values():
        assert per_size == _narrow_counts(width, keys)


# The other widths, key sizes and one-direction cores: three more builds (--runslow).
@pytest.mark.slow
@pytest.mark.parametrize("design", [
    "serpent-256/narrow:width=32,keys=stored",
    "serpent-192/narrow:width=8,ops=encrypt",
    "serpent-128/narrow:width=16,ops=decrypt,keys=stored",
])
def test_narrow_variants_verify(design: str) -> None:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=300)
    assert report.failed == 0 and report.passed >= 300


def test_narrow_shares_width_over_four_lanes() -> None:
    """w/4 lanes per direction and w/4 key lanes; the manifest's predictions are the measured."""
    folder = ensure_design(parse("serpent-128/narrow:width=16"))
    manifest = json.loads((folder / "manifest.json").read_text())
    described = manifest["parameters"]
    assert described["data_sbox_lanes"] == 8 and described["key_schedule_sbox_lanes"] == 4
    assert described["clocks_per_round"] == 8
    measured = manifest["cycles_by_key_size"]["128"]
    assert described["encrypt_latency"] == measured["latency"] == 265
    assert described["decrypt_latency"] == measured["latency_decrypt"] == 298
