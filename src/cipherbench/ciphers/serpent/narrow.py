"""Serpent narrow datapaths (arch/narrow.py): Fischer's "fair" (64 bits per clock) and "minimum"
(16 bits per clock) configurations, and 32 and 8 bits between and below them.

Fischer (seed 004, section 3.4) runs Serpent as 33 key-mixing rounds of w bits per clock: 66 clocks
at 64 bits, 264 at 16 bits. Here a datapath of width w has L = w / 4 S-box lanes per direction
(lane j maps bit j of the four bitsliced words) and takes n = 32 / L clocks per round:

- **Data: four shift registers.** The words X0..X3 shift right by L bits each clock; the L lanes
  read bits 0..L-1 of every word and their outputs enter at the top. After n - 1 clocks the words
  hold the substituted slices 0..n-2 above the last unsubstituted slice, so in the round's last
  clock the lanes' outputs complete the substituted block with every bit back in place: no slice
  multiplexer in front of the lanes, and LT (LT^-1) and the key XOR see the whole block once.
- **Round keys on the fly, sliced the same way.** A second group of L lanes computes
  K_i = S_{(3-i) mod 8}(w_{4i} .. w_{4i+3}) one slice per clock into a (n-1)L-bit shift register
  per word; the last slice comes straight from the lanes, so the round key is complete in the
  clock that adds it. The prekey recurrence (XORs and rotations only) stays full width: the
  S-boxes are what Fischer narrows. Fischer reads precomputed subkeys from memory (EABs) instead;
  we keep the iterative core's one-register key schedule.
- **Rounds.** Encryption: round 0 is the whitening (x ^= K_0; the data lanes idle), round
  r = 1..32 is S_{r-1}, LT (not in round 32), XOR K_r. Decryption: round 0 is x ^= K_32, round r
  is S^-1, XOR K_{32-r}, LT^-1 (not in round 32). 33 rounds of n clocks: 66 at 64 bits, 264 at 16,
  Fischer's counts.
- **Prekey window.** One 256-bit register. Encryption computes K_i from the four words the
  recurrence makes from the window w_{4i-8} .. w_{4i-1}, then advances it; it starts at the
  padded key (w_-8 .. w_-1) and ends at w_124 .. w_131. Decryption computes K_i from the newest
  four words of w_{4i-4} .. w_{4i+3} and steps back with the inverted recurrence, so it starts
  where encryption ends and ends at the padded key. Moving the window costs no S-box: a run-up or
  a rewind step is one clock.
- ``keys=rewind`` (default): the window is the only key register. Encryption walks it back in 33
  clocks while the result waits (``post``); decryption runs it up in 33 clocks before its rounds
  (``pre``). ``keys=stored``: the padded key and the run-up's end are kept beside the window
  (+256 bits each) and reload it when a block starts; the run-up runs once per key (``setup``).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.narrow import NarrowDatapath, Program, Segment
from ...components.bytes import get_bytes
from ...errors import CipherbenchError
from ...interface import CoreShape
from .hw import (
    DEC_LANE,
    ENC_LANE,
    INDEX_BITS,
    KEY_LANE,
    KEY_WORDS,
    WINDOW,
    WORD,
    SerpentHardware,
    block_words,
    expand_backward,
    expand_forward,
    inverse_linear_transform,
    linear_transform,
    sbox_layer,
    words_block,
)
from .model import ROUNDS

WIDTHS = (64, 32, 16, 8)
KEY_ROUNDS = ROUNDS + 1          # 33: the whitening key and one per round
CRYPT, RUNUP, REWIND = "crypt", "key-runup", "key-rewind"


def padded_window(key: Value, key_len: Value, sizes: tuple[int, ...]) -> Value:
    """w_-8 .. w_-1 (packed with Cat) of a port-ordered key: the key bytes, a 1 bit above them,
    zeros; a core for several sizes pads by ``key_len`` (bytes)."""
    options = {}
    for size in sizes:
        key_bytes = get_bytes(key)[:size // 8]
        padding = [Const(1, 8)] + [Const(0, 8)] * (31 - size // 8) if size < 256 else []
        options[size] = Cat(*(key_bytes + padding))
    result = options[sizes[0]]
    for size in sizes[1:]:
        result = Mux(key_len == size // 8, options[size], result)
    return result


def _named(m: Module, value: Value, name: str) -> Signal:
    wire = Signal(len(value), name=name)
    m.d.comb += wire.eq(value)
    return wire


class SerpentSliced(NarrowDatapath):
    """Serpent at ``width`` bits per clock (module docstring): the state and the data lanes here,
    the prekey window and the key lanes in ``SlicedKeySchedule`` (the core's key_schedule)."""

    def __init__(self, hw: SerpentHardware, width: int, keys: str) -> None:
        shape = CoreShape(128, tuple(sorted(hw.options.key_sizes)))
        super().__init__(width=width, block_bits=128, key_bits=shape.key_bits,
                         key_len_bits=shape.key_len_bits)
        self.sizes = shape.key_sizes
        self.has_enc, self.has_dec = hw.options.has_encrypt, hw.options.has_decrypt
        self.stored = keys == "stored"
        self.lanes = width // 4
        self.clocks = WORD // self.lanes   # clocks per round
        self.keys = SlicedKeySchedule(self.sizes, shape.key_len_bits, self.lanes, self.has_dec,
                                      self.stored)
        self.key_schedule = self.keys     # placed by the core as its key_schedule block

    # --- programs ---------------------------------------------------------------------------

    def _segment(self, name: str) -> Segment:
        steps = self.clocks if name == CRYPT else 1
        return Segment(name, {k: KEY_ROUNDS for k in self.sizes}, steps)

    def programs(self) -> dict[bool, Program]:
        crypt, runup, rewind = (self._segment(n) for n in (CRYPT, RUNUP, REWIND))
        out: dict[bool, Program] = {}
        if self.has_enc:
            out[False] = Program(main=(crypt,)) if self.stored else Program(main=(crypt,),
                                                                          post=(rewind,))
        if self.has_dec:
            out[True] = (Program(main=(crypt,), setup=(runup,)) if self.stored
                         else Program(main=(crypt,), pre=(runup,)))
        return out

    def describe(self) -> dict[str, object]:
        facts: dict[str, object] = {
            "sbox": "table", "sbox_lane_inputs": 4 + INDEX_BITS,
            "data_sbox_lanes": self.lanes * (self.has_enc + self.has_dec),
            "key_schedule_sbox_lanes": self.lanes, "clocks_per_round": self.clocks,
            "key_registers": 256 * (1 + self.stored * (1 + self.has_dec))
            + 4 * (WORD - self.lanes),
        }
        for decrypt, program in self.programs().items():
            name = "decrypt" if decrypt else "encrypt"
            bits = self.sizes[-1]
            facts[f"{name}_latency"] = program.latency(bits)
            facts[f"{name}_interval"] = program.interval(bits)
            facts[f"{name}_key_setup"] = program.key_setup(bits)
        return facts

    # --- hardware ---------------------------------------------------------------------------

    def _running(self, name: str) -> Value:
        """1 while the named segment runs; 0 in cores whose programs lack it."""
        return self.running(name) if name in self.codes() else Const(0, 1)

    def _dec(self) -> Value:
        """1 when the block (or setup) is a decryption (a constant in one-direction cores)."""
        if self.has_enc and self.has_dec:
            return self.decrypt
        return Const(int(self.has_dec), 1)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        ks = self.keys
        dec = _named(m, self._dec(), "dec")
        crypt = _named(m, self.running(CRYPT), "crypting")
        final = _named(m, self.step == self.clocks - 1, "final_clock")
        # Key index i (0..32) of this clock: K_i is made, or the window moves past w_{4i}.
        # Encryption and the run-up count up from K_0, decryption and the rewind down from K_32.
        rnd = self.round[:6]
        backwards = _named(m, crypt & dec | self._running(REWIND), "backwards")
        runup = self._running(RUNUP)
        m.d.comb += [
            ks.key.eq(self.key), ks.key_len.eq(self.key_len), ks.load_key.eq(self.load_key),
            ks.load_block.eq(self.load_block), ks.start_setup.eq(self.start_setup),
            ks.index.eq(Mux(backwards, KEY_ROUNDS - 1 - rnd, rnd)), ks.dec.eq(dec),
            ks.slice.eq(self.step), ks.crypt.eq(crypt),
            # Encryption's rounds and the run-up move the window forward; decryption's rounds
            # and the rewind move it back.
            ks.step_on.eq(crypt & final & ~dec | runup),
            ks.step_back.eq(crypt & final & dec | self._running(REWIND)),
            ks.store_end.eq(runup & self.segment_end),
        ]
        round_key = [ks.round_key[WORD * b:WORD * (b + 1)] for b in range(KEY_WORDS)]
        self._state(m, round_key, ks.index, dec, crypt, final)
        return m

    def _state(self, m: Module, round_key: list[Value], key_index: Value, dec: Value,
               crypt: Value, final: Value) -> None:
        state = [Signal(WORD, name=f"x{b}", reset_less=True) for b in range(4)]
        low = [x[:self.lanes] for x in state]
        index = key_index[:INDEX_BITS]
        substituted = []  # (substituted block, finished round) per direction
        last = self.last_round
        if self.has_enc:
            y = sbox_layer(m, low, index, ENC_LANE, "enc")
            whole = [_named(m, Cat(x[self.lanes:], o), f"enc_s{b}") for b, (x, o) in
                     enumerate(zip(state, y))]
            mixed = linear_transform(whole)
            done = [Mux(last, whole[b], mixed[b]) ^ round_key[b] for b in range(4)]
            substituted.append((y, done))
        if self.has_dec:
            y = sbox_layer(m, low, index, DEC_LANE, "dec")
            keyed = [_named(m, Cat(x[self.lanes:], o) ^ k, f"dec_k{b}") for b, (x, o, k) in
                     enumerate(zip(state, y, round_key))]
            unmixed = inverse_linear_transform(keyed)
            done = [Mux(last, keyed[b], unmixed[b]) for b in range(4)]
            substituted.append((y, done))
        if len(substituted) == 2:
            lanes_out = [Mux(dec, d, e) for e, d in zip(substituted[0][0], substituted[1][0])]
            result = [Mux(dec, d, e) for e, d in zip(substituted[0][1], substituted[1][1])]
        else:
            lanes_out, result = substituted[0]
        # Round 0 is the whitening: the state waits whole for the key and takes it in the last
        # clock; the data lanes idle.
        whitening = _named(m, self.round == 0, "whitening")
        whitened = [x ^ k for x, k in zip(state, round_key)]
        with m.If(self.load_block):
            m.d.sync += Cat(*state).eq(Cat(*block_words(self.block_in)))
        with m.Elif(crypt & final):
            m.d.sync += [x.eq(Mux(whitening, w, r)) for x, w, r in zip(state, whitened, result)]
        with m.Elif(crypt & ~whitening):
            m.d.sync += [x.eq(Cat(x[self.lanes:], o)) for x, o in zip(state, lanes_out)]
        m.d.comb += self.block_out.eq(words_block(state))


class SlicedKeySchedule(Elaboratable):
    """The prekey window and the key lanes (placed as the core's ``key_schedule``): K_i one
    slice of W/4 lanes per clock, complete in the round's last clock (module docstring)."""

    def __init__(self, sizes: tuple[int, ...], key_len_bits: int, lanes: int, has_dec: bool,
                 stored: bool) -> None:
        self.sizes, self.lanes, self.has_dec, self.stored = sizes, lanes, has_dec, stored
        self.clocks = WORD // lanes
        self.key = Signal(max(sizes))
        self.key_len = Signal(key_len_bits)
        self.load_key = Signal()
        self.load_block = Signal()
        self.start_setup = Signal()
        self.index = Signal(6)         # i of K_i (0..32)
        self.dec = Signal()            # K_i from the window's newest words, not the recurrence
        self.slice = Signal(8)         # which slice the key lanes make
        self.crypt = Signal()          # a round clock: the kept slices shift
        self.step_on = Signal()        # the window moves forward past w_{4i} .. w_{4i+3}
        self.step_back = Signal()      # the window moves back from w_{4i-4} .. w_{4i+3}
        self.store_end = Signal()      # keys=stored: the run-up's last clock
        self.round_key = Signal(KEY_WORDS * WORD)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        window = [Signal(WORD, name=f"w{t}", reset_less=True) for t in range(WINDOW)]
        base = Cat(Const(0, 2), self.index)
        new = [_named(m, w, f"new{b}") for b, w in enumerate(expand_forward(window, base))]
        m.d.comb += self.round_key.eq(Cat(*self._round_key(m, window, new)))
        self._window(m, window, window[4:] + new, base)
        return m

    def _round_key(self, m: Module, window: list[Signal], new: list[Signal]) -> list[Value]:
        """K_i: slices 0..n-2 from the key shift registers, the last from the key lanes."""
        source: list[Value] = list(new)
        if self.has_dec:
            source = [Mux(self.dec, window[4 + b], new[b]) for b in range(KEY_WORDS)]
        # The lanes read slice ``slice`` of the source words.
        sliced = [Signal(self.lanes, name=f"key_slice{b}") for b in range(KEY_WORDS)]
        with m.Switch(self.slice):
            for s in range(self.clocks):
                with m.Case(s):
                    m.d.comb += [sliced[b].eq(source[b][s * self.lanes:(s + 1) * self.lanes])
                                 for b in range(KEY_WORDS)]
        out = sbox_layer(m, sliced, self.index[:INDEX_BITS], KEY_LANE, "ks")
        kept = [Signal(WORD - self.lanes, name=f"k{b}", reset_less=True) for b in range(KEY_WORDS)]
        with m.If(self.crypt):
            m.d.sync += [k.eq(Cat(k[self.lanes:], o)) for k, o in zip(kept, out)]
        return [_named(m, Cat(k, o), f"rk{b}") for b, (k, o) in enumerate(zip(kept, out))]

    def _window(self, m: Module, window: list[Signal], forward: list[Value], base: Value) -> None:
        """Load, forward and backward steps, and (keys=stored) the kept start states."""
        loaded = padded_window(self.key, self.key_len, self.sizes)
        backward: list[Value] = window
        if self.has_dec or not self.stored:
            backward = expand_backward(window, base) + window[:4]
        if self.stored:
            start = Signal(WINDOW * WORD, name="start", reset_less=True)
            with m.If(self.load_key):
                m.d.sync += start.eq(loaded)
            begin: Value = start
            if self.has_dec:
                end = Signal(WINDOW * WORD, name="end", reset_less=True)
                with m.If(self.store_end):
                    m.d.sync += end.eq(Cat(*forward))
                begin = Mux(self.dec, end, start)
            with m.If(self.load_block):
                m.d.sync += Cat(*window).eq(begin)
            with m.Elif(self.start_setup):
                m.d.sync += Cat(*window).eq(start)
        with m.If(self.load_key):
            m.d.sync += Cat(*window).eq(loaded)
        with m.Elif(self.step_on):
            m.d.sync += Cat(*window).eq(Cat(*forward))
        with m.Elif(self.step_back):
            m.d.sync += Cat(*window).eq(Cat(*backward))


class SerpentNarrowHardware(SerpentHardware):
    """Serpent with narrow datapaths (CipherInfo.arch_hardware: narrow)."""

    def narrow_datapath(self, width: int, keys: str = "rewind") -> NarrowDatapath:
        if width not in WIDTHS:
            raise CipherbenchError(f"serpent has no {width}-bit datapath; valid widths: "
                                   f"{', '.join(map(str, WIDTHS))}")
        return SerpentSliced(self, width, keys)


HARDWARE = SerpentNarrowHardware
