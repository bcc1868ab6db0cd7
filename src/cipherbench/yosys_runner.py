"""Child-process entry point: ``python -m cipherbench.yosys_runner SCRIPT.ys LOG``.

Runs a Yosys script through pyosys and writes the full log to LOG. Exit code 1 on a Yosys error.
"""

from __future__ import annotations

import sys


def main() -> int:
    script, log = sys.argv[1], sys.argv[2]
    from pyosys import libyosys as ys

    design = ys.Design()
    try:
        # `tee -q -o LOG` sends the whole log of the script to LOG and nothing to our stdout.
        ys.run_pass(f"tee -q -o {log} script {script}", design)
    except Exception as exc:  # libyosys raises on log_error
        with open(log, "a") as fh:
            fh.write(f"\nERROR: {exc}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
