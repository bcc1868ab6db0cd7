"""The SDF's delays written into a netlist as its cell models' parameters (annotate.py): read as
OpenSTA times a path, and every mismatch between SDF, netlist and models an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.flows.desync.annotate import annotated_netlist, model_arcs, read_sdf_delays
from cipherbench.flows.desync.models import models_verilog

LIBERTY = """library (toy) {
  cell (NAND2) { area : 1;
    pin (A) { direction : input; } pin (B) { direction : input; }
    pin (Y) { direction : output; function : "!(A & B)"; } }
  cell (DFF) { area : 4;
    ff (IQ, IQN) { clocked_on : "CK"; next_state : "D"; }
    pin (CK) { direction : input; } pin (D) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; } }
}
"""

SDF = """(DELAYFILE
 (SDFVERSION "3.0")
 (DIVIDER /)
 (TIMESCALE 1ps)
 (CELL
  (CELLTYPE "top")
  (INSTANCE)
  (DELAY
   (ABSOLUTE
    (INTERCONNECT a u\\[0\\]/A (0.000::0.000))
 )))
 (CELL
  (CELLTYPE "NAND2")
  (INSTANCE u\\[0\\])
  (DELAY
   (ABSOLUTE
    (COND B == 1'b1
     (IOPATH A Y (10.0::12.0) (20.0::21.0)))
    (COND B == 1'b0
     (IOPATH A Y (15.0::16.0) (5.0::6.0)))
    (IOPATH B Y (30.0::31.0))
 )))
 (CELL
  (CELLTYPE "DFF")
  (INSTANCE r1)
  (DELAY
   (ABSOLUTE
    (IOPATH (posedge CK) Q (40.0::41.0) (42.0::43.0))
 )))
)
"""

NETLIST = """module top (a, b, ck, q);
  input a, b, ck;
  output q;
  wire y;
  NAND2 \\u[0]  (.A(a), .B(b), .Y(y));
  DFF r1 (.CK(ck), .D(y), .Q(q));
endmodule
"""


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {"models": tmp_path / "models.v", "netlist": tmp_path / "top.v",
             "sdf": tmp_path / "top.sdf"}
    paths["models"].write_text(models_verilog(LIBERTY, "toy"))
    paths["netlist"].write_text(NETLIST)
    paths["sdf"].write_text(SDF)
    return paths


def test_the_slowest_condition_and_value_in_ns() -> None:
    delays = read_sdf_delays(SDF)
    assert set(delays) == {"u[0]", "r1"}
    nand = delays["u[0]"]
    # A -> Y: rise from the B=0 condition (16 ps), fall from B=1 (21 ps); B -> Y one value.
    assert nand[("A", "Y")] == pytest.approx((0.016, 0.021))
    assert nand[("B", "Y")] == pytest.approx((0.031, 0.031))
    assert delays["r1"] == {("CK", "Q"): pytest.approx((0.041, 0.043))}


def test_an_arc_cut_to_break_a_loop_takes_its_cells_slowest() -> None:
    """OpenSTA writes the arc it disabled in a C-element's loop as 0 ns: it takes the slowest
    rise and fall of the instance's other arcs; an instance all of whose arcs are 0 keeps them."""
    cut = SDF.replace("(IOPATH B Y (30.0::31.0))", "(IOPATH B Y (0.000::0.000))")
    assert read_sdf_delays(cut)["u[0]"][("B", "Y")] == pytest.approx((0.016, 0.021))
    untimed = cut.replace("(40.0::41.0) (42.0::43.0)", "(0::0) (0::0)")
    assert read_sdf_delays(untimed)["r1"] == {("CK", "Q"): (0.0, 0.0)}


def test_the_models_have_a_parameter_per_arc(files: dict[str, Path]) -> None:
    assert model_arcs(files["models"]) == {"NAND2": {("A", "Y"), ("B", "Y")},
                                           "DFF": {("CK", "Q"), ("D", "Q")}}
    assert "parameter real tpd_A_Y_r = 0.0, tpd_A_Y_f = 0.0;" in files["models"].read_text()


def test_each_instance_gets_its_delays(files: dict[str, Path], tmp_path: Path) -> None:
    out = annotated_netlist(files["netlist"], files["sdf"], files["models"], tmp_path / "t.v")
    text = out.read_text()
    assert ("NAND2 #(.tpd_A_Y_r(0.016), .tpd_A_Y_f(0.021), .tpd_B_Y_r(0.031), "
            ".tpd_B_Y_f(0.031)) \\u[0]  (.A(a)") in text
    assert "DFF #(.tpd_CK_Q_r(0.041), .tpd_CK_Q_f(0.043)) r1 (" in text
    assert "module top (a, b, ck, q);" in text


def test_an_instance_the_sdf_does_not_time_is_an_error(files: dict[str, Path],
                                                        tmp_path: Path) -> None:
    files["netlist"].write_text(NETLIST.replace("endmodule",
                                                "  NAND2 u9 (.A(a), .B(y), .Y());\nendmodule"))
    with pytest.raises(CipherbenchError, match="no delays for instance u9 .NAND2."):
        annotated_netlist(files["netlist"], files["sdf"], files["models"], tmp_path / "t.v")


def test_a_renamed_instance_is_an_error(files: dict[str, Path], tmp_path: Path) -> None:
    files["sdf"].write_text(SDF.replace("(INSTANCE r1)", "(INSTANCE r2)"))
    with pytest.raises(CipherbenchError, match="no delays for instance r1"):
        annotated_netlist(files["netlist"], files["sdf"], files["models"], tmp_path / "t.v")


def test_an_extra_sdf_instance_is_an_error(files: dict[str, Path], tmp_path: Path) -> None:
    extra = SDF.rstrip()[:-1] + """ (CELL
  (CELLTYPE "DFF")
  (INSTANCE ghost)
  (DELAY (ABSOLUTE
    (IOPATH (posedge CK) Q (1.0::1.0) (1.0::1.0))
 )))
)
"""
    files["sdf"].write_text(extra)
    with pytest.raises(CipherbenchError, match="times instance ghost, which .* does not have"):
        annotated_netlist(files["netlist"], files["sdf"], files["models"], tmp_path / "t.v")


def test_an_arc_the_model_lacks_is_an_error(files: dict[str, Path], tmp_path: Path) -> None:
    files["sdf"].write_text(SDF.replace("(IOPATH B Y", "(IOPATH C Y"))
    with pytest.raises(CipherbenchError, match="times u.0. .NAND2. from C to Y, which its cell"):
        annotated_netlist(files["netlist"], files["sdf"], files["models"], tmp_path / "t.v")


def test_a_line_not_understood_is_an_error() -> None:
    with pytest.raises(CipherbenchError, match="SDF line not understood"):
        read_sdf_delays(SDF.replace("(IOPATH B Y (30.0::31.0))", "(IOPATH B)"))
    with pytest.raises(CipherbenchError, match="TIMESCALE unit 'furlong'"):
        read_sdf_delays(SDF.replace("(TIMESCALE 1ps)", "(TIMESCALE 1furlong)"))


def test_the_delays_reach_the_simulation(files: dict[str, Path], tmp_path: Path) -> None:
    """Compiled and run by Icarus, the NAND's output moves 16 ps after its input rises and the
    flip-flop's 41 ps after the clock: the parameters are the specify paths' delays."""
    from cipherbench.flows.desync.timed_sim import run_timed, sim_tools

    try:
        tools = sim_tools()
    except CipherbenchError as missing:
        pytest.skip(f"Icarus Verilog absent: {missing}")
    import subprocess

    timed = annotated_netlist(files["netlist"], files["sdf"], files["models"], tmp_path / "t.v")
    tb = tmp_path / "tb.v"
    tb.write_text("""`timescale 1ns/1ps
module tb;
  reg a = 1, b = 1, ck = 0; wire q;
  top dut (.a(a), .b(b), .ck(ck), .q(q));
  initial begin
    #1 a = 0;
    #1 ck = 1;
    #1 $finish;
  end
  always @(dut.y) $display("y=%b at %0.3f", dut.y, $realtime);
  always @(q) $display("q=%b at %0.3f", q, $realtime);
endmodule
""")
    binary = tmp_path / "tb.vvp"
    subprocess.run([tools.iverilog, "-g2005", "-gspecify", "-s", "tb", "-o", str(binary),
                    str(files["models"]), str(timed), str(tb)], check=True)
    output = run_timed(binary, [], tmp_path, "tb")
    # A falls at 1 ns: Y rises after A->Y's rise (16 ps); the clock at 2 ns: Q rises 41 ps on.
    assert "y=1 at 1.016" in output
    assert "q=1 at 2.041" in output
