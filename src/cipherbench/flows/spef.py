"""Routed wires as SPEF: qrouter's RC trees turned into parasitics OpenSTA reads.

qrouter (`write_delays`) writes one line per routed net::

    NET 1 DRIVER_INST/PIN SINKS ( R C [SINK_INST/PIN] [, ( ... )] ... )

where each parenthesised node is one stretch of wire from the point its parent ended at, with
its total resistance R (ohm) and capacitance C (pF) from the routing layers' LEF values, ending at
a pin (``INST/PIN``, or ``PIN/PORT`` for a top-level port) or at a branch point; the nodes inside
it continue from its end. Debian's `rc2dly`, qflow's converter of this file to SDF, crashes on
nets of any size (glibc heap assertion), and SDF would fix the wire delays for one driver model
anyway: SPEF leaves OpenSTA to compute them from each driver's Liberty tables.

qrouter names nets as the BLIF did; qflow's Verilog writer renames them, so every net is matched
to the netlist through its driver pin, which both files share.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ToolFailed

# A resistor of 0 ohm (a via-less stretch of zero length) would merge two nodes; OpenSTA's
# reduction divides by it. A milliohm changes no delay that is printed.
MIN_RESISTANCE_OHM = 1e-3
_RE_INSTANCE = re.compile(r"^\s*(\S+)\s+(\S+)\s*\((.*?)\)\s*;", re.MULTILINE | re.DOTALL)
_RE_CONNECTION = re.compile(r"\.(\w+)\s*\(\s*([^()\s]*)\s*\)")
_RE_PORT = re.compile(r"^\s*(input|output)\s*(\[\s*(\d+)\s*:\s*(\d+)\s*\])?\s*([^;]+);", re.MULTILINE)


@dataclass
class RcNode:
    """One stretch of routed wire: its resistance and capacitance, the pin it ends at (if any)
    and the stretches that continue from its end."""

    res_ohm: float
    cap_pf: float
    pin: str | None = None
    children: list[RcNode] = field(default_factory=list)


@dataclass
class RcNet:
    name: str
    driver: str  # "INST/PIN" or "PIN/PORT"
    tree: list[RcNode]

    def total_cap_pf(self) -> float:
        stack, total = list(self.tree), 0.0
        while stack:
            node = stack.pop()
            total += node.cap_pf
            stack.extend(node.children)
        return total


@dataclass(frozen=True)
class Netlist:
    """What the SPEF needs from the Verilog netlist: each pin's net and each port's direction."""

    pin_net: dict[tuple[str, str], str]  # (instance, pin) -> net
    ports: dict[str, str]  # port bit ("key[3]", "clk") -> "I" | "O"
    cell_of: dict[str, str]  # instance -> cell name


def read_rc(path: Path) -> list[RcNet]:
    """Parse qrouter's delay file."""
    nets = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        tokens = line.replace("(", " ( ").replace(")", " ) ").replace(",", " , ").split()
        if len(tokens) < 4:
            raise ToolFailed(f"{path}:{number}: not a qrouter RC line")
        name, driver, rest = tokens[0], tokens[2], tokens[4:]
        try:
            tree, end = _nodes(rest, 0)
        except (IndexError, ValueError) as exc:
            raise ToolFailed(f"{path}:{number}: malformed RC tree of net {name}") from exc
        if end != len(rest):
            raise ToolFailed(f"{path}:{number}: trailing tokens after the RC tree of net {name}")
        nets.append(RcNet(name, driver, tree))
    return nets


def _nodes(tokens: list[str], at: int) -> tuple[list[RcNode], int]:
    """The sibling nodes starting at tokens[at], up to the closing parenthesis of their parent."""
    nodes = []
    while at < len(tokens) and tokens[at] != ")":
        if tokens[at] == ",":
            at += 1
            continue
        if tokens[at] != "(":
            raise ValueError(f"expected '(' at token {at}")
        node = RcNode(float(tokens[at + 1]), float(tokens[at + 2]))
        at += 3
        if at < len(tokens) and tokens[at] not in ("(", ")", ","):
            node.pin = tokens[at]
            at += 1
        node.children, at = _nodes(tokens, at)
        if tokens[at] != ")":
            raise ValueError(f"expected ')' at token {at}")
        at += 1
        nodes.append(node)
    return nodes, at


def read_netlist(path: Path) -> Netlist:
    """Pins and ports of a flat gate-level Verilog netlist as qflow writes it (one instance per
    statement, named connections, scalar nets or bits of vector ports)."""
    text = re.sub(r"//[^\n]*", "", path.read_text())
    ports: dict[str, str] = {}
    for direction, _, msb, lsb, names in _RE_PORT.findall(text):
        for port in (n.strip() for n in names.split(",")):
            code = "I" if direction == "input" else "O"
            if msb:
                low, high = sorted((int(msb), int(lsb)))
                ports.update({f"{port}[{bit}]": code for bit in range(low, high + 1)})
            else:
                ports[port] = code
    pin_net: dict[tuple[str, str], str] = {}
    cell_of: dict[str, str] = {}
    for cell, instance, body in _RE_INSTANCE.findall(text):
        if cell in ("module", "input", "output", "wire", "assign"):
            continue
        cell_of[instance] = cell
        for pin, net in _RE_CONNECTION.findall(body):
            if net:
                pin_net[(instance, pin)] = net
    return Netlist(pin_net, ports, cell_of)


def write_spef(nets: list[RcNet], netlist: Netlist, outputs: dict[str, frozenset[str]],
               design: str, path: Path) -> dict[str, float]:
    """Write the routed nets as SPEF (one distributed RC tree per net: each stretch's
    capacitance split between its two ends, its resistance between them). ``outputs``: each
    cell's output pins, from the Liberty. Returns totals."""
    lines = [
        '*SPEF "IEEE 1481-1998"', f'*DESIGN "{design}"', '*DATE "-"', '*VENDOR "cipherbench"',
        '*PROGRAM "cipherbench qrouter RC to SPEF"', '*VERSION "1"', '*DESIGN_FLOW "ROUTED"',
        "*DIVIDER /", "*DELIMITER :", "*BUS_DELIMITER [ ]",
        "*T_UNIT 1 NS", "*C_UNIT 1 PF", "*R_UNIT 1 OHM", "*L_UNIT 1 HENRY", "",
    ]
    wire_cap = 0.0
    for net in nets:
        name = _net_of(net.driver, netlist)
        if name is None:
            raise ToolFailed(f"routed net {net.name}: its driver {net.driver} is not in the netlist")
        caps, resistors = _rc_elements(net)
        pins = {net.driver, *(n for n in caps if not n.startswith(_INTERNAL))}
        total = net.total_cap_pf()
        wire_cap += total
        conn = {pin: _spef_pin(pin, name, netlist, outputs) for pin in pins}
        # Every node has a capacitance entry; branch points become NET:k.
        node_names = {node: conn[node][0] if node in conn
                      else f"{_escape(name)}:{node[len(_INTERNAL):]}" for node in caps}
        lines += [f"*D_NET {_escape(name)} {total:.6g}", "*CONN"]
        lines += [conn[pin][1] for pin in sorted(pins)]
        lines.append("*CAP")
        for index, (node, cap) in enumerate(sorted(caps.items()), 1):
            lines.append(f"{index} {node_names[node]} {cap:.6g}")
        lines.append("*RES")
        for index, (a, b, res) in enumerate(resistors, 1):
            lines.append(f"{index} {node_names[a]} {node_names[b]} {res:.6g}")
        lines += ["*END", ""]
    path.write_text("\n".join(lines))
    return {"nets": len(nets), "wire_cap_pf": wire_cap}


_INTERNAL = "internal:"  # prefix of a branch point's name until it gets its net's


def _rc_elements(net: RcNet) -> tuple[dict[str, float], list[tuple[str, str, float]]]:
    """A net's node capacitances and resistors: pins by their qrouter names, branch points
    numbered in the order they are met."""
    caps: dict[str, float] = {}
    resistors: list[tuple[str, str, float]] = []
    count = 0
    stack: list[tuple[str, RcNode]] = [(net.driver, node) for node in reversed(net.tree)]
    while stack:
        parent, node = stack.pop()
        if node.pin is None:
            count += 1
            end = f"{_INTERNAL}{count}"
        else:
            end = node.pin
        caps[parent] = caps.get(parent, 0.0) + node.cap_pf / 2
        caps[end] = caps.get(end, 0.0) + node.cap_pf / 2
        resistors.append((parent, end, max(node.res_ohm, MIN_RESISTANCE_OHM)))
        stack.extend((end, child) for child in reversed(node.children))
    return caps, resistors


def _net_of(pin: str, netlist: Netlist) -> str | None:
    instance, _, name = pin.partition("/")
    if instance == "PIN":
        return name if name in netlist.ports else None
    return netlist.pin_net.get((instance, name))


def _spef_pin(pin: str, net: str, netlist: Netlist,
              outputs: dict[str, frozenset[str]]) -> tuple[str, str]:
    """A pin's SPEF node name and its *CONN line (direction from the pin's side: a cell's
    output drives the net, a top-level input port drives it too)."""
    instance, _, name = pin.partition("/")
    if instance == "PIN":
        return _escape(name), f"*P {_escape(name)} {netlist.ports[name]}"
    if netlist.pin_net.get((instance, name)) != net:
        raise ToolFailed(f"routed pin {pin} is not on net {net} in the netlist")
    node = f"{_escape(instance)}:{name}"
    cell = netlist.cell_of.get(instance, "")
    return node, f"*I {node} {'O' if name in outputs.get(cell, frozenset()) else 'I'}"


def _escape(name: str) -> str:
    """SPEF escapes every character other than letters, digits, '_' and the bus brackets of a
    port bit."""
    bit = re.fullmatch(r"(.*)\[(\d+)\]", name)
    if bit:
        return _escape(bit.group(1)) + f"[{bit.group(2)}]"
    return re.sub(r"([^A-Za-z0-9_])", r"\\\1", name)
