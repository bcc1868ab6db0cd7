"""The toy cipher's hardware description: one Feistel round and one key step.

The key state is the key itself, rotated by one byte per step (so after the two rounds it is the
key again). Encryption round r takes the low byte of key state r (k0, then k1); decryption round r
steps backward from key state 3 - r and takes the high byte of the state it reaches (k1, then k0).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Mux, Signal, Value

from cipherbench.arch.base import CipherHardware, KeyStep, RoundDatapath

from .model import ROUNDS


def _f(x: Value, k: Value) -> Value:
    t = x ^ k
    return t.rotate_left(3) ^ (t & t.rotate_left(1))


class ToyRound(RoundDatapath):
    def __init__(self) -> None:
        super().__init__(block_bits=16, round_key_bits=8)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        state = Signal(16)
        m.d.comb += state.eq(Mux(self.first, self.block_in, self.state_in))
        left, right = state[8:], state[:8]
        encrypted = Cat(left ^ _f(right, self.rk), right)
        decrypted = Cat(left, right ^ _f(left, self.rk))
        m.d.comb += self.state_out.eq(Mux(self.decrypt, decrypted, encrypted))
        return m


class ToyKeyStep(KeyStep):
    def __init__(self, key_len_bits: int, step_bits: int) -> None:
        super().__init__(key_bits=16, key_len_bits=key_len_bits, state_bits=16, round_key_bits=8,
                         step_bits=step_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += [
            self.loaded.eq(self.key),
            self.state_out.eq(self.state_in.rotate_left(8)),
            self.rk_in.eq(Mux(self.backward, self.state_in[8:], self.state_in[:8])),
            self.rk_out.eq(Mux(self.backward, self.state_out[8:], self.state_out[:8])),
        ]
        return m


class ToyHardware(CipherHardware):
    name = "toy"
    block_bits = 16
    round_key_bits = 8
    key_state_bits = 16
    stored_decryption = "walk"

    def rounds(self, key_bits: int) -> int:
        return ROUNDS

    def datapath(self) -> RoundDatapath:
        return ToyRound()

    def key_step(self, key_len_bits: int, step_bits: int) -> KeyStep:
        return ToyKeyStep(key_len_bits, step_bits)

    def describe(self) -> dict[str, object]:
        return {"round": "Feistel, 8-bit F"}
