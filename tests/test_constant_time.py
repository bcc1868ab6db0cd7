"""Constant time (issue 8 item 4): cycle counts must not depend on key or data."""

from __future__ import annotations

import pytest

from cipherbench.cache import ensure_design
from cipherbench.ciphers.registry import ciphers
from cipherbench.spec import parse
from cipherbench.verify.designs import check_constant_time
from cipherbench.verify.sim import BlockOp, KeyOp, SimTrace, Simulator


@pytest.mark.parametrize("design, latency", [("aes-128/iterative", 10), ("des/iterative", 16)])
def test_iterative_cores_are_constant_time(design: str, latency: int) -> None:
    spec = parse(design)
    sim = Simulator(ensure_design(spec))
    outcome = check_constant_time(sim, ciphers()[spec.cipher].model(), spec, keys=24)
    assert outcome.failed == 0, outcome.first_failures
    assert outcome.passed == 24 * 2 * 2  # keys x directions x two blocks
    assert outcome.name == f"constant time: 96 blocks, latency {latency} cycles"


class _LeakySim:
    """A stand-in core: the model's results, 10 cycles per block, except one block that takes
    ``extra`` more (as a core that skips work for some data)."""

    def __init__(self, model, slow_block: int, extra: int = 1, wrong_block: int | None = None):
        self.model, self.slow_block, self.extra, self.wrong_block = model, slow_block, extra, wrong_block

    def run(self, ops):
        trace = SimTrace(outputs=[])
        cycle, key, block_number = 0, b"", 0
        for i, op in enumerate(ops):
            if isinstance(op, KeyOp):
                key = op.key
                trace.key_accept[i] = cycle
                cycle += 1
            elif isinstance(op, BlockOp):
                trace.block_accept[i] = [cycle]
                cycle += 10 + (self.extra if block_number == self.slow_block else 0)
                trace.block_output[i] = cycle
                out = self.model.decrypt(key, op.data) if op.decrypt else self.model.encrypt(key, op.data)
                if block_number == self.wrong_block:
                    out = bytes([out[0] ^ 1]) + out[1:]
                trace.outputs.append(out)
                block_number += 1
        return trace


def test_a_data_dependent_cycle_fails_the_set() -> None:
    spec = parse("aes-128/iterative")
    model = ciphers()["aes"].model()
    good = check_constant_time(_LeakySim(model, slow_block=-1), model, spec, keys=8)
    assert good.failed == 0 and good.passed == 32
    leaky = check_constant_time(_LeakySim(model, slow_block=5), model, spec, keys=8)
    assert leaky.failed == 2 and leaky.passed == 30
    assert "usually" in leaky.first_failures[0]
    wrong = check_constant_time(_LeakySim(model, slow_block=-1, wrong_block=3), model, spec, keys=8)
    assert wrong.failed == 2 and "wrong result" in wrong.first_failures[0]
