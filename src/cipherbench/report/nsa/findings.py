"""The NSA seed's qualitative findings, checked against our own rows.

The NSA report ranks the five finalists in words (its sections 6.2 and 7.2). Each finding here
quotes the seed, names where it says so, and is judged from the stored ASIC results of one
Liberty library: the NSA's own node (0.5 um, osu050) when there are finalist rows there, else
each library present, saying its node (:func:`judged_libraries`). The verdicts are "yes", "no",
"partly", or "not measured" when the rows lack a finalist the statement needs. The figures
behind each verdict are printed, and where ours depart, the measured reason is computed from the
same rows (not written by hand): for a core larger than the seed found, the share of its area
that is storage; for a core slower than the seed found, which unit its critical path (as
OpenSTA reported it on the netlist) runs through.

Every figure is for 128-bit keys (3-in-1 cores report their 128-bit figures), taken over all of
a design's ASIC points on the library (area end, speed end, speed grades): a core's area is its
smallest, its throughput and throughput per area its best, as the NSA's Min./Max. columns and
Table 18's best grade.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...store import Result
from .. import same_node
from ..names import design_cipher
from ..findings import Finding
from ..findings import findings_table as judged_table
from ..tables import Table, key_figure, key_sizes
from .parameters import nsa_slot

KEY = "128"
ITERATIVE, PIPELINED = "iterative", "pipelined"
CORES = ("128-bit", "3-in-1")
# The seed's names, so the verdicts read like the statements they check.
NAMES = {"aes": "Rijndael", "serpent": "Serpent", "twofish": "Twofish", "rc6": "RC6",
         "mars": "MARS"}

Figures = dict[str, float]  # cipher -> its figure in one slot


@dataclass(frozen=True)
class Ranking:
    """One ranking statement of the seed: ``ciphers`` come first (``highest``) or last in
    ``metric`` among the finalists' ``architecture`` cores."""

    statement: str
    where: str
    architecture: str
    metric: str  # "throughput" | "efficiency" | "area" | "key setup"
    ciphers: tuple[str, ...]
    highest: bool


FINDINGS: tuple[Ranking, ...] = (
    Ranking("In the pipelined architecture Serpent has the highest throughput",
            "NSA 6.2.10 (Fig. 16: Serpent 8.03 Gbps, Rijndael 5.16) and 7.2.10 (Fig. 36)",
            PIPELINED, "throughput", ("serpent",), True),
    Ranking("In the iterative architecture Rijndael has the highest throughput per area",
            "NSA 6.2 Table 13 and 7.2 Table 18 (iterative)", ITERATIVE, "efficiency", ("aes",),
            True),
    Ranking("MARS is the largest iterative core", "NSA 6.2.2 (Fig. 5) and 7.2 (Fig. 27)",
            ITERATIVE, "area", ("mars",), True),
    Ranking("MARS is the slowest iterative core", "NSA 7.2 (Fig. 27: 'a very low throughput')",
            ITERATIVE, "throughput", ("mars",), False),
    Ranking("MARS is the largest pipeline", "NSA 6.2.8 (Fig. 14)", PIPELINED, "area",
            ("mars",), True),
    Ranking("Twofish and RC6 are the smallest iterative cores",
            "NSA 6.2.1 (RC6 smallest at the fastest configuration, Twofish smallest overall) "
            "and 6.2.2 (Fig. 5)", ITERATIVE, "area", ("twofish", "rc6"), False),
    Ranking("RC6 and MARS have the longest key setup",
            "NSA 6.2.5 (Fig. 9: both off the scale) and 7.2.6 (Figs. 32, 33)", ITERATIVE,
            "key setup", ("rc6", "mars"), True),
)
UNITS = {"throughput": "Mbps", "efficiency": "Kbps/GE", "area": "GE", "key setup": "ns"}
FIGURES_HEADER = "Our figures (128-bit keys; best over the ASIC points)"
HEADERS = ["Finding (NSA)", "Where the seed says it", "Cores", "Ours", FIGURES_HEADER,
           "Why ours depart"]


def _slot(result: Result) -> tuple[str, str, str] | None:
    """(library, cores, architecture) of an ok ASIC result of a finalist's NSA core that has
    128-bit figures."""
    if not result.ok or result.target_kind != "asic" or result.target.count(":") < 2:
        return None
    slot = nsa_slot(result)
    if slot is None or KEY not in key_sizes(result):
        return None
    return result.target.split(":")[1], slot[1], slot[2]


def _value(result: Result, metric: str) -> float | None:
    value = {
        "throughput": lambda: key_figure(result, KEY, "throughput_mbps"),
        "efficiency": lambda: key_figure(result, KEY, "kbps_per_ge"),
        "area": lambda: result.measurements.get("gate_equivalents"),
        "key setup": lambda: key_figure(result, KEY, "key_setup_encrypt_ns"),
    }[metric]()
    return None if value is None else float(value)


# A core's figure over its ASIC points: the smallest area and key setup, the best throughput.
_BEST: dict[str, Callable[[list[float]], float]] = {
    "throughput": max, "efficiency": max, "area": min, "key setup": min}


def figures(results: Sequence[Result], library: str, cores: str, arch: str,
            metric: str) -> Figures:
    """cipher -> its figure among the rows of one (library, cores, architecture)."""
    values: dict[str, list[float]] = {}
    for result in results:
        if _slot(result) != (library, cores, arch):
            continue
        value = _value(result, metric)
        if value is not None:
            values.setdefault(str(design_cipher(result.design)), []).append(value)
    return {cipher: _BEST[metric](vals) for cipher, vals in values.items()}


def _ranked(finding: Ranking, found: Figures) -> list[str]:
    """The ciphers in the finding's order: the named ones should come first."""
    return sorted(found, key=lambda c: found[c], reverse=finding.highest)


def verdict(finding: Ranking, found: Figures) -> str:
    """yes / partly / no when every named cipher and at least one other were measured."""
    if any(c not in found for c in finding.ciphers) or len(found) <= len(finding.ciphers):
        return "not measured"
    ranked = _ranked(finding, found)
    leaders = set(ranked[:len(finding.ciphers)])
    hits = leaders & set(finding.ciphers)
    if len(hits) == len(finding.ciphers):
        return "yes"
    return "partly" if hits else "no"


def _number(value: float) -> str:
    return f"{value:,.0f}" if value >= 1000 else f"{value:.1f}"


def _evidence(finding: Ranking, found: Figures) -> str:
    ranked = _ranked(finding, found)
    return ", ".join(f"{NAMES.get(c, c)} {_number(found[c])}" for c in ranked) + (
        f" {UNITS[finding.metric]}" if found else "")


def storage_share(results: Sequence[Result], library: str, cores: str, arch: str) -> Figures:
    """cipher -> flip-flop area / total area (%) of its smallest core in one slot."""
    smallest: dict[str, Result] = {}
    for result in results:
        if _slot(result) != (library, cores, arch):
            continue
        cipher = str(design_cipher(result.design))
        area = result.measurements.get("area_um2")
        if area and (cipher not in smallest
                     or area < smallest[cipher].measurements["area_um2"]):
            smallest[cipher] = result
    return {c: 100.0 * float(r.measurements.get("sequential_area_um2") or 0.0)
            / float(r.measurements["area_um2"]) for c, r in smallest.items()}


# Where a register or port sits in a core, from its hierarchical name (the generators' units).
_UNITS = (("key_schedule.", "key schedule"), ("datapath.", "rounds"),
          ("controller.", "controller"))


def _unit(name: str) -> str:
    return next((unit for prefix, unit in _UNITS if name.startswith(prefix)), "ports")


def fastest_path(results: Sequence[Result], library: str, cores: str, arch: str,
                 cipher: str) -> tuple[str, str] | None:
    """(start, end) of the critical path at a cipher's fastest point in one slot, as OpenSTA
    reported it on the netlist: a register, or an input port, at each end."""
    best: Result | None = None
    for result in results:
        if (_slot(result) != (library, cores, arch)
                or design_cipher(result.design) != cipher):
            continue
        if best is None or (float(result.measurements.get("fmax_mhz") or 0.0)
                            > float(best.measurements.get("fmax_mhz") or 0.0)):
            best = result
    cells = str(best.measurements.get("critical_path_cells") or "") if best else ""
    end = str(best.measurements.get("critical_path_end") or "") if best else ""
    if not cells or not end:
        return None
    return cells.split(" > ")[0].split(" ")[0], end


def _path_reason(finding: Ranking, missing: list[str], results: Sequence[Result], library: str,
                 cores: str) -> str:
    """The measured reason a throughput ranking departs: where the missing cipher's critical
    path runs. Its rounds set the clock in the seed's pipelines; here it may be another unit."""
    parts = []
    for cipher in missing:
        path = fastest_path(results, library, cores, finding.architecture, cipher)
        if path is None:
            continue
        start, end = path
        units = sorted({_unit(start), _unit(end)} - {"ports"}) or ["ports"]
        verb = "sets" if len(units) == 1 else "set"
        parts.append(f"{NAMES.get(cipher, cipher)}'s critical path at its fastest point runs "
                     f"from {start} to {end}: its {' and '.join(units)}"
                     + (f", not its rounds, {verb} the clock" if "rounds" not in units else
                        f" {verb} the clock"))
    return "; ".join(parts)


def _departure(finding: Ranking, found: Figures, results: Sequence[Result], library: str,
               cores: str) -> str:
    """The measured reason a ranking departs: for size, the missing cipher's storage share; for
    throughput, where its critical path runs."""
    ranked = _ranked(finding, found)
    missing = [c for c in finding.ciphers if c not in ranked[:len(finding.ciphers)]]
    if finding.metric == "throughput" and missing:
        return _path_reason(finding, missing, results, library, cores)
    if finding.metric != "area":
        return ""
    shares = storage_share(results, library, cores, finding.architecture)
    if not missing or not shares:
        return ""
    others = [shares[c] for c in shares if c not in missing]
    measured = [c for c in missing if c in shares]
    if not measured or not others:
        return ""
    parts = "; ".join(f"{NAMES.get(c, c)}'s flip-flops are {shares[c]:.0f} % of its area"
                      for c in measured)
    span = f"{min(others):.0f}-{max(others):.0f} % for the others"
    if all(shares[c] > max(others) for c in measured):
        return (f"{parts}, against {span}: storage (round keys kept in registers) weighs more "
                f"in our library than the S-box logic that made the others larger in the NSA's "
                f"0.5 um flow")
    return f"{parts}, against {span}: the difference is in the logic, not the storage"


def libraries(results: Sequence[Result]) -> list[str]:
    return sorted({slot[0] for r in results if (slot := _slot(r)) is not None})


def judged_libraries(results: Sequence[Result]) -> tuple[list[str], bool]:
    """The libraries the findings are judged on, and whether they are at the NSA's node: those
    at 0.5 um when there are any (the seed's own node: its rankings compare figure for figure),
    else every library with finalist rows, each on its own."""
    found = libraries(results)
    same = [lib for lib in found if same_node.same_node(same_node.library_node(lib),
                                                        same_node.NSA_NODE_UM)]
    return (same, True) if same else (found, False)


def verdicts(results: Sequence[Result], library: str) -> dict[tuple[str, str], str]:
    """(statement, cores) -> verdict, for every finding with rows on ``library``."""
    return {(f.claim, f.cells["Cores"]): f.verdict for f in judged(results, library)}


def _other_nodes_note(results: Sequence[Result], library: str, others: Sequence[str]) -> list[str]:
    """Per library left out of the judgement (another node): where its verdicts differ."""
    mine = verdicts(results, library)
    notes = []
    for other in others:
        theirs = verdicts(results, other)
        differ = [f"{statement} ({cores}): {theirs[(statement, cores)]} there, "
                  f"{said} here" for (statement, cores), said in mine.items()
                  if theirs.get((statement, cores), said) != said]
        where = same_node.library_text(other)
        notes.append(f"Also measured on {where}, not the NSA's node: "
                     + ("the same verdicts." if not differ else
                        "verdicts differ: " + "; ".join(differ) + "."))
    return notes


def findings_table(results: Sequence[Result], library: str,
                   others: Sequence[str] = ()) -> Table:
    """The findings judged on one library's rows; ``others``: libraries at other nodes, whose
    verdicts a note compares."""
    node = same_node.library_node(library)
    at_seed = same_node.same_node(node, same_node.NSA_NODE_UM)
    notes = [
        "Ours: yes when the named finalists rank first (or last) among those measured, partly "
        "when some of them do, not measured when a named finalist or every other is missing.",
        "Area: each core's smallest ASIC point; throughput and Kbps/GE: its best; key setup: "
        "encryption, at its fastest clock.",
        (f"Judged at {same_node.node_text(node)}, the NSA's node: the rankings compare figure "
         "for figure with the seed's." if at_seed else
         f"No finalist rows at the NSA's node ({same_node.node_text(same_node.NSA_NODE_UM)}): "
         f"judged on {same_node.library_text(library)} alone."),
        *_other_nodes_note(results, library, others),
    ]
    return judged_table(
        f"The NSA's findings, checked on {same_node.library_text(library)}"
        + (", the NSA's own node" if at_seed else ""), HEADERS, judged(results, library), notes)


def judged(results: Sequence[Result], library: str) -> list[Finding]:
    """Every finding with rows on ``library``, per set of cores, judged: the verdict, our
    figures, and where ours depart, the measured reason."""
    found_all = []
    for finding in FINDINGS:
        for cores in CORES:
            found = figures(results, library, cores, finding.architecture, finding.metric)
            if not found:
                continue
            said = verdict(finding, found)
            note = _departure(finding, found, results, library, cores) if said in (
                "no", "partly") else ""
            found_all.append(Finding(finding.statement, said, {
                "Where the seed says it": finding.where, "Cores": cores,
                FIGURES_HEADER: _evidence(finding, found), "Why ours depart": note or "-"}))
    return found_all


def findings_tables(results: Sequence[Result]) -> list[Table]:
    """The findings judged at the NSA's node (0.5 um) when we have finalist rows there, the
    other libraries' verdicts compared in a note; else one table per library with finalist ASIC
    rows, each saying its node (none without rows)."""
    judged, at_seed = judged_libraries(results)
    others = [lib for lib in libraries(results) if lib not in judged] if at_seed else []
    return [findings_table(results, library, others) for library in judged]
