"""NSA Tables 13, 14, 17 and 18 (throughput per area by speed grade) regenerated from stored
results (fake but realistic rows): grades ordered by critical path, figures and %Change worked out
by hand, the NSA's printed rows beside ours."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

from cipherbench import metrics
from cipherbench.report import NSA_GRADES_SECTION, NSA_SECTION, tables, write_report
from cipherbench.report.nsa import grades as nsa_grades
from cipherbench.report.nsa import published
from cipherbench.store import Result, cache_key

LIB = "NangateOpenCellLibrary"


def _cycles(ii: int, keys: tuple[str, ...] = ("128",)) -> dict[str, dict[str, int]]:
    return {k: {"latency": ii, "latency_decrypt": ii, "initiation_interval": ii,
                "cycles_per_chained_block": ii, "key_setup_encrypt": 0, "key_setup_decrypt": 0,
                "algorithm_setup": 0} for k in keys}


def _asic(design: str, point: str, path_ns: float, area_um2: float,
          cycles: dict[str, dict[str, int]] | None = None, library: str = LIB,
          status: str = "ok", **extra: Any) -> Result:
    """An ASIC result at ``point``: "area", "speed" or "d<N>ps" (settings as the flow stores)."""
    settings: dict[str, Any] = {"goal": "area" if point == "area" else "speed", "delay_ps": None,
                                "clock_period_ns": 10.0, **extra}
    if point.startswith("d"):
        settings.update(goal="delay", delay_ps=int(point[1:-2]))
    measurements = {"area_um2": area_um2, "gate_equivalents": area_um2 / 0.798,
                    "critical_path_ns": path_ns, "fmax_mhz": round(1000.0 / path_ns, 6)}
    cycles = cycles or _cycles(10)
    target = f"asic:{library}:{point}"
    record = {"block_bits": 128, "cycles": cycles, "measurements": measurements}
    return Result(cache_key=cache_key(design, target, settings, "d" * 64), design=design,
                  target=target, settings=settings, status=status,
                  measurements=measurements if status == "ok" else {}, cycles=cycles,
                  metrics=metrics.derive(record) if status == "ok" else {},
                  reason=None if status == "ok" else "abc: timeout",
                  created="2026-01-01T00:00:00+00:00")


# aes-128/iterative, 10 cycles per block: throughput = 128 bits x (1000 / path) MHz / 10.
#   grade  point    path   Mbps     area      bits/s per um2
#   1      speed    1.0    12,800   32,000    400,000
#   2      d1250ps  1.25   10,240   20,480    500,000
#   3      d1600ps  1.6     8,000   12,800    625,000  (best)
#   4      d2000ps  2.0     6,400   12,800    500,000
#   5      area     3.2     4,000   12,500    320,000  (worst)
# %Change = (625,000 - 320,000) / 320,000 = 95.3 %
AES_POINTS = [("area", 3.2, 12_500.0), ("d2000ps", 2.0, 12_800.0), ("speed", 1.0, 32_000.0),
              ("d1600ps", 1.6, 12_800.0), ("d1250ps", 1.25, 20_480.0)]  # shuffled on purpose
AES_EXPECTED = [400_000.0, 500_000.0, 625_000.0, 500_000.0, 320_000.0]


def _results() -> list[Result]:
    rows = [_asic("aes-128/iterative", p, path, area) for p, path, area in AES_POINTS]
    rows += [
        # not points of the sweep: a failed run, another structure, the generic and FPGA flows
        _asic("aes-128/iterative", "d900ps", 0.9, 40_000.0, status="failed"),
        _asic("aes-128/iterative", "speed:keep", 0.95, 33_000.0, structure="keep"),
        # rc6 has a single point: no grades, the NSA row stands alone
        _asic("rc6-128/iterative", "area", 4.0, 9_000.0, _cycles(20)),
        # serpent's two ends are the same netlist: one point, no grades
        _asic("serpent-128/iterative", "area", 2.0, 8_000.0, _cycles(32)),
        _asic("serpent-128/iterative", "speed", 2.0, 8_000.0, _cycles(32)),
        # not an NSA architecture
        _asic("aes-128/unrolled:k=2", "area", 3.0, 20_000.0, _cycles(5)),
        _asic("aes-128/unrolled:k=2", "speed", 2.0, 25_000.0, _cycles(5)),
    ]
    return rows


ALGORITHM = "Algorithm (NSA row)"


def _row(table: tables.Table, name: str, design: str = "-") -> dict[str, str]:
    found = [r for r in table.rows_where(ALGORITHM, name) if r["Design"] == design]
    assert len(found) == 1, (name, design, table.rows)
    return found[0]


def test_percent_change_is_the_nsa_formula() -> None:
    """(max - min) / min x 100 gives every printed %Change but one, which the same row printed
    to three decimals in Table 17 explains (the NSA rounded after computing)."""
    for row in published.NSA_THROUGHPUT_PER_AREA:
        change = nsa_grades.percent_change(row.speeds)
        if (row.table, row.row) == ("Table 13", "MARS"):
            assert round(change) == 49  # from 0.55 / 0.37 as printed; Table 17: 0.554 / 0.365
            continue
        assert round(change) == row.percent_change, (row.table, row.row, change)
    assert nsa_grades.percent_change([4.49, 4.58, 4.16, 3.39, 3.55]) == pytest.approx(
        (4.58 - 3.39) / 3.39 * 100)
    assert nsa_grades.percent_change([1.0]) is None
    assert nsa_grades.percent_change([1.0, None]) is None
    assert nsa_grades.best_grade([4.49, 4.58, 4.16, 3.39, 3.55]) == 2
    assert nsa_grades.best_grade([2.0, None, 2.0]) == 1  # a tie goes to the faster grade


def test_speed_grades_order_by_critical_path() -> None:
    series = nsa_grades.speed_grades(_results())
    assert [(s.design, s.library, s.cores, s.architecture) for s in series] == [
        ("aes-128/iterative", LIB, "128-bit", "iterative")]  # rc6/serpent: one point each
    aes = series[0]
    assert [p.result.target.split(":")[2] for p in aes.points] == [
        "speed", "d1250ps", "d1600ps", "d2000ps", "area"]
    assert [p.grade for p in aes.points] == [1, 2, 3, 4, 5]
    assert [p.critical_path_ns for p in aes.points] == [1.0, 1.25, 1.6, 2.0, 3.2]
    assert [p.throughput_mbps("128") for p in aes.points] == pytest.approx(
        [12_800, 10_240, 8_000, 6_400, 4_000])
    assert aes.values("128") == pytest.approx(AES_EXPECTED)


def test_single_point_gets_no_grades_and_two_points_do() -> None:
    one = [_asic("twofish-128/iterative", "d1500ps", 1.5, 10_000.0, _cycles(16))]
    assert nsa_grades.speed_grades(one) == []
    assert nsa_grades.grade_tables(one) == []
    two = [*one, _asic("twofish-128/iterative", "area", 2.5, 8_000.0, _cycles(16))]
    (series,) = nsa_grades.speed_grades(two)
    assert [p.grade for p in series.points] == [1, 2]
    # 128 x 666.67 MHz / 16 = 5,333 Mbps over 10,000 um2; 128 x 400 / 16 = 3,200 over 8,000
    assert series.values("128") == pytest.approx([533_333.3, 400_000.0], rel=1e-6)


def test_table_17_ours_beside_the_nsa() -> None:
    found = nsa_grades.grade_tables(_results())
    # nothing pipelined or 3-in-1: Tables 13, 14 and 18 are left out
    assert [t.title for t in found] == [("NSA Table 17 regenerated: throughput per area by speed "
                                         "grade, 128-bit, iterative (bits/s per um2)")]
    table = found[0]
    assert table.headers[:11] == ["Algorithm (NSA row)", "Key size", "Design", "Library",
                                  "Speed 1", "Speed 2", "Speed 3", "Speed 4", "Speed 5",
                                  "%Change (high-low)", "Best"]
    assert table.groups == [("", 4), (nsa_grades.OURS_GROUP, 7), (nsa_grades.THEIRS_GROUP, 7),
                            ("", 1)]
    assert table.groups[2][0].startswith("published")  # shaded in the HTML
    # every NSA row, in the NSA's order; ours beside RIJNDAEL
    assert table.column(ALGORITHM) == ["MARS", "RC6", "RIJNDAEL", "SERPENT", "TWOFISH"]
    aes = _row(table, "RIJNDAEL", "aes-128/iterative")
    assert [aes[f"Speed {i}"] for i in range(1, 6)] == [
        "400,000", "500,000", "625,000", "500,000", "320,000"]
    assert aes["%Change (high-low)"] == "95%" and aes["Best"] == "3"
    assert aes["Key size"] == "128" and aes["Library"] == f"{LIB} (45 nm)"
    assert aes["Best ours/NSA (0.5 um rows)"] == "-"  # 45 nm: no ratio to the NSA's 0.5 um
    assert [aes[f"NSA Speed {i}"] for i in range(1, 6)] == [
        "17.895", "17.283", "20.358", "18.076", "14.947"]
    assert aes["NSA %Change"] == "36%" and aes["NSA best"] == "3"
    rc6 = _row(table, "RC6")  # one point only: published values, "-" for ours
    assert [rc6[f"Speed {i}"] for i in range(1, 6)] == ["-"] * 5
    assert rc6["%Change (high-low)"] == "-" and rc6["NSA Speed 1"] == "5.76"
    assert rc6["NSA %Change"] == "56%" and rc6["NSA best"] == "1"
    notes = " ".join(table.notes)
    assert "Table 17 (section 7.2.3)" in notes and "0.5 um" in notes
    assert "(max - min) / min x 100" in notes and "incomparable" in notes


def test_more_points_than_five_widen_ours_only() -> None:
    rows = _results() + [_asic("aes-128/iterative", "d1100ps", 1.1, 28_000.0),
                         _asic("aes-128/iterative", "speed", 1.0, 32_000.0, library="other_lib")]
    (table,) = nsa_grades.grade_tables(rows)
    assert [h for h in table.headers if h.startswith("Speed")] == [f"Speed {i}"
                                                                  for i in range(1, 7)]
    assert len([h for h in table.headers if h.startswith("NSA Speed")]) == 5
    aes = _row(table, "RIJNDAEL", "aes-128/iterative")
    # 128 x 909.09 / 10 = 11,636 Mbps over 28,000 um2 = 415,584 bits/s per um2, grade 2
    assert aes["Speed 2"] == "415,584.42" and aes["Speed 6"] == "320,000"
    # other_lib has a single point: a series of its own would need two
    assert [r["Library"] for r in table.rows_where(ALGORITHM, "RIJNDAEL")] == [f"{LIB} (45 nm)"]


def test_three_in_one_rows_per_key_and_one_row_when_keys_agree() -> None:
    keys = ("128", "192", "256")
    iterative = {k: _cycles(ii)["128"] for k, ii in zip(keys, (10, 12, 14))}
    pipelined = _cycles(1, keys)
    rows = [_asic("aes/iterative", "speed", 1.0, 32_000.0, iterative),
            _asic("aes/iterative", "area", 2.0, 16_000.0, iterative),
            _asic("aes/pipelined", "speed", 1.0, 320_000.0, pipelined),
            _asic("aes/pipelined", "d1500ps", 1.5, 200_000.0, pipelined)]
    t13, t14 = nsa_grades.grade_tables(rows)
    assert t13.title.startswith("NSA Table 13") and "3-in-1, iterative" in t13.title
    assert t14.title.startswith("NSA Table 14") and "3-in-1, pipelined" in t14.title
    # Table 13 prints RIJNDAEL per key size: 128 x 1000 MHz / 12 over 32,000 um2 = 333,333
    r192 = _row(t13, "RIJNDAEL192", "aes/iterative")
    assert r192["Key size"] == "192" and r192["Speed 1"] == "333,333.33"
    assert r192["Speed 2"] == "333,333.33" and r192["%Change (high-low)"] == "0%"
    assert r192["NSA Speed 1"] == "13.24" and r192["NSA %Change"] == "95%"
    assert _row(t13, "RIJNDAEL128", "aes/iterative")["Speed 1"] == "400,000"
    # Table 14 has one RIJNDAEL row; our pipeline's figures agree at all key sizes: one row
    aes = _row(t14, "RIJNDAEL", "aes/pipelined")
    assert aes["Key size"] == "128, 192, 256"
    # 128 x 1000 / 1 over 320,000 = 400,000; 128 x 666.67 over 200,000 = 426,667
    assert aes["Speed 1"] == "400,000" and aes["Speed 2"] == "426,666.67" and aes["Best"] == "2"
    assert aes["%Change (high-low)"] == "7%" and aes["NSA Speed 2"] == "28.6"


def test_ranking_note_per_library() -> None:
    rows = _results() + [_asic("rc6-128/iterative", "speed", 2.0, 10_000.0, _cycles(20))]
    (table,) = nsa_grades.grade_tables(rows)
    rc6 = _row(table, "RC6", "rc6-128/iterative")
    # 128 x 500 / 20 over 10,000 = 320,000; the area end: 128 x 250 / 20 over 9,000 = 177,778
    assert rc6["Speed 1"] == "320,000" and rc6["Speed 2"] == "177,777.78"
    assert f"Ranking by best grade, {LIB} (45 nm): ours aes > rc6; NSA aes > rc6." in table.notes


def test_grades_csv_has_every_point() -> None:
    text = nsa_grades.grades_csv(_results())
    assert text is not None
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["target"] for r in rows] == [f"asic:{LIB}:{p}" for p in
                                           ("speed", "d1250ps", "d1600ps", "d2000ps", "area")]
    assert [r["grade"] for r in rows] == ["1", "2", "3", "4", "5"]
    assert {r["nsa_table"] for r in rows} == {"Table 17"} and rows[0]["grades"] == "5"
    assert [r["delay_ps"] for r in rows] == ["", "1250", "1600", "2000", ""]
    assert [float(r["throughput_per_area_bps_um2"]) for r in rows] == pytest.approx(AES_EXPECTED)
    assert nsa_grades.grades_csv(_results()[5:]) is None


def test_report_section_follows_the_nsa_tables(tmp_path: Path) -> None:
    extra = [_asic("aes-128/pipelined", "speed", 1.0, 300_000.0, _cycles(1))]
    paths = write_report(_results() + extra, tmp_path)
    assert tmp_path / "nsa_speed_grades.csv" in paths
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert md.index(f"## {NSA_SECTION}") < md.index(f"## {tables.md_escape(NSA_GRADES_SECTION)}")
    following = md[md.index(f"## {tables.md_escape(NSA_GRADES_SECTION)}"):]
    assert following.index("### NSA Table 17 regenerated") < following.index("## Parameters per")
    assert ("| RIJNDAEL | 128 | aes-128/iterative | NangateOpenCellLibrary (45 nm) | 400,000 |"
            in md)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "NSA Table 17 regenerated: throughput per area by speed grade" in page
    assert 'class="published">17.895<' in page
    without = write_report(_results()[5:], tmp_path / "none")
    assert not (tmp_path / "none" / "nsa_speed_grades.csv").exists()
    assert all(p.name != "nsa_speed_grades.csv" for p in without)
    assert "throughput per area by speed grade" not in (tmp_path / "none" / "report.md").read_text()


def test_a_report_without_grades_removes_an_earlier_grades_csv(tmp_path: Path) -> None:
    from cipherbench.report import GRADES_CSV, write_report

    stale = tmp_path / GRADES_CSV
    stale.write_text("from an earlier report\n")
    sugawara = tmp_path / "sugawara_fig11.png"
    sugawara.write_bytes(b"old")
    write_report([], tmp_path)
    assert not stale.exists() and not sugawara.exists()


def test_rows_at_the_nsas_node_get_the_ratio_of_best_grades() -> None:
    # osu050 (0.5 um): 128 x 100 MHz / 10 = 1,280 Mbps over 32,000,000 um2 = 40 bits/s per um2;
    # 128 x 31.25 / 10 = 400 Mbps over 12,500,000 = 32. Table 17 RIJNDAEL's best grade: 20.358.
    osu = [_asic("aes-128/iterative", "speed", 10.0, 32_000_000.0, library="osu05_stdcells"),
           _asic("aes-128/iterative", "area", 32.0, 12_500_000.0, library="osu05_stdcells")]
    table = nsa_grades.grade_table("Table 17", _results() + osu)
    assert table is not None
    ours = table.rows_where(ALGORITHM, "RIJNDAEL")
    by_library = {row["Library"]: row for row in ours}
    assert by_library["osu05_stdcells (0.5 um)"]["Best ours/NSA (0.5 um rows)"] == "1.96"
    assert by_library[f"{LIB} (45 nm)"]["Best ours/NSA (0.5 um rows)"] == "-"
    assert ("Best ours/NSA at 0.5 um: median ratio and spread (min-max, n) 1.96 (1.96-1.96, "
            "n=1).") in table.notes
