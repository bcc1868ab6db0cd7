"""Design spec -> HDL + manifest.json, with cycle counts measured in simulation.

What a design's folder holds is its kind's business (kinds/: a generator's Verilog, or a
designer's core inside its harness); this module runs the steps every kind shares. The output
directory is written atomically: everything is produced in a sibling temporary folder and renamed
into place at the end, so an interrupted or failed run never leaves half a design.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from .kinds.registry import design_of, kind_of
from .spec import DesignSpec

__all__ = ["generate", "generator_digest", "measure_design_cycles", "write_design"]


@lru_cache(maxsize=None)
def generator_digest(spec: DesignSpec) -> str:
    """Hash of the sources that decide ``spec``'s design folder (its kind's, kinds/)."""
    return kind_of(spec).digest(spec)


def write_design(spec: DesignSpec, out_dir: Path) -> dict[str, Any]:
    """Write the design's HDL and a manifest without cycle counts; return the manifest."""
    return kind_of(spec).write(spec, out_dir, generator_digest(spec))


def measure_design_cycles(design_dir: Path, spec: DesignSpec) -> dict[str, Any]:
    """What the design's interface family measures in simulation (the block family: cycle
    counts per key size), checked against the design's reference model (its kind's)."""
    kind = kind_of(spec)
    return kind.family(spec).measure_cycles(design_dir, spec, kind.model(spec))


def generate(spec_text: str | DesignSpec, out_dir: Path, *, measure: bool = True,
             progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Generate a design into out_dir (replacing it); return the manifest."""
    spec = design_of(spec_text) if isinstance(spec_text, str) else spec_text
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    try:
        _say(progress, f"generating {spec}")
        manifest = write_design(spec, staging)
        if measure:
            kind_of(spec).check_written(spec, staging, progress)
            _say(progress, f"measuring cycle counts of {spec} in simulation")
            measured = measure_design_cycles(staging, spec)
            manifest.update(kind_of(spec).family(spec).manifest_entries(measured))
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
