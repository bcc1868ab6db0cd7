"""The AES S-box as a synchronous-read memory, so FPGA flows put it in block RAM.

A ROM with a registered read (amaranth.lib.memory, init = the table, one read port in the
``sync`` domain) is what Yosys' memory inference maps to an FPGA's block RAM (ECP5 DP16KD,
iCE40 SB_RAM40_4K; Gaj and Chodowiec's and the Rijndael FPGA papers' "S-boxes in embedded
RAM"). An ASIC flow without memory macros maps the same description to a table plus an 8-bit
register, so it stays measurable there.

LATENCY: the output ``o`` is valid one clock cycle after the address ``i`` (and ``decrypt``)
are presented, unlike AesSbox, which is combinational. An architecture that uses it must
register accordingly (e.g. fold the S-box into the round register: the memory's output
register *is* the state register, as the block-RAM Rijndael designs do) and count the extra
cycle. The AES cores use it as ``sbox=bram`` under pipelines with a cut after SubBytes, the
memories' read registers taking the cut's place (ciphers/aes/hw.py).

``directions`` "both" stores both tables in one 512-entry memory with ``decrypt`` as the top
address bit: one ECP5 block RAM (18 Kbit) holds it, and one read port serves either direction.

Whether a memory becomes block RAM is Yosys' choice (memory_libmap weighs it against logic).
Seen with Yosys 0.70: on iCE40 every variant goes to one SB_RAM40_4K; on ECP5 the 2-Kbit
encrypt-only (or decrypt-only) ROM is judged cheaper as logic (177 LUTs), while "both" (4 Kbit)
goes to one DP16KD (2 LUTs). A ``ram_style`` attribute cannot force it: rtl.to_verilog writes
the Verilog without attributes. (A second read port on the same memory, two S-boxes per
dual-port BRAM, was tried: Yosys then maps it to logic on both families.)
"""

from __future__ import annotations

from amaranth.hdl import Cat, Elaboratable, Module, Signal
from amaranth.lib.memory import Memory

from .aes_sbox import inv_sbox_table, sbox_table

DIRECTIONS = ("encrypt", "decrypt", "both")
LATENCY = 1  # cycles from address to data


def _contents(directions: str) -> list[int]:
    if directions == "encrypt":
        return list(sbox_table())
    if directions == "decrypt":
        return list(inv_sbox_table())
    return list(sbox_table()) + list(inv_sbox_table())  # decrypt = address bit 8


class AesSboxBram(Elaboratable):
    """Ports: ``i`` (8, address), ``decrypt`` (1; read only when directions="both"),
    ``en`` (1, read enable, 1 by default: when 0 the output holds), ``o`` (8, valid LATENCY
    cycle after ``i``). Clocked by the ``sync`` domain."""

    def __init__(self, directions: str = "encrypt") -> None:
        if directions not in DIRECTIONS:
            raise ValueError(f"unknown directions {directions!r}; valid: {', '.join(DIRECTIONS)}")
        self.directions = directions
        self.i = Signal(8)
        self.decrypt = Signal()
        self.en = Signal(init=1)
        self.o = Signal(8)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        contents = _contents(self.directions)
        m.submodules.rom = rom = Memory(shape=8, depth=len(contents), init=contents)
        port = rom.read_port(domain="sync")
        address = Cat(self.i, self.decrypt) if self.directions == "both" else self.i
        m.d.comb += [port.addr.eq(address), port.en.eq(self.en), self.o.eq(port.data)]
        return m
