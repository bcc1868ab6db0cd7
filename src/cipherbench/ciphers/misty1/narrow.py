"""The compact MISTY1 core (Sugawara et al., seed 003, section 2.2, Fig. 9): FO spread over three
clocks through one FI block, which also makes the sub-key K' once per key.

``misty1/narrow:width=16``: one 16-bit FI function per clock. The cipher declares ``HARDWARE`` for
the narrow architecture (CipherInfo.arch_hardware).

Registers: the block as (A, B), A being FO's input (swapped Feistel form, as the loop core), a
32-bit FO temporary T = t0 || t1, and the key as two rings of eight 16-bit words, K (the key) and
K' (K'_i = FI(K_i, K_{i+1}), RFC 2994's EK[8..15]). A ring "at rotation m" holds index p + m at
position p; both rings always turn together.

- **Setup** (once per key and direction, 8 clocks): FI(K[0], K[1]) = K'_m, the rings turn +1 and
  K'[7] takes the result. After eight clocks K' is complete and the rings are back at m = 0; a
  second run (the other direction's) computes the same words again.
- **Load clock**: the input FL layer on the block (FL_0 / FL_1, decryption FL^-1_9 / FL^-1_8),
  its keys read from the rings at rest. Decryption turns the rings to m = 7 (its first round).
- **Round k** (8 rounds of 3 clocks, ring at m = k, so KO1..KO4 = K[0, 2, 7, 4] and
  KI1..KI3 = K'[5, 1, 3] are fixed positions):

      step 0:  t0 <- FI(A0 ^ KO1, KI1) ^ A1
      step 1:  t1 <- FI(A1 ^ KO2, KI2) ^ t0
      step 2:  FO = (FI(t0 ^ KO3, KI3) ^ t1) || (t1 ^ KO4); t = B ^ FO;
               (A, B) <- (FL(t), FL(A)) with the FL layer after rounds 1, 3, 5, 7
               (decryption: FL^-1 after 6, 4, 2, 0); the last round does not swap.

  The rings turn +1 after each encryption round and -1 after each decryption round but the
  last, so either direction leaves them at rest.

The FL keys of layer i sit at offset o = i - m, which is 0, -1, -2, -3 for the four layers after
rounds, in both directions (encryption: after round 2i - 1; decryption: after round 2i), and 0 or
4 for the input layer: a 5-way choice of four words, made from the round counter.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.base import CoreOptions
from ...arch.narrow import NarrowDatapath, Program, Segment
from ...errors import CipherbenchError
from ...interface import CoreShape
from .hw import FI, ROUNDS, WORDS, Misty1Hardware, fl_layer_half

WIDTH = 16
STEPS = 3
SETUP_SEGMENT = "kprime"
ROUNDS_SEGMENT = "rounds"
# Positions of the round's keys in the rings at rotation m = k.
KO_POSITIONS = (0, 2, 7, 4)
KI_POSITIONS = (5, 1, 3)
# The FL-key offsets (i - m mod 8): layers after rounds (q = k >> 1 -> -q), input layer (0 / 4).
FL_OFFSETS = (0, 7, 6, 5, 4)


def round_offset(k: int) -> int:
    """Offset of the FL keys of the layer after cipher round k (where there is one)."""
    return -(k >> 1) % WORDS


def input_offset(decrypt: bool) -> int:
    """Offset of the input layer's keys at rest: layer 0 (FL_0/1) or layer 4 (FL^-1_8/9)."""
    return 4 if decrypt else 0


class Misty1Compact(NarrowDatapath):
    """Block, FO temporary, the FI block, the two FL halves and the key rings (module docstring)."""

    def __init__(self, options: CoreOptions, sbox: str) -> None:
        shape = CoreShape(64, tuple(sorted(options.key_sizes)))
        super().__init__(width=WIDTH, block_bits=64, key_bits=shape.key_bits,
                         key_len_bits=shape.key_len_bits)
        self.options = options
        self.sbox = sbox

    def programs(self) -> dict[bool, Program]:
        setup = Segment(SETUP_SEGMENT, {128: 1}, WORDS)
        program = Program(main=(Segment(ROUNDS_SEGMENT, {128: ROUNDS}, STEPS),), setup=(setup,))
        out = {}
        if self.options.has_encrypt:
            out[False] = program
        if self.options.has_decrypt:
            out[True] = program
        return out

    def elaborate(self, platform: object) -> Module:
        m = Module()
        k = [Signal(16, name=f"k{p}", reset_less=True) for p in range(WORDS)]
        kp = [Signal(16, name=f"kp{p}", reset_less=True) for p in range(WORDS)]
        setup = self.running(SETUP_SEGMENT)
        rounds = self.running(ROUNDS_SEGMENT)
        steps = [rounds & (self.step == s) for s in range(STEPS)]
        a = Signal(32, reset_less=True)
        b = Signal(32, reset_less=True)
        t = Signal(32, reset_less=True)  # t0 (high) || t1
        m.d.comb += self.block_out.eq(Cat(b, a))

        # The one FI block: K' in setup, FO's three FI in the round's steps.
        m.submodules.fi = fi = FI(self.sbox)
        x = Mux(self.step == 0, a[16:], Mux(self.step == 1, a[:16], t[16:]))
        ko = Mux(self.step == 0, k[KO_POSITIONS[0]],
                 Mux(self.step == 1, k[KO_POSITIONS[1]], k[KO_POSITIONS[2]]))
        ki = Mux(self.step == 0, kp[KI_POSITIONS[0]],
                 Mux(self.step == 1, kp[KI_POSITIONS[1]], kp[KI_POSITIONS[2]]))
        m.d.comb += [fi.i.eq(Mux(setup, k[0], x ^ ko)), fi.key.eq(Mux(setup, k[1], ki))]
        after = Mux(self.step == 0, a[:16], t[16:])  # XORed with FI's output in steps 0, 1
        fo = Cat(fi.o ^ t[:16], t[:16] ^ k[KO_POSITIONS[3]])  # t0 low, t1 high (RFC 2994)
        feistel = Signal(32)
        m.d.comb += feistel.eq(b ^ fo)

        t_side, a_side = self._fl_layer(m, k, kp, feistel, a)
        with m.If(self.load_block):
            m.d.sync += [a.eq(t_side), b.eq(a_side)]
        with m.If(steps[0]):
            m.d.sync += t[16:].eq(fi.o ^ after)
        with m.If(steps[1]):
            m.d.sync += t[:16].eq(fi.o ^ after)
        with m.If(steps[2]):
            with m.If(self.last_round):
                m.d.sync += [a.eq(a_side), b.eq(t_side)]
            with m.Else():
                m.d.sync += [a.eq(t_side), b.eq(a_side)]
        self._rings(m, k, kp, setup, steps[2], fi.o)
        return m

    def _fl_layer(self, m: Module, k: list[Signal], kp: list[Signal], feistel: Value,
                  a: Value) -> tuple[Value, Value]:
        """The two FL halves: the "t" side (FO's result, or the block's high half at load) and the
        "A" side (FO's input, or the low half). At load both apply; after a round only when the
        round has a layer after it (controller round odd: k odd forward, k even backward)."""
        offset = Signal(range(WORDS))
        dec = self.decrypt
        # k >> 1 = r >> 1 forward, (7 - r) >> 1 = 3 - (r >> 1) backward.
        q = self.round[1:3] ^ Mux(dec, 3, 0)
        at_load = Mux(dec, input_offset(True), input_offset(False))
        m.d.comb += offset.eq(Mux(self.load_block, at_load, -q))

        def word(ring: list[Signal], shift: int) -> Value:
            value: Value = Const(0, 16)
            for o in FL_OFFSETS:
                value = Mux(offset == o, ring[(o + shift) % WORDS], value)
            return value

        # FL_{2i}: (AND K_i, OR K'_{i+6}); FL_{2i+1}: (AND K'_{i+2}, OR K_{i+4}); K_i at offset o.
        even = (word(k, 0), word(kp, 6))
        odd = (word(kp, 2), word(k, 4))
        # Encryption: the t side takes FL_{2i}, the A side FL_{2i+1}; decryption the reverse.
        t_keys = [Mux(dec, o, e) for e, o in zip(even, odd)]
        a_keys = [Mux(dec, e, o) for e, o in zip(even, odd)]
        t_in = Mux(self.load_block, self.block_in[32:], feistel)
        a_in = Mux(self.load_block, self.block_in[:32], a)
        apply = self.load_block | self.round[0]
        t_out = Signal(32)
        a_out = Signal(32)
        m.d.comb += [t_out.eq(Mux(apply, fl_layer_half(t_in, *t_keys, dec), t_in)),
                     a_out.eq(Mux(apply, fl_layer_half(a_in, *a_keys, dec), a_in))]
        return t_out, a_out

    def _rings(self, m: Module, k: list[Signal], kp: list[Signal], setup: Value,
               round_end: Value, fi_out: Value) -> None:
        """Load, setup (+1 per clock, K'[7] from FI) and the turns of the rounds."""
        dec = self.decrypt
        forward = setup | round_end & ~dec
        backward = self.load_block & dec | round_end & dec & ~self.last_round
        key_words = [self.key[16 * (WORDS - 1 - p):16 * (WORDS - p)] for p in range(WORDS)]
        for ring in (k, kp):
            for p in range(WORDS):
                with m.If(forward):
                    new = ring[(p + 1) % WORDS]
                    if ring is kp and p == WORDS - 1:
                        new = Mux(setup, fi_out, new)
                    m.d.sync += ring[p].eq(new)
                with m.Elif(backward):
                    m.d.sync += ring[p].eq(ring[(p - 1) % WORDS])
        with m.If(self.load_key):
            m.d.sync += [k[p].eq(key_words[p]) for p in range(WORDS)]

    def describe(self) -> dict[str, object]:
        program = self.programs()[not self.options.has_encrypt]
        return {"sbox": self.sbox, "data_fi": 1, "key_schedule_fi": 0,
                "key_schedule": "K' made by the data FI in setup", "fl_halves": 2,
                "clocks_per_round": STEPS, "latency": program.latency(128),
                "interval": program.interval(128), "key_setup": program.key_setup(128)}


class Misty1NarrowHardware(Misty1Hardware):
    """MISTY1 with the compact datapath (CipherInfo.arch_hardware: narrow)."""

    def narrow_datapath(self, width: int, keys: str = "rewind") -> NarrowDatapath:
        if width != WIDTH:
            raise CipherbenchError(f"misty1 has a {WIDTH}-bit narrow datapath only (one FI "
                                   f"function per clock); valid widths: {WIDTH}")
        if keys != "rewind":
            # Nothing to keep: the one key state returns to its start after every block.
            raise CipherbenchError(f"{self.name}/narrow: keys={keys} would store nothing "
                                   "more (the key rings are back at rest after every "
                                   "block); use keys=rewind")
        return Misty1Compact(self.options, self.sbox)


HARDWARE = Misty1NarrowHardware
