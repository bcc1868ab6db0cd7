"""Running external tools: a timeout ends the tool's whole process tree."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_a_yosys_timeout_ends_its_children_too(tmp_path: Path) -> None:
    """Yosys starts ABC (and `exec`) as children; a timeout must end them, not only the Python
    process that runs Yosys (an orphaned yosys-abc went on using a core for minutes)."""
    import subprocess

    from cipherbench.errors import ToolFailed
    from cipherbench.rtl import run_yosys_script

    marker = "31.4159"
    with pytest.raises(ToolFailed, match="timed out"):
        run_yosys_script(f"exec -- sleep {marker}", tmp_path / "y.log", timeout=3)
    # The group was sent SIGKILL before the call returned; a killed child is a zombie at most,
    # whose command line pgrep no longer matches.
    left = subprocess.run(["pgrep", "-f", f"sleep {marker}"], capture_output=True, text=True)
    assert left.stdout.strip() == ""
