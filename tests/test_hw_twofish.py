"""The Twofish iterative cores, simulated from their generated Verilog: every Twofish vector set
(the paper's typed-in examples, ecb_ival, the Crypto++ and Botan files) for every key size in both
directions, random blocks with key changes against the model, and exact cycle counts for both
ways of whitening (clocks of their own with one subkey pair generator: 20 clocks, as the NSA's;
folded into rounds 1 and 16: 16 clocks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from verified import verified_counts
from amaranth.hdl import Const, Module, Signal
from amaranth.sim import Simulator

from cipherbench.cache import ensure_design
from cipherbench.ciphers.twofish import hw, model
from cipherbench.errors import CipherbenchError
from cipherbench.kinds.generated import build_core
from cipherbench.spec import parse
from cipherbench.verify.designs import verify_design


def _counts(design: str) -> dict:
    folder = ensure_design(parse(design))
    return json.loads((folder / "manifest.json").read_text())["cycles_by_key_size"]


_verified = verified_counts  # tests/verified.py: once per test process


def test_chain_table_is_the_models() -> None:
    """The q0/q1 chain of each byte of h, restated from the paper, is the model's."""
    from cipherbench.ciphers.twofish.model import _CHAINS  # the model's own table

    for chain, kinds in zip(_CHAINS, hw.CHAINS):
        assert [0 if table is model.Q0 else 1 for table in chain] == list(kinds)


def test_rs_rows_give_the_models_sbox_words() -> None:
    key = bytes(range(0x10, 0x30))
    rows = hw.rs_rows()
    for i in range(4):
        word = int.from_bytes(key[8 * i:8 * i + 8], "little")
        parity = [(word & row).bit_count() & 1 for row in rows]
        expected = model.rs_multiply(key[8 * i:8 * i + 8])
        assert sum(bit << n for n, bit in enumerate(parity)) == expected


@pytest.mark.parametrize("kind", hw.Q_KINDS)
def test_q_permutations_in_both_structures(kind: str) -> None:
    """q0 and q1 of every byte value, nibble tables or 256-entry tables, in simulation."""
    m = Module()
    x = Signal(8)
    outs = [hw.q_permutation(m, x, which, kind, f"q{which}") for which in (0, 1)]
    results: list[tuple[int, int]] = []

    async def bench(ctx) -> None:
        for value in range(256):
            ctx.set(x, value)
            results.append((ctx.get(outs[0]), ctx.get(outs[1])))

    sim = Simulator(m)
    sim.add_testbench(bench)
    sim.run()
    assert results == list(zip(model.Q0, model.Q1))


def test_cycles_schedule_uses_every_subkey_once_per_direction() -> None:
    enc, dec = hw.cycles_schedule(model.ROUNDS)
    assert sorted(pair for pair, _ in enc) == list(range(20))
    assert sorted(pair for pair, _ in dec) == list(range(20))
    assert [kind for _, kind in enc] == [kind for _, kind in dec]


@pytest.mark.parametrize("clocks", [16, 20])
def test_key_step_ports_serve_the_rounds_the_architectures_ask_for(clocks: int) -> None:
    """Iterative: encryption round r reads rk_out of forward step r-1, decryption round r rk_out
    of backward step R-r. Pipelines: round r reads rk_in of forward step r, decryption round r
    rk_in of backward step R-1-r, which is -1 (wrapped) for the last round."""
    bits = 5
    for r in range(1, clocks + 1):
        assert hw.served_clock("out", False, r - 1, clocks, bits) == (False, r)
        assert hw.served_clock("out", True, clocks - r, clocks, bits) == (True, r)
        assert hw.served_clock("in", False, r, clocks, bits) == (False, r)
        wrapped = (clocks - 1 - r) % (1 << bits)
        assert hw.served_clock("in", True, wrapped, clocks, bits) == (True, r)
    # subkeys=ahead: forward step s makes clock s+2's pair; the run-up's last step (into state
    # R) makes decryption clock 1's, and backward step s makes decryption clock R-s+1's.
    assert hw.served_clock("next", False, 0, clocks, bits) == (False, 2)
    assert hw.served_clock("next", False, clocks - 1, clocks, bits) == (True, 1)
    assert hw.served_clock("next", True, clocks - 1, clocks, bits) == (True, 2)


@pytest.mark.parametrize("design", ["twofish-128/iterative", "twofish/iterative"])
def test_typed_in_vectors_both_directions_and_random(design: str) -> None:
    counts = _verified(design, 2000)
    # Typed in: the ecb_ival key and four ecb_tbl entries per key size, both directions.
    assert counts["twofish-spec"] == 8 * len(parse(design).key_sizes)
    assert any(name.startswith("random") and n == 2000 for name, n in counts.items())


@pytest.mark.parametrize("design", ["twofish-128/iterative", "twofish/iterative"])
def test_every_vector_file_both_directions(design: str, kat_folder: Path) -> None:
    counts = _verified(design, 2000)
    sizes = len(parse(design).key_sizes)
    assert counts["ecb_ival"] == 12 * sizes
    assert counts["twofish"] == {1: 610, 3: 2214}[sizes]
    assert counts["twofishv"] == {1: 8, 3: 18}[sizes]


# The non-default options together in one design: whitening folded into rounds 1 and 16, subkeys
# made one clock ahead.
FOLD_AHEAD = "twofish-128/iterative:whiten=fold,subkeys=ahead"


@pytest.mark.parametrize("design, clocks", [
    ("twofish-128/iterative", 20), ("twofish/iterative", 20), (FOLD_AHEAD, 16),
])
def test_cycle_counts(design: str, clocks: int) -> None:
    counts = _counts(design)
    assert set(counts) == {str(bits) for bits in parse(design).key_sizes}
    for per_size in counts.values():
        assert per_size == {
            "latency": clocks, "latency_decrypt": clocks, "initiation_interval": clocks,
            "cycles_per_chained_block": clocks,
            "key_setup_encrypt": 0,
            # The key state never changes (subkeys come from the step index), but the iterative
            # architecture runs its decryption run-up once per key all the same.
            "key_setup_decrypt": clocks,
            "algorithm_setup": 0,
        }


def test_folded_whitening_with_subkeys_ahead_verifies() -> None:
    spec = parse(FOLD_AHEAD)
    report = verify_design(spec, ensure_design(spec), random_blocks=500)
    assert report.failed == 0 and report.passed >= 500


def test_round_key_memory_is_refused() -> None:
    with pytest.raises(CipherbenchError, match="keys"):
        parse("twofish-128/iterative:keys=stored")


def test_subkey_pair_hardware_matches_the_model() -> None:
    """K_{2p}, K_{2p+1} of a 256-bit key from one pair generator, for every pair index."""
    key = bytes(range(32))
    expected = model.expand_key(key)
    words = [int.from_bytes(key[4 * i:4 * i + 4], "little") for i in range(8)]
    m = Module()
    index = Signal(6)
    start = hw.ChainStart((4,), {4: Const(1, 1)})
    me = [Const(w, 32) for w in words[0::2]]
    mo = [Const(w, 32) for w in words[1::2]]
    k0, k1 = hw.subkey_pair(m, index, me, mo, start, "nibble", "pair")
    got: list[int] = []

    async def bench(ctx) -> None:
        for p in range(20):
            ctx.set(index, p)
            got.extend((ctx.get(k0), ctx.get(k1)))

    sim = Simulator(m)
    sim.add_testbench(bench)
    sim.run()
    assert got == expected


# --- narrow datapaths (ciphers/twofish/narrow.py): one g shared by both halves -----------------

# Clocks of the block: width=64, 20 subkey pairs of two clocks (g(R0) and h(2p rho, Me), then
# g(R1 <<< 8) and h((2p+1) rho, Mo) with the round); width=32, one h for all four: 4 whitening
# pairs of two clocks and 16 rounds of four; width=8, that h one byte per clock (x4), and the
# RS code one key byte per clock in a key setup.
NARROW_MAIN = {64: 20 * 2, 32: 4 * 2 + 16 * 4, 8: 4 * 8 + 16 * 16}


@pytest.mark.parametrize("design", ["twofish-128/narrow:width=64", "twofish/narrow:width=32",
                                    "twofish/narrow:width=8"])
def test_narrow_typed_in_vectors_both_directions_and_random(design: str) -> None:
    counts = _verified(design, 1000)
    assert counts["twofish-spec"] == 8 * len(parse(design).key_sizes)
    assert any(name.startswith("random") and n == 1000 for name, n in counts.items())


@pytest.mark.parametrize("design", ["twofish-128/narrow:width=64", "twofish/narrow:width=32",
                                    "twofish/narrow:width=8"])
def test_narrow_every_vector_file_both_directions(design: str, kat_folder: Path) -> None:
    counts = _verified(design, 1000)
    sizes = len(parse(design).key_sizes)
    assert counts["ecb_ival"] == 12 * sizes
    assert counts["twofish"] == {1: 610, 3: 2214}[sizes]


@pytest.mark.parametrize("design, width", [
    ("twofish-128/narrow:width=64", 64), ("twofish/narrow:width=32", 32),
    ("twofish/narrow:width=8", 8),
])
def test_narrow_cycle_counts(design: str, width: int) -> None:
    counts = _counts(design)
    assert set(counts) == {str(bits) for bits in parse(design).key_sizes}
    clocks = 1 + NARROW_MAIN[width]  # the load clock, then the block
    for bits, per_size in counts.items():
        # The key words never change: no run-up, no rewind. width=8 computes the S words once
        # per key (and direction), one key byte per clock: the waiting block's clock + 8k.
        setup = 1 + 8 * (int(bits) // 64) if width == 8 else 0
        assert per_size == {
            "latency": clocks, "latency_decrypt": clocks, "initiation_interval": clocks,
            "cycles_per_chained_block": clocks, "key_setup_encrypt": setup,
            "key_setup_decrypt": setup, "algorithm_setup": 0,
        }


def test_serial_rs_is_the_remainder_by_the_generator_polynomial() -> None:
    """width=8's RS: key bytes m_{8i+7} .. m_{8i} through the 4-byte shift register with g(x)'s
    coefficients give the model's S_i (the hardware's word byte j is the coefficient of x^j)."""
    from cipherbench.ciphers.twofish.narrow import RS_GENERATOR

    def times(a: int, b: int) -> int:
        return model.gf_mul(a, b, model.RS_POLYNOMIAL)

    key = bytes(range(0x31, 0x31 + 32))
    for i in range(4):
        word = 0
        for byte in reversed(key[8 * i:8 * i + 8]):
            feedback = (word >> 24) ^ byte
            word = (word << 8) & 0xFFFFFFFF
            for j, c in enumerate(RS_GENERATOR):
                word ^= times(c, feedback) << 8 * j
        assert word == model.rs_multiply(key[8 * i:8 * i + 8])


# One-direction cores, other key sizes, table q: two more builds (--runslow).
@pytest.mark.slow
@pytest.mark.parametrize("design", ["twofish-256/narrow:width=64,ops=decrypt,q=table",
                                    "twofish-192/narrow:width=8,ops=encrypt"])
def test_narrow_one_direction_verifies(design: str) -> None:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=300)
    assert report.failed == 0 and report.passed >= 300


def test_byte_lane_chain_and_mds_column_match_the_model() -> None:
    """width=8's byte lane: byte position i's q chain with the stage key bytes, then MDS column
    i, for every position and byte value under a 256-bit key's S words (the model's s_i and
    column i; h is the XOR of the four positions' columns)."""
    from cipherbench.ciphers.twofish.model import _MDS_COLUMNS, _sbox_byte
    from cipherbench.ciphers.twofish.narrow import _chain_byte, _mds_column

    s_words = (0x01234567, 0x89ABCDEF, 0x0F1E2D3C, 0x4B5A6978)
    m = Module()
    x, index = Signal(8), Signal(2)
    start = hw.ChainStart((4,), {4: Const(1, 1)})
    key_bytes = [Const(w, 32).word_select(index, 8) for w in s_words]
    column = _mds_column(m, _chain_byte(m, x, key_bytes, index, start, "nibble"), index)
    got: list[int] = []

    async def bench(ctx) -> None:
        for i in range(4):
            for value in range(256):
                ctx.set(index, i)
                ctx.set(x, value)
                got.append(ctx.get(column))

    sim = Simulator(m)
    sim.add_testbench(bench)
    sim.run()
    assert got == [_MDS_COLUMNS[i][_sbox_byte(i, value, s_words)]
                   for i in range(4) for value in range(256)]


@pytest.mark.parametrize("design, message", [
    ("twofish-128/narrow:width=16", "twofish has no 16-bit datapath; valid widths: 64, 32, 8"),
    ("twofish-128/narrow:width=64,whiten=fold", "drop whiten=, subkeys= and keying="),
])
def test_narrow_refusals_are_one_line(design: str, message: str) -> None:
    with pytest.raises(CipherbenchError, match=message) as info:
        build_core(parse(design))
    assert "\n" not in str(info.value)


def test_narrow_keys_stored_is_refused_by_the_spec() -> None:
    with pytest.raises(CipherbenchError, match="keys"):
        parse("twofish-128/narrow:keys=stored")


# --- precomputed key-dependent S-boxes (keying=partial/full; arch/keytables.py) ------------------


@pytest.mark.parametrize("keying", ["partial", "full"])
def test_table_entries_are_the_models_keyed_sboxes(keying: str) -> None:
    """The fill's entry x for a 192-bit key of a 3-in-1 core: s_0(x)..s_3(x) (partial) or their
    MDS columns (full), the model's key_dependent_sbox and g tables."""
    from amaranth.hdl import Cat

    from cipherbench.arch.base import CoreOptions
    from cipherbench.ciphers.twofish.model import _MDS_COLUMNS

    key = bytes(range(0x40, 0x40 + 24))
    core = hw.TwofishHardware(CoreOptions((128, 192, 256), extra={"keying": keying}))
    spec = core.key_tables()
    assert spec is not None and spec.lane_bits == (8 if keying == "partial" else 32)
    entry = core.table_entry(6)
    s = tuple(model.sbox_key_words(key))
    sboxes = [model.key_dependent_sbox(i, s) for i in range(4)]
    expected = [[y if keying == "partial" else _MDS_COLUMNS[i][y] for y in sboxes[i]]
                for i in range(4)]
    # Every 7th x and both ends (Python simulation of the four chains is slow; the designs'
    # verification covers every entry through the ciphertexts).
    xs = sorted(set(range(0, 256, 7)) | {255})
    expected = [[lane[x] for x in xs] for lane in expected]
    got: list[list[int]] = [[] for _ in range(4)]

    async def bench(ctx) -> None:
        ctx.set(entry.key, int.from_bytes(key + bytes(8), "big"))
        ctx.set(entry.key_len, 24)
        ctx.set(entry.seed_in, ctx.get(entry.seed))
        for x in xs:
            ctx.set(entry.index, x)
            value = ctx.get(entry.entry)
            for i in range(4):
                got[i].append(value >> (i * spec.lane_bits) & ((1 << spec.lane_bits) - 1))

    m = Module()
    m.submodules.entry = entry
    dummy = Signal()
    m.d.comb += dummy.eq(Cat(entry.entry).any())
    sim = Simulator(m)
    sim.add_testbench(bench)
    sim.run()
    assert got == expected


# Key setup is the 256-clock fill in both directions (decryption adds the iterative core's
# run-up); the rounds are unchanged.
@pytest.mark.parametrize("design, decrypt_setup", [
    ("twofish-128/iterative:keying=partial", 256 + 20),
    pytest.param("twofish/iterative:keying=full", 256 + 20, marks=pytest.mark.slow),
    ("twofish-128/pipelined:stages=2,keying=partial", 256),
])
def test_precomputed_sboxes_verify(design: str, decrypt_setup: int) -> None:
    spec = parse(design)
    report = verify_design(spec, ensure_design(spec), random_blocks=500)
    assert report.failed == 0 and report.passed >= 500
    counts = {s.name: s.passed for s in report.sets}
    assert counts["twofish-spec"] == 8 * len(spec.key_sizes)
    for per_size in _counts(design).values():
        assert per_size["latency"] == 20 and per_size["initiation_interval"] in (20, 10)
        assert per_size["key_setup_encrypt"] == 256
        assert per_size["key_setup_decrypt"] == decrypt_setup


@pytest.mark.slow
def test_full_pipeline_with_precomputed_sboxes_verifies() -> None:
    """20 units read the one copy of the tables (160 read ports)."""
    spec = parse("twofish-128/pipelined:keying=partial")
    report = verify_design(spec, ensure_design(spec), random_blocks=300)
    assert report.failed == 0 and report.passed >= 300


def test_narrow_refuses_precomputed_sboxes() -> None:
    with pytest.raises(CipherbenchError, match="keying="):
        build_core(parse("twofish-128/narrow:width=64,keying=partial"))
