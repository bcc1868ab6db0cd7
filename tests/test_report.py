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
from cipherbench.report import headline, tables, write_report
from cipherbench.report.nsa import published
from cipherbench.report.plots import LOG_SPREAD, _scale, points
from cipherbench.store import Result, Store, cache_key
from cipherbench.report import targets
from cipherbench.report import provenance
from cipherbench.report.nsa import parameters as nsa_parameters
from cipherbench.report import csv_export

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
    table = nsa_parameters.parameter_table("aes-128/iterative", _results())
    assert table.title == "Parameters: aes-128/iterative"
    assert any("NSA Table 6 128-bit iterative" in h for h in table.headers)
    assert not any("pipelined" in h for h in table.headers)


def test_markdown_target_tables_failures_and_provenance(report: dict[str, Path]) -> None:
    md = report["report.md"].read_text(encoding="utf-8")
    # one table per library: the area and speed ends are rows of nangate45_typ's
    assert md.count("### ASIC: nangate45\\_typ") == 1 and "### FPGA: fpga:ecp5-25k\n" in md
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
    text = csv_export.to_csv([row])
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
    table = provenance.provenance_table([row])
    cells = table.records()[0]
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
    found = {t.title: t for t in nsa_parameters.nsa_tables(rows)}
    serpent = found["NSA Table 8 regenerated: serpent 128-bit, iterative and pipelined"]
    # SERPENT has no 128-bit NSA table: the 3-in-1 Table 8 stands beside it, with the NSA's reason
    assert any("5.4.1.5" in note for note in serpent.notes)
    ours = [h for h in serpent.headers if "@" in h]
    assert ours == ["serpent-128/iterative @ asic:nangate45_typ:speed"]  # unrolled: no NSA column
    assert [t.title.split(":")[0] for t in nsa_parameters.nsa_tables(rows)] == [
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


# --- the headline table, designs that do not fit, speed grades, settings in words -----------

VERIFIED = {**PROV, "verification": {"failed": 0, "known_answer": 682, "random": 1000}}
# The FPGA flow's reason, as flows/fpga.py words it for a device too small.
ICE40_NO_FIT = ("does not fit device ice40-up5k: needs 13808 LUTs (ICESTORM_LC; 13700 without "
                "the I/O wrapper), has 5280")
OSU = "osu018_stdcells"
THREE_ITERATIVE = {"128": _cycles(10, 10, 10, 10), "192": _cycles(12, 12, 12, 12),
                   "256": _cycles(14, 14, 14, 14)}


def _asic(design: str, library: str, label: str, ge: float, fmax: float,
          cycles: dict[str, dict[str, int]] = ITER128, **settings: object) -> Result:
    """An ASIC row on ``library`` at the end or delay target ``label`` ("area", "d2000ps")."""
    settings = {"liberty_name": library, "liberty": f"/pdk/{library}.lib", **settings}
    if label.startswith("d"):
        settings.update(goal="delay", delay_ps=int(label[1:-2]))
    else:
        settings["goal"] = label
    suffix = ":latch" if settings.get("sequential") == "latch" else ""
    row = _result(design, f"asic:{library}:{label}{suffix}", settings,
                  {"gate_equivalents": ge, "area_um2": round(ge * 0.798, 2), "fmax_mhz": fmax,
                   "critical_path_ns": round(1000 / fmax, 3), "cells": 1, "flipflops": 1},
                  cycles)
    row.provenance = VERIFIED
    return row


def _fpga(design: str, target: str, luts: int | None, fmax: float = 95.3,
          reason: str | None = None) -> Result:
    if reason is not None:
        return Result(cache_key=cache_key(design, target, {}, "f" * 64), design=design,
                      target=target, settings={"family": target.split(":")[1]},
                      status="failed", reason=reason, provenance=PROV,
                      created="2025-01-01T00:00:00+00:00")
    row = _result(design, target, {"family": target.split(":")[1]},
                  {"luts": luts, "ffs": 600, "fmax_mhz": fmax}, ITER128)
    row.provenance = VERIFIED
    return row


def _default_study() -> list[Result]:
    """The default study's shape: AES-128 iterative on generic, osu018 (both ends), a second
    library, ECP5 and an iCE40 UP5K it does not fit; AES 3-in-1 too large for the UP5K as well."""
    generic = _result("aes-128/iterative", "generic", {},
                      {"transistors": 412_000, "cells": 9_800, "logic_depth": 31}, ITER128)
    generic.provenance = VERIFIED
    return [
        generic,
        _asic("aes-128/iterative", OSU, "area", 16_000.0, 150.0),
        _asic("aes-128/iterative", OSU, "speed", 24_100.0, 280.0),
        _asic("aes-128/iterative", "NangateOpenCellLibrary", "area", 14_000.0, 400.0),
        _fpga("aes-128/iterative", "fpga:ecp5:25k:CABGA381", 3_100),
        _fpga("aes-128/iterative", "fpga:ice40:up5k:sg48", None, reason=ICE40_NO_FIT),
        _asic("aes/iterative", OSU, "area", 20_000.0, 140.0, THREE_ITERATIVE),
        _asic("aes/pipelined", OSU, "speed", 300_000.0, 800.0, THREE_IN_ONE),
        _fpga("aes/iterative", "fpga:ice40:up5k:sg48", None, reason=ICE40_NO_FIT.replace(
            "13808", "16001")),
    ]


def _cells(table: tables.Table, design: str, target: str) -> dict[str, str]:
    found = [row for row in table.records() if row["Design"] == design and row["Target"] == target]
    assert len(found) == 1, (design, target, table.rows)
    return found[0]


def test_headline_table_best_figures_per_target_in_its_unit() -> None:
    table = headline.headline_table(_default_study())
    osu = _cells(table, "aes-128/iterative", f"ASIC {OSU}")
    # Best of the two ends, each figure from its own run: the area end's area, the speed end's
    # clock and throughput (128 x 280 / 10); efficiency 3,584,000 / 24,100 Kbps per GE beats
    # 1,920,000 / 16,000.
    assert osu == {"Design": "aes-128/iterative", "Verification": "pass",
                   "Target": f"ASIC {OSU}", "Runs": "2", "Area": "16,000 GE (12,768 um2)",
                   "Clock": "280 MHz (3.57 ns)", "Throughput": "3,584 Mbps",
                   "Efficiency": "148.71 Kbps/GE"}
    # another library is another target, never merged with osu018
    nangate = _cells(table, "aes-128/iterative", "ASIC NangateOpenCellLibrary")
    assert nangate["Area"] == "14,000 GE (11,172 um2)" and nangate["Runs"] == "1"
    generic = _cells(table, "aes-128/iterative", "generic gates")
    assert generic["Area"] == "412,000 transistors"
    assert generic["Throughput"] == "12.80 bits/cycle"
    assert generic["Clock"] == "no clock; logic depth 31" and generic["Efficiency"] == "-"
    ecp5 = _cells(table, "aes-128/iterative", "FPGA ecp5 25k")
    assert ecp5["Area"] == "3,100 LUTs" and ecp5["Efficiency"] == "0.393 Mbps/LUT"
    ice40 = _cells(table, "aes-128/iterative", "FPGA ice40 up5k")
    assert ice40["Area"] == "does not fit: needs 13,808 LCs, device has 5,280"
    assert ice40["Runs"] == "1 (does not fit)" and ice40["Verification"] == "pass"
    # a 3-in-1 core names the key size its best throughput is at (128 x 140 / 10), unless every
    # key size reaches it (a pipeline: one block per cycle at all three)
    three = _cells(table, "aes/iterative", f"ASIC {OSU}")
    assert three["Throughput"] == "1,792 Mbps (128-bit key)"
    assert three["Efficiency"] == "89.60 Kbps/GE (128-bit key)"
    assert _cells(table, "aes/pipelined", f"ASIC {OSU}")["Throughput"] == "102,400 Mbps"
    # rows: per design, generic, then each library, then each device (by name)
    assert [row["Target"] for row in table.rows_where("Design", "aes-128/iterative")] == [
        "generic gates", "ASIC NangateOpenCellLibrary", f"ASIC {OSU}", "FPGA ecp5 25k",
        "FPGA ice40 up5k"]


def test_report_opens_with_the_headline_and_counts_no_fit_apart(tmp_path: Path) -> None:
    write_report(_default_study(), tmp_path)
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "9 runs: 7 ok, 2 do not fit their device, 0 failed;" in md
    # the first table of the report is the headline, right after the summary
    first_table = md.index("\n| ")
    assert md.index("## Headline") < first_table < md.index("\n## ", md.index("## Headline"))
    assert md[first_table:].startswith("\n| Design | Verification | Target | Runs | Area |")
    # the answer is in the headline and in the device's own table, not among the failures
    fit = "does not fit: needs 13,808 LCs, device has 5,280"
    device = md.index("### FPGA: fpga:ice40:up5k:sg48")
    assert md.index(fit) < device < md.index(fit, device)
    failed = md[md.index("## Failed runs"):md.index("## Provenance")]
    assert "(none)" in failed and "ice40" not in failed
    assert "| aes-128/iterative | fpga:ice40:up5k:sg48 | does not fit |" in md  # provenance
    ice40 = next(t for t in targets.target_tables(_default_study()) if "ice40" in t.title)
    assert "Logic cells" in ice40.headers and "LUTs" not in ice40.headers
    assert provenance.failed_table(_default_study()).rows == []


def test_run_counts_wording() -> None:
    from cipherbench.report import run_counts

    rows = _default_study()
    assert run_counts(rows) == "9 runs: 7 ok, 2 do not fit their device, 0 failed"
    assert run_counts(rows[:6]) == "6 runs: 5 ok, 1 does not fit its device, 0 failed"
    assert run_counts(_results()) == "7 runs: 6 ok, 1 failed"  # "no fit" is not the flow's reason


def test_fit_text_from_the_stored_reason() -> None:
    row = _default_study()[5]
    assert tables.does_not_fit(row) and not tables.failed_run(row)
    assert tables.fit_text(row) == "does not fit: needs 13,808 LCs, device has 5,280"
    row.reason = "does not fit device ecp5-25k: needs 30000 LUTs (TRELLIS_COMB; 29900 without " \
                 "the I/O wrapper), has 24288"
    assert tables.fit_text(row) == "does not fit: needs 30,000 LUTs, device has 24,288"
    row.reason = "does not fit device ice40-up5k: needs 4 block RAMs (ICESTORM_RAM), has 0"
    assert tables.fit_text(row) == "does not fit: needs 4 block RAMs, device has 0"


def test_speed_grades_grouped_under_their_library_fastest_first() -> None:
    design = "aes-128/iterative"
    rows = [
        _asic(design, OSU, "area", 16_000.0, 150.0),
        _asic(design, OSU, "d5000ps", 18_000.0, 200.0, grade_position=0.5),
        _asic(design, OSU, "speed", 24_100.0, 280.0),
        _asic(design, OSU, "d4000ps", 20_000.0, 250.0, grade_position=0.25),
        _asic(design, OSU, "area", 17_000.0, 170.0, sequential="latch"),
        _asic(design, "NangateOpenCellLibrary", "area", 14_000.0, 400.0),
        _asic("aes-128/pipelined", OSU, "speed", 200_000.0, 500.0),
    ]
    found = targets.target_tables(rows)
    assert [t.title.split(" (")[0] for t in found] == ["ASIC: NangateOpenCellLibrary",
                                                       f"ASIC: {OSU}"]
    osu = found[1]
    settings = [(r["Design"], r["Settings"]) for r in osu.records()]
    assert settings == [
        (design, "speed-oriented"),
        (design, "delay target 4,000 ps (25 % toward the area end)"),
        (design, "delay target 5,000 ps (50 % toward the area end)"),
        (design, "area-oriented, latch pairs"),
        (design, "area-oriented"),
        ("aes-128/pipelined", "speed-oriented"),
    ]
    paths = [float(r[osu.headers.index("Critical path (ns)")]) for r in osu.rows[:5]]
    assert paths == sorted(paths)


def test_settings_in_words_defaults_left_out() -> None:
    words = tables.settings_words
    assert words({"goal": "area", "hierarchy": "bottom-up", "sequential": "latch",
                  "power": False, "structure": "keep"}) == (
        "area-oriented, bottom-up synthesis, structure kept, latch pairs, no power")
    # the generic flow's defaults say nothing; a non-default gate set does
    assert words({"blocks": True, "gates": "simple", "hierarchy": "flat",
                  "transistor_gates": "cmos"}) == ""
    assert words({"gates": "AND,NAND,OR"}) == "gates AND,NAND,OR"
    # a speed grade: its delay target first, the goal "delay" implied; Liberty details left out
    assert words({"goal": "delay", "delay_ps": 2080, "grade_position": 0.25,
                  "liberty": "/x.lib", "liberty_sha256": "ab", "module_delays_ps": {"m": [1, 2]},
                  "power": True, "dont_use": [], "dont_use_auto": ["FILL"]}) == (
        "delay target 2,080 ps (25 % toward the area end)")
    assert words({"fmax_search": True, "seeds": [1, 2, 3], "freq_mhz": 200.0}) == (
        "Fmax search, placement seeds 1, 2, 3")
    assert words({"new_knob": {"a": 1}}) == 'new_knob {"a": 1}'


def test_raw_settings_folded_into_provenance(report: dict[str, Path]) -> None:
    md = report["report.md"].read_text(encoding="utf-8")
    page = report["report.html"].read_text(encoding="utf-8")
    provenance = md[md.index("## Provenance"):]
    assert "<details><summary>Settings as stored, per run</summary>" in provenance
    assert "goal=speed" in provenance and "goal=speed" not in md[:md.index("## Provenance")]
    assert "<details><summary>Settings as stored, per run</summary>" in page
    assert "speed-oriented" in md  # the tables say it in words


def test_static_plot_panels_never_mix_units() -> None:
    from cipherbench.report.plots import panels

    rows = _default_study()
    no_ge = _asic("aes-128/iterative", OSU, "d5000ps", 18_000.0, 200.0)
    del no_ge.metrics["gate_equivalents"], no_ge.measurements["gate_equivalents"]
    groups = panels(points([*rows, no_ge]))
    for (kind, area, speed), pts in groups.items():
        assert {(p.kind, p.area_label, p.speed_label) for p in pts} == {(kind, area, speed)}
    assert list(groups) == [("generic", "Transistors", "Bits per cycle"),
                            ("asic", "Area (GE)", "Throughput (Mbps)"),
                            ("asic", "Area (um2)", "Throughput (Mbps)"),
                            ("fpga", "LUTs", "Throughput (Mbps)")]
