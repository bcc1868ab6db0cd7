"""Masked GIFT-128 (arch/masked.py): the round-based core ``gift/masked`` (``width=128``),
encryption.

Thirty-two masked S-boxes (components/masked/sbox4.py: ``MaskedSbox4``, GS's ANF in two layers of
DOM ANDs, 2 clocks, 6 fresh bits per evaluation at first order), every share of the state and of
the key register in its own register. GIFT's key schedule is word rotations (wiring), so the key
needs no S-box: each share of the key register turns on its own; the round constant is public
(a 6-bit LFSR register beside the shares, on share 0 with the constant 1 of bit 127).

A round takes 3 clocks: the S-boxes take the state register (step 0), their outputs are valid
two clocks later (step 2), and the state register takes PermBits of them XOR the round key
(U, V of the key register share by share) while the key register takes its update. The S-box
output goes into the state register before the next round's S-boxes read it: ``MaskedSbox4``
feeds its input straight into DOM ANDs, whose cross-domain terms must not see both domains'
term registers of one AND of the previous evaluation (present/masked.py says why). 40 x 3 =
120 clocks after the load clock.

The 2-clock bitsliced S-box (``MaskedGiftBitsliced``, 4 fresh bits instead of 6) takes 6 clocks;
a round would then take 7 and the core 280 clocks for two fresh bits less per S-box.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Signal, Value

from ...arch.masked import (MaskedDatapath, feed_random, gadget_variant, random_bits_of,
                            share_registers)
from ...arch.narrow import Program, Segment
from ...components.masked.sbox4 import MaskedSbox4
from ...errors import CipherbenchError
from .hw import BLOCK_BITS, CONSTANT_BITS, KEY_BITS, GiftHardware, key_update, lfsr_step, permute
from .model import PERMUTATION, ROUNDS, SBOX

WIDTHS = (128,)
ROUND_CLOCKS = 3
ENCRYPT = "encrypt"
FIRST_CONSTANT = 0x01   # c_1: the LFSR one step from 0


def round_key_mask(u: Value, v: Value, constant: Value | None) -> Value:
    """What AddRoundKey XORs into one share: U into bits 4j+2, V into 4j+1; for share 0
    (``constant`` given) also the round constant into bits 23, 19, .., 3 and 1 into bit 127."""
    bits: list[Value] = []
    for j in range(32):
        if constant is None:
            top: Value = Const(0, 1)
        else:
            top = Const(1, 1) if j == 31 else (constant[j] if j < CONSTANT_BITS else Const(0, 1))
        bits += [Const(0, 1), v[j], u[j], top]
    return Cat(*bits)


class GiftMaskedRound(MaskedDatapath):
    """The round-based masked core (module docstring)."""

    def __init__(self, shares: int, flaw: str) -> None:
        variant = gadget_variant(flaw)
        self.sboxes = [MaskedSbox4(SBOX, shares, **variant) for _ in range(BLOCK_BITS // 4)]
        self.latency = self.sboxes[0].latency
        assert self.latency + 1 == ROUND_CLOCKS
        super().__init__(shares=shares, block_bits=BLOCK_BITS, key_bits=KEY_BITS, width=128,
                         random_bits=random_bits_of(self.sboxes))

    def programs(self) -> dict[bool, Program]:
        return {False: Program(main=(Segment(ENCRYPT, {KEY_BITS: ROUNDS}, ROUND_CLOCKS),))}

    def sbox_evaluations(self) -> int:
        return ROUNDS * len(self.sboxes)

    def bits_per_evaluation(self) -> int:
        return self.sboxes[0].random_bits if self.shares > 1 else 0

    def describe(self) -> dict[str, object]:
        return {"sbox": "masked ANF, two DOM AND layers" if self.shares > 1 else "ANF pipeline",
                "sbox_latency": self.latency, "data_sboxes": len(self.sboxes),
                "key_schedule_sboxes": 0, "round_clocks": ROUND_CLOCKS}

    def elaborate(self, platform: object) -> Module:
        m = Module()
        n = self.shares
        state = share_registers("state", BLOCK_BITS, n)
        key = share_registers("key", KEY_BITS, n)
        constant = Signal(CONSTANT_BITS, name="constant")
        for j, box in enumerate(self.sboxes):
            m.submodules[f"sbox{j}"] = box
            m.d.comb += box.i.eq(Cat(*(state[k][4 * j:4 * j + 4] for k in range(n))))
        feed_random(m, self.random, self.sboxes)
        y = [Cat(*(box.o[4 * k:4 * k + 4] for box in self.sboxes)) for k in range(n)]

        write = self.running(ENCRYPT) & (self.step == ROUND_CLOCKS - 1)
        with m.If(self.load):
            m.d.sync += [state[k].eq(self.block_in[k]) for k in range(n)]
            m.d.sync += [key[k].eq(self.key[k]) for k in range(n)]
            m.d.sync += constant.eq(FIRST_CONSTANT)
        with m.Elif(write):
            for k in range(n):
                mask = round_key_mask(key[k][64:96], key[k][0:32], constant if k == 0 else None)
                m.d.sync += [state[k].eq(permute(y[k], PERMUTATION) ^ mask),
                             key[k].eq(key_update(key[k]))]
            m.d.sync += constant.eq(lfsr_step(constant))
        m.d.comb += [self.block_out[k].eq(state[k]) for k in range(n)]
        return m


class GiftMaskedHardware(GiftHardware):
    """GIFT-128 with a masked datapath (CipherInfo.arch_hardware: masked)."""

    def masked_datapath(self, width: int, shares: int, flaw: str) -> MaskedDatapath:
        if width not in WIDTHS:
            raise CipherbenchError(f"gift has no masked {width}-bit datapath; valid widths: "
                                   f"{', '.join(map(str, WIDTHS))}")
        if self.options.directions != "encrypt":
            raise CipherbenchError("the masked GIFT core encrypts only (ops=encrypt)")
        return GiftMaskedRound(shares, flaw)


HARDWARE = GiftMaskedHardware
