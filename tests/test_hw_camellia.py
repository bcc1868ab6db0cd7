"""The Camellia iterative cores (128-bit and 3-in-1, table and composite S-boxes), simulated from
their generated Verilog: RFC 3713 and every Camellia vector file found, in both directions, random
blocks with key changes against the model, and the cycle counts measured in simulation. Also the
generation-time pieces: s1's affine decomposition around the field inverse, the shallow P network
and the planned key states, each checked against the model."""

from __future__ import annotations

import json
import random

import pytest

from cipherbench.cache import ensure_design
from cipherbench.ciphers.camellia import hw
from cipherbench.ciphers.camellia.model import (
    P_FUNCTION,
    SBOX1,
    expand_key,
    key_variables,
)
from cipherbench.components.gf256 import gf_inverse_table
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design

CLOCKS = {128: 25, 192: 34, 256: 34}
# Sizes of the file sets (each case once per direction), checked when the file is present.
FILE_SETS = {"camellia-128-ecb": 2560, "camellia-192-ecb": 2560, "camellia-256-ecb": 2560,
             "Camellia-128-128.verified.test-vectors": 2056}


@pytest.mark.parametrize("design", ["camellia-128/iterative", "camellia/iterative",
                                    "camellia-128/iterative:sbox=composite"])
def test_every_vector_set_both_directions_and_random_blocks_with_key_changes(design: str) -> None:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=1000)
    assert report.failed == 0, [s.first_failures for s in report.sets if s.failed]
    counts = {s.name: s.passed for s in report.sets}
    assert counts["rfc3713"] == 2 * len(spec.key_sizes)  # Appendix A, both directions
    for name, size in FILE_SETS.items():
        if name in counts:
            assert counts[name] == size
    assert counts["random-vs-model (1000)"] == 1000


@pytest.mark.parametrize("design", ["camellia-128/iterative", "camellia/iterative",
                                    "camellia-128/iterative:sbox=composite"])
def test_cycle_counts_are_measured_as_designed(design: str) -> None:
    manifest = json.loads((ensure_design(parse(design)) / "manifest.json").read_text())
    for bits, counts in manifest["cycles_by_key_size"].items():
        clocks = CLOCKS[int(bits)]
        assert counts == {
            "latency": clocks, "latency_decrypt": clocks, "initiation_interval": clocks,
            "cycles_per_chained_block": clocks,
            "key_setup_encrypt": 0,        # KA (KB) is made inside every encryption
            "key_setup_decrypt": clocks,   # one forward run-up per key, then stored
            "algorithm_setup": 0,
        }


def test_s1_is_affine_around_the_field_inverse_with_the_rfc_constants() -> None:
    c, m1, m2, d = hw.s1_affine_decomposition()
    # RFC 3713 builds s1 as h(g(f(0xc5 ^ x))) ^ 0x6e.
    assert (c, d) == (0xC5, 0x6E)
    inv = gf_inverse_table()
    assert [m2[inv[m1[x ^ c]]] ^ d for x in range(256)] == list(SBOX1)
    for table in (m1, m2):  # linear: the images of sums are sums of images
        assert all(table[a ^ b] == table[a] ^ table[b] for a in range(256) for b in (1, 2, 64))


def test_p_network_is_three_xors_deep_and_computes_p() -> None:
    gates, outputs = hw.p_function_plan()
    depth = [0] * 8
    for a, b in gates:
        depth.append(max(depth[a], depth[b]) + 1)
    assert max(depth[o] for o in outputs) == 3 and len(gates) == 20
    rng = random.Random(5)
    for _ in range(50):
        t = [rng.randrange(256) for _ in range(8)]
        signals = list(t)
        for a, b in gates:
            signals.append(signals[a] ^ signals[b])
        expected = []
        for sources in P_FUNCTION:
            y = 0
            for s in sources:
                y ^= t[s - 1]
            expected.append(y)
        assert [signals[o] for o in outputs] == expected


def _rotl(x: int, n: int) -> int:
    n %= 128
    return ((x << n) | (x >> (128 - n))) & ((1 << 128) - 1) if n else x


def _slice(variables: dict[str, int], st: hw.StatePlan, s: hw.Slice | None) -> int:
    if s is None:
        return 0
    return _rotl(_rotl(variables[s.reg], st.positions[s.reg]), s.offset) >> 64


def _wide(variables: dict[str, int], st: hw.StatePlan) -> int:
    return _rotl(variables[st.wide], st.positions[st.wide]) if st.wide else 0


@pytest.mark.parametrize("bits", [128, 192, 256])
def test_planned_key_states_give_the_rfc_subkeys_in_both_directions(bits: int) -> None:
    key = random.Random(bits).randbytes(bits // 8)
    variables = key_variables(key)
    sub = {name: int.from_bytes(v, "big") for name, v in expand_key(key).items()}
    schedule = hw.plan(hw.schedule_of(bits), hw.registers_for((bits,)))
    # The F and FL clocks of encryption in the model's order: F keys, FL key pairs.
    ops = []
    names = [n for n in sub if not n.startswith("kw")]
    i = 0
    while i < len(names):
        if names[i].startswith("ke"):
            ops.append(("FL", (sub[names[i]] << 64) | sub[names[i + 1]]))
            i += 2
        else:
            ops.append(("F", sub[names[i]]))
            i += 1
    kw12 = (sub["kw1"] << 64) | sub["kw2"]
    kw34 = (sub["kw3"] << 64) | sub["kw4"]
    fwd, bwd = schedule.forward, schedule.backward
    # Encryption: whitening, the clocks that make KA (KB), one more that XORs in k1, then ops.
    assert schedule.rounds == len(schedule.ka_steps) + 1 + len(ops)
    before = schedule.rounds - len(ops)
    assert _wide(variables, fwd[0]) == kw12
    for q, (kind, value) in enumerate(ops, start=1):
        st = fwd[before + q]
        got = _slice(variables, st, st.key) if kind == "F" else _wide(variables, st)
        assert got == value, (bits, q)
        following = ops[q][1] if q < len(ops) and ops[q][0] == "F" else 0
        assert _slice(variables, st, st.next_key) == following
    assert _wide(variables, fwd[schedule.rounds]) == kw34
    # Decryption clock c (2..) runs the ops backward from state s'_{R-c}; it ends with kw1, kw2.
    # (FL layers get their key pair exchanged: FL with ke_2l, FL^-1 with ke_2l-1.)
    for q, (kind, value) in enumerate(reversed(ops), start=2):
        st = bwd[schedule.rounds - q]
        if kind == "F":
            assert _slice(variables, st, st.key) == value, (bits, q)
        else:
            assert _wide(variables, st) == _rotl(value, 64), (bits, q)
    assert _wide(variables, bwd[schedule.rounds - len(ops) - 1]) == kw12
    # The first decryption clock (whitening) already XORs in the key of the second.
    first = bwd[schedule.rounds - 1]
    assert _slice(variables, first, first.next_key) == ops[-1][1]


# keys=stored (arch/keymem.py, stored_decryption = "walk"): both walks of the schedule are stored,
# 2 x (R + 1) fill cycles of key setup in both directions. The 128-bit full pipeline (25 units)
# takes several minutes to build: the default suite builds the iterative core and a 5-unit ring.
# The initiation interval of each (the iterative core's: R = 25).
STORED = {"camellia-128/iterative:keys=stored": 25,
          "camellia-128/pipelined:keys=stored,stages=5": 5,
          "camellia-128/pipelined:keys=stored": 1,
          "camellia/pipelined:keys=stored": 1}
STORED_DEFAULT = ("camellia-128/iterative:keys=stored",
                  "camellia-128/pipelined:keys=stored,stages=5")


@pytest.mark.parametrize("design", [d if d in STORED_DEFAULT else
                                    pytest.param(d, marks=pytest.mark.slow) for d in STORED])
def test_stored_round_keys_iterative_and_pipelines(design: str) -> None:
    from stored_pipelines import measured_cycles, pipeline_cycles, verify_stored_pipeline

    counts = verify_stored_pipeline(design)
    sizes = parse(design).key_sizes
    assert counts["rfc3713"] == 2 * len(sizes)
    cycles = measured_cycles(design)
    for bits in sizes:
        expected = pipeline_cycles(CLOCKS[bits], STORED[design], 2 * (CLOCKS[bits] + 1))
        assert cycles[str(bits)] == expected, bits
