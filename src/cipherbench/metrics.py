"""Derived figures: every formula from measured figures to reported ones, here and nowhere else.
Which figures a design has is its interface family's choice: the block family (families/block.py)
derives its per-key-size figures from these formulas; ``derive`` assembles a whole record.

Everything here is a pure function of what the flows measured (clock, area) and what simulation
measured (cycle counts, see docs/interface.md). Units:

    clock                MHz (so block bits x MHz / cycles is directly Mbps)
    times                ns  (cycles x 1000 / MHz)
    throughput           Mbps
    efficiency           Kbps per gate equivalent (ASIC), Mbps per LUT (FPGA)
    energy               pJ per bit

A figure that cannot be derived (no clock from the generic flow, no decryption latency measured,
no LUT count on an ASIC) is ``None``: we never fill a gap with an assumption.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from .errors import CipherbenchError
from .families import Figure

# The per-key-size figures derive() produces are the block family's (families/block.py, DERIVED),
# which derives them from the formulas below.

# Area and I/O figures copied through so that a stored metrics dict is self-contained for reports.
AREA_FIGURES: tuple[str, ...] = ("area_um2", "gate_equivalents", "transistors", "luts")


# --- small pure formulas -------------------------------------------------------------------


def throughput_mbps(block_bits: int, fmax_mhz: float, cycles_per_block: float) -> float:
    """Block bits x f / cycles between blocks (II for non-feedback, chained cycles for feedback)."""
    return block_bits * fmax_mhz / cycles_per_block


def cycles_to_ns(cycles: float, fmax_mhz: float) -> float:
    """Time of ``cycles`` clock periods at ``fmax_mhz``, in ns."""
    return cycles * 1000.0 / fmax_mhz


def fmax_from_period(period_ns: float) -> float:
    """The clock (MHz) a critical path of ``period_ns`` allows."""
    return 1000.0 / period_ns


def gate_equivalents(area_um2: float, nand2_area_um2: float) -> float:
    """Area expressed in 2-input NAND gates of the same library."""
    return area_um2 / nand2_area_um2


def kbps_per_ge(throughput: float, ge: float) -> float:
    """ASIC efficiency: Kbps per gate equivalent (the usual unit of the ASIC literature)."""
    return throughput * 1000.0 / ge


def mbps_per_lut(throughput: float, luts: float) -> float:
    """FPGA efficiency: Mbps per look-up table."""
    return throughput / luts


def bits_per_clock_per_kge(block_bits: float, cycles_per_block: float, ge: float) -> float:
    """Throughput per area with the clock left out (block bits / cycles per block / GE x 1000):
    how much a core's structure, not its library's speed, does per gate. The lightweight and
    masked literature compares compact cores by it."""
    return block_bits / cycles_per_block / ge * 1000.0


def energy_per_bit_pj(power_mw: float, block_bits: int, clock_mhz: float, ii: float) -> float:
    """Energy per processed bit at the clock the power was measured at, in pJ.

    mW / Mbps = nJ/bit; the factor 1000 gives pJ.
    """
    return power_mw * 1000.0 / throughput_mbps(block_bits, clock_mhz, ii)


# --- input validation ----------------------------------------------------------------------


def checked_number(value: Any, what: str, *, positive: bool) -> float | None:
    """``value`` as a finite number (None stays None); bools and strings are caller bugs."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CipherbenchError(f"metrics: {what} must be a number, got {value!r}")
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        need = "positive" if positive else "non-negative"
        raise CipherbenchError(f"metrics: {what} must be a finite {need} number, got {value!r}")
    return value


def _figures(record: Mapping[str, Any]) -> dict[str, Any]:
    """Measured figures: ``record["measurements"]`` overlaid by any given at the top level."""
    merged: dict[str, Any] = dict(record.get("measurements") or {})
    for key, value in record.items():
        if key not in ("measurements", "cycles") and value is not None:
            merged[key] = value
    return merged


def _clock_mhz(figures: Mapping[str, Any]) -> float | None:
    """fmax as measured, else from the critical path; None when the flow has no clock (generic)."""
    fmax = checked_number(figures.get("fmax_mhz"), "fmax_mhz", positive=True)
    if fmax is not None:
        return fmax
    period = checked_number(figures.get("critical_path_ns"), "critical_path_ns", positive=True)
    return fmax_from_period(period) if period is not None else None


def gate_equivalents_of(figures: Mapping[str, Any]) -> float | None:
    """Gate equivalents as measured, else from the area and the library's NAND2 area."""
    ge = checked_number(figures.get("gate_equivalents"), "gate_equivalents", positive=True)
    if ge is not None:
        return ge
    area = checked_number(figures.get("area_um2"), "area_um2", positive=True)
    nand2 = checked_number(figures.get("nand2_area_um2"), "nand2_area_um2", positive=True)
    return gate_equivalents(area, nand2) if area is not None and nand2 is not None else None


def key_size_label(key_bits: Any) -> str:
    """Key sizes are stored as decimal strings ("128"), the way JSON object keys come back."""
    try:
        bits = int(key_bits)
    except (TypeError, ValueError):
        raise CipherbenchError(f"metrics: key size {key_bits!r} is not a number of bits") from None
    if bits <= 0 or str(bits) != str(key_bits).strip():
        raise CipherbenchError(f"metrics: key size {key_bits!r} is not a positive number of bits")
    return str(bits)


# --- per key size --------------------------------------------------------------------------


# The figures derived per key size (metrics), in the order reports list them. A figure that
# cannot be derived (no clock, no decryption, no LUTs on an ASIC) is null, never assumed.
DERIVED: tuple[Figure, ...] = (
    Figure("throughput_mbps", "Mbps",
           "block bits x clock / `initiation_interval`: non-feedback modes"),
    Figure("throughput_feedback_mbps", "Mbps",
           "block bits x clock / `cycles_per_chained_block`: feedback modes"),
    Figure("bits_per_cycle", "bits/cycle", "block bits / `initiation_interval`"),
    Figure("time_to_encrypt_ns", "ns", "`latency` / clock"),
    Figure("time_to_decrypt_ns", "ns", "`latency_decrypt` / clock"),
    Figure("key_setup_encrypt_ns", "ns", "`key_setup_encrypt` / clock"),
    Figure("key_setup_decrypt_ns", "ns", "`key_setup_decrypt` / clock"),
    Figure("algorithm_setup_ns", "ns", "`algorithm_setup` / clock"),
    Figure("kbps_per_ge", "Kbps/GE", "`throughput_mbps` / gate equivalents (ASIC)"),
    Figure("mbps_per_lut", "Mbps/LUT", "`throughput_mbps` / LUTs (FPGA)"),
    Figure("energy_per_bit_pj", "pJ/bit",
           "power / throughput, both at the clock the power was simulated at"),
)


def _times(cycles: Mapping[str, Any], fmax: float | None, label: str) -> dict[str, float | None]:
    """Cycle counts -> ns. Missing counts or a missing clock give None."""
    pairs = {
        "time_to_encrypt_ns": "latency",
        "time_to_decrypt_ns": "latency_decrypt",
        "key_setup_encrypt_ns": "key_setup_encrypt",
        "key_setup_decrypt_ns": "key_setup_decrypt",
        "algorithm_setup_ns": "algorithm_setup",
    }
    out: dict[str, float | None] = {}
    for figure, count_name in pairs.items():
        count = checked_number(cycles.get(count_name), f"{count_name} (key {label})",
                                        positive=False)
        out[figure] = (cycles_to_ns(count, fmax)
                       if count is not None and fmax is not None else None)
    return out


def per_key_size(block_bits: int, cycles: Mapping[str, Any], fmax: float | None,
                 figures: Mapping[str, Any], label: str) -> dict[str, float | None]:
    """Every DERIVED figure for one key size: ``cycles`` its counts, ``fmax`` the clock in MHz,
    ``figures`` the flow's (area, gate equivalents, LUTs, power); ``label`` names the key size in
    errors."""
    ii = checked_number(cycles.get("initiation_interval"),
                                 f"initiation_interval (key {label})", positive=True)
    chained = checked_number(cycles.get("cycles_per_chained_block"),
                                      f"cycles_per_chained_block (key {label})", positive=True)
    out: dict[str, float | None] = dict.fromkeys(f.name for f in DERIVED)
    if ii is not None:
        out["bits_per_cycle"] = block_bits / ii
    if fmax is not None:
        out["throughput_mbps"] = (throughput_mbps(block_bits, fmax, ii)
                                  if ii is not None else None)
        if chained is not None:
            out["throughput_feedback_mbps"] = throughput_mbps(block_bits, fmax, chained)
    out.update(_times(cycles, fmax, label))
    rate = out["throughput_mbps"]
    if rate is not None:
        ge = gate_equivalents_of(figures)
        luts = checked_number(figures.get("luts"), "luts", positive=True)
        out["kbps_per_ge"] = kbps_per_ge(rate, ge) if ge is not None else None
        out["mbps_per_lut"] = mbps_per_lut(rate, luts) if luts is not None else None
    power = checked_number(figures.get("power_mw"), "power_mw", positive=False)
    # Power is only meaningful at the clock it was simulated at; default to fmax.
    power_clock = checked_number(figures.get("power_clock_mhz"), "power_clock_mhz",
                                          positive=True) or fmax
    if power is not None and power_clock is not None and ii is not None:
        out["energy_per_bit_pj"] = energy_per_bit_pj(power, block_bits, power_clock, ii)
    return out


def by_key_size(block_bits: int, measured: Mapping[Any, Mapping[str, Any]], clock_mhz: float | None,
                flow_figures: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """Every DERIVED figure per key size, keyed by its decimal string in ascending order;
    ``measured``: counts by key size (ints or decimal strings, as JSON gives them back)."""
    by_key: dict[str, dict[str, float | None]] = {}
    for bits in sorted(measured, key=lambda k: int(key_size_label(k))):
        label = key_size_label(bits)
        by_key[label] = per_key_size(block_bits, measured[bits], clock_mhz, flow_figures, label)
    return by_key


# --- the whole record ----------------------------------------------------------------------


def derive(record: Mapping[str, Any], family: Any = None,
           design: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Derived metrics of one measured design on one target.

    ``record`` keys:
        block_bits   int, required
        cycles       {key_bits: {latency, latency_decrypt, initiation_interval,
                     cycles_per_chained_block, key_setup_encrypt, key_setup_decrypt,
                     algorithm_setup}}; keys may be ints or decimal strings
        measurements the flow's figures: fmax_mhz (or critical_path_ns), area_um2,
                     gate_equivalents (or nand2_area_um2 to derive it), transistors, luts,
                     optional power_mw (+ power_clock_mhz)
        io_count     int, optional (may also sit in measurements)
    Measurement keys may also be given at the top level; they override ``measurements``.

    Returns {block_bits, io_count, fmax_mhz, clock_period_ns, area_um2, gate_equivalents,
    transistors, luts, by_key_size: {"128": {the block family's DERIVED figures}}},
    JSON-ready. ``family``: the design's interface family (families/), whose ``metrics`` give
    ``by_key_size`` from ``design`` (its manifest) and the cycles, and whose name the result
    then carries as ``family``; None: the block family's figures.
    """
    block_bits = record.get("block_bits")
    if isinstance(block_bits, bool) or not isinstance(block_bits, int) or block_bits <= 0:
        raise CipherbenchError(
            f"metrics: block_bits must be a positive integer, got {block_bits!r}")
    figures = _figures(record)
    fmax = _clock_mhz(figures)
    io_count = checked_number(figures.get("io_count"), "io_count", positive=False)
    out: dict[str, Any] = {
        "block_bits": block_bits,
        "io_count": int(io_count) if io_count is not None else None,
        "fmax_mhz": fmax,
        "clock_period_ns": cycles_to_ns(1, fmax) if fmax is not None else None,
    }
    for name in AREA_FIGURES:
        out[name] = checked_number(figures.get(name), name, positive=True)
    out["gate_equivalents"] = gate_equivalents_of(figures)
    cycles = record.get("cycles") or {}
    if family is None:
        out["by_key_size"] = by_key_size(block_bits, cycles, fmax, figures)
    else:
        out["family"] = family.name
        out["by_key_size"] = family.metrics(design or record, cycles, fmax, figures)
    return out
