"""The one core interface every generated design exposes (docs/interface.md).

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
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Signal


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

    def ports(self) -> list[dict[str, object]]:
        """The port list in the order the manifest records it."""
        return [
            {"name": "clk", "dir": "in", "width": 1},
            {"name": "rst", "dir": "in", "width": 1},
            {"name": "key", "dir": "in", "width": self.key_bits},
            {"name": "key_len", "dir": "in", "width": self.key_len_bits},
            {"name": "key_valid", "dir": "in", "width": 1},
            {"name": "key_ready", "dir": "out", "width": 1},
            {"name": "in_block", "dir": "in", "width": self.block_bits},
            {"name": "in_decrypt", "dir": "in", "width": 1},
            {"name": "in_valid", "dir": "in", "width": 1},
            {"name": "in_ready", "dir": "out", "width": 1},
            {"name": "out_block", "dir": "out", "width": self.block_bits},
            {"name": "out_valid", "dir": "out", "width": 1},
            {"name": "out_ready", "dir": "in", "width": 1},
        ]

    def io_count(self) -> int:
        """I/O pins the interface needs (NSA parameter 'Input/Outputs Required')."""
        return sum(int(p["width"]) for p in self.ports())


class CoreSignals:
    """The interface signals of a core, created with the names the Verilog will carry."""

    def __init__(self, shape: CoreShape) -> None:
        self.shape = shape
        self.key = Signal(shape.key_bits, name="key")
        self.key_len = Signal(shape.key_len_bits, name="key_len")
        self.key_valid = Signal(name="key_valid")
        self.key_ready = Signal(name="key_ready")
        self.in_block = Signal(shape.block_bits, name="in_block")
        self.in_decrypt = Signal(name="in_decrypt")
        self.in_valid = Signal(name="in_valid")
        self.in_ready = Signal(name="in_ready")
        self.out_block = Signal(shape.block_bits, name="out_block")
        self.out_valid = Signal(name="out_valid")
        self.out_ready = Signal(name="out_ready")

    OUTPUTS = ("key_ready", "in_ready", "out_block", "out_valid")

    def port_list(self) -> list[Signal]:
        """Signals in manifest order, without clk/rst (Amaranth adds the sync domain's)."""
        return [
            self.key, self.key_len, self.key_valid, self.key_ready,
            self.in_block, self.in_decrypt, self.in_valid, self.in_ready,
            self.out_block, self.out_valid, self.out_ready,
        ]

    def ports(self) -> list[dict[str, object]]:
        """The manifest's port list of the generated module (clk and rst first)."""
        return [{"name": "clk", "dir": "in", "width": 1},
                {"name": "rst", "dir": "in", "width": 1},
                *({"name": sig.name, "dir": "out" if sig.name in self.OUTPUTS else "in",
                   "width": len(sig)} for sig in self.port_list())]


class LoadedKeySignals(CoreSignals):
    """A core whose round keys are loaded from outside (keys=loaded, docs/interface.md): the
    common interface without ``key``, plus a round-key write port. Entries are written one per
    clock (``rk_we``, ``rk_addr``, ``rk_data``) while ``key_ready`` is high; the key channel
    (``key_valid``/``key_ready`` with ``key_len``) then commits them, and blocks are taken from
    the next clock."""

    def __init__(self, shape: CoreShape, index_bits: int, round_key_bits: int) -> None:
        super().__init__(shape)
        self.rk_we = Signal(name="rk_we")
        self.rk_addr = Signal(index_bits, name="rk_addr")
        self.rk_data = Signal(round_key_bits, name="rk_data")

    def port_list(self) -> list[Signal]:
        return [
            self.key_len, self.key_valid, self.key_ready,
            self.rk_we, self.rk_addr, self.rk_data,
            self.in_block, self.in_decrypt, self.in_valid, self.in_ready,
            self.out_block, self.out_valid, self.out_ready,
        ]
