"""The inputs of a leakage simulation and the packed form every value takes in it.

Each net holds one bit per trace, packed 64 traces to a ``uint64`` word (trace ``t`` is bit
``t % 64`` of word ``t // 64``): a value of ``width`` bits is ``width`` such rows of words
(``Planes``). A stimulus gives, for every clock, the ports that change then; ``clock_events``
turns one clock's into the nets to set and their planes, for both back ends of the simulation
(simulate.py: numpy, native.py: generated C), which is why this is a module of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Union

import numpy as np

from ..errors import CipherbenchError
from .netlist import Netlist

ALL_ONES = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


@dataclass(frozen=True)
class Planes:
    """A value already packed for the simulator: ``array`` is (bits, words) uint64, row ``i``
    holding bit ``i`` of every trace (trace ``t`` in bit ``t % 64`` of word ``t // 64``). The
    fastest way to give a port its value (no packing), and how the masked-input driver hands
    secrets to a schedule: ``planes[8:16]`` is bits 8-15, ``a ^ b`` the bitwise XOR."""

    array: np.ndarray

    @property
    def width(self) -> int:
        return int(self.array.shape[0])

    def __getitem__(self, bits: slice | int) -> Planes:
        rows = self.array[bits] if isinstance(bits, slice) else self.array[bits:bits + 1]
        return Planes(rows)

    def __xor__(self, other: Planes) -> Planes:
        return Planes(self.array ^ other.array)

    def values(self, count: int) -> np.ndarray:
        """Per-trace bits: (width, count) uint8."""
        return unpack(self.array, count)


# A port's value at one clock: an int for every trace, Planes, or one value per trace: an int
# array of shape (traces,) for ports up to 64 bits, or a uint8 array (traces, bytes) with byte 0
# holding bits 0-7, for wider ports.
PortValue = Union[int, np.ndarray, Planes]
# The stimulus: the ports that change at a clock, for every clock (a function or a list).
Stimulus = Union[Callable[[int], Mapping[str, PortValue]], Sequence[Mapping[str, PortValue]]]


def words_for(count: int, multiple: int = 1) -> int:
    """Words holding ``count`` traces, rounded up to a multiple of ``multiple`` words."""
    words = -(-count // 64)
    return -(-words // multiple) * multiple


def unpack(planes: np.ndarray, count: int) -> np.ndarray:
    """Packed planes (..., words) uint64 -> (..., count) uint8 bits."""
    as_bytes = np.ascontiguousarray(planes).view(np.uint8)
    return np.unpackbits(as_bytes, axis=-1, bitorder="little")[..., :count]


def pack(bits: np.ndarray, words: int) -> np.ndarray:
    """(rows, traces) 0/1 -> (rows, words) uint64 planes (traces beyond ``count`` are 0)."""
    rows, count = bits.shape
    padded = np.zeros((rows, words * 64), dtype=np.uint8)
    padded[:, :count] = bits
    return np.packbits(padded, axis=1, bitorder="little").view(np.uint64)


def port_planes(value: PortValue, width: int, count: int, words: int, port: str) -> np.ndarray:
    """A port's value as (width, words) planes."""
    if isinstance(value, Planes):
        if value.width != width or value.array.shape[1] * 64 < count:
            raise CipherbenchError(f"input {port}: planes of {value.width} bits for "
                                   f"{value.array.shape[1] * 64} traces given to a {width}-bit "
                                   f"port for {count} traces")
        planes = np.zeros((width, words), dtype=np.uint64)
        used = min(words, value.array.shape[1])
        planes[:, :used] = value.array[:, :used]
        return planes
    if isinstance(value, (int, np.integer)):
        number = int(value)
        if number < 0 or number >> width:
            raise CipherbenchError(f"value {number:#x} does not fit input {port} ({width} bits)")
        planes = np.zeros((width, words), dtype=np.uint64)
        planes[[b for b in range(width) if number >> b & 1]] = ALL_ONES
        return planes
    array = np.asarray(value)
    if array.ndim == 1 and array.shape[0] == count and np.issubdtype(array.dtype, np.integer):
        if width > 64:
            raise CipherbenchError(f"input {port} is {width} bits: give it as a (traces, bytes) "
                                   f"uint8 array")
        numbers = array.astype(np.uint64)
        bits = (numbers[None, :] >> np.arange(width, dtype=np.uint64)[:, None]) & np.uint64(1)
        return pack(bits.astype(np.uint8), words)
    if array.ndim == 2 and array.shape[0] == count and array.dtype == np.uint8 \
            and array.shape[1] * 8 >= width:
        bits = np.unpackbits(array, axis=1, bitorder="little")[:, :width]
        return pack(np.ascontiguousarray(bits.T), words)
    raise CipherbenchError(f"input {port}: a value must be an int, a ({count},) int array or a "
                           f"({count}, {-(-width // 8)}) uint8 array; got {array.dtype} "
                           f"{array.shape}")


@dataclass(frozen=True)
class InputEvent:
    """Nets of one port set at one clock to the given planes (width, words)."""

    nets: np.ndarray
    planes: np.ndarray


def clock_events(netlist: Netlist, stimulus: Stimulus, clock: int, count: int,
                 words: int) -> list[InputEvent]:
    """The inputs the stimulus sets at ``clock``, checked against the netlist's ports."""
    given = stimulus[clock] if isinstance(stimulus, Sequence) else stimulus(clock)
    events = []
    for port, value in given.items():
        nets = netlist.inputs.get(port)
        if nets is None:
            why = "is the clock, which the simulator drives" if port == netlist.clock \
                else f"is not an input port of {netlist.top}"
            raise CipherbenchError(f"stimulus port {port} {why} (inputs: "
                                   f"{', '.join(sorted(netlist.inputs))})")
        events.append(InputEvent(np.asarray(nets, dtype=np.int64),
                                 port_planes(value, len(nets), count, words, port)))
    return events
