"""How fast the Verilator harness checks blocks: N random blocks under two key sizes through the
toy iterative core of tests/toycore.py, every result compared with the toy model.

Usage: python benchmarks/harness_speed.py [N]   (default 5000)

Prints the simulator build (in a fresh private cache) and the check of the N blocks separately.
The tests check that the blocks pass (tests/test_sim.py), never how long they take.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from cipherbench.verify.check import check_cases, random_cases
from cipherbench.verify.sim import Simulator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from toycore import ToyIterative, ToyModel, write_design  # noqa: E402


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    with tempfile.TemporaryDirectory() as tmp:
        sim = Simulator(write_design(ToyIterative(), Path(tmp) / "design"), Path(tmp) / "build")
        start = time.monotonic()
        sim.build()
        built = time.monotonic()
        result = check_cases(sim, random_cases(ToyModel(), (64, 128), n, seed=99))
        checked = time.monotonic()
    print(f"build {built - start:.1f} s; {n} blocks {checked - built:.1f} s "
          f"({result.passed} passed, {result.failed} failed)")
    return 1 if result.failed or result.passed != n else 0


if __name__ == "__main__":
    sys.exit(main())
