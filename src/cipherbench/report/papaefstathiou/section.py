"""Papaefstathiou et al. (seed 002) regenerated: DES and AES cores optimised for area and for
performance (Tables 8-14), and what placement and routing does to the synthesised figures.

The seed synthesised each core twice, area-optimised (AO) and performance-optimised (PO), in
0.18 um VST-UMC cells, and reported latency, throughput, power and area after synthesis and after
placement and routing. Ours: the ASIC target's ``area`` and ``speed`` goals (Yosys+ABC+OpenSTA,
post-synthesis, on osu018 (0.18 um, the seed's node) and NanGate45), the FPGA targets
(post-route) and the ``asic-layout`` target (placed and routed on the OSU 0.18 um kit). Our
synthesised cores at 0.18 um stand beside the seed's synthesised ones figure for figure
(:func:`node_table`, with the ratio ours/published and each figure's median ratio and spread).
The last table compares synthesis against placed-and-routed figures where we have both: the FPGA
flow stores the synthesised resource counts (``synth_luts``, ``synth_ffs``, ``synth_brams``)
beside the placed ones and nextpnr's pre-route timing estimate; the layout flow its cells' area
beside the die and its timing without wires beside the routed one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...spec import DesignSpec
from ...store import Result
from .. import same_node
from .published import PAPA_HARDWARE, PapaHardware
from ..same_node import PAPA_NODE_UM, Comparison, Pair, library_name, library_text, node_suffix
from ..tables import design_spec, MISSING, Table, fmt, key_figure, key_sizes

CIPHERS = ("des", "tdea", "aes")
PUBLISHED_SOURCE = "Papaefstathiou et al. (0.18 um)"
OURS_SOURCE = "cipherbench"
DES_ARCHS = ("iterative", "unrolled", "pipelined")
AES_ARCHS = ("iterative",)  # the seed's AES modules are iterative (10 rounds), none pipelined
GOAL_TO_OPTIMIZATION = {"area": "area", "speed": "performance"}

EXPLANATION = (
    "Papaefstathiou et al. built DES and AES cores area-optimised (AO) and performance-optimised "
    "(PO) in 0.18 um standard cells, and measured them after synthesis and after placement and "
    "routing. Ours: DES, TDEA and AES cores synthesised for area and for speed (post-synthesis "
    "static timing; each row names its library's node), placed and routed on FPGAs and, on the "
    "OSU 0.18 um kit, as ASIC layouts (qflow). Our synthesised cores at 0.18 um (osu018) compare "
    "with the seed's in absolute terms, side by side with the ratio ours/published; on other "
    "nodes and on FPGAs the AO/PO trade-off and the synthesis-to-layout change are what compare."
)

HEADERS = ["cipher", "source", "design", "target", "optimisation", "architecture", "direction",
           "stage", "latency (ns)", "throughput (Gbps)", "power (mW)", "area (K um2)",
           "area (LUTs)"]



@dataclass(frozen=True)
class OurRow:
    cipher: str
    result: Result
    spec: DesignSpec

    @property
    def direction(self) -> str:
        return self.spec.param_dict.get("ops", "both")

    @property
    def key(self) -> str:
        keys = key_sizes(self.result)
        return keys[0] if keys else ""


def _is_seed_core(spec: DesignSpec) -> bool:
    archs = AES_ARCHS if spec.cipher == "aes" else DES_ARCHS
    return spec.cipher in CIPHERS and spec.arch in archs


def our_rows(results: Sequence[Result],
             kinds: tuple[str, ...] = ("asic", "fpga")) -> list[OurRow]:
    """Our ok results of DES, TDEA and iterative AES on the targets of ``kinds``."""
    rows = []
    for r in results:
        if not r.ok or r.target_kind not in kinds:
            continue
        spec = design_spec(r.design)
        if spec is not None and _is_seed_core(spec):
            rows.append(OurRow(spec.cipher, r, spec))
    return sorted(rows, key=lambda o: (CIPHERS.index(o.cipher), o.result.design,
                                       o.result.target_kind, o.result.target,
                                       str(o.result.settings.get("goal"))))


def relevant(results: Sequence[Result]) -> bool:
    return bool(our_rows(results, kinds=("asic", "fpga", "layout")))


def _published_cells(h: PapaHardware) -> list[str]:
    return [h.cipher, f"{PUBLISHED_SOURCE} {h.table}", h.design, h.style, h.optimization,
            h.architecture, h.direction, h.stage, fmt(h.latency_ns), fmt(h.throughput_gbps),
            fmt(h.power_mw), fmt(h.area_kum2), MISSING]


def _number(value: Any) -> float | int | None:
    """A measured number as stored (counts stay ints, so they print without decimals)."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _our_cells(o: OurRow) -> list[str]:
    r = o.result
    fpga = r.target_kind == "fpga"
    latency_name = "time_to_decrypt_ns" if o.direction == "decrypt" else "time_to_encrypt_ns"
    mbps = _number(key_figure(r, o.key, "throughput_mbps"))
    area = _number(r.measurements.get("area_um2") or r.metrics.get("area_um2"))
    goal = str(r.settings.get("goal") or "")
    return [o.cipher, OURS_SOURCE, r.design, r.target + node_suffix(r),
            GOAL_TO_OPTIMIZATION.get(goal, MISSING), o.spec.arch, o.direction,
            "placed and routed" if fpga else "synthesis",
            fmt(key_figure(r, o.key, latency_name)),
            fmt(mbps / 1000 if mbps is not None else None),
            fmt(r.measurements.get("power_mw")),
            fmt(area / 1000 if area is not None else None),
            fmt(r.measurements.get("luts") if fpga else None)]


def _cores_table(title: str, ciphers: tuple[str, ...], tables_ref: str,
                 results: Sequence[Result]) -> Table:
    ours = our_rows(results)
    rows: list[list[str]] = []
    for cipher in ciphers:
        rows += [_published_cells(h) for h in PAPA_HARDWARE if h.cipher == cipher]
        rows += [_our_cells(o) for o in ours if o.cipher == cipher]
    headers = [*HEADERS[:3], "target / style", *HEADERS[4:]]
    return Table(title, headers, rows, notes=[
        (f"Published: {tables_ref}; latency = time for one block, throughput in Gbps, area in "
        "thousands of um2; optimisation area = AO, performance = PO."),
        ("Ours: ASIC goal area = AO, speed = PO (post-synthesis, the library's node after the "
        "target); FPGA rows placed and routed; latency = time to encrypt (decrypt for "
        "decryption-only cores) one block, measured cycles / fmax; throughput non-feedback. "
        "Power only where the flow measured it."),
    ])


def des_table(results: Sequence[Result]) -> Table:
    table = _cores_table("Papaefstathiou et al. Tables 8-10: DES cores, area- vs "
                         "performance-optimised", ("des", "tdea"),
                         "Tables 8 (synthesis), 9 and 10 (placed and routed), sections 4.1-4.2",
                         results)
    # Table 10's designs are asynchronous: ours of them are the asic-desync target's, set beside
    # it in their own section (asynchronous.py).
    table.notes.append("Table 10 (asynchronous DES): our de-synchronized cores are in the "
                       "section on asynchronous DES (target asic-desync), beside its rows.")
    return table


def aes_table(results: Sequence[Result]) -> Table:
    return _cores_table("Papaefstathiou et al. Tables 11-14: AES cores, area- vs "
                        "performance-optimised", ("aes",),
                        "Tables 11/13 (synthesis) and 12/14 (placed and routed), flip-flop (FF) "
                        "and latch (LA) cells, section 4.3", results)


# --- synthesis vs placed and routed --------------------------------------------------------


def _ratio(after: float | None, before: float | None) -> float | None:
    return after / before if after is not None and before else None


def published_pairs() -> list[tuple[PapaHardware, PapaHardware]]:
    """(synthesis, placed and routed) rows of the same published design."""
    synthesis = {h.design: h for h in PAPA_HARDWARE if h.stage == "synthesis"}
    return [(synthesis[h.design], h) for h in PAPA_HARDWARE
            if h.stage == "placed and routed" and h.design in synthesis]


def layout_table(results: Sequence[Result]) -> Table:
    """Area (and for the seed latency) after synthesis and after placement and routing."""
    rows = []
    for syn, pnr in published_pairs():
        rows.append([syn.cipher, f"{PUBLISHED_SOURCE} {syn.table} / {pnr.table}", syn.design,
                     "area (K um2)", fmt(syn.area_kum2), fmt(pnr.area_kum2),
                     fmt(_ratio(pnr.area_kum2, syn.area_kum2)), fmt(syn.latency_ns),
                     fmt(pnr.latency_ns), fmt(_ratio(pnr.latency_ns, syn.latency_ns))])
    for o in our_rows(results, kinds=("asic", "fpga", "layout")):
        r = o.result
        if r.target_kind == "layout":
            rows.append(_asic_layout_row(o.cipher, r))
            continue
        if r.target_kind != "fpga":
            continue
        # Latency of the critical path: nextpnr's estimate after placement (wires estimated)
        # against the routed one; shown on the LUT row.
        estimate = _number(r.measurements.get("placed_estimate_fmax_mhz"))
        routed = _number(r.measurements.get("fmax_mhz"))
        timing = [MISSING, MISSING, MISSING]
        if estimate and routed:
            timing = [fmt(round(1000.0 / estimate, 3)), fmt(round(1000.0 / routed, 3)),
                      fmt(_ratio(estimate, routed))]
        for label, synth_name, placed_name in (("LUTs", "synth_luts", "luts"),
                                               ("flip-flops", "synth_ffs", "ffs"),
                                               ("block RAMs", "synth_brams", "brams")):
            before = _number(r.measurements.get(synth_name))
            after = _number(r.measurements.get(placed_name))
            if before is None or after is None or (label == "block RAMs" and not before):
                continue
            rows.append([o.cipher, OURS_SOURCE, f"{r.design} @ {r.target}", label, fmt(before),
                         fmt(after), fmt(_ratio(after, before)),
                         *(timing if label == "LUTs" else [MISSING, MISSING, MISSING])])
    return Table("Papaefstathiou et al.: synthesis vs placed and routed", [
        "cipher", "source", "design", "area measure", "area, synthesis", "area, placed and routed",
        "P&R / synthesis", "latency synthesis (ns)", "latency P&R (ns)", ("P&R / synthesis "
        "latency")], rows, notes=[
        "Published: the designs the seed reports in both stages (Tables 8/9, 11/12, 13/14).",
        ("Ours: FPGA resource counts after Yosys synthesis and after nextpnr placement (core "
        "without the I/O wrapper). Latency: the critical path as nextpnr estimates it after "
        "placement (before routing) against the routed one, on the LUT row."),
        ("Ours, ASIC (target layout:KIT:dDENSITY:SYNTHESIS): the cells' area against the routed "
        "die (graywolf + qrouter, qflow), as the seed's synthesis against placed-and-routed area; "
        "latency: OpenSTA on the same netlist (by default the asic flow's speed-end netlist) with "
        "pins' capacitance only against the routed wires' parasitics (SPEF from qrouter's RC "
        "trees), ideal clock both times."),
    ])


def _asic_layout_row(cipher: str, r: Result) -> list[str]:
    """One placed-and-routed ASIC design: cell area vs die area, pre- vs post-route latency."""
    m = r.measurements
    cells, die = _number(m.get("area_um2")), _number(m.get("die_area_um2"))
    pre, post = _number(m.get("critical_path_pre_route_ns")), _number(m.get("critical_path_ns"))
    kum2 = [round(v / 1000.0, 1) if v is not None else None for v in (cells, die)]
    return [cipher, OURS_SOURCE, f"{r.design} @ {r.target}", "area (K um2): cells / die",
            fmt(kum2[0]), fmt(kum2[1]), fmt(_ratio(die, cells)), fmt(pre), fmt(post),
            fmt(_ratio(post, pre))]


# --- the seed's synthesised cores at their node (0.18 um) -----------------------------------

NODE_FIGURES = ("Latency (ns)", "Throughput (Gbps)", "Power (mW)", "Area (K um2)")
_SEQUENTIAL_STYLE = {"flipflop": "synchronous flip-flop", "latch": "synchronous latch"}
# Our architecture -> the start of the seed's architecture words for the same core.
_ARCH_WORDS = {"iterative": "iterative", "pipelined": "pipelined"}


def published_match(o: OurRow) -> PapaHardware | None:
    """The seed's synthesised core one of our ASIC rows stands for: same cipher, direction,
    architecture (iterative or pipelined), optimisation (goal area = AO, speed = PO) and storage
    (flip-flops, or latch pairs for the seed's LA cores). Of the DES pipelines the plain
    PO SDES(PERM), not the low-power PO SDES(OD). None when the seed has no such core."""
    goal = str(o.result.settings.get("goal") or "")
    style = _SEQUENTIAL_STYLE.get(str(o.result.settings.get("sequential") or "flipflop"))
    words = _ARCH_WORDS.get(o.spec.arch)
    for h in PAPA_HARDWARE:
        if (h.stage == "synthesis" and h.cipher == o.cipher and h.direction == o.direction
                and h.optimization == GOAL_TO_OPTIMIZATION.get(goal) and h.style == style
                and words is not None and h.architecture.startswith(words)):
            return h
    return None


def _our_figures(o: OurRow) -> tuple[Any, Any, Any, Any]:
    r = o.result
    latency = key_figure(r, o.key, "time_to_decrypt_ns" if o.direction == "decrypt"
                         else "time_to_encrypt_ns")
    mbps = _number(key_figure(r, o.key, "throughput_mbps"))
    area = _number(r.measurements.get("area_um2") or r.metrics.get("area_um2"))
    return (latency, mbps / 1000 if mbps is not None else None, r.measurements.get("power_mw"),
            area / 1000 if area is not None else None)


def node_table(results: Sequence[Result]) -> Comparison | None:
    """The seed's synthesised ASIC cores (Tables 8, 11, 13; 0.18 um) beside ours of the same
    kind synthesised at 0.18 um: latency, throughput, power and area with the ratio
    ours/published; None without such a pair."""
    rows: list[tuple[list[str], dict[str, Pair]]] = []
    for o in our_rows(results, kinds=("asic",)):
        if not same_node.at_node(o.result, PAPA_NODE_UM):
            continue
        h = published_match(o)
        if h is None:
            continue
        lead = [o.cipher, f"{o.result.design} ({o.result.settings.get('goal')})",
                library_text(library_name(o.result)), f"{h.table}: {h.design}", h.optimization,
                h.style]
        rows.append((lead, {name: Pair(a, b) for name, a, b in zip(
            NODE_FIGURES, _our_figures(o),
            (h.latency_ns, h.throughput_gbps, h.power_mw, h.area_kum2))}))
    if not rows:
        return None
    return same_node.side_by_side(
        "Papaefstathiou et al. Tables 8, 11 and 13 at their node (0.18 um): synthesised cores, "
        "ours beside the published", ["cipher", "our core (goal)", "library (node)",
                                      "published core", "optimisation", "storage"],
        NODE_FIGURES, rows, "published",
        ["Pairs: same cipher, direction and architecture; goal area = AO, speed = PO; flip-flops "
         "beside the FF cores, latch pairs (sequential = latch) beside the LA cores; of the DES "
         "pipelines the plain PO SDES(PERM). Both after synthesis: the seed's VST-UMC 0.18 um "
         "cells with Synopsys, ours the osu018 kit with Yosys+ABC+OpenSTA.",
         "Latency: time to encrypt (decrypt for decryption modules) one block, measured cycles / "
         "fmax; power only where our flow measured it (switching activity from simulation)."])


def tables(results: Sequence[Result]) -> list[Table]:
    at_node = node_table(results)
    return [des_table(results), aes_table(results), *([at_node.table] if at_node else []),
            layout_table(results)]
