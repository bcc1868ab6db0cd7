"""The one core interface every generated design exposes (docs/interface.md): the ports of the
block interface family (families/block.py, ``BLOCK.signature``).

Every core, whatever its cipher or architecture, has these ports, so that one testbench, one
measurement harness and any user's SoC can drive all of them:

    clk, rst                         clock; synchronous active-high reset
    key[KEY_W], key_len[LEN_W]       key bytes left-aligned (byte 0 in the MSBs), length in bytes
    key_valid -> key_ready           key channel handshake
    in_block[BLOCK_W], in_decrypt    data input stream (block byte 0 in the MSBs)
    in_valid -> in_ready
    out_block[BLOCK_W]               data output stream
    out_valid -> out_ready

Handshakes follow AXI4-Stream: a transfer happens on a rising edge where valid and ready are both
high; valid never waits for ready; ready may depend on the data (a core may lower ``in_ready`` for
decryption while its decryption key run-up is in progress but accept encryption).

The interface is written once, as an Amaranth signature (``amaranth.lib.wiring``): three
``Channel`` members, ``key``, ``inp`` and ``out``, each a stream seen from the side that sends
(payload and ``valid`` Out, ``ready`` In), the core receiving the first two (``In``) and sending
the third (``Out``). Its members' order is the ports' order; each channel names its ports (the
Verilog names above, not Amaranth's ``key__valid``), so the interface objects ``CoreSignature``
creates hold Signals with those names. The generators read and drive them (``io.key.valid``,
``io.out.block``), the manifest's port list and the Verilog port list are read off the same
object (``CoreInterface.ports``, ``port_list``), and the directions come from the signature.
A keys=loaded core (``CoreSignature(shape, round_keys=...)``) has a key channel without ``key``
and a round-key write port ``rk`` (``rk_we``, ``rk_addr``, ``rk_data``) after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from amaranth.hdl import Signal
from amaranth.lib.wiring import In, Member, Out, PureInterface, Signature


@dataclass(frozen=True)
class CoreShape:
    """Port widths of a core: what a testbench must know to drive it."""

    block_bits: int
    key_sizes: tuple[int, ...]  # supported key lengths in bits, ascending

    @property
    def key_bits(self) -> int:
        """Width of the ``key`` port: the largest supported key."""
        return max(self.key_sizes)

    @property
    def key_len_bits(self) -> int:
        """Width of the ``key_len`` port, which carries the key length in bytes."""
        return max(1, (self.key_bits // 8).bit_length())

    def signature(self) -> CoreSignature:
        """The common interface of a core of this shape."""
        return CoreSignature(self)

    def ports(self) -> list[dict[str, object]]:
        """The port list in the order the manifest records it."""
        return self.signature().create().ports()

    def io_count(self) -> int:
        """I/O pins the interface needs (NSA parameter 'Input/Outputs Required')."""
        return sum(int(p["width"]) for p in self.ports())


class Channel(Signature):
    """One channel of the interface, seen from the side that sends it: each payload member and
    ``valid`` Out, ``ready`` In (AXI4-Stream); ``handshake=False``: a write port, payload only.
    The port of member ``m`` is named ``<prefix>_<m>``; ``bare`` names the member whose port is
    ``<prefix>`` alone (the key channel's ``key``). ``create`` makes Signals with those names."""

    def __init__(self, prefix: str, payload: dict[str, int], *, bare: str | None = None,
                 handshake: bool = True) -> None:
        members: dict[str, Member] = {name: Out(width) for name, width in payload.items()}
        if handshake:
            members.update(valid=Out(1), ready=In(1))
        self.port_names = {name: prefix if name == bare else f"{prefix}_{name}"
                           for name in members}
        super().__init__(members)

    def create(self, *, path: Any = None, src_loc_at: int = 0) -> ChannelPorts:
        return ChannelPorts(self)

    def of(self, **signals: Signal) -> ChannelPorts:
        """An interface object of this channel made of existing signals (a block's own), checked
        against the signature."""
        ports = ChannelPorts(self, signals)
        reasons: list[str] = []
        if not self.is_compliant(ports, reasons=reasons):
            raise TypeError("; ".join(reasons))
        return ports


def round_key_port(index_bits: int, round_key_bits: int) -> Channel:
    """The keys=loaded round-key write port, seen from the writer: ``rk_we``, ``rk_addr``,
    ``rk_data`` (one entry per clock while ``rk_we`` is high; no handshake)."""
    return Channel("rk", {"we": 1, "addr": index_bits, "data": round_key_bits}, handshake=False)


class ChannelPorts:
    """A channel's interface object: one Signal per member, named as its port (or ``signals``)."""

    def __init__(self, signature: Channel, signals: dict[str, Signal] | None = None) -> None:
        self.signature = signature
        for name, member in signature.members.items():
            setattr(self, name, signals[name] if signals is not None else
                    Signal(member.shape, name=signature.port_names[name], init=member.init))


class CoreSignature(Signature):
    """The core's interface, seen from the core: key and input channels In, output channel Out.
    ``round_keys=(index_bits, round_key_bits)``: the keys=loaded interface (docs/interface.md),
    whose key channel carries no key and which has a round-key write port ``rk`` In."""

    def __init__(self, shape: CoreShape, round_keys: tuple[int, int] | None = None) -> None:
        self.shape = shape
        self.round_keys = round_keys
        key = {"len": shape.key_len_bits}
        if round_keys is None:
            key = {"data": shape.key_bits, **key}
        members: dict[str, Member] = {"key": In(Channel("key", key, bare="data"))}
        if round_keys is not None:
            members["rk"] = In(round_key_port(*round_keys))
        members["inp"] = In(Channel("in", {"block": shape.block_bits, "decrypt": 1}))
        members["out"] = Out(Channel("out", {"block": shape.block_bits}))
        super().__init__(members)

    def create(self, *, path: Any = None, src_loc_at: int = 0) -> CoreInterface:
        return CoreInterface(self)


class PortedInterface(PureInterface):
    """A top-level interface object whose Signals are named as the Verilog ports: the port list
    and the manifest's ports read off its signature (the block cores' and the LWC designs')."""

    def _flat(self) -> Iterator[tuple[str, Signal]]:
        """(direction seen from the design, signal) per port, in the signature's order."""
        for _path, member, value in self.signature.flatten(self):
            yield ("out" if member.flow == Out else "in"), value

    def port_list(self) -> list[Signal]:
        """Signals in manifest order, without clk/rst (Amaranth adds the sync domain's)."""
        return [sig for _dir, sig in self._flat()]

    def ports(self) -> list[dict[str, object]]:
        """The manifest's port list (clk and rst first)."""
        return [{"name": "clk", "dir": "in", "width": 1},
                {"name": "rst", "dir": "in", "width": 1},
                *({"name": sig.name, "dir": direction, "width": len(sig)}
                  for direction, sig in self._flat())]


class CoreInterface(PortedInterface):
    """A core's interface object: its channels (``key``, ``inp``, ``out``; ``rk`` for
    keys=loaded), each holding Signals named as the Verilog ports."""

    signature: CoreSignature

    def __init__(self, signature: CoreSignature) -> None:
        super().__init__(signature)
        reasons: list[str] = []
        if not signature.is_compliant(self, reasons=reasons):  # pragma: no cover - a bug here
            raise AssertionError("core interface: " + "; ".join(reasons))

    @property
    def shape(self) -> CoreShape:
        return self.signature.shape

