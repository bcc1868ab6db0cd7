"""PRESENT hardware description: one round (encrypt, decrypt or both) and one key-schedule step.

Structure (CHES 2007 paper, section 3 and its round-based architecture, section 5):

- Datapath: 16 four-bit S-boxes per direction and the bit permutation (wiring). The paper's round
  i is addRoundKey(K_i), sBoxLayer, pLayer; with K_32 added after round 31. Here the round is cut
  where the architecture wants it: round 1 takes the input block XOR K_1 (the whitening), and
  encryption round r (1..31) is sBoxLayer, pLayer, XOR K_{r+1}. Decryption round r is pLayer^-1,
  sBoxLayer^-1, XOR K_{32-r}, with K_32 as its whitening. So the state register holds the paper's
  state between addRoundKey and sBoxLayer, every round is the same, and 31 clocks make a block.
- Key state j: the key register of the paper after j updates (80 or 128 bits); its round key is
  the leftmost 64 bits, K_{j+1}. Step s joins key states s and s+1: forward it is the paper's
  update with round counter s+1 (rotate left by 61, S-box on the top nibble (two for 128-bit
  keys), XOR the counter), backward its inverse (XOR the counter, inverse S-boxes, rotate right by
  61). One or two key S-boxes per direction; the rotations are wiring.
- Both key sizes in one core (``present/...``): the key state is 128 bits; an 80-bit key sits in
  its top 80 bits (the key port is left-aligned, so loading is wiring) and the low 48 stay zero.
  The round key is the top 64 bits for both sizes; the step computes both updates and selects by
  the key length.

Byte order: the paper's hexadecimal order; block byte 0 is b63 .. b56 and key byte 0 is
k79 .. k72 (k127 .. k120), most significant on the ports, so port bit i is the paper's bit i.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath, select_by_key_len
from ...components.permutations import destination_table, permute_bits
from ...components.sbox4 import sbox4
from .model import INVERSE_PERMUTATION, INVERSE_SBOX, PERMUTATION, ROUNDS, SBOX

BLOCK_BITS = 64
ROUND_KEY_BITS = 64


def sbox_nibble(m: Module, x: Value, table: tuple[int, ...], name: str) -> Value:
    """One 4-bit S-box (a 16-entry table; the component library's sbox4, kind=table)."""
    return sbox4(m, x, table, "table", name)


def sbox_layer(m: Module, state: Value, table: tuple[int, ...], prefix: str) -> Value:
    """The S-box on each nibble of a 64-bit value."""
    return Cat(*(sbox_nibble(m, state[4 * j:4 * j + 4], table, f"{prefix}{j}")
                 for j in range(len(state) // 4)))


def permute(state: Value, table: tuple[int, ...]) -> Value:
    """Bit i of ``state`` to bit table[i] (wiring; components/permutations.py)."""
    return permute_bits(state, destination_table(table), "lsb0")


class PresentDatapath(RoundDatapath):
    """Whitening + one PRESENT round, both directions by default (no sharing: S and S^-1 differ,
    and the permutation comes after the S-boxes in one direction, before them in the other)."""

    def __init__(self, directions: str) -> None:
        super().__init__(block_bits=BLOCK_BITS, round_key_bits=ROUND_KEY_BITS)
        self.directions = directions

    def elaborate(self, platform: object) -> Module:
        m = Module()
        x = Signal(BLOCK_BITS, name="x")
        m.d.comb += x.eq(Mux(self.first, self.block_in ^ self.rk_white, self.state_in))
        results = []
        if self.directions != "decrypt":
            y = permute(sbox_layer(m, x, SBOX, "enc"), PERMUTATION)
            results.append(y ^ self.rk)
        if self.directions != "encrypt":
            y = sbox_layer(m, permute(x, INVERSE_PERMUTATION), INVERSE_SBOX, "dec")
            results.append(y ^ self.rk)
        out = Mux(self.decrypt, results[1], results[0]) if len(results) == 2 else results[0]
        m.d.comb += self.state_out.eq(out)
        return m


def _update(m: Module, register: Value, counter: Value, bits: int, prefix: str) -> Value:
    """The paper's key update of a ``bits``-bit register with round counter ``counter``."""
    rotated = register.rotate_left(61)
    top = sbox_nibble(m, rotated[bits - 4:], SBOX, f"{prefix}_s0")
    if bits == 128:
        second = sbox_nibble(m, rotated[120:124], SBOX, f"{prefix}_s1")
        return Cat(rotated[:62], rotated[62:67] ^ counter, rotated[67:120], second, top)
    return Cat(rotated[:15], rotated[15:20] ^ counter, rotated[20:76], top)


def _downdate(m: Module, register: Value, counter: Value, bits: int, prefix: str) -> Value:
    """The key update undone."""
    top = sbox_nibble(m, register[bits - 4:], INVERSE_SBOX, f"{prefix}_i0")
    if bits == 128:
        second = sbox_nibble(m, register[120:124], INVERSE_SBOX, f"{prefix}_i1")
        before = Cat(register[:62], register[62:67] ^ counter, register[67:120], second, top)
    else:
        before = Cat(register[:15], register[15:20] ^ counter, register[20:76], top)
    return before.rotate_right(61)


class PresentKeyStep(KeyStep):
    """The key register forward (update) and backward (its inverse), and the round keys.

    Step s uses round counter s + 1 in both directions (forward: the update after round s + 1;
    backward: that update undone). The round key of a key state is its top 64 bits."""

    def __init__(self, key_sizes: tuple[int, ...], directions: str, key_len_bits: int,
                 step_bits: int) -> None:
        self.key_sizes = tuple(sorted(key_sizes))
        self.directions = directions
        self.width = max(self.key_sizes)
        super().__init__(key_bits=self.width, key_len_bits=key_len_bits, state_bits=self.width,
                         round_key_bits=ROUND_KEY_BITS, step_bits=step_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        width = self.width
        counter = Signal(5, name="counter")
        m.d.comb += counter.eq(self.step + 1)
        nexts: dict[int, Value] = {}
        for bits in self.key_sizes:
            register = self.state_in[width - bits:]
            pad = Const(0, width - bits) if width > bits else None
            value = _update(m, register, counter, bits, f"k{bits}_fwd")
            # Decryption cores run the schedule forward once per key (the run-up) and back.
            if self.directions != "encrypt":
                back = _downdate(m, register, counter, bits, f"k{bits}_bwd")
                value = Mux(self.backward, back, value)
            nexts[bits] = Cat(pad, value) if pad is not None else value
        nxt = select_by_key_len(self.key_len, nexts, {bits: bits // 8 for bits in self.key_sizes})
        m.d.comb += [
            self.loaded.eq(self.key),
            self.state_out.eq(nxt),
            self.rk_in.eq(self.state_in[width - ROUND_KEY_BITS:]),
            self.rk_out.eq(self.state_out[width - ROUND_KEY_BITS:]),
        ]
        return m


class PresentHardware(CipherHardware):
    name = "present"
    block_bits = BLOCK_BITS
    round_key_bits = ROUND_KEY_BITS

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)
        self.key_state_bits = max(options.key_sizes)

    def rounds(self, key_bits: int) -> int:
        return ROUNDS

    def datapath(self) -> PresentDatapath:
        return PresentDatapath(self.options.directions)

    def key_step(self, key_len_bits: int, step_bits: int) -> PresentKeyStep:
        return PresentKeyStep(tuple(self.options.key_sizes), self.options.directions,
                              key_len_bits, step_bits)

    def describe(self) -> dict[str, object]:
        directions = 2 if self.options.directions == "both" else 1
        key_sboxes = sum(2 if bits == 128 else 1 for bits in self.options.key_sizes)
        return {
            "sbox": "table",
            "sbox_lane_inputs": 4,
            "data_sbox_lanes": 16 * directions,
            "key_schedule_sbox_lanes": key_sboxes * (2 if self.options.has_decrypt else 1),
            "key_state_bits": self.key_state_bits,
        }
