"""Serpent hardware description: one round (encrypt, decrypt or both) and one key-schedule step.

Structure (NSA seed section 5.4.1; Gaj & Chodowiec section 4.2 for the unrolled variant):

- Datapath, bitsliced (Serpent paper section 3): 32 four-bit S-box lanes per direction, the lane
  of nibble j taking bit j of the words X0..X3. One lane is a 7-input table: the 4-bit value and
  the 3-bit round index select among the eight S-boxes (eight inverse S-boxes for decryption),
  so one round instance serves all 32 rounds (NSA 5.4.1.4: the special rounds are selected by
  control, not by separate hardware).
- Encryption round r (1..32): S_{(r-1) mod 8}, then LT (round 32: no LT), then XOR K_r; round 1
  takes the input block XOR K_0 (the whitening of the architecture). Decryption round r: S^-1
  of round R-r, XOR K_{R-r}, then LT^-1 (round 32: no LT^-1); round 1 takes the block XOR K_32.
  Both directions read the state register directly: LT and LT^-1 sit after the S-boxes, so no
  direction needs a pre-round transform and the first round needs no special path.
- Key schedule (NSA 5.4.1.3): one copy of the prekey recurrence
  w_i = (w_{i-8} ^ w_{i-5} ^ w_{i-3} ^ w_{i-1} ^ phi ^ i) <<< 11, four new words per step, over an
  eight-word sliding window, run forward for encryption and backward for decryption (the
  recurrence is invertible: w_{i-8} = (w_i >>> 11) ^ w_{i-5} ^ w_{i-3} ^ w_{i-1} ^ phi ^ i).
  Key state i is the window w_{4i-4} .. w_{4i+3} plus the round key K_i = S_{(3-i) mod 8} of
  w_{4i} .. w_{4i+3}: keeping K_i in the state costs 128 flip-flops per stored state, but makes
  the whitening key a plain slice and leaves one key S-box layer (32 lanes) per step.
- Round key bus: K_i and i mod 8 (three control bits the datapath turns into the S-box index), so
  any architecture that hands a key state's round key to the round (on the fly, stored, pipelined)
  gets the right S-boxes without knowing Serpent.
- Load: the key padded to 256 bits (a 1 bit above the key, then zeros; the 3-in-1 core pads by
  key_len) gives w_-8 .. w_-1; key state 0 needs w_0 .. w_3 and K_0, so the load path holds a
  second copy of the four-word recurrence and one fixed S3 layer (the NSA's "initial expand").

Byte order: the model's (NESSIE): block byte 4i+j is byte j (least significant first) of X_i, key
bytes likewise make w_-8 .. w_-1; the ports carry the bytes with byte 0 most significant.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.base import (
    CipherHardware,
    CoreOptions,
    KeyStep,
    RoundDatapath,
    select_by_key_len,
)
from ...components.aes_sbox import table_lookup
from ...components.bytes import get_bytes
from .model import INVERSE_SBOXES, PHI, ROUNDS, SBOXES

WORD = 32
WINDOW = 8          # prekey words in the sliding window
KEY_WORDS = 4       # words of a round key
INDEX_BITS = 3      # round index mod 8: which of the eight S-boxes
ROUND_KEY_BITS = KEY_WORDS * WORD + INDEX_BITS
KEY_STATE_BITS = (WINDOW + KEY_WORDS) * WORD

# 128-entry lane tables indexed by (round index mod 8) << 4 | nibble. The index is that of the
# round key the lane's round uses: encryption round r has K_r and S-box r-1, decryption round r has
# K_{R-r} and inverse S-box R-r, and K_i comes from S-box 3-i. Folding these offsets into the
# tables costs nothing and keeps the control to the three bits of the round key's index.
ENC_LANE = tuple(SBOXES[(i - 1) % 8][x] for i in range(8) for x in range(16))
DEC_LANE = tuple(INVERSE_SBOXES[i][x] for i in range(8) for x in range(16))
KEY_LANE = tuple(SBOXES[(3 - i) % 8][x] for i in range(8) for x in range(16))


# --- word views -----------------------------------------------------------------------------------


def block_words(value: Value) -> list[Value]:
    """X_0 .. X_3 of a port-ordered block (byte 0 most significant): little-endian words."""
    parts = get_bytes(value)
    return [Cat(*parts[4 * i:4 * i + 4]) for i in range(len(parts) // 4)]


def words_block(words: list[Value]) -> Value:
    """Inverse of block_words."""
    parts = [w[8 * j:8 * j + 8] for w in words for j in range(4)]
    return Cat(*reversed(parts))


def unpack(value: Value, count: int) -> list[Value]:
    """Words of an internal bus packed with Cat (word 0 least significant)."""
    return [value[WORD * i:WORD * (i + 1)] for i in range(count)]


# --- the bitsliced layers -------------------------------------------------------------------------


def sbox_layer(m: Module, words: list[Value], index: Value, table: tuple[int, ...],
               prefix: str) -> list[Value]:
    """One lane of a 7-input table per bit of the words (32 for a round; fewer for a slice of
    one, ciphers/serpent/narrow.py): lane j maps bit j of the four words, with ``index``."""
    lanes = len(words[0])
    outs = [Signal(lanes, name=f"{prefix}_y{b}") for b in range(4)]
    for j in range(lanes):
        lane_in = Signal(4 + INDEX_BITS, name=f"{prefix}_in{j}")
        lane_out = Signal(4, name=f"{prefix}_out{j}")
        m.d.comb += lane_in.eq(Cat(words[0][j], words[1][j], words[2][j], words[3][j], index))
        table_lookup(m, lane_in, table, lane_out)
        m.d.comb += [outs[b][j].eq(lane_out[b]) for b in range(4)]
    return list(outs)


def _shl(x: Value, n: int) -> Value:
    return Cat(Const(0, n), x[:WORD - n])


def linear_transform(x: list[Value]) -> list[Value]:
    """LT of the bitsliced description (Serpent paper section 3)."""
    x0 = x[0].rotate_left(13)
    x2 = x[2].rotate_left(3)
    x1 = x[1] ^ x0 ^ x2
    x3 = x[3] ^ x2 ^ _shl(x0, 3)
    x1 = x1.rotate_left(1)
    x3 = x3.rotate_left(7)
    x0 = x0 ^ x1 ^ x3
    x2 = x2 ^ x3 ^ _shl(x1, 7)
    return [x0.rotate_left(5), x1, x2.rotate_left(22), x3]


def inverse_linear_transform(x: list[Value]) -> list[Value]:
    """LT^-1: LT's steps undone in reverse order."""
    x0, x1, x2, x3 = x[0].rotate_right(5), x[1], x[2].rotate_right(22), x[3]
    x2 = x2 ^ x3 ^ _shl(x1, 7)
    x0 = x0 ^ x1 ^ x3
    x3 = x3.rotate_right(7)
    x1 = x1.rotate_right(1)
    x3 = x3 ^ x2 ^ _shl(x0, 3)
    x1 = x1 ^ x0 ^ x2
    return [x0.rotate_right(13), x1, x2.rotate_right(3), x3]


def _named(m: Module, words: list[Value], prefix: str) -> list[Value]:
    """Words in named signals: LT reads every word several times, and Amaranth would otherwise
    re-emit the whole expression for each read."""
    out = []
    for b, word in enumerate(words):
        wire = Signal(WORD, name=f"{prefix}{b}")
        m.d.comb += wire.eq(word)
        out.append(wire)
    return out


class SerpentDatapath(RoundDatapath):
    """Whitening + one Serpent round, both directions by default (Gaj: no resource sharing
    between the directions: the S-boxes differ and LT^-1 is not LT)."""

    def __init__(self, directions: str) -> None:
        super().__init__(block_bits=128, round_key_bits=ROUND_KEY_BITS)
        self.directions = directions

    def elaborate(self, platform: object) -> Module:
        m = Module()
        white = unpack(self.rk_white, KEY_WORDS)
        key = unpack(self.rk, KEY_WORDS)
        index = self.rk[KEY_WORDS * WORD:]
        block = block_words(self.block_in)
        state = block_words(self.state_in)
        x = _named(m, [Mux(self.first, block[b] ^ white[b], state[b]) for b in range(4)], "x")
        results = []
        if self.directions != "decrypt":
            y = _named(m, sbox_layer(m, x, index, ENC_LANE, "enc"), "enc_s")
            mixed = linear_transform(y)
            results.append(("enc", [Mux(self.last, y[b], mixed[b]) ^ key[b] for b in range(4)]))
        if self.directions != "encrypt":
            y = sbox_layer(m, x, index, DEC_LANE, "dec")
            keyed = _named(m, [y[b] ^ key[b] for b in range(4)], "dec_k")
            unmixed = inverse_linear_transform(keyed)
            results.append(("dec", [Mux(self.last, keyed[b], unmixed[b]) for b in range(4)]))
        if len(results) == 2:
            out = [Mux(self.decrypt, results[1][1][b], results[0][1][b]) for b in range(4)]
        else:
            out = results[0][1]
        m.d.comb += self.state_out.eq(words_block(out))
        return m


# --- key schedule ---------------------------------------------------------------------------------


def _recurrence_constant(j: Value | int) -> Value:
    """phi ^ i for prekey word i (i < 256)."""
    return Const(PHI, WORD) ^ j


def expand_forward(window: list[Value], base: Value | int) -> list[Value]:
    """w_{b}..w_{b+3} from the eight words before them; ``base`` = b (a multiple of 4)."""
    ext = list(window)
    for k in range(4):
        j = Cat(Const(k, 2), base >> 2) if isinstance(base, Value) else base + k
        value = ext[k] ^ ext[k + 3] ^ ext[k + 5] ^ ext[k + 7] ^ _recurrence_constant(j)
        ext.append(value.rotate_left(11))
    return ext[WINDOW:]


def expand_backward(later: list[Value], base: Value) -> list[Value]:
    """w_{b-8}..w_{b-5} from w_{b-4}..w_{b+3} (``later``), b = ``base``: the recurrence undone,
    newest word first, since w_{b-5} (for i = b) is itself one of the recovered words."""
    old: list[Value | None] = [None] * 4
    for k in (3, 2, 1, 0):
        j = Cat(Const(k, 2), base >> 2)
        before = later[k - 1] if k >= 1 else old[3]
        assert before is not None
        old[k] = (later[4 + k].rotate_right(11) ^ before ^ later[k + 1] ^ later[k + 3]
                  ^ _recurrence_constant(j))
    return [w for w in old if w is not None]


class SerpentKeyStep(KeyStep):
    """Prekey window forward and backward, the round key and its index.

    Key state i (packed with Cat, word 0 least significant): window w_{4i-4} .. w_{4i+3}, then
    K_i. Step s joins key states s and s+1 (forward s -> s+1, backward s+1 -> s); both directions
    compute prekey words 4s+4 .. 4s+7 (the newest of state s+1), so the recurrence constant is the
    same function of s. The round key's index is that of its key state (s + backward for
    ``rk_in``, s + 1 - backward for ``rk_out``), mod 8: step indices that wrap below zero in other
    architectures still give the right index, as 8 divides 2**step_bits.
    """

    def __init__(self, key_sizes: tuple[int, ...], directions: str, key_len_bits: int,
                 step_bits: int) -> None:
        self.key_sizes = key_sizes
        self.directions = directions
        super().__init__(key_bits=max(key_sizes), key_len_bits=key_len_bits,
                         state_bits=KEY_STATE_BITS, round_key_bits=ROUND_KEY_BITS,
                         step_bits=step_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.loaded.eq(self._load(m))
        words = unpack(self.state_in, WINDOW + KEY_WORDS)
        window, key_in = words[:WINDOW], words[WINDOW:]
        base = Signal(self.step.shape().width + 2, name="base")  # 4s + 4: first new prekey word
        m.d.comb += base.eq(Cat(Const(0, 2), self.step + 1))
        index_in = Signal(INDEX_BITS, name="index_in")
        index_out = Signal(INDEX_BITS, name="index_out")
        m.d.comb += [index_in.eq(self.step + self.backward),
                     index_out.eq(self.step + 1 - self.backward)]
        new = _named(m, expand_forward(window, base), "fwd")
        forward_window = window[4:] + new
        sbox_in = new
        next_window = forward_window
        if self.directions != "encrypt":
            # Backward from state s+1: K_s comes from the oldest four words of state s+1, so the
            # key S-boxes read the register directly (no recurrence in front of them).
            old = _named(m, expand_backward(window, base), "bwd")
            sbox_in = [Mux(self.backward, window[b], new[b]) for b in range(4)]
            next_window = [Mux(self.backward, o, f) for o, f in zip(old + window[:4],
                                                                     forward_window)]
        key_out = sbox_layer(m, sbox_in, index_out, KEY_LANE, "ks")
        m.d.comb += [
            self.state_out.eq(Cat(*next_window, *key_out)),
            self.rk_in.eq(Cat(*key_in, index_in)),
            self.rk_out.eq(Cat(*key_out, index_out)),
        ]
        return m

    def _load(self, m: Module) -> Value:
        """Key state 0 from the key port: pad, then w_0 .. w_3 and K_0 = S3(w_0 .. w_3)."""
        padded = {size: self._padded_words(size) for size in self.key_sizes}
        prekeys = select_by_key_len(self.key_len, {s: Cat(*w) for s, w in padded.items()},
                                    {size: size // 8 for size in self.key_sizes})
        start = _named(m, unpack(prekeys, WINDOW), "pre")  # w_-8 .. w_-1
        first = _named(m, expand_forward(start, 0), "w")
        k0 = sbox_layer(m, first, Const(0, INDEX_BITS), KEY_LANE, "load")
        return Cat(*start[4:], *first, *k0)

    def _padded_words(self, size: int) -> list[Value]:
        """w_-8 .. w_-1 of a ``size``-bit key: the key bytes, a 1 bit above them, then zeros."""
        key_bytes = get_bytes(self.key)[:size // 8]
        padding = [Const(1, 8)] + [Const(0, 8)] * (31 - size // 8) if size < 256 else []
        parts = key_bytes + padding
        return [Cat(*parts[4 * t:4 * t + 4]) for t in range(WINDOW)]


class SerpentHardware(CipherHardware):
    name = "serpent"
    block_bits = 128
    round_key_bits = ROUND_KEY_BITS
    key_state_bits = KEY_STATE_BITS

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)

    def rounds(self, key_bits: int) -> int:
        return ROUNDS

    def datapath(self) -> SerpentDatapath:
        return SerpentDatapath(self.options.directions)

    def key_step(self, key_len_bits: int, step_bits: int) -> SerpentKeyStep:
        return SerpentKeyStep(tuple(self.options.key_sizes), self.options.directions,
                              key_len_bits, step_bits)

    def describe(self) -> dict[str, object]:
        directions = 2 if self.options.directions == "both" else 1
        return {
            "sbox": "table",
            "sbox_lane_inputs": 4 + INDEX_BITS,  # the nibble and the round index mod 8
            "data_sbox_lanes": 32 * directions,
            "key_schedule_sbox_lanes": 32,
            "load_sbox_lanes": 32,
            "key_state_bits": KEY_STATE_BITS,
        }
