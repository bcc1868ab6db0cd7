"""SEED hardware description (RFC 4269): one Feistel round per clock, round keys on the fly.

Structure (Sugawara et al., "ASIC Performance Comparison for the ISO Standard Block Ciphers",
section 2.1, SEED, Fig. 5 -- the straightforward loop architecture): the round function F with its
three G functions (12 data S-boxes) runs in one clock; the key schedule has two G functions
(8 S-boxes) and computes the round key of the next round while the current one runs. The compact
variant of Fig. 6 (one G function used three times per round) is ``narrow.py``.

Clocks per block: 17 = 1 + 16. Clock 1 only takes the block into the state register (the seed's
"data I/O" clock) while the key schedule computes K1; clocks 2..17 are rounds 1..16, each keyed
from a register. Without that clock, K1 would have to come from the key port through an adder
and a G function at load time (two more G functions) or be computed in the round's own clock (an
adder and a G function in front of the round's three, about a third longer critical path).

Key state (key_state_bits = 256, most significant field first):

    W (128): Key0 || Key1 || Key2 || Key3 as rotated so far (RFC 4269 section 2.3)
    P (64):  the round key computed in this step, used in the next clock
    Q (64):  the round key of this state (the P of the previous state)

``rk`` is P || Q: the round key of the clock and the next one's, both functions of the key state
(the datapath XORs the next key into the half that enters F next, see SeedDatapath).

Forward step j (clock j+1 of an encryption: the I/O clock, then round j; or run-up step j)
computes P = K_{j+1} from W and rotates W as the RFC does after K_{j+1} (odd i: Key0||Key1 >>> 8;
even i: Key2||Key3 <<< 8); the last step (j = 16) leaves W alone. Backward step j first undoes the rotation after K_j and then
computes P = K_j from the result (j = 0 leaves W alone). So a block's keys come in the order
K1..K16 (encryption) or K16..K1 (decryption), the round in clock c using the P of clock c-1.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath
from ...components.adders import add
from ...components.aes_sbox import table_lookup
from ...components.bytes import get_words
from ...errors import CipherbenchError
from .model import KC, M0, M1, M2, M3, S0, S1

DATA_ROUNDS = 16
CLOCKS = DATA_ROUNDS + 1  # the I/O clock, then the rounds
W_BITS, KEY_BITS = 128, 64
STATE_BITS = W_BITS + 2 * KEY_BITS
RK_BITS = 2 * KEY_BITS  # this round's key (Q), the next round's (P)
# The data rounds' adders are on the critical path (three in series with the G functions); the key
# schedule's run beside a round and have about a third of its depth to cover.
DATA_ADDER = "kogge-stone"
KEY_ADDER = "brent-kung"


class GFunction(Elaboratable):
    """G of RFC 4269 section 2.2: four S-boxes (S0 on bytes 0 and 2, S1 on bytes 1 and 3, byte 0
    the least significant) and the masked XOR network; ``i``, ``o`` 32 bits."""

    def __init__(self) -> None:
        self.i = Signal(32)
        self.o = Signal(32)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        boxes = []
        for index, table in enumerate((S0, S1, S0, S1)):
            out = Signal(8, name=f"s{index}")
            table_lookup(m, self.i[8 * index:8 * index + 8], table, out)
            boxes.append(out)
        a, b, c, d = boxes
        # Z_j = a&m_j ^ b&m_{j+1} ^ c&m_{j+2} ^ d&m_{j+3}: constant masks are wiring.
        masks = (M0, M1, M2, M3)
        z = [(a & masks[j]) ^ (b & masks[(j + 1) % 4]) ^ (c & masks[(j + 2) % 4])
             ^ (d & masks[(j + 3) % 4]) for j in range(4)]
        m.d.comb += self.o.eq(Cat(*z))
        return m


def _g(m: Module, x: Value, name: str) -> Value:
    g = GFunction()
    m.submodules[name] = g
    m.d.comb += g.i.eq(x)
    return g.o


class SeedDatapath(RoundDatapath):
    """The I/O clock (``first``: take the block) or one round: (L, R) -> (R, L ^ F(K, R)), and
    without the swap in round 16 (``last``).

    The register holds R already XORed with the key of the round it goes into (``rk`` carries
    this round's key and the next one's): F starts from a register, and the next key is XORed
    into the other half beside F, where it arrives long before F's result. Otherwise the key
    would come through the key schedule's start-state multiplexers (whose selects come from the
    handshake) in front of F's three G functions."""

    def __init__(self) -> None:
        super().__init__(block_bits=128, round_key_bits=RK_BITS)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        left, keyed = self.state_in[64:], self.state_in[:64]
        k_now, k_next = self.rk[:KEY_BITS], self.rk[KEY_BITS:]
        a = Signal(32)
        m.d.comb += a.eq(keyed[32:])
        d = _g(m, a ^ keyed[:32], "g1")
        e = _g(m, add(m, d, a, Const(0, 1), DATA_ADDER, "add1_"), "g2")
        f1 = _g(m, add(m, d, e, Const(0, 1), DATA_ADDER, "add2_"), "g3")
        f0 = add(m, e, f1, Const(0, 1), DATA_ADDER, "add3_")
        right = Signal(64)
        m.d.comb += right.eq(keyed ^ k_now)
        # Round 16 leaves its result unkeyed (the output); the others key it for the next round.
        t = Signal(64)
        m.d.comb += t.eq((left ^ Mux(self.last, 0, k_next)) ^ Cat(f1, f0))
        entered = Cat(self.block_in[:64] ^ k_next, self.block_in[64:])
        m.d.comb += self.state_out.eq(Mux(self.first, entered,
                                          Mux(self.last, Cat(right, t), Cat(t, right))))
        return m


class SeedKeyStep(KeyStep):
    """Key state W || P || Q (see the module docstring); one step forward or backward."""

    def __init__(self, key_len_bits: int, step_bits: int) -> None:
        super().__init__(key_bits=128, key_len_bits=key_len_bits, state_bits=STATE_BITS,
                         round_key_bits=RK_BITS, step_bits=step_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        # W is the key port itself; P and Q of the start state are never used (the I/O clock).
        m.d.comb += self.loaded.eq(Cat(Const(0, 2 * KEY_BITS), self.key))
        w_in = self.state_in[2 * KEY_BITS:]
        p_in = self.state_in[KEY_BITS:2 * KEY_BITS]
        w_out = Signal(W_BITS)
        m.d.comb += w_out.eq(self._rotate(m, w_in))
        # Forward: K_{j+1} from W as it is; backward: K_j from W rotated back.
        x = Signal(W_BITS)
        m.d.comb += x.eq(Mux(self.backward, w_out, w_in))
        p_out = self._round_key(m, x, self._constant(m))
        m.d.comb += self.state_out.eq(Cat(p_in, p_out, w_out))
        m.d.comb += [self.rk_in.eq(self.state_in[:RK_BITS]), self.rk_out.eq(Cat(p_in, p_out))]
        return m

    def _rotate(self, m: Module, w: Value) -> Value:
        """Forward step j: the RFC's rotation after K_{j+1} (none after K16, j = 16); backward
        step j: the inverse of the rotation after K_j (none for j = 0)."""
        high, low = w[64:], w[:64]  # Key0||Key1, Key2||Key3
        odd = self.step[0]
        edge = Mux(self.backward, self.step == 0, self.step == DATA_ROUNDS)
        # Key0||Key1 turns after odd i: forward with j even, backward with j odd.
        turn_high = ~edge & (odd ^ ~self.backward)
        turn_low = ~edge & ~turn_high
        new_high = Mux(self.backward, high.rotate_left(8), high.rotate_right(8))
        new_low = Mux(self.backward, low.rotate_right(8), low.rotate_left(8))
        return Cat(Mux(turn_low, new_low, low), Mux(turn_high, new_high, high))

    def _constant(self, m: Module) -> Signal:
        """KC_{j+1} (forward) or KC_j (backward); 0 where no round key is made."""
        kc = Signal(32)
        with m.Switch(Cat(self.step, self.backward)):
            for j in range(CLOCKS):
                for backward, index in ((0, j + 1), (1, j)):
                    if 1 <= index <= DATA_ROUNDS:
                        with m.Case(j | backward << len(self.step)):
                            m.d.comb += kc.eq(KC[index - 1])
        return kc

    @staticmethod
    def _round_key(m: Module, w: Value, kc: Value) -> Value:
        """(G(Key0 + Key2 - KC), G(Key1 - Key3 + KC)): each three-operand sum as one carry-save
        layer and one adder, the subtractions as + ~x + 1 (the 1 as the adder's carry in)."""
        k0, k1, k2, k3 = get_words(w)
        left = three_sum(m, k0, k2, ~kc, "kl_")
        right = three_sum(m, k1, ~k3, kc, "kr_")
        return Cat(_g(m, right, "gk1"), _g(m, left, "gk0"))


def three_sum(m: Module, a: Value, b: Value, c: Value, prefix: str) -> Value:
    """a + b + c + 1 mod 2^32 through a carry-save layer."""
    s = Signal(32, name=f"{prefix}s")
    carry = Signal(32, name=f"{prefix}c")
    m.d.comb += [s.eq(a ^ b ^ c), carry.eq((a & b) | (a & c) | (b & c))]
    return add(m, s, Cat(Const(0, 1), carry[:31]), Const(1, 1), KEY_ADDER, prefix)


class SeedHardware(CipherHardware):
    name = "seed"
    # keys=stored: Feistel schedule, decryption round r needs encryption round R+1-r's key, so
    # the round-key memory stores the backward walk's keys too (arch/keymem.py).
    stored_decryption = "walk"
    travelling_keys = False  # pipelines: keys=stored only (docs/ciphers)
    block_bits = 128
    round_key_bits = RK_BITS
    key_state_bits = STATE_BITS

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)

    def rounds(self, key_bits: int) -> int:
        return CLOCKS

    def datapath(self) -> SeedDatapath:
        return SeedDatapath()

    def key_step(self, key_len_bits: int, step_bits: int) -> SeedKeyStep:
        return SeedKeyStep(key_len_bits, step_bits)

    def segmented_key_step(self, key_len_bits: int, step_bits: int, segments: int) -> KeyStep:
        # The pipelines start decryption from forward key state R-1. This schedule's backward
        # walk is not the forward walk reversed state by state (a Feistel cipher's decryption
        # round r needs the key of encryption round R+1-r, one state later than AES's), so that
        # state would hand decryption the wrong keys: refuse rather than build a wrong core.
        raise CipherbenchError(
            f"{self.name}: the pipelined architecture is not supported (its decryption starts "
            f"from forward key state R-1; see docs/ciphers/{self.name}.md); use iterative or "
            "unrolled")

    def describe(self) -> dict[str, object]:
        return {"data_sboxes": 12, "key_schedule_sboxes": 8, "g_functions": 5,
                "data_rounds": DATA_ROUNDS, "io_clocks": 1, "data_adder": DATA_ADDER,
                "key_adder": KEY_ADDER}

