"""Wall time to verify AES iterative cores on every AESAVS KAT+MMT vector, both directions, from a
cold cache (Amaranth generation, Verilog, Verilator build, cycle measurement and all vectors).

Usage: python benchmarks/verify_speed.py [DESIGN ...]   (default: aes-128/iterative aes/iterative)
Target (issue 2): under 60 s per design on the 2-core machine, simulator build included.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time


def main() -> int:
    designs = sys.argv[1:] or ["aes-128/iterative", "aes/iterative"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CIPHERBENCH_CACHE=cache)
        for design in designs:
            start = time.monotonic()
            proc = subprocess.run([sys.executable, "-m", "cipherbench.cli", "verify", design,
                                   "--random", "0"], env=env, capture_output=True, text=True)
            seconds = time.monotonic() - start
            last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr
            print(f"{design}: {seconds:.1f} s cold ({last})")
            if proc.returncode:
                return proc.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
