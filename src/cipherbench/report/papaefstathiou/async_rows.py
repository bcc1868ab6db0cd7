"""Papaefstathiou et al.'s asynchronous DES: the seed's four designs, our de-synchronized rows
(``asic-desync``) and the synchronous rows they came from, and the arithmetic of the idle
experiment (a synchronous core clocked to the asynchronous one's throughput, at half load).
asynchronous.py sets them out in tables, async_findings.py judges the seed's findings on them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ...spec import DesignSpec
from ...store import Result
from .. import same_node
from ..same_node import PAPA_NODE_UM, library_name
from ..tables import MISSING, design_spec, key_figure, key_sizes
from .published import PAPA_HARDWARE, PapaHardware

KIND = "desync"  # Result.target_kind of the asic-desync target's rows
CIPHERS = ("des", "tdea", "aes")


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


def ratio_or_none(a: float | None, b: float | None) -> float | None:
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
        return ratio_or_none(self.throughput_mbps, self.power_mw)

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


def at_seed_node(library: str) -> bool:
    return same_node.same_node(same_node.library_node(library), PAPA_NODE_UM)


def libraries(rows: Sequence[AsyncRow]) -> list[str]:
    """Libraries of the rows, those at the seed's node (0.18 um) first."""
    return sorted({row.library for row in rows}, key=lambda lib: (not at_seed_node(lib), lib))


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
        return ratio_or_none(self.throughput_mbps, self.m("power_mw"))

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


def in_thousands(value: float | None) -> float | None:
    return value / 1000.0 if value is not None else None


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
