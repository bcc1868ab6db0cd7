"""First-order glitch-extended probing evaluation in simulation.

The robust probing model with glitches (Faust et al., "Composable masking schemes in the
presence of physical defaults", 2018): a probe on a wire observes, through the glitches of the
combinational logic in front of it, every *stable* signal in that logic's fan-in: the register
outputs and primary inputs (the randomness inputs too) its combinational cone reaches, up to and
not through registers. First order: one probe at a time. A design is first-order secure in the
model if no probe's observation depends on the secret.

The evaluation (as PROLEAD does it, Mueller and Moradi 2022): for each probed wire and clock of
interest, the joint value of its extended probe's signals is recorded on every trace of a
fixed-versus-random campaign, and the distributions of that value in the two groups are
compared with a G-test of independence on the contingency table (groups x values). A leak is
-log10(p) above the threshold, 5 by default (PROLEAD's): with a few hundred tests, a secure
design then shows a false leak with a probability of about 1e-3.

Many wires share one extended probe (every gate between the same registers); the test is run
once per distinct set of observed signals and clock, and the result names all its wires. A wide
extended probe has up to 2^k joint values: those up to DENSE_BITS bits are counted in a table,
wider ones keyed by their value (hashed to 64 bits beyond 64 signals; a collision between two of
a million values has a probability of about 3e-8). When values are sparse, i.e. most are seen a
few times, the test loses its power: rare values are pooled (stats.pool_rare) and a test where
most traces fell into rare values says so (``sparse``); more traces are the only remedy.

Options: ``glitches=False`` observes each wire's own value (the plain probing model, for
comparison: a missing register between domains passes it), ``transitions=True`` adds the
observed signals' values at the previous clock (a register overwritten, or a wire's two
consecutive values, combining two shares).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..errors import CipherbenchError
from .netlist import CONST0, CONST1, Netlist
from .simulate import Traces
from .stats import chi2_minus_log10_sf, g_statistic, pool_rare

THRESHOLD = 5.0
DENSE_BITS = 12
MIN_COUNT = 10  # a value seen fewer times than this (both groups) is pooled: ~5 expected per cell


@dataclass(frozen=True)
class ProbeSelection:
    """Which wires are probed, and when. ``scope``: an instance path (``"u_sbox"``, its
    sub-instances included) or a module name (all its instances); "" the whole design.
    ``nets``: explicit nets instead. ``clocks``: the clocks of interest (None: every clock)."""

    scope: str = ""
    nets: tuple[int, ...] | None = None
    clocks: tuple[int, ...] | None = None
    glitches: bool = True
    transitions: bool = False

    def wires(self, netlist: Netlist) -> list[int]:
        wires = list(self.nets) if self.nets is not None else netlist.in_scope(self.scope)
        if not wires:
            raise CipherbenchError(f"no wires to probe in {self.scope or netlist.top!r}: "
                                   f"name an instance path or module of {netlist.top} "
                                   f"(instances: {', '.join(sorted(netlist.modules)) or 'none'})")
        return wires


def stable_supports(netlist: Netlist) -> dict[int, int]:
    """For every net, the stable signals in its combinational fan-in as a bitset (a Python int,
    bit i for ``stable_nets()[i]``); constants are left out (they carry nothing)."""
    stable = [n for n in netlist.stable_nets() if n not in (CONST0, CONST1)]
    support = {n: 1 << i for i, n in enumerate(stable)}
    support[CONST0] = support[CONST1] = 0
    for gate in netlist.gates:
        bits = 0
        for n in gate.inputs:
            bits |= support.get(n, 0)
        support[gate.output] = bits
    return support


def extended_probes(netlist: Netlist, wires: Sequence[int], glitches: bool = True
                    ) -> dict[tuple[int, ...], list[int]]:
    """Observed nets -> the wires whose probe observes exactly them. With glitches, a wire
    observes the stable signals of its cone; without, its own value."""
    if not glitches:
        return {(w,): [w] for w in wires}
    stable = [n for n in netlist.stable_nets() if n not in (CONST0, CONST1)]
    supports = stable_supports(netlist)
    groups: dict[int, list[int]] = {}
    for wire in wires:
        groups.setdefault(supports.get(wire, 0), []).append(wire)
    probes = {}
    for bits, members in groups.items():
        observed = tuple(stable[i] for i in range(bits.bit_length()) if bits >> i & 1)
        if observed:  # a wire driven by constants only observes nothing
            probes[observed] = members
    return probes


@dataclass
class _Table:
    """Counts of observed values per group: dense (2, 2^k) or sparse (sorted keys, (K, 2))."""

    bits: int
    dense: np.ndarray | None = None
    keys: np.ndarray | None = None
    counts: np.ndarray | None = None

    def add(self, keys: np.ndarray, random_group: np.ndarray) -> None:
        group = random_group.astype(np.int64)
        if self.bits <= DENSE_BITS:
            size = 1 << self.bits
            found = np.bincount(group * size + keys.astype(np.int64), minlength=2 * size)
            self.dense = found.reshape(2, size) + (0 if self.dense is None else self.dense)
            return
        batch_keys, inverse = np.unique(keys, return_inverse=True)
        batch_counts = np.bincount(inverse * 2 + group, minlength=2 * len(batch_keys))
        batch_counts = batch_counts.reshape(-1, 2)
        if self.keys is None:
            self.keys, self.counts = batch_keys, batch_counts
            return
        merged, where = np.unique(np.concatenate([self.keys, batch_keys]), return_inverse=True)
        counts = np.zeros((len(merged), 2), dtype=np.int64)
        np.add.at(counts, where, np.concatenate([self.counts, batch_counts]))
        self.keys, self.counts = merged, counts

    def table(self) -> np.ndarray:
        """(2, values seen) counts."""
        if self.dense is not None:
            return self.dense[:, self.dense.sum(axis=0) > 0]
        if self.counts is not None:
            return self.counts.T
        return np.zeros((2, 0), dtype=np.int64)


@dataclass
class ProbeTest:
    """One extended probe at one clock: what it observes, its wires, the test's outcome."""

    clock: int
    observed: list[str]          # the signals observed ("name@-1": at the previous clock)
    wires: list[str]             # the probed wires that observe exactly these
    values_seen: int             # distinct joint values over all traces
    values_tested: int           # columns of the table after pooling rare values
    dropped: int                 # observations in rare values left out of the test
    g: float
    df: int
    minus_log10_p: float
    sparse: bool                 # most traces fell into rare values: the test has little power


@dataclass
class ProbingResult:
    """The outcome of a probing evaluation; JSON with to_json / from_json."""

    traces_fixed: int
    traces_random: int
    glitches: bool
    transitions: bool
    tests: list[ProbeTest]       # sorted, strongest evidence first
    threshold: float = THRESHOLD

    @property
    def traces(self) -> int:
        return self.traces_fixed + self.traces_random

    @property
    def worst(self) -> ProbeTest | None:
        return self.tests[0] if self.tests else None

    @property
    def leaks(self) -> bool:
        return bool(self.tests) and self.tests[0].minus_log10_p > self.threshold

    def leaking(self) -> list[ProbeTest]:
        return [t for t in self.tests if t.minus_log10_p > self.threshold]

    def summary(self) -> str:
        model = "glitch-extended" if self.glitches else "plain"
        model += " + transitions" if self.transitions else ""
        head = (f"probing ({model}, first order): {'LEAKS' if self.leaks else 'passes'}: "
                f"{len(self.leaking())} of {len(self.tests)} tests above -log10(p) = "
                f"{self.threshold}, {self.traces} traces")
        sparse = sum(t.sparse for t in self.tests)
        if sparse:
            head += f"; {sparse} tests too sparse to have much power"
        worst = self.worst
        if worst is None:
            return head
        wires = ", ".join(worst.wires[:3]) + (f" (+{len(worst.wires) - 3})" if len(worst.wires) > 3 else "")
        return (f"{head}; worst -log10(p) = {worst.minus_log10_p:.1f} at clock {worst.clock} on "
                f"{wires}, observing {', '.join(worst.observed)} ({worst.values_seen} values)")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["leaks"] = self.leaks
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> ProbingResult:
        data = json.loads(text)
        data.pop("leaks", None)
        data["tests"] = [ProbeTest(**t) for t in data["tests"]]
        return cls(**data)


@dataclass
class _Probe:
    observed: tuple[int, ...]   # the nets it observes
    wires: list[int]


class Probing:
    """The online evaluation: tell the simulator ``record_nets``/``record_clocks``, ``add`` each
    batch's traces, ``result()`` at any time."""

    def __init__(self, netlist: Netlist, selection: ProbeSelection, clocks: int,
                 threshold: float = THRESHOLD, min_count: int = MIN_COUNT):
        self.netlist, self.selection, self.threshold = netlist, selection, threshold
        self.min_count = min_count
        wires = selection.wires(netlist)
        self.clocks = tuple(range(clocks)) if selection.clocks is None else tuple(selection.clocks)
        if any(not 0 <= c < clocks for c in self.clocks):
            raise CipherbenchError(f"probed clocks must be within 0..{clocks - 1}")
        self.probes = [_Probe(observed, members)
                       for observed, members in
                       extended_probes(netlist, wires, selection.glitches).items()]
        self.record_nets = tuple(sorted({n for p in self.probes for n in p.observed}))
        self._row = {n: i for i, n in enumerate(self.record_nets)}
        previous = {c - 1 for c in self.clocks if c > 0} if selection.transitions else set()
        self.record_clocks = tuple(sorted(set(self.clocks) | previous))
        self.tables: dict[tuple[int, int], _Table] = {}
        self.count = np.zeros(2, dtype=np.int64)

    def _columns(self, probe: _Probe, clock: int) -> list[tuple[int, int]]:
        """(row, clock) of each observed bit of ``probe`` at ``clock``."""
        columns = [(self._row[n], clock) for n in probe.observed]
        if self.selection.transitions and clock > 0:
            columns += [(self._row[n], clock - 1) for n in probe.observed]
        return columns

    def add(self, traces: Traces, random_group: np.ndarray) -> None:
        self.count += [int((~random_group).sum()), int(random_group.sum())]
        if not self.probes:  # every selected wire is a constant: nothing to observe
            return
        if traces.record_nets != self.record_nets:
            raise CipherbenchError("the traces did not record the probed nets (record_nets)")
        bits = {c: traces.bits(c) for c in self.record_clocks}
        for clock in self.clocks:
            for index, probe in enumerate(self.probes):
                columns = self._columns(probe, clock)
                keys = _joint_keys([bits[c][row] for row, c in columns])
                table = self.tables.get((index, clock))
                if table is None:
                    table = self.tables[(index, clock)] = _Table(len(columns))
                table.add(keys, random_group)

    def result(self) -> ProbingResult:
        names = self.netlist.names
        tests = []
        for (index, clock), table in self.tables.items():
            probe = self.probes[index]
            counts = table.table()
            pooled, dropped = pool_rare(counts, self.min_count)
            g, df = g_statistic(pooled)
            rare = int(counts[:, counts.sum(axis=0) < self.min_count].sum())
            observed = [names[n] for n in probe.observed]
            if self.selection.transitions and clock > 0:
                observed += [f"{names[n]}@-1" for n in probe.observed]
            tests.append(ProbeTest(
                clock=clock, observed=observed, wires=[names[w] for w in probe.wires],
                values_seen=int(counts.shape[1]), values_tested=int(pooled.shape[1]),
                dropped=dropped, g=g, df=df, minus_log10_p=chi2_minus_log10_sf(g, df),
                sparse=2 * rare > int(counts.sum())))
        tests.sort(key=lambda t: (-t.minus_log10_p, t.clock, t.wires))
        return ProbingResult(int(self.count[0]), int(self.count[1]), self.selection.glitches,
                             self.selection.transitions, tests, self.threshold)


def _joint_keys(rows: list[np.ndarray]) -> np.ndarray:
    """Each trace's joint value of the observed bits: exact up to 64 bits, else a 64-bit hash
    of the 64-bit chunks."""
    count = rows[0].shape[0]
    chunks = []
    for start in range(0, len(rows), 64):
        key = np.zeros(count, dtype=np.uint64)
        for i, row in enumerate(rows[start:start + 64]):
            key |= row.astype(np.uint64) << np.uint64(i)
        chunks.append(key)
    if len(chunks) == 1:
        return chunks[0]
    hashed = np.zeros(count, dtype=np.uint64)
    for chunk in chunks:
        hashed = _mix64(hashed ^ chunk)
    return hashed


def _mix64(x: np.ndarray) -> np.ndarray:
    """A 64-bit finalizer (splitmix64's): every input bit affects every output bit."""
    with np.errstate(over="ignore"):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))
