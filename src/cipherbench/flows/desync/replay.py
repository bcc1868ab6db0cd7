"""Drive a de-synchronized core through the common interface in timed simulation.

A de-synchronized core is flow-equivalent to its synchronous original: every register takes the
same sequence of values, only when it takes each is decided by handshakes instead of a clock. So
the core's ports, cycle for cycle (a "cycle" being one token of its environment), must show what
the synchronous core's show. The testbench here is the environment: for each cycle it offers the
input token (the common interface's inputs, ``env_req``), waits for the core's output token
(``out_req``), reads the outputs, acknowledges, and only then offers the next inputs, as a
synchronous testbench reads outputs before its next clock edge. It waits on the core throughout;
nothing in it is clocked.

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
from .timed_sim import compile_timed, run_timed

TB_TOP = "tb_desync"
RESET_NS = 20.0
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
                 fail_fast: bool = True) -> None:
        self.design_dir = Path(design_dir)
        self.library, self.netlist, self.top, self.sdf = library, netlist, top, sdf
        self.inputs, self.outputs = inputs, outputs
        self.work = work
        self.fail_fast = fail_fast
        self.work.mkdir(parents=True, exist_ok=True)
        manifest = json.loads((self.design_dir / "manifest.json").read_text())
        if manifest.get("simulation"):
            raise CipherbenchError("de-synchronization of a core simulated through a wrapper "
                                   "(keys=loaded, a designer's own core) is not supported")
        self.manifest = manifest
        self.rtl = Simulator(_port_traced_copy(self.design_dir, work / "rtl"), trace=True)
        self._vvp: Path | None = None
        self._reference: Path | None = None
        self.replays: list[Replay] = []  # every run, for the measurements

    def build(self) -> Path:
        if self._vvp is None:
            self.rtl.build()
            testbench = self.work / f"{TB_TOP}.v"
            testbench.write_text(testbench_verilog(self.top, self.inputs, self.outputs, self.sdf))
            self._vvp = compile_timed(self.library, self.netlist, testbench, TB_TOP, self.work)
            self._reference = compile_reference(self.design_dir, self.manifest, self.inputs,
                                                self.outputs, self.work)
        return self._vvp

    def run(self, ops: Sequence[Op], *, timeout_cycles: int = 100_000,
            vcd_window: tuple[int, int] | None = None, idle_after: int | None = None,
            idle_ns: float = 0.0, **_: object) -> SimTrace:
        """The ops through the RTL (for each cycle's inputs), then through the timed netlist.
        ``vcd_window``: dump every net's changes from the start of the first cycle given to
        the end of the second (for power); ``idle_after``/``idle_ns``: after that cycle's
        outputs, offer nothing for that long (the core idles)."""
        vvp = self.build()
        ops = list(ops)
        with tempfile.TemporaryDirectory(prefix="desync-replay-", dir=self.work) as tmp:
            folder = Path(tmp)
            vcd = folder / "rtl.vcd"
            trace = self.rtl.run(ops, timeout_cycles=timeout_cycles, vcd=vcd)
            record = read_port_cycles(vcd, [*self.inputs, *self.outputs])
            cycles = len(record)
            stim = folder / "stim.hex"
            stim.write_text("".join(_pack(row, self.inputs) + "\n" for row in record))
            out = folder / "out.txt"
            args = [f"+stim={stim}", f"+out={out}", f"+cycles={cycles}"]
            dump = None
            if vcd_window is not None:
                dump = self.work / f"desync_{len(self.replays)}.vcd"
                args += [f"+vcd={dump}", f"+vcd_from={vcd_window[0]}", f"+vcd_to={vcd_window[1]}"]
            if idle_after is not None:
                args += [f"+idle_after={idle_after}", f"+idle_ps={int(idle_ns * 1000)}"]
            log = run_timed(vvp, args, folder, "replay")
            replay = read_replay(out, self.outputs, log)
            replay.vcd = dump
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
    """Cycles where the de-synchronized core's outputs differ from the synchronous core's:
    a known bit of another value, or an unknown interface flag once reset is over."""
    problems = []
    for cycle, (want, got) in enumerate(zip(reference.outputs, replay.outputs)):
        for name, width in outputs.items():
            bits = got[name]
            expected = want[name]
            wrong = [i for i, (g, e) in enumerate(zip(bits, expected))
                     if g in "01" and e in "01" and g != e]
            unknown = "x" in bits or "z" in bits
            if wrong or (unknown and cycle > RESET_CYCLES and name in FLAGS):
                problems.append(f"cycle {cycle}: {name} = {bits}, the synchronous core had "
                                f"{expected}")
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


# ---- the synchronous reference ----------------------------------------------------------------


def compile_reference(design_dir: Path, manifest: dict, inputs: dict[str, int],
                      outputs: dict[str, int], work: Path) -> Path:
    """The design's RTL with a clocked testbench reading the same inputs, zero-delay (Icarus):
    each cycle's outputs as the synchronous core gives them, Mealy outputs included."""
    from ...tools import run_tool
    from .timed_sim import sim_tools

    clock = str(manifest["clock"])
    conns = _connections(inputs, outputs)
    in_width, out_width = sum(inputs.values()), sum(outputs.values())
    text = f"""`timescale 1ns/1ps
module tb_sync;
  reg clk;
  reg [{in_width - 1}:0] in_vec;
  wire [{out_width - 1}:0] out_vec;
  reg [8*512-1:0] stim_file, out_file;
  integer cycles, c, fd, sfd, got;
  {manifest["top"]} dut (.{clock}(clk), {conns});
  initial begin
    if (!$value$plusargs("stim=%s", stim_file)) $fatal(1, "no +stim");
    if (!$value$plusargs("out=%s", out_file)) $fatal(1, "no +out");
    if (!$value$plusargs("cycles=%d", cycles)) $fatal(1, "no +cycles");
    sfd = $fopen(stim_file, "r");
    fd = $fopen(out_file, "w");
    clk = 0;
    for (c = 0; c < cycles; c = c + 1) begin
      got = $fscanf(sfd, "%h\\n", in_vec);
      #1;
      $fwrite(fd, "O %0d 0 %b\\n", c, out_vec);
      clk = 1; #1; clk = 0;
    end
    $fwrite(fd, "END 0\\n");
    $fclose(fd);
    $finish;
  end
endmodule
"""
    testbench = work / "tb_sync.v"
    testbench.write_text(text)
    binary = work / "tb_sync.vvp"
    sources = [str(design_dir / name) for name in manifest["verilog"]]
    run_tool([sim_tools().iverilog, "-g2005", "-s", "tb_sync", "-o", str(binary), *sources,
              str(testbench)], cwd=work, log_path=work / "tb_sync_iverilog.log",
             timeout_s=600)
    return binary


def run_reference(binary: Path, stim: Path, out: Path, cycles: int, work: Path) -> str:
    from ...tools import run_tool
    from .timed_sim import sim_tools

    return run_tool([sim_tools().vvp, "-n", str(binary), f"+stim={stim}", f"+out={out}",
                     f"+cycles={cycles}"], cwd=work, log_path=work / "tb_sync_vvp.log",
                    timeout_s=600)


def _connections(inputs: dict[str, int], outputs: dict[str, int]) -> str:
    conns, pos = [], sum(inputs.values())
    for name, width in inputs.items():
        conns.append(f".{name}(in_vec[{pos - 1}:{pos - width}])")
        pos -= width
    pos = sum(outputs.values())
    for name, width in outputs.items():
        conns.append(f".{name}(out_vec[{pos - 1}:{pos - width}])")
        pos -= width
    return ", ".join(conns)


# ---- the testbench ------------------------------------------------------------------------------


def testbench_verilog(top: str, inputs: dict[str, int], outputs: dict[str, int], sdf: Path) -> str:
    """The environment of the de-synchronized core (module docstring), reading its inputs per
    cycle from ``+stim`` (one hex word a line, ports in ``inputs``' order, first in the MSBs) and
    writing each cycle's outputs and time to ``+out``."""
    in_width = sum(inputs.values())
    out_width = sum(outputs.values())
    conns = _connections(inputs, outputs)
    hs = (f".{RESET}(arst), .{ENV_REQ}(env_req), .{OUT_ACK}(out_ack), .{ENV_ACK}(env_ack), "
          f".{OUT_REQ}(out_req)")
    return f"""`timescale 1ns/1ps
module {TB_TOP};
  reg arst, env_req, out_ack;
  wire env_ack, out_req;
  reg [{in_width - 1}:0] in_vec;
  wire [{out_width - 1}:0] out_vec;
  reg [8*512-1:0] stim_file, out_file, vcd_file;
  integer cycles, c, fd, sfd, got, vcd_from, vcd_to, idle_after;
  integer idle_ps;
  real last_progress;
  {top} dut ({hs}, {conns});
  initial begin
    $sdf_annotate("{sdf}", dut);
    if (!$value$plusargs("stim=%s", stim_file)) $fatal(1, "no +stim");
    if (!$value$plusargs("out=%s", out_file)) $fatal(1, "no +out");
    if (!$value$plusargs("cycles=%d", cycles)) $fatal(1, "no +cycles");
    if (!$value$plusargs("vcd_from=%d", vcd_from)) vcd_from = -1;
    if (!$value$plusargs("vcd_to=%d", vcd_to)) vcd_to = -1;
    if (!$value$plusargs("idle_after=%d", idle_after)) idle_after = -1;
    if (!$value$plusargs("idle_ps=%d", idle_ps)) idle_ps = 0;
    if ($value$plusargs("vcd=%s", vcd_file)) begin
      $dumpfile(vcd_file); $dumpvars(0, dut); $dumpoff;
    end
    sfd = $fopen(stim_file, "r");
    fd = $fopen(out_file, "w");
    got = $fscanf(sfd, "%h\\n", in_vec);
    arst = 1; out_ack = 0; env_req = 1; last_progress = 0;
    #{RESET_NS}; arst = 0;
    for (c = 0; c < cycles; c = c + 1) begin
      if (c == vcd_from) $dumpon;
      wait (out_req === 1'b1);
      $fwrite(fd, "O %0d %0d %b\\n", c, $rtoi($realtime * 1000), out_vec);
      last_progress = $realtime;
      out_ack = 1;
      wait (env_ack === 1'b1);
      env_req = 0;
      wait (out_req === 1'b0);
      out_ack = 0;
      wait (env_ack === 1'b0);
      if (c == vcd_to) $dumpoff;
      if (c == idle_after) begin
        last_progress = $realtime + idle_ps / 1000.0;  // idling is no hang
        #(idle_ps / 1000.0);
      end
      if (c + 1 < cycles) begin
        got = $fscanf(sfd, "%h\\n", in_vec);
        #{SETUP_NS};
        env_req = 1;
      end
    end
    $fwrite(fd, "END %0d\\n", $rtoi($realtime * 1000));
    $fclose(fd);
    $finish;
  end
  always #{HANG_NS / 4} if ($realtime - last_progress > {HANG_NS} && $realtime > {RESET_NS}) begin
    $display("HANG at cycle %0d", c);
    $fclose(fd);
    $finish;
  end
endmodule
"""
