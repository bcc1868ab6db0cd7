"""The check of a flow's netlist: its own gate-level simulation on the RTL's vectors, or a proof
that it equals the design's gate prefix, which another job of the design proved its netlist equal
to and simulated (one simulation per design: verify/netlist_proof.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .. import __version__
from ..errors import CipherbenchError

if TYPE_CHECKING:
    from ..verify.netlist_proof import NetlistProof
    from . import Job


def check_netlist(job: Job, folder: Path, flow_result: Any, work: Path,
                   say: Callable[[str], None] | None) -> dict[str, Any] | None:
    """Check the flow's netlist, where it writes one: gate-level simulation (verify/netlist.py),
    or, where the flow names the design's gate prefix and no power is measured, a proof that it
    equals that prefix, which another job of the design (of any target) proved its netlist equal
    to and simulated (verify/netlist_proof.py). A netlist that computes anything else than the
    RTL fails the job."""
    from ..verify.netlist_proof import METHOD, read_record, write_record

    if flow_result.check is not None:
        return flow_result.check
    netlist = flow_result.artifacts.get("sim_netlist")
    if not netlist:
        return None
    if not _provable(flow_result.artifacts):
        return _simulate_netlist(job, folder, flow_result, work, None, say)
    proof, record_file = _prove_netlist(job, folder, flow_result, work, say)
    if not proof.equal:
        return _simulate_netlist(job, folder, flow_result, work, proof, say)
    # One simulation per prefix: a job whose proof succeeds while another job of the design
    # simulates its own netlist waits for that record instead of simulating a second netlist.
    with _exclusive(record_file.with_name(record_file.name + ".lock")):
        record = read_record(record_file)
        if record is not None:
            return {**record, "method": METHOD, "netlist": flow_result.target,
                    "simulated_netlist": record["netlist"], "proof": proof.summary()}
        check = _simulate_netlist(job, folder, flow_result, work, proof, say)
        write_record(record_file, check)
        return check


@contextmanager
def _exclusive(lock_file: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_file`` (every process on this machine sees it)."""
    import fcntl

    with open(lock_file, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _simulate_netlist(job: Job, folder: Path, flow_result: Any, work: Path,
                      proof: NetlistProof | None,
                      say: Callable[[str], None] | None) -> dict[str, Any]:
    """The netlist's own gate-level simulation; a netlist that differs from its RTL fails."""
    from ..verify.netlist import simulate_netlist

    netlist = flow_result.artifacts["sim_netlist"]
    if say:
        say(f"simulating the {flow_result.target} netlist of {job.design}")
    # Traced only where the power measurement reuses the executable (verify/activity.py).
    from ..kinds.registry import kind_of

    check = simulate_netlist(job.design, folder, Path(netlist), work, flow_result.target,
                             trace="power_netlist" in flow_result.artifacts,
                             verify=kind_of(job.design).verify)
    if check["failed"]:
        first = "; ".join(check["first_failures"]) or "see the netlist simulation"
        raise CipherbenchError(f"the {flow_result.target} netlist of {job.design} differs from "
                               f"its RTL ({check['failed']} mismatches: {first})")
    if proof is not None:
        check["proof"] = proof.summary()
    return check


def _provable(artifacts: dict[str, str]) -> bool:
    # Power needs the netlist's own simulation (its activity) anyway.
    return "equivalence_reference" in artifacts and "power_netlist" not in artifacts


def _prove_netlist(job: Job, folder: Path, flow_result: Any, work: Path,
                   say: Callable[[str], None] | None) -> tuple[NetlistProof, Path]:
    """The proof that the flow's mapped netlist equals the design's netlist before mapping, and
    where the record of that netlist's simulation is kept."""
    import json

    from ..verify.netlist_proof import prove_equal, record_path

    top = json.loads((folder / "manifest.json").read_text())["top"]
    artifacts = flow_result.artifacts
    reference = Path(artifacts["equivalence_reference"])
    if say:
        say(f"proving the {flow_result.target} netlist of {job.design} equal to its prefix")
    optional = {name: Path(artifacts[f"equivalence_{name}"]) for name in ("cells", "register_map")
                if f"equivalence_{name}" in artifacts}
    proof = prove_equal(reference, Path(artifacts["equivalence_netlist"]), top,
                        work, **optional)
    return proof, record_path(reference, str(job.design), _simulation_inputs(job))


def _simulation_inputs(job: Job) -> str:
    """Everything that decides a netlist simulation's verdict besides the netlist: the design's
    generator, the vectors and testbench (measurement sources), the tools. Not the target: a
    generic and an ASIC netlist proven equal to one prefix share one simulation."""
    from ..generate import generator_digest
    from ..tools import yosys_version
    from ..verify.sim import simulator_version

    from .provenance import measurement_digest

    parts = [generator_digest(job.design), measurement_digest(), __version__, yosys_version(),
             simulator_version()]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]
