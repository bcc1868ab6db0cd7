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
from cipherbench.report import html, write_report
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


def _expected_rows() -> list[dict[str, Any]]:
    """Independently of the report code: one row per result and key size with area and the
    throughput 128 x f / II (None without a clock)."""
    return [{"design": d, "target": t, "key": k, "kind": t.split(":")[0], "area": area,
             "throughput": 128 * fmax / ii if fmax else None, "bits_per_cycle": 128 / ii}
            for d, t, _name, area, fmax, ii, keys in SPEC for k in keys]


def _pareto(points: list[dict[str, Any]], x: str, y: str) -> list[tuple[str, str, str]]:
    """Minimise x, maximise y: the points no other point matches on both and beats on one."""
    def dominated(p: dict[str, Any]) -> bool:
        return any(q[x] <= p[x] and q[y] >= p[y] and (q[x] < p[x] or q[y] > p[y])
                   for q in points)
    return sorted((p["design"], p["target"], p["key"]) for p in points if not dominated(p))


# --- pure Python -------------------------------------------------------------------------


def test_rows_one_per_result_and_key_size() -> None:
    rows = html.explorer_rows(_results())
    assert len(rows) == len(_expected_rows()) == 11  # the failed run is left out
    by = {(r["design"], r["target"], r["key_bits"]): r for r in rows}
    speed = by[("aes-128/iterative", "asic:nangate45_typ:speed", 128)]
    assert speed["cipher"] == "aes" and speed["arch"] == "iterative" and speed["kind"] == "asic"
    assert speed["area"] == 24_100 and speed["throughput_mbps"] == pytest.approx(3584.0)
    assert speed["latency"] == 14 and speed["initiation_interval"] == 10
    assert speed["kbps_per_ge"] == pytest.approx(3584.0 * 1000 / 24_100)
    assert by[("aes-128/iterative", "fpga:ecp5-25k", 128)]["area"] == 3_100
    generic = by[("aes-128/iterative", "generic", 128)]
    assert generic["area"] == 412_000 and generic["throughput_mbps"] is None
    assert generic["bits_per_cycle"] == pytest.approx(12.8)
    assert [r["key_bits"] for r in rows if r["design"] == "aes/pipelined"] == [128, 192, 256]


def test_payload_columns_and_defaults() -> None:
    payload = html.explorer_payload(_results())
    keys = [c["key"] for c in payload["columns"]]
    assert keys[:7] == ["design", "cipher", "arch", "key_bits", "target", "kind", "settings"]
    assert "energy_per_bit_pj" not in keys  # nobody measured power: no empty column
    better = {c["key"]: c["better"] for c in payload["columns"]}
    assert better["throughput_mbps"] == "higher" and better["area"] == "lower"
    assert better["time_to_encrypt_ns"] == "lower" and better["design"] is None
    assert (payload["x"], payload["y"]) == ("area", "throughput_mbps")
    assert html.explorer_markup([]) == ""


def test_json_for_script_cannot_close_the_block() -> None:
    data = {"d": EVIL + "<!-- & \u2028 \u2029", "n": [1, 2.5, None]}
    text = html.json_for_script(data)
    assert json.loads(text) == data
    for raw in ("<", ">", "&", "\u2028", "\u2029"):
        assert raw not in text


def test_page_embeds_data_and_allows_only_its_script(tmp_path: Path) -> None:
    page = (tmp_path / "report.html")
    write_report(_results(), tmp_path)
    text = page.read_text(encoding="utf-8")
    block = re.search(r'<script type="application/json" id="cbx-data">(.*?)</script>', text, re.S)
    assert block and "</" not in block.group(1)
    assert len(json.loads(block.group(1))["rows"]) == 11
    script = re.search(r"<script>(.*?)</script>", text, re.S)
    assert script and script.group(1) == html._EXPLORER_JS
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


def test_loads_with_all_rows_and_plot(page: Any) -> None:
    expected = _expected_rows()
    assert page.locator("#cbx-ui").is_visible()
    assert _rows(page).count() == len(expected)
    assert page.locator("#cbx-count").inner_text() == f"{len(expected)} of {len(expected)} rows"
    # The hostile design name is text in a cell, never markup.
    assert EVIL in _column(page, "Design")
    assert page.locator("#cbx img").count() == 0
    # Default axes: area against throughput; the generic netlist has no clock, so no point.
    plotted = [r for r in expected if r["throughput"] is not None]
    assert page.locator("#cbx-plot circle.cbx-pt").count() == len(plotted)
    assert page.locator("#cbx-xlabel").text_content().startswith("Area (GE / LUTs / transistors)")
    assert page.locator("#cbx-ylabel").text_content().startswith(
        "Throughput, non-feedback (Mbps)")
    assert _front(page) == _pareto(plotted, "area", "throughput")
    assert page.locator("#cbx-plot polyline.cbx-front").count() == 1
    titles = page.locator("#cbx-plot circle.cbx-pt title").all_text_contents()
    assert any(t.startswith("aes/pipelined @ asic:nangate45_typ:speed, 256-bit key") for t in titles)
    # the static report is still there
    assert page.locator("h2", has_text="Results per target").count() == 1


def test_text_filter_applies_to_table_and_plot(page: Any) -> None:
    expected = _expected_rows()
    for needle in ("serpent", "ECP5", "nangate45_typ:speed"):
        page.fill("#cbx-filter", needle)
        match = [r for r in expected
                 if needle.lower() in r["design"].lower() or needle.lower() in r["target"].lower()]
        assert 0 < len(match) < len(expected)
        assert _rows(page).count() == len(match)
        plotted = [r for r in match if r["throughput"] is not None]
        assert page.locator("#cbx-plot circle.cbx-pt").count() == len(plotted)
        assert _front(page) == _pareto(plotted, "area", "throughput")
    page.fill("#cbx-filter", "")
    assert _rows(page).count() == len(expected)


def test_kind_and_cipher_filters(page: Any) -> None:
    expected = _expected_rows()
    page.select_option("#cbx-kind", "asic")
    asic = [r for r in expected if r["kind"] == "asic"]
    assert _rows(page).count() == len(asic)
    assert _front(page) == _pareto(asic, "area", "throughput")
    page.select_option("#cbx-cipher", "serpent")
    assert _rows(page).count() == 1 and _column(page, "Design") == ["serpent-128/iterative"]
    page.select_option("#cbx-kind", "")
    assert _rows(page).count() == 2
    assert sorted(page.locator("#cbx-cipher option").all_inner_texts()) == sorted(
        ["all", "aes", "serpent", "twofish", EVIL.split("/")[0]])


def test_changing_the_y_axis(page: Any) -> None:
    expected = _expected_rows()
    before = page.locator("#cbx-plot circle.cbx-pt").count()
    page.select_option("#cbx-y", "bits_per_cycle")
    # bits per cycle needs no clock: the generic netlist joins the plot
    assert page.locator("#cbx-plot circle.cbx-pt").count() == len(expected) == before + 1
    assert page.locator("#cbx-ylabel").text_content() == "Bits per cycle (log)"
    assert _front(page) == _pareto(expected, "area", "bits_per_cycle")
    page.uncheck("#cbx-ylog")
    assert page.locator("#cbx-ylabel").text_content() == "Bits per cycle"


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
    assert _column(page, "Design")[0] == "serpent-128/iterative"  # 128 x 60 / 32 = 240 Mbps
    header.click()
    assert header.get_attribute("aria-sort") == "descending"
    descending = values()
    assert [v for v in descending if v is not None] == sorted(numbers, reverse=True)
    assert descending[-1] is None
    assert _column(page, "Design")[:3] == ["aes/pipelined"] * 3  # 102,400 Mbps at every key
