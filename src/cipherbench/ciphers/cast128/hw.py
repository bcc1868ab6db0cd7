"""CAST-128 hardware (RFC 2144): a loop core, one round per clock, on arch/narrow.py at width=64.

Round function (Sugawara et al., seed 003, section 2.2 and Fig. 10): the three f types differ only
in which of +, ^, - each of their four 32-bit operations uses, so one round block serves all three:
four ASX (add-sub-XOR) units, a barrel rotator for the Kr rotation and one lookup table each of S1 to
S4. Per round type the units take these roles (I = (Km op0 D) <<< Kr, f = ((S1 op1 S2) op2 S3) op3 S4):

    type 1 (rounds 1, 4, 7, ...):  op0 +   op1 ^   op2 -   op3 +
    type 2 (rounds 2, 5, 8, ...):  op0 ^   op1 -   op2 +   op3 ^
    type 3 (rounds 3, 6, 9, ...):  op0 -   op1 +   op2 ^   op3 -

The type is a one-hot register that rotates with the rounds (backward for decryption, whose first
round is round 16, type 1, or round 12, type 3), so its decode costs nothing on the round's path.
Each ASX is an adder from components/adders.py with the subtrahend inverted (carry in 1) and the
XOR result (the adder's own propagate word) selected in XOR mode.

The key schedule is why the loop core is not an ``iterative`` one. Round i needs Km_i = K_i and
Kr_i = K_{16+i}, so round 1 already needs a subkey from the second pass over the x/z registers (five
register updates of four dependent lines after the key arrives), and no step can be walked
backward cheaply. The iterative generator starts encryption from the loaded key with no run-up and
fills its round-key memory one entry per clock in R+1 clocks, which would take a dozen S-box lookups
per clock in a chain; so the core computes the round keys once per key in a ``setup`` program of
the narrow architecture (whose width=64 datapath is the whole 64-bit block: one round per clock) and
keeps them, as Sugawara's design must too.

The generic generators (iterative, pipelined) build CAST-128 with round keys loaded from outside
(``keys=loaded``, Gaj & Chodowiec 4.1 b): ``CastRound`` is their round, the same round function in
output coordinates, and keyring.py the ring of round keys the simulation harness steps to fill the
core's memory. A unit that only ever computes rounds of one type per direction (a full pipeline's
unit for a core of one round count) has its type as constants, which synthesis folds into its ASX
units; every other unit reads the type from the round key.

Key setup (RFC 2144 section 2.4): x and z are two 128-bit registers and S5, S6, S7, S8 one table
each. The schedule runs as 16 phases of 5 clocks: even phases update z from x or x from z (four
lines of four S-box words plus one "extra" word), odd phases compute a group of four subkeys (four
S-box words plus an extra each). In every phase the four extra lookups use four different tables,
so clock 0 does all four; clocks 1-4 then do the four main lookups of one line or subkey each. An
update's extras go straight into its destination words (a line reads only bytes of earlier lines,
which are complete by then); a subkey group's extras go into the register that the group does not
read (its contents are dead until the next update overwrites them). 12-round keys stop after 14
phases (K29-K32 are never used). The ring of round keys is filled by shifting: K1..K16 into the
Km fields, then K17..K32 into the Kr fields while the Km fields go once around.

Round-key ring: 16 entries of (Km, Kr) (12 for keys of 80 bits or less). The round reads the head.
Encryption rotates the ring forward after each round; decryption turns it back once on the block's
load clock (bringing K_R to the head) and after each round but the last. Either way a block leaves
the ring where it found it, so the keys stay for the next block, with no address decode and no
multiplexer between the ring and the round.

Setup runs once per key for each direction (the narrow controller keeps one flag per direction);
when the other direction's setup runs after the first, a flag here keeps every register as it is
(its cycles pass, its result would be the same).
"""

from __future__ import annotations

from amaranth.hdl import Cat, Const, Elaboratable, Module, Mux, Signal, Value

from ...arch.base import CipherHardware, CoreOptions, KeyStep, RoundDatapath
from ...arch.narrow import NarrowDatapath, Program, Segment
from ...components.adders import ADDER_KINDS, add
from ...components.aes_sbox import table_lookup
from ...components.rotators import barrel_rotate_left
from ...errors import CipherbenchError
from ...interface import CoreShape
from . import model
from .keyring import (
    KM_BITS,
    KR_BITS,
    RING_ENTRIES,
    ROUND_KEY_BITS,
    TYPE_BITS,
    CastKeyRing,
    round_type,
)
from .model import _K_GROUPS, _X_FROM_Z, _Z_FROM_X

ADD, SUB, XOR = "add", "sub", "xor"
# Round type -> operations of the four ASX units (RFC 2144 section 2.2, Types 1-3).
OPERATIONS = {
    1: (ADD, XOR, SUB, ADD),
    2: (XOR, SUB, ADD, XOR),
    3: (SUB, ADD, XOR, SUB),
}
ROUND_SBOXES = (model.S1, model.S2, model.S3, model.S4)
SCHEDULE_SBOXES = {5: model.S5, 6: model.S6, 7: model.S7, 8: model.S8}
# Which key-schedule register word each table's extra lookup writes (the same in both update
# directions, RFC lines 1-4 take their extra from S7, S8, S5, S6): subkey groups use the same map.
EXTRA_WORD = {7: 0, 8: 1, 5: 2, 6: 3}
PHASE_STEPS = 5
SETUP, ROUNDS_SEGMENT = "key-setup", "rounds"


def round_count(key_bits: int) -> int:
    """12 rounds for keys of 80 bits or less, else 16 (RFC 2144 section 2.5)."""
    return 12 if key_bits <= 80 else 16


def setup_phases(key_bits: int) -> int:
    """Phases of the key setup: 12-round keys need K1-K12 and K17-K28 only (14 phases)."""
    return 14 if key_bits <= 80 else 16


def _wire(m: Module, value: Value, name: str) -> Signal:
    """``value`` in a named signal, built once however often it is read."""
    wire = Signal(len(value), name=name)
    m.d.comb += wire.eq(value)
    return wire


def asx(m: Module, a: Value, b: Value, sub: Value, xor: Value, kind: str, name: str) -> Value:
    """a + b, a - b or a ^ b mod 2^32 on one adder (``sub``, ``xor``: at most one set)."""
    b_eff = _wire(m, b ^ sub.replicate(len(b)), f"{name}_b")
    total = add(m, a, b_eff, sub, kind, prefix=f"{name}_")
    return _wire(m, Mux(xor, a ^ b_eff, total), name)


class SboxTable(Elaboratable):
    """An 8-bit to 32-bit CAST S-box as a lookup table."""

    def __init__(self, table: tuple[int, ...]) -> None:
        self.table = table
        self.i = Signal(8)
        self.o = Signal(32)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        table_lookup(m, self.i, self.table, self.o)
        return m


class CastRoundFunction(Elaboratable):
    """f of every type: ``kind`` one-hot (bit t-1 for type t), ``d`` the right half."""

    def __init__(self, adder: str) -> None:
        self.adder = adder
        self.d = Signal(32)
        self.km = Signal(32)
        self.kr = Signal(5)
        self.kind = Signal(3)
        self.f = Signal(32)

    def _controls(self, unit: int) -> tuple[Value, Value]:
        """(sub, xor) of ASX unit ``unit`` from the one-hot type."""
        sub: Value = Const(0, 1)
        xor: Value = Const(0, 1)
        for t, ops in OPERATIONS.items():
            if ops[unit] == SUB:
                sub = sub | self.kind[t - 1]
            elif ops[unit] == XOR:
                xor = xor | self.kind[t - 1]
        return sub, xor

    def elaborate(self, platform: object) -> Module:
        m = Module()
        # Type 3 computes Km - D: the data is the subtrahend, as it is the ASX's b operand.
        sub, xor = self._controls(0)
        masked = asx(m, self.km, self.d, sub, xor, self.adder, "op0")
        i = barrel_rotate_left(m, masked, self.kr, "rot")
        lanes = []
        for k, table in enumerate(ROUND_SBOXES):
            box = SboxTable(table)
            m.submodules[f"s{k + 1}"] = box
            m.d.comb += box.i.eq(i[24 - 8 * k:32 - 8 * k])  # S1 takes the most significant byte
            lanes.append(box.o)
        acc = lanes[0]
        for unit in range(1, 4):
            sub, xor = self._controls(unit)
            acc = asx(m, acc, lanes[unit], sub, xor, self.adder, f"op{unit}")
        m.d.comb += self.f.eq(acc)
        return m


def update_registers(u: int) -> tuple[str, str, tuple]:
    """(source, destination, RFC lines) of register update u (0..7): z from x, then x from z."""
    return ("x", "z", _Z_FROM_X) if u % 2 == 0 else ("z", "x", _X_FROM_Z)


def lookup_source(phase: int, step: int, box: int) -> tuple[str, int]:
    """(register, byte) that table S``box`` reads in setup clock ``step`` of ``phase``: clock 0
    does the four extra lookups, clocks 1-4 the main lookups of line / subkey 1-4."""
    u = phase // 2
    src, dst, lines = update_registers(u)
    if phase % 2 == 0:
        if step == 0:
            line = next(line for line in lines if line[3] == box)
            return src, line[4]
        k = step - 1
        # Line 1 reads the source register, lines 2-4 the bytes earlier lines wrote.
        return (src if k == 0 else dst), lines[k][2][box - 5]
    group = _K_GROUPS[u % 4]  # subkeys read the register the update just wrote
    if step == 0:
        return dst, group[box - 5][4]
    return dst, group[step - 1][box - 5]


def _byte(words: list[Signal], index: int) -> Value:
    """Byte ``index`` (0 = most significant of word 0) of a register kept as four words."""
    word = words[index // 4]
    shift = 8 * (3 - index % 4)
    return word[shift:shift + 8]


class CastKeySchedule(Elaboratable):
    """The x/z registers, S5-S8, the setup phases and the round-key ring (module docstring)."""

    def __init__(self, key_sizes: tuple[int, ...], key_len_bits: int) -> None:
        self.key_sizes = key_sizes
        self.key = Signal(max(key_sizes))
        self.key_len = Signal(key_len_bits)
        self.load_key = Signal()
        self.setup = Signal()          # a setup clock (phase = ``phase``, clock ``step``)
        self.setup_end = Signal()      # the setup's last clock
        self.phase = Signal(4)
        self.step = Signal(3)
        self.rotate = Signal()         # a round: rotate the ring (backward if ``decrypt``)
        self.load_block = Signal()     # a block is loaded (a decryption turns the ring back)
        self.last_round = Signal()     # the block's last round
        self.decrypt = Signal()
        self.km = Signal(32)
        self.kr = Signal(5)
        self.short = Signal()          # the key has 12 rounds (registered with the key)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        x = [Signal(32, name=f"x{w}", reset_less=True) for w in range(4)]
        z = [Signal(32, name=f"z{w}", reset_less=True) for w in range(4)]
        keys_ready = Signal()
        work = _wire(m, self.setup & ~keys_ready, "work")
        boxes = self._tables(m, x, z)
        main = _wire(m, boxes[5] ^ boxes[6] ^ boxes[7] ^ boxes[8], "main")
        self._load_key(m, x)
        with m.If(self.load_key):
            m.d.sync += keys_ready.eq(0)
        with m.Elif(self.setup_end):
            m.d.sync += keys_ready.eq(1)
        new_key, write_km, write_kr = self._registers(m, x, z, boxes, main, work)
        self._ring(m, new_key, write_km, write_kr)
        return m

    # --- loading ----------------------------------------------------------------------------

    def _load_key(self, m: Module, x: list[Signal]) -> None:
        """x <- the key, zero-padded to 16 bytes (RFC 2144 section 2.5); the round count."""
        width = len(self.key)
        single = len(self.key_sizes) == 1
        parts = []
        for index in range(16):
            if 8 * (index + 1) > width:
                parts.append(Const(0, 8))
                continue
            byte = self.key[width - 8 * (index + 1):width - 8 * index]
            # A core for several key sizes masks the port's unused low bytes (don't-care bits).
            parts.append(byte if single else Mux(self.key_len > index, byte, 0))
        short = (Const(int(self.key_sizes[0] <= 80), 1) if single
                 else self.key_len <= 10)
        with m.If(self.load_key):
            m.d.sync += [x[w].eq(Cat(*reversed(parts[4 * w:4 * w + 4]))) for w in range(4)]
            m.d.sync += self.short.eq(short)

    # --- the S-box lookups of each setup clock ----------------------------------------------

    def _tables(self, m: Module, x: list[Signal], z: list[Signal]) -> dict[int, Signal]:
        regs = {"x": x, "z": z}
        outputs = {}
        for box, table in SCHEDULE_SBOXES.items():
            sbox = SboxTable(table)
            m.submodules[f"s{box}"] = sbox
            with m.Switch(Cat(self.step, self.phase)):
                for phase in range(16):
                    for step in range(PHASE_STEPS):
                        reg, index = lookup_source(phase, step, box)
                        with m.Case(step | phase << 3):
                            m.d.comb += sbox.i.eq(_byte(regs[reg], index))
            outputs[box] = sbox.o
        return outputs

    # --- x and z ------------------------------------------------------------------------------

    def _registers(self, m: Module, x: list[Signal], z: list[Signal], boxes: dict[int, Signal],
                   main: Value, work: Value) -> tuple[Signal, Signal, Signal]:
        """The register writes of every setup clock; returns the subkey being produced and
        whether it goes into the ring as a Km or a Kr."""
        regs = {"x": x, "z": z}
        new_key = Signal(32)
        write_km, write_kr = Signal(), Signal()
        with m.If(work):
            with m.Switch(self.phase):
                for phase in range(16):
                    with m.Case(phase):
                        if phase % 2 == 0:
                            self._update_clock(m, regs, phase // 2, boxes, main)
                        else:
                            self._group_clock(m, regs, phase // 2, boxes, main, new_key,
                                              write_km, write_kr)
        return new_key, write_km, write_kr

    def _update_clock(self, m: Module, regs: dict[str, list[Signal]], u: int,
                      boxes: dict[int, Signal], main: Value) -> None:
        src, dst, lines = update_registers(u)
        with m.Switch(self.step):
            with m.Case(0):
                for k, (_, start, _, box, _) in enumerate(lines):
                    m.d.sync += regs[dst][k].eq(regs[src][start // 4] ^ boxes[box])
            for k in range(4):
                with m.Case(k + 1):
                    m.d.sync += regs[dst][k].eq(regs[dst][k] ^ main)

    def _group_clock(self, m: Module, regs: dict[str, list[Signal]], g: int,
                     boxes: dict[int, Signal], main: Value, new_key: Signal, write_km: Signal,
                     write_kr: Signal) -> None:
        spare = regs[update_registers(g)[0]]  # the register this group does not read
        with m.Switch(self.step):
            with m.Case(0):
                for box, word in EXTRA_WORD.items():
                    m.d.sync += spare[word].eq(boxes[box])
            for j in range(4):
                with m.Case(j + 1):
                    n = 4 * g + j + 1  # K_n
                    m.d.comb += new_key.eq(spare[EXTRA_WORD[5 + j]] ^ main)
                    # Round i uses Km_i = K_i and Kr_i = K_{16+i}; 12-round keys skip the rest.
                    needed = Const(1, 1) if (n - 1) % 16 < 12 else ~self.short
                    m.d.comb += (write_km if n <= 16 else write_kr).eq(needed)

    # --- the round-key ring -------------------------------------------------------------------

    def _ring(self, m: Module, new_key: Value, write_km: Value, write_kr: Value) -> None:
        entries = [(Signal(32, name=f"km{i}", reset_less=True),
                    Signal(5, name=f"kr{i}", reset_less=True)) for i in range(16)]
        head = entries[0]
        # The round always reads the head: no multiplexer between the ring and the round. A
        # decryption block turns the ring back once on its load clock (the tail, K_R, to the
        # head) and after every round but its last, so it too leaves the ring where it found it.
        m.d.comb += [self.km.eq(head[0]), self.kr.eq(head[1])]
        # The tail is entry 11 for 12-round keys, else 15.
        tail = tuple(_wire(m, Mux(self.short, entries[11][f], entries[15][f]), f"tail_{name}")
                     for f, name in ((0, "km"), (1, "kr")))
        # What enters the tail going forward: the head coming round, or a new subkey.
        tail_in = (Mux(write_km, new_key, head[0]), Mux(write_kr, new_key[:5], head[1]))
        forward = _wire(m, self.rotate & ~self.decrypt | write_km | write_kr, "ring_forward")
        backward = _wire(m, self.decrypt & (self.load_block | self.rotate & ~self.last_round),
                         "ring_backward")
        for i, entry in enumerate(entries):
            for f in range(2):
                if i == 15:
                    ahead = tail_in[f]
                elif i == 11:
                    ahead = Mux(self.short, tail_in[f], entries[12][f])
                else:
                    ahead = entries[i + 1][f]
                behind = tail[f] if i == 0 else entries[i - 1][f]
                with m.If(forward):
                    m.d.sync += entry[f].eq(ahead)
                with m.Elif(backward):
                    m.d.sync += entry[f].eq(behind)


def onehot_type(kind: int) -> int:
    """The one-hot code of round type ``kind`` (bit kind-1)."""
    return 1 << (kind - 1)


class CastRound(RoundDatapath):
    """One round for the generic generators, in output coordinates: the state holds R || L
    (swapped), so the block loads swapped and the last round leaves the ciphertext R || L with no
    multiplexer (the loop core's choice, CastLoop). Decryption is the same network with the round
    keys (and types) in reverse order.

    ``kinds``: (encryption type, decryption type) when every round this unit computes has one
    type per direction (None for a direction the core lacks); None: the type comes from the round
    key (its one-hot bits above Km and Kr, keyring.py ``pack_round_key``)."""

    def __init__(self, adder: str, kinds: tuple[int | None, int | None] | None) -> None:
        super().__init__(block_bits=64, round_key_bits=ROUND_KEY_BITS)
        self.adder = adder
        self.kinds = kinds

    def elaborate(self, platform: object) -> Module:
        m = Module()
        m.submodules.f = f = CastRoundFunction(self.adder)
        swapped = Cat(self.block_in[32:], self.block_in[:32])
        source = _wire(m, Mux(self.first, swapped, self.state_in), "source")
        m.d.comb += [f.d.eq(source[32:]), f.km.eq(self.rk[:KM_BITS]),
                     f.kr.eq(self.rk[KM_BITS:KM_BITS + KR_BITS]), f.kind.eq(self._kind())]
        m.d.comb += self.state_out.eq(Cat(source[32:], source[:32] ^ f.f))
        return m

    def _kind(self) -> Value:
        if self.kinds is None:
            return self.rk[KM_BITS + KR_BITS:KM_BITS + KR_BITS + TYPE_BITS]
        enc, dec = self.kinds
        if enc is None or dec is None:
            return Const(onehot_type(enc if dec is None else dec), TYPE_BITS)
        return Mux(self.decrypt, onehot_type(dec), onehot_type(enc))


class CastLoop(NarrowDatapath):
    """The whole CAST-128 core for arch/narrow.py at width=64: the block register, the round
    function and the key schedule (placed as ``key_schedule``)."""

    def __init__(self, options: CoreOptions, adder: str) -> None:
        shape = CoreShape(64, tuple(sorted(options.key_sizes)))
        super().__init__(width=64, block_bits=64, key_bits=shape.key_bits,
                         key_len_bits=shape.key_len_bits)
        self.options = options
        self.adder = adder
        self.keys = CastKeySchedule(shape.key_sizes, shape.key_len_bits)
        self.key_schedule = self.keys  # placed by the core as its key_schedule block

    def programs(self) -> dict[bool, Program]:
        sizes = self.options.key_sizes
        setup = Segment(SETUP, {k: setup_phases(k) for k in sizes}, PHASE_STEPS)
        rounds = Segment(ROUNDS_SEGMENT, {k: round_count(k) for k in sizes}, 1)
        program = Program(main=(rounds,), setup=(setup,))
        out = {}
        if self.options.has_encrypt:
            out[False] = program
        if self.options.has_decrypt:
            out[True] = program
        return out

    def elaborate(self, platform: object) -> Module:
        m = Module()
        ks = self.keys
        rounds = self.running(ROUNDS_SEGMENT)
        setup = self.running(SETUP)
        m.d.comb += [
            ks.key.eq(self.key), ks.key_len.eq(self.key_len), ks.load_key.eq(self.load_key),
            ks.setup.eq(setup), ks.setup_end.eq(setup & self.segment_end),
            ks.phase.eq(self.round[:4]), ks.step.eq(self.step[:3]),
            ks.rotate.eq(rounds), ks.decrypt.eq(self.decrypt),
            ks.load_block.eq(self.load_block), ks.last_round.eq(self.last_round),
        ]
        m.submodules.f = f = CastRoundFunction(self.adder)
        # The register holds R || L (swapped): the last round then leaves R16 || L16, the
        # ciphertext, with no output multiplexer; the block loads swapped for the same reason.
        state = Signal(64, reset_less=True)
        kind = Signal(3, reset_less=True)
        m.d.comb += [f.d.eq(state[32:]), f.km.eq(ks.km), f.kr.eq(ks.kr), f.kind.eq(kind),
                     self.block_out.eq(state)]
        with m.If(self.load_block):
            m.d.sync += [state.eq(Cat(self.block_in[32:], self.block_in[:32])),
                         kind.eq(self._first_kind(ks.short))]
        with m.Elif(rounds):
            m.d.sync += state.eq(Cat(state[32:], state[:32] ^ f.f))
            # Encryption goes 1 -> 2 -> 3 -> 1, decryption the other way round.
            m.d.sync += kind.eq(Mux(self.decrypt, kind.rotate_right(1), kind.rotate_left(1)))
        return m

    def _first_kind(self, short: Value) -> Value:
        """One-hot type of the block's first round: round 1 (type 1) for encryption; round R
        for decryption: type 1 for 16 rounds, type 3 for 12."""
        t16, t12 = 1 << (round_type(16) - 1), 1 << (round_type(12) - 1)
        dec = Mux(short, t12, t16)
        if not self.options.has_encrypt:
            return dec
        return Mux(self.decrypt, dec, 1 << (round_type(1) - 1))

    def describe(self) -> dict[str, object]:
        program = self.programs()[not self.options.has_encrypt]
        facts: dict[str, object] = {
            "adder": self.adder, "sbox": "table", "data_sboxes": 4, "key_schedule_sboxes": 4,
            "round_function": "ASX x4 (add-sub-xor, Sugawara Fig. 10) + barrel rotator",
            "round_keys": "ring of 16 (Km, Kr), filled once per key",
        }
        # Predicted cycle counts per round count (the measured ones must agree).
        for rounds in sorted({round_count(k) for k in self.options.key_sizes}):
            size = max(k for k in self.options.key_sizes if round_count(k) == rounds)
            facts[f"latency_{rounds}_rounds"] = program.latency(size)
            facts[f"key_setup_{rounds}_rounds"] = program.key_setup(size)
        return facts


class CastHardware(CipherHardware):
    name = "cast128"
    block_bits = 64
    round_key_bits = ROUND_KEY_BITS
    key_state_bits = RING_ENTRIES * ROUND_KEY_BITS
    # Decryption round r needs encryption round R+1-r's key: the Feistel layout (keyring.py).
    stored_decryption = "walk"
    # Only keys=loaded reaches the generic generators (the cipher's restricts): the ring never
    # travels with a block nor fills a memory inside a measured core.
    travelling_keys = False

    def __init__(self, options: CoreOptions) -> None:
        super().__init__(options)
        self.adder = options.extra.get("adder", "kogge-stone")
        if self.adder not in ADDER_KINDS:
            raise ValueError(f"adder={self.adder}")

    def rounds(self, key_bits: int) -> int:
        return round_count(key_bits)

    def datapath(self) -> RoundDatapath:
        return CastRound(self.adder, None)

    def unit_datapath(self, rounds: frozenset[int]) -> RoundDatapath:
        return CastRound(self.adder, self.unit_kinds(rounds))

    def unit_kinds(self, rounds: frozenset[int]) -> tuple[int | None, int | None] | None:
        """(encryption, decryption) type of a unit computing ``rounds`` (each direction counting
        its own), or None when a direction's rounds have several types: decryption round r is
        cipher round R+1-r, so in a core for 12- and 16-round keys it depends on the key."""
        counts = {round_count(k) for k in self.options.key_sizes}
        enc = {round_type(r) for r in rounds if r <= max(counts)}
        dec = {round_type(total + 1 - r) for r in rounds for total in counts if r <= total}
        enc = enc if self.options.has_encrypt else set()
        dec = dec if self.options.has_decrypt else set()
        if len(enc) > 1 or len(dec) > 1:
            return None
        return (min(enc) if enc else None, min(dec) if dec else None)

    def key_step(self, key_len_bits: int, step_bits: int) -> KeyStep:
        # The simulation harness's fill only (keyring.py): no measured core steps this ring.
        key_bits = max(self.options.key_sizes)
        return CastKeyRing(tuple(self.options.key_sizes), key_bits, key_len_bits, step_bits)

    def narrow_datapath(self, width: int, keys: str = "stored") -> NarrowDatapath:
        if width != 64:
            raise CipherbenchError(f"cast128 has a {64}-bit datapath only (one round per clock); "
                                   f"valid widths: 64")
        return CastLoop(self.options, self.adder)

    def describe(self) -> dict[str, object]:
        return {"adder": self.adder, "sbox": "table", "data_sboxes": 4,
                "round_function": "ASX x4 (add-sub-xor, Sugawara Fig. 10) + barrel rotator",
                "state": "output coordinates (R || L): no output multiplexer"}
