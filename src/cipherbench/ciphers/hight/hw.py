"""HIGHT hardware description (ISO/IEC 18033-3, Hong et al. CHES 2006): one round per clock on the
64-bit block, round keys on the fly; the whitening folded into the first and last rounds' clocks,
so a block takes 32 clocks.

Round (datapath): the four F0/F1 functions (XORs of rotations: wiring and 3-input XORs) on the even
bytes and four 8-bit add / XOR operations on the odd ones, then the byte rotation (none in round
31). Decryption computes the same F functions on the same (even) bytes after undoing the rotation,
so both directions share them; bytes 1 and 5 use an 8-bit adder or subtractor. The first clock also
applies the initial transformation (encryption: + WK0, ^ WK1, + WK2, ^ WK3 on bytes 0, 2, 4, 6) or
undoes the final one (decryption), the last clock the final one (or undoes the initial one).
Ports: byte i of the block is P_i (model.py's order, Crypto++'s and KISA's reference).

Key schedule: SK_{4i+k} = MK_{...} + delta_{4i+k}. Key state s (before round index s) is

    Q (16 bytes): the master-key bytes rotated so that round s's four key bytes are Q[0..3]
    d (7 bits): delta_{4s}, the LFSR state

Group a = s div 4 uses L_a[b] = MK_{(b-a) mod 8} and H_a[b] = MK_{8+(b-a) mod 8}; its round c = s mod 4
takes bytes 4c..4c+3 of L_a || H_a. So Q is that 16-byte sequence rotated by 4c bytes: a step
rotates it by four bytes, and at the end of a group also shifts each half by one byte. After 32
steps Q is the master key again, so states 0 and 32 (the two start states) hold the whitening keys
WK0..3 = MK12..15 and WK4..7 = MK0..3 in place. d advances four LFSR steps (XORs) per step,
backward the inverse.

Round keys: step j (forward j -> j+1, backward j+1 -> j) serves round index j in both directions
(encryption round j+1, decryption round 32-j), so ``rk_out`` is the SK of key state j: of
``state_in`` going forward, of ``state_out`` going backward; its whitening bytes come from
``state_out`` (state 32 for encryption's last round, state 0 for decryption's). A round-key memory
therefore stores both walks (``stored_decryption = "walk"``).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath
from .model import DELTA, ROUNDS

RK_BITS = 32 + 64      # SK_{4j..4j+3}, then WK0..WK7
STATE_BITS = 128 + 7   # Q, then d


def _bytes(value: Value, count: int) -> list[Value]:
    """Port bytes, byte 0 most significant."""
    top = len(value)
    return [value[top - 8 * (i + 1):top - 8 * i] for i in range(count)]


def _port(values: list[Value]) -> Value:
    return Cat(*reversed(values))


def _rol(x: Value, n: int) -> Value:
    return x.rotate_left(n)


def f0(x: Value) -> Value:
    return _rol(x, 1) ^ _rol(x, 2) ^ _rol(x, 7)


def f1(x: Value) -> Value:
    return _rol(x, 3) ^ _rol(x, 4) ^ _rol(x, 6)


def _byte(m: Module, value: Value, name: str) -> Signal:
    wire = Signal(8, name=name)
    m.d.comb += wire.eq(value)
    return wire


def _add_sub(m: Module, a: Value, b: Value, sub: Value, name: str) -> Signal:
    """a + b or a - b mod 256."""
    return _byte(m, Mux(sub, (a - b)[:8], (a + b)[:8]), name)


class HightDatapath(RoundDatapath):
    """One round with the whitening of the first and last clocks (module docstring)."""

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(block_bits=64, round_key_bits=RK_BITS)
        self.options = options

    def elaborate(self, platform: object) -> Module:
        m = Module()
        enc, dec_ok = self.options.has_encrypt, self.options.has_decrypt
        dec = self.decrypt if (enc and dec_ok) else Const(int(dec_ok), 1)
        sk = [self.rk[8 * k:8 * k + 8] for k in range(4)]
        wk = [self.rk[32 + 8 * k:40 + 8 * k] for k in range(8)]
        wk_white = [self.rk_white[32 + 8 * k:40 + 8 * k] for k in range(8)]
        # First clock: initial transformation (WK0..3) or the final one undone (WK4..7).
        p = _bytes(self.block_in, 8)
        white = [Mux(dec, wk_white[4 + k], wk_white[k]) for k in range(4)]
        entered = list(p)
        entered[0] = _add_sub(m, p[0], white[0], dec, "in0")
        entered[2] = p[2] ^ white[1]
        entered[4] = _add_sub(m, p[4], white[2], dec, "in4")
        entered[6] = p[6] ^ white[3]
        src = [_byte(m, Mux(self.first, e, s), f"x{i}")
               for i, (e, s) in enumerate(zip(entered, _bytes(self.state_in, 8)))]
        # Round 31 (no rotation) is encryption's last round and decryption's first.
        norot = Mux(dec, self.first, self.last)
        unrotated = src[1:] + src[:1]   # (n7, x0, n1, ...) -> (x0, n1, ..., n7)
        u = [_byte(m, Mux(dec & ~norot, a, b), f"u{i}") for i, (a, b) in enumerate(zip(unrotated, src))]
        t1 = _byte(m, f1(u[0]) ^ sk[0], "t1")
        t3 = _byte(m, (f0(u[2]) + sk[1])[:8], "t3")
        t5 = _byte(m, f1(u[4]) ^ sk[2], "t5")
        t7 = _byte(m, (f0(u[6]) + sk[3])[:8], "t7")
        v = [u[0], _add_sub(m, u[1], t1, dec, "v1"), u[2], u[3] ^ t3, u[4],
             _add_sub(m, u[5], t5, dec, "v5"), u[6], u[7] ^ t7]
        rotated = v[7:] + v[:7]         # (v0..v7) -> (v7, v0, ..., v6)
        y = [_byte(m, Mux(~dec & ~norot, a, b), f"y{i}") for i, (a, b) in enumerate(zip(rotated, v))]
        # Last clock: the final transformation (WK4..7) or the initial one undone (WK0..3).
        out_white = [Mux(dec, wk[k], wk[4 + k]) for k in range(4)]
        leaving = list(y)
        leaving[0] = _add_sub(m, y[0], out_white[0], dec, "out0")
        leaving[2] = y[2] ^ out_white[1]
        leaving[4] = _add_sub(m, y[4], out_white[2], dec, "out4")
        leaving[6] = y[6] ^ out_white[3]
        m.d.comb += self.state_out.eq(Mux(self.last, _port(leaving), _port(y)))
        return m


def lfsr(d: Value) -> Value:
    """delta_{i+1} from delta_i (s_{i+7} = s_{i+3} ^ s_i; bit 0 is s_i)."""
    return Cat(d[1:7], d[3] ^ d[0])


def lfsr_back(d: Value) -> Value:
    return Cat(d[6] ^ d[2], d[0:6])


class HightKeyStep(KeyStep):
    """Key state Q || d (module docstring); one step forward or backward."""

    def __init__(self, key_len_bits: int, step_bits: int) -> None:
        super().__init__(key_bits=128, key_len_bits=key_len_bits, state_bits=STATE_BITS,
                         round_key_bits=RK_BITS, step_bits=step_bits)

    @staticmethod
    def _parts(state: Value) -> tuple[list[Value], Value]:
        return [state[8 * k:8 * k + 8] for k in range(16)], state[128:135]

    @staticmethod
    def _pack(q: list[Value], d: Value) -> Value:
        return Cat(*q, d)

    @staticmethod
    def _subkeys(m: Module, state: Value, name: str) -> Value:
        """SK of the state's round: Q[k] + delta_{4s+k}, k = 0..3."""
        q, d = HightKeyStep._parts(state)
        deltas = [d]
        for _ in range(3):
            deltas.append(lfsr(deltas[-1]))
        return Cat(*[_byte(m, (q[k] + deltas[k])[:8], f"{name}{k}") for k in range(4)])

    @staticmethod
    def _whitening(state: Value) -> Value:
        """WK0..3 = MK12..15, WK4..7 = MK0..3: in place in states 0 and 32."""
        q, _ = HightKeyStep._parts(state)
        return Cat(*q[12:16], *q[0:4])

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.loaded.eq(self._pack(_bytes(self.key, 16), Const(DELTA[0], 7)))
        q, d = self._parts(self.state_in)
        boundary = self.step[:2] == 3
        # Forward: rotate by four bytes; at a group's end also shift each half by one byte.
        turned = q[4:] + q[:4]
        shifted = [turned[(b - 1) % 8] for b in range(8)] + [turned[8 + (b - 1) % 8] for b in range(8)]
        fwd_q = [Mux(boundary, s, t) for s, t in zip(shifted, turned)]
        fwd_d = d
        for _ in range(4):
            fwd_d = lfsr(fwd_d)
        # Backward: the inverse.
        unshifted = [q[(b + 1) % 8] for b in range(8)] + [q[8 + (b + 1) % 8] for b in range(8)]
        base = [Mux(boundary, u, o) for u, o in zip(unshifted, q)]
        bwd_q = base[12:] + base[:12]
        bwd_d = d
        for _ in range(4):
            bwd_d = lfsr_back(bwd_d)
        m.d.comb += self.state_out.eq(Mux(self.backward, self._pack(bwd_q, bwd_d),
                                          self._pack(fwd_q, fwd_d)))
        # Step j serves round index j: the SK of key state j (forward: the input, backward: the
        # output); the whitening bytes of the output (states 32 and 0 for the last rounds).
        own = Signal(STATE_BITS)
        m.d.comb += own.eq(Mux(self.backward, self.state_out, self.state_in))
        m.d.comb += [
            self.rk_out.eq(Cat(self._subkeys(m, own, "sk"), self._whitening(self.state_out))),
            self.rk_in.eq(Cat(self._subkeys(m, self.state_in, "skin"),
                              self._whitening(self.state_in))),
        ]
        return m


class HightHardware(CipherHardware):
    name = "hight"
    block_bits = 64
    round_key_bits = RK_BITS
    key_state_bits = STATE_BITS
    stored_decryption = "walk"
    # The pipelines' travelling keys give a round the key of the state it holds (rk_in), the
    # forward walk's; this schedule's decryption keys are one state off: keys=stored there.
    travelling_keys = False

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)

    def rounds(self, key_bits: int) -> int:
        return ROUNDS

    def datapath(self) -> HightDatapath:
        return HightDatapath(self.options)

    def key_step(self, key_len_bits: int, step_bits: int) -> HightKeyStep:
        return HightKeyStep(key_len_bits, step_bits)

    def describe(self) -> dict[str, object]:
        return {"data_adders_8bit": 6, "key_schedule_adders_8bit": 4, "data_rounds": ROUNDS,
                "whitening": "in the first and last clocks"}
