"""Reports from fake (but realistic) stored results: files, content, escaping, self-containment."""

from __future__ import annotations

import csv
import io
import re
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cipherbench import metrics
from cipherbench.report import published, tables, write_report
from cipherbench.report.plots import LOG_SPREAD, _scale, points
from cipherbench.store import Result, Store, cache_key

EVIL = "<script>alert(1)</script>/iterative"
PROV = {
    "tools": {"yosys": "0.70", "opensta": "2.6.0", "nextpnr-ecp5": "0.9"},
    "liberty": {"path": "NangateOpenCellLibrary_typical.lib", "sha256": "9e" * 32},
    "git_hash": "7147ac6",
    "date": "2025-01-01T00:00:00+00:00",
}


def _cycles(latency: int, ii: int, chained: int, ks_dec: int) -> dict[str, int]:
    return {"latency": latency, "latency_decrypt": latency, "initiation_interval": ii,
            "cycles_per_chained_block": chained, "key_setup_encrypt": 0,
            "key_setup_decrypt": ks_dec, "algorithm_setup": 0}


def _result(design: str, target: str, settings: dict, measurements: dict,
            cycles: dict[str, dict[str, int]]) -> Result:
    record = {"block_bits": 128, "io_count": 399, "cycles": cycles, "measurements": measurements}
    return Result(
        cache_key=cache_key(design, target, settings, "d" * 64),
        design=design, target=target, settings=settings, status="ok",
        measurements=measurements, cycles=cycles, metrics=metrics.derive(record),
        provenance=PROV, created="2025-01-01T00:00:00+00:00",
    )


ITER128 = {"128": _cycles(10, 10, 10, 10)}
THREE_IN_ONE = {"128": _cycles(10, 1, 10, 10), "192": _cycles(12, 1, 12, 12),
                "256": _cycles(14, 1, 14, 14)}


def _results() -> list[Result]:
    asic_speed = {"area_um2": 19_231.8, "gate_equivalents": 24_100.0, "fmax_mhz": 280.0,
                  "critical_path_ns": 3.571, "cells": 8_412, "flipflops": 530}
    asic_area = {"area_um2": 12_768.0, "gate_equivalents": 16_000.0, "fmax_mhz": 150.0,
                 "critical_path_ns": 6.667, "cells": 6_120, "flipflops": 530}
    rows = [
        _result("aes-128/iterative", "generic", {},
                {"transistors": 412_000, "cells": 9_800, "logic_depth": 31}, ITER128),
        _result("aes-128/iterative", "asic:nangate45_typ:speed", {"goal": "speed"}, asic_speed,
                ITER128),
        _result("aes-128/iterative", "asic:nangate45_typ:area", {"goal": "area"}, asic_area,
                ITER128),
        _result("aes-128/iterative", "fpga:ecp5-25k", {},
                {"luts": 3_100, "ffs": 560, "brams": 0, "dsps": 0, "fmax_mhz": 95.3}, ITER128),
        _result("aes/pipelined", "asic:nangate45_typ:speed", {"goal": "speed"},
                {"area_um2": 239_400.0, "gate_equivalents": 300_000.0, "fmax_mhz": 800.0,
                 "critical_path_ns": 1.25, "cells": 98_000, "flipflops": 4_400}, THREE_IN_ONE),
        _result(EVIL, "asic:nangate45_typ:speed", {"goal": "speed"}, asic_speed, ITER128),
    ]
    rows.append(Result(
        cache_key=cache_key("serpent/iterative", "fpga:ecp5-25k", {}, "e" * 64),
        design="serpent/iterative", target="fpga:ecp5-25k", settings={}, status="failed",
        reason="nextpnr: 31000 LUTs > 24288 available & <b>no fit</b>", provenance=PROV,
        created="2025-01-01T00:00:00+00:00",
    ))
    return rows


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("report")
    paths = write_report(_results(), out)
    return {p.name: p for p in paths}


def test_all_files_written(report: dict[str, Path]) -> None:
    # aes-128/iterative on the ASIC is a loop core of an ISO/IEC 18033-3 cipher: Sugawara Fig. 11;
    # its area and speed ends are two speed grades: NSA Table 17 and its points
    assert sorted(report) == ["nsa_speed_grades.csv", "report.html", "report.md", "results.csv",
                              "sugawara_fig11.png", "sugawara_fig11.svg",
                              "throughput_vs_area.png", "throughput_vs_area.svg"]
    assert all(p.exists() and p.stat().st_size > 0 for p in report.values())


def test_png_is_a_real_png(report: dict[str, Path]) -> None:
    data = report["throughput_vs_area.png"].read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 300 and height > 200
    assert data.endswith(b"IEND\xaeB`\x82")


def test_svg_is_well_formed(report: dict[str, Path]) -> None:
    root = ET.fromstring(report["throughput_vs_area.svg"].read_bytes())
    assert root.tag.endswith("svg")
    assert "<script" not in report["throughput_vs_area.svg"].read_text()


def test_html_is_self_contained(report: dict[str, Path]) -> None:
    page = report["report.html"].read_text(encoding="utf-8")
    loads = re.findall(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page, re.I)
    assert loads == []
    assert not re.search(r"url\(\s*['\"]?\s*(?:https?:)?//|@import|<link\b|<iframe", page, re.I)
    assert "<svg" in page and "<style>" in page  # plot and CSS inline
    assert "http:" not in page and "https:" not in page


def test_html_escapes_user_strings(report: dict[str, Path]) -> None:
    page = report["report.html"].read_text(encoding="utf-8")
    # The only scripts are the explorer's data block and its own code (tests/test_html_explorer.py)
    assert re.findall(r"<script\b[^>]*>", page, re.I) == [
        '<script type="application/json" id="cbx-data">', "<script>"]
    assert "<script" not in re.sub(r"<script\b[^>]*>.*?</script>", "", page, flags=re.S | re.I)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;/iterative" in page
    assert "<b>no fit</b>" not in page
    assert "&amp; &lt;b&gt;no fit&lt;/b&gt;" in page


def test_markdown_parameter_tables_with_published_columns(report: dict[str, Path]) -> None:
    md = report["report.md"].read_text(encoding="utf-8")
    # Finalist cores go into the NSA's per-cipher tables, not a table of their own.
    assert "### NSA Table 6 regenerated: aes 128-bit, iterative and pipelined" in md
    assert "### NSA Table 5 regenerated: aes 3-in-1, iterative and pipelined" in md
    assert "### Parameters: aes-128/iterative" not in md
    # Ours: 128 x 280 MHz / 10 = 3584 Mbps, 148.71 Kbps/GE; 10 cycles at 280 MHz = 35.71 ns.
    assert "| 3,584 |" in md and "148.71" in md and "35.71" in md
    # Published: Table 6 iterative for the 128-bit iterative core, Table 5 pipelined for 3-in-1.
    assert "NSA Table 6 128-bit iterative min" in md and "605.77" in md and "20,739,239" in md
    assert "NSA Table 5 3-in-1 pipelined max" in md and "5,337.78" in md
    assert "NSA Table 6 128-bit pipelined max" in md  # the NSA table has both architectures
    assert "0/29.28\\*" in md  # key setup / key agility, escaped for Markdown
    for row in ("Area (um2)", "Gate equivalents (GE)", "Transistor count",
                "Input/Outputs required", "Throughput, non-feedback (Mbps)",
                "Throughput, feedback (Mbps)", "Key setup time encrypt (ns)",
                "Key setup time decrypt (ns)", "Algorithm setup time (ns)",
                "Time to encrypt one block (ns)", "Time to decrypt one block (ns)", "Fmax (MHz)"):
        assert f"| {row} |" in md
    assert "\\<script\\>alert(1)\\</script\\>/iterative" in md


def test_parameter_table_of_one_design_shows_only_its_architecture() -> None:
    table = tables.parameter_table("aes-128/iterative", _results())
    assert table.title == "Parameters: aes-128/iterative"
    assert any("NSA Table 6 128-bit iterative" in h for h in table.headers)
    assert not any("pipelined" in h for h in table.headers)


def test_markdown_target_tables_failures_and_provenance(report: dict[str, Path]) -> None:
    md = report["report.md"].read_text(encoding="utf-8")
    for target in ("generic", "asic:nangate45\\_typ:speed", "asic:nangate45\\_typ:area",
                   "fpga:ecp5-25k"):
        assert f": {target}\n" in md
    assert md.index("### Generic") < md.index("### ASIC") < md.index("### FPGA")
    assert "## Failed runs" in md and "serpent/iterative" in md and "31000 LUTs" in md
    assert "9e" * 32 in md and "yosys 0.70" in md and "7147ac6" in md
    assert "![throughput vs area](throughput_vs_area.png)" in md


def test_csv_rows_and_values(report: dict[str, Path]) -> None:
    rows = list(csv.DictReader(io.StringIO(report["results.csv"].read_text(encoding="utf-8"))))
    # one row per result x key size: 5 single-key results, 3 key sizes, 1 failure
    assert len(rows) == 5 + 3 + 1
    speed = [r for r in rows if r["design"] == "aes-128/iterative"
             and r["target"] == "asic:nangate45_typ:speed"]
    assert len(speed) == 1
    assert float(speed[0]["metrics.throughput_mbps"]) == pytest.approx(3584.0)
    assert float(speed[0]["metrics.kbps_per_ge"]) == pytest.approx(148.71, abs=0.01)
    assert speed[0]["measurements.cells"] == "8412" and speed[0]["cycles.latency"] == "10"
    pipelined = [r for r in rows if r["design"] == "aes/pipelined"]
    assert [r["key_bits"] for r in pipelined] == ["128", "192", "256"]
    # 128 x 800 MHz / II 1 = 102,400 Mbps; chained 14 cycles at 256-bit keys: 7314.29 Mbps
    assert float(pipelined[0]["metrics.throughput_mbps"]) == pytest.approx(102_400.0)
    assert float(pipelined[2]["metrics.throughput_feedback_mbps"]) == pytest.approx(7314.29,
                                                                                     abs=0.01)
    failed = [r for r in rows if r["status"] == "failed"]
    assert len(failed) == 1 and "no fit" in failed[0]["reason"]


def test_csv_guards_against_spreadsheet_formulas() -> None:
    row = _results()[1]
    row.design = "=HYPERLINK(\"x\")"
    text = tables.to_csv([row])
    assert "'=HYPERLINK" in text


def test_plot_points_and_scales() -> None:
    pts = points(_results())
    kinds = {p.kind for p in pts}
    assert kinds == {"generic", "asic", "fpga"}
    generic = [p for p in pts if p.kind == "generic"]
    assert generic[0].speed_label == "Bits per cycle" and generic[0].speed == pytest.approx(12.8)
    # the 3-in-1 pipelined core has one throughput at all key sizes: one point, one label
    assert [p.label for p in pts if p.label.startswith("aes/pipelined")] == [
        "aes/pipelined (128, 192, 256)"]
    assert _scale([1.0, LOG_SPREAD * 2]) == "log" and _scale([1.0, 2.0]) == "linear"


def test_published_columns_selection() -> None:
    assert published.columns_for("serpent/iterative", [128]) == ()  # AES-only API
    assert published.nsa_columns_for("serpent/iterative", [128])  # Table 8 (3-in-1 only)
    t6 = published.columns_for("aes-128/iterative", [128])
    assert [c.table for c in t6] == ["Table 6", "Table 6"]
    assert {c.architecture for c in t6} == {"iterative"}
    # Only the NSA's two architectures are comparable: not unrolled or partial pipelines.
    assert published.columns_for("aes/unknown-arch", [128, 192, 256]) == ()
    assert published.columns_for("aes/unrolled:k=2", [128, 192, 256]) == ()
    assert published.columns_for("aes/pipelined:stages=2", [128, 192, 256]) == ()
    assert len(published.columns_for("aes/pipelined:stages=full,inner=1", [128, 192, 256])) == 2
    t5 = published.columns_for("rijndael/pipelined", [128, 192, 256])
    assert {c.table for c in t5} == {"Table 5"} and t5[0].throughput_mbps[256] == 4026.42


def test_report_from_store_and_from_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "db.sqlite") as store:
        for result in _results()[:2]:
            store.put(result)
        paths = write_report(store, tmp_path / "from_store")
    assert "aes-128/iterative" in (tmp_path / "from_store" / "report.md").read_text()
    empty = write_report([], tmp_path / "empty")
    assert all(p.exists() for p in empty)
    assert len(empty) == 5  # no Sugawara figure without results of its ciphers
    assert len(paths) == 7  # the stored ASIC result of aes-128/iterative brings Fig. 11


def test_provenance_table_with_study_style_provenance() -> None:
    row = _results()[1]
    row.provenance = {
        "design": row.design, "target": row.target, "settings": row.settings,
        "flow": "asic", "cipherbench": "0.1.0", "generator_digest": "f" * 20,
        "git": "0123abcd", "tools": {"yosys": "0.70"}, "inputs_digest": "e" * 20,
        "cache_key": row.cache_key, "date": "2025-02-03T04:05:06+00:00",
        "liberty": {"path": "/pdk/nangate45_typ.lib", "sha256": "c" * 64},
        "verification": {"vectors": 1200, "passed": 1200, "files": ["x" * 50] * 10},
    }
    table = tables.provenance_table([row])
    cells = dict(zip(table.headers, table.rows[0]))
    assert cells["Git"] == "0123abcd" and cells["Date"] == "2025-02-03T04:05:06+00:00"
    assert cells["Liberty"] == f"/pdk/nangate45_typ.lib (sha256 {'c' * 64})"
    assert cells["Tools"] == "yosys 0.70"
    assert "flow=asic" in cells["Other"] and "generator_digest=" + "f" * 20 in cells["Other"]
    assert "verification" not in cells["Other"] and "cache_key" not in cells["Other"]


def test_nsa_tables_group_by_finalist_and_key_sizes() -> None:
    speed = {"area_um2": 30_000.0, "gate_equivalents": 37_600.0, "fmax_mhz": 600.0}
    rows = [_result("serpent-128/iterative", "asic:nangate45_typ:speed", {"goal": "speed"},
                    speed, {"128": _cycles(32, 32, 32, 32)}),
            _result("serpent-128/unrolled:k=8", "asic:nangate45_typ:speed", {"goal": "speed"},
                    speed, {"128": _cycles(4, 4, 4, 4)}),
            *_results()]
    found = {t.title: t for t in tables.nsa_tables(rows)}
    serpent = found["NSA Table 8 regenerated: serpent 128-bit, iterative and pipelined"]
    # SERPENT has no 128-bit NSA table: the 3-in-1 Table 8 stands beside it, with the NSA's reason
    assert any("5.4.1.5" in note for note in serpent.notes)
    ours = [h for h in serpent.headers if "@" in h]
    assert ours == ["serpent-128/iterative @ asic:nangate45_typ:speed"]  # unrolled: no NSA column
    assert [t.title.split(":")[0] for t in tables.nsa_tables(rows)] == [
        "NSA Table 5 regenerated", "NSA Table 6 regenerated", "NSA Table 8 regenerated"]


def test_a_rerun_supersedes_the_rows_of_earlier_code() -> None:
    """Two rows of one design, target and settings (a rerun after a code change: another cache
    key): the report keeps the newer; other settings are other rows."""
    from cipherbench.report import current_rows
    from cipherbench.store import Result

    old = Result(cache_key="a", design="des-64/iterative", target="generic", status="failed",
                 reason="timed out")
    other = Result(cache_key="b", design="des-64/iterative", target="generic",
                   settings={"abc": "x"})
    new = Result(cache_key="c", design="des-64/iterative", target="generic")
    assert [r.cache_key for r in current_rows([old, other, new])] == ["b", "c"]
