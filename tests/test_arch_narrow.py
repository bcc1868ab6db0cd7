"""Narrow-datapath AES cores (arch/narrow.py, ciphers/aes/narrow.py), simulated from their
generated Verilog: FIPS-197 and every AESAVS KAT/MMT file, random blocks with key changes against
the model in both directions (also under back-pressure), and the exact cycle counts of each width.

Where the cycle counts come from (docs/narrow.md): every block costs one load clock, then
- 8 bits: 16-clock passes (AddRoundKey + SubBytes, one byte per clock, ShiftRows folded in) and
  4-clock phases (MixColumns on 32 bits while the shared S-box computes T for the next round key):
  encryption 16 + 9 x (4 + 16) + 4 + 16 = 216. Decryption the same 216 after a run-up of the key
  register to K10: 3 (align K0) + 10 x (4 T + 3 chain) = 73. Encryption leaves K10 in the key
  register; walking it back to K0 takes 16 + 4 + 9 x (12 + 4) = 164 clocks while the result
  waits (the backward chain row by row: 4 clocks a row from the aligned K10, then 3, and T).
- 32 bits: 4 whitening columns + 10 x (1 SubWord/ShiftRows clock + 4 columns) = 54; run-up
  10 x (1 + 3) = 40; rewind 1 + 3 + 9 x 4 + 4 = 44.
- 64 bits: the same with two columns per clock: 2 + 10 x (1 + 2) = 32; run-up 10 x 2 = 20;
  rewind 11 x 2 = 22.
- 16 bits: 8-clock passes (two bytes of one row per clock, ShiftRows folded in) and 2-clock
  phases (two MixColumns networks while the two S-boxes compute T): 8 + 9 x (2 + 8) + 2 + 8 = 108;
  run-up 10 x (2 T + 1 chain) = 30; rewind 2 + 9 x 3 + 3 = 32.
"""

from __future__ import annotations

import json

import pytest

from cipherbench.arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath
from cipherbench.arch.narrow import NarrowCore
from cipherbench.cache import ensure_design
from cipherbench.ciphers.aes.model import AES
from cipherbench.errors import CipherbenchError
from cipherbench.kinds.generated import build_core
from cipherbench.spec import parse
from cipherbench.verify.check import random_cases
from cipherbench.verify.designs import verify_design
from cipherbench.verify.sim import BlockOp, KeyOp, Simulator
from cipherbench.ciphers.aes.vectors import aesavs_files

# One direction of AESAVS for 128-bit keys: GFSbox + KeySbox + VarKey + VarTxt + MMT blocks.
AESAVS_BLOCKS_128 = 7 + 21 + 128 + 128 + 55

LOAD = 1
ENC8, RUNUP8, REWIND8 = 16 + 9 * (4 + 16) + 4 + 16, 3 + 10 * (4 + 3), 16 + 4 + 9 * (12 + 4)
ENC32, RUNUP32, REWIND32 = 4 + 10 * (1 + 4), 10 * (1 + 3), 1 + 3 + 9 * 4 + 4
ENC64, RUNUP64, REWIND64 = 2 + 10 * (1 + 2), 10 * 2, 11 * 2
ENC16, RUNUP16, REWIND16 = 8 + 9 * (2 + 8) + 2 + 8, 10 * (2 + 1), 2 + 9 * 3 + 3
# (encrypt latency, encrypt interval, decrypt latency, decrypt interval) per width.
CYCLES = {
    8: (LOAD + ENC8, LOAD + ENC8 + REWIND8, LOAD + RUNUP8 + ENC8, LOAD + RUNUP8 + ENC8),
    32: (LOAD + ENC32, LOAD + ENC32 + REWIND32, LOAD + RUNUP32 + ENC32, LOAD + RUNUP32 + ENC32),
    64: (LOAD + ENC64, LOAD + ENC64 + REWIND64, LOAD + RUNUP64 + ENC64, LOAD + RUNUP64 + ENC64),
    16: (LOAD + ENC16, LOAD + ENC16 + REWIND16, LOAD + RUNUP16 + ENC16, LOAD + RUNUP16 + ENC16),
}


def test_the_cycle_formulas_add_up() -> None:
    assert CYCLES[8] == (217, 381, 290, 290)
    assert CYCLES[32] == (55, 99, 95, 95)
    assert CYCLES[64] == (33, 55, 53, 53)
    assert CYCLES[16] == (109, 141, 139, 139)


FIGURES = ("latency", "latency_decrypt", "initiation_interval", "cycles_per_chained_block",
           "key_setup_encrypt", "key_setup_decrypt", "algorithm_setup")


def _figures(manifest: dict) -> dict[str, int | None]:
    """The measured figures this file asserts (the manifest may carry more)."""
    counts = manifest["cycles_by_key_size"]["128"]
    return {name: counts[name] for name in FIGURES}


def _expected(width: int, ops: str) -> dict[str, int | None]:
    enc_lat, enc_ii, dec_lat, dec_ii = CYCLES[width]
    has_enc, has_dec = ops != "decrypt", ops != "encrypt"
    # Streams and chains run in the core's main direction (encryption unless it only decrypts);
    # a chained block waits for the rewind like a streamed one, so both equal the interval.
    ii = enc_ii if has_enc else dec_ii
    return {
        "latency": enc_lat if has_enc else None,
        "latency_decrypt": dec_lat if has_dec else None,
        "initiation_interval": ii,
        "cycles_per_chained_block": ii,
        # Nothing is computed per key: the run-up and the rewind are per block, counted above.
        "key_setup_encrypt": 0 if has_enc else None,
        "key_setup_decrypt": 0 if has_dec else None,
        "algorithm_setup": 0,
    }


@pytest.mark.parametrize("design, width", [
    ("aes-128/narrow:width=8", 8),
    # 32 and 64 bits: their datapaths are in the default suite through the one-direction and
    # stored-key tests below; every AESAVS file through them is --runslow (65 s of CI).
    pytest.param("aes-128/narrow:width=32,sbox=composite", 32, marks=pytest.mark.slow),
    pytest.param("aes-128/narrow:width=64,sbox=composite", 64, marks=pytest.mark.slow),
    ("aes-128/narrow:width=16", 16),
])
def test_every_known_answer_and_random_blocks_both_directions(design: str, width: int) -> None:
    spec = parse(design)
    if not aesavs_files(128):
        pytest.skip("no AESAVS files: install cryptography-vectors or set CIPHERBENCH_KAT")
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=1500)
    assert report.failed == 0, [s.first_failures for s in report.sets if s.failed]
    counts = {s.name: s.passed for s in report.sets}
    assert counts["fips-197"] == 4  # Appendix B and C.1, both directions
    assert sum(n for name, n in counts.items() if name.startswith("ECB")) == 2 * AESAVS_BLOCKS_128
    assert any(name.startswith("random") and n == 1500 for name, n in counts.items())
    manifest = json.loads((folder / "manifest.json").read_text())
    assert _figures(manifest) == _expected(width, "both")
    assert manifest["parameters"]["width"] == str(width)


@pytest.mark.parametrize("design, width, ops", [
    ("aes-128/narrow:width=8,ops=encrypt,sbox=composite", 8, "encrypt"),
    ("aes-128/narrow:width=8,ops=decrypt,sbox=gf-inv", 8, "decrypt"),
    ("aes-128/narrow:width=32,ops=encrypt", 32, "encrypt"),
    ("aes-128/narrow:width=64,ops=encrypt,sbox=composite", 64, "encrypt"),
    ("aes-128/narrow:width=16,ops=encrypt,sbox=composite", 16, "encrypt"),
    ("aes-128/narrow:width=16,ops=decrypt", 16, "decrypt"),
])
def test_one_direction_cores_verify_and_count(design: str, width: int, ops: str) -> None:
    spec = parse(design)
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=600)
    assert report.failed == 0 and report.passed >= 300
    manifest = json.loads((folder / "manifest.json").read_text())
    assert _figures(manifest) == _expected(width, ops)
    # The datapath's own account of its schedule agrees with what simulation measured.
    name = "decrypt" if ops == "decrypt" else "encrypt"
    measured = manifest["latency_decrypt" if ops == "decrypt" else "latency"]
    assert manifest["parameters"][f"{name}_latency"] == measured
    assert manifest["parameters"][f"{name}_interval"] == manifest["initiation_interval"]


# keys=stored: K0 and the run-up's K10 kept beside the key register. No per-block key work, so
# a block takes the load clock and the rounds in either direction; the decryption run-up runs
# once per key: the clock in which the waiting block starts it, the run-up, one clock to store.
STORED = {8: (LOAD + ENC8, 1 + RUNUP8 + 1), 64: (LOAD + ENC64, 1 + RUNUP64 + 1),
          16: (LOAD + ENC16, 1 + RUNUP16 + 1)}


@pytest.mark.parametrize("design, width, ops", [
    ("aes-128/narrow:width=8,keys=stored,sbox=composite", 8, "both"),
    ("aes-128/narrow:width=64,keys=stored,ops=decrypt,sbox=composite", 64, "decrypt"),
    ("aes-128/narrow:width=16,keys=stored,sbox=composite", 16, "both"),
])
def test_stored_start_states_remove_the_per_block_key_work(design: str, width: int,
                                                           ops: str) -> None:
    spec = parse(design)
    folder = ensure_design(spec)
    report = verify_design(spec, folder, random_blocks=800)
    assert report.failed == 0 and report.passed >= 400
    block, setup = STORED[width]
    assert (block, setup) == {8: (217, 75), 64: (33, 22), 16: (109, 32)}[width]
    enc = ops == "both"
    counts = _figures(json.loads((folder / "manifest.json").read_text()))
    assert counts == {
        "latency": block if enc else None, "latency_decrypt": block,
        "initiation_interval": block, "cycles_per_chained_block": block,
        "key_setup_encrypt": 0 if enc else None, "key_setup_decrypt": setup,
        "algorithm_setup": 0,
    }


@pytest.mark.parametrize("design", ["aes-128/narrow:width=8",
                                    "aes-128/narrow:width=32,sbox=composite",
                                    "aes-128/narrow:width=16,sbox=composite",
                                    "aes-128/narrow:width=8,keys=stored,sbox=composite"])
def test_results_survive_back_pressure_and_mixed_directions(design: str) -> None:
    """The consumer stalls at random; the result must stay put while the key register rewinds
    underneath it, and a decryption after an encryption must find K0 again."""
    spec = parse(design)
    sim = Simulator(ensure_design(spec))
    sim.build()
    model = AES()
    cases = random_cases(model, (128,), 120, seed=7, key_change_every=5)
    ops: list[KeyOp | BlockOp] = []
    expected = []
    key = b""
    for case_key, data, result, decrypt in cases:
        if case_key != key:
            ops.append(KeyOp(case_key))
            key = case_key
        ops.append(BlockOp(data, decrypt))
        expected.append(result)
    for seed in (1, 2):
        trace = sim.run(ops, backpressure_seed=seed)
        assert trace.outputs == expected


def _parameters(design: str) -> dict:
    folder = ensure_design(parse(design))
    return json.loads((folder / "manifest.json").read_text())["parameters"]


def test_the_area_target_configuration_shares_its_only_sbox() -> None:
    """The compact encryption core: one S-box, used by the key schedule as well."""
    described = _parameters("aes-128/narrow:width=8,ops=encrypt,sbox=composite")
    assert described["data_sboxes"] == 1 and described["key_schedule_sboxes"] == 0
    assert described["encrypt_latency"] == 217 and described["encrypt_interval"] == 381


def test_the_32_and_64_bit_cores_share_their_sboxes() -> None:
    described = _parameters("aes-128/narrow:width=32,ops=encrypt")
    assert described["data_sboxes"] == 4 and described["key_schedule_sboxes"] == 0
    described = _parameters("aes-128/narrow:width=64,ops=encrypt,sbox=composite")
    assert described["data_sboxes"] == 8 and described["key_schedule_sboxes"] == 0


def test_the_16_bit_core_shares_its_two_sboxes() -> None:
    """Fischer's minimum width: two S-boxes for SubBytes and, in the MixColumns clocks, T."""
    described = _parameters("aes-128/narrow:width=16,ops=encrypt,sbox=composite")
    assert described["data_sboxes"] == 2 and described["key_schedule_sboxes"] == 0
    assert described["encrypt_latency"] == 109 and described["encrypt_interval"] == 141


@pytest.mark.parametrize("design, message", [
    ("aes-192/narrow:width=8", "the narrow AES datapaths take 128-bit keys only"),
    ("aes/narrow:width=32", "the narrow AES datapaths take 128-bit keys only"),
    ("aes-192/narrow:width=16", "the narrow AES datapaths take 128-bit keys only"),
    ("aes-128/narrow:width=16,sbox=bram", "sbox=bram needs a registered SubBytes"),
])
def test_other_key_sizes_are_refused_in_one_line(design: str, message: str) -> None:
    with pytest.raises(CipherbenchError, match=message) as info:
        build_core(parse(design))
    assert "\n" not in str(info.value)


def test_width_values_are_checked_by_the_spec() -> None:
    with pytest.raises(CipherbenchError, match="valid: 64, 32, 16, 8"):
        parse("aes-128/narrow:width=12")


class _NoNarrow(CipherHardware):
    """A cipher description without a narrow datapath (the default of CipherHardware)."""

    name = "toy"
    block_bits = 64
    round_key_bits = 64
    key_state_bits = 64

    def rounds(self, key_bits: int) -> int:
        return 1

    def datapath(self) -> RoundDatapath:
        raise NotImplementedError

    def key_step(self, key_len_bits: int, step_bits: int) -> KeyStep:
        raise NotImplementedError


def test_a_cipher_without_narrow_datapaths_says_so() -> None:
    hw = _NoNarrow(CoreOptions(key_sizes=(64,)))
    with pytest.raises(CipherbenchError, match="toy has no 8-bit datapath; valid widths: none"):
        NarrowCore(hw, width="8")


def test_aes_names_its_widths() -> None:
    from cipherbench.ciphers.aes.narrow import AesNarrowHardware

    hw = AesNarrowHardware(CoreOptions(key_sizes=(128,)))
    with pytest.raises(CipherbenchError,
                       match="aes has no 128-bit datapath; valid widths: 64, 32, 16, 8"):
        hw.narrow_datapath(128)


def test_random_keys_cover_both_directions() -> None:
    """The random set used above mixes directions and changes keys (sanity of the test itself)."""
    cases = random_cases(AES(), (128,), 120, seed=7, key_change_every=5)
    assert {c[3] for c in cases} == {False, True}
    assert len({c[0] for c in cases}) == 24
