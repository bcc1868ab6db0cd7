"""Gaj & Chodowiec (seed 001) regenerated: the AES finalists' basic iterative cores on FPGAs beside
the published Xilinx Virtex XCV1000 and XC4000XL figures.

* Fig. 10 (throughput, area, throughput per area of the basic architecture). The paper only plots
  it; the published throughput here is formula (1) over Table III (128 bits / (rounds x clock
  period), ``published.gaj_basic_throughput_mbps``), the area Table IV's CLB slices.
* Table I (which cores fit the low-cost XC4000XL family): our ``fpga-ice40`` runs are the small
  device. A core fits when its flow succeeded and its LUTs are within the device's; a run that
  failed with "does not fit" is a no.
* Tables II-IV: extra logic for decryption (ours from an ``ops=encrypt`` and an ``ops=both`` core of
  the same design on the same target), clock period and cycles per block, area.
* Fig. 8 (architectures in feedback and non-feedback modes): the paper's figure is qualitative, so
  only our iterative, unrolled and pipelined cores appear, with both throughputs.

Gaj's "basic architecture" is one round per clock with 128-bit keys, encryption and decryption in
one core; its SERPENT core is "Serpent I8" (eight rounds per clock, 4 clocks per block), which is
our ``serpent-128/unrolled:k=8``. Virtex CLB slices hold two LUTs, our LUTs are 4-input LUTs of
Lattice ECP5/iCE40: areas are in different units and say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...spec import DesignSpec
from ...store import Result
from ..names import shape_of
from ..analysis import encrypt_only_twins
from .published import (
    GAJ_CIPHERS,
    GAJ_FITS_XC4000,
    GAJ_TABLE_I,
    GAJ_VIRTEX,
    gaj_basic_throughput_mbps,
)
from ..tables import design_spec, MISSING, Table, cycle_count, figure, fmt, key_figure

# Table II's order (Twofish, MARS, RC6, Rijndael, Serpent).
CIPHERS = tuple(GAJ_CIPHERS)
KEY = "128"  # the paper's key size throughout
OURS_SOURCE = "cipherbench"
VIRTEX_SOURCE = f"Gaj & Chodowiec, Virtex {GAJ_VIRTEX}"
XC4000_SOURCE = "Gaj & Chodowiec, XC4000XL"
FIT_REASON = "does not fit"  # the FPGA flow's failure reason for a device too small

# LUT4s of the devices our FPGA targets can place on (vendor data sheets). The ``fpga-ice40`` target
# stands for the XC4000XL of Table I: the small, low-cost device.
DEVICE_LUTS: dict[tuple[str, str], int] = {
    ("ice40", "hx8k"): 7680, ("ice40", "lp8k"): 7680, ("ice40", "hx4k"): 3520,
    ("ice40", "lp4k"): 3520, ("ice40", "hx1k"): 1280, ("ice40", "lp1k"): 1280,
    ("ice40", "lp384"): 384, ("ice40", "up5k"): 5280, ("ice40", "up3k"): 2800,
    ("ice40", "u4k"): 3520,
    ("ecp5", "12k"): 12288, ("ecp5", "25k"): 24288, ("ecp5", "45k"): 43848,
    ("ecp5", "85k"): 83640, ("ecp5", "um-25k"): 24288, ("ecp5", "um-45k"): 43848,
    ("ecp5", "um-85k"): 83640, ("ecp5", "um5g-25k"): 24288, ("ecp5", "um5g-45k"): 43848,
    ("ecp5", "um5g-85k"): 83640,
}
SMALL_FAMILY = "ice40"

EXPLANATION = (
    "Our rows: the finalists' basic iterative cores (one round per clock, 128-bit keys, encryption "
    "and decryption in one core) and Serpent I8 (eight rounds per clock) placed and routed on the "
    "Lattice targets, beside Gaj & Chodowiec's Xilinx Virtex XCV1000-6 and XC4000XL figures. "
    "Devices, tools and area units differ (CLB slices of two LUTs against 4-input LUTs), so "
    "absolute numbers are not comparable; the ranking of the ciphers and which of them fit a small "
    "device are."
)



def _device(target: str) -> tuple[str, str] | None:
    """("ice40", "up5k") of "fpga:ice40:up5k:sg48"."""
    parts = target.split(":")
    return (parts[1], parts[2]) if len(parts) >= 3 and parts[0] == "fpga" else None


def role(spec: DesignSpec) -> str | None:
    """"basic" for Gaj's basic architecture, "I8" for Serpent I8, else None."""
    if spec.cipher not in CIPHERS or spec.key_sizes != (128,):
        return None
    if spec.param_dict.get("ops", "both") != "both":
        return None
    shape = shape_of(spec)
    if shape.basic_iterative:
        return "basic"
    if spec.cipher == "serpent" and shape.rounds_per_clock == 8:
        return "I8"
    return None


@dataclass(frozen=True)
class OurRow:
    cipher: str
    result: Result
    spec: DesignSpec
    role: str

    @property
    def luts(self) -> float | None:
        value = figure(self.result, "luts")
        return float(value) if isinstance(value, (int, float)) else None

    @property
    def throughput(self) -> float | None:
        return key_figure(self.result, KEY, "throughput_mbps")


def _fpga(results: Sequence[Result], *, ok_only: bool = True) -> list[tuple[Result, DesignSpec]]:
    found = []
    for r in results:
        if r.target_kind != "fpga" or (ok_only and not r.ok):
            continue
        spec = design_spec(r.design)
        if spec is not None and spec.cipher in CIPHERS:
            found.append((r, spec))
    return found


def our_rows(results: Sequence[Result]) -> list[OurRow]:
    """Our ok FPGA results of Gaj's basic cores (and Serpent I8), in Gaj's cipher order."""
    rows = [OurRow(s.cipher, r, s, role(s) or "") for r, s in _fpga(results) if role(s)]
    return sorted(rows, key=lambda o: (CIPHERS.index(o.cipher), o.result.target, o.result.design))


def relevant(results: Sequence[Result]) -> bool:
    """Whether the section has anything of ours to show (any finalist on an FPGA target)."""
    return bool(_fpga(results, ok_only=False))


# --- Fig. 10 -------------------------------------------------------------------------------


def _per_area(mbps: float | None, area: float | None) -> float | None:
    return mbps / area if mbps is not None and area else None


def fig10_table(results: Sequence[Result]) -> Table:
    """Throughput, area and throughput per area of each basic core, published and ours."""
    ours = our_rows(results)
    rows: list[list[str]] = []
    for cipher in CIPHERS:
        pub = GAJ_CIPHERS[cipher]
        mbps = gaj_basic_throughput_mbps(cipher)
        rows.append([cipher, VIRTEX_SOURCE, "basic" + (" (I8)" if cipher == "serpent" else ""),
                     GAJ_VIRTEX, fmt(pub.area_slices_virtex), "CLB slices",
                     fmt(1000.0 / pub.clock_period_virtex_ns), fmt(pub.rounds), fmt(mbps),
                     fmt(_per_area(mbps, pub.area_slices_virtex))])
        for o in (o for o in ours if o.cipher == cipher):
            r = o.result
            rows.append([cipher, OURS_SOURCE, r.design, r.target, fmt(o.luts), "LUTs",
                         fmt(figure(r, "fmax_mhz")),
                         fmt(cycle_count(r, KEY, "cycles_per_chained_block")),
                         fmt(o.throughput), fmt(key_figure(r, KEY, "mbps_per_lut"))])
    return Table("Gaj & Chodowiec Fig. 10: basic architecture, throughput and area", [
        "cipher", "source", "design", "device / target", "area", "area unit", "MHz",
        "cycles per block", "throughput (Mbps)", "Mbps per area unit"], rows, notes=[
        (f"{VIRTEX_SOURCE}: Fig. 10 is only plotted; throughput = formula (1), 128 bits / (rounds "
        "x Table III clock period), area = Table IV (CLB slices), section 5."),
        ("Ours: placed and routed (nextpnr), LUTs of the core without the I/O wrapper, cycles "
        "measured in simulation; a Virtex CLB slice holds two LUTs."),
    ])


def ranking_table(results: Sequence[Result]) -> Table:
    """The finalists ranked by throughput and by area, published and per our target: Gaj's
    conclusions rest on the ranking, which is comparable across devices."""
    rows = []
    published = {c: (gaj_basic_throughput_mbps(c) or 0.0, float(GAJ_CIPHERS[c].area_slices_virtex))
                 for c in CIPHERS}
    rows.append(_ranking_row(VIRTEX_SOURCE, published))
    for target in sorted({o.result.target for o in our_rows(results)}):
        best: dict[str, tuple[float, float]] = {}
        for o in our_rows(results):
            if o.result.target != target or o.throughput is None or o.luts is None:
                continue
            # Gaj's Serpent is I8: where we have it, it stands for Serpent.
            if o.cipher in best and o.role != "I8":
                continue
            best[o.cipher] = (float(o.throughput), o.luts)
        rows.append(_ranking_row(f"{OURS_SOURCE} {target}", best))
    return Table("Gaj & Chodowiec Fig. 10: ranking of the finalists",
                 ["source", "by throughput (fastest first)", "by area (smallest first)"], rows,
                 notes=[("Published: Tables III-IV (Virtex); ours: the basic cores above, Serpent "
                        "I8 where measured.")])


def _ranking_row(source: str, figures: dict[str, tuple[float, float]]) -> list[str]:
    speed = sorted(figures, key=lambda c: -figures[c][0])
    area = sorted(figures, key=lambda c: figures[c][1])
    return [source, " > ".join(speed) or MISSING, " < ".join(area) or MISSING]


# --- Table I -------------------------------------------------------------------------------


def _fit(result: Result) -> tuple[str, str]:
    """(fits yes/no/failed, utilisation text) of one run on the small device."""
    device = _device(result.target)
    capacity = DEVICE_LUTS.get(device) if device else None
    if not result.ok:
        reason = " ".join((result.reason or "").split())
        return ("no", reason) if reason.startswith(FIT_REASON) else ("failed", reason or MISSING)
    luts = figure(result, "luts")
    if not isinstance(luts, (int, float)) or capacity is None:
        return "yes", MISSING  # placed and routed: it fits, utilisation unknown
    share = 100.0 * luts / capacity
    return ("yes" if share <= 100.0 else "no"), f"{fmt(luts)} / {fmt(capacity)} LUTs ({share:.0f}%)"


def table1(results: Sequence[Result]) -> Table:
    """Which finalists' basic cores fit the small device: XC4000XL published, iCE40 ours."""
    ours = [(r, s) for r, s in _fpga(results, ok_only=False)
            if role(s) and (_device(r.target) or ("",))[0] == SMALL_FAMILY]
    rows = []
    for cipher in CIPHERS:
        printed = [x for x in GAJ_TABLE_I if x.cipher == cipher]
        detail = "; ".join(f"{x.device}: {fmt(x.throughput_mbps)} Mbps, {fmt(x.area_clbs)} CLBs, "
                           f"{fmt(x.throughput_per_area_kbps_per_clb)} kbps/CLB" for x in printed)
        runs = [(r, s) for r, s in ours if s.cipher == cipher]
        if not runs:
            rows.append([cipher, "yes" if GAJ_FITS_XC4000[cipher] else "no", detail or MISSING,
                         MISSING, MISSING, "not run", MISSING, MISSING])
        for r, _s in sorted(runs, key=lambda x: x[0].design):
            fits, used = _fit(r)
            rows.append([cipher, "yes" if GAJ_FITS_XC4000[cipher] else "no", detail or MISSING,
                         r.design, r.target, fits, used,
                         fmt(key_figure(r, KEY, "throughput_mbps")) if r.ok else MISSING])
    table = Table("Gaj & Chodowiec Table I: which basic cores fit the small device", [
        "cipher", "fits XC4000XL (published)", "XC4000XL results (published)", "our design",
        "our target", "fits (ours)", "utilisation (ours)", "ours Mbps"], rows, notes=[
        ("Published: Table I and section 5.2 (only Twofish and RC6 fit the largest XC4000XL, "
        "XC4085XL)."),
        ("Ours: the fpga-ice40 target stands for the small low-cost device (the device named in "
        "the target id: the default UP5K has 5,280 LUTs, HX8K 7,680). Fits = placed and routed, <= "
        "100%; no = the flow reported that the core does not fit."),
    ])
    table.groups = [("", 1), ("published (Gaj & Chodowiec)", 2), ("cipherbench", 5)]
    return table


# --- Tables II-IV --------------------------------------------------------------------------


def extra_logic_table(results: Sequence[Result]) -> Table:
    """Table II: what decryption adds: LUTs of an enc+dec core over the encryption-only core."""
    twins = [(r, enc, s) for r, enc, s in encrypt_only_twins(results)
             if r.target_kind == "fpga" and s.key_sizes == (128,)]
    rows = []
    for cipher in CIPHERS:
        pub = GAJ_CIPHERS[cipher]
        rows.append([cipher, "Gaj & Chodowiec Table II", GAJ_VIRTEX, pub.extra_logic,
                     MISSING, MISSING, fmt(pub.extra_logic_percent)])
        for r, enc, s in twins:
            if s.cipher != cipher:
                continue
            both_luts, enc_luts = figure(r, "luts"), figure(enc, "luts")
            if not isinstance(both_luts, (int, float)) or not isinstance(enc_luts, (int, float)):
                continue
            rows.append([cipher, OURS_SOURCE, f"{r.design} @ {r.target}", MISSING, fmt(enc_luts),
                         fmt(both_luts), fmt(100.0 * (both_luts - enc_luts) / enc_luts)])
    return Table("Gaj & Chodowiec Table II: extra logic for decryption", [
        "cipher", "source", "core", "extra logic (published)", "encryption LUTs",
        "enc+dec LUTs", "extra area (%)"], rows, notes=[
        ("Published: Table II, section 5.3 (extra logic area / encryption logic area). Ours: "
        "(LUTs of the ops=both core - LUTs of its ops=encrypt twin) / LUTs of the twin, same "
        "target, placed and routed; shown where both were measured.")])


def timing_table(results: Sequence[Result]) -> Table:
    """Table III: clock period, cycles (rounds) per block and the critical path."""
    rows = []
    ours = our_rows(results)
    for cipher in CIPHERS:
        pub = GAJ_CIPHERS[cipher]
        rows.append([cipher, "Gaj & Chodowiec Table III", GAJ_VIRTEX,
                     fmt(pub.clock_period_virtex_ns), fmt(pub.rounds), pub.critical_path])
        if pub.clock_period_xc4000_ns is not None:
            rows.append([cipher, "Gaj & Chodowiec Table III", "XC4000XL",
                         fmt(pub.clock_period_xc4000_ns), fmt(pub.rounds),
                         pub.critical_path_operations])
        for o in (o for o in ours if o.cipher == cipher):
            r = o.result
            path = MISSING
            if figure(r, "critical_path_start") or figure(r, "critical_path_end"):
                path = (f"{figure(r, 'critical_path_start') or '?'} -> "
                        f"{figure(r, 'critical_path_end') or '?'}, "
                        f"{fmt(figure(r, 'critical_path_logic_levels'))} logic levels")
            rows.append([cipher, OURS_SOURCE, f"{r.design} @ {r.target}",
                         fmt(figure(r, "critical_path_ns")),
                         fmt(cycle_count(r, KEY, "cycles_per_chained_block")), path])
    return Table("Gaj & Chodowiec Table III: clock period and critical path", [
        "cipher", "source", "core / device", "clock period (ns)", "cycles (rounds) per block",
        "critical path"], rows, notes=[
        ("Published: Table III, section 5.4 (XC4000XL rows list the operations on the path). "
        "Ours: post-route critical path from nextpnr; cycles measured in simulation.")])


def area_table(results: Sequence[Result]) -> Table:
    """Table IV: area of the basic cores and what dominates it."""
    rows = []
    ours = our_rows(results)
    for cipher in CIPHERS:
        pub = GAJ_CIPHERS[cipher]
        rows.append([cipher, "Gaj & Chodowiec Table IV", GAJ_VIRTEX,
                     f"{fmt(pub.area_slices_virtex)} CLB slices", MISSING, MISSING,
                     pub.area_critical_components])
        if pub.area_clbs_xc4000 is not None:
            rows.append([cipher, "Gaj & Chodowiec Table IV", "XC4000XL",
                         f"{fmt(pub.area_clbs_xc4000)} CLBs", MISSING, MISSING, MISSING])
        for o in (o for o in ours if o.cipher == cipher):
            r = o.result
            rows.append([cipher, OURS_SOURCE, f"{r.design} @ {r.target}",
                         f"{fmt(o.luts)} LUTs", fmt(figure(r, "ffs")), fmt(figure(r, "brams")),
                         MISSING])
    return Table("Gaj & Chodowiec Table IV: area", [
        "cipher", "source", "core / device", "area", "flip-flops", "block RAMs",
        "area-critical components (published)"], rows, notes=[
        "Published: Table IV, section 5.5. Ours: placed and routed, core without the I/O wrapper."])


# --- Fig. 8 --------------------------------------------------------------------------------

_FIG8_ARCHS = ("iterative", "unrolled", "pipelined")


def _architecture(spec: DesignSpec) -> str:
    params = spec.param_dict
    if spec.arch == "unrolled":
        return f"unrolled, k={params.get('k')}"
    if spec.arch == "pipelined":
        return f"pipelined, stages={params.get('stages')}, inner={params.get('inner')}"
    return "iterative"


def fig8_table(results: Sequence[Result]) -> Table:
    """Our iterative, unrolled and pipelined finalist cores in non-feedback and feedback modes."""
    found = [(r, s) for r, s in _fpga(results)
             if s.arch in _FIG8_ARCHS and KEY in {str(k) for k in s.key_sizes}]
    found.sort(key=lambda x: (CIPHERS.index(x[1].cipher), x[0].target,
                              _FIG8_ARCHS.index(x[1].arch), x[0].design))
    rows = []
    for r, s in found:
        plain = key_figure(r, KEY, "throughput_mbps")
        chained = key_figure(r, KEY, "throughput_feedback_mbps")
        ratio = plain / chained if plain and chained else None
        rows.append([s.cipher, r.design, r.target, _architecture(s), fmt(figure(r, "luts")),
                     fmt(figure(r, "fmax_mhz")), fmt(cycle_count(r, KEY, "initiation_interval")),
                     fmt(cycle_count(r, KEY, "cycles_per_chained_block")), fmt(plain),
                     fmt(chained), fmt(ratio), fmt(key_figure(r, KEY, "mbps_per_lut"))])
    return Table("Gaj & Chodowiec Fig. 8: architectures in non-feedback and feedback modes", [
        "cipher", "design", "target", "architecture", "LUTs", "MHz", "II (cycles)",
        "chained block (cycles)", "non-feedback (Mbps)", "feedback (Mbps)",
        "non-feedback / feedback", "Mbps/LUT (non-feedback)"], rows, notes=[
        ("Fig. 8 (section 3.3) is qualitative: unrolling raises throughput in both modes, "
        "pipelining only in non-feedback modes (ECB, counter); in feedback modes (CBC, CFB, OFB) "
        "a pipelined core runs one block at a time. No published numbers; 128-bit keys."),
        "Non-feedback = block bits x f / II; feedback = block bits x f / cycles per chained block.",
    ])


def tables(results: Sequence[Result]) -> list[Table]:
    """Every Gaj table, in the paper's order of argument."""
    return [fig10_table(results), ranking_table(results), table1(results),
            extra_logic_table(results), timing_table(results), area_table(results),
            fig8_table(results)]
