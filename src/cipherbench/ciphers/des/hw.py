"""DES hardware description (FIPS 46-3): one round and one key-schedule step.

Round (``DesRound``): E, XOR with the round key, the eight S-boxes (64-entry tables, as Sugawara's
TDEA: faster than Kwan's bitslice expressions, and small), P, XOR into the left half. IP, IP^-1 and
the swaps cost no gates: they are wiring, and the state register is kept in *output coordinates*:
after round n it holds FP(R_n || L_n), the value the cipher would output if it stopped there. Round
n+1 reads its halves back through IP (IP = FP^-1, wiring again), so the register needs no output
multiplexer: after round 16 it already holds the ciphertext. The only data multiplexer is the one
every loop has, input block or state.

Key schedule (``DesKeyStep``): the C/D registers of FIPS 46-3 (56 bits after PC-1), rotated left
by 1 or 2 per round for encryption and right for decryption; PC-2 is wiring. C16 D16 = C0 D0, so a
block leaves the schedule where it found it. The key state after t forward steps is C_t D_t, and
its round key is K_t for encryption and K_{t+1} for decryption (DES has 16 round keys for 17 key
states and no whitening, so the two directions' round keys sit one state apart).

The same step serves TDEA (``ciphers/tdea/hw.py``): the key state holds n DES keys (C/D each)
and the rounds go through ``layers`` DES operations of 16 rounds each ("E" or "D"); at the end of a
layer the key words rotate by one position so the next key is in front. Which word and rotation
each output takes is tabulated per step index and direction at generation time (``StepPlan``),
so the hardware is one AND-OR multiplexer per key word and one for the round key.

Two loop cores use these: the generic iterative generator (``DesHardware.datapath``/``key_step``)
and ``DesLoop`` for arch/narrow.py at width 64, the area-optimized one: the same round with a
single key register (S_R = S_0 both ways, so no start states are kept and nothing is run up).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath, bits_for
from ...arch.narrow import NarrowDatapath, Program, Segment
from ...components.bytes import from_words, get_words
from ...components.des_sbox import DesSboxLayer
from ...components.permutations import DES_E, DES_FP, DES_IP, DES_P, DES_PC1, DES_PC2, permute_bits
from ...errors import CipherbenchError
from ...interface import CoreShape

ROUNDS_PER_LAYER = 16
# FIPS 46-3 "The key schedule": left shifts of C and D before round 1..16.
SHIFTS = (1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1)
CD_BITS = 56
ROUND_KEY_BITS = 48

# A source for a key word or round key: (key word position, rotation; + left, - right).
Source = tuple[int, int]


@dataclass(frozen=True)
class StepPlan:
    """What one key step does, from the key state's words (position 0 = the active key).

    ``words[p]``: the source of output word p; ``rk``: the source the round key (PC-2) is taken
    from; ``layer_start``: the round this key serves is the first of its DES operation."""

    words: tuple[Source, ...]
    rk: Source
    layer_start: bool


class DesSchedule:
    """The C/D key schedule of ``len(layers)`` DES operations over ``keys`` key words.

    Key state S_t (after t forward steps from the loaded state): the active key word at position
    0, after the rotations of the rounds done in its layer so far; at a layer end the words
    rotate one position (the used key to the back; see ``_turns``). S_R = S_0. Round t (1-based) of the whole chain uses
    the key of layer (t-1)//16, round (t-1)%16 of it; rk_f(S_t) is round t's key (encryption) and
    rk_b(S_t) round t+1's (decryption), as ``DesKeyStep`` explains.
    """

    def __init__(self, keys: int, layers: tuple[str, ...]) -> None:
        if any(kind not in ("E", "D") for kind in layers):
            raise ValueError(f"DES layers are E or D, not {layers}")
        self.keys = keys
        self.layers = layers
        self.rounds = ROUNDS_PER_LAYER * len(layers)

    def _layer_index(self, i: int) -> int:
        return (i // ROUNDS_PER_LAYER) % len(self.layers)

    def _layer(self, i: int) -> tuple[str, int]:
        """The kind of the layer step i belongs to and the step's round within it (0..15)."""
        return self.layers[self._layer_index(i)], i % ROUNDS_PER_LAYER

    def _turns(self, i: int) -> bool:
        """The key words rotate at the end of step i's layer, if step i ends it. Every layer
        but the last hands over to the next key; the last one turns only if that brings the
        words back in place (3 keys: K1 K2 K3 -> ... -> K3 K1 K2 -> K1 K2 K3; 2 keys used
        K1 K2 K1 are back after two turns), so S_R = S_0 and a block leaves the schedule where
        it found it."""
        if i % ROUNDS_PER_LAYER != ROUNDS_PER_LAYER - 1:
            return False
        final = self._layer_index(i) == len(self.layers) - 1
        return not final or (len(self.layers) - 1) % self.keys != 0

    def _held(self, positions: range) -> tuple[Source, ...]:
        return tuple((p, 0) for p in positions)

    def forward(self, i: int) -> StepPlan:
        """Step i: S_i -> S_{i+1}; its round key is round i+1's."""
        kind, j = self._layer(i)
        # Encryption rotates left before the round; decryption uses the key and then rotates
        # right, undoing the encryption shifts in reverse order (C16 = C0).
        active = (0, SHIFTS[j]) if kind == "E" else (0, -SHIFTS[15 - j])
        n = self.keys
        if self._turns(i):
            words = self._held(range(1, n)) + (active,)
        else:
            words = (active,) + self._held(range(1, n))
        return StepPlan(words, active if kind == "E" else (0, 0), j == 0)

    def backward(self, i: int) -> StepPlan:
        """The inverse of step i: S_{i+1} -> S_i; its round key is round i+1's, as forward."""
        kind, j = self._layer(i)
        n = self.keys
        turned = self._turns(i)
        # After a turn the used key is at the back: bring it to the front again.
        pre = n - 1 if turned else 0
        others = self._held(range(n - 1)) if turned else self._held(range(1, n))
        active = (pre, -SHIFTS[j]) if kind == "E" else (pre, SHIFTS[15 - j])
        rk = (pre, 0) if kind == "E" else active
        return StepPlan((active,) + others, rk, self._starts_layer(self.rounds - i))

    def rk_forward(self, i: int) -> StepPlan:
        """rk_f(S_i): round i's key, from S_i (the words are unused: S_i itself)."""
        if i % ROUNDS_PER_LAYER == 0:
            # Round i ended the previous layer, whose key is back at C0 D0 (at the back if the
            # words turned): its last key is K16 = PC-2(C0) (E) or K1 = PC-2(C0 <<< 1) (D).
            kind, _ = self._layer(i - 1)
            position = self.keys - 1 if self._turns(i - 1) else 0
            rk = (position, 0 if kind == "E" else SHIFTS[0])
        else:
            kind, j = self._layer(i)
            rk = (0, 0) if kind == "E" else (0, SHIFTS[16 - j])
        return StepPlan(self._held(range(self.keys)), rk, self._starts_layer(i))

    def rk_backward(self, i: int) -> StepPlan:
        """rk_b(S_{i+1}) for backward step i: round i+2's key, which forward step i+1 gives from
        the same state; it serves decryption round R-i-1."""
        plan = self.forward(i + 1)
        return StepPlan(self._held(range(self.keys)), plan.rk,
                        self._starts_layer(self.rounds - i - 1))

    @staticmethod
    def _starts_layer(round_number: int) -> bool:
        """Round ``round_number`` (1-based, of the chain in its own direction) begins a layer."""
        return (round_number - 1) % ROUNDS_PER_LAYER == 0


# Maps the key port (left-aligned) and key_len to the loaded key state.
Loader = Callable[[Value, Value], Value]


def rotate_cd(word: Value, amount: int) -> Value:
    """C and D (28 bits each, C in the high half) rotated by ``amount`` (+ left, - right)."""
    if amount == 0:
        return word
    c, d = word[28:], word[:28]
    if amount > 0:
        return Cat(d.rotate_left(amount), c.rotate_left(amount))
    return Cat(d.rotate_right(-amount), c.rotate_right(-amount))


def pc1(key: Value) -> Value:
    """C0 || D0 of a 64-bit DES key (parity bits dropped)."""
    return permute_bits(key, DES_PC1)


class DesKeyStep(KeyStep):
    """Load and one step of ``DesSchedule``, forward and (``backward_steps``) backward.

    ``loader``: how the loaded state's words come from the key port and key_len, given by the
    cipher (DES: PC-1 of the port; TDEA: K1, K2, K3 or K1, K2, K1). Round key bus: K (48 bits,
    FIPS bit 1 most significant) and, for more than one layer, a layer-start bit above it.
    ``mirrored``: a backward step input v means step R-1-v, so that a round counter counting up
    drives both directions directly (the narrow loop core) with no subtractor in front of the
    decode."""

    def __init__(self, schedule: DesSchedule, key_bits: int, key_len_bits: int, step_bits: int,
                 backward_steps: bool, loader: Loader, mirrored: bool = False) -> None:
        self.schedule = schedule
        self.backward_steps = backward_steps
        self.loader = loader
        self.mirrored = mirrored
        self.layered = len(schedule.layers) > 1
        super().__init__(key_bits=key_bits, key_len_bits=key_len_bits,
                         state_bits=CD_BITS * schedule.keys,
                         round_key_bits=ROUND_KEY_BITS + int(self.layered), step_bits=step_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.d.comb += self.loaded.eq(self.loader(self.key, self.key_len))
        words = get_words(self.state_in, CD_BITS)
        out_plans = self._plans(self.schedule.forward, 0)
        if self.backward_steps:
            out_plans.update(self._plans(self.schedule.backward, 1))
        n = self.schedule.keys
        new_words = [self._select(m, words, {k: p.words[q] for k, p in out_plans.items()},
                                  f"word{q}") for q in range(n)]
        m.d.comb += self.state_out.eq(from_words(new_words))
        m.d.comb += self.rk_out.eq(self._round_key(m, words, out_plans, "rk_out"))
        in_plans = self._plans(self.schedule.rk_forward, 0)
        if self.backward_steps:
            in_plans.update(self._plans(self.schedule.rk_backward, 1))
        m.d.comb += self.rk_in.eq(self._round_key(m, words, in_plans, "rk_in"))
        return m

    def _plans(self, plan_of: Callable[[int], StepPlan],
               backward: int) -> dict[tuple[int, int], StepPlan]:
        """The plan for every value of the step input, keyed (backward, value). Values beyond R
        are read as negative indices (the pipelined core's step -1 before round 1)."""
        size = 1 << len(self.step)
        plans = {}
        for value in range(size):
            index = value if value <= self.schedule.rounds else value - size
            if backward and self.mirrored:
                index = self.schedule.rounds - 1 - value
            plans[(backward, value)] = plan_of(index)
        return plans

    def _round_key(self, m: Module, words: list[Value],
                   plans: dict[tuple[int, int], StepPlan], name: str) -> Value:
        source = self._select(m, words, {k: p.rk for k, p in plans.items()}, f"{name}_cd")
        key = permute_bits(source, DES_PC2)
        if not self.layered:
            return key
        start = self._decode(m, {k: p.layer_start for k, p in plans.items()}, f"{name}_start")
        return Cat(key, start)

    def _decode(self, m: Module, table: dict[tuple[int, int], bool], name: str) -> Signal:
        """A bit that is 1 for the (backward, step) pairs the table marks."""
        bit = Signal(name=name)
        hits = [(b << len(self.step)) | v for (b, v), on in table.items() if on]
        if hits:
            with m.Switch(Cat(self.step, self.backward)):
                with m.Case(*hits):
                    m.d.comb += bit.eq(1)
        return bit

    def _select(self, m: Module, words: list[Value], table: dict[tuple[int, int], Source],
                name: str) -> Value:
        """An AND-OR multiplexer over the distinct sources the table uses (a wire if only one)."""
        options = sorted(set(table.values()))
        if len(options) == 1:
            return rotate_cd(words[options[0][0]], options[0][1])
        result: Value = Const(0, CD_BITS)
        for k, (position, amount) in enumerate(options):
            chosen = self._decode(m, {key: src == (position, amount) for key, src in table.items()},
                                  f"{name}_sel{k}")
            result = result | Mux(chosen, rotate_cd(words[position], amount), 0)
        wire = Signal(CD_BITS, name=name)
        m.d.comb += wire.eq(result)
        return wire


def des_loader(key: Value, key_len: Value) -> Value:
    """The loaded DES key state: C0 || D0 of the (left-aligned, 64-bit) key port."""
    return pc1(key[-64:])


class DesRound(RoundDatapath):
    """One DES round with the state in output coordinates (see the module docstring).

    ``layered``: the round key bus carries a layer-start bit (TDEA): the round begins a new DES
    operation, whose L0 || R0 is IP of the state without the swap (the previous operation's
    output, FP(R16 || L16), read back through IP)."""

    def __init__(self, layered: bool = False, cuts: tuple[int, ...] = ()) -> None:
        super().__init__(block_bits=64, round_key_bits=ROUND_KEY_BITS + int(layered), cuts=cuts)
        self.layered = layered

    def elaborate(self, platform: object) -> Module:
        m = Module()
        block, state = permute_bits(self.block_in, DES_IP), permute_bits(self.state_in, DES_IP)
        # The state holds FP(R || L): IP gives R in the high half, L in the low half.
        left_state, right_state = state[:32], state[32:]
        if self.layered:
            start = self.rk[ROUND_KEY_BITS]
            left_state = Mux(start, state[32:], state[:32])
            right_state = Mux(start, state[:32], state[32:])
        left, right = Signal(32), Signal(32)
        m.d.comb += [left.eq(Mux(self.first, block[32:], left_state)),
                     right.eq(Mux(self.first, block[:32], right_state))]
        m.submodules.sboxes = sboxes = DesSboxLayer()
        m.d.comb += sboxes.i.eq(permute_bits(right, DES_E) ^ self.rk[:ROUND_KEY_BITS])
        f_out = permute_bits(sboxes.o, DES_P)
        if 1 in self.cuts:
            # The cut after F (round steps "f" | "xor"): F's output and both halves registered,
            # the XOR into the left half and the swap after it (Papaefstathiou et al.'s F and RL
            # stages of their fine-grain pipeline). Reset-less, as every cut: the architecture's
            # valid bits say what is data.
            held = Signal(96, name="cut1", reset_less=True)
            with m.If(self.enable):
                m.d.sync += held.eq(Cat(f_out, left, right))
            f_out, left, right = held[:32], held[32:64], held[64:]
        new_right = left ^ f_out
        # FP(R' || L') with L' = R: the value the cipher outputs if this round is the last.
        m.d.comb += self.state_out.eq(permute_bits(Cat(right, new_right), DES_FP))
        return m


class DesLoopKeys(Elaboratable):
    """The narrow loop core's key schedule: one key register and one key step. S_R = S_0, so the
    register ends every block, either way, where it started: no start states are kept and no
    run-up or rewind is ever needed."""

    def __init__(self, step: DesKeyStep) -> None:
        self.step = step
        self.key = Signal(len(step.key))
        self.key_len = Signal(len(step.key_len))
        self.load_key = Signal()
        self.advance = Signal()    # a round: step the register
        self.counter = Signal(len(step.step))
        self.decrypt = Signal()
        self.rk = Signal(len(step.rk_out))

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.step = step = self.step
        register = Signal(len(step.state_in), reset_less=True)
        m.d.comb += [step.key.eq(self.key), step.key_len.eq(self.key_len),
                     step.state_in.eq(register), step.step.eq(self.counter),
                     step.backward.eq(self.decrypt), self.rk.eq(step.rk_out)]
        with m.If(self.load_key):
            m.d.sync += register.eq(step.loaded)
        with m.Elif(self.advance):
            m.d.sync += register.eq(step.state_out)
        return m


class DesLoop(NarrowDatapath):
    """DES or TDEA for arch/narrow.py at width=64: the whole block, one round per clock, with a
    single key register (``DesLoopKeys``) instead of the iterative generator's working state and
    two kept start states. The block is loaded into the state register on its transfer (the
    narrow architecture's load clock), already in output coordinates, so the round has no
    input-block multiplexer either."""

    ROUNDS = "rounds"

    def __init__(self, options: CoreOptions, schedule: DesSchedule, loader: Loader) -> None:
        shape = CoreShape(64, tuple(sorted(options.key_sizes)))
        super().__init__(width=64, block_bits=64, key_bits=shape.key_bits,
                         key_len_bits=shape.key_len_bits)
        self.options = options
        self.schedule = schedule
        self.layered = len(schedule.layers) > 1
        step = DesKeyStep(schedule, shape.key_bits, shape.key_len_bits,
                          bits_for(schedule.rounds - 1), options.has_decrypt, loader,
                          mirrored=True)
        self.keys = DesLoopKeys(step)
        self.key_schedule = self.keys  # placed by the core as its key_schedule block

    def programs(self) -> dict[bool, Program]:
        rounds = Segment(self.ROUNDS, {k: self.schedule.rounds for k in self.options.key_sizes}, 1)
        directions = {False: self.options.has_encrypt, True: self.options.has_decrypt}
        return {d: Program(main=(rounds,)) for d, present in directions.items() if present}

    def elaborate(self, platform: object) -> Module:
        m = Module()
        ks = self.keys
        rounds = self.running(self.ROUNDS)
        m.d.comb += [ks.key.eq(self.key), ks.key_len.eq(self.key_len),
                     ks.load_key.eq(self.load_key), ks.advance.eq(rounds),
                     ks.counter.eq(self.round[:len(ks.counter)]), ks.decrypt.eq(self.decrypt)]
        m.submodules.round = rnd = DesRound(self.layered)
        state = Signal(64, reset_less=True)
        m.d.comb += [rnd.state_in.eq(state), rnd.rk.eq(ks.rk), self.block_out.eq(state)]
        with m.If(self.load_block):
            m.d.sync += state.eq(self._loaded_block())
        with m.Elif(rounds):
            m.d.sync += state.eq(rnd.state_out)
        return m

    def _loaded_block(self) -> Value:
        """The input block as the first round reads it. TDEA's first round starts a layer and
        reads IP(state) unswapped: the block itself. DES's reads it swapped: FP(R0 || L0)."""
        if self.layered:
            return self.block_in
        ip = permute_bits(self.block_in, DES_IP)
        return permute_bits(Cat(ip[32:], ip[:32]), DES_FP)

    def describe(self) -> dict[str, object]:
        return {"sbox": "table", "data_sboxes": 8, "key_register_bits": CD_BITS * self.schedule.keys,
                "key_schedule": "one key register, back in place after every block (S_R = S_0)",
                "latency": self.programs()[not self.options.has_encrypt].latency(
                    self.options.key_sizes[0])}


def narrow_loop(hw: CipherHardware, schedule: DesSchedule, loader: Loader,
                width: int) -> DesLoop:
    """The DES/TDEA datapath for arch/narrow.py: the full 64-bit width only."""
    if width != 64:
        raise CipherbenchError(f"{hw.name} has a 64-bit datapath only (one round per clock); "
                               "valid widths: 64")
    return DesLoop(hw.options, schedule, loader)


class DesHardware(CipherHardware):
    name = "des"
    # keys=stored: Feistel schedule, decryption round r needs encryption round R+1-r's key, so
    # the round-key memory stores the backward walk's keys too (arch/keymem.py).
    stored_decryption = "walk"
    block_bits = 64
    round_key_bits = ROUND_KEY_BITS
    key_state_bits = CD_BITS

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)
        self.schedule = DesSchedule(keys=1, layers=("E",))

    def rounds(self, key_bits: int) -> int:
        return self.schedule.rounds

    def datapath(self) -> DesRound:
        return DesRound()

    def round_steps(self) -> tuple[str, ...]:
        # F (expansion, key, S-boxes, P), then the XOR into the left half and the swap.
        return ("f", "xor")

    def cut_datapath(self, cuts: tuple[int, ...]) -> DesRound:
        return DesRound(cuts=cuts)

    def key_step(self, key_len_bits: int, step_bits: int) -> DesKeyStep:
        return DesKeyStep(self.schedule, 64, key_len_bits, step_bits,
                          self.options.has_decrypt, des_loader)

    def narrow_datapath(self, width: int, keys: str = "rewind") -> DesLoop:
        return narrow_loop(self, self.schedule, des_loader, width)

    def describe(self) -> dict[str, object]:
        return {"sbox": "table", "data_sboxes": 8, "key_schedule": "C/D rotation on the fly",
                "state": "output coordinates (FP(R||L)): no output multiplexer"}
