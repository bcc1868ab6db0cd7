"""Where a running study's CPU time goes, by tool and by job: a sampling profiler of processes.

    python benchmarks/tool_time.py --seconds 3600 [--interval 2] [-o samples.json]
    python benchmarks/tool_time.py --summarize samples.json

Every ``--interval`` seconds it reads /proc: the CPU time each process used since the last look
(user + system) counts for its tool (Yosys, ABC, OpenSTA, Verilator, the C++ compiler, a
Verilated simulation, Python) and for its job: the job whose work folder it runs in or names
(a cipherbench job runs its tools in ``~/.cache/cipherbench/runs/<design-slug>-XXXX``), else the
job its worker last ran a tool for. A process that starts and ends between two looks is missed,
and so is its last interval: short-lived compiler runs are undercounted by up to an interval. ``provenance.stage_seconds`` says how
long each stage of a job took; this says which tool the stage spent it in, e.g. whether a
pipeline's netlist check is its Verilator build (C++ compile) or its simulation.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

# Process name (comm, at most 15 characters) -> the tool it belongs to.
TOOLS: tuple[tuple[str, str], ...] = (
    (r"^yosys-abc$", "abc"),
    (r"^yosys", "yosys"),
    (r"^(sta|opensta)$", "opensta"),
    (r"^(verilator|verilator_bin|perl)$", "verilator"),
    (r"^(cc1plus|g\+\+|c\+\+|gcc|cc|ld|as|collect2|ccache|make)$", "c++ compile"),
    (r"^(tb|V.*)$", "simulation"),  # a Verilated model: cipherbench names it tb
    (r"^(python|python3|cipherbench)", "python"),
)
_TICKS = os.sysconf("SC_CLK_TCK")
_JOB = re.compile(r"/runs/([^/]+?)-[a-z0-9_]{8}(/|$)")


def tool_of(comm: str) -> str:
    for pattern, tool in TOOLS:
        if re.search(pattern, comm):
            return tool
    return "other"


@dataclass
class _Process:
    comm: str
    cmdline: str
    cpu_seconds: float  # user + system so far
    parent: int
    job: str | None  # the job folder it runs in or names on its command line


def _processes() -> dict[int, _Process]:
    found = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            cwd = os.readlink(f"/proc/{pid}/cwd")
            cmdline = Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
        except OSError:
            continue  # gone, or not ours to read
        fields = stat[stat.rindex(")") + 2:].split()
        match = _JOB.search(cwd + " " + cmdline)
        # After the name: state, ppid, ..., utime and stime at fields 12 and 13 (clock ticks).
        cpu = (int(fields[11]) + int(fields[12])) / _TICKS
        found[int(pid)] = _Process(stat[stat.index("(") + 1:stat.rindex(")")], cmdline, cpu,
                                   int(fields[1]), match.group(1) if match else None)
    return found


def _tool(process: _Process) -> str:
    # Yosys runs as pyosys inside a Python process (cipherbench.yosys_runner).
    return "yosys" if "yosys_runner" in process.cmdline else tool_of(process.comm)


def _ancestry(pid: int, processes: dict[int, _Process]) -> list[int]:
    chain = []
    while pid in processes and pid not in chain:
        chain.append(pid)
        pid = processes[pid].parent
    return chain


def _worker(chain: list[int], processes: dict[int, _Process]) -> int:
    """The study's worker process in ``chain``: the child of the multiprocessing forkserver
    (whose children share its command line), else the outermost Python process (--jobs 1)."""
    forked = [pid for pid in chain if "forkserver" in processes[pid].cmdline]
    if len(forked) >= 2:
        return forked[-2]
    pythons = [pid for pid in chain if processes[pid].comm.startswith(("python", "cipherbench"))]
    return pythons[-1] if pythons else chain[-1]


def _used(last_job: dict[int, str], seen: dict[int, float]) -> list[tuple[str, str, float]]:
    """(tool, job, CPU seconds since the last look) of every process. A Verilator build runs in
    the build cache, not in the job's folder: it counts for the job its worker last ran a tool for."""
    processes = _processes()
    used = []
    for pid, process in processes.items():
        chain = _ancestry(pid, processes)
        worker = _worker(chain, processes)
        job = next((processes[p].job for p in chain if processes[p].job), None)
        if job:
            last_job[worker] = job
        # A process first seen counts from its start: what it used before it was seen.
        delta = process.cpu_seconds - seen.get(pid, 0.0)
        seen[pid] = process.cpu_seconds
        if delta > 0 and pid != os.getpid():
            used.append((_tool(process), worker, delta))
    for gone in set(seen) - set(processes):
        del seen[gone]
    return [(tool, last_job.get(worker, "-"), delta) for tool, worker, delta in used]


def sample(seconds: float, interval: float, output: Path | None) -> dict[str, dict[str, float]]:
    """CPU seconds by job, then by tool, over ``seconds`` of sampling; written to ``output``
    every minute, so that a long sampling stopped early keeps what it saw."""
    cpu: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    end = time.monotonic() + seconds
    written = time.monotonic()
    last_job: dict[int, str] = {}
    # Processes running before sampling starts: only what they use from now on counts.
    seen = {pid: process.cpu_seconds for pid, process in _processes().items()}
    while time.monotonic() < end:
        for tool, job, seconds in _used(last_job, seen):
            cpu[job][tool] += seconds
        if output and time.monotonic() - written > 60:
            _write(cpu, output)
            written = time.monotonic()
        time.sleep(interval)
    if output:
        _write(cpu, output)
    return {job: dict(tools) for job, tools in cpu.items()}


def _write(cpu: dict[str, dict[str, float]], output: Path) -> None:
    partial = output.with_suffix(".partial")
    partial.write_text(json.dumps(cpu, indent=1, sort_keys=True))
    partial.replace(output)


def summarize(cpu: dict[str, dict[str, float]]) -> str:
    tools = sorted({tool for by_tool in cpu.values() for tool in by_tool})
    lines = ["| job | " + " | ".join(tools) + " | total |",
             "|---|" + "---:|" * (len(tools) + 1)]
    for job in sorted(cpu, key=lambda j: -sum(cpu[j].values())):
        total = sum(cpu[job].values())
        cells = [f"{cpu[job].get(tool, 0) / 60:.1f} ({100 * cpu[job].get(tool, 0) / total:.0f} %)"
                 for tool in tools]
        lines.append(f"| {job} | " + " | ".join(cells) + f" | {total / 60:.1f} |")
    return "\n".join(lines) + "\n\nCPU minutes (share of the job's sampled CPU time).\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3600.0)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("-o", "--output", type=Path, help="write the samples here as JSON")
    parser.add_argument("--summarize", type=Path, help="print the table of a samples file")
    args = parser.parse_args()
    if args.summarize:
        print(summarize(json.loads(args.summarize.read_text())))
        return
    print(summarize(sample(args.seconds, args.interval, args.output)))


if __name__ == "__main__":
    main()
