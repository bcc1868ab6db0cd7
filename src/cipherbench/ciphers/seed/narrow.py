"""The compact SEED core (Sugawara et al., seed 003, section 2.1, Fig. 6): one G function for the
data, used three times per round, and one for the key schedule, used twice per round.

``seed/narrow:width=32``: 32 bits (one G function) per clock. The cipher declares ``HARDWARE`` for
the narrow architecture (CipherInfo.arch_hardware). A round of RFC 4269's F takes three clocks
(steps), with two 32-bit temporaries D and E beside the 128-bit state L || R and the round-key
register K0 || K1:

    step 0:  D <- G((R0 ^ K0) ^ (R1 ^ K1))
    step 1:  E <- G(D + (R0 ^ K0))
    step 2:  F1 = G(D + E), F0 = E + F1; (L, R) <- (R, L ^ F0 || F1)   (round 16: no swap)

One adder sits in front of the G function (its operands chosen by the step) and one behind it,
so the longest clock is adder, G, adder, instead of the loop core's three of each.

Key schedule (RFC 4269 section 2.3) on the fly, one G function and one three-operand adder:
step 1 of a round makes the next round's Ki1 = G(Key1 - Key3 + KC) (the data no longer needs the
current K1 after step 0), step 2 its Ki0 = G(Key0 + Key2 - KC) (the data's last use of K0 was
step 1). Round 1's key is made in a key-only round 0 of two clocks (steps 1 and 2).

The rotations of Key0..Key3 add up to nothing over a block: Key0 || Key1 turns right by 8 after
each odd Ki and Key2 || Key3 left by 8 after each even one, eight times each, 64 bits of a 64-bit
value. So one key register serves both directions with no run-up and no rewind: encryption makes
Ki from W and then turns W (step 2); decryption turns W back first (step 1, the key adder reading
the turned value) and makes K_{16-r} from it, and after 16 rounds W is the loaded key again.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.base import CoreOptions
from ...arch.narrow import NarrowDatapath, Program, Segment
from ...components.adders import add
from ...components.bytes import get_words
from ...errors import CipherbenchError
from ...interface import CoreShape
from .hw import DATA_ADDER, DATA_ROUNDS, KEY_ADDER, GFunction, SeedHardware, three_sum
from .model import KC

WIDTH = 32
STEPS = 3
ROUNDS_SEGMENT = "rounds"
# Round 0 makes K1 (or K16) only; rounds 1..16 are the cipher's. Round 0 starts at step 1.
KEY_ONLY_ROUNDS = 1


def main_segment() -> Segment:
    return Segment(ROUNDS_SEGMENT, {128: KEY_ONLY_ROUNDS + DATA_ROUNDS}, STEPS, first_step=1)


def round_key_index(counter: int, decrypt: bool) -> int:
    """i of the Ki the key unit makes in round ``counter`` (0..15): K_{r+1} forward, K_{16-r}
    backward."""
    return DATA_ROUNDS - counter if decrypt else counter + 1


class SeedCompact(NarrowDatapath):
    """State, temporaries, the data G unit and the key schedule (module docstring)."""

    def __init__(self, options: CoreOptions) -> None:
        shape = CoreShape(128, tuple(sorted(options.key_sizes)))
        super().__init__(width=WIDTH, block_bits=128, key_bits=shape.key_bits,
                         key_len_bits=shape.key_len_bits)
        self.options = options

    def programs(self) -> dict[bool, Program]:
        program = Program(main=(main_segment(),))
        out = {}
        if self.options.has_encrypt:
            out[False] = program
        if self.options.has_decrypt:
            out[True] = program
        return out

    def _backward(self, m: Module) -> Value:
        """The block's direction, from a register of this datapath: the controller's ``decrypt``
        passes through its idle/running multiplexer from the handshake, a path the key
        schedule's operand choice would start from."""
        if not self.options.has_encrypt:
            return Const(1, 1)
        if not self.options.has_decrypt:
            return Const(0, 1)
        direction = Signal(reset_less=True)
        with m.If(self.load_block):
            m.d.sync += direction.eq(self.decrypt)
        return direction

    def elaborate(self, platform: object) -> Module:
        m = Module()
        running = self.running(ROUNDS_SEGMENT)
        steps = [running & (self.step == s) for s in range(STEPS)]
        rk = Signal(64, reset_less=True)  # K0 (high) || K1
        self._data(m, steps, rk)
        self._key_schedule(m, steps, rk)
        return m

    def _data(self, m: Module, steps: list[Value], rk: Value) -> None:
        state = Signal(128, reset_less=True)
        d = Signal(32, reset_less=True)
        e = Signal(32, reset_less=True)
        left, r0, r1 = state[64:], state[32:64], state[:32]
        k0, k1 = rk[32:], rk[:32]
        data_round = self.round != 0
        a = Signal(32)
        m.d.comb += a.eq(r0 ^ k0)
        # The one adder in front of G: D + (R0 ^ K0) in step 1, D + E in step 2.
        pre_sum = add(m, d, Mux(self.step == 2, e, a), Const(0, 1), DATA_ADDER, "pre_")
        m.submodules.g = g = GFunction()
        m.d.comb += g.i.eq(Mux(self.step == 0, a ^ r1 ^ k1, pre_sum))
        f0 = add(m, e, g.o, Const(0, 1), DATA_ADDER, "post_")
        t = Signal(64)
        m.d.comb += [t.eq(left ^ Cat(g.o, f0)), self.block_out.eq(state)]
        with m.If(self.load_block):
            m.d.sync += state.eq(self.block_in)
        with m.If(steps[0] & data_round):
            m.d.sync += d.eq(g.o)
        with m.If(steps[1] & data_round):
            m.d.sync += e.eq(g.o)
        with m.If(steps[2] & data_round):
            m.d.sync += state.eq(Mux(self.last_round, Cat(state[:64], t), Cat(t, state[:64])))

    def _key_schedule(self, m: Module, steps: list[Value], rk: Value) -> None:
        w = Signal(128, reset_less=True)  # Key0 (high) .. Key3 as turned so far
        backward = self._backward(m)
        key_work = ~self.last_round  # round 16 makes no key
        counter = self.round[:4]
        turned = Signal(128)
        m.d.comb += turned.eq(self._turn(w, counter, backward))
        # Backward, step 1 reads W turned back (and stores it); otherwise W as it is.
        src = Signal(128)
        m.d.comb += src.eq(Mux(backward & (self.step == 1), turned, w))
        key0, key1, key2, key3 = get_words(src)
        kc = Signal(32)
        index = counter ^ Mux(backward, 0xF, 0)  # KC_{r+1} forward, KC_{16-r} backward
        with m.Switch(index):
            for i, constant in enumerate(KC):
                with m.Case(i):
                    m.d.comb += kc.eq(constant)
        second = self.step == 2
        # Step 1: Key1 - Key3 + KC; step 2: Key0 + Key2 - KC; each as x + y + z + 1.
        total = three_sum(m, Mux(second, key0, key1), Mux(second, key2, ~key3),
                          Mux(second, ~kc, kc), "ks_")
        m.submodules.gk = gk = GFunction()
        m.d.comb += gk.i.eq(total)
        with m.If(self.load_key):
            m.d.sync += w.eq(self.key)
        with m.If(steps[1] & key_work):
            m.d.sync += rk[:32].eq(gk.o)
            with m.If(backward):
                m.d.sync += w.eq(turned)
        with m.If(steps[2] & key_work):
            m.d.sync += rk[32:].eq(gk.o)
            with m.If(~backward):
                m.d.sync += w.eq(turned)

    @staticmethod
    def _turn(w: Value, counter: Value, backward: Value) -> Value:
        """Forward: the turn after K_{r+1}; backward: the inverse of the turn after K_{16-r}.
        Key0 || Key1 turns after odd i: r even forward, r odd backward."""
        high, low = w[64:], w[:64]
        turn_high = counter[0] ^ ~backward
        new_high = Mux(backward, high.rotate_left(8), high.rotate_right(8))
        new_low = Mux(backward, low.rotate_right(8), low.rotate_left(8))
        return Mux(turn_high, Cat(low, new_high), Cat(new_low, high))

    def describe(self) -> dict[str, object]:
        program = self.programs()[not self.options.has_encrypt]
        return {"data_sboxes": 4, "key_schedule_sboxes": 4, "g_functions": 2,
                "data_adders": 2, "key_adders": 1, "clocks_per_round": STEPS,
                "data_adder": DATA_ADDER, "key_adder": KEY_ADDER,
                "latency": program.latency(128), "interval": program.interval(128),
                "key_setup": program.key_setup(128)}


class SeedNarrowHardware(SeedHardware):
    """SEED with the compact datapath (CipherInfo.arch_hardware: narrow)."""

    def narrow_datapath(self, width: int, keys: str = "rewind") -> NarrowDatapath:
        if width != WIDTH:
            raise CipherbenchError(f"seed has a {WIDTH}-bit narrow datapath only (one G function "
                                   f"per clock); valid widths: {WIDTH}")
        if keys != "rewind":
            # Nothing to keep: the one key state returns to its start after every block.
            raise CipherbenchError(f"{self.name}/narrow: keys={keys} would store nothing "
                                   "more (the key register is back at the loaded key after every "
                                   "block); use keys=rewind")
        return SeedCompact(self.options)


HARDWARE = SeedNarrowHardware
