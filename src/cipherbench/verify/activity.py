"""Switching activity of a gate-level netlist under a stated workload (power from activity).

Two workloads (Papaefstathiou section 5: the core busy, then busy half of the time):

- ``stream``: one key, then random blocks offered back to back (an iterative core computes all
  the time, a pipeline takes one block per clock);
- ``half``: the same blocks offered every 2 x II clocks (II: the core's initiation interval), so
  the core works 50 % of the time (an iterative core computes a block, then waits as long; a
  pipeline runs half full).

The netlist (``FlowResult.artifacts["sim_netlist"]``) is simulated by the common testbench with a
VCD of the design's top-level nets, whose names are the power netlist's. For each bit of each net
the activity is its transitions per clock and its duty the share of time it is 1, counted from
the first block offered to the end of the run (zero-delay simulation: no glitches, which a
timing-aware simulation would add).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from ..arch.loaded import CORE_INSTANCE
from ..errors import ToolFailed
from ..spec import DesignSpec
from .netlist import netlist_design
from .sim import BlockOp, IdleOp, KeyOp, Op, Simulator

WORKLOADS = ("stream", "half")
BLOCKS = 64


@dataclass
class Activity:
    """Per (net, bit): transitions per clock and the share of clocks at 1, over ``cycles``."""

    rates: dict[tuple[str, int], tuple[float, float]]
    cycles: int


def workload_ops(spec: DesignSpec, workload: str, interval: int, seed: int = 2026,
                 blocks: int = BLOCKS) -> list[Op]:
    """A random key of the largest size, then ``blocks`` random encryptions (decryptions for a
    decrypt-only core); ``half`` offers one every 2 x ``interval`` clocks (the idle starts on the
    clock after the block is taken)."""
    if workload not in WORKLOADS:
        raise ValueError(f"workload {workload!r}; valid: {', '.join(WORKLOADS)}")
    rng = random.Random(seed)
    key_bytes = max(spec.key_sizes) // 8
    decrypt = spec.param_dict.get("ops") == "decrypt"
    from ..ciphers.registry import ciphers

    block_bytes = ciphers()[spec.cipher].block_bits // 8
    ops: list[Op] = [KeyOp(rng.randbytes(key_bytes))]
    for _ in range(blocks):
        ops.append(BlockOp(rng.randbytes(block_bytes), decrypt=decrypt))
        if workload == "half":
            ops.append(IdleOp(2 * interval - 1))
    return ops


def simulate_activity(spec: DesignSpec, design_dir: Path, sim_netlist: Path, work: Path,
                      workload: str, interval: int) -> Activity:
    """Run ``workload`` on the netlist and count each net bit's transitions."""
    folder = netlist_design(design_dir, sim_netlist, work / f"activity_{workload}")
    sim = Simulator(folder, trace=True)
    # A keys=loaded core runs inside its wrapper: its nets are one scope further down.
    instance = CORE_INSTANCE if sim.manifest.get("simulation") else None
    vcd = folder / "activity.vcd"
    ops = workload_ops(spec, workload, interval)
    trace = sim.run(ops, vcd=vcd, timeout_cycles=1_000_000)
    first_block = min(min(cycles) for op, cycles in trace.block_accept.items())
    try:
        return toggle_rates(vcd, start_cycle=first_block, instance=instance)
    finally:
        vcd.unlink(missing_ok=True)


def toggle_rates(vcd: Path, start_cycle: int = 0, instance: str | None = None) -> Activity:
    """Activity and duty per bit of every variable of the design (its scope, the second level,
    and the wrapper's ports), from ``start_cycle`` (VCD time 2t is rising edge t). ``instance``:
    the design is that instance inside the top module (a core in its simulation wrapper), and
    its scope, the third level, is read instead.

    A gate-level VCD is millions of one-bit changes ("0!", "1#a"): those are counted with numpy,
    a chunk of the file at a time (a per-line Python loop took 15-18 s on an AES netlist's 8.7
    million lines); the few vector changes ("b0101 %") go through ``_VectorState``."""
    ids, widths = _design_vars(vcd, instance)
    if not ids:
        raise ToolFailed(f"no design signals in {vcd}")
    start = 2 * start_cycle
    scalars = _ScalarState(sorted(code for code in ids if widths[code] == 1), start)
    vectors = _VectorState({code: w for code, w in widths.items() if w > 1}, start)
    time = 0
    with vcd.open("rb") as stream:
        for line in stream:
            if line.startswith(b"$enddefinitions"):
                break
        while chunk := _next_chunk(stream):
            time = _count_chunk(chunk, time, scalars, vectors)
    span = max(time - start, 2)
    bits = {**scalars.finish(time), **vectors.finish(time)}
    rates: dict[tuple[str, int], tuple[float, float]] = {}
    for code, names in ids.items():
        for bit in range(widths[code]):
            toggles, high = bits.get((code, bit), (0, 0))
            for name, low in names:
                rates[(name, low + bit)] = (toggles * 2 / span, high / span)
    return Activity(rates, span // 2)


_CHUNK_BYTES = 1 << 25
_CODE_BASE = 95  # VCD identifier characters are "!" (33) to "~" (126): digits 1-94
_MAX_CODE_CHARS = 9  # 95**9 < 2**63


def _next_chunk(stream: IO[bytes]) -> bytes:
    """The next ~32 MB of the file, ending at a line end."""
    chunk = stream.read(_CHUNK_BYTES)
    if chunk and not chunk.endswith(b"\n"):
        chunk += stream.readline()
    if chunk and not chunk.endswith(b"\n"):
        chunk += b"\n"
    return chunk


def _code_number(code: str) -> int:
    return sum((ord(c) - 32) * _CODE_BASE ** k for k, c in enumerate(code))


def _count_chunk(chunk: bytes, time: int, scalars: _ScalarState, vectors: _VectorState) -> int:
    """Count one chunk's changes; ``time`` is the VCD time in force at its start, the return
    value the time in force at its end."""
    buf = np.frombuffer(chunk, dtype=np.uint8)
    ends = np.flatnonzero(buf == ord("\n"))
    starts = np.empty_like(ends)
    starts[0], starts[1:] = 0, ends[:-1] + 1
    first = buf[starts]  # an empty line's is its "\n", which no branch below takes
    stamps = np.flatnonzero(first == ord("#"))
    # Each line's time: the last stamp at or before it, else the time carried in (index 0).
    stamp_times = np.array([time, *(int(chunk[starts[i] + 1:ends[i]]) for i in stamps)],
                           dtype=np.int64)
    latest = np.zeros(len(starts), dtype=np.int64)
    latest[stamps] = np.arange(1, len(stamps) + 1)
    times = stamp_times[np.maximum.accumulate(latest)]
    scalar = np.flatnonzero((first == ord("0")) | (first == ord("1")))
    if len(scalar):
        lengths = ends[scalar] - starts[scalar] - 1
        if lengths.max() > _MAX_CODE_CHARS or lengths.min() < 1:
            raise ToolFailed(f"VCD scalar change with an identifier of {lengths.max()} characters")
        numbers = np.zeros(len(scalar), dtype=np.int64)
        for k in range(int(lengths.max())):
            present = lengths > k
            digits = buf[starts[scalar[present]] + 1 + k].astype(np.int64) - 32
            numbers[present] += digits * _CODE_BASE ** k
        scalars.add(numbers, (first[scalar] == ord("1")).astype(np.int8), times[scalar])
    for i in np.flatnonzero(first == ord("b")):
        bits, code = chunk[starts[i] + 1:ends[i]].decode().split()
        vectors.change(code, int(bits, 2) if set(bits) <= {"0", "1"} else None, int(times[i]))
    return int(stamp_times[-1])


class _ScalarState:
    """One-bit variables: per variable its toggles from ``start`` and its time at 1, kept as
    sums. Changes of one variable alternate (a change is a value unlike the last, and the value
    starts at 0), so the time at 1 is the sum of the falls' times minus the sum of the rises'
    (each clipped to ``start``), plus the end time if the variable ends at 1."""

    def __init__(self, codes: list[str], start: int) -> None:
        self.codes = codes
        numbers = np.array([_code_number(c) for c in codes], dtype=np.int64)
        self.order = np.argsort(numbers)
        self.numbers = numbers[self.order]
        self.start = start
        n = len(codes)
        self.value = np.zeros(n, dtype=np.int8)
        self.toggles = np.zeros(n, dtype=np.int64)
        self.high = np.zeros(n, dtype=np.int64)

    def add(self, numbers: np.ndarray, values: np.ndarray, times: np.ndarray) -> None:
        if not len(self.numbers):
            return
        where = np.minimum(np.searchsorted(self.numbers, numbers), len(self.numbers) - 1)
        known = self.numbers[where] == numbers  # others: variables outside the design
        slot, values, times = where[known], values[known], times[known]
        order = np.argsort(slot, kind="stable")  # per variable, in file order
        slot, values, times = slot[order], values[order], times[order]
        previous = np.empty_like(values)
        if len(slot):
            previous[1:] = values[:-1]
            first_of_slot = np.ones(len(slot), dtype=bool)
            first_of_slot[1:] = slot[1:] != slot[:-1]
            previous[first_of_slot] = self.value[slot[first_of_slot]]
            last_of_slot = np.ones(len(slot), dtype=bool)
            last_of_slot[:-1] = first_of_slot[1:]
            self.value[slot[last_of_slot]] = values[last_of_slot]
        change = values != previous
        slot, values, times = slot[change], values[change], times[change]
        counted = times >= self.start
        n = len(self.numbers)
        self.toggles += np.bincount(slot[counted], minlength=n)
        clipped = np.maximum(times, self.start)
        sign = np.where(values == 1, -1, 1)
        self.high += np.bincount(slot, weights=sign * clipped, minlength=n).astype(np.int64)

    def finish(self, end: int) -> dict[tuple[str, int], tuple[int, int]]:
        high = self.high + self.value.astype(np.int64) * end
        return {(self.codes[i], 0): (int(self.toggles[k]), int(high[k]))
                for k, i in enumerate(self.order)}


class _VectorState:
    """Multi-bit variables, bit by bit (a netlist has few: the wrapper's ports). An x or z value
    is skipped, as for one-bit variables."""

    def __init__(self, widths: dict[str, int], start: int) -> None:
        self.start = start
        self.value = {code: 0 for code in widths}
        self.toggles = {code: [0] * w for code, w in widths.items()}
        self.high = {code: [0] * w for code, w in widths.items()}
        self.since = {code: [start] * w for code, w in widths.items()}

    def change(self, code: str, new: int | None, time: int) -> None:
        if new is None or code not in self.value:
            return
        changed = self.value[code] ^ new
        now = max(time, self.start)
        while changed:
            low = changed & -changed
            bit = low.bit_length() - 1
            if time >= self.start:
                self.toggles[code][bit] += 1
            if self.value[code] >> bit & 1:
                self.high[code][bit] += now - self.since[code][bit]
            self.since[code][bit] = now
            changed ^= low
        self.value[code] = new

    def finish(self, end: int) -> dict[tuple[str, int], tuple[int, int]]:
        out = {}
        for code, toggles in self.toggles.items():
            for bit, count in enumerate(toggles):
                high = self.high[code][bit]
                if self.value[code] >> bit & 1:
                    high += end - self.since[code][bit]
                out[(code, bit)] = (count, high)
        return out


def _design_vars(vcd: Path, instance: str | None = None
                 ) -> tuple[dict[str, list[tuple[str, int]]], dict[str, int]]:
    """VCD id -> its names (net name, lowest bit index) and id -> width: the design's own scope
    and the wrapper's ports (or, for ``instance``, that instance's scope under the top module)."""
    ids: dict[str, list[tuple[str, int]]] = {}
    widths: dict[str, int] = {}
    scopes: list[str] = []
    with vcd.open() as text:
        for line in text:
            words = line.split()
            if not words:
                continue
            if words[0] == "$scope":
                scopes.append(words[2] if len(words) > 2 else "")
            elif words[0] == "$upscope":
                scopes.pop()
            elif words[0] == "$var" and _in_design(scopes, instance):
                # Verilator lists a port once, in the wrapper's scope (its ports are the
                # design's); the design's scope has every other net.
                width, code, name = int(words[2]), words[3], words[4]
                low = 0
                if len(words) > 5 and words[5].startswith("["):
                    rng = words[5].strip("[]").split(":")
                    low = min(int(r) for r in rng)
                # One code for every name of a net (a port and the wires it is assigned to).
                if (name, low) not in ids.setdefault(code, []):
                    ids[code].append((name, low))
                widths[code] = width
            elif words[0] == "$enddefinitions":
                break
    return ids, widths


def _in_design(scopes: list[str], instance: str | None) -> bool:
    if instance is None:
        return len(scopes) in (1, 2)
    return len(scopes) == 3 and scopes[2] == instance


# A message-level engine's workload: this many encryptions of MESSAGE_BYTES, without AD, offered
# back to back after an empty one that loads the key (the engine encrypting all the time, as a
# block core's stream).
MESSAGES = 4
MESSAGE_BYTES = 1536


def message_activity(design_dir: Path, sim_netlist: Path, work: Path, model,
                     seed: int = 2026) -> Activity:
    """The stream workload of an engine (the message family) on its netlist, counted from the
    first long message's instruction; every output word is checked against ``model``."""
    from ..message.lwc import Params, encrypt_operation
    from .message_sim import MessageSimulator

    folder = netlist_design(design_dir, sim_netlist, work / "activity_stream")
    sim = MessageSimulator(folder, trace=True)
    params = Params(w=sim.shape.w, sw=sim.shape.key_width, block_bytes=model.block_bytes)
    rng = random.Random(seed)
    key = rng.randbytes(model.key_bytes)
    ops = []
    for index in range(MESSAGES + 1):
        npub, pt = rng.randbytes(model.npub_bytes), rng.randbytes(MESSAGE_BYTES if index else 0)
        ct, tag = model.encrypt(key, npub, b"", pt)
        ops.append(encrypt_operation(npub, b"", pt, ct, tag, key=None if index else key,
                                     params=params, msg_id=index))
    vcd = folder / "activity.vcd"
    run = sim.run(ops, vcd=vcd, timeout_cycles=1_000_000).check()
    try:
        return toggle_rates(vcd, start_cycle=run.messages[1].inst_cycle)
    finally:
        vcd.unlink(missing_ok=True)
