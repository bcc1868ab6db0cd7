"""GIFT-128 hardware description: one round (encrypt, decrypt or both) and one key-schedule step.

Structure (GIFT paper, CHES 2017, section 2; bit order the specification's, as the model):

- Datapath: 32 four-bit S-boxes per direction and the bit permutation (wiring). Encryption round
  r (1..40) is SubCells, PermBits, AddRoundKey(RK_r); GIFT has no whitening, so round 1 takes the
  input block as it is. Decryption round r undoes encryption round 41-r the way the architecture
  hands out keys: round 1 takes the block XOR RK_40 (the architecture's whitening key), and round
  r is PermBits^-1, SubCells^-1, XOR RK_{40-r}, with no key in round 40 (``last``).
- AddRoundKey is wiring and XORs: U into bits 4j+2, V into bits 4j+1, the constant into bits 23,
  19, 15, 11, 7, 3 and a 1 into bit 127. The round key bus is U, V and the six constant bits
  (70 bits).
- Key state j (1..40): the key register of round j (k7 .. k0 after j-1 updates) and the round
  constant c_j, 134 bits; its round key RK_j is U = k5 || k4, V = k1 || k0 and c_j. Key state 0
  is the register one update before the key, with c_0 = 0 (the LFSR's start), so loading is the
  update undone: wiring. The step is the key update (16-bit word rotations: wiring) and one LFSR
  step forward, or both undone backward; neither depends on the step index, so every
  architecture's key states, stored, travelling or stepped, give the right constants. Key state
  0's round key is read by no round (encryption has no whitening; decryption's round 40 adds no
  key).

Byte order: block byte 0 is b127 .. b120 and key bytes 0-1 are k7, most significant on the ports,
so port bit i is the specification's bit i.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath
from ...components.permutations import destination_table, permute_bits
from ...components.sbox4 import sbox4
from .model import INVERSE_PERMUTATION, INVERSE_SBOX, PERMUTATION, ROUNDS, SBOX

BLOCK_BITS = 128
KEY_BITS = 128
CONSTANT_BITS = 6
ROUND_KEY_BITS = 32 + 32 + CONSTANT_BITS   # U, V, c
KEY_STATE_BITS = KEY_BITS + CONSTANT_BITS  # the key register, then c


def sbox_layer(m: Module, state: Value, table: tuple[int, ...], prefix: str) -> Value:
    """The 4-bit S-box (a 16-entry table; the component library's sbox4, kind=table) on each
    nibble."""
    return Cat(*(sbox4(m, state[4 * j:4 * j + 4], table, "table", f"{prefix}{j}")
                 for j in range(len(state) // 4)))


def permute(state: Value, table: tuple[int, ...]) -> Value:
    """Bit i of ``state`` to bit table[i] (wiring; components/permutations.py)."""
    return permute_bits(state, destination_table(table), "lsb0")


def round_key_mask(rk: Value) -> Value:
    """The 128 bits AddRoundKey XORs into the state, from the round key bus (U, V, c)."""
    u, v, c = rk[32:64], rk[0:32], rk[64:70]
    bits: list[Value] = []
    for j in range(32):
        top = Const(1, 1) if j == 31 else (c[j] if j < CONSTANT_BITS else Const(0, 1))
        bits += [Const(0, 1), v[j], u[j], top]
    return Cat(*bits)


class GiftDatapath(RoundDatapath):
    """One GIFT-128 round, both directions by default (S and S^-1 differ, and PermBits comes after
    the S-boxes in one direction, before them in the other)."""

    def __init__(self, directions: str) -> None:
        super().__init__(block_bits=BLOCK_BITS, round_key_bits=ROUND_KEY_BITS)
        self.directions = directions

    def elaborate(self, platform: object) -> Module:
        m = Module()
        mask = Signal(BLOCK_BITS, name="mask")
        m.d.comb += mask.eq(round_key_mask(self.rk))
        results = []
        if self.directions != "decrypt":
            x = Signal(BLOCK_BITS, name="enc_x")
            m.d.comb += x.eq(Mux(self.first, self.block_in, self.state_in))
            results.append(permute(sbox_layer(m, x, SBOX, "enc"), PERMUTATION) ^ mask)
        if self.directions != "encrypt":
            x = Signal(BLOCK_BITS, name="dec_x")
            m.d.comb += x.eq(Mux(self.first, self.block_in ^ round_key_mask(self.rk_white),
                                 self.state_in))
            y = sbox_layer(m, permute(x, INVERSE_PERMUTATION), INVERSE_SBOX, "dec")
            results.append(y ^ Mux(self.last, 0, mask))
        out = Mux(self.decrypt, results[1], results[0]) if len(results) == 2 else results[0]
        m.d.comb += self.state_out.eq(out)
        return m


def _words(register: Value) -> list[Value]:
    """k0 .. k7 of a 128-bit key register."""
    return [register[16 * i:16 * i + 16] for i in range(8)]


def key_update(register: Value) -> Value:
    """k7 || ... || k0 <- (k1 >>> 2) || (k0 >>> 12) || k7 || ... || k2."""
    k = _words(register)
    return Cat(*k[2:], k[0].rotate_right(12), k[1].rotate_right(2))


def key_update_back(register: Value) -> Value:
    """key_update undone."""
    k = _words(register)
    return Cat(k[6].rotate_left(12), k[7].rotate_left(2), *k[:6])


def lfsr_step(c: Value) -> Value:
    """(c5..c0) <- (c4, c3, c2, c1, c0, c5 ^ c4 ^ 1)."""
    return Cat(~(c[5] ^ c[4]), c[0:5])


def lfsr_step_back(c: Value) -> Value:
    """lfsr_step undone: the old c5 is the new c0 ^ c5 ^ 1 (the new c5 is the old c4)."""
    return Cat(c[1:6], ~(c[0] ^ c[5]))


def round_key(state: Value) -> Value:
    """RK of a key state: V = k1 || k0, U = k5 || k4, c."""
    return Cat(state[0:32], state[64:96], state[KEY_BITS:KEY_STATE_BITS])


class GiftKeyStep(KeyStep):
    """Key register and round constant, forward and backward; no step index needed."""

    def __init__(self, directions: str, key_len_bits: int, step_bits: int) -> None:
        self.directions = directions
        super().__init__(key_bits=KEY_BITS, key_len_bits=key_len_bits,
                         state_bits=KEY_STATE_BITS, round_key_bits=ROUND_KEY_BITS,
                         step_bits=step_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        register, c = self.state_in[:KEY_BITS], self.state_in[KEY_BITS:]
        forward = Cat(key_update(register), lfsr_step(c))
        nxt = forward
        if self.directions != "encrypt":
            backward = Cat(key_update_back(register), lfsr_step_back(c))
            nxt = Mux(self.backward, backward, forward)
        m.d.comb += [
            self.loaded.eq(Cat(key_update_back(self.key), Const(0, CONSTANT_BITS))),
            self.state_out.eq(nxt),
            self.rk_in.eq(round_key(self.state_in)),
            self.rk_out.eq(round_key(self.state_out)),
        ]
        return m


class GiftHardware(CipherHardware):
    name = "gift"
    block_bits = BLOCK_BITS
    round_key_bits = ROUND_KEY_BITS
    key_state_bits = KEY_STATE_BITS

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)

    def rounds(self, key_bits: int) -> int:
        return ROUNDS

    def datapath(self) -> GiftDatapath:
        return GiftDatapath(self.options.directions)

    def key_step(self, key_len_bits: int, step_bits: int) -> GiftKeyStep:
        return GiftKeyStep(self.options.directions, key_len_bits, step_bits)

    def describe(self) -> dict[str, object]:
        directions = 2 if self.options.directions == "both" else 1
        return {
            "sbox": "table",
            "sbox_lane_inputs": 4,
            "data_sbox_lanes": 32 * directions,
            "key_schedule_sbox_lanes": 0,
            "key_state_bits": KEY_STATE_BITS,
        }
