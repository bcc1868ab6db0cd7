"""Test options: ``--runslow`` runs the long checks (full iterated NESSIE sets, maintenance tests,
long differential runs); without it tests marked ``slow`` are skipped with that reason."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False,
                     help="run the long checks (tests marked slow, full iterated vector sets)")
    parser.addoption("--differential-blocks", type=int, default=150, metavar="N",
                     help="random blocks per core in tests/test_differential.py (the opt-in long "
                          "run: 100000 with --runslow)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="long check: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
