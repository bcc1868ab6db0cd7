"""Outer-round pipelining (partial and full), inner-round pipelining and their mix.

Gaj & Chodowiec section 3.3 c-d and 3.5; the NSA's "pipelined" RIJNDAEL (seed sections 2.1.3,
5.3.1.1-2). ``stages`` round units, each a round datapath and a key step with its own pipeline
register; ``inner`` extra registers inside every round, between the cipher's named sub-round steps
(``CipherHardware.round_steps``). Each unit then spans G = inner + 1 register stages.

- full (``stages=full``, one unit per round of the longest key): one block per clock, latency R x G.
- partial (stages < R): the units form a ring and a block loops through them ceil(R/stages) times,
  so stages x G blocks are in flight (Gaj's partial outer-round pipelining; with one unit and
  inner cuts, his inner-round pipelining of the basic architecture). A block enters only when the
  slot coming round to unit 0 is free, which ``in_ready`` shows: the core takes stages x G blocks
  back to back, then one each time a finished block leaves.
- Any stages up to R works: a block leaves from the unit that computes its round R (an exit tap),
  so a count that does not divide R costs no bypass logic, and latency stays R x G.

Keys travel with the blocks (NSA 5.3.1.1): every pipeline register holds the block's key state
beside its data, every unit steps it forward (encryption) or backward (decryption), and a new key
may be loaded while blocks are in flight (``key_ready`` stays high): it applies to the blocks
accepted on later edges. The key state runs one round ahead of the data: the register in front of
the unit that computes round r holds key state r (not r-1), so the round key comes straight from a
register and the key step (r -> r+1) runs beside the round, not in front of it.

The core keeps per key: for encryption the whitening key of state 0 and state 1, both computed from
the key port on the edge the key is taken (key setup 0); for decryption the whitening key of state R
and state R-1, which a forward run-up unit (one key step) computes in the R-1 cycles after the key,
then keeps. So decryption has a key setup of R-1 cycles, but once its run-up is done every block can
have another key: the NSA's 'key setup / key agility' distinction. A new key restarts the run-up.

Registered load (``load=registered``, keys=fly only): the key state loaded from the port is first
registered, and the key step that makes the start states runs on the next clock, so the load logic
and a key step are never in series within one clock. For schedules whose load is itself about a
key step deep (Serpent: the key padded by key length, four prekey words and an S-box layer), the
direct load put both between the key port and the start-state registers and set the clock of the
whole pipeline. It costs one clock of key setup in each direction and a register of one key
state; in the clock after a key neither a block nor another key is taken.

Stored round keys (``keys=stored``, arch/keymem.py): for schedules that cannot step once per unit
(a run-up before the first round key) or whose decryption keys are not forward key states. The
round keys are computed once per key into a round-key memory (the iterative core's); in a full
pipeline each unit reads its round's two fixed entries (a 2:1 direction multiplexer), in a ring
each segment reads the memory at its block's round. A key rewrites what every unit reads, so it
is taken only with the pipe empty and no fill running (``key_ready``), and blocks wait for the
fill: key setup is the fill time in both directions, and there is no key agility. Loaded round
keys (``keys=loaded``, arch/loaded.py): the same memory written from outside through a round-key
port, no key schedule in the core.

Several key sizes (AES 3-in-1): there are as many units as the longest key has rounds (full), and a
block carries its key length, so blocks of every key size share the pipeline. A 10-round AES block
leaves from unit 9, a 14-round one from unit 13: latency is R x G for each (as the NSA's times per
key size). Results must come out in order, so a block whose latency is shorter than the remaining
latency of the youngest block in flight waits (``in_ready`` low; only after a key-size change).
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Const, Elaboratable, Module, Mux, Signal, Value

from ..errors import CipherbenchError
from ..interface import CoreInterface, CoreShape
from .base import CipherHardware, bits_for, select_by_key_len
from .keymem import RoundKeyMemory
from .keytables import key_table_fill, refuse_loaded_tables
from .loaded import LoadedKeyHarness, key_port, loaded_key_signals
from .unrolled import onehot_mux, refused


class PipeLayout:
    """Units, segments, exits and latencies of a pipeline for a cipher and its key sizes."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, stages: str, inner: str,
                 load: str = "direct") -> None:
        if load not in ("direct", "registered"):
            raise CipherbenchError(f"pipelined load={load}: must be direct or registered")
        # registered: the key state loaded from the port is registered before the key step that
        # makes the start states (one more clock of key setup; see the module docstring).
        self.registered_load = load == "registered"
        self.rounds = {size: hw.rounds(size) for size in shape.key_sizes}
        self.codes = {size: hw.key_len_code(size) for size in shape.key_sizes}
        most = max(self.rounds.values())
        if min(self.rounds.values()) < 2:
            raise CipherbenchError(f"{hw.name}: pipelines need at least 2 rounds")
        if stages == "full":
            self.units = most
        elif stages.isdigit() and 1 <= int(stages) <= most:
            self.units = int(stages)
        else:
            raise CipherbenchError(f"pipelined stages={stages}: {hw.name} has {most} rounds for "
                                   f"these key sizes; stages must be 1..{most} or full")
        boundaries = len(hw.round_steps()) - 1
        if not inner.isdigit() or int(inner) > boundaries:
            steps = " | ".join(hw.round_steps())
            raise CipherbenchError(f"pipelined inner={inner}: the {hw.name} round ({steps}) has "
                                   f"{boundaries} step boundaries to cut at; inner must be "
                                   f"0..{boundaries}")
        self.cuts = hw.round_cuts(int(inner))
        self.segments = len(self.cuts) + 1
        self.ring = self.units < most
        passes = max(-(-r // self.units) for r in self.rounds.values())
        self.pass_bits = bits_for(passes - 1)
        # The unit computing round R of each key size: where its blocks leave.
        self.exits = sorted({(r - 1) % self.units for r in self.rounds.values()})
        self.latency = {size: r * self.segments for size, r in self.rounds.items()}
        self.multi = len(self.rounds) > 1
        # Step indices run 0..R (R: the unused step after the last round) and down to -1; the
        # width keeps the wrapped -1 off every valid index.
        self.step_bits = bits_for(most)

    def select(self, key_len: Value, values: dict[int, int]) -> Value:
        return select_by_key_len(key_len, {s: Const(v) for s, v in values.items()}, self.codes)

    def unit_rounds(self, u: int) -> frozenset[int]:
        """The rounds unit u computes (one in a full pipeline; one per pass in a ring)."""
        most = max(self.rounds.values())
        return frozenset(range(u + 1, most + 1, self.units))


@dataclass
class Tag:
    """What the controller knows of the block in a pipeline register or segment."""

    valid: Value
    dec: Value
    key_len: Value
    pass_no: Value


class PipelineController(Elaboratable):
    """Valid bits and block tags of every register, exits, the handshakes and the run-up."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, io: CoreInterface,
                 lay: PipeLayout, stored: bool = False) -> None:
        self.hw = hw
        self.shape = shape
        self.io = io
        self.lay = lay
        self.stored = stored
        units, segs = range(lay.units), range(lay.segments)
        # keys=stored: the round-key memory's fill state (inputs), and each segment's round
        self.filling = Signal()
        self.keys_ready = Signal()
        # a key-table fill is running (arch/keytables.py; ``tables``: the cipher has tables)
        self.tables = hw.key_tables() is not None
        self.setup = Signal()
        self.seg_round = [[Signal(lay.step_bits, name=f"round{u}_{g}") for g in segs]
                          for u in units]
        self.key_len_reg = Signal(shape.key_len_bits)
        self.advance = Signal()
        self.take_new = Signal()   # unit 0 takes the input block (else a block coming round)
        self.want_dec = Signal()
        self.load_key = Signal()   # the key is taken from the port
        self.load_step = Signal()  # the key step makes the start states from the loaded state
        self.ru_advance = Signal()
        self.ru_index = Signal(lay.step_bits)
        self.store_dec_key = Signal()
        self.store_dec_white = Signal()
        self.exit_sel = [Signal(name=f"exit{u}") for u in lay.exits]
        self.seg_decrypt = [[Signal(name=f"dec{u}_{g}") for g in segs] for u in units]
        self.seg_last = [[Signal(name=f"last{u}_{g}") for g in segs] for u in units]
        self.seg_step = [[Signal(lay.step_bits, name=f"step{u}_{g}") for g in segs] for u in units]
        self.seg_key_len = [[Signal(shape.key_len_bits, name=f"klen{u}_{g}") for g in segs]
                            for u in units]

    def elaborate(self, platform: object) -> Module:
        m = Module()
        io, hw, lay = self.io, self.hw, self.lay
        has_dec, has_enc = hw.options.has_decrypt, hw.options.has_encrypt
        last_seg = lay.segments - 1
        regs = [[self._tag_register(u, g) for g in range(lay.segments)] for u in range(lay.units)]
        done = {u: regs[u][last_seg].valid & self._facts(regs[u][last_seg], u)[0]
                for u in lay.exits}
        out_valid = _any(list(done.values()))
        m.d.comb += [io.out.valid.eq(out_valid), self.advance.eq(~out_valid | io.out.ready)]
        m.d.comb += [sel.eq(done[u]) for sel, u in zip(self.exit_sel, lay.exits)]
        back = regs[-1][last_seg]
        recirc = back.valid & ~done.get(lay.units - 1, Const(0)) if lay.ring else Const(0)
        m.d.comb += self.take_new.eq(~recirc)

        want_dec: Value = io.inp.decrypt if (has_enc and has_dec) else Const(int(has_dec))
        m.d.comb += self.want_dec.eq(want_dec)
        ready = self.advance & ~recirc
        if self.stored:
            ready = ready & self._stored_key_handshake(m, regs)
        else:
            ready = ready & self._travelling_key_handshake(m, regs, want_dec)
        if lay.multi:
            ready = ready & self._in_order(m, io.inp.valid & io.inp.ready)
        m.d.comb += io.inp.ready.eq(ready)
        in_fire = io.inp.valid & io.inp.ready

        new = Tag(in_fire, want_dec, self._key_len_now(), Const(0, lay.pass_bits))
        for u in range(lay.units):
            for g in range(lay.segments):
                src = self._source(regs, done, u, g, new, recirc)
                last, step = self._facts(src, u)
                m.d.comb += [self.seg_decrypt[u][g].eq(src.dec), self.seg_last[u][g].eq(last),
                             self.seg_step[u][g].eq(step),
                             self.seg_key_len[u][g].eq(src.key_len),
                             self.seg_round[u][g].eq(self._round_of(src, u))]
                with m.If(self.advance):
                    m.d.sync += _assign(regs[u][g], src)
        return m

    def _travelling_key_handshake(self, m: Module, regs: list[list[Tag]],
                                  want_dec: Value) -> Value:
        """Keys travel with the blocks: a key is taken at any time; decryption waits for the
        run-up once per key. Key tables (arch/keytables.py) are one per core: with them a key is
        taken only with the pipe empty and no fill running, and blocks wait for the fill.
        A registered load steps the key on the clock after it is taken: in that clock neither a
        block (the start states are not written yet) nor another key (the one key step is busy)
        is taken. Returns the key condition of in_ready."""
        io = self.io
        have_key = Signal()
        # A direct load keeps the key idle (constant 1), so its RTL is as it was before there
        # was a choice.
        idle: Value = Const(1)
        if self.lay.registered_load:
            stepping = Signal(name="load_stepping")
            m.d.sync += stepping.eq(io.key.valid & io.key.ready)
            idle = ~stepping
        if self.tables:
            empty = ~_any([tag.valid for unit in regs for tag in unit])
            key_ready = empty & ~self.setup
            m.d.comb += io.key.ready.eq(key_ready & idle if self.lay.registered_load
                                        else key_ready)
        else:
            m.d.comb += io.key.ready.eq(idle)
        key_fire = io.key.valid & io.key.ready
        m.d.comb += [self.load_key.eq(key_fire),
                     self.load_step.eq(~idle if self.lay.registered_load else key_fire)]
        ready: Value = have_key & ~self.setup & ~key_fire if self.tables else have_key
        if self.lay.registered_load:
            ready = ready & idle
        if self.hw.options.has_decrypt:
            ready = ready & (~want_dec | self._runup(m, key_fire))
        with m.If(key_fire):
            m.d.sync += have_key.eq(1)
        return ready

    def _stored_key_handshake(self, m: Module, regs: list[list[Tag]]) -> Value:
        """Stored round keys: a key refills the memory every unit reads, so it is taken only
        with no block in flight and no fill running (no key agility); blocks wait for the fill.
        Returns the key condition of in_ready."""
        io = self.io
        empty = ~_any([tag.valid for unit in regs for tag in unit])
        filling = self.filling | self.setup
        m.d.comb += io.key.ready.eq(empty & ~filling)
        key_fire = io.key.valid & io.key.ready
        m.d.comb += self.load_key.eq(key_fire)
        return self.keys_ready & ~filling & ~key_fire

    def _round_of(self, tag: Tag, u: int) -> Value:
        """The round (1..R) the block in unit u computes."""
        if not self.lay.ring:
            return Const(u + 1, self.lay.step_bits)
        return (tag.pass_no * self.lay.units + (u + 1))[:self.lay.step_bits]

    def _key_len_now(self) -> Value:
        if self.lay.multi:
            return self.key_len_reg
        return Const(next(iter(self.lay.codes.values())), self.shape.key_len_bits)

    def _tag_register(self, u: int, g: int) -> Tag:
        """Registers for the tags that vary; constants (one key size, no ring) fold away."""
        lay, name = self.lay, f"{u}_{g}"
        return Tag(
            Signal(name=f"valid_{name}"),
            Signal(name=f"decrypt_{name}", reset_less=True),
            Signal(self.shape.key_len_bits, name=f"key_len_{name}", reset_less=True)
            if lay.multi else self._key_len_now(),
            Signal(lay.pass_bits, name=f"pass_{name}", reset_less=True)
            if lay.ring else Const(0, lay.pass_bits),
        )

    def _source(self, regs: list[list[Tag]], done: dict[int, Value], u: int, g: int, new: Tag,
                recirc: Value) -> Tag:
        """The block in segment g of unit u: the register before it, or the input/ring at 0."""
        lay = self.lay
        if g > 0:
            return regs[u][g - 1]
        if u > 0:
            prev = regs[u - 1][-1]
            leaves = done.get(u - 1, Const(0))  # a finished block goes no further
            return Tag(prev.valid & ~leaves, prev.dec, prev.key_len, prev.pass_no)
        if not lay.ring:
            return new
        back = regs[-1][-1]
        return Tag(recirc | new.valid, Mux(recirc, back.dec, new.dec),
                   Mux(recirc, back.key_len, new.key_len),
                   Mux(recirc, back.pass_no + 1, 0)[:lay.pass_bits])

    def _facts(self, tag: Tag, u: int) -> tuple[Value, Value]:
        """For the block computing unit u's round: is it round R, and the key step index (forward
        r: state r -> r+1; backward R-1-r: state R-r -> R-r-1). Folded where constant."""
        lay = self.lay
        mask = (1 << lay.step_bits) - 1
        if not lay.ring:
            r = u + 1
            last = _any([_is_size(tag.key_len, lay.codes[s], lay.multi)
                         for s, rounds in lay.rounds.items() if rounds == r])
            back = {s: (rounds - 1 - r) & mask for s, rounds in lay.rounds.items()}
            return last, Mux(tag.dec, lay.select(tag.key_len, back), r & mask)
        r_val = tag.pass_no * lay.units + (u + 1)
        total = lay.select(tag.key_len, lay.rounds)
        return r_val == total, Mux(tag.dec, total - 1 - r_val, r_val)[:lay.step_bits]

    def _runup(self, m: Module, key_fire: Value) -> Value:
        """The forward run-up to the decryption start states; returns 'decryption ready'.
        It starts with the load step (``load_step``); a registered load takes the key one clock
        before, which already stops the old key's run-up."""
        lay = self.lay
        dec_ready, active = Signal(), Signal()
        # The key length of the key being stepped: the port's, or the one taken a clock ago.
        rounds_new = lay.select(self.key_len_reg if lay.registered_load else self.io.key.len,
                                lay.rounds)
        rounds_cur = lay.select(self.key_len_reg, lay.rounds)
        # Step j produces key state j+1: R-1 and R are the decryption start states.
        with m.If(self.load_step):
            m.d.sync += [active.eq(1), self.ru_index.eq(1), dec_ready.eq(0)]
            m.d.comb += self.store_dec_key.eq(rounds_new == 2)
        if lay.registered_load:
            with m.Elif(key_fire):
                m.d.sync += [active.eq(0), dec_ready.eq(0)]
        with m.Elif(active):
            produced = self.ru_index + 1
            m.d.comb += [self.ru_advance.eq(1), self.store_dec_key.eq(produced == rounds_cur - 1),
                         self.store_dec_white.eq(produced == rounds_cur)]
            m.d.sync += self.ru_index.eq(produced)
            with m.If(produced == rounds_cur):
                m.d.sync += [active.eq(0), dec_ready.eq(1)]
        return dec_ready

    def _in_order(self, m: Module, in_fire: Value) -> Value:
        """Blocks of different key sizes have different latencies; one may enter only if it
        leaves after the youngest block in flight. ``ahead``: advances until that block is in
        its exit register."""
        lay = self.lay
        ahead = Signal(bits_for(max(lay.latency.values())))
        latency = lay.select(self.key_len_reg, lay.latency)
        with m.If(self.advance):
            with m.If(in_fire):
                m.d.sync += ahead.eq(latency - 1)
            with m.Elif(ahead != 0):
                m.d.sync += ahead.eq(ahead - 1)
        return latency > ahead


def _is_size(key_len: Value, code: int, multi: bool) -> Value:
    return key_len == code if multi else Const(1)


def _any(values: list[Value]) -> Value:
    result: Value = Const(0)
    for value in values:
        result = result | value
    return result


def _assign(reg: Tag, src: Tag) -> list[object]:
    """Register assignments for the tag fields that are registers."""
    pairs = [(reg.valid, src.valid), (reg.dec, src.dec), (reg.key_len, src.key_len),
             (reg.pass_no, src.pass_no)]
    return [r.eq(s) for r, s in pairs if isinstance(r, Signal)]


class PipelineKeySchedule(Elaboratable):
    """Start states per key, the run-up unit, and every unit's key step with the key states that
    travel beside the data."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, lay: PipeLayout) -> None:
        self.hw = hw
        self.lay = lay
        units, segs = range(lay.units), range(lay.segments)
        self.loader = hw.key_step(shape.key_len_bits, lay.step_bits)
        self.steps = [hw.segmented_key_step(shape.key_len_bits, lay.step_bits, lay.segments)
                      for _ in units]
        self.key = Signal(shape.key_bits)
        self.key_len = Signal(shape.key_len_bits)
        self.key_len_reg = Signal(shape.key_len_bits)
        self.load_key = Signal()
        self.load_step = Signal()
        self.ru_advance = Signal()
        self.ru_index = Signal(lay.step_bits)
        self.store_dec_key = Signal()
        self.store_dec_white = Signal()
        self.want_dec = Signal()
        self.take_new = Signal()
        self.advance = Signal()
        self.rk_white = Signal(hw.round_key_bits)
        self.seg_step = [[Signal(lay.step_bits, name=f"step{u}_{g}") for g in segs] for u in units]
        self.seg_backward = [[Signal(name=f"backward{u}_{g}") for g in segs] for u in units]
        self.seg_key_len = [[Signal(shape.key_len_bits, name=f"klen{u}_{g}") for g in segs]
                            for u in units]
        self.seg_rk = [[Signal(hw.round_key_bits, name=f"rk{u}_{g}") for g in segs]
                       for u in units]

    def elaborate(self, platform: object) -> Module:
        m = Module()
        start_key, white = self._start_states(m)
        m.d.comb += self.rk_white.eq(white)
        bits = self.hw.key_state_bits
        carried = [[Signal(bits, name=f"key{u}_{g}", reset_less=True)
                    for g in range(self.lay.segments)] for u in range(self.lay.units)]
        for u, step in enumerate(self.steps):
            m.submodules[f"step{u}"] = step
            m.d.comb += [step.key.eq(self.key), step.enable.eq(self.advance)]
            for g in range(self.lay.segments):
                state = self._segment_state(carried, start_key, u, g)
                m.d.comb += [
                    step.seg_state[g].eq(state), step.seg_step[g].eq(self.seg_step[u][g]),
                    step.seg_backward[g].eq(self.seg_backward[u][g]),
                    step.seg_key_len[g].eq(self.seg_key_len[u][g]),
                    self.seg_rk[u][g].eq(step.seg_rk[g]),
                ]
                # Through a unit's cuts the block keeps its key state; the unit's last register
                # takes the stepped one, for the next unit's round.
                following = step.state_out if g == self.lay.segments - 1 else state
                with m.If(self.advance):
                    m.d.sync += carried[u][g].eq(following)
        return m

    def _segment_state(self, carried: list[list[Signal]], start_key: Value, u: int,
                       g: int) -> Value:
        if g > 0:
            return carried[u][g - 1]
        if u > 0:
            return carried[u - 1][-1]
        if self.lay.ring:
            return Mux(self.take_new, start_key, carried[-1][-1])
        return start_key

    def _start_states(self, m: Module) -> tuple[Value, Value]:
        """Per key: state 1 and the whitening key of state 0 (encryption), state R-1 and the
        whitening key of state R (decryption, from the run-up). One key step serves the load (from
        the port, on the key's edge; with ``load=registered`` from the loaded state's register,
        a clock later) and the run-up (from its own register).

        The run-up is the slowest logic of a full pipeline with inner cuts (NanGate45, speed:
        about 1.0 ns, its step decode's fan-out; the pipeline's segments end by 1.0 ns at unit 0
        and 0.6-0.8 ns elsewhere). A second key step just for the load, which takes the load
        multiplexer out of the run-up, measured no faster and cost 2k GE, so the step is shared."""
        hw = self.hw
        m.submodules.loader = step = self.loader
        bits = hw.key_state_bits
        enc_key, runup = Signal(bits, reset_less=True), Signal(bits, reset_less=True)
        enc_white = Signal(hw.round_key_bits, reset_less=True)
        loaded: Value = step.loaded
        if self.lay.registered_load:
            # The loaded key state gets its own register: the load logic (Serpent: the key's
            # padding, four prekey words and an S-box layer) and the key step are then in two
            # clocks, not in series in one.
            loaded = Signal(bits, name="loaded", reset_less=True)
            with m.If(self.load_key):
                m.d.sync += [loaded.eq(step.loaded), self.key_len_reg.eq(self.key_len)]
        m.d.comb += [step.key.eq(self.key), step.backward.eq(0),
                     step.key_len.eq(Mux(self.load_key, self.key_len, self.key_len_reg)),
                     step.state_in.eq(Mux(self.load_step, loaded, runup)),
                     step.step.eq(Mux(self.load_step, 0, self.ru_index))]
        with m.If(self.load_step):
            m.d.sync += [enc_white.eq(step.rk_in), enc_key.eq(step.state_out),
                         runup.eq(step.state_out)]
            if not self.lay.registered_load:
                m.d.sync += self.key_len_reg.eq(self.key_len)
        with m.If(self.ru_advance):
            m.d.sync += runup.eq(step.state_out)
        if not hw.options.has_decrypt:
            return enc_key, enc_white
        dec_key = Signal(bits, reset_less=True)
        dec_white = Signal(hw.round_key_bits, reset_less=True)
        with m.If(self.store_dec_key):
            m.d.sync += dec_key.eq(step.state_out)
        with m.If(self.store_dec_white):
            m.d.sync += dec_white.eq(step.rk_out)
        if not hw.options.has_encrypt:
            return dec_key, dec_white
        return (Mux(self.want_dec, dec_key, enc_key), Mux(self.want_dec, dec_white, enc_white))


class StoredPipelineKeys(Elaboratable):
    """keys=stored: the round-key memory (arch/keymem.py), filled once per key, and every
    segment's round key read from it. In a full pipeline unit u always computes round u+1, so
    its keys are two fixed entries (a 2:1 direction multiplexer; for several key sizes a
    multiplexer on the key length where decryption's entry depends on R); in a ring the unit
    serves a round per pass and each segment reads the memory at its round's address."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, lay: PipeLayout,
                 loaded: bool = False) -> None:
        self.hw = hw
        self.lay = lay
        units, segs = range(lay.units), range(lay.segments)
        self.memory = RoundKeyMemory(hw, shape, lay.step_bits, fixed=not lay.ring, loaded=loaded)
        self.key = Signal(shape.key_bits)
        self.key_len = Signal(shape.key_len_bits)
        self.load_key = Signal()
        self.key_len_reg = Signal(shape.key_len_bits)
        self.filling = Signal()
        self.ready = Signal()
        self.want_dec = Signal()
        self.rk_white = Signal(hw.round_key_bits)
        self.seg_decrypt = [[Signal(name=f"dec{u}_{g}") for g in segs] for u in units]
        self.seg_key_len = [[Signal(shape.key_len_bits, name=f"klen{u}_{g}") for g in segs]
                            for u in units]
        self.seg_round = [[Signal(lay.step_bits, name=f"round{u}_{g}") for g in segs]
                          for u in units]
        self.seg_rk = [[Signal(hw.round_key_bits, name=f"rk{u}_{g}") for g in segs]
                       for u in units]

    def elaborate(self, platform: object) -> Module:
        m = Module()
        mem = self.memory
        m.d.comb += [mem.key.eq(self.key), mem.key_len.eq(self.key_len),
                     mem.load_key.eq(self.load_key), self.key_len_reg.eq(mem.key_len_reg),
                     self.filling.eq(mem.filling), self.ready.eq(mem.ready)]
        if self.lay.ring:
            self._read_by_address(m)
        else:
            self._read_fixed_entries(m)
        m.submodules.memory = mem  # after the read ports are made
        return m

    def _read_by_address(self, m: Module) -> None:
        mem, layout = self.memory, self.memory.layout
        addr, data = mem.read("white")
        m.d.comb += [addr.eq(layout.address(Const(0), self.want_dec,
                                            mem.total(self.key_len_reg))),
                     self.rk_white.eq(data)]
        for u in range(self.lay.units):
            for g in range(self.lay.segments):
                addr, data = mem.read(f"rk{u}_{g}")
                total = mem.total(self.seg_key_len[u][g])
                m.d.comb += [addr.eq(layout.address(self.seg_round[u][g],
                                                    self.seg_decrypt[u][g], total)),
                             self.seg_rk[u][g].eq(data)]

    def _read_fixed_entries(self, m: Module) -> None:
        m.d.comb += self.rk_white.eq(self._by_direction(0, self.want_dec, self.key_len_reg))
        for u in range(self.lay.units):
            for g in range(self.lay.segments):
                m.d.comb += self.seg_rk[u][g].eq(self._by_direction(
                    u + 1, self.seg_decrypt[u][g], self.seg_key_len[u][g]))

    def _by_direction(self, round_no: int, decrypt: Value, key_len: Value) -> Value:
        """Round ``round_no``'s key of the block's direction and key size."""
        mem, opts = self.memory, self.hw.options
        enc = mem.entry(round_no)
        entries = {size: mem.entry(mem.layout.decryption_entry(round_no, rounds))
                   for size, rounds in self.lay.rounds.items() if round_no <= rounds}
        codes = {size: self.lay.codes[size] for size in entries}
        dec = select_by_key_len(key_len, entries, codes) if entries else enc
        if not opts.has_decrypt:
            return enc
        if not opts.has_encrypt:
            return dec
        return Mux(decrypt, dec, enc)


class PipelineDatapath(Elaboratable):
    """Every unit's round datapath (with its inner cuts) and its output register."""

    def __init__(self, hw: CipherHardware, lay: PipeLayout) -> None:
        self.lay = lay
        units, segs = range(lay.units), range(lay.segments)
        self.rounds = [hw.cut_datapath(lay.cuts) if lay.cuts else
                       hw.unit_datapath(lay.unit_rounds(u)) for u in units]
        self.block_in = Signal(hw.block_bits)
        self.take_new = Signal()
        self.advance = Signal()
        self.rk_white = Signal(hw.round_key_bits)
        self.seg_rk = [[Signal(hw.round_key_bits, name=f"rk{u}_{g}") for g in segs] for u in units]
        self.seg_decrypt = [[Signal(name=f"dec{u}_{g}") for g in segs] for u in units]
        self.seg_last = [[Signal(name=f"last{u}_{g}") for g in segs] for u in units]
        self.exit_sel = [Signal(name=f"exit{u}") for u in lay.exits]
        self.out_block = Signal(hw.block_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        data = [Signal(len(self.block_in), name=f"data{u}", reset_less=True)
                for u in range(self.lay.units)]
        for u, rnd in enumerate(self.rounds):
            m.submodules[f"round{u}"] = rnd
            m.d.comb += [rnd.enable.eq(self.advance)]
            for g in range(self.lay.segments):
                m.d.comb += [rnd.seg_rk[g].eq(self.seg_rk[u][g]),
                             rnd.seg_decrypt[g].eq(self.seg_decrypt[u][g]),
                             rnd.seg_last[g].eq(self.seg_last[u][g])]
            if u == 0:
                m.d.comb += [rnd.block_in.eq(self.block_in), rnd.rk_white.eq(self.rk_white),
                             rnd.first.eq(self.take_new)]
                if self.lay.ring:
                    m.d.comb += rnd.state_in.eq(data[-1])
            else:
                m.d.comb += rnd.state_in.eq(data[u - 1])
            with m.If(self.advance):
                m.d.sync += data[u].eq(rnd.state_out)
        m.d.comb += self.out_block.eq(onehot_mux(list(self.exit_sel),
                                                 [data[u] for u in self.lay.exits]))
        return m


class PipelinedCore(Elaboratable):
    """The top: common interface, datapath, key schedule, controller."""

    def __init__(self, hw: CipherHardware, stages: str = "full", inner: str = "0",
                 keys: str = "fly", load: str = "direct") -> None:
        self.hw = hw
        self.keys = keys
        self.shape = CoreShape(hw.block_bits, tuple(sorted(hw.options.key_sizes)))
        self.loaded = keys == "loaded"
        self.io = (loaded_key_signals(hw, self.shape) if self.loaded
                   else self.shape.signature().create())
        try:
            if self.loaded:
                refuse_loaded_tables(hw)
            self.lay = PipeLayout(hw, self.shape, stages, inner, load)
            if load == "registered" and keys != "fly":
                raise CipherbenchError(f"pipelined load=registered: keys={keys} has no start "
                                       "states to load; it applies to keys=fly")
            if keys == "fly" and hw.options.has_decrypt and not hw.travelling_keys:
                # Travelling keys start decryption from forward key states (R-1 and R), which
                # a schedule whose decryption keys are its own backward walk does not give.
                raise CipherbenchError(f"pipelined keys=fly: {hw.name}'s decryption keys come "
                                       "from its schedule's backward walk, which travelling "
                                       "keys do not follow; use keys=stored (or ops=encrypt)")
        except CipherbenchError:
            refused(self)
            raise

    def simulation_harness(self, core_name: str) -> LoadedKeyHarness | None:
        """keys=loaded: the wrapper that computes and loads the round keys in simulation."""
        if not self.loaded:
            return None
        return LoadedKeyHarness(self.hw, self.shape, self.lay.step_bits, core_name)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        io, lay = self.io, self.lay
        key = key_port(io)
        stored = self.keys in ("stored", "loaded")
        ctl = PipelineController(self.hw, self.shape, io, lay, stored=stored)
        dp = PipelineDatapath(self.hw, lay)
        ks = (self._stored_keys(m, ctl) if stored else self._travelling_keys(m, ctl))
        m.submodules.controller = ctl
        m.submodules.datapath = dp
        m.d.comb += [
            ks.key.eq(key), ks.key_len.eq(io.key.len), ks.load_key.eq(ctl.load_key),
            ks.want_dec.eq(ctl.want_dec), ctl.key_len_reg.eq(ks.key_len_reg),
            dp.block_in.eq(io.inp.block), dp.take_new.eq(ctl.take_new),
            dp.advance.eq(ctl.advance), dp.rk_white.eq(ks.rk_white),
            io.out.block.eq(dp.out_block),
        ]
        m.d.comb += [a.eq(b) for a, b in zip(dp.exit_sel, ctl.exit_sel)]
        tables = key_table_fill(m, self.hw, self.shape, key, io.key.len, ctl.load_key,
                                dp.rounds)
        if tables is not None:
            m.d.comb += ctl.setup.eq(tables.filling)
        for u in range(lay.units):
            for g in range(lay.segments):
                m.d.comb += [
                    ks.seg_key_len[u][g].eq(ctl.seg_key_len[u][g]),
                    dp.seg_rk[u][g].eq(ks.seg_rk[u][g]),
                    dp.seg_decrypt[u][g].eq(ctl.seg_decrypt[u][g]),
                    dp.seg_last[u][g].eq(ctl.seg_last[u][g]),
                ]
        return m

    def _travelling_keys(self, m: Module, ctl: PipelineController) -> PipelineKeySchedule:
        ks = PipelineKeySchedule(self.hw, self.shape, self.lay)
        m.submodules.key_schedule = ks
        m.d.comb += [
            ks.load_step.eq(ctl.load_step),
            ks.ru_advance.eq(ctl.ru_advance), ks.ru_index.eq(ctl.ru_index),
            ks.store_dec_key.eq(ctl.store_dec_key), ks.store_dec_white.eq(ctl.store_dec_white),
            ks.take_new.eq(ctl.take_new), ks.advance.eq(ctl.advance),
        ]
        for u in range(self.lay.units):
            for g in range(self.lay.segments):
                m.d.comb += [ks.seg_step[u][g].eq(ctl.seg_step[u][g]),
                             ks.seg_backward[u][g].eq(ctl.seg_decrypt[u][g])]
        return ks

    def _stored_keys(self, m: Module, ctl: PipelineController) -> StoredPipelineKeys:
        ks = StoredPipelineKeys(self.hw, self.shape, self.lay, loaded=self.loaded)
        m.submodules.key_schedule = ks
        if self.loaded:
            ks.memory.write_from(m, self.io)
        m.d.comb += [ctl.filling.eq(ks.filling), ctl.keys_ready.eq(ks.ready)]
        for u in range(self.lay.units):
            for g in range(self.lay.segments):
                m.d.comb += [ks.seg_decrypt[u][g].eq(ctl.seg_decrypt[u][g]),
                             ks.seg_round[u][g].eq(ctl.seg_round[u][g])]
        return ks
