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
from functools import lru_cache
from typing import Any

from amaranth.hdl import ClockDomain, ClockSignal, Elaboratable, Module, Signal

from ..errors import CipherbenchError
from .adders import Adder, AddSub
from .multipliers import Multiplier
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
    """The components no single cipher owns; each cipher adds its own (CipherInfo.components)."""
    binary = ("a", "b"), ("o",)
    return [
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
        CatalogEntry("rot32-var", "32-bit data-dependent left rotator (5 mux stages)",
                     lambda: BarrelRotator(32, "left"), ("i", "amount"), ("o",),
                     {"width": 32, "direction": "left"}),
        CatalogEntry("rot32-var-lr", "32-bit data-dependent rotator, left or right (select)",
                     lambda: BarrelRotator(32, "both"), ("i", "amount", "right"), ("o",),
                     {"width": 32, "direction": "both"}),
        *_masked_entries(),
        *_ghash_entries(),
    ]


def _masked_entries() -> list[CatalogEntry]:
    """The DOM-indep multiplier (components/masked/dom.py): a GF(2) AND and Canright's GF(2^4)
    product, first and second order (the masked S-boxes are their ciphers' entries)."""
    from .aes_sbox_composite import BASIS
    from .masked.dom import GF2_AND, DomIndepMul, gf16_product

    ports = ("a", "b", "r"), ("q",)
    return [CatalogEntry(f"dom-{name}-{shares}sh",
                         f"DOM-indep {what}, {shares} shares (order {shares - 1}), 1 clock",
                         lambda p=product, s=shares: DomIndepMul(p, s), *ports,
                         {"product": product.name, "shares": shares}, latency=1)
            for name, what, product in (("and", "GF(2) AND", GF2_AND),
                                        ("gf16", "GF(2^4) multiplier (tower field)",
                                         gf16_product(BASIS.n)))
            for shares in (2, 3)]


def _ghash_entries() -> list[CatalogEntry]:
    """GCM's GF(2^128) multipliers (components/ghash_mul.py): fully parallel (combinational),
    digit-serial (start/done, latency 128/d clocks) and pipelined (latency k clocks)."""
    from .ghash_mul import STAGES, GhashMul, GhashMulPipelined, GhashMulSerial

    binary = ("a", "b"), ("p",)
    serial = ("start", "a", "b"), ("busy", "done", "p")
    parallel = [
        CatalogEntry("ghash-mul-schoolbook",
                     "GF(2^128) multiplier (GCM), fully parallel: 128 x 128 partial products",
                     lambda: GhashMul("schoolbook"), *binary, {"structure": "schoolbook"}),
        *[CatalogEntry(f"ghash-mul-karatsuba{'' if levels == 1 else levels}",
                       f"GF(2^128) multiplier (GCM), fully parallel: Karatsuba, {levels} "
                       f"level{'s' if levels > 1 else ''} (128 -> {128 >> levels}), "
                       "schoolbook below",
                       lambda k=levels: GhashMul("karatsuba", k), *binary,
                       {"structure": "karatsuba", "levels": levels})
          for levels in (1, 2)],
    ]
    return parallel + [
        CatalogEntry("ghash-mul-bitserial" if d == 1 else f"ghash-mul-digit{d}",
                     f"GF(2^128) multiplier (GCM), {'bit' if d == 1 else f'{d}-bit digit'}-"
                     f"serial: {128 // d} clocks a product",
                     lambda d=d: GhashMulSerial(d), *serial, {"digit": d}, latency=128 // d)
        for d in (1, 2, 4, 8, 16, 32, 64)] + [
        CatalogEntry(f"ghash-mul-pipelined{k}",
                     f"GF(2^128) multiplier (GCM), pipelined: {k} stages of {128 // k}-bit "
                     "digits, a product a clock, each after {k} clocks".replace("{k}", str(k)),
                     lambda k=k: GhashMulPipelined(k), ("advance", "a", "b"), ("p",),
                     {"stages": k}, latency=k)
        for k in STAGES]


@lru_cache(maxsize=None)
def catalog() -> dict[str, CatalogEntry]:
    """Every characterizable component by name: the generic ones, then each registered cipher's."""
    from ..ciphers.registry import ciphers

    entries = _entries()
    for info in ciphers().values():
        if info.components is not None:
            entries += list(info.components())
    found: dict[str, CatalogEntry] = {}
    for entry in entries:
        if entry.name in found:
            raise CipherbenchError(f"component {entry.name!r} is in the catalog twice")
        found[entry.name] = entry
    return found


def __getattr__(name: str) -> Any:
    if name == "CATALOG":  # the catalog, built on first use (the ciphers add to it)
        return catalog()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_component(name: str) -> CatalogEntry:
    try:
        return catalog()[name]
    except KeyError:
        raise CipherbenchError(
            f"unknown component {name!r}; valid: {', '.join(catalog())}") from None
