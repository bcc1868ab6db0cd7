"""Shared by the results-store tests: sample rows, and a database location per backend.

The PostgreSQL cases need ``$CIPHERBENCH_TEST_PG_URL`` (CI starts a throwaway server with
scripts/pg-test-server.sh and sets it); without it they skip with that reason. Each test gets
its own PostgreSQL schema, dropped afterwards, so tests never see each other's rows.
"""

from __future__ import annotations

import os
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

from cipherbench.store import Result, cache_key

PG_ENV = "CIPHERBENCH_TEST_PG_URL"
BACKENDS = ("sqlite", "postgresql")
DIGEST = "3f1c" * 16  # stands for sha256(Verilog + tool versions + Liberty hash)


def ok_result(design: str = "aes-128/iterative", target: str = "asic:nangate45_typ:speed",
              settings: dict[str, Any] | None = None, digest: str = DIGEST) -> Result:
    settings = {"goal": "speed"} if settings is None else settings
    return Result(
        cache_key=cache_key(design, target, settings, digest),
        design=design,
        target=target,
        settings=settings,
        status="ok",
        measurements={"area_um2": 19_231.8, "gate_equivalents": 24_100.0, "fmax_mhz": 280.0,
                      "critical_path_ns": 3.571, "cells": 8_412, "flipflops": 530},
        cycles={"128": {"latency": 10, "initiation_interval": 10, "cycles_per_chained_block": 10,
                        "key_setup_encrypt": 0, "key_setup_decrypt": 10}},
        metrics={"fmax_mhz": 280.0, "by_key_size": {"128": {"throughput_mbps": 3584.0}}},
        provenance={"tools": {"yosys": "0.70", "sta": "2.6.0"}, "git_hash": "7147ac6",
                    "liberty": {"path": "nangate45_typ.lib", "sha256": "ab" * 32}},
    )


def failed_result(reason: str = "sta: no clock on port clk", **kw: Any) -> Result:
    result = ok_result(**kw)
    result.status, result.reason = "failed", reason
    result.measurements, result.cycles, result.metrics = {}, {}, {}
    return result


def pg_base_url() -> str:
    url = os.environ.get(PG_ENV, "").strip()
    if not url:
        pytest.skip(f"no PostgreSQL server: set {PG_ENV} (CI starts one with "
                    f"scripts/pg-test-server.sh)")
    return url


def _with_search_path(url: str, schema: str) -> str:
    """The URL with every unqualified table name resolved in ``schema``."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "options"]
    query.append(("options", f"-csearch_path={schema}"))
    return urlunsplit(parts._replace(query=urlencode(query)))


@contextmanager
def pg_schema() -> Iterator[str]:
    """A URL into a fresh, empty schema of the test server; the schema is dropped after."""
    import psycopg

    base = pg_base_url()
    schema = f"cb_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield _with_search_path(base, schema)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@contextmanager
def database(backend: str, tmp_path: Path, name: str = "db") -> Iterator[str]:
    """A location (str) for a new, empty results database of ``backend``."""
    if backend == "sqlite":
        yield str(tmp_path / "results" / f"{name}.sqlite")
    else:
        with pg_schema() as url:
            yield url
