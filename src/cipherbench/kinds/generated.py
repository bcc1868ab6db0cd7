"""The generated kind: a cipher's hardware (ciphers/<cipher>/) built by an architecture generator
(arch/) into Amaranth, written as Verilog with a manifest.

Its folder depends on the generator's common code, its architecture module and its cipher's folder
with whatever they import (digest.py); nothing of another cipher or of a designer's core.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from amaranth.hdl import Elaboratable

from .. import __version__
from ..arch.base import CoreOptions
from ..arch.registry import ARCHITECTURES
from ..ciphers.registry import ciphers
from ..digest import PACKAGE, design_sources, hash_files, import_closure, module_files
from ..errors import CipherbenchError
from ..families.block import BLOCK
from ..interface import CoreShape
from ..rtl import to_verilog
from ..spec import arch_of_name

if TYPE_CHECKING:
    from ..families import InterfaceFamily
    from ..spec import DesignSpec
    from . import Progress

# The top-level sub-blocks every architecture instantiates (NSA Figure 3's breakdown).
BLOCKS = ("datapath", "key_schedule", "controller")


def build_core(spec: DesignSpec) -> tuple[Elaboratable, CoreShape, dict[str, Any]]:
    """Instantiate the Amaranth core of a design."""
    cipher = ciphers()[spec.cipher]
    params = spec.param_dict
    options = CoreOptions(
        key_sizes=spec.key_sizes,
        directions=params["ops"],
        extra={k: v for k, v in params.items() if k in cipher.params},
    )
    # The cipher's description for this architecture (e.g. one with narrow datapaths).
    make_hardware = cipher.hardware_for(spec.arch)
    assert make_hardware is not None
    hw = make_hardware(options)
    arch = ARCHITECTURES[spec.arch]
    core = arch.build(hw, {k: v for k, v in params.items() if k in arch.params})
    shape = CoreShape(hw.block_bits, tuple(sorted(spec.key_sizes)))
    return core, shape, hw.describe()


def top_name(spec: DesignSpec) -> str:
    return f"cb_{spec.slug}"


class GeneratedKind:
    name = "generated"
    reference = True
    verified_before_run = False

    def names(self, design: str) -> bool:
        # A generated design's name is a spec whose architecture a generator builds.
        return arch_of_name(design) in ARCHITECTURES

    def takes(self, text: str) -> bool:
        # The last kind the registry asks: a design argument no other kind takes is a design
        # spec, and parse() says what is wrong with it.
        return True

    def spec(self, text: str) -> DesignSpec:
        from ..spec import parse

        return parse(text)

    def common_sources(self) -> list[Path]:
        """What every generated design depends on: the code that writes one (this module) and
        the code that generates and measures its cycles (generate.py), with what they import."""
        return import_closure(module_files(__name__, f"{PACKAGE}.generate"))

    def family(self, spec: DesignSpec) -> InterfaceFamily:
        return BLOCK  # every cipher core is a block design

    def model(self, spec: DesignSpec) -> Any:
        from ..ciphers.registry import ciphers

        return ciphers()[spec.cipher].model()

    def verify(self, spec: DesignSpec, design_dir: Path, *, netlist: bool = False,
               trace: bool = False) -> Any:
        from ..verify.record import verify_block_design

        return verify_block_design(spec, design_dir, netlist=netlist, trace=trace)

    def sources(self, spec: DesignSpec) -> tuple[Path, ...]:
        return design_sources(tuple(self.common_sources()), spec.cipher, spec.arch)

    def digest(self, spec: DesignSpec) -> str:
        return hash_files(list(self.sources(spec)))

    def buildable(self, spec: DesignSpec, where: str) -> DesignSpec:
        # A width or a combination the cipher's hardware does not offer is refused when a study
        # is read, not hours into the run as a failed row.
        try:
            build_core(spec)
        except CipherbenchError as exc:
            raise CipherbenchError(f"{where}: design {str(spec)!r} cannot be built: {exc}; "
                                   "remove it or change its parameters") from exc
        return spec

    def write(self, spec: DesignSpec, out_dir: Path, digest: str) -> dict[str, Any]:
        core, shape, described = build_core(spec)
        name = top_name(spec)
        io = core.io  # type: ignore[attr-defined]
        verilog = to_verilog(core, io.port_list(), name, out_dir)
        ports = io.ports()
        manifest: dict[str, Any] = {
            "design": str(spec),
            "canonical": spec.canonical(),
            "cipher": spec.cipher,
            "architecture": spec.arch,
            "top": name,
            "clock": "clk",
            "reset": "rst",
            "verilog": [verilog.name],
            "ports": ports,
            "io_count": sum(int(p["width"]) for p in ports),
            "block_bits": shape.block_bits,
            "key_sizes": list(shape.key_sizes),
            "parameters": {**spec.param_dict, **described},
            "blocks": list(BLOCKS),
            "generator": {"version": __version__, "digest": digest},
        }
        harness = getattr(core, "simulation_harness", lambda _name: None)(name)
        if harness is not None:
            # A core without the common interface (keys=loaded) is simulated inside a wrapper
            # that has it; the flows measure the core alone (manifest "top"/"verilog").
            wrapper = to_verilog(harness, harness.io.port_list(), f"{name}_harness", out_dir,
                                 instantiated=[verilog])
            manifest["simulation"] = {"top": f"{name}_harness",
                                      "verilog": [verilog.name, wrapper.name],
                                      "ports": shape.ports()}
        (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
        return manifest

    def check_written(self, spec: DesignSpec, folder: Path, progress: Progress) -> None:
        """Nothing: a generated design is verified by the job that measures it (jobs/), so a
        design is generated once however many of its jobs run."""

    def provenance(self, manifest: dict[str, Any]) -> dict[str, Any]:
        return {}  # the canonical design name says it all

    def from_provenance(self, provenance: dict[str, Any]) -> DesignSpec:
        return self.spec(provenance["design"])


GENERATED = GeneratedKind()
