"""The masked 8-bit AES-128 core (``aes-128/masked:width=8``): one masked S-box
(components/masked/tower.py, 7 clocks, a new byte every clock) shared by the state and the key
schedule, the state and the key as four row rings of byte registers per share, as the compact
masked cores of Moradi et al. and De Cnudde et al. keep them; encryption.

Every register holds one share of one byte (``state<r><c>_s<k>``, ``key<r><c>_s<k>``); every
linear step (AddRoundKey, ShiftRows, MixColumns, the key schedule's XORs) works share by share,
constants (Rcon) on share 0.

**Rings that never stop.** While a block runs, every ring (four state rows and four key rows, of
every share) rotates left in every clock: position q takes q + 1, position 3 takes position 0 or
a computed byte at the few positions that take one. A register then needs no hold multiplexer
(the key's take the loaded key or their neighbour; the state's hold only while the result waits),
which is most of the area a register costs beside its flip-flop. Row r is loaded with offset o_r:
at clock t after the load its position q holds column (q + t + o_r) mod 4, the same for the state
row and the key row, so the two heads always hold the same column. What a rotating ring needs:

- **AddRoundKey + SubBytes**: the S-box takes state head ^ key head of one row, four clocks a row
  (any four clocks see the four columns).
- **ShiftRows** by where the S-box's result is written: a byte read from the head in clock c
  and written into position p seven clocks later is, from then on, where column c + o_r + p
  sits; ShiftRows wants c + o_r - r, so row r writes at position p_r = -r mod 4 (row 0 at 0, row 1
  at 3, row 2 at 2, row 3 at 1). Writing a position replaces the neighbour it would have taken.
- **MixColumns** taps position q_r = 3 - o_r of each row (the same column in every row) and
  writes the mixed byte where that byte goes, q_r - 1 = p_r with the offsets below: four clocks.
- **The key schedule's forward chain** (w0' = w0 ^ T, w_c' = w_c ^ w_(c-1)') needs column 0 at
  the head when T's byte arrives from the S-box; the offsets are chosen so that it is: T's byte
  for row r arrives at t = 26 - r, so o_r = r - 26 mod 4 = (2, 3, 0, 1). The new byte goes to
  position 3 (the tail, where the previous new byte is when the next is made), and T's source,
  w3 of row r + 1, is at position 1 of that row when its byte enters the S-box.

One round is a 28-clock pass (step t; 28 keeps the rings' phase the same in every pass):

    t 0-15   rows 3, 2, 1, 0 in turn, four clocks each: state byte ^ K_p byte into the S-box
    t 7-22   the S-box's results come back seven clocks later, written at p_r
    t 16-19  T's bytes 3, 2, 1, 0 into the S-box (k[0][3], k[3][3], k[2][3], k[1][3])
    t 23-26  MixColumns (not in the last round); key row r's chain from t = 26 - r for four
             clocks (rows 1 and 0 finish in the first clocks of the next pass, before they are
             read)

The first pass reads K_0, the loaded key. The last pass (t 0-29) has no MixColumns and ends when
key row 0 has walked to K_10. The final AddRoundKey is in the output: the result chunks are the
heads of the state rows XOR the heads of the key rows (share by share; the rings turn together,
so the heads hold the same column), which costs the output's 32 XORs per share instead of a
computed input at every state row's tail. A block takes 3 load clocks, 9 x 28 + 30 clocks and 4
output clocks: the last chunk leaves 289 clocks after the transfer.

Why the S-box takes state ^ key straight from the rings: its first stage is a share-wise linear
map into a register (t), so the XOR of domain-i registers stays in domain i until that register.
Its output, combinational after its last register level, goes into a ring register before any
multiplier reads it again.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Mux, Signal, Value

from ....arch.masked import MaskedDatapath, Stream, feed_random, gadget_variant, random_bits_of
from ....arch.narrow import Program, Segment
from ....components.masked.tower import LATENCY, MaskedAesSbox
from ...aes.narrow.common import MC, mix_column, rcon_of, row_mux

LOAD_SEGMENT, ROUNDS_SEGMENT, FINAL_SEGMENT, UNLOAD_SEGMENT = "load", "rounds", "final", "unload"
CHUNKS = 4          # a column of key and block in, a column of the result out, per clock
PASS = 28           # clocks of rounds 1-9 (a multiple of 4: the rings' phase repeats)
FINAL_PASS = 30     # clocks of round 10 and K_10's chain
T_FEED = 16         # t 16-19: T's bytes enter the S-box
MIX = 23            # t 23-26: MixColumns
KEY_FIRST = 26      # key row r starts its chain at 26 - r
OFFSETS = tuple((r - KEY_FIRST) % 4 for r in range(4))   # o_r: (2, 3, 0, 1)
WRITE_AT = tuple((-r) % 4 for r in range(4))             # p_r: ShiftRows
MIX_TAP = tuple((3 - o) % 4 for o in OFFSETS)            # q_r
T_TAP = 1           # w3 of the source row is at position 1 when its byte enters the S-box
RUN_CLOCKS = 9 * PASS + FINAL_PASS   # the passes' clocks
assert all((q - 1) % 4 == p for q, p in zip(MIX_TAP, WRITE_AT))
# Input chunk j enters every row's tail; CHUNKS clocks later it is at position j, which must
# hold column j + o_r. Output chunk j is every row's head, RUN_CLOCKS + j clocks into the passes.
IN_ORDER = tuple(tuple(r + 4 * ((j + OFFSETS[r]) % 4) for r in range(4)) for j in range(CHUNKS))
OUT_ORDER = tuple(tuple(r + 4 * ((RUN_CLOCKS + j + OFFSETS[r]) % 4) for r in range(4))
                  for j in range(CHUNKS))
assert all((3 - (T_FEED + 3 - r) - OFFSETS[(r + 1) % 4]) % 4 == T_TAP for r in range(4))


def ring(name: str, share: int) -> list[list[Signal]]:
    """A 4x4 array of byte registers [row][position] for one share, without reset."""
    return [[Signal(8, name=f"{name}{r}{q}_s{share}", reset_less=True) for q in range(4)]
            for r in range(4)]


def in_window(t: Value, first: int, last: int) -> Value:
    """first <= t <= last (a constant window of the pass clock)."""
    return (t >= first) & (t <= last)


class _RowControl:
    """One row's controls for this clock (all 0 unless a window decodes them)."""

    def __init__(self, r: int) -> None:
        self.write = Signal(name=f"write{r}")      # state p_r <- the S-box output
        self.chain = Signal(name=f"chain{r}")      # key tail <- head ^ (T or its tail)
        self.chain_first = Signal(name=f"chain_first{r}")  # ... T (this clock's S-box output)


class AesMaskedByteSerial(MaskedDatapath):
    """The masked 8-bit AES-128 encryption core (module docstring)."""

    def __init__(self, shares: int, flaw: str) -> None:
        self.sbox = MaskedAesSbox("encrypt", shares, **gadget_variant(flaw))
        assert LATENCY == 7
        super().__init__(shares=shares, block_bits=128, key_bits=128, width=8,
                         random_bits=random_bits_of([self.sbox]),
                         stream=Stream(IN_ORDER, OUT_ORDER))

    def programs(self) -> dict[bool, Program]:
        return {False: Program(main=(Segment(LOAD_SEGMENT, {128: 1}, CHUNKS - 1),
                                     Segment(ROUNDS_SEGMENT, {128: 9}, PASS),
                                     Segment(FINAL_SEGMENT, {128: 1}, FINAL_PASS),
                                     Segment(UNLOAD_SEGMENT, {128: 1}, CHUNKS)))}

    def sbox_evaluations(self) -> int:
        return 10 * (16 + 4)

    def bits_per_evaluation(self) -> int:
        return self.sbox.random_bits

    def describe(self) -> dict[str, object]:
        return {"sbox": "masked tower field (DOM-indep)" if self.shares > 1 else "tower field",
                "sbox_latency": LATENCY, "data_sboxes": 1, "key_schedule_sboxes": 0,
                "key_schedule": "shares the data S-box", "round_clocks": PASS}

    def elaborate(self, platform: object) -> Module:
        m = Module()
        n = self.shares
        m.submodules.sbox = sbox = self.sbox
        feed_random(m, self.random, [sbox])
        data = [ring("state", k) for k in range(n)]
        key = [ring("key", k) for k in range(n)]
        t = self.step[:5]
        rows = [_RowControl(r) for r in range(4)]
        mix, t_feed, last_pass = Signal(), Signal(), Signal()
        self._decode(m, t, rows, mix, t_feed, last_pass)
        loading = self.load | self.running(LOAD_SEGMENT)
        m.d.comb += self.out_valid.eq(self.running(UNLOAD_SEGMENT))

        # The S-box input: state ^ key of the row being read, or a byte of w3 for T.
        read_row = Signal(2)
        m.d.comb += read_row.eq(~t[2:4])                       # t // 4 = 0, 1, 2, 3 -> rows 3..0
        t_row = Signal(2)
        m.d.comb += t_row.eq(-(t - T_FEED)[:2])                # rows 0, 3, 2, 1
        outs = [sbox.o[8 * k:8 * k + 8] for k in range(n)]
        ins = []
        for k in range(n):
            heads = row_mux(read_row, [data[k][r][0] ^ key[k][r][0] for r in range(4)])
            source = row_mux(t_row, [key[k][r][T_TAP] for r in range(4)])
            ins.append(Mux(t_feed, source, heads))
        m.d.comb += sbox.i.eq(Cat(*ins))

        # Rcon of K_(p+1) on T's byte 0 (share 0), which arrives when row 0's chain starts.
        step = Signal(4, name="key_step")
        m.d.comb += step.eq(Mux(last_pass, 10, self.round[:4] + 1))
        rcon = rcon_of(m, step)
        for k in range(n):
            mixed = mix_column([data[k][r][MIX_TAP[r]] for r in range(4)], MC)
            block, key_in = self._chunk_rows(self.block_in[k]), self._chunk_rows(self.key[k])
            for r, ctl in enumerate(rows):
                t_byte = outs[k] ^ (rcon if k == 0 and r == 0 else 0)
                new_key = key[k][r][0] ^ Mux(ctl.chain_first, t_byte, key[k][r][3])
                # Where a computed byte replaces the neighbour a position takes.
                state_in = {WRITE_AT[r]: [(ctl.write, outs[k]), (mix, mixed[r])]}
                state_in.setdefault(3, []).append((loading, block[r]))
                for q in range(4):
                    moved = data[k][r][(q + 1) % 4]
                    for condition, value in state_in.get(q, []):
                        moved = Mux(condition, value, moved)
                    m.d.sync += data[k][r][q].eq(moved)
                    key_moved = key[k][r][(q + 1) % 4]
                    if q == 3:
                        key_moved = Mux(loading, key_in[r],
                                        Mux(ctl.chain, new_key, key[k][r][0]))
                    m.d.sync += key[k][r][q].eq(key_moved)
            # The final AddRoundKey: state head ^ K_10 head (the same column), share by share.
            m.d.comb += self.block_out[k].eq(Cat(*reversed([data[k][r][0] ^ key[k][r][0]
                                                            for r in range(4)])))
        return m

    @staticmethod
    def _chunk_rows(chunk: Value) -> list[Value]:
        """Rows 0..3 of a chunk (row 0 the most significant byte)."""
        return [chunk[8 * (3 - r):8 * (4 - r)] for r in range(4)]

    def _decode(self, m: Module, t: Value, rows: list[_RowControl], mix: Signal,
                t_feed: Signal, last_pass: Signal) -> None:
        """The windows of the pass (module docstring) for this clock."""
        rounds, final = self.running(ROUNDS_SEGMENT), self.running(FINAL_SEGMENT)
        active = rounds | final
        m.d.comb += [last_pass.eq(final), mix.eq(rounds & in_window(t, MIX, MIX + 3)),
                     t_feed.eq(active & in_window(t, T_FEED, T_FEED + 3))]
        # A pass whose previous one started key chains that run into it.
        carry = final | rounds & (self.round != 0)
        for r, ctl in enumerate(rows):
            slot = 3 - r
            start = KEY_FIRST - r
            within = in_window(t, start, min(start + 3, PASS - 1))
            whole = in_window(t, start, start + 3)
            overflow = start + 3 - PASS   # the chain's last clock in the next pass, if any
            m.d.comb += [
                ctl.write.eq(active & in_window(t, 4 * slot + LATENCY, 4 * slot + LATENCY + 3)),
                ctl.chain_first.eq(active & (t == start)),
                ctl.chain.eq(rounds & within | final & whole
                             | (carry & in_window(t, 0, overflow) if overflow >= 0 else 0)),
            ]
