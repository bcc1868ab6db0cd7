"""Drive a de-synchronized core through the common interface in timed simulation.

A de-synchronized core is flow-equivalent to its synchronous original: every register takes the
same sequence of values, only when it takes each is decided by handshakes instead of a clock. So
the core's ports, cycle for cycle (a "cycle" being one token of its environment), must show what
the synchronous core's show. The testbench (tb/replay_tb.v) is the environment: for each cycle
it offers the input token (the common interface's inputs, ``env_req``), waits for the core's
output token (``out_req``), reads the outputs, acknowledges, and only then offers the next
inputs, as a synchronous testbench reads outputs before its next clock edge. It waits on the core
throughout; nothing in it is clocked.

The inputs of each cycle come from the design's own testbench (verify/sim.py), run on the RTL
for the same operations with a VCD of its ports: that testbench decides, cycle by cycle, what to
offer from what the core answered. Replayed into the de-synchronized core, the same inputs must
give the same outputs in every cycle; where one differs, the core is not flow-equivalent (a race,
a too-short delay) and its results differ too. ``TimedSimulator.run`` returns the results as the
de-synchronized core gave them, so verify/designs.py checks them against the model, the
known-answer files and the oracle exactly as it checks every other core; the cycle-by-cycle
comparison is kept besides (``mismatches``), and the time of every cycle (``times_ps``) is what
latency and throughput are measured from.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ...errors import CipherbenchError, ToolFailed
from ...verify.sim import BlockOp, ChainOp, Op, SimTrace, Simulator
from ..liberty import Liberty
from .controllers import ENV_ACK, ENV_REQ, OUT_ACK, OUT_REQ, RESET
from .timed_sim import compile_timed

TB_TOP = "tb_desync"  # the environment testbench's module (tb/replay_tb.v)
RESET_NS = 20.0  # the core is held in reset this long before each run
SETUP_NS = 0.05  # inputs settle this long before the request (the environment's bundling)
HANG_NS = 2000.0  # no new cycle for this long: the core is stuck
# Flags of the common interface whose value is never allowed to be unknown after reset.
FLAGS = ("key_ready", "in_ready", "out_valid")
RESET_CYCLES = 4  # the design testbench's reset (tb.cpp: --reset 4)


@dataclass
class Replay:
    """One timed run: per cycle the outputs (bit strings, MSB first, 'x' for unknown) and when
    they were read (ps), and where the run's outputs differed from the synchronous core's."""

    outputs: list[dict[str, str]]
    times_ps: list[float]
    end_ps: float
    mismatches: list[str] = field(default_factory=list)
    vcd: Path | None = None


class TimedSimulator:
    """``Simulator``'s interface (``build``, ``run(ops)``) for a de-synchronized netlist."""

    def __init__(self, design_dir: Path, library: Liberty, netlist: Path, top: str, sdf: Path,
                 inputs: dict[str, int], outputs: dict[str, int], work: Path,
                 reference: tuple[Path, str, str], fail_fast: bool = True,
                 ties: dict[str, int] | None = None) -> None:
        """``reference``: (netlist, top, clock) of the synchronous netlist the core was made
        from, whose zero-delay simulation gives the expected outputs; ``ties``: ports held at
        values in it, which the design testbench must drive at them after reset (it drives every
        input port; the core has no such port)."""
        self.design_dir = Path(design_dir)
        self.library, self.netlist, self.top, self.sdf = library, netlist, top, sdf
        self.inputs, self.outputs = inputs, outputs
        self.work = work
        self.fail_fast = fail_fast
        self.reference = reference
        self.ties = dict(ties or {})
        self.work.mkdir(parents=True, exist_ok=True)
        manifest = json.loads((self.design_dir / "manifest.json").read_text())
        if manifest.get("simulation"):
            raise CipherbenchError("de-synchronization of a core simulated through a wrapper "
                                   "(keys=loaded, a designer's own core) is not supported")
        self.manifest = manifest
        self.rtl = Simulator(_port_traced_copy(self.design_dir, work / "rtl"), trace=True)
        self._session: TimedSession | None = None
        self._reference: Path | None = None
        self.replays: list[Replay] = []  # every run, for the measurements
        self.vcd = work / "desync.vcd"  # every run's power window, at its own times

    def build(self) -> TimedSession:
        """Compile both simulations and start the timed one: a large netlist takes a while to
        load, so one simulator process serves every run of this core (``TimedSession``)."""
        if self._session is None:
            self.rtl.build()
            vvp = compile_environment(self.library, self.netlist, self.sdf, self.top,
                                      self.inputs, self.outputs, self.work)
            netlist, top, clock = self.reference
            self._reference = compile_reference(self.library, netlist, top, clock, self.inputs,
                                                self.outputs, self.work)
            self._session = TimedSession(vvp, self.work, self.vcd)
        return self._session

    def _check_ties(self, record: list[dict[str, int]]) -> None:
        for cycle, row in enumerate(record[RESET_CYCLES:], start=RESET_CYCLES):
            for port, value in self.ties.items():
                if row[port] != value:
                    raise CipherbenchError(
                        f"the design testbench drove {port} = {row[port]} in cycle {cycle}, but "
                        f"the de-synchronized core holds it at {value}: these operations need "
                        f"the port")

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None

    def run(self, ops: Sequence[Op], *, timeout_cycles: int = 100_000,
            vcd_window: tuple[int, int] | None = None, idle_after: int | None = None,
            idle_ns: float = 0.0, environment: str = "reactive", **_: object) -> SimTrace:
        """The ops through the RTL (for each cycle's inputs), then through the timed netlist.
        ``vcd_window``: dump every net's changes from the start of the first cycle given to
        the end of the second (for power); ``idle_after``/``idle_ns``: after that cycle's
        outputs, offer nothing for that long (the core idles); ``environment``: see
        ``ENVIRONMENTS`` (the replay is the same sequence either way: a de-synchronized core's
        values do not depend on when tokens come)."""
        session = self.build()
        ops = list(ops)
        with tempfile.TemporaryDirectory(prefix="desync-replay-", dir=self.work) as tmp:
            folder = Path(tmp)
            vcd = folder / "rtl.vcd"
            trace = self.rtl.run(ops, timeout_cycles=timeout_cycles, vcd=vcd)
            record = read_port_cycles(vcd, [*self.inputs, *self.outputs, *self.ties])
            self._check_ties(record)
            cycles = len(record)
            stim = folder / "stim.hex"
            stim.write_text("".join(_pack(row, self.inputs) + "\n" for row in record))
            out = folder / "out.txt"
            window = vcd_window if vcd_window is not None else (-1, -1)
            status = session.run(stim, out, cycles, -1 if idle_after is None else idle_after,
                                 int(idle_ns * 1000), window, environment)
            replay = read_replay(out, self.outputs, status)
            replay.vcd = self.vcd if vcd_window is not None else None
            expected = folder / "expected.txt"
            assert self._reference is not None
            reference_log = run_reference(self._reference, stim, expected, cycles, folder)
            want = read_replay(expected, self.outputs, reference_log)
        replay.mismatches = compare(want, replay, self.outputs)
        self.replays.append(replay)
        if replay.mismatches and self.fail_fast:
            # The first departure says it all; the rest of the sets would only repeat it.
            raise CipherbenchError(
                f"the de-synchronized netlist departs from the synchronous core in timed "
                f"simulation: {replay.mismatches[0]} ({len(replay.mismatches)} cycles differ; "
                f"a matched delay too short, or a race)")
        return timed_trace(trace, replay, ops, self.manifest)


class TimedSession:
    """One Icarus process running the environment testbench as a server: each run is a command
    on a FIFO (the stimulus file, the output file, cycles, idling, the VCD window); the run is
    over when its output file ends in "END t" (or "HANG at cycle c"). The core is reset before
    every run. The VCD, when one is asked for, is one file for the whole session.

    Answers come back through the output file, not a second FIFO: Icarus 11's $fflush does not
    flush a FIFO it writes, so nothing would arrive before it closed the file."""

    def __init__(self, vvp: Path, work: Path, vcd: Path) -> None:
        import os
        import subprocess

        from .timed_sim import sim_tools

        self.work = work
        self.control = work / "control.fifo"
        self.control.unlink(missing_ok=True)
        os.mkfifo(self.control)
        self.log = work / "timed_session.log"
        self._log_handle = open(self.log, "w")
        self.process = subprocess.Popen(
            [sim_tools().vvp, "-n", str(vvp), f"+ctl={self.control}", f"+vcd={vcd}"],
            cwd=work, stdout=self._log_handle, stderr=subprocess.STDOUT)
        self._control = None  # until the simulator has opened its end
        self._control = self._open_control()

    def _open_control(self):  # type: ignore[no-untyped-def]
        """The command FIFO, once the simulator has opened its end (after loading the netlist,
        which takes a while): a writer cannot open a FIFO nobody reads yet."""
        import os
        import time

        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            try:
                fd = os.open(self.control, os.O_WRONLY | os.O_NONBLOCK)
                os.set_blocking(fd, True)
                return os.fdopen(fd, "w")
            except OSError:
                if self.process.poll() is not None:
                    self.close()
                    raise ToolFailed(f"the timed simulation did not start (log: {self.log})")
                if time.monotonic() > deadline:
                    self.close()
                    raise ToolFailed(f"the timed simulation was still loading its netlist "
                                     f"after {STARTUP_TIMEOUT_S} s: too large a core for this "
                                     f"check (log: {self.log})")
                time.sleep(0.05)

    def run(self, stim: Path, out: Path, cycles: int, idle_after: int, idle_ps: int,
            window: tuple[int, int], environment: str = "reactive") -> str:
        """Run one program; its last line: "END t" or "HANG at cycle c". ``environment``:
        "reactive" or "stream" (``ENVIRONMENTS``)."""
        import time

        out.unlink(missing_ok=True)
        mode = ENVIRONMENTS.index(environment)
        self._control.write(f"R {stim} {out} {cycles} {idle_after} {idle_ps} {window[0]} "
                            f"{window[1]} {mode}\n")
        self._control.flush()
        deadline = time.monotonic() + RUN_TIMEOUT_S + cycles * CYCLE_TIMEOUT_S
        pause = 0.01
        while True:
            last = _last_line(out)
            if last is not None and _RE_FINAL.match(last):
                return last
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise ToolFailed(f"the timed simulation gave no answer (log: {self.log})")
            time.sleep(pause)
            pause = min(0.5, pause * 1.5)

    def close(self) -> None:
        import subprocess

        try:
            if self.process.poll() is None and self._control is not None \
                    and not self._control.closed:
                self._control.write("Q - - 0 0 0 0 0 0\n")
                self._control.flush()
                self._control.close()
                self.process.wait(timeout=30)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self._log_handle.close()


_RE_FINAL = re.compile(r"^(END \d+|HANG at cycle \d+)$")


def _last_line(path: Path) -> str | None:
    """The file's last complete line, or None while it is missing or mid-line."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.endswith(b"\n"):
        return None
    return data.rstrip(b"\n").rsplit(b"\n", 1)[-1].decode(errors="replace")


# How the environment offers tokens (tb/replay_tb.v): "reactive" reads a cycle's outputs
# before it offers the next inputs, as a synchronous testbench does before its next edge;
# "stream" has every input ready and takes every output at once, each side at its own pace.
ENVIRONMENTS = ("reactive", "stream")
STARTUP_TIMEOUT_S = 3600
# Wall-clock guards against a simulator that stopped answering (a deadlocked core is caught in
# simulated time: HANG_NS). A 220,000-cell AES pipeline runs 2-3 cycles a second on a shared
# 2-core machine, so a cycle is allowed ten seconds.
RUN_TIMEOUT_S = 60
CYCLE_TIMEOUT_S = 10.0


def _port_traced_copy(design_dir: Path, folder: Path) -> Path:
    """The design folder, marked so the simulator traces the top's own level only (its ports
    and top-level nets), which is all the replay reads (verify/sim.py's netlist trace depth)."""
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(design_dir, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["gate_level"] = True
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return folder


# ---- the RTL's ports per cycle ----------------------------------------------------------------


def read_port_cycles(vcd: Path, ports: Sequence[str]) -> list[dict[str, int]]:
    """Each cycle's value of ``ports`` (inputs) from the design testbench's VCD: the inputs of
    cycle c are those edge c + 1 samples, dumped at time 2c + 2 (verify/tb/tb.cpp; the first
    cycles are its reset). Outputs cannot be read this way: the testbench evaluates the core
    again after it changes the inputs, at the same time step, and Verilator dumps one set of
    values per time, so a Mealy output's final value of a cycle is not in the file; the
    expected outputs come from a simulation of their own (``reference_outputs``)."""
    wanted = set(ports)
    codes: dict[str, str] = {}
    depth = 0
    values: dict[str, int] = {p: 0 for p in ports}
    rows: list[dict[str, int]] = []
    time = 0

    def settle(until: int) -> None:
        # Nothing changes between ``time`` and ``until``: every edge time in [time, until) is a
        # cycle whose values are the current ones.
        while 2 * len(rows) + 2 < until and 2 * len(rows) + 2 >= time:
            rows.append(dict(values))

    with open(vcd) as fh:
        for raw in fh:
            line = raw.strip()
            head = line[:1]
            if head == "$":
                if line.startswith("$scope"):
                    depth += 1
                elif line.startswith("$upscope"):
                    depth -= 1
                elif line.startswith("$var") and depth == 1:
                    parts = line.split()
                    if parts[4] in wanted and parts[3] not in codes:
                        codes[parts[3]] = parts[4]
            elif head == "#":
                new = int(line[1:])
                settle(new)
                time = new
            elif head == "b":
                bits, code = line[1:].split()
                if code in codes:
                    values[codes[code]] = int(bits.replace("x", "0").replace("z", "0"), 2)
            elif head in ("0", "1", "x", "z"):
                code = line[1:]
                if code in codes:
                    values[codes[code]] = 1 if head == "1" else 0
    settle(time + 1)
    missing = wanted - set(codes.values())
    if missing:
        raise ToolFailed(f"the design testbench's VCD lacks ports {', '.join(sorted(missing))}")
    return rows


def _pack(row: dict[str, int], widths: dict[str, int]) -> str:
    """One cycle's inputs as the testbench's hex word: ports in order, the first the MSBs."""
    value, total = 0, 0
    for name, width in widths.items():
        value = (value << width) | (row[name] & ((1 << width) - 1))
        total += width
    return f"{value:0{(total + 3) // 4}x}"


# ---- the timed run's outputs --------------------------------------------------------------------

_RE_OUT = re.compile(r"^O (\d+) (\d+) ([01xz]+)$", re.MULTILINE)
_RE_END = re.compile(r"^END (\d+)$", re.MULTILINE)


def read_replay(path: Path, outputs: dict[str, int], log: str) -> Replay:
    """The outputs a run wrote; ``log`` is its answer or log, which names a hang."""
    text = path.read_text() if path.is_file() else ""
    rows, times = [], []
    for match in _RE_OUT.finditer(text):
        bits, pos, row = match.group(3), 0, {}
        for name, width in outputs.items():
            row[name] = bits[pos:pos + width]
            pos += width
        rows.append(row)
        times.append(float(match.group(2)))
    end = _RE_END.search(text)
    if end is None:
        hang = re.search(r"HANG at cycle (\d+)", log)
        where = f" at cycle {hang.group(1)}" if hang else ""
        raise ToolFailed(f"the de-synchronized core stopped answering{where}: a handshake "
                         f"deadlock (timed simulation log: {path.parent})")
    return Replay(rows, times, float(end.group(1)))


def compare(reference: Replay, replay: Replay, outputs: dict[str, int]) -> list[str]:
    """Cycles after reset where the de-synchronized core's outputs differ from the synchronous
    core's: an interface flag (``FLAGS``) of another value or unknown, or, where the core says
    its output is valid, a data bit of another value or unknown. Registers without a reset hold
    whatever an earlier run left in them until written (one simulator serves every run), as the
    synchronous core's hold their initial values: neither is part of the protocol, so data is
    compared where ``out_valid`` says it counts, and everything else from the end of reset."""
    problems = []
    for cycle, (want, got) in enumerate(zip(reference.outputs, replay.outputs)):
        if cycle < RESET_CYCLES:
            continue
        valid = want.get("out_valid", "1") == "1"
        for name in outputs:
            if name not in FLAGS and not valid:
                continue
            if got[name] != want[name]:
                problems.append(f"cycle {cycle}: {name} = {got[name]}, the synchronous core had "
                                f"{want[name]}")
                break
    if len(replay.outputs) != len(reference.outputs):
        problems.append(f"{len(replay.outputs)} cycles answered of {len(reference.outputs)}")
    return problems


def timed_trace(sync: SimTrace, replay: Replay, ops: list[Op], manifest: dict) -> SimTrace:
    """The design testbench's trace with the results replaced by the de-synchronized core's:
    the block read in each cycle the synchronous core delivered one."""
    block_bits = int(manifest["block_bits"])
    results = []
    block_ops = [i for i, op in enumerate(ops) if isinstance(op, (BlockOp, ChainOp))]
    for i in block_ops:
        # The design testbench counts cycles from reset release; the replay from its start.
        cycle = sync.block_output.get(i)
        cycle = None if cycle is None else cycle + RESET_CYCLES
        if cycle is None or cycle >= len(replay.outputs):
            results.append(bytes(block_bits // 8))
            continue
        bits = replay.outputs[cycle]["out_block"]
        value = int(bits.replace("x", "0").replace("z", "0"), 2)
        if replay.outputs[cycle].get("out_valid") != "1":
            value ^= (1 << block_bits) - 1  # no result where one was due: never the right one
        results.append(value.to_bytes(block_bits // 8, "big"))
    return SimTrace(outputs=results, key_accept=dict(sync.key_accept),
                    block_accept={k: list(v) for k, v in sync.block_accept.items()},
                    block_output=dict(sync.block_output),
                    algorithm_setup_cycles=sync.algorithm_setup_cycles,
                    total_cycles=sync.total_cycles)


# ---- the testbenches ---------------------------------------------------------------------------
# Both are Verilog files beside this module (tb/), fitted to a core on the iverilog command line:
# its module and port connections as `defines, the widths and times as parameters.

TESTBENCHES = Path(__file__).parent / "tb"
ENVIRONMENT_TB = TESTBENCHES / "replay_tb.v"  # module TB_TOP
REFERENCE_TB = TESTBENCHES / "reference_tb.v"  # module REFERENCE_TOP
REFERENCE_TOP = "tb_sync"


def environment_options(top: str, inputs: dict[str, int], outputs: dict[str, int]) -> list[str]:
    """The iverilog options that fit the environment testbench (``ENVIRONMENT_TB``, module
    docstring) to the de-synchronized core ``top``: its handshake ports to the testbench's,
    its data ports to slices of the testbench's input and output words (``_connections``)."""
    handshake = (f".{RESET}(arst), .{ENV_REQ}(env_req), .{OUT_ACK}(out_ack), "
                 f".{ENV_ACK}(env_ack), .{OUT_REQ}(out_req)")
    return [f"-DDESYNC_CORE={top}",
            f"-DDESYNC_PORTS={handshake}, {_connections(inputs, outputs)}",
            *_parameters(TB_TOP, IN_WIDTH=sum(inputs.values()), OUT_WIDTH=sum(outputs.values()),
                         RESET_NS=RESET_NS, SETUP_NS=SETUP_NS, HANG_NS=HANG_NS)]


def compile_environment(library: Liberty, netlist: Path, sdf: Path, top: str,
                        inputs: dict[str, int], outputs: dict[str, int], work: Path) -> Path:
    """The de-synchronized netlist with ``sdf``'s delays in its environment testbench, compiled
    (``TimedSession`` runs it); the vvp program."""
    return compile_timed(library, netlist, sdf, ENVIRONMENT_TB, TB_TOP, work,
                         environment_options(top, inputs, outputs))


def reference_options(top: str, clock: str, inputs: dict[str, int],
                      outputs: dict[str, int]) -> list[str]:
    """The iverilog options that fit the reference testbench (``REFERENCE_TB``) to the
    synchronous core ``top``."""
    return [f"-DSYNC_CORE={top}",
            f"-DSYNC_PORTS=.{clock}(clk), {_connections(inputs, outputs)}",
            *_parameters(REFERENCE_TOP, IN_WIDTH=sum(inputs.values()),
                         OUT_WIDTH=sum(outputs.values()))]


def _parameters(module: str, **values: int | float) -> list[str]:
    return [f"-P{module}.{name}={value!r}" for name, value in values.items()]


def compile_reference(library: Liberty, netlist: Path, top: str, clock: str,
                      inputs: dict[str, int], outputs: dict[str, int], work: Path) -> Path:
    """The synchronous mapped netlist the core was made from, with the library's cell models, in
    its reference testbench (``REFERENCE_TB``: a clocked one reading the same inputs), zero
    delay (Icarus): each cycle's outputs as the synchronous core gives them, Mealy outputs
    included. (The mapped netlist rather than the RTL: it is what was de-synchronized, and
    Icarus cannot read every construct Yosys writes into the RTL's Verilog.)"""
    from ...tools import run_tool
    from .timed_sim import cell_models, sim_tools

    binary = work / f"{REFERENCE_TOP}.vvp"
    run_tool([sim_tools().iverilog, "-g2005", "-s", REFERENCE_TOP, "-o", str(binary),
              *reference_options(top, clock, inputs, outputs),
              str(cell_models(library)), str(netlist), str(REFERENCE_TB)], cwd=work,
             log_path=work / f"{REFERENCE_TOP}_iverilog.log", timeout_s=600)
    return binary


def run_reference(binary: Path, stim: Path, out: Path, cycles: int, work: Path) -> str:
    from ...tools import run_tool
    from .timed_sim import sim_tools

    return run_tool([sim_tools().vvp, "-n", str(binary), f"+stim={stim}", f"+out={out}",
                     f"+cycles={cycles}"], cwd=work, log_path=work / f"{REFERENCE_TOP}_vvp.log",
                    timeout_s=600)


def _connections(inputs: dict[str, int], outputs: dict[str, int]) -> str:
    """The data ports to slices of the testbench's words: inputs in order, the first in the
    MSBs of ``in_vec`` (as ``_pack`` writes them), outputs likewise in ``out_vec``."""
    conns, pos = [], sum(inputs.values())
    for name, width in inputs.items():
        conns.append(f".{name}(in_vec[{pos - 1}:{pos - width}])")
        pos -= width
    pos = sum(outputs.values())
    for name, width in outputs.items():
        conns.append(f".{name}(out_vec[{pos - 1}:{pos - width}])")
        pos -= width
    return ", ".join(conns)
