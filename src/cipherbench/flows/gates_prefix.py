"""A design synthesized to Yosys' own gates and flip-flops: where the generic and ASIC flows both
start, made once per design and kept (``<cache>/synth``).

The generic flow maps it onto its gate sets; the ASIC flow maps its registers onto a Liberty's
flip-flops and ABC its logic onto the Liberty's cells. Starting from one file has two uses:
- the synthesis is made once for all of a design's targets, goals and speed grades (it was over
  half of a pipeline's ASIC synthesis: AES-128 on NanGate45, 185 of 285 CPU seconds);
- every netlist of a design, generic or ASIC, is proven equal to this one file
  (verify/netlist_proof.py), so one gate-level simulation per design stands for all of them.

Its registers are already legal for both flows: plain flip-flops (with asynchronous set or
reset) and latches; enables and synchronous resets are logic in front of them, which is how a
library without such cells builds them too, and how the generic flow counts them. Each register
is named after the signal it holds (``<signal>_reg``), so timing reports say which registers a
critical path joins, and the mapped netlists keep those names, which is what the proof matches.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from ..cachedir import cache_root
from ..rtl import run_yosys_script
from ..tools import yosys_version
from .base import YOSYS_DROP_MARKERS, Design, yosys_id, yosys_read_script

# Plain flip-flops, with or without asynchronous reset, and latches survive; enables and
# synchronous resets become gates (they are logic in a real cell too).
DFFLEGALIZE = "dfflegalize -cell $_DFF_?_ 01 -cell $_DFF_???_ 01 -cell $_DLATCH_?_ 01"


def synth_script(design: Design, hierarchy: str, structure: str) -> list[str]:
    """Yosys commands from the design's Verilog to the prefix. ``hierarchy``: "flat" or
    "bottom-up" (each distinct module kept); ``structure``: "restructure" (Yosys' synth with its
    ABC pass) or "keep" (no ABC pass: the RTL's structure is what the mapper sees)."""
    return [
        *yosys_read_script(design),
        f"synth{' -flatten' if hierarchy == 'flat' else ''}"
        f"{' -noabc' if structure == 'keep' else ''} -top {yosys_id(design.top)}",
        YOSYS_DROP_MARKERS,
        "rename -wire -suffix _reg t:$_*DFF* t:$_DLATCH*",
        DFFLEGALIZE,
    ]


def shared_key(hierarchy: str, structure: str) -> str:
    """What decides a design's prefix besides the design: jobs with the same key share it."""
    return f"gates|{hierarchy}|{structure}"


def gates_prefix(design: Design, hierarchy: str, structure: str,
                 log: Path) -> tuple[Path, Path | None]:
    """The prefix as gzipped RTLIL, and ``log`` if this call made it (None when cached).

    Keyed by the Verilog, Yosys' version and the script. Every run, cached or not, goes on
    from the file, so a cached prefix gives the figures a fresh one would."""
    script = synth_script(design, hierarchy, structure)
    digest = hashlib.sha256()
    for part in (yosys_version(), "\n".join(script)):
        digest.update(part.encode() + b"\0")
    for verilog in design.verilog:
        digest.update(hashlib.sha256(verilog.read_bytes()).digest())
    folder = cache_root() / "synth"
    rtlil = folder / f"{design.top}-gates-{digest.hexdigest()[:20]}.il.gz"
    if rtlil.exists():
        return rtlil, None
    publish_yosys_outputs(script, [([], rtlil)], log)
    return rtlil, log


def publish_yosys_outputs(script: list[str], outputs: list[tuple[list[str], Path]], log: Path,
                          timeout: float = 3600) -> None:
    """Run ``script`` and write its design as RTLIL to each file of ``outputs`` (the commands to
    run before writing it, the file), each made privately and published with one rename, in
    order: two jobs that make the same files at once each publish whole files, and a reader
    that finds the last file finds the others too."""
    privates: list[tuple[Path, Path]] = []
    lines = list(script)
    for before, path in outputs:
        path.parent.mkdir(parents=True, exist_ok=True)
        private = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.il.gz")
        privates.append((private, path))
        lines += [*before, f"write_rtlil {private}"]
    try:
        run_yosys_script("\n".join(lines), log, timeout=timeout)
        for private, path in privates:
            os.replace(private, path)
    finally:
        for private, _ in privates:
            private.unlink(missing_ok=True)

