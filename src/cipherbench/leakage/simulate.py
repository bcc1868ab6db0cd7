"""A cycle-based, bit-parallel simulation of a gate-level netlist over many traces at once.

Each net holds one bit per trace, packed 64 traces to a ``uint64`` word (trace ``t`` is bit
``t % 64`` of word ``t // 64``). A clock is: the inputs the stimulus gives for it are applied
(ports it does not mention keep their previous values; everything starts at 0), the gates are
evaluated in order (zero delay: every net settles to its final value), the samples are taken,
then every register takes its next value (the clock edge).

Samples, per trace and clock:

- **power**: the zero-delay switching of the chosen nets between the previous clock and this one,
  i.e. the Hamming distance of their settled values, each net optionally weighted (by its fanout,
  a stand-in for its load capacitance). Before clock 0 every net is taken as 0.
- **recorded values**: the settled values of chosen nets at chosen clocks (for the probing check).

Two back ends compute the same thing bit for bit (tests/test_leakage_sim.py checks it):
``numpy`` (levelized, vectorized over the gates of each level and kind) and ``native`` (C
generated from the netlist and compiled once, leakage/native.py), which is much faster
(BENCHMARKS.md, "Leakage simulation"); ``auto`` takes the native one when a C++ compiler is
installed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import CipherbenchError
from .native import compile_netlist, compiler_or_none, run_native
from .netlist import CONST1, Netlist
from .stimulus import ALL_ONES, Stimulus, clock_events, unpack, words_for

BACKENDS = ("auto", "numpy", "native")


@dataclass
class Traces:
    """What a run sampled. ``power``: (traces, clocks) int32, or None when no net was chosen;
    ``recorded``: (len(record_clocks), len(record_nets), words) uint64, packed like the nets."""

    count: int
    clocks: int
    power: np.ndarray | None
    record_nets: tuple[int, ...]
    record_clocks: tuple[int, ...]
    recorded: np.ndarray | None

    def bits(self, clock: int) -> np.ndarray:
        """The recorded nets at ``clock``: a (len(record_nets), traces) uint8 array of 0/1."""
        if self.recorded is None or clock not in self.record_clocks:
            raise KeyError(f"clock {clock} was not recorded")
        slot = self.record_clocks.index(clock)
        return unpack(self.recorded[slot], self.count)

    def value(self, net: int, clock: int) -> np.ndarray:
        """One recorded net at ``clock``, per trace (0/1 as uint8)."""
        return self.bits(clock)[self.record_nets.index(net)]


def power_weights(netlist: Netlist, nets: Sequence[int], weights: str | Sequence[int]) -> list[int]:
    """Each power net's weight: 1 (``"unit"``), its fanout (``"fanout"``, at least 1), or given."""
    if weights == "unit":
        return [1] * len(nets)
    if weights == "fanout":
        fanout = netlist.fanouts()
        return [max(1, fanout[n]) for n in nets]
    if isinstance(weights, str):
        raise CipherbenchError(f"power weights {weights!r} must be 'unit', 'fanout' or a list")
    given = [int(w) for w in weights]
    if len(given) != len(nets) or min(given, default=1) < 0:
        raise CipherbenchError("power weights must be one non-negative int per power net")
    return given


def weight_bit_groups(nets: Sequence[int], weights: Sequence[int]) -> list[tuple[int, list[int]]]:
    """(bit j, positions of the nets whose weight has bit j): the weighted sum is
    sum_j 2^j * (toggles among group j), so every group is a plain count."""
    groups = []
    for bit in range(max(weights, default=0).bit_length()):
        members = [i for i, w in enumerate(weights) if w >> bit & 1]
        if members:
            groups.append((bit, members))
    return groups


class TraceSimulator:
    """A netlist ready to simulate over many traces at once, sampling each trace's power (and
    recording chosen nets) every clock. ``power_nets``: the nets whose switching makes the power
    sample (None: every design net, ``[]``: none); ``weights``: ``"unit"``, ``"fanout"`` or one
    int per power net; ``backend``: BACKENDS."""

    def __init__(self, netlist: Netlist, power_nets: Sequence[int] | None = None,
                 weights: str | Sequence[int] = "unit", backend: str = "auto"):
        if backend not in BACKENDS:
            raise CipherbenchError(f"simulator backend {backend!r} must be one of "
                                   f"{', '.join(BACKENDS)}")
        self.netlist = netlist
        self.power_nets = list(netlist.design_nets() if power_nets is None else power_nets)
        self.weights = power_weights(netlist, self.power_nets, weights)
        self.groups = weight_bit_groups(self.power_nets, self.weights)
        self.backend = choose_backend(backend)
        self._native = None

    def run(self, count: int, clocks: int, stimulus: Stimulus, record_nets: Sequence[int] = (),
            record_clocks: Sequence[int] = (), threads: int = 1) -> Traces:
        """Simulate ``count`` traces for ``clocks`` clocks. ``threads``: native back end only,
        how many threads share the traces."""
        if count < 1 or clocks < 1:
            raise CipherbenchError("a simulation needs at least one trace and one clock")
        record_clocks = tuple(sorted(set(int(c) for c in record_clocks)))
        if record_clocks and not 0 <= record_clocks[0] <= record_clocks[-1] < clocks:
            raise CipherbenchError(f"recorded clocks must be within 0..{clocks - 1}")
        record_nets = tuple(int(n) for n in record_nets)
        if self.backend == "native":
            if self._native is None:
                self._native = compile_netlist(self.netlist)
            power, recorded = run_native(self, self._native, count, clocks, stimulus, record_nets,
                                         record_clocks, threads)
        else:
            power, recorded = _run_numpy(self, count, clocks, stimulus, record_nets,
                                         record_clocks)
        return Traces(count, clocks, power, record_nets, record_clocks, recorded)


def choose_backend(requested: str) -> str:
    """``requested``, or for "auto" the native back end where a C++ compiler is installed."""
    if requested != "auto":
        return requested
    return "native" if compiler_or_none() else "numpy"


# ---- the numpy back end ----------------------------------------------------------------------

def _mux(a: np.ndarray, b: np.ndarray, s: np.ndarray) -> np.ndarray:
    return a ^ ((a ^ b) & s)


NUMPY_GATES: dict[str, Callable[..., np.ndarray]] = {
    "$_BUF_": lambda a: a, "$_NOT_": lambda a: ~a,
    "$_AND_": lambda a, b: a & b, "$_NAND_": lambda a, b: ~(a & b),
    "$_OR_": lambda a, b: a | b, "$_NOR_": lambda a, b: ~(a | b),
    "$_XOR_": lambda a, b: a ^ b, "$_XNOR_": lambda a, b: ~(a ^ b),
    "$_ANDNOT_": lambda a, b: a & ~b, "$_ORNOT_": lambda a, b: a | ~b,
    "$_MUX_": _mux, "$_NMUX_": lambda a, b, s: ~_mux(a, b, s),
    "$_AOI3_": lambda a, b, c: ~((a & b) | c), "$_OAI3_": lambda a, b, c: ~((a | b) & c),
    "$_AOI4_": lambda a, b, c, d: ~((a & b) | (c & d)),
    "$_OAI4_": lambda a, b, c, d: ~((a | b) & (c | d)),
}


def gate_groups(netlist: Netlist) -> list[tuple[str, np.ndarray, tuple[np.ndarray, ...]]]:
    """(kind, outputs, inputs per pin) for the gates of each level and kind, levels in order:
    gates of one level do not depend on each other, so each group is one vectorized step."""
    grouped: dict[tuple[int, str], list] = {}
    for gate in netlist.gates:
        grouped.setdefault((gate.level, gate.kind), []).append(gate)
    groups = []
    for (_, kind), gates in sorted(grouped.items()):
        outputs = np.array([g.output for g in gates], dtype=np.int64)
        pins = tuple(np.array([g.inputs[p] for g in gates], dtype=np.int64)
                     for p in range(len(gates[0].inputs)))
        groups.append((kind, outputs, pins))
    return groups


def column_counts(planes: np.ndarray, count: int) -> np.ndarray:
    """How many of the rows have each trace's bit set: (rows, words) -> (count,) int32.
    A tree of bit-sliced adders: pairs of rows are added into rows of 2-bit numbers, those
    into 3-bit numbers, ..., all vectorized over the rows and words."""
    numbers = planes[None]  # (bits, rows, words)
    while numbers.shape[1] > 1:
        if numbers.shape[1] % 2:
            pad = np.zeros((numbers.shape[0], 1, numbers.shape[2]), dtype=np.uint64)
            numbers = np.concatenate([numbers, pad], axis=1)
        numbers = _bitsliced_add(numbers[:, 0::2], numbers[:, 1::2])
    total = np.zeros(count, dtype=np.int32)
    for bit, plane in enumerate(numbers[:, 0]):
        total += unpack(plane, count).astype(np.int32) << bit
    return total


def _bitsliced_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    bits = a.shape[0]
    out = np.empty((bits + 1, *a.shape[1:]), dtype=np.uint64)
    carry = np.zeros(a.shape[1:], dtype=np.uint64)
    for i in range(bits):
        half = a[i] ^ b[i]
        out[i] = half ^ carry
        carry = (a[i] & b[i]) | (carry & half)
    out[bits] = carry
    return out


def _run_numpy(sim: TraceSimulator, count: int, clocks: int, stimulus: Stimulus,
               record_nets: tuple[int, ...],
               record_clocks: tuple[int, ...]) -> tuple[np.ndarray | None, np.ndarray | None]:
    netlist = sim.netlist
    words = words_for(count)
    values = np.zeros((netlist.net_count, words), dtype=np.uint64)
    values[CONST1] = ALL_ONES
    states = np.array([r.state for r in netlist.registers], dtype=np.int64)
    nexts = np.array([r.next for r in netlist.registers], dtype=np.int64)
    values[states] = np.array([ALL_ONES if r.init else 0 for r in netlist.registers],
                              dtype=np.uint64)[:, None]
    groups = gate_groups(netlist)
    power_nets = np.array(sim.power_nets, dtype=np.int64)
    previous = np.zeros((len(power_nets), words), dtype=np.uint64)
    power = np.zeros((count, clocks), dtype=np.int32) if len(power_nets) else None
    recorded = (np.zeros((len(record_clocks), len(record_nets), words), dtype=np.uint64)
                if record_clocks and record_nets else None)
    record_index = np.array(record_nets, dtype=np.int64)
    for clock in range(clocks):
        for event in clock_events(netlist, stimulus, clock, count, words):
            values[event.nets] = event.planes
        for kind, outputs, pins in groups:
            values[outputs] = NUMPY_GATES[kind](*(values[p] for p in pins))
        if power is not None:
            now = values[power_nets]
            toggles = now ^ previous
            previous = now
            sample = np.zeros(count, dtype=np.int32)
            for bit, members in sim.groups:
                rows = toggles if len(members) == len(power_nets) else toggles[members]
                sample += column_counts(rows, count) << bit
            power[:, clock] = sample
        if recorded is not None and clock in record_clocks:
            recorded[record_clocks.index(clock)] = values[record_index]
        if len(states):
            values[states] = values[nexts]
    return power, recorded
