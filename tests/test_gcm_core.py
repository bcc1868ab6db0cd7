"""GcmCore (message/gcm_core.py): GCM's datapath over an unchanged block core, simulated with
Amaranth's simulator against GcmModel (message/gcm.py).

The bench drives the layer's streams as a front end would: a key, then messages (start, AD blocks,
text blocks, a received tag for a decryption), while a second process takes ``dout`` and ``tag``
with a seeded pattern of back-pressure, and records on which clock each transfer happened (for the
cycle counts).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from amaranth.hdl import Module, Signal, Value
from amaranth.sim import Simulator

from cipherbench.errors import CipherbenchError
from cipherbench.kinds.generated import build_core
from cipherbench.message.gcm import GcmModel, gcm_model
from cipherbench.message.gcm_core import GcmCore, byte_mask, length_block
from cipherbench.rtl import to_verilog
from cipherbench.spec import parse

AES = "aes-128/iterative:ops=encrypt"
# SP 800-38D's (McGrew-Viega's) test cases 1 to 4: AES-128.
K0 = bytes(16)
K1 = bytes.fromhex("feffe9928665731c6d6a8f9467308308")
IV1 = bytes.fromhex("cafebabefacedbaddecaf888")
P4 = bytes.fromhex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                   "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
A4 = bytes.fromhex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
P3 = P4 + bytes.fromhex("1aafd255")
TAGS_1_TO_4 = [bytes.fromhex(t) for t in ("58e2fccefa7e3061367f1d57a4e7455a",
                                          "ab6e47d42cec13bdf53a67b21257bddf",
                                          "4d5c2af327cd64a62cf35abd2ba6fab4",
                                          "5bc94fbc3221a5db94fae95ae7121a47")]


@dataclass
class Message:
    """One GCM operation as the bench feeds it (``tag``: the received tag of a decryption)."""

    key: bytes
    iv: bytes
    ad: bytes
    text: bytes
    decrypt: bool = False
    tag: bytes = b""


@dataclass
class Outcome:
    """What the layer gave for one message, and the clocks from its start to its tag."""

    text: bytes
    tag: bytes
    ok: bool
    cycles: int
    last_flags: list[int] = field(default_factory=list)
    issued: list[int] = field(default_factory=list)   # in_decrypt of each block into the core
    start: int = 0                                    # the clock of its start transfer


def blocks(data: bytes) -> list[dict[str, int]]:
    """``data`` as stream payloads: 16-byte blocks, zero-padded, the last one flagged; nothing
    as one block of 0 bytes."""
    chunks = [data[i:i + 16] for i in range(0, len(data), 16)] or [b""]
    return [{"block": int.from_bytes(c.ljust(16, b"\0"), "big"), "bytes": len(c),
             "last": int(i == len(chunks) - 1)} for i, c in enumerate(chunks)]


def make_gcm(design: str = AES, multiplier: str = "karatsuba", cls: type = GcmCore,
             **kw: int | bool) -> GcmCore:
    core, shape, _facts = build_core(parse(design))
    return cls(core, shape, multiplier, **kw)


async def _put(ctx, stream, payload: dict[str, int]) -> None:
    ctx.set(stream.payload, payload)
    ctx.set(stream.valid, 1)
    await ctx.tick().until(stream.ready)
    ctx.set(stream.valid, 0)


def simulate(dut: GcmCore, messages: list[Message], stall: float = 0.0,
             seed: int = 1) -> tuple[list[Outcome], list[int]]:
    """Run ``messages`` through ``dut`` (a key transfer whenever the key changes); ``stall``: the
    chance that ``dout``/``tag`` are not ready on a clock. Returns one Outcome per message and
    the key-setup clocks (key transfer to ``keyed``) of each key."""
    events: dict[str, list] = {"start": [], "dout": [], "tag": [], "keyed": [], "issued": []}
    core_in = dut.block_core.io.inp
    key_bits = dut.shape.key_bits

    async def producer(ctx) -> None:
        key = None
        for msg in messages:
            if msg.key != key:
                key = msg.key
                value = int.from_bytes(key, "big") << key_bits - 8 * len(key)
                await _put(ctx, dut.key, {"key": value, "len": len(key)})
                await ctx.tick().until(dut.keyed)
            await _put(ctx, dut.start, {"iv": int.from_bytes(msg.iv, "big"),
                                        "decrypt": msg.decrypt})
            for payload in blocks(msg.ad):
                await _put(ctx, dut.ad, payload)
            for payload in blocks(msg.text):
                await _put(ctx, dut.din, payload)
            if msg.decrypt:
                await _put(ctx, dut.tag_in, {"tag": int.from_bytes(msg.tag.ljust(16, b"\0"), "big"),
                                             "bytes": len(msg.tag)})
        while len(events["tag"]) < len(messages):
            await ctx.tick()

    async def consumer(ctx) -> None:
        rng, cycle, keyed_before = random.Random(seed), 0, 0
        dout, tag = dut.dout, dut.tag
        while True:
            ctx.set(dout.ready, rng.random() >= stall)
            ctx.set(tag.ready, rng.random() >= stall)
            _, _, *v = await ctx.tick().sample(
                dut.start.valid & dut.start.ready, dout.valid & dout.ready, dout.payload.block,
                dout.payload.bytes, dout.payload.last, tag.valid & tag.ready, tag.payload.tag,
                tag.payload.ok, dut.key.valid & dut.key.ready, dut.keyed,
                core_in.valid & core_in.ready, core_in.decrypt)
            cycle += 1
            if v[0]:
                events["start"].append(cycle)
            if v[1]:
                events["dout"].append((len(events["tag"]), v[2], v[3], v[4]))
            if v[5]:
                events["tag"].append((cycle, v[6], v[7]))
            if v[10]:
                events["issued"].append((len(events["tag"]), v[11]))
            if v[8]:
                keyed_before = cycle
            elif v[9] and keyed_before:
                events["keyed"].append(cycle - keyed_before)
                keyed_before = 0

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(producer)
    sim.add_testbench(consumer, background=True)
    sim.run()
    outcomes = []
    for n, (start, (end, tag, ok)) in enumerate(zip(events["start"], events["tag"])):
        mine = [(b, k, last) for i, b, k, last in events["dout"] if i == n]
        text = b"".join(b.to_bytes(16, "big")[:k] for b, k, _last in mine)
        outcomes.append(Outcome(text, tag.to_bytes(16, "big"), bool(ok), end - start,
                                [last for _b, _k, last in mine],
                                [d for i, d in events["issued"] if i == n], start))
    return outcomes, events["keyed"]


def expected(model: GcmModel, msg: Message) -> tuple[bytes, bytes, bool]:
    """(text out, tag out, ok) the layer must give: the model's, the tag hidden on decryption."""
    if not msg.decrypt:
        ct, tag = model.encrypt(msg.key, msg.iv, msg.ad, msg.text)
        return ct, tag, True
    pt = model.decrypt_unverified(msg.key, msg.iv, msg.text)
    return pt, bytes(16), model.decrypt(msg.key, msg.iv, msg.ad, msg.text, msg.tag) is not None


def check(model: GcmModel, dut: GcmCore, messages: list[Message],
          stall: float = 0.0) -> list[Outcome]:
    """Simulate ``messages`` and compare each with the model: text, tag, ok, ``last`` on the
    final dout block only, and only encryption blocks given to the core."""
    outcomes, _keyed = simulate(dut, messages, stall)
    assert len(outcomes) == len(messages)
    for msg, out in zip(messages, outcomes):
        assert (out.text, out.tag, out.ok) == expected(model, msg), msg
        assert out.last_flags == [b["last"] for b in blocks(msg.text) if b["bytes"]]
        assert out.issued and not any(out.issued)   # only encryption blocks into the core
    return outcomes


def _cases_1_to_4() -> list[Message]:
    return [Message(K0, bytes(12), b"", b""), Message(K0, bytes(12), b"", bytes(16)),
            Message(K1, IV1, b"", P3),
            Message(K1, IV1, A4, P4)]


def test_spec_test_cases_1_to_4_and_their_decryptions_over_iterative_aes() -> None:
    """GCM test cases 1 to 4 (empty; one zero block; 60 bytes; 60 bytes with 20 bytes of AD)
    encrypted, then decrypted with their tags (ok) over aes-128/iterative:ops=encrypt with the
    Karatsuba multiplier; the core only ever gets encryption blocks, one per counter and J0."""
    model = gcm_model("aes")
    enc = _cases_1_to_4()
    dec = [Message(m.key, m.iv, m.ad, model.encrypt(m.key, m.iv, m.ad, m.text)[0], True,
                   model.encrypt(m.key, m.iv, m.ad, m.text)[1]) for m in enc]
    outcomes = check(model, make_gcm(AES, "karatsuba"), enc + dec)
    assert [out.tag for out in outcomes[:4]] == TAGS_1_TO_4   # as published
    assert all(out.ok for out in outcomes)
    for n, (msg, out) in enumerate(zip(enc + dec, outcomes)):
        key_setup = n == 0 or msg.key != (enc + dec)[n - 1].key   # H = E_K(0^128), counted here
        assert out.issued == [0] * (key_setup + 1 + -(-len(msg.text) // 16)), n


def _shapes(key: bytes, rng: random.Random) -> list[Message]:
    """Messages of every shape: AD only, text only, both, neither; lengths 1, 15, 16, 17, 33."""
    def data(n: int) -> bytes:
        return bytes(rng.randrange(256) for _ in range(n))
    return [Message(key, data(12), data(a), data(p))
            for a, p in [(17, 0), (0, 1), (15, 33), (16, 16), (0, 0), (1, 17)]]


@pytest.mark.parametrize("multiplier", ["serial:8", "karatsuba2"])
def test_messages_of_every_shape_a_new_key_between_and_back_pressure(multiplier: str) -> None:
    """Lengths that are not multiples of 16, AD only, text only, a new key between messages,
    encryptions and decryptions, with dout and tag not ready a third of the clocks: each equals
    the model, with a digit-serial multiplier (d = 8: the layer back-pressures its inputs) and
    the two-level Karatsuba one."""
    rng = random.Random(7)
    model = gcm_model("aes")
    keys = [bytes(rng.randrange(256) for _ in range(16)) for _ in range(2)]
    messages = _shapes(keys[0], rng) + _shapes(keys[1], rng)
    for msg in messages[3::2]:   # some decrypted, with their right tag
        msg.decrypt = True
        msg.text, msg.tag = model.encrypt(msg.key, msg.iv, msg.ad, msg.text)
    outcomes = check(model, make_gcm(AES, multiplier), messages, stall=0.35)
    assert all(out.ok for out in outcomes)


def test_a_wrong_tag_gives_tag_ok_0_and_a_truncated_tag_compares_its_bytes() -> None:
    model = gcm_model("aes")
    ct, tag = model.encrypt(K1, IV1, A4, P4)
    wrong = bytes([tag[0] ^ 0x80]) + tag[1:]
    messages = [Message(K1, IV1, A4, ct, True, tag),            # right: ok
                Message(K1, IV1, A4, ct, True, wrong),          # first bit flipped: not ok
                Message(K1, IV1, A4, ct, True, tag[:12]),       # 96-bit tag, right: ok
                Message(K1, IV1, A4, ct, True, tag[:11] + bytes([tag[11] ^ 1])),   # wrong
                Message(K1, IV1, A4[:-1], ct, True, tag)]       # AD one byte short: not ok
    outcomes = check(model, make_gcm(AES, "serial:16"), messages)
    assert [out.ok for out in outcomes] == [True, False, True, False, False]
    assert all(out.text == P4 and out.tag == bytes(16) for out in outcomes)   # T never released


@pytest.mark.parametrize("design, cipher, multiplier", [
    ("sm4/iterative:ops=encrypt", "sm4", "schoolbook"),
    ("camellia-128/iterative:ops=encrypt", "camellia", "serial:4"),
])
def test_over_another_cipher_core_against_its_gcm_model(design: str, cipher: str,
                                                        multiplier: str) -> None:
    """The same layer over another cipher's core: the GCM layer names no cipher."""
    rng = random.Random(3)
    model = gcm_model(cipher)
    messages = _shapes(bytes(range(16)), rng)[1:4]
    messages.append(Message(K1, IV1, A4, P4, True, bytes(16)))   # a wrong tag
    outcomes = check(model, make_gcm(design, multiplier), messages)
    assert [out.ok for out in outcomes] == [True, True, True, False]


def test_over_a_full_aes_pipeline_one_block_a_clock() -> None:
    """aes-128/pipelined (II = 1) with a parallel multiplier: counters issued ahead while the
    results come back; 4 text blocks take a few clocks more than the pipeline's latency, and the
    layer equals the model message after message."""
    model = gcm_model("aes")
    rng = random.Random(5)
    messages = [Message(K1, IV1, b"", P3), Message(K1, IV1, A4, P4)] + _shapes(K0, rng)[:3]
    outcomes = check(model, make_gcm("aes-128/pipelined:ops=encrypt", "karatsuba"), messages)
    latency = 10 + 1   # aes-128 full pipeline: ten round units (manifest latency), then the tag
    assert outcomes[0].cycles <= latency + 4 + 3
    # The next message starts after the tag, not after the counters past the text drain.
    assert outcomes[1].start - outcomes[0].start <= outcomes[0].cycles + 2
    print(f"\naes-128/pipelined + karatsuba, 64-byte message: {outcomes[0].cycles} clocks "
          f"(start to tag), {outcomes[1].start - outcomes[0].start} start to start")


@pytest.mark.parametrize("design", [
    "aes-128/unrolled:ops=encrypt", "aes-128/narrow:ops=encrypt",
    "aes-128/pipelined:ops=encrypt,stages=2", "aes-128/pipelined:ops=encrypt,inner=2",
    "aes-128/iterative:ops=encrypt,keys=stored", "aes/iterative:ops=encrypt",
])
def test_over_every_architecture_and_key_size(design: str) -> None:
    """The layer over each architecture's core (and AES-192/256 keys, left-aligned in the
    core's 256-bit key port with their length), with serial:16 and a stalling consumer."""
    model = gcm_model("aes")
    keys = [bytes(range(n)) for n in (32, 24)] if design.startswith("aes/") else [K0, K1]
    messages = [Message(keys[0], IV1, A4, P4), Message(keys[1], IV1, b"", P3[:33]),
                Message(keys[1], IV1, A4[:3], b"")]
    check(model, make_gcm(design, "serial:16"), messages, stall=0.2)


def test_a_pipeline_behind_a_slow_multiplier_and_a_slow_consumer() -> None:
    """The layer back-pressures a full pipeline: serial:8 GHASH (16 clocks a block), at most 3
    blocks in the core (``ahead``), dout and tag not ready 40% of the clocks, new keys between
    messages while unused counter blocks drain: still the model's results."""
    rng = random.Random(11)
    model = gcm_model("aes")
    messages = _shapes(K0, rng)[:4] + _shapes(K1, rng)[2:4]
    messages[-1].decrypt, messages[-1].tag = True, bytes(16)
    dut = make_gcm("aes-128/pipelined:ops=encrypt", "serial:8", ahead=3)
    outcomes = check(model, dut, messages, stall=0.4)
    assert [out.ok for out in outcomes] == [True] * 5 + [False]


def test_verilog_through_yosys_with_the_core_a_module_of_its_own(tmp_path: Path) -> None:
    """rtl.to_verilog (Amaranth's RTLIL, then Yosys) writes the layer; the block core and the
    GHASH unit are instances of modules of their own, the core's ports the common interface's."""
    dut = make_gcm(AES, "serial:8")
    ports = [Value.cast(v) for _path, _member, v in dut.signature.flatten(dut)]
    text = to_verilog(dut, ports, "gcm_aes", tmp_path).read_text()
    modules = re.findall(r"^module (\S+) ?\(([^)]*)\)", text, re.M)
    names = {name.lstrip("\\"): ports for name, ports in modules}
    assert {"gcm_aes", "gcm_aes.core", "gcm_aes.ghash", "gcm_aes.ghash.mul"} <= set(names)
    assert {"key_valid", "key_ready", "in_valid", "in_ready", "out_valid", "out_ready",
            "out_block"} <= {p.strip() for p in names["gcm_aes.core"].split(",")}
    assert {"din__payload", "dout__payload", "tag__valid", "keyed"} <= \
        {p.strip() for p in names["gcm_aes"].split(",")}


def test_cycles_of_a_64_byte_message_printed() -> None:
    """Measured, not asserted beyond sanity: start to tag of a 64-byte message (no AD) over
    iterative AES-128 with serial:8 (16 clocks a GHASH block) and Karatsuba (1 a block)."""
    model = gcm_model("aes")
    msg = Message(K1, IV1, b"", P3)
    for multiplier in ("serial:8", "karatsuba"):
        (out, again), keyed = simulate(make_gcm(AES, multiplier), [msg, msg])
        assert (out.text, out.tag) == (again.text, again.tag) == model.encrypt(K1, IV1, b"", P3)
        print(f"\naes-128/iterative + {multiplier}: key setup (H) {keyed[0]} clocks, "
              f"64-byte message {out.cycles} clocks (start to tag), "
              f"{again.start - out.start} start to start")


class BrokenCounter(GcmCore):
    """A GcmCore whose inc32 counts by two: a broken input for the check."""

    def inc32(self, counter: Value, wraps: Value) -> Value:
        return (counter + 2)[:32]


def test_a_broken_counter_increment_fails_against_the_model() -> None:
    model = gcm_model("aes")
    """The check is not blind: a layer that counts by two (so the first text block already
    uses J0 + 2) gives text and tag the model does not; the same message through the unbroken
    layer passes."""
    msg = Message(K1, IV1, b"", P3)
    with pytest.raises(AssertionError, match="assert"):
        check(model, make_gcm(AES, "serial:16", cls=BrokenCounter), [msg])
    check(model, make_gcm(AES, "serial:16"), [msg])


def test_byte_mask_and_length_block() -> None:
    """The 128-bit mask of the first n bytes, and [len(A)]_64 || [len(C)]_64 from byte counts."""
    m = Module()
    count, ad, text = Signal(5), Signal(61), Signal(36)
    mask, lengths = Signal(128), Signal(128)
    m.d.comb += [mask.eq(byte_mask(count)), lengths.eq(length_block(ad, text))]
    got = []

    async def bench(ctx) -> None:
        for n in range(17):
            ctx.set(count, n)
            got.append(ctx.get(mask))
        ctx.set(ad, 20)
        ctx.set(text, (1 << 36) - 32)
        got.append(ctx.get(lengths))

    sim = Simulator(m)
    sim.add_testbench(bench)
    sim.run()
    assert got[:17] == [int.from_bytes(b"\xff" * n + bytes(16 - n), "big") for n in range(17)]
    assert got[17] == (160 << 64) | ((1 << 39) - 256)


def test_refused_parameters_are_one_line() -> None:
    core, shape, _ = build_core(parse(AES))
    core._MustUse__silence = True   # never elaborated: the check only
    with pytest.raises(CipherbenchError, match="unknown GHASH multiplier 'serial:3'"):
        GcmCore(core, shape, "serial:3")
    des, des_shape, _ = build_core(parse("des/iterative:ops=encrypt"))
    des._MustUse__silence = True
    with pytest.raises(CipherbenchError, match="128-bit block core, not 64-bit"):
        GcmCore(des, des_shape)


def test_bit_serial_multiplier_128_clocks_a_ghash_block() -> None:
    """serial:1: one AD block, one text block and the length block, 128 clocks each, after the
    two encryptions (J0, then the counter block)."""
    model = gcm_model("aes")
    (out,), _keyed = simulate(make_gcm(AES, "serial:1"), [Message(K1, IV1, A4[:16], P4[:16])])
    assert (out.text, out.tag) == model.encrypt(K1, IV1, A4[:16], P4[:16])
    assert 3 * 128 <= out.cycles <= 3 * 128 + 2 * 12


@pytest.mark.parametrize("design, ahead", [("aes-128/iterative:ops=encrypt", 64),
                                           ("aes-128/pipelined:ops=encrypt", 3)])
def test_decoupled_from_the_core_by_fifos(design: str, ahead: int) -> None:
    """``decouple``: the core's streams behind FIFOs (no combinational path from the layer's
    handshakes into the core's state); the same results, back-pressure and a wrong tag
    included."""
    rng = random.Random(13)
    model = gcm_model("aes")
    messages = _shapes(K0, rng)[:4] + _shapes(K1, rng)[2:4]
    messages[-1].decrypt, messages[-1].tag = True, bytes(16)
    outcomes = check(model, make_gcm(design, "serial:16", ahead=ahead, decouple=True), messages,
                     stall=0.3)
    assert [out.ok for out in outcomes] == [True] * 5 + [False]
