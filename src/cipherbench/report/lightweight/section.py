"""The ciphers standardized since the seeds (issue 29): our cores beside their published anchors.

Our rows are the ok ASIC results of SM4, ARIA, CLEFIA, LEA, HIGHT, PRESENT and GIFT (and of AES,
as the reference) in a round-based core (``iterative`` with keys on the fly) or a compact one
(``narrow``), each labelled with its library's node. :func:`anchor_table` sets each published
row (``published.anchors()``) beside our smallest core of the same cipher, architecture and key on
every library: cycles per block compare at any node; gates, MHz, Mbps and Kbps/gate only at the
same node (:mod:`..same_node`), where the ratio ours/published is given. :func:`findings_table`
judges the issue's claims: PRESENT-80's round-based core at or below 1,570 GE at 0.18 um, and
each cipher's round-based core at or beyond its best published throughput per area at a node we
measured.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ...ciphers.registry import ciphers
from ...flows.libraries import node_text
from ...metrics import bits_per_clock_per_kge
from ...spec import DesignSpec
from ...store import Result
from ..names import shape_of
from .. import same_node
from ..same_node import Pair, library_name, library_text, ratio, ratio_text, result_node
from ..tables import MISSING, Table, cycle_count, design_spec, figure, fmt, key_figure, key_sizes
from ..findings import Finding, threshold_verdict
from ..findings import findings_table as judged_table
from .published import NOT_CONFIRMED, PRESENT_TARGET, Anchor, anchors

TITLE = "Ciphers standardized since the seeds: ours beside the published anchors"
NEW_CIPHERS = ("sm4", "aria", "clefia", "lea", "hight", "present", "gift")
CIPHERS = (*NEW_CIPHERS, "aes")
OURS_SOURCE = "cipherbench"

EXPLANATION = (
    "The block ciphers standardized since the seeds (ISO/IEC 18033-3: SM4, HIGHT; ISO/IEC "
    "29192-2: PRESENT, CLEFIA, LEA; ARIA; GIFT-128) and AES's compact cores, in round-based "
    "(one round per clock, keys on the fly) and compact cores, on every ASIC library measured, "
    "each labelled with its node. The published figures are the ones read in their sources "
    "(docs/published.md lists them and those not confirmed). Cycles per block compare at any "
    "node; gates, clock, throughput and Kbps per gate only at the same node, where the ratio "
    "ours/published is given."
)

OUR_HEADERS = ["cipher", "design", "architecture", "mode", "library (node)", "synthesis", "key",
               "cycles", "GE", "MHz", "Mbps", "Kbps/GE"]
ANCHOR_HEADERS = ["cipher", "source", "table", "node", "library", "architecture", "mode", "key",
                  "cycles", "gates", "MHz", "Mbps", "Kbps/gate", "Kbps at 100 kHz", "note"]
FIGURES = ("Cycles", "Area (GE)", "Clock (MHz)", "Throughput (Mbps)", "Efficiency (Kbps/GE)")
NODE_FIGURES = FIGURES[1:]


@dataclass(frozen=True)
class OurRow:
    """One of our ASIC results of these ciphers, at one key size."""

    cipher: str
    result: Result
    spec: DesignSpec
    key: str

    @property
    def goal(self) -> str:
        return str(self.result.settings.get("goal") or "-")

    @property
    def architecture(self) -> str:
        return "compact" if shape_of(self.spec).compact else "round-based"

    @property
    def mode(self) -> str:
        return self.spec.param_dict.get("ops", "both")

    @property
    def node(self) -> float | None:
        return result_node(self.result)

    @property
    def library(self) -> str:
        return str(library_name(self.result))

    def figures(self) -> tuple[Any, Any, Any, Any, Any]:
        """Cycles, GE, MHz, Mbps, Kbps/GE."""
        r = self.result
        cycles = (cycle_count(r, self.key, "cycles_per_chained_block")
                  or cycle_count(r, self.key, "latency"))
        return (cycles, figure(r, "gate_equivalents"), figure(r, "fmax_mhz"),
                key_figure(r, self.key, "throughput_mbps"), key_figure(r, self.key, "kbps_per_ge"))


def _architecture_of(spec: DesignSpec) -> str | None:
    shape = shape_of(spec)
    if shape.compact:
        return "compact"
    return "round-based" if shape.loop else None


def our_rows(results: Sequence[Result], ciphers: Sequence[str] = CIPHERS) -> list[OurRow]:
    """Our ok ASIC results of ``ciphers`` in a round-based or compact core: one row per result
    and key size it has figures for."""
    rows = []
    for result in results:
        if not result.ok or result.target_kind != "asic":
            continue
        spec = design_spec(result.design)
        if spec is None or spec.cipher not in ciphers or _architecture_of(spec) is None:
            continue
        for key in key_sizes(result):
            rows.append(OurRow(spec.cipher, result, spec, key))
    return sorted(rows, key=lambda r: (CIPHERS.index(r.cipher), r.result.design, r.library,
                                       r.goal, int(r.key) if r.key.isdigit() else 0))


def relevant(results: Sequence[Result]) -> bool:
    """Whether the results hold a round-based or compact ASIC core of one of the new ciphers
    (AES alone is the other sections')."""
    return bool(our_rows(results, NEW_CIPHERS))


def ours_table(results: Sequence[Result]) -> Table:
    rows = []
    for o in our_rows(results):
        cycles, ge, mhz, mbps, eff = o.figures()
        rows.append([o.cipher, o.result.design, o.architecture, o.mode, library_text(o.library),
                     o.goal, o.key, fmt(cycles), fmt(ge), fmt(mhz), fmt(mbps), fmt(eff)])
    return Table("Our round-based and compact cores of the new ciphers (and AES)", OUR_HEADERS,
                 rows, notes=["Yosys+ABC+OpenSTA; GE = area / the library's own NAND2; cycles "
                              "per block measured in simulation (chained blocks)."])


def published_table() -> Table:
    rows = []
    for a in anchors():
        rows.append([a.cipher, a.source, a.table, node_text(a.node_um) if a.node_um else "?",
                     a.library, a.architecture, a.ops, str(a.key_bits or "?"), fmt(a.cycles),
                     fmt(a.gates), fmt(a.freq_mhz), fmt(a.throughput_mbps), fmt(a.kbps_per_gate),
                     fmt(a.kbps_at_100khz), a.note])
    missing = "; ".join(f"{cipher}: {what}" for cipher, what in NOT_CONFIRMED)
    return Table("Published hardware figures of the new ciphers", ANCHOR_HEADERS, rows,
                 notes=["'?' or '-': the source read does not give it.",
                        f"Not confirmed from a source read, so not typed: {missing}."])


def _smallest(rows: list[OurRow]) -> OurRow | None:
    found = [o for o in rows if isinstance(o.figures()[1], (int, float))]
    return min(found, key=lambda o: o.figures()[1]) if found else None


def _matches(o: OurRow, a: Anchor) -> bool:
    # a source that gives no key size (a core of several quoting one figure) matches any
    if o.cipher != a.cipher or (a.key_bits is not None and o.key != str(a.key_bits)):
        return False
    if a.architecture not in ("?", o.architecture):
        return False
    return a.ops == "?" or o.mode == a.ops


def anchor_table(results: Sequence[Result]) -> same_node.Comparison | None:
    """Per published row and library: our smallest core of the same cipher, key, architecture
    and mode (of the same synthesis goal where the row says one) beside it; None without one."""
    ours = our_rows(results, NEW_CIPHERS)
    rows: list[tuple[list[str], dict[str, Pair]]] = []
    for a in anchors():
        matching = [o for o in ours if _matches(o, a)]
        for library in sorted({o.library for o in matching}):
            mine = [o for o in matching if o.library == library]
            if a.optimize:
                mine = [o for o in mine if o.goal == a.optimize] or mine
            o = _smallest(mine)
            if o is None:
                continue
            at_node = a.node_um is not None and same_node.same_node(o.node, a.node_um)
            theirs = (a.cycles, a.gates, a.freq_mhz, a.throughput_mbps, a.kbps_per_gate)
            pairs = {FIGURES[0]: Pair(o.figures()[0], theirs[0])}
            for name, mine_value, their_value in zip(NODE_FIGURES, o.figures()[1:], theirs[1:]):
                pairs[name] = (Pair(mine_value, their_value) if at_node
                               else Pair(mine_value, None, fmt(their_value)))
            lead = [a.cipher, f"{o.result.design} ({o.goal})", library_text(library),
                    a.label, node_text(a.node_um) if a.node_um else "?",
                    "yes" if at_node else "no"]
            rows.append((lead, pairs))
    if not rows:
        return None
    return same_node.side_by_side(
        "The new ciphers beside their published anchors",
        ["cipher", "our core (synthesis)", "library (node)", "published row", "published node",
         "same node"], FIGURES, rows, "published",
        ["Per published row and library: our smallest core of the same cipher, key size, "
         "architecture (round-based: one round per clock; compact: a round over several "
         "clocks; any, where the source read does not say) and mode, of the row's synthesis "
         "goal where it names one.",
         "Cycles compare at any node; the other figures get a ratio only where our library is "
         "at the published node (published figures at another node are shown without one)."])


def findings_table(results: Sequence[Result]) -> Table:
    """The issue's claims, judged from our rows: PRESENT-80 round-based at or below 1,570 GE at
    0.18 um; per cipher with a published round-based figure at a node we measured, our best
    round-based Kbps/GE there at or beyond the best published Kbps/gate."""
    ours = our_rows(results, NEW_CIPHERS)
    found = [_present_claim(ours), *_efficiency_claims(ours), *_per_clock_claims(ours)]
    return judged_table(
        "The issue's claims, checked against ours", CLAIM_HEADERS, found,
        notes=["'not measured': no result of ours on a library at that node.",
               "Bits per clock per kGE (block / cycles per block / gates x 1000) leaves the clock "
               "out, so it compares across nodes; the gates are each library's own NAND2 "
               "equivalents."])


CLAIM_HEADERS = ["claim", "our core", "ours", "published / target", "ours/published", "holds"]


def _claim(claim: str, best: OurRow | None, ours: Any, theirs: str, ratio_of: float | None,
           verdict: str) -> Finding:
    """One of the issue's claims judged: our best core and figure beside the published one."""
    core = f"{best.result.design} ({best.goal}), {library_text(best.library)}" if best else MISSING
    return Finding(claim, verdict, {"our core": core, "ours": ours, "published / target": theirs,
                                    "ours/published": ratio_text(ratio_of)})


def _present_claim(ours: list[OurRow]) -> Finding:
    """PRESENT-80 round-based at or below the issue's gate count at 0.18 um."""
    cipher, key, target_ge, node = PRESENT_TARGET
    present = [o for o in ours if o.cipher == cipher and o.key == str(key)
               and o.architecture == "round-based" and same_node.same_node(o.node, node)]
    best = _smallest(present)
    ge = best.figures()[1] if best else None
    return _claim(f"PRESENT-80 round-based at or below {target_ge:,.0f} GE at {node_text(node)} "
                  "(issue 29)", best, fmt(ge), f"{target_ge:,.0f} GE", ratio(ge, target_ge),
                  threshold_verdict(ge, target_ge, higher_is_better=False))


def _efficiency_claims(ours: list[OurRow]) -> list[Finding]:
    """Per cipher and node with a published round-based Kbps/gate: our best round-based
    Kbps/GE there at or beyond the best published."""
    found = []
    for name in NEW_CIPHERS:
        published = [a for a in anchors() if a.cipher == name and a.architecture == "round-based"
                     and a.kbps_per_gate is not None and a.node_um is not None]
        for node_um in sorted({a.node_um for a in published if a.node_um is not None}):
            top = max(a.kbps_per_gate or 0.0 for a in published if a.node_um == node_um)
            mine = [o for o in ours if o.cipher == name and o.architecture == "round-based"
                    and same_node.same_node(o.node, node_um)
                    and isinstance(o.figures()[4], (int, float))]
            mine_best = max(mine, key=lambda o: o.figures()[4], default=None)
            eff = mine_best.figures()[4] if mine_best else None
            found.append(_claim(f"{name} round-based at or beyond the best published throughput "
                                f"per area at {node_text(node_um)}", mine_best, fmt(eff),
                                f"{fmt(top)} Kbps/gate", ratio(eff, top),
                                threshold_verdict(eff, top, higher_is_better=True)))
    return found


def _per_clock_claims(ours: list[OurRow]) -> list[Finding]:
    """Per cipher with a published round-based row that gives cycles: our best round-based
    bits per clock per kGE (any library) against the best published (any node)."""
    found = []
    for name in NEW_CIPHERS:
        mine = [o for o in ours if o.cipher == name and o.architecture == "round-based"]
        published = [a for a in anchors() if a.cipher == name and a.architecture == "round-based"
                     and a.cycles and a.gates]
        if not published:
            continue
        block = ciphers()[name].block_bits
        top = max(bits_per_clock_per_kge(block, a.cycles or 1, a.gates or 1) for a in published)
        scored = [(bits_per_clock_per_kge(block, float(c), float(ge)), o) for o in mine
                  for c, ge in [o.figures()[:2]] if isinstance(c, (int, float))
                  and isinstance(ge, (int, float)) and ge > 0 and c > 0]
        best = max(scored, key=lambda pair: pair[0], default=None)
        found.append(_claim(
            f"{name} round-based at or beyond the best published bits per clock per kGE (any "
            "node)", best[1] if best else None, fmt(round(best[0], 3)) if best else MISSING,
            f"{fmt(round(top, 3))} bits/clock/kGE", ratio(best[0], top) if best else None,
            threshold_verdict(best[0] if best else None, top, higher_is_better=True)))
    return found


def tables(results: Sequence[Result]) -> list[Table]:
    """The section: the published anchors, ours, the side-by-side table when a row matches, the
    claims."""
    comparison = anchor_table(results)
    return [published_table(), ours_table(results),
            *([comparison.table] if comparison else []), findings_table(results)]
