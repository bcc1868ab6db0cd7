"""The message level's hardware: the LWC front end (message/lwc_io.py) around GMU's dummy_lwc
(message/toy.py, a test fixture), simulated by the message-level testbench (verify/lwc_tb,
verify/message_sim.py) at w = 8, 32 and 128."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from cipherbench.errors import CipherbenchError, ToolFailed
from cipherbench.message.lwc import (Data, Operation, Params, Status, decrypt_operation,
                                     encrypt_operation, hash_operation)
from cipherbench.message.lwc_io import LwcDesign, write_lwc_design
from cipherbench.message.ports import LwcShape
from cipherbench.message.toy import DummyEngine, dummy_decrypt, dummy_encrypt, dummy_hash
from cipherbench.verify import message_sim
from cipherbench.message.tvfiles import RULE
from cipherbench.verify.message_sim import MessageSimulator
from test_message_formats import DUMMY_W8_DO, DUMMY_W8_PDI, DUMMY_W8_SDI

H = bytes.fromhex

# hardware/dummy_lwc/KAT/8 of the GMU LWC development package v1.2.0 (MsgID 1-3, as typed into
# tests/test_message_formats.py) and KAT/32 MsgID 22 (AD 17, PT 17 bytes) and 30 (hash, 33 bytes)
KAT_KEY, KAT_NPUB = H("0B5B20C86F41A197375F40F622DCE752"), H("66272968225E0479F3B45C6A")
KAT_TAG = H("6D7C09A04D1FA5EEC4EB1C9C22DCE752")
KAT22 = dict(key=H("18EF31C0E60A17831E1750605CC1736F"), npub=H("5729BA5EBDD3333E3FC363E5"),
             ad=H("6B349EB31A4AC0B1D926740861AA106A95"), pt=H("C4C287737A6E9CA1C2FBD8181ED76707B6"),
             ct=H("8B040CED21B7B81CE32FEB9D42161469F9"), tag=H("C330925E3BFD78253A099F9523BC048A"))
KAT30_MSG = H("35E4C7E558BC21996590B6A5632CC89A14E43CB08086B164782C26040372AB9893")
KAT30_DIGEST = H("A664C7E558BC21996590B6A5632CC89A14E43CB08086B164782C26040372AB98")


# --- the model ------------------------------------------------------------------------------------

def test_the_model_reproduces_the_dummy_kat():
    assert dummy_encrypt(KAT_KEY, KAT_NPUB, b"", b"") == (b"", KAT_TAG)
    assert dummy_hash(b"") == bytes(32)
    k = KAT22
    assert dummy_encrypt(k["key"], k["npub"], k["ad"], k["pt"]) == (k["ct"], k["tag"])
    assert dummy_decrypt(k["key"], k["npub"], k["ad"], k["ct"], k["tag"]) == (k["pt"], True)
    assert dummy_hash(KAT30_MSG) == KAT30_DIGEST


def test_the_kat_check_catches_a_wrong_model():
    k = KAT22
    # a byte of AD less, a bit of the nonce flipped: neither gives the KAT's values
    assert dummy_encrypt(k["key"], k["npub"], k["ad"][:16], k["pt"])[1] != k["tag"]
    flipped = bytes([k["npub"][0] ^ 1]) + k["npub"][1:]
    assert dummy_encrypt(k["key"], flipped, k["ad"], k["pt"])[0] != k["ct"]
    assert dummy_decrypt(k["key"], k["npub"], k["ad"], k["ct"], KAT_TAG)[1] is False


# --- designs and operations -----------------------------------------------------------------------

_DESIGNS: dict[tuple[int, bool], MessageSimulator] = {}


@pytest.fixture(scope="module")
def simulator(tmp_path_factory):
    """A cached MessageSimulator of the dummy engine at width w (``fault``: the broken one)."""
    def get(w: int, fault: bool = False) -> MessageSimulator:
        if (w, fault) not in _DESIGNS:
            shape = LwcShape(w)
            folder = tmp_path_factory.mktemp(f"dummy_w{w}{'_fault' if fault else ''}")
            write_lwc_design(LwcDesign(shape, DummyEngine(shape, fault=fault)), folder)
            _DESIGNS[w, fault] = MessageSimulator(folder)
        return _DESIGNS[w, fault]
    return get


def kat_operations(params: Params) -> list[Operation]:
    k = KAT22
    return [encrypt_operation(KAT_NPUB, b"", b"", b"", KAT_TAG, key=KAT_KEY, params=params,
                              msg_id=1),
            decrypt_operation(KAT_NPUB, b"", b"", KAT_TAG, b"", params=params, msg_id=2),
            hash_operation(b"", bytes(32), params=params, msg_id=3),
            encrypt_operation(k["npub"], k["ad"], k["pt"], k["ct"], k["tag"], key=k["key"],
                              params=params, msg_id=22, key_id=8),
            decrypt_operation(k["npub"], k["ad"], k["ct"], k["tag"], k["pt"], params=params,
                              msg_id=23, key_id=8),
            hash_operation(KAT30_MSG, KAT30_DIGEST, params=params, msg_id=30)]


def random_operations(rng: random.Random, params: Params, count: int,
                      lengths: list[tuple[int, int]] | None = None) -> list[Operation]:
    """``count`` messages from the model: encryptions, decryptions and hashes of AD and message
    lengths 0..70 (or ``lengths``), a new key every fourth message."""
    ops: list[Operation] = []
    current = b""
    for i in range(count):
        ad_len, msg_len = lengths[i] if lengths else (rng.randint(0, 70), rng.randint(0, 70))
        ad, msg = rng.randbytes(ad_len), rng.randbytes(msg_len)
        npub = rng.randbytes(12)
        kind = i % 3
        if kind == 2:
            ops.append(hash_operation(msg, dummy_hash(msg), params=params, msg_id=i + 1))
            continue
        key = rng.randbytes(16) if i % 4 == 0 else None
        current = key or current
        ct, tag = dummy_encrypt(current, npub, ad, msg)
        if kind == 0:
            ops.append(encrypt_operation(npub, ad, msg, ct, tag, key=key, params=params,
                                         msg_id=i + 1))
        else:
            ops.append(decrypt_operation(npub, ad, ct, tag, msg, key=key, params=params,
                                         msg_id=i + 1))
    return ops


# --- the front end and the engine through the testbench -------------------------------------------

@pytest.mark.parametrize("w", [8, 32, 128])
def test_the_dummy_kat_passes_through_the_front_end(simulator, w):
    run = simulator(w).run(kat_operations(Params(w=w))).check()
    assert [m.msg_id for m in run.messages] == [1, 2, 3, 22, 23, 30]
    assert all(m.status == Status.SUCCESS for m in run.messages)


def _write_dummy_files(folder, do_text: str = DUMMY_W8_DO) -> None:
    for name, body in (("pdi.txt", DUMMY_W8_PDI), ("sdi.txt", DUMMY_W8_SDI), ("do.txt", do_text)):
        (folder / name).write_text(f"{RULE}\n# {name}\n{RULE}\n\n{body}###EOF\n")


def test_cryptotvgens_files_of_the_dummy_kat_pass(simulator, tmp_path):
    _write_dummy_files(tmp_path)
    run = simulator(8).run_tv_files(tmp_path, stall_seed=3).check()
    assert [(m.msg_id, m.status) for m in run.messages] == [
        (1, Status.SUCCESS), (2, Status.SUCCESS), (3, Status.SUCCESS)]
    # the same files with one tag byte spoiled in do.txt
    _write_dummy_files(tmp_path, DUMMY_W8_DO.replace("DAT = 6D7C09A0", "DAT = 6D7C09A1", 1))
    with pytest.raises(CipherbenchError,
                       match=r"^message 1 \(msg id 1, ENC\) failed at do word 11 .* 6D 7C 09 A1"):
        simulator(8).run_tv_files(tmp_path).check()
    with pytest.raises(CipherbenchError, match="test vectors for w = 8, sw = 8"):
        simulator(32).run_tv_files(tmp_path)


@pytest.mark.parametrize("w, stall_seed", [(32, None), (32, 11), (128, None), (128, 12), (8, 13)])
def test_random_messages_match_the_model(simulator, w, stall_seed):
    # segments of at most 2 blocks, so AD and PT/CT longer than 32 bytes come in several segments
    params = Params(w=w, block_bytes=16, max_blocks_per_segment=2)
    rng = random.Random(1000 * w + (stall_seed or 0))
    ops = random_operations(rng, params, 12 if w == 8 else 30)
    run = simulator(w).run(ops, stall_seed=stall_seed).check()
    assert len(run.messages) == len(ops) and all(m.status == Status.SUCCESS for m in run.messages)


def _wrong_tag_decryption(params: Params, *, expect_success: bool) -> Operation:
    k = KAT22
    bad = bytes([k["tag"][0] ^ 1]) + k["tag"][1:]
    pt, ok = dummy_decrypt(k["key"], k["npub"], k["ad"], k["ct"], bad)
    assert not ok and pt == k["pt"]  # the plaintext is released, the verdict is FAILURE
    return decrypt_operation(k["npub"], k["ad"], k["ct"], bad, pt, success=expect_success,
                             key=k["key"], params=params, msg_id=7)


@pytest.mark.parametrize("w", [32, 128])
def test_a_decryption_with_a_wrong_tag_ends_in_failure(simulator, w):
    params = Params(w=w)
    run = simulator(w).run([_wrong_tag_decryption(params, expect_success=False)]).check()
    assert run.messages[0].status == Status.FAILURE
    # the check catches the other verdict
    run = simulator(w).run([_wrong_tag_decryption(params, expect_success=True)])
    assert run.messages[0].status == Status.FAILURE and not run.messages[0].ok
    status_word = len(run.messages[0].expected) - 1
    with pytest.raises(CipherbenchError,
                       match=rf"message 1 \(msg id 7, DEC\) failed at do word {status_word} "):
        run.check()


def test_dont_care_words_are_skipped_and_do_last_is_checked(simulator, monkeypatch):
    params = Params(w=32)
    op = _wrong_tag_decryption(params, expect_success=False)
    unknown = dataclasses.replace(op, do=tuple(Data(None, f.length) if isinstance(f, Data) else f
                                               for f in op.do))
    run = simulator(32).run([unknown]).check()
    assert run.messages[0].expected[1][0] is None and run.messages[0].got[1][0] != 0
    # the same words, but do_last expected low on the status word: the testbench sees it high
    words_text = message_sim.words_text
    monkeypatch.setattr(message_sim, "words_text",
                        lambda ops, p: words_text(ops, p).replace("000000 1\n", "000000 0\n"))
    run = simulator(32).run([op])
    assert not run.messages[0].ok
    with pytest.raises(CipherbenchError, match=r"^message 1 \(msg id 7, DEC\) failed"):
        run.check()


@pytest.mark.parametrize("w", [32, 128])
def test_cycles_per_message_depend_on_lengths_only(simulator, w):
    params = Params(w=w, block_bytes=16, max_blocks_per_segment=2)
    lengths = [(a, m) for a in (0, 1, 16, 33) for m in (0, 15, 16, 70)]
    first = simulator(w).run(random_operations(random.Random(1), params, len(lengths), lengths))
    again = simulator(w).run(random_operations(random.Random(2), params, len(lengths), lengths))
    cycles = [m.cycles for m in first.check().messages]
    assert cycles == [m.cycles for m in again.check().messages]
    assert len(set(cycles)) > 4  # they do depend on the lengths
    # the comparison sees a difference: the same messages with stalls take longer
    stalled = simulator(w).run(random_operations(random.Random(1), params, len(lengths), lengths),
                               stall_seed=5).check()
    assert [m.cycles for m in stalled.messages] != cycles


def test_a_broken_engine_fails_naming_the_first_failing_message_in_full(simulator):
    params = Params(w=32)
    ops = kat_operations(params)
    run = simulator(32, fault=True).run(ops)
    # MsgIDs 1-3 have no CT/PT to spoil; 22 is the first with a flipped bit
    assert [m.ok for m in run.messages] == [True, True, True, False, False, True]
    with pytest.raises(CipherbenchError) as err:
        run.check()
    text = str(err.value)
    assert "\n" not in text
    assert text.startswith("message 4 (msg id 22, ENC) failed at do word 1 (2 message(s) failed)")
    assert "expected [52000011 8B040CED" in text and "got [52000011 0B040CED" in text
    assert "E0000000/last]" in text


def test_a_missing_output_word_is_reported_as_a_hang(simulator):
    params = Params(w=32)
    op = kat_operations(params)[0]
    longer = dataclasses.replace(op, do=op.do[:-1] + (Data(bytes(4)),) + op.do[-1:])
    with pytest.raises(ToolFailed, match="hung at cycle .*do word 7 of 8"):
        simulator(32).run([longer], timeout_cycles=200)


def test_a_manifest_without_the_lwc_ports_is_refused(tmp_path):
    shape = LwcShape(32)
    manifest = {"top": "x", "verilog": [], "w": 32, "sw": 32,
                "ports": [p for p in shape.ports() if p["name"] != "do_last"]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(CipherbenchError, match=r"missing or of other widths: do_last\[1\]"):
        MessageSimulator(tmp_path)
