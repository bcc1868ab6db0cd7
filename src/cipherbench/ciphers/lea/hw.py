"""LEA hardware description (ISO/IEC 29192-2): one round per clock, round keys on the fly, every
key size (128/192/256) in one core if asked (the 3-in-1 core selects by ``key_len``).

Round (datapath): three 32-bit adders with fixed rotations. Encryption computes the three sums in
parallel; decryption's three subtractions form a chain (each needs the word the previous one
recovered). A core with both directions shares the three adders: each takes its encryption operands
or, for decryption, the rotated word and the inverted keyed word with carry in 1. Words are the
little-endian readings of the block's bytes (the specification's order): the byte permutation
is wiring, and the state register keeps the port's byte order.

Key schedule: the register T of Nk words (Nk = 4, 6, 8), word k at bits 32k..32k+31. Step j
(forward) replaces word k (k < 6, or k < 4 for Nk = 4) by ROL_{r_k}(T[k] + ROL_{j+k}(delta[j mod
Nk])), r = (1, 3, 6, 11, 13, 17). For Nk = 8 the specification updates words 6j+k mod 8; the
register here is T rotated so that those are always words 0..5: after the update the window turns
by six words (state j holds U_j[m] = T_j[(6j + m) mod 8]), so the six adders always see the same
positions, for every key size. The constants ROL_{j+k}(delta[j mod Nk]) are tables of the step
index. The backward step undoes it: ROR by r_k, then subtract the constant (the same adders with the
constant inverted and carry in 1).

Round keys: the round key of key state s (s >= 1) is RK_{s-1}: (T0, T1, T2, T1, T3, T1) for Nk = 4,
T0..T5 for Nk = 6, U[2..7] for Nk = 8 (the six words step s-1 just wrote). Encryption round r uses
the round key of state r, i.e. of the forward step's result. Decryption round r needs RK_{R-r}, the
round key of state R-r+1, which is the backward step's *input*: so ``rk_out`` of a backward step
is the round key of its ``state_in`` (a 192-bit multiplexer on the key bus), and a round-key memory
stores the backward walk as it runs (``stored_decryption = "walk"``). The pipelines' travelling
keys give a round the key of the state its register holds (``rk_in``, the state one round ahead),
which is one state off for decryption; pipelines therefore take stored or loaded round keys.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath
from ...components.adders import add
from .model import DELTA, KEY_ROTATIONS, ROUNDS, rol

WORD = 32
RK_WORDS = 6
RK_BITS = RK_WORDS * WORD


def block_words(value: Value) -> list[Value]:
    """X[0..3] of a 128-bit block whose byte 0 is most significant: X[i] is the little-endian
    reading of bytes 4i..4i+3."""
    nbytes = len(value) // 8
    byte = [value[len(value) - 8 * (b + 1):len(value) - 8 * b] for b in range(nbytes)]
    return [Cat(*byte[4 * i:4 * i + 4]) for i in range(nbytes // 4)]


def pack_words(words: list[Value]) -> Value:
    """The inverse of ``block_words``."""
    data = []
    for w in words:
        data += [w[8 * b:8 * b + 8] for b in range(4)]   # bytes in order
    return Cat(*reversed(data))


def _wire(m: Module, value: Value, name: str, width: int = WORD) -> Signal:
    wire = Signal(width, name=name)
    m.d.comb += wire.eq(value)
    return wire


class LeaDatapath(RoundDatapath):
    """One round, encryption or decryption (module docstring)."""

    def __init__(self, options: CoreOptions, adder: str) -> None:
        super().__init__(block_bits=128, round_key_bits=RK_BITS)
        self.options = options
        self.adder = adder

    def elaborate(self, platform: object) -> Module:
        m = Module()
        x = block_words(_wire(m, Mux(self.first, self.block_in, self.state_in), "source", 128))
        k = [self.rk[WORD * i:WORD * (i + 1)] for i in range(RK_WORDS)]
        enc, dec = self.options.has_encrypt, self.options.has_decrypt
        zero = Const(0, 1)
        sums = []
        if enc and not dec:
            for n in range(3):
                sums.append(add(m, _wire(m, x[n] ^ k[2 * n], f"a{n}"),
                                _wire(m, x[n + 1] ^ k[2 * n + 1], f"b{n}"), zero, self.adder,
                                f"add{n}_"))
            y = [sums[0].rotate_left(9), sums[1].rotate_right(5), sums[2].rotate_right(3), x[0]]
            m.d.comb += self.state_out.eq(pack_words(y))
            return m
        d = self.decrypt if (enc and dec) else Const(1, 1)
        # Decryption: y0 = x3; y_{n+1} = (rot_n(x_n) - (y_n ^ k_{2n})) ^ k_{2n+1}.
        back_rot = (lambda v: v.rotate_right(9), lambda v: v.rotate_left(5),
                    lambda v: v.rotate_left(3))
        fwd_rot = (lambda v: v.rotate_left(9), lambda v: v.rotate_right(5),
                   lambda v: v.rotate_right(3))
        y = [x[3]]
        for n in range(3):
            sub_b = _wire(m, ~(y[n] ^ k[2 * n]), f"sb{n}")
            if enc:
                a = Mux(d, back_rot[n](x[n]), x[n] ^ k[2 * n])
                b = Mux(d, sub_b, x[n + 1] ^ k[2 * n + 1])
            else:
                a, b = back_rot[n](x[n]), sub_b
            s = add(m, _wire(m, a, f"a{n}"), _wire(m, b, f"b{n}"), d, self.adder, f"add{n}_")
            sums.append(_wire(m, s, f"s{n}"))
            y.append(_wire(m, s ^ k[2 * n + 1], f"y{n + 1}"))
        if enc:
            out = Mux(d, pack_words(y),
                      pack_words([fwd_rot[n](sums[n]) for n in range(3)] + [x[0]]))
        else:
            out = pack_words(y)
        m.d.comb += self.state_out.eq(out)
        return m


def constants(key_bits: int, step: int) -> list[int]:
    """ROL_{j+k}(delta[j mod Nk]) for the six (four) words of step j."""
    nk = key_bits // 32
    return [rol(DELTA[step % nk], step + k) for k in range(4 if nk == 4 else 6)]


class LeaKeyStep(KeyStep):
    """Load and one forward or backward step for the key sizes of the core (module docstring)."""

    def __init__(self, key_sizes: tuple[int, ...], key_len_bits: int, step_bits: int,
                 adder: str, code_of: dict[int, int]) -> None:
        self.key_sizes = key_sizes
        self.words = max(key_sizes) // 32
        self.adder = adder
        self.code_of = code_of
        super().__init__(key_bits=max(key_sizes), key_len_bits=key_len_bits,
                         state_bits=self.words * WORD, round_key_bits=RK_BITS,
                         step_bits=step_bits)

    def _is(self, size: int) -> Value:
        if len(self.key_sizes) == 1:
            return Const(int(size == self.key_sizes[0]), 1)
        return self.key_len == self.code_of[size]

    def _round_key(self, w: list[Value]) -> Value:
        """The six round-key words of a key state, by key size."""
        options = {}
        for size in self.key_sizes:
            nk = size // 32
            if nk == 4:
                options[size] = Cat(w[0], w[1], w[2], w[1], w[3], w[1])
            elif nk == 6:
                options[size] = Cat(*w[:6])
            else:
                options[size] = Cat(*w[2:8])
        return self._select(options)

    def _select(self, options: dict[int, Value]) -> Value:
        sizes = sorted(options)
        result = options[sizes[0]]
        for size in sizes[1:]:
            result = Mux(self._is(size), options[size], result)
        return result

    def elaborate(self, platform: object) -> Module:
        m = Module()
        n = self.words
        # Load: the key's little-endian words, word 0 lowest (unused words of a short key: 0
        # from the don't-care low bits of the left-aligned port; never read).
        m.d.comb += self.loaded.eq(Cat(*block_words(self.key)))
        w = [self.state_in[WORD * i:WORD * (i + 1)] for i in range(n)]
        # The constant words of this step, per key size, from tables of the step index.
        const = [Signal(WORD, name=f"c{k}") for k in range(6)]
        per_size = {}
        for size in self.key_sizes:
            words = [Signal(WORD, name=f"c{k}_{size}") for k in range(6)]
            with m.Switch(self.step):
                for j in range(ROUNDS[size]):
                    with m.Case(j):
                        m.d.comb += [words[k].eq(c) for k, c in enumerate(constants(size, j))]
            per_size[size] = Cat(*words)
        m.d.comb += Cat(*const).eq(self._select(per_size))
        eight = self._is(256) if 256 in self.key_sizes else Const(0, 1)
        back = self.backward
        results = []
        for k in range(6):
            if k >= n:
                break
            # Backward: the window turned by six words for Nk = 8 (word k came from k+2).
            if n == 8:
                turned = Mux(eight, w[(k + 2) % 8], w[k])
            else:
                turned = w[k]
            a = Mux(back, turned.rotate_right(KEY_ROTATIONS[k]), w[k])
            b = const[k] ^ back.replicate(WORD)
            s = _wire(m, add(m, _wire(m, a, f"ka{k}"), _wire(m, b, f"kb{k}"), back, self.adder,
                             f"kadd{k}_"), f"ks{k}")
            results.append(_wire(m, Mux(back, s, s.rotate_left(KEY_ROTATIONS[k])), f"kr{k}"))
        out: dict[int, Value] = {}
        for size in self.key_sizes:
            nk = size // 32
            if nk == 4:
                new = results[:4] + w[4:]
            elif nk == 6:
                new = results[:6] + w[6:]
            else:
                fwd = [w[6], w[7]] + results[:6]
                bwd = results[:6] + [w[0], w[1]]
                new = [Mux(back, bv, fv) for fv, bv in zip(fwd, bwd)]
            out[size] = Cat(*new)
        m.d.comb += self.state_out.eq(self._select(out))
        w_out = [self.state_out[WORD * i:WORD * (i + 1)] for i in range(n)]
        rk_in = _wire(m, self._round_key(w), "rk_of_in", RK_BITS)
        rk_new = _wire(m, self._round_key(w_out), "rk_of_out", RK_BITS)
        # Decryption round r takes RK_{R-r}, the key of the backward step's input (docstring).
        m.d.comb += [self.rk_in.eq(rk_in), self.rk_out.eq(Mux(back, rk_in, rk_new))]
        return m


class LeaHardware(CipherHardware):
    name = "lea"
    block_bits = 128
    round_key_bits = RK_BITS
    # A round-key memory stores what the on-the-fly walks hand each round (rk_out of a backward
    # step is its input's round key).
    stored_decryption = "walk"
    # The pipelines' travelling keys give a round the key of the state it holds (rk_in), the
    # forward walk's; this schedule's decryption keys are one state off: keys=stored there.
    travelling_keys = False

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)
        self.adder = options.extra.get("adder", "kogge-stone")
        self.key_state_bits = max(options.key_sizes)

    def rounds(self, key_bits: int) -> int:
        return ROUNDS[key_bits]

    def datapath(self) -> LeaDatapath:
        return LeaDatapath(self.options, self.adder)

    def key_step(self, key_len_bits: int, step_bits: int) -> LeaKeyStep:
        sizes = tuple(sorted(self.options.key_sizes))
        return LeaKeyStep(sizes, key_len_bits, step_bits, self.adder,
                          {k: self.key_len_code(k) for k in sizes})

    def describe(self) -> dict[str, object]:
        return {"data_adders": 3, "key_schedule_adders": 6 if max(self.options.key_sizes) > 128
                else 4, "adder": self.adder}
