"""What a job's result records of where it came from: the digest of its inputs (generator,
measurement code, tools, Liberty) that goes into its cache key, and its provenance."""

from __future__ import annotations

import hashlib
import subprocess
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..digest import PACKAGE, hash_files, import_closure, module_files

if TYPE_CHECKING:
    from ..targets import Target
    from . import Job


@lru_cache(maxsize=None)
def measurement_digest() -> str:
    """Hash of the code that turns a design into figures: what the job's measurement (measure.py)
    imports, and the flows, which it reaches through the job's target."""
    return hash_files(import_closure(module_files(f"{PACKAGE}.jobs.measure", f"{PACKAGE}.flows")))


def inputs_digest(job: Job) -> str:
    """Everything besides design/target/settings that decides the figures."""
    from ..generate import generator_digest

    parts = [generator_digest(job.design), measurement_digest(), __version__,
             *_tool_versions(job.target)]
    liberty = job.target.settings.get("liberty")
    if liberty:
        parts.append(_file_sha256(Path(liberty)))
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]


def _tool_versions(target: Target) -> list[str]:
    from .. import tools

    versions = [tools.yosys_version()]
    if target.flow == "asic":
        versions.append(tools.sta_version())
    if target.flow == "fpga":
        versions.append(tools.nextpnr(target.settings["family"])[1])
    if target.flow == "layout":
        from ..flows.layout import effective_settings, qflow_version, tech_files

        kit = tech_files(effective_settings(target.settings)["tech"])
        versions += [tools.sta_version(), qflow_version(), *(_file_sha256(f) for f in kit)]
    return versions


_SHA_CACHE: dict[Path, str] = {}


def _file_sha256(path: Path) -> str:
    if path not in _SHA_CACHE:
        _SHA_CACHE[path] = hashlib.sha256(path.read_bytes()).hexdigest()
    return _SHA_CACHE[path]


def provenance_of(job: Job, tools: dict[str, str], inputs: str, key: str,
                manifest: dict[str, Any] | None = None,
                netlist_check: dict[str, Any] | None = None) -> dict[str, Any]:
    from ..generate import generator_digest
    from ..kinds.registry import kind_of

    prov: dict[str, Any] = {
        "design": job.design.canonical(),
        "target": job.target.name,
        "flow": job.target.flow,
        "settings": job.target.settings,
        "cipherbench": __version__,
        "generator_digest": generator_digest(job.design),
        "git": _git_hash(),
        "tools": tools,
        "inputs_digest": inputs,
        "cache_key": key,
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    liberty = job.target.settings.get("liberty")
    if liberty:
        prov["liberty"] = {"path": liberty, "sha256": _file_sha256(Path(liberty))}
    if manifest:
        prov["verification"] = manifest.get("verification")
        prov.update(kind_of(job.design).provenance(manifest))
    if netlist_check:
        prov["netlist_check"] = netlist_check
    return prov


def _git_hash() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).parent, timeout=10)
        return out.stdout.strip() if out.returncode == 0 else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"
