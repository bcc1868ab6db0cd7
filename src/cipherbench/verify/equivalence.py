"""Formal equivalence of component alternatives: each alternative implementation is proven equal
to its reference for every input, by SAT in Yosys, not by simulation.

Method: both Amaranth elaboratables become RTLIL (rtl.to_rtlil) under the module names ``gold``
(reference) and ``gate`` (alternative), with the same port names; Yosys builds a miter
(``miter -equiv -flatten -make_outputs``: one output ``trigger``, 1 iff some output differs) and
``sat -verify -prove trigger 0 -show-inputs`` proves the trigger unreachable. XOR-heavy linear
layers (MixColumns, the Twofish MDS) are slow for plain SAT (over a minute per 32-bit MDS): their
pairs use ABC's ``iprove`` (SAT sweeping; ``abc -script +strash;iprove`` on the same miter, without
the extra outputs), a second of work. A failed proof raises nothing by itself: :func:`prove` returns
a :class:`ProofResult` with ``proven=False`` and the counterexample inputs Yosys ``sat`` found.

Every component here is combinational. The pairs (:func:`pairs`) cover the alternatives the
component library has; where a component has no reference variant of its own (the variable
rotator, the GF(2^8) matrix multipliers), the reference is written here from the definition with
Amaranth's behavioural operators (shifts, per-byte ``xtime``), independently of the component's
construction. Multipliers (``*`` against a Wallace or array reduction) are hard for SAT at 32 bits;
they are proven at a narrower width (``MULTIPLIER_WIDTH``), where the same generator builds the
same structure, and the name of the pair says so.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from amaranth.hdl import Cat, Elaboratable, Module, Mux, Signal, Value

from ..errors import CipherbenchError, ToolFailed
from ..rtl import run_yosys_script, to_rtlil

# Width of the multiplier and RC6 f(x) proofs (see the module docstring).
MULTIPLIER_WIDTH = 8
PROOF_TIMEOUT_S = 600


@dataclass(frozen=True)
class Pair:
    """An alternative (``gate``) to prove equal to a reference (``gold``) on the listed ports."""

    component: str  # what the CLI filters on, e.g. "aes-sbox"
    name: str       # e.g. "composite = table"
    reference: Callable[[], Elaboratable]
    alternative: Callable[[], Elaboratable]
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    engine: str = "sat"  # or "abc" (see prove)

    @property
    def title(self) -> str:
        return f"{self.component}: {self.name}"


@dataclass
class ProofResult:
    pair: Pair
    proven: bool
    seconds: float
    counterexample: dict[str, int] = field(default_factory=dict)  # input port -> value
    log: str = ""

    def describe(self) -> str:
        if self.proven:
            return f"proven equal ({self.seconds:.1f} s)"
        values = ", ".join(f"{n}={v:#x}" for n, v in self.counterexample.items())
        return f"NOT EQUAL, counterexample {values or '(none parsed; see the log)'}"


# ---------------------------------------------------------------- the proof


def _rtlil(top: Elaboratable, inputs: Sequence[str], outputs: Sequence[str], name: str) -> str:
    try:
        ports = [getattr(top, n) for n in (*inputs, *outputs)]
    except AttributeError as exc:
        raise CipherbenchError(f"{type(top).__name__} has no port {exc.name}") from exc
    return to_rtlil(top, ports, name)


def prove(pair: Pair, work_dir: Path | None = None, timeout: float = PROOF_TIMEOUT_S) -> ProofResult:
    """Prove ``pair.alternative`` equal to ``pair.reference`` for all inputs (see the module
    docstring); a counterexample comes back in the result. Engine ``sat``: Yosys ``sat`` on the
    miter. Engine ``abc``: ABC ``iprove`` (SAT sweeping) on the same miter, for XOR-heavy linear
    layers where plain SAT is slow; if ABC finds the miter satisfiable, Yosys ``sat`` then produces
    the counterexample."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cipherbench-prove-") as tmp:
        folder = Path(work_dir) if work_dir is not None else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        gold, gate = folder / "gold.il", folder / "gate.il"
        gold.write_text(_rtlil(pair.reference(), pair.inputs, pair.outputs, "gold"))
        gate.write_text(_rtlil(pair.alternative(), pair.inputs, pair.outputs, "gate"))
        if pair.engine == "abc":
            log = run_yosys_script(_script(gold, gate, [
                "techmap", "opt -fast",
                # The miter has one output, trigger: UNSATISFIABLE means it can never be 1.
                "abc -script +strash;iprove"], make_outputs=False),
                folder / "prove-abc.log", timeout=timeout)
            verdicts = [line for line in log.splitlines()
                        if line.startswith("ABC: ") and "SATISFIABLE" in line]
            if verdicts and verdicts[-1].startswith("ABC: UNSATISFIABLE"):
                return ProofResult(pair, True, time.monotonic() - start, log=log)
            if not verdicts or "UNDECIDED" in verdicts[-1]:
                raise ToolFailed(f"{pair.title}: ABC could not decide the miter "
                                 f"(log: {folder / 'prove-abc.log'})")
        log_path = folder / "prove-sat.log"
        script = _script(gold, gate, [
            # -verify: Yosys exits with an error when the proof fails (after printing the model).
            f"sat -verify -prove trigger 0 -show-inputs -timeout {int(timeout)} miter"])
        try:
            log = run_yosys_script(script, log_path, timeout=timeout + 60)
        except ToolFailed as exc:
            log = log_path.read_text() if log_path.exists() else ""
            if "proof did fail" not in log:
                if "did time out" in log:
                    raise ToolFailed(f"{pair.title}: the SAT proof timed out after "
                                     f"{timeout:.0f} s") from exc
                raise
            return ProofResult(pair, False, time.monotonic() - start,
                               _counterexample(log, pair.inputs), log)
        if "SAT proof finished - no model found: SUCCESS!" not in log:
            raise ToolFailed(f"{pair.title}: Yosys ended without a proof (log: {log_path})")
        if pair.engine == "abc":  # ABC said satisfiable, SAT says not: do not trust either
            raise ToolFailed(f"{pair.title}: ABC and Yosys sat disagree (log: {folder})")
        return ProofResult(pair, True, time.monotonic() - start, log=log)


def _script(gold: Path, gate: Path, tail: list[str], make_outputs: bool = True) -> str:
    return "\n".join([
        f"read_rtlil {gold}",
        f"read_rtlil {gate}",
        # -norom: keep case-statement tables as logic (SAT has no model of ROM cells).
        "proc -norom",
        "opt_clean",
        f"miter -equiv -flatten {'-make_outputs ' if make_outputs else ''}gold gate miter",
        "hierarchy -top miter",
        "opt -fast",
        *tail,
    ])


_MODEL_LINE = re.compile(r"^\s*\\in_(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$")


def _counterexample(log: str, inputs: Sequence[str]) -> dict[str, int]:
    """The input values of Yosys' SAT model table (``\\in_<port>  dec  hex  bin``)."""
    values: dict[str, int] = {}
    for line in log.splitlines():
        match = _MODEL_LINE.match(line)
        if match and match.group(1) in inputs:
            bits = match.group(4)
            if re.fullmatch(r"[01]+", bits):
                values[match.group(1)] = int(bits, 2)
    return values


# ---------------------------------------------------------------- references written here


def _xtime(v: Value, poly: int) -> Value:
    """v * x in GF(2^8) mod poly, behaviourally: shift, and reduce if the top bit fell out."""
    shifted = Cat(0, v[:7])
    return Mux(v[7], shifted ^ (poly & 0xFF), shifted)


def _const_times(v: Value, c: int, poly: int) -> Value:
    """v * c by double-and-add over the bits of c."""
    total: Value | None = None
    power = v
    for bit in range(8):
        if c >> bit & 1:
            total = power if total is None else total ^ power
        power = _xtime(power, poly)
    return total if total is not None else v & 0


class BehavioralMatrixMul(Elaboratable):
    """Reference for components.mds.GfMatrixMul: each output byte the XOR of the input bytes times
    the matrix constants, each product by xtime and XOR (ports ``i``, ``o``)."""

    def __init__(self, matrix: Sequence[Sequence[int]], poly: int, byte_order: str = "big") -> None:
        self.matrix, self.poly, self.byte_order = matrix, poly, byte_order
        self.i = Signal(8 * len(matrix[0]))
        self.o = Signal(8 * len(matrix))

    def _byte(self, value: Value, index: int, count: int) -> Value:
        from ..components.mds import _byte_lsb

        lsb = _byte_lsb(index, count, self.byte_order)
        return value[lsb:lsb + 8]

    def elaborate(self, platform: object) -> Module:
        m = Module()
        cols, rows = len(self.matrix[0]), len(self.matrix)
        ins = [self._byte(self.i, j, cols) for j in range(cols)]
        for r, row in enumerate(self.matrix):
            acc: Value = ins[0] & 0
            for j, c in enumerate(row):
                acc = acc ^ _const_times(ins[j], c, self.poly)
            m.d.comb += self._byte(self.o, r, rows).eq(acc)
        return m


class MovedBits(Elaboratable):
    """Reference for a bit permutation given as the standards give it, by where each bit goes:
    ``o[destination(k)] = i[k]`` for every k, one assignment per bit straight from the formula
    (``inverse``: ``o[k] = i[destination(k)]``), with no table conversion (ports ``i``, ``o``)."""

    def __init__(self, destination: Callable[[int], int], width: int, inverse: bool = False) -> None:
        self.destination, self.width, self.inverse = destination, width, inverse
        self.i = Signal(width)
        self.o = Signal(width)

    def elaborate(self, platform: object) -> Module:
        m = Module()
        for k in range(self.width):
            d = self.destination(k)
            if self.inverse:
                m.d.comb += self.o[k].eq(self.i[d])
            else:
                m.d.comb += self.o[d].eq(self.i[k])
        return m


class ModelLinearMap(Elaboratable):
    """Reference for a GF(2)-linear map given by a Python function (a cipher model's): its matrix
    read off the function's images of the unit vectors, one parity per output bit (ports ``i``,
    ``o``). Valid for linear functions only, which the pairs using it are."""

    def __init__(self, function: Callable[[int], int], width: int) -> None:
        self.function, self.width = function, width
        self.i = Signal(width)
        self.o = Signal(width)

    def elaborate(self, platform: object) -> Module:
        from ..components.gf256 import linear_map

        m = Module()
        images = [self.function(1 << j) for j in range(self.width)]
        rows = [sum(((images[j] >> k) & 1) << j for j in range(self.width))
                for k in range(self.width)]
        m.d.comb += self.o.eq(linear_map(self.i, rows))
        return m


# ---------------------------------------------------------------- masked gadgets


def masked_sbox_pair(component: str, name: str, reference: Callable[[], Elaboratable],
                     gadget: Callable[[], Elaboratable], width: int, shares: int,
                     random_bits: int, engine: str = "sat") -> Pair:
    """A masked S-box (built by ``gadget`` with ``transparent=True``: its pipeline flattened)
    against the unmasked ``reference`` (ports ``i``, ``o``) for every input, every sharing (the
    free ``mask`` input) and every value of the randomness ``r`` (components/masked/views.py)."""
    from ..components.masked.views import IgnoringInputs, UnmaskedView

    mask_bits = width * (shares - 1)
    return Pair(component, name, lambda: IgnoringInputs(reference(), mask_bits, random_bits),
                lambda: UnmaskedView(gadget(), width, shares, random_bits),
                ("i", "mask", "r"), ("o",), engine)


def _dom_pairs() -> list[Pair]:
    """The DOM-indep multiplier (components/masked/dom.py) against its product's integer model,
    for every sharing and randomness, 2 and 3 shares, both register variants. The GF(2^4)
    product is left to simulation (tests/test_masked_gadgets.py): its miter against the table
    takes about a minute at 2 shares and did not finish in two at 3 (SAT and ABC alike)."""
    from ..components.masked.dom import GF2_AND, gf4_product
    from ..components.masked.views import ProductTable, UnmaskedProduct

    out = []
    for product in (GF2_AND, gf4_product()):
        for shares, engine in ((2, "sat"), (3, "abc")):
            for register in (True, False):
                variant = "" if register else ", register=False"
                out.append(Pair("dom-mul", f"{product.name}, {shares} shares{variant} = product",
                                lambda p=product, s=shares: ProductTable(p, s),
                                lambda p=product, s=shares, r=register: UnmaskedProduct(p, s, r),
                                ("a", "b", "mask_a", "mask_b", "r"), ("q",), engine))
    return out


# ---------------------------------------------------------------- the pairs


def pairs() -> list[Pair]:
    """Every alternative of the component library with its reference: the generic components
    here, then the pairs each registered cipher declares for its own (CipherInfo.proofs)."""
    from ..ciphers.registry import ciphers
    from ..components.adders import Adder, AddSub
    from ..components.multipliers import Multiplier
    from ..components.pht import PseudoHadamard
    from ..components.rotators import BarrelRotator, BehavioralRotator

    out: list[Pair] = []
    for kind in ("ripple", "kogge-stone", "brent-kung"):
        out.append(Pair("adder32", f"{kind} = behavioral (+)", lambda: Adder(32, "behavioral"),
                        lambda k=kind: Adder(32, k), ("a", "b", "ci"), ("o",)))
    for kind in ("ripple", "kogge-stone", "brent-kung"):
        out.append(Pair("addsub32", f"{kind} = behavioral (+, -)",
                        lambda: AddSub(32, "behavioral", "both"),
                        lambda k=kind: AddSub(32, k, "both"), ("a", "b", "sub"), ("o",)))
    for kind in ("ripple", "kogge-stone", "brent-kung"):
        out.append(Pair("pht32", f"{kind} = behavioral", lambda: PseudoHadamard(32, "behavioral"),
                        lambda k=kind: PseudoHadamard(32, k), ("a", "b"), ("a_out", "b_out")))
    w = MULTIPLIER_WIDTH
    for reduction in ("wallace", "array"):
        for final in ("kogge-stone", "ripple"):
            out.append(Pair(f"mul{w}", f"{reduction} + {final} = behavioral (*), {w}-bit",
                            lambda: Multiplier(w, "behavioral"),
                            lambda r=reduction, f=final: Multiplier(w, r, f), ("a", "b"), ("o",)))
    for direction in ("left", "right", "both"):
        inputs = ("i", "amount", "right") if direction == "both" else ("i", "amount")
        out.append(Pair("rot32-var", f"barrel {direction} = shifts",
                        lambda d=direction: BehavioralRotator(32, d),
                        lambda d=direction: BarrelRotator(32, d), inputs, ("o",)))
    out += _dom_pairs()
    # GHASH multipliers, proven in a narrow field of the same construction (in GF(2^128) the
    # schoolbook pair is beyond ABC; the 128-bit ones are checked by simulation, test_ghash.py).
    from ..components.ghash_mul import proof_pairs as ghash_pairs

    out += [Pair("ghash-mul", *spec) for spec in ghash_pairs()]
    for info in ciphers().values():
        if info.proofs is not None:
            out += list(info.proofs())
    return out


def select(names: Iterable[str] = ()) -> list[Pair]:
    """The pairs of the named components (all when none); an unknown name is an error."""
    every = pairs()
    wanted = list(names)
    if not wanted:
        return every
    known = sorted({p.component for p in every})
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise CipherbenchError(f"no proof for component {unknown[0]!r}; valid: {', '.join(known)}")
    return [p for p in every if p.component in wanted]
