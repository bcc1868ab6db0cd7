"""Analyses across designs: Gaj & Chodowiec's formulas checked against measurement, and the extra
logic a combined encrypt/decrypt core needs (Gaj & Chodowiec Table II).

Formulas (Gaj & Chodowiec, section 3), with the basic iterative core's measured clock period
T = D + o split into round logic D and register overhead o (clock-to-Q + setup, from the timing
report; the input multiplexer stays in D), and tau = o / D:

- loop unrolling by k, formula (2): speed_lu / speed_ba = (1 + tau) / (1 + tau / k); for k not
  dividing the round count R the block takes ceil(R / k) cycles of period k D + o, which we predict.
- inner-round pipelining with s evenly spaced stages, formula (3): speed = block / (R x T_s) with
  the reduced period T_s = D / s + o (s blocks in flight, non-feedback modes); outer pipelining by
  p round units multiplies the non-feedback throughput by p: with both, block x p / (R x T_s).
"""

from __future__ import annotations

import math
from typing import Any, Iterable

from ..spec import DesignSpec
from .names import shape_of
from .tables import Table, design_spec, fmt


def _family(spec: DesignSpec) -> tuple[Any, ...]:
    """Designs comparable with each other: same cipher, key sizes and cipher/direction options."""
    params = {k: v for k, v in spec.params if k in ("ops", "sbox")}
    return (spec.cipher, spec.key_sizes, tuple(sorted(params.items())))


def _structure(spec: DesignSpec) -> tuple[int, int, int] | None:
    """(rounds per clock k, outer round units p, inner stages s) of a design, None if unknown."""
    return shape_of(spec).structure


def _rounds(result: Any, key: str) -> int | None:
    cycles = (result.cycles or {}).get(key) or {}
    return cycles.get("latency") or cycles.get("latency_decrypt")


def _measured_mbps(result: Any, key: str) -> float | None:
    return ((result.metrics or {}).get("by_key_size") or {}).get(key, {}).get("throughput_mbps")


def predicted_mbps(block_bits: int, rounds: int, period_ns: float, overhead_ns: float,
                   structure: tuple[int, int, int]) -> float:
    """Throughput the formulas predict from the basic core's period and register overhead."""
    k, outer, s = structure
    logic = period_ns - overhead_ns
    if k > 1:
        return block_bits / (math.ceil(rounds / k) * (k * logic + overhead_ns)) * 1000
    units = rounds if outer == -1 else outer
    reduced = logic / s + overhead_ns
    return block_bits * units / (rounds * reduced) * 1000


def formula_table(results: Iterable[Any]) -> Table:
    """Predicted against measured throughput for unrolled and pipelined designs, per target."""
    ok = [r for r in results if r.ok and r.target.startswith("asic")]
    basics: dict[tuple[Any, ...], Any] = {}
    for r in ok:
        spec = design_spec(r.design)
        if spec and _structure(spec) == (1, 1, 1):
            basics[(_family(spec), r.target)] = r
    rows = []
    for r in ok:
        spec = design_spec(r.design)
        structure = _structure(spec) if spec else None
        if not spec or not structure or structure == (1, 1, 1):
            continue
        basic = basics.get((_family(spec), r.target))
        if basic is None:
            continue
        m = basic.measurements
        period, overhead = m.get("critical_path_ns"), m.get("register_overhead_ns")
        key = str(min(spec.key_sizes))
        rounds = _rounds(basic, key)
        measured = _measured_mbps(r, key)
        if not (period and overhead and rounds and measured):
            continue
        predicted = predicted_mbps(r.metrics["block_bits"], rounds, period, overhead, structure)
        tau = overhead / (period - overhead)
        formula = "(2) unrolling" if structure[0] > 1 else "(3) pipelining"
        rows.append([r.design, r.target, formula, fmt(tau), fmt(_measured_mbps(basic, key)),
                     fmt(predicted), fmt(measured), fmt(100 * (measured - predicted) / predicted)])
    return Table(
        "Gaj & Chodowiec formulas (2) and (3): predicted from the basic core vs measured",
        ["Design", "Target", "Formula", "tau", "Basic (Mbps)", "Predicted (Mbps)",
         "Measured (Mbps)", "Difference (%)"],
        rows,
        notes=["tau = register overhead (clock-to-Q + setup) / round logic delay of the basic "
               "iterative core on the same target; smallest key size; non-feedback throughput."],
    )


def encrypt_only_twins(results: Iterable[Any]) -> list[tuple[Any, Any, DesignSpec]]:
    """Every ok encrypt+decrypt result with its encrypt-only twin: the same cipher, key sizes,
    architecture, other parameters and target, only ``ops`` differing (Gaj & Chodowiec Table
    II's comparison). Returns (both, encrypt-only, spec of both)."""
    encrypt_only: dict[tuple[Any, ...], Any] = {}
    combined: list[tuple[tuple[Any, ...], Any, DesignSpec]] = []
    for r in results:
        spec = design_spec(r.design)
        if not r.ok or spec is None:
            continue
        rest = tuple((k, v) for k, v in spec.params if k != "ops")
        key = (spec.cipher, spec.key_sizes, spec.arch, rest, r.target)
        ops = spec.param_dict.get("ops", "both")
        if ops == "encrypt":
            encrypt_only[key] = r
        elif ops == "both":
            combined.append((key, r, spec))
    return [(r, encrypt_only[key], spec) for key, r, spec in sorted(combined, key=lambda e: str(e[0]))
            if key in encrypt_only]


def sharing_table(results: Iterable[Any]) -> Table:
    """Extra area of encrypt+decrypt cores over encrypt-only ones (Gaj & Chodowiec Table II)."""
    rows = []
    for both, enc, spec in encrypt_only_twins(results):
        both_area, enc_area = _area(both), _area(enc)
        if not both_area or not enc_area:
            continue
        params = [(k, v) for k, v in spec.params if k != "ops"]
        label = f"{spec.cipher}-{'/'.join(map(str, spec.key_sizes))} {spec.arch}" + (
            ":" + ",".join(f"{k}={v}" for k, v in params) if params else "")
        rows.append([label, both.target, fmt(enc_area), fmt(both_area),
                     fmt(100 * (both_area - enc_area) / enc_area)])
    return Table(
        "Encryption and decryption in one core (Gaj & Chodowiec Table II)",
        ["Design", "Target", "Encrypt-only area", "Enc+dec area", "Extra (%)"],
        rows,
        notes=["Area in GE (ASIC), LUTs (FPGA) or transistors (generic)."],
    )


def _area(result: Any) -> float | None:
    m = result.measurements or {}
    for name in ("gate_equivalents", "luts", "transistors"):
        if m.get(name):
            return float(m[name])
    return None
