"""Monte Carlo tests (MCT): long chains of one cipher operation with the key updated from the outputs.

Two procedures, one engine:

* **AESAVS ECB MCT** (NIST, *The Advanced Encryption Standard Algorithm Validation Suite*, section
  6.4): 100 outer iterations of 1000 chained operations. Iteration i starts from ``key[i]`` and
  input ``in[i][0]``; ``out[i][j] = E(key[i], in[i][j])`` (or D), ``in[i][j+1] = out[i][j]``. Then
  ``key[i+1] = key[i] XOR`` the last ``len(key)`` bytes of ``out[i][998] || out[i][999]`` (128-bit:
  ``out[i][999]``; 192-bit: the last 64 bits of ``out[i][998]`` then ``out[i][999]``; 256-bit: both),
  and ``in[i+1][0] = out[i][999]``. The record of iteration i (the ``COUNT=i`` of ``ECBMCT*.rsp``) is
  ``key[i]``, ``in[i][0]``, ``out[i][999]``.
* **AES-candidate ECB MCT** (the submission packages' ``ecb_e_m.txt`` / ``ecb_d_m.txt``, NIST's
  "Description of Known Answer Tests and Monte Carlo Tests for Advanced Encryption Standard (AES)
  Candidate Algorithm Submissions", 1998): the same loop with 400 outer iterations of 10,000
  operations; the record ``I=i`` holds KEY, the input and the 10,000th output.

The engine takes a *chain* function ``chain(key, data, decrypt, count) -> (out[count-2], out[count-1])``
and so runs on anything: the reference model (:func:`model_chain`), an independent library
(:func:`cryptography_aes_chain`, PyPI ``cryptography``), or a generated core in Verilator
(:func:`hardware_chain`: one ``ChainOp`` per outer iteration after a ``KeyOp``, the blocks fed back with
zero delay by the testbench).

The official ``ECBMCT*.rsp`` files are not shipped with the project; :data:`AESAVS_ECB_MCT` holds the
published seeds (``COUNT=0``) and end values (``COUNT=99``) of the six files, typed in as facts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..ciphers.base import CipherModel
from ..errors import CipherbenchError

# chain(key, data, decrypt, count) -> (second-to-last output, last output); count >= 2.
Chain = Callable[[bytes, bytes, bool, int], tuple[bytes, bytes]]

AESAVS_OUTER = 100
AESAVS_INNER = 1000
SUBMISSION_OUTER = 400
SUBMISSION_INNER = 10_000


@dataclass(frozen=True)
class Checkpoint:
    """One outer iteration: its key and input, and its last output."""

    index: int
    key: bytes
    data: bytes
    result: bytes


@dataclass(frozen=True)
class AesavsSeed:
    """An ``ECBMCT*.rsp`` section: the ``COUNT=0`` key and input, the ``COUNT=99`` output."""

    key_bits: int
    decrypt: bool
    key: bytes
    data: bytes
    final: bytes


def _seed(key_bits: int, decrypt: bool, key: str, data: str, final: str) -> AesavsSeed:
    return AesavsSeed(key_bits, decrypt, bytes.fromhex(key), bytes.fromhex(data), bytes.fromhex(final))


# NIST CAVP AESAVS ECBMCT128/192/256.rsp: for [ENCRYPT] COUNT=0 KEY and PLAINTEXT with COUNT=99
# CIPHERTEXT; for [DECRYPT] COUNT=0 KEY and CIPHERTEXT with COUNT=99 PLAINTEXT. Values quoted from
# the published files in public test programs (the 128-bit ones in two independent sources).
AESAVS_ECB_MCT: tuple[AesavsSeed, ...] = (
    _seed(128, False, "139a35422f1d61de3c91787fe0507afd", "b9145a768b7dc489a096b546f43b231f",
          "fb2649694783b551eacd9d5db6126d47"),
    _seed(128, True, "0c60e7bf20ada9baa9e1ddf0d1540726", "b08a29b11a500ea3aca42c36675b9785",
          "d1d2bfdc58ffcad2341b095bce55221e"),
    _seed(192, False, "b9a63e09e1dfc42e93a90d9bad739e5967aef672eedd5da9",
          "85a1f7a58167b389cddc8a9ff175ee26", "5d1196da8f184975e240949a25104554"),
    _seed(192, True, "4b97585701c03fbebdfa8555024f589f1482c58a00fdd9fd",
          "d0bd0e02ded155e4516be83f42d347a4", "b63ef1b79507a62eba3dafcec54a6328"),
    _seed(256, False, "f9e8389f5b80712e3886cc1fa2d28a3b8c9cd88a2d4a54c6aa86ce0fef944be0",
          "b379777f9050e2a818f2940cbbd9aba4", "c5d2cb3d5b7ff0e23e308967ee074825"),
    _seed(256, True, "2b09ba39b834062b9e93f48373b8dd018dedf1e5ba1b8af831ebbacbc92a2643",
          "89649bd0115f30bd878567610223a59d", "e3d3868f578caf34e36445bf14cefc68"),
)
# ECBMCT128.rsp [ENCRYPT] COUNT=0 CIPHERTEXT and COUNT=1 KEY (published; checks the first step).
AESAVS_ECB_MCT128_ENCRYPT_COUNT0_RESULT = bytes.fromhex("d7c3ffac9031238650901e157364c386")
AESAVS_ECB_MCT128_ENCRYPT_COUNT1_KEY = bytes.fromhex("c459caeebf2c42586c01666a9334b97b")


def aesavs_seed(key_bits: int, decrypt: bool) -> AesavsSeed:
    for seed in AESAVS_ECB_MCT:
        if seed.key_bits == key_bits and seed.decrypt == decrypt:
            return seed
    raise CipherbenchError(f"no AESAVS ECB MCT seed for {key_bits}-bit keys; valid: 128, 192, 256")


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


def aesavs_mct(chain: Chain, key_bits: int, decrypt: bool, outer: int = AESAVS_OUTER,
               inner: int = AESAVS_INNER) -> list[Checkpoint]:
    """The AESAVS ECB MCT from the published seed of ``key_bits``/direction."""
    seed = aesavs_seed(key_bits, decrypt)
    return list(run_mct(chain, seed.key, seed.data, decrypt, outer, inner))


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


def cryptography_aes_chain() -> Chain:
    """The same with PyPI ``cryptography``'s AES (OpenSSL): an implementation independent of the
    project's model."""
    try:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise CipherbenchError("the cryptography package is not installed "
                               "(pip install cryptography)") from exc

    def chain(key: bytes, data: bytes, decrypt: bool, count: int) -> tuple[bytes, bytes]:
        cipher = Cipher(algorithms.AES(key), modes.ECB())
        ctx = cipher.decryptor() if decrypt else cipher.encryptor()
        before, out = data, data
        for _ in range(count):
            before, out = out, ctx.update(out)
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

# The AES-candidate Monte Carlo files per cipher: kat folder and whether the file prints numbers
# (Serpent: reverse the bytes, as its other submission files; see /work/shared/kat/SOURCES.md).
SUBMISSION_MCT_FILES: dict[str, tuple[str, bool]] = {"serpent": ("serpent", True),
                                                      "mars": ("mars", False)}
MCT_FILE_NAMES = ("ecb_e_m.txt", "ecb_d_m.txt")


def mct_ciphers() -> tuple[str, ...]:
    """The ciphers with a Monte Carlo test here."""
    return ("aes", *SUBMISSION_MCT_FILES)


def submission_files(cipher: str) -> list[tuple[Path, bool, dict[int, list[Checkpoint]]]]:
    """(path, decrypt, checkpoints per key size) of the cipher's ECB Monte Carlo files; empty when
    the shared kat folder is absent."""
    from .vectors import kat_root

    if cipher not in SUBMISSION_MCT_FILES:
        raise CipherbenchError(f"no AES-candidate Monte Carlo files for {cipher}; "
                               f"valid: {', '.join(SUBMISSION_MCT_FILES)}")
    folder, reverse = SUBMISSION_MCT_FILES[cipher]
    root = kat_root()
    found = []
    for name in MCT_FILE_NAMES:
        path = root / folder / name if root is not None else None
        if path is not None and path.is_file():
            found.append((path, submission_direction(path, reverse),
                          submission_sections(path, reverse)))
    return found


def cipher_mct(cipher: str, chain: Chain, key_sizes: Iterable[int], directions: Iterable[bool],
               outer: int | None = None, reference: Chain | None = None,
               on_outcome: Callable[[MctOutcome], None] | None = None) -> list[MctOutcome]:
    """The Monte Carlo test of ``cipher`` through ``chain`` for each key size and direction.

    AES: the AESAVS ECB MCT (``outer`` iterations, default 100), compared iteration by iteration
    with ``reference`` (default: the reference model) and, when all 100 ran, with the published
    ``COUNT=99`` value. Serpent, MARS: the submission files' records (``outer`` default: all 400).
    """
    from ..ciphers.registry import ciphers

    sizes, dirs = sorted(set(key_sizes)), list(directions)
    outcomes: list[MctOutcome] = []

    def report(outcome: MctOutcome) -> None:
        outcomes.append(outcome)
        if on_outcome:
            on_outcome(outcome)

    if cipher == "aes":
        reference = reference or model_chain(ciphers()["aes"].model())
        count = AESAVS_OUTER if outer is None else outer
        for bits in sizes:
            for decrypt in dirs:
                name = (f"AESAVS ECB MCT {bits} {'decrypt' if decrypt else 'encrypt'} "
                        f"({count} x {AESAVS_INNER})")
                got = aesavs_mct(chain, bits, decrypt, count)
                outcome = compare_checkpoints(name, got, aesavs_mct(reference, bits, decrypt, count))
                final = aesavs_seed(bits, decrypt).final
                if count == AESAVS_OUTER and outcome.ok:
                    if got[-1].result == final:
                        outcome.passed += 1
                    else:
                        outcome.fail(f"COUNT=99: published {final.hex()}, got {got[-1].result.hex()}")
                report(outcome)
        return outcomes
    files = submission_files(cipher)
    if not files:
        raise CipherbenchError(f"no Monte Carlo files for {cipher} (set CIPHERBENCH_KAT to the "
                               "shared kat folder)")
    for path, decrypt, sections in files:
        if decrypt not in dirs:
            continue
        for bits in sizes:
            if bits not in sections:
                continue
            records = sections[bits]
            count = len(records) if outer is None else min(outer, len(records))
            name = f"{cipher} {path.name} KEYSIZE={bits} (I=0..{count - 1} x {SUBMISSION_INNER})"
            report(check_submission_mct(chain, records, decrypt, name, outer=count))
    return outcomes


def design_mct(spec: object, design_dir: Path, outer: int | None = None,
               on_outcome: Callable[[MctOutcome], None] | None = None) -> list[MctOutcome]:
    """The Monte Carlo test of a generated core (``spec`` a DesignSpec) in Verilator, every key
    size and direction it implements: one simulation (KeyOp, ChainOp) per outer iteration."""
    from ..spec import DesignSpec
    from .designs import _directions
    from .sim import Simulator

    assert isinstance(spec, DesignSpec)
    if spec.cipher not in mct_ciphers():
        raise CipherbenchError(f"no Monte Carlo test for {spec.cipher}; valid: "
                               f"{', '.join(mct_ciphers())}")
    sim = Simulator(design_dir)
    sim.build()
    return cipher_mct(spec.cipher, hardware_chain(sim), spec.key_sizes, _directions(spec),
                      outer, on_outcome=on_outcome)
