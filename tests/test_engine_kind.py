"""The engine kind (kinds/engine.py): GCM engines named in the spec grammar
(``aes-128-gcm/iterative:ghash=serial8``), refused in one line where they cannot be built or
verified, verified before measured (verify/message_verify.py) and run end to end by ``cipherbench
run``; an engine whose tag check is broken fails with its first failing message in full and
stores nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from amaranth.hdl import Value
from click.testing import CliRunner

from cipherbench.cli import main
from cipherbench.errors import CipherbenchError
from cipherbench.kinds.engine import ENGINE, EngineSpec, parse_engine
from cipherbench.kinds.generated import GENERATED
from cipherbench.kinds.registry import design_of, kind_of, kind_of_name
from cipherbench.message.gcm_core import GcmCore
from cipherbench.message.gcm_engine import GcmEngine

SMALL = "aes-128-gcm/iterative:ghash=serial8"


def test_engines_are_named_in_the_spec_grammar() -> None:
    spec = design_of("AES-128-GCM/pipelined:inner=2,w=128,ghash=karatsuba")
    assert isinstance(spec, EngineSpec) and kind_of(spec) is ENGINE
    assert str(spec) == "aes-128-gcm/pipelined:inner=2,w=128"
    assert spec.canonical() == ("aes-128-gcm/pipelined:ahead=64,decouple=no,ghash=karatsuba,"
                                "inner=2,keys=fly,load=direct,sbox=table,stages=full,w=128")
    assert parse_engine(spec.canonical()) == spec and parse_engine(str(spec)) == spec
    assert spec.core.canonical().endswith("ops=encrypt,sbox=table,stages=full")
    assert kind_of_name(str(spec)) is ENGINE and kind_of_name("aes-128/iterative") is GENERATED
    assert not GENERATED.names(str(spec)) and not ENGINE.names("aes-128/iterative")
    assert str(design_of("sm4-gcm/iterative")) == "sm4-128-gcm/iterative"


@pytest.mark.parametrize("text, message", [
    ("des-gcm/iterative", "GCM needs a 128-bit block cipher; des has 64-bit blocks (GCM is "
                          "offered over aes, aria, camellia, seed, serpent, sm4, twofish)"),
    ("lea-128-gcm/iterative", "no independent GCM implementation of lea is known"),
    ("aes-gcm/iterative", "an engine loads one key size: name it (aes-128-gcm, aes-192-gcm, "
                          "aes-256-gcm)"),
    ("aes-128-ccm/iterative", "unknown mode 'ccm' in 'aes-128-ccm/iterative'; valid: gcm"),
    ("aes-128-gcm/iterative:ops=both", "ops is fixed to encrypt in a GCM engine's core"),
    ("aes-128-gcm/iterative:keys=loaded", "keys=loaded is not offered"),
    ("aes-128-gcm/masked", "GCM engines are built over the iterative, unrolled, pipelined, "
                           "narrow architectures, not 'masked'"),
    ("aes-128-gcm/iterative:w=64", "invalid w='64'"),
    ("aes-128-gcm/iterative:ghash=serial3", "invalid ghash='serial3'"),
    ("aes-128-gcm/iterative:digits=8", "unknown parameter 'digits'"),
])
def test_what_cannot_be_built_or_verified_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(CipherbenchError) as caught:
        design_of(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_the_cli_refuses_gcm_over_a_64_bit_cipher(tmp_path: Path) -> None:
    db = tmp_path / "results.sqlite"
    result = CliRunner().invoke(main, ["run", "--design", "des-gcm/iterative", "--target",
                                       "generic", "--db", str(db)])
    assert result.exit_code != 0 and "GCM needs a 128-bit block cipher" in result.output
    assert not db.exists()


def test_an_engine_runs_end_to_end(tmp_path: Path) -> None:
    """Verified (CAVP, model, both oracles, stalls, key changes, constant time), its netlist
    simulated, and its message-level figures stored."""
    db = tmp_path / "results.sqlite"
    result = CliRunner().invoke(main, ["run", "--design", SMALL, "--target", "generic", "--db",
                                       str(db), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(db) as con:
        rows = con.execute("select design, status, metrics, cycles, provenance "
                           "from results").fetchall()
    assert len(rows) == 1
    design, status, metrics, cycles, provenance = rows[0]
    assert (design, status) == (SMALL, "ok")
    metrics, cycles, provenance = map(json.loads, (metrics, cycles, provenance))
    assert metrics["family"] == "message"
    # digit-serial, 8 bits a clock: 16 clocks a block set the pace of long messages
    counts = cycles["128"]
    assert counts["enc_msg_80"] - counts["enc_msg_64"] == 16
    assert counts["dec_both_80"] - counts["dec_both_64"] == 32
    verification = provenance["verification"]
    assert verification["failed"] == 0 and verification["constant_time"] == "ok"
    assert verification["known_answer"] == 750   # 375 records of each CAVP file taken
    assert verification["oracle"] == 300        # cryptography, pycryptodome and Botan
    sets = verification["sets"]
    assert sets["CAVP gcmDecrypt128.rsp (375)"]["passed"] == 375
    assert provenance["netlist_check"]["failed"] == 0
    assert provenance["netlist_check"]["passed"] > 100


class IgnoresOneTagBit(GcmCore):
    """A tag check blind to bit 120 (the first tag byte's lowest bit)."""

    def tags_match(self, tag: Value, received: Value, received_bytes: Value) -> Value:
        return super().tags_match(tag | (1 << 120), received | (1 << 120), received_bytes)


def test_a_broken_tag_check_fails_with_the_first_message_in_full(tmp_path: Path,
                                                                 monkeypatch) -> None:
    """A run of the engine stops at its verification with the first failing message in full,
    and stores nothing."""
    monkeypatch.setenv("CIPHERBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(GcmEngine, "layer_class", IgnoresOneTagBit)
    db = tmp_path / "results.sqlite"
    result = CliRunner().invoke(main, ["run", "--design", SMALL, "--target", "generic", "--db",
                                       str(db), "--jobs", "1"])
    assert result.exit_code != 0
    text = result.output.strip().splitlines()[-1]
    assert f"{SMALL} fails verification" in text
    # the flipped tag of the random set's wrong-tag decryption is taken: the message in full
    assert "random-vs-model (200): decrypt key " in text
    for part in (", nonce ", ", AD ", ", CT ", ", tag ", "expected PT FAIL",
                 "failed at do word", "expected [", "got ["):
        assert part in text
    assert not db.exists()


def _kat(path: Path, records) -> Path:
    from cipherbench.message.kat import write_kat

    write_kat(path, records)
    return path


def test_simulate_reads_and_writes_lwc_kat_files(tmp_path: Path) -> None:
    """Encryption writes CT = ciphertext || tag as the model does; decryption of those gives the
    PT back, and FAIL for a record whose tag was changed."""
    import random

    from cipherbench.message.aead import model_results
    from cipherbench.message.gcm import GcmAead
    from cipherbench.message.kat import AeadRecord, read_kat

    rng = random.Random(7)
    model = GcmAead("aes", 128)
    records = [AeadRecord(n, rng.randbytes(16), rng.randbytes(12), rng.randbytes(n * 5 % 37),
                          rng.randbytes(n * 11 % 53), b"") for n in range(1, 9)]
    plain = _kat(tmp_path / "pt.txt", records)
    out = tmp_path / "ct.txt"
    result = CliRunner().invoke(main, ["simulate", SMALL, "--op", "encrypt", "--vectors",
                                       str(plain), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "8 records encrypted by" in result.output
    encrypted = read_kat(out)
    assert encrypted == model_results(records, model, "encrypt")
    tampered = list(encrypted)
    bad = tampered[3]
    tampered[3] = AeadRecord(bad.count, bad.key, bad.nonce, bad.ad, bad.pt,
                             bad.ct[:-1] + bytes([bad.ct[-1] ^ 0x80]))
    back = tmp_path / "back.txt"
    result = CliRunner().invoke(main, ["simulate", SMALL, "--op", "decrypt", "--vectors",
                                       str(_kat(tmp_path / "ct2.txt", tampered)),
                                       "--out", str(back)])
    assert result.exit_code == 0, result.output
    decrypted = read_kat(back)
    assert [r.pt for r in decrypted] == [r.pt if i != 3 else None
                                         for i, r in enumerate(records)]
    assert "FAIL" in back.read_text()


@pytest.mark.parametrize("text, message", [
    ("Count = 1\nKey = 000102030405060708090A0B0C0D0E0F\nNonce = 0001020304050607\nPT = \n"
     "AD = \nCT = \n", "Nonce has 8 bytes; aes-128-gcm/iterative:ghash=serial8 takes 96-bit "
                       "nonces only"),
    ("Count = 1\nKey = 00010203\nNonce = 000102030405060708090A0B\nPT = \nAD = \nCT = \n",
     "Key has 4 bytes"),
    ("Count = 1\nKey = 0G\n", "Key"),
])
def test_simulate_refuses_vectors_the_engine_cannot_take(tmp_path: Path, text: str,
                                                         message: str) -> None:
    path = tmp_path / "in.txt"
    path.write_text(text)
    out = tmp_path / "out.txt"
    result = CliRunner().invoke(main, ["simulate", SMALL, "--op", "encrypt", "--vectors",
                                       str(path), "--out", str(out)])
    assert result.exit_code != 0
    assert message in result.output.strip().splitlines()[-1]   # one line, after the progress
    assert not out.exists()


@pytest.mark.parametrize("w", [8, pytest.param(16, marks=pytest.mark.slow)])
def test_narrow_ports_pass_the_whole_verification(tmp_path: Path, w: int) -> None:
    """The LWC API's 8- and 16-bit widths (key port as wide), through every set of a run."""
    from cipherbench.generate import generate

    manifest = generate(f"{SMALL},w={w}", tmp_path / "engine")
    record = json.loads((tmp_path / "engine" / "verification.json").read_text())
    assert (record["failed"], record["known_answer"], record["oracle"]) == (0, 750, 300)
    assert (manifest["w"], manifest["sw"]) == (w, w)
    counts = manifest["cycles_per_message"]["128"]
    # a fifth block adds 16 clocks at both widths (the 8-bit port's 16 words, or the digit-serial
    # multiplier's 16 clocks); four blocks of AD take longer through the narrower port
    assert counts["enc_ad_80"] - counts["enc_ad_64"] == 16
    assert counts["enc_ad_64"] == {8: 136, 16: 110}[w]


def test_the_stream_workload_counts_an_engines_activity(tmp_path: Path) -> None:
    """The message family's power workload on the engine's RTL (its top-level nets): the clock
    toggles twice a clock, the data ports about a third of the time at duty one half."""
    from cipherbench.cache import ensure_design
    from cipherbench.verify.activity import message_activity

    spec = design_of(SMALL)
    folder = ensure_design(spec)
    rtl = folder / json.loads((folder / "manifest.json").read_text())["verilog"][0]
    activity = message_activity(folder, rtl, tmp_path, ENGINE.model(spec))
    assert activity.cycles > 4 * 1536 // 4   # four 1,536-byte messages, a word a clock at most
    assert activity.rates[("clk", 0)][0] == pytest.approx(2.0, abs=0.01)
    toggles = [activity.rates[("do_data", bit)][0] for bit in range(32)]
    assert 0.2 < sum(toggles) / 32 < 0.5


@pytest.mark.slow
@pytest.mark.parametrize("engine, known, oracles", [
    ("aes-256-gcm/iterative:ghash=serial8", 750, 300),           # CAVP 256-bit files, 3 oracles
    ("aes-192-gcm/iterative:ghash=serial8,w=128", 750, 300),     # 192-bit keys on a 32-bit sdi
    ("sm4-gcm/iterative:ghash=serial16", 0, 200),                # cryptography and Botan
    ("camellia-128-gcm/iterative:ghash=serial16", 0, 100),       # Botan
    ("aes-128-gcm/unrolled:k=2,ghash=serial16", 750, 300),       # the other generators
    ("aes-128-gcm/narrow:ghash=serial16,width=32", 750, 300),
])
def test_other_key_sizes_and_ciphers_pass_the_whole_verification(tmp_path: Path, engine: str,
                                                                  known: int,
                                                                  oracles: int) -> None:
    from cipherbench.generate import generate

    generate(engine, tmp_path / "engine")
    record = json.loads((tmp_path / "engine" / "verification.json").read_text())
    assert (record["failed"], record["known_answer"], record["oracle"]) == (0, known, oracles)
    assert record["constant_time"] == "ok"


def test_a_message_past_255_blocks_carries_the_counter_into_its_upper_bytes() -> None:
    """inc32 counts its low byte apart from the upper 24 bits (a register says the low byte is
    all ones): a 4,200-byte message (263 blocks) crosses the carry, encrypted and decrypted."""
    import random

    from cipherbench.cache import ensure_design
    from cipherbench.message.lwc import Params
    from cipherbench.verify.message_sim import MessageSimulator
    from cipherbench.verify.message_verify import _decrypted, _encrypted, operations

    spec = design_of(SMALL)
    model = ENGINE.model(spec)
    sim = MessageSimulator(ensure_design(spec))
    rng = random.Random(263)
    key, npub, pt = rng.randbytes(16), rng.randbytes(12), rng.randbytes(4200)
    messages = [_encrypted(model, key, npub, b"ad", pt), _decrypted(model, key, npub, b"ad", pt)]
    run = sim.run(operations(messages, Params(w=32, sw=32)), timeout_cycles=100_000).check()
    assert len(run.messages) == 2 and all(m.ok for m in run.messages)


def test_verify_runs_an_engines_whole_procedure() -> None:
    result = CliRunner().invoke(main, ["verify", SMALL])
    assert result.exit_code == 0, result.output
    assert "ok   CAVP gcmDecrypt128.rsp (375): 375 passed, 0 failed" in result.output
    assert "ok   random-vs-oracle pycryptodome (100): 100 passed, 0 failed" in result.output
    assert result.output.strip().endswith(f"{SMALL}: 1382 passed, 0 failed")
