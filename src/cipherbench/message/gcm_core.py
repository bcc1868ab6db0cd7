"""GCM's datapath over any 128-bit block-cipher core: :class:`GcmCore`.

The shape OpenTitan's ``hw/ip/aes`` gives its GCM (``aes_core`` around an unchanged
``aes_cipher_core``, beside ``aes_ctr`` and ``aes_ghash``): the block core cipherbench generates
(``kinds.generated.build_core``) is a submodule as it is, driven only through its common interface
(``core.io``: key channel, input and output streams, docs/interface.md), and the GCM layer names
no cipher. Every block the layer enciphers goes through the core's own streams, always with
``decrypt`` = 0 (GCM uses the forward cipher both ways, so an ``ops=encrypt`` core is enough):
the hash subkey H = E_K(0^128) at key setup, then per message E_K(J0) and the counter blocks
inc32(J0), inc32^2(J0), ... The GHASH multiplier is a parameter (``multiplier``):

* ``schoolbook``, ``karatsuba``, ``karatsuba2``: :class:`~cipherbench.components.ghash_mul.GhashMul`
  (combinational; Karatsuba with 1 or 2 levels): one GHASH block a clock;
* ``serial:d``: :class:`~cipherbench.components.ghash_mul.GhashMulSerial` with digit d (1, 2, 4,
  .. 64): 128/d clocks a block, and the layer back-pressures its AD and text streams meanwhile;
* ``pipelined:k``: :class:`~cipherbench.components.ghash_mul.GhashMulPipelined` with k = 2, 4, 8
  stages around k interleaved lanes in H^k (:class:`GhashAcc`): one block a clock at a clock a
  one-clock product cannot reach; the key setup adds (k - 1) k clocks (H^2 .. H^k) and the tag
  2k + 1 (the last block's register, the lanes folded).

**Interface** (``GcmCore.signature``; every channel an ``amaranth.lib.stream`` of a struct payload,
AXI4-Stream handshakes: a transfer on an edge with ``valid`` and ``ready`` high; a source holds its
payload until then). Blocks are 128 bits, byte 0 in the most significant bits (the core's order).

=========  ====  =================================================================================
port       dir   payload and meaning
=========  ====  =================================================================================
key        in    ``key`` (the core's key width, left-aligned as the core takes it), ``len`` (its
                 length in bytes). Taken only when idle with nothing in flight; the layer passes it
                 to the core, then enciphers 0^128 into H. ``keyed`` rises when H is held.
start      in    ``iv`` (96 bits: J0 = IV || 0^31 || 1), ``decrypt``. Taken when ``keyed`` and
                 idle (after the previous tag).
ad         in    ``block``, ``bytes`` (valid bytes, the first ones: 16 but on the last block),
                 ``last``: the AD blocks of the message; bytes past ``bytes`` are ignored (masked
                 to zero: GHASH's padding). No AD: one block of 0 bytes with ``last`` (a 0-byte
                 block is skipped), as the LWC front end gives one word of 0 bytes for an empty
                 segment.
din        in    ``block``, ``bytes``, ``last``, as ``ad``: the plaintext (encryption) or ciphertext
                 (decryption) blocks after the AD's last; no text: one block of 0 bytes, ``last``.
dout       out   ``block``, ``bytes``, ``last``: one per non-empty ``din`` block, din xor
                 E_K(counter) masked to its ``bytes`` (zero beyond), same ``bytes`` and ``last``.
                 ``dout`` and ``din`` transfer on the same edge (``din.ready`` follows
                 ``dout.ready``).
tag_in     in    decryption only: ``tag`` (the received tag, left-aligned), ``bytes`` (its length,
                 1..16: a truncated tag compares its first bytes). Taken with ``tag``.
tag        out   ``tag``: encryption: T = E_K(J0) xor S, all 128 bits (truncating is the front
                 end's business); decryption: 0 (the expected tag is never released: it would
                 forge any message). ``ok``: decryption: the received tag equals T's first
                 ``tag_in.bytes`` bytes; encryption: 1. Ends the message.
keyed      out   H is computed under the key last taken (the key setup is done).
=========  ====  =================================================================================

**Lengths.** The length block [len(A)]_64 || [len(C)]_64 is counted by the layer from the
``bytes`` of the blocks it took, so it cannot disagree with them (an LWC front end knows a
segment's length only segment by segment).

**Scheduling.** After ``start`` the layer issues J0, then counter blocks as fast as the core takes
them, up to ``ahead`` blocks in flight (so a pipelined core with II = 1 fills during the AD, and
keeps one block a clock), until the last ``din`` block is in sight and its key stream is issued
(none for an empty text); the results come back in order:
the first E_K(J0) (kept for the tag), then the key stream, taken only with a ``din`` block (the
core's output stream back-pressures it meanwhile). Counters issued past the last text block
have their results dropped; the next message may start meanwhile (its J0 queues behind them), a new
key waits until none is left in the core. GHASH takes the AD
blocks, then each ciphertext block on the edge it passes, then the length block; the tag is
E_K(J0) xor S as soon as both are there.

**Cycles** (amaranth.sim, tests/test_gcm_core.py prints them; start transfer to tag transfer of a
64-byte message without AD, every stream ready): aes-128/iterative (a round a clock) with
``karatsuba`` 53 (J0 and four counter blocks back to back, the last block's GHASH in the clock it
passes), with ``serial:8`` 101 (16 clocks for each of the four text blocks and the length block);
aes-128/pipelined with ``karatsuba`` 17, and 18 from one such message's start to the next. The key
setup (key transfer to ``keyed``: the key into the core, 0^128 through it) is 12 clocks on both
AES cores. Combinational paths across the layer: ``dout.valid`` follows ``din.valid``,
``din.ready`` ``dout.ready``, and the core's ``out_ready`` both.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value
from amaranth.lib import data, enum, stream, wiring
from amaranth.lib.wiring import In, Out

from cipherbench.components.ghash_mul import (DIGITS, STAGES, GhashMul, GhashMulPipelined,
                                              GhashMulSerial)
from cipherbench.errors import CipherbenchError
from cipherbench.interface import CoreInterface, CoreShape

BLOCK_BITS = 128
IV_BITS = 96
AD_LEN_BYTES_BITS = 61      # len(A) < 2^64 bits
TEXT_LEN_BYTES_BITS = 36    # len(P) <= 2^39 - 256 bits
MULTIPLIERS = ("schoolbook", "karatsuba", "karatsuba2", *(f"serial:{d}" for d in DIGITS),
               *(f"pipelined:{k}" for k in STAGES))

BLOCK_LAYOUT = data.StructLayout({"block": BLOCK_BITS, "bytes": 5, "last": 1})
START_LAYOUT = data.StructLayout({"iv": IV_BITS, "decrypt": 1})
TAG_IN_LAYOUT = data.StructLayout({"tag": BLOCK_BITS, "bytes": 5})
TAG_LAYOUT = data.StructLayout({"tag": BLOCK_BITS, "ok": 1})


def key_layout(shape: CoreShape) -> data.StructLayout:
    """The key channel's payload: the key as the block core takes it, and its length in bytes."""
    return data.StructLayout({"key": shape.key_bits, "len": shape.key_len_bits})


def gcm_signature(shape: CoreShape) -> wiring.Signature:
    """The GCM layer's interface (module docstring), seen from the layer."""
    return wiring.Signature({
        "key": In(stream.Signature(key_layout(shape))),
        "start": In(stream.Signature(START_LAYOUT)),
        "ad": In(stream.Signature(BLOCK_LAYOUT)),
        "din": In(stream.Signature(BLOCK_LAYOUT)),
        "tag_in": In(stream.Signature(TAG_IN_LAYOUT)),
        "dout": Out(stream.Signature(BLOCK_LAYOUT)),
        "tag": Out(stream.Signature(TAG_LAYOUT)),
        "keyed": Out(1),
    })


def parse_multiplier(multiplier: str) -> tuple[str, int]:
    """(structure, levels, digit or stages) of a ``multiplier`` parameter: ``("schoolbook", 0)``,
    ``("karatsuba", levels)``, ``("serial", digit)`` or ``("pipelined", stages)``; one-line error
    for an unknown name."""
    if multiplier == "schoolbook":
        return "schoolbook", 0
    if multiplier in ("karatsuba", "karatsuba2"):
        return "karatsuba", 2 if multiplier.endswith("2") else 1
    digit = multiplier.removeprefix("serial:")
    if multiplier.startswith("serial:") and digit.isdigit() and int(digit) in DIGITS:
        return "serial", int(digit)
    stages = multiplier.removeprefix("pipelined:")
    if multiplier.startswith("pipelined:") and stages.isdigit() and int(stages) in STAGES:
        return "pipelined", int(stages)
    raise CipherbenchError(f"unknown GHASH multiplier {multiplier!r}; valid: "
                           f"{', '.join(MULTIPLIERS)}")


def make_multiplier(multiplier: str) -> GhashMul | GhashMulSerial | GhashMulPipelined:
    """The GHASH multiplier a ``multiplier`` parameter names."""
    structure, n = parse_multiplier(multiplier)
    if structure == "serial":
        return GhashMulSerial(n)
    if structure == "pipelined":
        return GhashMulPipelined(n)
    return GhashMul(structure, levels=max(n, 1))


def byte_mask(count: Value) -> Value:
    """128 bits: the first ``count`` bytes (from the most significant) ones, the rest zeros."""
    return Cat(*[(count > 15 - j).replicate(8) for j in range(16)])


def _count(m: Module, blocks: Signal, tail: Signal, taken: Value) -> None:
    """A block of ``taken`` bytes counted: a whole one into ``blocks``, a short one (the last)
    into ``tail``."""
    with m.If(taken == BLOCK_BITS // 8):
        m.d.sync += blocks.eq(blocks + 1)
    with m.Else():
        m.d.sync += tail.eq(taken)


def length_block(ad_bytes: Value, text_bytes: Value) -> Value:
    """[len(A)]_64 || [len(C)]_64, the lengths in bits, from byte counts."""
    return Cat(Const(0, 3), text_bytes, Const(0, 61 - TEXT_LEN_BYTES_BITS),
               Const(0, 3), ad_bytes)


class GhashAcc(Elaboratable):
    """GHASH's accumulator Y <- (Y xor X) * H around one multiplier.

    Ports: ``h`` (in, the hash subkey), ``load`` (in: a new ``h`` this clock), ``clear`` (in:
    Y <- 0 on this edge), ``take`` (in: X enters on this edge; only when ``free``), ``last`` (in,
    with ``take``: X is the message's last block), ``x`` (in), ``free`` (out: a block may enter;
    Y is final), ``y`` (out: Y, valid when ``free``). Parallel multipliers: always free, one
    block a clock. Serial: busy 128/d clocks a block; the next may enter in the clock the product
    is done.

    Pipelined (k stages, :class:`GhashMulPipelined`): k interleaved lanes, block i in lane
    i mod k, each lane Horner's rule in H^k with the multiplier's k-clock latency as its loop:
    B <- B H^k xor X, where B H^k leaves the multiplier as the lane's next block arrives (the
    multiplier advances with the blocks taken, so stalls keep the lanes in step). The last k
    lane values are kept; after the last block Y = sum of B_s H^(s+1) over them (s = 0 the last
    block's lane), k products through the same multiplier: free again 2k + 1 clocks after the
    last block (a block waits a clock in a register before its lane takes it). The powers H^2 .. H^k are computed after ``load`` through the multiplier too, (k - 1) k
    clocks, during which the accumulator is not free.
    """

    def __init__(self, multiplier: str) -> None:
        self.mul = make_multiplier(multiplier)
        self.h = Signal(BLOCK_BITS)
        self.load = Signal()
        self.clear = Signal()
        self.take = Signal()
        self.last = Signal()
        self.x = Signal(BLOCK_BITS)
        self.free = Signal()
        self.y = Signal(BLOCK_BITS)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.mul = mul = self.mul
        if isinstance(mul, GhashMulPipelined):
            self._lanes(m, mul)
            return m
        y_reg = Signal(BLOCK_BITS, name="y_q")
        m.d.comb += [mul.a.eq(self.y ^ self.x), mul.b.eq(self.h)]
        if isinstance(mul, GhashMulSerial):
            m.d.comb += [mul.start.eq(self.take), self.free.eq(~mul.busy),
                         self.y.eq(Mux(mul.done, mul.p, y_reg))]
            with m.If(mul.done):
                m.d.sync += y_reg.eq(mul.p)
        else:
            m.d.comb += [self.free.eq(1), self.y.eq(y_reg)]
            with m.If(self.take):
                m.d.sync += y_reg.eq(mul.p)
        with m.If(self.clear):
            m.d.sync += y_reg.eq(0)
        return m

    def _lanes(self, m: Module, mul: GhashMulPipelined) -> None:
        k = mul.stages
        powers = [Signal(BLOCK_BITS, name=f"h{i + 1}_q") for i in range(k)]   # H^1 .. H^k
        lanes = [Signal(BLOCK_BITS, name=f"lane{i}_q") for i in range(k)]    # newest first
        y_reg = Signal(BLOCK_BITS, name="y_q")
        computing = Signal(name="powers_busy_q")
        known = Signal(name="powers_known_q")
        finishing = Signal(name="finishing_q")
        count = Signal(range(max(2 * k, (k - 1) * k) + 1), name="count_q")
        # The block taken waits a clock in a register, so that what chooses it (the layer's
        # phase, the byte masks, the key stream) is not in front of the multiplier's first
        # stage; the lanes follow the registered takes.
        x_q, take_q, last_q = (Signal(BLOCK_BITS, name="x_q"), Signal(name="take_q"),
                               Signal(name="last_q"))
        m.d.sync += [x_q.eq(self.x), take_q.eq(self.take), last_q.eq(self.take & self.last)]
        lane_in = Signal(BLOCK_BITS, name="lane_in")
        m.d.comb += [lane_in.eq(mul.p ^ x_q), self.y.eq(y_reg),
                     self.free.eq(known & ~computing & ~finishing & ~last_q)]
        with m.If(computing):
            # H^(i+1) leaves the multiplier at count i k; it goes in again with H, but for H^k
            # (the multiplier is left holding products of 0, which the first lanes read).
            again = (count[:(k - 1).bit_length()] == 0) & (count < (k - 1) * k)
            m.d.comb += [mul.advance.eq(1), mul.b.eq(powers[0]),
                         mul.a.eq(Mux(count == 0, powers[0], Mux(again, mul.p, 0)))]
            m.d.sync += count.eq(count + 1)
            for i in range(1, k):
                with m.If(count == i * k):
                    m.d.sync += powers[i].eq(mul.p)
            with m.If(count == (k - 1) * k):
                m.d.sync += [computing.eq(0), known.eq(1)]
        with m.Elif(finishing):
            # B_s H^(s+1) for the k newest lane values, the powers rotated through H^1's place
            # (back in order after k), the products summed as they leave.
            m.d.comb += [mul.advance.eq(1), mul.a.eq(Mux(count < k, lanes[0], 0)),
                         mul.b.eq(powers[0])]
            m.d.sync += count.eq(count + 1)
            with m.If(count < k):
                m.d.sync += [*(lanes[i].eq(lanes[i + 1]) for i in range(k - 1)), lanes[-1].eq(0),
                             *(powers[i].eq(powers[(i + 1) % k]) for i in range(k))]
            with m.Else():
                m.d.sync += y_reg.eq(y_reg ^ mul.p)
            with m.If(count == 2 * k - 1):
                m.d.sync += finishing.eq(0)
        with m.Else():
            m.d.comb += [mul.advance.eq(take_q), mul.a.eq(lane_in), mul.b.eq(powers[k - 1])]
            with m.If(take_q):
                m.d.sync += [lanes[0].eq(lane_in),
                             *(lanes[i + 1].eq(lanes[i]) for i in range(k - 1))]
                with m.If(last_q):
                    m.d.sync += [finishing.eq(1), count.eq(0), y_reg.eq(0)]
            with m.If(self.clear):
                m.d.sync += [lane.eq(0) for lane in lanes]
        with m.If(self.load):
            m.d.sync += [powers[0].eq(self.h), computing.eq(1), known.eq(0), count.eq(0)]


class Phase(enum.Enum, shape=3):
    """Where the layer is: idle; enciphering 0^128 for H; taking AD; taking text; hashing the
    length block; offering the tag."""

    IDLE = 0
    HASH_KEY = 1
    AD = 2
    TEXT = 3
    LENGTHS = 4
    TAG = 5


class _Regs:
    """The layer's registers (secworks' naming: what each holds)."""

    def __init__(self, ahead: int) -> None:
        self.phase = Signal(Phase, name="phase")
        self.keyed = Signal(name="keyed_q")
        self.h = Signal(BLOCK_BITS, name="h_q")
        self.h_new = Signal(name="h_new_q")   # H was written on the last edge
        self.iv = Signal(IV_BITS, name="iv_q")
        self.counter = Signal(32, name="counter_q")     # the low 32 bits of the next block
        # The counter's low byte is all ones: the next increment carries into the upper 24 bits
        # (known a clock ahead, so that no 32-bit carry chain is in one clock: the fast engine's
        # critical path on osu018).
        self.counter_wraps = Signal(name="counter_wraps_q")
        self.decrypt = Signal(name="decrypt_q")
        self.text_left = Signal(name="text_left_q")     # text blocks still to come
        self.zero_sent = Signal(name="zero_sent_q")     # 0^128 issued for H
        self.j0_sent = Signal(name="j0_sent_q", init=1)
        self.ek_j0_pending = Signal(name="ek_j0_pending_q")
        self.ek_j0 = Signal(BLOCK_BITS, name="ek_j0_q")
        self.in_flight = Signal(range(ahead + 1), name="in_flight_q")
        self.drop = Signal(range(ahead + 1), name="drop_q")  # a past message's results ahead
        # Byte counts as whole blocks and the last block's bytes (only a segment's last block
        # may be short, and only the AD's and the text's last one): the count is then the two
        # side by side, and a block adds one to a block count (an incrementer, not a 61-bit
        # adder of its byte count: the fast engine's critical path on osu018).
        self.ad_blocks = Signal(AD_LEN_BYTES_BITS - 4, name="ad_blocks_q")
        self.ad_tail = Signal(4, name="ad_tail_q")
        self.text_blocks = Signal(TEXT_LEN_BYTES_BITS - 4, name="text_blocks_q")
        self.text_tail = Signal(4, name="text_tail_q")


class _Stream:
    """One of the core's streams as the layer sees it: valid, ready and the payload's fields."""

    def __init__(self, name: str, **fields: int) -> None:
        self.valid = Signal(name=f"{name}_valid")
        self.ready = Signal(name=f"{name}_ready")
        for field, width in fields.items():
            setattr(self, field, Signal(width, name=f"{name}_{field}"))


class _Decoupled:
    """The core's interface with its input and output streams behind three-entry FIFOs (two do
    not keep up with a core that takes a block a clock), so that no combinational path runs from
    the layer's handshakes (which follow the front end's words) into the core's state; the key
    channel is the core's own."""

    def __init__(self, io: CoreInterface) -> None:
        self.key = io.key
        self.inp = _Stream("to_core", block=BLOCK_BITS, decrypt=1)
        self.out = _Stream("from_core", block=BLOCK_BITS)


def _decoupled(m: Module, io: CoreInterface) -> _Decoupled:
    from amaranth.lib.fifo import SyncFIFOBuffered

    view = _Decoupled(io)
    m.submodules.to_core = to_core = SyncFIFOBuffered(width=BLOCK_BITS, depth=3)
    m.submodules.from_core = from_core = SyncFIFOBuffered(width=BLOCK_BITS, depth=3)
    m.d.comb += [to_core.w_data.eq(view.inp.block), to_core.w_en.eq(view.inp.valid),
                 view.inp.ready.eq(to_core.w_rdy),
                 io.inp.valid.eq(to_core.r_rdy), io.inp.block.eq(to_core.r_data),
                 io.inp.decrypt.eq(0), to_core.r_en.eq(io.inp.ready),
                 from_core.w_data.eq(io.out.block), from_core.w_en.eq(io.out.valid),
                 io.out.ready.eq(from_core.w_rdy),
                 view.out.valid.eq(from_core.r_rdy), view.out.block.eq(from_core.r_data),
                 from_core.r_en.eq(view.out.ready)]
    return view


class GcmCore(wiring.Component):
    """GCM over ``block_core`` (a 128-bit core of the common interface, kept unchanged as the
    submodule ``core``), with the GHASH ``multiplier`` (module docstring) and at most ``ahead``
    blocks in the core at once. Interface and protocol: the module docstring."""

    def __init__(self, block_core: Elaboratable, shape: CoreShape, multiplier: str = "karatsuba",
                 ahead: int = 64, decouple: bool = False) -> None:
        self._MustUse__silence = True   # a refused layer is never elaborated: no warning
        if shape.block_bits != BLOCK_BITS:
            raise CipherbenchError(f"GCM needs a 128-bit block core, not {shape.block_bits}-bit")
        if ahead < 1:
            raise CipherbenchError(f"ahead must be 1 or more blocks, not {ahead}")
        parse_multiplier(multiplier)
        self._MustUse__silence = False
        self.block_core, self.shape, self.multiplier, self.ahead = \
            block_core, shape, multiplier, ahead
        self.decouple = decouple
        super().__init__(gcm_signature(shape))

    def inc32(self, counter: Value, wraps: Value) -> Value:
        """inc32's low 32 bits: the counter field of the next counter block; ``wraps``: the low
        byte is all ones (a register kept beside the counter)."""
        return Cat((counter[:8] + 1)[:8], (counter[8:] + wraps)[:24])

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.core = core = self.block_core
        m.submodules.ghash = gh = GhashAcc(self.multiplier)
        r = _Regs(self.ahead)
        m.d.comb += [gh.h.eq(r.h), gh.load.eq(r.h_new), self.keyed.eq(r.keyed)]
        m.d.sync += r.h_new.eq(0)
        io = _decoupled(m, core.io) if self.decouple else core.io
        issue, result = self._key_and_issue(m, r, io)
        self._results(m, r, io, result)
        take_text = self._text(m, r, io, gh)
        self._ad_and_lengths(m, r, gh, take_text)
        self._tag(m, r, gh)
        m.d.sync += r.in_flight.eq(r.in_flight + issue - result)
        # Past the tag every block still in the core is a counter past the text: dropped, while
        # the next message's J0 queues behind them.
        with m.If(self.tag.valid & self.tag.ready):
            m.d.sync += r.drop.eq(r.in_flight - result)
        return m

    def _key_and_issue(self, m: Module, r: _Regs, io: CoreInterface) -> tuple[Value, Value]:
        """The key channel into the core, the start of a message, and the blocks the layer puts
        into the core: 0^128 for H, then J0 and the counter blocks. Returns the core's input and
        output transfers."""
        drained = (r.phase == Phase.IDLE) & (r.in_flight == 0)
        m.d.comb += [io.key.data.eq(self.key.payload.key), io.key.len.eq(self.key.payload.len),
                     io.key.valid.eq(self.key.valid & drained),
                     self.key.ready.eq(io.key.ready & drained)]
        with m.If(self.key.valid & self.key.ready):
            m.d.sync += [r.phase.eq(Phase.HASH_KEY), r.keyed.eq(0), r.zero_sent.eq(0)]

        start = self.start.payload
        m.d.comb += self.start.ready.eq((r.phase == Phase.IDLE) & r.keyed)
        with m.If(self.start.valid & self.start.ready):
            m.d.sync += [r.iv.eq(start.iv), r.counter.eq(1), r.counter_wraps.eq(0),
                         r.decrypt.eq(start.decrypt),
                         r.j0_sent.eq(0), r.ek_j0_pending.eq(1), r.text_left.eq(1),
                         r.ad_blocks.eq(0), r.ad_tail.eq(0), r.text_blocks.eq(0),
                         r.text_tail.eq(0), r.phase.eq(Phase.AD)]

        hashing_key = r.phase == Phase.HASH_KEY
        room = r.in_flight < self.ahead
        # No counter block past the last text block once that block is in sight: it is empty, or
        # the key stream it needs is in flight already (J0 not counted).
        din = self.din.payload
        last_covered = self.din.valid & din.last & \
            ((din.bytes == 0) | (r.in_flight > (r.ek_j0_pending & r.j0_sent)))
        wanted = ~r.j0_sent | (r.text_left & ~last_covered)
        m.d.comb += [io.inp.valid.eq((hashing_key & ~r.zero_sent) | (~hashing_key & room & wanted)),
                     io.inp.block.eq(Mux(hashing_key, 0, Cat(r.counter, r.iv))),
                     io.inp.decrypt.eq(0)]
        issue = io.inp.valid & io.inp.ready
        with m.If(issue & hashing_key):
            m.d.sync += r.zero_sent.eq(1)
        with m.If(issue & ~hashing_key):
            following = self.inc32(r.counter, r.counter_wraps)
            m.d.sync += [r.counter.eq(following), r.counter_wraps.eq(following[:8] == 0xFF),
                         r.j0_sent.eq(1)]
        return issue, io.out.valid & io.out.ready

    def _results(self, m: Module, r: _Regs, io: CoreInterface, result: Value) -> None:
        """The core's results in order: first those a past message left (dropped); H during the
        key setup; per message E_K(J0) first, then the key stream, taken by ``_text``; results
        past the last text block are dropped."""
        with m.If(result & (r.drop != 0)):
            m.d.sync += r.drop.eq(r.drop - 1)
        with m.Elif(result & (r.phase == Phase.HASH_KEY)):
            m.d.sync += [r.h.eq(io.out.block), r.keyed.eq(1), r.phase.eq(Phase.IDLE),
                         r.h_new.eq(1)]
        with m.Elif(result & r.ek_j0_pending):
            m.d.sync += [r.ek_j0.eq(io.out.block), r.ek_j0_pending.eq(0)]

    def _text(self, m: Module, r: _Regs, io: CoreInterface, gh: GhashAcc) -> Value:
        """``din`` xor the key stream into ``dout``, the ciphertext into GHASH; the core's output
        stream's ``ready``. Returns the edge a text block is taken."""
        din = self.din.payload
        mask = byte_mask(din.bytes)
        here = (r.phase == Phase.TEXT) & self.din.valid
        empty = here & (din.bytes == 0)   # the empty text: no key stream, no dout, no GHASH
        offer = here & (din.bytes != 0) & ~r.ek_j0_pending & io.out.valid & gh.free
        take_text = offer & self.dout.ready
        m.d.comb += [self.dout.valid.eq(offer),
                     self.dout.payload.block.eq((din.block ^ io.out.block) & mask),
                     self.dout.payload.bytes.eq(din.bytes),
                     self.dout.payload.last.eq(din.last),
                     self.din.ready.eq(take_text | empty)]
        # H and E_K(J0) are always taken; the key stream with a text block; the rest dropped.
        m.d.comb += io.out.ready.eq((r.phase == Phase.HASH_KEY) | r.ek_j0_pending
                                    | ~r.text_left | (r.drop != 0) | take_text)
        with m.If(take_text | empty):
            _count(m, r.text_blocks, r.text_tail, din.bytes)
            with m.If(din.last):
                m.d.sync += [r.text_left.eq(0), r.phase.eq(Phase.LENGTHS)]
        return take_text

    def _ad_and_lengths(self, m: Module, r: _Regs, gh: GhashAcc, take_text: Value) -> None:
        """GHASH's input: the AD blocks, the ciphertext blocks, then the length block."""
        ad = self.ad.payload
        here = (r.phase == Phase.AD) & self.ad.valid
        take_ad = here & (gh.free | (ad.bytes == 0))   # an empty block skips GHASH
        take_lengths = (r.phase == Phase.LENGTHS) & gh.free
        m.d.comb += self.ad.ready.eq(take_ad)
        din = self.din.payload
        ciphertext = Mux(r.decrypt, din.block & byte_mask(din.bytes), self.dout.payload.block)
        m.d.comb += [gh.take.eq((take_ad & (ad.bytes != 0)) | take_text | take_lengths),
                     gh.last.eq(take_lengths),
                     gh.x.eq(Mux(r.phase == Phase.AD, ad.block & byte_mask(ad.bytes),
                                 Mux(r.phase == Phase.TEXT, ciphertext,
                                     length_block(Cat(r.ad_tail, r.ad_blocks),
                                                  Cat(r.text_tail, r.text_blocks))))),
                     gh.clear.eq(self.start.valid & self.start.ready)]
        with m.If(take_ad):
            _count(m, r.ad_blocks, r.ad_tail, ad.bytes)
            with m.If(ad.last):
                m.d.sync += r.phase.eq(Phase.TEXT)
        with m.If(take_lengths):
            m.d.sync += r.phase.eq(Phase.TAG)

    def tags_match(self, tag: Value, received: Value, received_bytes: Value) -> Value:
        """Whether the ``received_bytes`` leftmost bytes of the received tag are T's (a test
        breaks one bit of this)."""
        return (received_bytes != 0) & (((tag ^ received) & byte_mask(received_bytes)) == 0)

    def _tag(self, m: Module, r: _Regs, gh: GhashAcc) -> None:
        """T = E_K(J0) xor S once S and E_K(J0) are there; a decryption waits for the received
        tag and says whether it matches (never releasing T)."""
        ready = (r.phase == Phase.TAG) & gh.free & ~r.ek_j0_pending
        tag = Signal(BLOCK_BITS, name="tag_full")
        m.d.comb += tag.eq(gh.y ^ r.ek_j0)
        received = self.tag_in.payload
        matches = self.tags_match(tag, received.tag, received.bytes)
        m.d.comb += [self.tag.valid.eq(ready & (~r.decrypt | self.tag_in.valid)),
                     self.tag.payload.tag.eq(Mux(r.decrypt, 0, tag)),
                     self.tag.payload.ok.eq(~r.decrypt | matches),
                     self.tag_in.ready.eq(ready & r.decrypt & self.tag.ready)]
        with m.If(self.tag.valid & self.tag.ready):
            m.d.sync += r.phase.eq(Phase.IDLE)
