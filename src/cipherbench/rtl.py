"""Amaranth -> RTLIL -> Verilog, through Yosys (pyosys) in a child process.

Amaranth 0.5 emits RTLIL by itself; Verilog needs Yosys. We run pyosys in a subprocess because
libyosys keeps global state and prints its log on stdout, neither of which belongs in our process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Sequence

from amaranth.back import rtlil
from amaranth.hdl import Elaboratable, Signal

from .errors import ToolFailed, ToolMissing
from .rtl_modules import share_identical_modules

_YOSYS_TIMEOUT_S = 600


def yosys_command() -> list[str]:
    """The command that runs a Yosys script file given as the last argument (pyosys in a child)."""
    return [sys.executable, "-m", "cipherbench.yosys_runner"]


def run_yosys_script(script: str, log_path: Path, timeout: float = _YOSYS_TIMEOUT_S) -> str:
    """Run a Yosys script; return its log. Raise ToolFailed with the last error line on failure."""
    try:
        import pyosys  # noqa: F401  (only checks that it is installed)
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise ToolMissing("Yosys not found: pip install pyosys (PyPI package 'pyosys')") from exc
    with tempfile.NamedTemporaryFile("w", suffix=".ys", delete=False) as fh:
        fh.write(script)
        script_path = fh.name
    try:
        # A session of its own, so that a timeout ends Yosys' ABC children too, not only the
        # Python that runs Yosys (an orphaned yosys-abc would go on using a core for minutes).
        proc = subprocess.Popen([*yosys_command(), script_path, str(log_path)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise ToolFailed(f"yosys timed out after {timeout:.0f} s (see {log_path})") from exc
    finally:
        Path(script_path).unlink(missing_ok=True)
    log = log_path.read_text() if log_path.exists() else stdout
    if proc.returncode != 0:
        errors = [ln for ln in (log + stderr).splitlines() if "ERROR" in ln]
        detail = errors[-1].strip() if errors else f"exit code {proc.returncode}"
        raise ToolFailed(f"yosys failed: {detail} (log: {log_path})")
    return log


def to_rtlil(top: Elaboratable, ports: Sequence[Signal], name: str) -> str:
    """RTLIL text of an elaboratable with the given top-level ports."""
    return rtlil.convert(top, ports=list(ports), name=name)


def to_verilog(top: Elaboratable, ports: Sequence[Signal], name: str, out_dir: Path,
               instantiated: Sequence[Path] = ()) -> Path:
    """Write ``out_dir/<name>.v`` (plain Verilog-2005, no attributes, identical submodules
    written once) and return its path.
    ``instantiated``: Verilog files of modules ``top`` instantiates by name, read as black boxes
    (their ports only) and not copied into the output."""
    out_dir.mkdir(parents=True, exist_ok=True)
    il_path = out_dir / f"{name}.il"
    v_path = out_dir / f"{name}.v"
    # One module per distinct component (rtl_modules.py), not one per instance.
    il_path.write_text(share_identical_modules(to_rtlil(top, ports, name)).rtlil)
    script = "\n".join([
        *(f"read_verilog -lib {'-sv ' if path.suffix == '.sv' else ''}{path}"
          for path in instantiated),
        f"read_rtlil {il_path}",
        f"hierarchy -top {name}",
        "proc",
        "opt_clean",
        f"write_verilog -noattr -norename {v_path}",
    ])
    run_yosys_script(script, out_dir / "rtl_yosys.log")
    il_path.unlink()
    return v_path
