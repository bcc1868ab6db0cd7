"""External tool discovery, version capture and a uniform way to run them.

Every measurement carries the versions of the tools that produced it, so
discovery and version strings live in one place. Errors are one line naming the package that
provides a missing tool, or the key error line of a failed run.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path
from typing import Sequence

from .errors import ToolFailed, ToolMissing

FPGA_FAMILIES = ("ecp5", "ice40")

# How to get each command; the message of ToolMissing when it is absent.
_INSTALL_HINTS = {
    "sta": "OpenSTA not found: apt-get install opensta (Debian package 'opensta')",
    "pyosys": "Yosys not found: pip install pyosys (PyPI package 'pyosys')",
}
for _family in FPGA_FAMILIES:
    _INSTALL_HINTS[f"nextpnr-{_family}"] = (
        f"nextpnr-{_family} not found: pip install yowasp-nextpnr-{_family}"
    )
    _INSTALL_HINTS[f"yowasp-nextpnr-{_family}"] = _INSTALL_HINTS[f"nextpnr-{_family}"]

# Lines that carry the reason of a failure, in the order we prefer them.
_ERROR_PATTERNS = (
    re.compile(r"^\s*(ERROR|Error|error)\b[:!]?"),
    re.compile(r"Traceback|Trap|panic", re.IGNORECASE),
)


def missing_message(command: str) -> str:
    """The one-line ToolMissing message for a command name."""
    return _INSTALL_HINTS.get(command, f"{command} not found on PATH")


def find_command(command: str) -> str | None:
    """A command's path: first beside the running interpreter (the console scripts of the
    project's own PyPI dependencies, such as yowasp-nextpnr-*, which are there even when the
    virtual environment is not activated and its bin/ is not on PATH), then on PATH."""
    scripts = sysconfig.get_path("scripts")
    search = os.pathsep.join(p for p in (scripts, os.environ.get("PATH", "")) if p)
    return shutil.which(command, path=search)


def _which(command: str) -> str:
    path = find_command(command)
    if path is None:
        raise ToolMissing(missing_message(command))
    return path


# ---- Yosys (pyosys, run in a child process by cipherbench.rtl) -----------------------------


@functools.lru_cache(maxsize=1)
def yosys_version() -> str:
    """'Yosys 0.70 (git sha1 ...)', asked from pyosys in a child (libyosys keeps global state)."""
    try:
        import pyosys  # noqa: F401  (only checks that it is installed)
    except ImportError as exc:
        raise ToolMissing(missing_message("pyosys")) from exc
    code = "from pyosys import libyosys as ys; print(ys.yosys_maybe_version())"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise ToolFailed(f"cannot get the Yosys version: {_key_error_line(proc.stderr)}")
    return proc.stdout.strip().splitlines()[-1]


# ---- OpenSTA -----------------------------------------------------------------------------


def sta_path() -> str:
    """Path of OpenSTA's `sta`; ToolMissing names the Debian package."""
    return _which("sta")


@functools.lru_cache(maxsize=4)
def _sta_version_of(path: str) -> str:
    proc = subprocess.run([path, "-version"], capture_output=True, text=True, timeout=30)
    version = proc.stdout.strip()
    if proc.returncode != 0 or not version:
        raise ToolFailed(f"cannot get the OpenSTA version from {path} -version")
    return f"OpenSTA {version}"


def sta_version() -> str:
    return _sta_version_of(sta_path())


# ---- nextpnr -----------------------------------------------------------------------------


def nextpnr(family: str) -> tuple[str, str]:
    """(path, version) of nextpnr for an FPGA family.

    The YoWASP build (a declared dependency) comes first so that results are reproducible
    across machines; a native `nextpnr-<family>` is the fallback.
    """
    if family not in FPGA_FAMILIES:
        raise ToolMissing(f"no nextpnr for FPGA family {family!r}; known: {', '.join(FPGA_FAMILIES)}")
    for command in (f"yowasp-nextpnr-{family}", f"nextpnr-{family}"):
        path = find_command(command)
        if path is not None:
            return path, _nextpnr_version(command, path)
    raise ToolMissing(missing_message(f"nextpnr-{family}"))


@functools.lru_cache(maxsize=8)
def _nextpnr_version(command: str, path: str) -> str:
    if command.startswith("yowasp-"):
        # The wheel version encodes the nextpnr release and commit count; asking the
        # WebAssembly binary itself costs seconds.
        try:
            return f"{command} {metadata.version(command)}"
        except metadata.PackageNotFoundError:
            pass
    proc = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=120)
    match = re.search(r"Version\s+([^\s)]+)", proc.stdout + proc.stderr)
    if match is None:
        raise ToolFailed(f"cannot get the nextpnr version from {path} --version")
    return f"{command} {match.group(1)}"


# ---- running -----------------------------------------------------------------------------


def _key_error_line(text: str) -> str:
    """The most telling line of a failed run's output: its last error line, else its last line."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for pattern in _ERROR_PATTERNS:
        hits = [ln for ln in lines if pattern.search(ln)]
        if hits:
            return hits[-1][:300]
    return lines[-1][:300] if lines else "no output"


def run_tool(cmd: Sequence[str], *, cwd: Path, log_path: Path, timeout_s: float) -> str:
    """Run an external tool, its stdout and stderr both into log_path; return that text.

    ToolMissing if cmd[0] is not installed, ToolFailed on a non-zero exit (with the key error
    line) or a timeout (the whole process group is killed: YoWASP tools start children).
    """
    executable = cmd[0] if os.path.isabs(cmd[0]) else _which(cmd[0])
    if not os.path.exists(executable):
        raise ToolMissing(missing_message(Path(cmd[0]).name))
    name = Path(cmd[0]).name
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [executable, *cmd[1:]], cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
        try:
            returncode = proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired as exc:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise ToolFailed(f"{name} timed out after {timeout_s:.0f} s (log: {log_path})") from exc
    text = log_path.read_text(errors="replace")
    if returncode != 0:
        raise ToolFailed(f"{name} failed: {_key_error_line(text)} (log: {log_path})")
    return text
