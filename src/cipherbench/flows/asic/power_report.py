"""OpenSTA's power report of a mapped netlist, vectorless and from annotated activity
(the orchestration, workloads and activity are in cipherbench/power.py and verify/activity.py)."""

from __future__ import annotations

import re
from pathlib import Path

from ...errors import ToolFailed
from ...tools import run_tool
from ..liberty import Liberty
from .sta import STA_OK, STA_TIMEOUT_S, check_sta_output

_RE_POWER_TOTAL = re.compile(r"^Total\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)", re.MULTILINE)
_POWER_MARK = "CIPHERBENCH_POWER"


def power_script(library: Liberty, netlist: Path, top: str, clock: str, periods_ns: list[float],
                 activity_tcl: Path | None, latch: bool = False) -> str:
    """OpenSTA: for each clock period, the power report with OpenSTA's default (vectorless)
    activity, then with the activity file's per-pin annotations (``set_power_activity``).

    ``latch``: OpenSTA's propagation of activity does not end on a latch design's loops (two
    minutes without an answer for a 3-kGE DES core), so every net first gets the default input
    activity itself (``-global``, 0.1 per clock at duty 0.5): the vectorless figure, and the
    default for any net the activity file leaves out."""
    def reports(kind: str) -> list[str]:
        return [f"""  create_clock -name {{{clock}}} -period {period} [get_ports {{{clock}}}]
  puts "{_POWER_MARK} {kind} {period}"
  report_power -digits 6""" for period in periods_ns]

    # Annotations stay once sourced: every vectorless report comes first.
    parts = (["  set_power_activity -global -activity 0.1 -duty 0.5"] if latch else [])
    parts += reports("vectorless")
    if activity_tcl is not None:
        parts += [f"  source {{{activity_tcl}}}", *reports("activity")]
    body = "\n".join(parts)
    return f"""set cb_ok 0
if {{[catch {{
  read_liberty {{{library.path}}}
  read_verilog {{{netlist}}}
  link_design {{{top}}}
{body}
  set cb_ok 1
}} msg]}} {{ puts "ERROR: $msg" }}
if {{$cb_ok}} {{ puts "{STA_OK}" }}
"""


def report_power(library: Liberty, netlist: Path, top: str, clock: str, periods_ns: list[float],
                 activity_tcl: Path | None, work: Path, sta: str,
                 latch: bool = False) -> dict[tuple[str, float], dict[str, float]]:
    """(kind, period) -> internal, switching, leakage and total power in mW; kind is
    "vectorless" (OpenSTA's default input activity, propagated) or "activity" (annotated)."""
    script, log = work / "asic_power.tcl", work / "asic_power.log"
    script.write_text(power_script(library, netlist, top, clock, periods_ns, activity_tcl,
                                   latch))
    output = run_tool([sta, "-no_init", "-no_splash", "-exit", str(script)], cwd=work,
                      log_path=log, timeout_s=STA_TIMEOUT_S)
    check_sta_output(output, log)
    found: dict[tuple[str, float], dict[str, float]] = {}
    for part in output.split(_POWER_MARK)[1:]:
        kind, period = part.split()[:2]
        total = _RE_POWER_TOTAL.search(part)
        if total is None:
            raise ToolFailed(f"OpenSTA printed no power total (log: {log})")
        watts = [float(v) for v in total.groups()]
        found[(kind, float(period))] = {
            name: round(w * 1000.0, 6)
            for name, w in zip(("internal", "switching", "leakage", "total"), watts)}
    return found
