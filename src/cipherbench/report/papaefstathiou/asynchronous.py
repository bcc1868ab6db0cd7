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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...spec import DesignSpec
from ...store import Result
from .. import same_node
from ..same_node import PAPA_NODE_UM, Comparison, Pair, library_name, library_text
from ..tables import MISSING, Table, design_spec, fmt, key_figure, key_sizes
from .published import (PAPA_ASYNC_CLAIMS, PAPA_HALF_LOAD_POWER_MW, PAPA_HARDWARE,
                        PAPA_PO_F_OVER_BEST_SYNC, PapaHardware)

KIND = "desync"  # Result.target_kind of the asic-desync target's rows
CIPHERS = ("des", "tdea", "aes")
TITLE = ("Papaefstathiou et al.: asynchronous DES by de-synchronization (Table 10, idle power, "
         "findings)")
PUBLISHED_SOURCE = "Papaefstathiou et al. (0.18 um)"
OURS_SOURCE = "cipherbench"
HOLDS, FAILS, UNCHECKED = "holds", "does not hold", "cannot be checked"

# Thresholds the words of the findings are judged by (stated in the findings table's notes).
MUCH_SLOWER = 0.5  # "much slower than PO": under half of PO's throughput
CONTROL_BOUND = 0.5  # control-bound: over half of every handshake cycle is not the logic's
IDLE_ALMOST_NOTHING = 0.10  # "almost no power when idle": the idle half under 10 % of busy
SYNC_DROPS_LITTLE = 0.25  # "does not drop significantly": the idle half keeps 25 % or more

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


# --- the seed's designs and our rows -----------------------------------------------------------


@dataclass(frozen=True)
class SeedDesign:
    """One of the seed's asynchronous DES designs as our generators and the desync flow's
    settings build it."""

    label: str  # "AO", "FGP", "PO(F)", "PO(L)"
    published: str  # its name in Table 10
    arch: str  # our architecture
    inner: str | None  # the pipeline's inner-round cuts; None for the iterative core
    granularity: str  # one controller per "register" or per pipeline "stage"
    storage: str | None  # "flipflop" | "latch"; None: the seed does not say, either matches


SEED_DESIGNS: tuple[SeedDesign, ...] = (
    SeedDesign("AO", "AO DES", "iterative", None, "register", None),
    SeedDesign("FGP", "FGP DES", "pipelined", "1", "register", None),
    SeedDesign("PO(F)", "PO DES(F)", "pipelined", "0", "stage", "flipflop"),
    SeedDesign("PO(L)", "PO DES(L)", "pipelined", "0", "stage", "latch"),
)


def _matches(design: SeedDesign, spec: DesignSpec, storage: str, granularity: str) -> bool:
    params = spec.param_dict
    if spec.arch != design.arch or granularity != design.granularity:
        return False
    if design.storage is not None and storage != design.storage:
        return False
    # A partial pipeline is not the seed's 16-stage one.
    return design.inner is None or (params.get("inner", "0") == design.inner
                                    and params.get("stages", "full") == "full")


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def _target_settings(result: Result) -> dict[str, Any]:
    """Library, storage, granularity, goal, tied ports and whether placed, from the settings,
    else from the target id
    ``desync:LIB:STORAGE:GRANULARITY[:speed][:PORT=VALUE...][:layout[:density=D]]``."""
    parts = result.target.split(":")
    extras = parts[4:]
    ties = dict(extra.split("=", 1) for extra in extras
                if "=" in extra and not extra.startswith("density="))
    found: dict[str, Any] = {
        "library": parts[1] if len(parts) > 1 else None,
        "storage": parts[2] if len(parts) > 2 else None,
        "granularity": parts[3] if len(parts) > 3 else None,
        "goal": "speed" if "speed" in extras else "area",
    }
    settings = result.settings
    found["library"] = library_name(result) or found["library"]
    for key in ("storage", "granularity", "goal"):
        if settings.get(key):
            found[key] = str(settings[key])
    found["placed"] = "layout" in extras or bool(settings.get("layout"))
    found["ties"] = {str(k): str(v) for k, v in (settings.get("ties") or ties).items()}
    return found


@dataclass(frozen=True)
class AsyncRow:
    """One ok row of the asic-desync target, with what it was built as."""

    result: Result
    spec: DesignSpec
    library: str
    storage: str
    granularity: str
    goal: str
    placed: bool
    # Input ports held constant ({"out_ready": "1"}: a consumer that always takes a result, so
    # the pipeline's stall synthesizes away); the same core otherwise.
    ties: tuple[tuple[str, str], ...] = ()

    @property
    def cipher(self) -> str:
        return self.spec.cipher

    @property
    def seed_design(self) -> SeedDesign | None:
        return next((d for d in SEED_DESIGNS
                     if _matches(d, self.spec, self.storage, self.granularity)), None)

    @property
    def seed_label(self) -> str:
        design = self.seed_design
        return design.label if design else MISSING

    def m(self, name: str) -> float | None:
        return _number(self.result.measurements.get(name))

    @property
    def throughput_mbps(self) -> float | None:
        """Blocks back to back, as simulated; else the effective clock's derived figure."""
        measured = self.m("throughput_stream_mbps")
        if measured is not None:
            return measured
        keys = key_sizes(self.result)
        return _number(key_figure(self.result, keys[0], "throughput_mbps")) if keys else None

    @property
    def power_mw(self) -> float | None:
        return self.m("power_mw")

    @property
    def efficiency(self) -> float | None:
        """Throughput per power: Mbps per mW, which is Gbps per W."""
        return _ratio(self.throughput_mbps, self.power_mw)

    @property
    def control_share(self) -> float | None:
        """The share of a handshake cycle that is not the synchronous netlist's critical path:
        controllers, C-element joins and the matched delays' margin."""
        cycle, logic = self.m("cycle_ns"), self.m("synchronous_critical_path_ns")
        if not cycle or logic is None:
            return None
        return 1.0 - logic / cycle

    @property
    def stage(self) -> str:
        return "placed and routed" if self.placed else "synthesis"

    @property
    def ties_text(self) -> str:
        return ", ".join(f"{port}={value}" for port, value in self.ties)

    @property
    def variant(self) -> str:
        """Storage and granularity, and the tied ports where there are any."""
        return ", ".join([self.storage, self.granularity, *([self.ties_text] if self.ties else [])])

    @property
    def label(self) -> str:
        return f"{self.result.design} ({self.variant})"

    @property
    def twin_key(self) -> tuple[str, str, tuple[tuple[str, str], ...], bool]:
        """What a flip-flop and a latch version of one core share."""
        return (str(self.spec), self.goal, self.ties, self.placed)


def async_rows(results: Sequence[Result]) -> list[AsyncRow]:
    """Our ok asic-desync rows of DES, TDEA and AES, in the seed's order of designs."""
    rows = []
    for r in results:
        if not r.ok or r.target_kind != KIND:
            continue
        spec = design_spec(r.design)
        found = _target_settings(r)
        if spec is None or spec.cipher not in CIPHERS or not found["library"]:
            continue
        rows.append(AsyncRow(r, spec, str(found["library"]), str(found["storage"]),
                             str(found["granularity"]), str(found["goal"]), found["placed"],
                             tuple(sorted(found["ties"].items()))))
    return sorted(rows, key=_row_order)


def _row_order(row: AsyncRow) -> tuple[Any, ...]:
    design = row.seed_design
    index = SEED_DESIGNS.index(design) if design else len(SEED_DESIGNS)
    return (CIPHERS.index(row.cipher), index, row.result.design, row.storage, row.granularity,
            row.goal, row.ties, row.placed, row.result.target)


def relevant(results: Sequence[Result]) -> bool:
    """The section appears only with de-synchronized DES, TDEA or AES rows."""
    return bool(async_rows(results))


def _at_seed_node(library: str) -> bool:
    return same_node.same_node(same_node.library_node(library), PAPA_NODE_UM)


def libraries(rows: Sequence[AsyncRow]) -> list[str]:
    """Libraries of the rows, those at the seed's node (0.18 um) first."""
    return sorted({row.library for row in rows}, key=lambda lib: (not _at_seed_node(lib), lib))


@dataclass(frozen=True)
class SyncRow:
    """One ok synchronous ASIC row (an ``asic:LIB:GOAL`` end, flip-flops or latch pairs)."""

    result: Result
    spec: DesignSpec
    library: str

    def m(self, name: str) -> float | None:
        return _number(self.result.measurements.get(name))

    @property
    def throughput_mbps(self) -> float | None:
        keys = key_sizes(self.result)
        return _number(key_figure(self.result, keys[0], "throughput_mbps")) if keys else None

    @property
    def efficiency(self) -> float | None:
        return _ratio(self.throughput_mbps, self.m("power_mw"))

    @property
    def goal(self) -> str:
        return str(self.result.settings.get("goal") or "area")

    @property
    def sequential(self) -> str:
        return str(self.result.settings.get("sequential") or "flipflop")

    @property
    def label(self) -> str:
        return f"{self.result.design} @ {self.result.target}"


def sync_rows(results: Sequence[Result], library: str,
              cipher: str | None = None) -> list[SyncRow]:
    """Our synchronous ASIC rows on ``library`` at the ends of synthesis (speed grades' delay
    targets left out)."""
    rows = []
    for r in results:
        # The ends of synthesis store delay_ps as None; a speed grade's is its target.
        if (not r.ok or r.target_kind != "asic" or r.settings.get("delay_ps") is not None
                or library_name(r) != library):
            continue
        spec = design_spec(r.design)
        if spec is not None and spec.cipher in CIPHERS and cipher in (None, spec.cipher):
            rows.append(SyncRow(r, spec, library))
    return rows


def counterpart(row: AsyncRow, syncs: Sequence[SyncRow]) -> SyncRow | None:
    """The synchronous core the asynchronous one was built from: same design and library, the
    same synthesis goal, flip-flops (the desync flow starts from the flip-flop netlist). For a
    core with tied ports, the untied synchronous core (the asic target ties none)."""
    for s in syncs:
        if (str(s.spec) == str(row.spec) and s.library == row.library and s.goal == row.goal
                and s.sequential == "flipflop"):
            return s
    return None


# --- Table 10 at the seed's node, side by side --------------------------------------------------

NODE_FIGURES = ("Latency (ns)", "Throughput (Gbps)", "Power (mW)", "Area (K um2)")


def table_10() -> dict[str, PapaHardware]:
    """Table 10's rows by design name."""
    return {h.design: h for h in PAPA_HARDWARE if h.table == "Table 10"}


def _kilo(value: float | None) -> float | None:
    return value / 1000.0 if value is not None else None


def _our_figures(row: AsyncRow) -> tuple[float | None, ...]:
    return (row.m("latency_ns"), _kilo(row.throughput_mbps), row.power_mw,
            _kilo(row.m("area_um2")))


def node_table(results: Sequence[Result]) -> Comparison | None:
    """Table 10 beside our de-synchronized DES cores at 0.18 um: latency, throughput, power and
    area with the ratio ours/published and each figure's median ratio; None without such rows."""
    published = table_10()
    rows: list[tuple[list[str], dict[str, Pair]]] = []
    for row in async_rows(results):
        design = row.seed_design
        if row.cipher != "des" or design is None or not _at_seed_node(row.library):
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
            fmt(row.result.measurements.get("latency_cycles")), fmt(_kilo(row.throughput_mbps)),
            fmt(_kilo(row.m("throughput_reactive_mbps"))),
            fmt(_kilo(row.m("throughput_chained_mbps"))), fmt(row.power_mw), fmt(_kilo(area)),
            *[fmt(_kilo(row.m(f"area_{part}_um2"))) for part in _AREA_PARTS], fmt(share),
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


def matching_clock_mhz(sync_fmax_mhz: float, sync_throughput_mbps: float,
                       async_throughput_mbps: float) -> float:
    """The clock at which the synchronous core streams as fast as the asynchronous one
    (throughput is proportional to the clock)."""
    return sync_fmax_mhz * async_throughput_mbps / sync_throughput_mbps


def scaled_power_mw(power_mw: float, leakage_mw: float, at_mhz: float, to_mhz: float) -> float:
    """Power measured at ``at_mhz`` moved to ``to_mhz``: the dynamic part (internal and
    switching) scales with the clock, leakage does not:
    P(f) = (P - P_leak) x f / f0 + P_leak."""
    return (power_mw - leakage_mw) * to_mhz / at_mhz + leakage_mw


def idle_share(busy_mw: float, half_idle_mw: float) -> float:
    """The idle half's power as a share of the busy power: the mean over a busy and an equally
    long idle span is (busy + idle) / 2, so idle / busy = 2 x half / busy - 1."""
    return 2.0 * half_idle_mw / busy_mw - 1.0


@dataclass(frozen=True)
class SyncAtHalf:
    """The synchronous counterpart at 50 % load, moved to the asynchronous core's throughput."""

    sync: SyncRow
    clock_mhz: float  # where the synchronous core streams as fast as the asynchronous one
    at_fmax_mw: float
    scaled_mw: float

    @property
    def above_fmax(self) -> bool:
        fmax = self.sync.m("fmax_mhz")
        return fmax is not None and self.clock_mhz > fmax * 1.0001


def sync_at_half(row: AsyncRow, sync: SyncRow | None) -> SyncAtHalf | None:
    if sync is None:
        return None
    half, leak = sync.m("power_half_mw"), sync.m("power_leakage_mw") or 0.0
    fmax, thr = sync.m("fmax_mhz"), sync.throughput_mbps
    at = sync.m("power_clock_mhz") or fmax
    if half is None or not fmax or not thr or not at or row.throughput_mbps is None:
        return None
    clock = matching_clock_mhz(fmax, thr, row.throughput_mbps)
    return SyncAtHalf(sync, clock, half, scaled_power_mw(half, leak, at, clock))


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
                      fmt(_kilo(scaled.sync.throughput_mbps)), clock, fmt(scaled.at_fmax_mw),
                      fmt(round(scaled.scaled_mw, 4))]
    ratio = _ratio(half, scaled.scaled_mw) if scaled is not None else None
    return [row.cipher, row.seed_label, f"{row.label} @ {row.result.target}",
            library_text(row.library), fmt(_kilo(row.throughput_mbps)), fmt(busy), fmt(half),
            same_node.ratio_text(_ratio(half, busy)),
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


# --- the findings ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Judged:
    """One finding judged on one library: the verdict, our figures behind it, and why."""

    cores: str
    verdict: str
    figures: str
    why: str


def _gbps(mbps: float | None) -> str:
    return f"{fmt(_kilo(mbps))} Gbps"


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
        thr = _ratio(row.throughput_mbps, source.throughput_mbps)
        power = _ratio(row.power_mw, source.m("power_mw"))
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
             f"storage {fmt(_kilo(latch.m('area_storage_um2')))} against "
             f"{fmt(_kilo(flop.m('area_storage_um2')))} K um2",
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
    against = _ratio(row.throughput_mbps, source.throughput_mbps if source else None)
    return (f"{_named(row)} {_gbps(row.throughput_mbps)} = "
            f"{same_node.ratio_text(_ratio(row.throughput_mbps, po.throughput_mbps))} of PO's, "
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


def findings_table(results: Sequence[Result]) -> Table | None:
    """Each finding judged on every library with de-synchronized rows, the seed's node first;
    None without such rows."""
    found = libraries(async_rows(results))
    if not found:
        return None
    rows = []
    for claim in PAPA_ASYNC_CLAIMS:
        evidence = seed_evidence(claim.key)
        for library in found:
            for j in JUDGES[claim.key](results, library):
                rows.append([claim.statement, f"section {claim.section}: \"{claim.quote}\"",
                             library_text(library), j.cores, j.verdict, evidence, j.figures,
                             j.why])
    return Table("Papaefstathiou et al.'s findings on asynchronous DES, checked against ours",
                 FINDINGS_HEADERS, rows, notes=[
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


def tables(results: Sequence[Result]) -> list[Table]:
    """The section's tables: Table 10 at the seed's node (when we have 0.18 um rows), every
    de-synchronized core per library, the idle experiment and the findings."""
    at_node = node_table(results)
    idle = idle_table(results)
    findings = findings_table(results)
    return [*([at_node.table] if at_node else []), *cores_tables(results),
            *([idle] if idle else []), *([findings] if findings else [])]
