"""A test fixture, not a cipher: GMU's ``dummy_lwc`` AEAD and hash (LWC development package v1.2),
as a Python model and as an engine behind the LWC front end (``lwc_io.py``). It exists to test
the front end and the message-level testbench, and is in no registry.

The algorithm (the package's ``software/dummy_lwc_ref`` C reference and
``hardware/dummy_lwc/src_rtl/CryptoCore.vhd``; key 16 bytes, npub 12, tag 16, digest 32, blocks
of 16 bytes, everything big-endian):

* ``init = key xor (npub || 0^32)``;
* ``CT[i] = PT[i] xor init[i mod 16] xor B(i div 16 + 1)[i mod 16]``, where ``B(n)`` is the
  16-byte block with ``n`` as a 32-bit number in its last four bytes (decryption alike);
* ``accum`` = the xor of the 16-byte blocks of AD, padded with one 0x80 byte when its length is
  not a multiple of 16 (no padding otherwise, none for empty AD), xor the same of PT;
* ``tag = accum xor init xor (64-bit 8*|AD| || 64-bit 8*|PT|)``;
* the hash: the xor of the message's 32-byte blocks, padded the same way.

The engine takes a word a clock: CT/PT words go straight through (one output word per input
word), the tag or digest follows the input at a word a clock, the status after it. ``fault=True``
flips the top bit of every CT/PT output word (a broken engine for the tests). Behind the front
end, from its ENC instruction taken to its status word taken, an encryption after a key load
takes 20 clocks at w = 32 for empty AD and PT, 28 for 16 bytes of each, 52 for 64 of each
(w = 128: 15, 17, 23; w = 8: 56, 88, 184), measured with verify/message_sim.py.
"""

from __future__ import annotations

from functools import reduce

from amaranth.hdl import Cat, Const, Module, Mux, Signal
from amaranth.lib.wiring import Component

from .lwc import Segment
from .ports import EngineSignature, LwcShape

KEY_BYTES, NPUB_BYTES, TAG_BYTES, DIGEST_BYTES, BLOCK_BYTES = 16, 12, 16, 32, 16


# --- the model -----------------------------------------------------------------------------------

def _xor(*parts: bytes) -> bytes:
    return bytes(reduce(int.__xor__, column) for column in zip(*parts))


def _fold(data: bytes, size: int) -> bytes:
    """The xor of ``data``'s ``size``-byte blocks, 0x80 after a partial last block."""
    acc = bytearray(size)
    for i, byte in enumerate(data):
        acc[i % size] ^= byte
    if len(data) % size:
        acc[len(data) % size] ^= 0x80
    return bytes(acc)


def _keystream(key: bytes, npub: bytes, length: int) -> bytes:
    init = _xor(key, npub + bytes(KEY_BYTES - NPUB_BYTES))
    return bytes(init[i % 16] ^ (i // 16 + 1).to_bytes(16, "big")[i % 16] for i in range(length))


def _tag(key: bytes, npub: bytes, ad: bytes, pt: bytes) -> bytes:
    init = _xor(key, npub + bytes(KEY_BYTES - NPUB_BYTES))
    lengths = (8 * len(ad)).to_bytes(8, "big") + (8 * len(pt)).to_bytes(8, "big")
    return _xor(_fold(ad, BLOCK_BYTES), _fold(pt, BLOCK_BYTES), init, lengths)


def _check(key: bytes, npub: bytes) -> None:
    if len(key) != KEY_BYTES or len(npub) != NPUB_BYTES:
        raise ValueError(f"dummy_lwc takes a {KEY_BYTES}-byte key and a {NPUB_BYTES}-byte npub, "
                         f"got {len(key)} and {len(npub)}")


def dummy_encrypt(key: bytes, npub: bytes, ad: bytes, pt: bytes) -> tuple[bytes, bytes]:
    """(ciphertext, tag) of dummy_lwc."""
    _check(key, npub)
    return _xor(pt, _keystream(key, npub, len(pt))), _tag(key, npub, ad, pt)


def dummy_decrypt(key: bytes, npub: bytes, ad: bytes, ct: bytes,
                  tag: bytes) -> tuple[bytes, bool]:
    """(the released plaintext, whether the tag verified)."""
    _check(key, npub)
    pt = _xor(ct, _keystream(key, npub, len(ct)))
    return pt, _tag(key, npub, ad, pt) == tag


def dummy_hash(msg: bytes) -> bytes:
    """The 32-byte digest of dummy_lwc's hash."""
    return _fold(msg, DIGEST_BYTES)


# --- the engine ----------------------------------------------------------------------------------

def _placed(word, count, pos, w: int, size: int):
    """``word``'s ``count`` top bytes, the rest cleared, at byte ``pos`` of ``size`` bytes."""
    mask = ~(Const((1 << w) - 1, w) >> (count * 8))
    value = Cat(Const(0, size * 8 - w), word & mask)
    return (value >> (pos * 8))[:size * 8]


def _pad(end, size: int):
    """0x80 at byte ``end mod size`` of a ``size``-byte value, or nothing when that is 0."""
    at = end[:(size - 1).bit_length()]
    return Mux(at == 0, 0, (Const(0x80 << (size * 8 - 8), size * 8) >> (at * 8))[:size * 8])


def _slot(value, index, w: int, bits: int):
    """The ``index``-th w-bit word of a ``bits``-bit value, most significant first."""
    return Cat(*(value[bits - (k + 1) * w:bits - k * w] for k in range(bits // w))).word_select(
        index, w)


class _Registers:
    """The engine's state: the key, the nonce, the tag accumulator, the hash state, byte counts,
    a word index and the verdict; ``tag`` is the tag they give."""

    def __init__(self, w: int):
        self.key, self.npub, self.accum = Signal(128), Signal(128), Signal(128)
        self.hstate = Signal(256)
        self.ad_len, self.msg_len, self.hash_len = Signal(32), Signal(32), Signal(32)
        self.npub_len = Signal(5)
        self.index, self.fail = Signal(range(256 // w + 1)), Signal()
        lengths = Cat(Const(0, 3), self.msg_len, Const(0, 29), Const(0, 3), self.ad_len,
                      Const(0, 29))  # 64-bit 8*|AD| || 64-bit 8*|PT|, big-endian
        self.tag = self.key ^ self.npub ^ self.accum ^ lengths

    def per_message(self) -> list[Signal]:
        """What is cleared after every message (all but the key)."""
        return [self.npub, self.accum, self.hstate, self.ad_len, self.msg_len, self.hash_len,
                self.npub_len, self.index, self.fail]


class DummyEngine(Component):
    """dummy_lwc behind the LWC front end (``ports.EngineSignature``), a word a clock."""

    def __init__(self, shape: LwcShape, *, fault: bool = False):
        if shape.w > 128:
            raise ValueError("dummy_lwc's engine takes words of at most 128 bits")
        self.shape, self.fault = shape, fault
        super().__init__(EngineSignature(shape))

    def elaborate(self, platform) -> Module:
        m = Module()
        w, sw = self.shape.w, self.shape.key_width
        r = _Registers(w)
        with m.FSM():
            with m.State("INPUT"):
                m.d.comb += self.key.ready.eq(1)
                with m.If(self.key.valid):
                    m.d.sync += r.key.eq(Cat(self.key.data, r.key)[:128] if sw < 128
                                         else self.key.data)
                self._input(m, r)
            with m.State("TAG"):
                self._output(m, _slot(r.tag, r.index, w, 128), r.index, 128 // w)
            with m.State("DIGEST"):
                self._output(m, _slot(r.hstate, r.index, w, 256), r.index, 256 // w)
            with m.State("STATUS"):
                m.d.comb += [self.status.valid.eq(1), self.status.fail.eq(r.fail)]
                with m.If(self.status.ready):
                    m.d.sync += [x.eq(0) for x in r.per_message()]
                    m.next = "INPUT"
        return m

    def _output(self, m: Module, word, index, words: int) -> None:
        m.d.comb += [self.bdo.valid.eq(1), self.bdo.data.eq(word)]
        with m.If(self.bdo.ready):
            m.d.sync += index.eq(index + 1)
            with m.If(index == words - 1):
                m.next = "STATUS"

    def _input(self, m: Module, r: "_Registers") -> None:
        w = self.shape.w
        key, npub, accum, hstate, index, fail = r.key, r.npub, r.accum, r.hstate, r.index, r.fail
        ad_len, msg_len, hash_len, npub_len = r.ad_len, r.msg_len, r.hash_len, r.npub_len
        bdi, bdo = self.bdi, self.bdo
        n = bdi.bytes
        taken = Signal()
        m.d.comb += taken.eq(bdi.valid & bdi.ready)
        pos16 = msg_len[:4]
        block = Cat(((msg_len >> 4) + 1)[:32], Const(0, 96))
        stream = ((key ^ npub ^ block) << (pos16 * 8))[128 - w:128]
        out = Signal(w)
        m.d.comb += out.eq(bdi.data ^ stream ^ (1 << (w - 1) if self.fault else 0))
        plain = Mux(bdi.decrypt, out, bdi.data)
        with m.Switch(bdi.type):
            with m.Case(Segment.NPUB):
                m.d.comb += bdi.ready.eq(1)
                with m.If(taken):
                    m.d.sync += [npub.eq(npub ^ _placed(bdi.data, n, npub_len, w, 16)),
                                 npub_len.eq(npub_len + n)]
            with m.Case(Segment.AD):
                m.d.comb += bdi.ready.eq(1)
                with m.If(taken):
                    m.d.sync += [ad_len.eq(ad_len + n),
                                 accum.eq(accum ^ _placed(bdi.data, n, ad_len[:4], w, 16)
                                          ^ Mux(bdi.eot, _pad(ad_len + n, 16), 0))]
            with m.Case(Segment.PT, Segment.CT):
                m.d.comb += [bdo.valid.eq(bdi.valid & (n != 0)), bdo.data.eq(out),
                             bdi.ready.eq(bdo.ready | (n == 0))]
                with m.If(taken):
                    m.d.sync += [msg_len.eq(msg_len + n),
                                 accum.eq(accum ^ _placed(plain, n, pos16, w, 16)
                                          ^ Mux(bdi.eot, _pad(msg_len + n, 16), 0))]
            with m.Case(Segment.HASH_MSG):
                m.d.comb += bdi.ready.eq(1)
                with m.If(taken):
                    m.d.sync += [hash_len.eq(hash_len + n),
                                 hstate.eq(hstate ^ _placed(bdi.data, n, hash_len[:5], w, 32)
                                           ^ Mux(bdi.eot, _pad(hash_len + n, 32), 0))]
            with m.Case(Segment.TAG):
                m.d.comb += bdi.ready.eq(1)
                with m.If(taken & (bdi.data != _slot(r.tag, index, w, 128))):
                    m.d.sync += fail.eq(1)
                with m.If(taken):
                    m.d.sync += index.eq(index + 1)
            with m.Default():
                m.d.comb += bdi.ready.eq(1)
        with m.If(taken & bdi.last):
            m.d.sync += index.eq(0)
            with m.If(bdi.hash):
                m.next = "DIGEST"
            with m.Elif(bdi.decrypt):
                m.next = "STATUS"
            with m.Else():
                m.next = "TAG"
