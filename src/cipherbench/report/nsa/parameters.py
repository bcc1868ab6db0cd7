"""The NSA's parameter tables (its section 2.2): per design, parameters down and our results
across, with the NSA's published columns where it built the core; and its per-finalist Tables
1-6, 8-10 regenerated from our iterative and pipelined cores (:func:`nsa_table`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ...store import Result
from ..names import architecture_of, design_cipher
from ..same_node import node_suffix
from ..tables import (
    MISSING, Table, cycle_count, figure, fmt, key_figure, key_order, key_sizes, ordered,
    settings_text,
)
from . import published as nsa_published
from .published import PublishedColumn

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
    keys = sorted({k for r in ours for k in key_sizes(r)}, key=key_order)
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
    keys = sorted({k for r in ours for k in key_sizes(r)}, key=key_order)
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
