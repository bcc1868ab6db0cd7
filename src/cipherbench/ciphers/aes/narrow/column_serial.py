"""The 32- and 64-bit AES cores: one or two columns per clock through four or eight S-boxes
shared with the key schedule's SubWord (``AesColumnSerial``, ``AesColumnPairs``), their key
registers and decoded controls."""

from __future__ import annotations

from amaranth.hdl import Elaboratable, Module, Mux, Signal, Value

from ....arch.base import CoreOptions
from ....arch.narrow import Segment
from ....components.aes_sbox import AesSbox
from .common import (ROUNDS, AesNarrow, KeyStarts, byte_signals, flatten, load_bytes,
                     mix_or_inverse, rcon_of)


class ColumnSerialKeys(Elaboratable, KeyStarts):
    """Key register of the 32-bit core (the ``key_schedule`` block): a ring of four words (all
    rows rotate together) and a one-word ``prev`` for the backward chain. T comes from the
    datapath's four S-boxes (``t_value``, Rcon included), fed from ``last`` rotated by a byte."""

    def __init__(self, stored_enc: bool = False, stored_dec: bool = False) -> None:
        KeyStarts.__init__(self)
        self.stored_enc, self.stored_dec = stored_enc, stored_dec
        self.key = Signal(128)
        self.load = Signal()
        self.rotate = Signal()
        self.use_fwd = Signal()
        self.use_bwd = Signal()
        self.use_t = Signal()
        self.t_value = [Signal(8, name=f"t_value{r}") for r in range(4)]
        self.prev_load = Signal()
        self.prev_from_last = Signal()
        self.prev_from_tail = Signal()
        self.head = [Signal(8, name=f"head{r}") for r in range(4)]   # word 0
        self.last = [Signal(8, name=f"last{r}") for r in range(4)]   # word 3

    def elaborate(self, platform: object) -> Module:
        m = Module()
        k = byte_signals("k")
        prev = [Signal(8, name=f"prev{r}", reset_less=True) for r in range(4)]
        loading = self.keep(m, k, self.key, self.load, 0, self.stored_enc, self.stored_dec)
        for r in range(4):
            tail = k[r][0] ^ (Mux(self.use_fwd, k[r][3], 0) | Mux(self.use_bwd, prev[r], 0)
                              | Mux(self.use_t, self.t_value[r], 0))
            m.d.comb += [self.head[r].eq(k[r][0]), self.last[r].eq(k[r][3])]
            with m.If(~loading & self.rotate):
                m.d.sync += [k[r][c].eq(k[r][c + 1]) for c in range(3)]
                m.d.sync += k[r][3].eq(tail)
            with m.If(self.prev_load):
                m.d.sync += prev[r].eq(Mux(self.prev_from_tail, tail,
                                           Mux(self.prev_from_last, k[r][3], k[r][0])))
        return m


class AesColumnSerial(AesNarrow):
    """32 bits per clock: four S-boxes, one column per clock, shared with the key schedule.

    A round is one clock in which the S-boxes compute SubWord for the next round key while the
    state takes (Inv)ShiftRows as a wiring permutation, then four column clocks (SubBytes,
    MixColumns and AddRoundKey of column 0, all rows rotating): 5 clocks, as Satoh et al.'s
    compact 32-bit core (ASIACRYPT 2001), which shares its four S-boxes the same way. Whitening
    takes four column clocks with the S-boxes bypassed.
    """

    COLS = 1  # columns per clock
    T_STEP = {"encrypt": (1, 0), "decrypt": (-1, ROUNDS + 1), "key-runup": (1, 1),
              "key-rewind": (-1, ROUNDS + 1)}

    def __init__(self, options: CoreOptions, sbox: str, keys: str) -> None:
        super().__init__(options, sbox, 32 * self.COLS, keys)
        self.key_schedule = self._key_block()

    def _key_block(self) -> Elaboratable:
        return ColumnSerialKeys(self.stored and self.has_enc, self.stored and self.has_dec)

    def _segments(self) -> dict[str, Segment]:
        r = {128: ROUNDS + 1}
        return {
            # Round j: step 0 SubWord for K_j and (Inv)ShiftRows (j >= 1), steps 1-4 columns.
            self.ENCRYPT: Segment(self.ENCRYPT, r, 5, first_step=1),
            self.DECRYPT: Segment(self.DECRYPT, r, 5, first_step=1),
            # Per step: SubWord, then the forward chain in three clocks.
            self.RUNUP: Segment(self.RUNUP, {128: ROUNDS}, 4),
            # Per step: SubWord (prev <- the new word), then the backward chain in three clocks;
            # the last round realigns K0 by three rotations.
            self.REWIND: Segment(self.REWIND, r, 4),
        }

    def elaborate(self, platform: object) -> Module:
        m = Module()
        a = byte_signals("s")
        st, first, last = self.step[:3], self.round[:4] == 0, self.last_round
        ctl = _ColumnControl()
        if self.uses(self.ENCRYPT):
            self._decode_encrypt(m, ctl, st, first, last)
        if self.uses(self.REWIND):
            self._decode_rewind(m, ctl, st, first, last)
        if self.uses(self.DECRYPT):
            self._decode_decrypt(m, ctl, st, first, last)
        if self.uses(self.RUNUP):
            self._decode_runup(m, ctl, st)
        words, t_source, t_value = self._wire_keys(m, ctl)
        rcon = rcon_of(m, self._key_step(m))
        enc = self._enc()
        columns = []
        for col, kw in enumerate(words):
            subbed = []
            for r in range(4):
                sbox = AesSbox(self.sbox_kind, self._sbox_directions())
                m.submodules[f"sbox{4 * col + r}"] = sbox
                m.d.comb += sbox.decrypt.eq(ctl.inverse)
                if col == 0:
                    # The first column's S-boxes compute SubWord in the key clock.
                    m.d.comb += [sbox.i.eq(Mux(ctl.t_cycle, t_source[r], a[r][col])),
                                 t_value[r].eq(sbox.o ^ (rcon if r == 0 else 0))]
                else:
                    m.d.comb += sbox.i.eq(a[r][col])
                subbed.append(Mux(ctl.bypass, a[r][col], sbox.o))
            keyed = [y ^ Mux(enc, 0, k) for y, k in zip(subbed, kw)]
            mixed = mix_or_inverse(keyed, self.directions, self.decrypt)
            columns.append([Mux(ctl.skip_mix, z, x) ^ Mux(enc, k, 0)
                            for z, x, k in zip(keyed, mixed, kw)])

        n = self.COLS
        with m.If(self.load_block):
            load_bytes(m, a, self.block_in)
        with m.Elif(ctl.column):
            for r in range(4):
                m.d.sync += [a[r][c].eq(a[r][c + n]) for c in range(4 - n)]
                m.d.sync += [a[r][4 - n + col].eq(columns[col][r]) for col in range(n)]
        if self.has_enc:
            with m.Elif(ctl.shift_rows):
                for r in range(1, 4):
                    m.d.sync += [a[r][c].eq(a[r][(c + r) % 4]) for c in range(4)]
        if self.has_dec:
            with m.Elif(ctl.inv_shift_rows):
                for r in range(1, 4):
                    m.d.sync += [a[r][c].eq(a[r][(c - r) % 4]) for c in range(4)]
        m.d.comb += self.block_out.eq(flatten(a))
        return m

    def _wire_keys(self, m: Module, ctl: "_ColumnControl"
                   ) -> tuple[list[list[Value]], list[Value], list[Signal]]:
        """Drive the key block; return the round-key word of each column of this clock, T's
        S-box inputs (RotWord: byte r of T is S of byte r+1 of w3) and T's value inputs."""
        keys = self.key_schedule
        assert isinstance(keys, ColumnSerialKeys)
        m.d.comb += [
            keys.key.eq(self.key), keys.load.eq(self.load_key), keys.rotate.eq(ctl.key_rotate),
            keys.use_fwd.eq(ctl.fwd), keys.use_bwd.eq(ctl.bwd), keys.use_t.eq(ctl.t_cycle),
            keys.prev_load.eq(ctl.prev_load), keys.prev_from_last.eq(ctl.prev_from_last),
            keys.prev_from_tail.eq(ctl.prev_from_tail),
            *self._start_controls(keys),
        ]
        kw = [Mux(ctl.kb_head, keys.head[r], 0) ^ Mux(ctl.kb_last, keys.last[r], 0)
              for r in range(4)]
        return [kw], [keys.last[(r + 1) % 4] for r in range(4)], keys.t_value

    def _decode_encrypt(self, m: Module, ctl: "_ColumnControl", st: Value, first: Value,
                        last: Value) -> None:
        on = self.running(self.ENCRYPT)
        c = (st - 1)[:2]
        with m.If(on & (st == 0)):
            m.d.comb += [ctl.t_cycle.eq(1), ctl.key_rotate.eq(1), ctl.shift_rows.eq(1)]
        with m.If(on & (st != 0)):
            m.d.comb += [ctl.column.eq(1), ctl.bypass.eq(first), ctl.skip_mix.eq(first | last),
                         ctl.key_rotate.eq(first | (c != 0)), ctl.fwd.eq(~first & (c != 0)),
                         ctl.kb_head.eq(first | (c != 0)), ctl.kb_last.eq(~first)]

    def _decode_decrypt(self, m: Module, ctl: "_ColumnControl", st: Value, first: Value,
                        last: Value) -> None:
        on = self.running(self.DECRYPT)
        c = (st - 1)[:2]
        with m.If(on & (st == 0)):
            m.d.comb += [ctl.t_cycle.eq(1), ctl.key_rotate.eq(1), ctl.inv_shift_rows.eq(1)]
        with m.If(on & (st != 0)):
            m.d.comb += [ctl.column.eq(1), ctl.bypass.eq(first), ctl.skip_mix.eq(first | last),
                         ctl.inverse.eq(~first),
                         # backward chain: as the 8-bit core's, on all rows at once
                         ctl.key_rotate.eq(first | (c != 0)), ctl.bwd.eq((c != 0) & ~last),
                         ctl.prev_load.eq(1), ctl.prev_from_last.eq(~first & (c == 0)),
                         ctl.kb_head.eq(first | (c != 0)), ctl.kb_last.eq(~first & (c == 0))]

    def _decode_runup(self, m: Module, ctl: "_ColumnControl", st: Value) -> None:
        on = self.running(self.RUNUP)
        with m.If(on & (st == 0)):
            m.d.comb += [ctl.t_cycle.eq(1), ctl.key_rotate.eq(1)]
        with m.If(on & (st != 0)):
            m.d.comb += [ctl.key_rotate.eq(1), ctl.fwd.eq(1)]

    def _decode_rewind(self, m: Module, ctl: "_ColumnControl", st: Value, first: Value,
                       last: Value) -> None:
        on = self.running(self.REWIND)
        with m.If(on):
            m.d.comb += ctl.key_rotate.eq(1)
        with m.If(on & (st == 0)):
            # aligned K10: a plain rotation taking prev <- w0; later: T, prev <- the new word
            m.d.comb += [ctl.t_cycle.eq(~first), ctl.prev_load.eq(1),
                         ctl.prev_from_tail.eq(~first)]
        with m.If(on & (st != 0)):
            m.d.comb += [ctl.bwd.eq(~last), ctl.prev_load.eq(~last)]


class ColumnPairKeys(Elaboratable, KeyStarts):
    """Key register of the 64-bit core (the ``key_schedule`` block): the ring of four words
    rotating by two words per clock. The two new words are, with K0..K3 the ring before the
    clock, tail2 = K0 ^ (T | K3 | 0) and tail3 = K1 ^ (tail2 | K0 | 0): forward (T or chain)
    takes tail3 = K1 ^ tail2 (w1' = w1 ^ w0'), backward tail3 = K1 ^ K0 (o3 = n3 ^ n2), so no
    ``prev`` is needed. ``kw`` gives the round-key words of the two columns of a clock."""

    def __init__(self, stored_enc: bool = False, stored_dec: bool = False) -> None:
        KeyStarts.__init__(self)
        self.stored_enc, self.stored_dec = stored_enc, stored_dec
        self.key = Signal(128)
        self.load = Signal()
        self.rotate = Signal()
        self.a_t = Signal()           # tail2 = K0 ^ T
        self.a_last = Signal()        # tail2 = K0 ^ K3
        self.b_tail = Signal()        # tail3 = K1 ^ tail2
        self.b_head = Signal()        # tail3 = K1 ^ K0
        self.kw_high = Signal()       # round-key words: K2, K3
        self.kw_tail = Signal()       # round-key words: tail2, tail3 (else K0, K1)
        self.t_value = [Signal(8, name=f"t_value{r}") for r in range(4)]
        self.last = [Signal(8, name=f"last{r}") for r in range(4)]   # word 3
        self.kw = [[Signal(8, name=f"kw{w}_{r}") for r in range(4)] for w in range(2)]

    def elaborate(self, platform: object) -> Module:
        m = Module()
        k = byte_signals("k")
        loading = self.keep(m, k, self.key, self.load, 0, self.stored_enc, self.stored_dec)
        for r in range(4):
            tail2 = k[r][0] ^ (Mux(self.a_t, self.t_value[r], 0) | Mux(self.a_last, k[r][3], 0))
            tail3 = k[r][1] ^ (Mux(self.b_tail, tail2, 0) | Mux(self.b_head, k[r][0], 0))
            m.d.comb += self.last[r].eq(k[r][3])
            for w, (low, high, tail) in enumerate(((k[r][0], k[r][2], tail2),
                                                   (k[r][1], k[r][3], tail3))):
                m.d.comb += self.kw[w][r].eq(Mux(self.kw_tail, tail,
                                                 Mux(self.kw_high, high, low)))
            with m.If(~loading & self.rotate):
                m.d.sync += [k[r][0].eq(k[r][2]), k[r][1].eq(k[r][3]),
                             k[r][2].eq(tail2), k[r][3].eq(tail3)]
        return m


class AesColumnPairs(AesColumnSerial):
    """64 bits per clock (Fischer's "fair" width): eight S-boxes, two columns per clock; four of
    them compute SubWord in the key clock of each round. A round is that clock and two column
    clocks; whitening takes two. The key ring moves two words per clock; after the key clock it
    holds w2, w3, w0', w1' ("half-rotated"), which the column clocks read as they need."""

    COLS = 2
    T_STEP = {"encrypt": (1, 0), "decrypt": (-1, ROUNDS + 1), "key-runup": (1, 1),
              "key-rewind": (-1, ROUNDS + 1)}

    def _key_block(self) -> Elaboratable:
        return ColumnPairKeys(self.stored and self.has_enc, self.stored and self.has_dec)

    def _segments(self) -> dict[str, Segment]:
        r = {128: ROUNDS + 1}
        return {
            # Round j: step 0 SubWord for K_j and (Inv)ShiftRows (j >= 1), steps 1-2 columns.
            self.ENCRYPT: Segment(self.ENCRYPT, r, 3, first_step=1),
            self.DECRYPT: Segment(self.DECRYPT, r, 3, first_step=1),
            # Per step: SubWord (two new words), then the other two.
            self.RUNUP: Segment(self.RUNUP, {128: ROUNDS}, 2),
            # Round 0: a plain rotation of the aligned K10, then the backward chain; rounds
            # 1-10: SubWord, then the backward chain (the last round: a plain rotation, which
            # realigns K0).
            self.REWIND: Segment(self.REWIND, r, 2),
        }

    def _wire_keys(self, m: Module, ctl: "_ColumnControl"
                   ) -> tuple[list[list[Value]], list[Value], list[Signal]]:
        keys = self.key_schedule
        assert isinstance(keys, ColumnPairKeys)
        m.d.comb += [
            keys.key.eq(self.key), keys.load.eq(self.load_key), keys.rotate.eq(ctl.key_rotate),
            keys.a_t.eq(ctl.t_cycle), keys.a_last.eq(ctl.fwd | ctl.bwd),
            keys.b_tail.eq(ctl.t_cycle & ~ctl.backward | ctl.fwd),
            keys.b_head.eq(ctl.t_cycle & ctl.backward | ctl.bwd),
            keys.kw_high.eq(ctl.kb_last), keys.kw_tail.eq(ctl.kb_tail),
            *self._start_controls(keys),
        ]
        words: list[list[Value]] = [list(w) for w in keys.kw]
        return words, [keys.last[(r + 1) % 4] for r in range(4)], keys.t_value

    def _decode_encrypt(self, m: Module, ctl: "_ColumnControl", st: Value, first: Value,
                        last: Value) -> None:
        on = self.running(self.ENCRYPT)
        c = st != 1  # the second column pair
        with m.If(on & (st == 0)):
            m.d.comb += [ctl.t_cycle.eq(1), ctl.key_rotate.eq(1), ctl.shift_rows.eq(1)]
        with m.If(on & (st != 0)):
            # Round 0: K0 aligned, plain rotations read K0, K1 twice. Later: the first pair is
            # w0', w1' at K2, K3 (no rotation); the second pair comes out of the forward chain.
            m.d.comb += [ctl.column.eq(1), ctl.bypass.eq(first), ctl.skip_mix.eq(first | last),
                         ctl.key_rotate.eq(first | c), ctl.fwd.eq(~first & c),
                         ctl.kb_last.eq(~first & ~c), ctl.kb_tail.eq(~first & c)]

    def _decode_decrypt(self, m: Module, ctl: "_ColumnControl", st: Value, first: Value,
                        last: Value) -> None:
        on = self.running(self.DECRYPT)
        c = st != 1
        with m.If(on & (st == 0)):
            m.d.comb += [ctl.t_cycle.eq(1), ctl.backward.eq(1), ctl.key_rotate.eq(1),
                         ctl.inv_shift_rows.eq(1)]
        with m.If(on & (st != 0)):
            # Round 0 (aligned K10): a plain rotation reading n0, n1, then the backward chain
            # reading n2, n3. Later (half-rotated): o0, o1 at K2, K3 without rotating, then the
            # backward chain reading o2, o3 (plain in the last round: K0 comes out aligned).
            m.d.comb += [ctl.column.eq(1), ctl.bypass.eq(first), ctl.skip_mix.eq(first | last),
                         ctl.inverse.eq(~first),
                         ctl.key_rotate.eq(first | c), ctl.bwd.eq(c & ~last),
                         ctl.kb_last.eq(~first & ~c)]

    def _decode_runup(self, m: Module, ctl: "_ColumnControl", st: Value) -> None:
        on = self.running(self.RUNUP)
        with m.If(on):
            m.d.comb += [ctl.key_rotate.eq(1), ctl.t_cycle.eq(st == 0), ctl.fwd.eq(st != 0)]

    def _decode_rewind(self, m: Module, ctl: "_ColumnControl", st: Value, first: Value,
                       last: Value) -> None:
        on = self.running(self.REWIND)
        with m.If(on):
            m.d.comb += [ctl.key_rotate.eq(1), ctl.backward.eq(1),
                         ctl.t_cycle.eq((st == 0) & ~first), ctl.bwd.eq((st != 0) & ~last)]


class _ColumnControl:
    """The decoded controls of the 32-bit core for one clock (all default 0)."""

    def __init__(self) -> None:
        self.column = Signal()        # a column clock: all data rows rotate
        self.shift_rows = Signal()
        self.inv_shift_rows = Signal()
        self.bypass = Signal()
        self.skip_mix = Signal()
        self.inverse = Signal()
        self.t_cycle = Signal()       # the S-boxes compute SubWord; T is injected
        self.key_rotate = Signal()
        self.fwd = Signal()
        self.bwd = Signal()
        self.prev_load = Signal()
        self.prev_from_last = Signal()
        self.prev_from_tail = Signal()
        self.backward = Signal()      # T injected in a backward step (64-bit key ring)
        self.kb_head = Signal()
        self.kb_last = Signal()
        self.kb_tail = Signal()       # 64-bit: the round-key words are the ring's new words
