"""Key-dependent tables: contents the rounds read that depend on the key only, computed once per key.

Some ciphers' rounds read tables made from the key, not from the round: Twofish's key-dependent
S-boxes precomputed (the Twofish paper's "partial" and "full keying", section 4.3 and 7.2; the
NSA computed them on the fly instead, seed 000 section 5.5). A cipher that has them says so with
``CipherHardware.key_tables()`` (a ``KeyTables``: entries x lanes x lane bits) and gives a
``TableEntry``: from the key port, a *seed* (what the entries depend on, registered at key load,
so the key port is free again) and, from the seed and an index, one entry (all lanes at that
index).

``KeyTableFill`` is the once-per-key setup phase every architecture instantiates the same way: on
``load_key`` it registers the seed, then writes entry 0, 1, ... one per clock (``filling`` is
high meanwhile; the core takes no block and no other key) into
one memory per lane. A round datapath declares its reads in its constructor
(``RoundDatapath.table_read``: a lane, an address it drives, the data it gets) and the
architecture gives each an asynchronous read port (``key_table_fill``). A standard-cell flow
without memory macros maps each lane to registers and a multiplexer per read port; an FPGA to
distributed RAM. Every unit of a pipeline reads the same memories, so a pipeline holds one copy
of the tables, not one per stage.

The tables belong to one key, so a core with tables has no key agility: a new key is taken only
with no block in flight (the pipelines' travelling keys lose it), and key setup includes the fill
(``entries`` clocks) in both directions.
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Elaboratable, Module, Signal, Value, unsigned
from amaranth.lib.memory import Memory

from ..interface import CoreShape
from .base import CipherHardware, RoundDatapath, bits_for


@dataclass(frozen=True)
class KeyTables:
    """``entries`` entries of ``lanes`` lanes of ``lane_bits`` bits; ``seed_bits`` registered at
    key load are all an entry depends on."""

    entries: int
    lanes: int
    lane_bits: int
    seed_bits: int

    @property
    def entry_bits(self) -> int:
        return self.lanes * self.lane_bits


class TableEntry(Elaboratable):
    """Combinational: ``seed`` from ``key``/``key_len`` (at key load); ``entry`` (all lanes, lane
    0 least significant) at ``index`` from ``seed_in``."""

    def __init__(self, tables: KeyTables, key_bits: int, key_len_bits: int) -> None:
        self.spec = tables
        self.key = Signal(key_bits)
        self.key_len = Signal(key_len_bits)
        self.seed = Signal(tables.seed_bits)
        self.seed_in = Signal(tables.seed_bits)
        self.index = Signal(bits_for(tables.entries - 1))
        self.entry = Signal(tables.entry_bits)


class KeyTableFill(Elaboratable):
    """The tables' memories and their fill, once per key (see the module docstring). Each lane is
    a memory of ``entries`` words with one write port (the fill) and the asynchronous read ports
    the rounds ask for (``read``)."""

    def __init__(self, hw: CipherHardware, shape: CoreShape) -> None:
        spec = hw.key_tables()
        assert spec is not None, f"{hw.name} has no key tables"
        self.spec = spec
        self.entry = hw.table_entry(shape.key_len_bits)
        self.key = Signal(shape.key_bits)
        self.key_len = Signal(shape.key_len_bits)
        self.load_key = Signal()
        self.filling = Signal()
        self._reads: list[tuple[int, Signal, Signal]] = []

    def read(self, lane: int) -> tuple[Signal, Signal]:
        """A new asynchronous read port of ``lane``: (address, data)."""
        n = len(self._reads)
        port = (Signal(len(self.entry.index), name=f"table{lane}_addr{n}"),
                Signal(self.spec.lane_bits, name=f"table{lane}_data{n}"))
        self._reads.append((lane, *port))
        return port

    def elaborate(self, platform: object) -> Module:
        m = Module()
        spec = self.spec
        m.submodules.entry = entry = self.entry
        seed = Signal(spec.seed_bits)
        index = Signal(len(entry.index))
        m.d.comb += [entry.key.eq(self.key), entry.key_len.eq(self.key_len),
                     entry.seed_in.eq(seed), entry.index.eq(index)]
        with m.If(self.load_key):
            m.d.sync += [seed.eq(entry.seed), index.eq(0), self.filling.eq(1)]
        with m.Elif(self.filling):
            m.d.sync += index.eq(index + 1)
            with m.If(index == spec.entries - 1):
                m.d.sync += self.filling.eq(0)
        write = self.filling & ~self.load_key
        for lane in range(spec.lanes):
            mem = Memory(shape=unsigned(spec.lane_bits), depth=spec.entries, init=[])
            m.submodules[f"table{lane}"] = mem
            port = mem.write_port()
            lo = lane * spec.lane_bits
            m.d.comb += [port.addr.eq(index), port.data.eq(entry.entry[lo:lo + spec.lane_bits]),
                         port.en.eq(write)]
            for read_lane, address, value in self._reads:
                if read_lane == lane:
                    rp = mem.read_port(domain="comb")
                    m.d.comb += [rp.addr.eq(address), value.eq(rp.data)]
        return m


def key_table_fill(m: Module, hw: CipherHardware, shape: CoreShape, key: Value, key_len: Value,
                   load_key: Value, rounds: list[RoundDatapath]) -> KeyTableFill | None:
    """The fill of ``hw``'s key tables as a submodule of ``m``, with a read port for every table
    read of every round datapath in ``rounds`` (None if the cipher has no tables)."""
    if hw.key_tables() is None:
        return None
    m.submodules.key_tables = fill = KeyTableFill(hw, shape)
    m.d.comb += [fill.key.eq(key), fill.key_len.eq(key_len), fill.load_key.eq(load_key)]
    for rnd in rounds:
        for lane, address, value in rnd.table_reads:
            port_addr, port_data = fill.read(lane)
            m.d.comb += [port_addr.eq(address), value.eq(port_data)]
    return fill


def refuse_loaded_tables(hw: CipherHardware) -> None:
    """keys=loaded cores take no key, so they cannot fill key tables."""
    if hw.key_tables() is not None:
        from ..errors import CipherbenchError

        raise CipherbenchError(f"keys=loaded: {hw.name}'s rounds read tables made from the key, "
                               "which a loaded core does not take; use keys=fly or keys=stored")
