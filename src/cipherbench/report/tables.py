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
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from ..errors import CipherbenchError
from ..spec import DesignSpec, parse
from ..store import Result
from . import published
from ..flows.libraries import node_text
from .published import PublishedColumn

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
                    "clock_period_ns", "blocks", "family",
                    # a speed grade's per-module ends (flows/asic.py): long, and implied by the row
                    "module_delays_ps"}


def settings_text(settings: dict[str, Any]) -> str:
    """``{"goal": "speed"}`` -> ``goal=speed`` (empty and provenance-only settings left out)."""
    parts = []
    for key in sorted(settings):
        value = settings[key]
        if key in _PROVENANCE_ONLY or value in (None, [], {}, ""):
            continue
        parts.append(f"{key}={value if isinstance(value, str) else json.dumps(value)}")
    return ", ".join(parts)


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
    theirs = published.nsa_columns_for(design, int_keys) if int_keys else ()
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
        table.groups = [("", 2), ("cipherbench", len(ours)), (published.GROUP_LABEL, len(theirs))]
        refs = sorted({f"{c.table} (section {c.section})" for c in theirs})
        table.notes = [f"NSA columns: {published.GROUP_LABEL}, {', '.join(refs)}; "
                       f"{published.SOURCE}.", published.RANGE_NOTE + "."]
        if any(c.key_agility_encrypt_ns or c.key_agility_decrypt_ns for c in theirs):
            table.notes.append("* " + published.KEY_AGILITY_NOTE + ".")
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
    cipher = published.design_cipher(result.design)
    arch = published.architecture_of(result.design)
    if cipher not in published.NSA_CIPHERS or arch is None:
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
    theirs = published.nsa_columns(cipher, None, three_in_one=cores == "3-in-1")
    note = ""
    if not theirs:
        theirs = published.nsa_columns(cipher, None, three_in_one=True)
        note = published.SERPENT_128_NOTE
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
    table.groups = [("", 2), ("cipherbench", len(ours)), (published.GROUP_LABEL, len(theirs))]
    table.notes = [f"{published.SOURCE}.", published.RANGE_NOTE + "."]
    if note:
        table.notes.append(note + ".")
    if any(c.key_agility_encrypt_ns or c.key_agility_decrypt_ns for c in theirs):
        table.notes.append("* " + published.KEY_AGILITY_NOTE + ".")
    table.notes += _column_notes(theirs)
    other = sorted({node_suffix(r).strip(" ()") or "unknown node" for r in ours
                    if r.target_kind == "asic" and node_suffix(r) != " (0.5 um)"})
    if other:
        table.notes.append(f"ASIC columns at {', '.join(other)}: not the NSA's 0.5 um, so their "
                           "area and times differ from the NSA's by the technology; only ASIC "
                           "columns at 0.5 um are set beside the NSA's with ratios (the table "
                           "after this one).")
    return table


def nsa_tables(results: Sequence[Result]) -> list[Table]:
    """Every NSA per-finalist table we have results for, in the NSA's order."""
    found = []
    for cipher in published.NSA_CIPHERS:
        for cores in ("3-in-1", "128-bit"):
            table = nsa_table(cipher, cores, results)
            if table is not None:
                found.append(table)
    return found


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


def target_table(target: str, results: Sequence[Result]) -> Table:
    """All ok results on one target, a row per design x settings x key size."""
    ours = ordered(r for r in results if r.ok and r.target == target)
    kind = target.split(":", 1)[0]
    columns = [*_LEAD, *KIND_COLUMNS.get(kind, _OTHER_COLUMNS)]
    rows = [[fmt(get(r, key)) for _, get in columns] for r in ours for key in key_sizes(r) or [""]]
    return Table(title=f"{KIND_TITLES.get(kind, kind)}: {target}",
                 headers=[name for name, _ in columns], rows=rows)


def target_tables(results: Sequence[Result]) -> list[Table]:
    """One table per target: generic, then each ASIC library+goal, then each FPGA device."""
    targets = sorted({r.target for r in results if r.ok},
                     key=lambda t: (kind_rank(t.split(":", 1)[0]), t))
    return [target_table(t, results) for t in targets]


# --- failures and provenance ---------------------------------------------------------------


def failed_table(results: Sequence[Result]) -> Table:
    failed = ordered(r for r in results if not r.ok)
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
            r.design, column_label(r), r.status,
            fmt(prov.get("git_hash") or prov.get("git")),
            fmt(prov.get("date") or r.created or None),
            fmt(_tools_text(prov.get("tools"))),
            fmt(_liberty_text(prov)),
            ", ".join(f"{k}={_short(fmt(v))}" for k, v in sorted(other.items())) or MISSING,
        ])
    return Table(title="",
                 headers=["Design", "Target", "Status", "Git", "Date", "Tools", "Liberty", "Other"],
                 rows=rows)


# --- Markdown ------------------------------------------------------------------------------

_MD_SPECIAL = "\\|<>*_[]`#"


def md_escape(text: str) -> str:
    """Cell text that Markdown shows literally: specials backslash-escaped, one line."""
    text = " ".join(str(text).split())
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


def to_markdown(table: Table, level: int = 3) -> str:
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
