"""De-synchronization (issue 30): the building blocks so far.

Generic asynchronous blocks mapped onto a Liberty library's own cells (a Muller C-element, a
four-phase latch controller, a matched delay line) and a timed gate-level simulation (OpenSTA's
SDF into Icarus Verilog) that can show a race. The flow that de-synchronizes a design's netlist
is not built yet (docs/flows.md, "De-synchronization: building blocks").
"""
