"""Sugawara et al. Table 1 and Fig. 11 regenerated: the ISO/IEC 18033-3 ciphers' loop and compact
cores beside the published 0.18 um figures.

Our rows are every ok ASIC result of an ISO/IEC 18033-3 cipher whose architecture is one the seed
built: the loop architecture (``iterative``: one round per clock; CAST-128's loop core is
``narrow:width=64``) or a compact core (``narrow``: a round over several clocks). Published rows come
from ``published.sugawara_table1()``. The two technologies differ (0.18 um worst case against
NanGate45 typical), so absolute MHz and gate counts are not comparable; cycles per block and the
ranking by efficiency are, which is what the seed's conclusions rest on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..spec import DesignSpec
from ..store import Result
from .published import SugawaraRow, sugawara_table1
from .tables import design_spec, Table, cycle_count, figure, fmt, key_figure, key_sizes

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
    "spreads a round over several clocks). The technologies differ (0.18 um worst case against "
    "NanGate45 typical), so MHz and gate counts are not comparable in absolute terms; cycles per "
    "block and the ranking by efficiency are, and the seed's conclusions rest on those."
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
    if spec.arch == "narrow":
        return True
    return spec.arch == "iterative" and spec.param_dict.get("keys", "fly") == "fly"


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
    return [row.cipher, OURS_SOURCE, r.design, _mode(spec), fmt(figure(r, "block_bits")),
            _key_text(spec, row.key), fmt(cycles), spec.param_dict.get("sbox", "-"), row.goal,
            fmt(figure(r, "fmax_mhz")), fmt(key_figure(r, row.key, "throughput_mbps")),
            fmt(ge / 1000 if isinstance(ge, (int, float)) else None), fmt(row.efficiency)]


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
    notes = [
        "Published: loop architecture (one round per clock) and, for SEED and MISTY1, compact "
        "round functions; 0.18 um CMOS, Synopsys DC, worst case; Kbps/gate. Ours: NanGate45 "
        "typical, Yosys+ABC+OpenSTA, Kbps/GE; cycles measured in simulation.",
        "'?': the OCR'd seed table does not say (see docs/published.md).",
    ]
    return Table("Sugawara et al. Table 1: ISO/IEC 18033-3 ciphers, published and ours",
                 HEADERS, rows, notes=notes)


def _best(values: list[float | None]) -> float | None:
    numbers = [v for v in values if isinstance(v, (int, float))]
    return max(numbers) if numbers else None


def targets_table(results: Sequence[Result]) -> Table:
    """Per cipher: the best published efficiency, the reference-flow target and our best loop
    core (speed-oriented), with whether the target is met."""
    ours = our_rows(results)
    rows = []
    for cipher in CIPHERS:
        published = _best([p.efficiency_kbps_per_gate for p in sugawara_table1()
                           if p.cipher == cipher])
        loop = [o for o in ours if o.cipher == cipher and o.goal == "speed"
                and (o.spec.arch == "iterative" or cipher == "cast128")]
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
                  "target Kbps/GE", "our best loop core (speed)", "ours Kbps/GE", "met"], rows)


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
            points[OURS_SOURCE].append((o.cipher, f"{o.result.design} ({o.goal})", ge / 1000,
                                        float(mbps)))
    return points
