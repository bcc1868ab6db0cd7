"""Small designs for the leakage tests (tests/test_leakage_*.py), written here as Verilog: an
unprotected 4-bit S-box, a first-order DOM-indep AND with 2 shares, its two broken variants
(the cross-domain register missing; the fresh random bit of one multiplier reused by another),
a share register overwritten by the other share, and a small SPN round with enable, load and
synchronous reset for the simulator's functional checks."""

from __future__ import annotations

import json
from pathlib import Path

from cipherbench.leakage import Netlist, read_netlist, synthesize_netlist

PRESENT_SBOX = (0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD, 0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2)


def _sbox_case(signal_in: str, signal_out: str) -> str:
    rows = "".join(f"      4'h{i:x}: {signal_out} = 4'h{v:x};\n" for i, v in enumerate(PRESENT_SBOX))
    return f"    case ({signal_in})\n{rows}    endcase\n"


# Unprotected: the secret nibble is registered, substituted, registered.
SBOX_UNPROTECTED = f"""module sbox_plain(input clk, input [3:0] x, output reg [3:0] y);
  reg [3:0] x_q;
  reg [3:0] s;
  always @* begin
{_sbox_case("x_q", "s")}  end
  always @(posedge clk) begin
    x_q <= x;
    y <= s;
  end
endmodule
"""

# DOM-indep AND, 2 shares (Gross et al. 2016): inner-domain products a_i b_i, cross-domain
# products a_i b_j ^ r registered before the compression XOR.
DOM_AND = """module dom_and(input clk, input a0, a1, b0, b1, r, output q0, q1);
  reg inner0, inner1, cross01, cross10;
  always @(posedge clk) begin
    inner0 <= a0 & b0;
    inner1 <= a1 & b1;
    cross01 <= (a0 & b1) ^ r;
    cross10 <= (a1 & b0) ^ r;
  end
  assign q0 = inner0 ^ cross01;
  assign q1 = inner1 ^ cross10;
endmodule
"""

# The same without the register between the domains: the compression XOR's glitches combine
# a0 b1 ^ r with a0 b0 (held in its register), i.e. a0, b0 and b1 in one cone.
DOM_AND_UNREGISTERED = """module dom_and(input clk, input a0, a1, b0, b1, r, output q0, q1);
  reg inner0, inner1;
  always @(posedge clk) begin
    inner0 <= a0 & b0;
    inner1 <= a1 & b1;
  end
  wire cross01 = (a0 & b1) ^ r;
  wire cross10 = (a1 & b0) ^ r;
  assign q0 = inner0 ^ cross01;
  assign q1 = inner1 ^ cross10;
endmodule
"""

# z = a b ^ c d from two DOM ANDs whose output shares are added share by share. With one fresh
# bit each (r1, r2) every share of z is uniform; with r1 in both, it cancels from z0 = a0 b ^ c0 d,
# which is 0 whenever b = d = 0: a first-order leak of the value itself.
TWO_ANDS = """module and_xor(input clk, input a0, a1, b0, b1, c0, c1, d0, d1, r1, r2,
               output reg z0, z1);
  wire x0, x1, y0, y1;
  dom_and mul_ab(.clk(clk), .a0(a0), .a1(a1), .b0(b0), .b1(b1), .r(r1), .q0(x0), .q1(x1));
  dom_and mul_cd(.clk(clk), .a0(c0), .a1(c1), .b0(d0), .b1(d1), .r(RANDOM_CD), .q0(y0), .q1(y1));
  always @(posedge clk) begin
    z0 <= x0 ^ y0;
    z1 <= x1 ^ y1;
  end
endmodule
"""
TWO_ANDS_FRESH = DOM_AND + TWO_ANDS.replace("RANDOM_CD", "r2")
TWO_ANDS_REUSED = DOM_AND + TWO_ANDS.replace("RANDOM_CD", "r1")

# One register given share 0 of a secret, then share 1 (the driver's schedule does it): each
# value is one share, but its transition is their XOR, the secret.
SHARE_REGISTER = """module share_reg(input clk, input s, output reg q);
  always @(posedge clk) q <= s;
endmodule
"""

# A 32-bit SPN round: state ^ key (72-bit key port: two halves folded), 8 PRESENT S-boxes, a
# rotation mix; synchronous reset, load and enable.
SPN = f"""module sbox4(input [3:0] x, output reg [3:0] y);
  always @* begin
{_sbox_case("x", "y")}  end
endmodule
module spn(input clk, input rst, input load, input en, input [31:0] din, input [71:0] key,
           output [31:0] dout);
  reg [31:0] state;
  wire [31:0] mixed = state ^ key[31:0] ^ key[71:40];
  wire [31:0] subst;
  genvar i;
  generate for (i = 0; i < 8; i = i + 1) begin : sb
    sbox4 box(.x(mixed[4 * i + 3:4 * i]), .y(subst[4 * i + 3:4 * i]));
  end endgenerate
  wire [31:0] permuted = {{subst[0], subst[31:1]}} ^ {{subst[7:0], subst[31:8]}};
  always @(posedge clk)
    if (rst) state <= 32'd0;
    else if (load) state <= din;
    else if (en) state <= permuted;
  assign dout = state;
endmodule
"""


def spn_model(state: int, key: int) -> int:
    """The SPN round's next state (reference for the gate-level simulation)."""
    mixed = state ^ (key & 0xFFFF_FFFF) ^ (key >> 40)
    subst = 0
    for i in range(8):
        subst |= PRESENT_SBOX[mixed >> (4 * i) & 0xF] << (4 * i)
    rot1 = (subst >> 1) | ((subst & 1) << 31)
    rot8 = (subst >> 8) | ((subst & 0xFF) << 24)
    return rot1 ^ rot8


def write_design(folder: Path, top: str, verilog: str) -> Path:
    """A design folder as the flows read it: the Verilog and a manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "core.v").write_text(verilog)
    (folder / "manifest.json").write_text(json.dumps({"top": top, "clock": "clk",
                                                      "verilog": ["core.v"]}))
    return folder


def gate_netlist(folder: Path, top: str, verilog: str, structure: str = "keep") -> Netlist:
    """The design synthesized to gates (leakage/synthesis.py) and read."""
    design = write_design(folder, top, verilog)
    return read_netlist(synthesize_netlist(design, structure, output=folder / f"{structure}.json"))
