"""Wall time of the default study, cold (fresh design cache and database) and warm (all cached).

Usage: python benchmarks/study_time.py
Targets: warm rerun under 10 s (issue 2); cold default study under 20 minutes (issue 6).
Uses $CIPHERBENCH_LIBERTY for the asic target (skipped without it).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time


def timed(args: list[str], env: dict[str, str], cwd: str) -> tuple[float, str]:
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "cipherbench.cli", *args], env=env, cwd=cwd,
                          capture_output=True, text=True)
    if proc.returncode:
        print(proc.stderr, file=sys.stderr)
    return time.monotonic() - start, proc.stdout.strip().splitlines()[-1]


def main() -> int:
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, CIPHERBENCH_CACHE=os.path.join(work, "cache"))
        cold, line = timed(["run"], env, work)
        print(f"default study cold: {cold:.0f} s ({line})")
        warm, line = timed(["run"], env, work)
        print(f"default study warm: {warm:.1f} s ({line})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
