"""``cipherbench reproduce RESULT_ID`` (issue 8): a stored figure regenerated from its provenance."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.reproduce import reproduce
from cipherbench.store import Store

DESIGN = "des-64/iterative:ops=encrypt"


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("CIPHERBENCH_DB", None)
    return subprocess.run([sys.executable, "-m", "cipherbench.cli", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=900)


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reproduce")
    proc = cli("run", "--design", DESIGN, "--target", "generic", "--db", "r.sqlite", "--jobs",
               "1", cwd=root)
    assert proc.returncode == 0, proc.stderr
    return root / "r.sqlite"


def test_a_stored_result_reproduces_identically(database: Path) -> None:
    with Store(database) as store:
        comparison = reproduce(store, 1)
    assert comparison.ok and not comparison.input_changes and comparison.differing == []
    # Every figure the row holds was compared, and each came out the same.
    stored = comparison.stored
    every = {f"{kind}.{name}" for kind in ("measurements", "cycles", "metrics")
             for name in getattr(stored, kind) or {}}
    assert sorted(comparison.identical) == sorted(every)
    assert {"measurements.transistors", "measurements.cells", "metrics.transistors",
            "cycles.64"} <= every


def test_a_changed_figure_is_reported_and_fails(database: Path, tmp_path: Path) -> None:
    """A stored figure edited by hand: the command names it and exits 1."""
    copy = tmp_path / "edited.sqlite"
    copy.write_bytes(database.read_bytes())
    with sqlite3.connect(copy) as conn:
        (text,) = conn.execute("select measurements from results where id = 1").fetchone()
        figures = json.loads(text)
        figures["transistors"] += 1
        conn.execute("update results set measurements = ? where id = 1", (json.dumps(figures),))
    proc = cli("reproduce", "1", "--db", str(copy), cwd=tmp_path)
    assert proc.returncode == 1
    assert "differs: measurements.transistors" in proc.stdout


def test_unknown_id_is_one_line(database: Path, tmp_path: Path) -> None:
    proc = cli("reproduce", "99", "--db", str(database), cwd=tmp_path)
    assert proc.returncode != 0
    assert "no result 99" in proc.stderr and proc.stderr.strip().count("\n") == 0
    with Store(database) as store, pytest.raises(CipherbenchError, match="no result 99"):
        reproduce(store, 99)
