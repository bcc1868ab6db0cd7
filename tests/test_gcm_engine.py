"""GCM behind the LWC front end (message/gcm_engine.py: GcmEngine over GcmCore over a generated
block core), written to Verilog through Yosys and run by the message-level Verilator testbench
(verify/message_sim.py) at w = 32 and w = 128: the CAVP records, random messages against GcmModel,
stalls, a wrong tag, cycles, a serial multiplier, a second cipher and a broken layer.

Each design is built once per session, and the testbench executable is cached by the Verilog's
hash, so a second session reuses it. The Karatsuba multiplier is where the CAVP records, the
random messages and the cycles need it; the sm4 and broken designs use serial:8, whose Verilator
build is some 30 s shorter (the multiplier does not change what those tests check). The w = 128
cases are marked slow (``--runslow``): the default tier builds the w = 32 engines only."""

from __future__ import annotations

import random

import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.message.cavp import GcmVector, cavp_gcm_file, read_cavp_gcm
from cipherbench.message.gcm import GcmModel, gcm_model
from cipherbench.message.gcm_core import GcmCore
from cipherbench.message.gcm_engine import GcmEngine, gcm_engine_design
from cipherbench.message.lwc import (Operation, Params, Status, decrypt_operation,
                                     encrypt_operation)
from cipherbench.message.lwc_io import write_lwc_design
from cipherbench.verify.message_sim import MessageSimulator

AES = "aes-128/iterative:ops=encrypt"
SM4 = "sm4/iterative:ops=encrypt"
# The CAVP sections taken: 96-bit IV, 128-bit tag, PT of 0, 13, 16, 32, 51 bytes, AD of 0, 16, 20,
# 48 bytes (15 records each).
MAX_PT_BITS, MAX_AD_BITS = 408, 384


class BrokenCounter(GcmCore):
    """A GCM layer whose inc32 counts by two: the first text block already uses J0 + 2."""

    def inc32(self, counter, wraps):
        return (counter + 2)[:32]


class BrokenEngine(GcmEngine):
    layer_class = BrokenCounter


_DESIGNS: dict[tuple, MessageSimulator] = {}


@pytest.fixture(scope="module")
def simulator(tmp_path_factory):
    """A cached MessageSimulator of GCM over ``spec`` at width ``w`` with ``multiplier``."""
    def get(w: int, spec: str = AES, multiplier: str = "karatsuba",
            engine_class: type[GcmEngine] = GcmEngine) -> MessageSimulator:
        key = (w, spec, multiplier, engine_class)
        if key not in _DESIGNS:
            folder = tmp_path_factory.mktemp(f"gcm_w{w}")
            write_lwc_design(gcm_engine_design(spec, w, multiplier, engine_class=engine_class),
                             folder)
            _DESIGNS[key] = MessageSimulator(folder)
        return _DESIGNS[key]
    return get


def cavp_records(name: str = "gcmEncryptExtIV128.rsp") -> list[GcmVector]:
    """The records of CAVP file ``name`` with a 96-bit IV, a 128-bit tag, PT up to 51 bytes and
    AD up to 48."""
    return [r for r in read_cavp_gcm(cavp_gcm_file(name))
            if r.param("IVlen") == 96 and r.param("Taglen") == 128
            and r.param("PTlen") <= MAX_PT_BITS and r.param("AADlen") <= MAX_AD_BITS]


def cavp_operations(records: list[GcmVector], params: Params, decrypt: bool) -> list[Operation]:
    """Each record encrypted (or its CT and tag decrypted: its PT and SUCCESS, or for a FAIL
    record don't-care plaintext and FAILURE), its key loaded when it changes."""
    ops, current = [], None
    for n, r in enumerate(records, 1):
        load = r.key if r.key != current else None
        current = r.key
        if decrypt:
            ops.append(decrypt_operation(r.iv, r.ad, r.ct, r.tag, r.pt, success=not r.failed,
                                         key=load, params=params, msg_id=n))
        else:
            ops.append(encrypt_operation(r.iv, r.ad, r.pt, r.ct, r.tag, key=load, params=params,
                                         msg_id=n))
    return ops


def _length(rng: random.Random) -> int:
    """0 one time in eight, else 1..100 but not a multiple of 16."""
    return 0 if rng.random() < 0.125 else rng.choice([n for n in range(1, 101) if n % 16])


def model_operations(model: GcmModel, params: Params, rng: random.Random,
                     lengths: list[tuple[int, int]], *, wrong_tag: int = -1) -> list[Operation]:
    """Messages of (AD, PT) ``lengths`` from the model, encryptions and decryptions in turn, a
    new key every third; message ``wrong_tag`` a decryption whose tag has one bit flipped."""
    ops: list[Operation] = []
    key = b""
    for i, (ad_len, pt_len) in enumerate(lengths):
        load = rng.randbytes(16) if i % 3 == 0 else None
        key = load or key
        npub, ad, pt = rng.randbytes(12), rng.randbytes(ad_len), rng.randbytes(pt_len)
        ct, tag = model.encrypt(key, npub, ad, pt)
        if i == wrong_tag:
            bad = bytes([tag[0] ^ 0x40]) + tag[1:]
            assert model.decrypt(key, npub, ad, ct, bad) is None
            ops.append(decrypt_operation(npub, ad, ct, bad, model.decrypt_unverified(key, npub, ct),
                                         success=False, key=load, params=params, msg_id=i + 1))
        elif i % 2:
            ops.append(decrypt_operation(npub, ad, ct, tag, pt, key=load, params=params,
                                         msg_id=i + 1))
        else:
            ops.append(encrypt_operation(npub, ad, pt, ct, tag, key=load, params=params,
                                         msg_id=i + 1))
    return ops


def _all_succeed(run, count: int) -> None:
    assert len(run.messages) == count
    assert all(m.status == Status.SUCCESS for m in run.messages)


# The CAVP records are also every engine's verification set (verify/message_verify.py), which
# tests/test_engine_kind.py runs end to end in the default tier.
@pytest.mark.parametrize("w", [pytest.param(32, marks=pytest.mark.slow),
                               pytest.param(128, marks=pytest.mark.slow)])
def test_cavp_records_encrypt_and_decrypt(simulator, w):
    """Every record of the sections taken (300) gives the CAVP ciphertext and tag, and its
    ciphertext and tag decrypt to its plaintext with SUCCESS; of gcmDecrypt128's 300 records of
    the same sections, the 161 FAIL ones end in FAILURE, the others give their PT."""
    records = cavp_records()
    assert len(records) == 300
    params = Params(w=w)
    sim = simulator(w)
    _all_succeed(sim.run(cavp_operations(records, params, decrypt=False)).check(), len(records))
    _all_succeed(sim.run(cavp_operations(records, params, decrypt=True)).check(), len(records))
    records = cavp_records("gcmDecrypt128.rsp")
    run = sim.run(cavp_operations(records, params, decrypt=True)).check()
    assert [m.status for m in run.messages] == \
        [Status.FAILURE if r.failed else Status.SUCCESS for r in records]
    assert sum(r.failed for r in records) == 161


@pytest.mark.parametrize("w, stall_seed", [(32, None), (32, 21),
                                           pytest.param(128, None, marks=pytest.mark.slow),
                                           pytest.param(128, 22, marks=pytest.mark.slow)])
def test_random_messages_match_the_model(simulator, w, stall_seed):
    """40 messages of AD and PT of 0 or 1..100 bytes but not multiples of 16 (segments of at
    most two blocks, so long AD and text come in several segments), a new key every third
    message, encryptions and decryptions in turn; once with every stream stalling at random."""
    rng = random.Random(100 * w + (stall_seed or 0))
    params = Params(w=w, block_bytes=16, max_blocks_per_segment=2)
    lengths = [(_length(rng), _length(rng)) for _ in range(40)]
    ops = model_operations(gcm_model("aes"), params, rng, lengths)
    _all_succeed(simulator(w).run(ops, stall_seed=stall_seed).check(), len(ops))


@pytest.mark.parametrize("w", [32, pytest.param(128, marks=pytest.mark.slow)])
def test_a_wrong_tag_ends_in_failure_and_the_next_message_succeeds(simulator, w):
    params = Params(w=w)
    lengths = [(20, 33), (17, 45), (0, 5)]
    ops = model_operations(gcm_model("aes"), params, random.Random(w), lengths, wrong_tag=1)
    run = simulator(w).run(ops).check()   # the released plaintext, then FAILURE
    assert [m.status for m in run.messages] == [Status.SUCCESS, Status.FAILURE, Status.SUCCESS]
    # the check sees the verdict: the same decryption expected to succeed fails at its status
    wrong = model_operations(gcm_model("aes"), params, random.Random(w), lengths)[1]
    bad = ops[1]
    expect_success = Operation(bad.opcode, bad.pdi, bad.sdi, wrong.do, bad.msg_id)
    run = simulator(w).run([ops[0], expect_success])
    status_word = len(run.messages[1].expected) - 1
    with pytest.raises(CipherbenchError,
                       match=rf"^message 2 \(msg id 2, DEC\) failed at do word {status_word} "):
        run.check()


@pytest.mark.parametrize("w", [32, pytest.param(128, marks=pytest.mark.slow)])
def test_cycles_depend_on_the_lengths_only(simulator, w, capsys):
    """The same lengths with other data, keys and nonces take the same clocks per message (ENC
    or DEC taken to status taken); stalls change them. Prints 16, 64 and 1536-byte messages."""
    params = Params(w=w, block_bytes=16, max_blocks_per_segment=2)
    lengths = [(a, p) for a in (0, 1, 17, 33) for p in (0, 15, 16, 70)]
    model = gcm_model("aes")
    sim = simulator(w)
    first = sim.run(model_operations(model, params, random.Random(1), lengths)).check()
    again = sim.run(model_operations(model, params, random.Random(2), lengths)).check()
    cycles = [m.cycles for m in first.messages]
    assert cycles == [m.cycles for m in again.messages]
    assert len(set(cycles)) > 4
    stalled = sim.run(model_operations(model, params, random.Random(1), lengths),
                      stall_seed=5).check()
    assert [m.cycles for m in stalled.messages] != cycles
    with capsys.disabled():
        print(f"\n{AES} + karatsuba, w = {w}, no AD, ENC or DEC taken to status taken "
              "(each after an ENC of its length): " + ", ".join(
                  f"{n} bytes {e}/{d}" for n, (e, d) in ((n, _cycles(sim, model, n))
                                                         for n in (16, 64, 1536))) + " clocks")


def _cycles(sim: MessageSimulator, model: GcmModel, length: int) -> tuple[int, int]:
    """Clocks of an encryption and a decryption of ``length`` bytes without AD, each after an
    encryption of the same length (the first of which loads the key)."""
    rng = random.Random(length)
    key, params = rng.randbytes(16), Params(w=sim.shape.w)
    ops = []
    for n, what in enumerate(("enc", "enc", "dec"), 1):
        npub, pt = rng.randbytes(12), rng.randbytes(length)
        ct, tag = model.encrypt(key, npub, b"", pt)
        if what == "enc":
            ops.append(encrypt_operation(npub, b"", pt, ct, tag, key=key if n == 1 else None,
                                         params=params, msg_id=n))
        else:
            ops.append(decrypt_operation(npub, b"", ct, tag, pt, params=params, msg_id=n))
    run = sim.run(ops, timeout_cycles=20_000).check()
    return run.messages[1].cycles, run.messages[2].cycles


def test_a_serial_multiplier_at_w32(simulator):
    """serial:8 (16 clocks a GHASH block; the layer back-pressures the words meanwhile)."""
    rng = random.Random(8)
    params = Params(w=32, block_bytes=16, max_blocks_per_segment=2)
    lengths = [(0, 0), (20, 33), (16, 16), (1, 70), (50, 0), (0, 100)]
    ops = model_operations(gcm_model("aes"), params, rng, lengths, wrong_tag=5)
    run = simulator(32, AES, "serial:8").run(ops, stall_seed=4).check()
    assert [m.status for m in run.messages] == [Status.SUCCESS] * 5 + [Status.FAILURE]


def test_over_sm4_against_its_gcm_model(simulator):
    """The engine names no cipher: GCM over sm4/iterative (serial:8) equals gcm_model("sm4")."""
    rng = random.Random(4)
    params = Params(w=32)
    ops = model_operations(gcm_model("sm4"), params, rng, [(0, 0), (20, 33), (17, 64), (3, 5)])
    _all_succeed(simulator(32, SM4, "serial:8").run(ops).check(), len(ops))


def test_a_broken_layer_fails_naming_the_first_failing_message_in_full(simulator):
    """A layer counting by two (serial:8): the empty-text messages still pass (their tag needs
    no counter block), the first with text fails at its first CT word, reported on one line in
    full."""
    records = cavp_records()
    chosen = [records[0], next(r for r in records if r.pt), records[1]]
    ops = cavp_operations(chosen, Params(w=32), decrypt=False)
    run = simulator(32, AES, "serial:8", BrokenEngine).run(ops)
    assert [m.ok for m in run.messages] == [True, False, True]
    with pytest.raises(CipherbenchError) as err:
        run.check()
    text = str(err.value)
    assert "\n" not in text
    assert text.startswith("message 2 (msg id 2, ENC) failed at do word 1 (1 message(s) failed)")
    expected = " ".join(f"{w:08X}" for w, _last in run.messages[1].expected[:2])
    assert f"expected [{expected}" in text and "E0000000/last] got [" in text


def test_a_64_bit_cipher_is_refused_in_one_line():
    with pytest.raises(CipherbenchError,
                       match=r"^GCM needs a 128-bit block cipher; des/iterative:ops=encrypt has "
                             r"64-bit blocks$"):
        gcm_engine_design("des/iterative:ops=encrypt", 32)
