"""Verify a generated design: every known-answer set of its cipher, then random blocks against the
reference model with key changes, all by simulating the generated Verilog."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..ciphers.registry import ciphers
from ..spec import DesignSpec


@dataclass
class SetOutcome:
    name: str
    passed: int
    failed: int
    first_failures: list[str] = field(default_factory=list)


@dataclass
class VerifyReport:
    design: str
    sets: list[SetOutcome]

    @property
    def passed(self) -> int:
        return sum(s.passed for s in self.sets)

    @property
    def failed(self) -> int:
        return sum(s.failed for s in self.sets)

    def as_dict(self) -> dict[str, object]:
        return {"design": self.design, "passed": self.passed, "failed": self.failed,
                "sets": {s.name: {"passed": s.passed, "failed": s.failed} for s in self.sets}}


def applicable(case_key: bytes, case_decrypt: bool, spec: DesignSpec) -> bool:
    """A case applies if the core supports its key size and direction."""
    ops = spec.param_dict.get("ops", "both")
    if ops == "encrypt" and case_decrypt or ops == "decrypt" and not case_decrypt:
        return False
    return len(case_key) * 8 in spec.key_sizes


def verify_design(spec: DesignSpec, design_dir: Path, *, random_blocks: int = 1000,
                  seed: int = 2026, on_set: Callable[[SetOutcome], None] | None = None,
                  key_change_blocks: int = 48) -> VerifyReport:
    """Known-answer sets, random blocks against the model (a key change every few blocks, each
    drained first), then ``key_change_blocks`` blocks each under a new key offered without
    draining: a pipelined core takes them while older blocks are in flight (NSA key agility),
    any other core must hold the key until it is ready; both must give the model's results."""
    from .check import check_cases, check_key_agility, random_cases
    from .sim import Simulator

    info = ciphers()[spec.cipher]
    sim = Simulator(design_dir)
    sim.build()
    outcomes = []
    sets = list(info.vector_sets(spec.key_sizes)) if info.vector_sets else []
    for name, cases in sets:
        usable = [(c.key, c.data, c.expected, c.decrypt) for c in cases
                  if applicable(c.key, c.decrypt, spec)]
        if not usable:
            continue
        result = check_cases(sim, usable)
        outcome = SetOutcome(name, result.passed, result.failed, list(result.first_failures))
        outcomes.append(outcome)
        if on_set:
            on_set(outcome)
    if random_blocks:
        model = info.model()
        cases = [c for c in random_cases(model, spec.key_sizes, random_blocks, seed)
                 if applicable(c[0], c[3], spec)]
        result = check_cases(sim, cases)
        outcome = SetOutcome(f"random-vs-model ({len(cases)})", result.passed, result.failed,
                             list(result.first_failures))
        outcomes.append(outcome)
        if on_set:
            on_set(outcome)
    if key_change_blocks:
        model = info.model()
        for decrypt in _directions(spec):
            run = check_key_agility(sim, model, spec.key_sizes, n=key_change_blocks, seed=seed,
                                    decrypt=decrypt)
            outcome = SetOutcome(
                f"new key every block, not drained ({key_change_blocks} "
                f"{'decryptions' if decrypt else 'encryptions'}; "
                f"{run.interval:.1f} cycles between blocks)",
                run.check.passed, run.check.failed, list(run.check.first_failures))
            outcomes.append(outcome)
            if on_set:
                on_set(outcome)
    return VerifyReport(str(spec), outcomes)


def _directions(spec: DesignSpec) -> list[bool]:
    """The directions (decrypt flags) a core implements."""
    ops = spec.param_dict.get("ops", "both")
    return {"encrypt": [False], "decrypt": [True]}.get(ops, [False, True])
