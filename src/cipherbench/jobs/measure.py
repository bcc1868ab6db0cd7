"""A job's measurement: its design, verified, through its flow, the netlist's check and power,
into one result; and the digest of the code that does it, part of every result's key.

The steps are the functions :func:`measure` calls, imported here at module level, so that the
code they reach through imports is what ``provenance.measurement_digest`` hashes (digest.py): no
list of measuring sources is kept by hand.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..cache import cache_root, ensure_design
from ..kinds.registry import kind_of
from ..metrics import derive
from ..power import measure_power
from ..verify.record import ensure_verified
from .netlist_check import check_netlist
from .provenance import provenance_of

if TYPE_CHECKING:
    from . import Job


def measure(job: Job, flow: Any, settings: dict[str, Any], key: str, target_id: str,
             inputs: str, say: Callable[[str], None] | None) -> Any:
    from ..store import Result

    started = time.monotonic()
    stages = StageClock()
    with stages("design"):
        folder = ensure_design(job.design, progress=say)
    manifest = json.loads((folder / "manifest.json").read_text())
    # Nothing is measured that has not passed verification (verify/record.py).
    with stages("verification"):
        manifest["verification"] = ensure_verified(job.design, folder, progress=say,
                                                   verify=kind_of(job.design).verify)
    work_root = cache_root() / "runs"
    work_root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f"{job.design.slug}-", dir=work_root) as work:
        with stages("flow"):
            flow_result = flow.run(folder, Path(work), settings)
        with stages("netlist_check"):
            netlist_check = check_netlist(job, folder, flow_result, Path(work), say)
        family = kind_of(job.design).family(job.design)
        if "power_netlist" in flow_result.artifacts and family.power_workloads:
            with stages("power"):
                flow_result.measurements.update(
                    measure_power(job.design, folder, flow_result, Path(work), say))
    cycles = family.measured(manifest)
    metrics = derive({"block_bits": manifest["block_bits"], "cycles": cycles,
                      "measurements": flow_result.measurements,
                      "io_count": manifest["io_count"]}, family=family, design=manifest)
    provenance = provenance_of(job, flow_result.tools, inputs, key, manifest, netlist_check)
    # Wall time of the whole job (design, verification, flow, netlist simulation, power) on the
    # machine that ran it: what a study's time is estimated from, never a figure of the design.
    provenance["job_seconds"] = round(time.monotonic() - started, 1)
    # The same time by stage, so that a slow kind of job says where its time goes before anyone
    # tries to speed it up (design and verification are near zero once cached).
    provenance["stage_seconds"] = stages.seconds
    return Result(
        cache_key=key, design=str(job.design), target=target_id,
        settings=flow_result.settings, status="ok", measurements=flow_result.measurements,
        cycles=cycles, metrics=metrics, provenance=provenance,
    )


class StageClock:
    """Wall time of a job's stages, each used as ``with clock("name"):``."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        started = time.monotonic()
        try:
            yield
        finally:
            self.seconds[stage] = round(time.monotonic() - started, 1)
