"""Monte Carlo tests on generated cores in Verilator: AESAVS ECB MCT (100 x 1000) for AES, the
AES-candidate ecb_e_m/ecb_d_m files (400 x 10,000) for Serpent and MARS. One simulation per outer
iteration: a KeyOp, then one ChainOp (blocks fed back with zero delay by the testbench).

Usage: python benchmarks/mct_hw.py [--outer N] [DESIGN ...]
       (default designs: aes-128/iterative aes/iterative serpent-128/iterative mars-128/iterative;
        --outer: iterations per key size and direction, default the whole test: 100 AES, 400 others)
Serpent and MARS need CIPHERBENCH_KAT pointing at the shared kat folder. Prints one line per key
size and direction (pass/fail, time) and a total per design; exit status 1 if anything failed.
"""

from __future__ import annotations

import argparse
import sys
import time

DEFAULT = ["aes-128/iterative", "aes/iterative", "serpent-128/iterative", "mars-128/iterative"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("designs", nargs="*", default=DEFAULT)
    parser.add_argument("--outer", type=int, default=None)
    args = parser.parse_args()

    from cipherbench.cache import ensure_design
    from cipherbench.spec import parse
    from cipherbench.verify.mct import design_mct

    failed = False
    for design in args.designs:
        spec = parse(design)
        start = time.monotonic()
        folder = ensure_design(spec)
        ready = time.monotonic()
        last = [ready]

        def show(outcome, design=design, last=last) -> None:
            now = time.monotonic()
            verdict = "pass" if outcome.ok else "FAIL"
            print(f"{design}: {outcome.name}: {verdict} ({outcome.passed} checkpoints"
                  f"{'' if outcome.ok else ', first failure: ' + outcome.first_failures[0]}) "
                  f"{now - last[0]:.1f} s", flush=True)
            last[0] = now

        outcomes = design_mct(spec, folder, args.outer, on_outcome=show)
        ok = all(o.ok for o in outcomes)
        failed |= not ok
        print(f"{design}: {'PASS' if ok else 'FAIL'}, MCT {time.monotonic() - ready:.1f} s "
              f"(design and simulator ready in {ready - start:.1f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
