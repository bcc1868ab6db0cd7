"""The de-synchronization building blocks (issue 30) in timed gate-level simulation on osu018:
cell delays from OpenSTA's SDF, Icarus Verilog with the kit's cell models.

The pipeline tests put a combinational block of known delay (an inverter chain per bit, so the
value changes) between two latch banks and pass tokens through them; with the matched delay
sized from STA they pass, and with it made far too short the same simulation must fail.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from cipherbench.flows.desync.blocks import (CellSet, Netlist, c_element, delay_line, latch_bank,
                                       latch_controller, size_delay_line)
from cipherbench.flows.desync.timed_sim import port_delay_ps, simulate, write_sdf
from cipherbench.errors import ToolMissing
from cipherbench.flows.liberty import Liberty, load_liberty
from cipherbench.tools import find_command

pytestmark = pytest.mark.skipif(
    find_command("iverilog") is None or find_command("sta") is None,
    reason="timed simulation needs Icarus Verilog and OpenSTA: apt-get install iverilog opensta "
           "(scripts/setup.sh --tests installs them)")

WIDTH = 4
LOGIC_INVERTERS = 31  # odd: the block's output is the inverse of its input
TOKENS = 12


@pytest.fixture(scope="module")
def osu018() -> tuple[Liberty, CellSet]:
    library = load_liberty("osu018")
    return library, CellSet.of(library)


def _timed_run(library: Liberty, net: Netlist, testbench: str, work: Path) -> str:
    netlist = net.write(work / f"{net.name}.v")
    sdf = write_sdf(library, netlist, net.name, work / f"{net.name}.sdf", find_command("sta"))
    tb = work / "tb.v"
    tb.write_text(testbench)
    return simulate(library, netlist, tb, "tb", sdf, work)


# ---- C-element -------------------------------------------------------------------------------

C_TB = """`timescale 1ns/1ps
module tb;
  reg a, b, rst;
  wire y0, y1;
  cb_celem dut (.a(a), .b(b), .rst(rst), .y0(y0), .y1(y1));
  task expect(input e0, input e1);
    begin #2; $display("CHECK a=%b b=%b y0=%b y1=%b want %b %b", a, b, y0, y1, e0, e1); end
  endtask
  initial begin
    a = 1; b = 0; rst = 1; #5; expect(0, 1);
    rst = 0;            expect(0, 1);   // inputs disagree: both keep their reset values
    a = 0;              expect(0, 0);   // both low: y1 falls
    a = 1;              expect(0, 0);   // inputs disagree: hold 0
    b = 1;              expect(1, 1);   // both high: rise
    a = 0;              expect(1, 1);   // disagree: hold 1
    a = 1;              expect(1, 1);
    b = 0;              expect(1, 1);   // hold 1 with the other input low
    a = 0;              expect(0, 0);   // both low: fall
    b = 1;              expect(0, 0);   // hold 0
    b = 0;              expect(0, 0);
    b = 1; a = 1;       expect(1, 1);   // both together
    b = 0; a = 0;       expect(0, 0);
    $finish;
  end
endmodule
"""


@pytest.mark.parametrize("kit", ["osu018", "osu035", "osu050"])
def test_c_element_truth_table_and_state(kit: str, tmp_path: Path) -> None:
    library = load_liberty(kit)
    cells = CellSet.of(library)
    net = Netlist("cb_celem", cells, inputs=["a", "b", "rst"], outputs=["y0", "y1"])
    c_element(net, "c0", "a", "b", "y0", "rst", init=0)
    c_element(net, "c1", "a", "b", "y1", "rst", init=1)
    output = _timed_run(library, net, C_TB, tmp_path)
    checks = re.findall(r"CHECK a=(\S) b=(\S) y0=(\S) y1=(\S) want (\S) (\S)", output)
    assert len(checks) == 13, output
    for a, b, y0, y1, w0, w1 in checks:
        assert (y0, y1) == (w0, w1), f"a={a} b={b}: got {y0}{y1}, want {w0}{w1}\n{output}"


# ---- a two-stage latch pipeline --------------------------------------------------------------

PIPE_TB = """`timescale 1ns/1ps
module tb;
  reg rst, rin, aout;
  reg [@W1@:0] din;
  wire ain, rout;
  wire [@W1@:0] dout;
  integer i, errors, seen;
  reg [@W1@:0] tokens [0:@N1@];
  cb_pipe dut (.rst(rst), .rin(rin), .aout(aout), @DIN@, .ain(ain), .rout(rout), @DOUT@);
  initial begin
@TOKENS@
  end
  // producer: four-phase, data set @BUNDLE@ ns before its request
  initial begin
    rst = 1; rin = 0; din = 0; #20; rst = 0; #5;
    for (i = 0; i <= @N1@; i = i + 1) begin
      din = tokens[i]; #@BUNDLE@; rin = 1;
      wait (ain === 1'b1); #0.1; rin = 0;
      wait (ain === 1'b0); #0.1;
    end
  end
  // consumer: takes the data on rout+, answers after a while
  initial begin
    errors = 0; seen = 0; aout = 0;
    #25;
    while (seen <= @N1@) begin
      wait (rout === 1'b1); #0.2;
      if (dout !== ~tokens[seen]) begin
        errors = errors + 1;
        $display("MISMATCH token %0d: got %b want %b", seen, dout, ~tokens[seen]);
      end
      seen = seen + 1; #0.1; aout = 1;
      wait (rout === 1'b0); #0.1; aout = 0;
    end
    $display("RESULT tokens=%0d errors=%0d", seen, errors);
    $finish;
  end
  initial begin #20000; $display("RESULT timeout tokens=%0d", seen); $finish; end
endmodule
"""


def _logic(net: Netlist, name: str, source: str, sink: str | None = None) -> str:
    """The combinational block between the banks: a chain of inverters (known, STA-timed)."""
    current = source
    for k in range(LOGIC_INVERTERS):
        out = sink if (sink and k == LOGIC_INVERTERS - 1) else f"{name}_n{k}"
        current = net.gate(net.cells.inverter, f"{name}_i{k}", {"a": current}, out)
    return current


def _pipeline(cells: CellSet, delay_stages: int) -> Netlist:
    """rin/din -> bank 1 -> logic -> bank 2 -> rout/dout; the matched delay on bank 2's request."""
    din = [f"din{i}" for i in range(WIDTH)]
    dout = [f"dout{i}" for i in range(WIDTH)]
    net = Netlist("cb_pipe", cells, inputs=["rst", "rin", "aout", *din],
                  outputs=["ain", "rout", *dout])
    # Bank 1's acknowledge from the right is bank 2's state; declare it before use.
    s2 = net.wire("s2_state")
    c1, en1 = latch_controller(net, "s1", "rin", s2, "rst")
    q1 = latch_bank(net, "b1", din, en1)
    mid = [_logic(net, f"lg{i}", q) for i, q in enumerate(q1)]
    rin2 = delay_line(net, "md", c1, delay_stages)
    c2, en2 = latch_controller(net, "s2", rin2, "aout", "rst")
    assert c2 == s2
    q2 = latch_bank(net, "b2", mid, en2)
    net.lines += [f"  assign ain = {c1};", f"  assign rout = {c2};"]
    net.lines += [f"  assign {o} = {q};" for o, q in zip(dout, q2)]
    return net


def _pipeline_tb(tokens: list[int], bundle_ns: float = 0.3) -> str:
    w1 = WIDTH - 1
    return (PIPE_TB.replace("@W1@", str(w1)).replace("@N1@", str(len(tokens) - 1))
            .replace("@BUNDLE@", str(bundle_ns))
            .replace("@DIN@", ", ".join(f".din{i}(din[{i}])" for i in range(WIDTH)))
            .replace("@DOUT@", ", ".join(f".dout{i}(dout[{i}])" for i in range(WIDTH)))
            .replace("@TOKENS@", "\n".join(f"    tokens[{i}] = {WIDTH}'d{t};"
                                           for i, t in enumerate(tokens))))


def _logic_delay_ps(library: Liberty, cells: CellSet, work: Path) -> float:
    net = Netlist("cb_logic", cells, inputs=["i"], outputs=["o"])
    _logic(net, "lg", "i", sink="o")
    return port_delay_ps(library, net.write(work / "cb_logic.v"), "cb_logic", "i", "o", work,
                         find_command("sta"))


def _tokens() -> list[int]:
    # Alternate complements so that every bit changes from one token to the next: a latch that
    # closes early then holds the previous token's bit, never the right one by chance.
    rng = random.Random(30)
    firsts = [rng.randrange(1 << WIDTH) for _ in range(TOKENS // 2)]
    return [v for t in firsts for v in (t, t ^ ((1 << WIDTH) - 1))]


def _run_pipeline(osu018: tuple[Liberty, CellSet], delay_stages: int,
                  work: Path) -> tuple[int, int, str]:
    library, cells = osu018
    output = _timed_run(library, _pipeline(cells, delay_stages), _pipeline_tb(_tokens()), work)
    found = re.search(r"RESULT tokens=(\d+) errors=(\d+)", output)
    assert found, f"no result (deadlock?):\n{output}"
    return int(found.group(1)), int(found.group(2)), output


# Latch D->Q and setup on osu018 are about 0.24 ns and 0.19 ns: the matched delay covers the
# logic by STA, both, and a 20 % margin.
LATCH_OVERHEAD_PS = 450.0
MARGIN = 1.2


def test_pipeline_passes_tokens_through_a_matched_delay(osu018: tuple[Liberty, CellSet],
                                                         tmp_path: Path) -> None:
    library, cells = osu018
    sta = find_command("sta")
    logic_ps = _logic_delay_ps(library, cells, tmp_path)
    assert logic_ps > 1000.0  # the block is slow enough that a short delay must show
    stages, delay_ps = size_delay_line(library, cells, MARGIN * (logic_ps + LATCH_OVERHEAD_PS),
                                       tmp_path, sta)
    assert delay_ps >= MARGIN * (logic_ps + LATCH_OVERHEAD_PS)
    tokens, errors, output = _run_pipeline(osu018, stages, tmp_path)
    assert (tokens, errors) == (TOKENS, 0), output


def test_pipeline_with_a_too_short_delay_fails(osu018: tuple[Liberty, CellSet],
                                                 tmp_path: Path) -> None:
    """The negative test: the same pipeline with the matched delay a fifth of the logic's STA
    delay latches data before it settles, and the timed simulation says so."""
    library, cells = osu018
    logic_ps = _logic_delay_ps(library, cells, tmp_path)
    stages, delay_ps = size_delay_line(library, cells, logic_ps / 5.0, tmp_path,
                                       find_command("sta"))
    assert delay_ps < logic_ps / 2.0
    tokens, errors, output = _run_pipeline(osu018, stages, tmp_path)
    assert tokens == TOKENS
    assert errors >= TOKENS // 2, (
        f"a delay of {delay_ps:.0f} ps under {logic_ps:.0f} ps of logic passed:\n{output}")


def test_missing_iverilog_is_one_line_naming_the_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import cipherbench.flows.desync.timed_sim as timed_sim
    monkeypatch.setattr(timed_sim, "find_command", lambda name: None)
    with pytest.raises(ToolMissing, match="apt-get install iverilog"):
        timed_sim.sim_tools()


def _configured_liberty() -> str | None:
    import os
    return os.environ.get("CIPHERBENCH_LIBERTY")


@pytest.mark.skipif(_configured_liberty() is None,
                    reason="no Liberty configured (CIPHERBENCH_LIBERTY; NanGate45 in CI)")
def test_c_element_on_the_configured_liberty_with_models_written_from_it(tmp_path: Path) -> None:
    """A library without Verilog models of its own (NanGate45 is only Liberty) still simulates
    with its timing: the models are written from the Liberty (flows/desync/models.py), and the
    blocks find its cells by function (NanGate's OAI21_X1 has its pins in another order)."""
    library = load_liberty(_configured_liberty())
    cells = CellSet.of(library)
    net = Netlist("cb_celem", cells, inputs=["a", "b", "rst"], outputs=["y0", "y1"])
    c_element(net, "c0", "a", "b", "y0", "rst", init=0)
    c_element(net, "c1", "a", "b", "y1", "rst", init=1)
    output = _timed_run(library, net, C_TB, tmp_path)
    checks = re.findall(r"CHECK a=(\S) b=(\S) y0=(\S) y1=(\S) want (\S) (\S)", output)
    assert len(checks) == 13, output
    assert all((y0, y1) == (w0, w1) for _a, _b, y0, y1, w0, w1 in checks), output


# ---- controllers in a ring: an iterative datapath -------------------------------------------

RING_TB = """`timescale 1ns/1ps
module tb;
  reg rst, load;
  reg [3:0] din;
  wire c0;
  wire [3:0] q;
  integer k;
  cb_ring dut (.rst(rst), .load(load), .din0(din[0]), .din1(din[1]), .din2(din[2]),
               .din3(din[3]), .c0(c0), .q0(q[0]), .q1(q[1]), .q2(q[2]), .q3(q[3]));
  initial begin
    rst = 1; load = 1; din = 4'd@START@; #20; rst = 0;
    // the first closing of bank 0 after reset takes din; from then on the ring iterates
    @(posedge c0); #0.2; load = 0; $display("ITER %0d %b", 0, q);
    for (k = 1; k <= @N@; k = k + 1) begin @(posedge c0); #0.2; $display("ITER %0d %b", k, q); end
    $finish;
  end
  initial begin #5000; $display("TIMEOUT"); $finish; end
endmodule
"""
RING_START = 9
RING_ITERATIONS = 10


def _increment(net: Netlist, name: str, bits: list[str]) -> list[str]:
    """x + 1 mod 16 from the library's NAND2 and inverter (carry c_i = a_0...a_i-1)."""
    cells, out, carry = net.cells, [], None
    for i, a in enumerate(bits):
        if carry is None:
            out.append(net.gate(cells.inverter, f"{name}_s{i}", {"a": a}, f"{name}_s{i}_y"))
            carry = a
            continue
        out.append(_xor(net, f"{name}_x{i}", a, carry))
        n = net.gate(cells.nand2, f"{name}_cn{i}", {"a": a, "b": carry}, f"{name}_cn{i}_y")
        carry = net.gate(cells.inverter, f"{name}_c{i}", {"a": n}, f"{name}_c{i}_y")
    return out


def _xor(net: Netlist, name: str, a: str, b: str) -> str:
    """a ^ b as four NAND2s (the library's XOR is not among the cells the blocks look up)."""
    nand2 = net.cells.nand2
    m = net.gate(nand2, f"{name}_m", {"a": a, "b": b}, f"{name}_m_y")
    p = net.gate(nand2, f"{name}_p", {"a": a, "b": m}, f"{name}_p_y")
    r = net.gate(nand2, f"{name}_r", {"a": m, "b": b}, f"{name}_r_y")
    return net.gate(nand2, f"{name}_o", {"a": p, "b": r}, f"{name}_o_y")


def _mux(net: Netlist, name: str, sel: str, one: str, zero: str) -> str:
    cells = net.cells
    sel_n = net.gate(cells.inverter, f"{name}_sn", {"a": sel}, f"{name}_sn_y")
    p = net.gate(cells.nand2, f"{name}_p", {"a": one, "b": sel}, f"{name}_p_y")
    r = net.gate(cells.nand2, f"{name}_r", {"a": zero, "b": sel_n}, f"{name}_r_y")
    return net.gate(cells.nand2, f"{name}_o", {"a": p, "b": r}, f"{name}_o_y")


def _ring(cells: CellSet, delay_stages: int) -> Netlist:
    """Three banks in a ring, bank 0 <- (an incrementer, then a slow inverter-pair chain) <-
    bank 2, so each revolution adds one; load puts din into bank 0. Bank 0 starts closed
    (the token), banks 1 and 2 transparent: with simple controllers a ring needs a bank that
    is not holding the token on each side of it, hence three and not two."""
    din = [f"din{i}" for i in range(WIDTH)]
    qs = [f"q{i}" for i in range(WIDTH)]
    net = Netlist("cb_ring", cells, inputs=["rst", "load", *din], outputs=["c0", *qs])
    s = [net.wire(f"r{k}_state") for k in range(3)]
    rin0 = delay_line(net, "md", s[2], delay_stages)
    c0, en0 = latch_controller(net, "r0", rin0, s[1], "rst", init=1)
    c1, en1 = latch_controller(net, "r1", c0, s[2], "rst")
    c2, en2 = latch_controller(net, "r2", c1, s[0], "rst")
    assert (c0, c1, c2) == tuple(s)
    q0 = [net.wire(f"b0_q{i}") for i in range(WIDTH)]
    q1 = latch_bank(net, "b1", q0, en1)
    q2 = latch_bank(net, "b2", q1, en2)
    inc = _increment(net, "inc", q2)
    slow = [_logic(net, f"lg{i}", _logic(net, f"lh{i}", x)) for i, x in enumerate(inc)]
    d0 = [_mux(net, f"mx{i}", "load", din[i], x) for i, x in enumerate(slow)]
    assert latch_bank(net, "b0", d0, en0) == q0
    net.lines += [f"  assign c0 = {c0};"] + [f"  assign q{i} = {q};" for i, q in enumerate(q0)]
    return net


def _run_ring(osu018: tuple[Liberty, CellSet], delay_stages: int, work: Path) -> list[int]:
    library, cells = osu018
    tb = (RING_TB.replace("@START@", str(RING_START)).replace("@N@", str(RING_ITERATIONS)))
    output = _timed_run(library, _ring(cells, delay_stages), tb, work)
    values = re.findall(r"ITER \d+ ([01xz]{4})", output)
    assert len(values) == RING_ITERATIONS + 1, output
    return [int(v, 2) if set(v) <= {"0", "1"} else -1 for v in values]


def test_a_ring_of_controllers_iterates_through_a_matched_delay(
        osu018: tuple[Liberty, CellSet], tmp_path: Path) -> None:
    """The shape of an iterative core: a value goes round the ring through the logic once per
    revolution; bank 0 holds x, x + 1, x + 2, ... (mod 16)."""
    library, cells = osu018
    # The ring's logic: the incrementer's carry chain and two 31-inverter chains, by STA on the
    # whole ring is not possible (a loop), so bound it as the chains plus 1 ns for the rest.
    logic_ps = 2 * _logic_delay_ps(library, cells, tmp_path) + 1000.0
    stages, _ = size_delay_line(library, cells, MARGIN * (logic_ps + LATCH_OVERHEAD_PS),
                                tmp_path, find_command("sta"))
    got = _run_ring(osu018, stages, tmp_path)
    assert got == [(RING_START + k) % 16 for k in range(RING_ITERATIONS + 1)]


def test_a_ring_with_a_too_short_delay_computes_wrong_values(
        osu018: tuple[Liberty, CellSet], tmp_path: Path) -> None:
    got = _run_ring(osu018, 2, tmp_path)
    want = [(RING_START + k) % 16 for k in range(RING_ITERATIONS + 1)]
    assert got[0] == RING_START  # the load is not timed by the matched delay
    assert sum(g != w for g, w in zip(got, want)) >= RING_ITERATIONS // 2, got


TWO_RING_TB = """`timescale 1ns/1ps
module tb;
  reg rst;
  wire c0, c1;
  integer edges;
  cb_ring2 dut (.rst(rst), .c0(c0), .c1(c1));
  initial begin
    edges = 0; rst = 1; #20; rst = 0; #200;
    $display("EDGES %0d c0=%b c1=%b", edges, c0, c1); $finish;
  end
  always @(c0 or c1) if (!rst) edges = edges + 1;
endmodule
"""


def test_two_simple_controllers_in_a_ring_deadlock(osu018: tuple[Liberty, CellSet],
                                                   tmp_path: Path) -> None:
    """Why the ring above has three banks: with two, each C-element's inputs are the other's
    output and its inverse (delayed), which never agree, so nothing moves. A de-synchronized
    register with feedback (two latches) needs a more concurrent controller (issue 30)."""
    library, cells = osu018
    net = Netlist("cb_ring2", cells, inputs=["rst"], outputs=["c0", "c1"])
    s0, s1 = net.wire("q0_state"), net.wire("q1_state")
    latch_controller(net, "q0", delay_line(net, "md", s1, 4), s1, "rst", init=1)
    latch_controller(net, "q1", s0, s0, "rst")
    net.lines += [f"  assign c0 = {s0};", f"  assign c1 = {s1};"]
    output = _timed_run(library, net, TWO_RING_TB, tmp_path)
    assert re.search(r"EDGES 0 c0=1 c1=0", output), output
