"""The MISTY1 cores, simulated from their generated Verilog: RFC 2994 and Botan's vectors in both
directions, random blocks with key changes against the model, the cycle counts measured in
simulation, and the S7/S9 logic derived from the RFC's tables. The compact core (misty1/narrow,
Sugawara et al. Fig. 9: FO over three clocks through one FI, which also makes K' in a setup):
its key-ring positions replayed against the RFC's key indices."""

from __future__ import annotations

import json

import pytest

from cipherbench.cache import ensure_design
from cipherbench.ciphers.misty1.hw import (
    CLOCKS,
    FL_CHOICES,
    algebraic_normal_form,
    control_after,
    step_rotation,
)
from cipherbench.ciphers.misty1.model import S7, S9
from cipherbench.ciphers.misty1.narrow import (
    FL_OFFSETS,
    KI_POSITIONS,
    KO_POSITIONS,
    input_offset,
    round_offset,
)
from cipherbench.errors import CipherbenchError
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design


@pytest.mark.parametrize("design", ["misty1/iterative", "misty1/iterative:sbox=table"])
def test_every_vector_set_both_directions_and_random_blocks_with_key_changes(design: str) -> None:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=1000)
    assert report.failed == 0, [s.first_failures for s in report.sets if s.failed]
    counts = {s.name: s.passed for s in report.sets}
    assert counts["rfc2994"] == 8  # Appendix A's ECB and CBC blocks, both directions
    if "misty.vec" in counts:
        assert counts["misty.vec"] == 62
    assert counts["random-vs-model (1000)"] == 1000


@pytest.mark.parametrize("design", ["misty1/iterative", "misty1/iterative:sbox=table"])
def test_cycle_counts_are_measured_as_designed(design: str) -> None:
    manifest = json.loads((ensure_design(parse(design)) / "manifest.json").read_text())
    assert manifest["cycles_by_key_size"] == {"128": {
        "latency": 9, "latency_decrypt": 9, "initiation_interval": 9,
        "cycles_per_chained_block": 9,   # an I/O clock and 8 FO rounds, as the seed's core
        "key_setup_encrypt": 0,          # K' is computed from the key port as it is loaded
        "key_setup_decrypt": 9,          # one forward run-up per key, then stored
        "algorithm_setup": 0,
    }}


def test_s_box_logic_is_the_tables_and_has_the_rfc_degrees() -> None:
    for table, bits, degree in ((S7, 7, 3), (S9, 9, 2)):
        forms = algebraic_normal_form(table, bits, bits)
        for x in range(1 << bits):
            value = 0
            for bit, form in enumerate(forms):
                # A monomial is 1 when all of its input bits are (the subset test).
                value |= (sum(1 for mono in form if mono & x == mono) & 1) << bit
            assert value == table[x]
        assert max(mono.bit_count() for form in forms for mono in form) == degree


def test_key_state_walk_puts_every_round_at_its_rotation() -> None:
    # Round k needs rotation m = k + 1 (mod 8). Encryption clock c >= 2 runs round c - 2 from
    # state c; decryption clock c runs round 9 - c from backward state 9 - c, starting at m = 0.
    m, forward = 0, []
    for step in range(CLOCKS):
        m += step_rotation(step, False)
        forward.append(m % 8)
    assert [forward[c - 1] for c in range(2, CLOCKS + 1)] == [(k + 1) % 8 for k in range(8)]
    m, backward = 0, {}
    for step in reversed(range(CLOCKS)):
        m += step_rotation(step, True)
        backward[step] = m % 8
    assert [backward[k] for k in range(8)] == [(k + 1) % 8 for k in range(8)]
    # FL layers after every second round in both directions: FL forward, FL^-1 backward.
    for direction in (False, True):
        controls = [control_after(s, direction) for s in range(CLOCKS)]
        assert sum(c.fl_flag for c in controls) == 4
        assert all(c.fl_inverse == direction for c in controls if c.fl_flag)
        assert all(c.choice in FL_CHOICES for c in controls)


# --- the compact core (misty1/narrow:width=16) ---------------------------------------------------

# The load clock (input FL layer) and 8 rounds of three clocks; K' once per key and direction:
# the clock in which the waiting block starts the setup, then eight FI clocks.
COMPACT_CLOCKS = 1 + 8 * 3
COMPACT_SETUP = 1 + 8


@pytest.mark.parametrize("design", ["misty1/narrow", "misty1/narrow:sbox=table"])
def test_compact_core_every_vector_set_and_random_blocks_with_key_changes(design: str) -> None:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=1000)
    assert report.failed == 0, [s.first_failures for s in report.sets if s.failed]
    counts = {s.name: s.passed for s in report.sets}
    assert counts["rfc2994"] == 8
    if "misty.vec" in counts:
        assert counts["misty.vec"] == 62
    assert counts["random-vs-model (1000)"] == 1000


def test_compact_core_cycle_counts() -> None:
    manifest = json.loads((ensure_design(parse("misty1/narrow")) / "manifest.json").read_text())
    assert manifest["cycles_by_key_size"] == {"128": {
        "latency": COMPACT_CLOCKS, "latency_decrypt": COMPACT_CLOCKS,
        "initiation_interval": COMPACT_CLOCKS, "cycles_per_chained_block": COMPACT_CLOCKS,
        "key_setup_encrypt": COMPACT_SETUP, "key_setup_decrypt": COMPACT_SETUP,
        "algorithm_setup": 0,
    }}
    params = manifest["parameters"]
    assert (params["width"], params["data_fi"], params["key_schedule_fi"]) == ("16", 1, 0)


def _fl_indices(layer: int) -> dict[str, int]:
    """Key indices (0..7: K, 8..15: K') of FL_{2i} and FL_{2i+1} (RFC 2994 section 2.2)."""
    i = layer
    return {"even_and": i % 8, "even_or": 8 + (i + 6) % 8,
            "odd_and": 8 + (i + 2) % 8, "odd_or": (i + 4) % 8}


def test_compact_key_rings_put_every_key_where_the_core_reads_it() -> None:
    def at(position: int, m: int, derived: bool) -> int:
        return 8 * derived + (position + m) % 8  # the index a ring at rotation m holds there

    for k in range(8):  # round k runs at rotation m = k
        assert [at(p, k, False) for p in KO_POSITIONS] == [k, (k + 2) % 8, (k + 7) % 8,
                                                            (k + 4) % 8]
        assert [at(p, k, True) for p in KI_POSITIONS] == [8 + (k + 5) % 8, 8 + (k + 1) % 8,
                                                           8 + (k + 3) % 8]
    # FL layers after rounds: i = (k + 1) / 2 for odd k (encryption), i = k / 2 for even k
    # (decryption); the input layer at rest: i = 0 (FL_0/1) or 4 (FL^-1_8/9).
    cases = [(k, (k + 1) // 2, k) for k in (1, 3, 5, 7)] + [(k, k // 2, k) for k in (0, 2, 4, 6)]
    cases += [(None, 0, 0), (None, 4, 0)]
    for k, layer, m in cases:
        offset = input_offset(layer == 4) if k is None else round_offset(k)
        assert offset in FL_OFFSETS
        expected = _fl_indices(layer)
        got = {"even_and": at(offset, m, False), "even_or": at(offset + 6, m, True),
               "odd_and": at(offset + 2, m, True), "odd_or": at(offset + 4, m, False)}
        assert got == expected


def test_compact_core_offers_one_width_and_one_key_mode() -> None:
    with pytest.raises(CipherbenchError, match="width"):
        parse("misty1/narrow:width=32")
    # The one key state returns to its start after every block: nothing to store, so the spec
    # offers only keys=rewind (restricts "narrow:keys"), and `cipherbench list` shows only that.
    with pytest.raises(CipherbenchError, match="valid: rewind"):
        parse("misty1/narrow:keys=stored")


# keys=stored (arch/keymem.py, stored_decryption = "walk"): both walks of the schedule are stored,
# 2 x (9 + 1) fill cycles of key setup in both directions.
STORED = {"misty1/iterative:keys=stored": 9, "misty1/pipelined:keys=stored": 1,
          "misty1/pipelined:keys=stored,stages=2": 5}


@pytest.mark.parametrize("design", list(STORED))
def test_stored_round_keys_iterative_and_pipelines(design: str) -> None:
    from stored_pipelines import measured_cycles, pipeline_cycles, verify_stored_pipeline

    counts = verify_stored_pipeline(design)
    assert counts["rfc2994"] == 8
    if "misty.vec" in counts:
        assert counts["misty.vec"] == 62
    assert measured_cycles(design)["128"] == pipeline_cycles(9, STORED[design], 20)
