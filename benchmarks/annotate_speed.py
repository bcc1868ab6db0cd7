"""How long a timed simulation takes to get its delays: Icarus's $sdf_annotate against the delays
written into the netlist (flows/desync/annotate.py), on flat netlists of n inverter chains.

Each netlist is n instances of the library's smallest inverter on osu018; OpenSTA writes its SDF
as the desync flow does. Timed: (a) compile, then vvp running a testbench that calls
$sdf_annotate and finishes at time 0; (b) annotate.py writing the parameters, compile, then vvp
running the same testbench without $sdf_annotate. Both print one inverter's output at 1 ns so
that a run that did not take the delays would show.

Run: .venv/bin/python benchmarks/annotate_speed.py [n ...]   (default 5000 10000 20000)
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cipherbench.flows.desync.annotate import annotated_netlist
from cipherbench.flows.desync.cells import MappedCell, find_inverter
from cipherbench.flows.desync.timed_sim import cell_models, sim_tools, write_sdf
from cipherbench.flows.liberty import load_liberty
from cipherbench.tools import find_command

CHAIN = 10  # inverters per chain: loads like a netlist's, not one net of n sinks
_MIN_MAX = re.compile(r"\(([-+0-9.eE]+)::([-+0-9.eE]+)\)")


def icarus_sdf(sdf: Path) -> Path:
    """OpenSTA writes (min::max) with no typical value, and Icarus annotates the typical one
    (given none it keeps the models' zeros): the max goes in the typical place."""
    text = _MIN_MAX.sub(lambda m: f"({m.group(1)}:{m.group(2)}:{m.group(2)})", sdf.read_text())
    out = sdf.with_name(f"{sdf.stem}_icarus.sdf")
    out.write_text(text)
    return out


def netlist_text(inverter: MappedCell, n: int) -> str:
    lines = ["module flat (a, y);", "  input a;", "  output y;"]
    lines += [f"  wire n{i};" for i in range(n)]
    for i in range(n):
        source = "a" if i % CHAIN == 0 else f"n{i - 1}"
        lines.append(inverter.instance(f"u{i}", {"a": source}, f"n{i}"))
    lines += [f"  assign y = n{n - 1};", "endmodule", ""]
    return "\n".join(lines)


def testbench(sdf: Path | None) -> str:
    """Raises the input at 1 ns and prints when the first inverter answered."""
    annotate = f'    $sdf_annotate("{sdf}", dut);\n' if sdf else ""
    return ("`timescale 1ns/1ps\nmodule tb;\n  real t0; reg a = 0; wire y;\n"
            "  flat dut (.a(a), .y(y));\n  always @(dut.n0) t0 = $realtime;\n"
            f"  initial begin\n{annotate}    #1 a = 1;\n"
            '    #1 $display("n0 changed at %0.4f", t0); $finish;\n  end\nendmodule\n')


def timed_run(models: Path, netlist: Path, tb_text: str, work: Path, name: str) -> float:
    """Compile and run; wall seconds."""
    tools = sim_tools()
    tb = work / f"{name}_tb.v"
    tb.write_text(tb_text)
    binary = work / f"{name}.vvp"
    start = time.monotonic()
    subprocess.run([tools.iverilog, "-g2005", "-gspecify", "-s", "tb", "-o", str(binary),
                    str(models), str(netlist), str(tb)], check=True)
    result = subprocess.run([tools.vvp, "-n", str(binary)], check=True, capture_output=True,
                            text=True)
    elapsed = time.monotonic() - start
    shown = next((ln for ln in result.stdout.splitlines() if "changed at" in ln), None)
    print(f"    {name}: {shown or result.stdout.strip()[-200:]}")
    return elapsed


def main(sizes: list[int]) -> None:
    library = load_liberty("osu018")
    inverter = find_inverter(library)
    models = cell_models(library)
    sta = find_command("sta")
    print("n instances | $sdf_annotate s | parameters s (of which annotate.py s)")
    for n in sizes:
        with tempfile.TemporaryDirectory() as folder:
            work = Path(folder)
            netlist = work / "flat.v"
            netlist.write_text(netlist_text(inverter, n))
            sdf = write_sdf(library, netlist, "flat", work / "flat.sdf", sta)
            icarus = timed_run(models, netlist, testbench(icarus_sdf(sdf)), work,
                               "sdf_annotate")
            start = time.monotonic()
            timed = annotated_netlist(netlist, sdf, models, work / "flat_timed.v")
            written = time.monotonic() - start
            ours = written + timed_run(models, timed, testbench(None), work, "parameters")
            print(f"{n} | {icarus:.1f} | {ours:.1f} ({written:.1f})", flush=True)


if __name__ == "__main__":
    main([int(v) for v in sys.argv[1:]] or [5000, 10000, 20000])
