"""`cipherbench export` and `cipherbench import`: JSON and CSV with provenance, globs, merging
another machine's results (added, identical, conflicting, --replace), and malformed files that
write nothing."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cipherbench.errors import CipherbenchError
from cipherbench.store import Result, Store
from cipherbench.store.model import COLUMNS
from storecases import database, failed_result, ok_result

_LOCAL = [c for c in COLUMNS if c != "origin"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cipherbench.cli", *args], capture_output=True,
                          text=True, timeout=300)


def one_line_error(proc: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], lines


def _sample() -> list[Result]:
    return [ok_result(), ok_result(target="fpga:ecp5-25k", settings={}),
            ok_result(design="aes/iterative", target="generic", settings={}),
            failed_result(design="serpent/iterative", target="generic", settings={})]


def _fill(location: str) -> tuple[list[Result], str]:
    with Store(location) as store:
        rows = [store.put(r) for r in _sample()]
        return rows, store.origin()


def _plain(result: Result) -> dict[str, Any]:
    return {name: getattr(result, name) for name in _LOCAL}


@pytest.mark.parametrize("source,dest", [("sqlite", "sqlite"), ("sqlite", "postgresql"),
                                         ("postgresql", "sqlite")])
def test_round_trip_between_machines(source: str, dest: str, tmp_path: Path) -> None:
    export = tmp_path / "export.json"
    with database(source, tmp_path, "a") as a, database(dest, tmp_path, "b") as b:
        rows, origin = _fill(a)
        done = cli("export", "--db", a, "-o", str(export))
        assert done.returncode == 0, done.stderr
        assert f"{len(rows)} results" in done.stdout
        merged = cli("import", str(export), "--db", b)
        assert merged.returncode == 0, merged.stderr
        assert merged.stdout.startswith("import: 4 added, 0 identical, 0 updated, 0 kept, "
                                        "0 conflicting")
        with Store(b) as store:
            imported = store.results()
        assert [_plain(r) for r in imported] == [_plain(r) for r in rows]
        assert {r.origin for r in imported} == {origin}  # who measured them travels along
        again = cli("import", str(export), "--db", b)  # merging twice changes nothing
        assert again.stdout.startswith("import: 0 added, 4 identical"), again.stdout
        with Store(b) as store:
            assert len(store.results()) == len(rows)


def test_json_export_carries_provenance(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    rows, origin = _fill(db)
    proc = cli("export", "--db", db)  # JSON on standard output by default
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert document["format"] == "cipherbench-results" and document["format_version"] == 1
    exported = document["exported"]
    with Store(db) as store:
        assert exported["store_id"] == store.store_id
    assert exported["store"] == str(Path(db).resolve()) and exported["backend"] == "sqlite"
    assert exported["origin"] == origin and exported["count"] == 4
    assert exported["schema_version"] == 2 and exported["cipherbench"]
    first = document["results"][0]
    assert set(first) == set(COLUMNS) and "id" not in first
    assert first["provenance"]["liberty"]["sha256"] == "ab" * 32
    assert first["measurements"]["area_um2"] == 19_231.8
    assert [r["cache_key"] for r in document["results"]] == [r.cache_key for r in rows]


def test_globs_select_designs_and_targets(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    _fill(db)

    def designs_targets(*args: str) -> list[tuple[str, str]]:
        proc = cli("export", "--db", db, *args)
        assert proc.returncode == 0, proc.stderr
        return [(r["design"], r["target"]) for r in json.loads(proc.stdout)["results"]]

    assert designs_targets("--design", "aes-*") == [
        ("aes-128/iterative", "asic:nangate45_typ:speed"), ("aes-128/iterative", "fpga:ecp5-25k")]
    assert designs_targets("--target", "generic") == [
        ("aes/iterative", "generic"), ("serpent/iterative", "generic")]
    assert designs_targets("--design", "aes*", "--target", "asic:*") == [
        ("aes-128/iterative", "asic:nangate45_typ:speed")]
    assert designs_targets("--design", "twofish/*") == []


def test_csv_is_flat_with_provenance_columns(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    rows, origin = _fill(db)
    out = tmp_path / "results.csv"  # the suffix picks the format
    proc = cli("export", "--db", db, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    table = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(table) == 4
    header = list(table[0])
    assert header[:7] == ["cache_key", "design", "target", "status", "reason", "created",
                          "origin"]
    for column in ("settings.goal", "measurements.area_um2", "cycles.128.latency",
                   "metrics.by_key_size.128.throughput_mbps", "provenance.tools.yosys",
                   "provenance.liberty.sha256", "provenance.git_hash"):
        assert column in header
    first, failed = table[0], table[3]
    assert first["cache_key"] == rows[0].cache_key and first["origin"] == origin
    assert float(first["measurements.area_um2"]) == 19_231.8
    assert int(first["cycles.128.latency"]) == 10 and first["provenance.tools.sta"] == "2.6.0"
    assert failed["status"] == "failed" and failed["reason"] == "sta: no clock on port clk"
    assert failed["measurements.area_um2"] == ""


def _export_of(results: list[Result], tmp_path: Path, name: str = "theirs") -> Path:
    with database("sqlite", tmp_path, name) as where:
        with Store(where) as store:
            for result in results:
                store.put(result)
        path = tmp_path / f"{name}.json"
        assert cli("export", "--db", where, "-o", str(path)).returncode == 0
        return path


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_import_merges_by_cache_key(backend: str, tmp_path: Path) -> None:
    same = ok_result()
    differs_ours = ok_result(target="fpga:ecp5-25k", settings={})
    differs_theirs = ok_result(target="fpga:ecp5-25k", settings={})
    differs_theirs.measurements = {**differs_theirs.measurements, "luts": 2_310}
    failed_here = failed_result(design="aes/iterative", target="generic", settings={})
    ok_there = ok_result(design="aes/iterative", target="generic", settings={})
    ok_here = ok_result(design="des/iterative", target="generic", settings={})
    failed_there = failed_result(design="des/iterative", target="generic", settings={})
    new = ok_result(design="camellia-128/iterative", target="generic", settings={})
    theirs = _export_of([same, differs_theirs, ok_there, failed_there, new], tmp_path)
    with database(backend, tmp_path, "ours") as ours:
        with Store(ours) as store:
            for result in (same, differs_ours, failed_here, ok_here):
                store.put(result)
        proc = cli("import", str(theirs), "--db", ours)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith("import: 1 added, 1 identical, 1 updated, 1 kept, "
                                      "1 conflicting"), proc.stdout
        assert "conflict (kept ours; --replace takes theirs): aes-128/iterative on " \
               "fpga:ecp5-25k" in proc.stderr and "measurements differ" in proc.stderr
        with Store(ours) as store:
            assert store.get(differs_ours.cache_key).measurements.get("luts") is None
            assert store.get(ok_there.cache_key).ok  # our failure gave way, as a re-run would
            assert store.get(ok_here.cache_key).ok  # our success is not undone by theirs failing
            assert store.get(new.cache_key) is not None and len(store.results()) == 5
        proc = cli("import", str(theirs), "--db", ours, "--replace")
        assert proc.returncode == 0, proc.stderr
        assert "1 conflicting, 1 replaced" in proc.stdout
        with Store(ours) as store:
            assert store.get(differs_ours.cache_key).measurements["luts"] == 2_310
            assert len(store.results()) == 5


def _valid_document(tmp_path: Path) -> dict[str, Any]:
    return json.loads(_export_of(_sample(), tmp_path, "valid").read_text())


def _bad_files(tmp_path: Path) -> dict[str, tuple[str, str]]:
    doc = _valid_document(tmp_path)

    def variant(change: Any) -> str:
        copy = json.loads(json.dumps(doc))
        change(copy)
        return json.dumps(copy)

    last = len(doc["results"])
    return {
        "truncated": (json.dumps(doc)[:-40], "not JSON"),
        "nan": (json.dumps(doc).replace("19231.8", "NaN", 1), "not JSON"),
        "other-format": ('{"results": []}', "not a cipherbench results export"),
        "future": (variant(lambda d: d.update(format_version=9)), "format version 9"),
        "no-list": (variant(lambda d: d.update(results={})), "must be a list"),
        "missing": (variant(lambda d: d["results"][last - 1].pop("metrics")),
                    f"result {last}: unknown field(s) [], missing field(s) ['metrics']"),
        "status": (variant(lambda d: d["results"][last - 1].update(status="maybe")),
                   f"result {last}: Result.status must be one of"),
        "no-reason": (variant(lambda d: d["results"][last - 1].update(reason=None)),
                      "a failed Result must carry its reason"),
        "type": (variant(lambda d: d["results"][1].update(settings=[1])),
                 "result 2: Result.settings must be a dict"),
        "twice": (variant(lambda d: d["results"].append(d["results"][0])),
                  f"result {last + 1}: cache key"),
    }


def test_malformed_files_write_nothing(tmp_path: Path) -> None:
    existing = tmp_path / "ours.sqlite"
    with Store(existing) as store:
        store.put(ok_result(design="des/iterative"))
    for name, (text, fragment) in _bad_files(tmp_path).items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        fresh = tmp_path / f"fresh-{name}.sqlite"
        one_line_error(cli("import", str(path), "--db", str(fresh)), fragment)
        assert not fresh.exists(), name  # not even an empty database is left behind
        one_line_error(cli("import", str(path), "--db", str(existing)), fragment)
        with Store(existing) as store:
            assert [r.design for r in store.results()] == ["des/iterative"], name
    one_line_error(cli("import", str(tmp_path / "absent.json"), "--db", str(existing)),
                   "cannot read")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_import_is_one_transaction(backend: str, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    rows = _sample()
    with database(backend, tmp_path) as where, Store(where) as store:
        calls = []
        original = Store._merge_one

        def failing(self: Store, *args: Any) -> None:
            calls.append(1)
            if len(calls) == 3:
                raise CipherbenchError("disk full (simulated)")
            original(self, *args)

        monkeypatch.setattr(Store, "_merge_one", failing)
        with pytest.raises(CipherbenchError, match="simulated"):
            store.merge(rows)
        monkeypatch.undo()
        assert store.results() == []  # the two rows written before the failure were undone
        report = store.merge(rows)
        assert (report.added, report.identical) == (4, 0) and len(store.results()) == 4


def test_export_needs_an_existing_database(tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite"
    one_line_error(cli("export", "--db", str(missing)), "no results database at")
    assert not missing.exists()
    one_line_error(cli("export", "--db", "mysql://h/db"), "unsupported database URL scheme")
