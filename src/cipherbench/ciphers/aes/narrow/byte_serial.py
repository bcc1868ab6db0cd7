"""The 8-bit AES core: one S-box shared by the data and the key schedule (``AesByteSerial``), its
key register (``ByteSerialKeys``) and its decoded controls."""

from __future__ import annotations

from amaranth.hdl import Const, Elaboratable, Module, Mux, Signal, Value

from ....arch.base import CoreOptions
from ....arch.narrow import Segment
from ....components.aes_sbox import AesSbox
from .common import (ROUNDS, AesNarrow, KeyStarts, byte_signals, flatten, load_bytes,
                     mix_or_inverse, rcon_of, row_mux)


class ByteSerialKeys(Elaboratable, KeyStarts):
    """Key register of the 8-bit core (the ``key_schedule`` block): four row rings, a one-byte
    ``prev`` for the backward chain, and two row-select reads (``head``: K[sel_head][0],
    ``last``: K[sel_last][3], or K[0][2] for row 0 while reading T's source). The S-box lives in
    the datapath; ``t_value`` is its output for T, Rcon included.

    Only one row at a time takes a computed byte, so the tail logic exists once: ``shared`` =
    head ^ (last | prev | t_value | 0) goes to the tail of row ``sel_head``. Rotating all rows
    at once (``rotate_all``: realigning, the forward chain of the decryption run-up) uses each
    row's own head (and tail with ``own_fwd``); cores without decryption never do it.
    """

    def __init__(self, stored_enc: bool = False, stored_dec: bool = False) -> None:
        KeyStarts.__init__(self)
        self.stored_enc, self.stored_dec = stored_enc, stored_dec
        self.key = Signal(128)
        self.load = Signal()
        self.rotate_one = Signal()    # row sel_head rotates, its tail takes `shared`
        self.rotate_all = Signal()    # every row rotates, tail <- own head (^ own tail)
        self.own_fwd = Signal()
        self.x_last = Signal()
        self.x_prev = Signal()
        self.x_t = Signal()
        self.t_value = Signal(8)
        self.sel_head = Signal(2)
        self.sel_last = Signal(2)
        self.t_read = Signal()
        self.prev_load = Signal()
        self.prev_from_last = Signal()
        self.prev_from_shared = Signal()
        self.head = Signal(8)
        self.last = Signal(8)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        k = byte_signals("k")
        prev = Signal(8, reset_less=True)
        m.d.comb += [
            self.head.eq(row_mux(self.sel_head, [k[r][0] for r in range(4)])),
            self.last.eq(row_mux(self.sel_last, [Mux(self.t_read, k[0][2], k[0][3])]
                                  + [k[r][3] for r in range(1, 4)])),
        ]
        shared = self.head ^ (Mux(self.x_last, self.last, 0) | Mux(self.x_prev, prev, 0)
                              | Mux(self.x_t, self.t_value, 0))
        # K0 rests in the rotated form.
        loading = self.keep(m, k, self.key, self.load, 1, self.stored_enc, self.stored_dec)
        for r in range(4):
            one = self.rotate_one & (self.sel_head == r)
            with m.If(~loading & (self.rotate_all | one)):
                m.d.sync += [k[r][c].eq(k[r][c + 1]) for c in range(3)]
                own = k[r][0] ^ Mux(self.own_fwd, k[r][3], 0)
                m.d.sync += k[r][3].eq(Mux(self.rotate_all, own, shared))
        with m.If(self.prev_load):
            m.d.sync += prev.eq(Mux(self.prev_from_shared, shared,
                                    Mux(self.prev_from_last, self.last, self.head)))
        return m


class AesByteSerial(AesNarrow):
    """8 bits per clock: one S-box for SubBytes, T of the key schedule and nothing else.

    A round is a 16-clock pass (one byte per clock: AddRoundKey and SubBytes merged, rows taken in
    turn) and a 4-clock phase in which MixColumns runs on column 0 of all rows (32-bit network, all
    rows rotating) while the idle S-box computes T for the next round key, one byte per clock.
    ShiftRows costs no clock: a row's extra rotations run while other rows are substituted.
    The key register rests at K0 in rotated form.
    """

    REWIND_FIRST = "key-rewind-first"
    T_STEP = {"encrypt": (1, 0), "decrypt": (-1, ROUNDS), "key-runup": (1, 0),
              "key-rewind-first": (-1, ROUNDS), "key-rewind": (-1, ROUNDS - 1)}

    def __init__(self, options: CoreOptions, sbox: str, keys: str) -> None:
        super().__init__(options, sbox, 8, keys)
        self.key_schedule = ByteSerialKeys(self.stored and self.has_enc,
                                           self.stored and self.has_dec)

    def _rewind(self, seg: dict[str, Segment]) -> tuple[Segment, ...]:
        return (seg[self.REWIND_FIRST], seg[self.REWIND])

    def _segments(self) -> dict[str, Segment]:
        r = {128: ROUNDS + 1}
        return {
            # Round j: steps 0-3 T for K_j with MixColumns (j >= 1), steps 4-19 the pass with K_j.
            self.ENCRYPT: Segment(self.ENCRYPT, r, 20, first_step=4),
            # Round j: steps 0-15 the pass with K_(10-j), steps 16-19 T for K_(9-j) with
            # InvMixColumns (j >= 1); the last pass (K0) ends the block.
            self.DECRYPT: Segment(self.DECRYPT, r, 20, last_step=15),
            # Round 0: align K0 (three rotations); round j: T for K_j (steps 0-3), then the
            # forward chain on all rows at once (steps 4-6).
            self.RUNUP: Segment(self.RUNUP, r, 7, first_step=4),
            # K10 -> K0: per step the backward chain row by row (one prev byte), then T. From
            # the aligned K10 a row takes four clocks (the first loads prev); later rows take
            # three, prev being loaded by T (row 0) or the previous row's last clock.
            self.REWIND_FIRST: Segment(self.REWIND_FIRST, {128: 1}, 20),
            self.REWIND: Segment(self.REWIND, {128: ROUNDS - 1}, 16),
        }

    def elaborate(self, platform: object) -> Module:
        m = Module()
        keys = self.key_schedule
        assert isinstance(keys, ByteSerialKeys)
        a = byte_signals("s")
        m.submodules.sbox = sbox = AesSbox(self.sbox_kind, self._sbox_directions())
        st, rnd = self.step[:5], self.round[:4]
        first, last = rnd == 0, self.last_round
        enc = self._enc()

        # What runs this clock (each decodes one segment's (round, step)).
        ctl = _ByteControl()
        if self.uses(self.ENCRYPT):
            self._decode_encrypt(m, ctl, st, first, last)
        if self.uses(self.REWIND):
            self._decode_rewind(m, ctl, st)
        if self.uses(self.DECRYPT):
            self._decode_decrypt(m, ctl, st, first, last)
        if self.uses(self.RUNUP):
            self._decode_runup(m, ctl, st, first)
        m.d.comb += [
            keys.key.eq(self.key), keys.load.eq(self.load_key),
            keys.sel_head.eq(ctl.row),
            keys.sel_last.eq(Mux(ctl.t_part | ctl.next_row, ctl.row + 1, ctl.row)),
            keys.t_read.eq(ctl.t_part),
            keys.rotate_one.eq(ctl.key_one | ctl.t_part), keys.rotate_all.eq(ctl.key_all),
            keys.own_fwd.eq(ctl.own_fwd), keys.x_last.eq(ctl.x_last), keys.x_prev.eq(ctl.x_prev),
            keys.x_t.eq(ctl.t_part), keys.prev_load.eq(ctl.prev_load),
            keys.prev_from_last.eq(ctl.prev_from_last),
            keys.prev_from_shared.eq(ctl.prev_from_shared),
            *self._start_controls(keys),
        ]
        rcon = rcon_of(m, self._key_step(m))
        m.d.comb += keys.t_value.eq(sbox.o ^ Mux(ctl.row == 0, rcon, 0))

        # The data byte: AddRoundKey before the S-box for encryption, after it for decryption.
        kb = Mux(ctl.kb_head, keys.head, 0) ^ Mux(ctl.kb_last, keys.last, 0)
        x = row_mux(ctl.row, [a[r][0] for r in range(4)]) ^ Mux(enc, kb, 0)
        m.d.comb += [sbox.i.eq(Mux(ctl.t_part, keys.last, x)), sbox.decrypt.eq(ctl.inverse)]
        spath = Mux(ctl.bypass, x, sbox.o) ^ Mux(enc, 0, kb)
        mixed = mix_or_inverse([a[r][0] for r in range(4)], self.directions, self.decrypt)

        with m.If(self.load_block):
            load_bytes(m, a, self.block_in)
        for r in range(4):
            sub = ctl.data_one & (ctl.row == r)
            with m.If(~self.load_block & (ctl.mix | sub | ctl.shift[r])):
                m.d.sync += [a[r][c].eq(a[r][c + 1]) for c in range(3)]
                m.d.sync += a[r][3].eq(Mux(ctl.mix, mixed[r], Mux(sub, spath, a[r][0])))
        m.d.comb += self.block_out.eq(flatten(a))
        return m

    def _decode_encrypt(self, m: Module, ctl: "_ByteControl", st: Value, first: Value,
                        last: Value) -> None:
        on = self.running(self.ENCRYPT)
        u = (st - 4)[:4]
        row, c = ~u[2:4], u[:2]  # rows 3, 2, 1, 0: each row's ShiftRows comes after its pass
        with m.If(on & (st < 4)):
            m.d.comb += [ctl.t_part.eq(1), ctl.row.eq(st[:2]), ctl.mix.eq(~last)]
        with m.If(on & (st >= 4)):
            # Key row: c = 0 reads the new word 0 at the tail without rotating; c >= 1 rotates,
            # chaining forward (K_j, j >= 1) or plainly (K0 from its rotated resting form).
            m.d.comb += [ctl.row.eq(row), ctl.data_one.eq(1), ctl.bypass.eq(last),
                         ctl.key_one.eq(c != 0), ctl.x_last.eq(~first),
                         ctl.kb_head.eq(c != 0), ctl.kb_last.eq((c == 0) | ~first)]
            # ShiftRows: row 3 rotates three more times at u = 4..6, row 2 at 8..9, row 1 at 12.
            windows = {3: (4, 7), 2: (8, 10), 1: (12, 13)}
            for r, (lo, hi) in windows.items():
                m.d.comb += ctl.shift[r].eq(~last & (u >= lo) & (u < hi))

    def _decode_decrypt(self, m: Module, ctl: "_ByteControl", st: Value, first: Value,
                        last: Value) -> None:
        on = self.running(self.DECRYPT)
        u = st[:4]
        row, c = u[2:4], u[:2]  # rows 0..3: each row's InvShiftRows comes before its pass
        with m.If(on & (st >= 16)):
            m.d.comb += [ctl.t_part.eq(1), ctl.row.eq(st[:2]), ctl.mix.eq(~first)]
        with m.If(on & (st < 16)):
            m.d.comb += [ctl.row.eq(row), ctl.data_one.eq(1), ctl.bypass.eq(first),
                         ctl.inverse.eq(~first)]
            with m.If(last):
                # K0: read at the tail, plain rotations, back to the rotated resting form.
                m.d.comb += [ctl.key_one.eq(1), ctl.kb_last.eq(1)]
            with m.Else():
                self._backward_chain(m, ctl, c, first)
            # InvShiftRows: row 1 rotates three times at u = 0..2, row 2 at 4..5, row 3 at 8.
            windows = {1: (0, 3), 2: (4, 6), 3: (8, 9)}
            for r, (lo, hi) in windows.items():
                m.d.comb += ctl.shift[r].eq(~first & (u >= lo) & (u < hi))

    def _backward_chain(self, m: Module, ctl: "_ByteControl", c: Value, aligned: Value) -> None:
        """One row of the backward key chain (decryption passes and the rewind): the aligned form
        rotates every clock with prev <- head; the rotated form first holds one clock to take
        prev <- tail (word 0 of this key)."""
        m.d.comb += [
            ctl.key_one.eq(aligned | (c != 0)),
            ctl.x_prev.eq(c != 0),
            ctl.prev_load.eq(1),
            ctl.prev_from_last.eq(~aligned & (c == 0)),
            ctl.kb_head.eq(aligned | (c != 0)),
            ctl.kb_last.eq(~aligned & (c == 0)),
        ]

    def _decode_runup(self, m: Module, ctl: "_ByteControl", st: Value, first: Value) -> None:
        on = self.running(self.RUNUP)
        with m.If(on & (st < 4)):
            m.d.comb += [ctl.t_part.eq(1), ctl.row.eq(st[:2])]
        with m.If(on & (st >= 4)):
            m.d.comb += [ctl.key_all.eq(1), ctl.own_fwd.eq(~first)]

    def _decode_rewind(self, m: Module, ctl: "_ByteControl", st: Value) -> None:
        first = self.running(self.REWIND_FIRST)
        with m.If(first & (st < 16)):
            m.d.comb += ctl.row.eq(st[2:4])
            self._backward_chain(m, ctl, st[:2], Const(1, 1))
        with m.If(first & (st >= 16)):
            m.d.comb += [ctl.t_part.eq(1), ctl.row.eq(st[:2]), ctl.prev_load.eq(st == 16),
                         ctl.prev_from_shared.eq(1)]
        later = self.running(self.REWIND)
        with m.If(later & (st >= 12)):
            m.d.comb += [ctl.t_part.eq(1), ctl.row.eq(st[:2]), ctl.prev_load.eq(st == 12),
                         ctl.prev_from_shared.eq(1)]
        with m.If(later & (st < 12)):
            # Three clocks per row (12 = 3 x 4: row and clock from a small table); prev holds
            # this row's word 0 already; its last clock loads the next row's.
            c = Signal(2, name="rewind_clock")
            with m.Switch(st[:4]):
                for k in range(12):
                    with m.Case(k):
                        m.d.comb += [ctl.row.eq(k // 3), c.eq(k % 3)]
            m.d.comb += [ctl.key_one.eq(1), ctl.x_prev.eq(1), ctl.prev_load.eq(1),
                         ctl.next_row.eq(c == 2), ctl.prev_from_last.eq(c == 2)]


class _ByteControl:
    """The decoded controls of the 8-bit core for one clock (all default 0)."""

    def __init__(self) -> None:
        self.row = Signal(2)          # row of the pass (data and key)
        self.data_one = Signal()      # that data row takes the S-box path
        self.shift = [Signal(name=f"shift{r}") for r in range(4)]  # (Inv)ShiftRows rotations
        self.mix = Signal()           # (Inv)MixColumns: all data rows rotate
        self.bypass = Signal()        # AddRoundKey only (first decryption / last encryption pass)
        self.inverse = Signal()       # the S-box computes S^-1
        self.t_part = Signal()        # the S-box computes T for key row `row`
        self.key_one = Signal()       # the pass row of the key rotates, tail <- shared
        self.key_all = Signal()       # all key rows rotate, tail <- own head (^ own tail)
        self.own_fwd = Signal()
        self.x_last = Signal()        # shared = head ^ last (forward chain)
        self.x_prev = Signal()        # shared = head ^ prev (backward chain)
        self.prev_load = Signal()
        self.prev_from_last = Signal()
        self.prev_from_shared = Signal()
        self.next_row = Signal()      # `last` reads the row after `row`
        self.kb_head = Signal()       # round key byte = head ^ last, each if selected
        self.kb_last = Signal()
