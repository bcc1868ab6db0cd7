"""The simulation harness of a described core: the common interface (interface.py) outside, the
designer's top module inside, instantiated by name, so the one testbench, the cycle measurement
and the netlist checks drive it as they drive a generated core, and the flows measure the
designer's module alone (as with ``keys=loaded``: arch/loaded.py).

Each protocol family gets its adapter:

- ``streams``: the three channels connected through; only names, byte orders and the key-length
  code change.
- ``command``: key and block live in harness registers, held on the core's plain input ports.
  A key is taken when the core is idle; ``key_load`` is raised in the same clock (a pulse, or a
  level until the key-ready flag), and blocks wait for the flag. A block is taken when the core
  is idle, with ``start`` raised in the same clock; the result is offered on the clock ``done``
  rises, and kept in a register if the testbench is not ready for it. The next block starts on
  the clock after ``done``, or on the clock of ``done`` itself where the core has a ``busy`` flag
  that is low then; ``done`` is not looked at on the clock of ``start``.
- ``fixed-latency``: a block is taken on any clock the result buffer has room for it, and its
  result is read ``latency`` clocks later into a buffer the testbench empties at its own pace
  (the core cannot be stalled). A key-agile core gets the key with every block; any other core
  gets a new key only when no block is in flight, and blocks wait ``key_setup`` clocks after it.

The harness adds no clock to a key's or a block's path: the first clock of a command is the
clock the testbench's transfer happens on, and results are passed on the clock they appear.
"""

from __future__ import annotations

from amaranth.hdl import (Cat, ClockSignal, Const, Elaboratable, Instance, Module, Mux,
                          ResetSignal, Signal, Value)
from amaranth.lib.fifo import SyncFIFO

from ..interface import CoreShape
from .description import OUTPUT_ROLES, CoreDescription
from .ports import Port

CORE_INSTANCE = "core"


def reorder(value: Value, order: str) -> Value:
    """``value`` in the core's order: byte 0 of the standard order in the MSBs ("standard"),
    in the LSBs ("bytes-reversed"), or every bit mirrored ("bits-reversed"). Each is its own
    inverse, so the same function turns the core's output back."""
    width = len(value)
    if order == "bytes-reversed":
        return Cat(*reversed([value[i:i + 8] for i in range(0, width, 8)]))
    if order == "bits-reversed":
        return Cat(*reversed([value[i] for i in range(width)]))
    return value


class ExternalHarness(Elaboratable):
    """Common interface outside, the described core (module ``description.top``) inside."""

    def __init__(self, description: CoreDescription, ports: dict[str, Port],
                 shape: CoreShape) -> None:
        self.d = description
        self.shape = shape
        self.io = shape.signature().create()
        self.core_ports = {role: Signal(ports[name].width, name=f"core_{role}")
                           for role, name in description.ports}
        self.key_width = ports[description.port_of["key"]].width
        self.klen_width = (ports[description.key_length_port].width
                           if description.key_length_port else 0)
        self.tie_widths = {name: ports[name].width for name, _ in description.tie}

    # -- what every protocol shares

    def core_key(self) -> Value:
        """The interface's key (left-aligned, byte 0 in the MSBs) as the core's key port takes
        it: aligned to the port's MSBs or LSBs, then in the core's order."""
        io, width = self.io, self.key_width
        key_bits = self.shape.key_bits
        if self.d.key_align == "msb":
            aligned: Value = Cat(Const(0, width - key_bits), io.key.data)
        else:
            aligned = Const(0, width)
            for bits in self.shape.key_sizes:
                low = Cat(io.key.data[key_bits - bits:], Const(0, width - bits))
                aligned = Mux(io.key.len == bits // 8, low, aligned)
        return reorder(aligned, self.d.key_order)

    def key_length_code(self) -> Value:
        """The core's key-length code of the interface's key length (in bytes)."""
        code: Value = Const(0, self.klen_width)
        for bits, value in self.d.key_length_values:
            code = Mux(self.io.key.len == bits // 8, Const(value, self.klen_width), code)
        return code

    def decrypt_select(self, decrypt: Value) -> dict[str, Value]:
        """The core's direction select for ``decrypt`` (1 = decrypt): its decrypt or encrypt role."""
        ports = self.d.port_of
        if "decrypt" in ports:
            return {"decrypt": decrypt}
        if "encrypt" in ports:
            return {"encrypt": ~decrypt}
        return {}

    def instance(self, reset: Value) -> Instance:
        d = self.d
        connections: dict[str, Value] = {f"i_{d.clock}": ClockSignal()}
        if d.reset:
            connections[f"i_{d.reset}"] = ~reset if d.reset_active_low else reset
        for role, name in d.ports:
            direction = "o" if role in OUTPUT_ROLES else "i"
            connections[f"{direction}_{name}"] = self.core_ports[role]
        if d.key_length_port:
            self.klen = Signal(self.klen_width, name="core_key_length")
            connections[f"i_{d.key_length_port}"] = self.klen
        for name, value in d.tie:
            connections[f"i_{name}"] = Const(value, self.tie_widths[name])
        return Instance(d.top, **connections)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules[CORE_INSTANCE] = self.instance(ResetSignal())
        {"streams": self._streams, "command": self._command,
         "fixed-latency": self._fixed_latency}[self.d.protocol](m)
        return m

    def _drive(self, m: Module, role: str, value: Value) -> None:
        if role in self.core_ports:
            m.d.comb += self.core_ports[role].eq(value)

    def _klen(self, m: Module, value: Value) -> None:
        if self.d.key_length_port:
            m.d.comb += self.klen.eq(value)

    # -- streams

    def _streams(self, m: Module) -> None:
        io, core = self.io, self.core_ports
        order = self.d.block_order
        m.d.comb += [
            core["key"].eq(self.core_key()), core["key_valid"].eq(io.key.valid),
            io.key.ready.eq(core["key_ready"]),
            core["block_in"].eq(reorder(io.inp.block, order)),
            core["in_valid"].eq(io.inp.valid), io.inp.ready.eq(core["in_ready"]),
            io.out.block.eq(reorder(core["block_out"], order)),
            io.out.valid.eq(core["out_valid"]), core["out_ready"].eq(io.out.ready),
        ]
        self._klen(m, self.key_length_code())
        for role, value in self.decrypt_select(io.inp.decrypt).items():
            self._drive(m, role, value)

    # -- command and status

    def _command(self, m: Module) -> None:
        io, core, d = self.io, self.core_ports, self.d
        order = d.block_order
        key_reg = Signal(self.key_width)
        klen_reg = Signal(self.klen_width or 1)
        block_reg = Signal(self.shape.block_bits)
        dec_reg = Signal()
        out_reg = Signal(self.shape.block_bits)
        have_key = Signal()      # a key was given (and, with a key-ready flag, expanded)
        expanding = Signal()     # key_load given, the key-ready flag not yet seen
        running = Signal()       # start given, done not yet seen
        holding = Signal()       # a result the testbench has not taken yet

        key_flag = self._key_expanded()
        expanded_now = expanding & key_flag
        result_now = running & core["done"]
        # With a busy flag the core says itself when it takes the next command: on the clock
        # its result comes out, if the testbench takes that result on the same clock.
        free_at_done = (result_now & io.out.ready & ~core["busy"] if "busy" in core
                        else Const(0))
        core_idle = ((~running & ~holding) | free_at_done) & (~expanding | key_flag)
        key_fire = io.key.valid & io.key.ready
        in_fire = io.inp.valid & io.inp.ready
        m.d.comb += [
            io.key.ready.eq(core_idle),
            # A key offered with a block goes first: the block waits for it.
            io.inp.ready.eq(core_idle & (have_key | expanded_now) & ~io.key.valid),
        ]
        # Key and block are the transfer's own on its clock, the registers' afterwards.
        m.d.comb += core["key"].eq(Mux(key_fire, self.core_key(), key_reg))
        self._klen(m, Mux(key_fire, self.key_length_code(), klen_reg))
        m.d.comb += core["block_in"].eq(Mux(in_fire, reorder(io.inp.block, order), block_reg))
        decrypt = Mux(in_fire, io.inp.decrypt, dec_reg)
        for role, value in self.decrypt_select(decrypt).items():
            self._drive(m, role, value)
        level_load = d.key_load_style == "level"
        self._drive(m, "key_load", key_fire | (expanding & ~key_flag if level_load else 0))
        self._drive(m, "start", in_fire | (running & ~core["done"]
                                           if d.start_style == "level" else 0))
        with m.If(key_fire):
            m.d.sync += [key_reg.eq(self.core_key()), klen_reg.eq(self.key_length_code()),
                         have_key.eq("key_load" not in core), expanding.eq("key_load" in core)]
        with m.Elif(expanded_now):
            m.d.sync += [have_key.eq(1), expanding.eq(0)]
        # The result: passed on its own clock, or kept until the testbench takes it.
        result = reorder(core["block_out"], order)
        m.d.comb += [io.out.valid.eq(result_now | holding),
                     io.out.block.eq(Mux(holding, out_reg, result))]
        with m.If(result_now):
            m.d.sync += running.eq(0)
            with m.If(~io.out.ready):
                m.d.sync += [holding.eq(1), out_reg.eq(result)]
        # After the result's statements: a block started on the clock of done keeps it running.
        with m.If(in_fire):
            m.d.sync += [block_reg.eq(reorder(io.inp.block, order)), dec_reg.eq(io.inp.decrypt),
                         running.eq(1)]
        with m.If(holding & io.out.ready):
            m.d.sync += holding.eq(0)

    def _key_expanded(self) -> Value:
        """The core's key-ready flag (or its busy flag inverted); always 1 without one."""
        core = self.core_ports
        if "key_ready" in core:
            return core["key_ready"]
        if "key_busy" in core:
            return ~core["key_busy"]
        return Const(1)

    # -- fixed latency

    def _fixed_latency(self, m: Module) -> None:
        io, core, d = self.io, self.core_ports, self.d
        order, latency = d.block_order, d.latency
        # Results the testbench has not taken yet: one per block in flight, and one more so a
        # block can enter while the oldest result leaves.
        m.submodules.results = results = SyncFIFO(width=self.shape.block_bits, depth=latency + 1)
        in_flight = Signal(latency)        # bit i: a block entered i + 1 clocks ago
        outstanding = Signal(range(latency + 3))  # in flight plus buffered
        key_reg = Signal(self.key_width)
        klen_reg = Signal(self.klen_width or 1)
        settle = Signal(range(d.key_setup + 1))   # clocks left after a key change

        key_fire = io.key.valid & io.key.ready
        empty_pipeline = in_flight == 0
        room = outstanding < latency + 1
        m.d.comb += [
            io.key.ready.eq(1 if d.key_agile else empty_pipeline),
            io.inp.ready.eq(room & (settle == 0) & ~(key_fire & ~d.key_agile)),
        ]
        in_fire = io.inp.valid & io.inp.ready
        # A key is the next blocks' (the testbench may offer it with a block, which keeps the
        # key before it), so the core sees the held key only.
        m.d.comb += [core["key"].eq(key_reg), core["block_in"].eq(reorder(io.inp.block, order))]
        self._klen(m, klen_reg)
        self._drive(m, "in_valid", in_fire)
        for role, value in self.decrypt_select(io.inp.decrypt).items():
            self._drive(m, role, value)
        with m.If(key_fire):
            m.d.sync += [key_reg.eq(self.core_key()), klen_reg.eq(self.key_length_code())]
            if d.key_setup:
                m.d.sync += settle.eq(d.key_setup)
        with m.Elif(settle != 0):
            m.d.sync += settle.eq(settle - 1)
        m.d.sync += in_flight.eq(Cat(in_fire, in_flight[:-1]) if latency > 1 else in_fire)
        arriving = in_flight[latency - 1]
        result = reorder(core["block_out"], order)
        # A result goes straight out when nothing older waits and the testbench is ready.
        direct = arriving & ~results.r_rdy
        m.d.comb += [
            io.out.valid.eq(results.r_rdy | arriving),
            io.out.block.eq(Mux(results.r_rdy, results.r_data, result)),
            results.r_en.eq(io.out.ready),
            results.w_en.eq(arriving & ~(direct & io.out.ready)),
            results.w_data.eq(result),
        ]
        taken = io.out.valid & io.out.ready
        m.d.sync += outstanding.eq(outstanding + in_fire - taken)
