"""Study wall time on the Dask engine with 1, 2 and 4 local workers (issue 6: "linearly faster
with more workers"). Each run is cold: a fresh design cache, simulator cache and database, so
every job generates, verifies, synthesizes and gate-level simulates its design.

Usage: python benchmarks/scaling.py [--target generic] [DESIGN ...] [--workers 1 2 4]
       (default designs: eight small loop cores, so the jobs outnumber the workers)
Needs the `dask` extra (pip install 'cipherbench[dask]'). Run it on an otherwise idle machine:
a background job skews every figure.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

DEFAULT = ["des-64/iterative", "des-64/iterative:ops=encrypt", "des-64/iterative:ops=decrypt",
           "tdea/iterative", "misty1/iterative", "misty1/iterative:ops=encrypt",
           "aes-128/iterative:ops=encrypt", "aes-128/iterative:ops=decrypt"]


def run(workers: int, designs: list[str], target: str) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, CIPHERBENCH_CACHE=os.path.join(work, "cache"))
        env.pop("CIPHERBENCH_DB", None)
        args = [sys.executable, "-m", "cipherbench.cli", "run", "--target", target,
                "--executor", "dask-local", "--workers", str(workers),
                "--db", os.path.join(work, "db.sqlite")]
        for design in designs:
            args += ["--design", design]
        start = time.monotonic()
        proc = subprocess.run(args, env=env, cwd=work, capture_output=True, text=True)
        seconds = time.monotonic() - start
        if proc.returncode:
            print(proc.stderr, file=sys.stderr)
            raise SystemExit(f"the run with {workers} workers failed")
        return seconds, proc.stdout.strip().splitlines()[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("designs", nargs="*", default=DEFAULT)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--target", default="generic")
    args = parser.parse_args()
    print(f"{len(args.designs)} designs on {args.target}, {os.cpu_count()} CPUs")
    base = None
    for workers in args.workers:
        seconds, line = run(workers, args.designs, args.target)
        base = base or seconds * workers / args.workers[0]
        print(f"{workers} workers: {seconds:.0f} s, speed-up {base / seconds:.2f} "
              f"against one worker ({line})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
