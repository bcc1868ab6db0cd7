"""Monte Carlo tests (MCT): long chains of one cipher operation with the key updated from the outputs.

The procedure (NIST, *The Advanced Encryption Standard Algorithm Validation Suite*, section 6.4, and
the AES-candidate submission packages): outer iterations of chained operations. Iteration i
starts from ``key[i]`` and input ``in[i][0]``; ``out[i][j] = E(key[i], in[i][j])`` (or D),
``in[i][j+1] = out[i][j]``. Then ``key[i+1] = key[i] XOR`` the last ``len(key)`` bytes of
``out[i][n-2] || out[i][n-1]``, and ``in[i+1][0] = out[i][n-1]``. The record of iteration i is
``key[i]``, ``in[i][0]``, ``out[i][n-1]``.

A cipher that has a Monte Carlo test declares it in its folder (``CipherInfo.monte_carlo``): a
callable ``(chain, key_sizes, directions, outer, reference)`` yielding one :class:`MctOutcome`
per key size and direction. :class:`SubmissionMct` is that callable for the AES-candidate ECB
files (``ecb_e_m.txt`` / ``ecb_d_m.txt``, 400 outer iterations of 10,000 operations: "Description
of Known Answer Tests and Monte Carlo Tests for Advanced Encryption Standard (AES) Candidate
Algorithm Submissions", 1998) in the cipher's kat folder; a cipher with published seeds instead
writes its own from :func:`run_mct` and :func:`compare_checkpoints`.

The engine takes a *chain* function ``chain(key, data, decrypt, count) -> (out[count-2], out[count-1])``
and so runs on anything: the reference model (:func:`model_chain`), an independent library, or a
generated core in Verilator (:func:`hardware_chain`: one ``ChainOp`` per outer iteration after a
``KeyOp``, the blocks fed back with zero delay by the testbench).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..ciphers.base import CipherModel
from ..errors import CipherbenchError

# chain(key, data, decrypt, count) -> (second-to-last output, last output); count >= 2.
Chain = Callable[[bytes, bytes, bool, int], tuple[bytes, bytes]]

SUBMISSION_OUTER = 400
SUBMISSION_INNER = 10_000


@dataclass(frozen=True)
class Checkpoint:
    """One outer iteration: its key and input, and its last output."""

    index: int
    key: bytes
    data: bytes
    result: bytes


# ---------------------------------------------------------------- the procedure


def next_key(key: bytes, before_last: bytes, last: bytes) -> bytes:
    """``key XOR`` the last ``len(key)`` bytes of ``before_last || last`` (AESAVS 6.4; the
    AES-candidate files use the same rule)."""
    tail = (before_last + last)[-len(key):]
    if len(tail) != len(key):
        raise CipherbenchError(f"a {len(key) * 8}-bit key needs more than two output blocks")
    return bytes(a ^ b for a, b in zip(key, tail))


def run_mct(chain: Chain, key: bytes, data: bytes, decrypt: bool, outer: int,
            inner: int) -> Iterator[Checkpoint]:
    """The Monte Carlo procedure (see the module docstring): yields one checkpoint per outer
    iteration, so a caller may stop early or compare as it goes."""
    for checkpoint, _ in _iterations(chain, key, data, decrypt, outer, inner):
        yield checkpoint


def _iterations(chain: Chain, key: bytes, data: bytes, decrypt: bool, outer: int,
                inner: int) -> Iterator[tuple[Checkpoint, bytes]]:
    """Each checkpoint with the key of the iteration after it."""
    if inner < 2:
        raise CipherbenchError("a Monte Carlo test needs at least 2 inner iterations")
    for i in range(outer):
        before_last, last = chain(key, data, decrypt, inner)
        following = next_key(key, before_last, last)
        yield Checkpoint(i, key, data, last), following
        key, data = following, last


# ---------------------------------------------------------------- chains


def model_chain(model: CipherModel) -> Chain:
    """``count`` chained operations of a reference model."""
    def chain(key: bytes, data: bytes, decrypt: bool, count: int) -> tuple[bytes, bytes]:
        op = model.decrypt if decrypt else model.encrypt
        before, out = data, data
        for _ in range(count):
            before, out = out, op(key, out)
        return before, out
    return chain


def hardware_chain(sim: object) -> Chain:
    """Chained operations on a generated core (a ``verify.sim.Simulator``): per call one
    simulation, ``KeyOp(key)`` then one ``ChainOp`` of ``count`` blocks. A key longer than the
    block also needs the second-to-last output: the chain then stops one block short and a second
    run (the same key) does the last block."""
    from .sim import BlockOp, ChainOp, KeyOp, Simulator

    assert isinstance(sim, Simulator)
    # The testbench's hang detector counts cycles without a transfer; a chain transfers a block
    # every few dozen cycles, but a slow key setup must not look like a hang.
    timeout = 1_000_000

    def chain(key: bytes, data: bytes, decrypt: bool, count: int) -> tuple[bytes, bytes]:
        block = len(data)
        if len(key) <= block:
            trace = sim.run([KeyOp(key), ChainOp(data, decrypt, count)], timeout_cycles=timeout)
            # next_key reads only the last output when the key fits in one block.
            return bytes(block), trace.outputs[0]
        first = sim.run([KeyOp(key), ChainOp(data, decrypt, count - 1)], timeout_cycles=timeout)
        before = first.outputs[0]
        second = sim.run([KeyOp(key), BlockOp(before, decrypt)], timeout_cycles=timeout)
        return before, second.outputs[0]
    return chain


# ---------------------------------------------------------------- comparing with records


@dataclass
class MctOutcome:
    """Checkpoints compared with expected records: how many agreed, the first disagreements."""

    name: str
    passed: int = 0
    failed: int = 0
    first_failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.passed > 0

    def fail(self, text: str, limit: int = 5) -> None:
        self.failed += 1
        if len(self.first_failures) < limit:
            self.first_failures.append(text)


def compare_checkpoints(name: str, got: Iterable[Checkpoint], expected: Iterable[Checkpoint],
                        stop_at_first: bool = True) -> MctOutcome:
    """Compare key, input and result of each iteration. A chain that goes wrong stays wrong, so by
    default the comparison stops at the first bad iteration (the rest would not run)."""
    outcome = MctOutcome(name)
    for g, e in zip(got, expected):
        diffs = [f"{what} expected {b.hex()}, got {a.hex()}"
                 for what, a, b in (("key", g.key, e.key), ("input", g.data, e.data),
                                    ("result", g.result, e.result)) if a != b]
        if diffs:
            outcome.fail(f"iteration {e.index}: " + "; ".join(diffs))
            if stop_at_first:
                break
        else:
            outcome.passed += 1
    return outcome


def submission_sections(path: str | Path, reverse_submission_hex: bool = False
                        ) -> dict[int, list[Checkpoint]]:
    """An AES-candidate ECB Monte Carlo file (``ecb_e_m.txt``/``ecb_d_m.txt``) as checkpoints per
    key size, in ``I`` order. Serpent's files print numbers: ``reverse_submission_hex=True``
    (as for its other submission files, verify.kat_formats)."""
    from .kat_formats import read_submission_mct

    kat = read_submission_mct(path, reverse_submission_hex)
    sections: dict[int, list[Checkpoint]] = {}
    for record in kat.monte_carlo:
        if record.mode != "ecb":
            raise CipherbenchError(f"{record.source}: a {record.mode.upper()} Monte Carlo record; "
                                   "only ECB files (ecb_e_m.txt, ecb_d_m.txt) are supported")
        if record.index is None:
            raise CipherbenchError(f"{record.source}: record without I=")
        section = sections.setdefault(len(record.key) * 8, [])
        if record.index != len(section):
            raise CipherbenchError(f"{record.source}: I={record.index} out of order "
                                   f"(expected I={len(section)})")
        section.append(Checkpoint(record.index, record.key, record.data, record.expected))
    return sections


def submission_direction(path: str | Path, reverse_submission_hex: bool = False) -> bool:
    """True if the file is a decryption MCT (its records give CT before PT)."""
    from .kat_formats import read_submission_mct

    records = read_submission_mct(path, reverse_submission_hex).monte_carlo
    if not records:
        raise CipherbenchError(f"{path}: no Monte Carlo records")
    return records[0].decrypt


def check_submission_mct(chain: Chain, expected: list[Checkpoint], decrypt: bool, name: str,
                         outer: int | None = None, inner: int = SUBMISSION_INNER) -> MctOutcome:
    """Run the AES-candidate procedure from the first record for ``outer`` iterations (default:
    all the file has) and compare every record on the way; the key and input of the record after
    the last one run are compared too, so even one iteration checks the key update."""
    if not expected:
        raise CipherbenchError(f"{name}: no records")
    count = len(expected) if outer is None else min(outer, len(expected))
    first = expected[0]
    runs = list(_iterations(chain, first.key, first.data, decrypt, count, inner))
    outcome = compare_checkpoints(name, [c for c, _ in runs], expected[:count])
    if outcome.ok and count < len(expected):
        following, last = expected[count], runs[-1][0]
        if (following.key, following.data) == (runs[-1][1], last.result):
            outcome.passed += 1
        else:
            outcome.fail(f"iteration {following.index}: key expected {following.key.hex()}, got "
                         f"{runs[-1][1].hex()}; input expected {following.data.hex()}, got "
                         f"{last.result.hex()}")
    return outcome


# ---------------------------------------------------------------- whole tests for a cipher or a core

MCT_FILE_NAMES = ("ecb_e_m.txt", "ecb_d_m.txt")


@dataclass(frozen=True)
class SubmissionMct:
    """A cipher's Monte Carlo test from its AES-candidate ECB Monte Carlo files in the shared kat
    folder ``folder``; ``reverse``: the files print numbers (reverse the bytes, as for the
    cipher's other submission files). Use as ``CipherInfo.monte_carlo``."""

    folder: str
    reverse: bool = False

    def files(self) -> list[tuple[Path, bool, dict[int, list[Checkpoint]]]]:
        """(path, decrypt, checkpoints per key size) of each file found; empty when the shared
        kat folder is absent."""
        from .vectors import kat_root

        root = kat_root()
        found = []
        for name in MCT_FILE_NAMES:
            path = root / self.folder / name if root is not None else None
            if path is not None and path.is_file():
                found.append((path, submission_direction(path, self.reverse),
                              submission_sections(path, self.reverse)))
        return found

    def __call__(self, chain: Chain, key_sizes: Iterable[int], directions: Iterable[bool],
                 outer: int | None = None, reference: Chain | None = None
                 ) -> Iterator[MctOutcome]:
        """The files' records from the first, ``outer`` of them (default: all 400) per key size
        and direction; ``reference`` is not needed (the files hold the expected values)."""
        files = self.files()
        if not files:
            raise CipherbenchError(f"no Monte Carlo files in kat/{self.folder} (set "
                                   "CIPHERBENCH_KAT to the shared kat folder)")
        sizes, dirs = sorted(set(key_sizes)), list(directions)
        for path, decrypt, sections in files:
            if decrypt not in dirs:
                continue
            for bits in sizes:
                if bits not in sections:
                    continue
                records = sections[bits]
                count = len(records) if outer is None else min(outer, len(records))
                name = (f"{self.folder} {path.name} KEYSIZE={bits} (I=0..{count - 1} x "
                        f"{SUBMISSION_INNER})")
                yield check_submission_mct(chain, records, decrypt, name, outer=count)


def mct_ciphers() -> tuple[str, ...]:
    """The ciphers with a Monte Carlo test (CipherInfo.monte_carlo)."""
    from ..ciphers.registry import ciphers

    return tuple(name for name, info in ciphers().items() if info.monte_carlo is not None)


def cipher_mct(cipher: str, chain: Chain, key_sizes: Iterable[int], directions: Iterable[bool],
               outer: int | None = None, reference: Chain | None = None,
               on_outcome: Callable[[MctOutcome], None] | None = None) -> list[MctOutcome]:
    """The Monte Carlo test of ``cipher`` (its CipherInfo.monte_carlo) through ``chain`` for each
    key size and direction: ``outer`` outer iterations (default: the whole test), compared with
    the published records or with ``reference`` (default: the cipher's own choice, the
    reference model)."""
    from ..ciphers.registry import ciphers

    test = ciphers()[cipher].monte_carlo
    if test is None:
        raise CipherbenchError(f"no Monte Carlo test for {cipher}; valid: "
                               f"{', '.join(mct_ciphers())}")
    outcomes: list[MctOutcome] = []
    for outcome in test(chain, key_sizes, directions, outer, reference):
        outcomes.append(outcome)
        if on_outcome:
            on_outcome(outcome)
    return outcomes


def design_mct(spec: object, design_dir: Path, outer: int | None = None,
               on_outcome: Callable[[MctOutcome], None] | None = None) -> list[MctOutcome]:
    """The Monte Carlo test of a generated core (``spec`` a DesignSpec) in Verilator, every key
    size and direction it implements: one simulation (KeyOp, ChainOp) per outer iteration."""
    from ..spec import DesignSpec
    from .sim import Simulator

    assert isinstance(spec, DesignSpec)
    if spec.cipher not in mct_ciphers():
        raise CipherbenchError(f"no Monte Carlo test for {spec.cipher}; valid: "
                               f"{', '.join(mct_ciphers())}")
    sim = Simulator(design_dir)
    sim.build()
    return cipher_mct(spec.cipher, hardware_chain(sim), spec.key_sizes, spec.decrypt_flags,
                      outer, on_outcome=on_outcome)
