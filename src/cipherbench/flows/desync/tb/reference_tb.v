// The synchronous reference of a de-synchronized core (flows/desync/replay.py): the mapped
// netlist it was made from, clocked, reading the same per-cycle inputs as the environment
// testbench (replay_tb.v) and writing each cycle's outputs in its format ("O cycle 0 bits",
// then "END 0"), zero delay. The outputs are written before the clock edge, so a Mealy
// output's value of the cycle is what is read.
//
// Fitted to a core by replay.py (reference_options) on the iverilog command line:
//   `SYNC_CORE   the synchronous core's module
//   `SYNC_PORTS  its port connections: its clock to clk, each data input to a slice of in_vec,
//                each output to one of out_vec
//   IN_WIDTH, OUT_WIDTH: parameters (-P)
`timescale 1ns/1ps
module tb_sync #(
  parameter IN_WIDTH = 1,
  parameter OUT_WIDTH = 1
);
  reg clk;
  reg [IN_WIDTH - 1:0] in_vec;
  wire [OUT_WIDTH - 1:0] out_vec;
  reg [8*512-1:0] stim_file, out_file;
  integer cycles, c, fd, sfd, got;
  `SYNC_CORE dut (`SYNC_PORTS);
  initial begin
    if (!$value$plusargs("stim=%s", stim_file)) $fatal(1, "no +stim");
    if (!$value$plusargs("out=%s", out_file)) $fatal(1, "no +out");
    if (!$value$plusargs("cycles=%d", cycles)) $fatal(1, "no +cycles");
    sfd = $fopen(stim_file, "r");
    fd = $fopen(out_file, "w");
    clk = 0;
    for (c = 0; c < cycles; c = c + 1) begin
      got = $fscanf(sfd, "%h\n", in_vec);
      #1;
      $fwrite(fd, "O %0d 0 %b\n", c, out_vec);
      clk = 1; #1; clk = 0;
    end
    $fwrite(fd, "END 0\n");
    $fclose(fd);
    $finish;
  end
endmodule
