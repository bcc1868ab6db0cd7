"""The masked column-parallel AES-128 cores (``aes-128/masked:width=64`` and ``width=128``):
n = width / 32 columns per clock through 4n masked S-boxes (components/masked/tower.py, 7
clocks, a new input every clock), four of which compute the key schedule's SubWord in a clock the
data leaves them idle; encryption.

Every register holds one share of one column (``state<q>_s<k>``, ``key<q>_s<k>``: position q of
a ring of four columns); every linear step works share by share, Rcon on share 0.

**Rings of columns.** While a block runs, the state and the key turn by n columns in every clock
(position q takes q + n, positions 0 .. n-1 take a computed column where one is written): at
clock T after the load, position q holds column q + nT mod 4. So the S-boxes read fixed taps, and
the result of a group of four S-boxes is written at a fixed position:

- group g's S-box of row r reads row r of position g + r: the diagonal d = nf + g of the state in
  the f-th feed clock of a round (ShiftRows is in the taps);
- seven clocks later its output, through MixColumns (not in the last round) and XOR the round
  key (the key ring's position g + n holds that column then), is new column d and is written at
  position g. So the state register holds the state after AddRoundKey, the S-boxes read it as it
  is, and the first round's whitening is a pass of 4/n clocks writing (state XOR key) at the same
  positions, the S-boxes bypassed.
- The next round's first feed comes in the clock its last columns are written: the taps at
  positions 4 - n .. 3 then read the columns being written (a bypass), so a round is the S-box's
  7 clocks and the 4/n - 1 clocks of the other feeds: P = 6 + 4/n (8 at 64 bits, 7 at 128).
  The bypass is glitch-safe: the S-box's first stage is a share-wise linear map into a register.
- The key schedule: the key ring computes K_p in 4/n clocks, n words per clock at positions
  0 .. n-1 from the words at n .. 2n-1 (w_j' = w_j ^ w_(j-1)', w_(-1)' = T), starting when T
  arrives from group 0's S-boxes; in its last clock w3' (just computed) goes into group 0's S-boxes
  for the next key's T (RotWord: row r takes byte r + 1). K_1's T is fed in the first whitening
  clock from the loaded key's w3. Every T arrives 7 - 4/n clocks into its round, so K_p is complete
  before round p's first column is written and after round p - 1's last.

A block takes the load clock, 4/n whitening clocks, 10 rounds of P clocks and the last column
write: 84 clocks at 64 bits (SMAesH: 86), 73 at 128.
"""

from __future__ import annotations

from amaranth.hdl import Cat, Module, Mux, Signal, Value

from ....arch.masked import (MaskedDatapath, feed_random, gadget_variant, one_hot_next,
                             random_bits_of)
from ....arch.narrow import Program, Segment
from ....components.bytes import get_words
from ....components.masked.tower import LATENCY, MaskedAesSbox
from ...aes.narrow.common import MC, mix_column, rcon_of

WHITEN, ROUNDS, FINAL = "whiten", "rounds", "final"
WIDTHS = (64, 128)


def bytes_of(word: Value) -> list[Value]:
    """Rows 0..3 of a column (byte 0, row 0, most significant)."""
    return [word[24 - 8 * r:32 - 8 * r] for r in range(4)]


def word_of(rows: list[Value]) -> Value:
    return Cat(*reversed(rows))


class AesMaskedColumns(MaskedDatapath):
    """The masked column-parallel AES-128 encryption core (module docstring)."""

    def __init__(self, width: int, shares: int, flaw: str) -> None:
        self.n = width // 32
        self.feeds = 4 // self.n
        self.period = LATENCY - 1 + self.feeds
        variant = gadget_variant(flaw)
        self.sboxes = [[MaskedAesSbox("encrypt", shares, **variant) for _ in range(4)]
                       for _ in range(self.n)]
        super().__init__(shares=shares, block_bits=128, key_bits=128, width=width,
                         random_bits=random_bits_of([s for g in self.sboxes for s in g]))

    def programs(self) -> dict[bool, Program]:
        return {False: Program(main=(Segment(WHITEN, {128: 1}, self.feeds),
                                     Segment(ROUNDS, {128: 10}, self.period),
                                     Segment(FINAL, {128: 1}, 1)))}

    def run_clocks(self) -> int:
        return self.feeds + 10 * self.period + 1

    def sbox_evaluations(self) -> int:
        return 10 * (16 + 4)

    def bits_per_evaluation(self) -> int:
        return self.sboxes[0][0].random_bits

    def describe(self) -> dict[str, object]:
        return {"sbox": "masked tower field (DOM-indep)" if self.shares > 1 else "tower field",
                "sbox_latency": LATENCY, "data_sboxes": 4 * self.n, "key_schedule_sboxes": 0,
                "key_schedule": "shares four data S-boxes", "round_clocks": self.period}

    def elaborate(self, platform: object) -> Module:
        m = Module()
        n, shares, feeds = self.n, self.shares, self.feeds
        boxes = [s for g in self.sboxes for s in g]
        for j, box in enumerate(boxes):
            m.submodules[f"sbox{j}"] = box
        feed_random(m, self.random, boxes)
        state = [[Signal(32, name=f"state{q}_s{k}", reset_less=True) for q in range(4)]
                 for k in range(shares)]
        key = [[Signal(32, name=f"key{q}_s{k}", reset_less=True) for q in range(4)]
               for k in range(shares)]
        ctl = self._decode(m)

        # Group g's output this clock, as columns per share.
        outputs = [[word_of([self.sboxes[g][r].o[8 * k:8 * k + 8] for r in range(4)])
                    for g in range(n)] for k in range(shares)]
        # The key schedule: n new words per chain clock at positions 0..n-1.
        rcon = rcon_of(m, (self.round[:4] + 1)[:4])
        t_word = [word_of([self.sboxes[0][r].o[8 * k:8 * k + 8] ^ (rcon if k == 0 and r == 0
                                                                     else 0)
                           for r in range(4)]) for k in range(shares)]
        new_key = []
        for k in range(shares):
            words: list[Value] = []
            previous = Mux(ctl["chain_first"], t_word[k], key[k][n - 1])
            for j in range(n):
                words.append(key[k][(j + n) % 4] ^ previous)
                previous = words[-1]
            new_key.append(words)
        # What group g writes at position g: (MixColumns of) its column, XOR the round key.
        written = []
        for k in range(shares):
            row = []
            for g in range(n):
                v = Mux(ctl["whiten"], state[k][(g + n) % 4], outputs[k][g])
                mixed = word_of(mix_column(bytes_of(v), MC))
                row.append(Mux(ctl["mix"], mixed, v) ^ key[k][(g + n) % 4])
            written.append(row)

        # S-box inputs: taps g + r (bypassed from the columns being written at positions
        # 4 - n .. 3 in a round's first feed), or group 0 takes RotWord(w3) for T.
        loaded_w3 = [key[k][3] for k in range(shares)]
        chained_w3 = [new_key[k][n - 1] for k in range(shares)]
        for g in range(n):
            for r in range(4):
                q = (g + r) % 4
                per_share = []
                for k in range(shares):
                    tap = state[k][q]
                    if q >= 4 - n:
                        tap = Mux(ctl["bypass"], written[k][q - (4 - n)], tap)
                    value = bytes_of(tap)[r]
                    if g == 0:
                        w3 = Mux(ctl["t_from_chain"], chained_w3[k], loaded_w3[k])
                        value = Mux(ctl["t_feed"], bytes_of(w3)[(r + 1) % 4], value)
                    per_share.append(value)
                m.d.comb += self.sboxes[g][r].i.eq(Cat(*per_share))

        running = self.active
        for k in range(shares):
            block, key_in = get_words(self.block_in[k]), get_words(self.key[k])
            for q in range(4):
                moved = state[k][(q + n) % 4]
                if q < n:
                    moved = Mux(ctl["write"], written[k][q], moved)
                m.d.sync += state[k][q].eq(one_hot_next(
                    state[k][q], [(self.load, block[q]), (~self.load & running, moved)]))
                key_moved = key[k][(q + n) % 4]
                if q < n:
                    key_moved = Mux(ctl["chain"], new_key[k][q], key_moved)
                m.d.sync += key[k][q].eq(Mux(self.load, key_in[q], key_moved))
            # When done, position q holds column q + n x (run clocks).
            shift = n * self.run_clocks() % 4
            m.d.comb += self.block_out[k].eq(Cat(*reversed([state[k][(c - shift) % 4]
                                                             for c in range(4)])))
        return m

    def _decode(self, m: Module) -> dict[str, Signal]:
        """The controls of this clock (module docstring), from (segment, round, step)."""
        s = self.step[:4]
        whiten, rounds, final = (self.running(WHITEN), self.running(ROUNDS),
                                 self.running(FINAL))
        later = self.round != 0         # rounds 2..10 (round index 1..9)
        last = self.round == 9
        chain_start = LATENCY - self.feeds
        ctl = {name: Signal(name=name) for name in (
            "whiten", "mix", "write", "bypass", "t_feed", "t_from_chain", "chain",
            "chain_first")}
        # Outputs: this round's feeds 0 .. feeds-2 at s = 7 .. P-1; the previous round's last
        # feed at s = 0 (rounds 2..10, and the final step for round 10).
        this_round = rounds & (s >= LATENCY)
        previous = rounds & later & (s == 0) | final
        m.d.comb += [
            ctl["whiten"].eq(whiten),
            ctl["write"].eq(whiten | this_round | previous),
            ctl["mix"].eq(this_round & ~last | rounds & later & (s == 0)),
            ctl["bypass"].eq(rounds & later & (s == 0)),
            ctl["t_feed"].eq(whiten & (s == 0) | rounds & (s == LATENCY - 1)),
            ctl["t_from_chain"].eq(rounds),
            ctl["chain"].eq(rounds & (s >= chain_start) & (s <= LATENCY - 1)),
            ctl["chain_first"].eq(rounds & (s == chain_start)),
        ]
        return ctl
