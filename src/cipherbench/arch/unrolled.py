"""Loop unrolling: k rounds of combinational logic per clock (Gaj & Chodowiec section 3.3 b).

The basic iterative architecture with k round datapaths and k key steps chained between the state
register and itself: a block takes P = ceil(R/k) clocks instead of R, at a clock period a little
under k times longer (their formula (2)). Interface, blocks and key handling are the iterative
core's: round keys on the fly (the k key steps walk the schedule k steps per clock), encryption with
no key setup, and a decryption run-up, stored once per key, that also advances k steps per clock
(P cycles of key setup).

k need not divide R. The last pass then uses rem = R - (P-1)k rounds: the state register takes the
output of round unit rem-1 instead of unit k-1, and unit rem-1 does the cipher's last round. The
surplus units compute something nobody reads. This costs a multiplexer in front of the state
register (one level, not one per unit, unlike a bypass around each surplus unit); putting the
short pass at the end keeps the first pass's whitening in unit 0. A 3-in-1 core selects rem by the
key length; k may be up to the largest round count (AES 3-in-1 with k = 14: one pass for every key
size, AES-128 leaving from unit 9).
"""

from __future__ import annotations

from amaranth.hdl import Const, Elaboratable, Module, Mux, Signal, Value

from ..errors import CipherbenchError
from ..interface import CoreShape
from .base import CipherHardware, bits_for, select_by_key_len
from .handshake import OneBlockController, PassCounting
from .keytables import key_table_fill


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def refused(core: Elaboratable) -> None:
    """A core refused by its parameters is never elaborated: no "created but never used" warning
    for it (Amaranth's must-use check, silenced per instance)."""
    core._MustUse__silence = True  # type: ignore[attr-defined]


def onehot_mux(select: list[Value], choices: list[Value]) -> Value:
    """AND-OR multiplexer over a one-hot select; a single choice needs no select."""
    if len(choices) == 1:
        return choices[0]
    result: Value = Const(0, len(choices[0]))
    for sel, choice in zip(select, choices):
        result = result | Mux(sel, choice, 0)
    return result


class Unrolling:
    """How k units cover the rounds of each key size: passes and the units that end them."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, k: int) -> None:
        self.k = k
        self.rounds = {size: hw.rounds(size) for size in shape.key_sizes}
        self.codes = {size: hw.key_len_code(size) for size in shape.key_sizes}
        self.passes = {size: _ceil_div(r, k) for size, r in self.rounds.items()}
        # Units whose output ends a pass: k-1, and rem-1 for the last pass of each key size.
        self.rem = {size: r - (self.passes[size] - 1) * k for size, r in self.rounds.items()}
        self.taps = sorted({k - 1} | {rem - 1 for rem in self.rem.values()})
        self.pass_bits = bits_for(max(self.passes.values()))
        # Step indices reach P*k-1 forward and go below zero backward in a short last pass;
        # the extra room keeps such unused indices off the valid ones (0..R-1).
        self.step_bits = bits_for(max(self.passes.values()) * k + k + max(self.rounds.values()))

    def select(self, key_len: Value, values: dict[int, int]) -> Value:
        return select_by_key_len(key_len, {s: Const(v) for s, v in values.items()}, self.codes)


class UnrolledKeySchedule(Elaboratable):
    """The working key state, the stored start states and k chained key steps."""

    def __init__(self, hw: CipherHardware, shape: CoreShape, plan: Unrolling) -> None:
        self.hw = hw
        self.plan = plan
        self.steps = [hw.key_step(shape.key_len_bits, plan.step_bits) for _ in range(plan.k)]
        self.key = Signal(shape.key_bits)
        self.key_len = Signal(shape.key_len_bits)
        self.load_key = Signal()
        self.start = Signal()          # a block starts: step from the stored start state
        self.start_runup = Signal()    # decryption run-up starts: step forward from the loaded key
        self.advance = Signal()        # a pass (or run-up pass) happens in this cycle
        self.backward = Signal()
        self.base = Signal(plan.step_bits)  # step index of unit 0 in this pass
        self.store_runup = Signal()    # this pass ends the run-up: keep the decryption start state
        self.key_len_reg = Signal(shape.key_len_bits)
        self.rk_white = Signal(hw.round_key_bits)
        self.rk = [Signal(hw.round_key_bits, name=f"rk{j}") for j in range(plan.k)]

    def elaborate(self, platform: object) -> Module:
        m = Module()
        hw, plan = self.hw, self.plan
        state = Signal(hw.key_state_bits)
        enc_start = Signal(hw.key_state_bits)
        dec_start = Signal(hw.key_state_bits) if hw.options.has_decrypt else None
        source: Value = Mux(self.start_runup, enc_start, state)
        if dec_start is not None:
            source = Mux(self.start & self.backward, dec_start, Mux(self.start, enc_start, source))
        else:
            source = Mux(self.start, enc_start, source)
        prev = source
        for j, step in enumerate(self.steps):
            m.submodules[f"step{j}"] = step
            m.d.comb += [
                step.key.eq(self.key), step.key_len.eq(self.key_len_reg),
                step.state_in.eq(prev), step.backward.eq(self.backward),
                step.step.eq(Mux(self.backward, self.base - j, self.base + j)),
                self.rk[j].eq(step.rk_out),
            ]
            prev = step.state_out
        m.d.comb += self.rk_white.eq(self.steps[0].rk_in)
        with m.If(self.load_key):
            m.d.comb += [step.key_len.eq(self.key_len) for step in self.steps]
            m.d.sync += [enc_start.eq(self.steps[0].loaded), self.key_len_reg.eq(self.key_len)]
        with m.If(self.advance):
            # Only a block's next pass reads this, so a short last pass needs no tap here.
            m.d.sync += state.eq(self.steps[-1].state_out)
        if dec_start is not None:
            # The run-up ends on unit rem-1 of its last pass: key state R exactly.
            ends = {size: self.steps[rem - 1].state_out for size, rem in plan.rem.items()}
            with m.If(self.store_runup):
                m.d.sync += dec_start.eq(select_by_key_len(self.key_len_reg, ends, plan.codes))
        return m


class UnrolledDatapath(Elaboratable):
    """The state register and k chained rounds; the register takes the unit that ends the pass."""

    def __init__(self, hw: CipherHardware, plan: Unrolling) -> None:
        self.plan = plan
        most = max(plan.rounds.values())
        # Unit j computes rounds j+1, j+1+k, ... of a block.
        self.rounds = [hw.unit_datapath(frozenset(range(j + 1, most + 1, plan.k)))
                       for j in range(plan.k)]
        self.block_in = Signal(hw.block_bits)
        self.first = Signal()
        self.last = [Signal(name=f"last{j}") for j in range(plan.k)]
        self.tap = [Signal(name=f"tap{t}") for t in plan.taps]  # one-hot over plan.taps
        self.decrypt = Signal()
        self.advance = Signal()
        self.rk_white = Signal(hw.round_key_bits)
        self.rk = [Signal(hw.round_key_bits, name=f"rk{j}") for j in range(plan.k)]
        self.state = Signal(hw.block_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        prev: Value = self.state
        for j, rnd in enumerate(self.rounds):
            m.submodules[f"round{j}"] = rnd
            m.d.comb += [rnd.state_in.eq(prev), rnd.decrypt.eq(self.decrypt),
                         rnd.last.eq(self.last[j]), rnd.rk.eq(self.rk[j])]
            if j == 0:
                # Only the first unit whitens; the others' first/block_in stay constant zero.
                m.d.comb += [rnd.block_in.eq(self.block_in), rnd.first.eq(self.first),
                             rnd.rk_white.eq(self.rk_white)]
            prev = rnd.state_out
        outputs = [self.rounds[t].state_out for t in self.plan.taps]
        with m.If(self.advance):
            m.d.sync += self.state.eq(onehot_mux(list(self.tap), outputs))
        return m


class UnrolledCounting(PassCounting):
    """The unrolled core's numbers (arch/handshake.py): P passes of k rounds; the counter
    (``pass_no``) holds the pass being computed, 0..P-1, and unit 0 of pass p steps from key state
    p*k forward or R-1-p*k backward. Also the outputs that follow from the last pass: which unit
    does the cipher's last round (``last``) and which unit the state register takes (``tap``)."""

    count_name, first_count = "pass_no", 0
    step_name, final_name = "base", "final"

    def __init__(self, plan: Unrolling) -> None:
        self.plan = plan
        self.count_bits = plan.pass_bits
        self.step_bits = plan.step_bits
        self.last = [Signal(name=f"last{j}") for j in range(plan.k)]
        self.tap = [Signal(name=f"tap{t}") for t in plan.taps]

    def limits(self, m: Module, ctl: OneBlockController) -> tuple[Value, Value]:
        plan = self.plan
        passes = Signal(plan.pass_bits)
        rounds = Signal(bits_for(max(plan.rounds.values())))
        rem = Signal(bits_for(plan.k))
        m.d.comb += [passes.eq(plan.select(ctl.key_len_reg, plan.passes)),
                     rounds.eq(plan.select(ctl.key_len_reg, plan.rounds)),
                     rem.eq(plan.select(ctl.key_len_reg, plan.rem))]
        self._pass_outputs(m, ctl.final, rem)
        return passes, rounds

    def last_pass(self, count: Value, passes: Value) -> Value:
        return count == passes - 1

    def ends(self, ctl: OneBlockController, count: Value, passes: Value) -> Value:
        return ctl.final

    def block_step(self, direction: Value, count: Value, rounds: Value) -> Value:
        k = self.plan.k
        return Mux(direction, rounds - 1 - count * k, count * k)

    def runup_step(self, count: Value) -> Value:
        return count * self.plan.k

    def _pass_outputs(self, m: Module, final: Value, rem: Value) -> None:
        """Which unit does the cipher's last round, and which unit the state register takes."""
        plan = self.plan
        ends = set(plan.rem.values())
        for j, last in enumerate(self.last):
            # Folded in Python: units that never end a block get a constant 0.
            m.d.comb += last.eq(final & (rem == j + 1) if j + 1 in ends else 0)
        for t, tap in zip(plan.taps, self.tap):
            ends_here = rem == t + 1 if t + 1 in ends else Const(0)
            full = Const(int(t == plan.k - 1))
            m.d.comb += tap.eq(Mux(final, ends_here, full))


class UnrolledCore(Elaboratable):
    """The top: common interface, datapath, key schedule, controller."""

    def __init__(self, hw: CipherHardware, k: str = "2") -> None:
        self.hw = hw
        self.shape = CoreShape(hw.block_bits, tuple(sorted(hw.options.key_sizes)))
        self.io = self.shape.signature().create()
        most = max(hw.rounds(size) for size in self.shape.key_sizes)
        if not k.isdigit() or not 1 <= int(k) <= most:
            refused(self)
            raise CipherbenchError(f"unrolled k={k}: {hw.name} has at most {most} rounds for "
                                   f"these key sizes; k must be 1..{most}")
        self.plan = Unrolling(hw, self.shape, int(k))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        io, plan = self.io, self.plan
        counting = UnrolledCounting(plan)
        ctl = OneBlockController(self.hw, self.shape, io, counting)
        dp = UnrolledDatapath(self.hw, plan)
        ks = UnrolledKeySchedule(self.hw, self.shape, plan)
        m.submodules.controller = ctl
        m.submodules.datapath = dp
        m.submodules.key_schedule = ks
        m.d.comb += [
            ks.key.eq(io.key.data), ks.key_len.eq(io.key.len),
            ks.load_key.eq(ctl.load_key), ks.start.eq(ctl.start),
            ks.start_runup.eq(ctl.start_runup), ks.advance.eq(ctl.advance),
            ks.backward.eq(ctl.backward), ks.base.eq(ctl.step),
            ks.store_runup.eq(ctl.store_runup),
            dp.block_in.eq(io.inp.block), dp.first.eq(ctl.first), dp.decrypt.eq(ctl.decrypt),
            dp.advance.eq(ctl.data_advance), dp.rk_white.eq(ks.rk_white),
            io.out.block.eq(dp.state), ctl.key_len_reg.eq(ks.key_len_reg),
        ]
        m.d.comb += [a.eq(b) for a, b in zip(dp.last, counting.last)]
        m.d.comb += [a.eq(b) for a, b in zip(dp.tap, counting.tap)]
        m.d.comb += [a.eq(b) for a, b in zip(dp.rk, ks.rk)]
        tables = key_table_fill(m, self.hw, self.shape, io.key.data, io.key.len, ctl.load_key,
                                dp.rounds)
        if tables is not None:
            m.d.comb += ctl.setup.eq(tables.filling)
        return m
