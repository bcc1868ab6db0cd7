"""Masked SM4 (arch/masked.py): ``sm4/masked`` (``width=32``), encryption.

Four masked SM4 S-boxes (masked.py: the AES S-box's tower-field inverter between SM4's affine
maps, 7 clocks, a new input every clock, 18 fresh bits per evaluation at first order) shared by
the round function T and the key schedule's T', every share of the four state words X and the
four key-schedule words K in its own register; L, L', the XORs and the words' shifts share by
share, FK and CK_i (public constants) on share 0.

A round takes 8 clocks (step s):

    s 0   the S-boxes take K1 ^ K2 ^ K3 ^ CK_i (the key schedule's round i)
    s 6   the S-boxes give T(...) of the previous round's data: X <- (X1, X2, X3, X0 ^ L(.))
    s 7   the S-boxes give T'(...): rk_i = K0 ^ L'(.), K <- (K1, K2, K3, rk_i); in the same
          clock they take X1 ^ X2 ^ X3 ^ rk_i (rk_i straight from their output, through linear
          maps into the S-box's input register: glitch-safe)

Each round waits for the previous one (X_(i+4) needs X_(i+3)) and for its round key, so the
pipeline's 7 clocks and one for the key set the pace; the S-boxes are busy two clocks of eight.
A block takes the load clock (K <- MK ^ FK), 32 x 8 clocks and 7 for the last round's T:
264 clocks. The result is (X35, X34, X33, X32).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Mux, Signal, Value

from ...arch.masked import (MaskedDatapath, feed_random, gadget_variant, random_bits_of,
                            share_registers)
from ...arch.narrow import Program, Segment
from ...components.rotxor import rot_xor_logic
from ...errors import CipherbenchError
from .hw import DATA_ROTATIONS, KEY_ROTATIONS, WORD, Sm4Hardware
from .masked import MaskedSm4Sbox
from .model import FK, ROUNDS, ck

WIDTHS = (32,)
ROUND_CLOCKS = 8
ROUNDS_SEGMENT, LAST_SEGMENT = "rounds", "last"
KEY_FEED, DATA_OUT, KEY_OUT = 0, 6, 7


def words(value: Value) -> list[Value]:
    """The four 32-bit words of a 128-bit value, most significant first."""
    return [value[WORD * (3 - i):WORD * (4 - i)] for i in range(4)]


class Sm4MaskedWords(MaskedDatapath):
    """The masked word-serial SM4 encryption core (module docstring)."""

    def __init__(self, shares: int, flaw: str) -> None:
        self.sboxes = [MaskedSm4Sbox(shares, **gadget_variant(flaw)) for _ in range(4)]
        super().__init__(shares=shares, block_bits=128, key_bits=128, width=32,
                         random_bits=random_bits_of(self.sboxes))

    def programs(self) -> dict[bool, Program]:
        return {False: Program(main=(Segment(ROUNDS_SEGMENT, {128: ROUNDS}, ROUND_CLOCKS),
                                     Segment(LAST_SEGMENT, {128: 1}, DATA_OUT + 1)))}

    def sbox_evaluations(self) -> int:
        return 2 * ROUNDS * 4

    def bits_per_evaluation(self) -> int:
        return self.sboxes[0].random_bits

    def describe(self) -> dict[str, object]:
        return {"sbox": "masked tower field (DOM-indep)" if self.shares > 1 else "tower field",
                "sbox_latency": 7, "data_sboxes": 4, "key_schedule_sboxes": 0,
                "key_schedule": "shares the data S-boxes", "round_clocks": ROUND_CLOCKS}

    def elaborate(self, platform: object) -> Module:
        m = Module()
        n = self.shares
        for j, box in enumerate(self.sboxes):
            m.submodules[f"sbox{j}"] = box
        feed_random(m, self.random, self.sboxes)
        x = [share_registers(f"x{w}", WORD, n) for w in range(4)]     # x[w][k]
        k_ = [share_registers(f"k{w}", WORD, n) for w in range(4)]
        s = self.step[:3]
        rounds, last = self.running(ROUNDS_SEGMENT), self.running(LAST_SEGMENT)
        key_out = rounds & (s == KEY_OUT)
        data_out = (rounds & (self.round != 0) | last) & (s == DATA_OUT)

        constant = Signal(WORD, name="ck")
        with m.Switch(self.round[:5]):
            for i in range(ROUNDS):
                with m.Case(i):
                    m.d.comb += constant.eq(ck(i))
        tau = [Cat(*reversed([box.o[8 * share:8 * share + 8] for box in self.sboxes]))
               for share in range(n)]
        round_key = [k_[0][share] ^ rot_xor_logic(m, tau[share], KEY_ROTATIONS)
                     for share in range(n)]
        new_x = [x[0][share] ^ rot_xor_logic(m, tau[share], DATA_ROTATIONS)
                 for share in range(n)]
        for share in range(n):
            key_in = k_[1][share] ^ k_[2][share] ^ k_[3][share] ^ (constant if share == 0
                                                                   else 0)
            data_in = x[1][share] ^ x[2][share] ^ x[3][share] ^ round_key[share]
            feed = Mux(key_out, data_in, key_in)
            # S-box j takes byte j of the word, byte 0 the most significant.
            for j, box in enumerate(self.sboxes):
                m.d.comb += box.i[8 * share:8 * share + 8].eq(feed[8 * (3 - j):8 * (4 - j)])

            block, key = words(self.block_in[share]), words(self.key[share])
            with m.If(self.load):
                m.d.sync += [x[w][share].eq(block[w]) for w in range(4)]
                m.d.sync += [k_[w][share].eq(key[w] ^ (FK[w] if share == 0 else 0))
                             for w in range(4)]
            with m.Else():
                with m.If(data_out):
                    m.d.sync += [x[w][share].eq(x[w + 1][share]) for w in range(3)]
                    m.d.sync += x[3][share].eq(new_x[share])
                with m.If(key_out):
                    m.d.sync += [k_[w][share].eq(k_[w + 1][share]) for w in range(3)]
                    m.d.sync += k_[3][share].eq(round_key[share])
            # (X35, X34, X33, X32): the last word first.
            m.d.comb += self.block_out[share].eq(Cat(*(x[w][share] for w in range(4))))
        return m


class Sm4MaskedHardware(Sm4Hardware):
    """SM4 with a masked datapath (CipherInfo.arch_hardware: masked)."""

    def masked_datapath(self, width: int, shares: int, flaw: str) -> MaskedDatapath:
        if width not in WIDTHS:
            raise CipherbenchError(f"sm4 has no masked {width}-bit datapath; valid widths: "
                                   f"{', '.join(map(str, WIDTHS))}")
        if self.options.directions != "encrypt":
            raise CipherbenchError("the masked SM4 core encrypts only (ops=encrypt)")
        return Sm4MaskedWords(shares, flaw)


HARDWARE = Sm4MaskedHardware
