"""GCM as an engine behind the LWC front end: :class:`GcmEngine`, an adapter from the front end's
word channels (``ports.EngineSignature``) to the block channels of :class:`~.gcm_core.GcmCore`,
and :func:`gcm_engine_design`, the whole LWC design over a generated 128-bit block core.

The adapter does no cryptography; it cuts and joins words (``w`` bits: 8, 16, 32 and 128, each
verified: tests/test_gcm_engine.py, tests/test_engine_kind.py) and 128-bit blocks:

* ``key`` words (sdi, ``sw`` bits) are placed one after another into the core's key (left-aligned,
  as the block core takes it); on ``last`` the key, with its length in bytes (the words' bytes:
  a key is whole words), is offered to the layer's ``key`` channel, and no message starts while
  it waits there.
* ``bdi`` words are joined into a block: the words before a block's end are held in a register,
  the word carrying ``eob`` is joined to them combinationally, so the block goes to the layer on
  the edge its last word is taken; its bytes are the words' ``bytes`` summed. The NPUB block
  (12 bytes) with the operation's ``decrypt`` is the layer's ``start``; AD blocks go to ``ad`` and
  PT/CT blocks to ``din`` (``last`` = the word's ``eot``; the 0-byte word of an empty segment is a
  0-byte last block); on decryption the TAG block goes to ``tag_in``.
* ``dout`` blocks leave as ``bdo`` words, one per non-empty input word (``ceil(bytes / (w/8))``):
  the first straight from ``dout`` on the edge the block passes, the rest from an output
  register, a word a clock. At w = 128 a block is one word and passes straight through.
* The layer's ``tag`` (taken once the output register is empty): on encryption its 16 bytes
  leave as ``128/w`` bdo words from the output register, then the status (``fail`` = 0); on
  decryption the status only, ``fail = ~ok``. The next message's text waits for that status (the
  post-processor writes in order); its start does not.

With ``decouple`` (the engine kind's ``decouple=yes``) the front end's bdi and bdo channels go
through three-entry FIFOs with registered outputs, as the layer's streams into the core do
(:class:`~.gcm_core.GcmCore`), so that no combinational path runs from the front end's counters
into the layer: a key is then taken only once the words before it are out of the bdi FIFO (the
front end sends it after them, and it must not overtake their message), and the status only once
the words before it are out of the bdo FIFO.

HASH is not offered (GCM has none): its words are taken and dropped, and the front end would wait
for a digest.

**Cycles** (verify/message_sim.py; tests/test_gcm_engine.py prints them): over
aes-128/iterative:ops=encrypt with ``karatsuba``, from ENC (DEC) taken to the status word taken,
no AD, each after an encryption of the same length: w = 32: 16 bytes 37 (36), 64 bytes 67 (66),
1536 bytes 987 (986); w = 128: 30 (31), 60 (61), 980 (981). The iterative core's ten clocks a
block set the pace; the width changes only the words around it. Over aes-128/pipelined (II = 1;
measured once the same way, not in the tests): w = 32: 28 (27), 40 (39), 408 (407), a word a
clock; w = 128: 21 (22), 24 (25), 116 (117), a block a clock: the adapter keeps up with the data
port at either width.
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


class _Regs:
    """The adapter's registers, named after what each holds with ``_q`` (as gcm_core.py's: the ASIC
    flow's ``rename -wire -suffix _reg`` may give ``NAME_reg`` to another wire)."""

    def __init__(self, w: int, sw: int, key_bits: int, key_len_bits: int) -> None:
        self.key = Signal(key_bits, name="key_q")   # the key words so far
        self.key_words = Signal(range(key_bits // sw + 1), name="key_words_q")
        self.key_len = Signal(key_len_bits, name="key_len_q")   # bytes, once complete
        self.key_pending = Signal(name="key_pending_q")   # complete, not yet taken
        self.held = Signal(BLOCK_BITS, name="held_q")   # a block's words so far
        self.held_words = Signal(range(BLOCK_BITS // w), name="held_words_q")
        self.decrypt = Signal(name="decrypt_q")   # the message in the layer
        self.out = Signal(BLOCK_BITS, name="out_q")   # output words still to go
        self.out_words = Signal(range(BLOCK_BITS // w + 1), name="out_words_q")
        self.status = Signal(name="status_pending_q")   # the status still to go
        self.fail = Signal(name="fail_q")


class GcmEngine(Component):
    """GCM over ``block_core`` (a 128-bit core of the common interface, ``shape`` its
    :class:`~cipherbench.interface.CoreShape`) behind the LWC front end at width ``w`` (``sw``: the
    key port's, default ``w``); ``multiplier`` and ``ahead`` are :class:`~.gcm_core.GcmCore`'s.
    ``layer_class``: the GCM layer's class (a test replaces it with a broken one)."""

    layer_class: type[GcmCore] = GcmCore

    def __init__(self, block_core: Elaboratable, shape: CoreShape, w: int = 32, *,
                 sw: int | None = None, multiplier: str = "karatsuba", ahead: int = 64,
                 decouple: bool = False) -> None:
        self._MustUse__silence = True   # a refused engine is never elaborated: no warning
        self.lwc_shape = LwcShape(w, sw)
        self.gcm = self.layer_class(block_core, shape, multiplier, ahead, decouple)
        self._MustUse__silence = False
        self.core_shape = shape
        self.decouple = decouple
        super().__init__(EngineSignature(self.lwc_shape))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.gcm = gcm = self.gcm
        s = self.lwc_shape
        # decouple: the front end's data channels behind FIFOs too (registered on both sides),
        # so that no combinational path runs from the front end's counters into the layer.
        self._bdi = _buffered(m, "bdi_fifo", self.bdi, True) if self.decouple else self.bdi
        self._bdo = _buffered(m, "bdo_fifo", self.bdo, False) if self.decouple else self.bdo
        r = _Regs(s.w, s.key_width, self.core_shape.key_bits, len(gcm.key.payload.len))
        self._key(m, r, gcm)
        block, block_bytes = self._assembler(m, r)
        self._input(m, r, gcm, block, block_bytes)
        self._output(m, r, gcm)
        self._tag(m, r, gcm)
        return m

    def _key(self, m: Module, r: _Regs, gcm: GcmCore) -> None:
        """The key words into ``r.key``, most significant first; complete on ``last``, then
        offered to the layer."""
        sw = self.lwc_shape.key_width
        # A key behind bdi FIFO: taken only once the words before it are out of the FIFO (the
        # front end sends it after them; the layer takes it once their message is done).
        before = self._bdi.empty if self.decouple else 1
        m.d.comb += [self.key.ready.eq(~r.key_pending & before),
                     gcm.key.valid.eq(r.key_pending), gcm.key.payload.key.eq(r.key),
                     gcm.key.payload.len.eq(r.key_len)]
        with m.If(self.key.valid & self.key.ready):
            m.d.sync += [r.key.eq(_with_word(r.key, self.key.data, r.key_words, sw)),
                         r.key_words.eq(r.key_words + 1)]
            with m.If(self.key.last):
                m.d.sync += [r.key_pending.eq(1), r.key_words.eq(0),
                             r.key_len.eq((r.key_words + 1) * (sw // 8))]
        with m.If(gcm.key.valid & gcm.key.ready):
            m.d.sync += [r.key_pending.eq(0), r.key.eq(0)]

    def _assembler(self, m: Module, r: _Regs) -> tuple[Value, Value]:
        """The block the held words and the present one make, and its bytes; a word is held
        when taken, and the next block starts after an ``eob`` word."""
        w, bdi = self.lwc_shape.w, self._bdi
        block = Signal(BLOCK_BITS, name="block")
        block_bytes = Signal(5, name="block_bytes")
        m.d.comb += [block.eq(_with_word(r.held, bdi.data, r.held_words, w)),
                     block_bytes.eq(r.held_words * (w // 8) + bdi.bytes)]
        with m.If(bdi.valid & bdi.ready):
            m.d.sync += [r.held.eq(block), r.held_words.eq(Mux(bdi.eob, 0, r.held_words + 1))]
        return block, block_bytes

    def _input(self, m: Module, r: _Regs, gcm: GcmCore, block: Value, block_bytes: Value) -> None:
        """A block's last word goes to the layer's channel its segment type names (NPUB: start,
        once no key waits), with ``ready`` from it; the words before it are taken at once."""
        bdi = self._bdi
        end = bdi.valid & bdi.eob
        for channel in (gcm.ad, gcm.din):
            m.d.comb += [channel.payload.block.eq(block), channel.payload.bytes.eq(block_bytes),
                         channel.payload.last.eq(bdi.eot)]
        m.d.comb += [gcm.start.payload.iv.eq(block[BLOCK_BITS - IV_BITS:]),
                     gcm.start.payload.decrypt.eq(bdi.decrypt),
                     gcm.tag_in.payload.tag.eq(block), gcm.tag_in.payload.bytes.eq(block_bytes)]
        with m.Switch(bdi.type):
            with m.Case(Segment.NPUB):
                m.d.comb += [gcm.start.valid.eq(end & ~r.key_pending),
                             bdi.ready.eq(Mux(bdi.eob, gcm.start.ready & ~r.key_pending, 1))]
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
            m.d.sync += r.decrypt.eq(bdi.decrypt)

    def _output(self, m: Module, r: _Regs, gcm: GcmCore) -> None:
        """bdo: the output register's words while it has any, else a ``dout`` block's first
        word (its other words into the register); the status once the register is empty."""
        w = self.lwc_shape.w
        wb = w // 8
        dout, pending = gcm.dout.payload, r.out_words != 0
        free = ~pending & ~r.status
        bdo = self._bdo
        m.d.comb += [bdo.valid.eq(pending | (gcm.dout.valid & free)),
                     bdo.data.eq(Mux(pending, r.out, dout.block)[BLOCK_BITS - w:]),
                     gcm.dout.ready.eq(bdo.ready & free),
                     # the status after the words before it, out of the bdo FIFO too
                     self.status.valid.eq(r.status & ~pending & (bdo.empty if self.decouple
                                                                 else 1)),
                     self.status.fail.eq(r.fail)]
        with m.If(bdo.valid & bdo.ready):
            with m.If(pending):
                m.d.sync += [r.out.eq(r.out << w), r.out_words.eq(r.out_words - 1)]
            with m.Else():
                m.d.sync += [r.out.eq(dout.block << w),
                             r.out_words.eq((dout.bytes + (wb - 1)) // wb - 1)]
        with m.If(self.status.valid & self.status.ready):
            m.d.sync += r.status.eq(0)

    def _tag(self, m: Module, r: _Regs, gcm: GcmCore) -> None:
        """The layer's tag, once the output register is empty and no status waits: its words
        into the register (encryption), the status with ``fail = ~ok``."""
        m.d.comb += gcm.tag.ready.eq((r.out_words == 0) & ~r.status)
        with m.If(gcm.tag.valid & gcm.tag.ready):
            m.d.sync += [r.out.eq(gcm.tag.payload.tag),
                         r.out_words.eq(Mux(r.decrypt, 0, BLOCK_BITS // self.lwc_shape.w)),
                         r.status.eq(1), r.fail.eq(~gcm.tag.payload.ok)]


class _Port:
    """A channel's signals by field name, as the interface objects' (``valid``, ``ready``, the
    payload fields): one side of a FIFO; ``empty``: nothing in the FIFO."""

    def __init__(self, name: str, fields: dict[str, int]) -> None:
        for field, width in {**fields, "valid": 1, "ready": 1}.items():
            setattr(self, field, Signal(width, name=f"{name}_{field}"))
        self.empty = Signal(name=f"{name}_empty")


def _buffered(m: Module, name: str, port, into_engine: bool) -> _Port:
    """``port`` (an engine's channel) through a three-entry FIFO with registered outputs (two
    would not keep a word a clock); the FIFO's other side, which the engine uses instead."""
    from amaranth.lib.fifo import SyncFIFOBuffered

    fields = {f: len(getattr(port, f)) for f in port.signature.members
              if f not in ("valid", "ready")}
    inner = _Port(name, fields)
    m.submodules[name] = fifo = SyncFIFOBuffered(width=sum(fields.values()), depth=3)
    source, sink = (port, inner) if into_engine else (inner, port)
    m.d.comb += [fifo.w_data.eq(Cat(*(getattr(source, f) for f in fields))),
                 fifo.w_en.eq(source.valid), source.ready.eq(fifo.w_rdy),
                 sink.valid.eq(fifo.r_rdy), fifo.r_en.eq(sink.ready),
                 inner.empty.eq(fifo.level == 0)]
    at = 0
    for f, bits in fields.items():
        m.d.comb += getattr(sink, f).eq(fifo.r_data[at:at + bits])
        at += bits
    return inner


def gcm_engine_design(spec_text: str, w: int = 32, multiplier: str = "karatsuba", *,
                      sw: int | None = None, ahead: int = 64, decouple: bool = False,
                      engine_class: type[GcmEngine] = GcmEngine) -> LwcDesign:
    """The LWC design of GCM over the block core ``spec_text`` names (a 128-bit block cipher with
    ``ops=encrypt`` or both, e.g. ``aes-128/iterative:ops=encrypt``) at width ``w``."""
    spec = parse(spec_text)
    core, shape, _facts = build_core(spec)
    if shape.block_bits != BLOCK_BITS:
        core._MustUse__silence = True   # refused, never elaborated
        raise CipherbenchError(f"GCM needs a 128-bit block cipher; {spec_text} has "
                               f"{shape.block_bits}-bit blocks")
    engine = engine_class(core, shape, w, sw=sw, multiplier=multiplier, ahead=ahead,
                          decouple=decouple)
    return LwcDesign(LwcShape(w, sw), engine, block_bytes=BLOCK_BYTES, tag_bytes=TAG_BYTES)
