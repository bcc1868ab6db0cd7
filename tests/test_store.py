"""The SQLite results store: round trip, caching, replacement rules, concurrency, bad files."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.store import SCHEMA_VERSION, Result, Store, cache_key, default_db_path

DIGEST = "3f1c" * 16  # stands for sha256(Verilog + tool versions + Liberty hash)


def _ok(design: str = "aes-128/iterative", target: str = "asic:nangate45_typ:speed",
        settings: dict | None = None, digest: str = DIGEST) -> Result:
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


def _failed(reason: str = "sta: no clock on port clk", **kw: object) -> Result:
    result = _ok(**kw)  # type: ignore[arg-type]
    result.status, result.reason = "failed", reason
    result.measurements, result.cycles, result.metrics = {}, {}, {}
    return result


@pytest.fixture
def store(tmp_path: Path) -> Store:
    with Store(tmp_path / "results" / "db.sqlite") as s:
        yield s


def test_cache_key_is_content_addressed() -> None:
    key = cache_key("aes-128/iterative", "generic", {"goal": "area", "b": 1}, DIGEST)
    assert len(key) == 64 and int(key, 16) >= 0
    assert key == cache_key("aes-128/iterative", "generic", {"b": 1, "goal": "area"}, DIGEST)
    assert key != cache_key("aes-128/iterative", "generic", {"goal": "speed", "b": 1}, DIGEST)
    assert key != cache_key("aes-128/iterative", "generic", {"goal": "area", "b": 1}, "0" * 64)
    assert key != cache_key("aes-128/pipelined", "generic", {"goal": "area", "b": 1}, DIGEST)
    assert key != cache_key("aes-128/iterative", "fpga:ecp5-25k", {"goal": "area", "b": 1}, DIGEST)


def test_round_trip(store: Store) -> None:
    original = _ok()
    stored = store.put(original)
    assert stored.id is not None and stored.created  # assigned by the store
    again = store.get(original.cache_key)
    assert again == stored
    for name in ("cache_key", "design", "target", "settings", "status", "reason",
                 "measurements", "cycles", "metrics", "provenance"):
        assert getattr(again, name) == getattr(original, name)
    assert again.ok and again.target_kind == "asic"


def test_cache_miss_and_hit(store: Store) -> None:
    result = _ok()
    assert store.get(result.cache_key) is None
    store.put(result)
    hit = store.get(result.cache_key)
    assert hit is not None and hit.metrics["by_key_size"]["128"]["throughput_mbps"] == 3584.0


def test_failed_is_returned_then_replaced_by_ok(store: Store) -> None:
    failed = _failed()
    store.put(failed)
    got = store.get(failed.cache_key)
    assert got is not None and got.status == "failed" and got.reason == failed.reason
    store.put(_ok())  # the retry succeeded
    rows = store.results()
    assert len(rows) == 1
    assert rows[0].status == "ok" and rows[0].reason is None and rows[0].cycles


def test_ok_is_not_replaced_by_failure(store: Store) -> None:
    good = store.put(_ok())
    kept = store.put(_failed())
    assert kept == good
    assert store.get(good.cache_key) == good


def test_filters(store: Store) -> None:
    store.put(_ok())
    store.put(_ok(target="fpga:ecp5-25k", settings={}))
    store.put(_failed(design="serpent/iterative", target="generic", settings={}))
    assert len(store.results()) == 3
    assert [r.target for r in store.results(design="aes-128/iterative")] == [
        "asic:nangate45_typ:speed", "fpga:ecp5-25k"]
    assert [r.design for r in store.results(status="failed")] == ["serpent/iterative"]
    assert store.results(design="aes-128/iterative", target="generic") == []


def test_invalid_rows_write_nothing(store: Store) -> None:
    bad = _ok()
    bad.metrics = {"throughput_mbps": float("nan")}  # not JSON
    with pytest.raises(CipherbenchError):
        store.put(bad)
    no_reason = _failed()
    no_reason.reason = None
    with pytest.raises(ValueError):
        store.put(no_reason)
    with pytest.raises(ValueError):
        store.put(Result(cache_key="k", design="d", target="t", status="maybe"))
    assert store.results() == []


def test_wal_mode_and_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    Store(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    conn.close()
    Store(path).close()  # reopening migrates nothing and keeps one version row
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 1
    conn.close()


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()
    with pytest.raises(CipherbenchError, match="newer"):
        Store(path)


@pytest.mark.parametrize("content", [b"this is not a database\n" * 200, b"\x00\xff" * 4096])
def test_corrupt_file_is_one_line_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "cipherbench.sqlite"
    path.write_bytes(content)
    with pytest.raises(CipherbenchError) as info:
        Store(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message


def test_default_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CIPHERBENCH_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    assert default_db_path() == tmp_path / "results" / "cipherbench.sqlite"
    with Store() as s:
        assert s.path.exists()
    monkeypatch.setenv("CIPHERBENCH_DB", str(tmp_path / "elsewhere.sqlite"))
    assert default_db_path() == tmp_path / "elsewhere.sqlite"


def _writer(path: str, worker: int, count: int) -> None:
    """One worker process: its own connection, ``count`` distinct rows."""
    with Store(path) as s:
        for i in range(count):
            s.put(_ok(settings={"goal": "speed", "delay_ps": i, "worker": worker}))


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    # Both workers also race to create the schema of a file that does not exist yet.
    path = str(tmp_path / "shared.sqlite")
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, w, 50)) for w in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0, 0]
    with Store(path) as s:
        rows = s.results()
    assert len(rows) == 100
    assert len({r.cache_key for r in rows}) == 100
    assert {(r.settings["worker"], r.settings["delay_ps"]) for r in rows} == {
        (w, i) for w in range(2) for i in range(50)}
