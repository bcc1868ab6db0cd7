"""AES narrow datapaths for arch/narrow.py: 8 bits per clock (one S-box shared by the data and
the key schedule), 16 bits per clock (two S-boxes, two bytes of one row per clock), 32 and 64 bits
per clock (four or eight S-boxes, one or two columns per clock, shared with the key schedule's
SubWord). AES-128; the design, cycle counts and areas are in docs/narrow.md.

Both keep the state and the key as four row rings: row i of the state holds s[i, 0..3], row i of
the key holds byte i of the four key words w0..w3. A ring rotates left (position c takes c+1, the
tail position 3 takes a new byte), so a register loads from one neighbour, the interface (parallel
load) or itself (hold); the tails' inputs and the 32-bit core's ShiftRows are the only other
paths.

With keys=rewind the key ring is the only key storage. It rests at K0; encryption walks it forward
to K10 while the block is processed and walks it back to K0 afterwards ("rewind", while the result
waits); decryption first walks it forward to K10 ("run-up") and processes the block walking back,
ending at K0. With keys=stored, K0 and K10 are kept beside the ring and reloaded per block.

Key ring forms: "aligned", position c holds word c; "rotated", one step later after T was
injected, the positions hold w1, w2, w3, w0' (the new first word at the tail). The forward chain
from the rotated form is tail <- head ^ tail (w1' = w1 ^ w0', ...); the backward chain needs the
previous head, kept in ``prev``. T (SubWord(RotWord(w3)) ^ Rcon) is injected by rotating a row
once with tail <- head ^ T_i.
"""

from __future__ import annotations

from typing import Any

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.base import CoreOptions
from ...arch.narrow import NarrowDatapath, Program, Segment
from ...components.aes_linear import mix_column
from ...components.aes_sbox import AesSbox
from ...components.bytes import get_bytes
from ...errors import CipherbenchError
from .hw import BRAM, RCON, AesHardware

WIDTHS = (64, 32, 16, 8)
MC = (2, 3, 1, 1)
# InvMixColumns = MixColumns x circ(05, 00, 04, 00): an enc+dec core shares the MixColumns network
# and adds this cheap pre-map for decryption (both matrices are circulant, so they commute).
PRE_INV = (5, 0, 4, 0)
ROUNDS = 10


def _byte_signals(name: str) -> list[list[Signal]]:
    """A 4x4 array of byte registers [row][column], without reset: their contents mean nothing
    until loaded, and a synchronous reset would cost a gate in front of every flip-flop."""
    return [[Signal(8, name=f"{name}{r}{c}", reset_less=True) for c in range(4)] for r in range(4)]


def _load(m: Module, regs: list[list[Signal]], value: Value, offset: int = 0) -> None:
    """Byte b = r + 4c of a standard-order value (byte 0 most significant) into
    regs[r][c - offset] (``offset`` 1: the rotated form, word 0 at the tail)."""
    parts = get_bytes(value)
    for r in range(4):
        for c in range(4):
            m.d.sync += regs[r][(c - offset) % 4].eq(parts[r + 4 * c])


def _flatten(regs: list[list[Signal]]) -> Value:
    """The inverse of _load: a 128-bit value in standard byte order."""
    order = [regs[b % 4][b // 4] for b in range(16)]
    return Cat(*reversed(order))


def _mix(column: list[Value], directions: str, decrypt: Value) -> list[Value]:
    """MixColumns, InvMixColumns, or both sharing one network: InvMC = MC o pre, which is also
    smaller alone than InvMixColumns' own matrix (about 300 against 540 GE on NanGate45)."""
    if directions == "encrypt":
        return mix_column(column, MC)
    pre = mix_column(column, PRE_INV)
    if directions == "decrypt":
        return mix_column(pre, MC)
    return mix_column([Mux(decrypt, p, x) for p, x in zip(pre, column)], MC)


def _rcon(m: Module, step: Value) -> Signal:
    """Rcon of key-schedule step 1..10 (FIPS-197 notation: the step that produces K_step)."""
    out = Signal(8, name="rcon")
    with m.Switch(step):
        for s in range(1, ROUNDS + 1):
            with m.Case(s):
                m.d.comb += out.eq(RCON[s])
    return out


def _row_mux(select: Value, rows: list[Value]) -> Value:
    """rows[select] for a 2-bit select, as a balanced tree of 2:1 multiplexers."""
    low = [Mux(select[0], rows[1], rows[0]), Mux(select[0], rows[3], rows[2])]
    return Mux(select[1], low[1], low[0])


class _AesNarrow(NarrowDatapath):
    """What both widths share: options, the segment names, programs, describe()."""

    ENCRYPT, DECRYPT, RUNUP, REWIND = "encrypt", "decrypt", "key-runup", "key-rewind"
    STORE = "key-store"

    def __init__(self, options: CoreOptions, sbox: str, width: int, keys: str) -> None:
        super().__init__(width=width, block_bits=128, key_bits=128, key_len_bits=5)
        self.directions = options.directions
        self.has_enc, self.has_dec = options.has_encrypt, options.has_decrypt
        self.sbox_kind = sbox
        self.keys = keys
        self.stored = keys == "stored"

    def _segments(self) -> dict[str, Segment]:
        raise NotImplementedError

    def programs(self) -> dict[bool, Program]:
        seg = self._segments()
        out: dict[bool, Program] = {}
        if self.stored:
            # Start states kept: encryption reloads K0, decryption the K10 its setup stored
            # (one clock after the run-up, so the copy sees the finished ring).
            store = Segment(self.STORE, {128: 1}, 1)
            if self.has_enc:
                out[False] = Program(main=(seg[self.ENCRYPT],))
            if self.has_dec:
                out[True] = Program(setup=(seg[self.RUNUP], store), main=(seg[self.DECRYPT],))
            return out
        if self.has_enc:
            out[False] = Program(main=(seg[self.ENCRYPT],), post=self._rewind(seg))
        if self.has_dec:
            out[True] = Program(pre=(seg[self.RUNUP],), main=(seg[self.DECRYPT],))
        return out

    def _rewind(self, seg: dict[str, Segment]) -> tuple[Segment, ...]:
        return (seg[self.REWIND],)

    def uses(self, name: str) -> bool:
        """The segment is part of this core's programs."""
        return name in self.codes()

    def _start_controls(self, keys: "_KeyStarts") -> list[Any]:
        """Reloading the key ring from the kept start states (keys=stored)."""
        if not self.stored:
            return []
        enc = self._enc()
        return [
            keys.from_enc.eq(self.load_block & enc | self.start_setup),
            keys.from_dec.eq(self.load_block & ~enc),
            keys.store_dec.eq(self.running(self.STORE) if self.has_dec else 0),
        ]

    def _sbox_directions(self) -> str:
        # The key schedule always needs S; a decrypt-only core needs S^-1 for the data as well.
        return "encrypt" if not self.has_dec else "both"

    def _enc(self) -> Value:
        """1 when the current block is an encryption (a constant in one-direction cores)."""
        if self.has_enc and self.has_dec:
            return ~self.decrypt
        return Const(int(self.has_enc), 1)

    # Per segment (sign, base): its round r injects T of key-schedule step base + sign * r.
    T_STEP: dict[str, tuple[int, int]] = {}

    def _key_step(self, m: Module) -> Value:
        """The key-schedule step (1..10) whose Rcon the T injection of this clock uses."""
        rnd = self.round[:4]
        step = Signal(4, name="key_step")
        for name, (sign, base) in self.T_STEP.items():
            if self.uses(name):
                with m.If(self.running(name)):
                    m.d.comb += step.eq(base + rnd if sign > 0 else base - rnd)
        return step

    def describe(self) -> dict[str, object]:
        programs = self.programs()
        cycles: dict[str, object] = {}
        for decrypt, program in programs.items():
            name = "decrypt" if decrypt else "encrypt"
            cycles[f"{name}_latency"] = program.latency(128)
            cycles[f"{name}_interval"] = program.interval(128)
            cycles[f"{name}_key_setup"] = program.key_setup(128)
        return {"sbox": self.sbox_kind, "data_sboxes": self.width // 8,
                "key_schedule_sboxes": 0, "key_schedule": "shares the data S-boxes",
                "key_registers": 128 * (1 + self.stored * (self.has_enc + self.has_dec)),
                **cycles}


class _KeyStarts:
    """The start states a key block keeps with keys=stored: K0 (for encryption) and the state
    after the decryption run-up; ``ring`` is reloaded from them when a block or the run-up starts.
    With keys=rewind there are none and the controls stay 0."""

    def __init__(self) -> None:
        self.from_enc = Signal()
        self.from_dec = Signal()
        self.store_dec = Signal()

    def keep(self, m: Module, ring: list[list[Signal]], key: Value, load_key: Value,
             offset: int, enc: bool, dec: bool) -> Value:
        """Registers and loads (the key port first); returns 1 when the ring loads this clock."""
        enc_start = _byte_signals("enc_start") if enc else None
        dec_start = _byte_signals("dec_start") if dec else None
        with m.If(load_key):
            # With K0 kept, the ring is always reloaded from it before use (a block or the
            # run-up starts), so only the kept copy takes the key.
            _load(m, ring if enc_start is None else enc_start, key, offset)
        if enc_start is not None:
            with m.Elif(self.from_enc):
                _copy(m, ring, enc_start)
        if dec_start is not None:
            with m.Elif(self.from_dec):
                _copy(m, ring, dec_start)
            with m.If(self.store_dec):
                _copy(m, dec_start, ring)
        return ((load_key if enc_start is None else 0) | (self.from_enc if enc else 0)
                | (self.from_dec if dec else 0))


def _copy(m: Module, dst: list[list[Signal]], src: list[list[Signal]]) -> None:
    m.d.sync += [dst[r][c].eq(src[r][c]) for r in range(4) for c in range(4)]


class ByteSerialKeys(Elaboratable, _KeyStarts):
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
        _KeyStarts.__init__(self)
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
        k = _byte_signals("k")
        prev = Signal(8, reset_less=True)
        m.d.comb += [
            self.head.eq(_row_mux(self.sel_head, [k[r][0] for r in range(4)])),
            self.last.eq(_row_mux(self.sel_last, [Mux(self.t_read, k[0][2], k[0][3])]
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


class AesByteSerial(_AesNarrow):
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
        a = _byte_signals("s")
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
        rcon = _rcon(m, self._key_step(m))
        m.d.comb += keys.t_value.eq(sbox.o ^ Mux(ctl.row == 0, rcon, 0))

        # The data byte: AddRoundKey before the S-box for encryption, after it for decryption.
        kb = Mux(ctl.kb_head, keys.head, 0) ^ Mux(ctl.kb_last, keys.last, 0)
        x = _row_mux(ctl.row, [a[r][0] for r in range(4)]) ^ Mux(enc, kb, 0)
        m.d.comb += [sbox.i.eq(Mux(ctl.t_part, keys.last, x)), sbox.decrypt.eq(ctl.inverse)]
        spath = Mux(ctl.bypass, x, sbox.o) ^ Mux(enc, 0, kb)
        mixed = _mix([a[r][0] for r in range(4)], self.directions, self.decrypt)

        with m.If(self.load_block):
            _load(m, a, self.block_in)
        for r in range(4):
            sub = ctl.data_one & (ctl.row == r)
            with m.If(~self.load_block & (ctl.mix | sub | ctl.shift[r])):
                m.d.sync += [a[r][c].eq(a[r][c + 1]) for c in range(3)]
                m.d.sync += a[r][3].eq(Mux(ctl.mix, mixed[r], Mux(sub, spath, a[r][0])))
        m.d.comb += self.block_out.eq(_flatten(a))
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


class ColumnSerialKeys(Elaboratable, _KeyStarts):
    """Key register of the 32-bit core (the ``key_schedule`` block): a ring of four words (all
    rows rotate together) and a one-word ``prev`` for the backward chain. T comes from the
    datapath's four S-boxes (``t_value``, Rcon included), fed from ``last`` rotated by a byte."""

    def __init__(self, stored_enc: bool = False, stored_dec: bool = False) -> None:
        _KeyStarts.__init__(self)
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
        k = _byte_signals("k")
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


class AesColumnSerial(_AesNarrow):
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
        a = _byte_signals("s")
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
        rcon = _rcon(m, self._key_step(m))
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
            mixed = _mix(keyed, self.directions, self.decrypt)
            columns.append([Mux(ctl.skip_mix, z, x) ^ Mux(enc, k, 0)
                            for z, x, k in zip(keyed, mixed, kw)])

        n = self.COLS
        with m.If(self.load_block):
            _load(m, a, self.block_in)
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
        m.d.comb += self.block_out.eq(_flatten(a))
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


class ColumnPairKeys(Elaboratable, _KeyStarts):
    """Key register of the 64-bit core (the ``key_schedule`` block): the ring of four words
    rotating by two words per clock. The two new words are, with K0..K3 the ring before the
    clock, tail2 = K0 ^ (T | K3 | 0) and tail3 = K1 ^ (tail2 | K0 | 0): forward (T or chain)
    takes tail3 = K1 ^ tail2 (w1' = w1 ^ w0'), backward tail3 = K1 ^ K0 (o3 = n3 ^ n2), so no
    ``prev`` is needed. ``kw`` gives the round-key words of the two columns of a clock."""

    def __init__(self, stored_enc: bool = False, stored_dec: bool = False) -> None:
        _KeyStarts.__init__(self)
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
        k = _byte_signals("k")
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


class RowPairKeys(Elaboratable, _KeyStarts):
    """Key register of the 16-bit core (the ``key_schedule`` block): four row rings, each
    rotating by two bytes when its row is taken, with the 64-bit core's two-word algebra applied
    to one row (two S-boxes give T two rows at a time). With K0..K3 the row before the clock, the
    new tail bytes are tail2 = K0 ^ (T | K3 | 0) and tail3 = K1 ^ (tail2 | K0 | 0): forward
    (T or chain) takes tail3 = K1 ^ tail2, backward tail3 = K1 ^ K0, so no ``prev`` is needed.
    ``rotate`` is per row. ``kw`` gives the two round-key bytes of row ``sel`` for this clock:
    K0, K1; K2, K3 (``kw_high``); or the forward chain's new bytes (``kw_tail``), computed
    without T so that T's path into the ring stays off the S-boxes' inputs."""

    def __init__(self, stored_enc: bool = False, stored_dec: bool = False) -> None:
        _KeyStarts.__init__(self)
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
        k = _byte_signals("k")
        loading = self.keep(m, k, self.key, self.load, 0, self.stored_enc, self.stored_dec)
        for r in range(4):
            tail2 = k[r][0] ^ (Mux(self.a_t, self.t_value[r], 0) | Mux(self.a_last, k[r][3], 0))
            tail3 = k[r][1] ^ (Mux(self.b_tail, tail2, 0) | Mux(self.b_head, k[r][0], 0))
            m.d.comb += [self.bytes[r][c].eq(k[r][c]) for c in range(4)]
            with m.If(~loading & self.rotate[r]):
                m.d.sync += [k[r][0].eq(k[r][2]), k[r][1].eq(k[r][3]),
                             k[r][2].eq(tail2), k[r][3].eq(tail3)]
        # One row read, then the selection: cheaper than selecting in every row.
        sel = [_row_mux(self.sel, [k[r][c] for r in range(4)]) for c in range(4)]
        chain2 = sel[0] ^ sel[3]
        m.d.comb += [
            self.kw[0].eq(Mux(self.kw_high, sel[2], sel[0]) ^ Mux(self.kw_tail, sel[3], 0)),
            self.kw[1].eq(Mux(self.kw_high, sel[3], sel[1]) ^ Mux(self.kw_tail, chain2, 0)),
        ]
        return m


class AesRowPairs(_AesNarrow):
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
        a = _byte_signals("s")
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
        rcon = _rcon(m, self._key_step(m))
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
            x = _row_mux(ctl.row, [a[r][lane] for r in range(4)]) ^ Mux(enc, kw[lane], 0)
            m.d.comb += [sbox.i.eq(Mux(ctl.t_cycle, t_source[lane], x)),
                         sbox.decrypt.eq(ctl.inverse)]
            out.append(Mux(ctl.bypass, x, sbox.o) ^ Mux(enc, 0, kw[lane]))
            for r in (lane, lane + 2):
                m.d.comb += keys.t_value[r].eq(sbox.o ^ (rcon if r == 0 else 0))
        mixed = [_mix([a[r][c] for r in range(4)], self.directions, self.decrypt)
                 for c in range(2)]

        with m.If(self.load_block):
            _load(m, a, self.block_in)
        for r in range(4):
            taken = ctl.data_pass & (ctl.row == r)
            with m.If(~self.load_block & (ctl.mix | taken)):
                m.d.sync += [a[r][0].eq(a[r][2]), a[r][1].eq(a[r][3])]
                m.d.sync += [a[r][2 + c].eq(Mux(ctl.mix, mixed[c][r], out[c])) for c in range(2)]
            with m.Elif(~self.load_block & ctl.shift[r]):
                m.d.sync += [a[r][c].eq(a[r][(c + 1) % 4]) for c in range(4)]
        m.d.comb += self.block_out.eq(_flatten(a))
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


class AesNarrowHardware(AesHardware):
    """AES with narrow datapaths (CipherInfo.arch_hardware: narrow)."""

    def narrow_datapath(self, width: int, keys: str = "rewind") -> NarrowDatapath:
        if width not in WIDTHS:
            raise CipherbenchError(f"aes has no {width}-bit datapath; valid widths: "
                                   f"{', '.join(map(str, WIDTHS))}")
        if self.sbox == BRAM:
            raise CipherbenchError("the narrow AES datapaths use combinational S-boxes; sbox=bram "
                                   "needs a registered SubBytes: use aes-128/pipelined:inner=1,"
                                   "sbox=bram")
        if tuple(self.options.key_sizes) != (128,):
            raise CipherbenchError(f"the narrow AES datapaths take 128-bit keys only; use "
                                   f"aes-128/narrow:width={width}")
        if width == 8:
            return AesByteSerial(self.options, self.sbox, keys)
        if width == 32:
            return AesColumnSerial(self.options, self.sbox, keys)
        if width == 16:
            return AesRowPairs(self.options, self.sbox, keys)
        return AesColumnPairs(self.options, self.sbox, keys)

    def describe(self) -> dict[str, object]:
        return {"sbox": self.sbox}


HARDWARE = AesNarrowHardware
