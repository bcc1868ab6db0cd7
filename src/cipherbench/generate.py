"""Design spec -> Verilog + manifest.json, with cycle counts measured in simulation.

The output directory is written atomically: everything is produced in a sibling temporary folder
and renamed into place at the end, so an interrupted or failed run never leaves half a design.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from amaranth.hdl import Elaboratable

from . import __version__
from .arch.base import CoreOptions
from .arch.registry import ARCHITECTURES
from .ciphers.registry import ciphers
from .digest import design_digest, source_digest
from .interface import CoreShape
from .rtl import to_verilog
from .spec import DesignSpec

# The top-level sub-blocks every architecture instantiates (NSA Figure 3's breakdown).
BLOCKS = ("datapath", "key_schedule", "controller")


# The sources that decide a generated design and its measured cycle counts. A change to any of
# them invalidates cached designs and results; a change elsewhere (reports, CLI) does not.
GENERATOR_SOURCES = ("arch", "ciphers", "components", "interface.py", "rtl.py", "rtl_modules.py",
                     "yosys_runner.py",
                     "generate.py", "spec.py", "verify/sim.py", "verify/measure.py", "verify/tb")
# What decides a described core's folder besides its own files: the description's reader, the
# harness and the simulation that measures its cycles.
EXTERNAL_SOURCES = ("external", "interface.py", "rtl.py", "rtl_modules.py", "yosys_runner.py",
                    "generate.py", "verify/sim.py", "verify/measure.py", "verify/tb")
# The sources that turn a design into figures (flows, metrics): part of every result's key.
MEASUREMENT_SOURCES = ("flows", "metrics.py", "tools.py", "power.py", "verify/record.py",
                       "verify/netlist.py", "verify/netlist_proof.py", "verify/activity.py", "verify/tb")


@lru_cache(maxsize=None)
def generator_digest(spec: DesignSpec | None = None) -> str:
    """Hash of the sources that decide ``spec``'s design (its cipher, architecture and what they
    import: digest.py), or of every generator source when no spec is given."""
    if spec is not None:
        if is_external(spec):
            # A designer's core: its own files, and the code that wraps and measures it.
            return hashlib.sha256(f"{spec.digest}|{source_digest(EXTERNAL_SOURCES)}"  # type: ignore[attr-defined]
                                  .encode()).hexdigest()[:20]
        return design_digest(spec.cipher, spec.arch)
    return source_digest(GENERATOR_SOURCES)


def is_external(spec: DesignSpec) -> bool:
    """A designer's own core (external/), not one cipherbench generates."""
    from .external.spec import ExternalSpec

    return isinstance(spec, ExternalSpec)


@lru_cache(maxsize=None)
def measurement_digest() -> str:
    """Hash of the flows' and metrics' source."""
    return source_digest(MEASUREMENT_SOURCES)


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


def write_design(spec: DesignSpec, out_dir: Path) -> dict[str, Any]:
    """Write Verilog and a manifest without cycle counts; return the manifest."""
    if is_external(spec):
        from .external.design import write_external_design

        return write_external_design(spec, out_dir, generator_digest(spec))  # type: ignore[arg-type]
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
        "generator": {"version": __version__, "digest": generator_digest()},
    }
    harness = getattr(core, "simulation_harness", lambda _name: None)(name)
    if harness is not None:
        # A core without the common interface (keys=loaded) is simulated inside a wrapper that
        # has it; the flows measure the core alone (manifest "top"/"verilog").
        wrapper = to_verilog(harness, harness.io.port_list(), f"{name}_harness", out_dir,
                             instantiated=[verilog])
        manifest["simulation"] = {"top": f"{name}_harness",
                                  "verilog": [verilog.name, wrapper.name],
                                  "ports": shape.ports()}
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def measure_design_cycles(design_dir: Path, spec: DesignSpec) -> dict[str, Any]:
    """Cycle counts per key size, measured by simulating the generated Verilog."""
    from .verify.measure import measure_cycles
    from .verify.sim import Simulator

    model = ciphers()[spec.cipher].model()
    sim = Simulator(design_dir)
    sim.build()
    by_size = {str(bits): measure_cycles(sim, model, bits) for bits in spec.key_sizes}
    return by_size


def generate(spec_text: str | DesignSpec, out_dir: Path, *, measure: bool = True,
             progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Generate a design into out_dir (replacing it); return the manifest."""
    from .external.spec import design_of

    spec = design_of(spec_text) if isinstance(spec_text, str) else spec_text
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    try:
        _say(progress, f"generating {spec}")
        manifest = write_design(spec, staging)
        if measure and is_external(spec):
            # A designer's core is verified before its cycles are measured, so a wrong one is
            # told its first failing cases (verify/record.py), not the measurement's mismatch.
            from .verify.record import ensure_verified

            ensure_verified(spec, staging, progress=progress)
        if measure:
            _say(progress, f"measuring cycle counts of {spec} in simulation")
            by_size = measure_design_cycles(staging, spec)
            smallest = by_size[str(min(spec.key_sizes))]
            manifest.update(smallest)
            manifest["cycles_by_key_size"] = by_size
            (staging / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
        if out_dir.exists():
            shutil.rmtree(out_dir)
        staging.rename(out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return manifest


def _say(progress: Callable[[str], None] | None, text: str) -> None:
    if progress is not None:
        progress(text)
