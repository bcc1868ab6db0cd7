"""Papaefstathiou et al. section 4.2 regenerated: asynchronous DES by de-synchronization (Table
10), the idle-power experiment, and the seed's findings on them checked from our rows.

Our asynchronous cores are the ``asic-desync`` target's (flows/desync/): a design's synchronous
ASIC netlist with every register a pair of latches or flip-flops under local handshake
controllers and matched delays, verified and measured in timed gate-level simulation. The seed's
four DES designs map onto our generators and the flow's settings (:data:`SEED_DESIGNS`):

- AO DES (area-optimised, iterative, one control unit) = ``des/iterative``, a controller per
  register (granularity ``register``);
- FGP DES (fine-grain pipeline: its RL, KEY and F stages) = ``des/pipelined:inner=1`` (each
  round cut in two), a controller per register;
- PO DES(F) / PO DES(L) (coarse-grain pipeline, a round per stage) = ``des/pipelined``, a
  controller per pipeline stage (granularity ``stage``), flip-flop or latch pairs.

The same four shapes of AES-128 (and TDEA) are measured too; the seed published no asynchronous
AES, so those rows are ours alone. The seed's Table 10 is placed and routed; ours are
post-synthesis unless the target says ``layout``.

Every finding is judged per Liberty library from our rows alone: "holds", "does not hold", or
"cannot be checked" naming the rows that are missing; the figures behind each verdict and the
measured reason are printed, computed from the same rows (never written by hand).
"""


from __future__ import annotations

from typing import Sequence

from ...store import Result
from .. import same_node
from ..same_node import Comparison, Pair, library_text
from ..tables import MISSING, Table, fmt
from .async_findings import findings_table
from .async_rows import (KIND, AsyncRow, SyncAtHalf, async_rows, at_seed_node, counterpart,
                         idle_share, in_thousands, libraries, ratio_or_none, relevant,
                         sync_at_half, sync_rows, table_10)
from .published import PAPA_HALF_LOAD_POWER_MW, PapaHardware

__all__ = ["KIND", "TITLE", "EXPLANATION", "relevant", "tables", "node_table", "cores_tables",
           "idle_table", "findings_table"]

TITLE = ("Papaefstathiou et al.: asynchronous DES by de-synchronization (Table 10, idle power, "
         "findings)")
PUBLISHED_SOURCE = "Papaefstathiou et al. (0.18 um)"
OURS_SOURCE = "cipherbench"
EXPLANATION = (
    "Papaefstathiou et al. de-synchronized DES four ways (section 4.2): an area-optimised "
    "iterative core (AO), a fine-grain pipeline of RL, KEY and F stages (FGP), and a "
    "coarse-grain pipeline of one round per stage with flip-flops (PO DES(F)) or latches "
    "(PO DES(L)), and reported them placed and routed in 0.18 um (Table 10). Ours are the "
    "asic-desync target's: the synchronous netlist of the same architecture with every register "
    "a pair of latches or flip-flops, local handshake controllers per register (AO: "
    "des/iterative; FGP: des/pipelined:inner=1) or per pipeline stage (PO: des/pipelined), and "
    "matched delays sized by OpenSTA, verified and measured in timed gate-level simulation "
    "(Icarus with OpenSTA's SDF): latency and throughput from the simulated handshakes, power "
    "from the simulated activity, glitches included. The AES-128 and TDEA rows are ours alone: "
    "the seed published no asynchronous AES. Then the seed's idle experiment, and its findings "
    "judged from our rows."
)


# --- Table 10 at the seed's node, side by side --------------------------------------------------

NODE_FIGURES = ("Latency (ns)", "Throughput (Gbps)", "Power (mW)", "Area (K um2)")


def _our_figures(row: AsyncRow) -> tuple[float | None, ...]:
    return (row.m("latency_ns"), in_thousands(row.throughput_mbps), row.power_mw,
            in_thousands(row.m("area_um2")))


def node_table(results: Sequence[Result]) -> Comparison | None:
    """Table 10 beside our de-synchronized DES cores at 0.18 um: latency, throughput, power and
    area with the ratio ours/published and each figure's median ratio; None without such rows."""
    published = table_10()
    rows: list[tuple[list[str], dict[str, Pair]]] = []
    for row in async_rows(results):
        design = row.seed_design
        if row.cipher != "des" or design is None or not at_seed_node(row.library):
            continue
        h = published[design.published]
        lead = [f"Table 10: {h.design}", row.result.design, row.variant,
                library_text(row.library), row.stage]
        theirs = (h.latency_ns, h.throughput_gbps, h.power_mw, h.area_kum2)
        rows.append((lead, {name: Pair(ours, pub) for name, ours, pub in zip(
            NODE_FIGURES, _our_figures(row), theirs)}))
    if not rows:
        return None
    return same_node.side_by_side(
        "Papaefstathiou et al. Table 10 at its node (0.18 um): asynchronous DES, ours beside the "
        "published", ["published design", "our core", "storage, granularity, ties",
                      "library (node)",
                      "ours: stage"], NODE_FIGURES, rows, "published", [
            "Pairs: AO DES = des/iterative with a controller per register; FGP DES = "
            "des/pipelined:inner=1 (each round cut in two, the seed's RL/KEY/F stages) with a "
            "controller per register; PO DES(F) and PO DES(L) = des/pipelined with a controller "
            "per stage, flip-flop or latch pairs. The seed does not say which storage AO and FGP "
            "use: each of ours is shown. Ties: input ports held constant (out_ready=1: a "
            "consumer that always takes a result, so a pipeline's stall on it synthesizes away, "
            "as the seed's PO DES had no back-pressure).",
            "Published: placed and routed (Table 10: the seed gives no synthesis figures for "
            "them). Ours: post-synthesis unless the stage column says placed and routed; the "
            "osu018 kit at the seed's node.",
            "Ours: latency of the first block into an idle core, from the handshake that takes "
            "it to the one its result is read at; throughput with blocks back to back; power "
            "over that stream from the timed simulation's activity; area of every cell "
            "(logic, storage, controllers, delay lines).",
        ])


# --- every de-synchronized core, per library ---------------------------------------------------

CORE_HEADERS = [
    "cipher", "source", "seed's design", "our core", "storage", "granularity", "tied ports",
    "stage", "latency (ns)", "latency (handshakes)", "throughput (Gbps)", "reactive (Gbps)",
    "chained (Gbps)", "power (mW)",
    "area (K um2)", "logic (K um2)", "storage (K um2)", "control (K um2)", "delay (K um2)",
    "control + delay (%)", "cycle (ns)", "synchronous critical path (ns)", "timed checks passed"]
_AREA_PARTS = ("logic", "storage", "control", "delay")


def _published_core_cells(h: PapaHardware) -> list[str]:
    return [h.cipher, f"{PUBLISHED_SOURCE} {h.table}", h.design, MISSING, MISSING, MISSING,
            MISSING, h.stage, fmt(h.latency_ns), MISSING, fmt(h.throughput_gbps), MISSING,
            MISSING, fmt(h.power_mw), fmt(h.area_kum2), *[MISSING] * 8]


def _our_core_cells(row: AsyncRow) -> list[str]:
    area = row.m("area_um2")
    overhead = [row.m(f"area_{part}_um2") for part in ("control", "delay")]
    share = (100.0 * sum(overhead) / area if area and all(v is not None for v in overhead)
             else None)
    return [row.cipher, OURS_SOURCE, row.seed_label, row.result.design, row.storage,
            row.granularity, row.ties_text or MISSING, row.stage, fmt(row.m("latency_ns")),
            fmt(row.result.measurements.get("latency_cycles")), fmt(in_thousands(row.throughput_mbps)),
            fmt(in_thousands(row.m("throughput_reactive_mbps"))),
            fmt(in_thousands(row.m("throughput_chained_mbps"))), fmt(row.power_mw), fmt(in_thousands(area)),
            *[fmt(in_thousands(row.m(f"area_{part}_um2"))) for part in _AREA_PARTS], fmt(share),
            fmt(row.m("cycle_ns")), fmt(row.m("synchronous_critical_path_ns")),
            fmt(row.result.measurements.get("timed_verification_passed"))]


def cores_tables(results: Sequence[Result]) -> list[Table]:
    """Per library: Table 10 as published, then every de-synchronized core of ours on it."""
    rows = async_rows(results)
    tables = []
    for library in libraries(rows):
        cells = [_published_core_cells(h) for h in table_10().values()]
        cells += [_our_core_cells(r) for r in rows if r.library == library]
        tables.append(Table(
            f"Papaefstathiou et al. Table 10 regenerated on {library_text(library)}: "
            "de-synchronized DES, TDEA and AES cores", CORE_HEADERS, cells, notes=[
                "Published: Table 10, placed and routed, 0.18 um VST-UMC. The seed published no "
                "asynchronous AES or TDEA: those rows are ours alone.",
                "Seed's design: which of the seed's four our core stands for (AO: iterative, a "
                "controller per register; FGP: pipelined:inner=1, per register; PO(F)/PO(L): "
                "pipelined, per stage, flip-flop/latch pairs); '-' for the other variants.",
                "Ours: stage 'synthesis' = the asynchronous netlist assembled from the "
                "synthesised one (no placement). Latency in time and in handshake cycles of the "
                "first block into an idle core; throughput back to back (a source and a sink "
                "each at its own pace), reactive (each cycle's outputs read before the next "
                "inputs, as a clocked testbench does) and chained (each block the previous "
                "result); tied ports: inputs held constant (out_ready=1: a consumer that "
                "always takes the result, so the pipeline's stall synthesizes away); area by part: logic (the synchronous datapath), storage (the register "
                "pairs), control (handshake controllers, joins), delay (matched delay lines); "
                "control + delay = the asynchronous overhead's share of the area.",
                "Cycle: the mean time of one handshake cycle in the stream (the core's "
                "effective clock), beside the critical path of the synchronous netlist it was "
                "built from. Timed checks: known-answer, random, oracle, key-change and "
                "constant-time blocks passed in timed simulation.",
            ]))
    return tables


# --- the idle experiment ----------------------------------------------------------------------


IDLE_HEADERS = [
    "cipher", "seed's design", "our core", "library (node)", "throughput (Gbps)", "busy (mW)",
    "half idle (mW)", "half idle / busy", "idle half / busy (%)", "synchronous core",
    "its fmax (MHz)", "its throughput at fmax (Gbps)", "clock for the same throughput (MHz)",
    "its 50 % load at fmax (mW)", "its 50 % load at that clock (mW)",
    "asynchronous / synchronous, 50 % load"]


def _idle_cells(row: AsyncRow, scaled: SyncAtHalf | None) -> list[str]:
    busy, half = row.power_mw, row.m("power_half_idle_mw")
    share = idle_share(busy, half) if busy and half is not None else None
    sync_cells = [MISSING] * 6
    if scaled is not None:
        clock = fmt(round(scaled.clock_mhz, 2)) + (" (above its fmax)" if scaled.above_fmax
                                                   else "")
        sync_cells = [scaled.sync.label, fmt(scaled.sync.m("fmax_mhz")),
                      fmt(in_thousands(scaled.sync.throughput_mbps)), clock, fmt(scaled.at_fmax_mw),
                      fmt(round(scaled.scaled_mw, 4))]
    ratio = ratio_or_none(half, scaled.scaled_mw) if scaled is not None else None
    return [row.cipher, row.seed_label, f"{row.label} @ {row.result.target}",
            library_text(row.library), fmt(in_thousands(row.throughput_mbps)), fmt(busy), fmt(half),
            same_node.ratio_text(ratio_or_none(half, busy)),
            fmt(100.0 * share if share is not None else None), *sync_cells,
            same_node.ratio_text(ratio)]


def _published_idle_cells() -> list[str]:
    sync = PAPA_HALF_LOAD_POWER_MW["synchronous area-optimized DES"]
    asynchronous = PAPA_HALF_LOAD_POWER_MW["asynchronous DES"]
    return ["des", f"{PUBLISHED_SOURCE} section 4.2.2", "asynchronous DES", "published",
            MISSING, MISSING, fmt(asynchronous), MISSING, MISSING,
            "synchronous AO DES, 16 busy then 16 idle cycles", MISSING, MISSING, MISSING,
            fmt(sync), MISSING, same_node.ratio_text(asynchronous / sync)]


def idle_table(results: Sequence[Result]) -> Table | None:
    """Busy and half-idle power of every asynchronous core with both, beside its synchronous
    counterpart at 50 % load moved to the clock of the same throughput; None without any."""
    rows = [r for r in async_rows(results)
            if r.power_mw and r.m("power_half_idle_mw") is not None]
    if not rows:
        return None
    syncs = {lib: sync_rows(results, lib) for lib in libraries(rows)}
    cells = [_published_idle_cells()]
    cells += [_idle_cells(r, sync_at_half(r, counterpart(r, syncs[r.library]))) for r in rows]
    return Table("Papaefstathiou et al. section 4.2.2: the idle experiment, asynchronous against "
                 "synchronous at 50 % load", IDLE_HEADERS, cells, notes=[
        "Asynchronous (ours): busy = the stream of blocks back to back; half idle = 16 blocks "
        "busy, then the environment offers nothing for as long, the mean power over both (the "
        "seed's experiment). Idle half / busy = 2 x half idle / busy - 1: what the core draws "
        "while nothing comes, as a share of its busy power.",
        "Synchronous: the core the asynchronous one was built from (same design, library and "
        "synthesis goal, flip-flops; untied where the asynchronous core has tied ports), its "
        "'half' workload (a block every 2 x II clocks) at its "
        "fmax, moved to the clock f at which it streams as fast as the asynchronous core, "
        "f = fmax x asynchronous throughput / its throughput at fmax; both cores then carry "
        "the same blocks per second at 50 % load. Dynamic power scales with the clock, leakage "
        "does not: P(f) = (P_half - P_leak) x f / f0 + P_leak, f0 the clock it was measured at "
        "(its fmax), P_leak its leakage. Above its fmax the figure is extrapolated: that core "
        "cannot run so fast.",
        "Published: section 4.2.2 measured (placed and routed) 171.38 mW for its synchronous "
        "area-optimised DES at 50 % throughput and 12.78 mW for the asynchronous one; it gives "
        "neither core's busy power for that experiment.",
    ])


def tables(results: Sequence[Result]) -> list[Table]:
    """The section's tables: Table 10 at the seed's node (when we have 0.18 um rows), every
    de-synchronized core per library, the idle experiment and the findings."""
    at_node = node_table(results)
    idle = idle_table(results)
    findings = findings_table(results)
    return [*([at_node.table] if at_node else []), *cores_tables(results),
            *([idle] if idle else []), *([findings] if findings else [])]
