"""Find a Liberty library and read the few facts the ASIC flow needs from it.

We do not parse Liberty fully: a regex pass over `cell` and `pin` groups finds each cell's area,
its pins' directions, functions and capacitances, and whether it is sequential. That is enough
to pick the reference NAND2 (1 gate equivalent), a buffer for ABC's input drive model, and to
count flip-flops. NanGate45 (about 7 MB) reads in well under a second.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from ..errors import CipherbenchError
from .libraries import DEFAULT_KIT, KITS, is_kit, kit_liberty, kit_named_by_path
from .liberty_cache import cache_dir

T = TypeVar("T")

ENV_LIBERTY = "CIPHERBENCH_LIBERTY"

# Liberty files under $PDK_ROOT in the open_pdks layout, most common first.
_PDK_ROOT_CANDIDATES = (
    "sky130A/libs.ref/sky130_fd_sc_hd/lib/sky130_fd_sc_hd__tt_025C_1v80.lib",
    "sky130B/libs.ref/sky130_fd_sc_hd/lib/sky130_fd_sc_hd__tt_025C_1v80.lib",
)

_CAP_UNIT_TO_FF = {"ff": 1.0, "pf": 1e3, "nf": 1e6}

_NUMBER = r"([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)"
_NAME = r'"?([^"\s)]+)"?'
_RE_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_RE_LIBRARY = re.compile(r"^\s*library\s*\(\s*" + _NAME + r"\s*\)\s*\{")
_RE_CELL = re.compile(r"(?<![\w.])cell\s*\(\s*" + _NAME + r"\s*\)\s*\{")
_RE_PIN = re.compile(r"(?<![\w.])pin\s*\(\s*" + _NAME + r"\s*\)\s*\{")
_RE_AREA = re.compile(r"(?<![\w.])area\s*:\s*" + _NUMBER)
_RE_DONT_USE = re.compile(r"(?<![\w.])dont_use\s*:\s*\"?true")
# Isolation cells, level shifters and I/O pads (the OSU kits' PADINC, PADOUT, ...: a PADOUT is a
# 27,000 um2 buffer that a delay-driven mapper would otherwise take for a strong driver).
_RE_SPECIAL = re.compile(r"(?<![\w.])(is_isolation_cell|is_level_shifter|pad_cell)\s*:\s*\"?true")
_RE_PG_TYPE = re.compile(r"(?<![\w.])pg_type\s*:\s*\"?(\w+)")
_ORDINARY_PG_TYPES = {"primary_power", "primary_ground", "nwell", "pwell"}
_RE_SEQUENTIAL = re.compile(r"(?<![\w.])(ff|latch|ff_bank|latch_bank|statetable)\s*\(")
_RE_LATCH = re.compile(r"(?<![\w.])(latch|latch_bank)\s*\(")
_RE_DIRECTION = re.compile(r"(?<![\w.])direction\s*:\s*\"?(\w+)")
_RE_FUNCTION = re.compile(r"(?<![\w.])function\s*:\s*\"([^\"]*)\"")
_RE_CAPACITANCE = re.compile(r"(?<![\w.])capacitance\s*:\s*" + _NUMBER)
_RE_TIME_UNIT = re.compile(r"(?<![\w.])time_unit\s*:\s*\"?([^\";\s]+)")
_RE_DEFAULT_WIRE_LOAD = re.compile(r"(?<![\w.])default_wire_load\s*:\s*\"?([^\";\s]+)")
_RE_CAP_UNIT = re.compile(r"(?<![\w.])capacitive_load_unit\s*\(\s*" + _NUMBER + r"\s*,\s*\"?(\w+)")


@dataclass(frozen=True)
class Pin:
    name: str
    direction: str
    function: str | None
    capacitance: float | None


@dataclass(frozen=True)
class Cell:
    name: str
    area: float
    pins: tuple[Pin, ...]
    sequential: bool
    dont_use: bool
    special: bool  # isolation cell, level shifter or extra power domain: not for plain logic
    latch: bool = False  # level-sensitive storage (a `latch` group), not an edge-triggered ff

    def inputs(self) -> list[Pin]:
        return [p for p in self.pins if p.direction == "input"]

    def outputs(self) -> list[Pin]:
        return [p for p in self.pins if p.direction == "output"]


@dataclass(frozen=True)
class Liberty:
    """The facts of one Liberty file that the flows use, with its provenance."""

    source: Path  # the file as given (maybe .lib.gz)
    path: Path  # a plain-text copy every tool can read (OpenSTA 2.0.17 cannot read .gz)
    name: str  # the `library (...)` name
    sha256: str  # of the uncompressed Liberty text, so .lib and .lib.gz hash alike
    time_unit: str
    cells: dict[str, Cell]
    nand2: Cell  # smallest 2-input NAND: the gate equivalent
    buffer: Cell | None  # smallest non-inverting buffer, used as ABC's input driver
    cap_unit_ff: float  # one capacitive_load_unit in femtofarads
    # The library's default wire-load model, which OpenSTA applies to every net unless told
    # otherwise (None: nets carry only their pins' capacitance).
    default_wire_load: str | None = None

    @property
    def special_cells(self) -> list[str]:
        """Cells no logic should be mapped onto (see Cell.special), sorted."""
        return sorted(name for name, cell in self.cells.items() if cell.special)

    @property
    def sequential_cells(self) -> frozenset[str]:
        return frozenset(name for name, cell in self.cells.items() if cell.sequential)

    @property
    def latch_cells(self) -> frozenset[str]:
        return frozenset(name for name, cell in self.cells.items() if cell.latch)

    def nand2_input_cap_ff(self) -> float | None:
        caps = [p.capacitance for p in self.nand2.inputs() if p.capacitance is not None]
        return max(caps) * self.cap_unit_ff if caps else None


# ---- finding the file ------------------------------------------------------------------------


def find_liberty(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The Liberty to use: an explicit path or built-in kit name, else $CIPHERBENCH_LIBERTY,
    else one under $PDK_ROOT, else the built-in ``osu018`` kit (flows/libraries.py)."""
    configured = configured_liberty(explicit)
    return resolve_liberty(configured if configured is not None else DEFAULT_KIT)


def configured_liberty(explicit: str | os.PathLike[str] | None = None) -> str | None:
    """What the user configured, if anything: --liberty, else $CIPHERBENCH_LIBERTY, else a
    Liberty under $PDK_ROOT (a path or a built-in kit name, not yet checked)."""
    for value in (explicit, os.environ.get(ENV_LIBERTY)):
        if value:
            return str(value)
    pdk_root = os.environ.get("PDK_ROOT")
    if pdk_root:
        for candidate in _PDK_ROOT_CANDIDATES:
            path = Path(pdk_root) / candidate
            if path.is_file():
                return str(path)
    return None


def resolve_liberty(value: str | os.PathLike[str]) -> Path:
    """A built-in kit's Liberty (``osu018``, ``osu035``, ``osu050``), or the file at a path."""
    if is_kit(str(value)):
        return kit_liberty(str(value))
    path = Path(value).expanduser()
    if not path.is_file():
        raise CipherbenchError(f"Liberty file {path} not found: give an existing .lib or .lib.gz "
                               f"path, or a built-in library ({', '.join(KITS)})")
    kit = kit_named_by_path(path)
    return kit_liberty(kit) if kit is not None else path


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def plain_copy(source: Path) -> Path:
    """A path to the uncompressed Liberty: the file itself, or a cached decompressed copy.

    The cache is keyed by the sha256 of the compressed file, so a changed .gz never reuses a
    stale copy; the copy is written to a temporary name and renamed so parallel jobs are safe.
    """
    if source.suffix != ".gz":
        return source
    target = cache_dir() / "liberty" / f"{_file_sha256(source)}.lib"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out, gzip.open(source, "rb") as src:
            shutil.copyfileobj(src, out, 1 << 20)
        os.replace(tmp, target)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        Path(tmp).unlink(missing_ok=True)
        raise CipherbenchError(f"Liberty {source} is malformed: cannot decompress ({exc})") from exc
    return target


# ---- reading it ------------------------------------------------------------------------------


def load_liberty(explicit: str | os.PathLike[str] | None = None) -> Liberty:
    """Find, decompress if needed, and read a Liberty library."""
    source = find_liberty(explicit).resolve()
    stat = source.stat()
    return _load(source, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _load(source: Path, _mtime_ns: int, _size: int) -> Liberty:
    # mtime and size are in the key only so that an edited file is read again.
    path = plain_copy(source)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return parse_liberty(text, source=source, path=path, sha256=hashlib.sha256(raw).hexdigest())


def parse_liberty(text: str, *, source: Path, path: Path, sha256: str) -> Liberty:
    text = _RE_COMMENT.sub(" ", text).replace("\\\n", " ")
    header = _RE_LIBRARY.match(text)
    if header is None:
        raise CipherbenchError(f"Liberty {source} is malformed: no 'library (NAME) {{' header")
    if text.count("{") != text.count("}"):
        raise CipherbenchError(
            f"Liberty {source} is malformed: {text.count('{')} '{{' but {text.count('}')} '}}'"
        )
    cells = _parse_cells(text, source)
    if not cells:
        raise CipherbenchError(f"Liberty {source} is malformed: it defines no cells")
    nand2 = _smallest(c for c in cells.values() if _is_nand2(c))
    if nand2 is None:
        raise CipherbenchError(f"Liberty {source} has no 2-input NAND cell; gate equivalents need one")
    time_unit = _RE_TIME_UNIT.search(text)
    wire_load = _RE_DEFAULT_WIRE_LOAD.search(text)
    return Liberty(
        source=source, path=path, name=header.group(1), sha256=sha256,
        time_unit=time_unit.group(1) if time_unit else "1ns",
        cells=cells, nand2=nand2,
        buffer=_smallest(c for c in cells.values() if _is_buffer(c)),
        cap_unit_ff=_cap_unit_ff(text),
        default_wire_load=wire_load.group(1) if wire_load else None,
    )


def _cap_unit_ff(text: str) -> float:
    match = _RE_CAP_UNIT.search(text)
    if match is None:
        return 1e3  # the Liberty default unit is 1 pF
    return float(match.group(1)) * _CAP_UNIT_TO_FF.get(match.group(2).lower(), 1e3)


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[str, str]]:
    """(name, body) of each group header: a body runs to the next header of the same kind.

    Cheaper than matching braces, and exact enough for the attributes we read, which all sit
    directly in cell and pin groups.
    """
    matches = list(pattern.finditer(text))
    ends = [m.start() for m in matches[1:]] + [len(text)]
    return [(m.group(1), text[m.end():end]) for m, end in zip(matches, ends)]


def _parse_cells(text: str, source: Path) -> dict[str, Cell]:
    cells: dict[str, Cell] = {}
    for name, body in _spans(_RE_CELL, text):
        area = _RE_AREA.search(body)
        if area is None:
            raise CipherbenchError(f"Liberty {source} is malformed: cell {name} has no area")
        first_pin = _RE_PIN.search(body)
        head = body[: first_pin.start()] if first_pin else body
        cells[name] = Cell(
            name=name, area=float(area.group(1)), pins=_parse_pins(body),
            sequential=bool(_RE_SEQUENTIAL.search(body)), dont_use=bool(_RE_DONT_USE.search(head)),
            special=_is_special(body), latch=bool(_RE_LATCH.search(body)),
        )
    return cells


def _is_special(cell_body: str) -> bool:
    """Cells for power management (sky130's lpflow_* family) or I/O pads: mapping logic onto
    them is wrong."""
    if _RE_SPECIAL.search(cell_body):
        return True
    return any(m.group(1) not in _ORDINARY_PG_TYPES for m in _RE_PG_TYPE.finditer(cell_body))


def _parse_pins(cell_body: str) -> tuple[Pin, ...]:
    pins = []
    for name, body in _spans(_RE_PIN, cell_body):
        direction = _RE_DIRECTION.search(body)
        function = _RE_FUNCTION.search(body)
        cap = _RE_CAPACITANCE.search(body)
        pins.append(Pin(
            name=name, direction=direction.group(1).lower() if direction else "",
            function=function.group(1) if function else None,
            capacitance=float(cap.group(1)) if cap else None,
        ))
    return tuple(pins)


def _smallest(cells: object) -> Cell | None:
    """The usable cell of least area; clock cells lose ties since they are meant for clocks."""
    usable = [c for c in cells if not (c.dont_use or c.special)]  # type: ignore[attr-defined]
    if not usable:
        return None
    return min(usable, key=lambda c: (c.area, "clk" in c.name.lower(), c.name))


def _truth_table(cell: Cell) -> tuple[int, ...] | None:
    """Outputs of a single-output combinational cell for all input values, inputs in pin order."""
    outputs = cell.outputs()
    if cell.sequential or len(outputs) != 1 or outputs[0].function is None:
        return None
    names = [p.name for p in cell.inputs()]
    try:
        return tuple(
            int(evaluate(outputs[0].function, dict(zip(names, values))))
            for values in product((False, True), repeat=len(names))
        )
    except (ValueError, RecursionError):
        return None  # a function we cannot read (or nested too deeply to read): not a candidate


def _is_nand2(cell: Cell) -> bool:
    return len(cell.inputs()) == 2 and _truth_table(cell) == (1, 1, 1, 0)


def _is_buffer(cell: Cell) -> bool:
    return len(cell.inputs()) == 1 and _truth_table(cell) == (0, 1)


# ---- Liberty boolean functions ------------------------------------------------------------------

_RE_TOKEN = re.compile(r"\s*(?:([A-Za-z_][\w\[\].]*)|([01])|([!'&*|+^()]))")


def evaluate(function: str, values: dict[str, bool]) -> bool:
    """Evaluate a Liberty `function` string.

    Precedence (Liberty reference): ! and postfix ' first, then ^, then & * or juxtaposition,
    then | +. ValueError on anything else.
    """
    return parse_function(function, _Truth(values))


class FunctionAlgebra(Protocol[T]):
    """What a parsed Liberty function is built into: a truth value, an expression text, ..."""

    def any_of(self, terms: list[T]) -> T: ...
    def all_of(self, terms: list[T]) -> T: ...
    def parity(self, terms: list[T]) -> T: ...
    def negated(self, term: T) -> T: ...
    def grouped(self, term: T) -> T: ...
    def constant(self, value: bool) -> T: ...
    def name(self, token: str) -> T: ...


def parse_function(function: str, algebra: FunctionAlgebra[T]) -> T:
    """A Liberty boolean function built in ``algebra``, with the Liberty precedence
    (``evaluate``). ValueError on a malformed function."""
    tokens = _tokenize(function)
    parser = _Parser(tokens, algebra)
    result = parser.parse_or()
    if parser.pos != len(tokens):
        raise ValueError(f"trailing input in {function!r}")
    return result


@dataclass(frozen=True)
class _Truth:
    values: dict[str, bool]

    def any_of(self, terms: list[bool]) -> bool:
        return any(terms)

    def all_of(self, terms: list[bool]) -> bool:
        return all(terms)

    def parity(self, terms: list[bool]) -> bool:
        return sum(terms) % 2 == 1

    def negated(self, term: bool) -> bool:
        return not term

    def grouped(self, term: bool) -> bool:
        return term

    def constant(self, value: bool) -> bool:
        return value

    def name(self, token: str) -> bool:
        if token in self.values:
            return self.values[token]
        raise ValueError(f"unknown name {token!r}")


def _tokenize(function: str) -> list[str]:
    tokens, pos = [], 0
    stripped = function.rstrip()
    while pos < len(stripped):
        match = _RE_TOKEN.match(stripped, pos)
        if match is None or match.end() == pos:
            raise ValueError(f"bad character in {function!r} at {pos}")
        tokens.append(match.group(1) or match.group(2) or match.group(3))
        pos = match.end()
    return tokens


class _Parser(Generic[T]):
    def __init__(self, tokens: list[str], algebra: FunctionAlgebra[T]) -> None:
        self.tokens, self.algebra, self.pos = tokens, algebra, 0

    def _peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _take(self) -> str:
        token = self._peek()
        if token is None:
            raise ValueError("unexpected end of function")
        self.pos += 1
        return token

    def parse_or(self) -> T:
        terms = [self.parse_and()]
        while self._peek() in ("|", "+"):
            self._take()
            terms.append(self.parse_and())
        return terms[0] if len(terms) == 1 else self.algebra.any_of(terms)

    def parse_and(self) -> T:
        terms = [self.parse_xor()]
        while True:
            token = self._peek()
            if token in ("&", "*"):
                self._take()
            elif token is None or token in ("|", "+", ")", "^", "'"):
                break
            # else: juxtaposition is AND
            terms.append(self.parse_xor())
        return terms[0] if len(terms) == 1 else self.algebra.all_of(terms)

    def parse_xor(self) -> T:
        terms = [self.parse_unary()]
        while self._peek() == "^":
            self._take()
            terms.append(self.parse_unary())
        return terms[0] if len(terms) == 1 else self.algebra.parity(terms)

    def parse_unary(self) -> T:
        if self._peek() == "!":
            self._take()
            return self.algebra.negated(self.parse_unary())
        result = self.parse_primary()
        while self._peek() == "'":
            self._take()
            result = self.algebra.negated(result)
        return result

    def parse_primary(self) -> T:
        token = self._take()
        if token == "(":
            result = self.parse_or()
            if self._take() != ")":
                raise ValueError("missing ')'")
            return self.algebra.grouped(result)
        if token in ("0", "1"):
            return self.algebra.constant(token == "1")
        return self.algebra.name(token)
