"""What the AES narrow datapaths share: the byte-register arrays and their loads, MixColumns for
either direction, Rcon, the segment programs and describe() (``AesNarrow``), and the start
states kept with keys=stored (``KeyStarts``). The datapaths: byte_serial.py (8 bits per clock),
row_pairs.py (16), column_serial.py (32 and 64)."""

from __future__ import annotations

from typing import Any

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ....arch.base import CoreOptions
from ....arch.narrow import NarrowDatapath, Program, Segment
from ....components.aes_linear import mix_column
from ....components.bytes import get_bytes
from ..hw import RCON

WIDTHS = (64, 32, 16, 8)
MC = (2, 3, 1, 1)
# InvMixColumns = MixColumns x circ(05, 00, 04, 00): an enc+dec core shares the MixColumns network
# and adds this cheap pre-map for decryption (both matrices are circulant, so they commute).
PRE_INV = (5, 0, 4, 0)
ROUNDS = 10


def byte_signals(name: str) -> list[list[Signal]]:
    """A 4x4 array of byte registers [row][column], without reset: their contents mean nothing
    until loaded, and a synchronous reset would cost a gate in front of every flip-flop."""
    return [[Signal(8, name=f"{name}{r}{c}", reset_less=True) for c in range(4)] for r in range(4)]


def load_bytes(m: Module, regs: list[list[Signal]], value: Value, offset: int = 0) -> None:
    """Byte b = r + 4c of a standard-order value (byte 0 most significant) into
    regs[r][c - offset] (``offset`` 1: the rotated form, word 0 at the tail)."""
    parts = get_bytes(value)
    for r in range(4):
        for c in range(4):
            m.d.sync += regs[r][(c - offset) % 4].eq(parts[r + 4 * c])


def flatten(regs: list[list[Signal]]) -> Value:
    """The inverse of load_bytes: a 128-bit value in standard byte order."""
    order = [regs[b % 4][b // 4] for b in range(16)]
    return Cat(*reversed(order))


def mix_or_inverse(column: list[Value], directions: str, decrypt: Value) -> list[Value]:
    """MixColumns, InvMixColumns, or both sharing one network: InvMC = MC o pre, which is also
    smaller alone than InvMixColumns' own matrix (about 300 against 540 GE on NanGate45)."""
    if directions == "encrypt":
        return mix_column(column, MC)
    pre = mix_column(column, PRE_INV)
    if directions == "decrypt":
        return mix_column(pre, MC)
    return mix_column([Mux(decrypt, p, x) for p, x in zip(pre, column)], MC)


def rcon_of(m: Module, step: Value) -> Signal:
    """Rcon of key-schedule step 1..10 (FIPS-197 notation: the step that produces K_step)."""
    out = Signal(8, name="rcon")
    with m.Switch(step):
        for s in range(1, ROUNDS + 1):
            with m.Case(s):
                m.d.comb += out.eq(RCON[s])
    return out


def row_mux(select: Value, rows: list[Value]) -> Value:
    """rows[select] for a 2-bit select, as a balanced tree of 2:1 multiplexers."""
    low = [Mux(select[0], rows[1], rows[0]), Mux(select[0], rows[3], rows[2])]
    return Mux(select[1], low[1], low[0])


class AesNarrow(NarrowDatapath):
    """What both widths share: options, the segment names, programs, describe()."""

    ENCRYPT, DECRYPT, RUNUP, REWIND = "encrypt", "decrypt", "key-runup", "key-rewind"
    STORE = "key-store"

    def __init__(self, options: CoreOptions, sbox: str, width: int, keys: str) -> None:
        super().__init__(width=width, block_bits=128, key_bits=128, key_len_bits=5)
        self.directions = options.directions
        self.has_enc, self.has_dec = options.has_encrypt, options.has_decrypt
        self.sbox_kind = sbox
        self.keys = keys
        self.stored = keys == "stored"

    def _segments(self) -> dict[str, Segment]:
        raise NotImplementedError

    def programs(self) -> dict[bool, Program]:
        seg = self._segments()
        out: dict[bool, Program] = {}
        if self.stored:
            # Start states kept: encryption reloads K0, decryption the K10 its setup stored
            # (one clock after the run-up, so the copy sees the finished ring).
            store = Segment(self.STORE, {128: 1}, 1)
            if self.has_enc:
                out[False] = Program(main=(seg[self.ENCRYPT],))
            if self.has_dec:
                out[True] = Program(setup=(seg[self.RUNUP], store), main=(seg[self.DECRYPT],))
            return out
        if self.has_enc:
            out[False] = Program(main=(seg[self.ENCRYPT],), post=self._rewind(seg))
        if self.has_dec:
            out[True] = Program(pre=(seg[self.RUNUP],), main=(seg[self.DECRYPT],))
        return out

    def _rewind(self, seg: dict[str, Segment]) -> tuple[Segment, ...]:
        return (seg[self.REWIND],)

    def uses(self, name: str) -> bool:
        """The segment is part of this core's programs."""
        return name in self.codes()

    def _start_controls(self, keys: "KeyStarts") -> list[Any]:
        """Reloading the key ring from the kept start states (keys=stored)."""
        if not self.stored:
            return []
        enc = self._enc()
        return [
            keys.from_enc.eq(self.load_block & enc | self.start_setup),
            keys.from_dec.eq(self.load_block & ~enc),
            keys.store_dec.eq(self.running(self.STORE) if self.has_dec else 0),
        ]

    def _sbox_directions(self) -> str:
        # The key schedule always needs S; a decrypt-only core needs S^-1 for the data as well.
        return "encrypt" if not self.has_dec else "both"

    def _enc(self) -> Value:
        """1 when the current block is an encryption (a constant in one-direction cores)."""
        if self.has_enc and self.has_dec:
            return ~self.decrypt
        return Const(int(self.has_enc), 1)

    # Per segment (sign, base): its round r injects T of key-schedule step base + sign * r.
    T_STEP: dict[str, tuple[int, int]] = {}

    def _key_step(self, m: Module) -> Value:
        """The key-schedule step (1..10) whose Rcon the T injection of this clock uses."""
        rnd = self.round[:4]
        step = Signal(4, name="key_step")
        for name, (sign, base) in self.T_STEP.items():
            if self.uses(name):
                with m.If(self.running(name)):
                    m.d.comb += step.eq(base + rnd if sign > 0 else base - rnd)
        return step

    def describe(self) -> dict[str, object]:
        programs = self.programs()
        cycles: dict[str, object] = {}
        for decrypt, program in programs.items():
            name = "decrypt" if decrypt else "encrypt"
            cycles[f"{name}_latency"] = program.latency(128)
            cycles[f"{name}_interval"] = program.interval(128)
            cycles[f"{name}_key_setup"] = program.key_setup(128)
        return {"sbox": self.sbox_kind, "data_sboxes": self.width // 8,
                "key_schedule_sboxes": 0, "key_schedule": "shares the data S-boxes",
                "key_registers": 128 * (1 + self.stored * (self.has_enc + self.has_dec)),
                **cycles}


class KeyStarts:
    """The start states a key block keeps with keys=stored: K0 (for encryption) and the state
    after the decryption run-up; ``ring`` is reloaded from them when a block or the run-up starts.
    With keys=rewind there are none and the controls stay 0."""

    def __init__(self) -> None:
        self.from_enc = Signal()
        self.from_dec = Signal()
        self.store_dec = Signal()

    def keep(self, m: Module, ring: list[list[Signal]], key: Value, load_key: Value,
             offset: int, enc: bool, dec: bool) -> Value:
        """Registers and loads (the key port first); returns 1 when the ring loads this clock."""
        enc_start = byte_signals("enc_start") if enc else None
        dec_start = byte_signals("dec_start") if dec else None
        with m.If(load_key):
            # With K0 kept, the ring is always reloaded from it before use (a block or the
            # run-up starts), so only the kept copy takes the key.
            load_bytes(m, ring if enc_start is None else enc_start, key, offset)
        if enc_start is not None:
            with m.Elif(self.from_enc):
                copy_bytes(m, ring, enc_start)
        if dec_start is not None:
            with m.Elif(self.from_dec):
                copy_bytes(m, ring, dec_start)
            with m.If(self.store_dec):
                copy_bytes(m, dec_start, ring)
        return ((load_key if enc_start is None else 0) | (self.from_enc if enc else 0)
                | (self.from_dec if dec else 0))


def copy_bytes(m: Module, dst: list[list[Signal]], src: list[list[Signal]]) -> None:
    m.d.sync += [dst[r][c].eq(src[r][c]) for r in range(4) for c in range(4)]
