"""Verilator simulation of a message-level design: an engine behind the NIST LWC hardware API
(``message/ports.py``), driven and checked by ``lwc_tb/tb_lwc.cpp``.

A design folder holds ``manifest.json``: ``top``, ``verilog`` (file names), ``w`` and ``sw`` (the
port widths) and ``ports`` (the top level's, as ``LwcShape.ports()`` lists them). The testbench is
compiled against the design once and cached by a hash of everything that goes into it, as the
block family's simulator does (``sim.py``, whose Verilator, cache and build settings it shares).

A run writes the operations' pdi, sdi and expected do words (``message/lwc.py`` streams) into a
word list (the format is in tb_lwc.cpp's header: ``P``/``S`` words, ``D`` expected words with
do_last and X digits for don't care, ``M`` per message), runs it, optionally stalling the streams
at random with a seed, and reads back every do word taken and, per message, the cycle its
instruction (ENC/DEC/HASH) was taken and the cycle its status word was taken.
``MessageRun.check()`` raises a one-line error naming the first failing message in full.
``run_tv_files`` runs cryptotvgen's pdi.txt/sdi.txt/do.txt through the same word list.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..errors import CipherbenchError, ToolFailed
from ..message.lwc import Instruction, Opcode, Operation, Params, Status, to_words
from ..message.ports import LwcShape
from ..message.tvfiles import read_tv_files
from .sim import (_GATE_LEVEL_MAKE_VARS, _GATE_LEVEL_OPTS, _GATE_LEVEL_TRACE_DEPTH, CXX_FLAGS,
                  MAKE_VARS, VERILATOR_OPTS, build_cache_root, build_step, publish_build,
                  verilator_tool)

TESTBENCH = "verify/lwc_tb/tb_lwc.cpp"
_EXE = "tb"


def testbench_source() -> str:
    from importlib import resources

    return resources.files("cipherbench").joinpath(TESTBENCH).read_text()


@dataclass(frozen=True)
class MessageResult:
    """One message's run: the words expected (None: don't care) and got (with do_last), whether
    they all matched, the status word's code, and the cycles its instruction and status were
    taken at (``cycles`` between them)."""

    index: int
    msg_id: int
    opcode: Opcode
    ok: bool
    expected: tuple[tuple[int | None, bool], ...]
    got: tuple[tuple[int, bool], ...]
    inst_cycle: int
    status_cycle: int
    width: int = 32

    @property
    def cycles(self) -> int:
        return self.status_cycle - self.inst_cycle

    @property
    def status(self) -> Status | None:
        code = self.got[-1][0] >> (self.width - 4) if self.got else None
        return Status(code) if code in Status._value2member_map_ else None


@dataclass
class MessageRun:
    """A run's messages in order and its length in cycles."""

    messages: list[MessageResult] = field(default_factory=list)
    total_cycles: int = 0

    def failures(self) -> list[MessageResult]:
        return [m for m in self.messages if not m.ok]

    def check(self) -> "MessageRun":
        """Self if every message matched; else a one-line error with the first failing message
        in full (its number, the expected and the got words)."""
        bad = self.failures()
        if bad:
            raise CipherbenchError(describe_failure(bad[0], len(bad)))
        return self


def _hex(word: int | None, w: int, last: bool) -> str:
    text = "X" * (w // 4) if word is None else f"{word:0{w // 4}X}"
    return text + ("/last" if last else "")


def describe_failure(msg: MessageResult, count: int = 1) -> str:
    """One line: which message failed, where first, and its expected and got words."""
    w = msg.width
    first = next((i for i, (exp, got) in enumerate(zip(msg.expected, msg.got))
                  if exp[1] != got[1] or (exp[0] is not None and exp[0] != got[0])),
                 min(len(msg.expected), len(msg.got)))
    expected = " ".join(_hex(word, w, last) for word, last in msg.expected)
    got = " ".join(_hex(word, w, last) for word, last in msg.got)
    return (f"message {msg.index + 1} (msg id {msg.msg_id}, {msg.opcode.name}) failed at do word "
            f"{first} ({count} message(s) failed): expected [{expected}] got [{got}]")


def words_text(operations: Sequence[Operation], params: Params) -> str:
    """The testbench's word list for ``operations`` (see tb_lwc.cpp)."""
    w, sw = params.w, params.key_width
    lines = [f"# {len(operations)} operations, w = {w}, sw = {sw}"]
    pdi_at = do_at = 0
    for op in operations:
        pdi, sdi, do = to_words(op.pdi, w), to_words(op.sdi, sw), to_words(op.do, w)
        actkey = isinstance(op.pdi[0], Instruction) and op.pdi[0].opcode == Opcode.ACTKEY
        lines.append(f"M {op.msg_id} {pdi_at + int(actkey)} {do_at} {len(do)} {pdi_at}")
        lines += [f"P {word:0{w // 4}X}" for word in pdi]  # type: ignore[str-format]
        lines += [f"S {word:0{sw // 4}X}" for word in sdi]  # type: ignore[str-format]
        lines += [f"D {_hex(word, w, False)} {int(i == len(do) - 1)}" for i, word in enumerate(do)]
        pdi_at, do_at = pdi_at + len(pdi), do_at + len(do)
    return "\n".join(lines) + "\n"


class MessageSimulator:
    """Builds and runs the message-level testbench for the design in ``design_dir``."""

    def __init__(self, design_dir: Path, build_root: Path | None = None,
                 trace: bool = False) -> None:
        self.design_dir = Path(design_dir)
        self.trace = trace   # built with VCD tracing: ``run(..., vcd=PATH)`` (power)
        path = self.design_dir / "manifest.json"
        try:
            manifest = json.loads(path.read_text())
            self.top: str = manifest["top"]
            self.verilog = [self.design_dir / name for name in manifest["verilog"]]
            self.shape = LwcShape(int(manifest["w"]), int(manifest.get("sw") or manifest["w"]))
            ports = {str(p["name"]): int(p["width"]) for p in manifest["ports"]}
            # A synthesized netlist (verify/netlist.py) is built as the block testbench builds one.
            self.gate_level = bool(manifest.get("gate_level"))
        except (OSError, ValueError) as exc:
            raise CipherbenchError(f"cannot read {path}: {exc}") from exc
        except (KeyError, TypeError) as exc:
            raise CipherbenchError(f"{path}: missing or bad field {exc}") from exc
        wanted = {str(p["name"]): int(p["width"]) for p in self.shape.ports()}
        wrong = [f"{name}[{width}]" for name, width in wanted.items() if ports.get(name) != width]
        if wrong:
            raise CipherbenchError(f"{path}: the LWC ports for w = {self.shape.w}, sw = "
                                   f"{self.shape.key_width} are missing or of other widths: "
                                   f"{', '.join(wrong)} (see message/ports.py)")
        self.build_root = build_cache_root(build_root)
        self._exe: Path | None = None

    def _defines(self) -> list[str]:
        return [f"-DTB_W={self.shape.w}", f"-DTB_SW={self.shape.key_width}",
                *(["-DTB_TRACE"] if self.trace else [])]

    def _options(self) -> list[str]:
        options = [*VERILATOR_OPTS, *(["--trace"] if self.trace else [])]
        if self.gate_level:
            options += _GATE_LEVEL_OPTS
            if self.trace:   # the design's own nets, not every pin of every cell
                options += ["--trace-depth", str(_GATE_LEVEL_TRACE_DEPTH)]
        return options

    def _make_vars(self) -> list[str]:
        return [*MAKE_VARS, *(_GATE_LEVEL_MAKE_VARS if self.gate_level else [])]

    def build_hash(self) -> str:
        """Hash of everything that goes into the executable."""
        h = hashlib.sha256()
        for label, data in [("verilator", verilator_tool().version.encode()),
                            ("tb", testbench_source().encode()),
                            ("opts", " ".join([*self._options(), *self._make_vars(),
                                               *CXX_FLAGS, *self._defines(),
                                               self.top]).encode()),
                            *((p.name, p.read_bytes()) for p in self.verilog)]:
            h.update(f"{label}:{len(data)}:".encode() + data)
        return "lwc-" + h.hexdigest()[:24]

    def build(self) -> Path:
        """Compile the testbench for this design (once: later calls hit the cache)."""
        if self._exe is None or not self._exe.is_file():
            self._exe = publish_build(self.build_root / self.build_hash(), _EXE, self._compile)
        return self._exe

    def _compile(self, tmp: Path) -> Path:
        vl = verilator_tool()
        mdir, tb = tmp / "obj", tmp / Path(TESTBENCH).name
        tb.write_text(testbench_source())
        cmd = [str(vl.exe), *self._options(), "--Mdir", str(mdir), "--top-module", self.top,
               "-CFLAGS", " ".join([*CXX_FLAGS, *self._defines()]),
               *[str(p) for p in self.verilog], str(tb)]
        log = self._step(cmd, tmp, vl)
        make = ["make", "-C", str(mdir), "-f", "Vtb_top.mk", "-j", "2", *self._make_vars(),
                f"PYTHON3={sys.executable}", _EXE]
        log += self._step(make, tmp, vl)
        (tmp / "build.log").write_text(log)
        return mdir / _EXE

    def _step(self, cmd: list[str], cwd: Path, vl) -> str:
        return build_step(cmd, cwd, vl, self.top, self.verilog)

    def run(self, operations: Sequence[Operation], *, stall_seed: int | None = None,
            timeout_cycles: int = 10_000, timeout_s: float = 300,
            isolate: bool = False, vcd: Path | None = None) -> MessageRun:
        """Drive ``operations`` through the design; a ToolFailed if it hangs or sends too much.
        ``isolate``: each message's first pdi word waits until every do word before it is taken
        (the message alone in the design, as cycles per message are measured)."""
        operations = list(operations)
        params = Params(w=self.shape.w, sw=self.shape.key_width)
        text = words_text(operations, params)
        exe = self.build()
        with tempfile.TemporaryDirectory(prefix="cipherbench-lwc-") as tmp:
            words, events = Path(tmp) / "words.txt", Path(tmp) / "events.txt"
            words.write_text(text)
            cmd = [str(exe), str(words), str(events), "--timeout", str(timeout_cycles)]
            if isolate:
                cmd += ["--isolate", "1"]
            if vcd is not None:
                if not self.trace:
                    raise CipherbenchError("a VCD needs MessageSimulator(trace=True)")
                cmd += ["--vcd", str(vcd)]
            if stall_seed is not None:
                cmd += ["--stall", str(int(stall_seed) % 2**63)]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
            except subprocess.TimeoutExpired as exc:
                raise ToolFailed(f"simulation of {self.top} did not finish within "
                                 f"{timeout_s:.0f} s ({len(operations)} messages)") from exc
            report = events.read_text() if events.exists() else ""
        return self._results(operations, report, proc)

    def run_tv_files(self, folder: Path, **options) -> MessageRun:
        """Run the operations of cryptotvgen's pdi.txt, sdi.txt and do.txt in ``folder``
        (``message/tvfiles.py``), written for this design's widths."""
        tv = read_tv_files(folder)
        if (tv.w, tv.sw) != (self.shape.w, self.shape.key_width):
            raise CipherbenchError(f"{folder}: test vectors for w = {tv.w}, sw = {tv.sw}; "
                                   f"{self.top} has w = {self.shape.w}, sw = "
                                   f"{self.shape.key_width}")
        return self.run(tv.operations, **options)

    def _results(self, operations: list[Operation], report: str,
                 proc: subprocess.CompletedProcess) -> MessageRun:
        w = self.shape.w
        got: list[tuple[int, bool]] = []
        cycles: dict[int, tuple[int, int, bool]] = {}
        run = MessageRun()
        for line in report.splitlines():
            tag, *rest = line.split()
            if tag == "GOT":
                got.append((int(rest[2], 16), rest[3] == "1"))
            elif tag == "MSG":
                cycles[len(cycles)] = (int(rest[1]), int(rest[2]), rest[3] == "1")
            elif tag == "END":
                run.total_cycles = int(rest[0])
            elif tag in ("TIMEOUT", "ERROR"):
                what = "hung" if tag == "TIMEOUT" else "broke the LWC protocol"
                raise ToolFailed(f"design {self.top} {what} at cycle {line.split(maxsplit=2)[1]}: "
                                 f"{line.split(maxsplit=2)[2]}")
        if proc.returncode != 0 or len(cycles) != len(operations):
            detail = proc.stderr.strip().splitlines()
            raise ToolFailed(f"testbench for {self.top} failed (exit code {proc.returncode}): "
                             f"{detail[-1] if detail else 'no message'}")
        at = 0
        for i, op in enumerate(operations):
            expected = to_words(op.do, w)
            inst, status, ok = cycles[i]
            run.messages.append(MessageResult(
                i, op.msg_id, op.opcode, ok,
                tuple((word, j == len(expected) - 1) for j, word in enumerate(expected)),
                tuple(got[at:at + len(expected)]), inst, status, width=w))
            at += len(expected)
        return run
