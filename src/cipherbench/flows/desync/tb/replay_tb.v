// The environment of a de-synchronized core in timed simulation (flows/desync/replay.py), as a
// server (replay.py's TimedSession). Each command on the +ctl FIFO,
//   R stim out cycles idle_after idle_ps vcd_from vcd_to mode
// resets the core, reads its inputs per cycle from `stim` (one hex word a line, the ports in
// the order replay.py packs them, the first in the MSBs), writes each cycle's outputs and the
// time (ps) they were read to `out` ("O cycle ps bits"), and last "END t" or "HANG at cycle c";
// "Q" ends the simulation. `mode` 0 is the reactive environment, 1 the streaming one
// (replay.py: ENVIRONMENTS). It waits on the core throughout: nothing in it is clocked.
//
// Fitted to a core by replay.py (environment_options) on the iverilog command line:
//   `DESYNC_CORE   the core's module
//   `DESYNC_PORTS  its port connections: the handshake to arst, env_req, out_ack, env_ack and
//                  out_req below, each data input to a slice of in_vec, each output to one of
//                  out_vec
//   IN_WIDTH, OUT_WIDTH, RESET_NS, SETUP_NS, HANG_NS: parameters (-P), replay.py's values (the
//                  defaults here are the same, for a compile by hand)
`timescale 1ns/1ps
module tb_desync #(
  parameter IN_WIDTH = 1,
  parameter OUT_WIDTH = 1,
  parameter real RESET_NS = 20.0,  // the core is held in reset this long before each run
  parameter real SETUP_NS = 0.05,  // inputs settle this long before the request (bundling)
  parameter real HANG_NS = 2000.0  // no new cycle for this long: the core is stuck
);
  reg arst, env_req, out_ack;
  wire env_ack, out_req;
  reg [IN_WIDTH - 1:0] in_vec;
  wire [OUT_WIDTH - 1:0] out_vec;
  reg [8*512-1:0] ctl_file, vcd_file, cmd, stim_file, out_file;
  integer ctl, fd, sfd, got, cycles, c, k, vcd_from, vcd_to, idle_after, idle_ps, mode;
  integer running, hung, dumping;
  real last_progress;
  `DESYNC_CORE dut (`DESYNC_PORTS);
  initial begin
    arst = 1; env_req = 0; out_ack = 0; in_vec = 0; running = 0; dumping = 0;
    if (!$value$plusargs("ctl=%s", ctl_file)) $fatal(1, "no +ctl");
    if ($value$plusargs("vcd=%s", vcd_file)) begin
      $dumpfile(vcd_file); $dumpvars(0, dut); $dumpoff; dumping = 1;
    end
    ctl = $fopen(ctl_file, "r");
    forever begin
      // No trailing newline in the format: scanf's whitespace directive would wait for the
      // next command's first character before this one could run.
      got = $fscanf(ctl, "%s %s %s %d %d %d %d %d %d", cmd, stim_file, out_file, cycles,
                    idle_after, idle_ps, vcd_from, vcd_to, mode);
      if (got != 9 || cmd == "Q") $finish;
      hung = 0;
      sfd = $fopen(stim_file, "r");
      fd = $fopen(out_file, "w");
      got = $fscanf(sfd, "%h\n", in_vec);
      arst = 1; out_ack = 0; env_req = 1;
      #(RESET_NS);
      arst = 0; last_progress = $realtime; running = 1;
      begin : run_cycles
        if (mode == 0) begin
          // Reactive: the outputs of a cycle are read before the next inputs are offered, as
          // a synchronous testbench reads them before its next clock edge.
          for (c = 0; c < cycles; c = c + 1) begin
            if (c == vcd_from && dumping) $dumpon;
            wait (out_req === 1'b1);
            $fwrite(fd, "O %0d %0d %b\n", c, $rtoi($realtime * 1000), out_vec);
            last_progress = $realtime;
            out_ack = 1;
            wait (env_ack === 1'b1);
            env_req = 0;
            wait (out_req === 1'b0);
            out_ack = 0;
            wait (env_ack === 1'b0);
            if (c == vcd_to && dumping) $dumpoff;
            if (c == idle_after) begin
              last_progress = $realtime + idle_ps / 1000.0;  // idling is no hang
              #(idle_ps / 1000.0);
            end
            if (c + 1 < cycles) begin
              got = $fscanf(sfd, "%h\n", in_vec);
              #(SETUP_NS);
              env_req = 1;
            end
          end
        end else begin
          // Streaming: a source that has every input token ready and a sink that takes every
          // output at once, each at its own pace (the core's own rate).
          fork
            begin : source
              for (k = 0; k < cycles; k = k + 1) begin
                wait (env_ack === 1'b1);
                env_req = 0;
                wait (env_ack === 1'b0);
                if (k == idle_after) #(idle_ps / 1000.0);
                if (k + 1 < cycles) begin
                  got = $fscanf(sfd, "%h\n", in_vec);
                  #(SETUP_NS);
                  env_req = 1;
                end
              end
            end
            begin : sink
              for (c = 0; c < cycles; c = c + 1) begin
                if (c == vcd_from && dumping) $dumpon;
                wait (out_req === 1'b1);
                $fwrite(fd, "O %0d %0d %b\n", c, $rtoi($realtime * 1000), out_vec);
                last_progress = $realtime;
                if (c == idle_after) last_progress = $realtime + idle_ps / 1000.0;
                out_ack = 1;
                wait (out_req === 1'b0);
                out_ack = 0;
                if (c == vcd_to && dumping) $dumpoff;
              end
            end
          join
        end
      end
      running = 0;
      if (dumping) $dumpoff;
      if (hung) $fwrite(fd, "HANG at cycle %0d\n", c);
      else $fwrite(fd, "END %0d\n", $rtoi($realtime * 1000));
      $fclose(sfd);
      $fclose(fd);
    end
  end
  always #(HANG_NS / 4) if (running && $realtime - last_progress > HANG_NS) begin
    hung = 1;
    disable run_cycles;
  end
endmodule
