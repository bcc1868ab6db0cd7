"""Camellia hardware description (RFC 3713): one F round (or one FL/FL^-1 layer) per clock.

Structure (Sugawara et al., "ASIC Performance Comparison for the ISO Standard Block Ciphers",
section 2.1, Camellia, Fig. 3): a 64-bit round function F (eight S-boxes and the P function) and
the 64-bit FL and FL^-1 functions; the FL layers and the whitening take clocks of their own, and
the round keys come on the fly from rotating registers holding KL and KA (KR and KB for 192- and
256-bit keys). The seed also runs the key initialisation (KA, KB) on an F function; the iterative
generator lets a block start on the clock after its key, so there is no separate key-setup phase
in which to do that once per key (see "KA per block" below).

S-boxes (``sbox=``): ``table`` (a 256-entry lookup; s2, s3, s4 are s1 with rotated input or
output, so every lane is an s1 table and wiring) or ``composite``: s1 is affine-equivalent to
inversion in GF(2^8) (RFC 3713 section 2.4.1 builds it as h(g(f(0xc5 ^ x))) ^ 0x6e with g an
inversion), so each lane is an input matrix, the AES tower-field inverter of
components/aes_sbox_composite (Canright's normal bases) and an output matrix, as the seed's
composite Camellia S-box (its Fig. 4, after Satoh et al.). The two matrices are found at
generation time from SBOX1 and the AES field inverse (see ``s1_affine_decomposition``) and checked
on all 256 inputs.

Clock sequence of one block (key size 128; 192/256 in brackets):

    encryption: 1 whitening with kw1,kw2 (while the key step starts KA)
                2..4 [2..6] hold (the key step finishes KA [and KB] with its own F function)
                5 [7] hold: the first F round's key is XORed into the register (see Timing)
                then 18 [24] F rounds with an FL/FL^-1 layer clock after rounds 6, 12 [, 18];
                the last F round also swaps back and whitens with kw3,kw4
    decryption: 1 whitening with kw3,kw4, the same 20 [27] F and FL clocks with the keys in
                reverse order, ending with kw1,kw2; then 4 [6] hold clocks
    R = 25 [34] clocks

KA per block: KA = four Feistel rounds of F over KL ^ KR keyed with Sigma1..4 (KB: two more over
KA ^ KR). The key step has its own F function for this (eight more S-boxes; the datapath's F is in
another block and busy with the data) and computes KA at the start of every encryption, in the
clocks where the block waits. Decryption starts from the state the forward run-up stored once per
key, which already holds KA. A key-setup phase in the iterative generator (a few clocks after the
key, before the first block of either direction) would move these clocks out of every block:
21 [28] clocks per block (the whitening clock would also XOR in k1).

Timing: the register holds A ^ k (the half that enters F, already XORed with the key of the F
round it goes into). F starts from a register, and the next round's key is XORed into the other
half beside F. Otherwise every round key would come through the key schedule's start-state
multiplexers, whose selects come from the handshake, in front of F. The key step hands over the
round key of the state it makes (``rk_out``) straight from its input registers, the step's turn
folded into the slice choice, so one multiplexer lies between the key registers and the datapath.

Key state: the registers KL, KA (KR, KB), each holding its variable rotated left by some p, and
control bits: the mode of the clock (F, final F, FL layer, hold), which 64-bit slice of which
register is this clock's F key (one-hot, nothing for clocks without F), which slice is the next
clock's F key, and which register is the 128-bit whitening/FL key. So the round key bus is a
function of the key state alone. Each step turns each register by 0, 15 or 17 bits either way;
the rotations, and what the control bits select, are planned at generation time from the RFC's
subkey table (see ``plan``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.base import (
    CipherHardware,
    CoreOptions,
    KeyStep,
    RoundDatapath,
    select_by_key_len,
)
from ...components.aes_sbox import table_lookup
from ...components.aes_sbox_composite import (
    BASIS,
    _Netlist,
    apply_rows,
    build_inverter,
    gf256_inv,
    matrix_of,
)
from ...components.bytes import from_bytes, get_bytes
from ...components.gf256 import gf_inverse_table
from ...errors import CipherbenchError
from . import model
from .model import P_FUNCTION, SBOX1, SIGMA

SBOX_KINDS = ("table", "composite")
HALF = 64
# Modes of a clock (the datapath's view; the 'first' clock is the architecture's).
HOLD, ROUND, FINAL, FL = 0, 1, 2, 3
# Rotations (left, bits) a register may take in one step.
DELTAS = (0, 15, 17, -15, -17)
# F functions the key step runs to make KA (and KB): the variable each writes.
KA_STEPS = {128: ("KA",) * 4, 256: ("KA",) * 4 + ("KB",) * 2}


def schedule_of(key_bits: int) -> int:
    """192-bit keys use the 256-bit schedule (RFC 3713 section 2.2)."""
    return 128 if key_bits == 128 else 256


def registers_for(key_sizes: tuple[int, ...]) -> tuple[str, ...]:
    return ("KL", "KA") if set(key_sizes) == {128} else ("KL", "KR", "KA", "KB")


# --- the S-box ---------------------------------------------------------------------------------


def _rotl8(x: int, n: int) -> int:
    return ((x << n) | (x >> (8 - n))) & 0xFF


@cache
def s1_affine_decomposition() -> tuple[int, tuple[int, ...], tuple[int, ...], int]:
    """(c, M1, M2, d) with s1(x) = M2(inv(M1(x ^ c))) ^ d for all x, inv the AES-field inverse and
    M1, M2 linear (as 256-entry tables). Camellia's field differs from AES's only by an
    isomorphism, which is linear, so such maps exist.

    A linear-equivalence search: for the candidate c, T(y) = s1(y ^ c) ^ s1(c) must equal
    M2 inv M1. Fix M1(1) = 1 (inv(a x) = a^-1 inv(x) lets any nonzero image be scaled to 1), guess
    M1(2), then alternate: M1 known on a subspace V gives M2 on inv(M1 V), M2 known on a subspace W
    gives M1 on T^-1(M2 W), until both are complete or contradict. The RFC's c = 0xc5 is tried
    first; it is the one that works, in a few milliseconds."""
    inv = gf_inverse_table()
    for c in [0xC5] + [x for x in range(256) if x != 0xC5]:
        d = SBOX1[c]
        t = [SBOX1[y ^ c] ^ d for y in range(256)]
        t_inv = [0] * 256
        for y, v in enumerate(t):
            t_inv[v] = y
        for guess in range(2, 256):
            maps = _propagate(t, t_inv, inv, guess)
            if maps is not None:
                m1, m2 = maps
                assert all(m2[inv[m1[x ^ c]]] ^ d == SBOX1[x] for x in range(256))
                return c, m1, m2, d
    raise AssertionError("s1 is not affine-equivalent to the AES inverse")


class _PartialLinear:
    """A GF(2)-linear map on bytes known on a subspace: reduced pivots (input, image)."""

    def __init__(self) -> None:
        self.rows: dict[int, tuple[int, int]] = {}

    def add(self, x: int, v: int) -> bool | None:
        """Record x -> v: True if new, None if implied, False if it contradicts."""
        for pivot, (bx, bv) in self.rows.items():
            if x & pivot:
                x, v = x ^ bx, v ^ bv
        if x == 0:
            return None if v == 0 else False
        pivot = x & -x
        for p, (bx, bv) in list(self.rows.items()):
            if bx & pivot:
                self.rows[p] = (bx ^ x, bv ^ v)
        self.rows[pivot] = (x, v)
        return True

    def known(self) -> dict[int, int]:
        out = {0: 0}
        for bx, bv in self.rows.values():
            for x, v in list(out.items()):
                out[x ^ bx] = v ^ bv
        return out


def _propagate(t: list[int], t_inv: list[int], inv: tuple[int, ...],
               guess: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    m1, m2 = _PartialLinear(), _PartialLinear()
    m1.add(1, 1)
    if m1.add(2, guess) is False:
        return None
    changed = True
    while changed:
        changed = False
        for y, a in m1.known().items():
            result = m2.add(inv[a], t[y]) if y else None
            if result is False:
                return None
            changed |= bool(result)
        for w, b in m2.known().items():
            result = m1.add(t_inv[b], inv[w]) if w else None
            if result is False:
                return None
            changed |= bool(result)
    if len(m1.rows) < 8 or len(m2.rows) < 8:
        return None
    k1, k2 = m1.known(), m2.known()
    return tuple(k1[x] for x in range(256)), tuple(k2[x] for x in range(256))


@cache
def composite_matrices() -> tuple[list[int], list[int], int]:
    """(input rows over the byte and a constant 1, output rows, output constant) around the tower
    inverter of aes_sbox_composite: s1(x) = OUT(inv_tower(IN(x) ^ in_const)) ^ d."""
    c, m1, m2, d = s1_affine_decomposition()
    to_tower, to_aes = BASIS.to_tower, BASIS.to_aes
    in_rows = matrix_of(lambda x: apply_rows(m1[x], to_tower))
    in_const = apply_rows(m1[c], to_tower)
    out_rows = matrix_of(lambda t: m2[apply_rows(t, to_aes)])
    assert all(m2[apply_rows(gf256_inv(apply_rows(x, in_rows) ^ in_const, BASIS.n, BASIS.nu),
                             to_aes)] ^ d == SBOX1[x] for x in range(256))
    constant_one = 1 << 8
    rows = [row | (constant_one if (in_const >> k) & 1 else 0) for k, row in enumerate(in_rows)]
    return rows, out_rows, d


class CamelliaS1(Elaboratable):
    """s1 (RFC 3713 section 2.4.1): ``table`` or ``composite`` (module docstring); ``i``, ``o``."""

    def __init__(self, kind: str) -> None:
        if kind not in SBOX_KINDS:
            raise ValueError(f"unknown S-box kind {kind!r}; valid: {', '.join(SBOX_KINDS)}")
        self.kind = kind
        self.i = Signal(8)
        self.o = Signal(8)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        if self.kind == "table":
            table_lookup(m, self.i, SBOX1, self.o)
            return m
        in_rows, out_rows, d = composite_matrices()
        net = _Netlist(m)
        byte = [self.i[k] for k in range(8)] + [Const(1, 1)]
        t = net.linear("in", byte, in_rows)
        inverse = build_inverter(net, t, BASIS.n, BASIS.nu)
        m.d.comb += self.o.eq(Cat(*net.linear("out", inverse, out_rows)) ^ d)
        return m


# --- F, P, FL -----------------------------------------------------------------------------------


@cache
def p_function_plan(tries: int = 64) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """A shared XOR network for P over the eight bytes, at most three XORs deep (the depth of a
    plain tree of six inputs): gates (a, b) adding signal 8 + k, and the signal of each y_j.

    Paar's greedy (the pair of signals shared by most outputs gets a gate), restricted to pairs
    after which every output can still be finished within depth 3; seeded random tie-breaks, the
    smallest kept (20 byte XORs, against 28 for plain trees)."""
    rows = [frozenset(s - 1 for s in sources) for sources in P_FUNCTION]
    rng = random.Random(0xCA3E)
    best: tuple[tuple[tuple[int, int], ...], tuple[int, ...]] | None = None
    for _ in range(tries):
        gates, outputs = _shallow_paar(rows, 8, 3, rng)
        if best is None or len(gates) < len(best[0]):
            best = (gates, outputs)
    assert best is not None
    return best


def _shallow_paar(rows: list[frozenset[int]], width: int, max_depth: int,
                  rng: random.Random) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    depth = [0] * width
    terms = [set(r) for r in rows]
    gates: list[tuple[int, int]] = []

    def fits(term: set[int]) -> bool:
        return sum(1 << depth[x] for x in term) <= 1 << max_depth

    while any(len(term) > 1 for term in terms):
        counts: dict[tuple[int, int], int] = {}
        for term in terms:
            ordered = sorted(term)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1:]:
                    counts[(a, b)] = counts.get((a, b), 0) + 1
        feasible = []
        for (a, b), count in counts.items():
            d = max(depth[a], depth[b]) + 1
            if d > max_depth:
                continue
            depth.append(d)
            ok = all(fits((term - {a, b}) | {len(depth) - 1})
                     for term in terms if a in term and b in term)
            depth.pop()
            if ok:
                feasible.append((count, (a, b)))
        top = max(count for count, _ in feasible)
        a, b = rng.choice(sorted(pair for count, pair in feasible if count == top))
        depth.append(max(depth[a], depth[b]) + 1)
        gates.append((a, b))
        for term in terms:
            if a in term and b in term:
                term -= {a, b}
                term.add(len(depth) - 1)
    return tuple(gates), tuple(next(iter(term)) for term in terms)


def f_function(m: Module, x: Value, kind: str, prefix: str) -> Value:
    """F without its key XOR (the caller XORs the key): S-box layer s1 s2 s3 s4 s2 s3 s4 s1, P."""
    lanes = []
    for index, byte in enumerate(get_bytes(x)):
        box = CamelliaS1(kind)
        m.submodules[f"{prefix}s{index}"] = box
        which = (1, 2, 3, 4, 2, 3, 4, 1)[index]
        # s2 = s1 rotated left by 1 at the output, s3 by 7; s4 = s1 with its input rotated by 1.
        m.d.comb += box.i.eq(byte.rotate_left(1) if which == 4 else byte)
        out = box.o
        lanes.append(out.rotate_left(1) if which == 2 else out.rotate_left(7) if which == 3 else out)
    gates, outputs = p_function_plan()
    signals: list[Value] = list(lanes)
    for k, (a, b) in enumerate(gates):
        wire = Signal(8, name=f"{prefix}p{k}")
        m.d.comb += wire.eq(signals[a] ^ signals[b])
        signals.append(wire)
    return from_bytes([signals[o] for o in outputs])


def fl(x: Value, k: Value) -> Value:
    """FL of RFC 3713 section 2.4.2 (64 bits)."""
    x1, x2 = x[32:], x[:32]
    k1, k2 = k[32:], k[:32]
    y2 = x2 ^ (x1 & k1).rotate_left(1)
    return Cat(y2, x1 ^ (y2 | k2))


def fl_inv(y: Value, k: Value) -> Value:
    """FL^-1 of RFC 3713 section 2.4.2."""
    y1, y2 = y[32:], y[:32]
    k1, k2 = k[32:], k[:32]
    x1 = y1 ^ (y2 | k2)
    return Cat(y2 ^ (x1 & k1).rotate_left(1), x1)


# --- the plan: what every key state holds and selects ------------------------------------------


@dataclass(frozen=True)
class Slice:
    """The 64-bit slice (content rotated left by ``offset``).top of register ``reg``."""

    reg: str
    offset: int


@dataclass(frozen=True)
class Need:
    """What the round key bus of one key state must give: the clock's mode, F key and 128-bit key
    (each a variable rotated by an amount, half 0 = left / 1 = right for F keys), and the next
    clock's F key."""

    mode: int = HOLD
    key: tuple[str, int, int] | None = None
    wide: tuple[str, int] | None = None
    next_key: tuple[str, int, int] | None = None


@dataclass(frozen=True)
class StatePlan:
    """A planned key state: register positions (rotation of each variable) and its selects."""

    positions: dict[str, int]
    mode: int
    key: Slice | None
    wide: str | None
    next_key: Slice | None


@dataclass(frozen=True)
class Schedule:
    """One key size's plan: forward states s_0..s_R and backward states s'_R..s'_0 (index t)."""

    rounds: int
    ka_steps: tuple[str, ...]
    forward: tuple[StatePlan, ...]
    backward: tuple[StatePlan, ...]


def _subkey_table(schedule: int) -> dict[str, tuple[str, int, int]]:
    """Subkey name -> (variable, rotation, half) from the model's transcription of RFC 3713."""
    pairs = model._PAIRS_128 if schedule == 128 else model._PAIRS_256
    table = {}
    for left, right, source, rotation in pairs:
        if left:
            table[left] = (source, rotation, 0)
        if right:
            table[right] = (source, rotation, 1)
    return table


def _operations(schedule: int) -> list[Need]:
    """The F and FL clocks of encryption, in order (without next keys)."""
    keys = _subkey_table(schedule)
    n_rounds = 18 if schedule == 128 else 24
    ops = []
    for r in range(1, n_rounds + 1):
        ops.append(Need(ROUND, keys[f"k{r}"]))
        if r % 6 == 0 and r != n_rounds:
            layer = r // 6
            source, rotation, _ = keys[f"ke{2 * layer - 1}"]
            ops.append(Need(FL, None, (source, rotation)))
    kw3 = keys["kw3"]
    ops[-1] = Need(FINAL, ops[-1].key, (kw3[0], kw3[1]))
    return ops


def _swapped(wide: tuple[str, int] | None) -> tuple[str, int] | None:
    """The 128-bit key with its halves exchanged: a rotation by 64 more. Decryption's FL layer
    takes ke_{2l} for FL and ke_{2l-1} for FL^-1 (RFC 3713 section 2.3.3); giving it the key
    turned by 64 keeps the direction out of the datapath."""
    return None if wide is None else (wide[0], wide[1] + 64)


def _needs(schedule: int) -> tuple[list[Need], list[Need]]:
    """Needs of the forward states s_0..s_R and of the backward states s'_0..s'_R (list index t)."""
    ops = _operations(schedule)
    n_ka = len(KA_STEPS[schedule])
    rounds = n_ka + 1 + len(ops)
    kw1 = _subkey_table(schedule)["kw1"]
    # Encryption clock c uses s_c: clock 1 whitens (from s_0), clocks 2..n_ka hold while the key
    # step makes KA (KB), clock n_ka + 1 holds too: it XORs in k1, which must come from a
    # register, not from the F function that has just made it.
    enc: list[Need] = [Need(HOLD, None, (kw1[0], kw1[1]))] + [Need()] * (n_ka + 1) + ops
    # Decryption reverses the F/FL clocks: the last becomes a plain F round, the first the final
    # one (with kw1, kw2); FL clocks take their 128-bit key with the halves exchanged.
    rev = [Need(ROUND if op.mode == FINAL else op.mode, op.key, _swapped(op.wide) if op.mode == FL
                else op.wide) for op in reversed(ops)]
    rev[-1] = Need(FINAL, rev[-1].key, (kw1[0], kw1[1]))
    # Decryption clock c uses s'_{R-c}; clock 1 whitens with the key of s'_R = s_R.
    dec_by_clock = [Need()] + rev + [Need()] * (rounds - 1 - len(rev))
    dec = [Need()] * (rounds + 1)
    for c, need in enumerate(dec_by_clock, start=1):
        dec[rounds - c] = need
    dec[rounds] = enc[rounds]

    def with_next(needs: list[Need], following: list[Need | None]) -> list[Need]:
        return [Need(n.mode, n.key, n.wide, f.key if f is not None else None)
                for n, f in zip(needs, following)]

    enc = with_next(enc, enc[1:] + [None])
    dec = with_next(dec, [None] + dec[:-1])
    dec[rounds] = enc[rounds]
    return enc, dec


def _walk(start: dict[str, int], needs: list[Need], registers: tuple[str, ...],
          fixed: int) -> list[dict[str, int]]:
    """Positions of every register along a walk (needs in walk order, the first state at
    ``start``), turning by DELTAS per step; the first ``fixed`` states keep every register still.
    Each register is planned alone: the positions reachable at each state (holding preferred
    when several turns reach one), with back-pointers, then one path back from the end."""
    paths: dict[str, list[int]] = {}
    for reg in registers:
        allowed = []
        for need in needs:
            choice = set(range(128))
            if need.key is not None and need.key[0] == reg:
                choice &= {need.key[1] % 128, (need.key[1] + 64) % 128}
            if need.wide is not None and need.wide[0] == reg:
                choice &= {need.wide[1] % 128}
            allowed.append(choice)
        reach: list[dict[int, int]] = [{start[reg]: start[reg]}]
        for t in range(1, len(needs)):
            deltas = (0,) if t < fixed else DELTAS
            here: dict[int, int] = {}
            for delta in deltas:  # DELTAS starts with 0: holding wins ties
                for p in reach[-1]:
                    q = (p + delta) % 128
                    if q in allowed[t] and q not in here:
                        here[q] = p
            if not here:
                raise AssertionError(f"no rotation plan for {reg} at state {t}")
            reach.append(here)
        # Walk back from the end, preferring the position that held (late rotation).
        path = [next(iter(reach[-1]))]
        for t in range(len(needs) - 1, 0, -1):
            path.append(reach[t][path[-1]])
        paths[reg] = path[::-1]
    return [{reg: paths[reg][t] for reg in registers} for t in range(len(needs))]


def _slice_for(spec: tuple[str, int, int] | None, positions: dict[str, int]) -> Slice | None:
    if spec is None:
        return None
    reg, rotation, half = spec
    return Slice(reg, (rotation + 64 * half - positions[reg]) % 128)


def _state_plan(need: Need, positions: dict[str, int]) -> StatePlan:
    wide = need.wide[0] if need.wide is not None else None
    return StatePlan(positions, need.mode, _slice_for(need.key, positions), wide,
                     _slice_for(need.next_key, positions))


@cache
def plan(schedule: int, registers: tuple[str, ...]) -> Schedule:
    """Register positions and selects of every forward and backward key state of a schedule."""
    enc, dec = _needs(schedule)
    n_ka = len(KA_STEPS[schedule])
    rounds = len(enc) - 1
    zero = {reg: 0 for reg in registers}
    # Forward: every register still while the key step makes KA (and KB), through s_{n_ka}.
    fwd = _walk(zero, enc, registers, n_ka + 1)
    bwd = _walk(fwd[rounds], dec[::-1], registers, 1)[::-1]
    return Schedule(
        rounds, KA_STEPS[schedule],
        tuple(_state_plan(need, pos) for need, pos in zip(enc, fwd)),
        tuple(_state_plan(need, pos) for need, pos in zip(dec, bwd)),
    )


# --- round key bus and key state layout ---------------------------------------------------------


@dataclass(frozen=True)
class StepEntry:
    """One step of one schedule and direction: its decode case, every register's turn (or None:
    the F function writes it), the F function's work, the control bits of the state it makes,
    and that state's round key as slices of the step's input registers."""

    schedule: int
    backward: bool
    step: int
    turns: dict[str, int | None]
    making: str | None
    first_of_making: bool
    dst: StatePlan
    key: Slice | None
    next_key: Slice | None
    wide: Slice | None


def _moved(sl: Slice | None, turns: dict[str, int | None]) -> Slice | None:
    """A slice of a step's output state as a slice of its input state."""
    if sl is None:
        return None
    turn = turns[sl.reg]
    assert turn is not None, "a round key from a register still being made"
    return Slice(sl.reg, (sl.offset + turn) % 128)


def _step_entries(schedule: int, sch: Schedule, registers: tuple[str, ...]) -> list[StepEntry]:
    entries = []
    for backward in (False, True):
        states = sch.backward if backward else sch.forward
        for step in range(sch.rounds):
            src, dst = (states[step + 1], states[step]) if backward else (states[step],
                                                                         states[step + 1])
            making = None if backward or step >= len(sch.ka_steps) else sch.ka_steps[step]
            turns: dict[str, int | None] = {
                reg: None if reg == making else (dst.positions[reg] - src.positions[reg]) % 128
                for reg in registers}

            wide = None
            if dst.wide is not None:
                turn = turns[dst.wide]
                assert turn is not None, "a 128-bit key from a register still being made"
                wide = Slice(dst.wide, turn)
            first = making is not None and sch.ka_steps.index(making) == step
            entries.append(StepEntry(schedule, backward, step, turns, making, first, dst,
                                     _moved(dst.key, turns), _moved(dst.next_key, turns), wide))
    return entries


class Layout:
    """Bit fields of the key state and the round key bus for a set of key sizes.

    Key state: the registers (128 bits each), then control bits: mode (2), F-key slice one-hot,
    next-F-key slice one-hot, 128-bit key register one-hot. Round key bus: next F key (64), F key
    (64), 128-bit key, mode (2), most significant first."""

    def __init__(self, key_sizes: tuple[int, ...]) -> None:
        self.registers = registers_for(key_sizes)
        self.schedules = {s: plan(s, self.registers)
                          for s in sorted({schedule_of(k) for k in key_sizes})}
        states = [st for sch in self.schedules.values() for st in sch.forward + sch.backward]
        self.key_slices = sorted({st.key for st in states if st.key is not None}, key=_slice_key)
        self.next_slices = sorted({st.next_key for st in states if st.next_key is not None},
                                  key=_slice_key)
        self.wides = sorted({st.wide for st in states if st.wide is not None},
                            key=self.registers.index)
        self.ctl_bits = 2 + len(self.key_slices) + len(self.next_slices) + len(self.wides)
        self.state_bits = 128 * len(self.registers) + self.ctl_bits
        self.rk_bits = 2 * HALF + 128 + 2
        self.steps = [entry for schedule, sch in self.schedules.items()
                      for entry in _step_entries(schedule, sch, self.registers)]
        # The round key of a step's output state, read from the step's input registers: slices
        # and rotations with the step's turn folded in (one multiplexer after the registers).
        self.step_keys = sorted({e.key for e in self.steps if e.key is not None}, key=_slice_key)
        self.step_nexts = sorted({e.next_key for e in self.steps if e.next_key is not None},
                                 key=_slice_key)
        self.step_wides = sorted({e.wide for e in self.steps if e.wide is not None},
                                 key=_slice_key)

    def ctl_value(self, st: StatePlan) -> int:
        """Control bits of a planned state (LSB first: mode, key, next key, wide)."""
        value = st.mode
        at = 2
        if st.key is not None:
            value |= 1 << (at + self.key_slices.index(st.key))
        at += len(self.key_slices)
        if st.next_key is not None:
            value |= 1 << (at + self.next_slices.index(st.next_key))
        at += len(self.next_slices)
        if st.wide is not None:
            value |= 1 << (at + self.wides.index(st.wide))
        return value

    def register(self, state: Value, name: str) -> Value:
        index = self.registers.index(name)
        top = len(state) - 128 * index
        return state[top - 128:top]

    def round_key(self, state: Value) -> Value:
        ctl = state[:self.ctl_bits]
        mode = ctl[:2]
        at = 2
        key_sel = ctl[at:at + len(self.key_slices)]
        at += len(self.key_slices)
        next_sel = ctl[at:at + len(self.next_slices)]
        at += len(self.next_slices)
        wide_sel = ctl[at:at + len(self.wides)]
        key = _onehot(key_sel, [self.slice_of(state, s) for s in self.key_slices], HALF)
        next_key = _onehot(next_sel, [self.slice_of(state, s) for s in self.next_slices], HALF)
        wide = _onehot(wide_sel, [self.register(state, r) for r in self.wides], 128)
        return Cat(mode, wide, key, next_key)

    def slice_of(self, state: Value, s: Slice) -> Value:
        return self.register(state, s.reg).rotate_left(s.offset)[HALF:]


def _slice_key(s: Slice) -> tuple[str, int]:
    return s.reg, s.offset


def _onehot(select: Value, choices: list[Value], width: int) -> Value:
    """AND-OR multiplexer; nothing selected gives 0."""
    result: Value = Const(0, width)
    for k, choice in enumerate(choices):
        result = result | Mux(select[k], choice, 0)
    return result


class RoundKeyFields:
    def __init__(self, rk: Value) -> None:
        self.mode = rk[:2]
        self.wide = rk[2:130]
        self.key = rk[130:130 + HALF]
        self.next_key = rk[130 + HALF:]


# --- datapath -----------------------------------------------------------------------------------


class CamelliaDatapath(RoundDatapath):
    """One clock: whitening (``first``), F round, final F round, FL/FL^-1 layer or hold.

    The register holds (A ^ k, B): A the half that enters F, k this clock's F key (0 in clocks
    without F). Encryption and decryption are the same procedure (RFC 3713 section 2.3.3); only
    the FL layer's key halves swap (ke2l, ke2l-1 for decryption; the key schedule hands them over
    swapped) and the keys come in reverse. The datapath does not read ``decrypt``."""

    def __init__(self, sbox: str, rk_bits: int) -> None:
        super().__init__(block_bits=128, round_key_bits=rk_bits)
        self.sbox = sbox

    def elaborate(self, platform: object) -> Module:
        m = Module()
        rk = RoundKeyFields(self.rk)
        keyed, b = self.state_in[HALF:], self.state_in[:HALF]
        a = Signal(HALF)
        m.d.comb += a.eq(keyed ^ rk.key)
        f = Signal(HALF)
        m.d.comb += f.eq(f_function(m, keyed, self.sbox, "f_"))
        final = rk.mode == FINAL
        # The other half gets the next key (or kw4) beside F, then F's output: one XOR after F.
        t = Signal(HALF)
        m.d.comb += t.eq(Mux(final, b ^ rk.wide[:HALF], b ^ rk.next_key) ^ f)
        left = Signal(HALF)
        right = Signal(HALF)
        with m.Switch(rk.mode):
            with m.Case(ROUND):
                m.d.comb += [left.eq(t), right.eq(a)]
            with m.Case(FINAL):
                m.d.comb += [left.eq(a ^ rk.wide[HALF:]), right.eq(t)]
            with m.Case(FL):
                m.d.comb += [left.eq(fl(a, rk.wide[HALF:]) ^ rk.next_key),
                             right.eq(fl_inv(b, rk.wide[:HALF]))]
            with m.Default():
                m.d.comb += [left.eq(a ^ rk.next_key), right.eq(b)]
        white = RoundKeyFields(self.rk_white).wide
        entered = self.block_in ^ white ^ Cat(Const(0, HALF), rk.next_key)
        m.d.comb += self.state_out.eq(Mux(self.first, entered, Cat(right, left)))
        return m


# --- key schedule ------------------------------------------------------------------------------


class _Decoded:
    """The key step's decoded controls (see CamelliaKeyStep._decode)."""

    def __init__(self, lay: Layout) -> None:
        # Per register: one-hot over DELTAS, then the F function's output (KA, KB only).
        self.turn = {name: Signal(len(DELTAS) + 1, name=f"turn_{name}") for name in lay.registers}
        self.ctl = Signal(lay.ctl_bits)
        self.key = Signal(max(1, len(lay.step_keys)))
        self.next_key = Signal(max(1, len(lay.step_nexts)))
        self.wide = Signal(max(1, len(lay.step_wides)))
        self.sigma = Signal(64)
        self.source = Signal(3)  # one-hot: KL ^ KR, KA ^ KR, the register being made
        self.xor_kl = Signal()
        self.making_kb = Signal()


class CamelliaKeyStep(KeyStep):
    """Rotating registers KL, KA (KR, KB), the F function that makes KA (KB), the planned
    selects; see the module docstring."""

    def __init__(self, layout: Layout, key_sizes: tuple[int, ...], key_len_bits: int,
                 step_bits: int, sbox: str) -> None:
        self.layout = layout
        self.key_sizes = key_sizes
        self.sbox = sbox
        super().__init__(key_bits=max(key_sizes), key_len_bits=key_len_bits,
                         state_bits=layout.state_bits, round_key_bits=layout.rk_bits,
                         step_bits=step_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        lay = self.layout
        m.d.comb += self.loaded.eq(self._loaded())
        regs = {name: lay.register(self.state_in, name) for name in lay.registers}
        d = _Decoded(lay)
        self._decode(m, d)
        made = self._engine(m, regs, d)
        nexts = []
        for name in lay.registers:
            options = [regs[name].rotate_left(t % 128) for t in DELTAS]
            options.append(made if name in ("KA", "KB") else regs[name])
            nexts.append(_onehot(d.turn[name], options, 128))
        m.d.comb += self.state_out.eq(Cat(d.ctl, *reversed(nexts)))
        # rk_out is the round key of state_out (Layout.round_key), taken from the input registers
        # through one multiplexer instead of through the turn and then a slice choice.
        out_key = _onehot(d.key, [lay.slice_of(self.state_in, sl) for sl in lay.step_keys], HALF)
        out_next = _onehot(d.next_key,
                           [lay.slice_of(self.state_in, sl) for sl in lay.step_nexts], HALF)
        out_wide = _onehot(d.wide, [lay.register(self.state_in, sl.reg).rotate_left(sl.offset)
                                    for sl in lay.step_wides], 128)
        m.d.comb += [self.rk_in.eq(lay.round_key(self.state_in)),
                     self.rk_out.eq(Cat(d.ctl[:2], out_wide, out_key, out_next))]
        return m

    def _size_code(self) -> Value:
        """1 when the stored key uses the 256-bit schedule (the 192/256-bit keys of a 3-in-1)."""
        if len(self.layout.schedules) == 1:
            return Const(int(256 in self.layout.schedules), 1)
        return self.key_len != 16

    def _loaded(self) -> Value:
        """KL, KR from the left-aligned key port (RFC 3713 section 2.2); KA, KB start at 0 (the
        key step makes them), so their start-state registers hold constants."""
        lay = self.layout
        key = self.key
        fields = {"KL": key[-128:], "KA": Const(0, 128), "KB": Const(0, 128)}
        if "KR" in lay.registers:
            options: dict[int, Value] = {}
            for size in self.key_sizes:
                if size == 128:
                    options[size] = Const(0, 128)
                elif size == 192:
                    right = key[-192:-128]  # KR = K[128..191] || ~K[128..191]
                    options[size] = Cat(~right, right)
                else:
                    options[size] = key[-256:-128]
            fields["KR"] = select_by_key_len(self.key_len, options,
                                             {size: size // 8 for size in self.key_sizes})
        start = next(iter(lay.schedules.values())).forward[0]
        return Cat(Const(lay.ctl_value(start), lay.ctl_bits),
                   *reversed([fields[r] for r in lay.registers]))

    def _decode(self, m: Module, d: _Decoded) -> None:
        """Per (schedule, direction, step): every register's turn, the F function's work, the
        control bits of the state the step makes and the selects of its round key."""
        lay = self.layout
        step_bits = len(self.step)
        with m.Switch(Cat(self.step, self.backward, self._size_code())):
            for e in lay.steps:
                code = int(e.schedule == 256)
                with m.Case(e.step | int(e.backward) << step_bits | code << (step_bits + 1)):
                    m.d.comb += d.ctl.eq(lay.ctl_value(e.dst))
                    for name, turn in e.turns.items():
                        index = len(DELTAS) if turn is None else [t % 128 for t in
                                                                  DELTAS].index(turn)
                        m.d.comb += d.turn[name].eq(1 << index)
                    for field, options, value in ((d.key, lay.step_keys, e.key),
                                                  (d.next_key, lay.step_nexts, e.next_key),
                                                  (d.wide, lay.step_wides, e.wide)):
                        if value is not None:
                            m.d.comb += field.eq(1 << options.index(value))
                    if e.making is not None:
                        m.d.comb += [
                            d.sigma.eq(SIGMA[e.step]),
                            d.source.eq(1 << (0 if e.step == 0 else 1 if e.first_of_making
                                              else 2)),
                            d.xor_kl.eq(e.step == 1),
                            d.making_kb.eq(e.making == "KB"),
                        ]

    def _engine(self, m: Module, regs: dict[str, Value], d: _Decoded) -> Value:
        """One Feistel round of the KA/KB computation (RFC 3713 section 2.2) in swapped form:
        (X, Y) -> (Y ^ F(X ^ Sigma), X); after two rounds the halves are back in place, where the
        XOR with KL (after the second round) and the results land."""
        kr = regs.get("KR", Const(0, 128))
        kb = regs.get("KB", Const(0, 128))
        being_made = Mux(d.making_kb, kb, regs["KA"])
        x = _onehot(d.source, [regs["KL"] ^ kr, regs["KA"] ^ kr, being_made], 128)
        left, right = x[HALF:], x[:HALF]
        f = f_function(m, left ^ d.sigma, self.sbox, "ka_")
        out = Cat(left, right ^ f)
        return out ^ Mux(d.xor_kl, regs["KL"], 0)


class CamelliaHardware(CipherHardware):
    name = "camellia"
    # keys=stored: Feistel schedule, decryption round r needs encryption round R+1-r's key, so
    # the round-key memory stores the backward walk's keys too (arch/keymem.py).
    stored_decryption = "walk"
    travelling_keys = False  # pipelines: keys=stored only (docs/ciphers)
    block_bits = 128

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)
        self.sbox = options.extra.get("sbox", "table")
        if self.sbox not in SBOX_KINDS:
            raise ValueError(f"sbox={self.sbox}")
        self.key_sizes = tuple(sorted(options.key_sizes))
        self.layout = Layout(self.key_sizes)
        self.round_key_bits = self.layout.rk_bits
        self.key_state_bits = self.layout.state_bits

    def rounds(self, key_bits: int) -> int:
        return self.layout.schedules[schedule_of(key_bits)].rounds

    def datapath(self) -> CamelliaDatapath:
        return CamelliaDatapath(self.sbox, self.round_key_bits)

    def key_step(self, key_len_bits: int, step_bits: int) -> CamelliaKeyStep:
        return CamelliaKeyStep(self.layout, self.key_sizes, key_len_bits, step_bits, self.sbox)

    def segmented_key_step(self, key_len_bits: int, step_bits: int, segments: int) -> KeyStep:
        # The pipelines start decryption from forward key state R-1. This schedule's backward
        # walk is not the forward walk reversed state by state (a Feistel cipher's decryption
        # round r needs the key of encryption round R+1-r, one state later than AES's), so that
        # state would hand decryption the wrong keys: refuse rather than build a wrong core.
        raise CipherbenchError(
            f"{self.name}: the pipelined architecture is not supported (its decryption starts "
            f"from forward key state R-1; see docs/ciphers/{self.name}.md); use iterative or "
            "unrolled")

    def describe(self) -> dict[str, object]:
        lay = self.layout
        return {"sbox": self.sbox, "data_sboxes": 8, "key_schedule_sboxes": 8,
                "key_registers": list(lay.registers),
                "clocks_per_block": {str(k): self.rounds(k) for k in self.key_sizes},
                "f_key_slices": len(lay.key_slices), "next_key_slices": len(lay.next_slices)}
