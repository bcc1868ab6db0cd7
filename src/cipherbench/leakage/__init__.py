"""Leakage assessment of gate-level netlists in simulation (issue 31): docs/leakage.md.

- netlist.py: Yosys JSON of a flat gate-level design -> Netlist (read_netlist);
  synthesis.py: a design folder -> that JSON (synthesize_netlist)
- simulate.py: bit-parallel cycle-based simulation: power samples and recorded signals
  (TraceSimulator; native.py: the same in generated C); stimulus.py: its inputs, packed
- driver.py: fixed/random secrets, fresh shares and randomness for a masked design (MaskedDriver)
- tvla.py: fixed-versus-random Welch t-test; probing.py: glitch-extended probing G-test
- assess.py: one campaign feeding both (assess)
"""

from .assess import Assessment, assess
from .driver import Batch, MaskedDriver, Secret
from .netlist import Netlist, read_netlist
from .probing import ProbeSelection, ProbingResult, Probing
from .simulate import TraceSimulator, Traces
from .stimulus import Planes
from .synthesis import STRUCTURES, synthesize_netlist
from .tvla import Tvla, TvlaResult

__all__ = [
    "Assessment", "Batch", "MaskedDriver", "Netlist", "Planes", "ProbeSelection", "Probing",
    "ProbingResult", "STRUCTURES", "Secret", "TraceSimulator", "Traces", "Tvla", "TvlaResult",
    "assess", "read_netlist", "synthesize_netlist",
]
