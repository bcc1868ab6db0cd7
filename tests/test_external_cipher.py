"""A cipher from outside the project: the toy cipher of tests/toy_cipher, copied into a temporary
folder named by $CIPHERBENCH_CIPHERS, goes through `cipherbench list`, `generate`, `verify`, the
generic flow and the report without any other file of the project knowing it. Its model is its
only reference: the report's trust table must say that no independent oracle checked it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cipherbench.ciphers.registry import BUILT_IN, CIPHERS_ENV_VAR, ciphers

TOY = Path(__file__).parent / "toy_cipher" / "toy"


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("external")
    shutil.copytree(TOY, root / "ciphers" / "toy", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, CIPHERS_ENV_VAR: str(root / "ciphers"),
           "CIPHERBENCH_CACHE": str(root / "cache")}
    return root, env


def cli(env: dict[str, str], *args: str, timeout: int = 600) -> str:
    done = subprocess.run([sys.executable, "-m", "cipherbench.cli", *args], env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_project_does_not_know_the_toy() -> None:
    assert "toy" not in ciphers() or ciphers()["toy"].origin != BUILT_IN


def test_list_shows_the_toy_and_where_it_came_from(outside: tuple[Path, dict[str, str]]) -> None:
    root, env = outside
    text = cli(env, "list")
    line = next(line for line in text.splitlines() if line.strip().startswith("toy "))
    assert "block 16, keys 16" in line and str(root / "ciphers") in line
    designs = json.loads(cli(env, "list", "--json"))
    assert "toy-16/iterative" in {d["design"] for d in designs if d["cipher"] == "toy"}


def test_generate_verify_and_the_generic_flow(outside: tuple[Path, dict[str, str]]) -> None:
    root, env = outside
    out = root / "design"
    cli(env, "generate", "toy/iterative", "-o", str(out))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["cipher"] == "toy" and manifest["block_bits"] == 16
    assert manifest["cycles_by_key_size"]["16"]["latency"] == 2

    text = cli(env, "verify", "toy/iterative")
    assert "toy-model: 6 passed, 0 failed" in text
    assert "toy-16/iterative: 1198 passed, 0 failed" in text
    # No other implementation of the toy exists: verification says so instead of pretending.
    assert "random-vs-oracle: not checked (no independent implementation of toy is known)" in text

    db = root / "results.sqlite"
    cli(env, "run", "--design", "toy/iterative", "--target", "generic", "--db", str(db), "-j", "1")
    exported = json.loads(cli(env, "export", "--db", str(db), "--format", "json"))
    (row,) = exported["results"]
    assert row["design"] == "toy-16/iterative" and row["measurements"]["transistors"] > 0

    cli(env, "report", "--db", str(db), "-o", str(root / "report"))
    trust = [line for line in (root / "report" / "report.md").read_text().splitlines()
             if line.startswith("| toy-16/iterative | pass |")
             and "no independent implementation of toy is known" in line]
    assert trust, "the trust table must say the toy has no independent oracle"
