"""The page's interactive explorer: the results as JSON in a ``<script type="application/json">``
block (``<``, ``>`` and ``&`` written as ``\\u`` escapes, so no data can close the block) and one
inline script, ``EXPLORER_JS``, that builds a filterable, sortable table and an SVG scatter plot
with the Pareto front from it, touching the DOM only through ``textContent`` and
``setAttribute``. The page's Content-Security-Policy (html.py) lets only that script run."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Sequence

from ..store import Result
from .markup import esc, json_for_script
from .names import design_cipher
from .tables import cycle_count, figure, key_figure, key_sizes, kind_rank, ordered, settings_text


# --- the interactive explorer ----------------------------------------------------------------

EXPLORER_TITLE = "Explorer"
EXPLORER_NOTE = (
    "Every successful run, one row per key size, one target kind at a time: area is counted in "
    "transistors (generic), gate equivalents and um2 (ASIC), LUTs (FPGA), and no column or axis "
    "puts two of them together. Pick the kind, filter by text (design or target) and cipher; "
    "click a column heading to sort (again to reverse); choose the plot's axes. Points are "
    "coloured by cipher; the Pareto front (ringed in red and joined by a dashed line) holds the "
    "points no other visible point beats on both axes, each axis in its own 'better' direction "
    "(smaller area, higher throughput, ...). The static tables below show the same figures "
    "without JavaScript.")


@dataclass(frozen=True)
class Column:
    """One explorer column: ``kind`` "text" or "number"; ``better`` "higher"/"lower" for figures
    that can be plotted (it sets the Pareto direction on that axis), None for the rest."""

    key: str
    label: str
    kind: str = "number"
    better: str | None = None


TEXT_COLUMNS: tuple[Column, ...] = (
    Column("design", "Design", "text"),
    Column("cipher", "Cipher", "text"),
    Column("arch", "Architecture", "text"),
    Column("key_bits", "Key size", "number"),
    Column("target", "Target", "text"),
    Column("kind", "Kind", "text"),
    Column("settings", "Settings", "text"),
)

# Plottable figures, in table order. Each has one unit; the explorer shows a figure's column
# only for a kind of target that has it, so an area column never holds two units.
FIGURE_COLUMNS: tuple[Column, ...] = (
    Column("throughput_mbps", "Throughput, non-feedback (Mbps)", better="higher"),
    Column("throughput_feedback_mbps", "Throughput, feedback (Mbps)", better="higher"),
    Column("gate_equivalents", "Area (GE)", better="lower"),
    Column("area_um2", "Area (um2)", better="lower"),
    Column("luts", "Area (LUTs; iCE40: logic cells)", better="lower"),
    Column("transistors", "Area (transistors)", better="lower"),
    Column("fmax_mhz", "Clock (MHz)", better="higher"),
    Column("latency", "Latency (cycles)", better="lower"),
    Column("initiation_interval", "Initiation interval (cycles)", better="lower"),
    Column("cycles_per_chained_block", "Cycles per chained block", better="lower"),
    Column("bits_per_cycle", "Bits per cycle", better="higher"),
    Column("time_to_encrypt_ns", "Time to encrypt (ns)", better="lower"),
    Column("time_to_decrypt_ns", "Time to decrypt (ns)", better="lower"),
    Column("key_setup_encrypt_ns", "Key setup, encrypt (ns)", better="lower"),
    Column("key_setup_decrypt_ns", "Key setup, decrypt (ns)", better="lower"),
    Column("kbps_per_ge", "Efficiency (Kbps/GE)", better="higher"),
    Column("mbps_per_lut", "Efficiency (Mbps/LUT)", better="higher"),
    Column("energy_per_bit_pj", "Energy (pJ/bit)", better="lower"),
    Column("io_count", "I/O count", better="lower"),
)

# Per target kind: its title and its own area figure, the plot's default X. A kind's other area
# figures (another kind's unit) are absent from its rows, never converted.
KIND_AREA = {"generic": "transistors", "asic": "gate_equivalents",
             "layout": "gate_equivalents", "fpga": "luts"}
_KIND_LABELS = {"generic": "Generic (transistors)", "asic": "ASIC (GE, um2)",
                "layout": "ASIC layout (GE, um2)", "fpga": "FPGA (LUTs)"}
# The kind shown first: the seeds' own figure (gates, clock, throughput per gate) before the rest.
_FIRST_KIND = ("asic", "fpga", "layout", "generic")
_PER_KEY = {"throughput_mbps", "throughput_feedback_mbps", "bits_per_cycle",
            "time_to_encrypt_ns", "time_to_decrypt_ns", "key_setup_encrypt_ns",
            "key_setup_decrypt_ns", "kbps_per_ge", "mbps_per_lut", "energy_per_bit_pj"}
_CYCLES = {"latency", "initiation_interval", "cycles_per_chained_block"}
# Throughput when the kind has a clock; a generic netlist has none: bits per cycle instead.
_Y_CHOICES = ("throughput_mbps", "bits_per_cycle", "throughput_feedback_mbps")


def _number(value: Any) -> float | int | None:
    """A finite number for JSON, else None (strings, bools and NaN never reach the page)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def _cipher(design: str) -> str:
    """The design's cipher by spec.parse (names.design_cipher); "?" if no cipher here has it."""
    return design_cipher(design) or "?"


def explorer_rows(results: Sequence[Result]) -> list[dict[str, Any]]:
    """One row per successful result and key size (as in results.csv), every FIGURE_COLUMNS
    figure a number or None."""
    rows = []
    for r in ordered(results):
        if not r.ok:
            continue
        for key in key_sizes(r) or [""]:
            row: dict[str, Any] = {
                "design": r.design, "cipher": _cipher(r.design),
                "arch": r.design.split("/", 1)[1] if "/" in r.design else "",
                "key_bits": int(key) if key.isdigit() else None,
                "target": r.target, "kind": r.target_kind, "settings": settings_text(r.settings),
            }
            for col in FIGURE_COLUMNS:
                if col.key in _PER_KEY:
                    value = key_figure(r, key, col.key)
                elif col.key in _CYCLES:
                    value = cycle_count(r, key, col.key)
                else:
                    value = figure(r, col.key)
                row[col.key] = _number(value)
            rows.append(row)
    return rows


def _kind_entry(kind: str, rows: list[dict[str, Any]], keys: list[str]) -> dict[str, Any]:
    """One target kind: its label, the figures its rows have, and its default axes (its own
    area against throughput)."""
    mine = [row for row in rows if row["kind"] == kind]
    have = [k for k in keys if any(row[k] is not None for row in mine)]
    area = KIND_AREA.get(kind)
    x = area if area in have else next(iter(have), None)
    y = next((k for k in _Y_CHOICES if k in have and k != x), None)
    return {"key": kind, "label": _KIND_LABELS.get(kind, kind), "columns": have, "x": x,
            "y": y or x}


def explorer_payload(results: Sequence[Result]) -> dict[str, Any]:
    """Columns (figures nobody has are left out), rows, and per target kind the figures it has
    and its default axes; ``kind`` is the one shown first."""
    rows = explorer_rows(results)
    figures = [c for c in FIGURE_COLUMNS if any(row[c.key] is not None for row in rows)]
    keys = [c.key for c in figures]
    present = sorted({row["kind"] for row in rows}, key=kind_rank)
    kinds = [_kind_entry(kind, rows, keys) for kind in present]
    first = next((k for k in _FIRST_KIND if k in present), present[0] if present else None)
    entry = next((k for k in kinds if k["key"] == first), {"x": None, "y": None})
    return {
        "columns": [asdict(c) for c in (*TEXT_COLUMNS, *figures)],
        "rows": [{k: row[k] for k in (*(c.key for c in TEXT_COLUMNS), *keys)} for row in rows],
        "kinds": kinds, "kind": first, "x": entry["x"], "y": entry["y"],
    }


def explorer_markup(results: Sequence[Result]) -> str:
    """The explorer section, or "" when no run succeeded. Controls are static markup; the
    script fills in options, table and plot and unhides them."""
    payload = explorer_payload(results)
    if not payload["rows"]:
        return ""
    return (
        f'<section id="cbx"><h2>{esc(EXPLORER_TITLE)}</h2>'
        f"<noscript><p>The explorer needs JavaScript; the same figures are in the static tables "
        f"below.</p></noscript>"
        f'<div id="cbx-ui" hidden><p class="note">{esc(EXPLORER_NOTE)}</p>'
        '<div class="cbx-controls">'
        '<label>Filter <input id="cbx-filter" type="search" '
        'placeholder="design or target substring"></label>'
        '<label>Target kind <select id="cbx-kind"></select></label>'
        '<label>Cipher <select id="cbx-cipher"><option value="">all</option></select></label>'
        '<span id="cbx-count"></span></div>'
        '<div class="cbx-controls">'
        '<label>X axis <select id="cbx-x"></select></label>'
        '<label><input id="cbx-xlog" type="checkbox" checked> log X</label>'
        '<label>Y axis <select id="cbx-y"></select></label>'
        '<label><input id="cbx-ylog" type="checkbox" checked> log Y</label></div>'
        '<figure><svg id="cbx-plot" viewBox="0 0 820 480" role="img" '
        'aria-label="scatter plot of the filtered results"></svg>'
        '<figcaption><span id="cbx-plotnote"></span></figcaption></figure>'
        '<div id="cbx-legend" class="cbx-legend"></div>'
        '<div class="scroll cbx-tablewrap"><table id="cbx-table"><thead><tr></tr></thead><tbody></tbody>'
        "</table></div></div>"
        f'<script type="application/json" id="cbx-data">{json_for_script(payload)}</script>'
        f"<script>{EXPLORER_JS}</script></section>"
    )


# The explorer's script: vanilla JavaScript, no libraries, no network. Data reaches the DOM only
# as textContent or attribute values. The SVG namespace comes from the static <svg> element
# (the HTML parser puts it there), so the page needs no namespace URL.
EXPLORER_JS = r"""
(function () {
  "use strict";
  var byId = function (id) { return document.getElementById(id); };
  var data = JSON.parse(byId("cbx-data").textContent);
  var columns = data.columns, rows = data.rows;
  var col = {};
  columns.forEach(function (c) { col[c.key] = c; });
  var kinds = {};
  data.kinds.forEach(function (k) { kinds[k.key] = k; });
  var svg = byId("cbx-plot"), NS = svg.namespaceURI;
  var W = 820, H = 480, M = {left: 90, right: 20, top: 20, bottom: 56};
  var PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
                 "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#843c39"];
  // One target kind at a time: each kind counts area in its own unit (transistors, GE, LUTs),
  // so no table column or plot axis ever holds two units.
  var state = {text: "", kind: data.kind, cipher: "", sortKey: null, sortDir: 1,
               x: data.x, y: data.y};

  function distinct(key) {
    var seen = {};
    rows.forEach(function (r) { if (r[key] !== null && r[key] !== "") { seen[r[key]] = true; } });
    return Object.keys(seen).sort();
  }
  var ciphers = distinct("cipher");
  var colour = {};
  ciphers.forEach(function (c, i) { colour[c] = PALETTE[i % PALETTE.length]; });

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function sv(tag, attrs, text) {
    var node = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }

  function group(s) {
    var parts = s.split(".");
    parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return parts.join(".");
  }
  function fmt(v) {
    if (v === null || v === undefined || v === "") { return "-"; }
    if (typeof v !== "number") { return String(v); }
    if (Number.isInteger(v)) { return group(v.toFixed(0)); }
    if (Math.abs(v) >= 1) { return group(v.toFixed(2)); }
    return String(Number(v.toPrecision(3)));
  }
  function betterText(c) { return c.better === "higher" ? "higher is better" : "lower is better"; }

  // --- controls -------------------------------------------------------------------------
  function fillSelect(select, values, labels) {
    values.forEach(function (v, i) { select.appendChild(el("option", {value: v}, labels[i])); });
  }
  fillSelect(byId("cbx-kind"), data.kinds.map(function (k) { return k.key; }),
             data.kinds.map(function (k) { return k.label; }));
  byId("cbx-kind").value = state.kind;
  fillSelect(byId("cbx-cipher"), ciphers, ciphers);

  // The columns of the kind shown: the text columns and the figures its rows have.
  function shownColumns() {
    var have = kinds[state.kind].columns;
    return columns.filter(function (c) { return !c.better || have.indexOf(c.key) >= 0; });
  }
  function plottable() { return shownColumns().filter(function (c) { return c.better; }); }

  // The axis choices are the kind's own figures; a kind opens on its own area against its
  // throughput (bits per cycle where it has no clock).
  function fillAxes() {
    var figures = plottable(), keys = figures.map(function (c) { return c.key; });
    state.x = kinds[state.kind].x;
    state.y = kinds[state.kind].y;
    ["cbx-x", "cbx-y"].forEach(function (id) {
      clear(byId(id));
      fillSelect(byId(id), keys,
                 figures.map(function (c) { return c.label + " (" + betterText(c) + ")"; }));
    });
    byId("cbx-x").value = state.x;
    byId("cbx-y").value = state.y;
  }

  function visibleRows() {
    var needle = state.text.trim().toLowerCase();
    return rows.filter(function (r) {
      if (r.kind !== state.kind) { return false; }
      if (state.cipher && r.cipher !== state.cipher) { return false; }
      return !needle || r.design.toLowerCase().indexOf(needle) >= 0 ||
             r.target.toLowerCase().indexOf(needle) >= 0;
    });
  }

  // --- table ----------------------------------------------------------------------------
  var table = byId("cbx-table"), headRow = table.tHead.rows[0], body = table.tBodies[0];
  function buildHeader() {
    clear(headRow);
    shownColumns().forEach(function (c) {
      var th = el("th", {scope: "col", tabindex: "0", "data-key": c.key, "class": c.kind,
                         title: c.better ? betterText(c) + "; click to sort" : "click to sort"},
                  c.label);
      var sortBy = function () {
        state.sortDir = state.sortKey === c.key ? -state.sortDir : 1;
        state.sortKey = c.key;
        update();
      };
      th.addEventListener("click", sortBy);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(); }
      });
      headRow.appendChild(th);
    });
  }

  function compare(a, b, key, dir) {
    var va = a[key], vb = b[key];
    var missA = va === null || va === "", missB = vb === null || vb === "";
    if (missA || missB) { return missA === missB ? 0 : (missA ? 1 : -1); }  // missing last
    if (typeof va === "number" && typeof vb === "number") { return dir * (va - vb); }
    return dir * String(va).localeCompare(String(vb));
  }

  function renderTable(list) {
    var order = list.map(function (r, i) { return [r, i]; });
    if (state.sortKey) {
      order.sort(function (p, q) {
        return compare(p[0], q[0], state.sortKey, state.sortDir) || p[1] - q[1];
      });
    }
    Array.prototype.forEach.call(headRow.cells, function (th) {
      if (th.getAttribute("data-key") === state.sortKey) {
        th.setAttribute("aria-sort", state.sortDir > 0 ? "ascending" : "descending");
      } else {
        th.removeAttribute("aria-sort");
      }
    });
    clear(body);
    var shown = shownColumns();
    order.forEach(function (pair) {
      var tr = el("tr");
      shown.forEach(function (c) {
        tr.appendChild(el("td", c.kind === "text" ? {"class": "text"} : {}, fmt(pair[0][c.key])));
      });
      body.appendChild(tr);
    });
    var inKind = rows.filter(function (r) { return r.kind === state.kind; }).length;
    byId("cbx-count").textContent = list.length + " of " + inKind + " rows (" +
      kinds[state.kind].label + "; " + rows.length + " in all kinds)";
  }

  // --- Pareto front ---------------------------------------------------------------------
  // A point is on the front when no other point is at least as good on both axes and better
  // on one; "good" follows each column's direction.
  function paretoFront(points, xc, yc) {
    var sx = xc.better === "higher" ? 1 : -1, sy = yc.better === "higher" ? 1 : -1;
    return points.filter(function (p) {
      return !points.some(function (q) {
        var dx = sx * (q.x - p.x), dy = sy * (q.y - p.y);
        return dx >= 0 && dy >= 0 && (dx > 0 || dy > 0);
      });
    });
  }

  // --- scatter plot ---------------------------------------------------------------------
  function niceStep(span, count) {
    var raw = span / count, p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * p;
  }
  function linearTicks(lo, hi) {
    var step = niceStep(hi - lo, 5), out = [];
    for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
      out.push(Number(v.toPrecision(12)));
    }
    return out;
  }
  function makeScale(values, log, from, to) {
    var t = log ? function (v) { return Math.log10(v); } : function (v) { return v; };
    var lo = Math.min.apply(null, values.map(t)), hi = Math.max.apply(null, values.map(t));
    if (hi === lo) {
      var pad = log ? 0.5 : Math.max(Math.abs(lo) * 0.1, 1);
      lo -= pad; hi += pad;
    } else {
      var margin = (hi - lo) * 0.06;
      lo -= margin; hi += margin;
    }
    var ticks;
    if (!log) {
      ticks = linearTicks(lo, hi);
    } else if (hi - lo >= 1) {
      // powers of ten; over three decades or less also 2 and 5 times them
      ticks = [];
      var stride = Math.max(1, Math.ceil((Math.floor(hi) - Math.ceil(lo) + 1) / 8));
      var steps = hi - lo <= 3 ? [1, 2, 5] : [1];
      for (var e = Math.floor(lo); e <= Math.ceil(hi); e += stride) {
        steps.forEach(function (m) {
          var v = m * Math.pow(10, e), at = Math.log10(v);
          if (at >= lo && at <= hi) { ticks.push(Number(v.toPrecision(12))); }
        });
      }
    } else {
      ticks = linearTicks(Math.pow(10, lo), Math.pow(10, hi))
        .filter(function (v) { return v > 0; });
    }
    var pos = function (v) { return from + (t(v) - lo) / (hi - lo) * (to - from); };
    return {pos: pos, ticks: ticks};
  }
  function usable(v, log) { return typeof v === "number" && isFinite(v) && (!log || v > 0); }

  function renderPlot(list) {
    var xc = col[state.x], yc = col[state.y];
    var xlog = byId("cbx-xlog").checked, ylog = byId("cbx-ylog").checked;
    clear(svg);
    clear(byId("cbx-legend"));
    svg.appendChild(sv("text", {id: "cbx-plottitle", x: W / 2, y: 14, "text-anchor": "middle"},
                       kinds[state.kind].label));
    if (!xc || !yc) {
      byId("cbx-plotnote").textContent = "no figures to plot for this kind";
      return;
    }
    var points = [];
    list.forEach(function (r) {
      if (usable(r[xc.key], xlog) && usable(r[yc.key], ylog)) {
        points.push({row: r, x: r[xc.key], y: r[yc.key]});
      }
    });
    var x0 = M.left, x1 = W - M.right, y0 = H - M.bottom, y1 = M.top;
    svg.appendChild(sv("line", {"class": "axis", x1: x0, y1: y0, x2: x1, y2: y0}));
    svg.appendChild(sv("line", {"class": "axis", x1: x0, y1: y0, x2: x0, y2: y1}));
    svg.appendChild(sv("text", {id: "cbx-xlabel", x: (x0 + x1) / 2, y: H - 12,
                                "text-anchor": "middle"}, xc.label + (xlog ? " (log)" : "")));
    svg.appendChild(sv("text", {id: "cbx-ylabel", x: 0, y: 0, "text-anchor": "middle",
                                transform: "translate(16," + (y0 + y1) / 2 + ") rotate(-90)"},
                       yc.label + (ylog ? " (log)" : "")));
    var skipped = list.length - points.length;
    var note = points.length + " points";
    if (skipped) {
      note += "; rows without a " + (xlog || ylog ? "positive " : "") + "value on an axis: " +
              skipped;
    }
    if (!points.length) {
      svg.appendChild(sv("text", {x: (x0 + x1) / 2, y: (y0 + y1) / 2, "text-anchor": "middle"},
                         "no points to plot"));
      byId("cbx-plotnote").textContent = note;
      return;
    }
    var sx = makeScale(points.map(function (p) { return p.x; }), xlog, x0, x1);
    var sy = makeScale(points.map(function (p) { return p.y; }), ylog, y0, y1);
    sx.ticks.forEach(function (v) {
      var at = sx.pos(v);
      svg.appendChild(sv("line", {"class": "grid", x1: at, y1: y0, x2: at, y2: y1}));
      svg.appendChild(sv("line", {"class": "axis", x1: at, y1: y0, x2: at, y2: y0 + 5}));
      svg.appendChild(sv("text", {"class": "tick", x: at, y: y0 + 18, "text-anchor": "middle"},
                         fmt(v)));
    });
    sy.ticks.forEach(function (v) {
      var at = sy.pos(v);
      svg.appendChild(sv("line", {"class": "grid", x1: x0, y1: at, x2: x1, y2: at}));
      svg.appendChild(sv("line", {"class": "axis", x1: x0 - 5, y1: at, x2: x0, y2: at}));
      svg.appendChild(sv("text", {"class": "tick", x: x0 - 8, y: at + 4, "text-anchor": "end"},
                         fmt(v)));
    });
    var front = paretoFront(points, xc, yc);
    var line = front.slice().sort(function (p, q) { return p.x - q.x || p.y - q.y; });
    svg.appendChild(sv("polyline", {"class": "cbx-front", points: line.map(function (p) {
      return sx.pos(p.x).toFixed(1) + "," + sy.pos(p.y).toFixed(1);
    }).join(" ")}));
    var onFront = new Set(front);
    points.forEach(function (p) {
      var r = p.row, pareto = onFront.has(p);
      var dot = sv("circle", {"class": pareto ? "cbx-pt cbx-front-pt" : "cbx-pt",
                              cx: sx.pos(p.x).toFixed(1), cy: sy.pos(p.y).toFixed(1),
                              r: pareto ? 5.5 : 4, fill: colour[r.cipher] || "#000",
                              "data-design": r.design, "data-target": r.target,
                              "data-kind": r.kind,
                              "data-key": r.key_bits === null ? "" : String(r.key_bits)});
      dot.appendChild(sv("title", {}, r.design + " @ " + r.target +
        (r.key_bits === null ? "" : ", " + r.key_bits + "-bit key") +
        (r.settings ? " (" + r.settings + ")" : "") + "\n" + xc.label + ": " + fmt(p.x) +
        "\n" + yc.label + ": " + fmt(p.y) + (pareto ? "\non the Pareto front" : "")));
      svg.appendChild(dot);
    });
    byId("cbx-plotnote").textContent = note + "; " + front.length + " on the Pareto front (X: " +
      betterText(xc) + ", Y: " + betterText(yc) + ")";
    var legend = byId("cbx-legend");
    ciphers.forEach(function (c) {
      if (!points.some(function (p) { return p.row.cipher === c; })) { return; }
      var item = el("span");
      var swatch = el("span", {"class": "cbx-swatch"});
      swatch.style.background = colour[c];
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(c));
      legend.appendChild(item);
    });
  }

  function update() {
    var list = visibleRows();
    renderTable(list);
    renderPlot(list);
  }

  function bind(id, event, field) {
    byId(id).addEventListener(event, function (e) { state[field] = e.target.value; update(); });
  }
  bind("cbx-filter", "input", "text");
  byId("cbx-kind").addEventListener("change", function (e) {
    state.kind = e.target.value;
    var keys = shownColumns().map(function (c) { return c.key; });
    if (keys.indexOf(state.sortKey) < 0) { state.sortKey = null; }
    fillAxes();
    buildHeader();
    update();
  });
  bind("cbx-cipher", "change", "cipher");
  bind("cbx-x", "change", "x");
  bind("cbx-y", "change", "y");
  byId("cbx-xlog").addEventListener("change", update);
  byId("cbx-ylog").addEventListener("change", update);
  byId("cbx-ui").hidden = false;
  fillAxes();
  buildHeader();
  update();
})();
"""
