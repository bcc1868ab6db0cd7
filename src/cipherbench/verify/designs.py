"""Verify a generated design: every known-answer set of its cipher, then random blocks against the
reference model and against an independent oracle (verify/oracles.py) with key changes, all by
simulating the generated Verilog."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..ciphers.registry import ciphers
from ..spec import DesignSpec

if TYPE_CHECKING:
    from ..ciphers.base import CipherModel
    from .sim import Simulator

T = TypeVar("T")


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
    # What was not checked and why (an oracle whose package is not installed).
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(s.passed for s in self.sets)

    @property
    def failed(self) -> int:
        return sum(s.failed for s in self.sets)

    def first_failures(self, limit: int = 3) -> list[str]:
        """The first mismatch of each failing set, as "set: case", for one-line errors."""
        return [f"{s.name}: {s.first_failures[0]}" for s in self.sets
                if s.failed and s.first_failures][:limit]

    def as_dict(self) -> dict[str, object]:
        return {"design": self.design, "passed": self.passed, "failed": self.failed,
                "sets": {s.name: {"passed": s.passed, "failed": s.failed} for s in self.sets}}


def applicable(case_key: bytes, case_decrypt: bool, spec: DesignSpec) -> bool:
    """A case applies if the core supports its key size and direction."""
    ops = spec.param_dict.get("ops", "both")
    if ops == "encrypt" and case_decrypt or ops == "decrypt" and not case_decrypt:
        return False
    return len(case_key) * 8 in spec.key_sizes


def spread(cases: list[T], most: int | None) -> list[T]:
    """At most ``most`` of ``cases``, evenly spaced from the first to the last, so a sample of a
    vector file still reaches its ends (a file's sections: variable key, then variable text)."""
    if most is None or len(cases) <= most:
        return cases
    if most <= 1:
        return cases[:most]
    return [cases[round(i * (len(cases) - 1) / (most - 1))] for i in range(most)]


def verify_design(spec: DesignSpec, design_dir: Path, *, random_blocks: int = 1000,
                  seed: int = 2026, on_set: Callable[[SetOutcome], None] | None = None,
                  key_change_blocks: int = 48, constant_time_keys: int = 24,
                  oracle_blocks: int = 200, mct_outer: int = 0,
                  trace: bool = False,
                  known_answer_per_set: int | None = None,
                  simulator: Any = None) -> VerifyReport:
    """Known-answer sets, random blocks against the model (a key change every few blocks, each
    drained first), ``oracle_blocks`` random blocks against the cipher's independent oracle (a
    note instead where its package is missing), the first ``mct_outer`` outer iterations of the
    cipher's Monte Carlo test if it has one (AESAVS; the Serpent and MARS submission files), then
    ``key_change_blocks`` blocks each under a new key offered without draining: a pipelined core takes them while older blocks are in flight (NSA key agility),
    any other core must hold the key until it is ready; both must give the model's results.
    Last, the constant-time set: ``constant_time_keys`` random keys per key size and direction,
    two random blocks under each (see ``check_constant_time``). ``known_answer_per_set``: at most
    that many vectors of each known-answer set, spread over it (``spread``); all of them if None.
    ``simulator``: what runs the operations, if not the design's Verilator testbench (anything
    with ``build()`` and ``run(ops)``: the de-synchronized core's timed simulation,
    flows/desync/replay.py)."""
    from .check import check_cases, check_key_agility, random_cases
    from .sim import Simulator

    info = ciphers()[spec.cipher]
    sim = simulator if simulator is not None else Simulator(design_dir, trace=trace)
    sim.build()
    outcomes: list[SetOutcome] = []
    notes: list[str] = []

    def add(outcome: SetOutcome) -> None:
        outcomes.append(outcome)
        if on_set:
            on_set(outcome)

    sets = list(info.vector_sets(spec.key_sizes)) if info.vector_sets else []
    for name, cases in sets:
        usable = [(c.key, c.data, c.expected, c.decrypt) for c in cases
                  if applicable(c.key, c.decrypt, spec)]
        if not usable:
            continue
        chosen = spread(usable, known_answer_per_set)
        if len(chosen) < len(usable):
            name = f"{name} ({len(chosen)} of {len(usable)})"
        result = check_cases(sim, chosen)
        add(SetOutcome(name, result.passed, result.failed, list(result.first_failures)))
    if random_blocks:
        model = info.model()
        cases = [c for c in random_cases(model, spec.key_sizes, random_blocks, seed)
                 if applicable(c[0], c[3], spec)]
        result = check_cases(sim, cases)
        add(SetOutcome(f"random-vs-model ({len(cases)})", result.passed, result.failed,
                       list(result.first_failures)))
    if oracle_blocks:
        for outcome in check_against_oracle(sim, spec, oracle_blocks, seed, notes):
            add(outcome)
    if mct_outer:
        for outcome in check_monte_carlo(sim, spec, mct_outer, notes):
            add(outcome)
    if key_change_blocks:
        model = info.model()
        for decrypt in spec.decrypt_flags:
            run = check_key_agility(sim, model, spec.key_sizes, n=key_change_blocks, seed=seed,
                                    decrypt=decrypt)
            add(SetOutcome(
                f"new key every block, not drained ({key_change_blocks} "
                f"{'decryptions' if decrypt else 'encryptions'}; "
                f"{run.interval:.1f} cycles between blocks)",
                run.check.passed, run.check.failed, list(run.check.first_failures)))
    if constant_time_keys:
        add(check_constant_time(sim, info.model(), spec, keys=constant_time_keys, seed=seed))
    return VerifyReport(str(spec), outcomes, notes)


ORACLE_SET = "random-vs-oracle"
MCT_SET = "monte-carlo"


def check_monte_carlo(sim: Simulator, spec: DesignSpec, outer: int,
                      notes: list[str]) -> list[SetOutcome]:
    """The first ``outer`` outer iterations (of 1,000 or 10,000 chained blocks each) of the
    cipher's Monte Carlo test, per key size and direction; a note in ``notes`` where the cipher
    has none or its files are absent."""
    from ..errors import CipherbenchError
    from .mct import cipher_mct, hardware_chain, mct_ciphers

    if spec.cipher not in mct_ciphers():
        notes.append(f"{MCT_SET}: none for {spec.cipher}")
        return []
    try:
        runs = cipher_mct(spec.cipher, hardware_chain(sim), spec.key_sizes, spec.decrypt_flags,
                          outer)
    except CipherbenchError as why:
        notes.append(f"{MCT_SET}: not checked ({why})")
        return []
    return [SetOutcome(f"{MCT_SET}: {run.name}", run.passed, run.failed, list(run.first_failures))
            for run in runs]


def check_against_oracle(sim: Simulator, spec: DesignSpec, blocks: int, seed: int,
                         notes: list[str]) -> list[SetOutcome]:
    """``blocks`` random blocks (a new key every 5, key sizes in turn, the core's directions)
    against the cipher's independent oracle; a note in ``notes`` instead where the oracle's
    package is missing."""
    from .check import check_cases, random_rows
    from .oracles import OracleUnavailable, oracle_for

    try:
        oracle = oracle_for(spec.cipher)
    except OracleUnavailable as why:
        notes.append(f"{ORACLE_SET}: not checked ({why})")
        return []
    block_bytes = ciphers()[spec.cipher].block_bits // 8
    rows = random_rows(spec.key_sizes, block_bytes, blocks, f"{seed}-oracle", 5,
                       spec.decrypt_flags)
    cases = [(key, data, want, decrypt)
             for (key, data, decrypt), want in zip(rows, oracle.answer(rows), strict=True)]
    result = check_cases(sim, cases)
    return [SetOutcome(f"{ORACLE_SET} ({len(cases)}, {oracle.name})", result.passed,
                       result.failed, list(result.first_failures))]


def check_constant_time(sim: Simulator, model: CipherModel, spec: DesignSpec, keys: int = 24,
                        seed: int = 2026) -> SetOutcome:
    """Cycle counts must not depend on key or data (issue 8). For every key size and direction the
    core implements: ``keys`` random keys, each loaded (drained) and followed by two random blocks
    back to back. Per group the cycles from key acceptance to the first block's acceptance (key
    setup), from each block's acceptance to its result (latency) and between the two acceptances
    must be the same for every key and block; each block whose figures differ from the group's
    most common ones is a failure, as is a wrong result. One simulation for all groups."""
    import random
    from collections import Counter

    from .sim import BlockOp, KeyOp, Op

    rng = random.Random(seed ^ 0xC7)
    nbytes = model.block_bits // 8
    ops: list[Op] = []
    # (group label, key op, first block op, second block op)
    plan: list[tuple[str, int, int, int]] = []
    expected: dict[int, bytes] = {}
    for bits in spec.key_sizes:
        for decrypt in spec.decrypt_flags:
            label = f"{bits}-bit {'decrypt' if decrypt else 'encrypt'}"
            for _ in range(keys):
                key = rng.randbytes(bits // 8)
                ops.append(KeyOp(key))
                indices = [len(ops) - 1]
                for _ in range(2):
                    data = rng.randbytes(nbytes)
                    ops.append(BlockOp(data, decrypt))
                    expected[len(ops) - 1] = (model.decrypt(key, data) if decrypt
                                              else model.encrypt(key, data))
                    indices.append(len(ops) - 1)
                plan.append((label, *indices))
    trace = sim.run(ops)
    results = dict(zip([i for i, op in enumerate(ops) if isinstance(op, BlockOp)], trace.outputs))
    acc, out, key_acc = trace.block_accept, trace.block_output, trace.key_accept

    def figures(k: int, b1: int, b2: int) -> dict[str, int]:
        return {"key setup": acc[b1][0] - key_acc[k],
                "latency": out[b1] - acc[b1][0],
                "second latency": out[b2] - acc[b2][0],
                "cycles between blocks": acc[b2][0] - acc[b1][0]}

    groups: dict[str, list[tuple[int, int, int, dict[str, int]]]] = {}
    for label, k, b1, b2 in plan:
        groups.setdefault(label, []).append((k, b1, b2, figures(k, b1, b2)))
    passed, failed, failures = 0, 0, []
    latencies: set[int] = set()
    for label, rows in groups.items():
        usual = {name: Counter(f[name] for *_, f in rows).most_common(1)[0][0]
                 for name in rows[0][3]}
        latencies.update((usual["latency"], usual["second latency"]))
        for k, b1, b2, f in rows:
            key_op = ops[k]
            assert isinstance(key_op, KeyOp)
            problems = [f"{name} {f[name]} cycles (usually {usual[name]})"
                        for name in usual if f[name] != usual[name]]
            problems += [f"wrong result for block {ops[b].data.hex()}: expected "  # type: ignore[union-attr]
                         f"{expected[b].hex()}, got {results[b].hex()}"
                         for b in (b1, b2) if results[b] != expected[b]]
            if problems:
                failed += 2
                if len(failures) < 10:
                    failures.append(f"{label} key={key_op.key.hex()}: " + "; ".join(problems))
            else:
                passed += 2
    low, high = min(latencies), max(latencies)
    latency = f"{low}" if low == high else f"{low}..{high}"
    return SetOutcome(f"constant time: {passed + failed} blocks, latency {latency} cycles",
                      passed, failed, failures)
