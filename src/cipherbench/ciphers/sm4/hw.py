"""SM4 hardware description (GB/T 32907): one round per clock, round keys on the fly.

Round (datapath): X_{i+4} = X_i ^ L(tau(X_{i+1} ^ X_{i+2} ^ X_{i+3} ^ rk_i)): four data S-boxes
and the linear transform L (XORs of rotations: wiring and a 5-input XOR per bit). The state register
holds X_i || X_{i+1} || X_{i+2} || X_{i+3} (X_i most significant); the first round takes the input
block directly and the last one writes the reverse transform R (the words in reverse order), so a
block takes 32 clocks.

Key schedule: the same shape with L' and the constants CK_i. The generators give encryption round r
the round key of key state r and decryption round r that of key state R - r (arch/base.py); SM4's
decryption round r needs rk_{32-r} = K_{36-r}, one schedule word beyond encryption's K_{r+3} from
the same state. So a key state holds five words,

    key state s = K_s || K_{s+1} || K_{s+2} || K_{s+3} || K_{s+4}   (160 bits, K_s most significant)

and its round key is its two lowest words, K_{s+3} || K_{s+4}: encryption uses K_{s+3}, decryption
K_{s+4} (a 32-bit multiplexer in front of the round's XOR, folded away in a one-direction core).
Forward step j (state j -> j+1) computes K_{j+5} = K_{j+1} ^ T'(K_{j+2} ^ K_{j+3} ^ K_{j+4} ^
CK_{j+1}); backward step j (state j+1 -> j) recovers K_j = K_{j+4} ^ T'(K_{j+1} ^ K_{j+2} ^
K_{j+3} ^ CK_j); both share one T' (four S-boxes) behind multiplexers. Loading computes K4 from the
key (MK ^ FK) with a second T', so state 0 is complete when the key arrives and encryption has no
key setup. With the five-word state both walks are the forward walk reversed state by state, as for
AES: keys fly in every generator, travel with the blocks in pipelines, and a round-key memory
mirrors the encryption entries for decryption. The forward walk's last step (j = 31) uses CK_32,
defined by the same formula; the cipher never reads the word it gives (K_36).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath
from ...components.aes_sbox import table_lookup
from ...components.rotxor import rot_xor_logic
from .model import FK, ROUNDS, SBOX, ck

WORD = 32
STATE_BITS = 5 * WORD
RK_BITS = 2 * WORD
DATA_ROTATIONS = (2, 10, 18, 24)   # L
KEY_ROTATIONS = (13, 23)           # L'


class Tau(Elaboratable):
    """tau: the S-box on each byte of a 32-bit word."""

    def __init__(self) -> None:
        self.i = Signal(WORD)
        self.o = Signal(WORD)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        for lane in range(4):
            out = Signal(8, name=f"s{lane}")
            table_lookup(m, self.i[8 * lane:8 * lane + 8], SBOX, out)
            m.d.comb += self.o[8 * lane:8 * lane + 8].eq(out)
        return m


def t_function(m: Module, x: Value, rotations: tuple[int, ...], name: str) -> Value:
    """L(tau(x)) (``DATA_ROTATIONS``) or L'(tau(x)) (``KEY_ROTATIONS``)."""
    tau = Tau()
    m.submodules[name] = tau
    m.d.comb += tau.i.eq(x)
    # L or L' as rotations and XORs (the component library's rotxor, structure=rotations).
    out = Signal(WORD, name=f"{name}_out")
    m.d.comb += out.eq(rot_xor_logic(m, tau.o, rotations, "rotations"))
    return out


def _words(value: Value, count: int) -> list[Value]:
    """The 32-bit words of ``value``, most significant first."""
    return [value[WORD * (count - 1 - i):WORD * (count - i)] for i in range(count)]


class Sm4Datapath(RoundDatapath):
    """One round: (X0, X1, X2, X3) -> (X1, X2, X3, X0 ^ T(X1 ^ X2 ^ X3 ^ rk)); the last round
    writes (X4, X3, X2, X1), the reverse transform. ``rk`` is K_{s+3} || K_{s+4}."""

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(block_bits=128, round_key_bits=RK_BITS)
        self.options = options

    def elaborate(self, platform: object) -> Module:
        m = Module()
        source = Signal(128)
        m.d.comb += source.eq(Mux(self.first, self.block_in, self.state_in))
        x0, x1, x2, x3 = _words(source, 4)
        if not self.options.has_decrypt:
            key: Value = self.rk[WORD:]
        elif not self.options.has_encrypt:
            key = self.rk[:WORD]
        else:
            key = Mux(self.decrypt, self.rk[:WORD], self.rk[WORD:])
        x4 = Signal(WORD)
        m.d.comb += x4.eq(x0 ^ t_function(m, x1 ^ x2 ^ x3 ^ key, DATA_ROTATIONS, "t"))
        m.d.comb += self.state_out.eq(Mux(self.last, Cat(x1, x2, x3, x4), Cat(x4, x3, x2, x1)))
        return m


class Sm4KeyStep(KeyStep):
    """Key state K_s .. K_{s+4} (module docstring); one step forward or backward."""

    def __init__(self, key_len_bits: int, step_bits: int) -> None:
        super().__init__(key_bits=128, key_len_bits=key_len_bits, state_bits=STATE_BITS,
                         round_key_bits=RK_BITS, step_bits=step_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        # Load: K0..K3 = MK ^ FK, K4 = K0 ^ T'(K1 ^ K2 ^ K3 ^ CK0).
        k = [w ^ Const(f, WORD) for w, f in zip(_words(self.key, 4), FK)]
        k4 = k[0] ^ t_function(m, k[1] ^ k[2] ^ k[3] ^ Const(ck(0), WORD), KEY_ROTATIONS, "tload")
        m.d.comb += self.loaded.eq(Cat(k4, k[3], k[2], k[1], k[0]))
        w = _words(self.state_in, 5)
        constant = Signal(WORD)
        # Forward step j uses CK_{j+1}, backward step j CK_j.
        with m.Switch(Cat(self.step, self.backward)):
            for j in range(ROUNDS + 1):
                for backward, index in ((0, j + 1), (1, j)):
                    with m.Case(j | backward << len(self.step)):
                        m.d.comb += constant.eq(ck(index))
        mixed = Mux(self.backward, w[0] ^ w[1] ^ w[2], w[2] ^ w[3] ^ w[4]) ^ constant
        new = Signal(WORD)
        m.d.comb += new.eq(Mux(self.backward, w[3], w[1]) ^ t_function(m, mixed, KEY_ROTATIONS, "t"))
        # Forward: drop K_s, append the new word; backward: drop K_{s+4}, prepend it.
        m.d.comb += self.state_out.eq(Mux(self.backward, Cat(self.state_in[WORD:], new),
                                          Cat(new, self.state_in[:4 * WORD])))
        m.d.comb += [self.rk_in.eq(self.state_in[:RK_BITS]),
                     self.rk_out.eq(self.state_out[:RK_BITS])]
        return m


class Sm4Hardware(CipherHardware):
    name = "sm4"
    block_bits = 128
    round_key_bits = RK_BITS
    key_state_bits = STATE_BITS

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)

    def rounds(self, key_bits: int) -> int:
        return ROUNDS

    def datapath(self) -> Sm4Datapath:
        return Sm4Datapath(self.options)

    def key_step(self, key_len_bits: int, step_bits: int) -> Sm4KeyStep:
        return Sm4KeyStep(key_len_bits, step_bits)

    def describe(self) -> dict[str, object]:
        return {"data_sboxes": 4, "key_schedule_sboxes": 8, "key_state_words": 5,
                "data_rounds": ROUNDS}
