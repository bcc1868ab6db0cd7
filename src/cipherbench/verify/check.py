"""Check a core against known answers: many (key, block, expected) cases in one simulation."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..ciphers.base import CipherModel
from ..errors import CipherbenchError
from .sim import BlockOp, KeyOp, Op, Simulator

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


def check_cases(sim: Simulator, cases: Iterable[Case], *, fail_limit: int = 10) -> CheckResult:
    """Run every case through the core; each key's blocks stream back to back after its key op."""
    cases = list(cases)
    if not cases:
        return CheckResult(0, 0)
    ops: list[Op] = []
    order: list[int] = []  # case index of each result, in output order
    for key, indices in _group_by_key(cases).items():
        ops.append(KeyOp(key))
        for i in indices:
            ops.append(BlockOp(cases[i][1], cases[i][3]))
            order.append(i)
    trace = sim.run(ops)
    result = CheckResult(0, 0)
    for i, got in zip(order, trace.outputs):
        key, data, expected, decrypt = cases[i]
        if got == expected:
            result.passed += 1
            continue
        result.failed += 1
        if len(result.first_failures) < fail_limit:
            result.first_failures.append(
                f"case {i}: {'decrypt' if decrypt else 'encrypt'} key={key.hex()} "
                f"in={data.hex()}: expected {expected.hex()}, got {got.hex()}")
    return result


def random_cases(model: CipherModel, key_sizes: Iterable[int], n: int, seed: int,
                 key_change_every: int = 7) -> list[Case]:
    """``n`` cases from the model: a new random key every ``key_change_every`` cases (key sizes
    taken in turn, so every size appears), random blocks, directions mixed at random."""
    sizes = sorted(set(key_sizes))
    if not sizes:
        raise CipherbenchError("random_cases needs at least one key size")
    bad = [s for s in sizes if s not in model.key_sizes or s % 8]
    if bad:
        raise CipherbenchError(f"{model.name} has no {bad[0]}-bit keys")
    if key_change_every < 1:
        raise CipherbenchError("key_change_every must be >= 1")
    rng = random.Random(seed)
    block_bytes = model.block_bits // 8
    cases: list[Case] = []
    key = b""
    for i in range(n):
        if i % key_change_every == 0:
            size = sizes[(i // key_change_every) % len(sizes)]
            key = rng.randbytes(size // 8)
        data = rng.randbytes(block_bytes)
        decrypt = rng.random() < 0.5
        expected = model.decrypt(key, data) if decrypt else model.encrypt(key, data)
        cases.append((key, data, expected, decrypt))
    return cases
