"""A designer's own core, described in TOML (docs/your-core.md): its HDL files and top module,
the cipher and key sizes it implements, and its interface by port names and behaviour.

Reading a description checks everything that can be checked without the HDL (known keys, the
cipher and its key sizes, the roles each protocol needs, the options' values); the ports
themselves are checked against the top module's (external/ports.py) when the design is written.
Every problem is one line naming the key to fix.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CipherbenchError
from ..tomlfile import read_toml

PROTOCOLS = ("streams", "command", "fixed-latency")
ORDERS = ("standard", "bytes-reversed", "bits-reversed")
OPS = ("encrypt", "decrypt", "both")
STYLES = ("pulse", "level")
ALIGNMENTS = ("msb", "lsb")

# The roles of each protocol's ports: those every core of the protocol has, and those it may have.
REQUIRED_ROLES: dict[str, tuple[str, ...]] = {
    "streams": ("key", "key_valid", "key_ready", "block_in", "in_valid", "in_ready", "block_out",
                "out_valid", "out_ready"),
    "command": ("key", "block_in", "block_out", "start", "done"),
    "fixed-latency": ("key", "block_in", "block_out"),
}
OPTIONAL_ROLES: dict[str, tuple[str, ...]] = {
    "streams": ("decrypt", "encrypt"),
    "command": ("decrypt", "encrypt", "key_load", "key_ready", "key_busy", "busy"),
    "fixed-latency": ("decrypt", "encrypt", "in_valid", "out_valid"),
}
# Roles the core drives; every other role is an input of the core.
OUTPUT_ROLES = frozenset({"key_ready", "in_ready", "block_out", "out_valid", "done", "busy",
                          "key_busy"})

TOP_KEYS = ("name", "cipher", "key_sizes", "ops", "files", "top", "protocol", "clock", "reset",
            "reset_active", "reset_synchronous", "key_order", "block_order", "key_align",
            "tie", "ports", "key_length", "command", "fixed_latency")
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$")
_PORT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_$]*$")


@dataclass(frozen=True)
class CoreDescription:
    """A described core. ``ports`` maps each role to the core's port name."""

    path: Path
    name: str
    cipher: str
    key_sizes: tuple[int, ...]
    ops: str
    files: tuple[Path, ...]
    top: str
    protocol: str
    ports: tuple[tuple[str, str], ...]
    clock: str = "clk"
    reset: str | None = None
    reset_active_low: bool = False
    reset_synchronous: bool = True
    key_order: str = "standard"
    block_order: str = "standard"
    key_align: str = "msb"
    tie: tuple[tuple[str, int], ...] = ()
    # The key-length select: its port and the value for each key size in bits.
    key_length_port: str | None = None
    key_length_values: tuple[tuple[int, int], ...] = ()
    # command protocol
    key_load_style: str = "pulse"
    start_style: str = "pulse"
    # fixed-latency protocol
    latency: int = 0
    key_agile: bool = True
    key_setup: int = 0
    digest: str = field(default="", compare=False)

    @property
    def port_of(self) -> dict[str, str]:
        return dict(self.ports)

    def named_ports(self) -> list[tuple[str, str]]:
        """(port, what it is for) of every port the description names: its roles, the clock,
        the reset, the key-length select and the ties."""
        named = [(port, role) for role, port in self.ports] + [(self.clock, "clock")]
        if self.reset:
            named.append((self.reset, "reset"))
        if self.key_length_port:
            named.append((self.key_length_port, "key_length"))
        return named + [(port, "tie") for port, _ in self.tie]

    def described_ports(self) -> dict[str, str]:
        """Every port the description names, with what it is for."""
        return dict(self.named_ports())


def load_description(path: str | Path) -> CoreDescription:
    """The description in ``path``, checked (see the module docstring)."""
    path = Path(path)
    data = read_toml(path, "core description")
    where = str(path)
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise CipherbenchError(f"{where}: unknown key(s) {', '.join(unknown)}; valid: "
                               f"{', '.join(TOP_KEYS)} (docs/your-core.md)")
    name = _string(data, "name", where)
    if not _NAME_RE.match(name):
        raise CipherbenchError(f"{where}: 'name' {name!r} must be letters, digits, '-' or '_' "
                               f"(at most 63)")
    cipher, key_sizes = _cipher(data, where)
    ops = _choice(data, "ops", OPS, where, "both")
    files = _files(data, path, where)
    top = _port_name(_string(data, "top", where), "top", where)
    protocol = _choice(data, "protocol", PROTOCOLS, where)
    ports = _ports(data, protocol, where)
    description = CoreDescription(
        path=path.resolve(), name=name, cipher=cipher, key_sizes=key_sizes, ops=ops, files=files,
        top=top, protocol=protocol, ports=ports,
        clock=_port_name(data.get("clock", "clk"), "clock", where),
        reset=_port_name(data["reset"], "reset", where) if "reset" in data else None,
        reset_active_low=_choice(data, "reset_active", ("high", "low"), where, "high") == "low",
        reset_synchronous=_bool(data, "reset_synchronous", where, True),
        key_order=_choice(data, "key_order", ORDERS, where, "standard"),
        block_order=_choice(data, "block_order", ORDERS, where, "standard"),
        key_align=_choice(data, "key_align", ALIGNMENTS, where, "msb"),
        tie=_tie(data, where),
        **_key_length(data, key_sizes, where),
        **_protocol_options(data, protocol, where),
    )
    _check_roles_fit_ops(description, where)
    _check_no_port_twice(description, where)
    return _with_digest(description)


def _string(data: dict[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise CipherbenchError(f"{where}: '{key}' must be a non-empty string (docs/your-core.md)")
    return value


def _bool(data: dict[str, Any], key: str, where: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise CipherbenchError(f"{where}: '{key}' must be true or false")
    return value


def _choice(data: dict[str, Any], key: str, choices: tuple[str, ...], where: str,
            default: str | None = None) -> str:
    value = data.get(key, default)
    if value not in choices:
        shown = "missing" if value is None else repr(value)
        raise CipherbenchError(f"{where}: '{key}' is {shown}; valid: {', '.join(choices)}")
    return str(value)


def _port_name(value: Any, key: str, where: str) -> str:
    if not isinstance(value, str) or not _PORT_RE.match(value):
        raise CipherbenchError(f"{where}: '{key}' must be a Verilog identifier, not {value!r}")
    return value


def _cipher(data: dict[str, Any], where: str) -> tuple[str, tuple[int, ...]]:
    from ..ciphers.registry import ciphers

    name = _string(data, "cipher", where).lower()
    known = ciphers()
    if name not in known:
        raise CipherbenchError(f"{where}: unknown cipher {name!r}; valid: {', '.join(known)}")
    info = known[name]
    sizes = data.get("key_sizes", list(info.key_sizes))
    if (not isinstance(sizes, list) or not sizes
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in sizes)):
        raise CipherbenchError(f"{where}: 'key_sizes' must be a list of key lengths in bits, "
                               f"e.g. [128]")
    wrong = [s for s in sizes if s not in info.key_sizes]
    if wrong:
        raise CipherbenchError(f"{where}: {name} has no {wrong[0]}-bit key; valid: "
                               f"{', '.join(map(str, info.key_sizes))}")
    return name, tuple(sorted(set(sizes)))


def _files(data: dict[str, Any], path: Path, where: str) -> tuple[Path, ...]:
    names = data.get("files")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise CipherbenchError(f"{where}: 'files' must be a non-empty list of Verilog or "
                               f"SystemVerilog files, relative to the description")
    files = []
    for name in names:
        file = (path.parent / name).resolve()
        if not file.is_file():
            raise CipherbenchError(f"{where}: HDL file {name!r} not found (looked for {file})")
        if file.suffix not in (".v", ".sv", ".vh", ".svh"):
            raise CipherbenchError(f"{where}: HDL file {name!r} must end in .v or .sv")
        files.append(file)
    return tuple(files)


def _ports(data: dict[str, Any], protocol: str, where: str) -> tuple[tuple[str, str], ...]:
    table = data.get("ports")
    if not isinstance(table, dict):
        raise CipherbenchError(f"{where}: a [ports] table must map the {protocol} protocol's "
                               f"roles to port names: {', '.join(REQUIRED_ROLES[protocol])}")
    allowed = REQUIRED_ROLES[protocol] + OPTIONAL_ROLES[protocol]
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise CipherbenchError(f"{where}: [ports] has {', '.join(unknown)}, not a role of the "
                               f"{protocol} protocol; valid: {', '.join(allowed)}")
    missing = [r for r in REQUIRED_ROLES[protocol] if r not in table]
    if missing:
        raise CipherbenchError(f"{where}: [ports] lacks {', '.join(missing)} (the {protocol} "
                               f"protocol needs them)")
    both = [pair for pair in (("decrypt", "encrypt"), ("key_ready", "key_busy"))
            if all(r in table for r in pair)]
    if both:
        raise CipherbenchError(f"{where}: [ports] names both {both[0][0]} and {both[0][1]}; "
                               f"keep one")
    if protocol == "command" and ("key_ready" in table or "key_busy" in table) \
            and "key_load" not in table:
        raise CipherbenchError(f"{where}: [ports] names a key-ready flag but no key_load "
                               f"command to start the key expansion")
    return tuple(sorted((role, _port_name(port, f"ports.{role}", where))
                        for role, port in table.items()))


def _tie(data: dict[str, Any], where: str) -> tuple[tuple[str, int], ...]:
    table = data.get("tie", {})
    if not isinstance(table, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in table.values()):
        raise CipherbenchError(f"{where}: 'tie' must map input ports to constants, e.g. "
                               f"tie = {{ test_mode = 0 }}")
    return tuple(sorted((_port_name(p, "tie", where), v) for p, v in table.items()))


def _key_length(data: dict[str, Any], key_sizes: tuple[int, ...],
                where: str) -> dict[str, Any]:
    table = data.get("key_length")
    if table is None:
        if len(key_sizes) > 1:
            raise CipherbenchError(f"{where}: a core of several key sizes needs a [key_length] "
                                   f"table: port = \"...\" and values = {{ 128 = 0, ... }}")
        return {}
    if not isinstance(table, dict) or set(table) - {"port", "values"} or "port" not in table:
        raise CipherbenchError(f"{where}: [key_length] takes port = \"...\" and values = "
                               f"{{ 128 = 0, ... }}")
    values = table.get("values")
    if values is None:  # the key length in bytes, as our own cores take it
        pairs = {bits: bits // 8 for bits in key_sizes}
    else:
        if not isinstance(values, dict):
            raise CipherbenchError(f"{where}: key_length.values must map key sizes to codes")
        try:
            pairs = {int(bits): int(code) for bits, code in values.items()}
        except (TypeError, ValueError) as exc:
            raise CipherbenchError(f"{where}: key_length.values must map key sizes in bits to "
                                   f"whole numbers, e.g. {{ 128 = 0, 256 = 2 }}") from exc
        missing = [b for b in key_sizes if b not in pairs]
        if missing:
            raise CipherbenchError(f"{where}: key_length.values has no code for {missing[0]}-bit "
                                   f"keys")
        if len({pairs[b] for b in key_sizes}) < len(key_sizes) or min(pairs.values()) < 0:
            raise CipherbenchError(f"{where}: key_length.values must give each key size its own "
                                   f"non-negative code")
    return {"key_length_port": _port_name(table["port"], "key_length.port", where),
            "key_length_values": tuple(sorted((b, pairs[b]) for b in key_sizes))}


def _protocol_options(data: dict[str, Any], protocol: str, where: str) -> dict[str, Any]:
    command, fixed = data.get("command"), data.get("fixed_latency")
    if command is not None and protocol != "command":
        raise CipherbenchError(f"{where}: a [command] table belongs to protocol = \"command\"")
    if fixed is not None and protocol != "fixed-latency":
        raise CipherbenchError(f"{where}: a [fixed_latency] table belongs to protocol = "
                               f"\"fixed-latency\"")
    if protocol == "command":
        table = command or {}
        _only(table, ("key_load", "start"), "command", where)
        return {"key_load_style": _choice(table, "key_load", STYLES, f"{where}: [command]",
                                          "pulse"),
                "start_style": _choice(table, "start", STYLES, f"{where}: [command]", "pulse")}
    if protocol == "fixed-latency":
        if not isinstance(fixed, dict) or "latency" not in fixed:
            raise CipherbenchError(f"{where}: protocol \"fixed-latency\" needs [fixed_latency] "
                                   f"latency = N (clocks from a block in to its result out)")
        _only(fixed, ("latency", "key_agile", "key_setup"), "fixed_latency", where)
        latency, setup = fixed["latency"], fixed.get("key_setup", 0)
        for key, value, low in (("latency", latency, 1), ("key_setup", setup, 0)):
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= 4096:
                raise CipherbenchError(f"{where}: fixed_latency.{key} must be a whole number of "
                                       f"clocks from {low} to 4096")
        return {"latency": latency, "key_setup": setup,
                "key_agile": _bool(fixed, "key_agile", f"{where}: fixed_latency", True)}
    return {}


def _only(table: Any, keys: tuple[str, ...], name: str, where: str) -> None:
    if not isinstance(table, dict) or set(table) - set(keys):
        raise CipherbenchError(f"{where}: [{name}] takes only {', '.join(keys)}")


def _check_roles_fit_ops(d: CoreDescription, where: str) -> None:
    select = "decrypt" in d.port_of or "encrypt" in d.port_of
    if d.ops == "both" and not select:
        raise CipherbenchError(f"{where}: ops = \"both\" needs a decrypt (or encrypt) select in "
                               f"[ports]; or say ops = \"encrypt\" or \"decrypt\"")


def _check_no_port_twice(d: CoreDescription, where: str) -> None:
    names = [port for port, _ in d.named_ports()]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise CipherbenchError(f"{where}: port {twice[0]!r} is named for two roles; each port "
                               f"has one")


def _with_digest(d: CoreDescription) -> CoreDescription:
    """The description with the hash of its own text and every HDL file: a changed file is a
    new design (new cache folder, new results)."""
    digest = hashlib.sha256()
    for file in (d.path, *d.files):
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return CoreDescription(**{**d.__dict__, "digest": digest.hexdigest()})


def file_hashes(d: CoreDescription) -> dict[str, str]:
    """sha256 of the description and of each HDL file, for provenance."""
    return {str(f): hashlib.sha256(f.read_bytes()).hexdigest() for f in (d.path, *d.files)}
