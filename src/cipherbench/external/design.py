"""A described core's design folder, as generate.py writes a generated one: the designer's HDL
(copied, so the folder stays what was measured), the harness around it, and a manifest whose
``top`` and ``verilog`` name the designer's module and files (what the flows measure) and whose
``simulation`` names the harness (what the testbench drives)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from .. import __version__
from ..ciphers.registry import ciphers
from ..errors import CipherbenchError
from ..interface import CoreShape
from .description import CoreDescription, file_hashes
from .harness import ExternalHarness
from .ports import Port, check_ports, read_ports
from .spec import ARCH, ExternalSpec

HEADERS = (".vh", ".svh")


def harness_name(d: CoreDescription) -> str:
    return f"cb_external_{d.name.replace('-', '_')}_harness"


def write_external_design(spec: ExternalSpec, out_dir: Path,
                          generator: str) -> dict[str, Any]:
    """Write the folder of ``spec`` into ``out_dir``; return its manifest (no cycle counts)."""
    from ..rtl import to_verilog

    d = spec.load()
    block_bits = ciphers()[d.cipher].block_bits
    shape = CoreShape(block_bits, d.key_sizes)
    _check_orders(d, block_bits)
    ports = read_ports(d.files, d.top)
    check_ports(d, ports, block_bits, max(d.key_sizes))
    _check_key_order_width(d, ports)
    out_dir.mkdir(parents=True, exist_ok=True)
    copied = _copy_sources(d, out_dir)
    sources = [name for name in copied if not name.endswith(HEADERS)]
    harness = ExternalHarness(d, ports, shape)
    name = harness_name(d)
    wrapper = to_verilog(harness, harness.io.port_list(), name, out_dir,
                         instantiated=[out_dir / s for s in sources])
    port_list = [{"name": p.name, "dir": "in" if p.direction == "input" else "out",
                  "width": p.width} for p in ports.values()]
    manifest: dict[str, Any] = {
        "design": str(spec),
        "canonical": spec.canonical(),
        "cipher": d.cipher,
        "architecture": ARCH,
        "top": d.top,
        "clock": d.clock,
        "reset": d.reset,
        "verilog": sources,
        "ports": port_list,
        "io_count": sum(p.width for p in ports.values()),
        "block_bits": block_bits,
        "key_sizes": list(d.key_sizes),
        "parameters": {"ops": d.ops, "protocol": d.protocol},
        # The designer's module has no blocks of ours to count apart.
        "blocks": [],
        "generator": {"version": __version__, "digest": generator},
        "external": {"name": d.name, "description": str(d.path), "protocol": d.protocol,
                     "sha256": file_hashes(d)},
        "simulation": {"top": name, "verilog": [*sources, wrapper.name],
                       "ports": shape.ports(), "flags": waited_flags(d)},
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def waited_flags(d: CoreDescription) -> dict[str, str]:
    """What each interface flag the testbench may wait for stands for in the core: a hang then
    names the core's own flag (verify/sim.py)."""
    ports = d.port_of
    if d.protocol == "streams":
        return {flag: f"the core's {flag} ({ports[flag]!r}) never rose"
                for flag in ("key_ready", "in_ready", "out_valid")}
    if d.protocol == "command":
        key = ("key_ready" in ports and f"the core's key_ready ({ports['key_ready']!r}) never "
               f"rose after key_load ({ports.get('key_load')!r})") or (
               "key_busy" in ports and f"the core's key_busy ({ports['key_busy']!r}) never fell "
               f"after key_load ({ports.get('key_load')!r})") or \
            "the core was still busy with the previous block"
        return {"key_ready": key,
                "in_ready": "the core did not finish its previous command",
                "out_valid": f"the core's done ({ports['done']!r}) never rose after start "
                             f"({ports['start']!r})"}
    return {"out_valid": "no result came out (the stated latency is more than the whole run)"}


def _check_orders(d: CoreDescription, block_bits: int) -> None:
    if d.block_order == "bytes-reversed" and block_bits % 8:
        raise CipherbenchError(f"{d.path}: block_order = \"bytes-reversed\" needs whole bytes")


def _check_key_order_width(d: CoreDescription, ports: dict[str, Port]) -> None:
    width = ports[d.port_of["key"]].width
    if d.key_order == "bytes-reversed" and width % 8:
        raise CipherbenchError(f"{d.path}: key_order = \"bytes-reversed\" needs a key port of "
                               f"whole bytes, not {width} bits")


def _copy_sources(d: CoreDescription, out_dir: Path) -> list[str]:
    """Copy the HDL files into the folder under their own names; two files of one name are an
    error, as the folder keeps one."""
    names: list[str] = []
    for file in d.files:
        if file.name in names:
            raise CipherbenchError(f"{d.path}: two HDL files are named {file.name}; rename one")
        shutil.copyfile(file, out_dir / file.name)
        names.append(file.name)
    return names
