"""Check a core against known answers: many (key, block, expected) cases in one simulation."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..ciphers.base import CipherModel
from ..errors import CipherbenchError
from .sim import BlockOp, KeyOp, Op, SimTrace, Simulator

# (key, input block, expected output, decrypt?)
Case = tuple[bytes, bytes, bytes, bool]


@dataclass
class CheckResult:
    passed: int
    failed: int
    first_failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.passed > 0


def _group_by_key(cases: Sequence[Case]) -> dict[bytes, list[int]]:
    """Case indices per key, keys in order of first use: one key load serves all its cases."""
    groups: dict[bytes, list[int]] = {}
    for i, case in enumerate(cases):
        groups.setdefault(case[0], []).append(i)
    return groups


@dataclass
class AgilityResult:
    """A key-agility run: the check, and the mean cycles between block acceptances."""

    check: CheckResult
    interval: float


def check_cases(sim: Simulator, cases: Iterable[Case], *, fail_limit: int = 10,
                drain: bool = True) -> CheckResult:
    """Run every case through the core.

    ``drain`` (default): one key op per key, each key's blocks streaming back to back after it
    (every key op waits for the core to empty). ``drain=False``, for cores whose keys travel with
    the blocks: the cases run in their order, with a key op that does not wait wherever the key
    changes, so blocks under different keys are in flight together."""
    cases = list(cases)
    if not cases:
        return CheckResult(0, 0)
    ops, order = _ops(cases, drain)
    return _compare(cases, order, ops, sim.run(ops), fail_limit)


def _ops(cases: list[Case], drain: bool) -> tuple[list[Op], list[int]]:
    """The ops for the cases, and the case index of each result in output order."""
    ops: list[Op] = []
    order: list[int] = []
    if drain:
        for key, indices in _group_by_key(cases).items():
            ops.append(KeyOp(key))
            for i in indices:
                ops.append(BlockOp(cases[i][1], cases[i][3]))
                order.append(i)
        return ops, order
    key: bytes | None = None
    for i, (case_key, data, _, decrypt) in enumerate(cases):
        if case_key != key:
            ops.append(KeyOp(case_key, drain=False))
            key = case_key
        ops.append(BlockOp(data, decrypt))
        order.append(i)
    return ops, order


def check_key_agility(sim: Simulator, model: CipherModel, key_sizes: Iterable[int], n: int = 64,
                      seed: int = 1, decrypt: bool = False, fail_limit: int = 10) -> AgilityResult:
    """``n`` blocks, each under a fresh random key (key sizes in turn), offered back to back with
    keys that do not drain (NSA 'key agility'). A key-agile fully pipelined core takes one block
    per clock: ``interval`` 1. Decryption needs each key's run-up first, so it is slower."""
    cases = random_cases(model, key_sizes, n, seed, key_change_every=1)
    cases = [(k, d, model.decrypt(k, d) if decrypt else model.encrypt(k, d), decrypt)
             for k, d, _, _ in cases]
    ops, order = _ops(cases, drain=False)
    trace = sim.run(ops)
    accepted = [trace.block_accept[i][0] for i, op in enumerate(ops) if isinstance(op, BlockOp)]
    interval = (accepted[-1] - accepted[0]) / max(1, len(accepted) - 1)
    return AgilityResult(_compare(cases, order, ops, trace, fail_limit), interval)


def _compare(cases: list[Case], order: list[int], ops: list[Op], trace: SimTrace,
             fail_limit: int) -> CheckResult:
    result = CheckResult(0, 0)
    # The clock each result came out on, so a failure says when (a waveform's first look).
    out_cycles = [trace.block_output.get(j) for j, op in enumerate(ops) if isinstance(op, BlockOp)]
    for i, got, cycle in zip(order, trace.outputs, out_cycles):
        key, data, expected, decrypt = cases[i]
        if got == expected:
            result.passed += 1
            continue
        result.failed += 1
        if len(result.first_failures) < fail_limit:
            result.first_failures.append(
                f"case {i}: {'decrypt' if decrypt else 'encrypt'} key={key.hex()} "
                f"in={data.hex()}: expected {expected.hex()}, got {got.hex()}"
                + (f" (out at cycle {cycle})" if cycle is not None else ""))
    return result


# (key, input block, decrypt?): a case before anyone has computed its expected output.
Row = tuple[bytes, bytes, bool]


def random_rows(key_sizes: Iterable[int], block_bytes: int, n: int, seed: int | str,
                key_change_every: int = 7,
                directions: Sequence[bool] = (False, True)) -> list[Row]:
    """``n`` random rows: a new random key every ``key_change_every`` rows (key sizes taken in
    turn, so every size appears), random blocks, directions mixed at random among
    ``directions``."""
    sizes = sorted(set(key_sizes))
    if not sizes:
        raise CipherbenchError("random cases need at least one key size")
    if key_change_every < 1:
        raise CipherbenchError("key_change_every must be >= 1")
    rng = random.Random(seed)
    rows: list[Row] = []
    key = b""
    for i in range(n):
        if i % key_change_every == 0:
            size = sizes[(i // key_change_every) % len(sizes)]
            key = rng.randbytes(size // 8)
        data = rng.randbytes(block_bytes)
        decrypt = rng.random() < 0.5 if len(directions) > 1 else directions[0]
        rows.append((key, data, decrypt))
    return rows


def random_cases(model: CipherModel, key_sizes: Iterable[int], n: int, seed: int,
                 key_change_every: int = 7) -> list[Case]:
    """``n`` cases from the model on ``random_rows`` (both directions)."""
    sizes = sorted(set(key_sizes))
    bad = [s for s in sizes if s not in model.key_sizes or s % 8]
    if bad:
        raise CipherbenchError(f"{model.name} has no {bad[0]}-bit keys")
    rows = random_rows(sizes, model.block_bits // 8, n, seed, key_change_every)
    return [(key, data, model.decrypt(key, data) if decrypt else model.encrypt(key, data), decrypt)
            for key, data, decrypt in rows]
