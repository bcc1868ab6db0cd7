"""How a masked design's inputs are driven in a fixed-versus-random campaign.

The caller names the secrets and says which ports carry them and how; the driver, for each batch
of traces, draws every trace's group (fixed or random, a seeded coin per trace, interleaved as
TVLA prescribes), gives each secret its fixed value in the fixed group and a uniformly random one
in the random group, and turns the caller's schedule into the simulator's stimulus:

- a **shared input** (``shares={"a": ("a0", "a1")}``: a logical value entering as d+1 shares on
  d+1 ports) is shared afresh whenever the schedule gives it a value: shares 0..d-1 uniformly
  random, share d the XOR of the value and the others. Between two values its shares are held.
- a **randomness port** (``randomness=("r",)``) gets fresh uniform bits on every trace at every
  clock (unless the schedule gives it a value at that clock);
- any other port the schedule names (controls, or share ports the caller shares itself) gets
  the value it gives; ports never named stay 0.

The schedule is ``schedule(clock, secrets) -> {name: value}``, ``secrets`` mapping each secret's
name to its per-trace value as :class:`~cipherbench.leakage.stimulus.Planes` (``s[0:8]`` is its
bits 0-7, ``s ^ t`` a XOR), the values as in simulate.PortValue. Without a schedule, each secret
goes to the shared input of the same name at clock 0.

Example, a two-share AND gadget with inputs a0, a1, b0, b1 and a random bit r::

    driver = MaskedDriver(
        secrets=[Secret("a", 1, fixed=0), Secret("b", 1, fixed=0)],
        shares={"a": ("a0", "a1"), "b": ("b0", "b1")},
        randomness=("r",))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import CipherbenchError
from .netlist import Netlist
from .stimulus import Planes, PortValue, Stimulus, pack, port_planes, words_for

Schedule = Callable[[int, Mapping[str, Planes]], Mapping[str, PortValue]]


@dataclass(frozen=True)
class Secret:
    """A secret input of ``width`` bits and the fixed group's value of it."""

    name: str
    width: int
    fixed: int

    def __post_init__(self) -> None:
        if self.width < 1 or not 0 <= self.fixed < 1 << self.width:
            raise CipherbenchError(f"secret {self.name}: fixed value {self.fixed:#x} does not fit "
                                   f"{self.width} bits")


@dataclass
class Batch:
    """One batch of traces: which are in the random group (True) and each secret's value."""

    count: int
    random_group: np.ndarray     # (count,) bool
    secrets: dict[str, Planes]


def uniform_planes(rng: np.random.Generator, width: int, words: int) -> np.ndarray:
    """(width, words) uniformly random bits."""
    return rng.integers(0, np.iinfo(np.uint64).max, size=(width, words), dtype=np.uint64,
                        endpoint=True)


@dataclass
class MaskedDriver:
    """The inputs of a masked design: see the module docstring."""

    secrets: Sequence[Secret]
    shares: Mapping[str, Sequence[str]] = field(default_factory=dict)
    randomness: Sequence[str] = ()
    schedule: Schedule | None = None

    def check(self, netlist: Netlist) -> None:
        """Every port named is an input of ``netlist``, with matching widths; one-line error."""
        names = [s.name for s in self.secrets]
        if len(set(names)) != len(names):
            raise CipherbenchError(f"secrets named twice: {', '.join(names)}")
        ports = [p for group in self.shares.values() for p in group] + list(self.randomness)
        missing = [p for p in ports if p not in netlist.inputs]
        if missing:
            raise CipherbenchError(f"driver names ports {', '.join(missing)} that {netlist.top} "
                                   f"does not have as inputs ({', '.join(sorted(netlist.inputs))})")
        for name, group in self.shares.items():
            if len(group) < 2:
                raise CipherbenchError(f"shared input {name} needs at least two share ports")
            widths = {len(netlist.inputs[p]) for p in group}
            if len(widths) != 1:
                raise CipherbenchError(f"the share ports of {name} differ in width: "
                                       f"{', '.join(group)}")
        if self.schedule is None:
            for secret in self.secrets:
                group = self.shares.get(secret.name)
                if group is None or len(netlist.inputs[group[0]]) != secret.width:
                    raise CipherbenchError(f"secret {secret.name} has no shared input of "
                                           f"{secret.width} bits of the same name; give a schedule")

    def batch(self, rng: np.random.Generator, count: int) -> Batch:
        """A batch's groups (a fair coin per trace) and secrets."""
        random_group = rng.random(count) < 0.5
        words = words_for(count)
        secrets = {}
        for secret in self.secrets:
            fixed = np.array([[-(secret.fixed >> b & 1)] for b in range(secret.width)],
                             dtype=np.int64).astype(np.uint64)
            drawn = uniform_planes(rng, secret.width, words)
            mask = pack(random_group[None, :].astype(np.uint8), words)[0]
            secrets[secret.name] = Planes((drawn & mask) | (fixed & ~mask))
        return Batch(count, random_group, secrets)

    def stimulus(self, netlist: Netlist, batch: Batch, rng: np.random.Generator) -> Stimulus:
        """The simulator's stimulus for ``batch``: call it with each clock in order."""
        words = words_for(batch.count)
        schedule = self.schedule or _at_clock_zero

        def at_clock(clock: int) -> dict[str, PortValue]:
            given = dict(schedule(clock, batch.secrets))
            values: dict[str, PortValue] = {}
            for name, value in given.items():
                group = self.shares.get(name)
                if group is None:
                    values[name] = value
                    continue
                width = len(netlist.inputs[group[0]])
                plain = port_planes(value, width, batch.count, words, name)
                masks = [uniform_planes(rng, width, words) for _ in group[:-1]]
                last = plain
                for mask in masks:
                    last = last ^ mask
                for port, share in zip(group, [*masks, last]):
                    values[port] = Planes(share)
            for port in self.randomness:
                if port not in given:
                    values[port] = Planes(uniform_planes(rng, len(netlist.inputs[port]), words))
            return values

        return at_clock


def _at_clock_zero(clock: int, secrets: Mapping[str, Planes]) -> Mapping[str, PortValue]:
    return dict(secrets) if clock == 0 else {}
