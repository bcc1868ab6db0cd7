"""The LWC hardware API's front end in Amaranth: a pre-processor, a post-processor and the design
that puts an engine between them (``LwcDesign``). Written from the API's facts (``lwc.py``), in the
spirit of the GMU development package's PreProcessor/PostProcessor; the engine's side of it is
``ports.EngineSignature``.

Pre-processor (pdi, sdi -> key, bdi, header queue)
    Reads an instruction from pdi. ``ACTKEY``: reads sdi's ``LDKEY``, its KEY header, and
    passes the key words to the engine (``key``, ``last`` on the final one). ``ENC``/``DEC``/
    ``HASH``: reads segment headers (``32/w`` words for w < 32, one otherwise) and passes each
    segment's data words to the engine (``bdi``) with the header's type and flags and the valid
    bytes of each word; an empty segment gives one word of 0 bytes. For each output segment it
    queues what the post-processor is to write: a CT header (ENC) or PT header (DEC, Last on the
    final one) as each PT/CT header is read, then after the input's Last segment the TAG header
    (ENC, ``tag_bytes``) or HASH_VALUE header (HASH, ``digest_bytes``), and a status entry.

Post-processor (header queue, bdo, status -> do)
    Takes the queue's entries in order: a header is written (as the input's words), then its
    ``ceil(length / (w/8))`` data words from the engine with bytes past the length cleared; a status
    entry waits for the engine's status and writes SUCCESS or FAILURE with ``do_last``.

The queue is a FIFO of ``queue_depth`` entries (33 bits: a status flag and a header). An engine
that produces each output word from the input word that carries it, and the tag after its input,
never fills it.

Timing: on pdi and sdi, a clock per instruction and header word and one more after each header
(the output header of a PT/CT segment is queued then); data words pass straight through, pdi to
the engine and the engine to do, a word a clock; on do, a clock per header word, data word and
status word. The pre-processor may read the next operation while the post-processor still writes
the last one's tag.
"""

from __future__ import annotations

import json
from pathlib import Path

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value
from amaranth.lib.fifo import SyncFIFO
from amaranth.lib.wiring import Component, In, Out

from ..interface import Channel
from ..rtl import to_verilog
from .lwc import HEADER_BITS, Opcode, Segment, Status
from .ports import EngineSignature, LwcShape, bdi_channel

_ENTRY_BITS = HEADER_BITS + 1  # bit 32: a status entry


def _header(segment: int, length, *, eot, last) -> Const:
    """A 32-bit output header (EOI = 0) from its fields."""
    return (Const(segment, 4) << 28) | (eot << 25) | (last << 24) | length


def _bytes_mask(shape: LwcShape, count) -> Value:
    """A w-bit mask keeping the ``count`` most significant bytes (count up to w/8)."""
    w = shape.w
    return ~(Const((1 << w) - 1, w) >> (count[:shape.bytes_bits] * 8))


class PreProcessor(Component):
    """pdi, sdi -> the engine's key and bdi channels, and the post-processor's header queue."""

    def __init__(self, shape: LwcShape, block_bytes: int, tag_bytes: int, digest_bytes: int):
        if block_bytes % (shape.w // 8):
            raise ValueError(f"block of {block_bytes} bytes is not whole {shape.w}-bit words")
        self.shape, self.block_bytes = shape, block_bytes
        self.tag_bytes, self.digest_bytes = tag_bytes, digest_bytes
        top = shape.signature()
        engine = EngineSignature(shape)
        super().__init__({
            "pdi": In(top.members["pdi"].signature), "sdi": In(top.members["sdi"].signature),
            "key": Out(engine.members["key"].signature), "bdi": Out(bdi_channel(shape)),
            "queue": Out(Channel("queue", {"data": _ENTRY_BITS})),
        })

    def elaborate(self, platform) -> Module:
        m = Module()
        s, w = self.shape, self.shape.w
        wb, swb = w // 8, s.key_width // 8
        hdr = Signal(HEADER_BITS)
        hcount = Signal(range(max(HEADER_BITS // min(w, s.key_width), 1) + 1))
        seg_type, remaining = Signal(4), Signal(16)
        eoi, eot, last = Signal(), Signal(), Signal()
        decrypt, hashing = Signal(), Signal()
        words_per_block = self.block_bytes // wb
        wcount = Signal(range(max(words_per_block, 2)))
        header_now = self._read_header(m, hdr, hcount, self.pdi.data, w)
        key_header = self._read_header(m, hdr, hcount, self.sdi.data, s.key_width)
        bdi = self.bdi
        m.d.comb += [bdi.data.eq(self.pdi.data), bdi.type.eq(seg_type), bdi.decrypt.eq(decrypt),
                     bdi.hash.eq(hashing), bdi.bytes.eq(Mux(remaining >= wb, wb, remaining)),
                     self.key.data.eq(self.sdi.data), self.key.last.eq(remaining <= swb)]
        final = remaining <= wb
        m.d.comb += [bdi.eot.eq(eot & final), bdi.eoi.eq(eoi & final), bdi.last.eq(last & final),
                     bdi.eob.eq(final | (wcount == words_per_block - 1))]
        queue = self.queue
        data_type = Mux(decrypt, Segment.PT, Segment.CT)
        seg_entry = _header(0, remaining, eot=eot, last=eot & decrypt) | (data_type << 28)
        end_header = Mux(hashing, _header(Segment.HASH_VALUE, self.digest_bytes, eot=1, last=1),
                         _header(Segment.TAG, self.tag_bytes, eot=1, last=1))
        with m.FSM():
            with m.State("INST"):
                m.d.comb += self.pdi.ready.eq(1)
                opcode = self.pdi.data[w - 4:]
                with m.If(self.pdi.valid):
                    m.d.sync += [hcount.eq(0), decrypt.eq(opcode == Opcode.DEC),
                                 hashing.eq(opcode == Opcode.HASH)]
                    with m.If(opcode == Opcode.ACTKEY):
                        m.next = "SDI_INST"
                    with m.Elif((opcode == Opcode.ENC) | (opcode == Opcode.DEC)
                                | (opcode == Opcode.HASH)):
                        m.next = "HDR"
            with m.State("SDI_INST"):
                m.d.comb += self.sdi.ready.eq(1)
                with m.If(self.sdi.valid):
                    m.next = "SDI_HDR"
            with m.State("SDI_HDR"):
                m.d.comb += self.sdi.ready.eq(1)
                with m.If(self.sdi.valid):
                    self._header_word(m, hdr, hcount, key_header, s.key_width, remaining, "KEY")
            with m.State("KEY"):
                m.d.comb += [self.key.valid.eq(self.sdi.valid), self.sdi.ready.eq(self.key.ready)]
                with m.If(self.sdi.valid & self.key.ready):
                    m.d.sync += remaining.eq(remaining - swb)
                    with m.If(remaining <= swb):
                        m.next = "INST"
            with m.State("HDR"):
                m.d.comb += self.pdi.ready.eq(1)
                with m.If(self.pdi.valid):
                    m.d.sync += [seg_type.eq(header_now[28:]), eoi.eq(header_now[26]),
                                 eot.eq(header_now[25]), last.eq(header_now[24]), wcount.eq(0)]
                    self._header_word(m, hdr, hcount, header_now, w, remaining, "QUEUE")
            with m.State("QUEUE"):
                is_data = (seg_type == Segment.PT) | (seg_type == Segment.CT)
                m.d.comb += [queue.valid.eq(is_data), queue.data.eq(seg_entry)]
                with m.If(queue.ready | ~is_data):
                    m.next = "DATA"
            with m.State("DATA"):
                self._data(m, remaining, wcount, words_per_block, last, wb)
            with m.State("END_HEADER"):
                m.d.comb += [queue.valid.eq(~decrypt), queue.data.eq(end_header)]
                with m.If(queue.ready | decrypt):
                    m.next = "END_STATUS"
            with m.State("END_STATUS"):
                m.d.comb += [queue.valid.eq(1), queue.data.eq(1 << HEADER_BITS)]
                with m.If(queue.ready):
                    m.next = "INST"
        return m

    @staticmethod
    def _read_header(m: Module, hdr: Signal, hcount: Signal, data: Signal, width: int):
        """The 32-bit header as it stands once ``data`` (its last word) is taken."""
        if width >= HEADER_BITS:
            return data[width - HEADER_BITS:]
        whole = Signal(HEADER_BITS)
        m.d.comb += whole.eq(Cat(data, hdr[:HEADER_BITS - width]))
        return whole

    @staticmethod
    def _header_word(m: Module, hdr, hcount, whole, width: int, remaining, then: str) -> None:
        """Take one header word; after the last one, load the length and go to ``then``."""
        if width >= HEADER_BITS:
            m.d.sync += [hdr.eq(whole), remaining.eq(whole[:16])]
            m.next = then
            return
        m.d.sync += [hdr.eq(whole), hcount.eq(hcount + 1)]
        with m.If(hcount == HEADER_BITS // width - 1):
            m.d.sync += [hcount.eq(0), remaining.eq(whole[:16])]
            m.next = then

    def _data(self, m: Module, remaining, wcount, words_per_block: int, last, wb: int) -> None:
        """Pass the segment's words to the engine (one word of 0 bytes for an empty segment)."""
        empty = remaining == 0
        m.d.comb += [self.bdi.valid.eq(self.pdi.valid | empty),
                     self.pdi.ready.eq(self.bdi.ready & ~empty)]
        with m.If(self.bdi.ready & (self.pdi.valid | empty)):
            m.d.sync += [remaining.eq(Mux(remaining > wb, remaining - wb, 0)),
                         wcount.eq(Mux(wcount == words_per_block - 1, 0, wcount + 1))]
            with m.If((remaining <= wb) & last):
                m.next = "END_HEADER"
            with m.Elif(remaining <= wb):
                m.next = "HDR"


class PostProcessor(Component):
    """The header queue, the engine's bdo and status channels -> do."""

    def __init__(self, shape: LwcShape):
        self.shape = shape
        top = shape.signature()
        engine = EngineSignature(shape)
        super().__init__({
            "queue": In(Channel("queue", {"data": _ENTRY_BITS})),
            "bdo": In(engine.members["bdo"].signature),
            "status": In(engine.members["status"].signature),
            "do": Out(top.members["do"].signature),
        })

    def elaborate(self, platform) -> Module:
        m = Module()
        w = self.shape.w
        wb = w // 8
        hdr = Signal(HEADER_BITS)
        header_words = max(HEADER_BITS // w, 1)
        hcount = Signal(range(header_words + 1))
        remaining = Signal(16)
        do = self.do
        if w >= HEADER_BITS:
            header_word = hdr << (w - HEADER_BITS)
        else:
            header_word = hdr[HEADER_BITS - w:]
        kept = Mux(remaining >= wb, Const((1 << w) - 1, w), _bytes_mask(self.shape, remaining))
        with m.FSM():
            with m.State("TAKE"):
                m.d.comb += self.queue.ready.eq(1)
                with m.If(self.queue.valid):
                    entry = self.queue.data
                    m.d.sync += [hdr.eq(entry[:HEADER_BITS]), remaining.eq(entry[:16]),
                                 hcount.eq(0)]
                    with m.If(entry[HEADER_BITS]):
                        m.next = "STATUS"
                    with m.Else():
                        m.next = "HEADER"
            with m.State("HEADER"):
                m.d.comb += [do.valid.eq(1), do.data.eq(header_word)]
                with m.If(do.ready):
                    if w < HEADER_BITS:
                        m.d.sync += [hdr.eq(hdr << w), hcount.eq(hcount + 1)]
                    with m.If((hcount == header_words - 1) & (remaining == 0)):
                        m.next = "TAKE"
                    with m.Elif(hcount == header_words - 1):
                        m.next = "DATA"
            with m.State("DATA"):
                m.d.comb += [do.valid.eq(self.bdo.valid), self.bdo.ready.eq(do.ready),
                             do.data.eq(self.bdo.data & kept)]
                with m.If(self.bdo.valid & do.ready):
                    m.d.sync += remaining.eq(Mux(remaining > wb, remaining - wb, 0))
                    with m.If(remaining <= wb):
                        m.next = "TAKE"
            with m.State("STATUS"):
                code = Mux(self.status.fail, Status.FAILURE, Status.SUCCESS)
                m.d.comb += [do.valid.eq(self.status.valid), do.last.eq(1),
                             do.data.eq(code << (w - 4)), self.status.ready.eq(do.ready)]
                with m.If(self.status.valid & do.ready):
                    m.next = "TAKE"
        return m


class LwcDesign(Component):
    """An engine behind the LWC front end: the API's top level (``ports.LwcSignature``).

    ``engine``: a Component with ``ports.EngineSignature(shape)``; ``block_bytes``: its data block
    (``bdi.eob`` marks block ends); ``tag_bytes``/``digest_bytes``: the lengths of the TAG and
    HASH_VALUE headers written for it."""

    def __init__(self, shape: LwcShape, engine: Component, *, block_bytes: int = 16,
                 tag_bytes: int = 16, digest_bytes: int = 32, queue_depth: int = 4):
        self.shape, self.engine = shape, engine
        self.pre = PreProcessor(shape, block_bytes, tag_bytes, digest_bytes)
        self.post = PostProcessor(shape)
        self.queue_depth = queue_depth
        super().__init__(shape.signature())

    def port_list(self) -> list[Signal]:
        """The top level's Signals in the order of ``LwcShape.ports()`` (without clk, rst)."""
        return [value for _path, _member, value in self.signature.flatten(self)]

    def elaborate(self, platform) -> Module:
        m = Module()
        m.submodules.pre, m.submodules.post = self.pre, self.post
        m.submodules.engine = engine = self.engine
        m.submodules.queue = queue = SyncFIFO(width=_ENTRY_BITS, depth=self.queue_depth)
        pre, post = self.pre, self.post
        m.d.comb += [queue.w_data.eq(pre.queue.data), queue.w_en.eq(pre.queue.valid),
                     pre.queue.ready.eq(queue.w_rdy),
                     post.queue.data.eq(queue.r_data), post.queue.valid.eq(queue.r_rdy),
                     queue.r_en.eq(post.queue.ready)]
        _join(m, self.pdi, pre.pdi)
        _join(m, self.sdi, pre.sdi)
        _join(m, pre.key, engine.key)
        _join(m, pre.bdi, engine.bdi)
        _join(m, engine.bdo, post.bdo)
        _join(m, engine.status, post.status)
        _join(m, post.do, self.do)
        return m


def _join(m: Module, sender, receiver) -> None:
    """Connect two interface objects of one channel: payload and valid forward, ready back."""
    for name in sender.signature.members:
        src, dst = getattr(sender, name), getattr(receiver, name)
        m.d.comb += (src.eq(dst) if name == "ready" else dst.eq(src))


def write_lwc_design(design: LwcDesign, out_dir: Path, name: str = "lwc_top") -> dict:
    """Write ``design``'s Verilog and ``manifest.json`` (top, verilog, w, sw, ports: what
    ``verify/message_sim.py`` reads) into ``out_dir``; the manifest."""
    out_dir = Path(out_dir)
    verilog = to_verilog(design, design.port_list(), name, out_dir)
    # clock and reset: what the flows and the testbench drive (the sync domain's clk and rst).
    manifest = {"top": name, "clock": "clk", "reset": "rst", "verilog": [verilog.name],
                "w": design.shape.w, "sw": design.shape.key_width, "ports": design.shape.ports()}
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest
