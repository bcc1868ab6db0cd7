"""GCM as an engine behind the LWC front end: :class:`GcmEngine`, an adapter from the front end's
word channels (``ports.EngineSignature``) to the block channels of :class:`~.gcm_core.GcmCore`,
and :func:`gcm_engine_design`, the whole LWC design over a generated 128-bit block core.

The adapter does no cryptography; it cuts and joins words (``w`` bits, 32 or 128 here; 8 and 16
work the same way) and 128-bit blocks:

* ``key`` words (sdi, ``sw`` bits) are placed one after another into the core's key (left-aligned,
  as the block core takes it); on ``last`` the key, with its length in bytes (the words' bytes:
  a key is whole words), is offered to the layer's ``key`` channel, and no message starts before
  the layer took it.
* ``bdi`` words are joined into a block (the assembler: the words before a block's end kept in a
  register, the word carrying ``eob`` joined to them combinationally, so a block goes to the layer
  on the edge its last word is taken); the block's bytes are the words' ``bytes`` summed. The NPUB
  block (12 bytes) with the operation's ``decrypt`` is the layer's ``start``; AD blocks go to
  ``ad`` and PT/CT blocks to ``din`` (``last`` = the word's ``eot``; the 0-byte word of an empty
  segment is a 0-byte last block); on decryption the TAG block goes to ``tag_in``.
* ``dout`` blocks leave as ``bdo`` words, one per non-empty input word (``ceil(bytes / (w/8))``):
  the first word straight from ``dout`` on the edge the block passes, the rest from the output
  register, a word a clock. At w = 128 a block is one word, and passes straight through.
* The layer's ``tag``: on encryption its 16 bytes leave as ``128/w`` bdo words from the output
  register, then the status (``fail`` = 0); on decryption the status only, ``fail = ~ok``. The next
  message's text waits for that status (the post-processor writes in order), its start does not.

Hash (HASH_MSG) is not offered: GCM has none, and its words are taken and dropped.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Elaboratable, Module, Mux, Signal, Value
from amaranth.lib.wiring import Component

from cipherbench.errors import CipherbenchError
from cipherbench.interface import CoreShape
from cipherbench.kinds.generated import build_core
from cipherbench.spec import parse

from .gcm_core import BLOCK_BITS, IV_BITS, GcmCore
from .lwc import Segment
from .lwc_io import LwcDesign
from .ports import EngineSignature, LwcShape

BLOCK_BYTES, TAG_BYTES, NPUB_BYTES = 16, 16, 12


def _with_word(held: Value, word: Value, index: Value, width: int) -> Value:
    """``held`` (a multiple of ``width`` bits) with its ``index``-th ``width``-bit word from the
    most significant replaced by ``word``."""
    count = len(held) // width
    if count == 1:
        return word
    slots = [held[len(held) - (k + 1) * width:len(held) - k * width] for k in range(count)]
    return Cat(*reversed([Mux(index == k, word, slot) for k, slot in enumerate(slots)]))


class GcmEngine(Component):
    """GCM over ``block_core`` (a 128-bit core of the common interface, ``shape`` its
    :class:`~cipherbench.interface.CoreShape`) behind the LWC front end at width ``w`` (``sw``: the
    key port's, default ``w``); ``multiplier`` and ``ahead`` are :class:`~.gcm_core.GcmCore`'s.
    ``layer_class``: the GCM layer's class (a test replaces it with a broken one)."""

    layer_class: type[GcmCore] = GcmCore

    def __init__(self, block_core: Elaboratable, shape: CoreShape, w: int = 32, *,
                 sw: int | None = None, multiplier: str = "karatsuba", ahead: int = 64) -> None:
        self.lwc_shape = LwcShape(w, sw)
        if w > BLOCK_BITS or self.lwc_shape.key_width > shape.key_bits:
            raise CipherbenchError(f"GCM engine words must be at most 128 bits and the key port "
                                   f"at most the core's key, got w = {w}, sw = "
                                   f"{self.lwc_shape.key_width}")
        self.gcm = self.layer_class(block_core, shape, multiplier, ahead)
        self.core_shape = shape
        super().__init__(EngineSignature(self.lwc_shape))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.gcm = gcm = self.gcm
        key_pending = self._key(m, gcm)
        block, block_bytes = self._assembler(m)
        out_free = self._output(m, gcm)
        self._input(m, gcm, block, block_bytes, key_pending, out_free)
        return m

    def _key(self, m: Module, gcm: GcmCore) -> Signal:
        """The key words into a register, then to the layer; returns 'a key is waiting'."""
        sw, key_bits = self.lwc_shape.key_width, self.core_shape.key_bits
        key_reg = Signal(key_bits, name="key_reg")
        words = Signal(range(key_bits // sw + 1), name="key_words_reg")
        pending = Signal(name="key_pending_reg")
        key_len = Signal(len(gcm.key.payload.len), name="key_len_reg")
        m.d.comb += [self.key.ready.eq(~pending),
                     gcm.key.valid.eq(pending), gcm.key.payload.key.eq(key_reg),
                     gcm.key.payload.len.eq(key_len)]
        with m.If(self.key.valid & self.key.ready):
            m.d.sync += [key_reg.eq(_with_word(key_reg, self.key.data, words, sw)),
                         words.eq(words + 1)]
            with m.If(self.key.last):
                m.d.sync += [pending.eq(1), words.eq(0), key_len.eq((words + 1) * (sw // 8))]
        with m.If(gcm.key.valid & gcm.key.ready):
            m.d.sync += [pending.eq(0), key_reg.eq(0)]
        return pending

    def _assembler(self, m: Module) -> tuple[Value, Value]:
        """The block the words kept so far and the present word make, and its bytes; the words
        before a block's end are kept."""
        w, bdi = self.lwc_shape.w, self.bdi
        held = Signal(BLOCK_BITS, name="block_reg")
        index = Signal(range(BLOCK_BITS // w), name="block_words_reg")
        block = Signal(BLOCK_BITS, name="block")
        block_bytes = Signal(5, name="block_bytes")
        m.d.comb += [block.eq(_with_word(held, bdi.data, index, w)),
                     block_bytes.eq(index * (w // 8) + bdi.bytes)]
        with m.If(bdi.valid & bdi.ready):
            m.d.sync += [held.eq(block), index.eq(Mux(bdi.eob, 0, index + 1))]
        return block, block_bytes

    def _input(self, m: Module, gcm: GcmCore, block: Value, block_bytes: Value,
               key_pending: Value, out_free: Value) -> None:
        """Each block's end to the layer's channel its segment type names; words before it are
        taken at once. ``gcm.tag`` is taken when the output register is free."""
        bdi = self.bdi
        end = bdi.valid & bdi.eob
        decrypting = Signal(name="decrypt_reg")
        for channel in (gcm.ad, gcm.din):
            m.d.comb += [channel.payload.block.eq(block), channel.payload.bytes.eq(block_bytes),
                         channel.payload.last.eq(bdi.eot)]
        m.d.comb += [gcm.start.payload.iv.eq(block[BLOCK_BITS - IV_BITS:]),
                     gcm.start.payload.decrypt.eq(bdi.decrypt),
                     gcm.tag_in.payload.tag.eq(block), gcm.tag_in.payload.bytes.eq(block_bytes)]
        with m.Switch(bdi.type):
            with m.Case(Segment.NPUB):
                m.d.comb += [gcm.start.valid.eq(end & ~key_pending),
                             bdi.ready.eq(Mux(bdi.eob, gcm.start.ready & ~key_pending, 1))]
            with m.Case(Segment.AD):
                m.d.comb += [gcm.ad.valid.eq(end), bdi.ready.eq(Mux(bdi.eob, gcm.ad.ready, 1))]
            with m.Case(Segment.PT, Segment.CT):
                m.d.comb += [gcm.din.valid.eq(end), bdi.ready.eq(Mux(bdi.eob, gcm.din.ready, 1))]
            with m.Case(Segment.TAG):
                m.d.comb += [gcm.tag_in.valid.eq(end),
                             bdi.ready.eq(Mux(bdi.eob, gcm.tag_in.ready, 1))]
            with m.Default():
                m.d.comb += bdi.ready.eq(1)
        with m.If(gcm.start.valid & gcm.start.ready):
            m.d.sync += decrypting.eq(bdi.decrypt)
        self._tag(m, gcm, decrypting, out_free)

    def _output(self, m: Module, gcm: GcmCore) -> Value:
        """bdo from ``dout`` (its first word directly) and the output register; returns 'the
        output register is empty and no status waits'. Also holds the status register."""
        w = self.lwc_shape.w
        wb = w // 8
        self._out = out = Signal(BLOCK_BITS, name="out_reg")
        self._left = left = Signal(range(BLOCK_BITS // w + 1), name="out_words_reg")
        self._status = status = Signal(name="status_pending_reg")
        self._fail = fail = Signal(name="fail_reg")
        free = Signal(name="out_free")
        dout = gcm.dout.payload
        m.d.comb += [free.eq((left == 0) & ~status),
                     self.bdo.valid.eq((left != 0) | (gcm.dout.valid & free)),
                     self.bdo.data.eq(Mux(left != 0, out, dout.block)[BLOCK_BITS - w:]),
                     gcm.dout.ready.eq(self.bdo.ready & free),
                     self.status.valid.eq(status & (left == 0)), self.status.fail.eq(fail)]
        with m.If(self.bdo.valid & self.bdo.ready):
            with m.If(left != 0):
                m.d.sync += [out.eq(out << w), left.eq(left - 1)]
            with m.Else():   # a dout block: its first word now, the rest from the register
                words = (dout.bytes + (wb - 1)) // wb
                m.d.sync += [out.eq(dout.block << w), left.eq(words - 1)]
        with m.If(self.status.valid & self.status.ready):
            m.d.sync += status.eq(0)
        return free

    def _tag(self, m: Module, gcm: GcmCore, decrypting: Value, out_free: Value) -> None:
        """The layer's tag into the output register (encryption) and the status."""
        m.d.comb += gcm.tag.ready.eq(out_free)
        with m.If(gcm.tag.valid & gcm.tag.ready):
            m.d.sync += [self._out.eq(gcm.tag.payload.tag),
                         self._left.eq(Mux(decrypting, 0, BLOCK_BITS // self.lwc_shape.w)),
                         self._status.eq(1), self._fail.eq(~gcm.tag.payload.ok)]


def gcm_engine_design(spec_text: str, w: int = 32, multiplier: str = "karatsuba", *,
                      sw: int | None = None, ahead: int = 64,
                      engine_class: type[GcmEngine] = GcmEngine) -> LwcDesign:
    """The LWC design of GCM over the block core ``spec_text`` names (a 128-bit block cipher with
    ``ops=encrypt`` or both, e.g. ``aes-128/iterative:ops=encrypt``) at width ``w``."""
    spec = parse(spec_text)
    core, shape, _facts = build_core(spec)
    if shape.block_bits != BLOCK_BITS:
        core._MustUse__silence = True   # refused, never elaborated
        raise CipherbenchError(f"GCM needs a 128-bit block cipher; {spec_text} has "
                               f"{shape.block_bits}-bit blocks")
    engine = engine_class(core, shape, w, sw=sw, multiplier=multiplier, ahead=ahead)
    return LwcDesign(LwcShape(w, sw), engine, block_bytes=BLOCK_BYTES, tag_bytes=TAG_BYTES)
