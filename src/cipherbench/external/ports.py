"""The top module's ports as Yosys reads the designer's HDL, checked against the description:
every described port exists with the direction and width its role needs, and every input of the
top is described (a role, the clock, the reset, the key-length select or a tie)."""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import CipherbenchError, ToolFailed
from .description import OUTPUT_ROLES, CoreDescription

_PORT_LINE = re.compile(r"^(input|output|inout)\s+\[(-?\d+):(-?\d+)\]\s+(\S+?),?$")


@dataclass(frozen=True)
class Port:
    name: str
    direction: str  # "input" | "output" | "inout"
    width: int


def read_ports(files: tuple[Path, ...], top: str) -> dict[str, Port]:
    """The ports of module ``top`` in ``files`` (Verilog, or SystemVerilog for .sv files)."""
    from ..rtl import run_yosys_script

    reads = [f"read_verilog {'-sv ' if f.suffix in ('.sv', '.svh') else ''}\"{f}\""
             for f in files]
    script = "\n".join([*reads, f"hierarchy -check -top \\{top}", f"portlist -m \\{top}"])
    with tempfile.TemporaryDirectory(prefix="cb-ports-") as tmp:
        log_path = Path(tmp) / "ports.log"
        try:
            log = run_yosys_script(script, log_path, timeout=300)
        except ToolFailed as exc:
            text = log_path.read_text() if log_path.exists() else ""
            raise CipherbenchError(_why_not_read(text, top, files, exc)) from exc
    return _parse_portlist(log, top)


def _why_not_read(log: str, top: str, files: tuple[Path, ...], exc: Exception) -> str:
    errors = [line.strip() for line in log.splitlines() if line.startswith("ERROR")]
    first = errors[0] if errors else str(exc)
    if "not found" in first.lower() and top in first or "does not exist" in first:
        return (f"top module {top!r} not found in {', '.join(f.name for f in files)}: "
                f"set 'top' to a module the files define ({first})")
    return f"the core's HDL does not parse: {first} (fix the file or 'files')"


def _parse_portlist(log: str, top: str) -> dict[str, Port]:
    ports: dict[str, Port] = {}
    lines = log.splitlines()
    try:
        start = max(i for i, line in enumerate(lines) if line.startswith(f"module {top} ("))
    except ValueError as exc:
        raise CipherbenchError(f"Yosys listed no ports of {top!r}") from exc
    for line in lines[start + 1:]:
        if line.startswith(")"):
            break
        match = _PORT_LINE.match(line.strip())
        if match:
            direction, msb, lsb, name = match.groups()
            ports[name.lstrip("\\")] = Port(name.lstrip("\\"), direction,
                                            abs(int(msb) - int(lsb)) + 1)
    return ports


def check_ports(description: CoreDescription, ports: dict[str, Port], block_bits: int,
                key_bits: int) -> None:
    """Every described port exists as its role needs it; every input is described."""
    where = str(description.path)
    described = description.described_ports()
    for name, role in described.items():
        port = ports.get(name)
        if port is None:
            raise CipherbenchError(f"{where}: {role} port {name!r} is not a port of "
                                   f"{description.top} (ports: {', '.join(ports)})")
        want = "output" if role in OUTPUT_ROLES else "input"
        if port.direction != want:
            raise CipherbenchError(f"{where}: {role} port {name!r} is an {port.direction} of "
                                   f"{description.top}; the role needs an {want}")
        _check_width(description, role, port, block_bits, key_bits, where)
    undescribed = [p.name for p in ports.values() if p.direction != "output"
                   and p.name not in described]
    if undescribed:
        raise CipherbenchError(f"{where}: input {undescribed[0]!r} of {description.top} is not "
                               f"described: give it a role in [ports] or tie it (tie = "
                               f"{{ {undescribed[0]} = 0 }})")


def _check_width(d: CoreDescription, role: str, port: Port, block_bits: int, key_bits: int,
                 where: str) -> None:
    if role in ("block_in", "block_out") and port.width != block_bits:
        raise CipherbenchError(f"{where}: {role} port {port.name!r} is {port.width} bits wide; "
                               f"{d.cipher} blocks are {block_bits} bits")
    if role == "key" and port.width < key_bits:
        raise CipherbenchError(f"{where}: key port {port.name!r} is {port.width} bits wide, "
                               f"narrower than the {key_bits}-bit key")
    if role == "key_length":
        need = max(code for _, code in d.key_length_values).bit_length()
        if port.width < max(1, need):
            raise CipherbenchError(f"{where}: key-length port {port.name!r} is {port.width} "
                                   f"bits wide; its codes need {need}")
    if role == "tie":
        value = dict(d.tie)[port.name]
        if value >= 1 << port.width:
            raise CipherbenchError(f"{where}: tie {port.name} = {value} does not fit its "
                                   f"{port.width} bits")
    single_bit = role in ("clock", "reset") or role not in (
        "block_in", "block_out", "key", "key_length", "tie")
    if single_bit and port.width != 1:
        raise CipherbenchError(f"{where}: {role} port {port.name!r} is {port.width} bits wide; "
                               f"it must be 1 bit")
