"""The report's tables: the generic Table (display strings; Markdown here, HTML in html.py) and
the helpers every section reads results with.

Tables hold display strings; numbers are formatted here once so that Markdown and HTML agree.
Nothing is computed here that metrics.py owns: the figures come from ``Result.metrics`` (what
``metrics.derive`` returned) and ``Result.measurements``. The tables built from them live with
their sections: per target (targets.py), failures and provenance (provenance.py), results.csv
(csv_export.py), the NSA's parameter tables (nsa/parameters.py).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..errors import CipherbenchError
from ..spec import DesignSpec, parse
from ..store import Result

MISSING = "-"
KIND_ORDER = ("generic", "asic", "layout", "fpga")
KIND_TITLES = {"generic": "Generic (technology-independent)", "asic": "ASIC", "fpga": "FPGA"}


@dataclass
class Table:
    """A titled table of display strings; ``groups`` label runs of columns (HTML header row)."""

    title: str
    headers: list[str]
    rows: list[list[str]]
    groups: list[tuple[str, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Shown closed (HTML <details>, Markdown's too): reference a reader opens when needed.
    folded: bool = False
    # The HTML table's id, for a table the page styles (or a test finds) by itself.
    key: str = ""

    # Reading a table by its headers, not by column positions that move when a column is added.

    def index(self, header: str) -> int:
        """The position of the column headed ``header`` (the first, when two share it)."""
        if header not in self.headers:
            raise KeyError(f"no column {header!r} in {self.title!r}: {self.headers}")
        return self.headers.index(header)

    def column(self, header: str) -> list[str]:
        """Every row's cell under ``header``."""
        at = self.index(header)
        return [row[at] for row in self.rows]

    def records(self) -> list[dict[str, str]]:
        """One dict per row, header -> cell (a header repeated keeps its first column)."""
        return [{h: row[i] for i, h in reversed(list(enumerate(self.headers)))}
                for row in self.rows]

    def rows_where(self, header: str, value: str) -> list[dict[str, str]]:
        """The rows (as :meth:`records`) whose cell under ``header`` is ``value``."""
        at = self.index(header)
        return [record for row, record in zip(self.rows, self.records()) if row[at] == value]

    def row_where(self, header: str, value: str) -> dict[str, str]:
        """The first row whose cell under ``header`` is ``value``; KeyError when none is."""
        found = self.rows_where(header, value)
        if not found:
            raise KeyError(f"no row with {header} = {value!r} in {self.title!r}")
        return found[0]


@dataclass
class Section:
    """A report section: a heading, paragraphs of plain text, tables."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


# --- formatting ----------------------------------------------------------------------------


def design_spec(design: str) -> DesignSpec | None:
    """The parsed spec of a stored design name; None for one this version cannot parse (a design
    of an older version, a component), which the seed tables then leave out."""
    try:
        return parse(design)
    except CipherbenchError:
        return None


def fmt(value: Any) -> str:
    """A figure for display: integers with thousands separators, floats to a sensible precision."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return MISSING
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        # Two decimals like the NSA tables; large whole numbers (areas) and zero without any;
        # small ratios (Mbps per LUT) to three significant digits.
        if value.is_integer() and (abs(value) >= 1000 or value == 0):
            return f"{int(value):,}"
        if abs(value) >= 1:
            return f"{value:,.2f}"
        return f"{value:.3g}"
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    return str(value)


# Settings that the tables leave out: they are in the provenance section (Liberty file and hash),
# repeat the target id, or are empty defaults.
_PROVENANCE_ONLY = {"liberty", "liberty_sha256", "liberty_name", "nand2_cell", "nand2_area_um2",
                    "clock_period_ns", "blocks", "family", "device", "package",
                    # a speed grade's per-module ends (flows/asic/abc.py): long, and implied by the row
                    "module_delays_ps",
                    # the Liberty's own unusable cells, the same on every row of one library
                    "dont_use_auto"}


def _delay_words(settings: dict[str, Any]) -> str | None:
    """A speed grade's delay target; its position between the two ends when it has one."""
    delay = settings.get("delay_ps")
    if delay is None:
        return None
    position = settings.get("grade_position")
    where = ("" if position is None
             else f" ({round(100 * float(position))} % toward the area end)")
    return f"delay target {fmt(delay)} ps{where}"


def _list_words(label: str) -> Callable[[Any], str | None]:
    return lambda v: f"{label} {', '.join(map(str, v))}" if v else None


# Per setting: its value in words, None where it is the flow's default (left out). A setting not
# listed here shows as "key value". The asic goal shows even at its default: a library's rows are
# told apart by it.
_WORDS: dict[str, Callable[[Any], str | None]] = {
    "goal": lambda v: {"area": "area-oriented", "speed": "speed-oriented"}.get(str(v)),
    "hierarchy": lambda v: None if v == "flat" else f"{v} synthesis",
    "structure": lambda v: None if v == "restructure" else
    ("structure kept" if v == "keep" else f"structure {v}"),
    "sequential": lambda v: None if v == "flipflop" else
    ("latch pairs" if v == "latch" else f"{v} registers"),
    "power": lambda v: None if v else "no power",
    "gates": lambda v: None if v == "simple" else f"gates {v}",
    "transistor_gates": lambda v: None if v == "cmos" else f"transistors counted as {v}",
    "dont_use": _list_words("cells not used:"),
    "fmax_search": lambda v: "Fmax search" if v else None,
    "seed": lambda v: None if v == 1 else f"placement seed {v}",
    "seeds": _list_words("placement seeds"),
    "fmax_search_runs": lambda _v: None,  # said by "Fmax search"; the count is in provenance
    "freq_mhz": lambda _v: None,  # a request; the router reports the clock it reached
    "tech": lambda v: None,  # in the target id
    "density": lambda v: f"placement density {v}",
    "synthesis": lambda v: f"{v} netlist",
}


def settings_words(settings: dict[str, Any]) -> str:
    """Settings as a reader says them: ``{"goal": "area", "hierarchy": "bottom-up"}`` ->
    "area-oriented, bottom-up synthesis"; defaults and provenance-only settings left out (the
    provenance section folds away the raw settings, ``settings_raw``)."""
    return ", ".join(settings_parts(settings))


def settings_parts(settings: dict[str, Any]) -> list[str]:
    """The phrases of :func:`settings_words`, the delay target first."""
    parts = [] if settings.get("delay_ps") is None else [_delay_words(settings)]
    order = list(_WORDS)  # goal, synthesis, then what was measured; unknown settings last
    for key in sorted(settings, key=lambda k: (order.index(k) if k in order else len(order), k)):
        value = settings[key]
        if key in _PROVENANCE_ONLY or key in ("delay_ps", "grade_position") \
                or value in (None, [], {}, ""):
            continue
        if key == "goal" and settings.get("delay_ps") is not None:
            continue  # "delay": the delay target says it
        words = _WORDS[key](value) if key in _WORDS else f"{key} {_raw_value(value)}"
        if words:
            parts.append(words)
    return [p for p in parts if p]


# The report's one spelling of a result's settings; kept under its old name for the seed modules.
settings_text = settings_words


def _raw_value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def settings_raw(settings: dict[str, Any]) -> str:
    """Every setting as stored, ``key=value``: the provenance section's folded table."""
    return ", ".join(f"{k}={_raw_value(settings[k])}" for k in sorted(settings)) or MISSING


def column_label(result: Result) -> str:
    """How one result is named as a table column: its target and settings."""
    text = settings_text(result.settings)
    return f"{result.target} ({text})" if text else result.target


# --- reading figures from a result ---------------------------------------------------------


def figure(result: Result, *names: str) -> Any:
    """The first of ``names`` found in the derived metrics, else in the raw measurements."""
    for name in names:
        for source in (result.metrics, result.measurements):
            if source.get(name) is not None:
                return source[name]
    return None


def key_figure(result: Result, key: str, name: str) -> Any:
    """A per-key-size derived figure (metrics ``by_key_size``)."""
    return (result.metrics.get("by_key_size") or {}).get(key, {}).get(name)


def cycle_count(result: Result, key: str, name: str) -> Any:
    return (result.cycles.get(key) or {}).get(name)


def key_sizes(result: Result) -> list[str]:
    """Key sizes this result has figures for, ascending, as decimal strings."""
    keys = set(result.cycles) | set(result.metrics.get("by_key_size") or {})
    return sorted(keys, key=key_order)


def key_order(key: str) -> tuple[int, str]:
    return (int(key), key) if key.isdigit() else (1 << 30, key)


def kind_rank(kind: str) -> tuple[int, str]:
    return (KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER), kind)


def ordered(results: Iterable[Result]) -> list[Result]:
    """Stable report order: design, target kind (generic, asic, fpga), target, settings."""
    return sorted(
        results,
        key=lambda r: (r.design, kind_rank(r.target_kind), r.target,
                       json.dumps(r.settings, sort_keys=True), r.id or 0),
    )


def table_group(result: Result) -> tuple[str, str]:
    """(kind, name) of the results table a row belongs in. An ASIC library is one table: its
    area and speed ends, speed grades (``d<N>ps``) and variants (latch pairs, kept structure,
    bottom-up synthesis) are rows of it, told apart by their settings in words; an FPGA device
    is one table, with or without the Fmax search."""
    parts = result.target.split(":")
    kind = parts[0]
    if kind == "asic":
        return kind, str(result.settings.get("liberty_name") or (parts + [""])[1])
    if kind == "generic":
        return kind, "generic"
    if kind == "layout":
        return kind, (parts + [""])[1]
    if kind == "fpga":
        return kind, ":".join(p for p in parts[:4] if p != "fmax-search")
    return kind, result.target


# --- a design that does not fit its device --------------------------------------------------

# The FPGA flow's reason for a device too small (flows/fpga.py ``_does_not_fit``; study.py caches
# such a row like a success): "does not fit device ice40-up5k: needs 13808 LUTs (ICESTORM_LC;
# 13700 without the I/O wrapper), has 5280".
FIT_PREFIX = "does not fit"
_RE_FIT = re.compile(r"^does not fit device (?P<device>\S+): needs (?P<needed>\d+) "
                     r"(?P<what>[^(]+?)(?: \((?P<bel>\w+)[^)]*\))?, has (?P<has>\d+)")
# Placed resources named as the device's data sheet counts them: an iCE40 logic cell holds one
# LUT4 and one flip-flop, and the flow counts its cells.
_BEL_UNITS = {"ICESTORM_LC": "LCs", "TRELLIS_COMB": "LUTs"}


def does_not_fit(result: Result) -> bool:
    """A run that ended because the design is larger than its device: a result, not a failure."""
    return not result.ok and str(result.reason or "").startswith(FIT_PREFIX)


def fit_text(result: Result) -> str:
    """"does not fit: needs 13,808 LCs, device has 5,280" from the stored reason (the reason as
    stored when it does not say the two numbers)."""
    reason = " ".join(str(result.reason or "").split())
    match = _RE_FIT.match(reason)
    if match is None:
        return reason
    unit = _BEL_UNITS.get(match["bel"] or "", match["what"].strip())
    return (f"does not fit: needs {int(match['needed']):,} {unit}, "
            f"device has {int(match['has']):,}")


def failed_run(result: Result) -> bool:
    """A run that failed for any reason but its device's size (the report's "Failed runs")."""
    return not result.ok and not does_not_fit(result)


def status_text(result: Result) -> str:
    """ok, failed, or "does not fit" (a result, not a failure)."""
    return FIT_PREFIX if does_not_fit(result) else result.status


# --- Markdown ------------------------------------------------------------------------------

_MD_SPECIAL = "\\|<>*_[]`#"


def md_escape(text: str) -> str:
    """Cell text that Markdown shows literally: specials backslash-escaped, one line."""
    text = " ".join(str(text).split())
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


def to_markdown(table: Table, level: int = 3) -> str:
    if table.folded:  # GitHub and most renderers fold <details>; the table stays Markdown
        inner = to_markdown(Table("", table.headers, table.rows, notes=table.notes))
        summary = md_escape(table.title or "details")
        return f"<details><summary>{summary}</summary>\n\n{inner}\n</details>\n"
    lines = [f"{'#' * level} {md_escape(table.title)}", ""] if table.title else []
    if not table.rows:
        return "\n".join([*lines, "(none)", ""])
    lines.append("| " + " | ".join(md_escape(h) for h in table.headers) + " |")
    lines.append("|" + "|".join("---" for _ in table.headers) + "|")
    for row in table.rows:
        lines.append("| " + " | ".join(md_escape(c) for c in row) + " |")
    lines.append("")
    lines.extend(f"{md_escape(note)}  " for note in table.notes)
    if table.notes:
        lines.append("")
    return "\n".join(lines)
