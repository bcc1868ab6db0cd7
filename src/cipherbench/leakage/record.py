"""A core's leakage assessment as a row of the results store, beside the design's other results.

The row's target is :data:`TARGET` (``leakage:tvla+probing``); its settings are what decide the
figures (traces, probe traces and clocks, netlist structure, seed, the fixed key and block), so a
rerun with the same settings and unchanged code replaces the row, and other settings add one.
Its measurements are :meth:`CoreAssessment.measurements`: the trace counts, max |t| and its
clock, the probing tests and the largest -log10(p) with where, the models, traces per second and
the verdict per check. ``cipherbench report`` shows them in its leakage section and
``cipherbench export`` carries them like any row.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import __version__
from ..digest import hash_files, import_closure
from ..spec import DesignSpec
from ..store import Result, cache_key
from .core import TARGET, CoreAssessment



def leakage_sources() -> list[Path]:
    """What decides a leakage row's figures besides the design: this package (driver, synthesis
    script, simulator, statistics) and everything it imports (the ASIC flow's mapping, ...)."""
    return import_closure(sorted(Path(__file__).parent.glob("*.py")))


def is_leakage(result: Result) -> bool:
    """Whether a stored row is a leakage assessment (not a measured netlist)."""
    return result.target_kind == TARGET.split(":", 1)[0]


def leakage_settings(assessment: CoreAssessment) -> dict[str, Any]:
    """What decides the row's figures (not the threads or the simulator's back end: the
    campaign is the same bit for bit with any)."""
    tvla, probing = assessment.tvla, assessment.probing
    return {
        "traces": tvla.traces if tvla else 0,
        "probe_traces": probing.traces if probing else 0,
        "probe_clocks": len(assessment.scope.clocks),
        "structure": assessment.structure,
        "seed": assessment.seed,
        "fixed_key": assessment.key.hex(),
        "fixed_block": assessment.block.hex(),
    }


def inputs_digest(spec: DesignSpec) -> str:
    """The generator's sources for the design, the leakage package's, Yosys' version."""
    from ..generate import generator_digest
    from ..tools import yosys_version

    parts = [generator_digest(spec), hash_files(leakage_sources()), __version__,
             yosys_version()]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]


def leakage_result(spec: DesignSpec, assessment: CoreAssessment, settings: dict[str, Any],
                   verification: dict[str, Any] | None = None) -> Result:
    """The store row of ``assessment`` of design ``spec``."""
    from ..tools import yosys_version

    digest = inputs_digest(spec)
    key = cache_key(str(spec), TARGET, settings, digest)
    provenance = {
        "design": spec.canonical(),
        "target": TARGET,
        "flow": "leakage",
        "settings": settings,
        "cipherbench": __version__,
        "git": _git_hash(),
        "tools": {"yosys": yosys_version(), "simulator": assessment.backend},
        "inputs_digest": digest,
        "cache_key": key,
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "verification": verification,
        "command": command_line(spec, settings),
    }
    return Result(cache_key=key, design=str(spec), target=TARGET, settings=settings,
                  status="ok", measurements=assessment.measurements(), provenance=provenance)


def command_line(spec: DesignSpec, settings: dict[str, Any]) -> str:
    """The command that makes this row again."""
    return (f"cipherbench leakage '{spec}' --traces {settings['traces']} --probe-traces "
            f"{settings['probe_traces']} --probe-clocks {settings['probe_clocks']} "
            f"--structure {settings['structure']} --seed {settings['seed']}")


def _git_hash() -> str:
    from ..jobs.provenance import _git_hash as git_hash

    return git_hash()
