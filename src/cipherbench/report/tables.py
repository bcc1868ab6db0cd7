"""Result rows -> tables (Markdown, CSV; html.py renders the same Table objects).

Tables hold display strings; numbers are formatted here once so that Markdown and HTML agree.
Nothing is computed here that metrics.py owns: the figures come from ``Result.metrics`` (what
``metrics.derive`` returned) and ``Result.measurements``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from ..errors import CipherbenchError
from ..spec import DesignSpec, parse
from ..store import Result
from ..flows.libraries import node_text
from .names import architecture_of, design_cipher
from .nsa import published as nsa_published
from .nsa.published import PublishedColumn

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
    return sorted(keys, key=_key_order)


def _key_order(key: str) -> tuple[int, str]:
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


# --- the NSA-style parameter table per design ----------------------------------------------

OursGetter = Callable[[Result, str], Any]
PubGetter = Callable[[PublishedColumn, int], Any]


@dataclass(frozen=True)
class _Param:
    label: str
    ours: OursGetter
    theirs: PubGetter | None = None
    per_key: bool = False
    always: bool = True  # NSA section 2.2 parameters stay even when nobody has a value


def _cycles_text(names: Sequence[str]) -> OursGetter:
    def get(result: Result, key: str) -> str | None:
        counts = [cycle_count(result, key, n) for n in names]
        return None if all(c is None for c in counts) else " / ".join(fmt(c) for c in counts)
    return get


def _key_setup(setup_of: Callable[[PublishedColumn], dict[int, float]],
               agility_of: Callable[[PublishedColumn], dict[int, float]]) -> PubGetter:
    """NSA key setup cell: the time, or "setup/agility*" where the NSA prints both."""
    def get(col: PublishedColumn, key: int) -> Any:
        setup = setup_of(col).get(key)
        agility = agility_of(col).get(key)
        return setup if agility is None else f"{fmt(setup)}/{fmt(agility)}*"
    return get


_ks_encrypt = _key_setup(lambda c: c.key_setup_encrypt_ns, lambda c: c.key_agility_encrypt_ns)
_ks_decrypt = _key_setup(lambda c: c.key_setup_decrypt_ns, lambda c: c.key_agility_decrypt_ns)


def _params() -> list[_Param]:
    """NSA section 2.2 parameters in the NSA tables' order, plus clock, cycles and efficiency."""
    def fig(*names: str) -> OursGetter:
        return lambda r, _k: figure(r, *names)

    def per_key(name: str) -> OursGetter:
        return lambda r, k: key_figure(r, k, name)

    return [
        _Param("Area (um2)", fig("area_um2"), lambda c, _k: c.area_um2),
        _Param("Gate equivalents (GE)", fig("gate_equivalents")),
        _Param("Transistor count", fig("transistors"), lambda c, _k: c.transistors),
        # The NSA's breakdown (Figure 3 blocks), from the generic flow's hierarchical synthesis.
        _Param("Transistors: datapath", fig("transistors_datapath"), always=False),
        _Param("Transistors: key schedule", fig("transistors_key_schedule"), always=False),
        _Param("Transistors: controller", fig("transistors_controller"), always=False),
        _Param("Transistors: interface (top-level glue)", fig("transistors_top_glue"),
               always=False),
        _Param("LUTs", fig("luts"), always=False),
        _Param("Input/Outputs required", fig("io_count"), lambda c, _k: c.io_count),
        _Param("Fmax (MHz)", fig("fmax_mhz")),
        _Param("Cycles: latency / II / chained block", _cycles_text(
            ("latency", "initiation_interval", "cycles_per_chained_block")), per_key=True),
        _Param("Cycles: key setup encrypt / decrypt", _cycles_text(
            ("key_setup_encrypt", "key_setup_decrypt")), per_key=True),
        _Param("Throughput, non-feedback (Mbps)", per_key("throughput_mbps"),
               lambda c, k: c.throughput_mbps.get(k), per_key=True),
        _Param("Throughput, feedback (Mbps)", per_key("throughput_feedback_mbps"), per_key=True),
        _Param("Key setup time encrypt (ns)", per_key("key_setup_encrypt_ns"), _ks_encrypt,
               per_key=True),
        _Param("Key setup time decrypt (ns)", per_key("key_setup_decrypt_ns"), _ks_decrypt,
               per_key=True),
        _Param("Algorithm setup time (ns)", per_key("algorithm_setup_ns"),
               lambda c, k: c.algorithm_setup_ns if k in c.throughput_mbps else None,
               per_key=True),
        _Param("Time to encrypt one block (ns)", per_key("time_to_encrypt_ns"),
               lambda c, k: c.time_to_encrypt_ns.get(k), per_key=True),
        _Param("Time to decrypt one block (ns)", per_key("time_to_decrypt_ns"),
               lambda c, k: c.time_to_decrypt_ns.get(k), per_key=True),
        _Param("Efficiency (Kbps/GE)", per_key("kbps_per_ge"), per_key=True, always=False),
        _Param("Efficiency (Mbps/LUT)", per_key("mbps_per_lut"), per_key=True, always=False),
    ]


def _param_rows(param: _Param, ours: list[Result], theirs: Sequence[PublishedColumn],
                keys: list[str]) -> list[list[str]]:
    rows = []
    for key in keys if param.per_key else [""]:
        cells = [fmt(param.ours(r, key)) for r in ours]
        pub_key = int(key) if key.isdigit() else 0
        cells += [fmt(param.theirs(c, pub_key)) if param.theirs else MISSING for c in theirs]
        if param.always or any(cell != MISSING for cell in cells):
            rows.append([param.label, key or MISSING, *cells])
    return rows


def parameter_table(design: str, results: Sequence[Result]) -> Table:
    """NSA-style table for one design: parameters down, our results (and published) across."""
    ours = ordered(r for r in results if r.ok and r.design == design)
    keys = sorted({k for r in ours for k in key_sizes(r)}, key=_key_order)
    int_keys = [int(k) for k in keys if k.isdigit()]
    theirs = nsa_published.nsa_columns_for(design, int_keys) if int_keys else ()
    rows = [["Settings", MISSING, *[settings_text(r.settings) or MISSING for r in ours],
             *[MISSING for _ in theirs]]]
    for param in _params():
        rows.extend(_param_rows(param, ours, theirs, keys))
    table = Table(
        title=f"Parameters: {design}",
        headers=["Parameter", "Key size", *[r.target + node_suffix(r) for r in ours],
                 *[c.label for c in theirs]],
        rows=rows,
    )
    if theirs:
        table.groups = [("", 2), ("cipherbench", len(ours)), (nsa_published.GROUP_LABEL, len(theirs))]
        refs = sorted({f"{c.table} (section {c.section})" for c in theirs})
        table.notes = [f"NSA columns: {nsa_published.GROUP_LABEL}, {', '.join(refs)}; "
                       f"{nsa_published.SOURCE}.", nsa_published.RANGE_NOTE + "."]
        if any(c.key_agility_encrypt_ns or c.key_agility_decrypt_ns for c in theirs):
            table.notes.append("* " + nsa_published.KEY_AGILITY_NOTE + ".")
        table.notes += _column_notes(theirs)
    return table


def node_suffix(result: Result) -> str:
    """" (0.5 um)" after an ASIC result's target when its library's node is known: the NSA's
    columns are 0.5 um, and only a result of that node compares with them figure for figure."""
    from .same_node import library_name, library_node  # same_node reads this module's helpers

    if result.target_kind not in ("asic", "layout"):
        return ""
    node = library_node(library_name(result))
    return f" ({node_text(node)})" if node is not None else ""


def _column_notes(columns: Sequence[PublishedColumn]) -> list[str]:
    """One line per distinct note of the published columns, naming the columns it is about."""
    labels: dict[str, list[str]] = {}
    for col in columns:
        if col.note:
            labels.setdefault(col.note, []).append(col.label)
    return [f"{', '.join(names)}: {note}." for note, names in labels.items()]


def nsa_slot(result: Result) -> tuple[str, str, str] | None:
    """(cipher, "3-in-1" | "128-bit", architecture) of an NSA table a result belongs in, or None
    for designs the NSA did not build (unrolled, partial pipelines, narrow, other ciphers)."""
    cipher = design_cipher(result.design)
    arch = architecture_of(result.design)
    if cipher not in nsa_published.NSA_CIPHERS or arch is None:
        return None
    keys = {k for k in key_sizes(result) if k.isdigit()}
    if not keys:
        return None
    return cipher, "128-bit" if keys == {"128"} else "3-in-1", arch


def nsa_table(cipher: str, cores: str, results: Sequence[Result]) -> Table | None:
    """An NSA per-finalist table (Tables 1-6, 8-10) regenerated: our iterative and pipelined
    results of that cipher and key-size set, then the NSA's Min./Max. columns of both
    architectures; None when we have no result for it. SERPENT's 128-bit results sit beside its
    3-in-1 Table 8, the only one the NSA printed."""
    ours = [r for r in ordered(results) if r.ok and (nsa_slot(r) or ("",))[:2] == (cipher, cores)]
    if not ours:
        return None
    ours.sort(key=lambda r: (nsa_slot(r)[2] != "iterative", r.design))  # type: ignore[index]
    theirs = nsa_published.nsa_columns(cipher, None, three_in_one=cores == "3-in-1")
    note = ""
    if not theirs:
        theirs = nsa_published.nsa_columns(cipher, None, three_in_one=True)
        note = nsa_published.SERPENT_128_NOTE
    keys = sorted({k for r in ours for k in key_sizes(r)}, key=_key_order)
    rows = [["Settings", MISSING, *[settings_text(r.settings) or MISSING for r in ours],
             *[MISSING for _ in theirs]]]
    for param in _params():
        rows.extend(_param_rows(param, ours, theirs, keys))
    name = theirs[0].table if theirs else "(no NSA table)"
    table = Table(title=f"NSA {name} regenerated: {cipher} {cores}, iterative and pipelined",
                  headers=["Parameter", "Key size",
                           *[f"{r.design} @ {r.target}{node_suffix(r)}" for r in ours],
                           *[c.label for c in theirs]],
                  rows=rows)
    table.groups = [("", 2), ("cipherbench", len(ours)), (nsa_published.GROUP_LABEL, len(theirs))]
    table.notes = [f"{nsa_published.SOURCE}.", nsa_published.RANGE_NOTE + "."]
    if note:
        table.notes.append(note + ".")
    if any(c.key_agility_encrypt_ns or c.key_agility_decrypt_ns for c in theirs):
        table.notes.append("* " + nsa_published.KEY_AGILITY_NOTE + ".")
    table.notes += _column_notes(theirs)
    other = sorted({node_suffix(r).strip(" ()") or "unknown node" for r in ours
                    if r.target_kind == "asic" and node_suffix(r) != " (0.5 um)"})
    if other:
        table.notes.append(f"ASIC columns at {', '.join(other)}: not the NSA's 0.5 um, so their "
                           "area and times differ from the NSA's by the technology; only ASIC "
                           "columns at 0.5 um are set beside the NSA's with ratios (the table "
                           "after this one).")
    return table


def nsa_slots() -> list[tuple[str, str]]:
    """(cipher, cores) of the NSA's per-finalist tables, in the NSA's order."""
    return [(cipher, cores) for cipher in nsa_published.NSA_CIPHERS
            for cores in ("3-in-1", "128-bit")]


def nsa_tables(results: Sequence[Result]) -> list[Table]:
    """Every NSA per-finalist table we have results for, in the NSA's order."""
    tables = (nsa_table(cipher, cores, results) for cipher, cores in nsa_slots())
    return [table for table in tables if table is not None]


def parameter_tables(results: Sequence[Result], skip_nsa: bool = False) -> list[Table]:
    """One NSA-style parameter table per design; ``skip_nsa``: leave out designs that an NSA
    table (:func:`nsa_tables`) already shows."""
    designs = sorted({r.design for r in results if r.ok
                      and not (skip_nsa and nsa_slot(r) is not None)})
    return [parameter_table(d, results) for d in designs]


# --- one table per target ------------------------------------------------------------------

Column = tuple[str, Callable[[Result, str], Any]]


def _m(*names: str) -> Callable[[Result, str], Any]:
    return lambda r, _k: figure(r, *names)


def _k(name: str) -> Callable[[Result, str], Any]:
    return lambda r, k: key_figure(r, k, name)


def _c(name: str) -> Callable[[Result, str], Any]:
    return lambda r, k: cycle_count(r, k, name)


_LEAD: list[Column] = [
    ("Design", lambda r, _k: r.design),
    ("Settings", lambda r, _k: settings_text(r.settings) or None),
    ("Key bits", lambda _r, k: k),
]
_CYCLES: list[Column] = [
    ("Latency (cycles)", _c("latency")),
    ("II (cycles)", _c("initiation_interval")),
    ("Chained block (cycles)", _c("cycles_per_chained_block")),
    ("Key setup enc/dec (cycles)", lambda r, k: _pair(cycle_count(r, k, "key_setup_encrypt"),
                                                      cycle_count(r, k, "key_setup_decrypt"))),
]
_SPEED: list[Column] = [
    ("Fmax (MHz)", _m("fmax_mhz")),
    ("Throughput (Mbps)", _k("throughput_mbps")),
    ("Throughput feedback (Mbps)", _k("throughput_feedback_mbps")),
    ("Time to encrypt (ns)", _k("time_to_encrypt_ns")),
]
KIND_COLUMNS: dict[str, list[Column]] = {
    "generic": [("Transistors", _m("transistors")), ("Cells", _m("cells")),
                ("Logic depth", _m("logic_depth")), *_CYCLES,
                ("Bits per cycle", _k("bits_per_cycle"))],
    "asic": [("Area (um2)", _m("area_um2")), ("GE", _m("gate_equivalents")),
             ("Cells", _m("cells")), ("Flip-flops", _m("flipflops", "ffs")),
             ("Critical path (ns)", _m("critical_path_ns")), *_CYCLES, *_SPEED,
             ("Kbps/GE", _k("kbps_per_ge"))],
    "fpga": [("LUTs", _m("luts")), ("FFs", _m("ffs", "flipflops")), ("BRAMs", _m("brams")),
             ("DSPs", _m("dsps")), *_CYCLES, *_SPEED, ("Mbps/LUT", _k("mbps_per_lut"))],
}
_OTHER_COLUMNS: list[Column] = [*_CYCLES, *_SPEED]


def _pair(a: Any, b: Any) -> str | None:
    return None if a is None and b is None else f"{fmt(a)} / {fmt(b)}"


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


def group_title(kind: str, name: str) -> str:
    if kind == "generic":
        return KIND_TITLES["generic"]
    if kind == "asic":
        return f"ASIC: {name} (every synthesis end, speed grade and variant, fastest first)"
    if kind == "layout":
        return f"ASIC layout: {name}"
    return f"{KIND_TITLES.get(kind, kind)}: {name}"


def critical_path_ns(result: Result) -> float | None:
    """The row's critical path: STA's, else the period of its clock (1000 / Fmax)."""
    path = figure(result, "critical_path_ns")
    if isinstance(path, (int, float)) and not isinstance(path, bool) and path > 0:
        return float(path)
    fmax = figure(result, "fmax_mhz")
    if isinstance(fmax, (int, float)) and not isinstance(fmax, bool) and fmax > 0:
        return 1000.0 / fmax
    return None


def fastest_first(results: Iterable[Result]) -> list[Result]:
    """Per design, its rows by critical path, fastest first (rows without one last): a
    library's speed grades read as the NSA's grade 1 to 5."""
    def key(r: Result) -> tuple[Any, ...]:
        path = critical_path_ns(r)
        return (r.design, path is None, path or 0.0, r.target,
                json.dumps(r.settings, sort_keys=True, default=str))
    return sorted(results, key=key)


def _fit_row(result: Result, columns: list[Column]) -> list[str]:
    """A does-not-fit run in its device's table: the reason, with both numbers, where the area
    would be (the first figure after the lead columns)."""
    row = [fmt(get(result, "")) for _, get in columns[:len(_LEAD)]]
    row[-1] = MISSING  # no key size
    rest = [MISSING] * (len(columns) - len(_LEAD))
    if rest:
        rest[0] = fit_text(result)
    return row + rest


def target_table(kind: str, name: str, results: Sequence[Result]) -> Table:
    """The ok results of one table group (see :func:`table_group`), a row per design x settings
    x key size, and the runs that do not fit the device."""
    mine = [r for r in results if table_group(r) == (kind, name)]
    ours = fastest_first(r for r in mine if r.ok)
    shown = [*ours, *ordered(r for r in mine if does_not_fit(r))]
    common = _common_phrases(shown)
    columns = [_LEAD[0], ("Settings", _settings_but(common)), *_LEAD[2:],
               *KIND_COLUMNS.get(kind, _OTHER_COLUMNS)]
    rows = [[fmt(get(r, key)) for _, get in columns] for r in ours for key in key_sizes(r) or [""]]
    rows += [_fit_row(r, columns) for r in shown[len(ours):]]
    notes = [f"Every row: {', '.join(common)}."] if common else []
    return Table(title=group_title(kind, name), headers=_headers(kind, name, columns),
                 rows=rows, notes=notes)


# An iCE40 logic cell is one LUT4 and one flip-flop; the FPGA flow counts cells as its "luts".
_ICE40_HEADERS = {"LUTs": "Logic cells", "Mbps/LUT": "Mbps/LC"}


def _headers(kind: str, name: str, columns: list[Column]) -> list[str]:
    ice40 = kind == "fpga" and ":ice40:" in f"{name}:"
    return [_ICE40_HEADERS.get(label, label) if ice40 else label for label, _ in columns]


def status_text(result: Result) -> str:
    """ok, failed, or "does not fit" (a result, not a failure)."""
    return FIT_PREFIX if does_not_fit(result) else result.status


def _common_phrases(results: Sequence[Result]) -> list[str]:
    """The settings phrases every row of a table shares: said once, under the table."""
    if not results:
        return []
    first = settings_parts(results[0].settings)
    return [p for p in first if all(p in settings_parts(r.settings) for r in results[1:])]


def _settings_but(common: list[str]) -> Callable[[Result, str], Any]:
    """A row's settings in words without the phrases the whole table shares."""
    def text(r: Result, _key: str) -> str | None:
        return ", ".join(p for p in settings_parts(r.settings) if p not in common) or None
    return text


def target_tables(results: Sequence[Result]) -> list[Table]:
    """One table per group: generic, then each ASIC library, then each FPGA device."""
    groups = sorted({table_group(r) for r in results if r.ok or does_not_fit(r)},
                    key=lambda g: (kind_rank(g[0]), g[1].lower()))
    return [target_table(kind, name, results) for kind, name in groups]


# --- failures and provenance ---------------------------------------------------------------


def failed_table(results: Sequence[Result]) -> Table:
    failed = ordered(r for r in results if failed_run(r))
    return Table(
        title="",  # the section heading names it
        headers=["Design", "Target", "Settings", "Reason", "Date"],
        rows=[[r.design, r.target, settings_text(r.settings) or MISSING,
               " ".join((r.reason or MISSING).split()), r.created or MISSING] for r in failed],
    )


_PROVENANCE_KEYS = ("tools", "liberty", "liberty_file", "liberty_sha256", "git_hash", "git",
                    "date")
# Already in the row (design, target, settings) or too bulky for a table cell; results.csv has
# the full provenance JSON.
_PROVENANCE_SKIP = ("design", "target", "settings", "cache_key", "verification")
_CELL_LIMIT = 80


def _short(text: str) -> str:
    return text if len(text) <= _CELL_LIMIT else text[:_CELL_LIMIT - 3] + "..."


def _tools_text(tools: Any) -> str | None:
    if isinstance(tools, dict):
        return "; ".join(f"{name} {version}" for name, version in sorted(tools.items())) or None
    return fmt(tools) if tools else None


def _liberty_text(prov: dict[str, Any]) -> str | None:
    """``liberty`` as {"path"/"file", "sha256"/"hash"} or a string, or liberty_file/_sha256."""
    lib = prov.get("liberty")
    if isinstance(lib, dict):
        name = lib.get("path") or lib.get("file") or lib.get("name")
        digest = lib.get("sha256") or lib.get("hash")
    else:
        name, digest = lib or prov.get("liberty_file"), prov.get("liberty_sha256")
    if not name and not digest:
        return None
    return f"{name or MISSING} (sha256 {digest})" if digest else str(name)


def provenance_table(results: Sequence[Result]) -> Table:
    """Where each figure came from: tools and versions, Liberty file + hash, git hash, date."""
    rows = []
    for r in ordered(results):
        prov = r.provenance
        other = {k: v for k, v in prov.items()
                 if k not in _PROVENANCE_KEYS and k not in _PROVENANCE_SKIP}
        rows.append([
            r.design, column_label(r), status_text(r),
            fmt(prov.get("git_hash") or prov.get("git")),
            fmt(prov.get("date") or r.created or None),
            fmt(_tools_text(prov.get("tools"))),
            fmt(_liberty_text(prov)),
            ", ".join(f"{k}={_short(fmt(v))}" for k, v in sorted(other.items())) or MISSING,
        ])
    return Table(title="",
                 headers=["Design", "Target", "Status", "Git", "Date", "Tools", "Liberty", "Other"],
                 rows=rows)


def raw_settings_table(results: Sequence[Result]) -> Table:
    """Every run's settings exactly as stored (the tables elsewhere say them in words and leave
    out defaults): folded away, for whoever reruns or compares a row."""
    return Table(title="Settings as stored, per run",
                 headers=["Design", "Target", "Status", "Settings"],
                 rows=[[r.design, r.target, status_text(r), settings_raw(r.settings)]
                       for r in ordered(results)],
                 folded=True)


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


# --- CSV: one row per result x key size, raw numbers ---------------------------------------

_CSV_LEAD = ("id", "cache_key", "design", "target", "target_kind", "settings", "status", "reason",
             "key_bits")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(value: Any) -> Any:
    """Raw numbers; nested values as JSON; text that a spreadsheet would run as a formula quoted."""
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        value = json.dumps(value, sort_keys=True)
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_header(results: Sequence[Result]) -> list[str]:
    """Lead columns, then every measurement, top-level metric, per-key metric and cycle name."""
    meas, top, per_key, cyc = set(), set(), set(), set()
    for r in results:
        meas |= set(r.measurements)
        top |= {k for k in r.metrics if k != "by_key_size"}
        for figures in (r.metrics.get("by_key_size") or {}).values():
            per_key |= set(figures)
        for counts in r.cycles.values():
            cyc |= set(counts or {})
    return [*_CSV_LEAD,
            *(f"measurements.{n}" for n in sorted(meas)),
            *(f"metrics.{n}" for n in sorted(top | per_key)),
            *(f"cycles.{n}" for n in sorted(cyc)),
            "provenance", "created"]


def _csv_values(r: Result, key: str, header: list[str]) -> list[Any]:
    lead = {"id": r.id, "cache_key": r.cache_key, "design": r.design, "target": r.target,
            "target_kind": r.target_kind, "settings": r.settings or None, "status": r.status,
            "reason": r.reason, "key_bits": key or None, "provenance": r.provenance or None,
            "created": r.created}
    per_key = (r.metrics.get("by_key_size") or {}).get(key, {})
    out = []
    for name in header:
        source, _, field_name = name.partition(".")
        if not field_name:
            value = lead.get(name)
        elif source == "measurements":
            value = r.measurements.get(field_name)
        elif source == "cycles":
            value = (r.cycles.get(key) or {}).get(field_name)
        else:
            value = per_key.get(field_name, r.metrics.get(field_name))
        out.append(_csv_cell(value))
    return out


def to_csv(results: Sequence[Result]) -> str:
    rows = ordered(results)
    header = csv_header(rows)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    for r in rows:
        for key in key_sizes(r) or [""]:
            writer.writerow(_csv_values(r, key, header))
    return buf.getvalue()
