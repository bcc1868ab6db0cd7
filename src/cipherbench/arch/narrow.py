"""Narrow datapaths with resource sharing: a round computed in w-bit slices over several clocks
(Gaj & Chodowiec section 3.3 e; Fischer's fast / fair / minimum configurations).

The generic part is the common interface (docs/interface.md), a controller that sequences slices
and rounds, and the convention by which a cipher provides the datapath itself. A narrow datapath is
too cipher-specific to be assembled from ``RoundDatapath`` and ``KeyStep`` (which slice of the state
meets which S-box, and when the key schedule borrows it, is the design), so the cipher gives the
whole datapath and this module gives it a schedule:

- ``CipherHardware.narrow_datapath(width, keys)`` returns a ``NarrowDatapath``: the state and key
  registers and the shared components. A cipher may keep it in a subclass of its hardware
  description, declared for this architecture by ``CipherInfo.arch_hardware["narrow"]``. It is placed in the top as ``datapath``; its
  ``key_schedule`` part (if separate) as ``key_schedule``, so the per-block breakdown works.
- The datapath describes its work as a ``Program`` per direction: ``setup`` segments (key work
  once per key, before the first block of that direction is taken), ``pre`` segments (key work
  after a block is taken, e.g. a run-up of the key register), ``main`` segments (the block; its
  result is valid when they end) and ``post`` segments (key work while the result waits, e.g.
  walking the key register back). A ``Segment`` is ``rounds`` rounds of ``steps`` clocks.
- The controller counts (segment, round, step), one step per clock, and the datapath decodes them.
  When no segment runs, the datapath holds every register.

Decoding stays cheap because the counters are structured (round and step separately) and each
segment's step count is a constant the datapath chooses.

``keys`` selects what the datapath keeps of the key schedule: ``rewind`` (one key register, the
smallest core: a cipher walks it back after each block or runs it up before each) or ``stored``
(the start states kept beside it, as the iterative core does: no per-block key work; work needed
once per key runs as ``setup``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from amaranth.hdl import Const, Elaboratable, Module, Mux, Signal, Value

from ..errors import CipherbenchError
from ..interface import CoreInterface, CoreShape
from .base import CipherHardware, bits_for, select_by_key_len

KEY_MODES = ("rewind", "stored")


@dataclass(frozen=True)
class Segment:
    """``rounds`` (per key size in bits) rounds of ``steps`` clocks. Round 0 starts at
    ``first_step`` and the final round ends at ``last_step`` (default ``steps - 1``), so a
    segment can skip the parts of its first and last rounds that do nothing."""

    name: str
    rounds: Mapping[int, int]
    steps: int
    first_step: int = 0
    last_step: int | None = None

    @property
    def final_step(self) -> int:
        return self.steps - 1 if self.last_step is None else self.last_step

    def cycles(self, key_bits: int) -> int:
        """Clocks the segment takes for a key size."""
        skipped = self.first_step + (self.steps - 1 - self.final_step)
        return self.rounds[key_bits] * self.steps - skipped


def _cycles(segments: tuple[Segment, ...], key_bits: int) -> int:
    return sum(s.cycles(key_bits) for s in segments)


@dataclass(frozen=True)
class Program:
    """The segments of one direction, in the order they run."""

    main: tuple[Segment, ...]
    pre: tuple[Segment, ...] = ()
    post: tuple[Segment, ...] = ()
    setup: tuple[Segment, ...] = ()

    @property
    def block(self) -> tuple[Segment, ...]:
        """What runs for every block."""
        return self.pre + self.main + self.post

    def latency(self, key_bits: int) -> int:
        """Block accepted -> result accepted: the load clock, then pre and main."""
        return 1 + _cycles(self.pre + self.main, key_bits)

    def interval(self, key_bits: int) -> int:
        """Block accepted -> next block accepted, when nothing waits for the consumer."""
        return 1 + _cycles(self.block, key_bits)

    def key_setup(self, key_bits: int) -> int:
        """Key accepted -> first block of this direction accepted, minus one (docs/interface.md):
        none without setup segments; else the clock in which the waiting block starts them
        (the one after the key) and the segments."""
        return 1 + _cycles(self.setup, key_bits) if self.setup else 0


class NarrowDatapath(Elaboratable):
    """What a cipher gives the narrow architecture. Subclasses create their registers and shared
    components in ``elaborate`` and decode the controller's counters.

    Inputs (driven by the core): ``key``/``key_len``/``load_key`` (a key transfer this clock),
    ``block_in``/``load_block`` (a block transfer), ``start_setup`` (setup segments start on the
    next clock), ``decrypt`` (direction of the block being loaded or processed, or of the setup
    starting or running), ``active`` (a segment runs this clock),
    ``segment`` (its code, see ``codes``), ``round``, ``step``, ``last_round`` (the segment's final
    round for the stored key size), ``segment_end`` (its final clock). Output: ``block_out`` (the
    state; the result once the main segments have ended).
    """

    def __init__(self, *, width: int, block_bits: int, key_bits: int, key_len_bits: int) -> None:
        self.width = width
        self.key = Signal(key_bits)
        self.key_len = Signal(key_len_bits)
        self.load_key = Signal()
        self.block_in = Signal(block_bits)
        self.load_block = Signal()
        self.start_setup = Signal()
        self.decrypt = Signal()
        self.active = Signal()
        self.segment = Signal(8)
        self.round = Signal(8)
        self.step = Signal(8)
        self.last_round = Signal()
        self.segment_end = Signal()
        self.block_out = Signal(block_bits)
        # The key-schedule part, if the datapath keeps it in a separate Elaboratable (the core
        # places it as ``key_schedule``); its wiring to the datapath is the datapath's business.
        self.key_schedule: Elaboratable | None = None

    def programs(self) -> dict[bool, Program]:
        """The program for each direction the core has (False: encrypt, True: decrypt)."""
        raise NotImplementedError

    def describe(self) -> dict[str, object]:
        """Structural facts for the manifest (S-boxes, who shares them, cycle formulas)."""
        return {}

    def codes(self) -> dict[str, int]:
        """Segment name -> the value ``segment`` carries while it runs (order of first use)."""
        return segment_codes(self.programs(), with_setup=True)

    def running(self, name: str) -> Value:
        """1 while the named segment runs."""
        return self.active & (self.segment == self.codes()[name])


@dataclass
class _Slot:
    """One segment at one position of one direction's program."""

    segment: Segment
    code: int
    next: int | None     # slot index that follows, None at the end of its chain
    ends_main: bool      # the result is valid after this segment
    ends_setup: bool     # the direction's setup is complete after this segment


@dataclass
class _Table:
    slots: list[_Slot] = field(default_factory=list)
    block_start: dict[bool, int] = field(default_factory=dict)
    setup_start: dict[bool, int] = field(default_factory=dict)

    def chain(self, segments: tuple[Segment, ...], codes: dict[str, int], main_end: int,
              setup: bool) -> int:
        """Append the slots of one chain; return the index of its first."""
        start = len(self.slots)
        for k, seg in enumerate(segments):
            last = k + 1 == len(segments)
            self.slots.append(_Slot(seg, codes[seg.name], None if last else len(self.slots) + 1,
                                    k == main_end, setup and last))
        return start


def _slot_table(dp: NarrowDatapath) -> _Table:
    table = _Table()
    codes = dp.codes()
    for decrypt, program in sorted(dp.programs().items()):
        main_end = len(program.pre) + len(program.main) - 1
        table.block_start[decrypt] = table.chain(program.block, codes, main_end, False)
        if program.setup:
            table.setup_start[decrypt] = table.chain(program.setup, codes, -1, True)
    return table


class NarrowController(Elaboratable):
    """Handshakes and the (segment, round, step) counters. A block is loaded on its transfer; the
    counters start on the next clock; ``out_valid`` rises when the last main segment has ended
    and stays until the consumer takes the result, while ``post`` segments may still run (no new
    key or block is taken until they end). A direction with setup segments keeps ``in_ready`` low
    for its blocks until they have run once under the current key; a block of that direction
    waiting at the input starts them (the iterative core's decryption run-up, generalized)."""

    def __init__(self, dp: NarrowDatapath, hw: CipherHardware, shape: CoreShape,
                 io: CoreInterface) -> None:
        self.dp, self.hw, self.shape, self.io = dp, hw, shape, io
        self.table = _slot_table(dp)
        segs = [s.segment for s in self.table.slots]
        self.slot_bits = bits_for(len(segs) - 1)
        self.round_bits = bits_for(max(max(s.rounds[k] for k in shape.key_sizes) for s in segs))
        self.step_bits = bits_for(max(s.steps for s in segs) - 1)
        self.key_len_reg = Signal(shape.key_len_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        io, dp, table = self.io, self.dp, self.table
        has = {d: d in table.block_start for d in (False, True)}
        running, done, have_key = Signal(), Signal(), Signal()
        slot = Signal(self.slot_bits)
        rnd = Signal(self.round_bits)
        step = Signal(self.step_bits)
        direction = Signal(init=int(not has[False]))
        want_dec = io.inp.decrypt if has[False] and has[True] else Const(int(has[True]), 1)
        # Per direction with setup: it has run under the current key.
        set_up = {d: Signal(name=f"set_up_{'dec' if d else 'enc'}") for d in table.setup_start}
        needs_setup: Value = Const(0, 1)
        for d, flag in set_up.items():
            needs_setup = needs_setup | (want_dec == int(d)) & ~flag

        key_fire = io.key.valid & io.key.ready
        idle = ~running & have_key & ~key_fire
        m.d.comb += [
            io.key.ready.eq(~running & ~done),
            io.inp.ready.eq(idle & ~needs_setup & (~done | io.out.ready)),
            io.out.valid.eq(done),
        ]
        in_fire = io.inp.valid & io.inp.ready
        out_fire = io.out.valid & io.out.ready
        begin_setup = idle & io.inp.valid & needs_setup
        with m.If(key_fire):
            m.d.sync += [have_key.eq(1), self.key_len_reg.eq(io.key.len)]
            m.d.sync += [flag.eq(0) for flag in set_up.values()]

        last_round, last_step, end_round = Signal(), Signal(), Signal()
        m.d.comb += [
            dp.key.eq(io.key.data), dp.key_len.eq(io.key.len), dp.load_key.eq(key_fire),
            dp.block_in.eq(io.inp.block), dp.load_block.eq(in_fire),
            dp.start_setup.eq(begin_setup),
            dp.decrypt.eq(Mux(running, direction, want_dec)),
            dp.active.eq(running), dp.round.eq(rnd), dp.step.eq(step),
            dp.last_round.eq(last_round), dp.segment_end.eq(running & last_round & last_step),
        ]
        with m.If(in_fire | begin_setup):
            m.d.sync += [running.eq(1), rnd.eq(0), direction.eq(want_dec)]
            for d in (False, True):
                with m.If(want_dec == int(d)):
                    if has[d]:
                        self._start(m, slot, step, table.block_start[d])
                    if d in table.setup_start:
                        with m.If(begin_setup):
                            self._start(m, slot, step, table.setup_start[d])
        with m.Elif(running & end_round):
            m.d.sync += [rnd.eq(rnd + 1), step.eq(0)]
        with m.Elif(running):
            m.d.sync += step.eq(step + 1)
        with m.If(out_fire):
            m.d.sync += done.eq(0)
        # After the counting above: a segment's end overrides the round increment.
        self._decode_slot(m, slot, rnd, step, running, done, set_up, direction,
                          last_round, last_step, end_round)
        return m

    def _start(self, m: Module, slot: Signal, step: Signal, index: int) -> None:
        m.d.sync += [slot.eq(index), step.eq(self.table.slots[index].segment.first_step)]

    def _decode_slot(self, m: Module, slot: Signal, rnd: Signal, step: Signal, running: Signal,
                     done: Signal, set_up: dict[bool, Signal], direction: Signal,
                     last_round: Signal, last_step: Signal, end_round: Signal) -> None:
        """Per-slot constants (segment code, step count, round count for the key size) and the
        transitions at the end of a segment."""
        codes = {k: self.hw.key_len_code(k) for k in self.shape.key_sizes}
        with m.Switch(slot):
            for index, s in enumerate(self.table.slots):
                seg = s.segment
                with m.Case(index):
                    final_round = select_by_key_len(
                        self.key_len_reg, {k: seg.rounds[k] - 1 for k in self.shape.key_sizes},
                        codes)
                    m.d.comb += [
                        self.dp.segment.eq(s.code),
                        last_round.eq(rnd == final_round),
                        last_step.eq(step == seg.final_step),
                        end_round.eq(step == seg.steps - 1),
                    ]
                    with m.If(running & last_round & last_step):
                        self._segment_ends(m, s, slot, rnd, step, running, done, set_up,
                                           direction)

    def _segment_ends(self, m: Module, s: _Slot, slot: Signal, rnd: Signal, step: Signal,
                      running: Signal, done: Signal, set_up: dict[bool, Signal],
                      direction: Signal) -> None:
        if s.ends_main:
            m.d.sync += done.eq(1)
        if s.ends_setup:
            for d, flag in set_up.items():
                with m.If(direction == int(d)):
                    m.d.sync += flag.eq(1)
        if s.next is None:
            m.d.sync += running.eq(0)
        else:
            m.d.sync += rnd.eq(0)
            self._start(m, slot, step, s.next)


class NarrowCore(Elaboratable):
    """The top: common interface, the cipher's narrow datapath (and key schedule), controller."""

    def __init__(self, hw: CipherHardware, width: str = "32", keys: str = "rewind") -> None:
        self.hw = hw
        self.width = int(width)
        self.shape = CoreShape(hw.block_bits, tuple(sorted(hw.options.key_sizes)))
        self.io = self.shape.signature().create()
        if keys not in KEY_MODES:
            raise CipherbenchError(f"keys={keys!r}; valid: {', '.join(KEY_MODES)}")
        try:
            self.datapath = self.hw.narrow_datapath(self.width, keys)
        except CipherbenchError:
            # Refused before anything was built: Amaranth need not warn that this core, which
            # the caller never got, was never elaborated.
            setattr(self, "_MustUse__used", True)
            raise
        if not isinstance(self.datapath, NarrowDatapath):
            raise CipherbenchError(f"{hw.name}: narrow_datapath must return a NarrowDatapath")
        # The manifest takes its structural facts from the cipher description it built the core
        # from, whose describe() speaks of the full-width round (16 S-boxes for AES); this core's
        # facts are the narrow datapath's.
        setattr(hw, "describe", self.describe)

    def describe(self) -> dict[str, object]:
        return self.datapath.describe()

    def elaborate(self, platform: object) -> Module:
        m = Module()
        dp = self.datapath
        m.submodules.controller = NarrowController(dp, self.hw, self.shape, self.io)
        m.submodules.datapath = dp
        if dp.key_schedule is not None:
            m.submodules.key_schedule = dp.key_schedule
        m.d.comb += self.io.out.block.eq(dp.block_out)
        return m


def segment_codes(programs: dict[bool, Program], *, with_setup: bool) -> dict[str, int]:
    """Segment name -> the value a controller's ``segment`` carries while it runs, numbered in
    order of first use over the directions' programs (their setup segments first, if asked)."""
    names: list[str] = []
    for _, program in sorted(programs.items()):
        for seg in (program.setup if with_setup else ()) + tuple(program.block):
            if seg.name not in names:
                names.append(seg.name)
    return {name: i for i, name in enumerate(names)}

