"""Sugawara et al. Table 1 and Fig. 11 regenerated: the ISO/IEC 18033-3 ciphers' loop and compact
cores beside the published 0.18 um figures.

Our rows are every ok ASIC result of an ISO/IEC 18033-3 cipher whose architecture is one the seed
built: the loop architecture (``iterative``: one round per clock; CAST-128's loop core is
``narrow:width=64``) or a compact core (``narrow``: a round over several clocks). Published rows
come from ``published.sugawara_table1()``. Our rows at the seed's node (0.18 um: the osu018 kit) stand
beside the published ones figure for figure (:func:`node_table`: MHz, Mbps, gates and Kbps per
gate, with the ratio ours/published and per figure the median ratio and its spread); rows of
another node (NanGate45) compare only by cycles per block and by the ranking of efficiency.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ...spec import DesignSpec
from ...store import Result
from ..names import shape_of
from .. import same_node
from .published import SugawaraRow, sugawara_table1
from ..same_node import Comparison, Pair, SUGAWARA_NODE_UM, library_name, library_text, result_node
from ..tables import design_spec, Table, cycle_count, figure, fmt, key_figure, key_sizes

# The seed's order (Table 1).
CIPHERS = ("aes", "camellia", "seed", "tdea", "misty1", "cast128")
PUBLISHED_SOURCE = "Sugawara et al. (0.18 um, worst case)"
OURS_SOURCE = "cipherbench"

# Issue targets for our loop cores: the seed authors' own cores through a Yosys+ABC+OpenSTA flow
# equivalent to ours (NanGate45 typ, speed-oriented), as the project's issue states them.
# cipher -> (what the reference core is, Kbps/GE)
REFERENCE_FLOW_TARGETS: dict[str, tuple[str, float]] = {
    "camellia": ("table S-box, 16.4 kGE, 265 MHz, 23 cycles", 90.0),
    "seed": ("1 round/clock, 18.2 kGE, 172 MHz, 16 cycles", 76.0),
    "misty1": ("1 round/clock, 12.6 kGE, 313 MHz, 9 cycles", 176.0),
    "cast128": ("30.2 kGE, 179 MHz, 17 cycles", 22.0),
    "tdea": ("5.7 kGE, 437 MHz, 48 cycles", 103.0),
}

EXPLANATION = (
    "Our rows: every ASIC result of an ISO/IEC 18033-3 cipher in an architecture the seed built "
    "(the loop architecture, one round per clock with keys on the fly, or a compact core that "
    "spreads a round over several clocks), each labelled with its library's node. Rows at the "
    "seed's own node (0.18 um, the osu018 kit; the seed's corner is worst case) compare with the "
    "published ones in absolute terms: the table after Table 1 sets them side by side with the "
    "ratio ours/published. Rows at another node (NanGate45 typical) do not: for them cycles per "
    "block and the ranking by efficiency compare, which the seed's conclusions rest on."
)

HEADERS = ["cipher", "source", "design", "mode", "block", "key", "cycles", "S-box", "synthesis",
           "MHz", "Mbps", "kGE", "Kbps/GE"]


@dataclass(frozen=True)
class OurRow:
    """One of our results as a Table 1 row."""

    cipher: str
    result: Result
    spec: DesignSpec
    key: str

    @property
    def goal(self) -> str:
        return str(self.result.settings.get("goal") or "-")

    @property
    def efficiency(self) -> float | None:
        return key_figure(self.result, self.key, "kbps_per_ge")



def _is_seed_architecture(spec: DesignSpec) -> bool:
    """The loop architecture (one round per clock, on-the-fly keys) or a compact narrow core."""
    shape = shape_of(spec)
    return shape.compact or shape.loop


def our_rows(results: Sequence[Result]) -> list[OurRow]:
    """Our ok ASIC results of the seed's ciphers and architectures, one row per result at its
    smallest key size (cycle counts of these cores do not depend on the key size except
    CAST-128's 12/16 rounds, where the 128-bit key is the seed's)."""
    rows = []
    for result in results:
        if not result.ok or result.target_kind != "asic":
            continue
        spec = design_spec(result.design)
        if spec is None or spec.cipher not in CIPHERS or not _is_seed_architecture(spec):
            continue
        keys = key_sizes(result)
        if not keys:
            continue
        key = "128" if "128" in keys else keys[0]
        rows.append(OurRow(spec.cipher, result, spec, key))
    return sorted(rows, key=lambda r: (CIPHERS.index(r.cipher), r.result.design, r.goal))


def _mode(spec: DesignSpec) -> str:
    return {"encrypt": "Enc.", "decrypt": "Dec."}.get(spec.param_dict.get("ops", "both"),
                                                      "Enc./Dec.")


def _key_text(spec: DesignSpec, key: str) -> str:
    return "/".join(str(k) for k in spec.key_sizes) if spec.key_sizes else key


def _our_cells(row: OurRow) -> list[str]:
    r, spec = row.result, row.spec
    cycles = cycle_count(r, row.key, "cycles_per_chained_block") or cycle_count(r, row.key,
                                                                                 "latency")
    ge = figure(r, "gate_equivalents")
    return [row.cipher, _our_source(r), r.design, _mode(spec), fmt(figure(r, "block_bits")),
            _key_text(spec, row.key), fmt(cycles), spec.param_dict.get("sbox", "-"), row.goal,
            fmt(figure(r, "fmax_mhz")), fmt(key_figure(r, row.key, "throughput_mbps")),
            fmt(ge / 1000 if isinstance(ge, (int, float)) else None), fmt(row.efficiency)]


def _our_source(result: Result) -> str:
    """"cipherbench, osu018_stdcells (0.18 um)"; "cipherbench" where the library's node is not
    known."""
    library = library_name(result)
    return (f"{OURS_SOURCE}, {library_text(library)}" if result_node(result) is not None
            else OURS_SOURCE)


def _published_cells(row: SugawaraRow) -> list[str]:
    return [row.cipher, PUBLISHED_SOURCE, row.architecture, row.mode, fmt(row.block_bits),
            "/".join(str(k) for k in row.key_bits), fmt(row.cycles), row.sbox or "?",
            row.optimize or "?", fmt(row.freq_mhz), fmt(row.throughput_mbps),
            fmt(row.area_kgates), fmt(row.efficiency_kbps_per_gate)]


def table1(results: Sequence[Result]) -> Table:
    """Sugawara Table 1 with our rows under the published rows of each cipher."""
    ours = our_rows(results)
    rows: list[list[str]] = []
    for cipher in CIPHERS:
        rows += [_published_cells(p) for p in sugawara_table1() if p.cipher == cipher]
        rows += [_our_cells(o) for o in ours if o.cipher == cipher]
    libraries = sorted({library_text(library_name(o.result)) for o in ours})
    notes = [
        "Published: loop architecture (one round per clock) and, for SEED and MISTY1, compact "
        "round functions; 0.18 um CMOS, Synopsys DC, worst case; Kbps/gate. Ours: "
        f"Yosys+ABC+OpenSTA on {', '.join(libraries) or 'no library'}, Kbps/GE (gates of the "
        "library's own NAND2); cycles measured in simulation.",
        "'?': the OCR'd seed table does not say (see docs/published.md).",
    ]
    return Table("Sugawara et al. Table 1: ISO/IEC 18033-3 ciphers, published and ours",
                 HEADERS, rows, notes=notes)


def _best(values: list[float | None]) -> float | None:
    numbers = [v for v in values if isinstance(v, (int, float))]
    return max(numbers) if numbers else None


REFERENCE_NODE_UM = 0.045  # the reference-flow targets are NanGate45's


def targets_table(results: Sequence[Result]) -> Table:
    """Per cipher: the best published efficiency, the reference-flow target and our best loop
    core (speed-oriented), with whether the target is met. The targets are NanGate45 figures:
    rows of a library at another known node (osu018) are not judged against them."""
    ours = [o for o in our_rows(results) if result_node(o.result) is None
            or same_node.same_node(result_node(o.result), REFERENCE_NODE_UM)]
    rows = []
    for cipher in CIPHERS:
        published = _best([p.efficiency_kbps_per_gate for p in sugawara_table1()
                           if p.cipher == cipher])
        loop = [o for o in ours if o.cipher == cipher and o.goal == "speed"
                and (shape_of(o.spec).basic_iterative or cipher == "cast128")]
        best = max(loop, key=lambda o: o.efficiency or 0.0, default=None)
        target = REFERENCE_FLOW_TARGETS.get(cipher)
        met: str = "-"
        if target and best is not None and best.efficiency is not None:
            met = "yes" if best.efficiency >= target[1] else "no"
        rows.append([cipher, fmt(published), target[0] if target else "-",
                     fmt(target[1]) if target else "-",
                     best.result.design if best else "-",
                     fmt(best.efficiency) if best else "-", met])
    return Table("Loop cores against the seed authors' cores in an equivalent flow",
                 ["cipher", "published best Kbps/gate (0.18 um)", "reference core",
                  "target Kbps/GE", "our best loop core (speed)", "ours Kbps/GE", "met"], rows,
                 notes=["Targets: the seed authors' cores through a flow like ours on NanGate45 "
                        "(45 nm); only our rows on NanGate45 (or a library of unknown node) are "
                        "judged against them."])


def scatter_points(results: Sequence[Result]) -> dict[str, list[tuple[str, str, float, float]]]:
    """Fig. 11's points: {source: [(cipher, label, kGE, Mbps)]}."""
    points: dict[str, list[tuple[str, str, float, float]]] = {PUBLISHED_SOURCE: [],
                                                               OURS_SOURCE: []}
    for p in sugawara_table1():
        points[PUBLISHED_SOURCE].append((p.cipher, f"{p.cycles} cycles", p.area_kgates,
                                         p.throughput_mbps))
    for o in our_rows(results):
        ge: Any = figure(o.result, "gate_equivalents")
        mbps = key_figure(o.result, o.key, "throughput_mbps")
        if isinstance(ge, (int, float)) and isinstance(mbps, (int, float)):
            # one panel per node: gate counts of different nodes are not one axis
            node = result_node(o.result)
            source = f"{OURS_SOURCE} ({same_node.node_text(node)})" if node else OURS_SOURCE
            points.setdefault(source, []).append((o.cipher, f"{o.result.design} ({o.goal})",
                                                  ge / 1000, float(mbps)))
    return points


# --- Table 1 at the seed's node --------------------------------------------------------------

NODE_FIGURES = ("Clock (MHz)", "Throughput (Mbps)", "Area (K gates)", "Efficiency (Kbps/gate)")
# The seed's rows our rows are set beside: its fastest and its smallest of each cipher and
# architecture, as ours (the OCR'd table leaves some S-box and optimisation labels unknown, so
# rows are matched by what they achieve, not by their labels).
EXTREMES = (("fastest", "highest throughput"), ("smallest", "fewest gates"))


def seed_architecture(row: OurRow) -> str:
    """The seed's architecture class of one of our rows (:attr:`SugawaraRow.architecture`):
    SEED's and MISTY1's narrow cores are its compact round functions, their one-round-per-clock
    cores its straightforward ones; every other cipher's core is the loop architecture."""
    if row.cipher in ("seed", "misty1"):
        return "compact" if shape_of(row.spec).compact else "straightforward"
    return "loop"


def _our_figures(row: OurRow) -> tuple[Any, Any, Any, Any]:
    ge = figure(row.result, "gate_equivalents")
    return (figure(row.result, "fmax_mhz"), key_figure(row.result, row.key, "throughput_mbps"),
            ge / 1000 if isinstance(ge, (int, float)) else None, row.efficiency)


def _pick(rows: list[Any], extreme: str, figures: Any) -> Any:
    """The fastest (highest Mbps) or smallest (fewest gates) of ``rows``."""
    numbered = [(figures(r), r) for r in rows]
    if extreme == "fastest":
        found = [(f[1], r) for f, r in numbered if isinstance(f[1], (int, float))]
        return max(found, key=lambda x: x[0])[1] if found else None
    found = [(f[2], r) for f, r in numbered if isinstance(f[2], (int, float))]
    return min(found, key=lambda x: x[0])[1] if found else None


def _published_figures(row: SugawaraRow) -> tuple[float, float, float, float]:
    return (row.freq_mhz, row.throughput_mbps, row.area_kgates, row.efficiency_kbps_per_gate)


def node_table(results: Sequence[Result]) -> Comparison | None:
    """Sugawara Table 1 at its node (0.18 um): per cipher and architecture, our fastest and our
    smallest core on a 0.18 um library beside the seed's fastest and smallest, MHz, Mbps, gates
    and Kbps/gate with the ratio ours/published; None without rows at 0.18 um."""
    ours = [o for o in our_rows(results) if same_node.at_node(o.result, SUGAWARA_NODE_UM)]
    if not ours:
        return None
    table1_rows = sugawara_table1()
    rows: list[tuple[list[str], dict[str, Pair]]] = []
    for cipher in CIPHERS:
        mode = next(p.mode for p in table1_rows if p.cipher == cipher)
        for arch in dict.fromkeys(p.architecture for p in table1_rows if p.cipher == cipher):
            pub = [p for p in table1_rows if p.cipher == cipher and p.architecture == arch]
            mine = [o for o in ours if o.cipher == cipher and seed_architecture(o) == arch
                    and _mode(o.spec) == mode]
            for library in sorted({str(library_name(o.result)) for o in mine}):
                lib_rows = [o for o in mine if library_name(o.result) == library]
                for extreme, _ in EXTREMES:
                    o = _pick(lib_rows, extreme, _our_figures)
                    p = _pick(pub, extreme, _published_figures)
                    if o is None or p is None:
                        continue
                    cycles = (cycle_count(o.result, o.key, "cycles_per_chained_block")
                              or cycle_count(o.result, o.key, "latency"))
                    lead = [cipher, arch, extreme, f"{o.result.design} ({o.goal})",
                            library_text(library),
                            f"{p.cycles} cycles, {p.sbox or '?'} S-box, {p.optimize or '?'}",
                            f"{fmt(cycles)} / {p.cycles}"]
                    rows.append((lead, {name: Pair(a, b) for name, a, b in zip(
                        NODE_FIGURES, _our_figures(o), _published_figures(p))}))
    if not rows:
        return None
    return same_node.side_by_side(
        "Sugawara et al. Table 1 at its node (0.18 um): ours beside the published",
        ["cipher", "architecture", "row", "our core (synthesis)", "library (node)",
         "published row", "cycles ours / published"], NODE_FIGURES, rows, "published",
        ["Per cipher and architecture (loop; SEED and MISTY1: straightforward and compact), our "
         "fastest core (highest Mbps) beside the seed's fastest and our smallest (fewest gates) "
         "beside its smallest: the seed's S-box and optimisation labels are partly unknown, so "
         "rows are matched by what they achieve. Only our cores of the seed's mode (AES "
         "encryption only, the others both directions).",
         "Published: 0.18 um CMOS, Synopsys DC 2005.09, worst case; gates = 2-input NAND "
         "equivalents. Ours: the same node's open library (osu018: Yosys+ABC+OpenSTA, typical "
         "corner), gate equivalents of its own NAND2."])


def tables(results: Sequence[Result]) -> list[Table]:
    """The report's Sugawara tables: Table 1 with ours, Table 1 at 0.18 um when we have rows
    there, the reference-flow targets."""
    at_node = node_table(results)
    return [table1(results), *([at_node.table] if at_node else []), targets_table(results)]
