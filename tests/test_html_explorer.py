"""The report's interactive explorer: its embedded data (pure Python) and its script, run in
headless Chromium (Debian ``chromium`` driven by Playwright through ``executable_path``).

The browser tests are skipped when Playwright or Chromium is missing: both are optional
(scripts/setup.sh installs them; Playwright's own browser downloads are not used).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from cipherbench import metrics
from cipherbench.report import explorer, markup, write_report
from cipherbench.store import Result, cache_key

EVIL = '<img src=x onerror="alert(1)"></script>/iterative'


def _cycles(ii: int, latency: int | None = None) -> dict[str, int]:
    latency = latency or ii
    return {"latency": latency, "latency_decrypt": latency, "initiation_interval": ii,
            "cycles_per_chained_block": latency, "key_setup_encrypt": 0,
            "key_setup_decrypt": latency, "algorithm_setup": 0}


def _result(design: str, target: str, measurements: dict[str, Any],
            cycles: dict[str, dict[str, int]], status: str = "ok") -> Result:
    record = {"block_bits": 128, "io_count": 300, "cycles": cycles, "measurements": measurements}
    ok = status == "ok"
    return Result(
        cache_key=cache_key(design, target, {}, "d" * 64), design=design, target=target,
        status=status, reason=None if ok else "did not fit",
        measurements=measurements if ok else {}, cycles=cycles if ok else {},
        metrics=metrics.derive(record) if ok else {}, created="2025-01-01T00:00:00+00:00")


# (design, target, area figure, area, fmax MHz or None, initiation interval, key sizes):
# area is GE on the ASIC, LUTs on the FPGA, transistors on the generic target.
SPEC: list[tuple[str, str, str, float, float | None, int, tuple[str, ...]]] = [
    ("aes-128/iterative", "generic", "transistors", 412_000, None, 10, ("128",)),
    ("aes-128/iterative", "asic:nangate45_typ:speed", "gate_equivalents", 24_100, 280.0, 10,
     ("128",)),
    ("aes-128/iterative", "asic:nangate45_typ:area", "gate_equivalents", 16_000, 150.0, 10,
     ("128",)),
    # a speed grade of the same library: a row of its table, between the two ends
    ("aes-128/iterative", "asic:nangate45_typ:d2000ps", "gate_equivalents", 19_000, 200.0, 10,
     ("128",)),
    # a row without a clock (no timing): sorts last, never plotted against throughput
    ("rc6-128/iterative", "asic:nangate45_typ:area", "gate_equivalents", 40_000, None, 20,
     ("128",)),
    ("aes/pipelined", "asic:nangate45_typ:speed", "gate_equivalents", 300_000, 800.0, 1,
     ("128", "192", "256")),
    ("serpent-128/iterative", "asic:nangate45_typ:speed", "gate_equivalents", 30_000, 200.0, 32,
     ("128",)),
    ("twofish-128/iterative", "asic:nangate45_typ:speed", "gate_equivalents", 20_000, 100.0, 16,
     ("128",)),
    (EVIL, "asic:nangate45_typ:speed", "gate_equivalents", 50_000, 100.0, 10, ("128",)),
    ("aes-128/iterative", "fpga:ecp5-25k", "luts", 3_100, 95.3, 10, ("128",)),
    ("serpent-128/iterative", "fpga:ecp5-25k", "luts", 5_000, 60.0, 32, ("128",)),
]


def _results() -> list[Result]:
    rows = []
    for design, target, area_name, area, fmax, ii, keys in SPEC:
        meas: dict[str, Any] = {area_name: area}
        if fmax is not None:
            meas["fmax_mhz"] = fmax
        rows.append(_result(design, target, meas, {k: _cycles(ii, ii + 4) for k in keys}))
    rows.append(_result("twofish-128/iterative", "fpga:ecp5-25k", {}, {}, status="failed"))
    return rows


# Each kind's own area column in the explorer, and the kinds in report order.
AREA_COLUMN = {"generic": "transistors", "asic": "gate_equivalents", "fpga": "luts"}
AREA_LABEL = {"generic": "Area (transistors)", "asic": "Area (GE)",
              "fpga": "Area (LUTs; iCE40: logic cells)"}
KINDS = ["generic", "asic", "fpga"]


def _expected_rows(kind: str | None = None) -> list[dict[str, Any]]:
    """Independently of the report code: one row per result and key size with area and the
    throughput 128 x f / II (None without a clock)."""
    rows = [{"design": d, "target": t, "key": k, "kind": t.split(":")[0], "area": area,
             "throughput": 128 * fmax / ii if fmax else None, "bits_per_cycle": 128 / ii}
            for d, t, _name, area, fmax, ii, keys in SPEC for k in keys]
    return [r for r in rows if kind is None or r["kind"] == kind]


def _pareto(points: list[dict[str, Any]], x: str, y: str) -> list[tuple[str, str, str]]:
    """Minimise x, maximise y: the points no other point matches on both and beats on one."""
    def dominated(p: dict[str, Any]) -> bool:
        return any(q[x] <= p[x] and q[y] >= p[y] and (q[x] < p[x] or q[y] > p[y])
                   for q in points)
    return sorted((p["design"], p["target"], p["key"]) for p in points if not dominated(p))


# --- pure Python -------------------------------------------------------------------------


def test_rows_one_per_result_and_key_size() -> None:
    rows = explorer.explorer_rows(_results())
    assert len(rows) == len(_expected_rows()) == 13  # the failed run is left out
    by = {(r["design"], r["target"], r["key_bits"]): r for r in rows}
    speed = by[("aes-128/iterative", "asic:nangate45_typ:speed", 128)]
    assert speed["cipher"] == "aes" and speed["arch"] == "iterative" and speed["kind"] == "asic"
    assert speed["gate_equivalents"] == 24_100 and speed["luts"] is None
    assert speed["throughput_mbps"] == pytest.approx(3584.0)
    assert speed["latency"] == 14 and speed["initiation_interval"] == 10
    assert speed["kbps_per_ge"] == pytest.approx(3584.0 * 1000 / 24_100)
    assert by[("aes-128/iterative", "fpga:ecp5-25k", 128)]["luts"] == 3_100
    generic = by[("aes-128/iterative", "generic", 128)]
    assert generic["transistors"] == 412_000 and generic["throughput_mbps"] is None
    assert generic["bits_per_cycle"] == pytest.approx(12.8)
    assert [r["key_bits"] for r in rows if r["design"] == "aes/pipelined"] == [128, 192, 256]


def test_payload_columns_and_defaults() -> None:
    payload = explorer.explorer_payload(_results())
    keys = [c["key"] for c in payload["columns"]]
    assert keys[:7] == ["design", "cipher", "arch", "key_bits", "target", "kind", "settings"]
    assert "energy_per_bit_pj" not in keys  # nobody measured power: no empty column
    better = {c["key"]: c["better"] for c in payload["columns"]}
    assert better["throughput_mbps"] == "higher" and better["gate_equivalents"] == "lower"
    assert better["time_to_encrypt_ns"] == "lower" and better["design"] is None
    assert "area" not in better  # no column of mixed units
    # one kind at a time, the ASIC first; each kind plots its own area against its throughput
    kinds = {k["key"]: k for k in payload["kinds"]}
    assert [k["key"] for k in payload["kinds"]] == KINDS and payload["kind"] == "asic"
    assert (payload["x"], payload["y"]) == ("gate_equivalents", "throughput_mbps")
    assert (kinds["generic"]["x"], kinds["generic"]["y"]) == ("transistors", "bits_per_cycle")
    assert (kinds["fpga"]["x"], kinds["fpga"]["y"]) == ("luts", "throughput_mbps")
    for kind, entry in kinds.items():  # a kind's columns hold its own area unit only
        assert set(entry["columns"]) & set(AREA_COLUMN.values()) == {AREA_COLUMN[kind]}
    assert "kbps_per_ge" in kinds["asic"]["columns"] and "kbps_per_ge" not in kinds["fpga"][
        "columns"]
    assert explorer.explorer_markup([]) == ""


def test_json_for_script_cannot_close_the_block() -> None:
    data = {"d": EVIL + "<!-- & \u2028 \u2029", "n": [1, 2.5, None]}
    text = markup.json_for_script(data)
    assert json.loads(text) == data
    for raw in ("<", ">", "&", "\u2028", "\u2029"):
        assert raw not in text


def test_page_embeds_data_and_allows_only_its_script(tmp_path: Path) -> None:
    page = (tmp_path / "report.html")
    write_report(_results(), tmp_path)
    text = page.read_text(encoding="utf-8")
    block = re.search(r'<script type="application/json" id="cbx-data">(.*?)</script>', text, re.S)
    assert block and "</" not in block.group(1)
    assert len(json.loads(block.group(1))["rows"]) == 13
    script = re.search(r"<script>(.*?)</script>", text, re.S)
    assert script and script.group(1) == explorer.EXPLORER_JS
    digest = base64.b64encode(hashlib.sha256(script.group(1).encode()).digest()).decode()
    assert f"script-src &#x27;sha256-{digest}&#x27;" in text
    assert "innerHTML" not in script.group(1) and "http" not in script.group(1)
    # the static tables and figure stay for readers without JavaScript
    assert "<h2>Results per target</h2>" in text and "<figure><svg" in text


# --- in the browser ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright not installed (optional: pip install playwright)")
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian chromium not installed (optional: apt-get install chromium)")
    # Chromium's sandbox cannot start as root (containers, CI): only then run without it.
    args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=args)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def report_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("explorer")
    write_report(_results(), out)
    return (out / "report.html").resolve().as_uri()


@pytest.fixture
def page(browser: Any, report_url: str) -> Iterator[Any]:
    context = browser.new_context()
    page = context.new_page()
    problems: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(report_url)
    page.wait_for_selector("#cbx-table tbody tr")
    yield page
    # no script errors, no CSP violations, no loads but the page itself
    assert problems == []
    assert requests == [report_url]
    context.close()


def _rows(page: Any) -> Any:
    return page.locator("#cbx-table tbody tr")


def _column(page: Any, label: str) -> list[str]:
    headers = page.locator("#cbx-table thead th").all_inner_texts()
    index = [h.strip() for h in headers].index(label)
    return page.locator(f"#cbx-table tbody tr td:nth-child({index + 1})").all_inner_texts()


def _front(page: Any) -> list[tuple[str, str, str]]:
    dots = page.locator("#cbx-plot circle.cbx-front-pt")
    return sorted((dots.nth(i).get_attribute("data-design"),
                   dots.nth(i).get_attribute("data-target"),
                   dots.nth(i).get_attribute("data-key")) for i in range(dots.count()))


def _select_kind(page: Any, kind: str) -> list[dict[str, Any]]:
    page.select_option("#cbx-kind", kind)
    return _expected_rows(kind)


def _plotted(rows: list[dict[str, Any]], y: str = "throughput") -> list[dict[str, Any]]:
    return [r for r in rows if r[y] is not None]


def test_loads_with_one_kind_and_its_plot(page: Any) -> None:
    asic = _expected_rows("asic")
    assert page.locator("#cbx-ui").is_visible()
    # the ASIC rows first, never all kinds at once
    assert page.locator("#cbx-kind").input_value() == "asic"
    assert _rows(page).count() == len(asic)
    assert page.locator("#cbx-count").inner_text().startswith(f"{len(asic)} of {len(asic)} rows")
    # The hostile design name is text in a cell, never markup.
    assert EVIL in _column(page, "Design")
    assert page.locator("#cbx img").count() == 0
    # Default axes: the kind's own area against throughput; a row without a clock has no point.
    plotted = _plotted(asic)
    assert len(plotted) == len(asic) - 1
    assert page.locator("#cbx-plot circle.cbx-pt").count() == len(plotted)
    assert page.locator("#cbx-xlabel").text_content() == "Area (GE) (log)"
    assert page.locator("#cbx-ylabel").text_content().startswith(
        "Throughput, non-feedback (Mbps)")
    assert _front(page) == _pareto(plotted, "area", "throughput")
    assert page.locator("#cbx-plot polyline.cbx-front").count() == 1
    titles = page.locator("#cbx-plot circle.cbx-pt title").all_text_contents()
    assert any(t.startswith("aes/pipelined @ asic:nangate45_typ:speed, 256-bit key") for t in titles)
    # the static report is still there
    assert page.locator("h2", has_text="Results per target").count() == 1


def test_one_kind_at_a_time_and_no_axis_or_column_mixes_units(page: Any) -> None:
    options = page.locator("#cbx-kind option")
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == KINDS
    for kind in KINDS:
        expected = _select_kind(page, kind)
        assert _rows(page).count() == len(expected)
        assert set(_column(page, "Kind")) == {kind}
        dots = page.locator("#cbx-plot circle.cbx-pt")
        assert dots.count() > 0
        assert {dots.nth(i).get_attribute("data-kind") for i in range(dots.count())} == {kind}
        # X is the kind's own area; no other kind's area is a column or an axis choice
        assert page.locator("#cbx-xlabel").text_content() == AREA_LABEL[kind] + " (log)"
        headers = [h.strip() for h in page.locator("#cbx-table thead th").all_inner_texts()]
        axes = page.locator("#cbx-x option").all_inner_texts()
        for other, label in AREA_LABEL.items():
            assert (label in headers) == (other == kind), (kind, headers)
            assert any(a.startswith(label + " (") for a in axes) == (other == kind)
        # the kind's throughput: Mbps with a clock, bits per cycle for the generic gates
        y = "bits_per_cycle" if kind == "generic" else "throughput"
        assert _front(page) == _pareto(_plotted(expected, y), "area", y)


def test_headline_is_the_first_table_and_fits_the_window(page: Any) -> None:
    assert page.locator("h2").all_inner_texts()[:3] == [
        "Summary", "Headline: best figures per design and target", "Explorer"]
    first = page.locator("table").first
    assert first.get_attribute("id") == "headline"
    headers = first.locator("thead th").all_inner_texts()
    assert headers == [
        "Design", "Verification", "Target", "Runs", "Area", "Clock", "Throughput", "Efficiency"]
    # a row per design and target (the speed grade is one of its library's runs)
    texts = [dict(zip(headers, first.locator("tbody tr").nth(i).inner_text().split("\t")))
             for i in range(first.locator("tbody tr").count())]
    aes = [t for t in texts if t["Design"] == "aes-128/iterative"]
    assert [t["Target"] for t in aes] == ["generic gates", "ASIC nangate45_typ", "FPGA ecp5-25k"]
    assert [aes[1][h] for h in headers[3:]] == [
        "3", "16,000 GE", "280 MHz (3.57 ns)", "3,584 Mbps", "148.71 Kbps/GE"]
    # seen without scrolling, and without sideways scrolling either
    box, view = first.bounding_box(), page.viewport_size
    assert box["y"] + box["height"] <= view["height"] and box["x"] + box["width"] <= view["width"]


def test_speed_grades_are_rows_of_their_library_table(page: Any) -> None:
    heads = page.locator("h3").all_inner_texts()
    library = [h for h in heads if h.startswith("ASIC: nangate45_typ")]
    assert len(library) == 1 and not any("d2000ps" in h or ":speed" in h for h in heads)
    table = page.locator("h3", has_text="ASIC: nangate45_typ").locator(
        "xpath=following-sibling::div[1]//table")
    headers = table.locator("thead th").all_inner_texts()
    rows = [dict(zip(headers, table.locator("tbody tr").nth(i).locator("td").all_inner_texts()))
            for i in range(table.locator("tbody tr").count())]
    # fastest first: the speed end, the 2,000 ps grade, the area end
    assert [r["Fmax (MHz)"] for r in rows if r["Design"] == "aes-128/iterative"] == [
        "280.00", "200.00", "150.00"]


def test_text_filter_applies_to_table_and_plot(page: Any) -> None:
    for kind, needle in (("asic", "serpent"), ("asic", "nangate45_typ:speed"),
                         ("fpga", "serpent"), ("fpga", "ECP5")):
        rows = _select_kind(page, kind)
        page.fill("#cbx-filter", needle)
        match = [r for r in rows
                 if needle.lower() in r["design"].lower() or needle.lower() in r["target"].lower()]
        assert match
        assert _rows(page).count() == len(match)
        plotted = _plotted(match)
        assert page.locator("#cbx-plot circle.cbx-pt").count() == len(plotted)
        assert _front(page) == _pareto(plotted, "area", "throughput")
    page.fill("#cbx-filter", "")
    assert _rows(page).count() == len(_expected_rows("fpga"))


def test_kind_and_cipher_filters(page: Any) -> None:
    fpga = _select_kind(page, "fpga")
    assert _rows(page).count() == len(fpga)
    assert _front(page) == _pareto(fpga, "area", "throughput")
    page.select_option("#cbx-cipher", "serpent")
    assert _rows(page).count() == 1 and _column(page, "Design") == ["serpent-128/iterative"]
    page.select_option("#cbx-kind", "asic")
    assert _rows(page).count() == 1  # the cipher filter stays
    assert sorted(page.locator("#cbx-cipher option").all_inner_texts()) == sorted(
        ["all", "aes", "rc6", "serpent", "twofish", "?"])  # the evil design parses as no cipher


def test_changing_the_y_axis(page: Any) -> None:
    asic = _expected_rows("asic")
    before = page.locator("#cbx-plot circle.cbx-pt").count()
    page.select_option("#cbx-y", "bits_per_cycle")
    # bits per cycle needs no clock: the row without one joins the plot
    assert page.locator("#cbx-plot circle.cbx-pt").count() == len(asic) == before + 1
    assert page.locator("#cbx-ylabel").text_content() == "Bits per cycle (log)"
    assert _front(page) == _pareto(asic, "area", "bits_per_cycle")
    page.uncheck("#cbx-ylog")
    assert page.locator("#cbx-ylabel").text_content() == "Bits per cycle"
    # the generic gates have no clock: their kind plots bits per cycle by default
    generic = _select_kind(page, "generic")
    assert page.locator("#cbx-plot circle.cbx-pt").count() == len(generic) == 1


def test_header_click_sorts_and_reverses(page: Any) -> None:
    label = "Throughput, non-feedback (Mbps)"
    header = page.locator("#cbx-table thead th", has_text=label)

    def values() -> list[float | None]:
        return [None if v == "-" else float(v.replace(",", "")) for v in _column(page, label)]

    header.click()
    assert header.get_attribute("aria-sort") == "ascending"
    ascending = values()
    numbers = [v for v in ascending if v is not None]
    assert numbers == sorted(numbers) and ascending[-1] is None  # missing last
    assert _column(page, "Design")[0] == "serpent-128/iterative"  # 128 x 200 / 32 = 800 Mbps
    header.click()
    assert header.get_attribute("aria-sort") == "descending"
    descending = values()
    assert [v for v in descending if v is not None] == sorted(numbers, reverse=True)
    assert descending[-1] is None
    assert _column(page, "Design")[:3] == ["aes/pipelined"] * 3  # 102,400 Mbps at every key
    # another kind: the sort on a column it also has stays, on its own rows only
    page.select_option("#cbx-kind", "fpga")
    assert header.get_attribute("aria-sort") == "descending"
    assert _column(page, "Design") == ["aes-128/iterative", "serpent-128/iterative"]
