"""The characterizable components: name -> description, parameters and a registered build.

NSA section 3.2.1 characterizes each function alone. To time a function the way it is used
inside a core, register to register, ``build`` wraps it in a thin shell: every input port goes
through a register before the function and every output through a register after it, in a
reset-less ``sync`` domain clocked by ``clk`` (a reset would add a gate per flip-flop and
distort the area). Area figures therefore include (inputs + outputs) flip-flops: subtract them
(``flipflops`` in the measurements x one DFF) to get the function's own area.

Each entry names the component's input and output ports; inputs not listed (e.g. the BRAM
S-box's read enable) keep their constant initial value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from amaranth.hdl import ClockDomain, ClockSignal, Elaboratable, Module, Signal

from ..errors import CipherbenchError
from .adders import Adder, AddSub
from .aes_sbox import AesSbox
from .aes_sbox_bram import AesSboxBram
from .des_sbox import DesSboxLayer
from .mds import AesMixColumns, twofish_mds
from .multipliers import Multiplier, Rc6F
from .pht import PseudoHadamard
from .rotators import BarrelRotator

CLOCK = "clk"


class Registered(Elaboratable):
    """A component between an input and an output register (see the module docstring).

    The wrapper's ports carry the component's port names; ``ports()`` lists them with the clock.
    """

    def __init__(self, inner: Elaboratable, inputs: Sequence[str], outputs: Sequence[str]) -> None:
        self.inner = inner
        self.inputs = {n: Signal(len(getattr(inner, n)), name=n) for n in inputs}
        self.outputs = {n: Signal(len(getattr(inner, n)), name=n) for n in outputs}

    def ports(self) -> list[Signal]:
        return [ClockSignal("sync"), *self.inputs.values(), *self.outputs.values()]

    def port_info(self) -> list[dict[str, Any]]:
        """The manifest's port list (as interface.CoreShape.ports)."""
        info: list[dict[str, Any]] = [{"name": CLOCK, "dir": "in", "width": 1}]
        info += [{"name": n, "dir": "in", "width": len(s)} for n, s in self.inputs.items()]
        info += [{"name": n, "dir": "out", "width": len(s)} for n, s in self.outputs.items()]
        return info

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.domains.sync = ClockDomain("sync", reset_less=True)
        m.submodules.dut = self.inner
        for name, port in self.inputs.items():
            held = Signal(len(port), name=f"{name}_q", reset_less=True)
            m.d.sync += held.eq(port)
            m.d.comb += getattr(self.inner, name).eq(held)
        for name, port in self.outputs.items():
            m.d.sync += port.eq(getattr(self.inner, name))
        return m


@dataclass(frozen=True)
class CatalogEntry:
    name: str
    description: str
    factory: Callable[[], Elaboratable]
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    parameters: dict[str, Any] = field(default_factory=dict)
    latency: int = 0  # cycles inside the component itself, besides the wrapper's two registers

    def component(self) -> Elaboratable:
        """The bare component (combinational unless latency > 0)."""
        return self.factory()

    def build(self) -> Registered:
        """The component in its register wrapper, ready for rtl.to_verilog(top, top.ports())."""
        return Registered(self.factory(), self.inputs, self.outputs)


def _entries() -> list[CatalogEntry]:
    sbox = ("i",), ("o",)
    binary = ("a", "b"), ("o",)
    return [
        CatalogEntry("aes-sbox-table", "AES S-box, 256-entry table (case statement)",
                     lambda: AesSbox("table", "encrypt"), *sbox,
                     {"kind": "table", "directions": "encrypt"}),
        CatalogEntry("aes-sbox-composite", "AES S-box, tower-field GF(((2^2)^2)^2) inversion",
                     lambda: AesSbox("composite", "encrypt"), *sbox,
                     {"kind": "composite", "directions": "encrypt"}),
        CatalogEntry("aes-sbox-gf-inv", "AES S-box, GF(2^8) inverse table + affine map",
                     lambda: AesSbox("gf-inv", "encrypt"), *sbox,
                     {"kind": "gf-inv", "directions": "encrypt"}),
        CatalogEntry("aes-inv-sbox-table", "AES inverse S-box, 256-entry table",
                     lambda: AesSbox("table", "decrypt"), *sbox,
                     {"kind": "table", "directions": "decrypt"}),
        CatalogEntry("aes-sbox-both-composite",
                     "AES S-box and inverse sharing one tower-field inverter (decrypt select)",
                     lambda: AesSbox("composite", "both"), ("i", "decrypt"), ("o",),
                     {"kind": "composite", "directions": "both"}),
        CatalogEntry("aes-sbox-bram", "AES S-box as a synchronous-read ROM (block RAM on FPGAs)",
                     lambda: AesSboxBram("encrypt"), *sbox, {"directions": "encrypt"}, latency=1),
        CatalogEntry("aes-mixcolumns", "AES MixColumns on the 128-bit state (XOR trees)",
                     lambda: AesMixColumns(False), *sbox, {"inverse": False, "structure": "tree"}),
        CatalogEntry("aes-invmixcolumns", "AES InvMixColumns on the 128-bit state (XOR trees)",
                     lambda: AesMixColumns(True), *sbox, {"inverse": True, "structure": "tree"}),
        CatalogEntry("twofish-mds", "Twofish 4x4 MDS over GF(2^8)/0x169 on a 32-bit word",
                     lambda: twofish_mds(), *sbox, {"structure": "tree"}),
        CatalogEntry("adder32-ripple", "32-bit adder mod 2^32, ripple carry",
                     lambda: Adder(32, "ripple"), *binary, {"width": 32, "kind": "ripple"}),
        CatalogEntry("adder32-prefix", "32-bit adder mod 2^32, Kogge-Stone parallel prefix",
                     lambda: Adder(32, "kogge-stone"), *binary,
                     {"width": 32, "kind": "kogge-stone"}),
        CatalogEntry("adder32-brent-kung", "32-bit adder mod 2^32, Brent-Kung parallel prefix",
                     lambda: Adder(32, "brent-kung"), *binary,
                     {"width": 32, "kind": "brent-kung"}),
        CatalogEntry("addsub32-prefix",
                     "32-bit adder/subtractor mod 2^32 (sub select), Kogge-Stone",
                     lambda: AddSub(32, "kogge-stone", "both"), ("a", "b", "sub"), ("o",),
                     {"width": 32, "kind": "kogge-stone", "mode": "both"}),
        CatalogEntry("pht32", "Twofish pseudo-Hadamard transform (a+b, a+2b mod 2^32)",
                     lambda: PseudoHadamard(32, "kogge-stone"), ("a", "b"), ("a_out", "b_out"),
                     {"width": 32, "kind": "kogge-stone"}),
        CatalogEntry("mul32", "32x32 multiplier mod 2^32 (low half): Wallace CSA + Kogge-Stone",
                     lambda: Multiplier(32, "wallace", "kogge-stone"), *binary,
                     {"width": 32, "reduction": "wallace", "final_adder": "kogge-stone"}),
        CatalogEntry("rc6-f", "RC6 f(x) = x(2x+1) mod 2^32 by squarer rows, Wallace + Kogge-Stone",
                     lambda: Rc6F(32, "squarer", "wallace", "kogge-stone"), *sbox,
                     {"width": 32, "kind": "squarer", "reduction": "wallace",
                      "final_adder": "kogge-stone"}),
        CatalogEntry("rot32-var", "32-bit data-dependent left rotator (5 mux stages)",
                     lambda: BarrelRotator(32, "left"), ("i", "amount"), ("o",),
                     {"width": 32, "direction": "left"}),
        CatalogEntry("rot32-var-lr", "32-bit data-dependent rotator, left or right (select)",
                     lambda: BarrelRotator(32, "both"), ("i", "amount", "right"), ("o",),
                     {"width": 32, "direction": "both"}),
        CatalogEntry("des-sbox", "DES S-boxes S1..S8 side by side (48 -> 32 bits)",
                     DesSboxLayer, *sbox, {}),
    ]


CATALOG: dict[str, CatalogEntry] = {entry.name: entry for entry in _entries()}


def get_component(name: str) -> CatalogEntry:
    try:
        return CATALOG[name]
    except KeyError:
        raise CipherbenchError(
            f"unknown component {name!r}; valid: {', '.join(CATALOG)}") from None
