"""De-synchronization (issue 30): the ``asic-desync`` target, a design's synchronous ASIC netlist
made asynchronous (every flip-flop a master and a slave latch or flip-flop, a handshake controller
per bank, a matched delay per request), optionally placed and routed, verified in timed
simulation through the common interface and measured from that simulation (docs/flows.md,
"desync: asynchronous cores by de-synchronization").

- flow.py: the target (settings, study keys, the steps in order);
- netlist.py, banks.py: the mapped netlist read, its registers grouped into banks, the handshake
  graph; timing.py: OpenSTA's delays that size the matched delays;
- cells.py, blocks.py, controllers.py, build.py: the library's cells found by function, the
  asynchronous blocks built from them, the controller network, the netlist assembled;
- timed_sim.py, models.py, annotate.py: OpenSTA's SDF and the cells' Verilog models for
  Icarus; replay.py (with tb/*.v): the environment testbench and the synchronous reference;
- workload.py, measure.py, power.py, energy.py: the operations, the figures, the power.
"""
