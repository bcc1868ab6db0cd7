"""AES hardware description: one round (encrypt, decrypt or both) and one key-schedule step.

Structure (NSA seed section 5.3.1): 16 data S-boxes, 4 key-schedule S-boxes; round keys on the fly
from a sliding window of Nk words that advances four words per round, forward for encryption and
backward ("unexpand", the expansion is linear in the previous words) for decryption.

Key state: a window of Nk words w[4i .. 4i+Nk-1]; its round key is the first four words. One step
forward computes w[4i+Nk .. 4i+Nk+3]; of those at most one word needs the non-linear T function
(RotWord+SubWord+Rcon when j % Nk == 0, SubWord alone when Nk == 8 and j % 8 == 4), so four key
S-boxes suffice for every key size; which word gets T, and the Rcon, follow from the step index and
Nk and are tabulated here at generation time.
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import Const, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath, select_by_key_len
from ...components.aes_linear import inv_mix_columns, inv_shift_rows, mix_columns, shift_rows
from ...components.aes_sbox import SBOX_KINDS, AesSbox
from ...components.bytes import from_bytes, from_words, get_bytes, get_words

ROUNDS = {128: 10, 192: 12, 256: 14}
RCON = (0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1B, 0x36, 0x6C, 0xD8, 0xAB, 0x4D)


@dataclass(frozen=True)
class StepControl:
    """Where the T function falls in one four-word step (p = None: no T in this step)."""

    p: int | None
    rot: bool
    rcon: int


def step_control(nk: int, step: int) -> StepControl:
    """Tabulate T's position for forward step ``step`` (new words j = 4*step+Nk .. +3)."""
    first = 4 * step + nk
    for k in range(4):
        j = first + k
        if j % nk == 0:
            return StepControl(p=k, rot=True, rcon=RCON[j // nk])
        if nk == 8 and j % 8 == 4:
            return StepControl(p=k, rot=False, rcon=0)
    return StepControl(p=None, rot=False, rcon=0)


class AesDatapath(RoundDatapath):
    """Whitening + one AES round; SubBytes lanes from the S-box component chosen by ``sbox``."""

    def __init__(self, directions: str, sbox: str) -> None:
        super().__init__(block_bits=128, round_key_bits=128)
        self.directions = directions
        self.sbox_kind = sbox

    def elaborate(self, platform: object) -> Module:
        m = Module()
        x = Signal(128)
        m.d.comb += x.eq(Mux(self.first, self.block_in ^ self.rk_white, self.state_in))
        subbed = self._sub_bytes(m, x)
        enc = self._encrypt_tail(subbed) if self.directions != "decrypt" else None
        dec = self._decrypt_tail(subbed) if self.directions != "encrypt" else None
        if enc is not None and dec is not None:
            m.d.comb += self.state_out.eq(Mux(self.decrypt, dec, enc))
        else:
            m.d.comb += self.state_out.eq(enc if enc is not None else dec)
        return m

    def _sub_bytes(self, m: Module, x: Value) -> Value:
        out = []
        for index, lane in enumerate(get_bytes(x)):
            sbox = AesSbox(self.sbox_kind, self.directions)
            m.submodules[f"sbox{index}"] = sbox
            m.d.comb += [sbox.i.eq(lane), sbox.decrypt.eq(self.decrypt)]
            out.append(sbox.o)
        return from_bytes(out)

    def _encrypt_tail(self, subbed: Value) -> Value:
        shifted = shift_rows(subbed)
        return Mux(self.last, shifted, mix_columns(shifted)) ^ self.rk

    def _decrypt_tail(self, subbed: Value) -> Value:
        keyed = inv_shift_rows(subbed) ^ self.rk
        return Mux(self.last, keyed, inv_mix_columns(keyed))


class AesKeyStep(KeyStep):
    """Sliding-window key expansion, forward and backward, for the configured key sizes."""

    def __init__(self, key_sizes: tuple[int, ...], directions: str, key_len_bits: int,
                 step_bits: int, sbox: str = "table") -> None:
        self.key_sizes = key_sizes
        self.sbox_kind = sbox
        self.max_words = max(key_sizes) // 32
        self.directions = directions
        super().__init__(key_bits=max(key_sizes), key_len_bits=key_len_bits,
                         state_bits=32 * self.max_words, round_key_bits=128, step_bits=step_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        # The key port is left-aligned, and the window holds w[0..Nk-1] in its first words: the
        # load is pure wiring for every key size.
        m.d.comb += self.loaded.eq(self.key)
        t_in, t_out = Signal(32), Signal(32)
        rot, rcon = Signal(), Signal(8)
        forward: dict[int, Value] = {}
        backward: dict[int, Value] = {}
        t_in_fwd: dict[int, Value] = {}
        t_in_bwd: dict[int, Value] = {}
        rot_of: dict[int, Value] = {}
        rcon_of: dict[int, Value] = {}
        for size in self.key_sizes:
            nk = size // 32
            ctl = self._controls(m, nk, size)
            rot_of[size], rcon_of[size] = ctl["rot"], ctl["rcon"]
            # Forward steps exist in every core: decryption's run-up is a forward walk.
            forward[size], t_in_fwd[size] = self._forward(m, nk, ctl, t_out)
            if self.directions != "encrypt":
                backward[size], t_in_bwd[size] = self._backward(m, nk, ctl, t_out)
        codes = {size: size // 8 for size in self.key_sizes}
        pick = lambda options: select_by_key_len(self.key_len, options, codes)  # noqa: E731
        t_in_value = pick(t_in_fwd)
        next_value = pick(forward)
        if backward:
            t_in_value = Mux(self.backward, pick(t_in_bwd), t_in_value)
            next_value = Mux(self.backward, pick(backward), next_value)
        m.d.comb += [t_in.eq(t_in_value), rot.eq(pick(rot_of)), rcon.eq(pick(rcon_of))]
        self._t_function(m, t_in, rot, rcon, t_out)
        m.d.comb += [
            self.state_out.eq(next_value),
            self.rk_in.eq(self.state_in[-128:]),
            self.rk_out.eq(self.state_out[-128:]),
        ]
        return m

    def _controls(self, m: Module, nk: int, size: int) -> dict[str, Value]:
        """Per-step control for one key size: T position (one-hot, p_onehot[k]), rot, rcon."""
        steps = ROUNDS[size]
        table = [step_control(nk, s) for s in range(steps)]
        p_onehot = Signal(5, name=f"p_onehot_{size}")  # bit 4: no T in this step
        rot = Signal(name=f"rot_{size}")
        rcon = Signal(8, name=f"rcon_{size}")
        with m.Switch(self.step):
            for s, ctl in enumerate(table):
                with m.Case(s):
                    m.d.comb += [
                        p_onehot.eq(1 << (ctl.p if ctl.p is not None else 4)),
                        rot.eq(int(ctl.rot)),
                        rcon.eq(ctl.rcon),
                    ]
        return {"p": p_onehot, "rot": rot, "rcon": rcon}

    def _window(self, nk: int) -> list[Value]:
        return get_words(self.state_in)[:nk]

    def _pack(self, words: list[Value]) -> Value:
        pad = [Const(0, 32)] * (self.max_words - len(words))
        return from_words(words + pad)

    def _forward(self, m: Module, nk: int, ctl: dict[str, Value],
                 t_out: Value) -> tuple[Value, Value]:
        w = self._window(nk)
        p = ctl["p"]
        chain: list[Value] = []  # c_k = w[k] ^ c_{k-1}, c_{-1} = w[nk-1]
        prev = w[nk - 1]
        for k in range(4):
            prev = w[k] ^ prev
            chain.append(prev)
        before = [w[nk - 1]] + chain[:3]  # c_{p-1} for p = 0..3: the word T is applied to
        t_in = Signal(32, name=f"fwd_t_in_{nk}")
        m.d.comb += t_in.eq(_onehot_mux(p, before))
        injected = t_in ^ t_out  # replaces c_{p-1} by T(c_{p-1}) in every later chain word
        new = []
        for k in range(4):
            applies = _any_bits(p, range(0, k + 1))  # T at a position <= k
            new.append(chain[k] ^ Mux(applies, injected, 0))
        return self._pack(w[4:nk] + new), t_in

    def _backward(self, m: Module, nk: int, ctl: dict[str, Value],
                  t_out: Value) -> tuple[Value, Value]:
        later = self._window(nk)  # w[4i+4 .. 4i+4+nk-1]
        new = later[nk - 4:]  # the words the forward step produced
        p = ctl["p"]
        plain = [None] + [new[k] ^ new[k - 1] for k in range(1, 4)]
        last_old = later[nk - 5] if nk > 4 else plain[3]  # w[4i+nk-1]
        # T's input: the word before position p (new[p-1], or w[4i+nk-1] when p = 0).
        t_in = Signal(32, name=f"bwd_t_in_{nk}")
        m.d.comb += t_in.eq(_onehot_mux(p, [last_old] + new[:3]))
        old = [new[0] ^ Mux(p[0], t_out, last_old)]
        for k in range(1, 4):
            old.append(Mux(p[k], new[k] ^ t_out, plain[k]))
        return self._pack(old + later[:nk - 4]), t_in

    def _t_function(self, m: Module, t_in: Value, rot: Value, rcon: Value, t_out: Signal) -> None:
        rotated = Mux(rot, from_bytes(get_bytes(t_in)[1:] + get_bytes(t_in)[:1]), t_in)
        subbed = []
        for index, lane in enumerate(get_bytes(rotated)):
            sbox = AesSbox(self.sbox_kind, "encrypt")  # the key schedule only ever uses S
            m.submodules[f"ksbox{index}"] = sbox
            m.d.comb += sbox.i.eq(lane)
            subbed.append(sbox.o)
        m.d.comb += t_out.eq(from_bytes(subbed) ^ (rcon << 24))


def _onehot_mux(onehot: Value, choices: list[Value]) -> Value:
    """AND-OR multiplexer driven by a one-hot select (all-zero select gives 0)."""
    result: Value = Const(0, len(choices[0]))
    for k, choice in enumerate(choices):
        result = result | Mux(onehot[k], choice, 0)
    return result


def _any_bits(onehot: Value, positions: range) -> Value:
    result: Value = Const(0, 1)
    for k in positions:
        result = result | onehot[k]
    return result


class AesHardware(CipherHardware):
    name = "aes"
    block_bits = 128
    round_key_bits = 128

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)
        self.sbox = options.extra.get("sbox", "table")
        if self.sbox not in SBOX_KINDS:
            raise ValueError(f"sbox={self.sbox}")
        self.key_state_bits = max(options.key_sizes)

    def rounds(self, key_bits: int) -> int:
        return ROUNDS[key_bits]

    def datapath(self) -> AesDatapath:
        return AesDatapath(self.options.directions, self.sbox)

    def key_step(self, key_len_bits: int, step_bits: int) -> AesKeyStep:
        return AesKeyStep(self.options.key_sizes, self.options.directions, key_len_bits, step_bits,
                          self.sbox)

    def describe(self) -> dict[str, object]:
        return {"sbox": self.sbox, "data_sboxes": 16, "key_schedule_sboxes": 4}
