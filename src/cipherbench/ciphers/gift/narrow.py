"""Serialized GIFT-128 (arch/narrow.py): ``gift/narrow:width=W``, W = 4, 8, 16 or 32 bits per
clock, L = W/4 S-box lanes per direction (4 bits: one GS, one GS^-1).

- **State: one 128-bit shift register.** A pass takes n = 128/W clocks: the L lanes substitute
  the low W bits, the state shifts right by W and the lanes' outputs enter at the top; after n
  clocks every nibble is substituted and back in place. GIFT adds no key before or inside
  SubCells, so the lanes see the state alone: no slice multiplexer, no key at the lanes.
- **The key clock.** PermBits and AddRoundKey run on the whole state in one clock (encryption:
  P(x) ^ RK; decryption: P^-1(x ^ RK)); the key register (k7 .. k0) and the round-constant LFSR
  step in the same clock (wiring and six flip-flops). Encryption round r: the pass, then the key
  clock; decryption round r: the key clock, then the pass (GS^-1). 40 rounds of n + 1 clocks in
  both directions: 1320 at 4 bits.
- **No key walk.** GIFT's key update is a bit permutation (word moves and rotations), so the key
  state of any round is wiring of the key: decryption loads the register with the 39th update of
  the key in the clock that takes the block (and the LFSR with c_40), and encryption's last key
  clock puts the key back (the 39 updates undone, wiring; the LFSR to c_1) instead of updating.
  The register therefore holds the key whenever no block runs, for either direction, with no
  run-up and no rewind: ``keys=rewind`` costs no clock and ``keys=stored`` would store nothing.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.narrow import NarrowDatapath, Program, Segment
from ...errors import CipherbenchError
from ...interface import CoreShape
from .hw import (
    BLOCK_BITS,
    KEY_BITS,
    GiftHardware,
    key_update,
    key_update_back,
    lfsr_step,
    lfsr_step_back,
    permute,
    round_key,
    round_key_mask,
    sbox_layer,
)
from . import model
from .model import INVERSE_PERMUTATION, INVERSE_SBOX, PERMUTATION, ROUND_CONSTANTS, ROUNDS, SBOX

WIDTHS = (32, 16, 8, 4)
CRYPT = "crypt"


def crypt_segment(width: int) -> Segment:
    """40 rounds of n pass clocks and one key clock."""
    return Segment(CRYPT, {KEY_BITS: ROUNDS}, BLOCK_BITS // width + 1)


def _updates(count: int) -> tuple[int, ...]:
    """Where ``count`` key updates move each bit of the key register (a bit permutation)."""
    table = []
    for i in range(KEY_BITS):
        value = 1 << i
        for _ in range(count):
            value = model.key_update(value)
        table.append(value.bit_length() - 1)
    return tuple(table)


def jump(register: Value, count: int, back: bool = False) -> Value:
    """The register after ``count`` updates (``back``: ``count`` updates undone): wiring."""
    table = _updates(count)
    if back:
        table = tuple(table.index(j) for j in range(KEY_BITS))
    return permute(register, table)


def _named(m: Module, value: Value, name: str) -> Signal:
    wire = Signal(len(value), name=name)
    m.d.comb += wire.eq(value)
    return wire


class GiftSerial(NarrowDatapath):
    """Serialized GIFT-128 at ``width`` bits per clock (module docstring)."""

    def __init__(self, hw: GiftHardware, width: int) -> None:
        shape = CoreShape(BLOCK_BITS, (KEY_BITS,))
        super().__init__(width=width, block_bits=BLOCK_BITS, key_bits=shape.key_bits,
                         key_len_bits=shape.key_len_bits)
        self.has_enc, self.has_dec = hw.options.has_encrypt, hw.options.has_decrypt
        self.lanes = width // 4
        self.clocks = BLOCK_BITS // width

    def programs(self) -> dict[bool, Program]:
        program = Program(main=(crypt_segment(self.width),))
        out: dict[bool, Program] = {}
        if self.has_enc:
            out[False] = program
        if self.has_dec:
            out[True] = program
        return out

    def describe(self) -> dict[str, object]:
        facts: dict[str, object] = {
            "sbox": "table", "sbox_lane_inputs": 4,
            "data_sbox_lanes": self.lanes * (self.has_enc + self.has_dec),
            "key_schedule_sbox_lanes": 0, "clocks_per_round": self.clocks + 1,
            "key_registers": KEY_BITS + 6,
        }
        for decrypt, program in self.programs().items():
            name = "decrypt" if decrypt else "encrypt"
            facts[f"{name}_latency"] = program.latency(KEY_BITS)
            facts[f"{name}_interval"] = program.interval(KEY_BITS)
            facts[f"{name}_key_setup"] = program.key_setup(KEY_BITS)
        return facts

    def _dec(self) -> Value:
        if self.has_enc and self.has_dec:
            return self.decrypt
        return Const(int(self.has_dec), 1)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        n, w = self.clocks, self.width
        dec = _named(m, self._dec(), "dec")
        crypt = self.running(CRYPT)
        # Encryption: the key clock ends the round (step n); decryption: it begins it (step 0).
        key_step = _named(m, Mux(dec, 0, n), "key_step")
        key_clock = _named(m, crypt & (self.step == key_step), "key_clock")
        passing = _named(m, crypt & (self.step != key_step), "passing")

        key = Signal(KEY_BITS, name="key", reset_less=True)
        c = Signal(6, name="c", reset_less=True)
        mask = _named(m, round_key_mask(round_key(Cat(key, c))), "mask")

        state = Signal(BLOCK_BITS, name="state", reset_less=True)
        low = state[:w]
        lane_out: Value | None = None
        mixed: Value | None = None
        if self.has_enc:
            lane_out = sbox_layer(m, low, SBOX, "enc")
            mixed = permute(state, PERMUTATION) ^ mask
        if self.has_dec:
            out = sbox_layer(m, low, INVERSE_SBOX, "dec")
            back = permute(state ^ mask, INVERSE_PERMUTATION)
            lane_out = out if lane_out is None else Mux(dec, out, lane_out)
            mixed = back if mixed is None else Mux(dec, back, mixed)
        assert lane_out is not None and mixed is not None
        with m.If(self.load_block):
            m.d.sync += state.eq(self.block_in)
        with m.Elif(passing):
            m.d.sync += state.eq(Cat(state[w:], lane_out))
        with m.Elif(key_clock):
            m.d.sync += state.eq(mixed)
        m.d.comb += self.block_out.eq(state)

        # The key register holds the key (and c the first constant) whenever no block runs.
        with m.If(self.load_key):
            m.d.sync += [key.eq(self.key), c.eq(ROUND_CONSTANTS[0])]
        if self.has_dec:
            with m.Elif(self.load_block & dec):
                m.d.sync += [key.eq(jump(key, ROUNDS - 1)), c.eq(ROUND_CONSTANTS[-1])]
        with m.Elif(key_clock & self.last_round):
            if self.has_enc:
                # Encryption's last key clock: the key back (decryption's is there already).
                with m.If(~dec):
                    m.d.sync += [key.eq(jump(key, ROUNDS - 1, back=True)),
                                 c.eq(ROUND_CONSTANTS[0])]
        with m.Elif(key_clock):
            if self.has_enc and self.has_dec:
                m.d.sync += [key.eq(Mux(dec, key_update_back(key), key_update(key))),
                             c.eq(Mux(dec, lfsr_step_back(c), lfsr_step(c)))]
            elif self.has_enc:
                m.d.sync += [key.eq(key_update(key)), c.eq(lfsr_step(c))]
            else:
                m.d.sync += [key.eq(key_update_back(key)), c.eq(lfsr_step_back(c))]
        return m


class GiftNarrowHardware(GiftHardware):
    """GIFT-128 with serialized datapaths (CipherInfo.arch_hardware: narrow)."""

    def narrow_datapath(self, width: int, keys: str = "rewind") -> NarrowDatapath:
        if width not in WIDTHS:
            raise CipherbenchError(f"gift has no {width}-bit datapath; valid widths: "
                                   f"{', '.join(map(str, WIDTHS))}")
        if keys != "rewind":
            raise CipherbenchError(f"{self.name}/narrow: keys={keys} would store nothing (the "
                                   "key state of every round is wiring of the key; the register "
                                   "holds the key between blocks); use keys=rewind")
        return GiftSerial(self, width)


HARDWARE = GiftNarrowHardware
