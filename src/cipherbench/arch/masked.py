"""Masked cores (issue 31): a cipher's datapath with every secret value held as d + 1 shares,
the non-linear layer built from the DOM gadgets (components/masked/), fresh randomness on a port.

The generic part is what every masked core shares, whatever the cipher:

- **Ports** (``MaskedPorts``). The key, the input block and the output block each come as d + 1
  plain ports, one per share (``key_s0`` .. ``key_s<d>``, ``in_block_s<k>``, ``out_block_s<k>``;
  the value is the XOR of its shares), so a leakage assessment can drive every share on its own
  port (leakage/driver.py). ``rnd`` carries the fresh random bits, ``bits_per_clock`` of them in
  every clock (the gadgets are pipelined and read their bits in every clock). One input channel
  carries the key shares with the block shares (``in_valid``/``in_ready``): a masked core takes a
  freshly shared key with every block and keeps nothing of it afterwards (its key register ends a
  block at the last round key), as the published compact masked AES cores do; re-sharing the key
  per block also means the key's shares in the core never stay the same across blocks. The
  output channel is ``out_valid``/``out_ready`` as in the common interface; a streaming core
  (``Stream``) takes and gives chunks instead, one per clock, and its output has no
  ``out_ready``.
- **Control** (``MaskedController``): the narrow architecture's (segment, round, step)
  counters (arch/narrow.py), driven by the one input channel: a block (with its key) is loaded on
  its transfer, the cipher's ``main`` segments compute it, ``out_valid`` rises when they end.
- **Harness** (``MaskedHarness``): the common interface outside, the core inside (by module name,
  manifest ``simulation``), so ``cipherbench verify`` and every flow's netlist simulation drive it
  like any core while the flows measure the core alone. It keeps the key it was given, shares the
  key and each block afresh with d random masks (shares 0 .. d-1 random, share d the value XOR
  them) when it hands a block to the core, feeds ``rnd`` in every clock and XORs the output
  shares. The masks and ``rnd`` come from a seeded PRNG in hardware (``XorshiftBank``: 64-bit
  xorshift generators), which stands for a real core's TRNG-seeded PRNG: its statistical quality is
  not the point, only that the core is correct whatever bits it gets. ``prng=zero`` ties every
  mask and random bit to 0 (the shares are then the value and zeros): the output must still be
  right.

A cipher gives the datapath (``hw.masked_datapath(width, shares, flaw)`` returning a
``MaskedDatapath``, on the hardware description ``CipherInfo.arch_hardware["masked"]`` builds), as
it gives narrow datapaths: which slice of the state meets which masked S-box, and when the key
schedule borrows it, is the design. ``flaw`` builds the deliberately broken variants for the
leakage assessment (``register``: every DOM multiplier compressed before its register;
``reuse``: one multiplier of each S-box reading another's random bits). They compute the same
function, so they pass every check here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from amaranth.hdl import (Cat, ClockSignal, Const, Elaboratable, Instance, Module, Mux,
                          ResetSignal, Signal, Value)

from ..errors import CipherbenchError
from ..interface import CoreShape
from .base import CipherHardware
from .narrow import NarrowController, Program, segment_codes

FLAWS = ("none", "register", "reuse")
PRNG_CHOICES = ("1", "2", "3", "zero")
CORE_INSTANCE = "core"   # the core's instance name in the harness (power reads its scope)
XORSHIFT_BITS = 64


@dataclass(frozen=True)
class Stream:
    """Key, block and result as chunks of whole bytes, one chunk per clock, for a core whose
    registers then need no parallel load and no hold (ciphers/aes/masked/byte_serial.py).

    ``in_order[j]``: the bytes (indices in the standard order, byte 0 the most significant) of
    the key and of the block that input chunk j carries, its most significant byte first; chunk 0
    is taken on the transfer's edge (``in_valid``/``in_ready``), chunk j on the j-th edge after
    it, and the core's program loads the later ones itself. ``out_order[j]``: the bytes of the
    result in output chunk j; the core raises ``out_valid`` for ``len(out_order)`` consecutive
    clocks, one chunk each, and has no ``out_ready``: whoever reads it takes them as they come
    (the harness collects them)."""

    in_order: tuple[tuple[int, ...], ...]
    out_order: tuple[tuple[int, ...], ...]

    @property
    def in_bits(self) -> int:
        return 8 * len(self.in_order[0])

    @property
    def out_bits(self) -> int:
        return 8 * len(self.out_order[0])


def byte_chunks(value: Value, order: Sequence[tuple[int, ...]]) -> list[Value]:
    """The chunks of a standard-order value (byte 0 most significant) in a stream's order."""
    count = len(value) // 8
    parts = [value[8 * (count - 1 - b):8 * (count - b)] for b in range(count)]
    return [Cat(*reversed([parts[b] for b in chunk])) for chunk in order]


def share_names(port: str, shares: int) -> list[str]:
    """The port names of a shared value: ``<port>_s0`` .. ``<port>_s<d>``."""
    return [f"{port}_s{k}" for k in range(shares)]


def xor_all(values: Sequence[Value]) -> Value:
    result = values[0]
    for value in values[1:]:
        result = result ^ value
    return result


class MaskedPorts:
    """The ports of a masked core (module docstring), in the order the Verilog and the manifest
    list them; ``port_list`` and ``ports`` as interface.py's ``CoreInterface`` has them."""

    def __init__(self, *, block_bits: int, key_bits: int, shares: int, random_bits: int,
                 decrypt_port: bool, stream: Stream | None = None) -> None:
        self.shares, self.stream = shares, stream
        if stream is not None:
            key_bits = block_bits = stream.in_bits
        out_bits = stream.out_bits if stream is not None else block_bits
        self.key = [Signal(key_bits, name=n) for n in share_names("key", shares)]
        self.in_block = [Signal(block_bits, name=n) for n in share_names("in_block", shares)]
        self.in_decrypt = Signal(name="in_decrypt") if decrypt_port else None
        self.in_valid = Signal(name="in_valid")
        self.in_ready = Signal(name="in_ready")
        self.out_block = [Signal(out_bits, name=n) for n in share_names("out_block", shares)]
        self.out_valid = Signal(name="out_valid")
        # A streaming core's output has no back-pressure (Stream).
        self.out_ready = Signal(name="out_ready") if stream is None else None
        self.rnd = Signal(random_bits, name="rnd") if random_bits else None

    def _flat(self) -> list[tuple[str, Signal]]:
        """(direction seen from the core, signal) per port."""
        ports: list[tuple[str, Signal]] = [("in", s) for s in self.key + self.in_block]
        if self.in_decrypt is not None:
            ports.append(("in", self.in_decrypt))
        ports += [("in", self.in_valid), ("out", self.in_ready)]
        ports += [("out", s) for s in self.out_block]
        ports.append(("out", self.out_valid))
        if self.out_ready is not None:
            ports.append(("in", self.out_ready))
        if self.rnd is not None:
            ports.append(("in", self.rnd))
        return ports

    def port_list(self) -> list[Signal]:
        return [sig for _, sig in self._flat()]

    def ports(self) -> list[dict[str, object]]:
        return [{"name": "clk", "dir": "in", "width": 1},
                {"name": "rst", "dir": "in", "width": 1},
                *({"name": sig.name, "dir": d, "width": len(sig)} for d, sig in self._flat())]


class MaskedDatapath(Elaboratable):
    """What a cipher gives the masked architecture: its registers (as shares), its masked S-boxes
    and their schedule. Subclasses build them in ``elaborate`` and decode the controller's
    counters, as a narrow datapath does (arch/narrow.py: ``programs``, ``codes``, ``running``).

    Inputs: ``key`` and ``block_in`` (lists of shares), ``load`` (a block and its key are taken
    this clock), ``decrypt``, ``active``, ``segment``, ``round``, ``step``, ``last_round``,
    ``segment_end`` (as NarrowDatapath's), ``random`` (``random_bits`` fresh bits, every clock).
    Output: ``block_out`` (shares; the result once the main segments have ended). A streaming
    datapath (``stream``, see Stream) takes chunks on ``key``/``block_in`` (chunk 0 with
    ``load``, the later ones in its own load clocks), gives chunks on ``block_out`` and drives
    ``out_valid`` itself."""

    def __init__(self, *, shares: int, block_bits: int, key_bits: int, random_bits: int,
                 width: int, stream: Stream | None = None) -> None:
        self.shares, self.width, self.stream = shares, width, stream
        self.block_bits, self.key_bits, self.random_bits = block_bits, key_bits, random_bits
        in_key, in_block = (stream.in_bits, stream.in_bits) if stream else (key_bits, block_bits)
        out_bits = stream.out_bits if stream else block_bits
        self.key = [Signal(in_key, name=f"key_in_s{k}") for k in range(shares)]
        self.block_in = [Signal(in_block, name=f"block_in_s{k}") for k in range(shares)]
        self.load = Signal()
        self.decrypt = Signal()
        self.active = Signal()
        self.segment = Signal(8)
        self.round = Signal(8)
        self.step = Signal(8)
        self.last_round = Signal()
        self.segment_end = Signal()
        self.block_out = [Signal(out_bits, name=f"block_out_s{k}") for k in range(shares)]
        self.out_valid = Signal()   # a streaming datapath's output chunk is valid (Stream)
        self.random = Signal(max(random_bits, 1))
        self.key_schedule: Elaboratable | None = None

    def programs(self) -> dict[bool, Program]:
        """The program of each direction the core has (False: encrypt)."""
        raise NotImplementedError

    def sbox_evaluations(self) -> int:
        """Masked S-box evaluations a block needs (data and key schedule), for the manifest."""
        raise NotImplementedError

    def bits_per_evaluation(self) -> int:
        """Fresh bits one S-box evaluation reads."""
        raise NotImplementedError

    def describe(self) -> dict[str, object]:
        return {}

    def codes(self) -> dict[str, int]:
        """Segment name -> the value ``segment`` carries while it runs (order of first use)."""
        return segment_codes(self.programs(), with_setup=False)

    def running(self, name: str) -> Value:
        return self.active & (self.segment == self.codes()[name])

    def uses(self, name: str) -> bool:
        return name in self.codes()


class MaskedController(NarrowController):
    """The narrow controller's counters, driven by the masked core's one input channel: a block
    and its key are loaded on their transfer; no key is kept, so there is no key channel, no
    setup and no run-up kept across blocks (a cipher that needs one runs it as ``pre``)."""

    def __init__(self, dp: MaskedDatapath, hw: CipherHardware, shape: CoreShape,
                 io: MaskedPorts) -> None:
        super().__init__(dp, hw, shape, io)  # type: ignore[arg-type]
        if self.table.setup_start:
            raise CipherbenchError(f"{hw.name}: a masked datapath has no setup segments")

    def elaborate(self, platform: object) -> Module:
        m = Module()
        io, dp, table = self.io, self.dp, self.table
        assert isinstance(io, MaskedPorts)
        running, done = Signal(), Signal()
        slot = Signal(self.slot_bits)
        rnd = Signal(self.round_bits)
        step = Signal(self.step_bits)
        has = {d: d in table.block_start for d in (False, True)}
        direction = Signal(init=int(not has[False]))
        want_dec = io.in_decrypt if io.in_decrypt is not None else Const(int(has[True]), 1)
        if io.out_ready is None:
            # Streaming: the datapath gives its chunks in its own clocks, nobody waits.
            m.d.comb += [io.in_ready.eq(~running), io.out_valid.eq(dp.out_valid)]
            out_fire: Value = Const(0, 1)
        else:
            m.d.comb += [io.in_ready.eq(~running & (~done | io.out_ready)),
                         io.out_valid.eq(done)]
            out_fire = io.out_valid & io.out_ready
        in_fire = io.in_valid & io.in_ready

        last_round, last_step, end_round = Signal(), Signal(), Signal()
        m.d.comb += [
            dp.load.eq(in_fire), dp.decrypt.eq(Mux(running, direction, want_dec)),
            dp.active.eq(running), dp.round.eq(rnd), dp.step.eq(step),
            dp.last_round.eq(last_round), dp.segment_end.eq(running & last_round & last_step),
        ]
        with m.If(in_fire):
            m.d.sync += [running.eq(1), rnd.eq(0), direction.eq(want_dec)]
            for d in (False, True):
                if has[d]:
                    with m.If(want_dec == int(d)):
                        self._start(m, slot, step, table.block_start[d])
        with m.Elif(running & end_round):
            m.d.sync += [rnd.eq(rnd + 1), step.eq(0)]
        with m.Elif(running):
            m.d.sync += step.eq(step + 1)
        with m.If(out_fire):
            m.d.sync += done.eq(0)
        self._decode_slot(m, slot, rnd, step, running, done, {}, direction,
                          last_round, last_step, end_round)
        return m


class MaskedCore(Elaboratable):
    """The top: the masked ports, the cipher's masked datapath (and key schedule), the
    controller; ``simulation_harness`` gives the wrapper with the common interface."""

    def __init__(self, hw: CipherHardware, width: str = "8", shares: str = "2",
                 flaw: str = "none", prng: str = "1") -> None:
        self.hw = hw
        self.shape = CoreShape(hw.block_bits, tuple(sorted(hw.options.key_sizes)))
        self.share_count, self.flaw, self.prng = int(shares), flaw, prng
        if flaw not in FLAWS:
            raise CipherbenchError(f"flaw={flaw!r}; valid: {', '.join(FLAWS)}")
        if prng not in PRNG_CHOICES:
            raise CipherbenchError(f"prng={prng!r}; valid: {', '.join(PRNG_CHOICES)}")
        if flaw != "none" and self.share_count < 2:
            raise CipherbenchError(f"flaw={flaw} breaks the masking of shares >= 2; with shares=1 "
                                   "there is none to break")
        make = getattr(hw, "masked_datapath", None)
        if make is None or len(self.shape.key_sizes) != 1:
            # Refused before anything was built (no Amaranth warning about an unused core).
            setattr(self, "_MustUse__used", True)
            if make is None:
                raise CipherbenchError(f"{hw.name} has no masked datapath")
            raise CipherbenchError(f"a masked {hw.name} core takes one key size; name it, e.g. "
                                   f"{hw.name}-{self.shape.key_sizes[0]}/masked")
        try:
            self.datapath = make(int(width), self.share_count, flaw)
        except CipherbenchError:
            setattr(self, "_MustUse__used", True)
            raise
        if not isinstance(self.datapath, MaskedDatapath):
            raise CipherbenchError(f"{hw.name}: masked_datapath must return a MaskedDatapath")
        dp = self.datapath
        both = hw.options.has_encrypt and hw.options.has_decrypt
        self.io = MaskedPorts(block_bits=hw.block_bits, key_bits=self.shape.key_bits,
                              shares=self.share_count, random_bits=dp.random_bits,
                              decrypt_port=both, stream=dp.stream)
        # The manifest's structural facts are this core's (as NarrowCore does).
        setattr(hw, "describe", self.describe)

    def interval(self) -> int:
        """Clocks from a block's transfer to the next one's, when nothing waits: the longest
        direction's program."""
        bits = self.shape.key_sizes[0]
        return max(p.interval(bits) for p in self.datapath.programs().values())

    def randomness(self) -> dict[str, object]:
        dp = self.datapath
        per_clock = dp.random_bits
        return {
            "port": "rnd" if per_clock else None,
            "bits_per_clock": per_clock,
            # What the PRNG delivers while a block occupies the core: bits_per_clock in every
            # clock from the block's transfer to the next one's.
            "bits_per_block": per_clock * self.interval(),
            # What the S-box evaluations of a block actually read (the rest falls on idle
            # pipeline stages): the minimum a PRNG gated by the schedule would deliver.
            "bits_per_evaluation": dp.bits_per_evaluation(),
            "sbox_evaluations_per_block": dp.sbox_evaluations(),
            "bits_used_per_block": dp.bits_per_evaluation() * dp.sbox_evaluations(),
        }

    def describe(self) -> dict[str, object]:
        n = self.share_count
        stream = self.datapath.stream
        return {
            **self.datapath.describe(),
            "io": "parallel" if stream is None else {
                "chunk_bits": stream.in_bits, "in_order": [list(c) for c in stream.in_order],
                "out_order": [list(c) for c in stream.out_order],
                "protocol": "input chunk j on the j-th edge from the transfer's; out_valid for "
                            "one chunk per clock, no out_ready"},
            "masking": {
                "shares": n, "order": n - 1, "scheme": "DOM-indep" if n > 1 else "none",
                "flaw": self.flaw,
                "share_ports": {"key": share_names("key", n),
                                "in_block": share_names("in_block", n),
                                "out_block": share_names("out_block", n)},
                "layout": "each value is the XOR of its share ports; the harness gives shares "
                          "0..d-1 random and share d the value XOR them, fresh for every block",
            },
            "randomness": self.randomness(),
        }

    def elaborate(self, platform: object) -> Module:
        m = Module()
        dp, io = self.datapath, self.io
        m.submodules.controller = MaskedController(dp, self.hw, self.shape, io)
        m.submodules.datapath = dp
        if dp.key_schedule is not None:
            m.submodules.key_schedule = dp.key_schedule
        m.d.comb += [a.eq(b) for a, b in zip(dp.key, io.key, strict=True)]
        m.d.comb += [a.eq(b) for a, b in zip(dp.block_in, io.in_block, strict=True)]
        m.d.comb += [a.eq(b) for a, b in zip(io.out_block, dp.block_out, strict=True)]
        if io.rnd is not None:
            m.d.comb += dp.random.eq(io.rnd)
        return m

    def simulation_harness(self, core_name: str) -> MaskedHarness:
        return MaskedHarness(self.shape, self.io, core_name, self.prng)


def xorshift64(x: Value) -> Value:
    """One step of Marsaglia's xorshift64 (13, 7, 17): full period 2^64 - 1 on nonzero states."""
    a = x ^ (x << 13)[:XORSHIFT_BITS]
    b = a ^ (a >> 7)
    return b ^ (b << 17)[:XORSHIFT_BITS]


def seed_state(seed: int, index: int) -> int:
    """A distinct nonzero start state per generator of a bank (the constants only spread them)."""
    state = (seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xD1B54A32D192ED03) % (1 << XORSHIFT_BITS)
    return state or 1


class XorshiftBank(Elaboratable):
    """``bits`` pseudo-random bits in every clock: ceil(bits / 64) xorshift64 generators, each
    stepped once a clock, their states side by side; reset to the seed's start states. It stands
    for a TRNG-seeded PRNG; ``seed=None``: every bit stuck at 0."""

    def __init__(self, bits: int, seed: int | None) -> None:
        self.bits, self.seed = bits, seed
        self.output = Signal(max(bits, 1))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        if self.seed is None or self.bits == 0:
            return m   # output stays 0
        count = -(-self.bits // XORSHIFT_BITS)
        states = [Signal(XORSHIFT_BITS, name=f"xs{g}", init=seed_state(self.seed, g))
                  for g in range(count)]
        m.d.sync += [s.eq(xorshift64(s)) for s in states]
        m.d.comb += self.output.eq(Cat(*states)[:self.bits])
        return m


class MaskedHarness(Elaboratable):
    """The common interface outside, a masked core (module ``core_name``) inside (module
    docstring). A key transfer is taken while no block is in the core and kept here; each block
    goes to the core with a fresh sharing of that key and of the block."""

    def __init__(self, shape: CoreShape, inner: MaskedPorts, core_name: str, prng: str) -> None:
        self.shape, self.inner, self.core_name = shape, inner, core_name
        self.io = shape.signature().create()
        d = inner.shares - 1
        self.mask_bits = d * (shape.key_bits + shape.block_bits)
        self.random_bits = len(inner.rnd) if inner.rnd is not None else 0
        self.prng = XorshiftBank(self.mask_bits + self.random_bits,
                                 None if prng == "zero" else int(prng))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        io, inner, shape = self.io, self.inner, self.shape
        m.submodules.prng = prng = self.prng
        ports = {sig.name: Signal(len(sig), name=f"core_{sig.name}") for sig in inner.port_list()}
        m.submodules[CORE_INSTANCE] = self._instance(ports)

        key = Signal(shape.key_bits, reset_less=True)
        have_key = Signal()
        in_core = Signal()   # a block was handed to the core and its result not yet taken
        key_fire = io.key.valid & io.key.ready
        m.d.comb += io.key.ready.eq(~in_core)
        with m.If(key_fire):
            m.d.sync += [key.eq(io.key.data), have_key.eq(1)]

        random = prng.output
        bits = [0]

        def take(width: int) -> Value:
            start = bits[0]
            bits[0] += width
            return random[start:start + width] if self.prng.bits else Const(0, width)

        key_shares = self._sharing(key, take)
        block_shares = self._sharing(io.inp.block, take)
        if self.random_bits:
            m.d.comb += ports["rnd"].eq(take(self.random_bits))
        if inner.in_decrypt is not None:
            m.d.comb += ports["in_decrypt"].eq(io.inp.decrypt)
        out_fire = io.out.valid & io.out.ready
        # A parallel core holds its result until it is taken; a streaming core's last result is
        # held here, so no block enters before it is taken.
        free = Const(1, 1) if inner.stream is None else ~in_core | out_fire
        m.d.comb += [
            ports["in_valid"].eq(io.inp.valid & have_key & ~key_fire & free),
            io.inp.ready.eq(ports["in_ready"] & have_key & ~key_fire & free),
        ]
        in_fire = io.inp.valid & io.inp.ready
        with m.If(in_fire):
            m.d.sync += in_core.eq(1)
        with m.Elif(out_fire):
            m.d.sync += in_core.eq(0)
        names = {port: share_names(port, inner.shares) for port in ("key", "in_block",
                                                                     "out_block")}
        if inner.stream is None:
            m.d.comb += [ports[n].eq(v) for n, v in zip(names["key"], key_shares)]
            m.d.comb += [ports[n].eq(v) for n, v in zip(names["in_block"], block_shares)]
            m.d.comb += [
                io.out.block.eq(xor_all([ports[n] for n in names["out_block"]])),
                io.out.valid.eq(ports["out_valid"]), ports["out_ready"].eq(io.out.ready),
            ]
        else:
            self._stream_in(m, ports, names, key_shares, block_shares, in_fire)
            self._stream_out(m, ports, names["out_block"], out_fire)
        return m

    def _sharing(self, value: Value, take: Any) -> list[Value]:
        """Shares 0..d-1 of ``value`` from the PRNG, share d the value XOR them."""
        masks = [take(len(value)) for _ in range(self.inner.shares - 1)]
        return [*masks, xor_all([value, *masks])]

    def _stream_in(self, m: Module, ports: dict[str, Signal], names: dict[str, list[str]],
                   key_shares: list[Value], block_shares: list[Value], in_fire: Value) -> None:
        """A streaming core's input chunks: chunk 0 of this clock's fresh sharings on the
        transfer's edge, the later chunks of the same sharings (kept here) on the next edges."""
        stream = self.inner.stream
        assert stream is not None
        count = len(stream.in_order)
        chunk = Signal(range(count + 1), name="in_chunk")   # 0: no chunk pending
        with m.If(in_fire & (count > 1)):
            m.d.sync += chunk.eq(1)
        with m.Elif(chunk != 0):
            m.d.sync += chunk.eq(Mux(chunk == count - 1, 0, chunk + 1))
        for port, shares in (("key", key_shares), ("in_block", block_shares)):
            for name, value in zip(names[port], shares):
                kept = Signal(len(value), name=f"kept_{name}", reset_less=True)
                with m.If(in_fire):
                    m.d.sync += kept.eq(value)
                fresh, later = byte_chunks(value, stream.in_order), byte_chunks(kept,
                                                                                 stream.in_order)
                selected: Value = fresh[0]
                for j in range(1, count):
                    selected = Mux(chunk == j, later[j], selected)
                m.d.comb += ports[name].eq(selected)

    def _stream_out(self, m: Module, ports: dict[str, Signal], names: list[str],
                    out_fire: Value) -> None:
        """A streaming core's output chunks collected (their shares XORed) into the common
        output; the last chunk goes out in the clock it comes, and is kept if not taken."""
        stream = self.inner.stream
        assert stream is not None
        count = len(stream.out_order)
        chunk = Signal(range(count), name="out_chunk")
        full = Signal(name="out_full")
        buffer = [Signal(8, name=f"out_byte{b}", reset_less=True)
                  for b in range(self.shape.block_bits // 8)]
        live = xor_all([ports[n] for n in names])
        live_bytes = [live[8 * (len(o) - 1 - i):8 * (len(o) - i)]
                      for o in stream.out_order[:1] for i in range(len(o))]
        valid = ports["out_valid"]
        last = valid & (chunk == count - 1)
        with m.If(valid):
            m.d.sync += chunk.eq(Mux(chunk == count - 1, 0, chunk + 1))
            for j, order in enumerate(stream.out_order):
                with m.If(chunk == j):
                    m.d.sync += [buffer[b].eq(live_bytes[i]) for i, b in enumerate(order)]
        with m.If(last & ~out_fire):
            m.d.sync += full.eq(1)
        with m.Elif(out_fire):
            m.d.sync += full.eq(0)
        tail = dict(zip(stream.out_order[-1], live_bytes))
        result = [Mux(full, buffer[b], tail[b]) if b in tail else buffer[b]
                  for b in range(len(buffer))]
        m.d.comb += [io_bytes.eq(v) for io_bytes, v in zip(self._out_bytes(), result)]
        m.d.comb += self.io.out.valid.eq(full | last)

    def _out_bytes(self) -> list[Value]:
        block = self.io.out.block
        count = len(block) // 8
        return [block[8 * (count - 1 - b):8 * (count - b)] for b in range(count)]

    def _instance(self, ports: dict[str, Signal]) -> Instance:
        directions = {sig.name: d for d, sig in self.inner._flat()}
        return Instance(self.core_name, i_clk=ClockSignal(), i_rst=ResetSignal(),
                        **{("o_" if directions[n] == "out" else "i_") + n: s
                           for n, s in ports.items()})


# ---- helpers for the ciphers' masked datapaths ---------------------------------------------------


def gadget_variant(flaw: str) -> dict[str, Any]:
    """The masked gadgets' keyword arguments for a ``flaw`` (components/masked/: ``register``,
    ``randomness``)."""
    if flaw not in FLAWS:
        raise CipherbenchError(f"flaw={flaw!r}; valid: {', '.join(FLAWS)}")
    return {"register": flaw != "register", "randomness": "reuse" if flaw == "reuse" else "fresh"}


def random_bits_of(gadgets: Sequence[Any]) -> int:
    """Fresh bits per clock the gadgets read together (each its ``random_bits``; 0 unmasked)."""
    return sum(g.random_bits for g in gadgets if g.shares > 1)


def feed_random(m: Module, random: Value, gadgets: Sequence[Any]) -> None:
    """Give each gadget its own slice of the core's random bits, in order."""
    offset = 0
    for g in gadgets:
        if g.shares > 1 and g.random_bits:
            m.d.comb += g.r.eq(random[offset:offset + g.random_bits])
            offset += g.random_bits


def share_registers(name: str, width: int, shares: int) -> list[Signal]:
    """One register per share, without reset (their contents mean nothing until loaded, and a
    reset would cost a gate in front of every flip-flop), named ``<name>_s<k>``."""
    return [Signal(width, name=f"{name}_s{k}", reset_less=True) for k in range(shares)]


def one_hot_next(register: Value, choices: Sequence[tuple[Value, Value]]) -> Value:
    """A register's next value: ``value`` where its ``condition`` holds (at most one holds: the
    schedule makes them exclusive), else the register itself. Written as AND-OR terms instead of
    a chain of multiplexers so that synthesis can map a bit to one AND-OR cell (NanGate45's
    AOI222: three choices for 2.7 GE against two MUX2 for 4.7) rather than a hold multiplexer
    in front of a selection multiplexer."""
    width = len(register)
    hold: Value = Const(1, 1)
    terms: list[Value] = []
    for condition, value in choices:
        terms.append(condition.replicate(width) & value)
        hold = hold & ~condition
    terms.append(hold.replicate(width) & register)
    result = terms[0]
    for term in terms[1:]:
        result = result | term
    return result
