"""The report of every kept export (benchmarks/results/*.json), and of all of them together, written
to compare two versions of the code: a restructuring of the report must leave every table as it was.

    python benchmarks/export_reports.py OUT_DIR      # with one version's code on PYTHONPATH
    diff -r BEFORE_DIR AFTER_DIR                     # nothing: the same reports

Each report goes into OUT_DIR/<export>/ (OUT_DIR/all/ for all exports together) with the software
baseline of tests/test_report_software.py, so the software section is exercised too. The Summary's
timestamp is masked and the PNG plots are left out (they carry matplotlib's version; the SVGs,
written without a date, are compared).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAMP = re.compile(r"Generated \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")


def main(out: Path) -> None:
    from cipherbench.report import current_rows, write_report
    from cipherbench.store.transfer import read_export

    sys.path.insert(0, str(ROOT / "tests"))
    from test_report_software import BASELINE

    out.mkdir(parents=True, exist_ok=True)
    baseline = out / "software.json"
    baseline.write_text(json.dumps(BASELINE))
    exports = [(p.stem, read_export(p)) for p in sorted((ROOT / "benchmarks" / "results").glob("*.json"))]
    exports.append(("all", [row for _, rows in exports for row in rows]))
    for name, rows in exports:
        folder = out / name
        for path in write_report(current_rows(rows), folder, software_baseline=baseline):
            if path.suffix in (".md", ".html"):
                path.write_text(STAMP.sub("Generated <stamp>", path.read_text()))
            if path.suffix == ".png":
                path.unlink()
        print(f"{name}: {len(rows)} rows, {sorted(p.name for p in folder.iterdir())}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python benchmarks/export_reports.py OUT_DIR")
    main(Path(sys.argv[1]))
