"""Function characterization (NSA section 3.2): sweep one component's area-delay curve on the
ASIC flow and pick five speed grades from it.

The component (components/catalog.py, registered in and out) is synthesized at
- the area end (asic goal "area": ABC's area mapper, no delay target),
- the speed end (goal "speed": delay target 1 ps), and
- N - 2 delay targets (``delay_ps``) between them, placed adaptively (see ``next_target``).
Every point is a row in the results store (design "component:<name>", the flow's target id,
content-addressed by store.cache_key), so a rerun with the same inputs only reads the store.

Delay targets are ABC's: its delay excludes the registers' clock-to-Q and setup time that the
static timing analysis adds. Each point therefore records ABC's own estimate of its mapped delay
(``metrics.abc_delay_ps``, from the `stime -p` line of the Yosys log), and the two ends are
placed on ABC's scale by it when targets are chosen.

Speed grades (NSA Figure 2: one minimum delay, one minimum area, three points "that have
desired characteristics such as large area savings for a small increase in delay time"):
1. keep the Pareto-optimal points (no other point is as fast and as small; equal results once);
2. grade 1 is the fastest of them and the last grade the smallest;
3. the others are the knees: on the curve normalized to [0, 1] on both axes, repeatedly add
   the point farthest from the polyline through the points chosen so far (the corners where the
   curve bends most, which is where area drops fast for little delay);
4. with five or fewer Pareto points, all of them are grades: fewer than five grades when the
   sweep found fewer distinct optimal implementations (e.g. 3 points, or a component with no
   logic between its registers).
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from . import __version__
from .components.catalog import CLOCK, CatalogEntry, get_component
from .errors import CipherbenchError, ToolFailed, ToolMissing
from .flows import get_flow
from .flows.asic import STRUCTURES
from .flows.liberty import load_liberty
from .store import Result, Store, cache_key

DESIGN_PREFIX = "component:"
DEFAULT_POINTS = 7
GRADES = 5
FLOW = "asic"
_RE_ABC_DELAY = re.compile(r"Delay\s*=\s*([0-9]+(?:\.[0-9]+)?)\s*ps")
_MIN_TARGET_STEP_PS = 2  # intervals narrower than this are not split again

Say = Callable[[str], None]


@dataclass
class SweepPoint:
    """One synthesis of the component: the area end, the speed end or a delay target."""

    label: str  # "area", "speed" or "d<N>ps"
    settings: dict[str, Any]
    result: Result
    cached: bool

    @property
    def ok(self) -> bool:
        return self.result.ok

    @property
    def delay_ns(self) -> float:
        return float(self.result.measurements["critical_path_ns"])

    @property
    def area_ge(self) -> float:
        return float(self.result.measurements["gate_equivalents"])

    @property
    def position_ps(self) -> float:
        """Where the point lies on ABC's delay scale: its target, else ABC's estimate, else STA."""
        if self.settings.get("delay_ps") is not None:
            return float(self.settings["delay_ps"])
        abc = self.result.metrics.get("abc_delay_ps")
        return float(abc) if abc is not None else 1000.0 * self.delay_ns

    def same_figures(self, other: SweepPoint) -> bool:
        return (round(self.delay_ns, 4), round(self.area_ge, 2)) == (
            round(other.delay_ns, 4), round(other.area_ge, 2))


@dataclass
class Characterization:
    component: str
    description: str
    library: str
    points: list[SweepPoint]
    grades: list[SweepPoint]  # fastest first
    outputs: dict[str, Path] = field(default_factory=dict)

    def grade_of(self, point: SweepPoint) -> int | None:
        for number, grade in enumerate(self.grades, start=1):
            if grade is point:
                return number
        return None


# ---- grade selection ---------------------------------------------------------------------------


def pareto_indices(pairs: Sequence[tuple[float, float]]) -> list[int]:
    """Indices of the Pareto-optimal (delay, area) pairs, fastest first, each result once."""
    order = sorted(range(len(pairs)), key=lambda i: (pairs[i][0], pairs[i][1], i))
    front: list[int] = []
    for i in order:
        # Sorted by delay: a point is optimal iff it is smaller than every faster one.
        # (Equal delays: the smallest area comes first, so the others fail the test.)
        if not front or pairs[i][1] < pairs[front[-1]][1]:
            front.append(i)
    return front


def _distance_to_segment(p: tuple[float, float], a: tuple[float, float],
                         b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length_sq = dx * dx + dy * dy
    if length_sq == 0:
        return ((px - ax) ** 2 + (py - ay) ** 2) ** 0.5
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length_sq))
    return ((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2) ** 0.5


def select_grades(pairs: Sequence[tuple[float, float]], count: int = GRADES) -> list[int]:
    """Indices of the speed grades among (delay, area) pairs, fastest first (module docstring)."""
    front = pareto_indices(pairs)
    if len(front) <= count:
        return front
    xs = [pairs[i][0] for i in front]
    ys = [pairs[i][1] for i in front]
    span_x, span_y = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    norm = [((x - min(xs)) / span_x, (y - min(ys)) / span_y) for x, y in zip(xs, ys)]
    chosen = [0, len(front) - 1]
    while len(chosen) < count:
        best, best_distance = -1, -1.0
        for k in range(len(front)):
            if k in chosen:
                continue
            left = max(c for c in chosen if c < k)
            right = min(c for c in chosen if c > k)
            distance = _distance_to_segment(norm[k], norm[left], norm[right])
            if distance > best_distance:
                best, best_distance = k, distance
        chosen.append(best)
    return [front[k] for k in sorted(chosen)]


# ---- choosing delay targets ------------------------------------------------------------------


def next_target(points: Sequence[SweepPoint], tried: set[int]) -> int | None:
    """The next ABC delay target (ps), or None when no interval of the curve is left to split.

    Points sorted by their position on ABC's scale; the interval between two neighbours is open
    when their figures differ and it is at least 2 ps wide. The open interval whose ends differ
    most in measured delay is split at its midpoint. Two rules stop wasted runs:
    - neighbours with equal figures close their interval (ABC made the same netlist);
    - ABC's delay-driven mapper cannot reach the area mapper's netlist, so once its loosest
      target repeats the result of the next tighter one (the curve has flattened out), the last
      interval up to the area end is closed.
    """
    ok = sorted((p for p in points if p.ok), key=lambda p: p.position_ps)
    candidates: list[tuple[float, float, int, int]] = []
    for k in range(len(ok) - 1):
        low, high = ok[k], ok[k + 1]
        if low.same_figures(high):
            continue
        if high.label == "area" and k >= 1 and low.label != "speed" and low.same_figures(ok[k - 1]):
            continue  # saturated: see the docstring
        width = high.position_ps - low.position_ps
        target = int(round((low.position_ps + high.position_ps) / 2))
        if width < _MIN_TARGET_STEP_PS or target in tried:
            continue
        # Widest delay gap first; then the wider interval; then the tighter target.
        candidates.append((abs(high.delay_ns - low.delay_ns), width, -target, target))
    return max(candidates)[3] if candidates else None


# ---- running the flow --------------------------------------------------------------------------


@dataclass
class _Sweep:
    entry: CatalogEntry
    design_dir: Path
    store: Store
    inputs_digest: str
    force: bool
    say: Say | None

    @property
    def design(self) -> str:
        return DESIGN_PREFIX + self.entry.name

    def run(self, label: str, settings: dict[str, Any]) -> SweepPoint:
        flow = get_flow(FLOW)
        target = flow.target_id(settings)
        key = cache_key(self.design, target, settings, self.inputs_digest)
        existing = self.store.get(key)
        if existing is not None and existing.ok and not self.force:
            return SweepPoint(label, settings, existing, cached=True)
        if self.say:
            self.say(f"synthesizing {self.entry.name} on {target}")
        result = self._measure(flow, key, target, settings)
        return SweepPoint(label, settings, self.store.put(result), cached=False)

    def _measure(self, flow: Any, key: str, target: str, settings: dict[str, Any]) -> Result:
        from .cachedir import cache_root

        work_root = cache_root() / "runs"
        work_root.mkdir(parents=True, exist_ok=True)
        provenance = self._provenance(key, settings)
        try:
            with tempfile.TemporaryDirectory(prefix=f"component-{self.entry.name}-",
                                             dir=work_root) as work:
                flow_result = flow.run(self.design_dir, Path(work), settings)
                abc_delay = _abc_delay_ps(flow_result.artifacts.get("yosys_log"))
        except ToolFailed as exc:  # a measured failure; a missing tool or a bad setting is not
            return Result(cache_key=key, design=self.design, target=target, settings=settings,
                          status="failed", reason=str(exc), provenance=provenance)
        metrics = {} if abc_delay is None else {"abc_delay_ps": abc_delay}
        provenance["tools"] = flow_result.tools
        return Result(cache_key=key, design=self.design, target=target,
                      settings=flow_result.settings, status="ok",
                      measurements=flow_result.measurements, metrics=metrics,
                      provenance=provenance)

    def _provenance(self, key: str, settings: dict[str, Any]) -> dict[str, Any]:
        return {
            "design": self.design,
            "component": self.entry.name,
            "parameters": self.entry.parameters,
            "flow": FLOW,
            "settings": settings,
            "cipherbench": __version__,
            "git": _git_hash(),
            "inputs_digest": self.inputs_digest,
            "cache_key": key,
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }


def _abc_delay_ps(log_path: str | None) -> float | None:
    """ABC's own delay of the mapped netlist: the last `stime -p` line of the Yosys log."""
    if not log_path:
        return None
    try:
        found = _RE_ABC_DELAY.findall(Path(log_path).read_text(errors="replace"))
    except OSError:
        return None
    return float(found[-1]) if found else None


def _git_hash() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).parent, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "unknown"


def top_name(entry: CatalogEntry) -> str:
    return "comp_" + re.sub(r"[^0-9a-zA-Z]", "_", entry.name)


def write_component_design(entry: CatalogEntry, out_dir: Path) -> Path:
    """Verilog + manifest.json of the registered component in out_dir; returns out_dir."""
    from .rtl import to_verilog

    top = entry.build()
    name = top_name(entry)
    verilog = to_verilog(top, top.ports(), name, out_dir)
    manifest = {
        "design": DESIGN_PREFIX + entry.name,
        "component": entry.name,
        "description": entry.description,
        "parameters": entry.parameters,
        "top": name,
        "clock": CLOCK,
        "verilog": [verilog.name],
        "ports": top.port_info(),
        # Registered in and out: a value presented at the inputs appears 2 + latency cycles later.
        "latency": 2 + entry.latency,
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return out_dir


def _inputs_digest(design_dir: Path, liberty_sha256: str) -> str:
    """Everything besides design/target/settings that decides the figures (as study.py does):
    the generated Verilog itself, the flows' source, the tool versions and the Liberty text."""
    from .jobs.provenance import measurement_digest
    from .tools import sta_version, yosys_version

    manifest = json.loads((design_dir / "manifest.json").read_text())
    digest = hashlib.sha256()
    for name in manifest["verilog"]:
        digest.update((design_dir / name).read_bytes())
    for part in (manifest["top"], manifest["clock"], measurement_digest(), __version__,
                 yosys_version(), sta_version(), liberty_sha256):
        digest.update(b"|" + part.encode())
    return digest.hexdigest()[:20]


# ---- the whole characterization ----------------------------------------------------------------


def characterize(name: str, *, store: Store, out_dir: Path, liberty: Path | None = None,
                 points: int = DEFAULT_POINTS, force: bool = False,
                 say: Say | None = None, structure: str = "restructure") -> Characterization:
    """Sweep ``name``'s curve (``points`` syntheses), pick its grades, plot and tabulate it."""
    entry = get_component(name)
    if points < 2:
        raise CipherbenchError(f"--points must be at least 2 (the area and the speed end), "
                               f"not {points}")
    library = load_liberty(liberty)
    unavailable = get_flow(FLOW).available()
    if unavailable is not None:
        raise ToolMissing(unavailable)
    if structure not in STRUCTURES:
        raise CipherbenchError(f"--structure {structure!r}: valid: {', '.join(STRUCTURES)}")
    suffix = "" if structure == "restructure" else f"-{structure}"
    folder = Path(out_dir) / f"{entry.name}{suffix}"
    design_dir = write_component_design(entry, folder / "rtl")
    sweep = _Sweep(entry, design_dir, store,
                   _inputs_digest(design_dir, library.sha256), force, say)
    # structure=keep: map the component's own structure (a prefix adder stays a prefix adder).
    base: dict[str, Any] = {"liberty": str(library.source)}
    if structure != "restructure":
        base["structure"] = structure
    swept = [sweep.run("area", {**base, "goal": "area"}),
             sweep.run("speed", {**base, "goal": "speed"})]
    if not any(p.ok for p in swept):
        raise CipherbenchError(f"{name}: synthesis failed at both ends: {swept[0].result.reason}")
    tried: set[int] = set()
    while len(swept) < points:
        target = next_target(swept, tried)
        if target is None:
            break
        tried.add(target)
        swept.append(sweep.run(f"d{target}ps", {**base, "delay_ps": target}))
    ok = [p for p in swept if p.ok]
    grades = [ok[i] for i in select_grades([(p.delay_ns, p.area_ge) for p in ok])]
    result = Characterization(entry.name, entry.description, library.name, swept, grades)
    result.outputs["rtl"] = design_dir
    result.outputs.update(plot_curve(result, folder))
    result.outputs["json"] = write_json(result, folder / "curve.json")
    return result


# ---- outputs ---------------------------------------------------------------------------------


def _row(c: Characterization, p: SweepPoint) -> dict[str, Any]:
    m = p.result.measurements
    row: dict[str, Any] = {
        "point": p.label, "grade": c.grade_of(p), "status": p.result.status,
        "cached": p.cached, "delay_target_ps": p.settings.get("delay_ps"),
        "abc_delay_ps": p.result.metrics.get("abc_delay_ps"),
    }
    if p.ok:
        row.update({k: m.get(k) for k in ("gate_equivalents", "area_um2", "critical_path_ns",
                                          "fmax_mhz", "cells", "flipflops")})
    else:
        row["reason"] = p.result.reason
    return row


def write_json(c: Characterization, path: Path) -> Path:
    entry = get_component(c.component)
    data = {
        "component": c.component, "description": c.description,
        "parameters": entry.parameters, "library": c.library,
        "points": [_row(c, p) for p in sorted(c.points, key=_sort_key)],
        "grades": [_row(c, g) for g in c.grades],
    }
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path


def _sort_key(p: SweepPoint) -> tuple[int, float]:
    return (0, p.delay_ns) if p.ok else (1, 0.0)


def plot_curve(c: Characterization, folder: Path) -> dict[str, Path]:
    """Area vs delay with the Pareto curve and the grades marked (NSA Figure 2), PNG and SVG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ok = sorted((p for p in c.points if p.ok), key=_sort_key)
    fig = Figure(figsize=(6.4, 4.4))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.scatter([p.delay_ns for p in ok], [p.area_ge for p in ok], s=18, color="0.55",
               label="synthesized points", zorder=2)
    front = [ok[i] for i in pareto_indices([(p.delay_ns, p.area_ge) for p in ok])]
    ax.plot([p.delay_ns for p in front], [p.area_ge for p in front], color="tab:blue",
            linewidth=1.2, label="area-delay curve (Pareto)", zorder=1)
    ax.scatter([g.delay_ns for g in c.grades], [g.area_ge for g in c.grades], s=70,
               facecolors="none", edgecolors="tab:red", linewidths=1.6, label="speed grades",
               zorder=3)
    for number, g in enumerate(c.grades, start=1):
        ax.annotate(f"G{number}", (g.delay_ns, g.area_ge), textcoords="offset points",
                    xytext=(6, 6), fontsize=9, color="tab:red")
    ax.set_xlabel("Delay: register-to-register critical path (ns)")
    ax.set_ylabel("Area (gate equivalents)")
    ax.set_title(f"{c.component} on {c.library}", fontsize=11)
    ax.grid(True, linewidth=0.4, alpha=0.6)
    ax.legend(fontsize=8)
    fig.tight_layout()
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"png": folder / "curve.png", "svg": folder / "curve.svg"}
    for kind, path in paths.items():
        fig.savefig(path, format=kind, dpi=120 if kind == "png" else None)
    return paths


def format_table(c: Characterization) -> list[str]:
    """The sweep as text, fastest first, grades marked."""
    lines = [f"{c.component} ({c.description}) on {c.library}",
             f"{'grade':>5}  {'point':<10} {'target ps':>9} {'area GE':>9} {'delay ns':>8} "
             f"{'fmax MHz':>8} {'cells':>6}  note"]
    for p in sorted(c.points, key=_sort_key):
        grade = c.grade_of(p)
        target = p.settings.get("delay_ps")
        mark = f"G{grade}" if grade else ""
        if not p.ok:
            lines.append(f"{mark:>5}  {p.label:<10} {target or '':>9} {'':>9} {'':>8} {'':>8} "
                         f"{'':>6}  failed: {p.result.reason}")
            continue
        m = p.result.measurements
        lines.append(f"{mark:>5}  {p.label:<10} {target or '':>9} {p.area_ge:>9.1f} "
                     f"{p.delay_ns:>8.3f} {m.get('fmax_mhz', 0):>8.0f} {m.get('cells', 0):>6}  "
                     f"{'cached' if p.cached else ''}")
    return lines
