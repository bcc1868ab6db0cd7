"""The 16-bit AES core: two S-boxes, two bytes of one row per clock (``AesRowPairs``), its key
register (``RowPairKeys``) and decoded controls."""

from __future__ import annotations

from amaranth.hdl import Cat, Elaboratable, Module, Mux, Signal, Value

from ....arch.base import CoreOptions
from ....arch.narrow import Segment
from ....components.aes_sbox import AesSbox
from .common import (ROUNDS, AesNarrow, KeyStarts, byte_signals, flatten, load_bytes,
                     mix_or_inverse, rcon_of, row_mux)


class RowPairKeys(Elaboratable, KeyStarts):
    """Key register of the 16-bit core (the ``key_schedule`` block): four row rings, each
    rotating by two bytes when its row is taken, with the 64-bit core's two-word algebra applied
    to one row (two S-boxes give T two rows at a time). With K0..K3 the row before the clock, the
    new tail bytes are tail2 = K0 ^ (T | K3 | 0) and tail3 = K1 ^ (tail2 | K0 | 0): forward
    (T or chain) takes tail3 = K1 ^ tail2, backward tail3 = K1 ^ K0, so no ``prev`` is needed.
    ``rotate`` is per row. ``kw`` gives the two round-key bytes of row ``sel`` for this clock:
    K0, K1; K2, K3 (``kw_high``); or the forward chain's new bytes (``kw_tail``), computed
    without T so that T's path into the ring stays off the S-boxes' inputs."""

    def __init__(self, stored_enc: bool = False, stored_dec: bool = False) -> None:
        KeyStarts.__init__(self)
        self.stored_enc, self.stored_dec = stored_enc, stored_dec
        self.key = Signal(128)
        self.load = Signal()
        self.rotate = [Signal(name=f"rotate{r}") for r in range(4)]
        self.a_t = Signal()           # tail2 = K0 ^ T
        self.a_last = Signal()        # tail2 = K0 ^ K3
        self.b_tail = Signal()        # tail3 = K1 ^ tail2
        self.b_head = Signal()        # tail3 = K1 ^ K0
        self.sel = Signal(2)          # the row whose round-key bytes ``kw`` gives
        self.kw_high = Signal()       # round-key bytes: K2, K3
        self.kw_tail = Signal()       # round-key bytes: the forward chain's (else K0, K1)
        self.t_value = [Signal(8, name=f"t_value{r}") for r in range(4)]
        self.bytes = [[Signal(8, name=f"kbyte{r}_{c}") for c in range(4)] for r in range(4)]
        self.kw = [Signal(8, name=f"kw{w}") for w in range(2)]

    def elaborate(self, platform: object) -> Module:
        m = Module()
        k = byte_signals("k")
        loading = self.keep(m, k, self.key, self.load, 0, self.stored_enc, self.stored_dec)
        for r in range(4):
            tail2 = k[r][0] ^ (Mux(self.a_t, self.t_value[r], 0) | Mux(self.a_last, k[r][3], 0))
            tail3 = k[r][1] ^ (Mux(self.b_tail, tail2, 0) | Mux(self.b_head, k[r][0], 0))
            m.d.comb += [self.bytes[r][c].eq(k[r][c]) for c in range(4)]
            with m.If(~loading & self.rotate[r]):
                m.d.sync += [k[r][0].eq(k[r][2]), k[r][1].eq(k[r][3]),
                             k[r][2].eq(tail2), k[r][3].eq(tail3)]
        # One row read, then the selection: cheaper than selecting in every row.
        sel = [row_mux(self.sel, [k[r][c] for r in range(4)]) for c in range(4)]
        chain2 = sel[0] ^ sel[3]
        m.d.comb += [
            self.kw[0].eq(Mux(self.kw_high, sel[2], sel[0]) ^ Mux(self.kw_tail, sel[3], 0)),
            self.kw[1].eq(Mux(self.kw_high, sel[3], sel[1]) ^ Mux(self.kw_tail, chain2, 0)),
        ]
        return m


class AesRowPairs(AesNarrow):
    """16 bits per clock (Fischer's "minimum" width): two S-boxes, two bytes of one row per clock.

    A round is an 8-clock pass (rows taken in turn, two clocks each: AddRoundKey and SubBytes of
    columns 0 and 1, the row rotating by two) and a 2-clock phase in which two MixColumns networks
    mix columns 0 and 1 of all rows (all rows rotating by two) while the two S-boxes compute T for
    the next round key, two bytes per clock. ShiftRows costs no clock: each row's extra single
    rotations run while other rows are substituted, which constrains the row order (encryption 3, 2,
    1, 0, rotations after a row's pass; decryption 0, 2, 1, 3, rotations before it). The key
    rests at K0 in aligned form; each key row takes the 64-bit core's ring algebra in turn.
    """

    PHASE = 2  # clocks: two column pairs mixed, two T bytes per clock
    PASS = 8   # clocks: four rows, two bytes per clock
    T_STEP = {"encrypt": (1, 0), "decrypt": (-1, ROUNDS), "key-runup": (1, 1),
              "key-rewind": (-1, ROUNDS + 1)}

    def __init__(self, options: CoreOptions, sbox: str, keys: str) -> None:
        super().__init__(options, sbox, 16, keys)
        self.key_schedule = RowPairKeys(self.stored and self.has_enc, self.stored and self.has_dec)

    def _segments(self) -> dict[str, Segment]:
        r, steps = {128: ROUNDS + 1}, self.PHASE + self.PASS
        return {
            # Round j: steps 0-1 T for K_j with MixColumns (1 <= j <= 9), steps 2-9 the pass
            # with K_j (S-box bypassed for K10).
            self.ENCRYPT: Segment(self.ENCRYPT, r, steps, first_step=self.PHASE),
            # Round j: steps 0-7 the pass with K_(10-j) (S-box bypassed for K10), steps 8-9 T
            # for K_(9-j) with InvMixColumns (j >= 1); the last pass (K0) ends the block.
            self.DECRYPT: Segment(self.DECRYPT, r, steps, last_step=self.PASS - 1),
            # Per step: T (two clocks), then the forward chain on all rows at once.
            self.RUNUP: Segment(self.RUNUP, {128: ROUNDS}, 3),
            # Round 0: a plain rotation of the aligned K10 and the backward chain; rounds 1-10:
            # T, then the backward chain (the last round: a plain rotation, which realigns K0).
            self.REWIND: Segment(self.REWIND, r, 3, first_step=1),
        }

    def elaborate(self, platform: object) -> Module:
        m = Module()
        keys = self.key_schedule
        assert isinstance(keys, RowPairKeys)
        a = byte_signals("s")
        st, first, last = self.step[:4], self.round[:4] == 0, self.last_round
        ctl = _PairControl()
        if self.uses(self.ENCRYPT):
            self._decode_encrypt(m, ctl, st, first, last)
        if self.uses(self.DECRYPT):
            self._decode_decrypt(m, ctl, st, first, last)
        if self.uses(self.RUNUP):
            self._decode_runup(m, ctl, st)
        if self.uses(self.REWIND):
            self._decode_rewind(m, ctl, st, first, last)
        self._wire_keys(m, keys, ctl)
        rcon = rcon_of(m, self._key_step(m))
        enc = self._enc()
        # T's sources (RotWord: byte r of T is S of byte r+1 of the last word): the first T clock
        # serves rows 0 and 1 from rows 1 and 2; the second rows 2 and 3 from rows 3 and 0, whose
        # last word the first clock moved to position 1.
        kb = keys.bytes
        t_source = [Mux(ctl.t_second, kb[3][3], kb[1][3]), Mux(ctl.t_second, kb[0][1], kb[2][3])]
        kw = keys.kw
        out = []
        for lane in range(2):
            sbox = AesSbox(self.sbox_kind, self._sbox_directions())
            m.submodules[f"sbox{lane}"] = sbox
            x = row_mux(ctl.row, [a[r][lane] for r in range(4)]) ^ Mux(enc, kw[lane], 0)
            m.d.comb += [sbox.i.eq(Mux(ctl.t_cycle, t_source[lane], x)),
                         sbox.decrypt.eq(ctl.inverse)]
            out.append(Mux(ctl.bypass, x, sbox.o) ^ Mux(enc, 0, kw[lane]))
            for r in (lane, lane + 2):
                m.d.comb += keys.t_value[r].eq(sbox.o ^ (rcon if r == 0 else 0))
        mixed = [mix_or_inverse([a[r][c] for r in range(4)], self.directions, self.decrypt)
                 for c in range(2)]

        with m.If(self.load_block):
            load_bytes(m, a, self.block_in)
        for r in range(4):
            taken = ctl.data_pass & (ctl.row == r)
            with m.If(~self.load_block & (ctl.mix | taken)):
                m.d.sync += [a[r][0].eq(a[r][2]), a[r][1].eq(a[r][3])]
                m.d.sync += [a[r][2 + c].eq(Mux(ctl.mix, mixed[c][r], out[c])) for c in range(2)]
            with m.Elif(~self.load_block & ctl.shift[r]):
                m.d.sync += [a[r][c].eq(a[r][(c + 1) % 4]) for c in range(4)]
        m.d.comb += self.block_out.eq(flatten(a))
        return m

    def _wire_keys(self, m: Module, keys: RowPairKeys, ctl: "_PairControl") -> None:
        m.d.comb += [keys.key.eq(self.key), keys.load.eq(self.load_key),
                     *self._start_controls(keys)]
        for r in range(4):
            t_row = ctl.t_cycle & (ctl.t_second == (r >= 2))
            m.d.comb += keys.rotate[r].eq(ctl.key_all | ctl.key_one & (ctl.row == r) | t_row)
        m.d.comb += [
            keys.a_t.eq(ctl.t_cycle), keys.a_last.eq(ctl.fwd | ctl.bwd),
            keys.b_tail.eq(ctl.t_cycle & ~ctl.backward | ctl.fwd),
            keys.b_head.eq(ctl.t_cycle & ctl.backward | ctl.bwd),
            keys.sel.eq(ctl.row), keys.kw_high.eq(ctl.kw_high), keys.kw_tail.eq(ctl.kw_tail),
        ]

    def _decode_encrypt(self, m: Module, ctl: "_PairControl", st: Value, first: Value,
                        last: Value) -> None:
        on = self.running(self.ENCRYPT)
        u = (st - self.PHASE)[:3]
        c = u[0]
        with m.If(on & (st < self.PHASE)):
            m.d.comb += [ctl.t_cycle.eq(1), ctl.t_second.eq(st[0]), ctl.mix.eq(~last)]
        with m.If(on & (st >= self.PHASE)):
            # Rows 3, 2, 1, 0. Key row: K0 (aligned) is read by plain rotations; later keys are
            # half-rotated: the first clock reads K2, K3 in place, the second the forward chain.
            m.d.comb += [ctl.row.eq(~u[1:3]), ctl.data_pass.eq(1), ctl.bypass.eq(last),
                         ctl.key_one.eq(first | c), ctl.fwd.eq(~first & c),
                         ctl.kw_high.eq(~first & ~c), ctl.kw_tail.eq(~first & c)]
            # ShiftRows after a row's pass: row 3 rotates at u = 2..4, row 2 at 4..5, row 1 at 6.
            windows = {3: (2, 5), 2: (4, 6), 1: (6, 7)}
            for r, (lo, hi) in windows.items():
                m.d.comb += ctl.shift[r].eq(~last & (u >= lo) & (u < hi))

    def _decode_decrypt(self, m: Module, ctl: "_PairControl", st: Value, first: Value,
                        last: Value) -> None:
        on = self.running(self.DECRYPT)
        u = st[:3]
        c = u[0]
        with m.If(on & (st >= self.PASS)):
            m.d.comb += [ctl.t_cycle.eq(1), ctl.t_second.eq(st[0]), ctl.backward.eq(1),
                         ctl.mix.eq(~first)]
        with m.If(on & (st < self.PASS)):
            # Rows 0, 2, 1, 3 (slot bits swapped). Key row: K10 (aligned) by a plain rotation,
            # then the backward chain; later keys (half-rotated): K2, K3 in place, then the
            # backward chain (plain for K0, which ends aligned).
            m.d.comb += [ctl.row.eq(Cat(u[2], u[1])), ctl.data_pass.eq(1),
                         ctl.bypass.eq(first), ctl.inverse.eq(~first),
                         ctl.key_one.eq(first | c), ctl.bwd.eq(c & ~last),
                         ctl.kw_high.eq(~first & ~c)]
            # InvShiftRows before a row's pass: rows 1 and 2 at u = 0..2 and 0..1, row 3 at 4.
            windows = {1: (0, 3), 2: (0, 2), 3: (4, 5)}
            for r, (lo, hi) in windows.items():
                m.d.comb += ctl.shift[r].eq(~first & (u >= lo) & (u < hi))

    def _decode_runup(self, m: Module, ctl: "_PairControl", st: Value) -> None:
        on = self.running(self.RUNUP)
        with m.If(on & (st < 2)):
            m.d.comb += [ctl.t_cycle.eq(1), ctl.t_second.eq(st[0])]
        with m.If(on & (st == 2)):
            m.d.comb += [ctl.key_all.eq(1), ctl.fwd.eq(1)]

    def _decode_rewind(self, m: Module, ctl: "_PairControl", st: Value, first: Value,
                       last: Value) -> None:
        on = self.running(self.REWIND)
        with m.If(on & (st < 2) & ~first):
            m.d.comb += [ctl.t_cycle.eq(1), ctl.t_second.eq(st[0]), ctl.backward.eq(1)]
        with m.If(on & (st == 1) & first):
            m.d.comb += ctl.key_all.eq(1)
        with m.If(on & (st == 2)):
            m.d.comb += [ctl.key_all.eq(1), ctl.bwd.eq(~last)]


class _PairControl:
    """The decoded controls of the 16-bit core for one clock (all default 0)."""

    def __init__(self) -> None:
        self.row = Signal(2)          # row of the pass (data and key)
        self.data_pass = Signal()     # that data row takes the S-box path (rotating by two)
        self.shift = [Signal(name=f"shift{r}") for r in range(4)]  # (Inv)ShiftRows rotations
        self.mix = Signal()           # (Inv)MixColumns on columns 0, 1: all rows rotate by two
        self.bypass = Signal()        # AddRoundKey only
        self.inverse = Signal()       # the S-boxes compute S^-1
        self.t_cycle = Signal()       # the S-boxes compute T for two key rows
        self.t_second = Signal()      # ... rows 2, 3 (else 0, 1)
        self.backward = Signal()      # T injected in a backward step
        self.key_one = Signal()       # the pass row of the key rotates
        self.key_all = Signal()       # all key rows rotate
        self.fwd = Signal()           # forward chain
        self.bwd = Signal()           # backward chain
        self.kw_high = Signal()
        self.kw_tail = Signal()
