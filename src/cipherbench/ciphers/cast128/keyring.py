"""CAST-128's key step for the generic architectures: the ring of round keys, stepped one round.

CAST-128 cannot run its schedule one round per clock (hw.py), so the generic generators build it
only with ``keys=loaded``: the round keys come from outside, as Gaj & Chodowiec (4.1 b) measured
such cores. This KeyStep is that outside in simulation, the computation the simulation harness
(arch/loaded.py) runs to fill the core's round-key memory, never part of a measured core:

- ``loaded``: all 32 subkeys of RFC 2144 section 2.4 from the key in one combinational cone (the
  x/z register updates of model.py unrolled, 320 lookups into four shared S5-S8 ROMs), arranged as
  a ring of round keys;
- a step rotates the ring by one entry, forward or backward, wrapping at 12 entries for keys of 80
  bits or less and at 16 above.

Key state s is the ring turned so that its head is the key of round s (state 0: the head is round
R's key, then rounds 1 .. R-1; no round uses state 0's key, CAST has no whitening). The memory
layout is the Feistel one (``walk``): encryption round r gets ``rk_out`` of forward step r, the
head of state r; decryption round r gets ``rk_out`` of backward step r from state R+1-r, the head
of that step's input, round R+1-r's key.

A round key on the bus is (Km, Kr, type): the 32-bit masking key, the 5-bit rotation and the
round's f type one-hot (hw.py ``RK_*``), so a unit that computes rounds of several types (the loop
core, a ring pipeline, a decryption unit of a core for 12- and 16-round keys) reads its type there.
"""

from __future__ import annotations

from collections.abc import Callable

from amaranth.hdl import Cat, Const, Module, Mux, Signal, Value, unsigned
from amaranth.lib.memory import Memory

from ...arch.base import KeyStep
from . import model
from .model import _K_GROUPS, _X_FROM_Z, _X_MAIN_FROM_SOURCE, _Z_FROM_X, _Z_MAIN_FROM_SOURCE

RING_ENTRIES = 16
KM_BITS, KR_BITS, TYPE_BITS = 32, 5, 3
ROUND_KEY_BITS = KM_BITS + KR_BITS + TYPE_BITS
SHORT_KEY_BYTES = 10  # keys of 80 bits or less run 12 rounds (RFC 2144 section 2.5)

Lookup = Callable[[int, Value], Value]
# Names a value as a signal: Amaranth emits an expression again at every use, and each register
# word is read by the lines after it, so without a wire per word the cone grows exponentially.
Wire = Callable[[Value, str], Value]


def round_type(round_number: int) -> int:
    """Type (1, 2, 3) of round ``round_number`` (1-based, the cipher's own numbering)."""
    return (round_number - 1) % 3 + 1


def pack_round_key(km: Value, kr: Value, kind: int) -> Value:
    """The round-key bus word: Km in bits 0-31, Kr in 32-36, the one-hot type in 37-39."""
    return Cat(km, kr[:KR_BITS], Const(1 << (kind - 1), TYPE_BITS))


def _word(parts: list[Value]) -> Value:
    """Four bytes, the first the most significant, as a 32-bit word."""
    return Cat(*reversed(parts))


def _bytes_of(word: Value) -> list[Value]:
    return [word[24 - 8 * b:32 - 8 * b] for b in range(4)]


def _update(lookup: Lookup, wire: Wire, dest: list[Value], source: list[Value], lines: tuple,
            main_from_source: tuple[bool, ...], name: str) -> None:
    """One block of four register-update lines, on byte Values (model._update line by line)."""
    for (to, start, (a, b, c, d), box, extra), from_source in zip(lines, main_from_source):
        reg = source if from_source else dest
        word = (_word(source[start:start + 4]) ^ lookup(5, reg[a]) ^ lookup(6, reg[b])
                ^ lookup(7, reg[c]) ^ lookup(8, reg[d]) ^ lookup(box, source[extra]))
        dest[to:to + 4] = _bytes_of(wire(word, f"{name}_w{to // 4}"))


def _group(lookup: Lookup, wire: Wire, reg: list[Value], group: tuple,
           first: int) -> list[Value]:
    return [wire(lookup(5, reg[a]) ^ lookup(6, reg[b]) ^ lookup(7, reg[c]) ^ lookup(8, reg[d])
                 ^ lookup(5 + j, reg[e]), f"k{first + j}")
            for j, (a, b, c, d, e) in enumerate(group)]


def subkey_values(lookup: Lookup, wire: Wire, key_bytes: list[Value]) -> list[Value]:
    """K1..K32 of the zero-padded key (16 byte Values, the first the most significant)."""
    x = list(key_bytes)
    z: list[Value] = [Const(0, 8)] * 16
    keys: list[Value] = []
    for half in range(2):
        for g in range(4):
            # Groups 0 and 2 follow an update of z from x, groups 1 and 3 one of x from z.
            if g % 2 == 0:
                _update(lookup, wire, z, x, _Z_FROM_X, _Z_MAIN_FROM_SOURCE, f"z{half}{g}")
            else:
                _update(lookup, wire, x, z, _X_FROM_Z, _X_MAIN_FROM_SOURCE, f"x{half}{g}")
            keys += _group(lookup, wire, z if g % 2 == 0 else x, _K_GROUPS[g], len(keys) + 1)
    return keys


class CastKeyRing(KeyStep):
    """Load (the whole schedule) and one rotation of the ring (module docstring)."""

    def __init__(self, key_sizes: tuple[int, ...], key_bits: int, key_len_bits: int,
                 step_bits: int) -> None:
        self.key_sizes = key_sizes
        super().__init__(key_bits=key_bits, key_len_bits=key_len_bits,
                         state_bits=RING_ENTRIES * ROUND_KEY_BITS,
                         round_key_bits=ROUND_KEY_BITS, step_bits=step_bits)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        short = self._short(self.key_len)
        keys = subkey_values(self._rom_lookup(m), self._wire(m), self._key_bytes())
        # Round i's key: Km_i = K_i, Kr_i = K_{16+i}; the ring starts at round R's.
        entries = [pack_round_key(keys[i - 1], keys[15 + i], round_type(i))
                   for i in range(1, RING_ENTRIES + 1)]
        head = Mux(short, entries[11], entries[15])
        m.d.comb += self.loaded.eq(Cat(head, *entries[:RING_ENTRIES - 1]))
        ring = [self.state_in[ROUND_KEY_BITS * j:ROUND_KEY_BITS * (j + 1)]
                for j in range(RING_ENTRIES)]
        turned = Mux(self.backward, self._turn(ring, short, -1), self._turn(ring, short, 1))
        m.d.comb += [
            self.state_out.eq(turned),
            self.rk_in.eq(ring[0]),
            # Forward: the key of the state reached; backward: of the state left (module docstring).
            self.rk_out.eq(Mux(self.backward, ring[0], turned[:ROUND_KEY_BITS])),
        ]
        return m

    def _short(self, key_len: Value) -> Value:
        """Whether the key runs 12 rounds (a constant for a core of one key size)."""
        if len(self.key_sizes) == 1:
            return Const(int(self.key_sizes[0] <= 8 * SHORT_KEY_BYTES), 1)
        return key_len <= SHORT_KEY_BYTES

    def _key_bytes(self) -> list[Value]:
        """The key port's bytes, zero-padded to 16 (RFC 2144 section 2.5); a core for several
        key sizes masks the bytes beyond ``key_len`` (the port's don't-care bits)."""
        width = len(self.key)
        parts: list[Value] = []
        for index in range(16):
            if 8 * (index + 1) > width:
                parts.append(Const(0, 8))
                continue
            byte = self.key[width - 8 * (index + 1):width - 8 * index]
            parts.append(byte if len(self.key_sizes) == 1 else Mux(self.key_len > index, byte, 0))
        return parts

    @staticmethod
    def _turn(ring: list[Value], short: Value, by: int) -> Value:
        """The ring rotated one entry toward the head (``by`` = 1) or away from it (-1), over
        12 entries for a short key (entries 12-15 then carry nothing used) or all 16."""
        full = [ring[(j + by) % RING_ENTRIES] for j in range(RING_ENTRIES)]
        short_ring = [ring[(j + by) % 12] if j < 12 else ring[j] for j in range(RING_ENTRIES)]
        return Cat(*(Mux(short, s, f) for s, f in zip(short_ring, full)))

    @staticmethod
    def _wire(m: Module) -> Wire:
        def wire(value: Value, name: str) -> Value:
            signal = Signal(len(value), name=name)
            m.d.comb += signal.eq(value)
            return signal

        return wire

    @staticmethod
    def _rom_lookup(m: Module) -> Lookup:
        """One ROM per schedule S-box, a combinational read port per lookup: the 320 lookups
        compile to four arrays instead of 320 case statements."""
        roms: dict[int, Memory] = {}
        for box, table in ((5, model.S5), (6, model.S6), (7, model.S7), (8, model.S8)):
            roms[box] = Memory(shape=unsigned(32), depth=256, init=table)
            m.submodules[f"s{box}"] = roms[box]

        def lookup(box: int, index: Value) -> Value:
            port = roms[box].read_port(domain="comb")
            m.d.comb += port.addr.eq(index)
            return port.data

        return lookup
