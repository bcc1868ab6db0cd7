"""The NSA's Tables 1-10 at the NSA's own node (0.5 um): per design, the extremes of our ASIC
points beside the NSA's Min./Max. columns with the ratio ours/NSA (``same_node.side_by_side``),
and the report's NSA section, each regenerated table followed by its comparison."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...flows.libraries import node_text
from ...store import Result
from ..same_node import (
    NSA_NODE_UM, Comparison, Pair, as_number, at_node, library_name, library_text, side_by_side,
)
from ..tables import MISSING, Table, figure, fmt, key_figure, key_order, key_sizes, ordered, \
    settings_text
from . import published as nsa_published
from .parameters import _ks_decrypt, _ks_encrypt, nsa_slot, nsa_slots, nsa_table
from .published import PublishedColumn

# Settings that place a result on a library's synthesis sweep rather than make it another core.
_POINT_SETTINGS = ("goal", "delay_ps", "grade_position", "module_delays_ps")

# --- the NSA's Tables 1-10 at 0.5 um ---------------------------------------------------------


def _bound_of(values: list[float], bound: str) -> float | None:
    if not values:
        return None
    return min(values) if bound == "min" else max(values)


_NSA_FIGURES: tuple[tuple[str, str, Callable[[PublishedColumn, int], Any] | None], ...] = (
    # (label, our per-key metric, published getter); per-key figures come after area/transistors
    ("Throughput (Mbps)", "throughput_mbps", lambda c, k: c.throughput_mbps.get(k)),
    ("Key setup encrypt (ns)", "key_setup_encrypt_ns", lambda c, k: c.key_setup_encrypt_ns.get(k)),
    ("Key setup decrypt (ns)", "key_setup_decrypt_ns", lambda c, k: c.key_setup_decrypt_ns.get(k)),
    ("Time to encrypt one block (ns)", "time_to_encrypt_ns",
     lambda c, k: c.time_to_encrypt_ns.get(k)),
    ("Time to decrypt one block (ns)", "time_to_decrypt_ns",
     lambda c, k: c.time_to_decrypt_ns.get(k)),
)
_NSA_SHOWN = {"key_setup_encrypt_ns": _ks_encrypt, "key_setup_decrypt_ns": _ks_decrypt}
NSA_FIGURES = ("Area (um2)", "Transistors", *(label for label, _, _ in _NSA_FIGURES))


def _variant(result: Result) -> str:
    return settings_text({k: v for k, v in result.settings.items() if k not in _POINT_SETTINGS})


def _nsa_groups(cipher: str, cores: str, results: Sequence[Result]
                ) -> dict[tuple[str, str, str, str], list[Result]]:
    """(architecture, design, library or "generic", variant) -> our results in that NSA table:
    ASIC rows at 0.5 um, and the generic target's (transistors, node-free)."""
    groups: dict[tuple[str, str, str, str], list[Result]] = {}
    for r in ordered(results):
        slot = nsa_slot(r) if r.ok else None
        if slot is None or slot[:2] != (cipher, cores):
            continue
        if r.target_kind == "generic":
            library = "generic"
        elif r.target_kind == "asic" and at_node(r, NSA_NODE_UM):
            library = str(library_name(r))
        else:
            continue
        groups.setdefault((slot[2], r.design, library, _variant(r)), []).append(r)
    return dict(sorted(groups.items(), key=lambda kv: (kv[0][0] != "iterative", kv[0][1],
                                                       kv[0][2] == "generic", kv[0][2],
                                                       kv[0][3])))


def _nsa_rows(found: list[Result], generic: bool, column: PublishedColumn
              ) -> list[tuple[str, dict[str, Pair]]]:
    """(key size, figures) rows of our extremes (``column.bound``) beside one NSA column: the
    generic target's transistor count once; ASIC rows per key size, area on the first."""
    def bound(get: Callable[[Result], Any]) -> float | None:
        return _bound_of(_values(found, get), column.bound)

    if generic:
        return [(MISSING, {"Transistors": Pair(bound(lambda r: figure(r, "transistors")),
                                               column.transistors)})]
    keys = sorted({k for r in found for k in key_sizes(r) if k.isdigit()}, key=key_order)
    out = []
    for index, key in enumerate(keys):
        pairs: dict[str, Pair] = {}
        if index == 0:
            pairs["Area (um2)"] = Pair(bound(lambda r: figure(r, "area_um2")), column.area_um2)
        for label, metric, theirs in _NSA_FIGURES:
            shown = _NSA_SHOWN.get(metric)
            pairs[label] = Pair(bound(lambda r, m=metric: key_figure(r, key, m)),
                                theirs(column, int(key)) if theirs else None,
                                fmt(shown(column, int(key))) if shown else None)
        out.append((key, pairs))
    return out


def _values(found: list[Result], get: Callable[[Result], Any]) -> list[float]:
    return [v for v in (as_number(get(r)) for r in found) if v is not None]


def nsa_comparison(cipher: str, cores: str, results: Sequence[Result]) -> Comparison | None:
    """One NSA table (Tables 1-6, 8-10) at the NSA's node: per design in it, the extremes (Min.,
    Max.) of each figure over our ASIC points at 0.5 um beside the NSA's Min./Max. columns, and
    the generic target's transistor counts beside the NSA's; None without such rows."""
    groups = _nsa_groups(cipher, cores, results)
    if not groups:
        return None
    theirs = nsa_published.nsa_columns(cipher, None, three_in_one=cores == "3-in-1")
    notes = []
    if not theirs:
        theirs = nsa_published.nsa_columns(cipher, None, three_in_one=True)
        notes.append(nsa_published.SERPENT_128_NOTE + ".")
    columns = {(c.architecture, c.bound): c for c in theirs}
    variants: dict[tuple[str, str], int] = {}
    for (_, design, library, _) in groups:
        variants[(design, library)] = variants.get((design, library), 0) + 1
    rows: list[tuple[list[str], dict[str, Pair]]] = []
    for (arch, design, library, variant), found in groups.items():
        generic = library == "generic"
        where = "generic (transistors, any node)" if generic else library_text(library)
        label = f"{design} ({variant})" if variant and variants[(design, library)] > 1 else design
        for bound in ("min", "max"):
            column = columns.get((arch, bound))
            if column is None:
                continue
            for key, pairs in _nsa_rows(found, generic, column):
                rows.append(([label, where, "Min." if bound == "min" else "Max.", key], pairs))
    asic = any(library != "generic" for (_, _, library, _) in groups)
    name = theirs[0].table if theirs else "(no NSA table)"
    title = (f"NSA {name} at the NSA's node ({node_text(NSA_NODE_UM)}): {cipher} {cores}, ours "
             f"beside the NSA's Min./Max." if asic else
             f"NSA {name}, transistor counts: {cipher} {cores}, ours beside the NSA's Min./Max. "
             f"(no ASIC rows at {node_text(NSA_NODE_UM)})")
    notes.append(
        "Ours Min./Max.: each figure's smallest and largest value over our ASIC points of the "
        "design on one library at 0.5 um (area end, speed grades, speed end), as the NSA's are "
        "the extremes of its synthesis sweep; "
        f"{nsa_published.SOURCE}.")
    if any(library == "generic" for (_, _, library, _) in groups):
        notes.append("Transistors: the generic target's count of the same design (no cell "
                     "library: it compares at any node).")
    if not asic:
        notes.append(f"No ASIC result of these cores at {node_text(NSA_NODE_UM)}: only the "
                     "transistor counts compare here; the table above gives the other "
                     "libraries' figures, each labelled with its node.")
    used = {arch for (arch, _, library, _) in groups if library != "generic"}
    if any((c.key_agility_encrypt_ns or c.key_agility_decrypt_ns) and c.architecture in used
           for c in theirs):
        notes.append("* " + nsa_published.KEY_AGILITY_NOTE + "; the ratio is to the key setup.")
    return side_by_side(title, ["Design", "Library (node)", "Bound", "Key size"], NSA_FIGURES,
                        rows, "NSA", notes)


def nsa_comparisons(results: Sequence[Result]) -> list[Comparison]:
    """Every NSA table we have rows for at 0.5 um (or transistor counts), in the NSA's order."""
    comparisons = (nsa_comparison(cipher, cores, results) for cipher, cores in nsa_slots())
    return [comparison for comparison in comparisons if comparison is not None]


def nsa_section_tables(results: Sequence[Result]) -> list[Table]:
    """The report's NSA section: each regenerated NSA table (``parameters.nsa_table``), followed by
    its comparison at the NSA's node when we have rows for one."""
    found = []
    for cipher in nsa_published.NSA_CIPHERS:
        for cores in ("3-in-1", "128-bit"):
            table = nsa_table(cipher, cores, results)
            if table is None:
                continue
            found.append(table)
            comparison = nsa_comparison(cipher, cores, results)
            if comparison is not None:
                found.append(comparison.table)
    return found
