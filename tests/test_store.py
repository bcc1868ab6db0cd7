"""The results store on SQLite and PostgreSQL: round trip, caching, replacement rules,
concurrent writers, locations, bad files. Every contract test runs on both backends; the
PostgreSQL ones skip when no test server is configured (see storecases.py)."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path
from typing import Iterator

import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.store import (SCHEMA_VERSION, Result, Store, cache_key, default_db_path,
                               parse_location, store_exists)
from storecases import BACKENDS, DIGEST, database, failed_result, ok_result

_ok, _failed = ok_result, failed_result


@pytest.fixture(params=BACKENDS)
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as where:
        yield where


@pytest.fixture
def store(location: str) -> Iterator[Store]:
    with Store(location) as s:
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
    assert stored.origin is None  # measured here
    again = store.get(original.cache_key)
    assert again == stored
    for name in ("cache_key", "design", "target", "settings", "status", "reason",
                 "measurements", "cycles", "metrics", "provenance"):
        assert getattr(again, name) == getattr(original, name)
    assert again.ok and again.target_kind == "asic"
    # Floats and ints come back as the same Python types on both backends.
    assert again.measurements["area_um2"] == 19_231.8 and again.measurements["cells"] == 8_412
    assert isinstance(again.measurements["cells"], int)


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


def test_ok_is_replaced_by_newer_ok(store: Store) -> None:
    first = store.put(_ok())
    rerun = _ok()
    rerun.measurements = {**rerun.measurements, "area_um2": 18_000.0}
    second = store.put(rerun)
    assert second.id == first.id and second.measurements["area_um2"] == 18_000.0
    assert len(store.results()) == 1


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


def test_store_id_is_stable(location: str) -> None:
    with Store(location) as s:
        first = s.store_id
    with Store(location) as s:
        assert s.store_id == first and len(first) == 32
        assert s.origin().endswith(f":{first}")


def _writer(location: str, worker: int, count: int) -> None:
    """One worker process: its own connection, ``count`` rows of its own and some shared keys."""
    with Store(location) as s:
        for i in range(count):
            s.put(_ok(settings={"goal": "speed", "delay_ps": i, "worker": worker}))
            if i % 5 == 0:  # every worker writes these same ten keys: one row each must remain
                s.put(_ok(settings={"goal": "speed", "delay_ps": i, "shared": True}))


def test_concurrent_writers_lose_nothing(location: str) -> None:
    # The workers also race to create the schema of a database that does not exist yet.
    workers, count = 4, 50
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(location, w, count)) for w in range(workers)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=300)
    assert [p.exitcode for p in procs] == [0] * workers
    with Store(location) as s:
        rows = s.results()
    assert len(rows) == workers * count + count // 5
    assert len({r.cache_key for r in rows}) == len(rows)
    assert {(r.settings["worker"], r.settings["delay_ps"]) for r in rows
            if "worker" in r.settings} == {(w, i) for w in range(workers) for i in range(count)}
    assert sorted(r.settings["delay_ps"] for r in rows if "shared" in r.settings) == list(
        range(0, count, 5))


# --- SQLite specifics --------------------------------------------------------------------------

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
        assert s.path is not None and s.path.exists() and s.backend == "sqlite"
    monkeypatch.setenv("CIPHERBENCH_DB", str(tmp_path / "elsewhere.sqlite"))
    assert default_db_path() == tmp_path / "elsewhere.sqlite"
    monkeypatch.setenv("CIPHERBENCH_DB", f"sqlite:///{tmp_path}/url.sqlite")
    assert default_db_path() == tmp_path / "url.sqlite"
    url = "postgresql://cb:secret@db.example:5433/results"
    monkeypatch.setenv("CIPHERBENCH_DB", url)
    assert default_db_path() == url  # a URL stays text: Path would fold its "//"


def test_locations() -> None:
    assert parse_location("results/x.sqlite").path == Path("results/x.sqlite")
    assert parse_location("sqlite:///results/x.sqlite").path == Path("results/x.sqlite")
    assert parse_location("sqlite:////tmp/x.sqlite").path == Path("/tmp/x.sqlite")
    pg = parse_location("postgresql://cb:secret@db.example:5433/results?sslmode=require")
    assert pg.backend == "postgresql" and pg.path is None
    assert pg.display() == "postgresql://cb@db.example:5433/results"  # no password, no query
    assert parse_location("postgres://h/db").backend == "postgresql"
    for bad, fragment in (("mysql://h/db", "unsupported database URL scheme 'mysql'"),
                          ("sqlite:///", "no file"), ("  ", "empty")):
        with pytest.raises(CipherbenchError, match=fragment):
            parse_location(bad)


def test_sqlite_url_opens_the_file(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path}/via-url.sqlite") as s:
        s.put(_ok())
    with Store(tmp_path / "via-url.sqlite") as s:
        assert len(s.results()) == 1


def test_missing_sqlite_file_is_not_created_by_a_check(tmp_path: Path) -> None:
    assert not store_exists(tmp_path / "none.sqlite")
    assert store_exists("postgresql://h/db")  # decided on connect, not here
    assert not (tmp_path / "none.sqlite").exists()


def test_unreachable_postgresql_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("psycopg", reason="psycopg 3 is a dependency: pip install -e .")
    url = f"postgresql://nobody:hunter2@/cb?host={tmp_path}/no-server"
    with pytest.raises(CipherbenchError) as info:
        Store(url)
    message = str(info.value)
    assert "\n" not in message and "hunter2" not in message
    assert message.startswith("postgresql://nobody@/cb: cannot use the PostgreSQL results")


def test_locked_writes_are_retried_then_reported(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import cipherbench.store.core as core

    monkeypatch.setattr(core, "_RETRY_BASE_S", 0.0)
    with Store(tmp_path / "db.sqlite") as store:
        attempts: list[int] = []

        def flaky() -> str:
            attempts.append(1)
            if len(attempts) < 3:  # what SQLite says when the busy handler was not consulted
                raise sqlite3.OperationalError("database is locked")
            return "written"

        assert store._guarded(flaky) == "written" and len(attempts) == 3

        def stuck() -> None:
            raise sqlite3.OperationalError("database is locked")

        with pytest.raises(CipherbenchError, match="stayed locked by another process"):
            store._guarded(stuck)
