"""Measure a core's cycle counts in simulation: the block family's measured figures
(families/block.py, CYCLE_COUNTS; definitions in docs/interface.md).

Nothing is assumed: each figure comes from handshake cycles the testbench observed. The same
measurement is made with three random keys and blocks in one run; a core whose counts change is not
constant time, which is an error, and every result is checked against the reference model.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import pairwise

from ..ciphers.base import CipherModel
from ..errors import CipherbenchError
from ..families import Figure
from .sim import BlockOp, ChainOp, KeyOp, Op, SimTrace, Simulator

TRIALS = 3
# Long enough that a partial pipeline, which takes blocks in bursts as its ring fills and empties
# (up to stages x inner-stages blocks per burst), repeats its pattern twice after start-up.
STREAM_BLOCKS = 64
CHAIN_BLOCKS = 6

# Figures in the order they are reported: the fields a block design's manifest carries.
# The cycle counts measured in simulation (never assumed), in the order verify/measure.py returns
# them and a manifest holds them. Cycle n is the n-th rising edge after reset.
CYCLE_COUNTS: tuple[Figure, ...] = (
    Figure("latency", "cycles",
           "cycles from the edge a block is accepted to the edge its result is accepted with "
           "`out_ready` held high: `t_out - t_in`"),
    Figure("latency_decrypt", "cycles",
           "the same for a decryption block (null for a core without decryption)"),
    Figure("initiation_interval", "cycles",
           "in a long stream under one key, with `in_valid` and `out_ready` held high: cycles "
           "between successive block acceptances (steady state)"),
    Figure("cycles_per_chained_block", "cycles",
           "each block is the previous result (CBC-like feedback, the feedback applied with zero "
           "delay in the same cycle the result is offered): cycles between successive "
           "acceptances"),
    Figure("key_setup_encrypt", "cycles",
           "after a key is accepted at cycle `k`, with an encryption block offered from then on, "
           "first accepted at `b`: `b - k - 1` (0: the block can follow the key immediately)"),
    Figure("key_setup_decrypt", "cycles", "the same for a decryption block"),
    Figure("algorithm_setup", "cycles",
           "cycles from the release of reset until `key_ready` first goes high"),
)
FIGURES = tuple(f.name for f in CYCLE_COUNTS)


@dataclass
class _Trial:
    """Op indices of one trial inside the run, and the expected result of every data op.
    A one-direction core has no block (None) for the direction it lacks."""

    key_enc: int
    block_enc: int | None
    key_dec: int
    block_dec: int | None
    stream: list[int]
    chain: int
    end: int  # one past the trial's last op


def _trial_ops(ops: list[Op], expected: dict[int, bytes], model: CipherModel, key: bytes,
               rng: random.Random, directions: str = "both") -> _Trial:
    """Append one trial. Each K op drains the core first, so every figure is measured alone."""
    nbytes = model.block_bits // 8

    def add(op: Op, result: bytes | None = None) -> int:
        ops.append(op)
        if result is not None:
            expected[len(ops) - 1] = result
        return len(ops) - 1

    def block(decrypt: bool) -> int:
        data = rng.randbytes(nbytes)
        out = model.decrypt(key, data) if decrypt else model.encrypt(key, data)
        return add(BlockOp(data, decrypt), out)

    has_enc, has_dec = directions != "decrypt", directions != "encrypt"
    key_enc = add(KeyOp(key))
    block_enc = block(False) if has_enc else None
    # A fresh key before the decryption block, so its key run-up is part of the figure.
    key_dec = add(KeyOp(key))
    block_dec = block(True) if has_dec else None
    # Streams and chains run in the core's main direction: encryption unless it only decrypts.
    stream_dec = not has_enc
    add(KeyOp(key))
    stream = [block(stream_dec) for _ in range(STREAM_BLOCKS)]
    add(KeyOp(key))
    data = rng.randbytes(nbytes)
    out = data
    for _ in range(CHAIN_BLOCKS):
        out = model.decrypt(key, out) if stream_dec else model.encrypt(key, out)
    chain = add(ChainOp(data, stream_dec, CHAIN_BLOCKS), out)
    return _Trial(key_enc, block_enc, key_dec, block_dec, stream, chain, len(ops))


def _steady_interval(cycles: list[int]) -> int:
    """Mean cycles between acceptances in steady state: the first third of the intervals is
    start-up; the rest repeats with some period (1 for a constant interval, the ring size for a
    partial pipeline that takes blocks in bursts), and the mean is over whole periods. Rounded up
    if a core alternates intervals, so throughput is never overstated."""
    gaps = [b - a for a, b in pairwise(cycles)]
    tail = gaps[len(gaps) // 3:]
    for period in range(1, len(tail) // 2 + 1):
        if all(tail[i] == tail[i + period] for i in range(len(tail) - period)):
            return math.ceil(sum(tail[:period]) / period)
    return math.ceil(sum(tail) / len(tail))


def _figures(trace: SimTrace, t: _Trial) -> dict[str, int | None]:
    acc, out, keys = trace.block_accept, trace.block_output, trace.key_accept

    def latency(block: int | None) -> int | None:
        return None if block is None else out[block] - acc[block][0]

    def setup(block: int | None, key: int) -> int | None:
        return None if block is None else acc[block][0] - keys[key] - 1

    return {
        "latency": latency(t.block_enc),
        "latency_decrypt": latency(t.block_dec),
        "initiation_interval": _steady_interval([acc[i][0] for i in t.stream]),
        "cycles_per_chained_block": _steady_interval(acc[t.chain]),
        "key_setup_encrypt": setup(t.block_enc, t.key_enc),
        "key_setup_decrypt": setup(t.block_dec, t.key_dec),
    }


def _timing(trace: SimTrace, t: _Trial) -> list[tuple[int, str, int]]:
    """Every transfer of a trial, in cycles from its first key load. A constant-time core repeats
    this exactly for any key and data, which catches a dependence the figures average away."""
    k0 = trace.key_accept[t.key_enc]
    events: list[tuple[int, str, int]] = []
    for i in range(t.key_enc, t.end):
        if i in trace.key_accept:
            events.append((i - t.key_enc, "key accepted", trace.key_accept[i] - k0))
        events += [(i - t.key_enc, "block accepted", c - k0) for c in trace.block_accept.get(i, [])]
        if i in trace.block_output:
            events.append((i - t.key_enc, "result", trace.block_output[i] - k0))
    return events


def _check_constant_time(sim: Simulator, key_bits: int, trace: SimTrace,
                         trials: list[_Trial], per_trial: list[dict[str, int | None]]) -> None:
    where = f"over {TRIALS} random keys and blocks ({sim.top}, {key_bits}-bit key)"
    for name in per_trial[0]:
        values = [f[name] for f in per_trial]
        if len(set(values)) > 1:
            raise CipherbenchError(f"cycle count depends on key or data: {name} was "
                                   f"{', '.join(map(str, values))} {where}; "
                                   "cores must be constant time")
    first = _timing(trace, trials[0])
    for t in trials[1:]:
        for (op, what, c0), (_, _, c) in zip(first, _timing(trace, t)):
            if c != c0:
                raise CipherbenchError(f"cycle count depends on key or data: the {what} of "
                                       f"op {op} of a trial came {c0} and {c} cycles after its "
                                       f"key {where}; cores must be constant time")


def _check_results(sim: Simulator, ops: list[Op], trace: SimTrace,
                   expected: dict[int, bytes]) -> None:
    data_ops = [i for i, op in enumerate(ops) if isinstance(op, (BlockOp, ChainOp))]
    for i, got in zip(data_ops, trace.outputs):
        if got != expected[i]:
            op = ops[i]
            assert isinstance(op, (BlockOp, ChainOp))
            raise CipherbenchError(
                f"{sim.top} gives a wrong result while measuring: op {i} "
                f"{type(op).__name__} {'decrypt' if op.decrypt else 'encrypt'} "
                f"in={op.data.hex()}: expected {expected[i].hex()}, got {got.hex()}")


def measure_cycles(sim: Simulator, model: CipherModel, key_bits: int,
                   seed: int = 1, directions: str | None = None) -> dict[str, int | None]:
    """Cycle counts of the core for ``key_bits`` keys (docs/interface.md), checked for constant
    time over three random keys and blocks and for correct results.

    ``directions`` ("both", "encrypt", "decrypt"; default: the manifest's ``ops`` parameter): the
    figures of a direction the core lacks are None."""
    if directions is None:
        directions = str(sim.manifest.get("parameters", {}).get("ops", "both"))
    if key_bits not in sim.key_sizes:
        raise CipherbenchError(f"{sim.top} has no {key_bits}-bit keys "
                               f"(it has {', '.join(map(str, sim.key_sizes))})")
    rng = random.Random(seed)
    ops: list[Op] = []
    expected: dict[int, bytes] = {}
    trials = [_trial_ops(ops, expected, model, rng.randbytes(key_bits // 8), rng, directions)
              for _ in range(TRIALS)]
    trace = sim.run(ops)
    _check_results(sim, ops, trace, expected)
    if trace.algorithm_setup_cycles is None:
        raise CipherbenchError(f"{sim.top}: key_ready never went high after reset")
    per_trial = [_figures(trace, t) for t in trials]
    _check_constant_time(sim, key_bits, trace, trials, per_trial)
    result = dict(per_trial[0])
    result["algorithm_setup"] = trace.algorithm_setup_cycles
    return {name: result[name] for name in FIGURES}
