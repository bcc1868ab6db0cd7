"""Narrow (serialized) cores of the lightweight ciphers, simulated from their generated Verilog:
known answers in both directions, random blocks against the model, key changes and the
constant-time set (verify_design), and exact cycle counts: the figures the programs predict (the
manifest's parameters) equal the measured ones and the formulas below.

- PRESENT (ciphers/present/narrow.py): W/4 S-box lanes, n = 64/W clocks a pass, one clock for
  pLayer and the key update; 32 passes (31 rounds and the final addRoundKey) and 31 pLayer clocks:
  32 (n + 1) - 1 clocks. keys=rewind: a 31-clock rewind after encryption, a 31-clock run-up
  before decryption; keys=stored: the run-up once per key.
"""

from __future__ import annotations

import json

import pytest
from verified import verified_counts

from cipherbench.cache import ensure_design
from cipherbench.errors import CipherbenchError
from cipherbench.spec import parse

FIGURES = ("latency", "latency_decrypt", "initiation_interval", "cycles_per_chained_block",
           "key_setup_encrypt", "key_setup_decrypt", "algorithm_setup")


def _manifest(design: str) -> dict:
    return json.loads((ensure_design(parse(design)) / "manifest.json").read_text())


def _check_predictions(manifest: dict, ops: str) -> None:
    """The manifest's predicted figures (the programs') are the measured ones."""
    params = manifest["parameters"]
    for counts in manifest["cycles_by_key_size"].values():
        if ops != "decrypt":
            assert params["encrypt_latency"] == counts["latency"]
            assert params["encrypt_key_setup"] == counts["key_setup_encrypt"]
        if ops != "encrypt":
            assert params["decrypt_latency"] == counts["latency_decrypt"]
            assert params["decrypt_key_setup"] == counts["key_setup_decrypt"]
        main = "decrypt" if ops == "decrypt" else "encrypt"
        assert params[f"{main}_interval"] == counts["initiation_interval"]
        assert params[f"{main}_interval"] == counts["cycles_per_chained_block"]


def _expected(main: int, run: int, keys: str, ops: str) -> dict[str, int | None]:
    """Figures of a narrow core whose block takes ``main`` clocks and whose key register is
    walked ``run`` clocks (rewind after encryption, run-up before decryption, or once per key)."""
    has_enc, has_dec = ops != "decrypt", ops != "encrypt"
    if keys == "stored":
        enc_lat = enc_ii = dec_lat = dec_ii = 1 + main
        setup = 1 + run
    else:
        enc_lat, enc_ii = 1 + main, 1 + main + run
        dec_lat = dec_ii = 1 + run + main
        setup = 0
    ii = enc_ii if has_enc else dec_ii
    return {"latency": enc_lat if has_enc else None,
            "latency_decrypt": dec_lat if has_dec else None,
            "initiation_interval": ii, "cycles_per_chained_block": ii,
            "key_setup_encrypt": 0 if has_enc else None,
            "key_setup_decrypt": setup if has_dec else None, "algorithm_setup": 0}


# --- PRESENT --------------------------------------------------------------------------------------

PRESENT_RUN = 31   # key updates: run-up or rewind, one per clock on the idle lanes


def present_main(width: int) -> int:
    """32 passes of 64/W clocks and 31 pLayer/key clocks."""
    return 32 * (64 // width + 1) - 1


def test_present_cycle_formulas() -> None:
    assert [present_main(w) for w in (4, 8, 16, 32)] == [543, 287, 159, 95]
    # 4 bits, one S-box: 544 clocks a block (Rolfes et al.: 547), 575 with the rewind.
    assert _expected(present_main(4), PRESENT_RUN, "rewind", "both")["latency"] == 544
    assert _expected(present_main(4), PRESENT_RUN, "rewind", "both")["initiation_interval"] == 575


def _present_case(design: str) -> tuple[int, str, str]:
    spec = parse(design)
    p = spec.param_dict
    return int(p["width"]), p["keys"], p["ops"]


@pytest.mark.parametrize("design, typed", [
    ("present-80/narrow:width=4", 8),            # the classic: one S-box, both directions
    ("present/narrow:width=16,keys=stored", 10),  # both key sizes, start states kept
])
def test_present_narrow_verifies_and_counts(design: str, typed: int) -> None:
    counts = verified_counts(design, 1000)
    assert counts["present-spec"] == typed
    assert any(name.startswith("random") and n == 1000 for name, n in counts.items())
    assert any(name.startswith("constant time") for name in counts)
    width, keys, ops = _present_case(design)
    manifest = _manifest(design)
    for measured in manifest["cycles_by_key_size"].values():
        assert {k: measured[k] for k in FIGURES} == _expected(present_main(width), PRESENT_RUN,
                                                              keys, ops)
    _check_predictions(manifest, ops)


def test_present_4_bit_core_has_one_sbox_per_direction() -> None:
    params = _manifest("present-80/narrow:width=4")["parameters"]
    assert params["data_sbox_lanes"] == 2            # S and S^-1, shared with the key update
    assert params["key_schedule_sbox_lanes"] == 0
    assert params["clocks_per_round"] == 17
    params = _manifest("present-80/narrow:width=4,ops=encrypt")["parameters"]
    # Encryption only: one S lane; the rewind undoes the update with an S^-1 of its own.
    assert (params["data_sbox_lanes"], params["key_schedule_sbox_lanes"]) == (1, 1)


@pytest.mark.slow
@pytest.mark.parametrize("design", [
    "present/narrow:width=4",
    "present/narrow:width=8,ops=encrypt",
    "present-80/narrow:width=4,ops=encrypt",
    "present-128/narrow:width=4,ops=decrypt",
    "present-80/narrow:width=4,ops=encrypt,keys=stored",
    "present/narrow:width=4,ops=decrypt,keys=stored",
    "present/narrow:width=32,keys=stored",
    "present-128/narrow:width=16",
    "present-80/narrow:width=8,keys=stored",
])
def test_present_narrow_variants(design: str) -> None:
    counts = verified_counts(design, 300)
    assert counts["present-spec"] > 0
    width, keys, ops = _present_case(design)
    manifest = _manifest(design)
    for measured in manifest["cycles_by_key_size"].values():
        assert {k: measured[k] for k in FIGURES} == _expected(present_main(width), PRESENT_RUN,
                                                              keys, ops)
    _check_predictions(manifest, ops)


def test_present_widths_are_named() -> None:
    with pytest.raises(CipherbenchError, match="valid: 32, 16, 8, 4"):
        parse("present/narrow:width=64")
    from cipherbench.arch.base import CoreOptions
    from cipherbench.ciphers.present.narrow import PresentNarrowHardware

    hw = PresentNarrowHardware(CoreOptions(key_sizes=(80,)))
    with pytest.raises(CipherbenchError, match="present has no 64-bit datapath; valid widths: "
                                               "32, 16, 8, 4"):
        hw.narrow_datapath(64, "rewind")


# --- GIFT-128 -------------------------------------------------------------------------------------
# (ciphers/gift/narrow.py): W/4 lanes, n = 128/W clocks a pass, one clock for PermBits,
# AddRoundKey and the key update: 40 (n + 1) clocks in both directions. The key state of every
# round is wiring of the key (decryption's start loaded with the block, encryption's last key
# clock puts the key back): no run-up, no rewind, nothing to store.


def gift_main(width: int) -> int:
    return 40 * (128 // width + 1)


def test_gift_cycle_formulas() -> None:
    assert [gift_main(w) for w in (4, 8, 16, 32)] == [1320, 680, 360, 200]


@pytest.mark.parametrize("design", [
    "gift/narrow:width=4",
    pytest.param("gift/narrow:width=32,ops=encrypt", marks=pytest.mark.slow),
    pytest.param("gift/narrow:width=8,ops=decrypt", marks=pytest.mark.slow),
    pytest.param("gift/narrow:width=16", marks=pytest.mark.slow),
])
def test_gift_narrow_verifies_and_counts(design: str) -> None:
    ops = parse(design).param_dict["ops"]
    counts = verified_counts(design, 1000 if ops == "both" else 300)
    assert counts["gift-designers"] == (6 if ops == "both" else 3)
    assert any(name.startswith("constant time") for name in counts)
    width = int(parse(design).param_dict["width"])
    manifest = _manifest(design)
    measured = manifest["cycles_by_key_size"]["128"]
    assert {k: measured[k] for k in FIGURES} == _expected(gift_main(width), 0, "rewind", ops)
    _check_predictions(manifest, ops)
    params = manifest["parameters"]
    assert params["data_sbox_lanes"] == width // 4 * (2 if ops == "both" else 1)
    assert params["key_schedule_sbox_lanes"] == 0


def test_gift_widths_and_keys_are_named() -> None:
    with pytest.raises(CipherbenchError, match="valid: 32, 16, 8, 4"):
        parse("gift/narrow:width=64")
    # The register holds the key between blocks: keys=stored would store nothing.
    with pytest.raises(CipherbenchError, match="valid: rewind"):
        parse("gift/narrow:keys=stored")


def test_gift_key_jumps_are_the_updates() -> None:
    """The wiring that loads decryption's start state is 39 updates of the model's schedule."""
    from cipherbench.ciphers.gift import model
    from cipherbench.ciphers.gift.narrow import _updates

    key = 0x0123456789ABCDEF_FEDCBA9876543210
    table = _updates(39)
    moved = sum(((key >> i) & 1) << table[i] for i in range(128))
    expected = key
    for _ in range(39):
        expected = model.key_update(expected)
    assert moved == expected


# --- HIGHT ----------------------------------------------------------------------------------------
# (ciphers/hight/narrow.py): a ring of eight bytes turning one byte a clock, one F and one data
# adder: the first round 8 clocks (its E clocks add WK0..3), 31 rounds of 7 (the round's byte
# rotation is the ring's eighth turn left out), a whitening pass of 8: 233 clocks. A core with
# decryption turns encryption's pass by two more bytes (decryption's pass ends there): 235.

HIGHT_MAIN = 8 + 31 * 7 + 8


def test_hight_cycle_formula() -> None:
    assert HIGHT_MAIN == 233


@pytest.mark.parametrize("design", [
    "hight/narrow",
    pytest.param("hight/narrow:ops=encrypt", marks=pytest.mark.slow),
    pytest.param("hight/narrow:ops=decrypt", marks=pytest.mark.slow),
])
def test_hight_narrow_verifies_and_counts(design: str) -> None:
    ops = parse(design).param_dict["ops"]
    counts = verified_counts(design, 1000 if ops == "both" else 300)
    assert counts["hight-spec"] == (8 if ops == "both" else 4)
    assert any(name.startswith("random-vs-oracle") for name in counts)   # Crypto++ HIGHT
    assert any(name.startswith("constant time") for name in counts)
    manifest = _manifest(design)
    measured = manifest["cycles_by_key_size"]["128"]
    enc = HIGHT_MAIN + (2 if ops == "both" else 0)
    expected = _expected(HIGHT_MAIN, 0, "rewind", ops)
    if ops != "decrypt":
        expected.update(latency=1 + enc, initiation_interval=1 + enc,
                        cycles_per_chained_block=1 + enc)
    assert {k: measured[k] for k in FIGURES} == expected
    _check_predictions(manifest, ops)
    params = manifest["parameters"]
    assert (params["f_functions"], params["data_adders_8bit"], params["clocks_per_round"]) == \
        (1, 1, 7)


def test_hight_offers_one_width_and_one_key_mode() -> None:
    assert parse("hight/narrow").param_dict["width"] == "8"
    with pytest.raises(CipherbenchError, match="valid: 8"):
        parse("hight/narrow:width=4")
    with pytest.raises(CipherbenchError, match="valid: rewind"):
        parse("hight/narrow:keys=stored")
