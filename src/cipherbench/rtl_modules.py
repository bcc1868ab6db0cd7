r"""One RTLIL module per distinct component: identical Amaranth submodules shared, as a designer
writes them.

Amaranth emits a module for every instance (``top.datapath.round3.sbox7``), so an AES-128
pipeline arrives as 229 modules of which 19 differ: 160 S-boxes, 8 identical middle rounds, 44
key-schedule S-boxes. Written that way, a synthesis "from the bottom of the design up through
the hierarchy" (the NSA study's method, seed 000 section 3.1) would map every copy again. Here
every module whose text is identical to an earlier one's, once source locations and port
positions are set aside and its own submodules are replaced by their shared ones, is dropped,
and its instances use the first module of its kind. Instance names are kept, so a flattened
netlist has the same hierarchical names as before.

The comparison is textual and exact (no graph matching): two modules are shared only if Amaranth
wrote the same cells, processes and wires with the same names in the same order, which is what
happens when the same code elaborates the same parameters. Anything else, a round constant or a
port's width, keeps them apart. One renaming comes first: Amaranth names some ports after their
net's number in the whole design (`\port$315437$24`, `\rk$15`), so two identical rounds would
differ in their port names; such ports are renamed in the order the module declares them
(`\port$p0`), and the parent's connections to them with them. That is what lets Serpent's 32
rounds become 3 modules (the first, the 30 in the middle, the last: each round's S-box index is
an input).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

# `wire width 8 input 2 \i` -> `wire width 8 input \i`: a port's position only matters for
# positional connections, and Amaranth connects submodules by port name.
_RE_PORT_POSITION = re.compile(r"^(\s*wire\b.*?\b(?:input|output|inout)) \d+ ")


@dataclass(frozen=True)
class SharedModules:
    rtlil: str  # the design with one module per kind
    kinds: dict[str, str]  # every original module name -> the module that now stands for it

    @property
    def modules(self) -> int:
        return len(self.kinds)

    @property
    def distinct(self) -> int:
        return len(set(self.kinds.values()))


def _split(rtlil: str) -> tuple[dict[str, list[str]], list[str]]:
    """Each module's lines, keyed by name in file order: the attribute lines before its
    `module` line, that line, its body and its `end`; and any lines after the last module."""
    modules: dict[str, list[str]] = {}
    pending: list[str] = []  # lines since the last `end`: the next module's attributes
    current: list[str] | None = None
    for line in rtlil.splitlines(keepends=True):
        if current is None and line.startswith("module "):
            name = line.split()[1]
            if name in modules:
                raise ValueError(f"RTLIL defines module {name} twice")
            current = modules[name] = [*pending, line]
            pending = []
        elif current is not None:
            current.append(line)
            if line.rstrip("\r\n") == "end":
                current = None
        else:
            pending.append(line)
    if current is not None:
        raise ValueError("RTLIL ends inside a module")
    return modules, pending


# A port Amaranth named after a net's global number (`\port$315437$24`) or numbered to keep a
# name unique in the design (`\rk$15`): the same port of two identical rounds gets two names.
_RE_NUMBERED = re.compile(r"^(\\[^$\s]*)\$\d+(?:\$\d+)?$")
_RE_PORT = re.compile(r"^\s*wire\b.*\b(?:input|output|inout) \d+\s+(\S+)$")


def _port_names(lines: list[str]) -> dict[str, str]:
    r"""New names for a module's numbered ports, in the order they are declared:
    `\port$315437$24` -> `\port$p0`. Ports named by the designer keep their names."""
    renamed: dict[str, str] = {}
    for line in lines:
        port = _RE_PORT.match(line.rstrip("\r\n"))
        if port is None:
            continue
        numbered = _RE_NUMBERED.match(port.group(1))
        if numbered is not None:
            renamed[port.group(1)] = f"{numbered.group(1)}$p{len(renamed)}"
    return renamed


def _rename(line: str, names: dict[str, str]) -> str:
    """``line`` with every token that is a key of ``names`` replaced (RTLIL separates tokens by
    single spaces, so splitting and joining at spaces gives the line back otherwise unchanged)."""
    body = line.rstrip("\r\n")
    tokens = body.split(" ")
    if not any(token in names for token in tokens):
        return line
    return " ".join(names.get(token, token) for token in tokens) + line[len(body):]


def _rewrite(lines: list[str], kinds: dict[str, str], ports: dict[str, dict[str, str]],
             own: dict[str, str]) -> list[str]:
    """A module's lines with its own numbered ports renamed (``own``), each submodule cell's type
    replaced by its shared module and its connections to renamed ports renamed with it."""
    out = []
    child: dict[str, str] = {}  # the port names of the submodule whose cell we are in
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith("cell "):
            parts = stripped.split()
            child = ports.get(parts[1], {})
            shared = kinds.get(parts[1])
            if shared is not None:
                indent = line[: len(line) - len(stripped)]
                line = f"{indent}cell {shared} {' '.join(parts[2:])}\n"
        elif stripped.startswith("connect ") and child:
            # `connect \<port> <signal>` inside the cell: the port is the child's name.
            head, _, rest = stripped.partition(" ")
            port, _, signal = rest.partition(" ")
            if port in child:
                indent = line[: len(line) - len(stripped)]
                line = f"{indent}{head} {child[port]} {signal}"
        elif stripped.rstrip() == "end":
            child = {}
        out.append(_rename(line, own) if own else line)
    return out


def _canonical(lines: list[str]) -> str:
    """A module as compared: no name, no source locations, no port positions."""
    return "".join(_RE_PORT_POSITION.sub(r"\1 ", line) for line in lines
                   if not line.lstrip().startswith(("attribute \\src ", "module ")))


def share_identical_modules(rtlil: str) -> SharedModules:
    """The design with identical modules shared (see the module docstring)."""
    modules, tail = _split(rtlil)
    kinds: dict[str, str] = {}
    first_of: dict[str, str] = {}  # digest of a canonical body -> the first module with it
    bodies: dict[str, list[str]] = {}
    ports: dict[str, dict[str, str]] = {}  # module -> its numbered ports' new names

    def visit(name: str, path: tuple[str, ...]) -> str:
        if name in kinds:
            return kinds[name]
        if name in path:
            raise ValueError(f"RTLIL module {name} instantiates itself")
        for line in modules[name]:
            stripped = line.lstrip()
            if stripped.startswith("cell ") and stripped.split()[1] in modules:
                visit(stripped.split()[1], (*path, name))
        top = any(line.startswith("attribute \\top ") for line in modules[name])
        ports[name] = {} if top else _port_names(modules[name])
        body = _rewrite(modules[name], kinds, ports, ports[name])
        digest = hashlib.sha256(_canonical(body).encode()).hexdigest()
        shared = first_of.setdefault(digest, name)
        kinds[name] = shared
        if shared == name:
            bodies[name] = body
        return shared

    for name in modules:
        visit(name, ())
    out = [line for name in modules if name in bodies for line in bodies[name]] + tail
    return SharedModules("".join(out), kinds)
