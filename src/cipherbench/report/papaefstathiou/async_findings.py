"""Papaefstathiou et al.'s findings on asynchronous DES (sections 4.2 and 5), judged per Liberty
library from our rows alone: "holds", "does not hold", or "cannot be checked" naming the rows
that are missing; the figures behind each verdict and the measured reason are printed, computed
from the same rows (never written by hand), beside what the seed's own tables say. The findings
table is the report's one findings mechanism (report/findings.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...store import Result
from .. import same_node
from ..findings import Finding, findings_table as judged_table
from ..same_node import library_text
from ..tables import MISSING, Table, fmt
from .async_rows import (AsyncRow, SyncRow, async_rows, counterpart, idle_share, in_thousands,
                         libraries, ratio_or_none, sync_rows, table_10)
from .published import (PAPA_ASYNC_CLAIMS, PAPA_HALF_LOAD_POWER_MW, PAPA_HARDWARE,
                        PAPA_PO_F_OVER_BEST_SYNC, PapaHardware)

HOLDS, FAILS, UNCHECKED = "holds", "does not hold", "cannot be checked"

# Thresholds the words of the findings are judged by (stated in the findings table's notes).
MUCH_SLOWER = 0.5  # "much slower than PO": under half of PO's throughput
CONTROL_BOUND = 0.5  # control-bound: over half of every handshake cycle is not the logic's
IDLE_ALMOST_NOTHING = 0.10  # "almost no power when idle": the idle half under 10 % of busy
SYNC_DROPS_LITTLE = 0.25  # "does not drop significantly": the idle half keeps 25 % or more


# --- the findings ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Judged:
    """One finding judged on one library: the verdict, our figures behind it, and why."""

    cores: str
    verdict: str
    figures: str
    why: str


def _gbps(mbps: float | None) -> str:
    return f"{fmt(in_thousands(mbps))} Gbps"


def _pct(share: float | None) -> str:
    """A share in percent: whole percents, one decimal below 10 % (an idle core's 0.3 %)."""
    if share is None:
        return MISSING
    percent = 100.0 * share
    return f"{percent:.1f} %" if abs(percent) < 10 else f"{percent:.0f} %"


def _named(row: AsyncRow) -> str:
    """A core by the seed's design it stands for, when it stands for one, and its own."""
    design = row.seed_design
    return f"{design.label} {row.label}" if design else row.label


def _missing(library: str, *needs: tuple[bool, str]) -> str:
    """The rows a finding lacks on ``library``, as a sentence; "" when none."""
    lacking = [what for have, what in needs if not have]
    return f"missing on {library}: " + "; ".join(lacking) if lacking else ""


def _des_async(results: Sequence[Result], library: str) -> list[AsyncRow]:
    return [r for r in async_rows(results) if r.cipher == "des" and r.library == library]


def _best(rows: Sequence[Any], key: Callable[[Any], float | None]) -> Any:
    scored = [r for r in rows if key(r) is not None]
    return max(scored, key=lambda r: key(r)) if scored else None


def _async_text(row: AsyncRow) -> str:
    return (f"{_named(row)}: {fmt(row.efficiency)} Gbps/W "
            f"({_gbps(row.throughput_mbps)}, {fmt(row.power_mw)} mW)")


def _sync_text(row: SyncRow) -> str:
    return (f"{row.label}: {fmt(row.efficiency)} Gbps/W ({_gbps(row.throughput_mbps)}, "
            f"{fmt(row.m('power_mw'))} mW)")


def _against_source(row: AsyncRow, syncs: Sequence[SyncRow]) -> str:
    """What de-synchronizing did to one core: its cycle against the synchronous critical path,
    its throughput and power against the synchronous core it came from."""
    parts = []
    cycle, logic = row.m("cycle_ns"), row.m("synchronous_critical_path_ns")
    if cycle and logic:
        parts.append(f"its handshake cycle is {fmt(cycle)} ns against its synchronous netlist's "
                     f"critical path of {fmt(logic)} ns ({same_node.ratio_text(cycle / logic)}x: "
                     "controllers and matched delays)")
    source = counterpart(row, syncs)
    if source is not None:
        thr = ratio_or_none(row.throughput_mbps, source.throughput_mbps)
        power = ratio_or_none(row.power_mw, source.m("power_mw"))
        if thr is not None and power is not None:
            parts.append(f"against the synchronous core it came from ({source.label}, at its "
                         f"fmax) it streams {same_node.ratio_text(thr)}x the throughput at "
                         f"{same_node.ratio_text(power)}x the power")
    return f"{_named(row)}: " + "; ".join(parts) if parts else ""


def _efficiency_pair(results: Sequence[Result], library: str, only: str | None
                     ) -> tuple[AsyncRow | None, SyncRow | None, str]:
    """The most efficient asynchronous DES (of seed design ``only``, else any) and synchronous
    DES on ``library``, and what is missing when either is."""
    asyncs = [r for r in _des_async(results, library)
              if only is None or r.seed_label == only]
    syncs = sync_rows(results, library, "des")
    best_async = _best(asyncs, lambda r: r.efficiency)
    best_sync = _best(syncs, lambda r: r.efficiency)
    what = f"a de-synchronized DES {only + ' ' if only else ''}with power (asic-desync)"
    missing = _missing(library, (best_async is not None, what),
                       (best_sync is not None, "a synchronous DES with power (asic, asic_power)"))
    return best_async, best_sync, missing


def judge_efficient(results: Sequence[Result], library: str) -> list[Judged]:
    """The most efficient DES (throughput per power) is an asynchronous one."""
    a, s, missing = _efficiency_pair(results, library, None)
    if missing:
        return [Judged("DES", UNCHECKED, missing, MISSING)]
    verdict = HOLDS if a.efficiency > s.efficiency else FAILS
    figures = f"best asynchronous {_async_text(a)}; best synchronous {_sync_text(s)}"
    return [Judged("DES", verdict, figures,
                   _against_source(a, sync_rows(results, library, "des")) or MISSING)]


def judge_po_f_over_sync(results: Sequence[Result], library: str) -> list[Judged]:
    """PO DES(F) beats the best synchronous DES in throughput per power (by about 12 %)."""
    a, s, missing = _efficiency_pair(results, library, "PO(F)")
    if missing:
        return [Judged("DES", UNCHECKED, missing, MISSING)]
    margin = a.efficiency / s.efficiency - 1.0
    verdict = HOLDS if margin > 0 else FAILS
    figures = (f"{_async_text(a)}; best synchronous {_sync_text(s)}: ours "
               f"{100.0 * margin:+.0f} %, the seed's +{100.0 * (PAPA_PO_F_OVER_BEST_SYNC - 1):.0f} %")
    return [Judged("DES", verdict, figures,
                   _against_source(a, sync_rows(results, library, "des")) or MISSING)]


def _latch_pairs(rows: Sequence[AsyncRow]) -> list[tuple[AsyncRow, AsyncRow]]:
    """(PO(L), PO(F)) of the same design and synthesis goal."""
    flops = {r.twin_key: r for r in rows if r.seed_label == "PO(F)"}
    return [(r, flops[r.twin_key]) for r in rows
            if r.seed_label == "PO(L)" and r.twin_key in flops]


def _storage_text(row: AsyncRow) -> str:
    return (f"{row.storage} pairs: {_gbps(row.throughput_mbps)}, latency "
            f"{fmt(row.m('latency_ns'))} ns, {fmt(row.power_mw)} mW")


def _latch_reason(latch: AsyncRow, flop: AsyncRow, faster: bool, more: bool) -> str:
    parts = [f"cycle {fmt(latch.m('cycle_ns'))} ns with latch pairs against "
             f"{fmt(flop.m('cycle_ns'))} ns with flip-flop pairs",
             f"storage {fmt(in_thousands(latch.m('area_storage_um2')))} against "
             f"{fmt(in_thousands(flop.m('area_storage_um2')))} K um2",
             f"switching power {fmt(latch.m('power_switching_mw'))} against "
             f"{fmt(flop.m('power_switching_mw'))} mW, internal "
             f"{fmt(latch.m('power_internal_mw'))} against {fmt(flop.m('power_internal_mw'))} mW"]
    if not faster:
        parts.append("the latch pairs' shorter D-to-Q does not shorten our handshake cycle")
    if not more:
        parts.append("the latch version does not switch more: the seed's cause, latches open "
                     "until data arrive, would show as more switching power")
    return "; ".join(parts)


def judge_latch(results: Sequence[Result], library: str) -> list[Judged]:
    """PO DES(L) is faster but consumes more than PO DES(F), design by design."""
    pairs = _latch_pairs(_des_async(results, library))
    if not pairs:
        return [Judged("DES", UNCHECKED, _missing(library, (False, "a PO(F) and a PO(L) row of "
                       "the same DES pipeline (des/pipelined, granularity stage, flip-flop and "
                       "latch pairs)")), MISSING)]
    judged = []
    for latch, flop in pairs:
        thr_l, thr_f = latch.throughput_mbps, flop.throughput_mbps
        if thr_l is None or thr_f is None or latch.power_mw is None or flop.power_mw is None:
            judged.append(Judged(latch.result.design, UNCHECKED, _missing(
                library, (False, "throughput and power of both (power measured)")), MISSING))
            continue
        faster, more = thr_l > thr_f, latch.power_mw > flop.power_mw
        verdict = HOLDS if faster and more else FAILS
        figures = f"{_storage_text(latch)}; {_storage_text(flop)}"
        cores = latch.result.design + (f" ({latch.ties_text})" if latch.ties else "")
        judged.append(Judged(cores, verdict, figures,
                             _latch_reason(latch, flop, faster, more)))
    return judged


def _bound_text(row: AsyncRow, po: AsyncRow, syncs: Sequence[SyncRow]) -> str:
    source = counterpart(row, syncs)
    against = ratio_or_none(row.throughput_mbps, source.throughput_mbps if source else None)
    return (f"{_named(row)} {_gbps(row.throughput_mbps)} = "
            f"{same_node.ratio_text(ratio_or_none(row.throughput_mbps, po.throughput_mbps))} of PO's, "
            f"control and delays {_pct(row.control_share)} of its "
            f"{fmt(row.m('cycle_ns'))} ns cycle"
            + (f", {same_node.ratio_text(against)}x the synchronous core it came from"
               if against is not None else ""))


def judge_control_bound(results: Sequence[Result], library: str) -> list[Judged]:
    """AO and FGP are control-bound, much slower than PO: each under half of PO's throughput,
    and more than half of each handshake cycle spent outside the logic."""
    rows = _des_async(results, library)
    best = {label: _best([r for r in rows if r.seed_label in labels],
                         lambda r: r.throughput_mbps)
            for label, labels in (("AO", ("AO",)), ("FGP", ("FGP",)),
                                  ("PO", ("PO(F)", "PO(L)")))}
    missing = _missing(library, *((best[label] is not None, f"a de-synchronized {label} DES")
                                  for label in best))
    if missing:
        return [Judged("DES", UNCHECKED, missing, MISSING)]
    ao, fgp, po = best["AO"], best["FGP"], best["PO"]
    syncs = sync_rows(results, library, "des")
    failures = []
    for row in (ao, fgp):
        if row.throughput_mbps >= MUCH_SLOWER * po.throughput_mbps:
            failures.append(f"{row.seed_label} is not much slower than PO "
                            f"({same_node.ratio_text(row.throughput_mbps / po.throughput_mbps)} "
                            "of its throughput)")
        share = row.control_share
        if share is None:
            return [Judged("DES", UNCHECKED, _missing(library, (False, f"{row.seed_label}'s "
                           "cycle_ns and synchronous_critical_path_ns")), MISSING)]
        if share <= CONTROL_BOUND:
            failures.append(f"{row.seed_label}'s cycle is mostly logic: its synchronous critical "
                            f"path is {fmt(row.m('synchronous_critical_path_ns'))} of its "
                            f"{fmt(row.m('cycle_ns'))} ns, control and delays "
                            f"{_pct(share)}")
    figures = "; ".join([_bound_text(ao, po, syncs), _bound_text(fgp, po, syncs),
                         f"PO {po.label} {_gbps(po.throughput_mbps)}, control and delays "
                         f"{_pct(po.control_share)} of its {fmt(po.m('cycle_ns'))} ns cycle"])
    why = ("; ".join(failures) if failures else
           "both spend more of every handshake cycle in control and matched delays than in "
           "logic, and stream under half of PO's blocks")
    return [Judged("DES", FAILS if failures else HOLDS, figures, why)]


def judge_idle(results: Sequence[Result], library: str) -> list[Judged]:
    """Asynchronous cores draw almost nothing when idle; the synchronous core's power does not
    drop significantly at 50 % load."""
    rows = [r for r in _des_async(results, library)
            if r.power_mw and r.m("power_half_idle_mw") is not None]
    syncs = sync_rows(results, library, "des")
    pairs = [(r, s) for r in rows if (s := counterpart(r, syncs)) is not None
             and s.m("power_mw") and s.m("power_half_mw") is not None]
    missing = _missing(library, (bool(rows), "a de-synchronized DES with busy and half-idle "
                                 "power (asic-desync)"),
                       (bool(pairs), "the synchronous core one was built from, with power at "
                        "full and 50 % load (asic, same design and goal, asic_power)"))
    if missing:
        return [Judged("DES", UNCHECKED, missing, MISSING)]
    shares = {r.label: idle_share(r.power_mw, r.m("power_half_idle_mw")) for r in rows}
    sync_shares = {s.label: idle_share(s.m("power_mw"), s.m("power_half_mw"))
                   for _, s in pairs}
    worst_async = max(shares, key=lambda k: shares[k])
    least_sync = min(sync_shares, key=lambda k: sync_shares[k])
    quiet = shares[worst_async] < IDLE_ALMOST_NOTHING
    steady = sync_shares[least_sync] >= SYNC_DROPS_LITTLE
    figures = ("idle half / busy, asynchronous: "
               + ", ".join(f"{k} {_pct(v)}" for k, v in shares.items())
               + "; synchronous at 50 % load: "
               + ", ".join(f"{k} {_pct(v)}" for k, v in sync_shares.items()))
    why = []
    if not quiet:
        row = next(r for r in rows if r.label == worst_async)
        why.append(f"{worst_async} keeps drawing {_pct(shares[worst_async])} of its busy power "
                   f"when idle (leakage {fmt(row.m('power_leakage_mw'))} of "
                   f"{fmt(row.power_mw)} mW)")
    if not steady:
        why.append(f"{least_sync}'s power falls to {_pct(sync_shares[least_sync])} in its idle "
                   "half: post-synthesis with an ideal clock there is no clock tree, the power "
                   "the seed blames for its synchronous cores (section 4.2.2)")
    if quiet and steady:
        row = next(r for r in rows if r.label == worst_async)
        sync = next(s for _, s in pairs if s.label == least_sync)
        idle_mw = 2.0 * row.m("power_half_idle_mw") - row.power_mw
        sync_idle_mw = 2.0 * sync.m("power_half_mw") - sync.m("power_mw")
        why.append(f"idle, {worst_async} draws {fmt(round(idle_mw, 4))} mW (its leakage "
                   f"{fmt(row.m('power_leakage_mw'))} mW): without a token no controller "
                   f"fires; {least_sync} keeps {fmt(round(sync_idle_mw, 4))} mW in its idle "
                   "clocks, its clock still running")
    return [Judged("DES", HOLDS if quiet and steady else FAILS, figures, "; ".join(why))]


# --- what the seed's own tables say ------------------------------------------------------------


def _efficiency_of(h: PapaHardware) -> float:
    return 1000.0 * h.throughput_gbps / h.power_mw  # Gbps per W


def _best_published(table: str) -> PapaHardware:
    return max((h for h in PAPA_HARDWARE if h.table == table), key=_efficiency_of)


def seed_evidence(key: str) -> str:
    """The claim checked against the seed's own tables, computed from them."""
    t10 = table_10()
    po_f, po_l = t10["PO DES(F)"], t10["PO DES(L)"]
    if key in ("efficient", "po_f_over_sync"):
        best10, best9, best8 = (_best_published(t) for t in ("Table 10", "Table 9", "Table 8"))
        head = (f"Table 10's best {best10.design} {fmt(_efficiency_of(best10))} Gbps/W "
                f"(PO DES(F), which the conclusions name, {fmt(_efficiency_of(po_f))}); "
                f"synchronous best Table 9 (placed and routed) {best9.design} "
                f"{fmt(_efficiency_of(best9))}, Table 8 (synthesis) {best8.design} "
                f"{fmt(_efficiency_of(best8))}")
        if key == "efficient":
            return head + ": holds"
        return (head + f": PO DES(F) is {same_node.ratio_text(_efficiency_of(po_f) / _efficiency_of(best9))}"
                f"x and {same_node.ratio_text(_efficiency_of(po_f) / _efficiency_of(best8))}x "
                f"those; no pair of tables gives the text's {PAPA_PO_F_OVER_BEST_SYNC}x")
    if key == "latch":
        return (f"PO DES(L) {fmt(po_l.throughput_gbps)} Gbps, {fmt(po_l.latency_ns)} ns, "
                f"{fmt(po_l.power_mw)} mW; PO DES(F) {fmt(po_f.throughput_gbps)} Gbps, "
                f"{fmt(po_f.latency_ns)} ns, {fmt(po_f.power_mw)} mW: holds")
    if key == "control_bound":
        ao, fgp = t10["AO DES"], t10["FGP DES"]
        return (f"AO {fmt(ao.throughput_gbps)} and FGP {fmt(fgp.throughput_gbps)} Gbps against "
                f"PO DES(F)'s {fmt(po_f.throughput_gbps)}: "
                f"{same_node.ratio_text(ao.throughput_gbps / po_f.throughput_gbps)} and "
                f"{same_node.ratio_text(fgp.throughput_gbps / po_f.throughput_gbps)} of it; no "
                "cycle or control figure is published")
    sync = PAPA_HALF_LOAD_POWER_MW["synchronous area-optimized DES"]
    asynchronous = PAPA_HALF_LOAD_POWER_MW["asynchronous DES"]
    return (f"50 % load: synchronous AO DES {fmt(sync)} mW, asynchronous {fmt(asynchronous)} "
            "mW; neither busy power is given for it")


JUDGES: dict[str, Callable[[Sequence[Result], str], list[Judged]]] = {
    "efficient": judge_efficient,
    "po_f_over_sync": judge_po_f_over_sync,
    "latch": judge_latch,
    "control_bound": judge_control_bound,
    "idle": judge_idle,
}

FINDINGS_HEADERS = ["Finding (Papaefstathiou et al.)", "Where the seed says it", "Library (node)",
                    "Cores", "Ours", "The seed's own tables", "Our figures", "Why"]


def judged(results: Sequence[Result], found: Sequence[str]) -> list[Finding]:
    """Each claim judged on each library of ``found``, beside what the seed's tables say."""
    out = []
    for claim in PAPA_ASYNC_CLAIMS:
        evidence = seed_evidence(claim.key)
        for library in found:
            for j in JUDGES[claim.key](results, library):
                out.append(Finding(claim.statement, j.verdict, {
                    "Where the seed says it": f"section {claim.section}: \"{claim.quote}\"",
                    "Library (node)": library_text(library), "Cores": j.cores,
                    "The seed's own tables": evidence, "Our figures": j.figures, "Why": j.why}))
    return out


def findings_table(results: Sequence[Result]) -> Table | None:
    """Each finding judged on every library with de-synchronized rows, the seed's node first;
    None without such rows."""
    found = libraries(async_rows(results))
    if not found:
        return None
    return judged_table(
        "Papaefstathiou et al.'s findings on asynchronous DES, checked against ours",
        FINDINGS_HEADERS, judged(results, found), verdict="Ours", notes=[
        "Ours: holds / does not hold, or cannot be checked (the rows it lacks are named). Judged "
        "per library from our rows alone; at 0.18 um (osu018) the seed's node.",
        "Throughput per power: Gbps/W = Mbps/mW; asynchronous cores with blocks back to back, "
        "synchronous cores at their fmax (metrics) and the stream workload's power; synchronous "
        "DES = every asic row of DES on the library (both goals, flip-flops and latch pairs).",
        f"The words are judged by: much slower = under {MUCH_SLOWER:g} of PO's throughput; "
        f"control-bound = more than {_pct(CONTROL_BOUND)} of the handshake cycle outside the "
        "synchronous netlist's critical path (controllers, joins, the matched delays' margin); "
        f"almost no power when idle = the idle half under {_pct(IDLE_ALMOST_NOTHING)} of the "
        f"busy power; does not drop significantly = the idle half at least "
        f"{_pct(SYNC_DROPS_LITTLE)} of it. 'By about 12 %' is judged on its direction; our "
        "margin is printed beside the seed's.",
        "The seed's own tables: each claim computed from the published Tables 8-10 and section "
        "4.2.2, to show which the tables bear out.",
    ])
