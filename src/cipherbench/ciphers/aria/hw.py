"""ARIA hardware description (RFC 5794): one round per clock, round keys on the fly, every key size
in one core if asked (the 3-in-1 core selects by ``key_len``).

Round (datapath). With s_i the value that enters the substitution layer of round i+1
(s_0 = P ^ ek_1), encryption is s_i = A(SL_i(s_{i-1})) ^ ek_{i+1} and the ciphertext
SL2(s_{n-1}) ^ ek_{n+1}. RFC 5794's decryption runs the same rounds with dk_i = A(ek_{n+2-i});
since A is linear, A(SL_i(s)) ^ A(ek) = A(SL_i(s) ^ ek), so decryption XORs the *encryption* key
ek_{n+1-i} in front of A instead of behind it, and the schedule never applies A to a key. One round
is: the S-box layer, the key XORed in front of A (decryption) or behind it (encryption; in a
one-direction core the other XOR folds away), and in round n the same without A.

The S-box layer has 16 S-boxes (SB1, SB2, SB3, SB4 repeated, the RFC's SL1). SL2 applies to byte j
the box SL1 applies to byte j^2, so SL2(x) = swap(SL1(swap(x))) with ``swap`` exchanging the byte
pairs (0,2), (1,3) of every group of four: two 128-bit multiplexers instead of 16 more S-boxes.
The round keys carry two control bits that choose SL1/SL2 and the last round (below), so the round
needs no round index.

Clocks: R = n+1 per block in both directions. Encryption's first clock only whitens (s_0 =
P ^ ek_1), then rounds 1..n. Decryption's first clock whitens with ek_{n+1} *and* computes round 1,
rounds 2..n follow, and its last clock holds. Why the whitening clock: the key initialization
(W1..W3, three round functions over KL || KR) is too deep to compute from the key port in one
clock, and ek_2 already needs W2. So the loaded key state has W0 = KL and W1 (one round function
from the port, as deep as a round), the key step computes W2 in step 0 and W3 in step 1 with a
round function of its own, and encryption's whitening clock gives W2 the clock it needs before
round 1 reads ek_2. Decryption starts from key state R, which the forward run-up (R clocks, once
per key) leaves complete.

Key state s (0 <= s <= R), 4 x 128 + 10 bits: the window P0 || P1 || P2 || P3 = W_j || W_{j+1} ||
W_{j+2} || W_{j+3} (indices mod 4, j = (s-1) mod 4, j = 0 for s = 0), s itself and the group
(s-1)//4 of its rotation, one-hot. Its round key is K(s) = P0 ^ (P1 >>> rot) = ek_s (ek_1 for
s = 0), ``rot`` the group's rotation: an AND-OR of five wirings, no word selection and no decoding
(the whitening key goes through it into the S-boxes; decoding the group from s instead made the
iterative core's longest path 47 gate levels on the generic flow, 44 with the one-hot group).
Forward step: the window turns one word left (not from state 0, whose window already has j = 0);
backward: one word right (not into state 0).
Step 0 writes W2 = FE(W1, CK2) ^ W0 into P2, step 1 writes W3 = FO(W2, CK3) ^ W1 into the word
that turns into P2; the new words never reach P0 or P1 of the state they go into, so no round key
depends on the key step's round function in the same clock (the round key bus of a state comes
from the state's own registers through the window and rotation multiplexers). A backward walk
only turns the window (it starts from a state with all four W).

Round-key bus: K(s) (128 bits), then ``odd`` (bit 128: SL1; s even) and ``final`` (bit 129: the
round without A; s = 1, decryption's round n, or s = n+1, encryption's round n).

Encryption's clock r (r >= 2: round r-1) thus reads K(r) = ek_r and decryption's clock r (round
r) reads K(R-r) = ek_{n+1-r}, the keys the generators hand them (arch/base.py): keys fly in every
generator, travel with the blocks in pipelines, and a round-key memory mirrors the encryption
entries for decryption (``stored_decryption = "mirror"``).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath, select_by_key_len
from ...components.aes_sbox import table_lookup
from ...components.bytes import from_bytes, get_bytes, permute_bytes
from .model import DIFFUSION, EK_ROTATIONS, KEY_CONSTANTS, ROUNDS, SL1_BOXES

BLOCK = 128
COUNT_BITS = 5                      # the state index s, 0..17
GROUPS = len(EK_ROTATIONS)          # the rotation of K(s), one-hot
CONTROL_BITS = COUNT_BITS + GROUPS
STATE_BITS = 4 * BLOCK + CONTROL_BITS
RK_BITS = BLOCK + 2
ODD_BIT, FINAL_BIT = BLOCK, BLOCK + 1
# swap: byte j <-> byte j^2 (SL2 = swap o SL1 o swap).
SWAP = tuple(j ^ 2 for j in range(16))


def _wire(m: Module, value: Value, name: str, width: int = BLOCK) -> Signal:
    wire = Signal(width, name=name)
    m.d.comb += wire.eq(value)
    return wire


class SubstitutionLayer(Elaboratable):
    """SL1 (``odd``) or SL2 on a 128-bit value: 16 S-box tables between two byte-swap
    multiplexers."""

    def __init__(self) -> None:
        self.i = Signal(BLOCK)
        self.odd = Signal()
        self.o = Signal(BLOCK)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        x = _wire(m, Mux(self.odd, self.i, permute_bytes(self.i, SWAP)), "swapped_in")
        out = []
        for j, byte in enumerate(get_bytes(x)):
            lane_in = Signal(8, name=f"b{j}_in")
            lane_out = Signal(8, name=f"b{j}_out")
            m.d.comb += lane_in.eq(byte)
            table_lookup(m, lane_in, SL1_BOXES[j % 4], lane_out)
            out.append(lane_out)
        y = _wire(m, from_bytes(out), "swapped_out")
        m.d.comb += self.o.eq(Mux(self.odd, y, permute_bytes(y, SWAP)))
        return m


def _window(state: Value) -> list[Value]:
    """P0..P3 of a key state (P0 most significant; s in the low bits)."""
    return [state[CONTROL_BITS + BLOCK * (3 - i):CONTROL_BITS + BLOCK * (4 - i)]
            for i in range(4)]


def group_of(s: int) -> int:
    """The rotation group of K(s): ek_s uses EK_ROTATIONS[(s-1)//4]; K(0) = ek_1."""
    return max(s - 1, 0) // 4


def diffusion(value: Value) -> Value:
    """A: output byte i is the XOR of seven input bytes (RFC 5794 section 2.4.3)."""
    x = get_bytes(value)
    out = []
    for sources in DIFFUSION:
        acc: Value = x[sources[0]]
        for j in sources[1:]:
            acc = acc ^ x[j]
        out.append(acc)
    return from_bytes(out)


def substitute(m: Module, x: Value, odd: Value, name: str) -> Signal:
    layer = SubstitutionLayer()
    m.submodules[name] = layer
    m.d.comb += [layer.i.eq(x), layer.odd.eq(odd)]
    return layer.o


class AriaDatapath(RoundDatapath):
    """One clock (module docstring): encryption's whitening clock, a round of either direction,
    or decryption's holding last clock."""

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(block_bits=BLOCK, round_key_bits=RK_BITS)
        self.options = options

    def elaborate(self, platform: object) -> Module:
        m = Module()
        enc, dec = self.options.has_encrypt, self.options.has_decrypt
        source = _wire(m, Mux(self.first, self.block_in ^ self.rk_white[:BLOCK], self.state_in),
                       "source")
        key = self.rk[:BLOCK]
        z = substitute(m, source, self.rk[ODD_BIT], "sl")
        d = self.decrypt if (enc and dec) else Const(int(dec), 1)
        # Decryption: A(z ^ ek); encryption: A(z) ^ ek (module docstring). A core with both
        # directions gates the key into one XOR or the other.
        if enc and dec:
            mixed: Value = (diffusion(z ^ (key & d.replicate(BLOCK)))
                            ^ (key & (~d).replicate(BLOCK)))
        elif dec:
            mixed = diffusion(z ^ key)
        else:
            mixed = diffusion(z) ^ key
        mixed = _wire(m, mixed, "mixed")
        out: Value = Mux(self.rk[FINAL_BIT], z ^ key, mixed)
        if enc:
            # Encryption's first clock only whitens.
            out = Mux(self.first & ~d, source, out)
        if dec:
            # Decryption's last clock holds its result.
            out = Mux(self.last & d, self.state_in, out)
        m.d.comb += self.state_out.eq(out)
        return m


class AriaKeyStep(KeyStep):
    """Load, and one step of the window (module docstring), for the key sizes of the core."""

    def __init__(self, key_sizes: tuple[int, ...], key_len_bits: int, step_bits: int,
                 code_of: dict[int, int]) -> None:
        self.key_sizes = key_sizes
        self.code_of = code_of
        super().__init__(key_bits=max(key_sizes), key_len_bits=key_len_bits,
                         state_bits=STATE_BITS, round_key_bits=RK_BITS, step_bits=step_bits)

    def _by_size(self, values: dict[int, int | Value], width: int) -> Value:
        """A per-key-size value (a constant for a one-size core)."""
        options = {k: (Const(v, width) if isinstance(v, int) else v) for k, v in values.items()}
        return select_by_key_len(self.key_len, options, self.code_of)

    def _round_key(self, m: Module, state: Value, name: str) -> Signal:
        """K(s) and its control bits, from a key state's own registers."""
        p0, p1 = _window(state)[:2]
        s, group = state[:COUNT_BITS], state[COUNT_BITS:CONTROL_BITS]
        # The group is stored one-hot, so the rotation is an AND-OR of five wirings: no decoding
        # between the key registers and the whitening XOR in front of the S-boxes.
        rotated: Value = Const(0, BLOCK)
        for g, amount in enumerate(EK_ROTATIONS):
            rotated = rotated | (p1.rotate_right(amount) & group[g].replicate(BLOCK))
        last_state = self._by_size({k: ROUNDS[k] + 1 for k in self.key_sizes}, COUNT_BITS)
        final = (s == 1) | (s == last_state)
        return _wire(m, Cat(p0 ^ rotated, ~s[0], final), name, RK_BITS)

    def _group_table(self, m: Module, s: Value, backward: int) -> Signal:
        """One-hot group_of(s + 1) (forward) or group_of(s - 1) (backward)."""
        out = Signal(GROUPS, name=f"group_{'down' if backward else 'up'}")
        with m.Switch(s):
            for value in range(1 << COUNT_BITS):
                target = value - 1 if backward else value + 1
                if 0 <= target <= max(ROUNDS.values()) + 1:
                    with m.Case(value):
                        m.d.comb += out.eq(1 << group_of(target))
        return out

    def _load(self, m: Module) -> Value:
        """State 0: W0 = KL, W1 = FO(KL, CK1) ^ KR, s = 0."""
        width = max(self.key_sizes)
        kl = self.key[width - BLOCK:]
        if width == BLOCK:
            kr: Value = Const(0, BLOCK)
        else:
            # KR: the key's bits after KL, zero beyond the key's length.
            rest = Cat(Const(0, 2 * BLOCK - width), self.key[:width - BLOCK])
            mask = self._by_size({k: ((1 << (k - BLOCK)) - 1) << (2 * BLOCK - k)
                                  for k in self.key_sizes}, BLOCK)
            kr = rest & mask
        ck1 = self._by_size({k: KEY_CONSTANTS[k][0] for k in self.key_sizes}, BLOCK)
        w1 = _wire(m, diffusion(substitute(m, kl ^ ck1, Const(1, 1), "load_sl")) ^ kr, "w1")
        return Cat(Const(0, COUNT_BITS), Const(1 << group_of(0), GROUPS), Const(0, 2 * BLOCK),
                   w1, kl)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.loaded.eq(self._load(m))
        p0, p1, p2, p3 = _window(self.state_in)
        s = self.state_in[:COUNT_BITS]
        first = s == 0
        # Step 0: W2 = FE(W1, CK2) ^ W0 (P1, P0); step 1: W3 = FO(W2, CK3) ^ W1 (P2, P1).
        ck2 = self._by_size({k: KEY_CONSTANTS[k][1] for k in self.key_sizes}, BLOCK)
        ck3 = self._by_size({k: KEY_CONSTANTS[k][2] for k in self.key_sizes}, BLOCK)
        f_in = _wire(m, Mux(first, p1 ^ ck2, p2 ^ ck3), "f_in")
        new = _wire(m, diffusion(substitute(m, f_in, ~first, "step_sl")) ^ Mux(first, p0, p1),
                    "new_w")
        fresh = s < 2   # this forward step writes W2 or W3
        up, down = (s + 1)[:COUNT_BITS], (s - 1)[:COUNT_BITS]
        # The one-hot group of the next state: a table of s and the direction.
        up = Cat(up, self._group_table(m, s, 0))
        down = Cat(down, self._group_table(m, s, 1))
        # State 0's window already starts at W0: step 0 does not turn it.
        forward = Mux(first, Cat(up, p3, new, p1, p0),
                      Cat(up, p0, Mux(fresh, new, p3), p2, p1))
        # Into state 0 the window does not turn either.
        backward = Mux(s == 1, Cat(down, p3, p2, p1, p0), Cat(down, p2, p1, p0, p3))
        m.d.comb += self.state_out.eq(Mux(self.backward, backward, forward))
        m.d.comb += [self.rk_in.eq(self._round_key(m, self.state_in, "rk_of_in")),
                     self.rk_out.eq(self._round_key(m, self.state_out, "rk_of_out"))]
        return m


class AriaHardware(CipherHardware):
    name = "aria"
    block_bits = 128
    round_key_bits = RK_BITS
    key_state_bits = STATE_BITS

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)

    def rounds(self, key_bits: int) -> int:
        # The n rounds and one clock for encryption's whitening (module docstring).
        return ROUNDS[key_bits] + 1

    def datapath(self) -> AriaDatapath:
        return AriaDatapath(self.options)

    def key_step(self, key_len_bits: int, step_bits: int) -> AriaKeyStep:
        sizes = tuple(sorted(self.options.key_sizes))
        return AriaKeyStep(sizes, key_len_bits, step_bits, {k: self.key_len_code(k) for k in sizes})

    def describe(self) -> dict[str, object]:
        return {"data_sboxes": 16, "key_schedule_sboxes": 32, "key_state_words": 4,
                "data_rounds": max(ROUNDS[k] for k in self.options.key_sizes)}
