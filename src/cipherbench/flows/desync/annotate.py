"""Cell delays written into the netlist for timed simulation, in place of ``$sdf_annotate``.

OpenSTA's SDF gives every cell instance the rise and fall delay of each of its timing arcs
(IOPATH). Icarus's ``$sdf_annotate`` finds each SDF instance by a linear search of its scope, so
a flat netlist of n cells costs n^2/2 name comparisons: minutes for a DES pipeline, more than an
hour for an AES one. Here the SDF is read once, and each instance's delays are written into the
netlist as parameters of its cell model (``models.py`` gives every arc a rise and a fall
parameter, which its specify path reads), so Icarus elaborates them with the netlist.

What is written is what the SDF says, read as OpenSTA times a path:

- the slowest value of each (min:typ:max) triple (OpenSTA writes min::max; the max is the value
  its setup checks use, and the one the matched delays were sized against);
- an arc OpenSTA cut to break a combinational loop (a C-element is one), which it writes as 0 ns
  and which would make the feedback faster than any gate: the slowest rise and fall of the
  instance's other arcs (the same gate driving the same load, off by only the difference
  between its input pins);
- an arc that OpenSTA wrote once per input condition (COND, NanGate45's AOI and OAI cells): the
  slowest condition's rise and fall (Icarus's own annotation skips COND arcs, leaving them at 0);
- wires (INTERCONNECT) are not written: the cells' IOPATH delays hold the wires' load, and after
  layout OpenSTA computes them from the routed parasitics.

A netlist instance the SDF does not time, an SDF instance or arc the netlist or the cell models
do not have: each is an error, since a run on the models' zero delays proves nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from ...errors import CipherbenchError

# Instance delays: (from pin, to pin) -> (rise, fall) in ns.
Arcs = dict[tuple[str, str], tuple[float, float]]

_RE_TIMESCALE = re.compile(r"\(TIMESCALE\s+([0-9.]+)\s*(\w+)\s*\)")
_RE_INSTANCE = re.compile(r"\(INSTANCE\s*([^()]*?)\s*\)")
_RE_IOPATH = re.compile(r"\(IOPATH\s+(\((?:pos|neg)edge\s+(\S+?)\)|\S+)\s+(\S+)\s+(\([^()]*\))"
                        r"(?:\s+(\([^()]*\)))?")
_UNITS_NS = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0, "ps": 1e-3, "fs": 1e-6}


def read_sdf_delays(text: str) -> dict[str, Arcs]:
    """Every cell instance's arcs from an SDF, in ns, keyed by its unescaped instance name."""
    scale = _timescale_ns(text)
    delays: dict[str, Arcs] = {}
    arcs: Arcs | None = None
    for line in text.splitlines():
        if "(INSTANCE" in line:
            found = _RE_INSTANCE.search(line)
            name = _unescape(found.group(1)) if found else ""
            arcs = delays.setdefault(name, {}) if name else None
            continue
        if "(IOPATH" not in line:
            continue
        path = _RE_IOPATH.search(line)
        if path is None or arcs is None:
            raise CipherbenchError(f"SDF line not understood: {line.strip()}")
        source = path.group(2) or path.group(1)
        rise = _slowest(path.group(4)) * scale
        fall = _slowest(path.group(5) or path.group(4)) * scale
        key = (source, path.group(3))
        old = arcs.get(key)
        arcs[key] = (rise, fall) if old is None else (max(old[0], rise), max(old[1], fall))
    for arcs in delays.values():
        _fill_loop_arcs(arcs)
    return delays


def _fill_loop_arcs(arcs: Arcs) -> None:
    timed = [delay for delay in arcs.values() if delay != (0.0, 0.0)]
    if not timed or len(timed) == len(arcs):
        return
    slowest = (max(rise for rise, _ in timed), max(fall for _, fall in timed))
    for key, delay in arcs.items():
        if delay == (0.0, 0.0):
            arcs[key] = slowest


def _timescale_ns(text: str) -> float:
    found = _RE_TIMESCALE.search(text[:4096])
    if found is None:
        return 1.0  # SDF's default unit
    unit = found.group(2).lower()
    if unit not in _UNITS_NS:
        raise CipherbenchError(f"SDF TIMESCALE unit {found.group(2)!r} not understood")
    return float(found.group(1)) * _UNITS_NS[unit]


def _slowest(triple: str) -> float:
    values = [float(v) for v in triple.strip("()").split(":") if v.strip()]
    return max(values) if values else 0.0


def _unescape(name: str) -> str:
    """An SDF name as the netlist's (``u\\[3\\]`` is the netlist's ``\\u[3] ``)."""
    return re.sub(r"\\(.)", r"\1", name.strip('"'))


def arc_parameters(source: str, sink: str) -> tuple[str, str]:
    """The names of one arc's rise and fall parameters in a cell model (models.py)."""
    return f"tpd_{source}_{sink}_r", f"tpd_{source}_{sink}_f"


_RE_MODEL = re.compile(r"^module (\w+) ", re.MULTILINE)
_RE_MODEL_PATH = re.compile(r"^\s*\((\w+) => (\w+)\) =", re.MULTILINE)


def model_arcs(models: Path) -> dict[str, set[tuple[str, str]]]:
    """Each cell model's arcs (its specify paths), read from the models file."""
    text = models.read_text()
    starts = list(_RE_MODEL.finditer(text))
    ends = [m.start() for m in starts[1:]] + [len(text)]
    return {m.group(1): set(_RE_MODEL_PATH.findall(text, m.end(), end))
            for m, end in zip(starts, ends)}


# A cell instance's head: "CELL NAME (" (a name plain or escaped, which ends at a space).
_RE_HEAD = re.compile(r"^([ \t]*)([A-Za-z_]\w*)([ \t]+)(\\\S+[ \t]|[A-Za-z_]\w*)(\s*\()",
                      re.MULTILINE)


def annotated_netlist(netlist: Path, sdf: Path, models: Path, out: Path) -> Path:
    """``netlist`` with every cell instance's SDF delays as parameters of its model, at ``out``."""
    delays = read_sdf_delays(sdf.read_text())
    arcs_of = model_arcs(models)
    seen: set[str] = set()

    def head(match: re.Match[str]) -> str:
        cell, raw = match.group(2), match.group(4)
        arcs = arcs_of.get(cell)
        if arcs is None:
            return match.group(0)  # "module x (", or a cell that elaboration will name
        name = raw.strip()[1:] if raw.startswith("\\") else raw
        seen.add(name)
        timed = delays.get(name)
        if timed is None:
            if not arcs:
                return match.group(0)  # a cell without arcs (a tie, a filler)
            raise CipherbenchError(f"the SDF {sdf} has no delays for instance {name} ({cell}) "
                                   f"of {netlist}: write it from this netlist")
        unknown = set(timed) - arcs
        if unknown:
            source, sink = sorted(unknown)[0]
            raise CipherbenchError(f"the SDF {sdf} times {name} ({cell}) from {source} to "
                                   f"{sink}, which its cell model has no path for")
        values = []
        for (source, sink), (rise, fall) in sorted(timed.items()):
            rise_name, fall_name = arc_parameters(source, sink)
            values += [f".{rise_name}({rise:.6g})", f".{fall_name}({fall:.6g})"]
        return (f"{match.group(1)}{cell} #({', '.join(values)}){match.group(3)}{raw}"
                f"{match.group(5)}")

    text = _RE_HEAD.sub(head, netlist.read_text())
    missing = sorted(set(delays) - seen)
    if missing:
        raise CipherbenchError(f"the SDF {sdf} times instance {missing[0]}, which {netlist} "
                               f"does not have ({len(missing)} such): write it from this netlist")
    tmp = out.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(out)
    return out
