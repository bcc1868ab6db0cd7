"""Masked PRESENT (arch/masked.py): the round-based core, ``present-80/masked`` and
``present-128/masked`` (``width=64``), encryption.

Sixteen masked S-boxes (components/masked/sbox4.py: ``MaskedSbox4``, the ANF in two layers of
DOM ANDs, 2 clocks, 8 fresh bits per evaluation at first order) for the state and one (two for a
128-bit key) for the key update, every share of the state and of the key register held in its
own register.

A round takes 3 clocks:

    step 0  the S-boxes take x = state XOR K_r (the top 64 bits of the key register, share by
            share); the key S-box takes the nibble that the update's rotation brings to the top
    step 1  (the pipeline's second stage)
    step 2  state <- pLayer(S(x)), key register <- the update (rotation by 61: wiring; the key
            S-box's output on top; the round counter on share 0 only: it is public)

The S-box output goes into the state register before the next round reads it: ``MaskedSbox4``
feeds its input straight into the first layer of DOM ANDs, and an output combined from both
domains' term registers of one AND (a_i b_j + r and a_j b_i + r, which meet in every output bit
that AND feeds) would cancel r in the next AND's glitches. So the round is the S-box's two clocks
and the register's one. After round 31 the key register holds K_32 on top and ``x`` is the
ciphertext: the output is the same XOR the S-boxes read, so the final addRoundKey costs no gate
and no clock. 31 x 3 = 93 clocks after the load clock.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Value

from ...arch.masked import (MaskedDatapath, feed_random, gadget_variant, random_bits_of,
                            share_registers)
from ...arch.narrow import Program, Segment
from ...components.masked.sbox4 import MaskedSbox4
from ...errors import CipherbenchError
from .hw import BLOCK_BITS, PresentHardware, permute
from .model import PERMUTATION, ROUNDS, SBOX

WIDTHS = (64,)
ROUND_CLOCKS = 3
ENCRYPT = "encrypt"


def key_nibbles(bits: int) -> list[int]:
    """Positions (low bit) of the nibbles the update's S-boxes read, in the register *before*
    the rotation left by 61 (they are the top nibble(s) after it)."""
    after = [bits - 4] + ([120] if bits == 128 else [])
    return [(p - 61) % bits for p in after]


def counter_position(bits: int) -> int:
    """The low bit of the 5 bits the round counter is XORed into (after the rotation)."""
    return 62 if bits == 128 else 15


class PresentMaskedRound(MaskedDatapath):
    """The round-based masked core (module docstring)."""

    def __init__(self, key_bits: int, shares: int, flaw: str) -> None:
        variant = gadget_variant(flaw)
        self.data_sboxes = [MaskedSbox4(SBOX, shares, **variant) for _ in range(BLOCK_BITS // 4)]
        self.key_sboxes = [MaskedSbox4(SBOX, shares, **variant) for _ in key_nibbles(key_bits)]
        self.latency = self.data_sboxes[0].latency
        assert self.latency + 1 == ROUND_CLOCKS
        super().__init__(shares=shares, block_bits=BLOCK_BITS, key_bits=key_bits, width=64,
                         random_bits=random_bits_of(self.data_sboxes + self.key_sboxes))

    def programs(self) -> dict[bool, Program]:
        return {False: Program(main=(Segment(ENCRYPT, {self.key_bits: ROUNDS}, ROUND_CLOCKS),))}

    def sbox_evaluations(self) -> int:
        return ROUNDS * (len(self.data_sboxes) + len(self.key_sboxes))

    def bits_per_evaluation(self) -> int:
        return self.data_sboxes[0].random_bits if self.shares > 1 else 0

    def describe(self) -> dict[str, object]:
        return {"sbox": "masked ANF, two DOM AND layers" if self.shares > 1 else "ANF pipeline",
                "sbox_latency": self.latency, "data_sboxes": len(self.data_sboxes),
                "key_schedule_sboxes": len(self.key_sboxes), "round_clocks": ROUND_CLOCKS}

    def elaborate(self, platform: object) -> Module:
        m = Module()
        n, bits = self.shares, self.key_bits
        state = share_registers("state", BLOCK_BITS, n)
        key = share_registers("key", bits, n)
        boxes = self.data_sboxes + self.key_sboxes
        for j, box in enumerate(boxes):
            m.submodules[f"sbox{j}" if j < 16 else f"key_sbox{j - 16}"] = box
        feed_random(m, self.random, boxes)

        x = [state[k] ^ key[k][bits - 64:] for k in range(n)]
        for j, box in enumerate(self.data_sboxes):
            m.d.comb += box.i.eq(Cat(*(x[k][4 * j:4 * j + 4] for k in range(n))))
        y = [Cat(*(box.o[4 * k:4 * k + 4] for box in self.data_sboxes)) for k in range(n)]
        for box, low in zip(self.key_sboxes, key_nibbles(bits)):
            m.d.comb += box.i.eq(Cat(*(key[k][low:low + 4] for k in range(n))))

        write = self.running(ENCRYPT) & (self.step == ROUND_CLOCKS - 1)
        with m.If(self.load):
            m.d.sync += [state[k].eq(self.block_in[k]) for k in range(n)]
            m.d.sync += [key[k].eq(self.key[k]) for k in range(n)]
        with m.Elif(write):
            m.d.sync += [state[k].eq(permute(y[k], PERMUTATION)) for k in range(n)]
            m.d.sync += [key[k].eq(self._updated(key[k], k)) for k in range(n)]
        m.d.comb += [self.block_out[k].eq(x[k]) for k in range(n)]
        return m

    def _updated(self, register: Value, share: int) -> Value:
        """Share ``share`` of the key register after the update: rotated, the key S-boxes'
        outputs on top, the round counter (public) on share 0."""
        bits = self.key_bits
        rotated = register.rotate_left(61)
        tops = [box.o[4 * share:4 * share + 4] for box in self.key_sboxes]
        if bits == 128:
            new = Cat(rotated[:120], tops[1], tops[0])
        else:
            new = Cat(rotated[:bits - 4], tops[0])
        if share:
            return new
        low = counter_position(bits)
        counter = (self.round[:5] + 1)[:5]
        return Cat(new[:low], new[low:low + 5] ^ counter, new[low + 5:])


class PresentMaskedHardware(PresentHardware):
    """PRESENT with a masked datapath (CipherInfo.arch_hardware: masked)."""

    def masked_datapath(self, width: int, shares: int, flaw: str) -> MaskedDatapath:
        if width not in WIDTHS:
            raise CipherbenchError(f"present has no masked {width}-bit datapath; valid widths: "
                                   f"{', '.join(map(str, WIDTHS))}")
        if self.options.directions != "encrypt":
            raise CipherbenchError("the masked PRESENT core encrypts only (ops=encrypt)")
        return PresentMaskedRound(self.options.key_sizes[0], shares, flaw)


HARDWARE = PresentMaskedHardware
