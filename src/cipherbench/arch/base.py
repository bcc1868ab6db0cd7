"""What a cipher's hardware description gives the architecture generators.

A cipher describes one round of its datapath and one step of its key schedule, as combinational
Elaboratables; an architecture decides how many of them to instantiate and where the registers go.
Nothing here, nor in any generator, knows which cipher it is building.

Round keys are produced on the fly by a key schedule that is a register ("key state") updated by one
step per round, forward for encryption and backward for decryption (AES, Serpent, DES, Camellia...
have invertible schedules). Round r (1..R) of encryption uses the step from key state r-1 to r; round
r of decryption uses the backward step from key state R-r+1 to R-r. Whitening before round 1 uses the
round key of the starting key state.

Inner-round pipelining (Gaj & Chodowiec section 3.3 c): a cipher may name the sub-round steps of its
round (``round_steps``) and build a round with register cuts between them (``cut_datapath``) and a
key step spread over the same number of register-separated segments (``segmented_key_step``). A
cut element registers only its own intermediate values; every other input (round key, decrypt,
last, key state, step index) is given per segment by the architecture, which carries those values
alongside the block anyway. Ciphers that name no steps get ``cuts`` empty, and nothing changes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from typing import TYPE_CHECKING

from amaranth.hdl import Elaboratable, Module, Signal, Value

if TYPE_CHECKING:
    from .keytables import KeyTables, TableEntry


DIRECTIONS = ("both", "encrypt", "decrypt")


@dataclass(frozen=True)
class CoreOptions:
    """Cipher-level choices every architecture passes through to the cipher's description."""

    key_sizes: tuple[int, ...]
    directions: str = "both"
    extra: dict[str, str] = field(default_factory=dict)  # cipher-specific (e.g. sbox kind)

    @property
    def has_encrypt(self) -> bool:
        return self.directions in ("both", "encrypt")

    @property
    def has_decrypt(self) -> bool:
        return self.directions in ("both", "decrypt")


class RoundDatapath(Elaboratable):
    """One round, combinational. The architecture drives the inputs and registers ``state_out``.

    ``first``: the round input is the whitened ``block_in`` (whitening with ``rk_white``) instead of
    ``state_in``. ``last``: this is round R (ciphers drop or change steps there).

    ``cuts`` (inner-round pipelining): boundaries b (1 <= b < len(round_steps)) with a register
    before step b, enabled by ``enable``. Segment g (0..len(cuts)) is the logic between cut g-1 and
    cut g; ``block_in``, ``state_in``, ``first`` and ``rk_white`` belong to segment 0, and
    ``seg_rk[g]``, ``seg_decrypt[g]``, ``seg_last[g]`` give the round key and flags of the block in
    segment g (index 0 is ``rk``, ``decrypt``, ``last``). ``state_out`` is the combinational output of
    the last segment.

    ``table_reads``: reads of the cipher's key-dependent tables (arch/keytables.py), declared in
    the constructor with ``table_read``; the architecture gives each a read port of the tables'
    once-per-key fill.
    """

    def __init__(self, block_bits: int, round_key_bits: int, cuts: tuple[int, ...] = ()) -> None:
        self.block_in = Signal(block_bits)
        self.state_in = Signal(block_bits)
        self.first = Signal()
        self.last = Signal()
        self.decrypt = Signal()
        self.rk_white = Signal(round_key_bits)
        self.rk = Signal(round_key_bits)
        self.state_out = Signal(block_bits)
        self.cuts = tuple(sorted(set(cuts)))
        self.enable = Signal(init=1)
        self.table_reads: list[tuple[int, Signal, Signal]] = []
        later = range(1, len(self.cuts) + 1)
        self.seg_rk = [self.rk] + [Signal(round_key_bits, name=f"seg{g}_rk") for g in later]
        self.seg_decrypt = [self.decrypt] + [Signal(name=f"seg{g}_decrypt") for g in later]
        self.seg_last = [self.last] + [Signal(name=f"seg{g}_last") for g in later]

    def table_read(self, tables: KeyTables, lane: int, name: str) -> tuple[Signal, Signal]:
        """Declare a read of key-table lane ``lane``: (address the round drives, data it reads)."""
        port = (Signal(range(tables.entries), name=f"{name}_addr"),
                Signal(tables.lane_bits, name=f"{name}_data"))
        self.table_reads.append((lane, *port))
        return port

    def segment_of(self, step: int) -> int:
        """The segment that computes sub-round step ``step``."""
        return sum(1 for cut in self.cuts if cut <= step)


class KeyStep(Elaboratable):
    """Load and one step of the key schedule, combinational.

    ``loaded``: the key state for encryption, from the ``key`` port (left-aligned) and ``key_len``.
    ``state_out``: the key state after one step from ``state_in`` (``backward``: the step inverse),
    using step index ``step``. ``rk_in``/``rk_out``: round keys of ``state_in``/``state_out``.

    ``segments`` > 1 (inner-round pipelining): the step is spread over that many segments separated
    by registers enabled by ``enable``; ``seg_state[g]``, ``seg_step[g]``, ``seg_backward[g]`` and
    ``seg_key_len[g]`` are the key state and controls of the block in segment g (index 0 is
    ``state_in``, ``step``, ``backward``, ``key_len``), ``seg_rk[g]`` the round key of
    ``seg_state[g]``, and ``state_out`` the combinational output of the last segment.
    """

    def __init__(self, key_bits: int, key_len_bits: int, state_bits: int, round_key_bits: int,
                 step_bits: int, segments: int = 1) -> None:
        self.key = Signal(key_bits)
        self.key_len = Signal(key_len_bits)
        self.loaded = Signal(state_bits)
        self.state_in = Signal(state_bits)
        self.step = Signal(step_bits)
        self.backward = Signal()
        self.state_out = Signal(state_bits)
        self.rk_in = Signal(round_key_bits)
        self.rk_out = Signal(round_key_bits)
        self.segments = segments
        self.enable = Signal(init=1)
        later = range(1, segments)
        self.seg_state = [self.state_in] + [Signal(state_bits, name=f"seg{g}_state") for g in later]
        self.seg_step = [self.step] + [Signal(step_bits, name=f"seg{g}_step") for g in later]
        self.seg_backward = [self.backward] + [Signal(name=f"seg{g}_backward") for g in later]
        self.seg_key_len = [self.key_len] + [Signal(key_len_bits, name=f"seg{g}_key_len")
                                             for g in later]
        self.seg_rk = [self.rk_in] + [Signal(round_key_bits, name=f"seg{g}_rk") for g in later]


class CipherHardware(ABC):
    """A cipher's hardware description for a given set of core options."""

    name: str
    block_bits: int
    round_key_bits: int
    key_state_bits: int
    # What a round-key memory (keys=stored, arch/keymem.py) holds for decryption: "mirror", the
    # encryption entries read in reverse (AES-like: R+1 round keys, whitening at both ends); or
    # "walk", the round keys of the backward on-the-fly walk stored beside them (Feistel
    # schedules, whose decryption round r needs encryption round R+1-r's key).
    stored_decryption: str = "mirror"
    # Whether the pipelined architecture's travelling keys (keys=fly: decryption from forward key
    # states R-1 and R, then backward steps) give this cipher's decryption round keys.
    travelling_keys: bool = True

    def __init__(self, options: CoreOptions) -> None:
        self.options = options

    @abstractmethod
    def rounds(self, key_bits: int) -> int:
        """Number of rounds R for a key size."""

    @abstractmethod
    def datapath(self) -> RoundDatapath:
        """A fresh round datapath instance."""

    def unit_datapath(self, rounds: frozenset[int]) -> RoundDatapath:
        """A round datapath for a unit that only ever computes rounds ``rounds`` (1..R, each
        direction counting its own rounds): a pipeline stage or an unrolled unit. A cipher whose
        round has several kinds may leave out the kinds those rounds never run; by default the
        general round."""
        return self.datapath()

    @abstractmethod
    def key_step(self, key_len_bits: int, step_bits: int) -> KeyStep:
        """A fresh key-schedule step instance."""

    def key_len_code(self, key_bits: int) -> int:
        """The value of the ``key_len`` port for a key size: its length in bytes."""
        return key_bits // 8

    def describe(self) -> dict[str, object]:
        """Structural facts for the manifest (S-box kind, counts of components, ...)."""
        return {}

    def key_tables(self) -> KeyTables | None:
        """Key-dependent tables the rounds read, filled once per key (arch/keytables.py); None
        (the default) for none."""
        return None

    def table_entry(self, key_len_bits: int) -> TableEntry:
        """The seed and one entry of ``key_tables()`` (only ciphers with tables override this)."""
        raise NotImplementedError(f"{self.name} has no key tables")

    def narrow_datapath(self, width: int, keys: str = "rewind") -> Elaboratable:
        """The datapath of the narrow architecture at ``width`` bits per clock (an
        arch.narrow.NarrowDatapath; ``keys``: see arch/narrow.py); ciphers that have narrow
        datapaths override this."""
        from ..errors import CipherbenchError

        raise CipherbenchError(f"{self.name} has no {width}-bit datapath; valid widths: none")

    # -- inner-round pipelining (optional; the defaults allow no cuts)

    def round_steps(self) -> tuple[str, ...]:
        """Names of the round's sub-round steps, in order; register cuts go between them."""
        return ("round",)

    def round_cuts(self, inner: int) -> tuple[int, ...]:
        """The step boundaries that get a register for ``inner`` cuts: evenly spaced by default;
        a cipher overrides this with a placement balanced on its measured critical path."""
        boundaries = len(self.round_steps()) - 1
        if not 0 <= inner <= boundaries:
            raise ValueError(f"{self.name}: {inner} cuts, but its round has {boundaries} "
                             "step boundaries")
        steps = boundaries + 1
        return tuple(sorted({round(steps * (i + 1) / (inner + 1)) for i in range(inner)}))

    def cut_datapath(self, cuts: tuple[int, ...]) -> RoundDatapath:
        """A round with registers at ``cuts`` (only ciphers that name sub-round steps take any)."""
        if cuts:
            raise ValueError(f"{self.name}: the round names no sub-round steps to cut between")
        return self.datapath()

    def segmented_key_step(self, key_len_bits: int, step_bits: int, segments: int) -> KeyStep:
        """A key step spread over ``segments``; by default the whole step runs in the last segment
        and the earlier ones only read round keys (see LastSegmentKeyStep)."""
        if segments == 1:
            return self.key_step(key_len_bits, step_bits)
        return LastSegmentKeyStep(self, key_len_bits, step_bits, segments)


class LastSegmentKeyStep(KeyStep):
    """Any cipher's key step in a segmented round: the step itself in the last segment, from the
    key state the architecture carries there, and in every segment the round key of its state.
    The unused logic of the per-segment instances (only their ``rk_in`` is read) synthesizes away."""

    def __init__(self, hw: CipherHardware, key_len_bits: int, step_bits: int,
                 segments: int) -> None:
        self.inner = [hw.key_step(key_len_bits, step_bits) for _ in range(segments)]
        first = self.inner[0]
        super().__init__(len(first.key), key_len_bits, len(first.state_in), len(first.rk_in),
                         step_bits, segments)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        for g, step in enumerate(self.inner):
            m.submodules[f"step{g}"] = step
            m.d.comb += [
                step.key.eq(self.key), step.key_len.eq(self.seg_key_len[g]),
                step.state_in.eq(self.seg_state[g]), step.step.eq(self.seg_step[g]),
                step.backward.eq(self.seg_backward[g]), self.seg_rk[g].eq(step.rk_in),
            ]
        last = self.inner[-1]
        m.d.comb += [self.loaded.eq(self.inner[0].loaded), self.state_out.eq(last.state_out),
                     self.rk_out.eq(last.rk_out)]
        return m


def bits_for(count: int) -> int:
    """Bits needed to count 0..count."""
    return max(1, count.bit_length())


def select_by_key_len(key_len: Value, options: dict[int, Value], code_of: dict[int, int]) -> Value:
    """A multiplexer on key_len over per-key-size values (the first size is the default)."""
    from amaranth.hdl import Mux

    sizes = sorted(options)
    result: Value = options[sizes[0]]
    for size in sizes[1:]:
        result = Mux(key_len == code_of[size], options[size], result)
    return result
