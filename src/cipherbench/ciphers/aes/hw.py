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
from ...components.aes_sbox import AesSbox
from ...components.aes_sbox_bram import AesSboxBram
from ...components.bytes import from_bytes, from_words, get_bytes, get_words
from ...errors import CipherbenchError
from . import SBOX_CHOICES

ROUNDS = {128: 10, 192: 12, 256: 14}
# The S-box as a synchronous-read memory (block RAM on FPGAs): its output register is the round's
# register after SubBytes, so it exists only where the round has one (an inner cut at boundary 1).
BRAM = "bram"
# The cut that the memory's output register takes the place of.
SUBBYTES_CUT = 1
BRAM_USAGE = ("sbox=bram registers the S-box output, which needs a cut after SubBytes: use "
              "aes-128/pipelined:inner=1,sbox=bram (or inner=2, any stages)")
# Sub-round steps, where inner-round pipelines may cut (AesDatapath shows what each does).
STEPS = ("subbytes", "mixcolumns", "addroundkey")
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
    """Whitening + one AES round; SubBytes lanes from the S-box component chosen by ``sbox``.

    Sub-round steps (``STEPS``), per direction:

    ==============  ======================  ==========================
    step            encryption              decryption
    ==============  ======================  ==========================
    subbytes        SubBytes                InvSubBytes
    mixcolumns      ShiftRows, MixColumns   InvShiftRows, AddRoundKey
    addroundkey     AddRoundKey             InvMixColumns
    ==============  ======================  ==========================

    Decryption is the straightforward inverse cipher (AddRoundKey before InvMixColumns), so its
    steps pair up with encryption's by depth: a cut before ``addroundkey`` splits both directions
    after a shallow step. With such a cut the two directions are merged before the register (one
    128-bit register, not two); without it they stay apart to the end, so that no structural path
    runs through MixColumns into InvMixColumns.
    """

    def __init__(self, directions: str, sbox: str, cuts: tuple[int, ...] = ()) -> None:
        super().__init__(block_bits=128, round_key_bits=128, cuts=cuts)
        self.directions = directions
        self.sbox_kind = sbox

    def elaborate(self, platform: object) -> Module:
        m = Module()
        x = Signal(128)
        m.d.comb += x.eq(Mux(self.first, self.block_in ^ self.rk_white, self.state_in))
        if self.sbox_kind == BRAM:
            # The memories' read registers are the cut after SubBytes (enabled as it would be).
            subbed = _wire(m, self._sub_bytes_registered(m, x), "subbed")
        else:
            subbed = self._cut(m, _wire(m, self._sub_bytes(m, x), "subbed"), SUBBYTES_CUT)
        seg = self.segment_of(1)
        enc = self._encrypt_mix(m, subbed, seg) if self.directions != "decrypt" else None
        dec = self._decrypt_key(m, subbed, seg) if self.directions != "encrypt" else None
        if 2 in self.cuts:
            merged = self._cut(m, self._by_direction(enc, dec, self.seg_decrypt[seg]), 2)
            enc = merged if enc is not None else None
            dec = merged if dec is not None else None
        seg = self.segment_of(2)
        enc = enc ^ self.seg_rk[seg] if enc is not None else None
        dec = Mux(self.seg_last[seg], dec, inv_mix_columns(dec)) if dec is not None else None
        m.d.comb += self.state_out.eq(self._by_direction(enc, dec, self.seg_decrypt[seg]))
        return m

    def _cut(self, m: Module, value: Value, boundary: int) -> Value:
        """``value`` registered if there is a cut before step ``boundary``. Reset-less: the valid
        bits the architecture keeps say what is data, and a reset mux would cost a gate level."""
        if boundary not in self.cuts:
            return value
        reg = Signal(len(value), name=f"cut{boundary}", reset_less=True)
        with m.If(self.enable):
            m.d.sync += reg.eq(value)
        return reg

    @staticmethod
    def _by_direction(enc: Value | None, dec: Value | None, decrypt: Value) -> Value:
        if enc is not None and dec is not None:
            return Mux(decrypt, dec, enc)
        result = enc if enc is not None else dec
        assert result is not None
        return result

    def _sub_bytes(self, m: Module, x: Value) -> Value:
        out = []
        for index, lane in enumerate(get_bytes(x)):
            sbox = AesSbox(self.sbox_kind, self.directions)
            m.submodules[f"sbox{index}"] = sbox
            m.d.comb += [sbox.i.eq(lane), sbox.decrypt.eq(self.decrypt)]
            out.append(sbox.o)
        return from_bytes(out)

    def _sub_bytes_registered(self, m: Module, x: Value) -> Value:
        """SubBytes through 16 synchronous-read memories: the result appears one enabled clock
        later, as the cut register would give it."""
        out = []
        for index, lane in enumerate(get_bytes(x)):
            sbox = AesSboxBram(self.directions)
            m.submodules[f"sbox{index}"] = sbox
            m.d.comb += [sbox.i.eq(lane), sbox.decrypt.eq(self.decrypt), sbox.en.eq(self.enable)]
            out.append(sbox.o)
        return from_bytes(out)

    def _encrypt_mix(self, m: Module, subbed: Value, seg: int) -> Value:
        shifted = _wire(m, shift_rows(subbed), "enc_shifted")
        return Mux(self.seg_last[seg], shifted, mix_columns(shifted))

    def _decrypt_key(self, m: Module, subbed: Value, seg: int) -> Value:
        return _wire(m, inv_shift_rows(subbed) ^ self.seg_rk[seg], "dec_keyed")


class AesKeyStep(KeyStep):
    """Sliding-window key expansion, forward and backward, for the configured key sizes.

    Over ``segments`` > 1 (inner-round pipelines) the step splits after T: T's input selection and
    T itself (the S-box half) run in segment 0, T's 32-bit output is registered (and delayed to the
    last segment), and the XOR expansion runs in the last segment from the key state the
    architecture carries there. Only T's output is stored; the window is never registered twice.
    """

    def __init__(self, key_sizes: tuple[int, ...], directions: str, key_len_bits: int,
                 step_bits: int, sbox: str = "table", segments: int = 1) -> None:
        self.key_sizes = key_sizes
        self.sbox_kind = sbox
        self.max_words = max(key_sizes) // 32
        self.directions = directions
        super().__init__(key_bits=max(key_sizes), key_len_bits=key_len_bits,
                         state_bits=32 * self.max_words, round_key_bits=128, step_bits=step_bits,
                         segments=segments)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        # The key port is left-aligned, and the window holds w[0..Nk-1] in its first words: the
        # load is pure wiring for every key size.
        m.d.comb += self.loaded.eq(self.key)
        last = self.segments - 1
        t_out = Signal(32)
        first_ctl = {size: self._controls(m, size, 0) for size in self.key_sizes}
        t_in, first_fwd_t_in = self._t_input(m, first_ctl, 0)
        self._t_function(m, t_in, self._pick(first_ctl, "rot", 0),
                         self._pick(first_ctl, "rcon", 0), t_out)
        late_t = t_out
        for g in range(1, self.segments):
            reg = Signal(32, name=f"t_out_seg{g}", reset_less=True)
            with m.If(self.enable):
                m.d.sync += reg.eq(late_t)
            late_t = reg
        late_ctl = first_ctl if last == 0 else {
            size: self._controls(m, size, last) for size in self.key_sizes}
        forward: dict[int, Value] = {}
        backward: dict[int, Value] = {}
        for size in self.key_sizes:
            nk = size // 32
            window = self._window(nk, last)
            p = late_ctl[size]["p"]
            # Forward steps exist in every core: decryption's run-up is a forward walk.
            fwd_t_in = (first_fwd_t_in[size] if last == 0
                        else self._forward_t_in(m, window, p, nk, last))
            forward[size] = self._forward(window, p, fwd_t_in, late_t)
            if self.directions != "encrypt":
                backward[size] = self._backward(window, p, late_t, nk)
        next_value = self._select(forward, last)
        if backward:
            next_value = Mux(self.seg_backward[last], self._select(backward, last), next_value)
        m.d.comb += [self.state_out.eq(next_value), self.rk_out.eq(self.state_out[-128:])]
        m.d.comb += [rk.eq(state[-128:]) for rk, state in zip(self.seg_rk, self.seg_state)]
        return m

    def _select(self, options: dict[int, Value], seg: int) -> Value:
        codes = {size: size // 8 for size in self.key_sizes}
        return select_by_key_len(self.seg_key_len[seg], options, codes)

    def _pick(self, ctl: dict[int, dict[str, Value]], name: str, seg: int) -> Value:
        return self._select({size: c[name] for size, c in ctl.items()}, seg)

    def _t_input(self, m: Module, ctl: dict[int, dict[str, Value]],
                 seg: int) -> tuple[Value, dict[int, Value]]:
        """T's input in segment ``seg`` (forward or backward, for the block's key size), and the
        forward candidates per key size (the forward expansion XORs T's input back out)."""
        fwd: dict[int, Value] = {}
        bwd: dict[int, Value] = {}
        for size in self.key_sizes:
            nk = size // 32
            window, p = self._window(nk, seg), ctl[size]["p"]
            fwd[size] = self._forward_t_in(m, window, p, nk, seg)
            if self.directions != "encrypt":
                bwd[size] = self._backward_t_in(m, window, p, nk, seg)
        t_in = Signal(32, name=f"t_in_seg{seg}")
        value = self._select(fwd, seg)
        if bwd:
            value = Mux(self.seg_backward[seg], self._select(bwd, seg), value)
        m.d.comb += t_in.eq(value)
        return t_in, fwd

    def _controls(self, m: Module, size: int, seg: int) -> dict[str, Value]:
        """Per-step control for one key size: T position (one-hot, p_onehot[k]), rot, rcon."""
        nk = size // 32
        steps = ROUNDS[size]
        table = [step_control(nk, s) for s in range(steps)]
        suffix = f"{size}" if seg == 0 else f"{size}_seg{seg}"
        p_onehot = Signal(5, name=f"p_onehot_{suffix}")  # bit 4: no T in this step
        rot = Signal(name=f"rot_{suffix}")
        rcon = Signal(8, name=f"rcon_{suffix}")
        with m.Switch(self.seg_step[seg]):
            for s, ctl in enumerate(table):
                with m.Case(s):
                    m.d.comb += [
                        p_onehot.eq(1 << (ctl.p if ctl.p is not None else 4)),
                        rot.eq(int(ctl.rot)),
                        rcon.eq(ctl.rcon),
                    ]
        return {"p": p_onehot, "rot": rot, "rcon": rcon}

    def _window(self, nk: int, seg: int) -> list[Value]:
        return get_words(self.seg_state[seg])[:nk]

    def _pack(self, words: list[Value]) -> Value:
        pad = [Const(0, 32)] * (self.max_words - len(words))
        return from_words(words + pad)

    @staticmethod
    def _chain(w: list[Value], nk: int) -> list[Value]:
        """c_k = w[k] ^ c_{k-1}, c_{-1} = w[nk-1]: the new words without T."""
        chain: list[Value] = []
        prev = w[nk - 1]
        for k in range(4):
            prev = w[k] ^ prev
            chain.append(prev)
        return chain

    def _forward_t_in(self, m: Module, w: list[Value], p: Value, nk: int, seg: int) -> Value:
        before = [w[nk - 1]] + self._chain(w, nk)[:3]  # c_{p-1} for p = 0..3: T's argument
        t_in = Signal(32, name=f"fwd_t_in_{nk}" + (f"_seg{seg}" if seg else ""))
        m.d.comb += t_in.eq(_onehot_mux(p, before))
        return t_in

    def _forward(self, w: list[Value], p: Value, t_in: Value, t_out: Value) -> Value:
        nk = len(w)
        chain = self._chain(w, nk)
        injected = t_in ^ t_out  # replaces c_{p-1} by T(c_{p-1}) in every later chain word
        new = []
        for k in range(4):
            applies = _any_bits(p, range(k + 1))  # T at a position <= k
            new.append(chain[k] ^ Mux(applies, injected, 0))
        return self._pack(w[4:nk] + new)

    @staticmethod
    def _last_old(later: list[Value], nk: int) -> Value:
        """w[4i+nk-1], the word before the four newest, recovered from the later window."""
        new = later[nk - 4:]
        return later[nk - 5] if nk > 4 else new[3] ^ new[2]

    def _backward_t_in(self, m: Module, later: list[Value], p: Value, nk: int, seg: int) -> Value:
        # T's input: the word before position p (new[p-1], or w[4i+nk-1] when p = 0).
        new = later[nk - 4:]
        t_in = Signal(32, name=f"bwd_t_in_{nk}" + (f"_seg{seg}" if seg else ""))
        m.d.comb += t_in.eq(_onehot_mux(p, [self._last_old(later, nk)] + new[:3]))
        return t_in

    def _backward(self, later: list[Value], p: Value, t_out: Value, nk: int) -> Value:
        new = later[nk - 4:]  # the words the forward step produced (w[4i+4 .. 4i+4+nk-1] later)
        plain = [None] + [new[k] ^ new[k - 1] for k in range(1, 4)]
        last_old = self._last_old(later, nk)
        old = [new[0] ^ Mux(p[0], t_out, last_old)]
        for k in range(1, 4):
            old.append(Mux(p[k], new[k] ^ t_out, plain[k]))
        return self._pack(old + later[:nk - 4])

    def _t_function(self, m: Module, t_in: Value, rot: Value, rcon: Value, t_out: Signal) -> None:
        rotated = Mux(rot, from_bytes(get_bytes(t_in)[1:] + get_bytes(t_in)[:1]), t_in)
        subbed = []
        for index, lane in enumerate(get_bytes(rotated)):
            sbox = AesSbox(self.sbox_kind, "encrypt")  # the key schedule only ever uses S
            m.submodules[f"ksbox{index}"] = sbox
            m.d.comb += sbox.i.eq(lane)
            subbed.append(sbox.o)
        m.d.comb += t_out.eq(from_bytes(subbed) ^ (rcon << 24))


def _wire(m: Module, value: Value, name: str) -> Signal:
    """``value`` in a named signal. MixColumns and InvMixColumns read every bit of their input
    several times, and Amaranth emits an expression (a 128-bit XOR, a byte permutation) anew for
    each read: naming the value once keeps elaboration fast and the RTL small."""
    wire = Signal(len(value), name=name)
    m.d.comb += wire.eq(value)
    return wire


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
        if self.sbox not in SBOX_CHOICES:
            raise ValueError(f"sbox={self.sbox}")
        self.key_state_bits = max(options.key_sizes)

    def rounds(self, key_bits: int) -> int:
        return ROUNDS[key_bits]

    @property
    def key_sbox(self) -> str:
        """The key schedule's S-boxes: T must be combinational where a key step runs in one
        clock (run-ups, loaders), so with block-RAM data S-boxes the key schedule keeps tables."""
        return "table" if self.sbox == BRAM else self.sbox

    def _round(self, cuts: tuple[int, ...]) -> AesDatapath:
        # Refused before the round exists: Amaranth would warn that it was never elaborated.
        if self.sbox == BRAM and SUBBYTES_CUT not in cuts:
            raise CipherbenchError(BRAM_USAGE)
        return AesDatapath(self.options.directions, self.sbox, cuts)

    def datapath(self) -> AesDatapath:
        return self._round(())

    def key_step(self, key_len_bits: int, step_bits: int) -> AesKeyStep:
        return AesKeyStep(self.options.key_sizes, self.options.directions, key_len_bits, step_bits,
                          self.key_sbox)

    def round_steps(self) -> tuple[str, ...]:
        return STEPS

    def round_cuts(self, inner: int) -> tuple[int, ...]:
        # One cut goes after SubBytes: the S-box is the deepest step, and the rest of the round
        # (MixColumns or InvMixColumns, AddRoundKey, direction muxes) is about as deep. A second
        # cut splits the linear half before AddRoundKey (encryption) / InvMixColumns (decryption).
        return {0: (), 1: (1,), 2: (1, 2)}[inner]

    def cut_datapath(self, cuts: tuple[int, ...]) -> AesDatapath:
        return self._round(cuts)

    def segmented_key_step(self, key_len_bits: int, step_bits: int, segments: int) -> AesKeyStep:
        return AesKeyStep(self.options.key_sizes, self.options.directions, key_len_bits, step_bits,
                          self.key_sbox, segments)

    def describe(self) -> dict[str, object]:
        facts: dict[str, object] = {"sbox": self.sbox, "data_sboxes": 16, "key_schedule_sboxes": 4}
        if self.sbox == BRAM:
            facts["key_schedule_sbox"] = self.key_sbox
        return facts
